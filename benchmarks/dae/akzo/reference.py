"""Independent reference for the chemical Akzo Nobel problem: the ODE in
y1..y5 with the algebraic y6 = Ks y1 y4 substituted, typed from the test
set's Fortran (chemakzo.f, Test Set for IVP Solvers 2.4) without sympy and
without radcol.  Mildly stiff on [0, 180]: scipy's explicit DOP853 at
rtol 1e-13 takes 21 000 evaluations and matches the published y(180) to 15
digits; the check is scipy's implicit Radau IIA."""
import numpy as np

NAMES = ["y1", "y2", "y3", "y4", "y5", "y6"]
COMPARE = NAMES                   # every component, as the test set's scd
FORM = ("the ODE in y1..y5 with y6 = Ks y1 y4 substituted, typed from the "
        "test set's Fortran")
T_END = 180.0
METHODS = [("DOP853", 1e-13, 1e-17), ("Radau", 1e-13, 1e-17)]

K1, K2, K3, K4, KBIG, KLA, KS, PO2, HEN = (18.7, 0.58, 0.09, 0.42, 34.4, 3.3,
                                           115.83, 0.9, 737.0)


def y0():
    return np.array([0.444, 0.00123, 0.0, 0.007, 0.0])


def rhs(t, y):
    y1, y2, y3, y4, y5 = y
    y6 = KS * y1 * y4
    sq = np.sqrt(y2)
    r1 = K1 * y1**4 * sq
    r2 = K2 * y3 * y4
    r3 = K2 / KBIG * y1 * y5
    r4 = K3 * y1 * y4**2
    r5 = K4 * y6**2 * sq
    fin = KLA * (PO2 / HEN - y2)
    return np.array([-2 * r1 + r2 - r3 - r4,
                     -0.5 * r1 - r4 - 0.5 * r5 + fin,
                     r1 - r2 + r3,
                     -r2 + r3 - 2 * r4,
                     r2 - r3 + r5])


def full(t, y):
    return np.concatenate([y, [KS * y[0] * y[3]]])


def drift(t, y):
    return 0.0


# Test Set for IVP Solvers 2.4, chemakzo.f, subroutine solut: y(180),
# 16 significant digits as printed (PSIDE, rtol = atol = 1e-19, Cray).
PUBLISHED = [0.1150794920661702e0, 0.1203831471567715e-2,
             0.1611562887407974e0, 0.3656156421249283e-3,
             0.1708010885264404e-1, 0.4873531310307455e-2]
