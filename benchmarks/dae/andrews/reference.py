"""Independent reference for Andrews' squeezing mechanism: the state-space
ODE in (q, v), typed from the test set's Fortran (andrews.f, Test Set for IVP
Solvers 2.4) without sympy and without radcol.  At every right-hand side the
accelerations w and multipliers lam solve the saddle-point system

    [ M(q)  G(q)^T ] [ w   ]   [ f(q, v)     ]
    [ G(q)  0      ] [ lam ] = [ -gamma(q, v) ]

with gamma = d/dq(G v) v the velocity terms of g'' (g'' = G w + gamma),
written out term by term below.  Drift of g and G v stays at the
integrator's tolerance over [0, 0.03] (measured: scripts/bench_dae.py
--reference prints it)."""
import numpy as np

NAMES_Q = ["be", "th", "ga", "ph", "de", "om", "ep"]
NAMES = NAMES_Q + ["v" + n for n in NAMES_Q] + ["w" + n for n in NAMES_Q] + \
    ["lam%d" % i for i in range(1, 7)]
COMPARE = NAMES_Q          # positions, as the test set's scd
FORM = ("the state-space ODE in (q, v), w and lam from the saddle-point "
        "system with the acceleration constraint, typed from the test set's"
        " Fortran")
T_END = 0.03
# reference integrations: (method, rtol, atol); the first is the reference,
# the second its check (scripts/bench_dae.py --reference)
METHODS = [("DOP853", 1e-13, 1e-15), ("Radau", 1e-12, 1e-14)]

(m1, m2, m3, m4, m5, m6, m7) = (.04325, .00365, .02373, .00706, .07050,
                                .00706, .05498)
xa, ya, xb, yb, xc, yc, c0 = -.06934, -.00227, -.03635, .03273, .014, .072, \
    4530.0
i1, i2, i3, i4, i5, i6, i7 = (2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7,
                              1.169e-5, 5.667e-7, 1.912e-5)
d, da, e, ea, rr, ra, l0 = 28e-3, 115e-4, 2e-2, 1421e-5, 7e-3, 92e-5, 7785e-5
ss, sa, sb, sc, sd = 35e-3, 1874e-5, 1043e-5, 18e-3, 2e-2
ta, tb, u, ua, ub = 2308e-5, 916e-5, 4e-2, 1228e-5, 449e-5
zf, zt, fa, mom = 2e-2, 4e-2, 1421e-5, 33e-3

Q0 = [-0.0617138900142764496358948458001, 0.0,
      0.455279819163070380255912382449, 0.222668390165885884674473185609,
      0.487364979543842550225598953530, -0.222668390165885884674473185609,
      1.23054744454982119249735015568]


def y0():
    return np.array(Q0 + [0.0] * 7)


def parts(q, v):
    be, th, ga, ph, de, om, ep = q
    vbe, vth, vga, vph, vde, vom, vep = v
    sibe, sith, siga, siph, side, siom, siep = np.sin(q)
    cobe, coth, coga, coph, code, coom, coep = np.cos(q)
    sibeth, cobeth = np.sin(be + th), np.cos(be + th)
    siphde, cophde = np.sin(ph + de), np.cos(ph + de)
    siomep, coomep = np.sin(om + ep), np.cos(om + ep)
    M = np.zeros((7, 7))
    M[0, 0] = m1 * ra**2 + m2 * (rr**2 - 2 * da * rr * coth + da**2) + i1 + i2
    M[1, 0] = m2 * (da**2 - da * rr * coth) + i2
    M[1, 1] = m2 * da**2 + i2
    M[2, 2] = m3 * (sa**2 + sb**2) + i3
    M[3, 3] = m4 * (e - ea)**2 + i4
    M[4, 3] = m4 * ((e - ea)**2 + zt * (e - ea) * siph) + i4
    M[4, 4] = m4 * (zt**2 + 2 * zt * (e - ea) * siph + (e - ea)**2) + \
        m5 * (ta**2 + tb**2) + i4 + i5
    M[5, 5] = m6 * (zf - fa)**2 + i6
    M[6, 5] = m6 * ((zf - fa)**2 - u * (zf - fa) * siom) + i6
    M[6, 6] = m6 * ((zf - fa)**2 - 2 * u * (zf - fa) * siom + u**2) + \
        m7 * (ua**2 + ub**2) + i6 + i7
    M = np.tril(M) + np.tril(M, -1).T
    xd = sd * coga + sc * siga + xb
    yd = sd * siga - sc * coga + yb
    lang = np.sqrt((xd - xc)**2 + (yd - yc)**2)
    force = -c0 * (lang - l0) / lang
    fx, fy = force * (xd - xc), force * (yd - yc)
    f = np.array([
        mom - m2 * da * rr * vth * (vth + 2 * vbe) * sith,
        m2 * da * rr * vbe**2 * sith,
        fx * (sc * coga - sd * siga) + fy * (sd * coga + sc * siga),
        m4 * zt * (e - ea) * vde**2 * coph,
        -m4 * zt * (e - ea) * vph * (vph + 2 * vde) * coph,
        -m6 * u * (zf - fa) * vep**2 * coom,
        m6 * u * (zf - fa) * vom * (vom + 2 * vep) * coom])
    G = np.zeros((6, 7))
    G[0, 0] = -rr * sibe + d * sibeth
    G[0, 1] = d * sibeth
    G[0, 2] = -ss * coga
    G[1, 0] = rr * cobe - d * cobeth
    G[1, 1] = -d * cobeth
    G[1, 2] = -ss * siga
    G[2, 0] = -rr * sibe + d * sibeth
    G[2, 1] = d * sibeth
    G[2, 3] = -e * cophde
    G[2, 4] = -e * cophde + zt * side
    G[3, 0] = rr * cobe - d * cobeth
    G[3, 1] = -d * cobeth
    G[3, 3] = -e * siphde
    G[3, 4] = -e * siphde - zt * code
    G[4, 0] = -rr * sibe + d * sibeth
    G[4, 1] = d * sibeth
    G[4, 5] = zf * siomep
    G[4, 6] = zf * siomep - u * coep
    G[5, 0] = rr * cobe - d * cobeth
    G[5, 1] = -d * cobeth
    G[5, 5] = -zf * coomep
    G[5, 6] = -zf * coomep - u * siep
    # velocity terms of g'': d2/dt2 (c cos phi) = -c sin(phi) phi'' -
    # c cos(phi) phi'^2, and likewise for sin
    vbt, vpd, voe = vbe + vth, vph + vde, vom + vep
    cx = -rr * cobe * vbe**2 + d * cobeth * vbt**2   # of rr cos be - d cos(be+th)
    cy = -rr * sibe * vbe**2 + d * sibeth * vbt**2   # of rr sin be - d sin(be+th)
    gam = np.array([
        cx + ss * siga * vga**2,
        cy - ss * coga * vga**2,
        cx + e * siphde * vpd**2 + zt * code * vde**2,
        cy - e * cophde * vpd**2 + zt * side * vde**2,
        cx + zf * coomep * voe**2 + u * siep * vep**2,
        cy + zf * siomep * voe**2 - u * coep * vep**2])
    g = np.array([
        rr * cobe - d * cobeth - ss * siga - xb,
        rr * sibe - d * sibeth + ss * coga - yb,
        rr * cobe - d * cobeth - e * siphde - zt * code - xa,
        rr * sibe - d * sibeth + e * cophde - zt * side - ya,
        rr * cobe - d * cobeth - zf * coomep - u * siep - xa,
        rr * sibe - d * sibeth - zf * siomep + u * coep - ya])
    return M, f, G, gam, g


def accel(q, v):
    M, f, G, gam, _ = parts(q, v)
    K = np.zeros((13, 13))
    K[:7, :7], K[:7, 7:], K[7:, :7] = M, G.T, G
    sol = np.linalg.solve(K, np.concatenate([f, -gam]))
    return sol[:7], sol[7:]


def rhs(t, y):
    w, _ = accel(y[:7], y[7:])
    return np.concatenate([y[7:], w])


def full(t, y):
    """Every named component (NAMES) at the ODE state y."""
    w, lam = accel(y[:7], y[7:])
    return np.concatenate([y, w, lam])


def drift(t, y):
    """Largest |g| and |G v| at the ODE state y."""
    _, _, G, _, g = parts(y[:7], y[7:])
    return max(np.max(np.abs(g)), np.max(np.abs(G @ y[7:])))


# Test Set for IVP Solvers 2.4, andrews.f, subroutine solut: y(0.03),
# components 1-27 (q, v, w, lam), 16 significant digits as printed.
PUBLISHED = [
    0.1581077119629904e+2, -0.1575637105984298e+2, 0.4082224013073101e-1,
    -0.5347301163226948e+0, 0.5244099658805304e+0, 0.5347301163226948e+0,
    0.1048080741042263e+1, 0.1139920302151208e+4, -0.1424379294994111e+4,
    0.1103291221937134e+2, 0.1929337464421385e+2, 0.5735699284790808e+0,
    -0.1929337464421385e+2, 0.3231791658026955e+0, -0.2463176316945196e+5,
    0.5185037701610329e+5, 0.3241025686413781e+6, 0.5667493645176213e+6,
    0.1674362929479361e+5, -0.5667493645176222e+6, 0.9826520791458422e+4,
    0.1991753333731910e+3, -0.2975531228015052e+2, 0.2306654119098399e+2,
    0.3145271365475927e+2, 0.2264249232082739e+2, 0.1161740700019673e+2]
