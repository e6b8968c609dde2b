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
 * Derivatives are hand-coded in the order of the equations with the
 * derivative kit (radcol/kit.h): core_eval computes A, B, Om, G and their
 * partials, and one writer per row states the row's value and its Jacobian
 * and Hessian entries together (the entries written are the pattern, so
 * only entries that are not identically zero are declared); one kit
 * function per block and formulation lists the rows.  The projection terms
 * (+ mu_i, and mu_i at t0) are linear with coefficient 1.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crane_path.h"
#include "radcol/kit.h"
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
  /* reachability of a fixed end state (docs/crane-jobs.md) */
  P_REACHRMAX,
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
    {"reach_rmax", RC_PARAM_REAL, 0.0, NULL,
     "track: the cable length [m] the reachability check of a fixed end "
     "state assumes when rmax is not set (0: 5 times the path's longest "
     "cable; 1e100: in effect no assumption)"},
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

#define MAXSTACK 8 /* mintime: at most 8 stack rows */

/* ---- the problem's own data ---------------------------------------------- */
typedef struct crane {
  rc_kit_blocks kit; /* first: the kit's callbacks find their blocks here */
  rc_problem pb;     /* pb.user = this struct (crane_of) */
  rc_crane_params par;
  rc_crane_path path;
  double eps;                /* control weight */
  double wq, wu1, wu2;       /* objective weights 1/(T Lref^2), eps/(T U^2) */
  double lref, u1ref, u2ref; /* the objective's scales */
  int guess_rest;
  int uref_flat;           /* control term about the flat controls */
  double start_x, start_z; /* path at t0 (rest guess) */
  double w_lo[NWMAX], w_hi[NWMAX];
  double x0[NX], xf[NX];
  int fix_x0[NX], fix_xf[NX];
  double tau0;
  char note[2048];
  char infeasible[768];
  double *mesh_frac; /* suggested mesh breakpoints (owned) */
  /* mintime (docs/crane-mintime.md) */
  int nstack;
  double stack[MAXSTACK][3]; /* X0, X1, ZMIN */
  double stack_ell;          /* rounding length of the stack rows */
  double reg1, reg2, u2hold; /* ureg/U1^2, ureg/U2^2, C3 m g */
  double c_lo[MAXSTACK], c_hi[MAXSTACK];
  char mt_note[512];
  double pt_lo[8], pt_hi[8]; /* pathtime: path-constraint bounds */
} crane;

static const crane *crane_of(const rc_problem *pb) {
  return (const crane *)pb->user;
}

/* ---- the index-1 core ----------------------------------------------------
 * A, B, N, Om = N / r and G of the header, with the partial derivatives the
 * rows write: gradients over w and the second derivatives that are not
 * identically zero (A: (th, th), (th, tau); B is linear; N: the (th, .)
 * column and (vr, om) = -2; Om = N / r adds the (r, .) row; G: the (th, .)
 * column, (r, om) and (om, om)). */
typedef struct core {
  double s, c; /* sin th, cos th */
  double A, A_vd, A_u1, A_tau, A_th, A_thth, A_thtau;
  double B, B_vr, B_u2, B_tau;
  double N, Om;
  double Om_g[NW];  /* dOm/dw */
  double Om_rk[NW]; /* d2Om/dr dw_k, k != r (= -N_k / r^2) */
  double Om_rr, Om_thth, Om_thvd, Om_thtau, Om_thu1, Om_vrom;
  double G, G_r, G_th, G_vd, G_vr, G_om, G_tau, G_u1, G_u2;
  double G_thth, G_thvd, G_thtau, G_thu1, G_rom, G_omom;
} core;

/* sin and cos of th; 1 (recoverable) outside the model's domain r > 0. */
static int core_trig(const double *w, double *s, double *c) {
  if (!(w[IR] > 0.0) || !isfinite(w[IR]) || !isfinite(w[ITH]))
    return 1; /* outside the domain of Om: the solver may step back */
  *s = sin(w[ITH]);
  *c = cos(w[ITH]);
  return 0;
}

static int core_eval(const crane *cr, const double *w, int order, core *K) {
  const rc_crane_params *P = &cr->par;
  const double r = w[IR], vd = w[IVD], vr = w[IVR], om = w[IOM];
  const double tau = w[ITAU], u1 = w[IU1], u2 = w[IU2];
  double s, c;
  if (core_trig(w, &s, &c))
    return 1;
  const double M1 = P->M1, M2 = P->M2, J = P->J, mgM = P->m * P->g / M2;
  K->s = s;
  K->c = c;
  const double A = (-P->C1 * vd + u1 + tau * s) / M1;
  const double B = (-P->C2 * vr - P->C3 * u2 + P->C3 * P->C3 * tau) / J;
  const double N = -mgM * s - A * c - 2.0 * vr * om;
  K->A = A;
  K->B = B;
  K->N = N;
  K->Om = N / r;
  K->G = tau - P->m * P->g * c + M2 * (A * s + B - r * om * om);
  if (order < 1)
    return 0;
  K->A_vd = -P->C1 / M1;
  K->A_u1 = 1.0 / M1;
  K->A_tau = s / M1;
  K->A_th = tau * c / M1;
  K->B_vr = -P->C2 / J;
  K->B_u2 = -P->C3 / J;
  K->B_tau = P->C3 * P->C3 / J;
  /* N = -(m g/M2) s - A c - 2 vr om, then Om = N / r */
  double Ng[NW] = {0};
  Ng[IVD] = -K->A_vd * c;
  Ng[IU1] = -K->A_u1 * c;
  Ng[ITAU] = -K->A_tau * c;
  Ng[ITH] = -mgM * c - K->A_th * c + A * s;
  Ng[IVR] = -2.0 * om;
  Ng[IOM] = -2.0 * vr;
  for (int k = 0; k < NW; ++k)
    K->Om_g[k] = Ng[k] / r;
  K->Om_g[IR] = -N / (r * r);
  /* G = tau - m g c + M2 (A s + B - r om^2) */
  K->G_r = -M2 * om * om;
  K->G_th = M2 * (K->A_th * s) + (P->m * P->g * s + M2 * A * c);
  K->G_vd = M2 * (K->A_vd * s);
  K->G_vr = M2 * K->B_vr;
  K->G_om = -2.0 * M2 * r * om;
  K->G_tau = M2 * (K->A_tau * s + K->B_tau) + 1.0;
  K->G_u1 = M2 * (K->A_u1 * s);
  K->G_u2 = M2 * K->B_u2;
  if (order < 2)
    return 0;
  K->A_thth = -tau * s / M1;
  K->A_thtau = c / M1;
  /* N's Hessian: (th, th), (th, vd), (th, tau), (th, u1), (vr, om) = -2 */
  const double N_thth = mgM * s - K->A_thth * c + 2.0 * K->A_th * s + A * c;
  const double N_thvd = K->A_vd * s, N_thu1 = K->A_u1 * s;
  const double N_thtau = -K->A_thtau * c + K->A_tau * s;
  /* Om = N / r */
  K->Om_thth = N_thth / r;
  K->Om_thvd = N_thvd / r;
  K->Om_thtau = N_thtau / r;
  K->Om_thu1 = N_thu1 / r;
  K->Om_vrom = -2.0 / r;
  for (int k = 0; k < NW; ++k)
    K->Om_rk[k] = -Ng[k] / (r * r);
  K->Om_rr = 2.0 * N / (r * r * r);
  /* G */
  K->G_thth =
      P->m * P->g * c + M2 * (K->A_thth * s + 2.0 * K->A_th * c - A * s);
  K->G_thvd = M2 * (K->A_vd * c);
  K->G_thtau = M2 * (K->A_thtau * s + K->A_tau * c);
  K->G_thu1 = M2 * (K->A_u1 * c);
  K->G_rom = -2.0 * M2 * om;
  K->G_omom = -2.0 * M2 * r;
  return 0;
}

/* ---- rows of the model: f and G -------------------------------------------
 * Each writer states a row's value and its derivative entries together
 * (radcol/kit.h); the entries it writes are the row's pattern. */

/* vd' = A */
static void row_A(rc_kit *k, int i, const core *K) {
  rc_kit_row(k, i, K->A);
  if (rc_kit_order(k) < 1)
    return;
  rc_kit_d(k, ITH, K->A_th);
  rc_kit_d(k, IVD, K->A_vd);
  rc_kit_d(k, ITAU, K->A_tau);
  rc_kit_d(k, IU1, K->A_u1);
  rc_kit_d2(k, ITH, ITH, K->A_thth);
  rc_kit_d2(k, ITAU, ITH, K->A_thtau);
}

/* vr' = B (linear) */
static void row_B(rc_kit *k, int i, const core *K) {
  rc_kit_row(k, i, K->B);
  rc_kit_d(k, IVR, K->B_vr);
  rc_kit_d(k, ITAU, K->B_tau);
  rc_kit_d(k, IU2, K->B_u2);
}

/* om' = Om = N / r */
static void row_Om(rc_kit *k, int i, const core *K) {
  static const int in[] = {IR, ITH, IVD, IVR, IOM, ITAU, IU1};
  rc_kit_row(k, i, K->Om);
  if (rc_kit_order(k) < 1)
    return;
  for (size_t j = 0; j < sizeof in / sizeof *in; ++j)
    rc_kit_d(k, in[j], K->Om_g[in[j]]);
  rc_kit_d2(k, IR, IR, K->Om_rr);
  for (size_t j = 1; j < sizeof in / sizeof *in; ++j)
    rc_kit_d2(k, in[j], IR, K->Om_rk[in[j]]);
  rc_kit_d2(k, ITH, ITH, K->Om_thth);
  rc_kit_d2(k, IVD, ITH, K->Om_thvd);
  rc_kit_d2(k, ITAU, ITH, K->Om_thtau);
  rc_kit_d2(k, IU1, ITH, K->Om_thu1);
  rc_kit_d2(k, IOM, IVR, K->Om_vrom);
}

/* 0 = G = tau - m g c + M2 (A s + B - r om^2) */
static void row_G(rc_kit *k, int i, const core *K) {
  rc_kit_row(k, i, K->G);
  if (rc_kit_order(k) < 1)
    return;
  rc_kit_d(k, IR, K->G_r);
  rc_kit_d(k, ITH, K->G_th);
  rc_kit_d(k, IVD, K->G_vd);
  rc_kit_d(k, IVR, K->G_vr);
  rc_kit_d(k, IOM, K->G_om);
  rc_kit_d(k, ITAU, K->G_tau);
  rc_kit_d(k, IU1, K->G_u1);
  rc_kit_d(k, IU2, K->G_u2);
  rc_kit_d2(k, ITH, ITH, K->G_thth);
  rc_kit_d2(k, IVD, ITH, K->G_thvd);
  rc_kit_d2(k, ITAU, ITH, K->G_thtau);
  rc_kit_d2(k, IU1, ITH, K->G_thu1);
  rc_kit_d2(k, IOM, IR, K->G_rom);
  rc_kit_d2(k, IOM, IOM, K->G_omom);
}

/* Rows 0..6 of every crane formulation: x' = f (rows 0..5) and 0 = G
 * (row 6).  With projection (reduced, project=1) row i gets + mu_i. */
static int rows_model(const crane *cr, const double *w, int project, rc_kit *k,
                      core *K) {
  const int rc = core_eval(cr, w, rc_kit_order(k), K);
  if (rc)
    return rc;
  rc_kit_row(k, 0, w[IVD]);
  rc_kit_d(k, IVD, 1.0);
  rc_kit_row(k, 1, w[IVR]);
  rc_kit_d(k, IVR, 1.0);
  rc_kit_row(k, 2, w[IOM]);
  rc_kit_d(k, IOM, 1.0);
  row_A(k, 3, K);
  row_B(k, 4, K);
  row_Om(k, 5, K);
  if (project)
    for (int i = 0; i < NX; ++i) {
      rc_kit_row(k, i, w[IMU + i]);
      rc_kit_d(k, IMU + i, 1.0);
    }
  row_G(k, 6, K);
  return 0;
}

/* ---- rows along the path --------------------------------------------------
 * Path quantities of the reduced formulation at t, and the tracking errors
 * and P .. U of the header at (t, w). */
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

typedef struct along {
  pathq q;
  double s, c;   /* sin th, cos th */
  double ex, ez; /* x - p1, z - p2 */
  double P, Q, R, S, T, U;
} along;

static void along_at(const crane *cr, double t, const double *w, double s,
                     double c, along *X) {
  path_at(cr, t, &X->q);
  const pathq *q = &X->q;
  X->s = s;
  X->c = c;
  X->ex = w[IR] * s + w[ID] - q->p1[0];
  X->ez = w[IR] * c - q->p2[0];
  X->P = q->a * s + q->b * c;
  X->Q = q->a * c - q->b * s;
  X->R = q->ad * c - q->bd * s;
  X->S = q->ad * s + q->bd * c;
  X->T = q->add * c - q->bdd * s;
  X->U = q->add * s + q->bdd * c;
}

/* The hidden constraints (reduced) and tracking errors, each times sc (the
 * projection writes them with sc = 0 at t0, where mu_i = 0 replaces them). */

/* x - p1 = r s + d - p1 */
static void row_ex(rc_kit *k, int i, double sc, const double *w,
                   const along *X) {
  const double r = w[IR], s = X->s, c = X->c;
  rc_kit_row(k, i, sc * X->ex);
  rc_kit_d(k, ID, sc * 1.0);
  rc_kit_d(k, IR, sc * s);
  rc_kit_d(k, ITH, sc * (r * c));
  rc_kit_d2(k, ITH, IR, sc * c);
  rc_kit_d2(k, ITH, ITH, sc * (-r * s));
}

/* z - p2 = r c - p2 */
static void row_ez(rc_kit *k, int i, double sc, const double *w,
                   const along *X) {
  const double r = w[IR], s = X->s, c = X->c;
  rc_kit_row(k, i, sc * X->ez);
  rc_kit_d(k, IR, sc * c);
  rc_kit_d(k, ITH, sc * (-r * s));
  rc_kit_d2(k, ITH, IR, sc * (-s));
  rc_kit_d2(k, ITH, ITH, sc * (-r * c));
}

/* vx - p1' = vr s + r om c + vd - p1' */
static void row_evx(rc_kit *k, int i, double sc, const double *w,
                    const along *X) {
  const double r = w[IR], vr = w[IVR], om = w[IOM], s = X->s, c = X->c;
  rc_kit_row(k, i, sc * (vr * s + r * om * c + w[IVD] - X->q.p1[1]));
  if (rc_kit_order(k) < 1)
    return;
  rc_kit_d(k, IVR, sc * s);
  rc_kit_d(k, IR, sc * (om * c));
  rc_kit_d(k, IOM, sc * (r * c));
  rc_kit_d(k, ITH, sc * (vr * c - r * om * s));
  rc_kit_d(k, IVD, sc * 1.0);
  rc_kit_d2(k, IVR, ITH, sc * c);
  rc_kit_d2(k, IOM, IR, sc * c);
  rc_kit_d2(k, ITH, IR, sc * (-om * s));
  rc_kit_d2(k, IOM, ITH, sc * (-r * s));
  rc_kit_d2(k, ITH, ITH, sc * (-vr * s - r * om * c));
}

/* vz - p2' = vr c - r om s - p2' */
static void row_evz(rc_kit *k, int i, double sc, const double *w,
                    const along *X) {
  const double r = w[IR], vr = w[IVR], om = w[IOM], s = X->s, c = X->c;
  rc_kit_row(k, i, sc * (vr * c - r * om * s - X->q.p2[1]));
  if (rc_kit_order(k) < 1)
    return;
  rc_kit_d(k, IVR, sc * c);
  rc_kit_d(k, IR, sc * (-om * s));
  rc_kit_d(k, IOM, sc * (-r * s));
  rc_kit_d(k, ITH, sc * (-vr * s - r * om * c));
  rc_kit_d2(k, IVR, ITH, sc * (-s));
  rc_kit_d2(k, IOM, IR, sc * (-s));
  rc_kit_d2(k, ITH, IR, sc * (-om * c));
  rc_kit_d2(k, IOM, ITH, sc * (-r * c));
  rc_kit_d2(k, ITH, ITH, sc * (-vr * c + r * om * s));
}

/* Q = a c - b s */
static void row_q(rc_kit *k, int i, double sc, const along *X) {
  rc_kit_row(k, i, sc * X->Q);
  rc_kit_d(k, ITH, sc * (-X->P));
  rc_kit_d2(k, ITH, ITH, sc * (-X->Q));
}

/* Q' = R - P om */
static void row_qd(rc_kit *k, int i, double sc, const double *w,
                   const along *X) {
  const double om = w[IOM];
  rc_kit_row(k, i, sc * (X->R - X->P * om));
  rc_kit_d(k, ITH, sc * (-X->S - X->Q * om));
  rc_kit_d(k, IOM, sc * (-X->P));
  rc_kit_d2(k, ITH, ITH, sc * (-X->R + X->P * om));
  rc_kit_d2(k, IOM, ITH, sc * (-X->Q));
}

/* The six hidden constraints of reduced in rows i0 .. i0 + 5, times sc. */
static void rows_hidden(rc_kit *k, int i0, double sc, const double *w,
                        const along *X) {
  row_ex(k, i0, sc, w, X);
  row_ez(k, i0 + 1, sc, w, X);
  row_evx(k, i0 + 2, sc, w, X);
  row_evz(k, i0 + 3, sc, w, X);
  row_q(k, i0 + 4, sc, X);
  row_qd(k, i0 + 5, sc, w, X);
}

/* reduced: 0 = G2 = tau - P */
static void row_g2(rc_kit *k, int i, const double *w, const along *X) {
  rc_kit_row(k, i, w[ITAU] - X->P);
  rc_kit_d(k, ITAU, 1.0);
  rc_kit_d(k, ITH, -X->Q);
  rc_kit_d2(k, ITH, ITH, X->P);
}

/* reduced: 0 = G3 = T - 2 S om - Q om^2 - P Om: -P times Om's entries, plus
 * the (th, .) column and (om, om) of the other terms. */
static void row_g3(rc_kit *k, int i, const double *w, const core *K,
                   const along *X) {
  const double om = w[IOM], P = X->P, Q = X->Q, R = X->R, S = X->S;
  rc_kit_row(k, i, X->T - 2.0 * S * om - Q * om * om - P * K->Om);
  if (rc_kit_order(k) < 1)
    return;
  static const int in[] = {IR, ITH, IVD, IVR, IOM, ITAU, IU1};
  for (size_t j = 0; j < sizeof in / sizeof *in; ++j) {
    double v = -P * K->Om_g[in[j]];
    if (in[j] == ITH)
      v += -X->U - 2.0 * R * om + P * om * om - Q * K->Om;
    if (in[j] == IOM)
      v += -2.0 * S - 2.0 * Q * om;
    rc_kit_d(k, in[j], v);
  }
  if (rc_kit_order(k) < 2)
    return;
  const double *g = K->Om_g;
  rc_kit_d2(k, IR, IR, -P * K->Om_rr);
  rc_kit_d2(k, ITH, IR, -P * K->Om_rk[ITH] + -Q * g[IR]);
  for (size_t j = 2; j < sizeof in / sizeof *in; ++j)
    rc_kit_d2(k, in[j], IR, -P * K->Om_rk[in[j]]);
  rc_kit_d2(k, ITH, ITH,
            -P * K->Om_thth + (-2.0 * Q * g[ITH] + P * K->Om - X->T +
                               2.0 * S * om + Q * om * om));
  rc_kit_d2(k, IVD, ITH, -P * K->Om_thvd + -Q * g[IVD]);
  rc_kit_d2(k, IVR, ITH, -Q * g[IVR]);
  rc_kit_d2(k, IOM, ITH, -Q * g[IOM] + (-2.0 * R + 2.0 * P * om));
  rc_kit_d2(k, ITAU, ITH, -P * K->Om_thtau + -Q * g[ITAU]);
  rc_kit_d2(k, IU1, ITH, -P * K->Om_thu1 + -Q * g[IU1]);
  rc_kit_d2(k, IOM, IVR, -P * K->Om_vrom);
  rc_kit_d2(k, IOM, IOM, -2.0 * Q);
}

/* track: L = wq (ex^2 + ez^2) + wu1 du1^2 + wu2 du2^2, du = u - uref */
static int row_track(rc_kit *k, int i, const crane *cr, double t,
                     const double *w, const along *X) {
  const double q = cr->wq, a1 = cr->wu1, a2 = cr->wu2;
  const double r = w[IR], s = X->s, c = X->c, ex = X->ex, ez = X->ez;
  double du1 = w[IU1], du2 = w[IU2];
  if (cr->uref_flat) { /* uref = the flat inverse's controls at t */
    rc_crane_flat f;
    if (rc_crane_flat_eval(&cr->par, &cr->path, t, &f))
      return -1; /* excluded by the flatness check at create */
    du1 -= f.u1;
    du2 -= f.u2;
  }
  rc_kit_row(k, i, q * (ex * ex + ez * ez) + a1 * du1 * du1 + a2 * du2 * du2);
  if (rc_kit_order(k) < 1)
    return 0;
  rc_kit_d(k, ID, 2.0 * q * ex);
  rc_kit_d(k, IR, 2.0 * q * (ex * s + ez * c));
  rc_kit_d(k, ITH, 2.0 * q * r * (ex * c - ez * s));
  rc_kit_d(k, IU1, 2.0 * a1 * du1);
  rc_kit_d(k, IU2, 2.0 * a2 * du2);
  rc_kit_d2(k, ID, ID, 2.0 * q);
  rc_kit_d2(k, IR, ID, 2.0 * q * s);
  rc_kit_d2(k, ITH, ID, 2.0 * q * r * c);
  rc_kit_d2(k, IR, IR, 2.0 * q);
  rc_kit_d2(k, ITH, IR, 2.0 * q * (ex * c - ez * s));
  rc_kit_d2(k, ITH, ITH, 2.0 * q * (r * r - r * (ex * s + ez * c)));
  rc_kit_d2(k, IU1, IU1, 2.0 * a1);
  rc_kit_d2(k, IU2, IU2, 2.0 * a2);
  return 0;
}

/* mintime: stack j, z - ZMIN - (pos(X0 - x)^3 + pos(x - X1)^3) / ell^2 */
static void row_stack(rc_kit *k, int i, const crane *cr, int j, const double *w,
                      const core *K) {
  const double *st = cr->stack[j], il2 = 1.0 / (cr->stack_ell * cr->stack_ell);
  const double r = w[IR], s = K->s, c = K->c;
  const double x = w[ID] + r * s, z = r * c;
  const double a = fmax(0.0, st[0] - x), b = fmax(0.0, x - st[1]);
  const double q0 = (a * a * a + b * b * b) * il2;
  const double q1 = 3.0 * (b * b - a * a) * il2; /* dq/dx */
  const double q2 = 6.0 * (a + b) * il2;         /* d2q/dx2 */
  rc_kit_row(k, i, z - st[2] - q0);
  if (rc_kit_order(k) < 1)
    return;
  /* x_w = (1, s, r c) and z_w = (0, c, -r s) over (d, r, th) */
  const double xd = 1.0, xr = s, xth = r * c;
  rc_kit_d(k, ID, 0.0 - q1 * xd);
  rc_kit_d(k, IR, c - q1 * xr);
  rc_kit_d(k, ITH, -r * s - q1 * xth);
  /* -q2 x_w x_w^T, plus z_ww - q1 x_ww: (r, th) -s - q1 c, (th, th)
   * -r c + q1 r s */
  rc_kit_d2(k, ID, ID, -q2 * xd * xd);
  rc_kit_d2(k, IR, ID, -q2 * xr * xd);
  rc_kit_d2(k, IR, IR, -q2 * xr * xr);
  rc_kit_d2(k, ITH, ID, -q2 * xth * xd);
  rc_kit_d2(k, ITH, IR, -q2 * xth * xr + (-s - q1 * c));
  rc_kit_d2(k, ITH, ITH, -q2 * xth * xth + (-r * c + q1 * r * s));
}

/* mintime: reg1 u1^2 + reg2 (u2 - u2hold)^2 */
static void row_reg(rc_kit *k, int i, const crane *cr, const double *w) {
  const double e2 = w[IU2] - cr->u2hold;
  rc_kit_row(k, i, cr->reg1 * w[IU1] * w[IU1] + cr->reg2 * e2 * e2);
  rc_kit_d(k, IU1, 2.0 * cr->reg1 * w[IU1]);
  rc_kit_d(k, IU2, 2.0 * cr->reg2 * e2);
  rc_kit_d2(k, IU1, IU1, 2.0 * cr->reg1);
  rc_kit_d2(k, IU2, IU2, 2.0 * cr->reg2);
}

/* ---- the blocks of each formulation (the kit's functions) ----------------
 * Point rows: 0..6 the model (rows_model), then
 *   flat     -
 *   track    7: L
 *   servo    7, 8: x - p1, z - p2 (path constraints)
 *   reduced  7: G2, 8: G3; project=1: 9..14 the hidden constraints h_j,
 *            replaced at t0 by mu_j = 0 (both written at every t, the
 *            unused one times 0, so that the pattern is their union)
 *   mintime  7 .. 6 + nstack: the stacks; then the regularisation if ureg > 0
 * Invariants: flat, track G, x - p1, z - p2; servo x - p1, z - p2,
 * vx - p1', vz - p2'; reduced the six hidden constraints; mintime G. */
static const char *const INV_TENSION_PATH[] = {"tension_eq", "x-p1", "z-p2"};
static const char *const INV_SERVO[] = {"x-p1", "z-p2", "vx-p1'", "vz-p2'"};
static const char *const INV_HIDDEN[] = {"x-p1",   "z-p2", "vx-p1'",
                                         "vz-p2'", "Q",    "Q'"};
static const char *const INV_TENSION[] = {"tension_eq"};

static int flat_point(const rc_problem *pb, double t, const double *w,
                      rc_kit *k) {
  (void)t;
  core K;
  return rows_model(crane_of(pb), w, 0, k, &K);
}

static int track_point(const rc_problem *pb, double t, const double *w,
                       rc_kit *k) {
  const crane *cr = crane_of(pb);
  core K;
  const int rc = rows_model(cr, w, 0, k, &K);
  if (rc)
    return rc;
  along X;
  along_at(cr, t, w, K.s, K.c, &X);
  return row_track(k, 7, cr, t, w, &X);
}

static int servo_point(const rc_problem *pb, double t, const double *w,
                       rc_kit *k) {
  const crane *cr = crane_of(pb);
  core K;
  const int rc = rows_model(cr, w, 0, k, &K);
  if (rc)
    return rc;
  along X;
  along_at(cr, t, w, K.s, K.c, &X);
  row_ex(k, 7, 1.0, w, &X);
  row_ez(k, 8, 1.0, w, &X);
  return 0;
}

static int reduced_point(const rc_problem *pb, double t, const double *w,
                         rc_kit *k) {
  const crane *cr = crane_of(pb);
  const int project = pb->ny > 3; /* the multipliers mu follow G, G2, G3 */
  core K;
  const int rc = rows_model(cr, w, project, k, &K);
  if (rc)
    return rc;
  along X;
  along_at(cr, t, w, K.s, K.c, &X);
  row_g2(k, 7, w, &X);
  row_g3(k, 8, w, &K, &X);
  if (project) { /* docs/crane-index-reduction.md, "Projection" */
    const double at_t0 = t == pb->t0 ? 1.0 : 0.0;
    rows_hidden(k, 9, 1.0 - at_t0, w, &X);
    for (int j = 0; j < NX; ++j) {
      rc_kit_row(k, 9 + j, at_t0 * w[IMU + j]);
      rc_kit_d(k, IMU + j, at_t0);
    }
  }
  return 0;
}

static int mintime_point(const rc_problem *pb, double t, const double *w,
                         rc_kit *k) {
  (void)t;
  const crane *cr = crane_of(pb);
  core K;
  const int rc = rows_model(cr, w, 0, k, &K);
  if (rc)
    return rc;
  for (int j = 0; j < cr->nstack; ++j)
    row_stack(k, 7 + j, cr, j, w, &K);
  if (pb->has_lagrange)
    row_reg(k, 7 + cr->nstack, cr, w);
  return 0;
}

/* mintime: B(z) = [phi], phi = tf, z = (x(t0), x(tf), tf) */
static int mintime_boundary(const rc_problem *pb, double t, const double *z,
                            rc_kit *k) {
  (void)t;
  const int itf = 2 * pb->nx + pb->np;
  rc_kit_row(k, 0, z[itf]);
  rc_kit_d(k, itf, 1.0);
  return 0;
}

static int tension_path_inv(const rc_problem *pb, double t, const double *w,
                            rc_kit *k) {
  const crane *cr = crane_of(pb);
  core K;
  const int rc = core_eval(cr, w, rc_kit_order(k), &K);
  if (rc)
    return rc;
  along X;
  along_at(cr, t, w, K.s, K.c, &X);
  row_G(k, 0, &K);
  row_ex(k, 1, 1.0, w, &X);
  row_ez(k, 2, 1.0, w, &X);
  return 0;
}

/* The path quantities at (t, w) without the core (invariants). */
static int along_only(const rc_problem *pb, double t, const double *w,
                      along *X) {
  double s, c;
  if (core_trig(w, &s, &c))
    return 1;
  along_at(crane_of(pb), t, w, s, c, X);
  return 0;
}

static int servo_inv(const rc_problem *pb, double t, const double *w,
                     rc_kit *k) {
  along X;
  if (along_only(pb, t, w, &X))
    return 1;
  row_ex(k, 0, 1.0, w, &X);
  row_ez(k, 1, 1.0, w, &X);
  row_evx(k, 2, 1.0, w, &X);
  row_evz(k, 3, 1.0, w, &X);
  return 0;
}

static int hidden_inv(const rc_problem *pb, double t, const double *w,
                      rc_kit *k) {
  along X;
  if (along_only(pb, t, w, &X))
    return 1;
  rows_hidden(k, 0, 1.0, w, &X);
  return 0;
}

static int tension_inv(const rc_problem *pb, double t, const double *w,
                       rc_kit *k) {
  (void)t;
  core K;
  const int rc = core_eval(crane_of(pb), w, rc_kit_order(k), &K);
  if (rc == 0)
    row_G(k, 0, &K);
  return rc;
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
  rc_kit_release(&cr->kit);
  rc_crane_path_free(&cr->path);
  free(cr->mesh_frac);
  free(cr);
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
  if (!(v[P_REACHRMAX] >= 0.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: reach_rmax = %g: expected a value >= 0 "
                        "(0: automatic)",
                        v[P_REACHRMAX]);
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

/* int_0^T e^{-k(T-s)} min(a s, UT + a (T - s)) ds, exactly up to rounding:
 * the integrand is a line times an exponential on each side of the kink,
 * and 8-point Gauss-Legendre integrates such a piece to a relative error
 * below (k T)^16 / 16! -- a proof must not rest on a quadrature error. */
static double tent_integral(double k, double T, double a, double UT) {
  static const double X[4] = {0.1834346424956498, 0.5255324099163290,
                              0.7966664774136267, 0.9602898564975363};
  static const double W[4] = {0.3626837833783620, 0.3137066278408012,
                              0.2223810344533745, 0.1012285362903763};
  const double kink = fmin(fmax(0.5 * (UT + a * T) / a, 0.0), T);
  const double cut[3] = {0.0, kink, T};
  double sum = 0.0;
  for (int p = 0; p < 2; ++p) {
    /* sub-pieces of k-length <= 1 keep the bound for long horizons */
    const int m = 1 + (int)fmin(k * (cut[p + 1] - cut[p]), 1e4);
    const double len = (cut[p + 1] - cut[p]) / m;
    for (int j = 0; j < m; ++j) {
      const double c = cut[p] + (j + 0.5) * len, h = 0.5 * len;
      for (int q = 0; q < 8; ++q) {
        const double sv = c + (q < 4 ? -h : h) * X[q % 4];
        sum +=
            h * W[q % 4] * exp(-k * (T - sv)) * fmin(a * sv, UT + a * (T - sv));
      }
    }
  }
  return sum;
}

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
  R->hi = tent_integral(k, T, a, R->UT);
  R->lo = -tent_integral(k, T, a, -R->UT);
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

static const char *const END_NAMES[] = {"rest", "flat"};

/* End condition: rest puts the load at the path's end point with
 * theta = 0, so d = p1(tf), r = p2(tf); flat takes the flat inverse's end
 * state (identical for a path that ends at rest); free fixes nothing. */
static void track_fix_end(crane *cr, int end) {
  rc_problem *pb = &cr->pb;
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
}

/* The fixed start and end states against the bounds, and a path whose
 * flat inverse needs tau <= taumin: input errors. */
static rc_err track_check_fixed(const crane *cr, const double *v, int end,
                                const scan_ext *ex, rc_error *err) {
  const rc_problem *pb = &cr->pb;
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
  return RC_OK;
}

/* The note: exact tracking is impossible where the flat inverse leaves a
 * bound (the extreme value and where). */
static void track_note_limits(crane *cr, const double *v, const scan_ext *ex) {
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
}

/* Reachability of a fixed end state with |u1| <= u1max (momentum_reach):
 * proved unreachable, pb->infeasible says why (the solve ends infeasible
 * without running the NLP), under the stated cable-length assumption when
 * rmax is not set; otherwise a note on the sway reaching would need. */
static void track_reachability(crane *cr, const double *v, int end,
                               const scan_ext *ex) {
  rc_problem *pb = &cr->pb;
  if (end != 2 && isfinite(v[P_U1MAX])) {
    reach R;
    momentum_reach(cr, cr->x0, cr->xf, pb->tf - pb->t0, v[P_U1MAX], &R);
    const double M = cr->par.M1 + cr->par.M2;
    /* |x - d| = r |sin theta| <= r sin(min(thetamax, pi/2)); without rmax
     * the check assumes r <= reach_rmax (0: 5 times the path's longest
     * cable) and says so: docs/crane-jobs.md, "An end state the limits
     * cannot reach". */
    const double s_th = v[P_THMAX] < 2.0 * atan(1.0) ? sin(v[P_THMAX]) : 1.0;
    const int assumed = !isfinite(v[P_RMAX]);
    const double r_b = !assumed               ? v[P_RMAX]
                       : v[P_REACHRMAX] > 0.0 ? v[P_REACHRMAX]
                                              : 5.0 * ex->hi[IR];
    const double rho0 = fabs(cr->x0[IR] * sin(cr->x0[ITH]));
    const double sway = R.sway_gain > 0.0 ? R.sway_gain * (r_b * s_th + rho0)
                                          : 0.0; /* C1 = 0 */
    const double tol = 1e-6 * (fabs(R.need) + M);
    const double short_hi = R.need - R.hi, short_lo = R.lo - R.need;
    const double gap = fmax(short_hi, short_lo);
    const double reach_m = (gap == short_hi ? R.hi : R.lo) / M;
    /* the smallest cable length that could close the gap */
    const double r_need =
        R.sway_gain > 0.0 ? ((gap - tol) / R.sway_gain - rho0) / s_th : 0.0;
    if (R.impulse || (isfinite(sway) && gap > tol + sway)) {
      /* the solve ends infeasible without running the NLP */
      if (R.impulse)
        snprintf(cr->infeasible, sizeof cr->infeasible,
                 "the end state (end=%s) is unreachable with |u1| <= u1max "
                 "= %g N: the horizontal momentum balance needs a force "
                 "impulse of %.4g N s, more than u1max T = %.4g N s",
                 END_NAMES[end], v[P_U1MAX], fabs(R.UT),
                 v[P_U1MAX] * (pb->tf - pb->t0));
      else {
        char why[384], th_text[64] = "";
        if (isfinite(v[P_THMAX]))
          snprintf(th_text, sizeof th_text, " and thetamax = %g rad",
                   v[P_THMAX]);
        if (R.sway_gain <= 0.0)
          snprintf(why, sizeof why, "(C1 = 0: the sway cannot help)");
        else if (!assumed)
          snprintf(why, sizeof why,
                   "with the sway allowed by rmax = %g m%s (reaching needs "
                   "r > %.4g m)",
                   v[P_RMAX], th_text, r_need);
        else
          snprintf(why, sizeof why,
                   "unless the cable is paid out beyond r = %.4g m to let "
                   "the load swing that far off the trolley's vertical; "
                   "checked for r <= %.4g m (rmax not set: reach_rmax, "
                   "default 5 times the path's longest cable %.4g m; "
                   "a larger reach_rmax (1e100: none) lets the solver search)",
                   r_need, r_b, ex->hi[IR]);
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
               "x - d changes by %.4g m on average (a cable of at least "
               "%.4g m): reaching the end state needs that much sway",
               cr->note[0] ? "; " : "", v[P_U1MAX], M, reach_m, R.need / M,
               gap / R.sway_gain, r_need);
    }
  }
}

/* Objective scales (docs/crane-jobs.md, "Objective"). */
static void track_objective(crane *cr, const double *v, const scan_ext *ex) {
  rc_problem *pb = &cr->pb;
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
}

/* Limits, checks, end condition, objective scales and the note (track). */
static rc_err track_setup(crane *cr, const double *v, int end,
                          const scan_ext *ex, rc_error *err) {
  limits_as_bounds(cr, v);
  track_fix_end(cr, end);
  const rc_err rc = track_check_fixed(cr, v, end, ex, err);
  if (rc != RC_OK)
    return rc;
  track_note_limits(cr, v, ex);
  track_reachability(cr, v, end, ex);
  track_objective(cr, v, ex);
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

/* ---- mintime: minimum-time rest-to-rest move (docs/crane-mintime.md) ----- */

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

/* The parameters only mintime reads (and the path it refuses). */
static rc_err mt_check_params(const rc_param_values *pv, rc_error *err) {
  const double *v = pv->real;
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
  const int tf_set = pv->is_set && pv->is_set[P_TF];
  if (tf_set && !(v[P_TF] >= v[P_TFLO] && v[P_TF] <= v[P_TFHI]))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: tf = %g (the starting guess of mintime): "
                        "expected tf_lo = %g <= tf <= tf_hi = %g",
                        v[P_TF], v[P_TFLO], v[P_TFHI]);
  return RC_OK;
}

/* The end at rest at (x_end, z_end): d = x_end, r = z_end, the rest 0; the
 * fixed start and the rest state against the limits. */
static rc_err mt_fix_rest_end(crane *cr, const double *v, rc_error *err) {
  rc_problem *pb = &cr->pb;
  const double rest[NX] = {v[P_XE], v[P_ZE], 0.0, 0.0, 0.0, 0.0};
  for (int i = 0; i < NX; ++i) {
    cr->xf[i] = rest[i];
    cr->fix_xf[i] = 1;
  }
  pb->fix_xf = cr->fix_xf;
  pb->xf = cr->xf;
  for (int i = 0; i < NX; ++i) {
    const rc_err rc = check_fixed(cr, v, i, cr->x0[i], pb->t0, "start", err);
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
  return RC_OK;
}

/* The start and end points against the (rounded) stacks; the stack rows'
 * bounds c <= 0. */
static rc_err mt_check_stack_ends(crane *cr, const double *v, rc_error *err) {
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
  return RC_OK;
}

/* The regularisation weights ureg/U1^2, ureg/U2^2 and the holding torque. */
static void mt_reg_weights(crane *cr, const double *v) {
  const double U1 =
      isfinite(v[P_U1MAX]) ? v[P_U1MAX] : (cr->par.M1 + cr->par.M2) * cr->par.g;
  const double U2 = isfinite(v[P_U2MAX])
                        ? v[P_U2MAX]
                        : cr->par.C3 * (cr->par.M1 + cr->par.M2) * cr->par.g;
  cr->reg1 = v[P_UREG] / (U1 * U1);
  cr->reg2 = v[P_UREG] / (U2 * U2);
  cr->u2hold = cr->par.C3 * (cr->par.m * cr->par.g); /* C3 m g */
}

/* The starting tf when `tf` is not set: the shortest T (geometric steps of
 * 5 % from a lower bound) on which the rest-to-rest profile's flat inverse
 * meets every limit, or the one closest to it (*excess > 0: the relative
 * excess); the guess is that flat inverse (guess=flat). */
static double mt_starting_tf(crane *cr, const double *v, double *excess) {
  const double D = fabs(v[P_XE] - v[P_XS]), M = cr->par.M1 + cr->par.M2;
  /* frictionless bang-bang time of the centre of mass: a lower bound */
  double T = isfinite(v[P_U1MAX]) ? 2.0 * sqrt(D * M / v[P_U1MAX]) : 0.0;
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
  *excess = best_ex;
  return best_T;
}

/* Limits, rest end, stacks, objective and the starting tf (mintime). */
static rc_err mintime_setup(crane *cr, const rc_param_values *pv,
                            rc_error *err) {
  rc_problem *pb = &cr->pb;
  const double *v = pv->real;
  const int *is_set = pv->is_set;
  const int tf_set = is_set && is_set[P_TF];
  rc_err rc = mt_check_params(pv, err);
  if (rc == RC_OK)
    rc = mt_parse_stacks(
        cr, pv->text && pv->text[P_STACK] ? pv->text[P_STACK] : "", err);
  if (rc != RC_OK)
    return rc;
  cr->stack_ell = v[P_STACKEDGE];
  limits_as_bounds(cr, v); /* the physical limits, as track */
  rc = mt_fix_rest_end(cr, v, err);
  if (rc == RC_OK)
    rc = mt_check_stack_ends(cr, v, err);
  if (rc != RC_OK)
    return rc;
  mt_reg_weights(cr, v);
  double T = v[P_TF], excess = 0.0;
  if (!tf_set)
    T = mt_starting_tf(cr, v, &excess);
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

/* A second-order jet with its structure: gs bit i when g[i] can be nonzero,
 * bit j of hs[i] when h[i][j] can be (symmetric).  The structure follows
 * from the operations and the problem's data (the path's kind, zero
 * coefficients), never from the point: the kit declares what pathtime_point
 * writes, which is the structure. */
typedef struct jet2 {
  double v, g[PT_N], h[PT_N][PT_N];
  unsigned gs, hs[PT_N];
} jet2;

static jet2 j_var(double v, int i) {
  jet2 r;
  memset(&r, 0, sizeof r);
  r.v = v;
  r.g[i] = 1.0;
  r.gs = 1u << i;
  return r;
}
static jet2 j_const(double v) {
  jet2 r;
  memset(&r, 0, sizeof r);
  r.v = v;
  return r;
}
/* r.hs |= x.gs (x) y.gs, symmetrised */
static void j_outer(jet2 *r, unsigned xs, unsigned ys) {
  for (int i = 0; i < PT_N; ++i) {
    if (xs >> i & 1u)
      r->hs[i] |= ys;
    if (ys >> i & 1u)
      r->hs[i] |= xs;
  }
}
static jet2 j_lin(double a, jet2 x, double b, jet2 y) { /* a x + b y */
  jet2 r;
  r.v = a * x.v + b * y.v;
  const unsigned xm = a != 0.0 ? ~0u : 0u, ym = b != 0.0 ? ~0u : 0u;
  r.gs = (x.gs & xm) | (y.gs & ym);
  for (int i = 0; i < PT_N; ++i) {
    r.g[i] = a * x.g[i] + b * y.g[i];
    r.hs[i] = (x.hs[i] & xm) | (y.hs[i] & ym);
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
  r.gs = x.gs | y.gs;
  for (int i = 0; i < PT_N; ++i) {
    r.g[i] = x.v * y.g[i] + y.v * x.g[i];
    r.hs[i] = x.hs[i] | y.hs[i];
    for (int j = 0; j < PT_N; ++j)
      r.h[i][j] =
          x.v * y.h[i][j] + y.v * x.h[i][j] + x.g[i] * y.g[j] + y.g[i] * x.g[j];
  }
  j_outer(&r, x.gs, y.gs);
  return r;
}
/* f(x) with f' = d1, f'' = d2 at x.v */
static jet2 j_fun(jet2 x, double f, double d1, double d2) {
  jet2 r;
  r.v = f;
  r.gs = x.gs;
  for (int i = 0; i < PT_N; ++i) {
    r.g[i] = d1 * x.g[i];
    r.hs[i] = x.hs[i];
    for (int j = 0; j < PT_N; ++j)
      r.h[i][j] = d1 * x.h[i][j] + d2 * x.g[i] * x.g[j];
  }
  j_outer(&r, x.gs, x.gs);
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

/* The load's derivatives p^(k), k = 0..4, as jets (pk[k][0] x, [1] z).  On
 * the straight line P'' = P''' = ... = 0: p = P0 + D sigma, p^(k) = D s_k,
 * so no structure comes from the curve's terms. */
static void pt_load(const crane *cr, const double *w, jet2 pk[5][2]) {
  const jet2 sg = j_var(w[0], 0), s1 = j_var(w[1], 1), s2 = j_var(w[2], 2),
             s3 = j_var(w[3], 3), s4 = j_var(w[PT_IU], 4);
  double P[7][2];
  pt_curve(cr, w[0], P);
  if (cr->path.mode != RC_CRANE_PATH_CURVE) {
    const jet2 sk[5] = {sg, s1, s2, s3, s4};
    for (int c = 0; c < 2; ++c) {
      pk[0][c] = j_lin(1.0, j_const(cr->x0[4 + c]), P[1][c], sg);
      for (int k = 1; k < 5; ++k)
        pk[k][c] = j_scale(P[1][c], sk[k]);
    }
    return;
  }
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

/* sgn Y's derivatives on the current row: the entries of Y's structure. */
static void pt_derivs(rc_kit *k, double sgn, const jet2 *Y) {
  for (int i = 0; i < PT_N; ++i) {
    if (Y->gs >> i & 1u)
      rc_kit_d(k, PT_WIN[i], sgn * Y->g[i]);
    for (int j = 0; j <= i; ++j)
      if (Y->hs[i] >> j & 1u)
        rc_kit_d2(k, PT_WIN[i], PT_WIN[j], sgn * Y->h[i][j]);
  }
}

/* F = [sigma1, sigma2, sigma3, sigma4 | y - Y(sigma..sigma4) | b]. */
static int pathtime_point(const rc_problem *pb, double t, const double *w,
                          rc_kit *k) {
  (void)t;
  pt_vals o;
  const int rc = pt_eval_all(crane_of(pb), w, &o);
  if (rc)
    return rc;
  for (int i = 0; i < PT_NX; ++i) { /* sigma_i' = sigma_{i+1} */
    rc_kit_row(k, i, w[PT_WIN[i + 1]]);
    rc_kit_d(k, PT_WIN[i + 1], 1.0);
  }
  for (int j = 0; j < PT_NY; ++j) {
    const int row = PT_NX + j; /* the copy y_j is w[row] */
    rc_kit_row(k, row, w[row] - o.y[j].v);
    rc_kit_d(k, row, 1.0);
    pt_derivs(k, -1.0, &o.y[j]);
  }
  rc_kit_row(k, PT_NX + PT_NY, o.b.v);
  pt_derivs(k, 1.0, &o.b);
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

/* pathtime's limits: 0 <= sigma <= 1, sigma' >= 0 (monotone), the copies
 * y = (d, r, theta, vd, vr, omega, tau, u1, u2) within the crane's limits
 * and b >= 1 % of m g (the flat inverse's domain). */
static void pathtime_limits(crane *cr, const double *v) {
  for (int i = 0; i < NWMAX; ++i) {
    cr->w_lo[i] = -HUGE_VAL;
    cr->w_hi[i] = HUGE_VAL;
  }
  cr->w_lo[0] = 0.0;
  cr->w_hi[0] = 1.0;
  cr->w_lo[1] = 0.0;
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
}

/* The curve hangs below the rail and its ends are reachable at rest:
 * rmin <= z <= rmax (and z > 0) at sigma = 0 and 1, z > 0 along the whole
 * curve (scanned at 200 points per segment; the flat inverse needs
 * p2 > 0). */
static rc_err check_curve_depth(const rc_crane_path *curve, const char *file,
                                const double *v, rc_error *err) {
  double P[2][7][2];
  rc_crane_curve_eval(curve, 0.0, P[0]);
  rc_crane_curve_eval(curve, 1.0, P[1]);
  for (int e = 0; e < 2; ++e)
    if (!(P[e][0][1] >= fmax(v[P_RMIN], 1e-9) && P[e][0][1] <= v[P_RMAX]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: curve '%s': the %s point is at depth z = "
                          "%g m, the cable length at rest there: expected "
                          "z > 0 and rmin = %g <= z <= rmax = %g",
                          file, e ? "end" : "start", P[e][0][1], v[P_RMIN],
                          v[P_RMAX]);
  const int nscan = 200 * (curve->n - 1);
  for (int k = 0; k <= nscan; ++k) {
    double Q[7][2];
    const double sg = (double)k / nscan;
    rc_crane_curve_eval(curve, sg, Q);
    if (!(Q[0][1] > 0.0))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: curve '%s' reaches z = %g m at sigma = "
                          "%g (x = %g m), at or above the rail: expected "
                          "z > 0 along the whole interpolated curve",
                          file, Q[0][1], sg, Q[0][0]);
  }
  return RC_OK;
}

/* The curve of file replaces the straight line as the path (cr->path): the
 * straight line's end parameters must not be set, the curve must pass
 * check_curve_depth, and an unset tf starts at the straight line's T scaled
 * like a bang-bang time, sqrt(length / chord). */
static rc_err pathtime_curve(crane *cr, const rc_param_values *pv,
                             const char *file, rc_error *err) {
  static const int ends[4] = {P_XS, P_ZS, P_XE, P_ZE};
  rc_problem *pb = &cr->pb;
  const double *v = pv->real;
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
  if (rc == RC_OK)
    rc = check_curve_depth(&curve, file, v, err);
  if (rc != RC_OK) {
    rc_crane_path_free(&curve);
    return rc;
  }
  const double L = rc_crane_curve_length(&curve);
  const double chord = hypot(v[P_XE] - v[P_XS], v[P_ZE] - v[P_ZS]);
  if (!(pv->is_set && pv->is_set[P_TF]) && chord > 0.0)
    pb->tf = fmin(pb->tf_hi, fmax(pb->tf_lo, pb->tf * sqrt(L / chord)));
  rc_crane_path_free(&cr->path);
  cr->path = curve; /* owned from now on (crane_destroy frees it) */
  return RC_OK;
}

/* pathtime's dimensions, boundary values and kit functions: sigma and its
 * derivatives at rest at both ends; slots 4, 5 carry P0 and D. */
static void pathtime_dims(crane *cr, const double *v, rc_kit_spec *ks) {
  rc_problem *pb = &cr->pb;
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
  pb->ninv = 0;
  pb->inv_names = NULL;
  ks->point = pathtime_point;
  ks->invariants = NULL;
  /* ks->boundary stays mintime_boundary: phi = tf at z[2 nx] */
  pb->nout = 4;
  pb->out_names = OUT_NAMES;
  pb->outputs = pt_outputs;
  pb->guess = pt_guess;
}

/* Turns a mintime problem (limits checked, free tf, starting T set) into
 * pathtime: its dimensions, limits and kit functions, along the straight
 * line or a curve file. */
static rc_err pathtime_finish(crane *cr, const rc_param_values *pv,
                              rc_kit_spec *ks, rc_error *err) {
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
  pathtime_limits(cr, v);
  const char *file = pv->text ? pv->text[P_CURVE] : NULL;
  if (file && *file) {
    rc_err rc = pathtime_curve(cr, pv, file, err);
    if (rc != RC_OK)
      return rc;
  }
  pathtime_dims(cr, v, ks);
  return RC_OK;
}

/* ---- create ----------------------------------------------------------------
 * crane_create checks the parameters, builds the path and the initial state,
 * then the formulation's dimensions, limits and notes, and records its
 * blocks with the kit. */

/* The text parameters end, guess, uref and the control weight eps. */
typedef struct crane_choices {
  int end; /* 0 rest, 1 flat, 2 free */
  int guess_rest, uref_flat;
  double eps;
} crane_choices;

static rc_err parse_choices(const rc_param_values *pv, crane_choices *ch,
                            rc_error *err) {
  static const char *const END_CHOICES[] = {"rest", "flat", "free", NULL};
  static const char *const GUESS_CHOICES[] = {"flat", "rest", NULL};
  static const char *const UREF_CHOICES[] = {"zero", "flat", NULL};
  const double *v = pv->real;
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
  ch->end = end;
  ch->guess_rest = guess == 1;
  ch->uref_flat = uref == 1;
  ch->eps = eps;
  return RC_OK;
}

/* The load path: the waypoint file (path_mode smooth or stop; *tf becomes
 * its last t) or the default step to tf, checked for the flat inverse. */
static rc_err load_path(crane *cr, const rc_param_values *pv, double *tf,
                        rc_error *err) {
  const double *v = pv->real;
  const char *file = pv->text ? pv->text[P_PATH] : NULL;
  const char *mode = pv->text ? pv->text[P_PATHMODE] : NULL;
  int smooth = 1;
  if (mode && *mode && strcmp(mode, "smooth") != 0) {
    if (strcmp(mode, "stop") != 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: path_mode = '%.40s': expected smooth or stop",
                          mode);
    smooth = 0;
  }
  rc_err rc;
  if (file && *file) {
    rc = rc_crane_path_read_csv(&cr->path, file, err);
    if (rc == RC_OK && smooth)
      rc = rc_crane_path_smooth(&cr->path, err);
    if (rc == RC_OK) {
      double tl = cr->path.t[cr->path.n - 1];
      if (pv->is_set && pv->is_set[P_TF] &&
          fabs(tl - *tf) > 1e-12 * fmax(1.0, fabs(*tf)))
        rc = rc_error_set(err, RC_ERR_INPUT,
                          "crane: path file '%s' ends at t = %g but tf = %g "
                          "was set: expected them to agree (leave tf unset "
                          "to take the path's end)",
                          file, tl, *tf);
      *tf = tl;
    }
  } else {
    rc = rc_crane_path_default(&cr->path, *tf, v[P_XS], v[P_ZS], v[P_XE],
                               v[P_ZE], err);
  }
  if (rc == RC_OK)
    rc = rc_crane_path_check_flat(&cr->path, &cr->par, err);
  return rc;
}

/* x(t0) (fixed) from the flat inverse unless set, and tau's guess at t0. */
static rc_err initial_state(crane *cr, const rc_param_values *pv,
                            rc_error *err) {
  static const int init_param[NX] = {P_D0, P_R0, P_TH0, P_VD0, P_VR0, P_OM0};
  const double *v = pv->real;
  rc_crane_flat f0;
  rc_crane_flat_eval(&cr->par, &cr->path, 0.0, &f0);
  cr->start_x = f0.x;
  cr->start_z = f0.z;
  double w0[NW];
  flat_to_w(&f0, w0);
  for (int i = 0; i < NX; ++i) {
    int set = pv->is_set && pv->is_set[init_param[i]];
    cr->x0[i] = set ? v[init_param[i]] : w0[i];
    cr->fix_x0[i] = 1;
    if (!isfinite(cr->x0[i]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: %s = %g: expected a finite initial value",
                          crane_params[init_param[i]].name, cr->x0[i]);
  }
  if (!(cr->x0[IR] > 0.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: r0 = %g: expected a cable length > 0",
                        cr->x0[IR]);
  cr->tau0 = (pv->is_set && pv->is_set[P_TAU0] && isfinite(v[P_TAU0]))
                 ? v[P_TAU0]
                 : w0[ITAU];
  return RC_OK;
}

/* What every formulation shares: the index-1 model's dimensions, no
 * simple bounds, x(t0) fixed, the outputs, guess and reference. */
static void problem_common(crane *cr, const rc_model *model, int formulation,
                           double tf) {
  for (int i = 0; i < NWMAX; ++i) {
    cr->w_lo[i] = -HUGE_VAL;
    cr->w_hi[i] = HUGE_VAL;
  }
  static const double zeros[2] = {0.0, 0.0};
  rc_problem *pb = &cr->pb;
  pb->model = model->name;
  pb->formulation = crane_formulations[formulation].name;
  pb->summary = crane_formulations[formulation].summary;
  pb->nx = NX;
  pb->ny = 1;
  pb->nu = 2;
  pb->var_names = VAR_NAMES;
  pb->w_lo = cr->w_lo;
  pb->w_hi = cr->w_hi;
  pb->c_lo = zeros;
  pb->c_hi = zeros;
  pb->t0 = 0.0;
  pb->tf = tf;
  pb->fix_x0 = cr->fix_x0;
  pb->x0 = cr->x0;
  pb->t0_algebraic = 1;
  pb->index = 1;
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
}

static void set_invariants(rc_problem *pb, const char *const *names, int n) {
  pb->ninv = n;
  pb->inv_names = names;
}

/* The formulation's dimensions, limits, notes and kit functions. */
static rc_err formulation_setup(crane *cr, int formulation,
                                const rc_param_values *pv, int end,
                                rc_kit_spec *ks, rc_error *err) {
  rc_problem *pb = &cr->pb;
  const double *v = pv->real;
  switch (formulation) {
  case F_FLAT:
    pb->sampled_reference = 1;
    set_invariants(pb, INV_TENSION_PATH, 3);
    ks->point = flat_point;
    ks->invariants = tension_path_inv;
    return RC_OK;
  case F_TRACK: {
    pb->has_lagrange = 1;
    pb->t0_algebraic = 0; /* u(t0) would be free: only G(t0) holds it */
    scan_ext ex;
    flat_scan(cr, pb->t0, pb->tf, &ex);
    const rc_err rc = track_setup(cr, v, end, &ex, err);
    if (rc != RC_OK)
      return rc;
    if (cr->note[0])
      pb->note = cr->note;
    set_invariants(pb, INV_TENSION_PATH, 3);
    ks->point = track_point;
    ks->invariants = tension_path_inv;
    return RC_OK;
  }
  case F_SERVO:
    pb->nc = 2;
    pb->index = 5;
    pb->t0_algebraic = 0; /* x(t0) fixed: c at t0 would repeat it */
    pb->note = SERVO_NOTE;
    set_invariants(pb, INV_SERVO, 4);
    ks->point = servo_point;
    ks->invariants = servo_inv;
    return RC_OK;
  case F_REDUCED:
    pb->ny = 3;
    pb->nu = 0;
    if (v[P_PROJECT] != 0.0) /* docs/crane-index-reduction.md, "Projection" */
      pb->ny = 3 + NX;
    else
      pb->note = REDUCED_PLAIN_NOTE;
    set_invariants(pb, INV_HIDDEN, NX);
    ks->point = reduced_point;
    ks->invariants = hidden_inv;
    return RC_OK;
  case F_PATHTIME:
  case F_MINTIME: {       /* docs/crane-mintime.md */
    pb->t0_algebraic = 0; /* as track: u(t0) would be tied only by G(t0) */
    const rc_err rc = mintime_setup(cr, pv, err);
    if (rc != RC_OK)
      return rc;
    pb->nc = cr->nstack; /* stacks c <= 0 */
    pb->c_lo = cr->c_lo;
    pb->c_hi = cr->c_hi;
    pb->has_lagrange = v[P_UREG] > 0.0;
    if (cr->mt_note[0])
      pb->note = cr->mt_note;
    pb->reference = NULL; /* no independent reference of the optimum */
    set_invariants(pb, INV_TENSION, 1);
    ks->point = mintime_point;
    ks->boundary = mintime_boundary; /* Mayer phi = tf */
    ks->invariants = tension_inv;
    return RC_OK;
  }
  default:
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: formulation %d: expected "
                        "0..%d",
                        formulation, NFORM - 1);
  }
}

/* A smooth waypoint path: its overshoot between waypoints, before the
 * formulation's note. */
static void smooth_path_note(crane *cr) {
  rc_problem *pb = &cr->pb;
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

/* The problem of formulation on cr (path and initial state set). */
static rc_err crane_build(crane *cr, const rc_model *model, int formulation,
                          const rc_param_values *pv, int end, double tf,
                          rc_error *err) {
  rc_problem *pb = &cr->pb;
  problem_common(cr, model, formulation, tf);
  rc_kit_spec ks = {0};
  rc_err rc = formulation_setup(cr, formulation, pv, end, &ks, err);
  if (rc != RC_OK)
    return rc;
  if (formulation == F_PATHTIME &&
      (rc = pathtime_finish(cr, pv, &ks, err)) != RC_OK)
    return rc;
  /* record the blocks at the guess at t0 (inside every domain) */
  double w_rec[NWMAX];
  if (pb->guess(pb, pb->t0, w_rec) != 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane/%s: the guess at t0 = %g is outside the "
                        "model's domain: expected a start the flat inverse "
                        "reaches",
                        pb->formulation, pb->t0);
  ks.w_record = w_rec;
  rc = rc_kit_attach(pb, &cr->kit, &ks, err);
  if (rc != RC_OK)
    return rc;
  if (cr->path.mode == RC_CRANE_PATH_SMOOTH)
    smooth_path_note(cr);
  const char *file = pv->text ? pv->text[P_PATH] : NULL;
  if (file && *file) {
    rc = crane_default_mesh(cr, err);
    if (rc != RC_OK)
      return rc;
  }
  return rc_problem_validate(pb, err);
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
  crane_choices ch = {0};
  rc_err rc = check_params(v, err);
  if (rc == RC_OK)
    rc = parse_choices(pv, &ch, err);
  if (rc != RC_OK)
    return rc;
  crane *cr = calloc(1, sizeof *cr);
  if (!cr)
    return rc_error_set(err, RC_ERR_NOMEM, "crane: out of memory");
  cr->pb.user = cr; /* from here on crane_destroy frees everything */
  cr->par = (rc_crane_params){v[P_M1], v[P_M2], v[P_MG], v[P_J],
                              v[P_C1], v[P_C2], v[P_C3], v[P_G]};
  cr->eps = ch.eps;
  cr->guess_rest = ch.guess_rest;
  cr->uref_flat = ch.uref_flat;
  double tf = v[P_TF];
  rc = load_path(cr, pv, &tf, err);
  if (rc == RC_OK)
    rc = initial_state(cr, pv, err);
  if (rc == RC_OK)
    rc = crane_build(cr, model, formulation, pv, ch.end, tf, err);
  if (rc != RC_OK) {
    crane_destroy(&cr->pb);
    return rc;
  }
  *out = &cr->pb;
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
    NULL, /* create_phases */
};
