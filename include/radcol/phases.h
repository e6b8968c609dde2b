/*
 * radcol/phases.h - problems of several phases, solved as one NLP
 * (docs/phases.md).
 *
 * A multiphase problem is a list of phases, each an rc_problem with its own
 * model, formulation, parameters, mesh, bounds and path constraints, joined
 * at the boundaries between consecutive phases by linkage constraints.
 *
 * Time.  Phase k runs for a duration T_k (fixed or free, rc_phase.duration),
 * in its own time frame [t0_k, t0_k + T_k]: t0_k is the problem's own t0 for
 * an autonomous phase (its functions do not see t), so a problem written for
 * t0 = 0 keeps its meaning in any phase.  Absolute time runs on: phase k
 * starts at S_k = t0_0 + T_0 + ... + T_{k-1}.  A phase that is not
 * autonomous sees absolute time (t0_k = S_k): it needs a fixed start, i.e.
 * fixed durations of every earlier phase and of its own (rc_phases_validate
 * refuses it otherwise, naming the phases).
 *
 * The NLP.  Each phase transcribes to exactly the NLP radcol builds for it
 * alone (src/nlp/transcription.h); the multiphase NLP is their composition:
 *
 *   variables   [phase 0][phase 1]...            (each in its own order)
 *   constraints [phase 0][phase 1]...[linkage rows]
 *   objective   sum_k (phi_k + integral L_k + D_k) + sum of link objective
 *               terms
 *
 * with D_k the data terms of phase k (radcol/data.h).  Linkage rows at the
 * boundary between phases a = k and b = k + 1:
 *   - continuity (rc_phases.continuity, default): x_b,i(t0_b) - x_a,j(tf_a)
 *     = 0 for every state that both phases have (same name);
 *   - with link_parameters: p_b,i - p_a,j = 0 for every decision parameter
 *     both have;
 *   - user blocks (rc_link): lo <= r(e) <= hi and an optional objective term,
 *     functions of the event vector
 *         e = (x_a(tf_a) [nx_a], p_a [np_a], T_a, x_b(t0_b) [nx_b],
 *              p_b [np_b], T_b)                  ne = rc_link_ne(a, b)
 *     with exact Jacobian and Hessian on declared patterns, as a problem's
 *     blocks.  A free duration T is an NLP variable (the phase's free final
 *     time); a fixed one enters e as a constant.
 * Sizes are counted once and the patterns merged once (the Hessian entries
 * of linkage and data terms that fall on a phase's entries add into them).
 * With one phase, no data and no links the NLP is identical, entry for
 * entry, to rc_solve's.
 */
#ifndef RADCOL_PHASES_H
#define RADCOL_PHASES_H

#include "radcol/data.h"
#include "radcol/errors.h"
#include "radcol/mesh.h"
#include "radcol/options.h"
#include "radcol/problem.h"
#include "radcol/result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rc_phases rc_phases;
typedef struct rc_link rc_link;

typedef enum rc_duration_kind {
  RC_DURATION_PROBLEM = 0, /* the problem's own: tf - t0, free if free_tf */
  RC_DURATION_FIXED = 1,   /* T */
  RC_DURATION_FREE = 2     /* T_lo <= T <= T_hi, T the guess (autonomous) */
} rc_duration_kind;

typedef struct rc_phase {
  const char *name;     /* letters, digits, '_', '-', '.'; distinct */
  const rc_problem *pb; /* borrowed */
  rc_duration_kind duration;
  double T, T_lo, T_hi;
  /* Data at interior times of this phase, in its own time frame (times in
   * [t0_k, t0_k + T_k]); NULL: the problem's own (pb->data, may be NULL). */
  const rc_data_fit *data;
  /* Optional: the model and parameter values pb was built from, recorded
   * in result files (so a phase can be rebuilt, e.g. for a replay); NULL:
   * none.  Borrowed. */
  const rc_model *model;
  const rc_param_values *params;
} rc_phase;

typedef enum rc_continuity {
  RC_CONTINUITY_SHARED = 0, /* states of the same name are continuous */
  RC_CONTINUITY_NONE = 1    /* only the user's links join the phases */
} rc_continuity;

/* Values of a link block's outputs at e; Jacobian values in jac pattern
 * order; Hessian of sum_i mu_i out_i in hes pattern order.  0 ok, > 0
 * recoverable, < 0 fatal, as every radcol callback. */
typedef int (*rc_link_eval_fn)(const rc_phases *ph, const rc_link *link,
                               const double *e, double *out);
typedef int (*rc_link_jac_fn)(const rc_phases *ph, const rc_link *link,
                              const double *e, double *vals);
typedef int (*rc_link_hes_fn)(const rc_phases *ph, const rc_link *link,
                              const double *e, const double *mu, double *vals);

struct rc_link {
  int boundary;          /* between phase boundary and boundary + 1 */
  int nrows;             /* constraint rows lo <= r(e) <= hi */
  int has_objective;     /* one more output after the rows: an objective term */
  const double *lo, *hi; /* nrows bounds (+-HUGE_VAL: none) */
  const char *const *row_names; /* nrows, or NULL */
  rc_pattern jac;               /* rows < nrows + has_objective, cols < ne */
  rc_pattern hes;               /* lower triangle over e */
  rc_link_eval_fn eval;
  rc_link_jac_fn jacobian;
  rc_link_hes_fn hessian;
  void *user;
};

struct rc_phases {
  const char *name;    /* e.g. "crane-cycle" */
  const char *summary; /* one line, or NULL */
  int nphases;
  const rc_phase *phase; /* nphases */
  rc_continuity continuity;
  int link_parameters; /* 1: decision parameters of the same name equal */
  int nlinks;
  const rc_link *links;
  /* The NLP minimises objective_scale * objective (0: the phases' common
   * objective_scale, or 1 when they differ); every reported objective and
   * multiplier is unscaled, as for one problem. */
  double objective_scale;
  void *user;
  void (*destroy)(rc_phases *ph); /* frees ph and what it owns, or NULL */
  /* ABI 4.  > 0: every path constraint held on the dense grid to within
   * path_tol (in its own units) by a back-off: after a converged solve each
   * phase's path constraints are evaluated on its dense output
   * (RC_PATH_BACKOFF_DENSE points per element, every sampled local maximum
   * within RC_PATH_BACKOFF_BAND of the bound refined to its top by
   * golden-section search); a bound c_hi (c_lo) that the dense output exceeds
   * by v > path_tol is tightened (by v, by a secant step after the first, plus
   * path_tol / 2) and all phases are solved again from the last solution,
   * up to RC_PATH_BACKOFF_MAX times.  The result
   * reports the problems' own bounds; rc_phases_solution.path_backoff and
   * path_violation what the back-off did and left.  0: none (the constraints
   * hold at the collocation points only). */
  double path_tol;
};

#define RC_PATH_BACKOFF_DENSE 100
#define RC_PATH_BACKOFF_BAND 1e-3
#define RC_PATH_BACKOFF_MAX 8

/* Size of a link's event vector between problems a and b. */
static inline int rc_link_ne(const rc_problem *a, const rc_problem *b) {
  return a->nx + a->np + 1 + b->nx + b->np + 1;
}

/* Checks the phases (each problem, names, durations and the absolute-time
 * rule, data, links: ranges, patterns, bounds).  RC_ERR_INPUT naming the
 * phase and the value. */
rc_err rc_phases_validate(const rc_phases *ph, rc_error *err);

/* Frees *ph through its destroy function (if any) and sets *ph = NULL. */
void rc_phases_free(rc_phases **ph);

/* The problem of phase k as it is transcribed: a copy of the phase's
 * problem (same callbacks and user data, destroy NULL) with t0, tf, free_tf,
 * tf_lo, tf_hi from the duration and the time rule above, and data the
 * phase's.  start gets S_k when it is fixed, else NaN. */
rc_err rc_phases_local_problem(const rc_phases *ph, int k, rc_problem *out,
                               double *start, rc_error *err);

/* A solved multiphase problem. */
typedef struct rc_phases_solution {
  int nphases;
  rc_problem *pb;         /* nphases: rc_phases_local_problem of each phase */
  rc_solution *sol;       /* nphases: in the time frame of pb[k] */
  double *start;          /* nphases: absolute start S_k */
  double *duration;       /* nphases: T_k */
  double *objective;      /* nphases: phi_k + integral L_k + D_k */
  double *data_objective; /* nphases: D_k (0 without data) */
  int nlink;              /* linkage rows, in NLP order */
  char **link_name;       /* "a->b: x" (continuity), "a->b: p = " ... */
  int *link_boundary;
  double *link_value, *link_lo, *link_hi, *link_dual;
  double link_objective; /* sum of the link objective terms */
  /* path_tol > 0: the back-off (rc_phases.path_tol); NULL otherwise */
  int backoff_solves;          /* solves after the first */
  double *path_backoff;        /* nphases: the largest tightening of a bound */
  double *path_violation;      /* nphases: the largest dense-grid excess left */
  double **path_lo, **path_hi; /* nphases arrays of nc: the path bounds the
                                  solution solved (tightened) */
} rc_phases_solution;

void rc_phases_solution_free(rc_phases_solution *s);

/* NLP size of the phases on meshes (one per phase), without building it. */
typedef struct rc_phases_counts {
  long nvars, ncons, nnz_jac, nnz_hes, nlink;
} rc_phases_counts;
rc_err rc_phases_count(const rc_phases *ph, const rc_mesh *meshes,
                       int dense_bounds, rc_phases_counts *c, rc_error *err);

/* Solve the phases on meshes[0..nphases-1] (each gets a breakpoint at its
 * data times: the solution's mesh).  guesses: NULL, or nphases solutions in
 * the phases' own frames (one with nnodes == 0: that phase's guess
 * function); their duals start a warm start (opt->warm_start).  On RC_OK the
 * solve ran: *out is allocated and stats says how it ended (objective: the
 * total); on any other code nothing is allocated. */
rc_err rc_phases_solve(const rc_phases *ph, const rc_mesh *meshes,
                       const rc_options *opt, const rc_solution *guesses,
                       rc_phases_solution *out, rc_solve_stats *stats,
                       rc_error *err);

/* One problem with data at interior times (pb->data) solved as one phase:
 * what rc_solve does for such a problem.  The arguments as for rc_solve. */
rc_err rc_phases_solve_problem(const rc_problem *pb, const rc_mesh *mesh,
                               const rc_options *opt, const rc_solution *guess,
                               rc_solution *sol, rc_solve_stats *stats,
                               rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
