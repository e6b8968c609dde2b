/*
 * radcol/init.h - consistent initial conditions (SPEC section 5).
 *
 * Over the whole initial point z = w(t0) = (x, y, u, p) (nw values) solve
 *
 *     min  sum_i wt_i (z_i - zhat_i)^2          over the free z_i
 *     s.t. h_k(t0, z) = 0    k = 1..ninv        every hidden-constraint level
 *          g_j(t0, z) = 0    j = 1..ny          the formulation's algebraic
 * rows z_i = v_i         for the fixed i    the user's requests w_lo <= z <=
 * w_hi (free entries)
 *
 * with zhat the guess (rc_init_default_guess: x0 for x, guess(t0) for y, u
 * and p, else zeros; then the user's values) and weights
 * wt_i = 1/(1 + |zhat_i|)^2 (relative distance, the default) or 1.
 * A simple bound that the guess itself violates is released (the user asked
 * for a point on the other side, e.g. the other branch of pendulum/coord);
 * the report lists it.
 *
 * Redundant rows (e.g. accel's g = h3, or rows that involve only fixed
 * values) are not handed to Ipopt: rows are selected greedily in the order
 * h_1..h_ninv, g_1..g_ny by Gram-Schmidt on their gradients with respect to
 * the free entries at the guess; every row, kept or not, is checked at the
 * end.  The point is consistent when every |residual| <= feas_tol.
 *
 * When it is not, each fixed value is released in turn and the problem
 * solved again: the values whose release alone makes the request consistent
 * are the conflicting ones (rep->conflict), and rep->message names the
 * violated rows and those values.
 */
#ifndef RADCOL_INIT_H
#define RADCOL_INIT_H

#include <stddef.h>

#include "radcol/errors.h"
#include "radcol/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum rc_init_weights {
  RC_INIT_WEIGHTS_RELATIVE = 0, /* wt_i = 1/(1 + |zhat_i|)^2 */
  RC_INIT_WEIGHTS_UNIT = 1      /* wt_i = 1 */
} rc_init_weights;

typedef struct rc_init_options {
  rc_init_weights weights; /* default RC_INIT_WEIGHTS_RELATIVE */
  double tol;              /* Ipopt tol; default 1e-12 */
  double feas_tol;         /* max |residual| of a consistent point; 1e-8 */
  double move_tol;         /* moved: |z - zhat| > move_tol (1 + |zhat|); 1e-9 */
  int max_iter;            /* Ipopt iterations; default 500 */
  int find_conflicts;      /* release fixed values in turn when inconsistent;
                              default 1 */
  const double *x0;        /* NULL: the problem's start; else nx values:
                              rc_make_consistent starts from them (the problem
                              restarted there, radcol/start.h).  Borrowed. */
} rc_init_options;

void rc_init_options_default(rc_init_options *opt);

/* Everything init found.  Arrays owned (rc_init_report_free). */
typedef struct rc_init_report {
  int nw;           /* point entries */
  int ncon;         /* ninv + ny rows: invariants first, then g */
  double *z;        /* nw: the solution (the best point when inconsistent) */
  double *zhat;     /* nw: the guess */
  int *fixed;       /* nw: 1 when fixed */
  int *moved;       /* nw: 1 when free and |z - zhat| > move_tol (1+|zhat|) */
  int *released;    /* nw: 1 when a simple bound was released for the guess */
  double *residual; /* ncon: h_k, then g_j at z */
  int *kept;        /* ncon: 1 when handed to Ipopt (else redundant) */
  char (*con_names)[32]; /* ncon: inv_names, then "g1".. (algebraic rows) */
  double max_residual;
  int consistent;   /* every |residual| <= feas_tol */
  rc_status status; /* Ipopt's outcome (RC_STATUS_NOT_RUN: nothing free;
                       RC_STATUS_CONVERGED, 0 iterations: the start was
                       already consistent, no NLP solved) */
  int iterations;
  double objective; /* sum wt_i (z_i - zhat_i)^2 */
  int nconflict;
  int *conflict; /* nconflict entries: indices of conflicting fixed values */
  char
      message[RC_MESSAGE_MAX]; /* when inconsistent: violated rows, conflicts */
} rc_init_report;

void rc_init_report_free(rc_init_report *rep);

/* Index of the point entry called name (var_names), or -1. */
int rc_init_var_index(const rc_problem *pb, const char *name);

/* The default guess zhat (nw values): x0 for x (zeros if NULL), the problem's
 * guess at t0 for y, u, p (zeros without a guess function). */
rc_err rc_init_default_guess(const rc_problem *pb, double *zhat, rc_error *err);

/* Solve the init NLP.  zhat: nw guess values; fixed (nw flags, or NULL) and
 * fix_value (nw, read where fixed).  RC_OK means the NLP was set up and run:
 * rep->consistent says whether a consistent point was found (rep->message
 * says why not).  Other codes: bad input (NULL, non-finite), no memory, a
 * problem callback failing at the guess, Ipopt refusing. */
rc_err rc_init_solve(const rc_problem *pb, const rc_init_options *opt,
                     const double *zhat, const int *fixed,
                     const double *fix_value, rc_init_report *rep,
                     rc_error *err);

/* For `solve`: are the problem's initial values consistent?  Fixes the
 * entries of x0 that pb->fix_x0 fixes, guesses the rest by default; when that
 * is inconsistent, solves again with nothing fixed (the nearest consistent
 * point to the same guess).  x0_out (nx) receives the x-part of the
 * consistent point (x0 itself when already consistent); *changed is 1 when
 * some fixed x0 entry moves by more than 1e-10 (1 + |x0_i|).  rep (may be
 * NULL) receives the report of the last solve. */
rc_err rc_make_consistent(const rc_problem *pb, const rc_init_options *opt,
                          double *x0_out, int *changed, rc_init_report *rep,
                          rc_error *err);

/* ---- consistent initial data for a solve (as IDACalcIC beside IDASolve) --
 *
 * rc_init_check_start states the facts; rc_problem_restart (radcol/start.h)
 * starts the problem from the consistent point st->x0; the caller words the
 * facts (the library prints nothing).  Together they are what `radcol
 * solve` does before solving.  The restart lets the model derive what it
 * derived from its initial values at create (its reference, its guess) from
 * the consistent point too - an x0 swapped under a finished problem would
 * leave the reference starting elsewhere. */
typedef struct rc_init_start {
  int checked;     /* 1: the check ran (0: nothing to check - no fixed x0
                      entry, or a sampled-reference formulation) */
  int consistent;  /* 1: the given values are consistent or a consistent
                      point was found; 0: none found (message says why) */
  int changed;     /* 1: a fixed x0 entry moves: x0 differs from pb->x0 */
  double feas_tol; /* |residual| <= feas_tol is consistent */
  int nx;          /* entries of x0 and moved (0 when !checked) */
  double *x0;      /* nx: the consistent start (pb->x0 when unchanged) */
  int *moved;      /* nx: 1 when |x0_i - pb->x0_i| > 1e-10 (1+|pb->x0_i|) */
  int ncon;        /* when changed: rows of given_residual (0 when they
                      could not be evaluated) */
  double *given_residual; /* ncon: h_k, then g_j at the given values (fixed
                             x0, the rest solved for) */
  char (*con_names)[32];  /* ncon: row names as in rc_init_report */
  char message[RC_MESSAGE_MAX]; /* when !consistent: violated rows */
} rc_init_start;

/* Are pb's fixed initial values consistent with its hidden constraints and
 * algebraic equations (rc_make_consistent with feasibility feas_tol)?  Fills
 * st (owned arrays: rc_init_start_free).  RC_OK: st holds the facts; other
 * codes: the check could not run (err says why; st is zeroed). */
rc_err rc_init_check_start(const rc_problem *pb, double feas_tol,
                           rc_init_start *st, rc_error *err);
void rc_init_start_free(rc_init_start *st);

/* The route before rc_problem_restart, kept for callers of 0.1 (radcol no
 * longer uses it): it needs the model's start parameters by name.
 * Start *pb from st's consistent point: when st->changed, sets the start
 * parameter NAME0 of every moved state in pv (rc_params_set_real) and
 * re-creates formulation `formulation` of model (rc_model_create; a model
 * without a tf parameter keeps the old problem's horizon), replacing *pb
 * (the old problem is freed) and setting *applied = 1.  When a moved state
 * has no start parameter, nothing changes, *applied = 0 and why (len bytes)
 * names the missing parameter.  Errors (create refusing the moved values,
 * no memory): *pb unchanged, pv may hold the moved values. */
rc_err rc_init_apply_start(const rc_model *model, int formulation,
                           rc_param_values *pv, const rc_init_start *st,
                           rc_problem **pb, int *applied, char *why, size_t len,
                           rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
