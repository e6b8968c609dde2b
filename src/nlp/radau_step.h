/*
 * radau_step.h - one Radau IIA step (a finite element) of a square system
 * and its simplified Newton iteration: the engine of the adaptive march
 * (march.c) and of the robust fixed-mesh pass.  Private to the library.
 *
 * A step from t with length h and s stages has the unknowns
 * Q = (q_1, ..., q_s), q_j = (x_j, a_j) at t_j = t + c_j h (t_s = tend
 * exactly), a = (y, u), and the residual (radau_step.c)
 *   R_x,j = sum_l D1_jl (x_l - x0) - h f(t_j, q_j)      (nx rows)
 *   R_a,j = (g; c - c_lo)(t_j, q_j)                       (na rows)
 * Simplified Newton solves (D1 (x) E - h I (x) S J) dQ = b with E =
 * diag(I_nx, 0), J the point Jacobian (x and a columns, f, g, c rows) held
 * fixed, b_x = -R_x and b_a = h sigma R_a, S = diag(1, sigma): sigma_r = 1,
 * or 1/h for a position-level constraint row (var_index.h).  Multiplying
 * the algebraic rows by -h is RADAU5's form (M y' = f); dividing a
 * position-level row by h again balances the h^-2 growth of an index-3
 * multiplier's column (the Newton matrix's condition then grows like h^-1
 * instead of h^-3 in the unknowns scaled by their index).
 *
 * Two ways to factor it:
 *   transformed  D1 = V diag(lambda) V^{-1} (collocation/radau_transform.h):
 *                one real LU of (lambda E - h S J) per real eigenvalue, one
 *                complex LU per conjugate pair (nq unknowns each), J at one
 *                point (the step start);
 *   full         the s nq square matrix with J evaluated at every stage's
 *                current value (a true Newton matrix; for coarse fixed
 *                elements, and s above the transform's limit).
 */
#ifndef RADCOL_NLP_RADAU_STEP_H
#define RADCOL_NLP_RADAU_STEP_H

#include "nlp/var_index.h"
#include "radcol/errors.h"
#include "radcol/problem.h"

typedef struct rc_rstep rc_rstep;

typedef enum rc_rstep_status {
  RC_RSTEP_CONVERGED = 0,
  RC_RSTEP_SLOW = 1,     /* predicted not to converge in maxit: hfac says */
  RC_RSTEP_DIVERGED = 2, /* contraction >= 0.99 (after the allowed ones) */
  RC_RSTEP_EVAL = 3,     /* a problem function failed (status in ->eval) */
  RC_RSTEP_NOLU = 4      /* no factors for this (s, h) */
} rc_rstep_status;

/* One Newton solve: the caller's settings and what happened. */
typedef struct rc_rstep_newton {
  int maxit;        /* iterations at most */
  double fnewt;     /* converged when faccon |dQ| <= fnewt */
  double faccon;    /* in: theta/(1-theta) until one is measured;
                       out: the last one */
  int max_norm;     /* 1: max norm of dQ / scal, 0: RMS (RADAU5) */
  int allow_first;  /* the first allow_first contraction ratios may be >= 1
                       (up to 4): a Newton that starts uphill converges */
  int accept_first; /* 1: the first iterate converges when faccon (the
                       caller's) times its increment is below fnewt, as in
                       RADAU5 (for a predictor that is already within the
                       tolerance: an error estimate's) */
  int no_predict;   /* 1: run to maxit instead of stopping when the
                       contraction predicts maxit will not do */
  const double *scal_floor; /* optional nq weights: theta >= 0.5 with
                               |dQ / scal_floor| <= 1 is convergence at the
                               rounding floor */
  /* out */
  int iters;
  double theta; /* last contraction estimate */
  double dyno;  /* last scaled increment */
  double hfac;  /* RC_RSTEP_SLOW: suggested factor for h */
  int eval;     /* the callback status when RC_RSTEP_EVAL */
} rc_rstep_newton;

/* The engine for pb with stages up to smax (1..RC_MAX_STAGES + 1), the
 * index classification vi (borrowed; it must outlive the engine) and the
 * fixed parameters p (np values, copied). */
rc_err rc_rstep_create(const rc_problem *pb, const rc_var_index *vi, int smax,
                       const double *p, rc_rstep **out, rc_error *err);
void rc_rstep_free(rc_rstep **st);

/* Prepare the tables of s stages (0, or -1 for s out of range).  Sets
 * *transformed (may be NULL) to whether the transformed factors exist for
 * s (s <= 15). */
int rc_rstep_stages_init(rc_rstep *st, int s, int *transformed);

/* The step: start t, length h, end tend (the last stage time, exactly),
 * start state x0 (nx, copied).  Leaves the stage values as they are. */
void rc_rstep_begin(rc_rstep *st, int s, double t, double h, double tend,
                    const double *x0);
/* The stage values (s nq, stage-major): predictor in, solution out. */
double *rc_rstep_Q(rc_rstep *st);
/* The stage times of the current step. */
const double *rc_rstep_times(const rc_rstep *st);
/* Nodes c_j of s stages (after rc_rstep_stages_init). */
const double *rc_rstep_nodes(const rc_rstep *st, int s);

/* The dense J of the last rc_rstep_jacobian (nq x nq, row-major: rows f,
 * g, c - c_lo; columns x, y, u). */
const double *rc_rstep_J(const rc_rstep *st);
/* J at (t, q) (q: nq values): 0, or the callback's status. */
int rc_rstep_jacobian(rc_rstep *st, double t, const double *q);
/* Transformed factors of the current (s, h) from J: 0, or -1 (singular, or
 * no transform for s). */
int rc_rstep_factor(rc_rstep *st);
/* Full factors with J at every stage's current value: 0, -1 for a singular
 * matrix (or no memory), or a failed Jacobian's status (-1 reported as
 * -2). */
int rc_rstep_factor_full(rc_rstep *st);
/* Step length the transformed factors were made for (0: none). */
double rc_rstep_factor_h(const rc_rstep *st);
/* Newton uses the factors made last; this selects the transformed ones
 * again (0, or -1 when there are none). */
int rc_rstep_use_transformed(rc_rstep *st);
/* Simplified Newton from the predictor in rc_rstep_Q with the current
 * factors; scal: nq weights of the norm (the caller's index weighting). */
rc_rstep_status rc_rstep_solve(rc_rstep *st, const double *scal,
                               rc_rstep_newton *nw);

/* F at (t, q): nF values into out (0 or the callback's status). */
int rc_rstep_eval(rc_rstep *st, double t, const double *q, double *out);

/* The embedded error estimate of the converged step (odd s, transformed
 * factors of this h): err = (E - h gamma0 S J)^{-1} c with c_x = gamma0 h
 * f0_x + sum_j e_j (x_j - x0) and c_a = 0; f0 = F at the step start q0 (nF
 * values).  RADAU5 has c_a = gamma0 h g0, the start's algebraic residual,
 * which is 0 at a consistent start; here it is the last step's Newton error,
 * and on an index-3 formulation its share of the estimate does not shrink
 * with h (a position constraint off by 2e-7 made err = 1.97 at every h down
 * to 1e-14: the march stalled).  improved: RADAU5's second estimate with F
 * at q0 + err instead of f0 (c_a = gamma0 h sigma (g(q0 + err) - g0)).
 * *norm = max_i |err_i| / scal_i.  0, -1 when not available, or a callback
 * status. */
int rc_rstep_error(rc_rstep *st, const double *f0, const double *q0,
                   const double *scal, int improved, double *norm);

/* Counters: point evaluations, Jacobian evaluations (a full refresh counts
 * s), factorisations (transformed sets or full), Newton iterations, and
 * the time in problem callbacks. */
typedef struct rc_rstep_counts {
  long long nfev, njac, nlu, niter;
  double eval_s;
} rc_rstep_counts;
const rc_rstep_counts *rc_rstep_counters(const rc_rstep *st);

#endif
