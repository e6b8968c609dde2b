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
 *     invariant blocks, all formulations), completeness of the declared
 *     patterns, and no declared Hessian entry that is identically zero.
 *  4. Bad input: b <= 0, p2 <= 0, malformed CSVs, tf mismatch, with the
 *     expected messages (stop mode: the messages name the segment's extrema).
 *  5. Crane jobs (docs/crane-jobs.md): limits that contradict the fixed
 *     start or end state and paths that need tau <= taumin are refused
 *     naming parameter, value and time; a limit the flat inverse violates
 *     is a note; the momentum-balance proof of an unreachable end state;
 *     end=rest ends at rest with the bounds held at the nodes, from the flat
 *     and the rest guess; the reported objective is the docs' cost (an
 *     independent Gauss-Legendre quadrature of the dense output); reduced
 *     with projection stays on a 60 s path, without it drifts.
 *  6. Smooth waypoint paths: the spline reproduces the degree-9 step from 21
 *     samples; C^8 at interior waypoints, rest at the ends, exact overshoot;
 *     flatness checked between waypoints; CSV lines of any length; the
 *     suggested mesh at the waypoints; the pre-solve mesh check against the
 *     flat formulation's own dense-output error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crane/path.h"
#include "radcol/mesh.h"
#include "radcol/mesh_check.h"
#include "radcol/ode_reference.h"
#include "radcol/params.h"
#include "radcol/problem.h"
#include "radcol/solve.h"

#include "test_util.h"

#ifndef CRANE_TEST_DATA
#define CRANE_TEST_DATA "."
#endif

extern const rc_model rc_model_crane;

/* Largest point vector: reduced with projection (9 + 6 multipliers). */
#define NWM 15

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
  double t[NT], ref[NT * (NWM + 4)], F[16], inv[16], o[4];
  for (int k = 0; k < NT; ++k)
    t[k] = pb->t0 + (pb->tf - pb->t0) * k / (NT - 1.0);
  EXPECT(nrow == nw + 4 && nw <= NWM,
         "%s: reference row has %d values, expected nw + 4", form, nrow);
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
    double t = 6.0 * k / 300.0, w[NWM] = {0};
    rc_crane_flat f;
    rc_crane_flat_eval(&par, &path, t, &f);
    double fl[9] = {f.d, f.r, f.theta, f.vd, f.vr, f.omega, f.tau, f.u1, f.u2};
    memcpy(w, fl, sizeof fl);
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

/* The flat controls' time derivatives (rc_crane_flat_u_derivs) against
 * central differences of rc_crane_flat_eval in t, relative; and track's
 * time derivatives (rc_problem.time_derivs, free breakpoints) against
 * differences of its L in t, relative (the NLP check of `radcol check`
 * compares absolutely below 1, where the eps-weighted flat term is too
 * small to show). */
static double frand(unsigned *s);

static double flat_u(const rc_crane_params *par, const rc_crane_path *path,
                     double t, int which) {
  rc_crane_flat f;
  rc_crane_flat_eval(par, path, t, &f);
  return which ? f.u2 : f.u1;
}

static void test_time_derivs(int nset, const char *const *sets) {
  rc_crane_params par = {10, 2, 2, 0.01, 1, 0.005, 0.1, 9.81};
  rc_crane_path path;
  rc_error err;
  rc_crane_path_default(&path, 6.0, 0, 2, 4, 1, &err);
  double worst = 0.0;
  const double h = 1e-3;
  for (int k = 1; k < 60; ++k) {
    const double t = 6.0 * k / 60.0 + 0.013;
    double u[2][3];
    EXPECT(rc_crane_flat_u_derivs(&par, &path, t, u[0], u[1]) == 0,
           "flat u derivatives at %g", t);
    for (int c = 0; c < 2; ++c) {
      double v[5];
      for (int m = -2; m <= 2; ++m)
        v[m + 2] = flat_u(&par, &path, t + m * h, c);
      /* fourth-order central differences */
      const double d1 = (v[0] - 8 * v[1] + 8 * v[3] - v[4]) / (12 * h);
      const double d2 =
          (-v[0] + 16 * v[1] - 30 * v[2] + 16 * v[3] - v[4]) / (12 * h * h);
      const double sc = 1.0 + fabs(u[c][0]);
      worst = fmax(worst, fabs(u[c][0] - v[2]) / sc);
      worst = fmax(worst, fabs(u[c][1] - d1) / (sc + fabs(d1)));
      worst = fmax(worst, fabs(u[c][2] - d2) / (sc + fabs(d2)));
    }
  }
  printf("flat u1, u2 and their t-derivatives against differences: worst "
         "relative %.2e\n",
         worst);
  EXPECT(worst < 1e-6, "flat u derivatives: worst relative %.3e", worst);
  rc_crane_path_free(&path);

  rc_problem *pb = NULL;
  if (make("track", nset, sets, &pb, &err) != RC_OK) {
    EXPECT(0, "create track: %s", err.message);
    return;
  }
  EXPECT(pb->time_derivs != NULL && pb->n_time_rows == 1 &&
             pb->time_rows[0] == rc_problem_nF(pb) - 1,
         "track: time derivatives of L expected");
  unsigned seed = 7;
  const int nF = rc_problem_nF(pb);
  double F4[5][16], mu[16] = {0}, Ft[1], Ftw[8], Ftt, g4[5][1];
  /* per quantity (L_t, L_tt, L_tw): max |error| and max |value| */
  double err3[3] = {0, 0, 0}, mag3[3] = {0, 0, 0};
  mu[nF - 1] = 1.0;
  for (int k = 1; k < 20; ++k) {
    const double t = pb->t0 + (pb->tf - pb->t0) * (k + 0.37) / 21.0;
    double ref[NWM + 4], w[NWM];
    pb->reference(pb, 1, &t, ref);
    for (int i = 0; i < rc_problem_nw(pb); ++i)
      w[i] = ref[i] * (1.0 + 0.05 * frand(&seed)) + 0.01 * frand(&seed);
    pb->time_derivs(pb, t, w, mu, Ft, Ftw, &Ftt);
    for (int m = -2; m <= 2; ++m) {
      pb->point.eval(pb, t + m * h, w, F4[m + 2]);
      pb->time_derivs(pb, t + m * h, w, NULL, g4[m + 2], NULL, NULL);
    }
    const int L = nF - 1;
    const double dL =
        (F4[0][L] - 8 * F4[1][L] + 8 * F4[3][L] - F4[4][L]) / (12 * h);
    const double dd =
        (g4[0][0] - 8 * g4[1][0] + 8 * g4[3][0] - g4[4][0]) / (12 * h);
    err3[0] = fmax(err3[0], fabs(Ft[0] - dL));
    mag3[0] = fmax(mag3[0], fabs(dL));
    err3[1] = fmax(err3[1], fabs(Ftt - dd));
    mag3[1] = fmax(mag3[1], fabs(dd));
    for (int c = 0; c < pb->n_time_cols; ++c) {
      const int j = pb->time_cols[c];
      const double wj = w[j], hj = 1e-4 * (1.0 + fabs(wj));
      double ga[1], gb[1];
      w[j] = wj + hj;
      pb->time_derivs(pb, t, w, NULL, ga, NULL, NULL);
      w[j] = wj - hj;
      pb->time_derivs(pb, t, w, NULL, gb, NULL, NULL);
      w[j] = wj;
      const double dw = (ga[0] - gb[0]) / (2 * hj);
      err3[2] = fmax(err3[2],
                     fabs(Ftw[c] - dw) / (fabs(dw) + 1e-3 * mag3[0] + 1e-300));
    }
  }
  const double worst_t =
      fmax(fmax(err3[0] / mag3[0], err3[1] / mag3[1]), err3[2]);
  printf("track%s%s: L_t, L_tt, L_tw against differences: worst relative "
         "%.2e\n",
         nset ? " " : "", nset ? sets[0] : "", worst_t);
  EXPECT(worst_t < 1e-7, "track time derivatives: worst relative %.3e",
         worst_t);
  rc_problem_free(&pb);
}

/* ---- 3. finite differences ---------------------------------------------- */
static double frand(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return ((*s >> 8) & 0xffff) / 65535.0 - 0.5;
}

/* A point near the solution at t, randomly moved: the reference, or for a
 * formulation without one (pathtime) the guess, sigma kept in [0, 1]. */
static void fd_point(const rc_problem *pb, double t, unsigned *seed,
                     double *w) {
  const int nw = rc_problem_nw(pb);
  double ref[NWM + 4];
  if (pb->reference) {
    pb->reference(pb, 1, &t, ref);
    memcpy(w, ref, sizeof(double) * nw);
  } else {
    pb->guess(pb, t, w);
  }
  for (int i = 0; i < nw; ++i)
    w[i] += 0.3 * frand(seed) * (1.0 + fabs(w[i]));
  if (pb->reference) {
    if (w[1] < 0.5) /* the cable length */
      w[1] = 0.5;
  } else {
    w[0] = fmin(1.0, fmax(0.0, w[0]));
  }
}

static void fd_block(const rc_problem *pb, const char *what,
                     const rc_block *b) {
  const int nw = rc_problem_nw(pb), m = b->n_out;
  unsigned seed = 7;
  double maxj = 0.0, maxh = 0.0;
  int missing = 0;
  unsigned char hes_nonzero[NWM * NWM] = {0}; /* per declared entry */
  for (int pt = 0; pt < 5; ++pt) {
    double t = pb->tf * (0.13 + 0.17 * pt), w[NWM];
    fd_point(pb, t, &seed, w);
    double J[16 * NWM] = {0}, vals[256], Fp[16], Fm[16];
    EXPECT(b->eval(pb, t, w, Fp) == 0 && b->jacobian(pb, t, w, vals) == 0,
           "%s/%s: the check point %d is outside the domain", pb->formulation,
           what, pt);
    for (int e = 0; e < b->jac.nnz; ++e)
      J[b->jac.row[e] * nw + b->jac.col[e]] = vals[e];
    const double h = 1e-6;
    for (int j = 0; j < nw; ++j) {
      double wp[NWM], wm[NWM];
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
    double mu[16], H[NWM * NWM] = {0};
    for (int i = 0; i < m; ++i)
      mu[i] = frand(&seed) * 2.0;
    b->hessian(pb, t, w, mu, vals);
    for (int e = 0; e < b->hes.nnz; ++e) {
      hes_nonzero[e] |= vals[e] != 0.0;
      H[b->hes.row[e] * nw + b->hes.col[e]] = vals[e];
      H[b->hes.col[e] * nw + b->hes.row[e]] = vals[e];
    }
    int declared[NWM * NWM] = {0};
    for (int e = 0; e < b->hes.nnz; ++e)
      declared[b->hes.row[e] * nw + b->hes.col[e]] =
          declared[b->hes.col[e] * nw + b->hes.row[e]] = 1;
    for (int j = 0; j < nw; ++j) {
      double wp[NWM], wm[NWM], Jp[256], Jm[256], gp[NWM] = {0}, gm[NWM] = {0};
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
  /* A declared Hessian entry that is 0 at five random points (random mu)
   * is structurally zero: the pattern must not declare it. */
  int zero_declared = 0;
  for (int e = 0; e < b->hes.nnz; ++e)
    if (!hes_nonzero[e]) {
      printf("  %s/%s hes (%d,%d) declared but 0 at every point\n",
             pb->formulation, what, b->hes.row[e], b->hes.col[e]);
      ++zero_declared;
    }
  printf("fd/%s/%s: max rel err jac %.1e hes %.1e, missing %d, Hessian "
         "entries declared but identically 0: %d of %d\n",
         pb->formulation, what, maxj, maxh, missing, zero_declared, b->hes.nnz);
  EXPECT(maxj < 1e-6 && maxh < 1e-6 && missing == 0,
         "%s/%s: derivative check failed", pb->formulation, what);
  EXPECT(zero_declared == 0, "%s/%s: %d declared Hessian entries are 0",
         pb->formulation, what, zero_declared);
}

static void test_fd(const char *form, const char *extra, const char *extra2) {
  rc_problem *pb = NULL;
  rc_error err;
  const char *sets[] = {"eps=0.01", extra, extra2};
  if (make(form, extra2 ? 3 : extra ? 2 : 1, sets, &pb, &err) != RC_OK) {
    EXPECT(0, "create %s: %s", form, err.message);
    return;
  }
  fd_block(pb, "point", &pb->point);
  if (pb->invariants.n_out > 0) /* pathtime has none */
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
  const char *sp[2] = {sets[0], "path_mode=stop"};
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
    expect_refused(bad[i].file, 2, sp, bad[i].needle);
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

/* ---- 5. crane jobs --------------------------------------------------------
 */
static void expect_refused_msg(const char *what, int nset,
                               const char *const *sets, const char *const *need,
                               int nneed) {
  rc_problem *pb = NULL;
  rc_error err;
  rc_error_clear(&err);
  rc_err rc = make("track", nset, sets, &pb, &err);
  EXPECT(rc == RC_ERR_INPUT && pb == NULL, "%s: accepted (rc %d)", what,
         (int)rc);
  for (int i = 0; i < nneed; ++i)
    EXPECT(strstr(err.message, need[i]) != NULL, "%s: message '%s' lacks '%s'",
           what, err.message, need[i]);
  printf("refused %-12s: %s\n", what, err.message);
  rc_problem_free(&pb);
}

static void test_limit_checks(void) {
  const char *rmin[] = {"rmin=1.5"};
  const char *rmin_need[] = {"rmin = 1.5", "r = 1 m", "t = 6 s", "end=rest"};
  expect_refused_msg("rmin=1.5", 1, rmin, rmin_need, 4);
  const char *rmax[] = {"rmax=1.8"};
  const char *rmax_need[] = {"rmax = 1.8", "r = 2 m", "t = 0 s", "start"};
  expect_refused_msg("rmax=1.8", 1, rmax, rmax_need, 4);
  const char *vd[] = {"vd0=0.5", "vdmax=0.2"};
  const char *vd_need[] = {"vdmax = 0.2", "vd = 0.5 m/s", "t = 0 s"};
  expect_refused_msg("vdmax", 2, vd, vd_need, 3);
  /* flat min tau on the default path is about 19.2 N */
  const char *tau[] = {"taumin=19.5"};
  const char *tau_need[] = {"tau = 19.", "taumin = 19.5", "at t = "};
  expect_refused_msg("taumin", 1, tau, tau_need, 3);
  const char *end[] = {"end=stop"};
  const char *end_need[] = {"end = 'stop'", "rest, flat or free"};
  expect_refused_msg("end=stop", 1, end, end_need, 2);
  const char *guess[] = {"guess=zero"};
  const char *guess_need[] = {"guess = 'zero'"};
  expect_refused_msg("guess=zero", 1, guess, guess_need, 1);
  /* the same rmin is fine when the end is free: only the start is fixed */
  const char *rmin_free[] = {"rmin=1.5", "end=free"};
  rc_problem *pb = NULL;
  rc_error err;
  EXPECT(make("track", 2, rmin_free, &pb, &err) == RC_OK,
         "rmin=1.5 end=free: %s", err.message);
  rc_problem_free(&pb);
}

static void test_limit_notes(void) {
  rc_problem *pb = NULL;
  rc_error err;
  const char *u8[] = {"u1max=8"};
  if (make("track", 1, u8, &pb, &err) != RC_OK) {
    EXPECT(0, "u1max=8: %s", err.message);
    return;
  }
  printf("note u1max=8: %s\n", pb->note ? pb->note : "(none)");
  EXPECT(pb->note && strstr(pb->note, "flat |u1| = 9.8") &&
             strstr(pb->note, "u1max = 8 at t = "),
         "u1max=8: note must say where the flat u1 exceeds the limit");
  EXPECT(pb->infeasible == NULL, "u1max=8 is reachable, flagged: %s",
         pb->infeasible);
  rc_problem_free(&pb);
  EXPECT(make("track", 0, NULL, &pb, &err) == RC_OK && pb->note == NULL,
         "no limits: no note");
  rc_problem_free(&pb);
}

static void solve_default(const rc_problem *pb, int n, int s, rc_solution *sol,
                          rc_solve_stats *st) {
  rc_mesh mesh;
  rc_error err;
  rc_options opt;
  rc_options_default(&opt);
  rc_mesh_uniform(n, s, &mesh, &err);
  rc_err rc = rc_solve(pb, &mesh, &opt, NULL, sol, st, &err);
  EXPECT(rc == RC_OK, "rc_solve: %s", err.message);
  rc_mesh_free(&mesh);
}

/* u1max = 3 with the sway bounded by rmax, thetamax: the momentum balance
 * proves the rest end state unreachable; the solve ends at once. */
static void test_unreachable(void) {
  const char *sets[] = {"u1max=3", "rmax=2.5", "thetamax=0.5"};
  rc_problem *pb = NULL;
  rc_error err;
  if (make("track", 3, sets, &pb, &err) != RC_OK) {
    EXPECT(0, "u1max=3: %s", err.message);
    return;
  }
  EXPECT(pb->infeasible && strstr(pb->infeasible, "u1max = 3 N") &&
             strstr(pb->infeasible, "rmax = 2.5"),
         "u1max=3 rmax=2.5 thetamax=0.5: not proved unreachable (%s)",
         pb->infeasible ? pb->infeasible : "NULL");
  rc_solution sol;
  rc_solve_stats st;
  solve_default(pb, 30, 5, &sol, &st);
  printf("u1max=3: %s, %s (%.2f s)\n", rc_status_name(st.status), st.message,
         st.wall_s);
  EXPECT(st.status == RC_STATUS_INFEASIBLE && st.wall_s < 5.0,
         "u1max=3: status %s after %.1f s", rc_status_name(st.status),
         st.wall_s);
  rc_solution_free(&sol);
  rc_problem_free(&pb);
  /* an impulse below C1 * 4 m / 6 s cannot even pay the friction */
  const char *tiny[] = {"u1max=0.6"};
  EXPECT(make("track", 1, tiny, &pb, &err) == RC_OK && pb->infeasible &&
             strstr(pb->infeasible, "impulse"),
         "u1max=0.6: not proved unreachable");
  rc_problem_free(&pb);
  /* without trolley friction the sway cannot help: 2.25 m at most */
  const char *nofric[] = {"u1max=3", "C1=0"};
  EXPECT(make("track", 2, nofric, &pb, &err) == RC_OK && pb->infeasible &&
             strstr(pb->infeasible, "at most 2.25 m"),
         "u1max=3 C1=0: not proved unreachable (%s)",
         pb && pb->infeasible ? pb->infeasible : "NULL");
  if (pb)
    printf("u1max=3 C1=0: %s\n", pb->infeasible);
  rc_problem_free(&pb);
  /* without rmax the check assumes r <= reach_rmax (5 x the path's 2 m)
   * and says so; reaching would need a 22 m cable */
  const char *assumed[] = {"u1max=3"};
  EXPECT(make("track", 1, assumed, &pb, &err) == RC_OK && pb->infeasible &&
             strstr(pb->infeasible, "beyond r = 21.99 m") &&
             strstr(pb->infeasible, "checked for r <= 10 m"),
         "u1max=3 alone: expected infeasible under r <= 10 m (%s)",
         pb && pb->infeasible ? pb->infeasible : "NULL");
  rc_problem_free(&pb);
  /* an assumed cable just above what reaching needs proves nothing */
  const char *longer[] = {"u1max=3", "reach_rmax=22.1"};
  EXPECT(make("track", 2, longer, &pb, &err) == RC_OK && !pb->infeasible,
         "u1max=3 reach_rmax=22.1: expected no proof");
  rc_problem_free(&pb);
  const char *shorter[] = {"u1max=3", "reach_rmax=21.9"};
  EXPECT(make("track", 2, shorter, &pb, &err) == RC_OK && pb->infeasible,
         "u1max=3 reach_rmax=21.9: expected a proof");
  rc_problem_free(&pb);
  /* no assumption: the proof needs a bound on x - d, only a note */
  const char *open[] = {"u1max=3", "reach_rmax=1e100"};
  EXPECT(make("track", 2, open, &pb, &err) == RC_OK && !pb->infeasible &&
             pb->note && strstr(pb->note, "sway offset"),
         "u1max=3 reach_rmax=1e100: expected a note on the needed sway");
  rc_problem_free(&pb);
  const char *bad[] = {"reach_rmax=-1"};
  EXPECT(make("track", 1, bad, &pb, &err) == RC_ERR_INPUT &&
             strstr(err.message, "reach_rmax = -1"),
         "reach_rmax=-1: expected an input error naming it");
  rc_problem_free(&pb);
}

/* end=rest (default): the move ends at rest at the path's end point, tau >=
 * taumin and |u1| <= u1max at the nodes, from the flat and the rest guess. */
static void check_rest_end(int nset, const char *const *sets, double u1max,
                           double max_err) {
  rc_problem *pb = NULL;
  rc_error err;
  if (make("track", nset, sets, &pb, &err) != RC_OK) {
    EXPECT(0, "%s: %s", sets[0], err.message);
    return;
  }
  rc_solution sol;
  rc_solve_stats st;
  solve_default(pb, 30, 5, &sol, &st);
  const int nw = rc_problem_nw(pb);
  const double *wf = sol.w + (size_t)(sol.nnodes - 1) * nw;
  double taumin = HUGE_VAL, u1 = 0.0, emax = 0.0;
  for (int k = 0; k < sol.nnodes; ++k) {
    const double *w = sol.w + (size_t)k * nw;
    double o[4], p[13];
    if (k > 0) {
      taumin = fmin(taumin, w[6]);
      u1 = fmax(u1, fabs(w[7]));
    }
    pb->outputs(pb, sol.t[k], w, o);
    pb->reference(pb, 1, &sol.t[k], p);
    emax = fmax(emax, hypot(o[0] - p[9], o[1] - p[10]));
  }
  printf("%s %s: %s, %d iterations, end (d, r, th, vd, vr, om) = (%.3g, "
         "%.3g, %.2g, %.2g, %.2g, %.2g), min tau %.3g, max|u1| %.4g, "
         "tracking error %.3g m\n",
         sets[0], nset > 1 ? sets[nset - 1] : "", rc_status_name(st.status),
         st.iterations, wf[0], wf[1], wf[2], wf[3], wf[4], wf[5], taumin, u1,
         emax);
  EXPECT(st.status == RC_STATUS_CONVERGED, "%s: %s", sets[0], st.message);
  EXPECT(fabs(wf[0] - 4.0) < 1e-9 && fabs(wf[1] - 1.0) < 1e-9 &&
             fabs(wf[2]) + fabs(wf[3]) + fabs(wf[4]) + fabs(wf[5]) < 1e-9,
         "%s: does not end at rest at (4, 1)", sets[0]);
  EXPECT(taumin >= -1e-8, "%s: tau = %g < 0 at a node", sets[0], taumin);
  EXPECT(u1 <= u1max * (1 + 1e-8), "%s: |u1| = %g > %g", sets[0], u1, u1max);
  EXPECT(emax <= max_err, "%s: tracking error %g > %g", sets[0], emax, max_err);
  rc_solution_free(&sol);
  rc_problem_free(&pb);
}

static void test_rest_end(void) {
  const char *u8[] = {"u1max=8"};
  check_rest_end(1, u8, 8.0, 0.1);
  const char *u8r[] = {"u1max=8", "guess=rest"};
  check_rest_end(2, u8r, 8.0, 0.1);
  const char *free0[] = {"end=rest", "guess=rest"};
  check_rest_end(2, free0, HUGE_VAL, 1e-6);
  const char *dflt[] = {"end=rest"};
  check_rest_end(1, dflt, HUGE_VAL, 1e-6);
}

/* The reported objective is the cost of docs/crane-jobs.md:
 *   J = (1/T) int |(x,z) - p|^2 / Lref^2 + eps ((u1/U1)^2 + (u2/U2)^2) dt,
 * Lref = diagonal of the path's bounding box (sqrt 17 m for the default
 * path), U1, U2 = max |u1|, |u2| of the flat inverse (from a fine grid
 * here), integrated by 8-point Gauss-Legendre on every element of the dense
 * output. */
static void test_objective(void) {
  /* SPEC's control term eps |u|^2 (uref=zero): the cost is not ~0 */
  const char *sets[] = {"eps=1e-8", "uref=zero"};
  rc_problem *pb = NULL;
  rc_error err;
  if (make("track", 2, sets, &pb, &err) != RC_OK) {
    EXPECT(0, "eps=1e-8: %s", err.message);
    return;
  }
  rc_solution sol;
  rc_solve_stats st;
  solve_default(pb, 30, 5, &sol, &st);
  rc_crane_params par = {10, 2, 2, 0.01, 1, 0.005, 0.1, 9.81};
  rc_crane_path path;
  rc_crane_path_default(&path, 6.0, 0, 2, 4, 1, &err);
  double U1 = 0.0, U2 = 0.0;
  for (int k = 0; k <= 60000; ++k) {
    rc_crane_flat f;
    rc_crane_flat_eval(&par, &path, 6.0 * k / 60000, &f);
    U1 = fmax(U1, fabs(f.u1));
    U2 = fmax(U2, fabs(f.u2));
  }
  static const double gx[8] = {-0.9602898564975363, -0.7966664774136267,
                               -0.5255324099163290, -0.1834346424956498,
                               0.1834346424956498,  0.5255324099163290,
                               0.7966664774136267,  0.9602898564975363};
  static const double gw[8] = {0.1012285362903763, 0.2223810344533745,
                               0.3137066533093414, 0.3626837833783620,
                               0.3626837833783620, 0.3137066533093414,
                               0.2223810344533745, 0.1012285362903763};
  const double L2 = 17.0, eps = 1e-8, T = 6.0;
  double J = 0.0, Jq = 0.0;
  for (int e = 0; e < sol.mesh.n; ++e) {
    const double a = T * sol.mesh.frac[e], b = T * sol.mesh.frac[e + 1];
    for (int q = 0; q < 8; ++q) {
      const double t = 0.5 * (a + b) + 0.5 * (b - a) * gx[q];
      double w[9], o[4], p1[5], p2[5];
      rc_solution_eval(&sol, t, w, &err);
      pb->outputs(pb, t, w, o);
      rc_crane_path_eval(&path, t, p1, p2);
      const double e2 =
          (o[0] - p1[0]) * (o[0] - p1[0]) + (o[1] - p2[0]) * (o[1] - p2[0]);
      const double u2 =
          eps * (w[7] * w[7] / (U1 * U1) + w[8] * w[8] / (U2 * U2));
      J += 0.5 * (b - a) * gw[q] * (e2 / L2 + u2) / T;
      Jq += 0.5 * (b - a) * gw[q] * e2 / L2 / T;
    }
  }
  printf("objective: reported %.10e (NLP scale %g), quadrature %.10e "
         "(tracking part %.3e), rel diff %.2e\n",
         st.objective, st.objective_scale, J, Jq, fabs(st.objective - J) / J);
  EXPECT(st.status == RC_STATUS_CONVERGED, "eps=1e-8: %s", st.message);
  EXPECT(fabs(st.objective - J) <= 1e-6 * J,
         "objective %.10e is not the docs' cost %.10e", st.objective, J);
  EXPECT(st.objective_scale > 1.0, "the NLP scale is reported separately");
  rc_crane_path_free(&path);
  rc_solution_free(&sol);
  rc_problem_free(&pb);
}

/* The objective scale is conditioning only: with obj_scale 1e4 and 1e5 the
 * reported objective and the costates (collocation duals / b_j, unscaled by
 * the engine) are those of the same unscaled problem. */
static void test_objective_scale(void) {
  const char *s4[] = {"eps=1e-8", "obj_scale=1e4", "uref=zero"};
  const char *s5[] = {"eps=1e-8", "obj_scale=1e5", "uref=zero"};
  rc_problem *p4 = NULL, *p5 = NULL;
  rc_error err;
  if (make("track", 3, s4, &p4, &err) != RC_OK ||
      make("track", 3, s5, &p5, &err) != RC_OK) {
    EXPECT(0, "obj_scale: %s", err.message);
    rc_problem_free(&p4);
    return;
  }
  rc_solution a, b;
  rc_solve_stats sa, sb;
  solve_default(p4, 30, 5, &a, &sa);
  solve_default(p5, 30, 5, &b, &sb);
  double dl = 0.0, lmax = 0.0;
  for (int i = 0; i < a.nnodes * 6; ++i) {
    dl = fmax(dl, fabs(a.lam_f[i] - b.lam_f[i]));
    lmax = fmax(lmax, fabs(b.lam_f[i]));
  }
  printf("obj_scale 1e4 / 1e5: objective %.10e / %.10e, costates differ by "
         "%.2e of %.2e\n",
         sa.objective, sb.objective, dl, lmax);
  EXPECT(fabs(sa.objective - sb.objective) <= 1e-6 * sb.objective,
         "the objective depends on obj_scale");
  EXPECT(lmax > 0.0 && dl <= 1e-3 * lmax, "the costates depend on obj_scale");
  rc_solution_free(&a);
  rc_solution_free(&b);
  rc_problem_free(&p4);
  rc_problem_free(&p5);
}

/* reduced on a 60 s job of 25 waypoints (tests/data/crane_wp25.csv, stop
 * mode), 240 x 5: with projection the load stays on the path at the nodes to
 * rounding and on the dense grid to interpolation accuracy; the plain
 * transcription (project=0) drifts.  Errors against the flat inverse on a
 * dense grid of 12001 points. */
static double reduced_path_error(const char *form, int nset,
                                 const char *const *sets, double *u1err,
                                 double *wall) {
  rc_problem *pb = NULL;
  rc_error err;
  if (make(form, nset, sets, &pb, &err) != RC_OK) {
    EXPECT(0, "reduced: %s", err.message);
    return HUGE_VAL;
  }
  rc_solution sol;
  rc_solve_stats st;
  solve_default(pb, 240, 5, &sol, &st);
  *wall = st.wall_s;
  EXPECT(st.status == RC_STATUS_CONVERGED, "reduced: %s", st.message);
  double emax = 0.0, umax = 0.0, uref = 0.0;
  const int nw = rc_problem_nw(pb);
  for (int k = 0; k <= 12000; ++k) {
    const double t = pb->tf * k / 12000.0;
    double w[NWM], o[4], p[NWM + 4];
    rc_solution_eval(&sol, t, w, &err);
    pb->outputs(pb, t, w, o);
    pb->reference(pb, 1, &t, p);
    emax = fmax(emax, hypot(o[0] - p[nw], o[1] - p[nw + 1]));
    umax = fmax(umax, fabs(w[7] - p[7]));
    uref = fmax(uref, fabs(p[7]));
  }
  *u1err = umax / uref;
  rc_solution_free(&sol);
  rc_problem_free(&pb);
  return emax;
}

static void test_reduced_long(void) {
  char path[512];
  snprintf(path, sizeof path, "path=%s/crane_wp25.csv", CRANE_TEST_DATA);
  /* stop mode: the waypoints are stops (the smooth default drifts less) */
  const char *proj[] = {path, "path_mode=stop", "guess=rest"};
  const char *plain[] = {path, "path_mode=stop", "project=0"};
  double u1p, u1n, wp, wn;
  const double ep = reduced_path_error("reduced", 3, proj, &u1p, &wp);
  const double en = reduced_path_error("reduced", 3, plain, &u1n, &wn);
  printf("reduced 60 s, 25 waypoints, 240 x 5: projected path error %.2e m "
         "(u1 %.1e rel, %.2f s, from rest guess), plain %.2e m (u1 %.1e "
         "rel)\n",
         ep, u1p, wp, en, u1n);
  EXPECT(ep < 2e-6 && u1p < 1e-3, "projected reduced drifts: %g m, u1 %g", ep,
         u1p);
  EXPECT(en > 1e-4, "plain reduced does not drift (%g m)", en);
  /* track about the flat controls on the same job */
  const char *tr[] = {path, "path_mode=stop", "uref=flat"};
  double u1t, wt;
  const double et = reduced_path_error("track", 3, tr, &u1t, &wt);
  printf("track uref=flat, same job: path error %.2e m, u1 %.1e rel, %.2f "
         "s\n",
         et, u1t, wt);
  EXPECT(et < 2e-6 && u1t < 1e-3, "track uref=flat: %g m, u1 %g", et, u1t);
}

/* ---- 5. smooth waypoint paths (issue 13) -------------------------------- */
static rc_err read_path(const char *name, int smooth, rc_crane_path *path,
                        rc_error *err) {
  char file[512];
  snprintf(file, sizeof file, "%s/%s", CRANE_TEST_DATA, name);
  rc_err rc = rc_crane_path_read_csv(path, file, err);
  if (rc == RC_OK && smooth)
    rc = rc_crane_path_smooth(path, err);
  return rc;
}

/* j-th derivative of 8 s(t/16), the 16 s, 8 m step, by exact rational
 * coefficients (independent of the Horner and spline code of
 * problems/crane/path*.c). */
static double step16(int j, double t) {
  static const double S[10] = {0, 0, 0, 0, 0, 126, -420, 540, -315, 70};
  if (t <= 0.0 || t >= 16.0)
    return j == 0 ? (t <= 0.0 ? 0.0 : 8.0) : 0.0;
  double v = 0.0, a = t / 16.0;
  for (int k = 9; k >= j; --k) {
    double ck = S[k];
    for (int i = 0; i < j; ++i)
      ck *= k - i;
    v = v * a + ck;
  }
  return 8.0 * v / pow(16.0, j);
}

/* 21 waypoints sampled every 0.8 s from the step: the spline is the step
 * (uniqueness of the complete spline), derivatives 0..4. */
static void test_smooth_reproduces_step(void) {
  rc_crane_path path;
  rc_error err;
  if (read_path("crane_lateral21.csv", 1, &path, &err) != RC_OK) {
    EXPECT(0, "lateral21: %s", err.message);
    return;
  }
  EXPECT(path.n == 21 && path.mode == RC_CRANE_PATH_SMOOTH, "21 waypoints");
  double emax[5] = {0}, smax[5] = {0};
  for (int q = 0; q <= 16000; ++q) {
    const double t = -0.5 + 17.0 * q / 16000.0;
    double p1[5], p2[5];
    rc_crane_path_eval(&path, t, p1, p2);
    for (int j = 0; j < 5; ++j) {
      emax[j] = fmax(emax[j], fabs(p1[j] - step16(j, t)));
      smax[j] = fmax(smax[j], fabs(step16(j, t)));
      EXPECT(p2[j] == (j == 0 ? 2.0 : 0.0), "z stays at 2 (t = %g, j %d)", t,
             j);
    }
  }
  for (int j = 0; j < 5; ++j) {
    printf("smooth/step: derivative %d max error %.2e (relative %.2e)\n", j,
           emax[j], emax[j] / smax[j]);
    EXPECT(emax[j] <= 1e-9 * smax[j],
           "smooth spline misses the step's derivative %d by %.3e (max %.3e)",
           j, emax[j], smax[j]);
  }
  rc_crane_overshoot os;
  rc_crane_path_overshoot(&path, &os);
  EXPECT(os.dx < 1e-9 && os.dz == 0.0, "monotone step: overshoot %g %g", os.dx,
         os.dz);
  rc_crane_path_free(&path);
}

/* A non-trivial path (60 s, 25 waypoints, uneven spacing): interpolation,
 * C^8 at interior waypoints from the segment polynomials, C^4 through the
 * evaluator, rest at both ends, and the overshoot against dense sampling. */
static void test_smooth_continuity(void) {
  rc_crane_path path;
  rc_error err;
  if (read_path("crane_job60.csv", 1, &path, &err) != RC_OK) {
    EXPECT(0, "job60: %s", err.message);
    return;
  }
  const int n = path.n;
  double jump[9] = {0}, scale[9] = {0}, emax4 = 0.0, interp = 0.0;
  for (int k = 0; k + 1 < n; ++k) {
    const double h = path.t[k + 1] - path.t[k];
    for (int c = 0; c < 2; ++c) {
      const double *cf = (c == 0 ? path.cx : path.cz) + 10 * k;
      for (int m = 0; m <= 8; ++m) {
        double v0 = 0.0, v1 = 0.0; /* m-th derivative at a = 0 and a = 1 */
        for (int i = m; i < 10; ++i) {
          double f = 1.0;
          for (int l = 0; l < m; ++l)
            f *= i - l;
          v0 += (i == m ? cf[i] * f : 0.0);
          v1 += cf[i] * f;
        }
        v0 /= pow(h, m);
        v1 /= pow(h, m);
        scale[m] = fmax(scale[m], fmax(fabs(v0), fabs(v1)));
        if (k + 2 < n) { /* right end of k against left end of k + 1 */
          const double h2 = path.t[k + 2] - path.t[k + 1];
          const double *cn = (c == 0 ? path.cx : path.cz) + 10 * (k + 1);
          double f = 1.0;
          for (int l = 0; l < m; ++l)
            f *= m - l;
          jump[m] = fmax(jump[m], fabs(v1 - cn[m] * f / pow(h2, m)));
        }
        if (m >= 1 && m <= 4 && k == 0)
          EXPECT(v0 == 0.0 || fabs(v0) < 1e-14 * scale[m],
                 "start not at rest: derivative %d = %g", m, v0);
        if (m >= 1 && m <= 4 && k == n - 2)
          EXPECT(fabs(v1) <= 1e-12 * fmax(scale[m], 1.0),
                 "end not at rest: derivative %d = %g", m, v1);
      }
      const double want = c == 0 ? path.x[k] : path.z[k];
      interp = fmax(interp, fabs(cf[0] - want));
    }
    /* C^4 through the evaluator: one-sided limits at t_{k+1} */
    if (k + 2 < n) {
      const double t1 = path.t[k + 1], d = 1e-9 * h;
      double l1[5], l2[5], r1[5], r2[5];
      rc_crane_path_eval(&path, t1 - d, l1, l2);
      rc_crane_path_eval(&path, t1 + d, r1, r2);
      for (int j = 0; j < 5; ++j)
        emax4 = fmax(emax4, fmax(fabs(l1[j] - r1[j]), fabs(l2[j] - r2[j])) /
                                fmax(scale[j], 1e-300));
    }
  }
  for (int m = 0; m <= 8; ++m) {
    printf("smooth/job60: derivative %d max jump at waypoints %.2e "
           "(relative %.2e)\n",
           m, jump[m], jump[m] / scale[m]);
    EXPECT(jump[m] <= 1e-8 * scale[m], "derivative %d jumps by %.3e (max %.3e)",
           m, jump[m], scale[m]);
  }
  printf("smooth/job60: interpolation error %.2e m, C^4 one-sided %.2e\n",
         interp, emax4);
  EXPECT(interp < 1e-12, "waypoints missed by %g m", interp);
  EXPECT(emax4 < 1e-6, "derivatives 0..4 jump by %g (relative)", emax4);
  /* overshoot: against 200 samples per segment */
  rc_crane_overshoot os;
  rc_crane_path_overshoot(&path, &os);
  double sx = 0.0, sz = 0.0;
  for (int k = 0; k + 1 < n; ++k)
    for (int q = 0; q <= 200; ++q) {
      double t = path.t[k] + (path.t[k + 1] - path.t[k]) * q / 200.0, p1[5],
             p2[5];
      rc_crane_path_eval(&path, t, p1, p2);
      sx = fmax(sx, fmax(p1[0] - fmax(path.x[k], path.x[k + 1]),
                         fmin(path.x[k], path.x[k + 1]) - p1[0]));
      sz = fmax(sz, fmax(p2[0] - fmax(path.z[k], path.z[k + 1]),
                         fmin(path.z[k], path.z[k + 1]) - p2[0]));
    }
  printf("smooth/job60: overshoot x %.4g m at t = %.4g (sampled %.4g), z %.4g "
         "m at t = %.4g (sampled %.4g)\n",
         os.dx, os.tx, sx, os.dz, os.tz, sz);
  EXPECT(os.dx >= sx && os.dx < sx + 1e-6 && os.dz >= sz && os.dz < sz + 1e-6 &&
             sx > 0.01 && sz > 0.01,
         "overshoot %g %g against sampled %g %g", os.dx, os.dz, sx, sz);
  rc_crane_path_free(&path);
}

/* Two waypoints: the smooth path is the stop segment (SPEC's step). */
static void test_smooth_two_waypoints(void) {
  rc_crane_path a, b;
  rc_error err;
  EXPECT(read_path("crane_lateral2.csv", 1, &a, &err) == RC_OK &&
             read_path("crane_lateral2.csv", 0, &b, &err) == RC_OK,
         "lateral2: %s", err.message);
  double e = 0.0;
  for (int q = 0; q <= 1600; ++q) {
    double t = 16.0 * q / 1600.0, a1[5], a2[5], b1[5], b2[5];
    rc_crane_path_eval(&a, t, a1, a2);
    rc_crane_path_eval(&b, t, b1, b2);
    for (int j = 0; j < 5; ++j)
      e = fmax(e, fabs(a1[j] - b1[j]) + fabs(a2[j] - b2[j]));
  }
  EXPECT(e < 1e-12, "2-waypoint smooth path differs from the step by %g", e);
  rc_crane_path_free(&a);
  rc_crane_path_free(&b);
}

/* The flatness check of a smooth path looks between waypoints: every
 * waypoint of crane_dip.csv is below the rail, the spline is not; stop mode
 * accepts the same file.  On an accepted path dense sampling agrees. */
static void test_smooth_flat_check(void) {
  rc_crane_params par = {10, 2, 2, 0.01, 1, 0.005, 0.1, 9.81};
  rc_crane_path path;
  rc_error err;
  EXPECT(read_path("crane_dip.csv", 0, &path, &err) == RC_OK &&
             rc_crane_path_check_flat(&path, &par, &err) == RC_OK,
         "dip in stop mode: %s", err.message);
  rc_crane_path_free(&path);
  EXPECT(read_path("crane_dip.csv", 1, &path, &err) == RC_OK, "dip: %s",
         err.message);
  EXPECT(rc_crane_path_check_flat(&path, &par, &err) == RC_ERR_INPUT &&
             strstr(err.message, "p2 > 0 at t = 6.5") != NULL,
         "dip in smooth mode not refused where it dips: %s", err.message);
  double zmin = HUGE_VAL;
  for (int q = 0; q <= 13000; ++q) {
    double p1[5], p2[5];
    rc_crane_path_eval(&path, 13.0 * q / 13000.0, p1, p2);
    zmin = fmin(zmin, p2[0]);
  }
  EXPECT(zmin < 0.0, "the dip is real (sampled min z = %g)", zmin);
  rc_crane_path_free(&path);
  /* accepted path: sampled b and p2 stay positive */
  EXPECT(read_path("crane_job60.csv", 1, &path, &err) == RC_OK &&
             rc_crane_path_check_flat(&path, &par, &err) == RC_OK,
         "job60 flat check: %s", err.message);
  double bmin = HUGE_VAL;
  zmin = HUGE_VAL;
  for (int q = 0; q <= 60000; ++q) {
    double p1[5], p2[5];
    rc_crane_path_eval(&path, 60.0 * q / 60000.0, p1, p2);
    zmin = fmin(zmin, p2[0]);
    bmin = fmin(bmin, par.m * par.g - par.M2 * p2[2]);
  }
  EXPECT(zmin > 0.0 && bmin > 0.0, "job60 sampled z %g b %g", zmin, bmin);
  rc_crane_path_free(&path);
}

/* CSV reader: long lines (comment and padded data row) are read whole and
 * later line numbers stay right; a first row with an empty field is not a
 * header; a line over the 1 MiB limit and a NUL byte are refused by line. */
static void test_csv_lines(void) {
  rc_crane_path path;
  rc_error err;
  EXPECT(read_path("crane_longline.csv", 0, &path, &err) == RC_OK &&
             path.n == 2 && path.t[1] == 6.0 && path.x[1] == 4.0,
         "long lines: %s (n = %d)", err.message, path.n);
  rc_crane_path_free(&path);
  struct {
    const char *file, *needle;
  } bad[] = {
      {"crane_emptyfield.csv", "line 2: field 2 (x) is empty"},
      {"crane_emptyhead.csv", "line 1: field 1 (t) is empty"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
    EXPECT(read_path(bad[i].file, 0, &path, &err) == RC_ERR_INPUT &&
               strstr(err.message, bad[i].needle) != NULL,
           "%s: '%s' lacks '%s'", bad[i].file, err.message, bad[i].needle);
    printf("refused %s: %s\n", bad[i].file, err.message);
  }
  /* generated: a 1.5 MiB line 3, and a NUL byte on line 4 */
  const char *big = "test_crane_bigline.csv", *nul = "test_crane_nul.csv";
  FILE *f = fopen(big, "w");
  EXPECT(f != NULL, "cannot write %s", big);
  if (f) {
    fputs("t,x,z\n0,0,2\n# ", f);
    for (int i = 0; i < 3 * (1 << 19); ++i)
      fputc('a', f);
    fputs("\n6,4,1\n", f);
    fclose(f);
    EXPECT(rc_crane_path_read_csv(&path, big, &err) == RC_ERR_INPUT &&
               strstr(err.message, "line 3 is longer than 1 MiB") != NULL,
           "1.5 MiB line: %s", err.message);
    remove(big);
  }
  f = fopen(nul, "wb");
  if (f) {
    fwrite("t,x,z\n0,0,2\n3,1,1.5\n4,2\0,1\n6,4,1\n", 1, 30, f);
    fclose(f);
    EXPECT(rc_crane_path_read_csv(&path, nul, &err) == RC_ERR_INPUT &&
               strstr(err.message, "line 4 holds a NUL byte") != NULL,
           "NUL byte: %s", err.message);
    remove(nul);
  }
}

/* The suggested mesh: breakpoints at every waypoint time inside the
 * horizon (also for a path that starts in motion), validated; a bad one is
 * refused by rc_problem_validate. */
static void test_default_mesh(void) {
  const char *files[] = {"crane_lateral21.csv", "crane_job60.csv",
                         "crane_moving.csv"};
  for (int f = 0; f < 3; ++f)
    for (int smooth = 0; smooth < 2; ++smooth) {
      char set[512];
      snprintf(set, sizeof set, "path=%s/%s", CRANE_TEST_DATA, files[f]);
      const char *sets[] = {set,
                            smooth ? "path_mode=smooth" : "path_mode=stop"};
      rc_problem *pb = NULL;
      rc_error err;
      if (make("track", 2, sets, &pb, &err) != RC_OK) {
        EXPECT(0, "%s: %s", files[f], err.message);
        continue;
      }
      rc_crane_path path;
      read_path(files[f], 0, &path, &err);
      const int n = pb->default_mesh_n;
      const double *fr = pb->default_mesh_frac;
      int found = 0, inside = 0;
      for (int k = 0; k < path.n; ++k) {
        if (!(path.t[k] > 0.0 && path.t[k] < pb->tf))
          continue;
        ++inside;
        for (int e = 1; e < n; ++e)
          if (fabs(fr[e] * pb->tf - path.t[k]) < 1e-12 * pb->tf) {
            ++found;
            break;
          }
      }
      printf("default mesh %s (%s): %d elements, %d of %d waypoint times\n",
             files[f], smooth ? "smooth" : "stop", n, found, inside);
      EXPECT(n >= inside + 1 && found == inside && fr[0] == 0.0 && fr[n] == 1.0,
             "%s: mesh of %d elements holds %d of %d waypoint times", files[f],
             n, found, inside);
      EXPECT(strcmp(pb->formulation, "track") == 0 &&
                 (smooth ? pb->note != NULL : pb->note == NULL),
             "%s: overshoot note only in smooth mode", files[f]);
      /* a broken suggestion is refused by validation */
      rc_problem copy = *pb;
      double bad[3] = {0.0, 0.7, 0.6};
      copy.default_mesh_n = 2;
      copy.default_mesh_frac = bad;
      EXPECT(rc_problem_validate(&copy, &err) == RC_ERR_INPUT &&
                 strstr(err.message, "suggested mesh") != NULL,
             "bad suggested mesh accepted: %s", err.message);
      rc_crane_path_free(&path);
      rc_problem_free(&pb);
    }
  const char *badmode[] = {"path_mode=smoth"};
  expect_refused("path_mode", 1, badmode, "path_mode = 'smoth'");
}

/* The mesh check (src/mesh_check.c) on the flat formulation: the flat
 * "solution" is the reference sampled at the nodes, so its dense-output
 * error from rc_diagnose must equal the check's floor (same interpolants,
 * same grid: the check's 8 s = 24 points per element; on a finer grid the
 * degree-s dense output of u1 finds a 0.6 % larger max between the check's
 * points), and the floor falls with h. */
static void test_mesh_check(void) {
  rc_problem *pb = NULL;
  rc_error err;
  if (make("flat", 0, NULL, &pb, &err) != RC_OK) {
    EXPECT(0, "flat: %s", err.message);
    return;
  }
  double prev = HUGE_VAL;
  for (int n = 5; n <= 20; n *= 2) {
    rc_mesh m;
    rc_mesh_check mc;
    rc_mesh_uniform(n, 3, &m, &err);
    EXPECT(rc_mesh_check_reference(pb, &m, 0, &mc, &err) == RC_OK, "check: %s",
           err.message);
    const int iu1 = 7;
    printf("mesh check flat n = %d s = 3: worst %.2e (%s at t = %.3g), u1 "
           "%.2e\n",
           n, mc.worst_rel, rc_mesh_check_var_name(pb, mc.worst_var),
           mc.worst_t, mc.err[iu1]);
    EXPECT(mc.worst_rel < prev / 3, "floor does not fall with h");
    prev = mc.worst_rel;
    rc_solution sol;
    rc_solve_stats st;
    rc_options opt;
    rc_options_default(&opt);
    if (rc_solve(pb, &m, &opt, NULL, &sol, &st, &err) == RC_OK) {
      rc_diagnostics d;
      if (rc_diagnose(pb, &sol, 24, &d, &err) == RC_OK) {
        EXPECT(d.err_dense[iu1] <= mc.err[iu1] * 1.0001 &&
                   d.err_dense[iu1] >= 0.5 * mc.err[iu1],
               "flat u1 dense error %.3e against the check's %.3e",
               d.err_dense[iu1], mc.err[iu1]);
        rc_diagnostics_free(&d);
      }
      rc_solution_free(&sol);
    }
    rc_mesh_check_free(&mc);
    rc_mesh_free(&m);
  }
  rc_problem_free(&pb);
}

/* The crane's 8-point Gauss-Legendre rule (curve length, and the
 * momentum-balance proof of an unreachable end, which must not rest on a
 * quadrature error) integrates x^k exactly for k <= 15 on [-1, 1]. */
static void test_gauss_legendre(void) {
  double worst = 0.0;
  for (int k = 0; k <= 15; ++k) {
    double q = 0.0;
    for (int i = 0; i < 4; ++i)
      q += rc_crane_gl8_w[i] *
           (pow(rc_crane_gl8_x[i], k) + pow(-rc_crane_gl8_x[i], k));
    const double exact = k % 2 ? 0.0 : 2.0 / (k + 1);
    worst = fmax(worst, fabs(q - exact));
  }
  EXPECT(worst < 1e-15, "8-point Gauss-Legendre: moment error %.3g", worst);
}

int main(void) {
  test_gauss_legendre();
  test_simulation();
  static const char *forms[] = {"flat", "track", "servo", "reduced"};
  char good[512];
  snprintf(good, sizeof good, "path=%s/crane_good.csv", CRANE_TEST_DATA);
  const char *gsets[] = {good};
  for (int i = 0; i < 4; ++i) {
    check_reference(forms[i], 0, NULL);
    check_reference(forms[i], 1, gsets);
    check_accelerations(forms[i]);
    test_fd(forms[i], NULL, NULL);
  }
  test_fd("track", "uref=flat", NULL); /* the control term about the flat u */
  /* eps = 1: the control term as large as the tracking term, so that
   * the flat controls' derivatives show */
  const char *flat1[] = {"eps=1"}, *zero1[] = {"uref=zero", "eps=1"};
  test_time_derivs(0, NULL);
  test_time_derivs(1, flat1);
  test_time_derivs(2, zero1);
  test_fd("reduced", "project=0", NULL);
  char curve[512];
  snprintf(curve, sizeof curve, "curve=%s/crane_curve_bow.csv",
           CRANE_TEST_DATA);
  test_fd("pathtime", "u1max=10", NULL);  /* the straight line */
  test_fd("pathtime", curve, "u1max=10"); /* no minimum time without u1max */
  /* the user path really sets the horizon */
  rc_problem *pb = NULL;
  rc_error err;
  EXPECT(make("track", 1, gsets, &pb, &err) == RC_OK && pb->tf == 8.0,
         "good CSV path: tf = %g, expected 8", pb ? pb->tf : -1.0);
  rc_problem_free(&pb);
  test_bad_input();
  test_limit_checks();
  test_limit_notes();
  test_unreachable();
  test_rest_end();
  test_objective();
  test_objective_scale();
  test_reduced_long();
  test_smooth_reproduces_step();
  test_smooth_continuity();
  test_smooth_two_waypoints();
  test_smooth_flat_check();
  test_csv_lines();
  test_default_mesh();
  test_mesh_check();
  if (failures)
    printf("%d failure(s)\n", failures);
  else
    printf("all crane tests passed\n");
  return failures ? 1 : 0;
}
