# Marine population dynamics (COPS 3.0, problem 6; Rothschild et al. 1997):
# estimate growth rates g_1..g_7 >= 0 and mortality rates m_1..m_8 >= 0 of
# eight stages of a marine species,
#     y1' = -(m1 + g1) y1
#     yi' = g_{i-1} y_{i-1} - (m_i + g_i) y_i      (i = 2..7)
#     y8' = g7 y7 - m8 y8,
# initial state free, by least squares on 21 measurements at t = 0, 0.5, ...,
# 10 (the t = 0 one included).  As gas-oil: one chained phase per interval
# (20 phases of 8 states).
model("marine-population", "COPS marine population: 15 rates from 21 measurements (20 chained phases)")
z = [(20000.0, 17000.0, 10000.0, 15000.0, 12000.0, 9000.0, 7000.0, 3000.0),
     (12445.0, 15411.0, 13040.0, 13338.0, 13484.0, 8426.0, 6615.0, 4022.0),
     (7705.0, 13074.0, 14623.0, 11976.0, 12453.0, 9272.0, 6891.0, 5020.0),
     (4664.0, 8579.0, 12434.0, 12603.0, 11738.0, 9710.0, 6821.0, 5722.0),
     (2977.0, 7053.0, 11219.0, 11340.0, 13665.0, 8534.0, 6242.0, 5695.0),
     (1769.0, 5054.0, 10065.0, 11232.0, 12112.0, 9600.0, 6647.0, 7034.0),
     (943.0, 3907.0, 9473.0, 10334.0, 11115.0, 8826.0, 6842.0, 7348.0),
     (581.0, 2624.0, 7421.0, 10297.0, 12427.0, 8747.0, 7199.0, 7684.0),
     (355.0, 1744.0, 5369.0, 7748.0, 10057.0, 8698.0, 6542.0, 7410.0),
     (223.0, 1272.0, 4713.0, 6869.0, 9564.0, 8766.0, 6810.0, 6961.0),
     (137.0, 821.0, 3451.0, 6050.0, 8671.0, 8291.0, 6827.0, 7525.0),
     (87.0, 577.0, 2649.0, 5454.0, 8430.0, 7411.0, 6423.0, 8388.0),
     (49.0, 337.0, 2058.0, 4115.0, 7435.0, 7627.0, 6268.0, 7189.0),
     (32.0, 228.0, 1440.0, 3790.0, 6474.0, 6658.0, 5859.0, 7467.0),
     (17.0, 168.0, 1178.0, 3087.0, 6524.0, 5880.0, 5562.0, 7144.0),
     (11.0, 99.0, 919.0, 2596.0, 5360.0, 5762.0, 4480.0, 7256.0),
     (7.0, 65.0, 647.0, 1873.0, 4556.0, 5058.0, 4944.0, 7538.0),
     (4.0, 44.0, 509.0, 1571.0, 4009.0, 4527.0, 4233.0, 6649.0),
     (2.0, 27.0, 345.0, 1227.0, 3677.0, 4229.0, 3805.0, 6378.0),
     (1.0, 20.0, 231.0, 934.0, 3197.0, 3695.0, 3159.0, 6454.0),
     (1.0, 12.0, 198.0, 707.0, 2562.0, 3163.0, 3232.0, 5566.0)]
K, d = len(z) - 1, 0.5
g = symbols(" ".join("g%d" % i for i in range(1, 8)))
mr = symbols(" ".join("m%d" % i for i in range(1, 9)))
Y = [symbols(" ".join("y%d_%02d" % (i, k) for i in range(1, 9))) for k in range(1, K + 1)]
f, b, guess = {}, [], {}
phi = sum((at_t0(Y[0][i]) - z[0][i])**2 for i in range(8))
for k, y in enumerate(Y):
    for i in range(8):
        inflow = g[i - 1] * y[i - 1] if i > 0 else 0
        loss = (mr[i] + (g[i] if i < 7 else 0)) * y[i]
        f[y[i]] = d * (inflow - loss)
        if k > 0:
            b.append((at_t0(y[i]) - at_tf(Y[k - 1][i]), 0, 0))
        phi += (at_tf(y[i]) - z[k + 1][i])**2
        guess[y[i]] = z[k][i] + (z[k + 1][i] - z[k][i]) * t
states = [v for y in Y for v in y]
formulation("fit", "20 chained phases of (y1..y8) | g1..g7 m1..m8: least squares",
            states=states, parameters=list(g) + list(mr), f=f, b=b, phi=phi,
            start={Y[0][i]: z[0][i] for i in range(8)}, tf=1,
            bounds={q: (0, inf) for q in list(g) + list(mr)}, guess=guess)
