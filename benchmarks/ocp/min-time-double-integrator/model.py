# Minimum-time double integrator (Bryson and Ho 1975, sec. 7.?; Pontryagin
# et al. 1962): x' = v, v' = u, |u| <= 1, from (x0, v0) to rest at the origin
# in minimum time.  For x0 + v0|v0|/2 > 0 the optimum is bang-bang, u = -1
# then u = +1, switching at ts = v0 + sqrt(x0 + v0^2/2), and
# tf* = v0 + 2 sqrt(x0 + v0^2/2) (x0 = v0 = 1: 1 + sqrt(6)).
model("min-time-double-integrator", "min tf, x'' = u, |u| <= 1 (bang-bang, one switch)")
xs = param("xs", 1.0, "x(0)")
vs = param("vs", 1.0, "v(0)")
x, v, u = symbols("x v u")
formulation("ocp", "x v | u", states=[x, v], controls=[u], f={x: v, v: u}, phi=tf,
            x0={x: xs, v: vs}, xf={x: 0, v: 0}, bounds={u: (-1, 1)},
            tf=free(3.0, 0.1, 20.0),
            guess={x: xs * (1 - t / tf), v: vs * (1 - t / tf), u: 0})
