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
 *   track   OCP on the index-1 model (docs/crane-jobs.md):
 *             min (1/T) int ((x-p1)^2 + (z-p2)^2) / Lref^2
 *                           + eps ((u1/U1)^2 + (u2/U2)^2) dt,
 *           Lref the path's extent, U1, U2 the flat inverse's max |u1|,
 *           |u2| (or u1max, u2max if smaller); Ipopt sees it times
 *           obj_scale (rc_problem.objective_scale).  x(t0) fixed to the
 *           consistent state; x(tf) by end=rest|flat|free; simple bounds
 *           |u1| <= u1max, |u2| <= u2max, rmin <= r <= rmax, tau >= taumin
 *           (default 0), |theta| <= thetamax, |vd| <= vdmax, |vr| <= vrmax,
 *           checked against the fixed states and the flat inverse before
 *           solving, with a momentum-balance proof of an unreachable end.
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
 *           project=1 (default): x' = f + mu and the six hidden constraints
 *           h = 0 at every collocation point (mu algebraic, w = (.., mu)),
 *           replaced by mu = 0 at t0 where x is fixed; no drift
 *           (docs/crane-index-reduction.md, section 6).
 *
 *   mintime minimum-time rest-to-rest move (docs/crane-mintime.md): the
 *           index-1 model, free tf, Mayer phi = tf, the track limits as
 *           simple bounds, stacks z - ZMIN - bump(x) <= 0 as path
 *           constraints, optional regularisation ureg.
 *   pathtime minimum time along the straight line start-end or a curve:
 *           states sigma .. sigma3, control sigma4, the crane state by the
 *           flat inverse as algebraic copies with the limits as simple
 *           bounds (second-order jets).
 *
 * Outputs: x, z, vx = vr s + r om c + vd, vz = vr c - r om s.
 * Invariants: flat/track: G, x - p1, z - p2 (algebraic consistency and the
 * tracking error); servo: x - p1, z - p2, vx - p1', vz - p2'; reduced: those
 * four and Q, Q'.
 *
 * Derivatives are hand-coded below as dense per-row gradients and Hessians
 * (9 core inputs), in the order of the equations, then gathered onto sparsity
 * patterns declared once per problem from per-row dependency masks; the
 * projection terms (+ mu_i, and mu_i at t0) are linear with coefficient 1
 * and added when gathering (rowset).
 */
#include <math.h>
#include <stdarg.h>
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
/* reduced with projection appends six multipliers mu (algebraic) after the
 * nine core inputs: w[IMU + i] enters the i-th state equation. */
#define IMU NW
#define NWMAX (NW + NX)

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
  /* mintime (docs/crane-mintime.md) */
  ROW_STACK, /* z - ZMIN - bump(x) of the j-th stack (j: its rank) */
  ROW_REG,   /* control regularisation integrand */
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
    [ROW_STACK] = B_(ID) | B_(IR) | B_(ITH),
    [ROW_REG] = B_(IU1) | B_(IU2),
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
    [ROW_STACK] = B_(ID) | B_(IR) | B_(ITH),
    [ROW_REG] = B_(IU1) | B_(IU2),
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
  P_SIGMA,
  /* physical limits, end conditions, guess, stabilisation (crane-jobs) */
  P_TAUMIN,
  P_THMAX,
  P_VDMAX,
  P_VRMAX,
  P_END,
  P_GUESS,
  P_PROJECT,
  P_UREF,
  /* minimum-time moves (docs/crane-mintime.md) */
  P_TFLO,
  P_TFHI,
  P_STACK,
  P_STACKEDGE,
  P_UREG,
  P_CURVE, /* pathtime along a CSV curve */
  NPARAM
};

/* Tracking weight and objective scale: docs/crane-jobs.md, "Objective". */
#define CRANE_EPS_DEFAULT 3e-11     /* uref=zero */
#define CRANE_EPS_FLAT_DEFAULT 1e-6 /* uref=flat */
#define CRANE_OBJ_SCALE_DEFAULT 1e5
#define CRANE_MT_OBJ_SCALE_DEFAULT 100.0 /* mintime: Ipopt sees 100 tf */

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
    {"eps", RC_PARAM_REAL, NAN, NULL,
     "track: control weight in (1/T) int |(x,z)-p|^2/Lref^2 + eps "
     "(((u1-uref1)/U1)^2 + ((u2-uref2)/U2)^2) dt (Lref, U1, U2: path and "
     "flat-inverse scales, docs/crane-jobs.md; default 3e-11 with "
     "uref=zero, 1e-6 with uref=flat) [-]"},
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
    {"obj_scale", RC_PARAM_REAL, CRANE_OBJ_SCALE_DEFAULT, NULL,
     "track: Ipopt minimises obj_scale times the objective (conditioning "
     "only: the reported objective is the unscaled cost) [1]"},
    /* physical limits, end conditions, guess, stabilisation (crane-jobs) */
    {"taumin", RC_PARAM_REAL, 0.0, NULL,
     "track: bound tau >= taumin [N] (0: a cable cannot push; > 0: a "
     "tension margin)"},
    {"thetamax", RC_PARAM_REAL, HUGE_VAL, NULL,
     "track: bound |theta| <= thetamax [rad] (inf: none)"},
    {"vdmax", RC_PARAM_REAL, HUGE_VAL, NULL,
     "track: bound |vd| <= vdmax [m/s] (inf: none)"},
    {"vrmax", RC_PARAM_REAL, HUGE_VAL, NULL,
     "track: bound |vr| <= vrmax [m/s] (inf: none)"},
    {"end", RC_PARAM_TEXT, 0.0, "rest",
     "track: end condition [-]: rest (load at the path's end point, vd = vr "
     "= theta = omega = 0), flat (the flat inverse's end state; the same for "
     "paths that end at rest), free"},
    {"guess", RC_PARAM_TEXT, 0.0, "flat",
     "initial guess [-]: flat (the exact inverse), rest (at rest at the "
     "start point, tau = m g, u1 = 0, u2 = C3 m g)"},
    {"project", RC_PARAM_REAL, 1.0, NULL,
     "reduced: 1 projects the states onto the hidden constraints at every "
     "collocation point (no drift on long horizons), 0 the plain index-1 "
     "transcription [-]"},
    {"uref", RC_PARAM_TEXT, 0.0, "flat",
     "track: control term eps |u - uref|^2 with uref = zero (SPEC's eps "
     "|u|^2) or flat (the flat inverse's controls: exact tracking is then "
     "the optimum wherever the limits allow it) [-]"},
    /* minimum-time moves (docs/crane-mintime.md) */
    {"tf_lo", RC_PARAM_REAL, 0.01, NULL,
     "mintime, pathtime: lower bound of the free final time [s] (> 0)"},
    {"tf_hi", RC_PARAM_REAL, 1000.0, NULL,
     "mintime, pathtime: upper bound of the free final time [s]; the "
     "starting guess "
     "of tf is `tf` if set, else the shortest horizon on which the "
     "default rest-to-rest profile's flat inverse meets every limit"},
    {"stack", RC_PARAM_TEXT, 0.0, NULL,
     "mintime: container stacks the load must pass above, "
     "X0:X1:ZMIN[;X0:X1:ZMIN...] [m]: z <= ZMIN while X0 <= x <= X1 "
     "(z down), at most 8"},
    {"stack_edge", RC_PARAM_REAL, 0.1, NULL,
     "mintime: rounding length ell of the stack constraint z - ZMIN - "
     "(max(0, X0-x)^3 + max(0, x-X1)^3)/ell^2 <= 0 [m] (> 0)"},
    {"ureg", RC_PARAM_REAL, 0.0, NULL,
     "mintime: control regularisation: minimise tf + ureg int (u1/U1)^2 + "
     "((u2 - C3 m g)/U2)^2 dt (U1, U2: u1max, u2max, or (M1+M2) g and C3 "
     "times it) [1/s]"},
    {"curve", RC_PARAM_TEXT, 0.0, NULL,
     "pathtime: CSV of (x, z) rows (no t; header allowed) the load must "
     "follow from the first row to the last, interpolated by a C^8 "
     "degree-9 spline in the chord-length parameter sigma (default: the "
     "straight line x_start, z_start -> x_end, z_end) [m]"},
};

enum { F_FLAT = 0, F_TRACK, F_SERVO, F_REDUCED, F_MINTIME, F_PATHTIME, NFORM };

static const rc_formulation_def crane_formulations[NFORM] = {
    {"flat", "exact inverse by flatness sampled on the mesh (no NLP)"},
    {"track", "tracking OCP on the index-1 model, min |(x,z)-p|^2 + eps|u|^2"},
    {"servo", "index-1 model + x = p1, z = p2 at collocation points (index 5)"},
    {"reduced", "index reduction completed: index-1 DAE, u1 u2 algebraic"},
    {"mintime", "minimum-time rest-to-rest move on the index-1 model, free "
                "tf, every limit, optional stacks"},
    {"pathtime", "minimum-time move along the straight line start-end or "
                 "a curve: sigma'''' control, crane state by the flat "
                 "inverse"},
};

static const char *const VAR_NAMES[NWMAX] = {
    "d",  "r",    "theta", "vd",       "vr",    "omega", "tau",     "u1",
    "u2", "mu_d", "mu_r",  "mu_theta", "mu_vd", "mu_vr", "mu_omega"};
static const char *const OUT_NAMES[4] = {"x", "z", "vx", "vz"};

static const char *const SERVO_NOTE =
    "the index-5 path constraint is transcribed directly: with s "
    "Radau IIA stages expect about order s for vx vz, s-1 for theta tau d r, "
    "s-2 for vd vr and s-3 for u1 u2 (with s <= 3 the controls do not "
    "converge); for the controls use -f reduced, flat or track";

static const char *const REDUCED_PLAIN_NOTE =
    "project=0: the hidden constraints (path, Q, Q') are not imposed and "
    "drift on long horizons (roughly like t^4); check the invariants x-p1, "
    "z-p2 on the dense grid, or use project=1";

#define MAXROWS 16
#define MAXSTACK 8 /* mintime: 7 model rows + reg + stacks <= MAXROWS */

/* A block's rows.  mu_add[i] >= 0: row i is a state equation and gets
 * + w[IMU + mu_add[i]] (projection); mu_t0[i] >= 0: row i is a projection
 * row h_j(w) = 0, which at t = t0 (x0 fixed: nothing to project) is
 * replaced by w[IMU + mu_t0[i]] = 0.  The patterns hold the union. */
typedef struct rowset {
  int n;
  row_kind kind[MAXROWS];
  int mu_add[MAXROWS], mu_t0[MAXROWS];
} rowset;

/* ---- the problem's own data ---------------------------------------------- */
typedef struct crane {
  rc_problem pb; /* first member: (crane *)pb */
  rc_crane_params par;
  rc_crane_path path;
  double eps;                /* control weight */
  double wq, wu1, wu2;       /* objective weights 1/(T Lref^2), eps/(T U^2) */
  double lref, u1ref, u2ref; /* the objective's scales */
  int guess_rest;
  int uref_flat;           /* control term about the flat controls */
  double start_x, start_z; /* path at t0 (rest guess) */
  rowset rows, inv;
  double w_lo[NWMAX], w_hi[NWMAX];
  double x0[NX], xf[NX];
  int fix_x0[NX], fix_xf[NX];
  double tau0;
  char note[2048];
  char infeasible[400];
  const char *inv_names[MAXROWS];
  double *mesh_frac; /* suggested mesh breakpoints (owned) */
  int jr[MAXROWS * NWMAX], jc[MAXROWS * NWMAX]; /* point Jacobian pattern */
  int hr[NW * NW], hc[NW * NW];                 /* point Hessian pattern */
  int ijr[MAXROWS * NWMAX], ijc[MAXROWS * NWMAX];
  int ihr[NW * NW], ihc[NW * NW];
  /* mintime (docs/crane-mintime.md) */
  int nstack;
  double stack[MAXSTACK][3]; /* X0, X1, ZMIN */
  double stack_ell;          /* rounding length of the stack rows */
  double reg1, reg2, u2hold; /* ureg/U1^2, ureg/U2^2, C3 m g */
  int bjr[1], bjc[1];        /* boundary Jacobian: d tf / d tf */
  double c_lo[MAXSTACK], c_hi[MAXSTACK];
  char mt_note[512];
  double pt_lo[8], pt_hi[8]; /* pathtime: path-constraint bounds */
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
    case ROW_L: { /* wq (ex^2 + ez^2) + wu1 du1^2 + wu2 du2^2, du = u - uref */
      const double q = cr->wq, a1 = cr->wu1, a2 = cr->wu2;
      double du1 = w[IU1], du2 = w[IU2];
      if (cr->uref_flat) { /* uref = the flat inverse's controls at t */
        rc_crane_flat f;
        if (rc_crane_flat_eval(&cr->par, &cr->path, t, &f))
          return -1; /* excluded by the flatness check at create */
        du1 -= f.u1;
        du2 -= f.u2;
      }
      o->v = q * (ex * ex + ez * ez) + a1 * du1 * du1 + a2 * du2 * du2;
      if (order >= 1) {
        o->g[ID] = 2.0 * q * ex;
        o->g[IR] = 2.0 * q * (ex * s + ez * c);
        o->g[ITH] = 2.0 * q * r * (ex * c - ez * s);
        o->g[IU1] = 2.0 * a1 * du1;
        o->g[IU2] = 2.0 * a2 * du2;
      }
      if (order >= 2) {
        sym(o, ID, ID, 2.0 * q);
        sym(o, IR, ID, 2.0 * q * s);
        sym(o, ITH, ID, 2.0 * q * r * c);
        sym(o, IR, IR, 2.0 * q);
        sym(o, ITH, IR, 2.0 * q * (ex * c - ez * s));
        sym(o, ITH, ITH, 2.0 * q * (r * r - r * (ex * s + ez * c)));
        sym(o, IU1, IU1, 2.0 * a1);
        sym(o, IU2, IU2, 2.0 * a2);
      }
      break;
    }
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
    case ROW_STACK: { /* z - ZMIN - (pos(X0 - x)^3 + pos(x - X1)^3)/ell^2 */
      int j = 0;      /* rank of this stack row among the block's */
      for (int k = 0; k < i; ++k)
        j += kinds[k] == ROW_STACK;
      if (j >= cr->nstack)
        return -1;
      const double *st = cr->stack[j],
                   il2 = 1.0 / (cr->stack_ell * cr->stack_ell);
      const double x = d + r * s, z = r * c;
      const double a = fmax(0.0, st[0] - x), b = fmax(0.0, x - st[1]);
      const double q0 = (a * a * a + b * b * b) * il2;
      const double q1 = 3.0 * (b * b - a * a) * il2; /* dq/dx */
      const double q2 = 6.0 * (a + b) * il2;         /* d2q/dx2 */
      o->v = z - st[2] - q0;
      if (order < 1)
        break;
      /* x_w = (1, s, r c) and z_w = (0, c, -r s) over (d, r, th) */
      const int ix[3] = {ID, IR, ITH};
      const double xg[3] = {1.0, s, r * c}, zg[3] = {0.0, c, -r * s};
      for (int k = 0; k < 3; ++k)
        o->g[ix[k]] = zg[k] - q1 * xg[k];
      if (order < 2)
        break;
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l <= k; ++l)
          sym(o, ix[k], ix[l], -q2 * xg[k] * xg[l]);
      /* z_ww - q1 x_ww: (r, th) -s - q1 c, (th, th) -r c + q1 r s */
      sym(o, ITH, IR, -s - q1 * c);
      sym(o, ITH, ITH, -r * c + q1 * r * s);
      break;
    }
    case ROW_REG: { /* reg1 u1^2 + reg2 (u2 - u2hold)^2 */
      const double e2 = w[IU2] - cr->u2hold;
      o->v = cr->reg1 * w[IU1] * w[IU1] + cr->reg2 * e2 * e2;
      o->g[IU1] = 2.0 * cr->reg1 * w[IU1];
      o->g[IU2] = 2.0 * cr->reg2 * e2;
      if (order >= 2) {
        sym(o, IU1, IU1, 2.0 * cr->reg1);
        sym(o, IU2, IU2, 2.0 * cr->reg2);
      }
      break;
    }
    default:
      return -1;
    }
  }
  return 0;
}

/* ---- block callbacks --------------------------------------------------------
 * The rows of a rowset at (t, w), with the projection terms (rowset). */
static int gen_eval(const crane *cr, const rowset *rs, double t,
                    const double *w, double *out) {
  drow R[MAXROWS];
  int rc = rows_eval(cr, t, w, rs->kind, rs->n, 0, R);
  if (rc)
    return rc;
  const int at_t0 = t == cr->pb.t0;
  for (int i = 0; i < rs->n; ++i) {
    out[i] = R[i].v;
    if (rs->mu_add[i] >= 0)
      out[i] += w[IMU + rs->mu_add[i]];
    if (rs->mu_t0[i] >= 0 && at_t0)
      out[i] = w[IMU + rs->mu_t0[i]];
  }
  return 0;
}

static int gen_jac(const crane *cr, const rowset *rs, const rc_pattern *pat,
                   double t, const double *w, double *vals) {
  drow R[MAXROWS];
  int rc = rows_eval(cr, t, w, rs->kind, rs->n, 1, R);
  if (rc)
    return rc;
  const int at_t0 = t == cr->pb.t0;
  for (int e = 0; e < pat->nnz; ++e) {
    const int i = pat->row[e], k = pat->col[e];
    if (rs->mu_t0[i] >= 0 && at_t0)
      vals[e] = k == IMU + rs->mu_t0[i] ? 1.0 : 0.0;
    else if (k >= IMU) /* mu_add column, or the t0-only mu_t0 column */
      vals[e] = k == IMU + rs->mu_add[i] ? 1.0 : 0.0;
    else
      vals[e] = R[i].g[k];
  }
  return 0;
}

static int gen_hes(const crane *cr, const rowset *rs, const rc_pattern *pat,
                   double t, const double *w, const double *mu, double *vals) {
  drow R[MAXROWS];
  int rc = rows_eval(cr, t, w, rs->kind, rs->n, 2, R);
  if (rc)
    return rc;
  const int at_t0 = t == cr->pb.t0;
  for (int e = 0; e < pat->nnz; ++e) {
    double v = 0.0;
    for (int i = 0; i < rs->n; ++i)
      if (!(rs->mu_t0[i] >= 0 && at_t0)) /* mu terms are linear */
        v += mu[i] * R[i].h[pat->row[e]][pat->col[e]];
    vals[e] = v;
  }
  return 0;
}

static int point_eval(const rc_problem *pb, double t, const double *w,
                      double *out) {
  const crane *cr = crane_of(pb);
  return gen_eval(cr, &cr->rows, t, w, out);
}
static int point_jac(const rc_problem *pb, double t, const double *w,
                     double *vals) {
  const crane *cr = crane_of(pb);
  return gen_jac(cr, &cr->rows, &pb->point.jac, t, w, vals);
}
static int point_hes(const rc_problem *pb, double t, const double *w,
                     const double *mu, double *vals) {
  const crane *cr = crane_of(pb);
  return gen_hes(cr, &cr->rows, &pb->point.hes, t, w, mu, vals);
}
static int inv_eval(const rc_problem *pb, double t, const double *w,
                    double *out) {
  const crane *cr = crane_of(pb);
  return gen_eval(cr, &cr->inv, t, w, out);
}
static int inv_jac(const rc_problem *pb, double t, const double *w,
                   double *vals) {
  const crane *cr = crane_of(pb);
  return gen_jac(cr, &cr->inv, &pb->invariants.jac, t, w, vals);
}
static int inv_hes(const rc_problem *pb, double t, const double *w,
                   const double *mu, double *vals) {
  const crane *cr = crane_of(pb);
  return gen_hes(cr, &cr->inv, &pb->invariants.hes, t, w, mu, vals);
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
  const int nw = rc_problem_nw(pb);
  for (int k = 0; k < nt; ++k) {
    rc_crane_flat f;
    if (rc_crane_flat_eval(&cr->par, &cr->path, t[k], &f))
      return -1; /* excluded by the flatness check at create */
    double *row = ref + (size_t)k * (size_t)(nw + 4);
    flat_to_w(&f, row);
    for (int i = NW; i < nw; ++i)
      row[i] = 0.0; /* projection multipliers vanish on exact solutions */
    row[nw + 0] = f.x;
    row[nw + 1] = f.z;
    row[nw + 2] = f.vx;
    row[nw + 3] = f.vz;
  }
  return 0;
}

static int crane_guess(const rc_problem *pb, double t, double *w) {
  const crane *cr = crane_of(pb);
  const int nw = rc_problem_nw(pb);
  for (int i = NW; i < nw; ++i)
    w[i] = 0.0;
  if (cr->guess_rest) { /* at rest under the trolley at the start point */
    const double mg = cr->par.m * cr->par.g;
    const double rest[NW] = {cr->start_x, cr->start_z,    0, 0, 0, 0, mg,
                             0.0,         cr->par.C3 * mg};
    memcpy(w, rest, sizeof rest);
  } else {
    rc_crane_flat f;
    if (rc_crane_flat_eval(&cr->par, &cr->path, t, &f))
      return -1;
    flat_to_w(&f, w);
  }
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

/* Jacobian pattern from the row dependency masks plus the projection
 * columns; Hessian pattern = lower triangle of every pair inside some row's
 * nonlinear set (the projection terms are linear). */
static void build_patterns(const rowset *rs, int *jr, int *jc, rc_pattern *jac,
                           int *hr, int *hc, rc_pattern *hes) {
  int nj = 0;
  unsigned char hm[NW][NW] = {{0}};
  for (int i = 0; i < rs->n; ++i) {
    unsigned dep = ROW_DEP[rs->kind[i]];
    if (rs->mu_add[i] >= 0)
      dep |= B_(IMU + rs->mu_add[i]);
    if (rs->mu_t0[i] >= 0)
      dep |= B_(IMU + rs->mu_t0[i]);
    for (int k = 0; k < NWMAX; ++k)
      if (dep & B_(k)) {
        jr[nj] = i;
        jc[nj] = k;
        ++nj;
      }
    for (int k = 0; k < NW; ++k)
      for (int l = 0; l <= k; ++l)
        if ((ROW_NONLIN[rs->kind[i]] & B_(k)) &&
            (ROW_NONLIN[rs->kind[i]] & B_(l)))
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

static void rowset_add(rowset *rs, row_kind k, int mu_add, int mu_t0) {
  rs->kind[rs->n] = k;
  rs->mu_add[rs->n] = mu_add;
  rs->mu_t0[rs->n] = mu_t0;
  rs->n++;
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
  static const int positive[] = {P_M1,    P_M2,    P_MG,    P_J,     P_C3,
                                 P_G,     P_TF,    P_U1MAX, P_U2MAX, P_SIGMA,
                                 P_THMAX, P_VDMAX, P_VRMAX};
  for (size_t i = 0; i < sizeof positive / sizeof *positive; ++i)
    if (!(v[positive[i]] > 0.0) || isnan(v[positive[i]]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: %s = %g: expected a value > 0",
                          crane_params[positive[i]].name, v[positive[i]]);
  static const int nonneg[] = {P_C1, P_C2, P_RMIN, P_TAUMIN};
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
  if (!(v[P_PROJECT] == 0.0 || v[P_PROJECT] == 1.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: project = %g: expected 0 or 1", v[P_PROJECT]);
  return RC_OK;
}

/* Index of `text` in the NULL-terminated list, or -1. */
static int text_choice(const char *text, const char *const *choices) {
  for (int i = 0; choices[i]; ++i)
    if (strcmp(text, choices[i]) == 0)
      return i;
  return -1;
}

/* ---- the flat inverse's extremes ------------------------------------------
 * Scanned on a grid of max(2000, 400 per waypoint segment) points, then each
 * extreme polished by golden-section search on the two grid intervals around
 * it (the flat inverse is smooth between waypoints; every path radcol builds
 * is C^4, so the polished value is the local maximum to ~1e-12). */
#define NSCAN (NW + 2) /* w, then the load position x, z */

static double flat_value(const crane *cr, int i, double t) {
  rc_crane_flat f;
  double w[NW];
  rc_crane_flat_eval(&cr->par, &cr->path, t, &f);
  flat_to_w(&f, w);
  return i < NW ? w[i] : i == NW ? f.x : f.z;
}

/* Maximum of sgn * flat_value(i) on [a, b]: golden-section search. */
static double golden_max(const crane *cr, int i, double sgn, double a, double b,
                         double *t_at) {
  const double gr = 0.5 * (sqrt(5.0) - 1.0);
  double x1 = b - gr * (b - a), x2 = a + gr * (b - a);
  double f1 = sgn * flat_value(cr, i, x1), f2 = sgn * flat_value(cr, i, x2);
  for (int it = 0; it < 80 && b - a > 1e-14 * (1.0 + fabs(b)); ++it) {
    if (f1 >= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - gr * (b - a);
      f1 = sgn * flat_value(cr, i, x1);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + gr * (b - a);
      f2 = sgn * flat_value(cr, i, x2);
    }
  }
  *t_at = f1 >= f2 ? x1 : x2;
  return f1 >= f2 ? f1 : f2;
}

typedef struct scan_ext {
  double hi[NSCAN], t_hi[NSCAN], lo[NSCAN], t_lo[NSCAN];
} scan_ext;

static void flat_scan(const crane *cr, double t0, double tf, scan_ext *e) {
  int ngrid = 400 * (cr->path.n - 1);
  ngrid = ngrid < 2000 ? 2000 : ngrid > 200000 ? 200000 : ngrid;
  int khi[NSCAN], klo[NSCAN];
  for (int k = 0; k <= ngrid; ++k) {
    const double t = t0 + (tf - t0) * k / ngrid;
    for (int i = 0; i < NSCAN; ++i) {
      const double v = flat_value(cr, i, t);
      if (k == 0 || v > e->hi[i]) {
        e->hi[i] = v;
        khi[i] = k;
      }
      if (k == 0 || v < e->lo[i]) {
        e->lo[i] = v;
        klo[i] = k;
      }
    }
  }
  const double h = (tf - t0) / ngrid;
  for (int i = 0; i < NSCAN; ++i) {
    double a = fmax(t0, t0 + (khi[i] - 1) * h),
           b = fmin(tf, t0 + (khi[i] + 1) * h);
    double t;
    double v = golden_max(cr, i, 1.0, a, b, &t);
    e->t_hi[i] = t0 + khi[i] * h;
    if (v > e->hi[i]) {
      e->hi[i] = v;
      e->t_hi[i] = t;
    }
    a = fmax(t0, t0 + (klo[i] - 1) * h);
    b = fmin(tf, t0 + (klo[i] + 1) * h);
    v = -golden_max(cr, i, -1.0, a, b, &t);
    e->t_lo[i] = t0 + klo[i] * h;
    if (v < e->lo[i]) {
      e->lo[i] = v;
      e->t_lo[i] = t;
    }
  }
}

/* ---- checks and notes before solving (track) -------------------------------
 * A simple bound on a state that the fixed start or end state violates is an
 * input error; so is a path whose flat inverse needs tau <= taumin.  Bounds
 * the flat inverse violates only make exact tracking impossible: said in the
 * note, with the extreme value and where. */
typedef struct limit_def {
  int var;      /* point-vector index */
  int plo, phi; /* parameter of the lower / upper bound (-1: symmetric) */
  int psym;     /* parameter of |w| <= value, or -1 */
  const char *unit;
} limit_def;

static const limit_def LIMITS[] = {
    {IU1, -1, -1, P_U1MAX, "N"},   {IU2, -1, -1, P_U2MAX, "N m"},
    {IR, P_RMIN, P_RMAX, -1, "m"}, {ITAU, P_TAUMIN, -1, -1, "N"},
    {ITH, -1, -1, P_THMAX, "rad"}, {IVD, -1, -1, P_VDMAX, "m/s"},
    {IVR, -1, -1, P_VRMAX, "m/s"},
};

static void note_add(crane *cr, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void note_add(crane *cr, const char *fmt, ...) {
  size_t len = strlen(cr->note);
  if (len + 2 >= sizeof cr->note)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cr->note + len, sizeof cr->note - len, fmt, ap);
  va_end(ap);
}

/* A fixed state value against the bounds of its variable. */
static rc_err check_fixed(const crane *cr, const double *v, int var,
                          double value, double t, const char *which,
                          rc_error *err) {
  for (size_t l = 0; l < sizeof LIMITS / sizeof *LIMITS; ++l) {
    const limit_def *L = &LIMITS[l];
    if (L->var != var)
      continue;
    if (L->psym >= 0 && fabs(value) > v[L->psym])
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: %s = %g contradicts the fixed %s state "
                          "%s = %g %s at t = %g s: expected %s >= %g",
                          crane_params[L->psym].name, v[L->psym], which,
                          VAR_NAMES[var], value, L->unit, t,
                          crane_params[L->psym].name, fabs(value));
    if (L->plo >= 0 && cr->w_lo[var] > -HUGE_VAL && value < cr->w_lo[var])
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: %s = %g contradicts the fixed %s state "
                          "%s = %g %s at t = %g s: expected %s <= %g",
                          crane_params[L->plo].name, v[L->plo], which,
                          VAR_NAMES[var], value, L->unit, t,
                          crane_params[L->plo].name, value);
    if (L->phi >= 0 && value > v[L->phi])
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: %s = %g contradicts the fixed %s state "
                          "%s = %g %s at t = %g s: expected %s >= %g",
                          crane_params[L->phi].name, v[L->phi], which,
                          VAR_NAMES[var], value, L->unit, t,
                          crane_params[L->phi].name, value);
  }
  return RC_OK;
}

/* Necessary condition for reaching a fixed end state with |u1| <= a, from
 * the horizontal momentum balance (docs/crane-jobs.md, "End conditions"):
 * X = M1 d + M2 x, P = X', rho = x - d = r sin theta, M = M1 + M2,
 * k = C1 / M:
 *   X(T) - X0 - P0 E = int_0^T e^{-k(T-s)} U(s) ds
 *                      + k M2 int_0^T e^{-k(T-s)} (rho(s) - rho0) ds,
 *   U(t) = int_0^t u1,  U(T) = P_T - P0 + k (X_T - X0) - k M2 (rho_T - rho0),
 *   E = (1 - e^{-kT}) / k.
 * |U'| <= a with U(0) = 0 and U(T) fixed bounds U pointwise by a tent; the
 * weight is positive, so the first integral lies in [lo, hi].  Returns the
 * shortfall (> 0: unreachable unless the sway term supplies it) and the
 * needed and reachable values. */
typedef struct reach {
  double need, lo, hi, sway_gain; /* sway_gain = k M2 E */
  int impulse;                    /* |U(T)| > a T: impossible outright */
  double UT;
} reach;

static void momentum_reach(const crane *cr, const double *xs, const double *xe,
                           double T, double a, reach *R) {
  const rc_crane_params *P = &cr->par;
  const double M = P->M1 + P->M2, k = P->C1 / M;
  double X[2], Pm[2], rho[2];
  const double *st[2] = {xs, xe};
  for (int j = 0; j < 2; ++j) {
    const double *x = st[j], s = sin(x[ITH]), c = cos(x[ITH]);
    rho[j] = x[IR] * s;
    const double vx = x[IVD] + x[IVR] * s + x[IR] * x[IOM] * c;
    X[j] = P->M1 * x[ID] + P->M2 * (x[ID] + rho[j]);
    Pm[j] = P->M1 * x[IVD] + P->M2 * vx;
  }
  const double E = k > 0.0 ? -expm1(-k * T) / k : T;
  R->UT = Pm[1] - Pm[0] + k * (X[1] - X[0]) - k * P->M2 * (rho[1] - rho[0]);
  R->need = X[1] - X[0] - Pm[0] * E;
  R->sway_gain = k * P->M2 * E;
  R->impulse = fabs(R->UT) > a * T;
  /* Simpson on the tents (piecewise linear times an exponential). */
  const int n = 4000;
  double hi = 0.0, lo = 0.0;
  for (int i = 0; i <= n; ++i) {
    const double sv = T * i / n, wgt = exp(-k * (T - sv));
    const double q = (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    hi += q * wgt * fmin(a * sv, R->UT + a * (T - sv));
    lo += q * wgt * fmax(-a * sv, R->UT - a * (T - sv));
  }
  R->hi = hi * T / (3.0 * n);
  R->lo = lo * T / (3.0 * n);
}

/* The physical limits of SPEC 4.3 as simple bounds on the point vector
 * (track and mintime): |u1| <= u1max, |u2| <= u2max, rmin <= r <= rmax,
 * tau >= taumin, |theta| <= thetamax, |vd| <= vdmax, |vr| <= vrmax. */
static void limits_as_bounds(crane *cr, const double *v) {
  cr->w_lo[IU1] = -v[P_U1MAX];
  cr->w_hi[IU1] = v[P_U1MAX];
  cr->w_lo[IU2] = -v[P_U2MAX];
  cr->w_hi[IU2] = v[P_U2MAX];
  if (v[P_RMIN] > 0.0)
    cr->w_lo[IR] = v[P_RMIN];
  cr->w_hi[IR] = v[P_RMAX];
  cr->w_lo[ITAU] = v[P_TAUMIN];
  cr->w_lo[ITH] = -v[P_THMAX];
  cr->w_hi[ITH] = v[P_THMAX];
  cr->w_lo[IVD] = -v[P_VDMAX];
  cr->w_hi[IVD] = v[P_VDMAX];
  cr->w_lo[IVR] = -v[P_VRMAX];
  cr->w_hi[IVR] = v[P_VRMAX];
}

/* Limits, checks, end condition, objective scales and the note (track). */
static rc_err track_setup(crane *cr, const double *v, int end,
                          const scan_ext *ex, rc_error *err) {
  rc_problem *pb = &cr->pb;
  limits_as_bounds(cr, v);

  /* End condition: rest puts the load at the path's end point with
   * theta = 0, so d = p1(tf), r = p2(tf); flat takes the flat inverse's end
   * state (identical for a path that ends at rest). */
  if (end != 2) {
    rc_crane_flat ff;
    rc_crane_flat_eval(&cr->par, &cr->path, pb->tf, &ff);
    double wf[NW];
    flat_to_w(&ff, wf);
    if (end == 0) {
      const double rest[NX] = {ff.x, ff.z, 0.0, 0.0, 0.0, 0.0};
      memcpy(wf, rest, sizeof rest);
    }
    for (int i = 0; i < NX; ++i) {
      cr->xf[i] = wf[i];
      cr->fix_xf[i] = 1;
    }
    pb->fix_xf = cr->fix_xf;
    pb->xf = cr->xf;
  }
  static const char *const END_NAMES[] = {"rest", "flat"};
  for (int i = 0; i < NX; ++i) {
    rc_err rc = check_fixed(cr, v, i, cr->x0[i], pb->t0, "start", err);
    if (rc == RC_OK && end != 2) {
      char which[32];
      snprintf(which, sizeof which, "end (end=%s)", END_NAMES[end]);
      rc = check_fixed(cr, v, i, cr->xf[i], pb->tf, which, err);
    }
    if (rc != RC_OK)
      return rc;
  }
  if (ex->lo[ITAU] <= v[P_TAUMIN])
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: the path needs tension tau = %.4g N <= taumin "
                        "= %g at t = %.4g s (a slack or pushing cable): "
                        "expected a slower or smaller move, or a smaller "
                        "taumin",
                        ex->lo[ITAU], v[P_TAUMIN], ex->t_lo[ITAU]);

  /* Exact tracking impossible where the flat inverse leaves a bound. */
  int first = 1;
  for (size_t l = 0; l < sizeof LIMITS / sizeof *LIMITS; ++l) {
    const limit_def *L = &LIMITS[l];
    const int i = L->var;
    const char *fmt_hi = "%sflat %s = %.4g %s > %s = %g at t = %.4g s";
    const char *fmt_lo = "%sflat %s = %.4g %s < %s = %g at t = %.4g s";
    const char *lead = first ? "exact tracking is impossible within the "
                               "limits: "
                             : "; ";
    if (L->psym >= 0 && fmax(ex->hi[i], -ex->lo[i]) > v[L->psym]) {
      const int up = ex->hi[i] >= -ex->lo[i];
      note_add(cr, "%sflat |%s| = %.4g %s > %s = %g at t = %.4g s", lead,
               VAR_NAMES[i], up ? ex->hi[i] : -ex->lo[i], L->unit,
               crane_params[L->psym].name, v[L->psym],
               up ? ex->t_hi[i] : ex->t_lo[i]);
      first = 0;
    }
    if (L->phi >= 0 && ex->hi[i] > v[L->phi]) {
      note_add(cr, fmt_hi, lead, VAR_NAMES[i], ex->hi[i], L->unit,
               crane_params[L->phi].name, v[L->phi], ex->t_hi[i]);
      first = 0;
    }
    if (L->plo >= 0 && i != ITAU && v[L->plo] > 0.0 && ex->lo[i] < v[L->plo]) {
      note_add(cr, fmt_lo, first ? lead : "; ", VAR_NAMES[i], ex->lo[i],
               L->unit, crane_params[L->plo].name, v[L->plo], ex->t_lo[i]);
      first = 0;
    }
  }
  if (!first)
    note_add(cr, " (the solve tracks as well as the limits allow)");

  /* Reachability of a fixed end state with |u1| <= u1max. */
  if (end != 2 && isfinite(v[P_U1MAX])) {
    reach R;
    momentum_reach(cr, cr->x0, cr->xf, pb->tf - pb->t0, v[P_U1MAX], &R);
    const double M = cr->par.M1 + cr->par.M2;
    const double rho_b = (isfinite(v[P_RMAX]) ? v[P_RMAX] : HUGE_VAL) *
                         (v[P_THMAX] < 2.0 * atan(1.0) ? sin(v[P_THMAX]) : 1.0);
    const double rho0 = fabs(cr->x0[IR] * sin(cr->x0[ITH]));
    const double sway =
        R.sway_gain > 0.0 ? R.sway_gain * (rho_b + rho0) : 0.0; /* C1 = 0 */
    const double tol = 1e-6 * (fabs(R.need) + M);
    const double short_hi = R.need - R.hi, short_lo = R.lo - R.need;
    const double gap = fmax(short_hi, short_lo);
    const double reach_m = (gap == short_hi ? R.hi : R.lo) / M;
    if (R.impulse || (isfinite(sway) && gap > tol + sway)) {
      /* proved: the solve ends infeasible without running the NLP */
      if (R.impulse)
        snprintf(cr->infeasible, sizeof cr->infeasible,
                 "the end state (end=%s) is unreachable with |u1| <= u1max "
                 "= %g N: the horizontal momentum balance needs a force "
                 "impulse of %.4g N s, more than u1max T = %.4g N s",
                 END_NAMES[end], v[P_U1MAX], fabs(R.UT),
                 v[P_U1MAX] * (pb->tf - pb->t0));
      else {
        char why[128];
        if (R.sway_gain > 0.0)
          snprintf(why, sizeof why,
                   "with the sway allowed by rmax = %g m and thetamax = %g "
                   "rad",
                   v[P_RMAX], v[P_THMAX]);
        else
          snprintf(why, sizeof why, "(C1 = 0: the sway cannot help)");
        snprintf(cr->infeasible, sizeof cr->infeasible,
                 "the end state (end=%s) is unreachable with |u1| <= u1max "
                 "= %g N: the horizontal momentum balance of trolley and "
                 "load (%g kg) moves their centre of mass by at most %.4g m "
                 "(needed %.4g m) %s",
                 END_NAMES[end], v[P_U1MAX], M, reach_m, R.need / M, why);
      }
      pb->infeasible = cr->infeasible;
    } else if (gap > tol) {
      note_add(cr,
               "%swith |u1| <= u1max = %g N the horizontal momentum balance "
               "of trolley and load (%g kg) moves their centre of mass by at "
               "most %.4g m (needed %.4g m) unless the cable's sway offset "
               "x - d changes by %.4g m on average: the end state is "
               "unreachable for any realistic sway (set rmax and thetamax "
               "to make this a proof)",
               cr->note[0] ? "; " : "", v[P_U1MAX], M, reach_m, R.need / M,
               gap / R.sway_gain);
    }
  }

  /* Objective scales (docs/crane-jobs.md, "Objective"). */
  const double T = pb->tf - pb->t0;
  const double zmax = ex->hi[NW + 1];
  cr->lref = hypot(ex->hi[NW] - ex->lo[NW], zmax - ex->lo[NW + 1]);
  if (!(cr->lref > 1e-3 * zmax))
    cr->lref = zmax; /* a load at rest: its depth */
  const double floor_f = 1e-6 * (cr->par.M1 + cr->par.M2) * cr->par.g;
  cr->u1ref = fmax(fmin(fmax(ex->hi[IU1], -ex->lo[IU1]), v[P_U1MAX]), floor_f);
  cr->u2ref = fmax(fmin(fmax(ex->hi[IU2], -ex->lo[IU2]), v[P_U2MAX]),
                   floor_f * cr->par.C3);
  cr->wq = 1.0 / (T * cr->lref * cr->lref);
  cr->wu1 = cr->eps / (T * cr->u1ref * cr->u1ref);
  cr->wu2 = cr->eps / (T * cr->u2ref * cr->u2ref);
  pb->objective_scale = v[P_SIGMA];
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

/* ---- mintime: minimum-time rest-to-rest move (docs/crane-mintime.md) -----
 * Boundary block B(z) = [phi] with phi = tf, z = (x(t0), x(tf), tf). */
static int mt_bnd_eval(const rc_problem *pb, double t, const double *z,
                       double *out) {
  (void)t;
  out[0] = z[2 * pb->nx + pb->np];
  return 0;
}
static int mt_bnd_jac(const rc_problem *pb, double t, const double *z,
                      double *vals) {
  (void)pb;
  (void)t;
  (void)z;
  vals[0] = 1.0;
  return 0;
}
static int mt_bnd_hes(const rc_problem *pb, double t, const double *z,
                      const double *mu, double *vals) {
  (void)pb;
  (void)t;
  (void)z;
  (void)mu;
  (void)vals; /* phi = tf is linear: empty pattern */
  return 0;
}

/* Parses "X0:X1:ZMIN[;X0:X1:ZMIN...]" into cr->stack. */
static rc_err mt_parse_stacks(crane *cr, const char *text, rc_error *err) {
  cr->nstack = 0;
  const char *p = text;
  while (p && *p) {
    double v[3];
    for (int k = 0; k < 3; ++k) {
      char *end;
      v[k] = strtod(p, &end);
      const char want = k < 2 ? ':' : ';';
      if (end == p || !isfinite(v[k]) ||
          !(*end == want || (k == 2 && *end == '\0')))
        return rc_error_set(err, RC_ERR_INPUT,
                            "crane: stack = '%s': expected X0:X1:ZMIN[;X0:X1:"
                            "ZMIN...] with finite numbers [m]",
                            text);
      p = *end ? end + 1 : end;
    }
    if (cr->nstack == MAXSTACK)
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: stack = '%s': expected at most %d stacks",
                          text, MAXSTACK);
    if (!(v[0] < v[1]) || !(v[2] > 0.0))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: stack %g:%g:%g: expected X0 < X1 and a top "
                          "ZMIN > 0 below the rail [m]",
                          v[0], v[1], v[2]);
    memcpy(cr->stack[cr->nstack++], v, sizeof v);
  }
  return RC_OK;
}

/* Largest violation of the limits by the flat inverse of cr->path (scanned):
 * 0 when the profile meets every limit. */
static double mt_profile_excess(const crane *cr, const double *v,
                                const scan_ext *ex) {
  double worst = 0.0;
  for (size_t l = 0; l < sizeof LIMITS / sizeof *LIMITS; ++l) {
    const limit_def *L = &LIMITS[l];
    const int i = L->var;
    if (L->psym >= 0)
      worst =
          fmax(worst, (fmax(ex->hi[i], -ex->lo[i]) - v[L->psym]) / v[L->psym]);
    if (L->phi >= 0 && isfinite(v[L->phi]))
      worst = fmax(worst, (ex->hi[i] - v[L->phi]) / v[L->phi]);
    if (L->plo >= 0)
      worst = fmax(worst, (v[L->plo] - ex->lo[i]) / fmax(v[L->plo], 1.0));
  }
  /* and a gentle profile, whatever the limits: tau >= m g / 2 (far from
   * the slack cable and the flat inverse's edge b = 0) */
  const double mg = cr->par.m * cr->par.g;
  worst = fmax(worst, (0.5 * mg - ex->lo[ITAU]) / mg);
  /* without u1max: trolley forces up to (M1 + M2) g */
  const double f1 = (cr->par.M1 + cr->par.M2) * cr->par.g;
  worst = fmax(worst, (fmax(ex->hi[IU1], -ex->lo[IU1]) - f1) / f1);
  return worst;
}

/* Limits, rest end, stacks, objective and the starting tf (mintime). */
static rc_err mintime_setup(crane *cr, const rc_param_values *pv,
                            rc_error *err) {
  rc_problem *pb = &cr->pb;
  const double *v = pv->real;
  const int *is_set = pv->is_set;
  if (pv->text && pv->text[P_PATH] && *pv->text[P_PATH])
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: path = '%s' with formulation mintime: "
                        "expected no path (mintime moves from x_start, "
                        "z_start to x_end, z_end)",
                        pv->text[P_PATH]);
  if (!(v[P_TFLO] > 0.0 && v[P_TFLO] < v[P_TFHI] && isfinite(v[P_TFHI])))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: tf_lo = %g, tf_hi = %g: expected 0 < tf_lo < "
                        "tf_hi < inf [s]",
                        v[P_TFLO], v[P_TFHI]);
  if (!(v[P_STACKEDGE] > 0.0 && isfinite(v[P_STACKEDGE])))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: stack_edge = %g: expected a finite length > 0 "
                        "[m]",
                        v[P_STACKEDGE]);
  if (!(v[P_UREG] >= 0.0 && isfinite(v[P_UREG])))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: ureg = %g: expected a finite value >= 0",
                        v[P_UREG]);
  const int tf_set = is_set && is_set[P_TF];
  if (tf_set && !(v[P_TF] >= v[P_TFLO] && v[P_TF] <= v[P_TFHI]))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: tf = %g (the starting guess of mintime): "
                        "expected tf_lo = %g <= tf <= tf_hi = %g",
                        v[P_TF], v[P_TFLO], v[P_TFHI]);
  rc_err rc = mt_parse_stacks(
      cr, pv->text && pv->text[P_STACK] ? pv->text[P_STACK] : "", err);
  if (rc != RC_OK)
    return rc;
  cr->stack_ell = v[P_STACKEDGE];

  limits_as_bounds(cr, v); /* the physical limits, as track */

  /* end at rest at (x_end, z_end): d = x_end, r = z_end, the rest 0 */
  const double rest[NX] = {v[P_XE], v[P_ZE], 0.0, 0.0, 0.0, 0.0};
  for (int i = 0; i < NX; ++i) {
    cr->xf[i] = rest[i];
    cr->fix_xf[i] = 1;
  }
  pb->fix_xf = cr->fix_xf;
  pb->xf = cr->xf;
  for (int i = 0; i < NX; ++i) {
    rc = check_fixed(cr, v, i, cr->x0[i], pb->t0, "start", err);
    if (rc != RC_OK)
      return rc;
  }
  /* at rest every state is 0 but r = z_end: only the cable bounds matter */
  if (v[P_ZE] < v[P_RMIN] || v[P_ZE] > v[P_RMAX])
    return rc_error_set(
        err, RC_ERR_INPUT,
        "crane: rmin = %g, rmax = %g contradict the end at rest "
        "(cable length r = z_end = %g m): expected rmin <= %g "
        "<= rmax",
        v[P_RMIN], v[P_RMAX], v[P_ZE], v[P_ZE]);
  const double mg = cr->par.m * cr->par.g;
  if (!(mg > v[P_TAUMIN]))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: taumin = %g: expected taumin < m g = %g N "
                        "(the tension at rest)",
                        v[P_TAUMIN], mg);

  /* the start and end points against the (rounded) stacks */
  for (int j = 0; j < cr->nstack; ++j) {
    const double *st = cr->stack[j],
                 il2 = 1.0 / (cr->stack_ell * cr->stack_ell);
    const double px[2] = {cr->x0[ID] + cr->x0[IR] * sin(cr->x0[ITH]), v[P_XE]};
    const double pz[2] = {cr->x0[IR] * cos(cr->x0[ITH]), v[P_ZE]};
    for (int e = 0; e < 2; ++e) {
      const double a = fmax(0.0, st[0] - px[e]), b = fmax(0.0, px[e] - st[1]);
      if (pz[e] - st[2] - (a * a * a + b * b * b) * il2 > 0.0)
        return rc_error_set(err, RC_ERR_INPUT,
                            "crane: stack %g:%g:%g: the %s point (%g, %g) m "
                            "is inside it or within its rounded edge "
                            "(stack_edge = %g m): expected z <= ZMIN over "
                            "the stack",
                            st[0], st[1], st[2], e ? "end" : "start", px[e],
                            pz[e], cr->stack_ell);
    }
    cr->c_lo[j] = -HUGE_VAL;
    cr->c_hi[j] = 0.0;
  }

  /* regularisation weights */
  const double U1 =
      isfinite(v[P_U1MAX]) ? v[P_U1MAX] : (cr->par.M1 + cr->par.M2) * cr->par.g;
  const double U2 = isfinite(v[P_U2MAX])
                        ? v[P_U2MAX]
                        : cr->par.C3 * (cr->par.M1 + cr->par.M2) * cr->par.g;
  cr->reg1 = v[P_UREG] / (U1 * U1);
  cr->reg2 = v[P_UREG] / (U2 * U2);
  cr->u2hold = cr->par.C3 * mg;

  /* starting tf: `tf` if set, else the shortest T (geometric steps of 5 %
   * from a lower bound) on which the rest-to-rest profile's flat inverse
   * meets every limit; the guess is that flat inverse (guess=flat). */
  double T = v[P_TF], excess = 0.0;
  if (!tf_set) {
    const double D = fabs(v[P_XE] - v[P_XS]), M = cr->par.M1 + cr->par.M2;
    /* frictionless bang-bang time of the centre of mass: a lower bound */
    T = isfinite(v[P_U1MAX]) ? 2.0 * sqrt(D * M / v[P_U1MAX]) : 0.0;
    T = fmax(T, v[P_TFLO]);
    double best_T = v[P_TFHI], best_ex = HUGE_VAL;
    for (; T <= v[P_TFHI]; T *= 1.05) {
      rc_crane_path trial = {0};
      rc_error e2;
      if (rc_crane_path_default(&trial, T, v[P_XS], v[P_ZS], v[P_XE], v[P_ZE],
                                &e2) != RC_OK)
        continue;
      double exT = HUGE_VAL;
      if (rc_crane_path_check_flat(&trial, &cr->par, &e2) == RC_OK) {
        rc_crane_path saved = cr->path;
        cr->path = trial;
        scan_ext ex;
        flat_scan(cr, 0.0, T, &ex);
        exT = mt_profile_excess(cr, v, &ex);
        cr->path = saved;
      }
      rc_crane_path_free(&trial);
      if (exT < best_ex) {
        best_ex = exT;
        best_T = T;
      }
      if (exT <= 0.0)
        break;
    }
    T = best_T;
    excess = best_ex;
  }
  rc_crane_path_free(&cr->path);
  rc = rc_crane_path_default(&cr->path, T, v[P_XS], v[P_ZS], v[P_XE], v[P_ZE],
                             err);
  if (rc == RC_OK)
    rc = rc_crane_path_check_flat(&cr->path, &cr->par, err);
  if (rc != RC_OK)
    return rc;
  pb->tf = T;
  pb->free_tf = 1;
  pb->tf_lo = v[P_TFLO];
  pb->tf_hi = v[P_TFHI];
  pb->autonomous = 1;
  pb->has_mayer = 1;
  /* tf's gradient (1) is small against the model rows' Jacobian: 100 is
   * the scale Ipopt's gradient-based scaling caps at, and it takes the
   * issue-19 job from 67 to 37 iterations, one stack from 249 to 97, two
   * from 1144 to 84 (40 x 5; docs/crane-mintime.md) */
  pb->objective_scale =
      is_set && is_set[P_SIGMA] ? v[P_SIGMA] : CRANE_MT_OBJ_SCALE_DEFAULT;
  if (!tf_set && excess > 0.0)
    snprintf(cr->mt_note, sizeof cr->mt_note,
             "starting guess: no rest-to-rest profile in tf_lo..tf_hi meets "
             "every limit (best T = %.4g s, %.3g relative excess); "
             "the solve starts from it anyway",
             T, excess);
  if (!isfinite(v[P_U1MAX]))
    snprintf(cr->mt_note, sizeof cr->mt_note,
             "u1max is not set: without a trolley force limit a minimum "
             "time is not attained (tf runs down towards tf_lo = %g s and "
             "the solve cannot converge); set u1max",
             v[P_TFLO]);
  return RC_OK;
}

/* ---- pathtime: minimum time along a path (docs/crane-mintime.md) ---------
 * Load on p(t) = P(sigma(t)), P the straight line P0 + D sigma (D = P1 - P0)
 * or a curve (pt_curve); states (sigma, sigma1, sigma2, sigma3), control
 * sigma4 (chain of integrators).  The load's derivatives by the chain rule
 * (P^(k) = d^k P / d sigma^k, s_k = sigma_k):
 *   p'    = P' s1,
 *   p''   = P'' s1^2 + P' s2,
 *   p'''  = P''' s1^3 + 3 P'' s1 s2 + P' s3,
 *   p'''' = P'''' s1^4 + 6 P''' s1^2 s2 + P'' (3 s2^2 + 4 s1 s3) + P' s4.
 * Flat inverse (SPEC 4.3): a = -M2 p1'', b = m g - M2 p2'' (and a', a'',
 * b', b'' from p''', p''''), q = a / b = tan theta,
 *   q' = (a' - q b') / b,  q'' = (a'' - 2 q' b' - q b'') / b,
 *   S = sqrt(1 + q^2), S_q = q / S, S_qq = 1 / S^3,
 *   theta = atan q, tau = b S, r = p2 S, d = p1 - p2 q, omega = q' / S^2,
 *   vd = p1' - p2' q - p2 q',  d'' = p1'' - p2'' q - 2 p2' q' - p2 q'',
 *   vr = p2' S + p2 S_q q',  r'' = p2'' S + 2 p2' S_q q' + p2 (S_qq q'^2 +
 *   S_q q''),  u1 = M1 d'' + C1 vd - a  (tau sin theta = b q = a),
 *   u2 = (C3^2 tau - C2 vr - J r'') / C3.
 * Limits on the dense output: the nine crane quantities are algebraic
 * variables y = (d, r, theta, vd, vr, omega, tau, u1, u2) with the
 * equations 0 = y_k - Y_k(sigma .. sigma4) and the limits as simple bounds
 * on y, which the Bernstein rows of the transcription (docs/dense-bounds.md)
 * make hold on the whole dense output; between the nodes y differs from
 * Y(dense sigma) by the interpolation error of a smooth function of
 * polynomials, which the dense-grid check reports (alg_<y>): O(h^6) where
 * the controls are smooth, O(h) in an element where u1 switches (sigma4 is
 * steep there; docs/crane-mintime.md derives it).  One path
 * constraint b >= 0.01 m g (the flat inverse's domain).  Every expression is
 * a second-order jet (value, gradient, Hessian over the 5 inputs sigma ..
 * sigma4) built with the exact product, reciprocal, sqrt and atan rules. */
#define PT_N 5  /* jet inputs: sigma, sigma1, sigma2, sigma3, sigma4 */
#define PT_NX 4 /* states sigma .. sigma3 */
#define PT_NY 9 /* algebraic copies d .. u2 */
#define PT_NW (PT_NX + PT_NY + 1)
#define PT_IU (PT_NX + PT_NY) /* w index of sigma4 */
#define PT_NC 1               /* path constraint b */
/* w index of jet input i */
static const int PT_WIN[PT_N] = {0, 1, 2, 3, PT_IU};

typedef struct jet2 {
  double v, g[PT_N], h[PT_N][PT_N];
} jet2;

static jet2 j_var(double v, int i) {
  jet2 r;
  memset(&r, 0, sizeof r);
  r.v = v;
  r.g[i] = 1.0;
  return r;
}
static jet2 j_const(double v) {
  jet2 r;
  memset(&r, 0, sizeof r);
  r.v = v;
  return r;
}
static jet2 j_lin(double a, jet2 x, double b, jet2 y) { /* a x + b y */
  jet2 r;
  r.v = a * x.v + b * y.v;
  for (int i = 0; i < PT_N; ++i) {
    r.g[i] = a * x.g[i] + b * y.g[i];
    for (int j = 0; j < PT_N; ++j)
      r.h[i][j] = a * x.h[i][j] + b * y.h[i][j];
  }
  return r;
}
static jet2 j_add(jet2 x, jet2 y) {
  return j_lin(1.0, x, 1.0, y);
}
static jet2 j_scale(double a, jet2 x) {
  return j_lin(a, x, 0.0, x);
}
static jet2 j_mul(jet2 x, jet2 y) {
  jet2 r;
  r.v = x.v * y.v;
  for (int i = 0; i < PT_N; ++i) {
    r.g[i] = x.v * y.g[i] + y.v * x.g[i];
    for (int j = 0; j < PT_N; ++j)
      r.h[i][j] =
          x.v * y.h[i][j] + y.v * x.h[i][j] + x.g[i] * y.g[j] + y.g[i] * x.g[j];
  }
  return r;
}
/* f(x) with f' = d1, f'' = d2 at x.v */
static jet2 j_fun(jet2 x, double f, double d1, double d2) {
  jet2 r;
  r.v = f;
  for (int i = 0; i < PT_N; ++i) {
    r.g[i] = d1 * x.g[i];
    for (int j = 0; j < PT_N; ++j)
      r.h[i][j] = d1 * x.h[i][j] + d2 * x.g[i] * x.g[j];
  }
  return r;
}
static jet2 j_inv(jet2 x) {
  return j_fun(x, 1.0 / x.v, -1.0 / (x.v * x.v), 2.0 / (x.v * x.v * x.v));
}
static jet2 j_sqrt(jet2 x) {
  const double s = sqrt(x.v);
  return j_fun(x, s, 0.5 / s, -0.25 / (s * x.v));
}
static jet2 j_atan(jet2 x) {
  const double d = 1.0 + x.v * x.v;
  return j_fun(x, atan(x.v), 1.0 / d, -2.0 * x.v / (d * d));
}

/* P^(k)(sigma), k = 0..6, of x (P[k][0]) and z (P[k][1]). */
static void pt_curve(const crane *cr, double sigma, double P[7][2]) {
  memset(P, 0, sizeof(double) * 14);
  if (cr->path.mode == RC_CRANE_PATH_CURVE) {
    rc_crane_curve_eval(&cr->path, sigma, P);
    return;
  }
  const double Dx = cr->xf[4], Dz = cr->xf[5]; /* set by pathtime_finish */
  P[0][0] = cr->x0[4] + Dx * sigma;
  P[0][1] = cr->x0[5] + Dz * sigma;
  P[1][0] = Dx;
  P[1][1] = Dz;
}

/* The load's derivatives p^(k), k = 0..4, as jets (pk[k][0] x, [1] z). */
static void pt_load(const crane *cr, const double *w, jet2 pk[5][2]) {
  const jet2 sg = j_var(w[0], 0), s1 = j_var(w[1], 1), s2 = j_var(w[2], 2),
             s3 = j_var(w[3], 3), s4 = j_var(w[PT_IU], 4);
  double P[7][2];
  pt_curve(cr, w[0], P);
  const jet2 s11 = j_mul(s1, s1), s12 = j_mul(s11, s2);
  const jet2 s111 = j_mul(s11, s1), s1111 = j_mul(s111, s1);
  const jet2 s1s2 = j_mul(s1, s2);
  const jet2 t4 = j_lin(3.0, j_mul(s2, s2), 4.0, j_mul(s1, s3));
  for (int c = 0; c < 2; ++c) {
    jet2 Pj[5]; /* P^(j)(sigma(w)) as jets */
    for (int j = 0; j < 5; ++j)
      Pj[j] = j_fun(sg, P[j][c], P[j + 1][c], P[j + 2][c]);
    pk[0][c] = Pj[0];
    pk[1][c] = j_mul(Pj[1], s1);
    pk[2][c] = j_add(j_mul(Pj[2], s11), j_mul(Pj[1], s2));
    pk[3][c] =
        j_add(j_add(j_mul(Pj[3], s111), j_scale(3.0, j_mul(Pj[2], s1s2))),
              j_mul(Pj[1], s3));
    pk[4][c] =
        j_add(j_add(j_mul(Pj[4], s1111), j_scale(6.0, j_mul(Pj[3], s12))),
              j_add(j_mul(Pj[2], t4), j_mul(Pj[1], s4)));
  }
}

/* Y_0..Y_8 = (d, r, theta, vd, vr, omega, tau, u1, u2) and b as jets. */
typedef struct pt_vals {
  jet2 y[PT_NY];
  jet2 b;
} pt_vals;

static int pt_eval_all(const crane *cr, const double *w, pt_vals *o) {
  const rc_crane_params *P = &cr->par;
  jet2 p[5][2];
  pt_load(cr, w, p);
  const double M2 = P->M2, mg = P->m * P->g;
  const jet2 a = j_scale(-M2, p[2][0]), ad = j_scale(-M2, p[3][0]),
             add = j_scale(-M2, p[4][0]);
  const jet2 b = j_add(j_const(mg), j_scale(-M2, p[2][1]));
  const jet2 bd = j_scale(-M2, p[3][1]), bdd = j_scale(-M2, p[4][1]);
  if (!(b.v > 0.0) || !(p[0][1].v > 0.0))
    return 1; /* outside the flat inverse's domain: the solver steps back */
  const jet2 ib = j_inv(b);
  const jet2 q = j_mul(a, ib);
  const jet2 qd = j_mul(j_lin(1.0, ad, -1.0, j_mul(q, bd)), ib);
  const jet2 qdd = j_mul(
      j_lin(1.0, add, -1.0, j_lin(2.0, j_mul(qd, bd), 1.0, j_mul(q, bdd))), ib);
  const jet2 S2 = j_add(j_const(1.0), j_mul(q, q));
  const jet2 S = j_sqrt(S2);
  const jet2 iS = j_inv(S);
  const jet2 Sq = j_mul(q, iS);              /* q / S */
  const jet2 Sqq = j_mul(iS, j_mul(iS, iS)); /* 1 / S^3 */
  const jet2 x = p[0][0], z = p[0][1], xd = p[1][0], zd = p[1][1],
             xdd = p[2][0], zdd = p[2][1];
  const jet2 tau = j_mul(b, S);
  const jet2 vd = j_lin(1.0, xd, -1.0, j_add(j_mul(zd, q), j_mul(z, qd)));
  const jet2 ddd = j_lin(1.0, j_lin(1.0, xdd, -1.0, j_mul(zdd, q)), -1.0,
                         j_lin(2.0, j_mul(zd, qd), 1.0, j_mul(z, qdd)));
  const jet2 vr = j_add(j_mul(zd, S), j_mul(z, j_mul(Sq, qd)));
  const jet2 rdd =
      j_add(j_lin(1.0, j_mul(zdd, S), 2.0, j_mul(zd, j_mul(Sq, qd))),
            j_mul(z, j_add(j_mul(Sqq, j_mul(qd, qd)), j_mul(Sq, qdd))));
  o->y[0] = j_lin(1.0, x, -1.0, j_mul(z, q)); /* d */
  o->y[1] = j_mul(z, S);                      /* r */
  o->y[2] = j_atan(q);                        /* theta */
  o->y[3] = vd;
  o->y[4] = vr;
  o->y[5] = j_mul(qd, j_inv(S2)); /* omega = theta' */
  o->y[6] = tau;
  o->y[7] = j_lin(1.0, j_lin(P->M1, ddd, P->C1, vd), -1.0, a); /* u1 */
  o->y[8] =
      j_lin(P->C3, tau, -1.0 / P->C3, j_lin(P->C2, vr, P->J, rdd)); /* u2 */
  o->b = b;
  return 0;
}

/* F = [sigma1, sigma2, sigma3, sigma4 | y - Y(sigma..sigma4) | b]. */
static int pt_point_eval(const rc_problem *pb, double t, const double *w,
                         double *out) {
  (void)t;
  pt_vals o;
  int rc = pt_eval_all(crane_of(pb), w, &o);
  if (rc)
    return rc;
  for (int i = 0; i < PT_NX; ++i)
    out[i] = w[PT_WIN[i + 1]]; /* sigma_k' = sigma_{k+1} */
  for (int k = 0; k < PT_NY; ++k)
    out[PT_NX + k] = w[PT_NX + k] - o.y[k].v;
  out[PT_NX + PT_NY] = o.b.v;
  return 0;
}
/* Jacobian pattern: row i < 4 -> column PT_WIN[i + 1]; row 4 + k -> column
 * 4 + k (the copy), then the five inputs; row 13 (b) -> the five inputs. */
static int pt_point_jac(const rc_problem *pb, double t, const double *w,
                        double *vals) {
  (void)t;
  pt_vals o;
  int rc = pt_eval_all(crane_of(pb), w, &o);
  if (rc)
    return rc;
  const rc_pattern *J = &pb->point.jac;
  for (int e = 0; e < J->nnz; ++e) {
    const int row = J->row[e], col = J->col[e];
    int in = -1;
    for (int i = 0; i < PT_N; ++i)
      if (PT_WIN[i] == col)
        in = i;
    if (row < PT_NX)
      vals[e] = 1.0;
    else if (row < PT_NX + PT_NY)
      vals[e] = col == row ? 1.0 : -o.y[row - PT_NX].g[in];
    else
      vals[e] = o.b.g[in];
  }
  return 0;
}
static int pt_point_hes(const rc_problem *pb, double t, const double *w,
                        const double *mu, double *vals) {
  (void)t;
  pt_vals o;
  int rc = pt_eval_all(crane_of(pb), w, &o);
  if (rc)
    return rc;
  const rc_pattern *H = &pb->point.hes;
  for (int e = 0; e < H->nnz; ++e) {
    int i = 0, j = 0;
    for (int k = 0; k < PT_N; ++k) {
      if (PT_WIN[k] == H->row[e])
        i = k;
      if (PT_WIN[k] == H->col[e])
        j = k;
    }
    double v = mu[PT_NX + PT_NY] * o.b.h[i][j];
    for (int k = 0; k < PT_NY; ++k)
      v -= mu[PT_NX + k] * o.y[k].h[i][j];
    vals[e] = v;
  }
  return 0;
}

static const char *const PT_VAR_NAMES[PT_NW] = {
    "sigma", "sigma1", "sigma2", "sigma3", "d",  "r",  "theta",
    "vd",    "vr",     "omega",  "tau",    "u1", "u2", "sigma4"};

/* The load x, z, vx, vz from sigma (exactly on the path). */
static int pt_outputs(const rc_problem *pb, double t, const double *w,
                      double *out) {
  (void)t;
  double P[7][2];
  pt_curve(crane_of(pb), w[0], P);
  out[0] = P[0][0];
  out[1] = P[0][1];
  out[2] = P[1][0] * w[1];
  out[3] = P[1][1] * w[1];
  return 0;
}

/* s(a) = 126a^5 - 420a^6 + 540a^7 - 315a^8 + 70a^9 and derivatives 1..4. */
static void s9_eval(double a, double out[5]) {
  double c[10] = {0, 0, 0, 0, 0, 126, -420, 540, -315, 70};
  for (int k = 0; k < 5; ++k) {
    double v = 0.0;
    for (int i = 9; i >= 0; --i)
      v = v * a + c[i];
    out[k] = v;
    for (int i = 0; i < 9; ++i)
      c[i] = (i + 1) * c[i + 1]; /* differentiate */
    c[9] = 0.0;
  }
}

/* The simple guess: sigma = s(t/T), T the starting tf (as mintime); the
 * copies y from the flat inverse. */
static int pt_guess(const rc_problem *pb, double t, double *w) {
  const double T = pb->tf - pb->t0;
  double a = (t - pb->t0) / T, sv[5];
  a = a < 0 ? 0 : a > 1 ? 1 : a;
  s9_eval(a, sv);
  for (int k = 0; k < PT_N; ++k)
    w[PT_WIN[k]] = sv[k] / pow(T, k);
  pt_vals o;
  if (pt_eval_all(crane_of(pb), w, &o))
    return -1;
  for (int k = 0; k < PT_NY; ++k)
    w[PT_NX + k] = o.y[k].v;
  return 0;
}

/* Turns a mintime problem (limits checked, free tf, starting T set) into
 * pathtime. */
static rc_err pathtime_finish(crane *cr, const rc_param_values *pv,
                              rc_error *err) {
  rc_problem *pb = &cr->pb;
  const double *v = pv->real;
  if (cr->nstack > 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: stack with formulation pathtime: expected no "
                        "stack (the load stays on the path)");
  if (v[P_UREG] > 0.0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: ureg = %g with formulation pathtime: expected "
                        "0 (not implemented there)",
                        v[P_UREG]);
  for (int i = 0; i < NWMAX; ++i) {
    cr->w_lo[i] = -HUGE_VAL;
    cr->w_hi[i] = HUGE_VAL;
  }
  cr->w_lo[0] = 0.0; /* 0 <= sigma <= 1, sigma' >= 0 (monotone) */
  cr->w_hi[0] = 1.0;
  cr->w_lo[1] = 0.0;
  /* the limits on the copies y = (d, r, theta, vd, vr, omega, tau, u1, u2) */
  double *lo = cr->w_lo + PT_NX, *hi = cr->w_hi + PT_NX;
  if (v[P_RMIN] > 0.0)
    lo[1] = v[P_RMIN];
  hi[1] = v[P_RMAX];
  lo[2] = -v[P_THMAX];
  hi[2] = v[P_THMAX];
  lo[3] = -v[P_VDMAX];
  hi[3] = v[P_VDMAX];
  lo[4] = -v[P_VRMAX];
  hi[4] = v[P_VRMAX];
  lo[6] = v[P_TAUMIN];
  lo[7] = -v[P_U1MAX];
  hi[7] = v[P_U1MAX];
  lo[8] = -v[P_U2MAX];
  hi[8] = v[P_U2MAX];
  cr->pt_lo[0] = 0.01 * cr->par.m * cr->par.g; /* b: the flat inverse's */
  cr->pt_hi[0] = HUGE_VAL;                     /* domain */
  /* sigma and its derivatives at rest; slots 4, 5 carry P0 and D */
  const char *file = pv->text ? pv->text[P_CURVE] : NULL;
  if (file && *file) { /* the curve replaces the straight line */
    static const int ends[4] = {P_XS, P_ZS, P_XE, P_ZE};
    for (int k = 0; k < 4; ++k)
      if (pv->is_set && pv->is_set[ends[k]])
        return rc_error_set(err, RC_ERR_INPUT,
                            "crane: %s = %g with curve = '%s': expected no "
                            "%s (the curve's first and last rows are the "
                            "start and end)",
                            crane_params[ends[k]].name, v[ends[k]], file,
                            crane_params[ends[k]].name);
    rc_crane_path curve;
    rc_err rc = rc_crane_curve_read_csv(&curve, file, err);
    if (rc != RC_OK)
      return rc;
    double P[2][7][2];
    rc_crane_curve_eval(&curve, 0.0, P[0]);
    rc_crane_curve_eval(&curve, 1.0, P[1]);
    for (int e = 0; e < 2; ++e)
      if (!(P[e][0][1] >= fmax(v[P_RMIN], 1e-9) && P[e][0][1] <= v[P_RMAX])) {
        const double ze = P[e][0][1];
        rc_crane_path_free(&curve);
        return rc_error_set(err, RC_ERR_INPUT,
                            "crane: curve '%s': the %s point is at depth z = "
                            "%g m, the cable length at rest there: expected "
                            "z > 0 and rmin = %g <= z <= rmax = %g",
                            file, e ? "end" : "start", ze, v[P_RMIN],
                            v[P_RMAX]);
      }
    /* the cable hangs from the rail: z > 0 along the whole curve (scanned
     * at 200 points per segment; the flat inverse needs p2 > 0) */
    const int nscan = 200 * (curve.n - 1);
    for (int k = 0; k <= nscan; ++k) {
      double Q[7][2];
      const double sg = (double)k / nscan;
      rc_crane_curve_eval(&curve, sg, Q);
      if (!(Q[0][1] > 0.0)) {
        rc_crane_path_free(&curve);
        return rc_error_set(err, RC_ERR_INPUT,
                            "crane: curve '%s' reaches z = %g m at sigma = "
                            "%g (x = %g m), at or above the rail: expected "
                            "z > 0 along the whole interpolated curve",
                            file, Q[0][1], sg, Q[0][0]);
      }
    }
    /* starting tf: the straight line's T scaled like a bang-bang time,
     * sqrt(length / chord) */
    const double L = rc_crane_curve_length(&curve);
    const double chord = hypot(v[P_XE] - v[P_XS], v[P_ZE] - v[P_ZS]);
    if (!(pv->is_set && pv->is_set[P_TF]) && chord > 0.0)
      pb->tf = fmin(pb->tf_hi, fmax(pb->tf_lo, pb->tf * sqrt(L / chord)));
    rc_crane_path_free(&cr->path);
    cr->path = curve; /* owned from now on (crane_destroy frees it) */
  }
  const double x0[NX] = {0, 0, 0, 0, v[P_XS], v[P_ZS]};
  const double xf[NX] = {1, 0, 0, 0, v[P_XE] - v[P_XS], v[P_ZE] - v[P_ZS]};
  memcpy(cr->x0, x0, sizeof x0);
  memcpy(cr->xf, xf, sizeof xf);
  for (int i = 0; i < NX; ++i)
    cr->fix_x0[i] = cr->fix_xf[i] = i < PT_NX;
  pb->nx = PT_NX;
  pb->ny = PT_NY;
  pb->nu = 1;
  pb->nc = PT_NC;
  pb->has_lagrange = 0;
  /* y(t0), u(t0) are NLP variables: g holds at t0 and the Bernstein rows
   * cover element 0 through them (docs/dense-bounds.md, 1a) */
  pb->t0_algebraic = 1;
  pb->var_names = PT_VAR_NAMES;
  pb->c_lo = cr->pt_lo;
  pb->c_hi = cr->pt_hi;
  int nj = 0;
  for (int i = 0; i < PT_NX; ++i) {
    cr->jr[nj] = i;
    cr->jc[nj++] = PT_WIN[i + 1];
  }
  for (int k = 0; k <= PT_NY; ++k) { /* the copies' rows, then b's */
    const int row = PT_NX + k;
    for (int c = 0; c < PT_NW; ++c) {
      int use = c == row && k < PT_NY;
      for (int i = 0; i < PT_N; ++i)
        use |= PT_WIN[i] == c;
      if (use) {
        cr->jr[nj] = row;
        cr->jc[nj++] = c;
      }
    }
  }
  int nh = 0;
  for (int i = 0; i < PT_N; ++i)
    for (int j = 0; j <= i; ++j) {
      cr->hr[nh] = PT_WIN[i];
      cr->hc[nh++] = PT_WIN[j];
    }
  pb->point.n_out = PT_NX + PT_NY + PT_NC;
  pb->point.jac = (rc_pattern){nj, cr->jr, cr->jc};
  pb->point.hes = (rc_pattern){nh, cr->hr, cr->hc};
  pb->point.eval = pt_point_eval;
  pb->point.jacobian = pt_point_jac;
  pb->point.hessian = pt_point_hes;
  cr->bjc[0] = 2 * PT_NX; /* z = (x(t0), x(tf), tf) */
  pb->boundary.jac = (rc_pattern){1, cr->bjr, cr->bjc};
  pb->ninv = 0;
  pb->inv_names = NULL;
  pb->invariants.n_out = 0;
  pb->invariants.jac.nnz = 0;
  pb->invariants.hes.nnz = 0;
  pb->nout = 4;
  pb->out_names = OUT_NAMES;
  pb->outputs = pt_outputs;
  pb->guess = pt_guess;
  return RC_OK;
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
  static const char *const END_CHOICES[] = {"rest", "flat", "free", NULL};
  static const char *const GUESS_CHOICES[] = {"flat", "rest", NULL};
  static const char *const UREF_CHOICES[] = {"zero", "flat", NULL};
  const char *uref_text =
      pv->text && pv->text[P_UREF] ? pv->text[P_UREF] : "zero";
  const int uref = text_choice(uref_text, UREF_CHOICES);
  if (uref < 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: uref = '%s': expected zero or flat", uref_text);
  const char *end_text = pv->text && pv->text[P_END] ? pv->text[P_END] : "rest";
  const char *guess_text =
      pv->text && pv->text[P_GUESS] ? pv->text[P_GUESS] : "flat";
  const int end = text_choice(end_text, END_CHOICES);
  const int guess = text_choice(guess_text, GUESS_CHOICES);
  if (end < 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: end = '%s': expected rest, flat or free",
                        end_text);
  if (guess < 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: guess = '%s': expected flat or rest",
                        guess_text);
  const int eps_set = pv->is_set && pv->is_set[P_EPS];
  const double eps = eps_set     ? v[P_EPS]
                     : uref == 1 ? CRANE_EPS_FLAT_DEFAULT
                                 : CRANE_EPS_DEFAULT;
  if (!(eps >= 0.0 && isfinite(eps)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: eps = %g: expected a finite value >= 0", eps);
  crane *cr = calloc(1, sizeof *cr);
  if (!cr)
    return rc_error_set(err, RC_ERR_NOMEM, "crane: out of memory");
  cr->par = (rc_crane_params){v[P_M1], v[P_M2], v[P_MG], v[P_J],
                              v[P_C1], v[P_C2], v[P_C3], v[P_G]};
  cr->eps = eps;
  cr->guess_rest = guess == 1;
  cr->uref_flat = uref == 1;
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
  cr->start_x = f0.x;
  cr->start_z = f0.z;
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

  for (int i = 0; i < NWMAX; ++i) {
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

  rowset *rs = &cr->rows, *iv = &cr->inv;
  const int project = formulation == F_REDUCED && v[P_PROJECT] != 0.0;
  for (int k = ROW_F0; k <= ROW_F5; ++k)
    rowset_add(rs, (row_kind)k, project ? k - ROW_F0 : -1, -1);
  rowset_add(rs, ROW_G, -1, -1);
  switch (formulation) {
  case F_FLAT:
    pb->sampled_reference = 1;
    rowset_add(iv, ROW_G, -1, -1);
    rowset_add(iv, ROW_EX, -1, -1);
    rowset_add(iv, ROW_EZ, -1, -1);
    break;
  case F_TRACK: {
    rowset_add(rs, ROW_L, -1, -1);
    pb->has_lagrange = 1;
    pb->t0_algebraic = 0; /* u(t0) would be free: only G(t0) holds it */
    scan_ext ex;
    flat_scan(cr, pb->t0, tf, &ex);
    rc = track_setup(cr, v, end, &ex, err);
    if (rc != RC_OK) {
      crane_destroy(pb);
      return rc;
    }
    if (cr->note[0])
      pb->note = cr->note;
    rowset_add(iv, ROW_G, -1, -1);
    rowset_add(iv, ROW_EX, -1, -1);
    rowset_add(iv, ROW_EZ, -1, -1);
    break;
  }
  case F_SERVO:
    rowset_add(rs, ROW_EX, -1, -1);
    rowset_add(rs, ROW_EZ, -1, -1);
    pb->nc = 2;
    pb->index = 5;
    pb->t0_algebraic = 0; /* x(t0) fixed: c at t0 would repeat it */
    pb->note = SERVO_NOTE;
    rowset_add(iv, ROW_EX, -1, -1);
    rowset_add(iv, ROW_EZ, -1, -1);
    rowset_add(iv, ROW_EVX, -1, -1);
    rowset_add(iv, ROW_EVZ, -1, -1);
    break;
  case F_REDUCED: {
    rowset_add(rs, ROW_G2, -1, -1);
    rowset_add(rs, ROW_G3, -1, -1);
    pb->ny = 3;
    pb->nu = 0;
    static const row_kind hidden[NX] = {ROW_EX,  ROW_EZ, ROW_EVX,
                                        ROW_EVZ, ROW_Q,  ROW_QD};
    if (project) { /* docs/crane-index-reduction.md, "Projection" */
      pb->ny = 3 + NX;
      for (int i = 0; i < NX; ++i)
        rowset_add(rs, hidden[i], -1, i);
    } else {
      pb->note = REDUCED_PLAIN_NOTE;
    }
    for (int i = 0; i < NX; ++i)
      rowset_add(iv, hidden[i], -1, -1);
    break;
  }
  case F_PATHTIME:
  case F_MINTIME: {       /* docs/crane-mintime.md */
    pb->t0_algebraic = 0; /* as track: u(t0) would be tied only by G(t0) */
    rc = mintime_setup(cr, pv, err);
    if (rc != RC_OK) {
      crane_destroy(pb);
      return rc;
    }
    for (int j = 0; j < cr->nstack; ++j)
      rowset_add(rs, ROW_STACK, -1, -1);
    pb->nc = cr->nstack;
    if (v[P_UREG] > 0.0) {
      rowset_add(rs, ROW_REG, -1, -1);
      pb->has_lagrange = 1;
    }
    if (cr->mt_note[0])
      pb->note = cr->mt_note;
    rowset_add(iv, ROW_G, -1, -1);
    break;
  }
  default:
    break;
  }
  static const double zeros[2] = {0.0, 0.0};
  pb->c_lo = zeros;
  pb->c_hi = zeros;
  for (int i = 0; i < iv->n; ++i)
    cr->inv_names[i] = row_name(iv->kind[i]);

  pb->point.n_out = rs->n;
  build_patterns(rs, cr->jr, cr->jc, &pb->point.jac, cr->hr, cr->hc,
                 &pb->point.hes);
  pb->point.eval = point_eval;
  pb->point.jacobian = point_jac;
  pb->point.hessian = point_hes;
  pb->boundary.n_out = 0;

  pb->ninv = iv->n;
  pb->inv_names = cr->inv_names;
  pb->invariants.n_out = iv->n;
  build_patterns(iv, cr->ijr, cr->ijc, &pb->invariants.jac, cr->ihr, cr->ihc,
                 &pb->invariants.hes);
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
  if (formulation == F_MINTIME ||
      formulation == F_PATHTIME) { /* Mayer phi = tf; stacks c <= 0 */
    pb->c_lo = cr->c_lo;
    pb->c_hi = cr->c_hi;
    cr->bjr[0] = 0;
    cr->bjc[0] = 2 * NX; /* z = (x(t0), x(tf), tf) */
    pb->boundary.n_out = 1;
    pb->boundary.jac = (rc_pattern){1, cr->bjr, cr->bjc};
    pb->boundary.hes = (rc_pattern){0, cr->bjr, cr->bjc};
    pb->boundary.eval = mt_bnd_eval;
    pb->boundary.jacobian = mt_bnd_jac;
    pb->boundary.hessian = mt_bnd_hes;
    pb->reference = NULL; /* no independent reference of the optimum */
  }
  if (formulation == F_PATHTIME &&
      (rc = pathtime_finish(cr, pv, err)) != RC_OK) {
    crane_destroy(pb);
    return rc;
  }
  if (cr->path.mode == RC_CRANE_PATH_SMOOTH) {
    rc_crane_overshoot os;
    rc_crane_path_overshoot(&cr->path, &os);
    char prev[sizeof cr->note]; /* the track or servo note, maybe cr->note */
    snprintf(prev, sizeof prev, "%s", pb->note ? pb->note : "");
    snprintf(cr->note, sizeof cr->note,
             "smooth path through %d waypoints (degree-9 spline, at rest at "
             "the first and last): between waypoints it leaves their range "
             "by up to %.3g m in x (t = %.4g s) and %.3g m in z (t = %.4g s)"
             "%s%.1700s",
             cr->path.n, os.dx, os.tx, os.dz, os.tz, prev[0] ? "; " : "", prev);
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
