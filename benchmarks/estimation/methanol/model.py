# Methanol to hydrocarbons (COPS 3.0, problem 13; Maria 1998, Floudas et
# al. 1999): estimate theta >= 0 in
#     y1' = -(2 theta2 - theta1 y2 / ((theta2 + theta5) y1 + y2) + theta3 + theta4) y1
#     y2' = theta1 y1 (theta2 y1 - y2) / ((theta2 + theta5) y1 + y2) + theta3 y1
#     y3' = theta1 y1 (y2 + theta5 y1) / ((theta2 + theta5) y1 + y2) + theta4 y1
# y(0) = (1, 0, 0), by least squares on 17 measurements z_j at tau_j.
# As gas-oil: one chained phase per measurement interval (16 phases), so the
# objective's terms are end states of the phases.
model("methanol", "COPS methanol: 5 rate constants from 17 measurements (16 chained phases)")
tau = [0.0, 0.050, 0.065, 0.080, 0.123, 0.233, 0.273, 0.354, 0.397, 0.418, 0.502,
       0.553, 0.681, 0.750, 0.916, 0.937, 1.122]
z = [(1.0000, 0.0000, 0.0000), (0.7085, 0.1621, 0.0811), (0.5971, 0.1855, 0.0965),
     (0.5537, 0.1989, 0.1198), (0.3684, 0.2845, 0.1535), (0.1712, 0.3491, 0.2097),
     (0.1198, 0.3098, 0.2628), (0.0747, 0.3576, 0.2467), (0.0529, 0.3347, 0.2884),
     (0.0415, 0.3388, 0.2757), (0.0261, 0.3557, 0.3167), (0.0208, 0.3483, 0.2954),
     (0.0085, 0.3836, 0.2950), (0.0053, 0.3611, 0.2937), (0.0019, 0.3609, 0.2831),
     (0.0018, 0.3485, 0.2846), (0.0006, 0.3698, 0.2899)]
th = symbols("theta1 theta2 theta3 theta4 theta5")
K = len(tau) - 1
Y = [symbols("y1_%02d y2_%02d y3_%02d" % (k, k, k)) for k in range(1, K + 1)]
f, b, guess = {}, [], {}
phi = 0
for k, (y1, y2, y3) in enumerate(Y):
    d = tau[k + 1] - tau[k]
    den = (th[1] + th[4]) * y1 + y2
    f[y1] = d * (-(2 * th[1] - th[0] * y2 / den + th[2] + th[3]) * y1)
    f[y2] = d * (th[0] * y1 * (th[1] * y1 - y2) / den + th[2] * y1)
    f[y3] = d * (th[0] * y1 * (y2 + th[4] * y1) / den + th[3] * y1)
    for i in range(3):
        if k > 0:
            b.append((at_t0(Y[k][i]) - at_tf(Y[k - 1][i]), 0, 0))
        phi += (at_tf(Y[k][i]) - z[k + 1][i])**2
        guess[Y[k][i]] = z[k][i] + (z[k + 1][i] - z[k][i]) * t
states = [y for trip in Y for y in trip]
formulation("fit", "16 chained phases of (y1, y2, y3) | theta1..5: least squares",
            states=states, parameters=list(th), f=f, b=b, phi=phi,
            x0={Y[0][0]: 1, Y[0][1]: 0, Y[0][2]: 0}, tf=1,
            bounds={p: (0, inf) for p in th}, guess={**guess, **{p: 1 for p in th}})
