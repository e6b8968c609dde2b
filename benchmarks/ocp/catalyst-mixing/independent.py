#!/usr/bin/python3
"""Independent optimum of the COPS catalyst mixing problem.

Not radcol.  x' = f0(x) + u f1(x) with f0 = (0, -x2), f1 = (10 x2 - x1,
x1 - 9 x2); the control is bang-singular-bang, u = 1, singular, u = 0
(Gunn and Thomas 1965; von Stryk 1999).  On the singular arc the switching
function lam.f1 and its derivative lam.[f0, f1] vanish, so the arc lies on
det(f1, [f0, f1]) = 0 and, with lam orthogonal to f1, the singular control is
    u_s = -lam.[f0, [f0, f1]] / lam.[f1, [f0, f1]]
(sympy derives the brackets, [f, g] = Dg f - Df g).  The first switch is
where u = 1 reaches that surface; the second, t2, is the one unknown left:
J(t2) = -1 + x1(1) + x2(1) is minimised over t2 (scipy minimize_scalar,
Brent, xtol 1e-12), each trajectory integrated by scipy's DOP853 with event
location at rtol 1e-13 (and 1e-11 to show the digits).

usage: benchmarks/ocp/catalyst-mixing/independent.py
"""
import argparse
import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp
from scipy.optimize import minimize_scalar

argparse.ArgumentParser(description=__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()

x1, x2 = sp.symbols("x1 x2")
X = sp.Matrix([x1, x2])
f0 = sp.Matrix([0, -x2])
f1 = sp.Matrix([10 * x2 - x1, x1 - 9 * x2])


def br(f, g):
    return g.jacobian(X) * f - f.jacobian(X) * g


b01 = br(f0, f1)
lam = sp.Matrix([-f1[1], f1[0]])
surface = sp.Matrix.hstack(f1, b01).det()
us = sp.simplify(-(lam.T * br(f0, b01))[0] / (lam.T * br(f1, b01))[0])
surf_fn = sp.lambdify((x1, x2), surface, "numpy")
us_fn = sp.lambdify((x1, x2), us, "numpy")


def rhs(u):
    def f(t, y):
        uu = u(y)
        return [uu * (10 * y[1] - y[0]), uu * (y[0] - 9 * y[1]) - y[1]]
    return f


def cost(t2, rtol, info=None):
    kw = dict(method="DOP853", rtol=rtol, atol=1e-16)
    ev = lambda t, y: surf_fn(*y)
    ev.terminal = True
    ev.direction = 0
    s1 = solve_ivp(rhs(lambda y: 1.0), (0.0, 1.0), [1.0, 0.0], events=ev, **kw)
    # terminal: the first crossing of the surface
    t1, y1 = s1.t_events[0][-1], s1.y_events[0][-1]
    s2 = solve_ivp(rhs(lambda y: us_fn(*y)), (t1, t2), y1, **kw)
    s3 = solve_ivp(rhs(lambda y: 0.0), (t2, 1.0), s2.y[:, -1], **kw)
    if info is not None:
        u = [us_fn(*s2.y[:, k]) for k in range(s2.y.shape[1])]
        info.update(t1=t1, umin=min(u), umax=max(u))
    return -1 + s3.y[0, -1] + s3.y[1, -1]


for rtol in (1e-13, 1e-11):
    r = minimize_scalar(cost, bounds=(0.2, 0.99), method="bounded", args=(rtol,),
                        options={"xatol": 1e-12})
    info = {}
    J = cost(r.x, rtol, info)
    print("rtol %g: t1 = %.10f, t2 = %.10f, u_s in [%.4f, %.4f]"
          % (rtol, info["t1"], r.x, info["umin"], info["umax"]))
    print("          J = %.16g" % J)
