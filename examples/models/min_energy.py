# Minimum-energy transfer of a double integrator to a free target p (a
# decision parameter) that is pulled towards a: x' = v, v' = u, x(0) = v(0) = 0,
# v(1) = 0, x(1) = p (a boundary constraint), minimise integral u^2 dt + (p - a)^2.
# For fixed p the optimum is u = p (6 - 12 t) with cost 12 p^2, so
# p* = a/13 and the optimal objective is 12 a^2/13 (a = 2: 48/13).
model("min-energy", "double integrator to a free target, Lagrange + Mayer + boundary constraint")
a = param("a", 2.0, "where the target is pulled, m")
x, v, u, p = symbols("x v u p")
ps = derived("ps", a / 13)
formulation("transfer", "x v | u | p: minimum energy", states=[x, v], controls=[u], parameters=[p],
            f={x: v, v: u}, L=u**2, b=[(at_tf(x) - p, 0, 0)], phi=(p - a)**2,
            x0={x: 0, v: 0}, xf={v: 0}, tf=1, bounds={p: (-10, 10)},
            outputs={"power": u * v, "u_open_loop": p * (6 - 12 * t)},
            reference={x: ps * (3 * t**2 - 2 * t**3), v: ps * (6 * t - 6 * t**2),
                       u: ps * (6 - 12 * t), "u_open_loop": ps * (6 - 12 * t)})
