/*
 * crane/crane.h - what the files of the crane problem share (private to
 * problems/crane/): the point-vector layout, the parameters, the problem's
 * data, the index-1 core and the quantities along the path, and the
 * functions one file offers the others.
 *
 * The problem (SPEC 4.3, seeds/002): a planar crane with winch whose load
 * follows a prescribed path, in six formulations, each its own rc_problem,
 * and a seventh of two of them (cycle):
 *   flat      the exact flat inverse sampled on the mesh (no NLP)
 *   track     tracking OCP on the index-1 model, with the physical limits
 *   servo     index-1 model + path constraints (index 5 transcribed)
 *   reduced   the index reduction completed (u1, u2 algebraic), projected
 *   mintime   minimum-time rest-to-rest move, free tf, stacks
 *   pathtime  minimum time along a line or curve, sigma'''' control
 *   cycle     the work cycle: loaded and empty mintime phases (multiphase)
 * Files:
 *   model.c     the index-1 model: A, B, Om, G, their rows, outputs,
 *               reference by flatness, guess
 *   along.c     the quantities and rows along the path (tracking errors,
 *               hidden constraints), the invariants of flat and track
 *   limits.c    the physical limits and the flat inverse's extremes
 *   track.c     track and its checks: end conditions, reachability proof
 *   reduced.c   flat, servo and reduced
 *   mintime.c   mintime: stacks, rest end, starting tf, Mayer phi = tf
 *   pathtime.c  pathtime: the flat inverse in sigma as jets, curves
 *   mesh.c      the default mesh of a waypoint path
 *   cycle.c     cycle: the two phases (rc_model.create_phases)
 *   create.c    parameters, formulations, create (rc_model_crane)
 *   path.h      the load path and the flat inverse (path.c, path_spline.c,
 *               path_csv.c), also used by the tests
 *
 * Point rows of every formulation but pathtime: 0..6 the model
 * (rc_crane_rows_model), then
 *   flat     -
 *   track    7: L
 *   servo    7, 8: x - p1, z - p2 (path constraints)
 *   reduced  7: G2, 8: G3; project=1: 9..14 the hidden constraints h_j,
 *            replaced at t0 by mu_j = 0 (both written at every t, the
 *            unused one times 0, so that the pattern is their union)
 *   mintime  7 .. 6 + nstack: the stacks; then the regularisation if ureg > 0
 * Invariants: flat, track G, x - p1, z - p2; servo x - p1, z - p2,
 * vx - p1', vz - p2'; reduced the six hidden constraints; mintime G.
 */
#ifndef RADCOL_PROBLEMS_CRANE_CRANE_H
#define RADCOL_PROBLEMS_CRANE_CRANE_H

#include <stddef.h>

#include "origin.h"
#include "path.h"
#include "radcol/kit.h"
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
  P_CURVE,    /* pathtime along a CSV curve */
  P_SPREADER, /* cycle (cycle.c): the load mass per phase */
  P_CONTAINER,
  P_STACKEMPTY,
  NPARAM
};

enum {
  F_FLAT = 0,
  F_TRACK,
  F_SERVO,
  F_REDUCED,
  F_MINTIME,
  F_PATHTIME,
  F_CYCLE, /* multiphase: built by rc_crane_create_phases (cycle.c) */
  NFORM
};

#define MAXSTACK 8 /* mintime: at most 8 stack rows */

/* ---- the problem's own data ------------------------------------------------
 * One struct per formulation, each extending the common model by holding it
 * as its first member: pb.user points to the common model, which is also
 * the formulation's struct (C11 6.7.2.1: a pointer to a struct, suitably
 * converted, points to its first member and back).  flat, servo and reduced
 * need nothing of their own and use crane_model as it is. */

/* What every formulation has: parameters, path, bounds, fixed states. */
typedef struct crane_model {
  rc_kit_blocks kit; /* first: the kit's callbacks find their blocks here */
  rc_problem pb;     /* pb.user = this struct (crane_of) */
  rc_crane_params par;
  rc_crane_path path;
  int guess_rest;          /* guess=rest: at rest under the start point */
  double start_x, start_z; /* path at t0 (rest guess) */
  double w_lo[NWMAX], w_hi[NWMAX];
  double x0[NX], xf[NX];
  int fix_x0[NX], fix_xf[NX];
  double tau0;
  char note[2048];        /* track's checks, a smooth path's overshoot */
  double *mesh_frac;      /* suggested mesh breakpoints (owned) */
  rc_model_origin origin; /* for restart (problems/origin.h) */
} crane_model;

/* track (track.c): the objective's weights and scales, the proof text. */
typedef struct crane_track {
  crane_model base;
  double eps;                /* control weight */
  double wq, wu1, wu2;       /* objective weights 1/(T Lref^2), eps/(T U^2) */
  double lref, u1ref, u2ref; /* the objective's scales */
  int uref_flat;             /* control term about the flat controls */
  char infeasible[768];      /* an end state proved unreachable: why */
} crane_track;

/* mintime (mintime.c, docs/crane-mintime.md): stacks, regularisation. */
typedef struct crane_mintime {
  crane_model base;
  int nstack;
  double stack[MAXSTACK][3]; /* X0, X1, ZMIN */
  double stack_ell;          /* rounding length of the stack rows */
  double reg1, reg2, u2hold; /* ureg/U1^2, ureg/U2^2, C3 m g */
  double c_lo[MAXSTACK], c_hi[MAXSTACK];
  char tf_note[512]; /* the starting tf, or no u1max */
} crane_mintime;

/* pathtime (pathtime.c): set up as mintime, then its own dimensions. */
typedef struct crane_pathtime {
  crane_mintime mt;
  double p0[2], dp[2];     /* the straight line: P0 and D = P1 - P0 */
  double c_lo[1], c_hi[1]; /* the path constraint b >= 1 % m g */
} crane_pathtime;

_Static_assert(offsetof(crane_track, base) == 0, "crane_track: base first");
_Static_assert(offsetof(crane_mintime, base) == 0, "crane_mintime: base first");
_Static_assert(offsetof(crane_pathtime, mt) == 0, "crane_pathtime: mt first");

/* The formulation's data from its problem (callbacks) or from the common
 * model (setup): the same address, seen as the formulation's struct. */
static inline const crane_model *crane_of(const rc_problem *pb) {
  return (const crane_model *)pb->user;
}
static inline const crane_track *crane_track_of(const rc_problem *pb) {
  return (const crane_track *)pb->user;
}
static inline const crane_mintime *crane_mintime_of(const rc_problem *pb) {
  return (const crane_mintime *)pb->user;
}
static inline const crane_pathtime *crane_pathtime_of(const rc_problem *pb) {
  return (const crane_pathtime *)pb->user;
}
static inline crane_track *crane_as_track(crane_model *cm) {
  return (crane_track *)cm;
}
static inline crane_mintime *crane_as_mintime(crane_model *cm) {
  return (crane_mintime *)cm;
}
static inline crane_pathtime *crane_as_pathtime(crane_model *cm) {
  return (crane_pathtime *)cm;
}

/* ---- the index-1 core ----------------------------------------------------
 * A, B, N, Om = N / r and G of model.c, with the partial derivatives the
 * rows write: gradients over w and the second derivatives that are not
 * identically zero (A: (th, th), (th, tau); B is linear; N: the (th, .)
 * column and (vr, om) = -2; Om = N / r adds the (r, .) row; G: the (th, .)
 * column, (r, om) and (om, om)). */
typedef struct crane_core {
  double s, c; /* sin th, cos th */
  double A, A_vd, A_u1, A_tau, A_th, A_thth, A_thtau;
  double B, B_vr, B_u2, B_tau;
  double N, Om;
  double Om_g[NW];  /* dOm/dw */
  double Om_rk[NW]; /* d2Om/dr dw_k, k != r (= -N_k / r^2) */
  double Om_rr, Om_thth, Om_thvd, Om_thtau, Om_thu1, Om_vrom;
  double G, G_r, G_th, G_vd, G_vr, G_om, G_tau, G_u1, G_u2;
  double G_thth, G_thvd, G_thtau, G_thu1, G_rom, G_omom;
} crane_core;

/* ---- rows along the path --------------------------------------------------
 * Path quantities of the reduced formulation at t, and the tracking errors
 * and P .. U of along.c at (t, w). */
typedef struct crane_pathq {
  double p1[5], p2[5];
  double a, ad, add, b, bd, bdd;
} crane_pathq;

typedef struct crane_along {
  crane_pathq q;
  double s, c;   /* sin th, cos th */
  double ex, ez; /* x - p1, z - p2 */
  double P, Q, R, S, T, U;
} crane_along;

/* The text parameters end, guess, uref and the control weight eps, parsed
 * by create.c: guess for every formulation, the others for track. */
typedef struct crane_choices {
  int end; /* 0 rest, 1 flat, 2 free */
  int guess_rest, uref_flat;
  double eps;
} crane_choices;

/* A formulation's kit functions for the point and invariant blocks, and
 * the names of its ninv invariants. */
static inline void crane_blocks(rc_problem *pb, rc_kit_spec *ks,
                                rc_kit_fn point, rc_kit_fn invariants,
                                const char *const *names, int ninv) {
  ks->point = point;
  ks->invariants = invariants;
  pb->ninv = ninv;
  pb->inv_names = names;
}

/* A formulation's dimensions and variable names. */
static inline void crane_dims(rc_problem *pb, int nx, int ny, int nu,
                              const char *const *var_names) {
  pb->nx = nx;
  pb->ny = ny;
  pb->nu = nu;
  pb->var_names = var_names;
}

/* ---- each formulation family: its dimensions, limits, notes and kit
 * functions on a problem that has the path, x(t0) and the shared fields
 * (create.c); RC_OK or the input error. */
typedef rc_err crane_setup_fn(crane_model *cm, const rc_param_values *pv,
                              const crane_choices *ch, rc_kit_spec *ks,
                              rc_error *err);
crane_setup_fn rc_crane_flat_setup, rc_crane_track_setup, rc_crane_servo_setup,
    rc_crane_reduced_setup, rc_crane_mintime_setup, rc_crane_pathtime_setup;

/* ---- create.c: the parameters ----------------------------------------------
 */
extern const rc_param_def rc_crane_param_defs[NPARAM];

/* The CSV of file parameter index (P_PATH, P_CURVE: RC_PARAM_FILE) read into
 * *path: the bytes a result file stored with it, else the named file, a
 * regular file only (rc_param_open_file: a FIFO is refused without
 * blocking). */
rc_err rc_crane_read_path_param(const rc_param_values *pv, int index,
                                rc_crane_path *path, rc_error *err);

/* ---- limits.c: the physical limits and the flat inverse's extremes ------ */
#define NSCAN (NW + 2) /* w, then the load position x, z */
/* The flat inverse's largest and smallest values of each of d .. u2, x, z
 * on the horizon, and where they are attained. */
typedef struct crane_scan {
  double hi[NSCAN], t_hi[NSCAN], lo[NSCAN], t_lo[NSCAN];
} crane_scan;
/* One limit: the variable it bounds and the parameters that bound it. */
typedef struct crane_limit {
  int var;      /* point-vector index */
  int plo, phi; /* parameter of the lower / upper bound (-1: symmetric) */
  int psym;     /* parameter of |w| <= value, or -1 */
  const char *unit;
} crane_limit;
#define CRANE_NLIMITS 7
extern const crane_limit rc_crane_limits[CRANE_NLIMITS];
/* Scans and polishes the extremes of the flat inverse of cm->path on
 * [t0, tf]. */
void rc_crane_flat_scan(const crane_model *cm, double t0, double tf,
                        crane_scan *e);
/* A fixed state value (which: "start", "end (...)") at t against the bounds
 * of its variable var: RC_ERR_INPUT naming the parameter. */
rc_err rc_crane_check_fixed(const crane_model *cm, const double *v, int var,
                            double value, double t, const char *which,
                            rc_error *err);
/* The limits of the parameter values v as simple bounds lo <= w <= hi on
 * d .. u2 (the point-vector layout; other entries are left as they are). */
void rc_crane_limits_as_bounds(const double *v, double *lo, double *hi);

/* ---- mesh.c: the default mesh of a waypoint path ------------------------ */
/* Sets pb->default_mesh_n, _frac (owned by cm) from the waypoints and the
 * flat inverse's interpolation error; RC_ERR_NOMEM or the check's error. */
rc_err rc_crane_default_mesh(crane_model *cm, rc_error *err);

/* rc_model.create_phases (cycle.c): formulation cycle as its two phases,
 * NULL for the others. */
struct rc_phases;
rc_err rc_crane_create_phases(const rc_model *model, int formulation,
                              const rc_param_values *pv, struct rc_phases **out,
                              rc_error *err);

/* ---- model.c: the index-1 model ------------------------------------------ */
extern const char *const rc_crane_var_names[NWMAX]; /* d .. u2, mu_d .. */
extern const char *const rc_crane_out_names[4];     /* x, z, vx, vz */
/* sin and cos of th; 1 (recoverable) outside the model's domain r > 0. */
int rc_crane_core_trig(const double *w, double *s, double *c);
/* A, B, Om, G at w and, to order 1 or 2, their partials; 1 outside the
 * domain. */
int rc_crane_core_eval(const crane_model *cm, const double *w, int order,
                       crane_core *K);
/* The row 0 = G in row i. */
void rc_crane_row_G(rc_kit *k, int i, const crane_core *K);
/* Rows 0..6: x' = f and 0 = G (+ mu_i in row i with project), K filled. */
int rc_crane_rows_model(const crane_model *cm, const double *w, int project,
                        rc_kit *k, crane_core *K);
/* The flat inverse's (d .. u2) in the point-vector layout. */
void rc_crane_flat_to_w(const rc_crane_flat *f, double *w);
/* The rc_problem callbacks every formulation but pathtime uses. */
int rc_crane_outputs(const rc_problem *pb, double t, const double *w,
                     double *out);
int rc_crane_reference(const rc_problem *pb, int nt, const double *t,
                       double *ref);
int rc_crane_guess(const rc_problem *pb, double t, double *w);
void rc_crane_destroy(rc_problem *pb);

/* ---- along.c: the rows along the path ------------------------------------ */
/* The path quantities and P .. U at (t, w), given s = sin th, c = cos th. */
void rc_crane_along_at(const crane_model *cm, double t, const double *w,
                       double s, double c, crane_along *X);
/* rc_crane_rows_model, then the path quantities X at (t, w). */
int rc_crane_rows_along(const crane_model *cm, double t, const double *w,
                        int project, rc_kit *k, crane_core *K, crane_along *X);
/* The first n (<= 6) of the rows along the path, x - p1, z - p2,
 * vx - p1', vz - p2', Q, Q' (the hidden constraints of reduced), in rows
 * i0 .. i0 + n - 1, each times sc. */
void rc_crane_rows_path(rc_kit *k, int i0, int n, double sc, const double *w,
                        const crane_along *X);
/* The invariants of flat and track: G, x - p1, z - p2. */
extern const char *const rc_crane_inv_tension_path[3];
int rc_crane_tension_path_inv(const rc_problem *pb, double t, const double *w,
                              rc_kit *k);

#endif
