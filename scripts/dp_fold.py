#!/usr/bin/python3
"""Why the double pendulum's index-3 form fails on coarse uniform meshes
(issue 26): are there collocation solutions near the motion for long
elements, or does the branch of solutions fold?

Independent of radcol (numpy/scipy only): the model of
problems/double_pendulum.c (index3: Z = x1 y1 x2 y2 u1 v1 u2 v2, lambda =
l1 l2, 0 = pos1 = pos2; default parameters), the exact motion from the angle
ODE (scipy DOP853, rtol 1e-12), and one Radau IIA element of s stages from
the exact state Z(t0):

    Z_i = Z(t0) + h sum_j a_ij F(Z_j, lambda_j),   pos(Z_i) = 0,  i = 1..s.

From h = 0.01 (Newton from the exact motion's stage values) the branch of
solutions is followed in (stage values, h) by pseudo-arclength continuation
(Jacobian by central differences, multipliers scaled by h^2). Where h stops
growing along the branch and turns back, the branch folds: no solution of
that branch exists for longer elements, and Newton from any predictor near
the motion cannot converge there. For each start time t0 on a grid and s,
prints h* (the largest h reached on the branch; "> HMAX" when none folds
below HMAX), the distance of the solution at the fold from the motion, and
writes results/dp-fold.md.

Usage: scripts/dp_fold.py [--stages 3,5] [--t0 0:5:0.25] [--hmax 0.6]
"""
import argparse
import datetime
import math
import os
import sys

import numpy as np
from scipy.integrate import solve_ivp

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

M1, M2, L1, L2, G = 5.0, 1.0, 1.0, 1.0, 9.81
TH1, TH2, W1, W2 = math.pi / 2, math.pi / 4, 0.0, -0.1


def angle_rhs(t, y):
    th1, th2, w1, w2 = y
    d = th1 - th2
    a = np.array([[(M1 + M2) * L1, M2 * L2 * math.cos(d)],
                  [L1 * math.cos(d), L2]])
    b = np.array([-M2 * L2 * w2 ** 2 * math.sin(d) - (M1 + M2) * G * math.sin(th1),
                  L1 * w1 ** 2 * math.sin(d) - G * math.sin(th2)])
    a1, a2 = np.linalg.solve(a, b)
    return [w1, w2, a1, a2]


def cartesian(y):
    th1, th2, w1, w2 = y
    x1, y1 = L1 * math.sin(th1), -L1 * math.cos(th1)
    x2, y2 = x1 + L2 * math.sin(th2), y1 - L2 * math.cos(th2)
    u1, v1 = L1 * w1 * math.cos(th1), L1 * w1 * math.sin(th1)
    u2, v2 = u1 + L2 * w2 * math.cos(th2), v1 + L2 * w2 * math.sin(th2)
    return np.array([x1, y1, x2, y2, u1, v1, u2, v2])


def F(z, lam):
    x1, y1, x2, y2, u1, v1, u2, v2 = z
    l1, l2 = lam
    dx, dy = x1 - x2, y1 - y2
    return np.array([u1, v1, u2, v2,
                     (x1 * l1 + dx * l2) / M1, (y1 * l1 + dy * l2) / M1 - G,
                     -dx * l2 / M2, -dy * l2 / M2 - G])


def pos(z):
    x1, y1, x2, y2 = z[:4]
    return np.array([x1 * x1 + y1 * y1 - L1 * L1,
                     (x1 - x2) ** 2 + (y1 - y2) ** 2 - L2 * L2])


def radau(s):
    """Radau IIA nodes c and matrix A (c_s = 1)."""
    from numpy.polynomial import legendre as L
    # roots of P_s(2c-1) - P_{s-1}(2c-1)
    p = np.zeros(s + 1)
    p[s], p[s - 1] = 1.0, -1.0
    c = np.sort((np.real(L.legroots(p)) + 1) / 2)
    c[-1] = 1.0
    V = np.array([[ci ** k for k in range(s)] for ci in c])
    A = np.zeros((s, s))
    for i, ci in enumerate(c):
        rhs = np.array([ci ** (k + 1) / (k + 1) for k in range(s)])
        A[i] = np.linalg.solve(V.T, rhs)
    return c, A


def residual(X, h, z0, A, s):
    """X = (Z_1..Z_s, h^2 lambda_1..s); 10 s equations."""
    Z = X[:8 * s].reshape(s, 8)
    Lam = X[8 * s:].reshape(s, 2) / (h * h)
    Fz = np.array([F(Z[j], Lam[j]) for j in range(s)])
    r1 = Z - z0 - h * (A @ Fz)
    r2 = np.array([pos(Z[i]) for i in range(s)])
    return np.concatenate([r1.ravel(), r2.ravel()])


def jac(fun, x, eps=1e-7):
    f0 = fun(x)
    J = np.zeros((f0.size, x.size))
    for k in range(x.size):
        d = eps * max(1.0, abs(x[k]))
        xp, xm = x.copy(), x.copy()
        xp[k] += d
        xm[k] -= d
        J[:, k] = (fun(xp) - fun(xm)) / (2 * d)
    return J


def exact_stages(sol, t0, h, c):
    """Stage values of the motion at t0 + c h: (Z_i, h^2 lambda_i) with the
    multipliers from Newton's law, as problems/double_pendulum.c does."""
    Z, Lm = [], []
    for ci in c:
        y = sol.sol(t0 + ci * h)
        z = cartesian(y)
        dy = angle_rhs(0, y)
        th1, th2, w1, w2 = y
        a1, a2 = dy[2], dy[3]
        ax1 = L1 * (a1 * math.cos(th1) - w1 * w1 * math.sin(th1))
        ay1 = L1 * (a1 * math.sin(th1) + w1 * w1 * math.cos(th1))
        ax2 = ax1 + L2 * (a2 * math.cos(th2) - w2 * w2 * math.sin(th2))
        ay2 = ay1 + L2 * (a2 * math.sin(th2) + w2 * w2 * math.cos(th2))
        dx, dyy = z[2] - z[0], z[3] - z[1]
        l2 = M2 * (ax2 * dx + (ay2 + G) * dyy) / L2 ** 2
        f1x = M1 * ax1 - (-dx) * l2
        f1y = M1 * (ay1 + G) - (-dyy) * l2
        l1 = (f1x * z[0] + f1y * z[1]) / L1 ** 2
        Z.append(z)
        Lm.append([l1, l2])
    return np.concatenate([np.array(Z).ravel(), (h * h) * np.array(Lm).ravel()])


def newton(fun, x, tol=1e-11, maxit=30):
    for _ in range(maxit):
        r = fun(x)
        if np.max(np.abs(r)) < tol:
            return x, True
        x = x - np.linalg.lstsq(jac(fun, x), r, rcond=None)[0]
    return x, np.max(np.abs(fun(x))) < tol


def follow(sol, t0, s, hmax, h0=0.01, ds=0.01, maxsteps=4000):
    """The branch from h0: (h*, folded?, distance from the motion at h*)."""
    c, A = radau(s)
    z0 = cartesian(sol.sol(t0))
    X, ok = newton(lambda X: residual(X, h0, z0, A, s), exact_stages(sol, t0, h0, c))
    if not ok:
        return None
    u = np.concatenate([X, [h0]])
    aug = lambda u: residual(u[:-1], u[-1], z0, A, s)
    J = jac(aug, u)
    tang = np.linalg.svd(J)[2][-1]
    if tang[-1] < 0:
        tang = -tang
    hbest, ubest = h0, u
    for _ in range(maxsteps):
        pred = u + ds * tang
        def ext(v, pred=pred, tang=tang):
            return np.concatenate([aug(v), [tang @ (v - pred)]])
        v, ok = newton(ext, pred, tol=1e-10, maxit=12)
        if not ok:
            ds /= 2
            if ds < 1e-6:
                break
            continue
        Jn = jac(aug, v)
        tn = np.linalg.svd(Jn)[2][-1]
        if tn @ tang < 0:
            tn = -tn
        u, tang = v, tn
        if u[-1] > hbest:
            hbest, ubest = u[-1], u
        if u[-1] >= hmax:
            return hbest, False, None
        if u[-1] < hbest - 0.02 or u[-1] < h0:   # turned back: a fold
            break
        ds = min(ds * 1.3, 0.02)
    h = ubest[-1]
    ex = exact_stages(sol, t0, h, c)
    dist = np.max(np.abs(ubest[:8 * s] - ex[:8 * s]))
    return hbest, True, dist


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stages", default="3,5")
    ap.add_argument("--t0", default="0:5:0.25", help="start:stop:step of element starts")
    ap.add_argument("--hmax", type=float, default=0.6)
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "dp-fold.md"))
    a = ap.parse_args()
    t_a, t_b, t_d = (float(x) for x in a.t0.split(":"))
    starts = np.arange(t_a, t_b - 1e-12, t_d)
    sol = solve_ivp(angle_rhs, (0, 5.0 + a.hmax), [TH1, TH2, W1, W2], method="DOP853",
                    rtol=1e-12, atol=1e-12, dense_output=True)
    stages = [int(x) for x in a.stages.split(",")]
    rows = []
    for t0 in starts:
        row = [t0]
        for s in stages:
            r = follow(sol, t0, s, a.hmax)
            row.append(r)
            txt = ("no start" if r is None else
                   ("> %.2f" % a.hmax if not r[1] else "%.3f (dist %.2g)" % (r[0], r[2])))
            print("t0 %.2f s %d: h* %s" % (t0, s, txt), flush=True)
        rows.append(row)
    L = ["# Double pendulum index 3: where the collocation branch folds\n",
         "Written by `scripts/dp_fold.py --stages %s --t0 %s --hmax %g` (%s UTC). "
         "One Radau IIA element of s stages from the exact state Z(t0) "
         "(angle ODE, scipy DOP853 rtol 1e-12), its solution followed from "
         "h = 0.01 in h by pseudo-arclength continuation; h* is the largest "
         "element length on that branch (the fold), dist the largest "
         "difference of its stage positions/velocities from the motion at "
         "h*. `> %g`: no fold below it.\n" % (a.stages, a.t0, a.hmax,
                                              datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"),
                                              a.hmax),
         "| t0 | " + " | ".join("h* (s = %d)" % s for s in stages) + " |",
         "|---|" + "---|" * len(stages)]
    for row in rows:
        cells = []
        for r in row[1:]:
            if r is None:
                cells.append("no start")
            elif not r[1]:
                cells.append("> %g" % a.hmax)
            else:
                cells.append("%.3f (dist %.2g)" % (r[0], r[2]))
        L.append("| %.2f | %s |" % (row[0], " | ".join(cells)))
    for k, s in enumerate(stages):
        hs = [r[k + 1][0] for r in rows if r[k + 1] is not None and r[k + 1][1]]
        if hs:
            L.append("\ns = %d: smallest h* %.3f (tf / h* = %.1f elements)" %
                     (s, min(hs), 5.0 / min(hs)))
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(L) + "\n")
    print("\n".join(L))


if __name__ == "__main__":
    main()
