#!/usr/bin/python3
"""Independent optimum of the hyper-sensitive problem, tf = 10 (not radcol).

J = int_0^10 x^2 + u^2, x' = -x^3 + u, x(0) = 1, x(10) = 1.5.  Pontryagin:
u = -lam/2, x' = -x^3 - lam/2, lam' = -2x + 3x^2 lam.  Multiple shooting
(K segments, unknowns lam(0) and (x, lam) at the inner nodes) with scipy's
DOP853 at rtol 1e-13, solved by scipy.optimize.root (hybr); the start comes
from scipy's solve_bvp (tol 1e-8).  J is integrated along as a third state.
K = 10 and K = 20 are both run: their difference shows the digits.

usage: benchmarks/ocp/hypersensitive/independent.py
"""
import argparse
import numpy as np
from scipy.integrate import solve_bvp, solve_ivp
from scipy.optimize import root

argparse.ArgumentParser(description=__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()

T = 10.0


def rhs(t, y):
    x, l, _ = y
    return [-x**3 - l / 2, -2 * x + 3 * x**2 * l, x**2 + l**2 / 4]


def shoot(K):
    ts = np.linspace(0, T, K + 1)

    def seg(k, x, l):
        s = solve_ivp(rhs, [ts[k], ts[k + 1]], [x, l, 0.0], method="DOP853",
                      rtol=1e-13, atol=1e-16)
        return s.y[:, -1]

    def res(z):
        x, l, r = 1.0, z[0], []
        for k in range(K):
            e = seg(k, x, l)
            if k < K - 1:
                xn, ln = z[1 + 2 * k], z[2 + 2 * k]
                r += [e[0] - xn, e[1] - ln]
                x, l = xn, ln
            else:
                r.append(e[0] - 1.5)
        return r

    tt = np.linspace(0, T, 201)
    g = np.vstack([np.exp(-tt) + 1.5 * np.exp(tt - T), np.zeros_like(tt)])
    bv = solve_bvp(lambda t, y: np.vstack([-y[0]**3 - y[1] / 2,
                                           -2 * y[0] + 3 * y[0]**2 * y[1]]),
                   lambda a, b: np.array([a[0] - 1, b[0] - 1.5]), tt, g,
                   tol=1e-8, max_nodes=100000)
    z0 = [bv.sol(0)[1]]
    for k in range(1, K):
        z0 += list(bv.sol(ts[k]))
    z = root(res, z0, method="hybr", tol=1e-15).x
    x, l, J = 1.0, z[0], 0.0
    for k in range(K):
        J += seg(k, x, l)[2]
        if k < K - 1:
            x, l = z[1 + 2 * k], z[2 + 2 * k]
    return J, np.max(np.abs(res(z)))


for K in (10, 20):
    J, r = shoot(K)
    print("K = %d segments: J = %.16g (max shooting residual %.1e)" % (K, J, r))
