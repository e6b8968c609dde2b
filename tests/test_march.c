/*
 * test_march.c - the adaptive Radau IIA march (radcol/march.h), its tables
 * and its accuracy, against independent references.
 *
 * - collocation/radau_transform: for s = 1..13, V diag(lambda) V^{-1}
 *   reproduces D1 = A^{-1} (recomputed here from rc_radau) to 1e-8
 *   relative; for s = 3 the embedded coefficients are RADAU5's published
 *   gamma0 * (-(13 + 7 sqrt 6)/3, (-13 + 7 sqrt 6)/3, -1/3); for odd s the
 *   embedded weights bh = b + A^T e (with weight gamma0 on c_0 = 0) have
 *   order s exactly (order conditions k = 1..s hold, k = s + 1 does not).
 * - The index of every unknown: pendulum index3 (x y 1, u v 2, T 3), ggl (x
 *   y u v 1, T mu 2), accel (all 1), four-bar index3 (positions 1,
 *   velocities 2, joint forces 3).
 * - pendulum accel, no mesh, rtol = atol = 1e-4 .. 1e-10: the march to
 *   tolerance (rc_march_refined) meets each tolerance within 2x against the
 *   problem's reference (the angle ODE by GSL rk8pd at 1e-13): max over
 *   variables and the dense grid of |v - ref| / (1 + max |v|) <= 2 rtol; the
 *   global estimate is at least a third of that error and at most 10 times
 *   it (it overestimates with 3 stages, where the 4-stage solution's error
 *   is not yet small beside the 3-stage one's).
 * - The estimate of a square system does not run Ipopt (its note says the
 *   enriched mesh was integrated element by element).
 * - Bad input: an atol name that is no variable, march_stages 4, rtol 0: a
 *   message naming the value.
 * - A march that fails (pendulum accel capped at 5 steps) reports the time
 *   and element where it stopped, and its result still spans [t0, tf].
 */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collocation/radau.h"
#include "collocation/radau_transform.h"
#include "radcol/catalogue.h"
#include "radcol/diagnose.h"
#include "radcol/estimate.h"
#include "radcol/march.h"
#include "radcol/march_refine.h"
#include "radcol/params.h"
#include "test_models.h"
#include "test_util.h"

static void transform_tables(void) {
  for (int s = 1; s <= 13; ++s) {
    rc_radau r;
    rc_radau_eig e;
    EXPECT(rc_radau_init(s, &r) == 0, "radau s=%d", s);
    const int ok = rc_radau_eig_init(&r, &e) == 0;
    EXPECT(ok, "transform s=%d: resid %g", s, e.resid);
    if (!ok)
      continue;
    EXPECT(e.nreal == s % 2 && e.nreal + 2 * e.npair == s,
           "s=%d: %d real, %d pairs", s, e.nreal, e.npair);
    /* rebuild D1 from the blocks: V diag V^{-1} with the pairs' conjugates */
    double dmax = 0.0, res = 0.0;
    for (int i = 0; i < s; ++i)
      for (int j = 0; j < s; ++j)
        dmax = fmax(dmax, fabs(r.D[i * (s + 1) + j + 1]));
    for (int i = 0; i < s; ++i)
      for (int j = 0; j < s; ++j) {
        double complex acc = 0.0;
        for (int k = 0; k < e.nblk; ++k) {
          const double complex t =
              e.V[i * e.nblk + k] * e.lambda[k] * e.Vinv[k * s + j];
          acc += k < e.nreal ? t : 2.0 * creal(t);
        }
        res = fmax(res, cabs(acc - r.D[i * (s + 1) + j + 1]) / dmax);
      }
    EXPECT(res <= 1e-8, "s=%d: V diag V^-1 misses D1 by %g", s, res);
    if (s % 2 == 0)
      continue;
    /* embedded weights bh = b + A^T e, bh_0 = gamma0: order s exactly */
    double bh[RC_RADAU_MAX_STAGES];
    for (int i = 0; i < s; ++i) {
      double acc = r.b[i];
      for (int j = 0; j < s; ++j)
        acc += r.A[j * s + i] * e.e[j];
      bh[i] = acc;
    }
    for (int k = 1; k <= s + 1; ++k) {
      double acc = k == 1 ? e.gamma0 : 0.0;
      for (int i = 0; i < s; ++i)
        acc += bh[i] * pow(r.c[i], k - 1);
      const double miss = fabs(acc - 1.0 / k);
      if (k <= s)
        EXPECT(miss <= 1e-9, "s=%d: embedded order condition %d misses by %g",
               s, k, miss);
      else if (s <= 9) /* the (s+1)-th condition's miss shrinks with s */
        EXPECT(miss > 1e-6, "s=%d: embedded method of order above s (%g)", s,
               miss);
    }
    if (s == 3) {
      const double sq6 = sqrt(6.0);
      const double dd[3] = {-(13 + 7 * sq6) / 3, (-13 + 7 * sq6) / 3, -1.0 / 3};
      for (int j = 0; j < 3; ++j)
        EXPECT(fabs(e.e[j] - e.gamma0 * dd[j]) <= 1e-13 * fabs(e.e[j]) + 1e-15,
               "s=3: e[%d] = %.17g, RADAU5's %.17g", j, e.e[j],
               e.gamma0 * dd[j]);
      EXPECT(fabs(1.0 / e.gamma0 - 3.637834252744496) <= 1e-12,
             "s=3: real eigenvalue %.16g", 1.0 / e.gamma0);
    }
  }
}

static void variable_index(const char *model, const char *formulation,
                           const char *want) {
  rc_param_values pv;
  memset(&pv, 0, sizeof pv);
  rc_problem *pb = make(model, formulation, NULL, &pv);
  if (!pb)
    return;
  const int nq = pb->nx + pb->ny + pb->nu;
  int k[64];
  rc_error err = {RC_OK, ""};
  EXPECT(nq <= 64 && rc_march_variable_index(pb, NULL, k, &err) == RC_OK,
         "%s/%s: index: %s", model, formulation, err.message);
  char got[65];
  for (int i = 0; i < nq && i < 64; ++i)
    got[i] = (char)('0' + k[i]);
  got[nq < 64 ? nq : 64] = '\0';
  EXPECT(strcmp(got, want) == 0, "%s/%s: indices %s, expected %s", model,
         formulation, got, want);
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

/* max over variables of the dense-grid reference error / (1 + max |v|) */
static double relative_error(const rc_problem *pb, const rc_solution *sol) {
  rc_diagnostics d;
  if (rc_diagnose(pb, sol, 8, &d, NULL) != RC_OK)
    return INFINITY;
  const int nq = pb->nx + pb->ny + pb->nu, nw = rc_problem_nw(pb);
  double w = 0.0;
  for (int i = 0; i < nq && d.has_reference; ++i) {
    double m = 0.0;
    for (int n = 0; n < sol->nnodes; ++n)
      m = fmax(m, fabs(sol->w[(size_t)n * nw + i]));
    if (!isnan(d.err_dense[i]))
      w = fmax(w, d.err_dense[i] / (1.0 + m));
  }
  const int have = d.has_reference;
  rc_diagnostics_free(&d);
  return have ? w : INFINITY;
}

static void accel_tolerances(void) {
  rc_param_values pv;
  memset(&pv, 0, sizeof pv);
  rc_problem *pb = make("pendulum", "accel", NULL, &pv);
  if (!pb)
    return;
  for (int e = 4; e <= 10; ++e) {
    const double tol = pow(10.0, -e);
    rc_options opt;
    rc_options_default(&opt);
    opt.rtol = opt.atol = tol;
    rc_solution sol;
    rc_solve_stats st;
    rc_march_info info;
    rc_refine_row *rows = NULL;
    int nrows = 0;
    rc_error_estimate est;
    rc_error err = {RC_OK, ""};
    const rc_err rc =
        rc_march_refined(pb, &opt, NULL, 3, RC_ESTIMATE_GLOBAL, &sol, &st,
                         &info, &rows, &nrows, &est, &err);
    EXPECT(rc == RC_OK, "accel %g: %s", tol, err.message);
    if (rc != RC_OK)
      continue;
    EXPECT(st.status == RC_STATUS_CONVERGED, "accel %g: %s", tol, st.message);
    const double true_err = relative_error(pb, &sol);
    printf("pendulum accel rtol %.0e: %d steps of %d stages, %d march(es), "
           "error %.2e (%.2f tol), estimate %.2e\n",
           tol, info.steps, info.stages, nrows, true_err, true_err / tol,
           est.max);
    EXPECT(true_err <= 2.0 * tol,
           "accel %g: error %.3g against the reference, above 2 tol", tol,
           true_err);
    EXPECT(est.kind == RC_ESTIMATE_GLOBAL &&
               strstr(est.note, "integrated element by element") != NULL,
           "accel %g: estimate %s: %s", tol, rc_estimate_kind_name(est.kind),
           est.note);
    EXPECT(est.max <= 10.0 * fmax(true_err, 1e-2 * tol) &&
               est.max >= true_err / 3.0,
           "accel %g: estimate %.3g, error %.3g: not within [1/3, 10] of it",
           tol, est.max, true_err);
    rc_error_estimate_free(&est);
    free(rows);
    rc_solution_free(&sol);
  }
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

static void bad_input(void) {
  rc_param_values pv;
  memset(&pv, 0, sizeof pv);
  rc_problem *pb = make("pendulum", "accel", NULL, &pv);
  if (!pb)
    return;
  rc_options opt;
  rc_options_default(&opt);
  const char *names[] = {"nosuch"};
  const double vals[] = {1e-8};
  opt.natol = 1;
  opt.atol_names = names;
  opt.atol_values = vals;
  rc_solution sol;
  rc_solve_stats st;
  rc_error err = {RC_OK, ""};
  EXPECT(rc_march_solve(pb, &opt, NULL, &sol, &st, NULL, &err) ==
                 RC_ERR_INPUT &&
             strstr(err.message, "nosuch") && strstr(err.message, "T"),
         "unknown atol name: %s", err.message);
  rc_options_default(&opt);
  opt.march_stages = 4;
  EXPECT(rc_march_solve(pb, &opt, NULL, &sol, &st, NULL, &err) ==
                 RC_ERR_INPUT &&
             strstr(err.message, "march stages 4"),
         "march_stages 4: %s", err.message);
  rc_options_default(&opt);
  opt.rtol = 0.0;
  EXPECT(rc_march_solve(pb, &opt, NULL, &sol, &st, NULL, &err) ==
                 RC_ERR_INPUT &&
             strstr(err.message, "relative tolerance 0"),
         "rtol 0: %s", err.message);
  rc_problem_free(&pb);
  rc_params_free(&pv);
  /* not square: an optimal control problem */
  memset(&pv, 0, sizeof pv);
  pb = make("crane", "track", NULL, &pv);
  if (pb) {
    rc_options_default(&opt);
    EXPECT(rc_march_solve(pb, &opt, NULL, &sol, &st, NULL, &err) ==
                   RC_ERR_INPUT &&
               strstr(err.message, "not a square system"),
           "crane track: %s", err.message);
    rc_problem_free(&pb);
    rc_params_free(&pv);
  }
}

static void failure_report(void) {
  rc_param_values pv;
  memset(&pv, 0, sizeof pv);
  rc_problem *pb = make("pendulum", "accel", NULL, &pv);
  if (!pb)
    return;
  rc_options opt;
  rc_options_default(&opt);
  opt.march_max_steps = 5;
  rc_solution sol;
  rc_solve_stats st;
  rc_march_info info;
  rc_error err = {RC_OK, ""};
  const rc_err rc = rc_march_solve(pb, &opt, NULL, &sol, &st, &info, &err);
  EXPECT(rc == RC_OK, "step limit: %s", err.message);
  if (rc == RC_OK) {
    EXPECT(st.status == RC_STATUS_FAILED && strstr(st.message, "t = ") &&
               strstr(st.message, "element") &&
               strstr(st.message, "step limit") && !isnan(info.fail_t) &&
               info.fail_t > pb->t0 && info.fail_t < pb->tf,
           "step limit: expected a failure naming time and element: %s (%s)",
           rc_status_name(st.status), st.message);
    EXPECT(sol.mesh.n >= 1 && sol.tf == pb->tf,
           "step limit: the failed result still spans [t0, tf]");
    rc_solution_free(&sol);
  }
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

int main(void) {
  transform_tables();
  variable_index("pendulum", "index3", "11223");
  variable_index("pendulum", "ggl", "111122");
  variable_index("pendulum", "accel", "11111");
  variable_index("four-bar", "index3", "111111111222222222333333333");
  accel_tolerances();
  bad_input();
  failure_report();
  return RC_TEST_EXIT();
}
