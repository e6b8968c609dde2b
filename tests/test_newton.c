/*
 * test_newton.c - the square-system path (src/newton.c) against the Ipopt
 * path on the same transcription.
 *
 * - pendulum accel (tf 5), double-pendulum index1 and four-bar baumgarte
 *   (their default data): --solver newton and --solver ipopt give the same
 *   node values to 1e-10 (relative to 1 + |value|), Newton's duals are zero,
 *   and auto picks Newton.
 * - rc_square_system says yes and no for the right reasons.
 * - Fallback: newton_max_iter = 1 makes Newton fail in element 0; auto then
 *   solves by Ipopt and says so, newton alone reports a failed solve.
 * - A bound the square system's solution leaves (pendulum accel with x <=
 *   half its largest value) is caught after the solve and sends auto to Ipopt.
 * - solver newton on an optimal control problem (crane track) is bad input.
 * - The consistency check every solve runs (rc_make_consistent) solves no NLP
 *   when the start is already consistent (0 iterations, nothing moved), and
 *   still solves it, moving x0, when the start is not.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/catalogue.h"
#include "radcol/init.h"
#include "radcol/params.h"
#include "radcol/solve.h"
#include "test_models.h"
#include "test_util.h"

static rc_err run(const rc_problem *pb, int n, int s, rc_solver_kind solver,
                  int newton_max_iter, rc_solution *sol, rc_solve_stats *st,
                  rc_error *err) {
  rc_mesh mesh;
  rc_err rc = rc_mesh_uniform(n, s, &mesh, err);
  if (rc != RC_OK)
    return rc;
  rc_options opt;
  rc_options_default(&opt);
  opt.solver = solver;
  if (newton_max_iter > 0)
    opt.newton_max_iter = newton_max_iter;
  rc = rc_solve(pb, &mesh, &opt, NULL, sol, st, err);
  rc_mesh_free(&mesh);
  return rc;
}

/* max over nodes and entries of |a - b| / (1 + |b|) */
static double node_diff(const rc_problem *pb, const rc_solution *a,
                        const rc_solution *b) {
  const int nw = rc_problem_nw(pb);
  double m = 0.0;
  for (size_t i = 0; i < (size_t)a->nnodes * (size_t)nw; ++i) {
    const double d = fabs(a->w[i] - b->w[i]) / (1.0 + fabs(b->w[i]));
    if (!(d <= m))
      m = d;
  }
  return m;
}

static void same_as_ipopt(const char *model, const char *formulation,
                          const char *set, int n, int s) {
  rc_param_values pv;
  memset(&pv, 0, sizeof pv);
  rc_problem *pb = make(model, formulation, set, &pv);
  if (!pb)
    return;
  rc_error err = {RC_OK, ""};
  EXPECT(rc_square_system(pb, NULL, 0), "%s/%s is a square system", model,
         formulation);
  rc_solution sn, si, sa;
  rc_solve_stats tn, ti, ta;
  rc_err rn = run(pb, n, s, RC_SOLVER_NEWTON, 0, &sn, &tn, &err);
  EXPECT(rn == RC_OK, "%s/%s newton: %s", model, formulation, err.message);
  rc_err ri = run(pb, n, s, RC_SOLVER_IPOPT, 0, &si, &ti, &err);
  EXPECT(ri == RC_OK, "%s/%s ipopt: %s", model, formulation, err.message);
  rc_err ra = run(pb, n, s, RC_SOLVER_AUTO, 0, &sa, &ta, &err);
  EXPECT(ra == RC_OK, "%s/%s auto: %s", model, formulation, err.message);
  if (rn == RC_OK && ri == RC_OK && ra == RC_OK) {
    EXPECT(tn.status == RC_STATUS_CONVERGED, "%s/%s newton converged: %s",
           model, formulation, tn.message);
    EXPECT(ti.status == RC_STATUS_CONVERGED, "%s/%s ipopt converged: %s", model,
           formulation, ti.message);
    EXPECT(strcmp(tn.solver, "newton") == 0 &&
               strcmp(ti.solver, "ipopt") == 0 &&
               strcmp(ta.solver, "newton") == 0,
           "%s/%s solvers: newton '%s', ipopt '%s', auto '%s'", model,
           formulation, tn.solver, ti.solver, ta.solver);
    EXPECT(tn.newton_fallback_element == -1 && ti.newton_fallback_element == -1,
           "no fallback reported (%d, %d)", tn.newton_fallback_element,
           ti.newton_fallback_element);
    EXPECT(tn.nvars == ti.nvars && tn.ncons == ti.ncons,
           "%s/%s NLP sizes: newton %d x %d, ipopt %d x %d", model, formulation,
           tn.nvars, tn.ncons, ti.nvars, ti.ncons);
    const double d = node_diff(pb, &sn, &si);
    EXPECT(d <= 1e-10,
           "%s/%s n=%d s=%d: newton vs ipopt differ by %.3e at "
           "the nodes, expected <= 1e-10",
           model, formulation, n, s, d);
    EXPECT(node_diff(pb, &sa, &sn) == 0.0, "auto is the newton solution");
    double dual = 0.0;
    const size_t nn = (size_t)sn.nnodes;
    for (size_t i = 0; i < nn * (size_t)pb->nx; ++i)
      dual = fmax(dual, fabs(sn.lam_f[i]));
    for (size_t i = 0; i < nn * (size_t)pb->ny; ++i)
      dual = fmax(dual, fabs(sn.lam_g[i]));
    EXPECT(sn.has_duals && dual == 0.0,
           "newton duals are zero (has_duals %d, max %g)", sn.has_duals, dual);
    printf("%s/%s n=%d s=%d: newton vs ipopt %.2e (newton: %s)\n", model,
           formulation, n, s, d, tn.message);
  }
  if (rn == RC_OK)
    rc_solution_free(&sn);
  if (ri == RC_OK)
    rc_solution_free(&si);
  if (ra == RC_OK)
    rc_solution_free(&sa);
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

static void square_rule(void) {
  static const struct {
    const char *model, *formulation;
    int square;
    const char *why;
  } cases[] = {
      {"pendulum", "accel", 1, ""},
      {"pendulum", "index3", 1, ""},
      {"pendulum", "partition", 1, ""}, /* finite bounds, checked after */
      {"crane", "reduced", 1, ""},
      {"crane", "servo", 1, ""}, /* nu = nc = 2 path equalities */
      {"crane", "track", 0, "Lagrange"},
      {"crane", "flat", 0, "sampling"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    rc_param_values pv;
    memset(&pv, 0, sizeof pv);
    rc_problem *pb = make(cases[i].model, cases[i].formulation, NULL, &pv);
    if (!pb)
      continue;
    char why[200];
    const int sq = rc_square_system(pb, why, sizeof why);
    EXPECT(sq == cases[i].square, "%s/%s square %d, expected %d (%s)",
           cases[i].model, cases[i].formulation, sq, cases[i].square, why);
    EXPECT(strstr(why, cases[i].why) != NULL, "%s/%s: reason '%s' names '%s'",
           cases[i].model, cases[i].formulation, why, cases[i].why);
    rc_problem_free(&pb);
    rc_params_free(&pv);
  }
}

static void fallback(void) {
  rc_param_values pv;
  memset(&pv, 0, sizeof pv);
  rc_problem *pb = make("pendulum", "accel", "tf=5", &pv);
  if (!pb)
    return;
  rc_error err = {RC_OK, ""};
  rc_solution sa, si, sn;
  rc_solve_stats ta, ti, tn;
  /* one Newton iteration per attempt cannot reach 1e-12 from any predictor */
  rc_err ra = run(pb, 30, 3, RC_SOLVER_AUTO, 1, &sa, &ta, &err);
  EXPECT(ra == RC_OK, "auto with newton_max_iter 1: %s", err.message);
  rc_err ri = run(pb, 30, 3, RC_SOLVER_IPOPT, 0, &si, &ti, &err);
  EXPECT(ri == RC_OK, "ipopt: %s", err.message);
  if (ra == RC_OK && ri == RC_OK) {
    EXPECT(ta.newton_fallback_element >= 0,
           "fallback element %d, expected "
           ">= 0",
           ta.newton_fallback_element);
    char want[64];
    snprintf(want, sizeof want, "ipopt (newton fallback at element %d)",
             ta.newton_fallback_element);
    EXPECT(strcmp(ta.solver, want) == 0, "solver '%s', expected '%s'",
           ta.solver, want);
    EXPECT(strstr(ta.message, "Newton did not converge") != NULL,
           "message says why: %s", ta.message);
    EXPECT(ta.status == RC_STATUS_CONVERGED, "fallback converged: %s",
           ta.message);
    EXPECT(node_diff(pb, &sa, &si) == 0.0,
           "the fallback is the Ipopt solution");
  }
  if (ra == RC_OK)
    rc_solution_free(&sa);
  rc_err rn = run(pb, 30, 3, RC_SOLVER_NEWTON, 1, &sn, &tn, &err);
  EXPECT(rn == RC_OK, "newton with newton_max_iter 1 runs: %s", err.message);
  if (rn == RC_OK) {
    EXPECT(tn.status == RC_STATUS_FAILED && tn.newton_fallback_element >= 0 &&
               strncmp(tn.solver, "newton", 6) == 0,
           "newton alone fails and says so: status %s, element %d, solver "
           "'%s'",
           rc_status_name(tn.status), tn.newton_fallback_element, tn.solver);
    rc_solution_free(&sn);
  }

  /* A bound the equations' solution leaves: x <= half its largest value. */
  const int nw = rc_problem_nw(pb);
  double xmax = 0.0;
  if (ri == RC_OK)
    for (int n = 0; n < si.nnodes; ++n)
      xmax = fmax(xmax, si.w[(size_t)n * nw]);
  EXPECT(xmax > 0.0, "x reaches %g > 0", xmax);
  double lo[16], hi[16];
  for (int i = 0; i < nw && i < 16; ++i) {
    lo[i] = pb->w_lo[i];
    hi[i] = pb->w_hi[i];
  }
  hi[0] = 0.5 * xmax;
  if (ri == RC_OK)
    rc_solution_free(&si);
  rc_problem bounded = *pb;
  bounded.w_lo = lo;
  bounded.w_hi = hi;
  bounded.destroy = NULL;
  rc_err rb = run(&bounded, 30, 3, RC_SOLVER_NEWTON, 0, &sn, &tn, &err);
  EXPECT(rb == RC_OK, "bounded newton runs: %s", err.message);
  if (rb == RC_OK) {
    EXPECT(tn.status == RC_STATUS_FAILED &&
               strstr(tn.message, "leaves the bounds") != NULL,
           "bound violation reported: %s: %s", rc_status_name(tn.status),
           tn.message);
    rc_solution_free(&sn);
  }
  rc_err rba = run(&bounded, 30, 3, RC_SOLVER_AUTO, 0, &sn, &tn, &err);
  EXPECT(rba == RC_OK, "bounded auto runs: %s", err.message);
  if (rba == RC_OK) {
    EXPECT(strncmp(tn.solver, "ipopt (newton fallback", 22) == 0,
           "bounded auto falls back: solver '%s'", tn.solver);
    rc_solution_free(&sn);
  }
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

static void refused(void) {
  rc_param_values pv;
  memset(&pv, 0, sizeof pv);
  rc_problem *pb = make("crane", "track", NULL, &pv);
  if (!pb)
    return;
  rc_error err = {RC_OK, ""};
  rc_solution sol;
  rc_solve_stats st;
  const rc_err rc = run(pb, 10, 3, RC_SOLVER_NEWTON, 0, &sol, &st, &err);
  EXPECT(rc == RC_ERR_INPUT, "newton on crane/track: %s, expected bad input",
         rc_err_name(rc));
  EXPECT(strstr(err.message, "not a square system") &&
             strstr(err.message, "Lagrange"),
         "the message says why: %s", err.message);
  if (rc == RC_OK)
    rc_solution_free(&sol);
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

static void init_fast_path(void) {
  rc_param_values pv;
  memset(&pv, 0, sizeof pv);
  rc_problem *pb = make("pendulum", "accel", "tf=5", &pv);
  if (!pb)
    return;
  rc_init_options io;
  rc_init_options_default(&io);
  io.feas_tol = 1e-10;
  rc_init_report rep;
  rc_error err = {RC_OK, ""};
  double x0[16];
  int changed = -1;
  rc_err rc = rc_make_consistent(pb, &io, x0, &changed, &rep, &err);
  EXPECT(rc == RC_OK, "make_consistent: %s", err.message);
  if (rc == RC_OK) {
    EXPECT(rep.consistent && changed == 0 && rep.iterations == 0 &&
               rep.status == RC_STATUS_CONVERGED,
           "consistent start: consistent %d, changed %d, iterations %d, "
           "status %s (expected 1, 0, 0, converged)",
           rep.consistent, changed, rep.iterations, rc_status_name(rep.status));
    rc_init_report_free(&rep);
  }
  /* x0 off the circle: the NLP runs and moves the fixed values */
  double xbad[16];
  for (int i = 0; i < pb->nx && i < 16; ++i)
    xbad[i] = pb->x0[i];
  xbad[0] = 1.1 * xbad[0] + 0.05;
  rc_problem moved = *pb;
  moved.x0 = xbad;
  moved.destroy = NULL;
  changed = -1;
  rc = rc_make_consistent(&moved, &io, x0, &changed, &rep, &err);
  EXPECT(rc == RC_OK, "make_consistent (moved x0): %s", err.message);
  if (rc == RC_OK) {
    EXPECT(rep.consistent && changed == 1 && rep.iterations > 0,
           "inconsistent start: consistent %d, changed %d, iterations %d "
           "(expected 1, 1, > 0)",
           rep.consistent, changed, rep.iterations);
    rc_init_report_free(&rep);
  }
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

int main(void) {
  same_as_ipopt("pendulum", "accel", "tf=5", 30, 3);
  same_as_ipopt("pendulum", "accel", "tf=5", 10, 8);
  same_as_ipopt("double-pendulum", "index1", NULL, 40, 3);
  same_as_ipopt("four-bar", "baumgarte", NULL, 40, 3);
  square_rule();
  fallback();
  refused();
  init_fast_path();
  return RC_TEST_EXIT();
}
