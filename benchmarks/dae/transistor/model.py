# Transistor amplifier: an amplifier circuit of two transistors, eight node
# voltages u1..u8 and five capacitors, driven by Ue(t) = 0.1 sin(200 pi t)
# (Test Set for IVP Solvers, release 2.4, problem "transamp", Mazzia &
# Magherini, University of Bari; Hairer & Wanner II, section VII.1).  Read
# with scripts/radcol-gen (benchmarks/dae/README.md).
#
# The test set writes it as M u' = f(t, u) with a singular capacitance
# matrix M (rank 5).  radcol's form x' = f(w), 0 = g(w) takes the five
# capacitor voltages as states,
#     z1 = u1 - u2,  u3,  z4 = u4 - u5,  u6,  z7 = u7 - u8,
# with z1' = -f1/C1, u3' = -f3/C2, z4' = -f4/C3, u6' = -f6/C4, z7' = -f7/C5,
# and the node voltages u2, u5, u8 as algebraic variables of the node
# equations f1 + f2 = 0, f4 + f5 = 0, f7 + f8 = 0 (index 1; the sums of the
# M-rows with opposite signs).  u1, u4, u7 are outputs (z + the node).  The
# transistor currents g(x) = beta (exp(x / UF) - 1) with beta = 1e-6 and
# UF = 0.026 V make the problem stiff: time constants from R C = 9 ms down to
# the conductances' microseconds.
model("transistor", "transistor amplifier, index 1 (Test Set for IVP Solvers 2.4)")
tf_ = param("tf", 0.2, "final time, s (t0 = 0); the test set's tend is 0.2", positive=True)
UB, UF, alpha, beta, R0 = 6.0, 0.026, 0.99, 1e-6, 1000.0
R1 = R2 = R3 = R4 = R5 = R6 = R7 = R8 = R9 = 9000.0
C1, C2, C3, C4, C5 = 1e-6, 2e-6, 3e-6, 4e-6, 5e-6
z1, u3, z4, u6, z7, u2, u5, u8 = symbols("z1 u3 z4 u6 z7 u2 u5 u8")
u1, u4, u7 = z1 + u2, z4 + u5, z7 + u8
uin = 0.1 * sin(200 * pi * t)
g23 = beta * (exp((u2 - u3) / UF) - 1)
g56 = beta * (exp((u5 - u6) / UF) - 1)
f1 = (u1 - uin) / R0
f2 = u2 / R1 + (u2 - UB) / R2 + (1 - alpha) * g23
f3 = u3 / R3 - g23
f4 = (u4 - UB) / R4 + alpha * g23
f5 = u5 / R5 + (u5 - UB) / R6 + (1 - alpha) * g56
f6 = u6 / R7 - g56
f7 = (u7 - UB) / R8 + alpha * g56
f8 = u8 / R9
n2, n5 = UB / (R2 / R1 + 1), UB / (R6 / R5 + 1)     # u2(0), u5(0): 3 V
formulation("index1", "z1 u3 z4 u6 z7 | u2 u5 u8: capacitor voltages, node equations (index 1)",
            states=[z1, u3, z4, u6, z7], algebraic=[u2, u5, u8],
            f={z1: -f1 / C1, u3: -f3 / C2, z4: -f4 / C3, u6: -f6 / C4, z7: -f7 / C5},
            g=[f1 + f2, f4 + f5, f7 + f8], index=1, t0_algebraic=True, tf=tf_,
            x0={z1: 0 - n2, u3: n2, z4: UB - n5, u6: n5, z7: UB - 0},
            outputs={"u1": u1, "u4": u4, "u7": u7},
            guess={z1: -n2, u3: n2, z4: UB - n5, u6: n5, z7: UB, u2: n2, u5: n5, u8: 0})
