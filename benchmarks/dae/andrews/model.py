# Andrews' squeezing mechanism: seven rigid bodies in the plane, joined by
# frictionless joints, driven by a constant motor torque and a spring
# (Hairer & Wanner II, section VII.7; Test Set for IVP Solvers, release 2.4,
# problem "andrews", Mazzia & Magherini, University of Bari).  Read with
# scripts/radcol-gen (benchmarks/dae/README.md).
#
# Variables, as in the test set: positions q = (be, th, ga, ph, de, om, ep)
# (the angles beta, Theta, gamma, Phi, delta, Omega, epsilon, rad), their
# velocities v (rad/s), their accelerations w (rad/s^2) and the six
# multipliers lam of the six position constraints g(q) = 0.  With w algebraic
# the equations of motion are radcol's semi-explicit form:
#     q' = v,  v' = w,  0 = M(q) w - f(q, v) + G(q)^T lam,  G = dg/dq,
# closed by one of
#     index3  0 = g(q)                                    (the test set's form)
#     index2  0 = G(q) v                                  (velocity level)
#     index1  0 = G(q) w + d/dq(G(q) v) v                 (acceleration level)
# Each formulation is derived from g with sympy below, not typed by hand.
# Initial values: the consistent ones of the test set (q0, v0 = 0; w0 and
# lam0 are the guess at t0 and are recomputed by the solvers).
import sympy

model("andrews", "Andrews' squeezing mechanism, 7 bodies (Test Set for IVP Solvers 2.4)")
tf_ = param("tf", 0.03, "final time, s (t0 = 0); the test set's tend is 0.03", positive=True)

m1, m2, m3, m4, m5, m6, m7 = .04325, .00365, .02373, .00706, .07050, .00706, .05498
xa, ya, xb, yb, xc, yc, c0 = -.06934, -.00227, -.03635, .03273, .014, .072, 4530.0
i1, i2, i3, i4 = 2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7
i5, i6, i7 = 1.169e-5, 5.667e-7, 1.912e-5
d, da, e, ea, rr, ra, l0 = 28e-3, 115e-4, 2e-2, 1421e-5, 7e-3, 92e-5, 7785e-5
ss, sa, sb, sc, sd = 35e-3, 1874e-5, 1043e-5, 18e-3, 2e-2
ta, tb, u, ua, ub = 2308e-5, 916e-5, 4e-2, 1228e-5, 449e-5
zf, zt, fa, mom = 2e-2, 4e-2, 1421e-5, 33e-3

NAMES = ["be", "th", "ga", "ph", "de", "om", "ep"]
q = list(symbols(" ".join(NAMES)))
v = list(symbols(" ".join("v" + n for n in NAMES)))
w = list(symbols(" ".join("w" + n for n in NAMES)))
lam = list(symbols("lam1 lam2 lam3 lam4 lam5 lam6"))
be, th, ga, ph, de, om, ep = q
vbe, vth, vga, vph, vde, vom, vep = v

# mass matrix (symmetric; lower triangle as in the test set)
M = sympy.zeros(7, 7)
M[0, 0] = m1 * ra**2 + m2 * (rr**2 - 2 * da * rr * cos(th) + da**2) + i1 + i2
M[1, 0] = m2 * (da**2 - da * rr * cos(th)) + i2
M[1, 1] = m2 * da**2 + i2
M[2, 2] = m3 * (sa**2 + sb**2) + i3
M[3, 3] = m4 * (e - ea)**2 + i4
M[4, 3] = m4 * ((e - ea)**2 + zt * (e - ea) * sin(ph)) + i4
M[4, 4] = m4 * (zt**2 + 2 * zt * (e - ea) * sin(ph) + (e - ea)**2) + m5 * (ta**2 + tb**2) + i4 + i5
M[5, 5] = m6 * (zf - fa)**2 + i6
M[6, 5] = m6 * ((zf - fa)**2 - u * (zf - fa) * sin(om)) + i6
M[6, 6] = m6 * ((zf - fa)**2 - 2 * u * (zf - fa) * sin(om) + u**2) + m7 * (ua**2 + ub**2) + i6 + i7
for j in range(7):
    for i in range(j):
        M[i, j] = M[j, i]

# applied forces: motor torque, spring between D and C, centrifugal terms
xd = sd * cos(ga) + sc * sin(ga) + xb
yd = sd * sin(ga) - sc * cos(ga) + yb
lang = sqrt((xd - xc)**2 + (yd - yc)**2)
force = -c0 * (lang - l0) / lang
fx, fy = force * (xd - xc), force * (yd - yc)
f = sympy.Matrix([
    mom - m2 * da * rr * vth * (vth + 2 * vbe) * sin(th),
    m2 * da * rr * vbe**2 * sin(th),
    fx * (sc * cos(ga) - sd * sin(ga)) + fy * (sd * cos(ga) + sc * sin(ga)),
    m4 * zt * (e - ea) * vde**2 * cos(ph),
    -m4 * zt * (e - ea) * vph * (vph + 2 * vde) * cos(ph),
    -m6 * u * (zf - fa) * vep**2 * cos(om),
    m6 * u * (zf - fa) * vom * (vom + 2 * vep) * cos(om)])

# the six position constraints (loop closures) and their derivatives
gpos = sympy.Matrix([
    rr * cos(be) - d * cos(be + th) - ss * sin(ga) - xb,
    rr * sin(be) - d * sin(be + th) + ss * cos(ga) - yb,
    rr * cos(be) - d * cos(be + th) - e * sin(ph + de) - zt * cos(de) - xa,
    rr * sin(be) - d * sin(be + th) + e * cos(ph + de) - zt * sin(de) - ya,
    rr * cos(be) - d * cos(be + th) - zf * cos(om + ep) - u * sin(ep) - xa,
    rr * sin(be) - d * sin(be + th) - zf * sin(om + ep) + u * cos(ep) - ya])
G = gpos.jacobian(q)
V, W, LAM = sympy.Matrix(v), sympy.Matrix(w), sympy.Matrix(lam)
gvel = G * V
gacc = G * W + gvel.jacobian(q) * V
motion = list(M * W - f + G.T * LAM)

q0 = [-0.0617138900142764496358948458001, 0.0, 0.455279819163070380255912382449,
      0.222668390165885884674473185609, 0.487364979543842550225598953530,
      -0.222668390165885884674473185609, 1.23054744454982119249735015568]
w0 = [14222.4439199541138705911625887, -10666.8329399655854029433719415, 0, 0, 0, 0, 0]
lam0 = [98.5668703962410896057654982170, -6.12268834425566265503114393122, 0, 0, 0, 0]

x0 = {**{qi: q0[i] for i, qi in enumerate(q)}, **{vi: 0 for vi in v}}
guess = {**x0, **{wi: w0[i] for i, wi in enumerate(w)},
         **{li: lam0[i] for i, li in enumerate(lam)}}
common = dict(states=q + v, algebraic=w + lam,
              f={**{q[i]: v[i] for i in range(7)}, **{v[i]: w[i] for i in range(7)}},
              x0=x0, tf=tf_, guess=guess,
              invariants={**{"pos%d" % (i + 1): gpos[i] for i in range(6)},
                          **{"vel%d" % (i + 1): gvel[i] for i in range(6)}})
formulation("index3", "q v | w lam: position constraints g(q) = 0 (index 3, the test set's form)",
            g=motion + list(gpos), index=3, **common)
formulation("index2", "q v | w lam: velocity constraints G(q) v = 0 (index 2)",
            g=motion + list(gvel), index=2, **common)
formulation("index1", "q v | w lam: acceleration constraints (index 1)",
            g=motion + list(gacc), index=1, t0_algebraic=True, **common)
