# Catalyst mixing (COPS 3.0, problem 14; Gunn and Thomas 1965, von Stryk
# 1999): the mixing ratio u of two catalysts along a tubular plug-flow
# reactor maximises the yield, i.e. minimises -1 + x1(1) + x2(1), for the
# reactions A <-> B -> C.  The control is bang-singular-bang.
model("catalyst-mixing", "min -1 + x1(1) + x2(1), 0 <= u <= 1 (bang-singular-bang)")
x1, x2, u = symbols("x1 x2 u")
formulation("ocp", "x1 x2 | u", states=[x1, x2], controls=[u],
            f={x1: u * (10 * x2 - x1), x2: u * (x1 - 10 * x2) - (1 - u) * x2},
            phi=-1 + at_tf(x1) + at_tf(x2), x0={x1: 1, x2: 0},
            bounds={u: (0, 1)}, tf=1, guess={x1: 1, x2: 0, u: 0})
