# Hyper-sensitive problem (Rao and Mease 2000, sec. 3.1): x' = -x^3 + u,
# x(0) = 1, x(tf) = 1.5, minimise the integral of x^2 + u^2 over [0, tf]
# (tf = 10 as in the TOMLAB PROPT example; tf is a parameter: --set T=...).
# For large tf the solution is a take-off and a landing boundary layer
# joined by a long stretch at x ~ 0.
model("hypersensitive", "x' = -x^3 + u, min int x^2 + u^2, boundary layers at both ends")
T = param("T", 10.0, "final time", positive=True)
x, u = symbols("x u")
formulation("ocp", "x | u", states=[x], controls=[u], f={x: -x**3 + u}, L=x**2 + u**2,
            x0={x: 1}, xf={x: 1.5}, tf=T,
            guess={x: 1 + 0.5 * t / tf})
