# Brachistochrone (Johann Bernoulli 1696; as an optimal control problem:
# Bryson and Ho 1975, sec. 2.7): a bead slides from rest at the origin to
# (xf, yf) under gravity g, y DOWN, in minimum time.  The optimum is the
# cycloid x = R (p - sin p), y = R (1 - cos p) with p = t sqrt(g/R), pf from
# (pf - sin pf)/(1 - cos pf) = xf/yf, R = yf/(1 - cos pf), tf* = pf sqrt(R/g).
# The heading angle theta (from the vertical) is the control.
model("brachistochrone", "minimum-time slide under gravity, heading control (cycloid)")
g = param("g", 9.81, "gravity along +y (down), m/s^2", positive=True)
xf = param("xf", 2.0, "x(tf), m", positive=True)
yf = param("yf", 1.0, "y(tf), m (y down)", positive=True)
x, y, v, th = symbols("x y v theta")
formulation("ode", "x y v | theta: x' = v sin theta, y' = v cos theta, v' = g cos theta",
            states=[x, y, v], controls=[th],
            f={x: v * sin(th), y: v * cos(th), v: g * cos(th)},
            phi=tf, x0={x: 0, y: 0, v: 0}, xf={x: xf, y: yf},
            bounds={th: (-pi / 2, pi)}, tf=free(1.0, 1e-2, 10.0),
            guess={x: xf * t / tf, y: yf * t / tf, v: sqrt(2 * g * yf) * t / tf, th: pi / 2})
