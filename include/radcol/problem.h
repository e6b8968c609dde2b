/*
 * radcol/problem.h - what a problem supplies to radcol.
 *
 * A *model* (one physical problem, e.g. "pendulum") is a catalogue entry with
 * named real/text parameters and a list of formulations.  model->create()
 * turns (formulation, parameter values) into one immutable rc_problem.
 *
 * The problem class (SPEC section 2).  Time t in [t0, tf]; at each time the
 * point vector is
 *
 *     w = (x[nx], y[ny], u[nu], p[np])        nw = nx + ny + nu + np
 *
 * with differential states x, algebraic variables y, controls u and
 * constant decision parameters p.  The pointwise block
 *
 *     F(t, w) = [ f (nx) ; g (ny) ; c (nc) ; L (has_lagrange ? 1 : 0) ]
 *
 * holds the dynamics x' = f, the algebraic equations 0 = g, the path
 * constraints c_lo <= c <= c_hi and the Lagrange integrand L.  The boundary
 * block takes
 *
 *     z = (x(t0)[nx], x(tf)[nx], p[np], tf)   nz = 2 nx + np + 1
 *
 *     B(z) = [ b (nb) ; phi (has_mayer ? 1 : 0) ]
 *
 * with boundary constraints b_lo <= b <= b_hi and the Mayer term phi.
 *
 * Every block (rc_block) supplies values, the Jacobian on a sparsity pattern
 * declared once (triplets, any order, no duplicates) and the Hessian of a
 * weighted sum of its outputs sum_i mu_i F_i (lower triangle: row >= col, no
 * duplicates).  Callbacks return 0 on success, > 0 for a recoverable failure
 * (point outside the function's domain: the solver may step back), < 0 for a
 * fatal one.  They must not allocate or print.
 *
 * Initial and final values: fix_x0[i] != 0 fixes x_i(t0) = x0[i] and
 * fix_xf[i] != 0 fixes x_i(tf) = xf[i] (as simple bounds on the NLP
 * variable).  If t0_algebraic != 0 the NLP also holds y(t0), u(t0) and imposes
 * g and c at t0 (needed for consistent data); otherwise y and u exist only at
 * the collocation points.
 *
 * With free_tf != 0, tf is a decision variable in [tf_lo, tf_hi]; the problem
 * must then be autonomous (F independent of t): radcol applies the chain rule
 * through h_k = (tf - t0) sigma_k itself.
 */
#ifndef RADCOL_PROBLEM_H
#define RADCOL_PROBLEM_H

#include <stddef.h>

#include "radcol/errors.h"
#include "radcol/mesh.h"

struct rc_data_fit; /* radcol/data.h */
struct rc_phases;   /* radcol/phases.h */

#ifdef __cplusplus
extern "C" {
#endif

/* Bump when rc_problem, rc_block or rc_model change layout (plugins check). */
#define RC_PROBLEM_ABI_VERSION 4

typedef struct rc_problem rc_problem;

/* A sparsity pattern: nnz triplets (row[e], col[e]), zero-based. Borrowed. */
typedef struct rc_pattern {
  int nnz;
  const int *row;
  const int *col;
} rc_pattern;

/* Values of the block's outputs at (t, w). */
typedef int (*rc_eval_fn)(const rc_problem *pb, double t, const double *w,
                          double *out);
/* Jacobian values in jac pattern order. */
typedef int (*rc_jac_fn)(const rc_problem *pb, double t, const double *w,
                         double *vals);
/* Hessian of sum_i mu[i] * out_i, values in hes pattern order (lower triangle).
 */
typedef int (*rc_hes_fn)(const rc_problem *pb, double t, const double *w,
                         const double *mu, double *vals);

/* One differentiable vector function of n_in inputs with n_out outputs. */
typedef struct rc_block {
  int n_out;
  rc_pattern jac; /* rows 0..n_out-1, cols 0..n_in-1 */
  rc_pattern hes; /* rows, cols 0..n_in-1, row >= col */
  rc_eval_fn eval;
  rc_jac_fn jacobian;
  rc_hes_fn hessian; /* required whenever n_out > 0 (invariants too) */
} rc_block;

typedef enum rc_var_kind {
  RC_VAR_DIFFERENTIAL = 0,
  RC_VAR_ALGEBRAIC = 1,
  RC_VAR_CONTROL = 2,
  RC_VAR_PARAMETER = 3
} rc_var_kind;

/* Sampled reference: ref is nt rows of (nx + ny + nu + nout) values, row-major,
 * at the ascending times t[0..nt-1]; NaN where the reference does not define a
 * value (e.g. a multiplier with no physical counterpart). */
typedef int (*rc_reference_fn)(const rc_problem *pb, int nt, const double *t,
                               double *ref);
/* Initial guess for the whole point vector w (nw values) at time t. */
typedef int (*rc_guess_fn)(const rc_problem *pb, double t, double *w);

struct rc_problem {
  const char *model;       /* e.g. "pendulum" */
  const char *formulation; /* e.g. "accel" */
  const char *summary;     /* one line for `radcol list` */
  const char *note;        /* warning printed with every solve, or NULL */
  int index;               /* differentiation index of the transcribed DAE */

  int nx, ny, nu, np; /* sizes of x, y, u, p */
  int nc, nb;         /* path and boundary constraint counts */
  int has_lagrange, has_mayer;
  int autonomous; /* F does not depend on t */

  const char *const *var_names; /* nw names: x..., y..., u..., p... */
  const double *w_lo, *w_hi;    /* nw simple bounds (+-HUGE_VAL: none) */
  const double *c_lo, *c_hi;    /* nc */
  const double *b_lo, *b_hi;    /* nb */

  double t0, tf;
  int free_tf;
  double tf_lo, tf_hi;

  const int *fix_x0; /* nx flags, or NULL: nothing fixed */
  const double *x0;  /* nx values (also the default initial state) */
  const int *fix_xf; /* nx flags, or NULL */
  const double *xf;  /* nx values, or NULL */
  int t0_algebraic;
  /* Solved without an NLP: the solution is the reference sampled at the nodes
   * (e.g. the crane's exact inverse by flatness).  Needs `reference`. */
  int sampled_reference;
  /* Suggested uniform mesh when the user gives none (0: radcol's default). */
  int default_elements, default_stages;

  rc_block point;    /* F(t, w), inputs w (nw) */
  rc_block boundary; /* B(z), inputs z (2 nx + np + 1); t argument unused */

  /* Optional: derived outputs (e.g. the crane load position), no derivatives.
   */
  int nout;
  const char *const *out_names;
  rc_eval_fn outputs;

  /* Optional: hidden constraints of the original high-index DAE, inputs w.
   * Jacobian and Hessian are needed by consistent initialisation. */
  int ninv;
  const char *const *inv_names;
  rc_block invariants;

  rc_guess_fn guess;         /* optional; else x0, zeros clipped to bounds */
  rc_reference_fn reference; /* optional; independent of the transcription */

  /* The NLP minimises objective_scale * (phi + integral of L) (0 means 1):
   * a conditioning factor for Ipopt's tolerances only.  Every reported
   * objective and multiplier is divided back, i.e. belongs to the unscaled
   * problem; the scale itself is reported separately. */
  double objective_scale;
  /* Non-NULL: the problem proved before solving that no solution exists (this
   * says why, naming the limits).  rc_solve then does not run the NLP: status
   * infeasible, the starting point as the solution. */
  const char *infeasible;
  /* Optional suggested mesh for when the user gives none (ABI 2; takes
   * precedence over default_elements): default_mesh_n elements with
   * breakpoints default_mesh_frac[0..n] as fractions of [t0, tf] (0 = first <
   * ... < last = 1) and stage counts default_mesh_stages[0..n-1] (NULL:
   * default_stages, or radcol's default, everywhere).  Borrowed, owned by the
   * problem.  0 / NULL: none (a uniform mesh). */
  int default_mesh_n;
  const double *default_mesh_frac;
  const int *default_mesh_stages;

  void *user;                      /* the problem's own data */
  void (*destroy)(rc_problem *pb); /* frees pb and everything it owns */

  /* ABI 3.  1: the objective phi + integral of L is maximised, 0: minimised
   * (the default).  The NLP minimises -(objective) (times objective_scale);
   * every reported objective and multiplier is that of the problem as
   * defined (the objective the maximised value; multipliers the
   * sensitivities of that objective, Ipopt's sign convention L = objective +
   * lambda^T g, so bound multipliers of a maximisation are <= 0).  Needs an
   * objective (has_lagrange or has_mayer). */
  int maximize;

  /* Optional (ABI 3): data at interior times (radcol/data.h), least-squares
   * terms of the objective at given times; the mesh gets a breakpoint at
   * each.  Borrowed, owned by the problem.  NULL: none. */
  const struct rc_data_fit *data;

  /* Optional (ABI 4): the same problem started from the initial state x0
   * (nx values), with everything the model derived from its start at create
   * (its reference, its guess) derived again; a new problem into *out, pb
   * unchanged, the two independent.  Call it through rc_problem_restart
   * (radcol/start.h), which falls back to a view without the reference when
   * this is NULL. */
  rc_err (*restart)(const rc_problem *pb, const double *x0, rc_problem **out,
                    rc_error *err);

  /* Optional (ABI 4): the explicit time dependence of the point block
   * F(t, w), for free breakpoints on a problem that is not autonomous: the
   * node times t = t0 + T_0 + ... + T_q a move with the segment durations,
   * and the NLP's derivatives need dF/dt (docs/switching.md).
   * time_rows: the n_time_rows outputs i (ascending) whose dF_i/dt can be
   * nonzero; time_cols: the n_time_cols entries j of w (ascending) where
   * some d2F_i/(dt dw_j) can be nonzero.  time_derivs writes
   *   Ft[r]  = dF_{time_rows[r]}/dt                      r < n_time_rows,
   * and, when mu (nF weights) is not NULL, also
   *   Ftw[c] = sum_i mu_i d2F_i/(dt dw_{time_cols[c]})   c < n_time_cols,
   *   *Ftt   = sum_i mu_i d2F_i/dt2.
   * Return convention of the blocks; no allocation.  `radcol check` checks
   * them in the assembled NLP (radcol/nlp_check.h).  NULL: none, and a
   * problem that is not autonomous gets no free breakpoints. */
  int n_time_rows, n_time_cols;
  const int *time_rows, *time_cols;
  int (*time_derivs)(const rc_problem *pb, double t, const double *w,
                     const double *mu, double *Ft, double *Ftw, double *Ftt);
};

/* Can pb have free breakpoints?  Autonomous, or its time derivatives
 * supplied (rc_problem.time_derivs). */
static inline int rc_problem_segments_ok(const rc_problem *pb) {
  return pb->autonomous || pb->time_derivs != NULL;
}

/* ---- the catalogue ------------------------------------------------------ */

typedef enum rc_param_type {
  RC_PARAM_REAL = 0,
  RC_PARAM_TEXT = 1,
  /* A text parameter naming an input file (e.g. a CSV of waypoints), ABI 3.
   * Its value is the name as given; a result file also stores the file's
   * bytes (/problem/files/<name>, docs/hdf5-layout.md), and a problem
   * rebuilt from a result file reads those bytes, not the named file (which
   * may have moved): models open it with rc_param_open_file (params.h). */
  RC_PARAM_FILE = 2
} rc_param_type;

typedef struct rc_param_def {
  const char *name;
  rc_param_type type;
  double default_real;      /* RC_PARAM_REAL */
  const char *default_text; /* RC_PARAM_TEXT, may be NULL */
  const char *doc;          /* meaning and unit */
} rc_param_def;

/* Values for every parameter of a model, indexed like model->params. */
typedef struct rc_param_values {
  int n;
  const double *real;      /* n entries (unused for text parameters) */
  const char *const *text; /* n entries (NULL for real parameters) */
  const int *is_set;       /* n flags: set by the user (not a default) */
  /* ABI 3: for RC_PARAM_FILE entries the bytes of the named file when they
   * came with the value (rc_params_set_file_data, a result file), else
   * NULL: n entries, or NULL for none at all. */
  const char *const *file_data;
  const size_t *file_size;
} rc_param_values;

typedef struct rc_formulation_def {
  const char *name;
  const char *summary;
} rc_formulation_def;

typedef struct rc_model {
  const char *name;
  const char *summary;
  int nformulations;
  const rc_formulation_def *formulations;
  int default_formulation;
  int nparams;
  const rc_param_def *params;
  /* Build formulation `formulation` with parameter values pv.  On failure
   * returns an rc_err, fills err (naming the bad value) and leaves *out NULL.
   */
  rc_err (*create)(const struct rc_model *model, int formulation,
                   const rc_param_values *pv, rc_problem **out, rc_error *err);
  /* Optional (ABI 3): a multiphase problem (radcol/phases.h) for formulation
   * `formulation`.  NULL, or *out == NULL on RC_OK: the formulation is one
   * phase, built by create.  On RC_OK with *out set, the caller frees it
   * with rc_phases_free; pv stays valid until then (the phases may record
   * it: rc_phase.params). */
  rc_err (*create_phases)(const struct rc_model *model, int formulation,
                          const rc_param_values *pv, struct rc_phases **out,
                          rc_error *err);
} rc_model;

/* Sizes derived from the dims. */
static inline int rc_problem_nw(const rc_problem *pb) {
  return pb->nx + pb->ny + pb->nu + pb->np;
}
static inline int rc_problem_nF(const rc_problem *pb) {
  return pb->nx + pb->ny + pb->nc + (pb->has_lagrange ? 1 : 0);
}
static inline int rc_problem_nz(const rc_problem *pb) {
  return 2 * pb->nx + pb->np + 1;
}
static inline int rc_problem_nB(const rc_problem *pb) {
  return pb->nb + (pb->has_mayer ? 1 : 0);
}

/* Kind of point-vector entry i (0 <= i < nw). */
rc_var_kind rc_problem_var_kind(const rc_problem *pb, int i);
/* "differential", "algebraic", "control", "parameter" ("?" otherwise). */
const char *rc_var_kind_name(rc_var_kind kind);

/* The problem's suggested mesh (rc_problem.default_mesh_*), with every
 * element's stage count replaced by `stages` when stages > 0 (otherwise the
 * problem's counts, else default_stages, else fallback_stages).  RC_ERR_INPUT
 * when the problem suggests none or an invalid one. */
rc_err rc_mesh_suggested(const rc_problem *pb, int stages, int fallback_stages,
                         rc_mesh *mesh, rc_error *err);

/* Frees *pb through its destroy function and sets *pb = NULL. */
void rc_problem_free(rc_problem **pb);

/* Checks dims, patterns (ranges, lower triangle, duplicates) and bounds of a
 * problem built by a model or a plugin. */
rc_err rc_problem_validate(const rc_problem *pb, rc_error *err);

/* Parameter helpers for model->create: index of a named parameter, or -1. */
int rc_model_param_index(const rc_model *model, const char *name);

/* The model called name in a NULL-terminated list of models (a registry:
 * the built-in catalogue of radcol/catalogue.h, plugins' models, or a
 * program's own), or NULL.  NULL-safe. */
const rc_model *rc_model_list_find(const rc_model *const *models,
                                   const char *name);
/* Index of the formulation called name, or -1. */
int rc_model_find_formulation(const rc_model *model, const char *name);

#ifdef __cplusplus
}
#endif
#endif
