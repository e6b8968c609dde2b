# Chemical Akzo Nobel problem: two reactants mixed in a stirred reactor with
# carbon dioxide bubbled through (Test Set for IVP Solvers, release 2.4,
# problem "chemakzo", Mazzia & Magherini, University of Bari; from Akzo
# Nobel Central Research).  Read with scripts/radcol-gen
# (benchmarks/dae/README.md).
#
# Index 1, six concentrations of very different sizes (at t = 180:
# y1 0.12, y2 1.2e-3, y3 0.16, y4 3.7e-4, y5 1.7e-2, y6 4.9e-3, mol/l):
#     y1' = -2 r1 + r2 - r3 - r4         y2' = -r1/2 - r4 - r5/2 + Fin
#     y3' = r1 - r2 + r3                 y4' = -r2 + r3 - 2 r4
#     y5' = r2 - r3 + r5                 0   = Ks y1 y4 - y6
#     r1 = k1 y1^4 sqrt(y2), r2 = k2 y3 y4, r3 = k2/K y1 y5, r4 = k3 y1 y4^2,
#     r5 = k4 y6^2 sqrt(y2), Fin = klA (p(CO2)/H - y2),   t in [0, 180] min.
# Initial values: the test set's (y6(0) = Ks y1(0) y4(0), consistent).
model("akzo", "chemical Akzo Nobel problem, index 1 (Test Set for IVP Solvers 2.4)")
tf_ = param("tf", 180.0, "final time, min (t0 = 0); the test set's tend is 180", positive=True)
k1, k2, k3, k4, K, klA, Ks, pCO2, H = 18.7, 0.58, 0.09, 0.42, 34.4, 3.3, 115.83, 0.9, 737.0
y1, y2, y3, y4, y5, y6 = symbols("y1 y2 y3 y4 y5 y6")
r1 = k1 * y1**4 * sqrt(y2)
r2 = k2 * y3 * y4
r3 = k2 / K * y1 * y5
r4 = k3 * y1 * y4**2
r5 = k4 * y6**2 * sqrt(y2)
Fin = klA * (pCO2 / H - y2)
start = {y1: 0.444, y2: 0.00123, y3: 0, y4: 0.007, y5: 0}
formulation("index1", "y1..y5 | y6: the test set's form (index 1)",
            states=[y1, y2, y3, y4, y5], algebraic=[y6],
            f={y1: -2 * r1 + r2 - r3 - r4, y2: -r1 / 2 - r4 - r5 / 2 + Fin,
               y3: r1 - r2 + r3, y4: -r2 + r3 - 2 * r4, y5: r2 - r3 + r5},
            g=[Ks * y1 * y4 - y6], index=1, t0_algebraic=True, x0=start, tf=tf_,
            bounds={y2: (0, inf)},
            guess={**start, y6: Ks * 0.444 * 0.007})
