/*
 * solve.c - the public solves (radcol/solve.h): one mesh with the accuracy
 * verdict (rc_solve, rc_solve_estimated) and the adaptive default
 * (rc_solve_adaptive).  The rule itself is rc_accuracy_verdict
 * (estimate.c, docs/accuracy.md); the solver is rc_nlp_solve
 * (nlp/nlp_solve.c); this file only puts them in order.
 *
 * rc_solve on mesh M:  solve -> (if the solver succeeded) the estimate of
 *   kind opt->estimate -> the dense-grid check -> verdict against
 *   opt->accuracy_tol, binding when opt->accuracy_binding.
 * rc_solve_adaptive from mesh M0 to tolerance ro->tol (always binding):
 *   square system (and a solver that may be Newton) -> adaptive_square, the
 *   one dispatch point of initial-value problems (today the refinement loop
 *   with Newton solves; issue 26 puts its adaptive march there); otherwise
 *   the refinement loop with the global estimate.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nlp/nlp_solve.h"
#include "radcol/dense_check.h"
#include "radcol/estimate.h"
#include "radcol/refine.h"
#include "radcol/solve.h"

int rc_square_system(const rc_problem *pb, char *why, size_t len) {
  return rc_nlp_square_system(pb, why, len);
}

static int solved_ok(const rc_problem *pb, rc_status s) {
  return s == RC_STATUS_CONVERGED || s == RC_STATUS_ACCEPTABLE ||
         (pb->sampled_reference && s == RC_STATUS_NOT_RUN);
}

/* Appends "; what: why" to the stats message (truncated to fit). */
static void append_message(rc_solve_stats *st, const char *what,
                           const char *why) {
  const size_t len = strlen(st->message);
  snprintf(st->message + len, sizeof st->message - len, "%s%s: %s",
           len ? "; " : "", what, why);
}

rc_err rc_solve_estimated(const rc_problem *pb, const rc_mesh *mesh,
                          const rc_options *opt, const rc_solution *guess,
                          rc_solution *sol, rc_solve_stats *stats,
                          rc_error_estimate *est, rc_dense_violation *dense,
                          rc_error *err) {
  if (est)
    memset(est, 0, sizeof *est);
  if (dense)
    memset(dense, 0, sizeof *dense);
  rc_err rc = rc_nlp_solve(pb, mesh, opt, guess, sol, stats, err);
  if (rc != RC_OK)
    return rc;
  rc_error_estimate e;
  rc_dense_violation dv;
  memset(&e, 0, sizeof e);
  memset(&dv, 0, sizeof dv);
  int have_e = 0, have_dv = 0;
  rc_error aerr = {RC_OK, ""};
  if (solved_ok(pb, stats->status) && opt->estimate != RC_ESTIMATE_NONE) {
    if (rc_estimate_error(pb, sol, opt, opt->estimate, &e, &aerr) == RC_OK)
      have_e = 1;
    else
      append_message(stats, "error estimate failed", aerr.message);
  }
  if (rc_dense_check(pb, sol, opt->dense_per_element, &dv, &aerr) == RC_OK)
    have_dv = 1;
  else
    append_message(stats, "dense-grid check failed", aerr.message);
  stats->accuracy.mode = RC_MODE_FIXED;
  stats->status = rc_accuracy_verdict(stats->status, pb->sampled_reference != 0,
                                      have_e ? &e : NULL, have_dv ? &dv : NULL,
                                      opt->accuracy_tol, opt->accuracy_binding,
                                      &stats->accuracy);
  if (est && have_e)
    *est = e;
  else if (have_e)
    rc_error_estimate_free(&e);
  if (dense && have_dv)
    *dense = dv;
  else if (have_dv)
    rc_dense_violation_free(&dv);
  if (est && !have_e) { /* kind none, with its arrays, as documented */
    rc_error rerr = {RC_OK, ""};
    if (rc_estimate_error(pb, sol, opt, RC_ESTIMATE_NONE, est, &rerr) != RC_OK)
      memset(est, 0, sizeof *est);
  }
  rc_error_clear(err);
  return RC_OK;
}

rc_err rc_solve(const rc_problem *pb, const rc_mesh *mesh,
                const rc_options *opt, const rc_solution *guess,
                rc_solution *sol, rc_solve_stats *stats, rc_error *err) {
  return rc_solve_estimated(pb, mesh, opt, guess, sol, stats, NULL, NULL, err);
}

/* The refinement loop to ro->tol, reported as the adaptive mode. */
static rc_err adaptive_refine(const rc_problem *pb, const rc_mesh *initial,
                              const rc_solution *guess, const rc_options *opt,
                              const rc_refine_options *ro, rc_solution *sol,
                              rc_solve_stats *stats, rc_refine_row **rows,
                              int *nrows, rc_error_estimate *final_estimate,
                              rc_error *err) {
  rc_err rc =
      rc_solve_refined_estimated(pb, initial, guess, opt, ro, sol, stats, rows,
                                 nrows, final_estimate, err);
  if (rc == RC_OK)
    stats->accuracy.mode = RC_MODE_ADAPTIVE;
  return rc;
}

/* The dispatch point of square systems (initial-value DAEs) in the
 * adaptive default.  Issue 26 replaces the body with an adaptive march
 * (step-size control on a local error estimate, its own global estimate,
 * never Ipopt).  Until then: the refinement loop, whose solves are Newton
 * element by element (rc_nlp_solve under RC_SOLVER_AUTO) and whose global
 * estimate's enriched solve is Newton too (estimate.c). */
static rc_err adaptive_square(const rc_problem *pb, const rc_mesh *initial,
                              const rc_solution *guess, const rc_options *opt,
                              const rc_refine_options *ro, rc_solution *sol,
                              rc_solve_stats *stats, rc_refine_row **rows,
                              int *nrows, rc_error_estimate *final_estimate,
                              rc_error *err) {
  return adaptive_refine(pb, initial, guess, opt, ro, sol, stats, rows, nrows,
                         final_estimate, err);
}

rc_err rc_solve_adaptive(const rc_problem *pb, const rc_mesh *initial,
                         const rc_solution *guess, const rc_options *opt,
                         const rc_refine_options *ro, rc_solution *sol,
                         rc_solve_stats *stats, rc_refine_row **rows,
                         int *nrows, rc_error_estimate *final_estimate,
                         rc_error *err) {
  if (!pb || !initial || !opt || !ro || !sol || !stats || !rows || !nrows)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_solve_adaptive: expected a problem, a mesh, "
                        "options, refinement options and outputs");
  if (opt->solver != RC_SOLVER_IPOPT && rc_nlp_square_system(pb, NULL, 0))
    return adaptive_square(pb, initial, guess, opt, ro, sol, stats, rows, nrows,
                           final_estimate, err);
  return adaptive_refine(pb, initial, guess, opt, ro, sol, stats, rows, nrows,
                         final_estimate, err);
}
