/*
 * test_estimate_unit.c - unit tests of src/estimate.c and of the dense
 * output of algebraic variables (src/solution.c, src/solve.c), on an
 * index-1 problem with an exact solution:
 *
 *     x' = -50 (x - cos t),  x(0) = 1/2        (boundary layer at t = 0)
 *     0  = y - x^2                             (y algebraic, index 1)
 *
 *     x(t) = (2500 cos t + 50 sin t)/2501 + (1/2 - 2500/2501) e^(-50 t)
 *
 *  - y(t0) is not an NLP value (t0_algebraic = 0): it must solve g = 0 at
 *    t0, i.e. y(0) = x(0)^2 = 1/4, to rounding;
 *  - the global estimate (enriched solve) is within [1/3, 10] of the true
 *    error (max over x and y, nodes and a dense grid, relative to
 *    max(1, max |v|)) on three meshes;
 *  - the local estimate has kind local, NaN per-variable values;
 *  - rc_accuracy_status: inaccurate above tol (estimate or dense violation),
 *    unchanged below, for a failed solve, and for a NaN estimate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/estimate.h"
#include "radcol/problem.h"
#include "radcol/solve.h"
#include "test_util.h"

#define LAMBDA 50.0
#define X0 0.5

static double exact_x(double t) {
  const double l2 = LAMBDA * LAMBDA;
  return (l2 * cos(t) + LAMBDA * sin(t)) / (1.0 + l2) +
         (X0 - l2 / (1.0 + l2)) * exp(-LAMBDA * t);
}

static int eval(const rc_problem *pb, double t, const double *w, double *out) {
  (void)pb;
  out[0] = -LAMBDA * (w[0] - cos(t));
  out[1] = w[1] - w[0] * w[0];
  return 0;
}
/* Jacobian entries: (0,0) df/dx, (1,0) dg/dx, (1,1) dg/dy. */
static const int jrow[3] = {0, 1, 1}, jcol[3] = {0, 0, 1};
static int jac(const rc_problem *pb, double t, const double *w, double *v) {
  (void)pb;
  (void)t;
  v[0] = -LAMBDA;
  v[1] = -2.0 * w[0];
  v[2] = 1.0;
  return 0;
}
/* Hessian of mu_0 f + mu_1 g: (0,0) = -2 mu_1. */
static const int hrow[1] = {0}, hcol[1] = {0};
static int hes(const rc_problem *pb, double t, const double *w,
               const double *mu, double *v) {
  (void)pb;
  (void)t;
  (void)w;
  v[0] = -2.0 * mu[1];
  return 0;
}
static int ref(const rc_problem *pb, int nt, const double *t, double *r) {
  (void)pb;
  for (int i = 0; i < nt; ++i) {
    const double x = exact_x(t[i]);
    r[2 * i] = x;
    r[2 * i + 1] = x * x;
  }
  return 0;
}

static const char *const names[2] = {"x", "y"};
static const double lo[2] = {-HUGE_VAL, -HUGE_VAL},
                    hi[2] = {HUGE_VAL, HUGE_VAL};
static const int fix[1] = {1};
static const double x0v[1] = {X0};

static rc_problem problem(void) {
  rc_problem pb;
  memset(&pb, 0, sizeof pb);
  pb.model = "bl-alg";
  pb.formulation = "index1";
  pb.index = 1;
  pb.nx = 1;
  pb.ny = 1;
  pb.var_names = names;
  pb.w_lo = lo;
  pb.w_hi = hi;
  pb.t0 = 0.0;
  pb.tf = 2.0;
  pb.fix_x0 = fix;
  pb.x0 = x0v;
  pb.point = (rc_block){2, {3, jrow, jcol}, {1, hrow, hcol}, eval, jac, hes};
  pb.reference = ref;
  return pb;
}

/* True error as the estimate defines it: max over x, y of the max error
 * over the nodes and 8 uniform points per element, over max(1, max |v|). */
static double true_error(const rc_solution *sol) {
  double scale[2] = {1.0, 1.0}, e[2] = {0.0, 0.0}, w[2];
  for (int n = 0; n < sol->nnodes; ++n)
    for (int i = 0; i < 2; ++i)
      scale[i] = fmax(scale[i], fabs(sol->w[2 * n + i]));
  for (int n = 0; n < sol->nnodes; ++n) {
    const double x = exact_x(sol->t[n]);
    e[0] = fmax(e[0], fabs(sol->w[2 * n] - x));
    e[1] = fmax(e[1], fabs(sol->w[2 * n + 1] - x * x));
  }
  const int nd = 8 * sol->mesh.n;
  for (int q = 0; q <= nd; ++q) {
    const double t = sol->t0 + (sol->tf - sol->t0) * q / nd;
    if (rc_solution_eval(sol, t, w, NULL) != RC_OK)
      return NAN;
    const double x = exact_x(t);
    e[0] = fmax(e[0], fabs(w[0] - x));
    e[1] = fmax(e[1], fabs(w[1] - x * x));
  }
  return fmax(e[0] / scale[0], e[1] / scale[1]);
}

static void test_global(void) {
  rc_problem pb = problem();
  rc_options o;
  rc_options_default(&o);
  for (int n = 20; n <= 80; n *= 2) {
    rc_mesh m;
    rc_solution sol;
    rc_solve_stats st;
    rc_error err;
    EXPECT(rc_mesh_uniform(n, 3, &m, &err) == RC_OK, "mesh: %s", err.message);
    EXPECT(rc_solve(&pb, &m, &o, NULL, &sol, &st, &err) == RC_OK &&
               st.status == RC_STATUS_CONVERGED,
           "solve n=%d: %s", n, err.message);
    EXPECT(fabs(sol.w[1] - sol.w[0] * sol.w[0]) <= 1e-14,
           "y(t0) %.17g, expected x(t0)^2 = %.17g (Newton on g at t0)",
           sol.w[1], sol.w[0] * sol.w[0]);
    rc_error_estimate est;
    EXPECT(rc_estimate_error(&pb, &sol, &o, RC_ESTIMATE_GLOBAL, &est, &err) ==
               RC_OK,
           "estimate: %s", err.message);
    const double truth = true_error(&sol);
    printf("n = %3d: global estimate %.3e, true error %.3e, ratio %.2f; "
           "local %.3e; enriched solve %d iterations\n",
           n, est.max, truth, est.max / truth, est.local_max,
           est.enriched_iterations);
    EXPECT(est.kind == RC_ESTIMATE_GLOBAL, "kind %s (%s)",
           rc_estimate_kind_name(est.kind), est.note);
    EXPECT(est.max >= truth / 3.0 && est.max <= 10.0 * truth,
           "n = %d: estimate %.3g vs true %.3g outside [1/3, 10]", n, est.max,
           truth);
    EXPECT(est.nelem == n && est.nvar == 2, "sizes %d x %d", est.nelem,
           est.nvar);
    double m2 = 0.0;
    for (int k = 0; k < est.nelem; ++k)
      m2 = fmax(m2, est.elem_max[k]);
    EXPECT(m2 == est.max, "max %g != max over elements %g", est.max, m2);
    rc_error_estimate_free(&est);

    EXPECT(rc_estimate_error(&pb, &sol, &o, RC_ESTIMATE_LOCAL, &est, &err) ==
               RC_OK,
           "local: %s", err.message);
    EXPECT(est.kind == RC_ESTIMATE_LOCAL && isnan(est.var[0]) &&
               isfinite(est.local_max) && est.max == est.local_max,
           "local estimate: kind %d var %g local %g", (int)est.kind, est.var[0],
           est.local_max);
    rc_error_estimate_free(&est);
    rc_solution_free(&sol);
    rc_mesh_free(&m);
  }
}

static void test_status(void) {
  EXPECT(rc_accuracy_status(RC_STATUS_CONVERGED, 1e-3, 0.0, 1e-4) ==
             RC_STATUS_INACCURATE,
         "estimate above tol");
  EXPECT(rc_accuracy_status(RC_STATUS_ACCEPTABLE, 1e-5, 0.0, 1e-4) ==
             RC_STATUS_ACCEPTABLE,
         "estimate below tol");
  EXPECT(rc_accuracy_status(RC_STATUS_CONVERGED, 1e-5, 1e-3, 1e-4) ==
             RC_STATUS_INACCURATE,
         "dense violation above tol");
  EXPECT(rc_accuracy_status(RC_STATUS_FAILED, 1.0, 1.0, 1e-4) ==
             RC_STATUS_FAILED,
         "a failed solve stays failed");
  EXPECT(rc_accuracy_status(RC_STATUS_CONVERGED, NAN, 0.0, 1e-4) ==
             RC_STATUS_CONVERGED,
         "no estimate is no verdict");
  EXPECT(rc_accuracy_status(RC_STATUS_CONVERGED, INFINITY, 0.0, 1e-4) ==
             RC_STATUS_INACCURATE,
         "an infinite estimate is inaccurate");
  EXPECT(strcmp(rc_status_name(RC_STATUS_INACCURATE), "inaccurate") == 0,
         "status name %s", rc_status_name(RC_STATUS_INACCURATE));
}

int main(void) {
  test_status();
  test_global();
  if (failures) {
    fprintf(stderr, "test_estimate_unit: %d failure(s)\n", failures);
    return 1;
  }
  printf("all estimate checks passed\n");
  return 0;
}
