#!/usr/bin/python3
"""Independent minimum time of the COPS particle steering problem (not radcol).

Pontryagin: with x1(tf) free, the costates of x1 and x2 are constant and 0,
c, so tan u = A - B t (the linear tangent law; Bryson and Ho 1975, sec. 2.4),
with cos u >= 0 inside [-pi/2, pi/2].  Then, with a = 100,
    v1(t) = a/B (asinh A - asinh(A - B t)),
    v2(t) = a/B (sqrt(1 + A^2) - sqrt(1 + (A - B t)^2)),
    x2(t) = int_0^t v2,
and (A, B, tf) solve v1(tf) = 45, v2(tf) = 0, x2(tf) = 5: mpmath findroot
with 30-digit quadrature.

usage: benchmarks/ocp/particle-steering/independent.py
"""
import argparse

from mpmath import asinh, findroot, mp, mpf, quad, sqrt

argparse.ArgumentParser(description=__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()

mp.dps = 30
a = 100


def v1(A, B, t):
    return a / B * (asinh(A) - asinh(A - B * t))


def v2(A, B, t):
    return a / B * (sqrt(1 + A**2) - sqrt(1 + (A - B * t)**2))


def eqs(A, B, tf):
    return [v1(A, B, tf) - 45, v2(A, B, tf), quad(lambda s: v2(A, B, s), [0, tf]) - 5]


A, B, tf = findroot(eqs, (mpf(1.5), mpf(5), mpf(0.55)))
print("tan u(t) = A - B t with A = %s, B = %s" % (mp.nstr(A, 20), mp.nstr(B, 20)))
print("tf* = %s" % mp.nstr(tf, 25))
