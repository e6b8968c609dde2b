# Bryson-Denham problem (Bryson, Denham and Dreyfus 1963; Bryson and Ho 1975,
# sec. 3.11): a double integrator from (0, 1) to (0, -1) in unit time with
# minimum control energy, under the state bound x <= l.  For l <= 1/6 the
# bound is active on [3l, 1 - 3l] and J* = 4/(9 l) (l = 1/9: J* = 4).
model("bryson-denham", "min 1/2 int u^2, x'' = u, x <= l (state-constrained arc)")
l = param("l", 1.0 / 9.0, "bound on the position x", positive=True)
x, v, u = symbols("x v u")
formulation("ocp", "x v | u: x' = v, v' = u, x <= l", states=[x, v], controls=[u],
            f={x: v, v: u}, L=u**2 / 2, bounds={x: (-inf, l)},
            x0={x: 0, v: 1}, xf={x: 0, v: -1}, tf=1,
            guess={x: l * 4 * t * (1 - t) * 0.9, v: 1 - 2 * t, u: -2})
