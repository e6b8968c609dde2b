# Linear-quadratic regulator (Kalman 1960; Bryson and Ho 1975, ch. 5): the
# double integrator x1' = x2, x2' = u from x(0) = (1, 0) over [0, T], minimise
# 1/2 int (x1^2 + u^2) dt + 1/2 s x1(T)^2.  The optimum is J* = 1/2 x0' P(0) x0
# with P the solution of the Riccati equation -P' = A'P + PA - P B B' P + Q,
# P(T) = diag(s, 0) (closed form through the Hamiltonian matrix exponential).
model("lq-riccati", "LQ double integrator, J* = 1/2 x0' P(0) x0 (Riccati)")
T = param("T", 5.0, "final time", positive=True)
s = param("s", 10.0, "terminal weight on x1(T)^2")
x1, x2, u = symbols("x1 x2 u")
formulation("ocp", "x1 x2 | u", states=[x1, x2], controls=[u], f={x1: x2, x2: u},
            L=(x1**2 + u**2) / 2, phi=s * at_tf(x1)**2 / 2, x0={x1: 1, x2: 0}, tf=T)
