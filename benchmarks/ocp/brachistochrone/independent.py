#!/usr/bin/python3
"""The brachistochrone's minimum time in closed form, at 30 digits (mpmath).

The optimum is the cycloid x = R (p - sin p), y = R (1 - cos p),
p = t sqrt(g/R); the end point (xf, yf) fixes pf by
(pf - sin pf)/(1 - cos pf) = xf/yf, then R = yf/(1 - cos pf) and
tf* = pf sqrt(R/g).

usage: benchmarks/ocp/brachistochrone/independent.py
"""
import argparse

from mpmath import cos, findroot, mp, mpf, sin, sqrt

argparse.ArgumentParser(description=__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()

mp.dps = 30
g, xf, yf = mpf("9.81"), mpf(2), mpf(1)
pf = findroot(lambda p: (p - sin(p)) / (1 - cos(p)) - xf / yf, 3.5)
R = yf / (1 - cos(pf))
print("pf = %s, R = %s" % (mp.nstr(pf, 20), mp.nstr(R, 20)))
print("tf* = %s" % mp.nstr(pf * sqrt(R / g), 25))
