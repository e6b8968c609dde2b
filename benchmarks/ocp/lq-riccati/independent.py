#!/usr/bin/python3
"""The LQ optimum J* = 1/2 x0' P(0) x0 two ways (not radcol).

1. closed form: the Hamiltonian system d/dt (x, lam) = H (x, lam),
   H = [[A, -B B'/R], [-Q, -A']], lam = P x, so (x(0), lam(0)) =
   expm(-H T) (x(T), S x(T)) and P(0) = L0 X0^-1 (scipy.linalg.expm);
2. the Riccati equation -P' = A'P + PA - P B R^-1 B' P + Q, P(T) = S,
   integrated backwards by scipy's DOP853 at rtol 1e-13.

usage: benchmarks/ocp/lq-riccati/independent.py
"""
import argparse
import numpy as np
from scipy.integrate import solve_ivp
from scipy.linalg import expm

argparse.ArgumentParser(description=__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()

T, s = 5.0, 10.0
A = np.array([[0.0, 1.0], [0.0, 0.0]])
B = np.array([[0.0], [1.0]])
Q = np.diag([1.0, 0.0])
R = 1.0
S = np.diag([s, 0.0])
x0 = np.array([1.0, 0.0])
H = np.block([[A, -B @ B.T / R], [-Q, -A.T]])
E = expm(-H * T)
X0 = E[:2, :2] + E[:2, 2:] @ S
L0 = E[2:, :2] + E[2:, 2:] @ S
P0 = L0 @ np.linalg.inv(X0)
print("expm:                     J* = %.16g" % (0.5 * x0 @ P0 @ x0))


def riccati(t, p):
    P = p.reshape(2, 2)
    return (-(A.T @ P + P @ A - P @ B @ B.T @ P / R + Q)).ravel()


sol = solve_ivp(riccati, [T, 0.0], S.ravel(), method="DOP853", rtol=1e-13, atol=1e-15)
P = sol.y[:, -1].reshape(2, 2)
print("Riccati ODE (DOP853 1e-13): J* = %.16g" % (0.5 * x0 @ P @ x0))
