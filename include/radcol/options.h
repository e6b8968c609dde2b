/*
 * radcol/options.h - solver settings: a typed struct, a defaults function and
 * one validation function.  Raw Ipopt options pass through as "key=value"
 * strings that only the Ipopt adapter reads.
 */
#ifndef RADCOL_OPTIONS_H
#define RADCOL_OPTIONS_H

#include "radcol/errors.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*rc_progress_fn)(void *ctx, int iter, double objective,
                               double inf_pr, double inf_du);

/* Which solver rc_solve uses.  RC_SOLVER_AUTO: Newton on a square system
 * (rc_square_system in solve.h), Ipopt otherwise and as the fallback when
 * Newton fails in an element.  RC_SOLVER_NEWTON: Newton only (a problem that
 * is not a square system is refused as bad input; a Newton failure is
 * reported as a failed solve).  RC_SOLVER_IPOPT: always the NLP. */
typedef enum rc_solver_kind {
  RC_SOLVER_AUTO = 0,
  RC_SOLVER_IPOPT = 1,
  RC_SOLVER_NEWTON = 2
} rc_solver_kind;

/* Which a-posteriori error estimate a solve carries (radcol/estimate.h,
 * docs/accuracy.md): none, the local Patterson-Hager-Rao element estimate,
 * or the global one (an enriched re-solve). */
typedef enum rc_estimate_kind {
  RC_ESTIMATE_NONE = 0,
  RC_ESTIMATE_LOCAL = 1,
  RC_ESTIMATE_GLOBAL = 2
} rc_estimate_kind;

typedef struct rc_options {
  double tol;            /* Ipopt tol; default 1e-10 */
  double acceptable_tol; /* default 1e-6 */
  int max_iter;          /* default 3000 */
  double max_cpu_s;      /* default 1e6 */
  int print_level;       /* Ipopt print_level; default 0 */
  int warm_start; /* use the guess's multipliers (warm_start_init_point) */
  int dense_per_element; /* dense-grid points per element for diagnostics; 8 */
  int dense_bounds;      /* 1: simple bounds on x, y, u hold on the whole
                            dense output (Bernstein rows,
                            docs/dense-bounds.md); 0: at the nodes; 1 */
  int nipopt;            /* raw Ipopt options ... */
  const char *const *ipopt_kv; /* ... as "key=value" (borrowed); typed by
                                * Ipopt's option table; option_file_name,
                                * output_file, file_print_level refused.
                                * Ipopt's printing goes to stderr: during a
                                * solve fd 1 points at fd 2. */
  rc_progress_fn progress;     /* called once per Ipopt iteration, or NULL */
  void *progress_ctx;
  rc_solver_kind solver; /* default RC_SOLVER_AUTO */
  int newton_max_iter;   /* Newton iterations per element and attempt; 10 */
  /* The adaptive march of a square system without a mesh (radcol/march.h)
   * and its error estimate: unknown v_i (x, y or u) is held to
   * atol_i + rtol |v_i| (locally per step, scaled by its index; globally
   * atol_i + rtol max |v_i| over the trajectory). */
  double rtol;                   /* relative tolerance, 1e-14..0.1; 1e-6 */
  double atol;                   /* absolute tolerance of every unknown
                                    without one of its own, > 0; 1e-6 */
  int natol;                     /* per-unknown absolute tolerances: */
  const char *const *atol_names; /* natol variable names (borrowed) */
  const double *atol_values;     /* natol values > 0 (borrowed) */
  int march_stages;    /* stages of every step: odd 1..13, 0: from rtol; 0 */
  int march_max_steps; /* accepted plus rejected steps; 1000000 */
  /* The accuracy rule of rc_solve (radcol/solve.h, docs/accuracy.md): after
   * a solve that succeeded, the error estimate of this kind and the
   * dense-grid check of every imposed constraint are compared with
   * accuracy_tol (relative to each variable's scale max(1, max |v|)); the
   * verdict is returned in rc_solve_stats.accuracy, and with
   * accuracy_binding a verdict other than met makes the status
   * RC_STATUS_INACCURATE.  Defaults: RC_ESTIMATE_GLOBAL, 1e-6, 0 (reported
   * only, as `radcol solve` on a mesh the user chose). */
  rc_estimate_kind estimate;
  double accuracy_tol;
  int accuracy_binding;
  /* With warm_start: the barrier parameter Ipopt begins at (mu_init), and
   * the least distance from zero of the guess's bound multipliers and from
   * its bounds of the point (min(1e-9, warm_start_mu)).  0: 1e-6, for a
   * guess from another mesh; a guess that already solves the NLP up to a
   * small correction with no active inequality takes a value near the
   * tolerance (the enriched solve of the error estimate, estimate.h). */
  double warm_start_mu;
  /* A different start: NULL (the default) solves from the problem's own
   * initial state; else nx values, and the solve runs on the problem
   * restarted there (rc_problem_restart, radcol/start.h: the model derives
   * its reference and guess from it again, or a view without the reference).
   * Borrowed for the call.  Read by rc_solve, rc_solve_estimated,
   * rc_solve_adaptive, rc_solve_refined(_estimated), rc_march_solve and
   * rc_march_refined. */
  const double *x0;
} rc_options;

/* "auto", "ipopt", "newton"; NULL for a value outside the enum. */
const char *rc_solver_kind_name(rc_solver_kind kind);

void rc_options_default(rc_options *opt);
rc_err rc_options_validate(const rc_options *opt, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
