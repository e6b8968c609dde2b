#!/usr/bin/python3
"""Independent h(tf) of the COPS Goddard rocket, by the necessary conditions.

Not radcol.  With x = (h, v, m) and x' = f0(x) + T f1(x), f0 = (v, -D/m - g, 0),
f1 = (0, 1/m, -1/c), the thrust is bang-singular-bang (COPS 3.0, sec. 10;
Seywald and Cliff 1993).  On a singular arc the switching function
lam.f1 and its derivative lam.[f0, f1] vanish, and so does the Hamiltonian
lam.f0 (free final time): lam != 0 is orthogonal to f0, f1 and [f0, f1], so
the arc lies on the surface det(f0, f1, [f0, f1]) = 0, and with lam along
f1 x [f0, f1] the singular thrust is
    T_s = -lam.[f0, [f0, f1]] / lam.[f1, [f0, f1]]
([f, g] = Dg f - Df g; sympy derives the brackets).  The trajectory is then
fixed without any optimisation: full thrust until the surface is reached,
T_s until the fuel is spent (m = mc), coasting until v = 0, where h is
maximal.  Integrated by scipy's DOP853 with event location, rtol 1e-13 (and
1e-11 to show the digits).

usage: benchmarks/ocp/goddard-rocket/independent.py
"""
import argparse
import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp

argparse.ArgumentParser(description=__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()

hc, vc, Tc, mc, c = 500.0, 620.0, 3.5, 0.6, 0.5
Dc = 0.5 * vc
h, v, m = sp.symbols("h v m", positive=True)
X = sp.Matrix([h, v, m])
D = Dc * v**2 * sp.exp(-hc * (h - 1))
f0 = sp.Matrix([v, -D / m - 1 / h**2, 0])
f1 = sp.Matrix([0, 1 / m, -1 / c])


def br(f, g):
    return g.jacobian(X) * f - f.jacobian(X) * g


b01 = br(f0, f1)
lam = f1.cross(b01)
surface = sp.Matrix.hstack(f0, f1, b01).det()
Ts = -(lam.T * br(f0, b01))[0] / (lam.T * br(f1, b01))[0]
surf_fn = sp.lambdify((h, v, m), surface, "numpy")
Ts_fn = sp.lambdify((h, v, m), Ts, "numpy")


def rhs(T):
    def f(t, y):
        hh, vv, mm = y
        thrust = T(y)
        drag = Dc * vv**2 * np.exp(-hc * (hh - 1))
        return [vv, (thrust - drag) / mm - 1 / hh**2, -thrust / c]
    return f


def fly(rtol):
    kw = dict(method="DOP853", rtol=rtol, atol=1e-15, dense_output=False)
    y0, t0 = [1.0, 0.0, 1.0], 0.0
    # 1. full thrust until the singular surface
    ev = lambda t, y: surf_fn(*y)
    ev.terminal = True
    s1 = solve_ivp(rhs(lambda y: Tc), (t0, 1.0), y0, events=ev, **kw)
    t1, y1 = s1.t_events[0][0], s1.y_events[0][0]
    # 2. singular thrust until m = mc
    em = lambda t, y: y[2] - mc
    em.terminal = True
    s2 = solve_ivp(rhs(lambda y: Ts_fn(*y)), (t1, 1.0), y1, events=em, **kw)
    t2, y2 = s2.t_events[0][0], s2.y_events[0][0]
    Tmin = min(Ts_fn(*s2.y[:, k]) for k in range(s2.y.shape[1]))
    Tmax = max(Ts_fn(*s2.y[:, k]) for k in range(s2.y.shape[1]))
    # 3. coast until v = 0
    evv = lambda t, y: y[1]
    evv.terminal = True
    s3 = solve_ivp(rhs(lambda y: 0.0), (t2, 2.0), y2, events=evv, **kw)
    tf, yf = s3.t_events[0][0], s3.y_events[0][0]
    return t1, t2, tf, yf[0], Tmin, Tmax


for rtol in (1e-13, 1e-11):
    t1, t2, tf, hf, a, b = fly(rtol)
    print("rtol %g: switch to singular at t1 = %.12f, fuel out at t2 = %.12f, "
          "tf = %.12f; T_s in [%.4f, %.4f]" % (rtol, t1, t2, tf, a, b))
    print("          h(tf) = %.16g" % hf)
