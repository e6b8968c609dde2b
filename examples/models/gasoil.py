# Gas oil cracking (COPS 3.0 problem 21; Tjoa, Biegler 1991): 3 rate constants fitted to gasoil.csv.
model("gasoil", "catalytic cracking of gas oil, a least-squares fit (COPS 3.0: optimum 5.23659e-3)")
y1, y2, t1, t2, t3 = symbols("y1 y2 theta1 theta2 theta3")
formulation("fit", "y1 y2 | | | theta1 theta2 theta3: fit to 21 measurements", states=[y1, y2],
            parameters=[t1, t2, t3], f={y1: -(t1 + t3) * y1**2, y2: t1 * y1**2 - t2 * y2},
            x0={y1: 1, y2: 0}, tf=0.95, bounds={t1: (0, inf), t2: (0, inf), t3: (0, inf)},
            data="gasoil.csv", elements=20, stages=4)
