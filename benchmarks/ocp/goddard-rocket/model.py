# Goddard rocket, maximum ascent (COPS 3.0, problem 10; Bryson and Ho 1975,
# sec. 8.3): a vertically launched rocket of mass m, height h and velocity v
# burns its fuel (down to mf = mc m0) with thrust 0 <= T <= Tmax against drag
# D = Dc v^2 exp(-hc (h - h0)/h0) and gravity g0 (h0/h)^2; maximise h(tf),
# tf free.  Dimensionless units of COPS.  The thrust is bang-singular-bang.
model("goddard-rocket", "max h(tf): vertical ascent with drag, thrust bang-singular-bang")
hc = param("hc", 500.0, "drag decay with height")
vc = param("vc", 620.0, "drag scaling")
Tc = param("Tc", 3.5, "maximum thrust / (g0 m0)")
mc = param("mc", 0.6, "final mass / initial mass")
h, v, m, T = symbols("h v m T")
c = 0.5          # thrust-to-fuel-flow (0.5 sqrt(g0 h0), g0 = h0 = m0 = 1)
Dc = 0.5 * vc    # drag constant (0.5 vc m0 / g0)
D = Dc * v**2 * exp(-hc * (h - 1))
formulation("ocp", "h v m | T: maximise h(tf)", states=[h, v, m], controls=[T],
            f={h: v, v: (T - D) / m - 1 / h**2, m: -T / c},
            phi=at_tf(h), maximize=True,
            x0={h: 1, v: 0, m: 1}, xf={m: mc},
            bounds={h: (1, inf), v: (0, inf), m: (mc, 1), T: (0, Tc)},
            tf=free(0.2, 0.01, 1.0),
            guess={h: 1, v: (t / tf) * (1 - t / tf), m: 1 + (mc - 1) * t / tf, T: Tc / 2})
