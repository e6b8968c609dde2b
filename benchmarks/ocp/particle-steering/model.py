# Particle steering (COPS 3.0, problem 9; Bryson and Ho 1975, sec. 2.4):
# a particle under a thrust of constant magnitude a, steered by its angle u,
# reaches height x2 = 5 with velocity (45, 0) in minimum time; x1(tf) free.
# The optimum obeys the linear tangent law tan u(t) = tan u(0) - c t.
model("particle-steering", "min tf, x1'' = a cos u, x2'' = a sin u (linear tangent law)")
a = param("a", 100.0, "thrust acceleration", positive=True)
x1, x2, v1, v2, u = symbols("x1 x2 v1 v2 u")
formulation("ocp", "x1 x2 v1 v2 | u", states=[x1, x2, v1, v2], controls=[u],
            f={x1: v1, x2: v2, v1: a * cos(u), v2: a * sin(u)}, phi=tf,
            x0={x1: 0, x2: 0, v1: 0, v2: 0}, xf={x2: 5, v1: 45, v2: 0},
            bounds={u: (-pi / 2, pi / 2)}, tf=free(1.0, 0.01, 10.0),
            guess={x1: 12 * t / tf, x2: 5 * t / tf, v1: 45 * t / tf, u: 0})
