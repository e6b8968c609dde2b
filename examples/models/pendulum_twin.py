# A generated twin of radcol's built-in planar pendulum (problems/pendulum.c):
# point mass on a rod of length L, pivot at the origin, y DOWN, T the rod
# force per unit mass over L.  Formulations "accel" (index 1: the acceleration
# constraint h3) and "index3" (the position constraint h1) match the built-in
# ones entry by entry (tests/test_gen.sh evaluates both at random points).
model("pendulum-gen", "planar pendulum, generated twin of the built-in pendulum")
g = param("g", 9.81, "gravity along +y (down), m/s^2")
L = param("L", 1.0, "rod length, m", positive=True)
tf_ = param("tf", 5.0, "final time, s (t0 = 0)", positive=True)
x0 = param("x0", 0.1, "x(t0), m")
y0 = param("y0", sqrt(L**2 - x0**2), "y(t0), m (y down)")
u0 = param("u0", 1.0, "x'(t0), m/s")
v0 = param("v0", -x0 * u0 / y0, "y'(t0), m/s (tangent)")
x, y, u, v, T = symbols("x y u v T")
W, th0 = derived("W", sqrt(g / L)), derived("th0", atan2(x0, y0))
om0 = derived("om0", (y0 * u0 - x0 * v0) / (x0**2 + y0**2))
th = th0 * cos(W * t) + om0 / W * sin(W * t)   # small-angle guess
om = -th0 * W * sin(W * t) + om0 * cos(W * t)
h1, h2 = x**2 + y**2 - L**2, x * u + y * v
h3 = u**2 + v**2 - T * (x**2 + y**2) + g * y
common = dict(states=[x, y, u, v], algebraic=[T], f={x: u, y: v, u: -T * x, v: g - T * y},
              x0={x: x0, y: y0, u: u0, v: v0}, tf=tf_, invariants={"h1": h1, "h2": h2, "h3": h3},
              guess={x: L * sin(th), y: L * cos(th), u: L * om * cos(th), v: -L * om * sin(th),
                     T: om**2 + g / L * cos(th)})
formulation("accel", "x y u v | T, acceleration constraint h3 (index 1)", g=[h3],
            index=1, t0_algebraic=True, **common)
formulation("index3", "x y u v | T, position constraint h1 (index 3)", g=[h1], index=3,
            **common)
