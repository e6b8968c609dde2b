# The brachistochrone for radcol-gen: a bead slides from rest at the origin to
# (xf, yf) under gravity g, y DOWN; w = (x, y, v, ux, uy), (ux, uy) the unit
# direction of motion; minimum time.  Reference: the cycloid x = R (p - sin p),
# y = R (1 - cos p), p = t sqrt(g/R), pf from (pf - sin pf)/(1 - cos pf) = xf/yf.
model("brachistochrone-gen", "minimum-time slide under gravity (generated; cycloid reference)")
g = param("g", 9.81, "gravity along +y (down), m/s^2", positive=True)
xf = param("xf", 1.0, "x(tf), m", positive=True)
yf = param("yf", 1.0, "y(tf), m (y down)", positive=True)
tf_max = param("tf_max", 10.0, "upper bound of the final time, s", positive=True)
x, y, v, ux, uy, p = symbols("x y v ux uy p")
pf = root("pf", (p - sin(p)) / (1 - cos(p)) - xf / yf, p, 1e-3, 2 * pi - 1e-3)
R = derived("R", yf / (1 - cos(pf)))
k = derived("k", sqrt(g / R))
both = dict(controls=[ux, uy], f={x: v * ux, y: v * uy}, c=[(ux**2 + uy**2, 1, 1)],
            bounds={v: (0, inf), ux: (-1, 1), uy: (-1, 1)}, xf={x: xf, y: yf},
            tf=free(1.0, 1e-3, tf_max), phi=tf, invariants={"energy": v**2 - 2 * g * y},
            guess={x: xf * (t / tf)**2, y: yf * (t / tf)**2, v: sqrt(2 * g * yf) * t / tf,
                   ux: xf / sqrt(xf**2 + yf**2), uy: yf / sqrt(xf**2 + yf**2)},
            reference={x: R * (k * t - sin(k * t)), y: R * (1 - cos(k * t)),
                       v: 2 * sqrt(g * R) * sin(k * t / 2), ux: sin(k * t / 2), uy: cos(k * t / 2)},
            elements=20, stages=3)
formulation("ode", "x y v | ux uy: v' = g uy (index 0)", states=[x, y, v],
            x0={x: 0, y: 0, v: 0}, **dict(both, f={**both["f"], v: g * uy}))
formulation("dae", "x y | v | ux uy: 0 = v^2 - 2 g y (index 1, singular at t0)",
            states=[x, y], algebraic=[v], g=[v**2 - 2 * g * y], x0={x: 0, y: 0}, index=1, **both)
