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
#include <stdlib.h>
#include <string.h>

#include "nlp/nlp_solve.h"
#include "radcol/dense_check.h"
#include "radcol/estimate.h"
#include "radcol/march_refine.h"
#include "radcol/refine.h"
#include "radcol/solve.h"
#include "radcol/start.h"

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
  if (opt && opt->x0) { /* a different start: the problem restarted there */
    rc_options o = *opt;
    o.x0 = NULL;
    rc_problem *moved = NULL;
    rc_err rs = rc_problem_restart(pb, opt->x0, &moved, err);
    if (rs == RC_OK)
      rs = rc_solve_estimated(moved, mesh, &o, guess, sol, stats, est, dense,
                              err);
    rc_problem_free(&moved);
    return rs;
  }
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

/* Marches of the adaptive default of a square system (the first, and at
 * most two at a tighter local tolerance; radcol/march_refine.h). */
#define RC_ADAPTIVE_MARCHES 3

/* The dispatch point of square systems (initial-value DAEs) in the
 * adaptive default: the adaptive Radau IIA march to opt->rtol/atol
 * (radcol/march_refine.h: step-size control on the embedded estimate, its
 * own global estimate, never Ipopt) at a tighter local tolerance, with the
 * verdict against opt->rtol, binding.  When the march fails (a step too small,
 * say), the refinement loop from the initial mesh, whose solves are Newton
 * element by element, and the message says so. */
static rc_err adaptive_square(const rc_problem *pb, const rc_mesh *initial,
                              const rc_solution *guess, const rc_options *opt,
                              const rc_refine_options *ro, rc_solution *sol,
                              rc_solve_stats *stats, rc_refine_row **rows,
                              int *nrows, rc_error_estimate *final_estimate,
                              rc_error *err) {
  /* The march holds its index-1 unknowns to its local tolerance; the
   * verdict holds every unknown and every constraint on the dense grid to
   * opt->rtol.  So the march runs 10x tighter, and once more 100x tighter
   * when the verdict is not met (a march is cheap). */
  static const double tighter[] = {0.1, 0.01};
  rc_options o = *opt;
  rc_error_estimate e;
  memset(&e, 0, sizeof e);
  for (int attempt = 0; attempt < 2; ++attempt) {
    o.rtol = fmax(1e-14, opt->rtol * tighter[attempt]);
    o.atol = opt->atol * tighter[attempt];
    rc_march_info info;
    rc_err rc =
        rc_march_refined(pb, &o, guess, RC_ADAPTIVE_MARCHES, opt->estimate, sol,
                         stats, &info, rows, nrows, &e, err);
    if (rc != RC_OK)
      return rc;
    if (stats->status != RC_STATUS_CONVERGED)
      break;
    rc_dense_violation dv;
    rc_error derr = {RC_OK, ""};
    const int have_dv =
        rc_dense_check(pb, sol, opt->dense_per_element, &dv, &derr) == RC_OK;
    stats->accuracy.mode = RC_MODE_ADAPTIVE;
    const rc_status solved = stats->status;
    stats->status = rc_accuracy_verdict(
        solved, 0, e.kind != RC_ESTIMATE_NONE ? &e : NULL, have_dv ? &dv : NULL,
        opt->rtol, 1, &stats->accuracy);
    if (have_dv)
      rc_dense_violation_free(&dv);
    if (stats->accuracy.met == 1 || attempt == 1) {
      if (final_estimate)
        *final_estimate = e;
      else
        rc_error_estimate_free(&e);
      return RC_OK;
    }
    rc_error_estimate_free(&e);
    memset(&e, 0, sizeof e);
    rc_solution_free(sol);
    free(*rows);
    *rows = NULL;
    *nrows = 0;
  }
  char why[RC_MESSAGE_MAX];
  snprintf(why, sizeof why, "%.400s", stats->message);
  rc_error_estimate_free(&e);
  rc_solution_free(sol);
  free(*rows);
  *rows = NULL;
  *nrows = 0;
  rc_refine_options rs = *ro; /* to the square system's tolerance */
  rs.tol = opt->rtol;
  const rc_err rc = adaptive_refine(pb, initial, guess, opt, &rs, sol, stats,
                                    rows, nrows, final_estimate, err);
  if (rc == RC_OK) { /* the march's failure first, the loop's outcome after */
    char m[RC_MESSAGE_MAX];
    snprintf(m, sizeof m,
             "the adaptive march failed (%.200s); the refinement "
             "loop instead: %.250s",
             why, stats->message);
    memcpy(stats->message, m, sizeof m);
  }
  return rc;
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
  if (opt && opt->x0) { /* a different start: the problem restarted there */
    rc_options o = *opt;
    o.x0 = NULL;
    rc_problem *moved = NULL;
    rc_err rs = rc_problem_restart(pb, opt->x0, &moved, err);
    if (rs == RC_OK)
      rs = rc_solve_adaptive(moved, initial, guess, &o, ro, sol, stats, rows,
                             nrows, final_estimate, err);
    rc_problem_free(&moved);
    return rs;
  }
  if (opt->solver != RC_SOLVER_IPOPT && rc_nlp_square_system(pb, NULL, 0))
    return adaptive_square(pb, initial, guess, opt, ro, sol, stats, rows, nrows,
                           final_estimate, err);
  return adaptive_refine(pb, initial, guess, opt, ro, sol, stats, rows, nrows,
                         final_estimate, err);
}
