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
#include <float.h>
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

/* Marches inside one attempt of the adaptive default of a square system
 * (the first, and at most two at a tighter local tolerance on its index-1
 * unknowns; radcol/march_refine.h). */
#define RC_ADAPTIVE_MARCHES 3
/* Attempts at ever tighter local tolerances (below). */
#define RC_ADAPTIVE_ATTEMPTS 5

/* The local-tolerance factor of the attempt after one at f whose verdict
 * measure (the larger of the estimate and the dense-grid worst) was w > tol:
 * w falls like f^p, p measured from the last two attempts (clamped to
 * 0.3..1: an index-3 multiplier's error measured 0.4..0.7), aiming at half
 * the tolerance, one step between 2x and 1000x tighter.  Without a measured
 * rate, or when the last attempt did not lower w (the estimate of an
 * index-3 multiplier is not monotone in f: measured 1.8e-6 at 1e-7, 2.1e-6
 * at 8e-9, 4e-8 at 1e-10), p = 0.5 and at least 10x tighter. */
static double next_factor(double f, double w, double f_prev, double w_prev,
                          double tol) {
  const int measured = f_prev > 0.0 && w_prev > w && w > 0.0;
  double p = measured ? log(w_prev / w) / log(f_prev / f) : 0.5;
  p = fmin(1.0, fmax(0.3, p));
  const double step = pow(0.5 * tol / w, 1.0 / p);
  return f * fmin(measured ? 0.5 : 0.1, fmax(1e-3, step));
}

/* The larger of the verdict's two measures (NaN: either is missing). */
static double verdict_measure(const rc_accuracy *a) {
  if (isnan(a->estimate_max) || isnan(a->dense_worst))
    return NAN;
  return fmax(a->estimate_max, a->dense_worst);
}

/* The dispatch point of square systems (initial-value DAEs) in the
 * adaptive default: the adaptive Radau IIA march to opt->rtol/atol
 * (radcol/march_refine.h: step-size control on the embedded estimate, its
 * own global estimate, never Ipopt) at a tighter local tolerance, with the
 * verdict against opt->rtol on every unknown and constraint, binding.
 * When the march fails (a step too small, say), the refinement loop from the
 * initial mesh, whose solves are Newton element by element, and the message
 * says so; a formulation above index 3 (beyond the march's index weights,
 * and whose highest-index unknowns the estimate does not see converge)
 * gets one solve on the initial mesh instead of the loop, the verdict
 * binding (an index-5 path constraint transcribed directly: the loop ran
 * over a minute into Ipopt failures). */
static rc_err adaptive_square(const rc_problem *pb, const rc_mesh *initial,
                              const rc_solution *guess, const rc_options *opt,
                              const rc_refine_options *ro, rc_solution *sol,
                              rc_solve_stats *stats, rc_refine_row **rows,
                              int *nrows, rc_error_estimate *final_estimate,
                              rc_error *err) {
  /* The march holds its index-1 unknowns to its local tolerance; the
   * verdict holds every unknown (the multipliers of an index-3 form too,
   * whose error falls only like rtol^0.4..0.7) and every constraint on the
   * dense grid to opt->rtol.  So the march runs 10x tighter, then 100x,
   * then tighter by the measured rate (next_factor) while the verdict is
   * not met, at most RC_ADAPTIVE_ATTEMPTS marches (one costs 0.1 s). */
  rc_options o = *opt;
  rc_error_estimate e;
  memset(&e, 0, sizeof e);
  double f = 0.1, f_prev = 0.0, w_prev = NAN;
  for (int attempt = 0; attempt < RC_ADAPTIVE_ATTEMPTS; ++attempt) {
    o.rtol = fmax(1e-14, opt->rtol * f);
    o.atol = opt->atol * f;
    rc_march_info info;
    rc_err rc =
        rc_march_refined(pb, &o, guess, RC_ADAPTIVE_MARCHES, opt->estimate, sol,
                         stats, &info, rows, nrows, &e, err);
    if (rc != RC_OK)
      return rc;
    if (stats->status != RC_STATUS_CONVERGED)
      break; /* the fallback below, the march's failure in its message */
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
    const double w = verdict_measure(&stats->accuracy);
    const double f_next = next_factor(f, w, f_prev, w_prev, opt->rtol);
    const char *stop = NULL;
    if (stats->accuracy.met == 1)
      stop = "";
    else if (isnan(w))
      stop = "no estimate or dense-grid check to tighten by";
    else if (f_next * opt->rtol < 1e3 * DBL_EPSILON)
      stop = "the next local tolerance would be below 1e3 eps";
    else if (attempt == RC_ADAPTIVE_ATTEMPTS - 1)
      stop = "the attempt cap";
    if (stop) {
      if (*stop) {
        const size_t len = strlen(stats->message);
        snprintf(stats->message + len, sizeof stats->message - len,
                 "; not met after %d march attempt%s, the last at local "
                 "tolerance %.3g (%s)",
                 attempt + 1, attempt ? "s" : "", o.rtol, stop);
      }
      if (final_estimate)
        *final_estimate = e;
      else
        rc_error_estimate_free(&e);
      return RC_OK;
    }
    f_prev = f;
    w_prev = w;
    f = f_next;
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
  rc_err rc;
  const char *then;
  if (pb->index > 3) { /* one solve, binding, no loop */
    rc_options o1 = *opt;
    o1.accuracy_tol = opt->rtol;
    o1.accuracy_binding = 1;
    rc_error_estimate *est = final_estimate;
    rc_error_estimate scratch;
    rc = rc_solve_estimated(pb, initial, &o1, guess, sol, stats,
                            est ? est : &scratch, NULL, err);
    if (rc == RC_OK) {
      /* as in the adaptive loop: a global estimate that fell back to the
       * local one verifies nothing (refine.c, candidate_verdict) */
      const rc_error_estimate *e = est ? est : &scratch;
      const int verifies =
          opt->estimate != RC_ESTIMATE_GLOBAL || e->kind == RC_ESTIMATE_GLOBAL;
      rc_dense_violation dv; /* the verdict reads only its worst */
      memset(&dv, 0, sizeof dv);
      dv.worst_relative = stats->accuracy.dense_worst;
      stats->accuracy.mode = RC_MODE_ADAPTIVE;
      stats->status = rc_accuracy_verdict(
          stats->accuracy.solver_status, pb->sampled_reference != 0,
          verifies ? e : NULL, isnan(dv.worst_relative) ? NULL : &dv, opt->rtol,
          1, &stats->accuracy);
      if (!est)
        rc_error_estimate_free(&scratch);
    }
    then = "index > 3 is beyond the march and the refinement loop: one solve "
           "on the suggested mesh";
  } else {
    rc_refine_options rs = *ro; /* to the square system's tolerance */
    rs.tol = opt->rtol;
    rc = adaptive_refine(pb, initial, guess, opt, &rs, sol, stats, rows, nrows,
                         final_estimate, err);
    then = "the refinement loop instead";
  }
  if (rc == RC_OK) { /* the march's failure first, the outcome after */
    char m[RC_MESSAGE_MAX];
    snprintf(m, sizeof m, "the adaptive march failed (%.200s); %s: %.180s", why,
             then, stats->message);
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
