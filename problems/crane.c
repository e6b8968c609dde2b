/*
 * crane.c - planar crane with winch following a prescribed load path
 * (SPEC 4.3, seeds/002): four formulations and the exact flat reference.
 *
 * Units SI; z positive downward, theta the cable angle from the vertical.
 * Trolley position d, cable length r, load (x, z) = (r sin th + d, r cos th),
 * tension tau, trolley force u1 [N], winch torque u2 [N m].  Defaults:
 * M1 = 10 kg, M2 = m = 2 kg, J = 0.01 kg m^2, C1 = 1 N s/m, C2 = 0.005
 * N m s, C3 = 0.1 m (drum radius), g = 9.81 m/s^2, tf = 6 s, path from
 * (0, 2) to (4, 1) m (crane_path.h).
 *
 * Point vector (every formulation): w = (d, r, th, vd, vr, om | tau | u1, u2)
 * with s = sin th, c = cos th and
 *   A  = (-C1 vd + u1 + tau s) / M1                      (= vd')
 *   B  = (-C2 vr - C3 u2 + C3^2 tau) / J                 (= vr')
 *   Om = (-(m/M2) g s - A c - 2 vr om) / r               (= om')
 * Index-1 model (tangential and radial components of M2 (x'', z'') =
 * (-tau s, m g - tau c) with x'' = r'' s + 2 r' th' c + r (th'' c - th'^2 s)
 * + d'' and z'' = r'' c - 2 r' th' s - r (th'' s + th'^2 c)):
 *   d' = vd, r' = vr, th' = om, vd' = A, vr' = B, om' = Om,
 *   0 = G := tau - m g c + M2 (A s + B - r om^2),
 *   dG/dtau = 1 + (M2/M1) s^2 + M2 C3^2 / J > 0.
 *
 * Formulations (each its own rc_problem):
 *   flat    the flat inverse sampled on the mesh (no NLP); point block = the
 *           index-1 model (f, G) so that it can be checked and diagnosed.
 *   track   OCP: min int (x-p1)^2 + (z-p2)^2 + eps (u1^2 + u2^2) dt on the
 *           index-1 model, x(t0) fixed to the consistent state, G at t0,
 *           optional |u1| <= u1max, |u2| <= u2max, rmin <= r <= rmax.
 *   servo   index-1 model + path constraints x - p1 = 0, z - p2 = 0 at the
 *           collocation points (index 5 transcribed directly).
 *   reduced the note's index reduction completed (docs/crane-index-
 *           reduction.md): u1, u2 become algebraic, with
 *             0 = G,
 *             0 = G2 := tau - P,                 P = a s + b c,
 *             0 = G3 := T - 2 S om - Q om^2 - P Om,
 *           a = -M2 p1'', b = m g - M2 p2'', Q = a c - b s,
 *           R = a' c - b' s, S = a' s + b' c, T = a'' c - b'' s; G3 = Q''
 *           along solutions.  Index 1; hidden constraints Q = 0, Q' = R - P om
 *           = 0 and the path levels x - p1, z - p2, vx - p1', vz - p2'.
 *
 * Outputs: x, z, vx = vr s + r om c + vd, vz = vr c - r om s.
 * Invariants: flat/track: G, x - p1, z - p2 (algebraic consistency and the
 * tracking error); servo: x - p1, z - p2, vx - p1', vz - p2'; reduced: those
 * four and Q, Q'.
 *
 * Derivatives are hand-coded below as dense per-row gradients and Hessians
 * (9 inputs), in the order of the equations, then gathered onto sparsity
 * patterns declared once per problem from per-row dependency masks.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crane_path.h"
#include "radcol/mesh.h"
#include "radcol/mesh_check.h"
#include "radcol/problem.h"

/* ---- point-vector layout ------------------------------------------------ */
enum { ID = 0, IR, ITH, IVD, IVR, IOM, ITAU, IU1, IU2, NW };
#define NX 6

/* ---- rows: every scalar function a crane block can hold ----------------- */
typedef enum row_kind {
  ROW_F0 = 0, /* vd */
  ROW_F1,     /* vr */
  ROW_F2,     /* om */
  ROW_F3,     /* A */
  ROW_F4,     /* B */
  ROW_F5,     /* Om */
  ROW_G,      /* G */
  ROW_L,      /* tracking integrand */
  ROW_EX,     /* x - p1 */
  ROW_EZ,     /* z - p2 */
  ROW_G2,     /* tau - P */
  ROW_G3,     /* Q'' */
  ROW_EVX,    /* vx - p1' */
  ROW_EVZ,    /* vz - p2' */
  ROW_Q,      /* Q */
  ROW_QD,     /* Q' = R - P om */
  NROWKIND
} row_kind;

#define B_(i) (1u << (i))
/* Inputs each row depends on (Jacobian) and depends on nonlinearly (Hessian:
 * all pairs inside this set are declared). */
static const unsigned ROW_DEP[NROWKIND] = {
    [ROW_F0] = B_(IVD),
    [ROW_F1] = B_(IVR),
    [ROW_F2] = B_(IOM),
    [ROW_F3] = B_(ITH) | B_(IVD) | B_(ITAU) | B_(IU1),
    [ROW_F4] = B_(IVR) | B_(ITAU) | B_(IU2),
    [ROW_F5] =
        B_(IR) | B_(ITH) | B_(IVD) | B_(IVR) | B_(IOM) | B_(ITAU) | B_(IU1),
    [ROW_G] = B_(IR) | B_(ITH) | B_(IVD) | B_(IVR) | B_(IOM) | B_(ITAU) |
              B_(IU1) | B_(IU2),
    [ROW_L] = B_(ID) | B_(IR) | B_(ITH) | B_(IU1) | B_(IU2),
    [ROW_EX] = B_(ID) | B_(IR) | B_(ITH),
    [ROW_EZ] = B_(IR) | B_(ITH),
    [ROW_G2] = B_(ITH) | B_(ITAU),
    [ROW_G3] =
        B_(IR) | B_(ITH) | B_(IVD) | B_(IVR) | B_(IOM) | B_(ITAU) | B_(IU1),
    [ROW_EVX] = B_(IR) | B_(ITH) | B_(IVD) | B_(IVR) | B_(IOM),
    [ROW_EVZ] = B_(IR) | B_(ITH) | B_(IVR) | B_(IOM),
    [ROW_Q] = B_(ITH),
    [ROW_QD] = B_(ITH) | B_(IOM),
};
static const unsigned ROW_NONLIN[NROWKIND] = {
    [ROW_F3] = B_(ITH) | B_(ITAU),
    [ROW_F5] =
        B_(IR) | B_(ITH) | B_(IVD) | B_(IVR) | B_(IOM) | B_(ITAU) | B_(IU1),
    [ROW_G] = B_(IR) | B_(ITH) | B_(IVD) | B_(IOM) | B_(ITAU) | B_(IU1),
    [ROW_L] = B_(ID) | B_(IR) | B_(ITH) | B_(IU1) | B_(IU2),
    [ROW_EX] = B_(IR) | B_(ITH),
    [ROW_EZ] = B_(IR) | B_(ITH),
    [ROW_G2] = B_(ITH),
    [ROW_G3] =
        B_(IR) | B_(ITH) | B_(IVD) | B_(IVR) | B_(IOM) | B_(ITAU) | B_(IU1),
    [ROW_EVX] = B_(IR) | B_(ITH) | B_(IVR) | B_(IOM),
    [ROW_EVZ] = B_(IR) | B_(ITH) | B_(IVR) | B_(IOM),
    [ROW_Q] = B_(ITH),
    [ROW_QD] = B_(ITH) | B_(IOM),
};

/* ---- parameters -----------------------------------------------------------
 */
enum {
  P_M1 = 0,
  P_M2,
  P_MG,
  P_J,
  P_C1,
  P_C2,
  P_C3,
  P_G,
  P_TF,
  P_XS,
  P_ZS,
  P_XE,
  P_ZE,
  P_EPS,
  P_U1MAX,
  P_U2MAX,
  P_RMIN,
  P_RMAX,
  P_PATH,
  P_PATHMODE,
  P_D0,
  P_R0,
  P_TH0,
  P_VD0,
  P_VR0,
  P_OM0,
  P_TAU0,
  P_FIXEND,
  P_SIGMA,
  NPARAM
};

/* Tracking weight: see docs/crane-index-reduction.md, "Choice of eps". */
#define CRANE_EPS_DEFAULT 1e-11

static const rc_param_def crane_params[NPARAM] = {
    {"M1", RC_PARAM_REAL, 10.0, NULL, "trolley mass [kg]"},
    {"M2", RC_PARAM_REAL, 2.0, NULL, "load (inertial) mass [kg]"},
    {"m", RC_PARAM_REAL, 2.0, NULL, "load (gravitational) mass [kg]"},
    {"J", RC_PARAM_REAL, 0.01, NULL, "winch drum inertia [kg m^2]"},
    {"C1", RC_PARAM_REAL, 1.0, NULL, "trolley viscous friction [N s/m]"},
    {"C2", RC_PARAM_REAL, 0.005, NULL, "winch viscous friction [N m s]"},
    {"C3", RC_PARAM_REAL, 0.1, NULL, "winch drum radius [m]"},
    {"g", RC_PARAM_REAL, 9.81, NULL, "gravity [m/s^2]"},
    {"tf", RC_PARAM_REAL, 6.0, NULL,
     "horizon [s]; with a path file: its last t unless set"},
    {"x_start", RC_PARAM_REAL, 0.0, NULL, "default path: start x [m]"},
    {"z_start", RC_PARAM_REAL, 2.0, NULL,
     "default path: start z [m] (below the rail, > 0)"},
    {"x_end", RC_PARAM_REAL, 4.0, NULL, "default path: end x [m]"},
    {"z_end", RC_PARAM_REAL, 1.0, NULL, "default path: end z [m] (> 0)"},
    {"eps", RC_PARAM_REAL, CRANE_EPS_DEFAULT, NULL,
     "track: control weight in |(x,z)-p|^2 + eps |u|^2 [m^2/N^2]"},
    {"u1max", RC_PARAM_REAL, HUGE_VAL, NULL,
     "track: bound |u1| <= u1max [N] (inf: none)"},
    {"u2max", RC_PARAM_REAL, HUGE_VAL, NULL,
     "track: bound |u2| <= u2max [N m] (inf: none)"},
    {"rmin", RC_PARAM_REAL, 0.0, NULL, "track: bound r >= rmin [m] (0: none)"},
    {"rmax", RC_PARAM_REAL, HUGE_VAL, NULL,
     "track: bound r <= rmax [m] (inf: none)"},
    {"path", RC_PARAM_TEXT, 0.0, NULL,
     "waypoint CSV t,x,z (header allowed, first t = 0); replaces the "
     "default path"},
    {"path_mode", RC_PARAM_TEXT, 0.0, "smooth",
     "waypoint path: smooth (one degree-9 spline through every waypoint, at "
     "rest at the first and last) or stop (rest at every waypoint)"},
    {"d0", RC_PARAM_REAL, NAN, NULL, "initial d [m] (default: flat inverse)"},
    {"r0", RC_PARAM_REAL, NAN, NULL, "initial r [m] (default: flat inverse)"},
    {"theta0", RC_PARAM_REAL, NAN, NULL,
     "initial theta [rad] (default: flat inverse)"},
    {"vd0", RC_PARAM_REAL, NAN, NULL,
     "initial vd [m/s] (default: flat inverse)"},
    {"vr0", RC_PARAM_REAL, NAN, NULL,
     "initial vr [m/s] (default: flat inverse)"},
    {"omega0", RC_PARAM_REAL, NAN, NULL,
     "initial omega [rad/s] (default: flat inverse)"},
    {"tau0", RC_PARAM_REAL, NAN, NULL,
     "guess of tau(t0) [N] (algebraic: G decides it; default flat)"},
    {"fix_end", RC_PARAM_REAL, 1.0, NULL,
     "track: 1 fixes x(tf) to the flat end state (removes the end layer "
     "where the optimal control relaxes), 0 leaves it free"},
    {"obj_scale", RC_PARAM_REAL, 1e3, NULL,
     "track: the NLP minimises obj_scale * int L dt (puts the eps-sized "
     "control gradient above Ipopt's tol, rounding noise below it)"},
};

enum { F_FLAT = 0, F_TRACK, F_SERVO, F_REDUCED, NFORM };

static const rc_formulation_def crane_formulations[NFORM] = {
    {"flat", "exact inverse by flatness sampled on the mesh (no NLP)"},
    {"track", "tracking OCP on the index-1 model, min |(x,z)-p|^2 + eps|u|^2"},
    {"servo", "index-1 model + x = p1, z = p2 at collocation points (index 5)"},
    {"reduced", "index reduction completed: index-1 DAE, u1 u2 algebraic"},
};

static const char *const VAR_NAMES[NW] = {"d",     "r",   "theta", "vd", "vr",
                                          "omega", "tau", "u1",    "u2"};
static const char *const OUT_NAMES[4] = {"x", "z", "vx", "vz"};

static const char *const SERVO_NOTE =
    "the index-5 path constraint is transcribed directly: with s "
    "Radau IIA stages expect about order s for vx vz, s-1 for theta tau d r, "
    "s-2 for vd vr and s-3 for u1 u2 (with s <= 3 the controls do not "
    "converge); for the controls use -f reduced, flat or track";

#define MAXROWS 9

/* ---- the problem's own data ---------------------------------------------- */
typedef struct crane {
  rc_problem pb; /* first member: (crane *)pb */
  rc_crane_params par;
  rc_crane_path path;
  double eps, sigma; /* control weight, objective scale */
  int nrow, ninv;
  row_kind rows[MAXROWS], inv_rows[MAXROWS];
  double w_lo[NW], w_hi[NW];
  double x0[NX], xf[NX];
  int fix_x0[NX], fix_xf[NX];
  double tau0;
  const char *inv_names[MAXROWS];
  char note[768];    /* pb->note: smooth path overshoot (+ servo note) */
  double *mesh_frac; /* suggested mesh breakpoints (owned) */
  int jr[MAXROWS * NW], jc[MAXROWS * NW]; /* point Jacobian pattern */
  int hr[NW * NW], hc[NW * NW];           /* point Hessian pattern */
  int ijr[MAXROWS * NW], ijc[MAXROWS * NW];
  int ihr[NW * NW], ihc[NW * NW];
} crane;

static const crane *crane_of(const rc_problem *pb) {
  return (const crane *)pb->user;
}

/* Dense row: value, gradient and symmetric Hessian over the NW inputs. */
typedef struct drow {
  double v;
  double g[NW];
  double h[NW][NW];
} drow;

static void sym(drow *R, int i, int j, double v) {
  R->h[i][j] += v;
  if (i != j)
    R->h[j][i] += v;
}

/* The index-1 core A, B, Om, G with derivatives up to `order`. */
typedef struct core {
  double s, c;
  drow A, B, Om, G;
} core;

static int core_eval(const crane *cr, const double *w, int order, core *K) {
  const rc_crane_params *P = &cr->par;
  const double r = w[IR], th = w[ITH], vd = w[IVD], vr = w[IVR], om = w[IOM];
  const double tau = w[ITAU], u1 = w[IU1], u2 = w[IU2];
  if (!(r > 0.0) || !isfinite(r) || !isfinite(th))
    return 1; /* outside the domain of Om: the solver may step back */
  memset(K, 0, sizeof *K);
  const double s = sin(th), c = cos(th);
  const double M1 = P->M1, M2 = P->M2, J = P->J, mgM = P->m * P->g / M2;
  K->s = s;
  K->c = c;
  drow *A = &K->A, *B = &K->B, *Om = &K->Om, *G = &K->G;
  A->v = (-P->C1 * vd + u1 + tau * s) / M1;
  B->v = (-P->C2 * vr - P->C3 * u2 + P->C3 * P->C3 * tau) / J;
  const double N = -mgM * s - A->v * c - 2.0 * vr * om;
  Om->v = N / r;
  G->v = tau - P->m * P->g * c + M2 * (A->v * s + B->v - r * om * om);
  if (order < 1)
    return 0;
  /* A */
  A->g[IVD] = -P->C1 / M1;
  A->g[IU1] = 1.0 / M1;
  A->g[ITAU] = s / M1;
  A->g[ITH] = tau * c / M1;
  /* B */
  B->g[IVR] = -P->C2 / J;
  B->g[IU2] = -P->C3 / J;
  B->g[ITAU] = P->C3 * P->C3 / J;
  /* N = -(m g/M2) s - A c - 2 vr om, then Om = N / r */
  double Ng[NW] = {0};
  Ng[IVD] = -A->g[IVD] * c;
  Ng[IU1] = -A->g[IU1] * c;
  Ng[ITAU] = -A->g[ITAU] * c;
  Ng[ITH] = -mgM * c - A->g[ITH] * c + A->v * s;
  Ng[IVR] = -2.0 * om;
  Ng[IOM] = -2.0 * vr;
  for (int k = 0; k < NW; ++k)
    Om->g[k] = Ng[k] / r;
  Om->g[IR] += -N / (r * r);
  /* G = tau - m g c + M2 (A s + B - r om^2) */
  for (int k = 0; k < NW; ++k)
    G->g[k] = M2 * (A->g[k] * s + B->g[k]);
  G->g[ITAU] += 1.0;
  G->g[ITH] += P->m * P->g * s + M2 * A->v * c;
  G->g[IR] += -M2 * om * om;
  G->g[IOM] += -2.0 * M2 * r * om;
  if (order < 2)
    return 0;
  /* A: only th-th and th-tau */
  sym(A, ITH, ITH, -tau * s / M1);
  sym(A, ITH, ITAU, c / M1);
  /* N */
  double Nh[NW][NW] = {{0}};
  Nh[ITH][ITH] = mgM * s - A->h[ITH][ITH] * c + 2.0 * A->g[ITH] * s + A->v * c;
  for (int k = 0; k < NW; ++k)
    if (k != ITH) {
      double v = -A->h[ITH][k] * c + A->g[k] * s;
      Nh[ITH][k] += v;
      Nh[k][ITH] += v;
    }
  Nh[IVR][IOM] += -2.0;
  Nh[IOM][IVR] += -2.0;
  /* Om = N / r */
  for (int i = 0; i < NW; ++i)
    for (int j = 0; j < NW; ++j) {
      double v = Nh[i][j] / r;
      if (j == IR)
        v -= Ng[i] / (r * r);
      if (i == IR)
        v -= Ng[j] / (r * r);
      if (i == IR && j == IR)
        v += 2.0 * N / (r * r * r);
      Om->h[i][j] = v;
    }
  /* G */
  G->h[ITH][ITH] = P->m * P->g * c +
                   M2 * (A->h[ITH][ITH] * s + 2.0 * A->g[ITH] * c - A->v * s);
  for (int k = 0; k < NW; ++k)
    if (k != ITH) {
      double v = M2 * (A->h[ITH][k] * s + A->g[k] * c);
      G->h[ITH][k] += v;
      G->h[k][ITH] += v;
    }
  sym(G, IR, IOM, -2.0 * M2 * om);
  sym(G, IOM, IOM, -2.0 * M2 * r);
  return 0;
}

/* Path quantities of the reduced formulation at t, and the trig of th. */
typedef struct pathq {
  double p1[5], p2[5];
  double a, ad, add, b, bd, bdd;
} pathq;

static void path_at(const crane *cr, double t, pathq *q) {
  rc_crane_path_eval(&cr->path, t, q->p1, q->p2);
  const double M2 = cr->par.M2;
  q->a = -M2 * q->p1[2];
  q->ad = -M2 * q->p1[3];
  q->add = -M2 * q->p1[4];
  q->b = cr->par.m * cr->par.g - M2 * q->p2[2];
  q->bd = -M2 * q->p2[3];
  q->bdd = -M2 * q->p2[4];
}

/* Evaluates rows kinds[0..n-1] at (t, w) with derivatives up to order. */
static int rows_eval(const crane *cr, double t, const double *w,
                     const row_kind *kinds, int n, int order, drow *out) {
  core K;
  int rc = core_eval(cr, w, order, &K);
  if (rc)
    return rc;
  pathq q;
  path_at(cr, t, &q);
  const double s = K.s, c = K.c;
  const double d = w[ID], r = w[IR], vd = w[IVD], vr = w[IVR], om = w[IOM];
  const double ex = r * s + d - q.p1[0], ez = r * c - q.p2[0];
  const double P = q.a * s + q.b * c, Q = q.a * c - q.b * s;
  const double R = q.ad * c - q.bd * s, S = q.ad * s + q.bd * c;
  const double T = q.add * c - q.bdd * s, U = q.add * s + q.bdd * c;
  for (int i = 0; i < n; ++i) {
    drow *o = &out[i];
    memset(o, 0, sizeof *o);
    switch (kinds[i]) {
    case ROW_F0:
      o->v = vd;
      o->g[IVD] = 1.0;
      break;
    case ROW_F1:
      o->v = vr;
      o->g[IVR] = 1.0;
      break;
    case ROW_F2:
      o->v = om;
      o->g[IOM] = 1.0;
      break;
    case ROW_F3:
      *o = K.A;
      break;
    case ROW_F4:
      *o = K.B;
      break;
    case ROW_F5:
      *o = K.Om;
      break;
    case ROW_G:
      *o = K.G;
      break;
    case ROW_L: /* sigma (ex^2 + ez^2 + eps (u1^2 + u2^2)) */
      o->v = ex * ex + ez * ez + cr->eps * (w[IU1] * w[IU1] + w[IU2] * w[IU2]);
      if (order >= 1) {
        o->g[ID] = 2.0 * ex;
        o->g[IR] = 2.0 * (ex * s + ez * c);
        o->g[ITH] = 2.0 * r * (ex * c - ez * s);
        o->g[IU1] = 2.0 * cr->eps * w[IU1];
        o->g[IU2] = 2.0 * cr->eps * w[IU2];
      }
      if (order >= 2) {
        sym(o, ID, ID, 2.0);
        sym(o, IR, ID, 2.0 * s);
        sym(o, ITH, ID, 2.0 * r * c);
        sym(o, IR, IR, 2.0);
        sym(o, ITH, IR, 2.0 * (ex * c - ez * s));
        sym(o, ITH, ITH, 2.0 * (r * r - r * (ex * s + ez * c)));
        sym(o, IU1, IU1, 2.0 * cr->eps);
        sym(o, IU2, IU2, 2.0 * cr->eps);
      }
      o->v *= cr->sigma;
      for (int k = 0; k < NW; ++k) {
        o->g[k] *= cr->sigma;
        for (int l = 0; l < NW; ++l)
          o->h[k][l] *= cr->sigma;
      }
      break;
    case ROW_EX: /* r s + d - p1 */
      o->v = ex;
      o->g[ID] = 1.0;
      o->g[IR] = s;
      o->g[ITH] = r * c;
      if (order >= 2) {
        sym(o, ITH, IR, c);
        sym(o, ITH, ITH, -r * s);
      }
      break;
    case ROW_EZ: /* r c - p2 */
      o->v = ez;
      o->g[IR] = c;
      o->g[ITH] = -r * s;
      if (order >= 2) {
        sym(o, ITH, IR, -s);
        sym(o, ITH, ITH, -r * c);
      }
      break;
    case ROW_G2: /* tau - P */
      o->v = w[ITAU] - P;
      o->g[ITAU] = 1.0;
      o->g[ITH] = -Q;
      if (order >= 2)
        sym(o, ITH, ITH, P);
      break;
    case ROW_G3: /* T - 2 S om - Q om^2 - P Om */
      o->v = T - 2.0 * S * om - Q * om * om - P * K.Om.v;
      if (order < 1)
        break;
      for (int k = 0; k < NW; ++k)
        o->g[k] = -P * K.Om.g[k];
      o->g[ITH] += -U - 2.0 * R * om + P * om * om - Q * K.Om.v;
      o->g[IOM] += -2.0 * S - 2.0 * Q * om;
      if (order < 2)
        break;
      for (int k = 0; k < NW; ++k)
        for (int l = 0; l < NW; ++l)
          o->h[k][l] = -P * K.Om.h[k][l];
      for (int k = 0; k < NW; ++k)
        if (k != ITH)
          sym(o, ITH, k, -Q * K.Om.g[k]);
      sym(o, ITH, ITH,
          -2.0 * Q * K.Om.g[ITH] + P * K.Om.v - T + 2.0 * S * om + Q * om * om);
      sym(o, ITH, IOM, -2.0 * R + 2.0 * P * om);
      sym(o, IOM, IOM, -2.0 * Q);
      break;
    case ROW_EVX: /* vr s + r om c + vd - p1' */
      o->v = vr * s + r * om * c + vd - q.p1[1];
      o->g[IVR] = s;
      o->g[IR] = om * c;
      o->g[IOM] = r * c;
      o->g[ITH] = vr * c - r * om * s;
      o->g[IVD] = 1.0;
      if (order >= 2) {
        sym(o, IVR, ITH, c);
        sym(o, IR, IOM, c);
        sym(o, IR, ITH, -om * s);
        sym(o, IOM, ITH, -r * s);
        sym(o, ITH, ITH, -vr * s - r * om * c);
      }
      break;
    case ROW_EVZ: /* vr c - r om s - p2' */
      o->v = vr * c - r * om * s - q.p2[1];
      o->g[IVR] = c;
      o->g[IR] = -om * s;
      o->g[IOM] = -r * s;
      o->g[ITH] = -vr * s - r * om * c;
      if (order >= 2) {
        sym(o, IVR, ITH, -s);
        sym(o, IR, IOM, -s);
        sym(o, IR, ITH, -om * c);
        sym(o, IOM, ITH, -r * c);
        sym(o, ITH, ITH, -vr * c + r * om * s);
      }
      break;
    case ROW_Q: /* a c - b s */
      o->v = Q;
      o->g[ITH] = -P;
      if (order >= 2)
        sym(o, ITH, ITH, -Q);
      break;
    case ROW_QD: /* R - P om */
      o->v = R - P * om;
      o->g[ITH] = -S - Q * om;
      o->g[IOM] = -P;
      if (order >= 2) {
        sym(o, ITH, ITH, -R + P * om);
        sym(o, ITH, IOM, -Q);
      }
      break;
    default:
      return -1;
    }
  }
  return 0;
}

/* ---- block callbacks --------------------------------------------------------
 */
static int gen_eval(const crane *cr, const row_kind *rows, int n, double t,
                    const double *w, double *out) {
  drow R[MAXROWS];
  int rc = rows_eval(cr, t, w, rows, n, 0, R);
  if (rc)
    return rc;
  for (int i = 0; i < n; ++i)
    out[i] = R[i].v;
  return 0;
}

static int gen_jac(const crane *cr, const row_kind *rows, int n,
                   const rc_pattern *pat, double t, const double *w,
                   double *vals) {
  drow R[MAXROWS];
  int rc = rows_eval(cr, t, w, rows, n, 1, R);
  if (rc)
    return rc;
  for (int e = 0; e < pat->nnz; ++e)
    vals[e] = R[pat->row[e]].g[pat->col[e]];
  return 0;
}

static int gen_hes(const crane *cr, const row_kind *rows, int n,
                   const rc_pattern *pat, double t, const double *w,
                   const double *mu, double *vals) {
  drow R[MAXROWS];
  int rc = rows_eval(cr, t, w, rows, n, 2, R);
  if (rc)
    return rc;
  for (int e = 0; e < pat->nnz; ++e) {
    double v = 0.0;
    for (int i = 0; i < n; ++i)
      v += mu[i] * R[i].h[pat->row[e]][pat->col[e]];
    vals[e] = v;
  }
  return 0;
}

static int point_eval(const rc_problem *pb, double t, const double *w,
                      double *out) {
  const crane *cr = crane_of(pb);
  return gen_eval(cr, cr->rows, cr->nrow, t, w, out);
}
static int point_jac(const rc_problem *pb, double t, const double *w,
                     double *vals) {
  const crane *cr = crane_of(pb);
  return gen_jac(cr, cr->rows, cr->nrow, &pb->point.jac, t, w, vals);
}
static int point_hes(const rc_problem *pb, double t, const double *w,
                     const double *mu, double *vals) {
  const crane *cr = crane_of(pb);
  return gen_hes(cr, cr->rows, cr->nrow, &pb->point.hes, t, w, mu, vals);
}
static int inv_eval(const rc_problem *pb, double t, const double *w,
                    double *out) {
  const crane *cr = crane_of(pb);
  return gen_eval(cr, cr->inv_rows, cr->ninv, t, w, out);
}
static int inv_jac(const rc_problem *pb, double t, const double *w,
                   double *vals) {
  const crane *cr = crane_of(pb);
  return gen_jac(cr, cr->inv_rows, cr->ninv, &pb->invariants.jac, t, w, vals);
}
static int inv_hes(const rc_problem *pb, double t, const double *w,
                   const double *mu, double *vals) {
  const crane *cr = crane_of(pb);
  return gen_hes(cr, cr->inv_rows, cr->ninv, &pb->invariants.hes, t, w, mu,
                 vals);
}

static int crane_outputs(const rc_problem *pb, double t, const double *w,
                         double *out) {
  (void)pb;
  (void)t;
  const double s = sin(w[ITH]), c = cos(w[ITH]);
  const double r = w[IR], om = w[IOM], vr = w[IVR];
  out[0] = r * s + w[ID];
  out[1] = r * c;
  out[2] = vr * s + r * om * c + w[IVD];
  out[3] = vr * c - r * om * s;
  return 0;
}

static void flat_to_w(const rc_crane_flat *f, double *w) {
  w[ID] = f->d;
  w[IR] = f->r;
  w[ITH] = f->theta;
  w[IVD] = f->vd;
  w[IVR] = f->vr;
  w[IOM] = f->omega;
  w[ITAU] = f->tau;
  w[IU1] = f->u1;
  w[IU2] = f->u2;
}

static int crane_reference(const rc_problem *pb, int nt, const double *t,
                           double *ref) {
  const crane *cr = crane_of(pb);
  for (int k = 0; k < nt; ++k) {
    rc_crane_flat f;
    if (rc_crane_flat_eval(&cr->par, &cr->path, t[k], &f))
      return -1; /* excluded by the flatness check at create */
    double *row = ref + (size_t)k * (NW + 4);
    flat_to_w(&f, row);
    row[NW + 0] = f.x;
    row[NW + 1] = f.z;
    row[NW + 2] = f.vx;
    row[NW + 3] = f.vz;
  }
  return 0;
}

static int crane_guess(const rc_problem *pb, double t, double *w) {
  const crane *cr = crane_of(pb);
  rc_crane_flat f;
  if (rc_crane_flat_eval(&cr->par, &cr->path, t, &f))
    return -1;
  flat_to_w(&f, w);
  if (t <= pb->t0) { /* the user's initial values where they were set */
    for (int i = 0; i < NX; ++i)
      w[i] = cr->x0[i];
    w[ITAU] = cr->tau0;
  }
  return 0;
}

static void crane_destroy(rc_problem *pb) {
  crane *cr = (crane *)pb->user;
  rc_crane_path_free(&cr->path);
  free(cr->mesh_frac);
  free(cr);
}

/* Jacobian pattern from the row dependency masks; Hessian pattern = lower
 * triangle of every pair inside some row's nonlinear set. */
static void build_patterns(const row_kind *rows, int n, int *jr, int *jc,
                           rc_pattern *jac, int *hr, int *hc, rc_pattern *hes) {
  int nj = 0;
  unsigned char hm[NW][NW] = {{0}};
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < NW; ++k)
      if (ROW_DEP[rows[i]] & B_(k)) {
        jr[nj] = i;
        jc[nj] = k;
        ++nj;
      }
    for (int k = 0; k < NW; ++k)
      for (int l = 0; l <= k; ++l)
        if ((ROW_NONLIN[rows[i]] & B_(k)) && (ROW_NONLIN[rows[i]] & B_(l)))
          hm[k][l] = 1;
  }
  int nh = 0;
  for (int k = 0; k < NW; ++k)
    for (int l = 0; l <= k; ++l)
      if (hm[k][l]) {
        hr[nh] = k;
        hc[nh] = l;
        ++nh;
      }
  jac->nnz = nj;
  jac->row = jr;
  jac->col = jc;
  hes->nnz = nh;
  hes->row = hr;
  hes->col = hc;
}

static const char *row_name(row_kind k) {
  switch (k) {
  case ROW_G:
    return "tension_eq";
  case ROW_EX:
    return "x-p1";
  case ROW_EZ:
    return "z-p2";
  case ROW_EVX:
    return "vx-p1'";
  case ROW_EVZ:
    return "vz-p2'";
  case ROW_Q:
    return "Q";
  case ROW_QD:
    return "Q'";
  default:
    return "?";
  }
}

static rc_err check_params(const double *v, rc_error *err) {
  static const int positive[] = {P_M1, P_M2, P_MG,    P_J,     P_C3,
                                 P_G,  P_TF, P_U1MAX, P_U2MAX, P_SIGMA};
  for (size_t i = 0; i < sizeof positive / sizeof *positive; ++i)
    if (!(v[positive[i]] > 0.0) || isnan(v[positive[i]]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: %s = %g: expected a value > 0",
                          crane_params[positive[i]].name, v[positive[i]]);
  static const int nonneg[] = {P_C1, P_C2, P_EPS, P_RMIN};
  for (size_t i = 0; i < sizeof nonneg / sizeof *nonneg; ++i)
    if (!(v[nonneg[i]] >= 0.0 && isfinite(v[nonneg[i]])))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: %s = %g: expected a finite value >= 0",
                          crane_params[nonneg[i]].name, v[nonneg[i]]);
  if (!(v[P_RMAX] > v[P_RMIN]))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: rmax = %g: expected rmax > rmin = %g",
                        v[P_RMAX], v[P_RMIN]);
  if (!isfinite(v[P_TF]))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: tf = %g: expected a finite value", v[P_TF]);
  return RC_OK;
}

/* ---- the default mesh of a waypoint path -----------------------------------
 * Breakpoints at the waypoint times inside the horizon; in each segment m_j
 * equal elements of default_stages stages, m_j chosen by an a-priori
 * interpolation test of the flat inverse (radcol/mesh_check.h): the
 * reference sampled at the nodes and interpolated by the dense output,
 * compared with the reference inside every element.  With E_v the largest
 * interpolation error of v in an element, a segment passes when in each of
 * its elements
 *     MESH_K_U1 E_d <= MESH_TOL_U max|u1|     (trolley force, see below)
 *     E_u2 <= MESH_TOL_U max|u2|,  E_x, E_z <= MESH_TOL_POS.
 * The first line is calibrated, not derived: a track solve's u1 error is
 * global (spread over the horizon, from the states' discretisation error
 * amplified through the index-5 chain) and is not predicted by the
 * interpolation error of u1 itself (ratios 150-3400 measured), but it is by
 * that of the trolley position d: u1 error / E_d = 1.1e5 .. 3.8e5 N/m over
 * lateral moves of 8 m in 8, 16 and 32 s at depths 0.5 and 2 m and h = 0.2,
 * 0.4, 0.8 s (default masses; docs/crane-jobs.md, "Default mesh").
 * Segments that miss get m_j <- ceil(m_j * clamp(1.1 e_j^(1/6), 1.25, 4)),
 * e_j the worst ratio (E_d is O(h^6)), for at most MESH_ITER rounds and
 * MESH_MAX_ELEMENTS elements. */
#define MESH_ITER 30
#define MESH_MAX_ELEMENTS 20000
#define MESH_K_U1 4e5     /* N/m: upper end of the measured u1 error / E_d */
#define MESH_TOL_U 3e-4   /* relative to max |u_i| */
#define MESH_TOL_POS 1e-7 /* m */

static rc_err crane_default_mesh(crane *cr, rc_error *err) {
  rc_problem *pb = &cr->pb;
  const rc_crane_path *P = &cr->path;
  const double t0 = pb->t0, tf = pb->tf, T = tf - t0;
  const int s = pb->default_stages;
  double *tb = malloc(sizeof(double) * (size_t)(P->n + 2));
  int *m = malloc(sizeof(int) * (size_t)(P->n + 1));
  double *frac = NULL;
  int *stages = NULL;
  rc_err rc = RC_OK;
  if (!tb || !m) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "crane: out of memory for a mesh");
    goto done;
  }
  int nseg = 0;
  tb[0] = t0;
  for (int k = 0; k < P->n; ++k)
    if (P->t[k] > t0 + 1e-9 * T && P->t[k] < tf - 1e-9 * T)
      tb[++nseg] = P->t[k];
  tb[++nseg] = tf;
  for (int j = 0; j < nseg; ++j)
    m[j] = 1;
  for (int iter = 0; iter < MESH_ITER; ++iter) {
    int ne = 0;
    for (int j = 0; j < nseg; ++j)
      ne += m[j];
    free(frac);
    free(stages);
    frac = malloc(sizeof(double) * (size_t)(ne + 1));
    stages = malloc(sizeof(int) * (size_t)ne);
    if (!frac || !stages) {
      rc = rc_error_set(err, RC_ERR_NOMEM,
                        "crane: out of memory for a mesh of %d elements", ne);
      goto done;
    }
    int e = 0;
    for (int j = 0; j < nseg; ++j)
      for (int q = 0; q < m[j]; ++q) {
        frac[e] = (tb[j] + (tb[j + 1] - tb[j]) * q / m[j] - t0) / T;
        stages[e++] = s;
      }
    frac[0] = 0.0;
    frac[ne] = 1.0;
    if (iter == MESH_ITER - 1 || ne >= MESH_MAX_ELEMENTS)
      break;
    rc_mesh mesh = {ne, frac, stages};
    rc_mesh_check mc;
    rc = rc_mesh_check_reference(pb, &mesh, 0, &mc, err);
    if (rc != RC_OK)
      goto done;
    int again = 0;
    for (int j = 0, e0 = 0, e1 = 0; j < nseg; e0 = e1, ++j) {
      e1 = e0 + m[j];
      double worst = 0.0;
      for (int k = e0; k < e1; ++k) {
        const double *er = mc.elem_rel + (size_t)k * (size_t)mc.nvar;
        const double Ed = er[ID] * (mc.scale[ID] > 0 ? mc.scale[ID] : 1.0);
        worst = fmax(worst, MESH_K_U1 * Ed / (MESH_TOL_U * mc.scale[IU1]));
        worst = fmax(worst, er[IU2] / MESH_TOL_U);
        for (int i = NW; i < NW + 2; ++i) /* x, z: absolute */
          worst = fmax(worst, er[i] * (mc.scale[i] > 0 ? mc.scale[i] : 1.0) /
                                  MESH_TOL_POS);
      }
      if (worst > 1.0) {
        double f = 1.1 * pow(worst, 1.0 / 6.0);
        f = fmin(4.0, fmax(1.25, f));
        m[j] = (int)ceil(m[j] * f);
        again = 1;
      }
    }
    rc_mesh_check_free(&mc);
    if (!again)
      break;
  }
  {
    int ne = 0;
    for (int j = 0; j < nseg; ++j)
      ne += m[j];
    cr->mesh_frac = frac;
    frac = NULL;
    pb->default_mesh_n = ne;
    pb->default_mesh_frac = cr->mesh_frac;
    pb->default_mesh_stages = NULL; /* default_stages everywhere */
  }
done:
  free(tb);
  free(m);
  free(frac);
  free(stages);
  return rc;
}

static rc_err crane_create(const rc_model *model, int formulation,
                           const rc_param_values *pv, rc_problem **out,
                           rc_error *err) {
  *out = NULL;
  if (formulation < 0 || formulation >= NFORM)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: formulation %d: expected 0..%d", formulation,
                        NFORM - 1);
  if (!pv || pv->n != NPARAM || !pv->real)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: %d parameter values, expected %d",
                        pv ? pv->n : 0, NPARAM);
  const double *v = pv->real;
  rc_err rc = check_params(v, err);
  if (rc != RC_OK)
    return rc;
  crane *cr = calloc(1, sizeof *cr);
  if (!cr)
    return rc_error_set(err, RC_ERR_NOMEM, "crane: out of memory");
  cr->par = (rc_crane_params){v[P_M1], v[P_M2], v[P_MG], v[P_J],
                              v[P_C1], v[P_C2], v[P_C3], v[P_G]};
  cr->eps = v[P_EPS];
  cr->sigma = v[P_SIGMA];
  double tf = v[P_TF];
  const char *file = pv->text ? pv->text[P_PATH] : NULL;
  const char *mode = pv->text ? pv->text[P_PATHMODE] : NULL;
  int smooth = 1;
  if (mode && *mode && strcmp(mode, "smooth") != 0) {
    if (strcmp(mode, "stop") == 0) {
      smooth = 0;
    } else {
      free(cr);
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: path_mode = '%.40s': expected smooth or stop",
                          mode);
    }
  }
  if (file && *file) {
    rc = rc_crane_path_read_csv(&cr->path, file, err);
    if (rc == RC_OK && smooth)
      rc = rc_crane_path_smooth(&cr->path, err);
    if (rc == RC_OK) {
      double tl = cr->path.t[cr->path.n - 1];
      if (pv->is_set && pv->is_set[P_TF] &&
          fabs(tl - tf) > 1e-12 * fmax(1.0, fabs(tf)))
        rc = rc_error_set(err, RC_ERR_INPUT,
                          "crane: path file '%s' ends at t = %g but tf = %g "
                          "was set: expected them to agree (leave tf unset "
                          "to take the path's end)",
                          file, tl, tf);
      tf = tl;
    }
  } else {
    rc = rc_crane_path_default(&cr->path, tf, v[P_XS], v[P_ZS], v[P_XE],
                               v[P_ZE], err);
  }
  if (rc == RC_OK)
    rc = rc_crane_path_check_flat(&cr->path, &cr->par, err);
  if (rc != RC_OK) {
    rc_crane_path_free(&cr->path);
    free(cr);
    return rc;
  }

  /* Consistent initial state from the flat inverse, unless set. */
  rc_crane_flat f0;
  rc_crane_flat_eval(&cr->par, &cr->path, 0.0, &f0);
  double w0[NW];
  flat_to_w(&f0, w0);
  static const int init_param[NX] = {P_D0, P_R0, P_TH0, P_VD0, P_VR0, P_OM0};
  for (int i = 0; i < NX; ++i) {
    int set = pv->is_set && pv->is_set[init_param[i]];
    cr->x0[i] = set ? v[init_param[i]] : w0[i];
    cr->fix_x0[i] = 1;
    if (!isfinite(cr->x0[i])) {
      double bad = cr->x0[i];
      rc_crane_path_free(&cr->path);
      free(cr);
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: %s = %g: expected a finite initial value",
                          crane_params[init_param[i]].name, bad);
    }
  }
  if (!(cr->x0[IR] > 0.0)) {
    double r0 = cr->x0[IR];
    rc_crane_path_free(&cr->path);
    free(cr);
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: r0 = %g: expected a cable length > 0", r0);
  }
  cr->tau0 = (pv->is_set && pv->is_set[P_TAU0] && isfinite(v[P_TAU0]))
                 ? v[P_TAU0]
                 : w0[ITAU];

  for (int i = 0; i < NW; ++i) {
    cr->w_lo[i] = -HUGE_VAL;
    cr->w_hi[i] = HUGE_VAL;
  }

  rc_problem *pb = &cr->pb;
  pb->user = cr;
  pb->model = model->name;
  pb->formulation = crane_formulations[formulation].name;
  pb->summary = crane_formulations[formulation].summary;
  pb->nx = NX;
  pb->ny = 1;
  pb->nu = 2;
  pb->var_names = VAR_NAMES;
  pb->w_lo = cr->w_lo;
  pb->w_hi = cr->w_hi;
  pb->t0 = 0.0;
  pb->tf = tf;
  pb->fix_x0 = cr->fix_x0;
  pb->x0 = cr->x0;
  pb->t0_algebraic = 1;
  pb->index = 1;

  int n = 0, ni = 0;
  for (int k = ROW_F0; k <= ROW_F5; ++k)
    cr->rows[n++] = (row_kind)k;
  cr->rows[n++] = ROW_G;
  switch (formulation) {
  case F_FLAT:
    pb->sampled_reference = 1;
    cr->inv_rows[ni++] = ROW_G;
    cr->inv_rows[ni++] = ROW_EX;
    cr->inv_rows[ni++] = ROW_EZ;
    break;
  case F_TRACK:
    cr->rows[n++] = ROW_L;
    pb->has_lagrange = 1;
    pb->t0_algebraic = 0; /* u(t0) would be free: only G(t0) holds it */
    cr->w_lo[IU1] = -v[P_U1MAX];
    cr->w_hi[IU1] = v[P_U1MAX];
    cr->w_lo[IU2] = -v[P_U2MAX];
    cr->w_hi[IU2] = v[P_U2MAX];
    if (v[P_RMIN] > 0.0)
      cr->w_lo[IR] = v[P_RMIN];
    cr->w_hi[IR] = v[P_RMAX];
    if (v[P_FIXEND] != 0.0) {
      rc_crane_flat ff;
      rc_crane_flat_eval(&cr->par, &cr->path, tf, &ff);
      double wf[NW];
      flat_to_w(&ff, wf);
      for (int i = 0; i < NX; ++i) {
        cr->xf[i] = wf[i];
        cr->fix_xf[i] = 1;
      }
      pb->fix_xf = cr->fix_xf;
      pb->xf = cr->xf;
    }
    cr->inv_rows[ni++] = ROW_G;
    cr->inv_rows[ni++] = ROW_EX;
    cr->inv_rows[ni++] = ROW_EZ;
    break;
  case F_SERVO:
    cr->rows[n++] = ROW_EX;
    cr->rows[n++] = ROW_EZ;
    pb->nc = 2;
    pb->index = 5;
    pb->t0_algebraic = 0; /* x(t0) fixed: c at t0 would repeat it */
    pb->note = SERVO_NOTE;
    cr->inv_rows[ni++] = ROW_EX;
    cr->inv_rows[ni++] = ROW_EZ;
    cr->inv_rows[ni++] = ROW_EVX;
    cr->inv_rows[ni++] = ROW_EVZ;
    break;
  case F_REDUCED:
    cr->rows[n++] = ROW_G2;
    cr->rows[n++] = ROW_G3;
    pb->ny = 3;
    pb->nu = 0;
    cr->inv_rows[ni++] = ROW_EX;
    cr->inv_rows[ni++] = ROW_EZ;
    cr->inv_rows[ni++] = ROW_EVX;
    cr->inv_rows[ni++] = ROW_EVZ;
    cr->inv_rows[ni++] = ROW_Q;
    cr->inv_rows[ni++] = ROW_QD;
    break;
  default:
    break;
  }
  cr->nrow = n;
  cr->ninv = ni;
  static const double zeros[2] = {0.0, 0.0};
  pb->c_lo = zeros;
  pb->c_hi = zeros;
  for (int i = 0; i < ni; ++i)
    cr->inv_names[i] = row_name(cr->inv_rows[i]);

  pb->point.n_out = n;
  build_patterns(cr->rows, n, cr->jr, cr->jc, &pb->point.jac, cr->hr, cr->hc,
                 &pb->point.hes);
  pb->point.eval = point_eval;
  pb->point.jacobian = point_jac;
  pb->point.hessian = point_hes;
  pb->boundary.n_out = 0;

  pb->ninv = ni;
  pb->inv_names = cr->inv_names;
  pb->invariants.n_out = ni;
  build_patterns(cr->inv_rows, ni, cr->ijr, cr->ijc, &pb->invariants.jac,
                 cr->ihr, cr->ihc, &pb->invariants.hes);
  pb->invariants.eval = inv_eval;
  pb->invariants.jacobian = inv_jac;
  pb->invariants.hessian = inv_hes;

  pb->nout = 4;
  pb->out_names = OUT_NAMES;
  pb->outputs = crane_outputs;
  pb->guess = crane_guess;
  pb->reference = crane_reference;
  pb->destroy = crane_destroy;
  /* track: 30 x 5 meets |(x,z)-p| <= 1e-6 m and control errors <= 1e-3
   * max|u| on the default path (docs/crane-index-reduction.md,
   * "Measurements"); a waypoint path gets a mesh of its own (below). */
  pb->default_elements = 30;
  pb->default_stages = 5;
  if (cr->path.mode == RC_CRANE_PATH_SMOOTH) {
    rc_crane_overshoot os;
    rc_crane_path_overshoot(&cr->path, &os);
    snprintf(cr->note, sizeof cr->note,
             "smooth path through %d waypoints (degree-9 spline, at rest at "
             "the first and last): between waypoints it leaves their range "
             "by up to %.3g m in x (t = %.4g s) and %.3g m in z (t = %.4g s)"
             "%s%s",
             cr->path.n, os.dx, os.tx, os.dz, os.tz, pb->note ? "; " : "",
             pb->note ? pb->note : "");
    pb->note = cr->note;
  }
  if (file && *file) {
    rc = crane_default_mesh(cr, err);
    if (rc != RC_OK) {
      crane_destroy(pb);
      return rc;
    }
  }

  rc = rc_problem_validate(pb, err);
  if (rc != RC_OK) {
    crane_destroy(pb);
    return rc;
  }
  *out = pb;
  return RC_OK;
}

const rc_model rc_model_crane = {
    "crane",
    "planar crane with winch following a load path (index 5; flat reference)",
    NFORM,
    crane_formulations,
    F_TRACK,
    NPARAM,
    crane_params,
    crane_create,
};
