"""Independent reference for the car axis: the state-space ODE in (p, v),
typed from the test set's Fortran (caraxis.f, Test Set for IVP Solvers 2.4)
without sympy and without radcol.  With k = M eps^2 / 2, p = (xl, yl, xr,
yr), the constraints phi(p, t) = 0 and Phi = dphi/dp,

    k p'' = F(p, t) + Phi^T lam,      phi'' = Phi p'' + gamma(p, p', t) = 0,

so lam solves (Phi Phi^T / k) lam = -(Phi F / k + gamma), gamma being the
terms of phi'' without p'' (written out below from xb^2 + yb^2 = L^2)."""
import numpy as np

NAMES = ["xl", "yl", "xr", "yr", "ul", "vl", "ur", "vr", "lam1", "lam2"]
COMPARE = ["xl", "yl", "xr", "yr"]     # positions
FORM = ("the state-space ODE in (p, v), lam from the acceleration "
        "constraint, typed from the test set's Fortran")
T_END = 3.0
METHODS = [("DOP853", 1e-13, 1e-15), ("Radau", 1e-12, 1e-14)]

EPS, M, L, L0, R, W, G = 1e-2, 10.0, 1.0, 0.5, 0.1, 10.0, 1.0
K = M * EPS * EPS / 2


def y0():
    return np.array([0.0, L0, L, L0, -L0 / L, 0.0, -L0 / L, 0.0])


def road(t):
    yb = R * np.sin(W * t)
    yb1 = R * W * np.cos(W * t)
    yb2 = -R * W * W * np.sin(W * t)
    xb = np.sqrt(L * L - yb * yb)
    xb1 = -yb * yb1 / xb
    xb2 = -(xb1 * xb1 + yb1 * yb1 + yb * yb2) / xb
    return xb, xb1, xb2, yb, yb1, yb2


def forces(t, p):
    xl, yl, xr, yr = p
    xb, _, _, yb, _, _ = road(t)
    Ll = np.sqrt(xl**2 + yl**2)
    Lr = np.sqrt((xr - xb)**2 + (yr - yb)**2)
    F = np.array([(L0 - Ll) * xl / Ll,
                  (L0 - Ll) * yl / Ll - K * G,
                  (L0 - Lr) * (xr - xb) / Lr,
                  (L0 - Lr) * (yr - yb) / Lr - K * G])
    Phi = np.array([[xb, yb, 0.0, 0.0],
                    [2 * (xl - xr), 2 * (yl - yr), -2 * (xl - xr), -2 * (yl - yr)]])
    return F, Phi


def lam_of(t, y):
    p, v = y[:4], y[4:]
    F, Phi = forces(t, p)
    xl, yl = p[0], p[1]
    ul, vl, ur, vr = v
    xb, xb1, xb2, yb, yb1, yb2 = road(t)
    gamma = np.array([xb2 * xl + 2 * xb1 * ul + yb2 * yl + 2 * yb1 * vl,
                      2 * (ul - ur)**2 + 2 * (vl - vr)**2])
    A = Phi @ Phi.T / K
    lam = np.linalg.solve(A, -(Phi @ F / K + gamma))
    return lam, F, Phi


def rhs(t, y):
    lam, F, Phi = lam_of(t, y)
    return np.concatenate([y[4:], (F + Phi.T @ lam) / K])


def full(t, y):
    lam, _, _ = lam_of(t, y)
    return np.concatenate([y, lam])


def drift(t, y):
    p, v = y[:4], y[4:]
    xb, xb1, _, yb, yb1, _ = road(t)
    xl, yl, xr, yr = p
    phi = [xb * xl + yb * yl, (xl - xr)**2 + (yl - yr)**2 - L * L]
    _, Phi = forces(t, p)
    dphi = Phi @ v + np.array([xb1 * xl + yb1 * yl, 0.0])
    return max(np.max(np.abs(phi)), np.max(np.abs(dphi)))


# Test Set for IVP Solvers 2.4, caraxis.f, subroutine solut: y(3),
# components 1-10 (p, v, lam), 16 significant digits as printed.
PUBLISHED = [
    0.4934557842755629e-01, 0.4969894602303324e+00, 0.1041742524885400e+01,
    0.3739110272652214e+00, -0.7705836840321485e-01, 0.7446866596327776e-02,
    0.1755681574942899e-01, 0.7703410437794031e+00, -0.4736886750784630e-02,
    -0.1104680411345730e-02]
