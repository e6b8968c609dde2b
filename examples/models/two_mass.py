# One mass m pushed by a force ulo <= u <= uhi, in formulations that a job file
# joins into phases (examples/two-mass.json): 'start' from rest at 0 to x = a,
# 'free' with both ends free, 'stop' to rest at L; each in minimum time (phi =
# tf, t0 = 0).  Closed form of the job (docs/phases.md): mass m1 = 1 at full
# force to a, v1 = sqrt(2 a / m1); then m2 = 2 pushed to vp = sqrt((v1^2 +
# (L - a)/m2) / 2) and braked: T = v1 m1 + (2 vp - v1) m2 = 2 sqrt(5) - 1.
model("two-mass", "a mass pushed by a bounded force, in phases that a job file joins")
m = param("m", 1.0, "mass, kg", positive=True)
ulo = param("ulo", -1.0, "lower force bound, N")
uhi = param("uhi", 1.0, "upper force bound, N")
a = param("a", 0.5, "where 'start' ends, m")
L = param("L", 2.0, "where 'stop' ends at rest, m")
x, v, u = symbols("x v u")
both = dict(states=[x, v], controls=[u], f={x: v, v: u / m}, bounds={u: (ulo, uhi)},
            tf=free(1.0, 0.01, 100.0), phi=tf, elements=4, stages=3)
formulation("start", "x v | u: from rest at 0 to x = a", x0={x: 0, v: 0}, xf={x: a}, **both)
formulation("free", "x v | u: both ends free", start={x: a, v: 1}, **both)
formulation("stop", "x v | u: to rest at L", start={x: a, v: 1}, xf={x: L, v: 0}, **both)
phases("job", "the light, push and brake phases of examples/two-mass.json", [
    ("light", "start", {m: 1}), ("push", "free", {m: 2, ulo: 0}), ("brake", "stop", {m: 2, uhi: 0})])
