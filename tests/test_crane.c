/*
 * test_crane.c - the crane problem against independent checks.
 *
 *  1. Forward simulation: the index-1 model as coded (track's point block;
 *     tau from G = 0, which is affine in tau) driven by the flat controls
 *     u1(t), u2(t), integrated by GSL rk8pd at 1e-12 from the flat initial
 *     state, reproduces the default path: max |(x,z) - p| over 6 s small.
 *     This checks the model equations and the flat inverse against each
 *     other (a sign or factor error in either shows up at O(1)).
 *  2. The flat reference satisfies every formulation's point block:
 *     f(t, w_ref) = d/dt x_ref (exact derivatives of the reference), g = 0,
 *     c = 0, and the invariants vanish; also for a user CSV path.
 *  3. Finite differences of every hand-coded Jacobian and Hessian (point and
 *     invariant blocks, all formulations), and completeness of the declared
 *     patterns.
 *  4. Bad input: b <= 0, p2 <= 0, malformed CSVs, tf mismatch, with the
 *     expected messages.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crane_path.h"
#include "ode_reference.h"
#include "radcol/params.h"
#include "radcol/problem.h"

#include "test_util.h"

#ifndef CRANE_TEST_DATA
#define CRANE_TEST_DATA "."
#endif

extern const rc_model rc_model_crane;


/* Builds formulation `form` with assignments sets[0..nset-1]. */
static rc_err make(const char *form, int nset, const char *const *sets,
                   rc_problem **pb, rc_error *err) {
  rc_param_values pv;
  rc_err rc = rc_params_init_defaults(&rc_model_crane, &pv, err);
  if (rc != RC_OK)
    return rc;
  for (int i = 0; i < nset && rc == RC_OK; ++i)
    rc = rc_params_set(&rc_model_crane, &pv, sets[i], err);
  if (rc == RC_OK)
    rc = rc_model_crane.create(&rc_model_crane,
                               rc_model_find_formulation(&rc_model_crane, form),
                               &pv, pb, err);
  rc_params_free(&pv);
  return rc;
}

/* ---- 1. forward simulation --------------------------------------------- */
typedef struct sim_ctx {
  const rc_problem *pb;
  const rc_crane_params *par;
  const rc_crane_path *path;
} sim_ctx;

/* Path and parameters are rebuilt here from the default parameters so that
 * the simulation does not read the problem's private data. */
static int sim_rhs(double t, const double *y, double *dy, void *vctx) {
  const sim_ctx *ctx = vctx;
  rc_crane_flat f;
  if (rc_crane_flat_eval(ctx->par, ctx->path, t, &f))
    return 1;
  double w[9], F[8], G0;
  memcpy(w, y, 6 * sizeof *w);
  w[7] = f.u1;
  w[8] = f.u2;
  w[6] = 0.0;
  if (ctx->pb->point.eval(ctx->pb, t, w, F))
    return 1;
  G0 = F[6];
  w[6] = 1.0;
  if (ctx->pb->point.eval(ctx->pb, t, w, F))
    return 1;
  w[6] = -G0 / (F[6] - G0); /* G is affine in tau */
  if (ctx->pb->point.eval(ctx->pb, t, w, F))
    return 1;
  memcpy(dy, F, 6 * sizeof *dy);
  return 0;
}

static void test_simulation(void) {
  rc_problem *pb = NULL;
  rc_error err;
  if (make("track", 0, NULL, &pb, &err) != RC_OK) {
    EXPECT(0, "create track: %s", err.message);
    return;
  }
  rc_crane_params par = {10, 2, 2, 0.01, 1, 0.005, 0.1, 9.81};
  rc_crane_path path;
  rc_crane_path_default(&path, 6.0, 0, 2, 4, 1, &err);
  sim_ctx ctx = {pb, &par, &path};
  enum { NT = 601 };
  double t[NT], *out = malloc(sizeof(double) * NT * 6);
  for (int k = 0; k < NT; ++k)
    t[k] = 6.0 * k / (NT - 1);
  rc_crane_flat f0;
  rc_crane_flat_eval(&par, &path, 0.0, &f0);
  double y0[6] = {f0.d, f0.r, f0.theta, f0.vd, f0.vr, f0.omega};
  EXPECT(fabs(y0[1] - 2.0) < 1e-15 && fabs(y0[2]) < 1e-15,
        "default path starts at rest under the trolley (r = %g, th = %g)",
        y0[1], y0[2]);
  rc_err rc =
      rc_ode_reference(6, sim_rhs, &ctx, 0.0, y0, NT, t, out, 1e-12, &err);
  EXPECT(rc == RC_OK, "simulation: %s", err.message);
  double emax = 0.0, pmax = 0.0;
  for (int k = 0; rc == RC_OK && k < NT; ++k) {
    double w[9] = {0}, o[4], p1[5], p2[5];
    memcpy(w, out + 6 * k, 6 * sizeof *w);
    pb->outputs(pb, t[k], w, o);
    rc_crane_path_eval(&path, t[k], p1, p2);
    emax = fmax(emax, hypot(o[0] - p1[0], o[1] - p2[0]));
    pmax = fmax(pmax, fabs(o[0]));
  }
  printf("simulation: max |(x,z) - p| = %.3e m over 6 s (max |x| %.3f)\n", emax,
         pmax);
  EXPECT(emax < 1e-9, "forward simulation misses the path by %.3e m", emax);
  EXPECT(pmax > 3.9, "the load travelled (max x = %g)", pmax);
  free(out);
  rc_crane_path_free(&path);
  rc_problem_free(&pb);
}

/* ---- 2. the reference satisfies the point blocks ----------------------- */
static void check_reference(const char *form, int nset,
                            const char *const *sets) {
  rc_problem *pb = NULL;
  rc_error err;
  if (make(form, nset, sets, &pb, &err) != RC_OK) {
    EXPECT(0, "create %s: %s", form, err.message);
    return;
  }
  const int nw = rc_problem_nw(pb), nF = rc_problem_nF(pb);
  const int nrow = nw + pb->nout;
  enum { NT = 241 };
  double t[NT], ref[NT * 13], F[16], inv[16], o[4];
  for (int k = 0; k < NT; ++k)
    t[k] = pb->t0 + (pb->tf - pb->t0) * k / (NT - 1.0);
  EXPECT(nrow == 13, "%s: reference row has %d values, expected 13", form, nrow);
  EXPECT(pb->reference(pb, NT, t, ref) == 0, "%s: reference failed", form);
  double maxres = 0.0, maxinv = 0.0, maxout = 0.0;
  for (int k = 0; k < NT; ++k) {
    const double *w = ref + (size_t)k * nrow;
    EXPECT(pb->point.eval(pb, t[k], w, F) == 0, "%s: eval at t = %g", form,
          t[k]);
    /* f0..f2 must equal the velocities (the accelerations f3..f5 are
     * compared with the exact jets in check_accelerations). */
    double xdot[3] = {w[3], w[4], w[5]};
    for (int i = 0; i < 3; ++i)
      maxres = fmax(maxres, fabs(F[i] - xdot[i]));
    for (int i = 6; i < nF - (pb->has_lagrange ? 1 : 0); ++i)
      maxres = fmax(maxres, fabs(F[i]) / 20.0); /* g, c: scaled by m g */
    if (pb->ninv > 0) {
      pb->invariants.eval(pb, t[k], w, inv);
      for (int i = 0; i < pb->ninv; ++i)
        maxinv = fmax(maxinv, fabs(inv[i]));
    }
    pb->outputs(pb, t[k], w, o);
    for (int i = 0; i < 4; ++i)
      maxout = fmax(maxout, fabs(o[i] - w[nw + i]));
  }
  printf("reference/%s: max point residual %.2e, invariants %.2e, outputs "
         "%.2e\n",
         form, maxres, maxinv, maxout);
  EXPECT(maxres < 1e-9, "%s: reference leaves point residual %.3e", form,
        maxres);
  EXPECT(maxinv < 1e-9, "%s: reference leaves invariant residual %.3e", form,
        maxinv);
  EXPECT(maxout < 1e-12, "%s: outputs differ from reference by %.3e", form,
        maxout);
  rc_problem_free(&pb);
}

/* The accelerations f3..f5 against the exact jets of the flat inverse. */
static void check_accelerations(const char *form) {
  rc_problem *pb = NULL;
  rc_error err;
  if (make(form, 0, NULL, &pb, &err) != RC_OK) {
    EXPECT(0, "create %s: %s", form, err.message);
    return;
  }
  rc_crane_params par = {10, 2, 2, 0.01, 1, 0.005, 0.1, 9.81};
  rc_crane_path path;
  rc_crane_path_default(&path, 6.0, 0, 2, 4, 1, &err);
  double maxres = 0.0, F[16];
  for (int k = 0; k <= 300; ++k) {
    double t = 6.0 * k / 300.0, w[9];
    rc_crane_flat f;
    rc_crane_flat_eval(&par, &path, t, &f);
    double fl[9] = {f.d, f.r, f.theta, f.vd, f.vr, f.omega, f.tau, f.u1, f.u2};
    memcpy(w, fl, sizeof w);
    pb->point.eval(pb, t, w, F);
    double xdot[6] = {f.vd, f.vr, f.omega, f.ad, f.ar, f.alpha};
    for (int i = 0; i < 6; ++i)
      maxres = fmax(maxres, fabs(F[i] - xdot[i]));
  }
  printf("accelerations/%s: max |f - xdot_ref| = %.2e\n", form, maxres);
  EXPECT(maxres < 1e-9, "%s: f(w_ref) differs from d/dt x_ref by %.3e", form,
        maxres);
  rc_crane_path_free(&path);
  rc_problem_free(&pb);
}

/* ---- 3. finite differences ---------------------------------------------- */
static double frand(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return ((*s >> 8) & 0xffff) / 65535.0 - 0.5;
}

static void fd_block(const rc_problem *pb, const char *what,
                     const rc_block *b) {
  const int nw = rc_problem_nw(pb), m = b->n_out;
  unsigned seed = 7;
  double maxj = 0.0, maxh = 0.0;
  int missing = 0;
  for (int pt = 0; pt < 5; ++pt) {
    double t = pb->tf * (0.13 + 0.17 * pt), w[9], ref[13];
    pb->reference(pb, 1, &t, ref);
    memcpy(w, ref, sizeof(double) * nw);
    for (int i = 0; i < nw; ++i)
      w[i] += 0.3 * frand(&seed) * (1.0 + fabs(w[i]));
    if (w[1] < 0.5)
      w[1] = 0.5;
    double J[9 * 9] = {0}, vals[128], Fp[16], Fm[16];
    b->jacobian(pb, t, w, vals);
    for (int e = 0; e < b->jac.nnz; ++e)
      J[b->jac.row[e] * nw + b->jac.col[e]] = vals[e];
    const double h = 1e-6;
    for (int j = 0; j < nw; ++j) {
      double wp[9], wm[9];
      memcpy(wp, w, sizeof wp);
      memcpy(wm, w, sizeof wm);
      wp[j] += h;
      wm[j] -= h;
      b->eval(pb, t, wp, Fp);
      b->eval(pb, t, wm, Fm);
      for (int i = 0; i < m; ++i) {
        double fd = (Fp[i] - Fm[i]) / (2 * h);
        double e = fabs(fd - J[i * nw + j]) / (1.0 + fabs(fd));
        maxj = fmax(maxj, e);
        if (e > 1e-6)
          printf("  %s/%s jac (%d,%d): fd %.9g coded %.9g\n", pb->formulation,
                 what, i, j, fd, J[i * nw + j]);
      }
    }
    /* Hessian of sum mu_i F_i versus differences of the coded Jacobian. */
    double mu[16], H[9 * 9] = {0};
    for (int i = 0; i < m; ++i)
      mu[i] = frand(&seed) * 2.0;
    b->hessian(pb, t, w, mu, vals);
    for (int e = 0; e < b->hes.nnz; ++e) {
      H[b->hes.row[e] * nw + b->hes.col[e]] = vals[e];
      H[b->hes.col[e] * nw + b->hes.row[e]] = vals[e];
    }
    int declared[9 * 9] = {0};
    for (int e = 0; e < b->hes.nnz; ++e)
      declared[b->hes.row[e] * nw + b->hes.col[e]] =
          declared[b->hes.col[e] * nw + b->hes.row[e]] = 1;
    for (int j = 0; j < nw; ++j) {
      double wp[9], wm[9], Jp[128], Jm[128], gp[9] = {0}, gm[9] = {0};
      memcpy(wp, w, sizeof wp);
      memcpy(wm, w, sizeof wm);
      wp[j] += h;
      wm[j] -= h;
      b->jacobian(pb, t, wp, Jp);
      b->jacobian(pb, t, wm, Jm);
      for (int e = 0; e < b->jac.nnz; ++e) {
        gp[b->jac.col[e]] += mu[b->jac.row[e]] * Jp[e];
        gm[b->jac.col[e]] += mu[b->jac.row[e]] * Jm[e];
      }
      for (int i = 0; i < nw; ++i) {
        double fd = (gp[i] - gm[i]) / (2 * h);
        double e = fabs(fd - H[i * nw + j]) / (1.0 + fabs(fd));
        maxh = fmax(maxh, e);
        if (e > 1e-6)
          printf("  %s/%s hes (%d,%d): fd %.9g coded %.9g\n", pb->formulation,
                 what, i, j, fd, H[i * nw + j]);
        if (!declared[i * nw + j] && fabs(fd) > 1e-8)
          ++missing;
      }
    }
  }
  printf("fd/%s/%s: max rel err jac %.1e hes %.1e, missing %d\n",
         pb->formulation, what, maxj, maxh, missing);
  EXPECT(maxj < 1e-6 && maxh < 1e-6 && missing == 0,
        "%s/%s: derivative check failed", pb->formulation, what);
}

static void test_fd(const char *form) {
  rc_problem *pb = NULL;
  rc_error err;
  const char *sets[] = {"eps=0.01"};
  if (make(form, 1, sets, &pb, &err) != RC_OK) {
    EXPECT(0, "create %s: %s", form, err.message);
    return;
  }
  fd_block(pb, "point", &pb->point);
  fd_block(pb, "invariants", &pb->invariants);
  rc_problem_free(&pb);
}

/* ---- 4. bad input ------------------------------------------------------- */
static void expect_refused(const char *what, int nset, const char *const *sets,
                           const char *needle) {
  rc_problem *pb = NULL;
  rc_error err;
  rc_error_clear(&err);
  rc_err rc = make("track", nset, sets, &pb, &err);
  EXPECT(rc == RC_ERR_INPUT && pb == NULL, "%s: accepted (rc %d)", what,
        (int)rc);
  EXPECT(strstr(err.message, needle) != NULL, "%s: message '%s' lacks '%s'",
        what, err.message, needle);
  printf("refused %-12s: %s\n", what, err.message);
  rc_problem_free(&pb);
}

static void test_bad_input(void) {
  char sets[8][512];
  const char *sp[1] = {sets[0]};
  struct {
    const char *file, *needle;
  } bad[] = {
      {"crane_drop.csv", "b = m g - M2 p2'' > 0 at t = 0.15"},
      {"crane_above.csv", "p2 > 0 at t = 3"},
      {"crane_nonmono.csv", "line 3: t = 2 after t = 3"},
      {"crane_nan.csv", "line 3: x = nan"},
      {"crane_column.csv", "line 4: 2 columns, expected 3"},
      {"crane_onerow.csv", "1 waypoint row, expected at least 2"},
      {"crane_start.csv", "first t = 1, expected <= 0"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
    snprintf(sets[0], sizeof sets[0], "path=%s/%s", CRANE_TEST_DATA,
             bad[i].file);
    expect_refused(bad[i].file, 1, sp, bad[i].needle);
  }
  const char *above[] = {"z_end=-0.5"};
  expect_refused("z_end<0", 1, above, "p2 > 0 at t = 6");
  const char *fast[] = {"tf=0.5"};
  expect_refused("tf=0.5", 1, fast, "b = m g - M2 p2'' > 0 at t = 0.344");
  snprintf(sets[0], sizeof sets[0], "path=%s/crane_good.csv", CRANE_TEST_DATA);
  snprintf(sets[1], sizeof sets[1], "tf=5");
  const char *mismatch[] = {sets[0], sets[1]};
  expect_refused("tf mismatch", 2, mismatch, "ends at t = 8 but tf = 5");
  snprintf(sets[2], sizeof sets[2], "path=%s/no_such_file.csv",
           CRANE_TEST_DATA);
  rc_problem *pb = NULL;
  rc_error err;
  const char *missing[] = {sets[2]};
  EXPECT(make("track", 1, missing, &pb, &err) == RC_ERR_IO,
        "missing path file not reported as I/O error");
}

int main(void) {
  test_simulation();
  static const char *forms[] = {"flat", "track", "servo", "reduced"};
  char good[512];
  snprintf(good, sizeof good, "path=%s/crane_good.csv", CRANE_TEST_DATA);
  const char *gsets[] = {good};
  for (int i = 0; i < 4; ++i) {
    check_reference(forms[i], 0, NULL);
    check_reference(forms[i], 1, gsets);
    check_accelerations(forms[i]);
    test_fd(forms[i]);
  }
  /* the user path really sets the horizon */
  rc_problem *pb = NULL;
  rc_error err;
  EXPECT(make("track", 1, gsets, &pb, &err) == RC_OK && pb->tf == 8.0,
        "good CSV path: tf = %g, expected 8", pb ? pb->tf : -1.0);
  rc_problem_free(&pb);
  test_bad_input();
  if (failures)
    printf("%d failure(s)\n", failures);
  else
    printf("all crane tests passed\n");
  return failures ? 1 : 0;
}
