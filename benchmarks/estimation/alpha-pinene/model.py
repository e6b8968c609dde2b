# Isomerization of alpha-pinene (COPS 3.0, problem 5; Box et al. 1973):
# estimate theta >= 0 in the linear system
#     y1' = -(theta1 + theta2) y1
#     y2' = theta1 y1
#     y3' = theta2 y1 - (theta3 + theta4) y3 + theta5 y5
#     y4' = theta3 y3
#     y5' = theta4 y3 - theta5 y5
# y(0) = (100, 0, 0, 0, 0), by least squares on 8 measurements at tau_j
# (minutes).  As gas-oil: one chained phase per interval [tau_{j-1}, tau_j]
# (8 phases, tau_0 = 0).  The rate constants are ~1e-5 per minute: the model
# estimates p = 1e5 theta (a scaling of the unknowns only; objective
# unchanged).
model("alpha-pinene", "COPS alpha-pinene: 5 rate constants from 8 measurements (8 chained phases)")
tau = [0.0, 1230.0, 3060.0, 4920.0, 7800.0, 10680.0, 15030.0, 22620.0, 36420.0]
z = [(100.0, 0.0, 0.0, 0.0, 0.0),
     (88.35, 7.3, 2.3, 0.4, 1.75), (76.4, 15.6, 4.5, 0.7, 2.8), (65.1, 23.1, 5.3, 1.1, 5.8),
     (50.4, 32.9, 6.0, 1.5, 9.3), (37.5, 42.7, 6.0, 1.9, 12.0), (25.9, 49.1, 5.9, 2.2, 17.0),
     (14.0, 57.4, 5.1, 2.6, 21.0), (4.5, 63.1, 3.8, 2.9, 25.7)]
p = symbols("p1 p2 p3 p4 p5")
th = [pi_ * 1e-5 for pi_ in p]
K = len(tau) - 1
Y = [symbols("y1_%d y2_%d y3_%d y4_%d y5_%d" % ((k,) * 5)) for k in range(1, K + 1)]
f, b, guess = {}, [], {}
phi = 0
for k, y in enumerate(Y):
    d = tau[k + 1] - tau[k]
    f[y[0]] = d * (-(th[0] + th[1]) * y[0])
    f[y[1]] = d * (th[0] * y[0])
    f[y[2]] = d * (th[1] * y[0] - (th[2] + th[3]) * y[2] + th[4] * y[4])
    f[y[3]] = d * (th[2] * y[2])
    f[y[4]] = d * (th[3] * y[2] - th[4] * y[4])
    for i in range(5):
        if k > 0:
            b.append((at_t0(y[i]) - at_tf(Y[k - 1][i]), 0, 0))
        phi += (at_tf(y[i]) - z[k + 1][i])**2
        guess[y[i]] = z[k][i] + (z[k + 1][i] - z[k][i]) * t
states = [v for y in Y for v in y]
formulation("fit", "8 chained phases of (y1..y5) | p1..p5 = 1e5 theta: least squares",
            states=states, parameters=list(p), f=f, b=b, phi=phi,
            x0={Y[0][i]: z[0][i] for i in range(5)}, tf=1,
            bounds={q: (0, inf) for q in p}, guess=guess)
