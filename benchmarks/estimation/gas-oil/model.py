# Catalytic cracking of gas oil (COPS 3.0, problem 12; Tjoa and Biegler
# 1991): estimate theta >= 0 in
#     y1' = -(theta1 + theta3) y1^2,   y2' = theta1 y1^2 - theta2 y2,
# y(0) = (1, 0), by least squares on the 21 measurements z_j at tau_j:
#     min sum_j |y(tau_j) - z_j|^2.
# radcol's objective sees only the end states, so the horizon is cut at the
# measurement times into 20 phases, each a copy of the ODE on a normalised
# time s in [0, 1] (t = tau_{k-1} + s (tau_k - tau_{k-1})), chained by
# continuity conditions y_k(0) = y_{k-1}(1): the same ODE, the same data, the
# same least-squares objective, exactly (benchmarks/README.md).
model("gas-oil", "COPS gas oil: 3 rate constants from 21 measurements (20 chained phases)")
tau = [0.0, 0.025, 0.05, 0.075, 0.10, 0.125, 0.150, 0.175, 0.20, 0.225, 0.250,
       0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.65, 0.75, 0.85, 0.95]
z = [(1.0000, 0), (0.8105, 0.2000), (0.6208, 0.2886), (0.5258, 0.3010), (0.4345, 0.3215),
     (0.3903, 0.3123), (0.3342, 0.2716), (0.3034, 0.2551), (0.2735, 0.2258),
     (0.2405, 0.1959), (0.2283, 0.1789), (0.2071, 0.1457), (0.1669, 0.1198),
     (0.1530, 0.0909), (0.1339, 0.0719), (0.1265, 0.0561), (0.1200, 0.0460),
     (0.0990, 0.0280), (0.0870, 0.0190), (0.0770, 0.0140), (0.0690, 0.0100)]
th1, th2, th3 = symbols("theta1 theta2 theta3")
K = len(tau) - 1
Y = [symbols("y1_%02d y2_%02d" % (k, k)) for k in range(1, K + 1)]  # phase k: (y1, y2)
f, b, guess = {}, [], {}
phi = 0
for k, (y1, y2) in enumerate(Y):
    d = tau[k + 1] - tau[k]
    f[y1] = d * (-(th1 + th3) * y1**2)
    f[y2] = d * (th1 * y1**2 - th2 * y2)
    if k > 0:  # continuity with the previous phase
        b += [(at_t0(y1) - at_tf(Y[k - 1][0]), 0, 0), (at_t0(y2) - at_tf(Y[k - 1][1]), 0, 0)]
    phi += (at_tf(y1) - z[k + 1][0])**2 + (at_tf(y2) - z[k + 1][1])**2
    guess[y1] = z[k][0] + (z[k + 1][0] - z[k][0]) * t
    guess[y2] = z[k][1] + (z[k + 1][1] - z[k][1]) * t
states = [y for pair in Y for y in pair]
formulation("fit", "20 chained phases of (y1, y2) | theta1..3: least squares",
            states=states, parameters=[th1, th2, th3], f=f, b=b, phi=phi,
            x0={Y[0][0]: 1, Y[0][1]: 0}, tf=1,
            bounds={th1: (0, inf), th2: (0, inf), th3: (0, inf)}, guess=guess)
