"""Independent reference for the transistor amplifier (Test Set for IVP
Solvers 2.4, transamp.f; Hairer & Wanner II, section VII.1): the circuit
M u' = f(t, u) with the singular capacitance matrix M, typed from the test
set's Fortran without sympy and without radcol, reduced to an ODE in the
five capacitor voltages

    z1 = u1 - u2,  u3,  z4 = u4 - u5,  u6,  z7 = u7 - u8

(z1' = -f1/C1, u3' = -f3/C2, z4' = -f4/C3, u6' = -f6/C4, z7' = -f7/C5):
the node voltages u2, u5, u8 solve the node equations f1 + f2 = 0,
f4 + f5 = 0, f7 + f8 = 0 (block triangular: u2, then u5, each by scalar
Newton to the last bit, then u8, linear) at every right-hand side.  Stiff:
integrated by scipy's Radau IIA at rtol 1e-13; the check is the same at
1e-12 (scipy's BDF at 1e-11 agrees only to 8 digits: too weak a check), and
the published u(0.2) (PSIDE, another method) agrees to 12.5 digits."""
import numpy as np

NAMES = ["u1", "u2", "u3", "u4", "u5", "u6", "u7", "u8"]
COMPARE = NAMES                   # every node voltage, as the test set's scd
FORM = ("the ODE in the five capacitor voltages, node voltages by scalar "
        "Newton, typed from the test set's Fortran")
T_END = 0.2
METHODS = [("Radau", 1e-13, 1e-15), ("Radau", 1e-12, 1e-14)]

UB, UF, ALPHA, BETA, R0 = 6.0, 0.026, 0.99, 1e-6, 1000.0
R1 = R2 = R3 = R4 = R5 = R6 = R7 = R8 = R9 = 9000.0
C1, C2, C3, C4, C5 = 1e-6, 2e-6, 3e-6, 4e-6, 5e-6


def y0():
    u2 = UB / (R2 / R1 + 1)
    u5 = UB / (R6 / R5 + 1)
    return np.array([0.0 - u2, u2, UB - u5, u5, UB - 0.0])


def gfun(x):
    return BETA * (np.exp(x / UF) - 1), BETA / UF * np.exp(x / UF)


def newton(fn, x):
    for _ in range(100):
        r, dr = fn(x)
        dx = -r / dr
        x += dx
        if abs(dx) <= 1e-15 * (1 + abs(x)):
            break
    return x


def nodes(t, y):
    """All eight node voltages from the five capacitor voltages."""
    z1, u3, z4, u6, z7 = y
    uin = 0.1 * np.sin(200 * np.pi * t)

    def node2(u2):   # f1 + f2 with u1 = z1 + u2
        g, dg = gfun(u2 - u3)
        return ((z1 + u2 - uin) / R0 + u2 / R1 + (u2 - UB) / R2 + (1 - ALPHA) * g,
                1 / R0 + 1 / R1 + 1 / R2 + (1 - ALPHA) * dg)
    u2 = newton(node2, u3 + 0.0)
    g23 = gfun(u2 - u3)[0]

    def node5(u5):   # f4 + f5 with u4 = z4 + u5
        g, dg = gfun(u5 - u6)
        return ((z4 + u5 - UB) / R4 + ALPHA * g23 + u5 / R5 + (u5 - UB) / R6 +
                (1 - ALPHA) * g,
                1 / R4 + 1 / R5 + 1 / R6 + (1 - ALPHA) * dg)
    u5 = newton(node5, u6 + 0.0)
    g56 = gfun(u5 - u6)[0]
    # f7 + f8 with u7 = z7 + u8: linear in u8
    u8 = -((z7 - UB) / R8 + ALPHA * g56) / (1 / R8 + 1 / R9)
    return np.array([z1 + u2, u2, u3, z4 + u5, u5, u6, z7 + u8, u8]), g23, g56


def rhs(t, y):
    u, g23, g56 = nodes(t, y)
    uin = 0.1 * np.sin(200 * np.pi * t)
    f1 = (u[0] - uin) / R0
    f3 = u[2] / R3 - g23
    f4 = (u[3] - UB) / R4 + ALPHA * g23
    f6 = u[5] / R7 - g56
    f7 = (u[6] - UB) / R8 + ALPHA * g56
    return np.array([-f1 / C1, -f3 / C2, -f4 / C3, -f6 / C4, -f7 / C5])


def full(t, y):
    return nodes(t, y)[0]


def drift(t, y):
    return 0.0


# Test Set for IVP Solvers 2.4, transamp.f, subroutine solut: u(0.2),
# 16 significant digits as printed (PSIDE, rtol = atol = 1e-14, Cray).
PUBLISHED = [-0.5562145012262709e-02, 0.3006522471903042e+01,
             0.2849958788608128e+01, 0.2926422536206241e+01,
             0.2704617865010554e+01, 0.2761837778393145e+01,
             0.4770927631616772e+01, 0.1236995868091548e+01]
