# A pendulum in units that make its unknowns span nine decades, for the
# march's per-variable tolerances (tests/test_march_scaled.py, issue 26):
# the planar pendulum of examples/models/pendulum_twin.py (y DOWN, T the rod
# force per unit mass over L) with L = 3 m, written in
#   X = x / 1000 (km, |X| <= 1.7e-3),   Y = y (m, about 3),
#   U = 1000 u   (mm/s, |U| <= 3e3),    V = v (m/s, |V| <= 1.7),
#   P = 2.5e5 T  (|P| about 1e6),
# acceleration-level constraint (index 1).  No reference here: the test
# integrates the angle ODE with scipy.
model("scaled-pendulum", "pendulum in km, m, mm/s, m/s and a force unit of 4e-6 (unknowns 1e-3 .. 1e6)")
g = param("g", 9.81, "gravity along +y (down), m/s^2")
L = param("L", 3.0, "rod length, m", positive=True)
tf_ = param("tf", 5.0, "final time, s (t0 = 0)", positive=True)
x0 = param("x0", 0.3, "x(t0), m")
u0 = param("u0", 3.0, "x'(t0), m/s")
X, Y, U, V, P = symbols("X Y U V P")
y0 = derived("y0", sqrt(L**2 - x0**2))
v0 = derived("v0", -x0 * u0 / y0)
sx, su, sp = 1e-3, 1e3, 2.5e5            # X = sx x, U = su u, P = sp T
x, y, u, v, T = X / sx, Y, U / su, V, P / sp
formulation("accel", "X Y U V | P: acceleration constraint (index 1), scaled units",
            states=[X, Y, U, V], algebraic=[P],
            f={X: sx * u, Y: v, U: su * (-T * x), V: g - T * y},
            g=[u**2 + v**2 - T * (x**2 + y**2) + g * y],
            x0={X: sx * x0, Y: y0, U: su * u0, V: v0}, tf=tf_, index=1,
            t0_algebraic=True,
            guess={X: sx * x0, Y: y0, U: su * u0, V: v0,
                   P: sp * (u0**2 + v0**2 + g * y0) / L**2})
