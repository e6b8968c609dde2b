#!/usr/bin/python3
"""Independent optima of the COPS parameter-estimation problems.

Not radcol: each least-squares problem is solved as it is stated (ODE,
measurement times, data), by scipy.optimize.least_squares over the unknown
parameters (and, for marine-population, the initial state), with the model
integrated by scipy's DOP853 (explicit Runge-Kutta 8(5,3)) at rtol 1e-13
from one start given below; the objective printed is sum |y(tau_j) - z_j|^2
at the optimum.  Parameters that end at their bound 0 are then fixed there
and the rest polished by Levenberg-Marquardt; the derivative of the
objective with respect to each fixed one is printed (>= 0: optimal).  The
data are the COPS 3.0 tables (the same as in each
model.py).  A second integration at rtol 1e-12 shows how many digits the
value carries.

usage: benchmarks/estimation/independent.py [NAME ...]   (default: all)
"""
import argparse

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import least_squares

GAS_T = [0.0, 0.025, 0.05, 0.075, 0.10, 0.125, 0.150, 0.175, 0.20, 0.225, 0.250,
         0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.65, 0.75, 0.85, 0.95]
GAS_Z = [(1.0000, 0), (0.8105, 0.2000), (0.6208, 0.2886), (0.5258, 0.3010),
         (0.4345, 0.3215), (0.3903, 0.3123), (0.3342, 0.2716), (0.3034, 0.2551),
         (0.2735, 0.2258), (0.2405, 0.1959), (0.2283, 0.1789), (0.2071, 0.1457),
         (0.1669, 0.1198), (0.1530, 0.0909), (0.1339, 0.0719), (0.1265, 0.0561),
         (0.1200, 0.0460), (0.0990, 0.0280), (0.0870, 0.0190), (0.0770, 0.0140),
         (0.0690, 0.0100)]
METH_T = [0.0, 0.050, 0.065, 0.080, 0.123, 0.233, 0.273, 0.354, 0.397, 0.418, 0.502,
          0.553, 0.681, 0.750, 0.916, 0.937, 1.122]
METH_Z = [(1.0000, 0.0000, 0.0000), (0.7085, 0.1621, 0.0811), (0.5971, 0.1855, 0.0965),
          (0.5537, 0.1989, 0.1198), (0.3684, 0.2845, 0.1535), (0.1712, 0.3491, 0.2097),
          (0.1198, 0.3098, 0.2628), (0.0747, 0.3576, 0.2467), (0.0529, 0.3347, 0.2884),
          (0.0415, 0.3388, 0.2757), (0.0261, 0.3557, 0.3167), (0.0208, 0.3483, 0.2954),
          (0.0085, 0.3836, 0.2950), (0.0053, 0.3611, 0.2937), (0.0019, 0.3609, 0.2831),
          (0.0018, 0.3485, 0.2846), (0.0006, 0.3698, 0.2899)]
PIN_T = [1230.0, 3060.0, 4920.0, 7800.0, 10680.0, 15030.0, 22620.0, 36420.0]
PIN_Z = [(88.35, 7.3, 2.3, 0.4, 1.75), (76.4, 15.6, 4.5, 0.7, 2.8),
         (65.1, 23.1, 5.3, 1.1, 5.8), (50.4, 32.9, 6.0, 1.5, 9.3),
         (37.5, 42.7, 6.0, 1.9, 12.0), (25.9, 49.1, 5.9, 2.2, 17.0),
         (14.0, 57.4, 5.1, 2.6, 21.0), (4.5, 63.1, 3.8, 2.9, 25.7)]
MAR_T = [0.5 * j for j in range(21)]
MAR_Z = [(20000, 17000, 10000, 15000, 12000, 9000, 7000, 3000),
         (12445, 15411, 13040, 13338, 13484, 8426, 6615, 4022),
         (7705, 13074, 14623, 11976, 12453, 9272, 6891, 5020),
         (4664, 8579, 12434, 12603, 11738, 9710, 6821, 5722),
         (2977, 7053, 11219, 11340, 13665, 8534, 6242, 5695),
         (1769, 5054, 10065, 11232, 12112, 9600, 6647, 7034),
         (943, 3907, 9473, 10334, 11115, 8826, 6842, 7348),
         (581, 2624, 7421, 10297, 12427, 8747, 7199, 7684),
         (355, 1744, 5369, 7748, 10057, 8698, 6542, 7410),
         (223, 1272, 4713, 6869, 9564, 8766, 6810, 6961),
         (137, 821, 3451, 6050, 8671, 8291, 6827, 7525),
         (87, 577, 2649, 5454, 8430, 7411, 6423, 8388),
         (49, 337, 2058, 4115, 7435, 7627, 6268, 7189),
         (32, 228, 1440, 3790, 6474, 6658, 5859, 7467),
         (17, 168, 1178, 3087, 6524, 5880, 5562, 7144),
         (11, 99, 919, 2596, 5360, 5762, 4480, 7256),
         (7, 65, 647, 1873, 4556, 5058, 4944, 7538),
         (4, 44, 509, 1571, 4009, 4527, 4233, 6649),
         (2, 27, 345, 1227, 3677, 4229, 3805, 6378),
         (1, 20, 231, 934, 3197, 3695, 3159, 6454),
         (1, 12, 198, 707, 2562, 3163, 3232, 5566)]


def gas_rhs(t, y, th):
    return [-(th[0] + th[2]) * y[0]**2, th[0] * y[0]**2 - th[1] * y[1]]


def meth_rhs(t, y, th):
    den = (th[1] + th[4]) * y[0] + y[1]
    return [-(2 * th[1] - th[0] * y[1] / den + th[2] + th[3]) * y[0],
            th[0] * y[0] * (th[1] * y[0] - y[1]) / den + th[2] * y[0],
            th[0] * y[0] * (y[1] + th[4] * y[0]) / den + th[3] * y[0]]


def pin_rhs(t, y, p):
    th = np.asarray(p) * 1e-5
    return [-(th[0] + th[1]) * y[0], th[0] * y[0],
            th[1] * y[0] - (th[2] + th[3]) * y[2] + th[4] * y[4],
            th[2] * y[2], th[3] * y[2] - th[4] * y[4]]


def mar_rhs(t, y, q):
    g, m = q[:7], q[7:]
    d = [-(m[0] + g[0]) * y[0]]
    for i in range(1, 7):
        d.append(g[i - 1] * y[i - 1] - (m[i] + g[i]) * y[i])
    d.append(g[6] * y[6] - m[7] * y[7])
    return d


# name: (rhs, times, data, fixed y0 or None (free, fitted), number of
#        parameters, start)
PROBLEMS = {
    "gas-oil": (gas_rhs, GAS_T, GAS_Z, [1.0, 0.0], 3, [10.0, 10.0, 1.0]),
    "methanol": (meth_rhs, METH_T, METH_Z, [1.0, 0.0, 0.0], 5, [1.0] * 5),
    "alpha-pinene": (pin_rhs, PIN_T, PIN_Z, [100.0, 0, 0, 0, 0], 5,
                     [5.0, 3.0, 2.0, 20.0, 5.0]),
    "marine-population": (mar_rhs, MAR_T, MAR_Z, None, 15, [0.5] * 7 + [0.1] * 8),
}


def residuals(v, prob, rtol):
    rhs, tau, z, y0, npar, _ = prob
    th = v[:npar]
    if y0 is None:
        y0 = v[npar:]
    t_end = tau[-1]
    s = solve_ivp(rhs, (0.0, t_end), y0, method="DOP853", t_eval=tau, args=(th,),
                  rtol=rtol, atol=1e-14 * max(1.0, max(map(abs, y0))))
    if not s.success:
        return np.full(len(tau) * len(z[0]), 1e6)
    return (s.y.T - np.asarray(z, float)).ravel()


def solve(name):
    prob = PROBLEMS[name]
    npar, start = prob[4], prob[5]
    v0 = list(start) + (list(prob[2][0]) if prob[3] is None else [])
    lo = [0.0] * npar + [-np.inf] * (len(v0) - npar)
    sol = least_squares(residuals, v0, args=(prob, 1e-13), bounds=(lo, np.inf),
                        xtol=1e-15, ftol=1e-15, gtol=1e-15, x_scale="jac",
                        max_nfev=2000)
    # Polish: parameters the bounded solver left at (or within 1e-12 of)
    # their bound 0 are fixed there, the rest re-solved without bounds by
    # Levenberg-Marquardt (MINPACK), which converges fully where the
    # trust-region reflective method above stalls next to a bound.
    x = sol.x.copy()
    at0 = [i for i in range(npar) if x[i] <= 1e-12]
    free = [i for i in range(len(x)) if i not in at0]
    x[at0] = 0.0

    def res_free(vf):
        v = x.copy()
        v[free] = vf
        return residuals(v, prob, 1e-13)

    lm = least_squares(res_free, x[free], method="lm", xtol=1e-15, ftol=1e-15,
                       gtol=1e-15, x_scale="jac")
    x[free] = lm.x
    # optimality of the fixed ones: d f / d theta_i >= 0 at theta_i = 0
    r = residuals(x, prob, 1e-13)
    grads = []
    for i in at0:
        e = np.zeros_like(x)
        e[i] = 1e-7 * max(1.0, abs(x).max())
        grads.append((i, float((residuals(x + e, prob, 1e-13) @
                                residuals(x + e, prob, 1e-13) - r @ r) / e[i])))
    sol.x = x
    r13 = residuals(sol.x, prob, 1e-13)
    r12 = residuals(sol.x, prob, 1e-12)
    f13, f12 = float(r13 @ r13), float(r12 @ r12)
    print("%s: %s; polished by Levenberg-Marquardt: %s" % (name, sol.message,
                                                           lm.message))
    for i, gi in grads:
        print("  parameter %d at its bound 0, d objective / d it = %.3g "
              "(>= 0: optimal there)" % (i + 1, gi))
    print("  parameters: %s" % " ".join("%.10g" % x for x in sol.x[:npar]))
    print("  objective  = %.16g   (rtol 1e-12: %.16g, relative difference %.1e)"
          % (f13, f12, abs(f13 - f12) / f13))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", metavar="NAME",
                    help="%s (default: all)" % ", ".join(PROBLEMS))
    names = ap.parse_args().names or list(PROBLEMS)
    for n in names:
        if n not in PROBLEMS:
            ap.error("%s: expected one of %s" % (n, ", ".join(PROBLEMS)))
    for n in names:
        solve(n)
