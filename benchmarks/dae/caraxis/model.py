# Car axis: a car axle on a bumpy road, the left wheel on the road's
# profile, the right one attached by a spring, the chassis by a rigid bar of
# length L (Test Set for IVP Solvers, release 2.4, problem "caraxis",
# Mazzia & Magherini, University of Bari; from Schwarz and Rulka).  Read
# with scripts/radcol-gen (benchmarks/dae/README.md).
#
# Variables, as in the test set: positions p = (xl, yl, xr, yr), velocities
# (ul, vl, ur, vr), multipliers lam1, lam2 of the two constraints
#     phi1 = xb(t) xl + yb(t) yl = 0,   phi2 = (xl - xr)^2 + (yl - yr)^2 - L^2 = 0,
# with the road point yb = r sin(w t), xb = sqrt(L^2 - yb^2).  With
# k = M eps^2 / 2:
#     p' = v,  k v' = F(p, t) + (dphi/dp)^T lam,
# closed by one of
#     index3  0 = phi(p, t)                     (the test set's form)
#     index2  0 = d/dt phi = phi_p v + phi_t
#     index1  0 = d2/dt2 phi (with v' substituted: linear in lam)
# derived with sympy below.  Initial values: the test set's (consistent;
# lam(0) = 0 follows).
model("caraxis", "car axis on a bumpy road, index 3 (Test Set for IVP Solvers 2.4)")
tf_ = param("tf", 3.0, "final time, s (t0 = 0); the test set's tend is 3", positive=True)
eps, M, L, L0, r, w, g = 1e-2, 10.0, 1.0, 0.5, 0.1, 10.0, 1.0
k = M * eps**2 / 2

xl, yl, xr, yr, ul, vl, ur, vr, lam1, lam2 = symbols("xl yl xr yr ul vl ur vr lam1 lam2")
p, v = [xl, yl, xr, yr], [ul, vl, ur, vr]
yb = r * sin(w * t)
xb = sqrt(L**2 - yb**2)
Ll = sqrt(xl**2 + yl**2)
Lr = sqrt((xr - xb)**2 + (yr - yb)**2)
phi = [xb * xl + yb * yl, (xl - xr)**2 + (yl - yr)**2 - L**2]
acc = {ul: ((L0 - Ll) * xl / Ll + lam1 * xb + 2 * lam2 * (xl - xr)) / k,
       vl: ((L0 - Ll) * yl / Ll + lam1 * yb + 2 * lam2 * (yl - yr)) / k - g,
       ur: ((L0 - Lr) * (xr - xb) / Lr - 2 * lam2 * (xl - xr)) / k,
       vr: ((L0 - Lr) * (yr - yb) / Lr - 2 * lam2 * (yl - yr)) / k - g}
f = {**{p[i]: v[i] for i in range(4)}, **acc}


def ddt(e):
    """Total time derivative along p' = v, v' = acc."""
    return e.diff(t) + sum(e.diff(p[i]) * v[i] + e.diff(v[i]) * acc[v[i]] for i in range(4))


dphi = [ddt(e) for e in phi]
ddphi = [ddt(e) for e in dphi]
common = dict(states=p + v, algebraic=[lam1, lam2], f=f, tf=tf_,
              x0={xl: 0, yl: L0, xr: L, yr: L0, ul: -L0 / L, vl: 0, ur: -L0 / L, vr: 0},
              guess={xl: 0, yl: L0, xr: L, yr: L0, ul: -L0 / L, vl: 0, ur: -L0 / L, vr: 0,
                     lam1: 0, lam2: 0},
              invariants={"phi1": phi[0], "phi2": phi[1], "dphi1": dphi[0], "dphi2": dphi[1]})
formulation("index3", "p v | lam: position constraints phi = 0 (index 3, the test set's form)",
            g=phi, index=3, **common)
formulation("index2", "p v | lam: velocity constraints phi' = 0 (index 2)",
            g=dphi, index=2, **common)
formulation("index1", "p v | lam: acceleration constraints phi'' = 0 (index 1)",
            g=ddphi, index=1, t0_algebraic=True, **common)
