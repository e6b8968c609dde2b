/*
 * test_pendulum.c - the pendulum model (problems/pendulum.c) and the GSL
 * reference integrator (src/ode_reference.c).
 *
 * 1. Reference integrator: argument errors, a failing rhs, t = t0 outputs.
 * 2. Reference accuracy, against references that share nothing with it:
 *    energy E = omega^2/2 - (g/L) cos theta is conserved; a hand-written
 *    fixed-step classical RK4 (h = 1e-4) agrees; after one exact period
 *    P = 4 K(sin(theta_max/2)) / sqrt(g/L) (K by the AGM) the state returns.
 * 3. Every formulation: along the reference trajectory (with its analytic
 *    time derivative from theta' = omega, omega' = -(g/L) sin theta and the
 *    chain rule) the point block residual f - x', g and the invariants
 *    h1..h3 vanish; the reference starts at the formulation's x0; derived
 *    outputs agree with the reference columns; the guess starts at x0.
 * 4. Derivatives: rc_check_problem (finite differences) on every formulation.
 * 5. Parameters: derived defaults, and bad input named in the message.
 * 6. End to end: accel and coord solved by rc_solve on two meshes; the error
 *    at the element ends falls at about order 2s - 1 = 5 for s = 3.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/catalogue.h"
#include "radcol/check.h"
#include "radcol/ode_reference.h"
#include "radcol/problem.h"
#include "radcol/solve.h"

#include "test_util.h"

static const char *const forms[] = {"index3",    "ode", "coord",     "accel",
                                    "baumgarte", "ggl", "partition", "angle"};
#define NFORMS 8

/* Builds a formulation with the defaults, except nset named overrides. */
static rc_problem *make(const char *form, int nset, const char *const *names,
                        const double *vals, rc_error *err) {
  const rc_model *m = rc_find_model("pendulum");
  if (!m)
    return NULL;
  double real[32];
  int is_set[32] = {0};
  for (int i = 0; i < m->nparams; ++i)
    real[i] = m->params[i].default_real;
  for (int k = 0; k < nset; ++k) {
    int i = rc_model_param_index(m, names[k]);
    if (i < 0)
      return NULL;
    real[i] = vals[k];
    is_set[i] = 1;
  }
  rc_param_values pv = {m->nparams, real, NULL, is_set, NULL, NULL};
  rc_problem *pb = NULL;
  m->create(m, rc_model_find_formulation(m, form), &pv, &pb, err);
  return pb;
}

static double param_default(const char *name) {
  const rc_model *m = rc_find_model("pendulum");
  return m->params[rc_model_param_index(m, name)].default_real;
}

/* ---- 1. the integrator ----------------------------------------------------
 */

typedef struct osc {
  double w2; /* g/L */
  int fail_after;
  int calls;
} osc;

static int pend_rhs(double t, const double *y, double *dy, void *ctx) {
  (void)t;
  osc *o = ctx;
  if (o->fail_after > 0 && ++o->calls > o->fail_after)
    return 1;
  dy[0] = y[1];
  dy[1] = -o->w2 * sin(y[0]);
  return 0;
}

static void test_integrator_api(void) {
  osc o = {9.81, 0, 0};
  const double y0[2] = {0.3, 0.0};
  double t[3] = {0.0, 0.0, 1.0}, out[6];
  rc_error err;
  EXPECT(rc_ode_reference(2, pend_rhs, &o, 0.0, y0, 3, t, out, 1e-13, &err) ==
             RC_OK,
         "integrator failed: %s", err.message);
  EXPECT(out[0] == 0.3 && out[1] == 0.0 && out[2] == 0.3 && out[3] == 0.0,
         "outputs at t = t0 must be y0 exactly");
  double bad[2] = {1.0, 0.5};
  EXPECT(rc_ode_reference(2, pend_rhs, &o, 0.0, y0, 2, bad, out, 1e-13, &err) ==
                 RC_ERR_INPUT &&
             strstr(err.message, "t[1]"),
         "descending times must be rejected naming t[1]: %s", err.message);
  double before[1] = {-1.0};
  EXPECT(rc_ode_reference(2, pend_rhs, &o, 0.0, y0, 1, before, out, 1e-13,
                          &err) == RC_ERR_INPUT,
         "a time before t0 must be rejected");
  EXPECT(rc_ode_reference(2, pend_rhs, &o, 0.0, y0, 1, t + 2, out, -1.0,
                          &err) == RC_ERR_INPUT &&
             strstr(err.message, "tolerance"),
         "a negative tolerance must be rejected: %s", err.message);
  o.fail_after = 50;
  EXPECT(rc_ode_reference(2, pend_rhs, &o, 0.0, y0, 1, t + 2, out, 1e-13,
                          &err) == RC_ERR_EVAL,
         "a failing rhs must give RC_ERR_EVAL, got: %s", err.message);
}

/* ---- 2. reference accuracy --------------------------------------------------
 */

static double agm_k(double k) {
  double a = 1.0, b = sqrt(1.0 - k * k);
  for (int i = 0; i < 60; ++i) {
    double an = 0.5 * (a + b);
    b = sqrt(a * b);
    a = an;
  }
  return 3.14159265358979323846 / (2.0 * a);
}

static void rk4_step(double w2, double h, double *y) {
  double k[4][2], z[2];
  const double c[4] = {0.0, 0.5, 0.5, 1.0};
  for (int s = 0; s < 4; ++s) {
    z[0] = y[0] + (s ? c[s] * h * k[s - 1][0] : 0.0);
    z[1] = y[1] + (s ? c[s] * h * k[s - 1][1] : 0.0);
    k[s][0] = z[1];
    k[s][1] = -w2 * sin(z[0]);
  }
  for (int j = 0; j < 2; ++j)
    y[j] += h / 6.0 * (k[0][j] + 2.0 * k[1][j] + 2.0 * k[2][j] + k[3][j]);
}

static void test_reference_accuracy(void) {
  rc_error err;
  rc_problem *pb = make("angle", 0, NULL, NULL, &err);
  EXPECT(pb, "angle: %s", err.message);
  if (!pb)
    return;
  const double g = param_default("g"), L = param_default("L"), w2 = g / L;
  enum { NT = 501 };
  const int m = rc_problem_nw(pb) + pb->nout;
  static double t[NT], ref[NT * 7];
  for (int i = 0; i < NT; ++i)
    t[i] = pb->tf * i / (NT - 1);
  EXPECT(pb->reference(pb, NT, t, ref) == 0, "reference failed");
  const double th0 = pb->x0[0], om0 = pb->x0[1];
  const double E0 = 0.5 * om0 * om0 - w2 * cos(th0);
  double dE = 0.0, drk = 0.0;
  double y[2] = {th0, om0};
  const int sub = 100; /* RK4 steps per output interval: h = 1e-4 */
  for (int i = 0; i < NT; ++i) {
    const double th = ref[i * m], om = ref[i * m + 1];
    dE = fmax(dE, fabs(0.5 * om * om - w2 * cos(th) - E0));
    if (i > 0)
      for (int k = 0; k < sub; ++k)
        rk4_step(w2, (t[i] - t[i - 1]) / sub, y);
    drk = fmax(drk, fmax(fabs(y[0] - th), fabs(y[1] - om)));
  }
  printf("reference over [0, %g]: max |E - E0| = %.2e, max |ref - RK4(1e-4)| "
         "= %.2e\n",
         pb->tf, dE, drk);
  EXPECT(dE < 1e-12, "energy drift %.3e over the horizon", dE);
  EXPECT(drk < 1e-10, "reference and RK4 differ by %.3e", drk);

  /* One exact period. */
  const double cmax = -E0 / w2, k = sin(0.5 * acos(cmax));
  const double P = 4.0 * agm_k(k) / sqrt(w2);
  double tp[1] = {P}, rp[7];
  EXPECT(pb->reference(pb, 1, tp, rp) == 0, "reference at one period failed");
  const double dp = fmax(fabs(rp[0] - th0), fabs(rp[1] - om0));
  printf("after one exact period P = %.15f s: |state - start| = %.2e\n", P, dp);
  EXPECT(dp < 1e-11, "state after one period is off by %.3e", dp);
  rc_problem_free(&pb);
}

/* ---- 3. equations along the reference
 * ---------------------------------------- */

/* Time derivative of the formulation's differential states along the angle
 * state (th, om). */
static void state_derivative(const char *form, double g, double L, double th,
                             double om, double *d) {
  const double al = -g / L * sin(th), c = cos(th), s = sin(th);
  const double dx = L * om * c, dy = -L * om * s;
  const double du = L * (al * c - om * om * s),
               dv = -L * (al * s + om * om * c);
  const double dT = 2.0 * om * al - g / L * om * s;
  if (!strcmp(form, "angle"))
    d[0] = om, d[1] = al;
  else if (!strcmp(form, "partition"))
    d[0] = dx, d[1] = du;
  else if (!strcmp(form, "coord"))
    d[0] = dy, d[1] = dv;
  else
    d[0] = dx, d[1] = dy, d[2] = du, d[3] = dv, d[4] = dT;
}

/* nset overrides, the same for the formulation and its angle twin (the seed
 * case x0 = 0.9, u0 = 0, tf = 10 included). */
static void check_along_reference(const char *form, int nset,
                                  const char *const *names,
                                  const double *vals) {
  rc_error err;
  rc_problem *pb = make(form, nset, names, vals, &err);
  rc_problem *pa = make("angle", nset, names, vals, &err);
  EXPECT(pb && pa, "%s: %s", form, err.message);
  if (!pb || !pa)
    return;
  enum { NT = 201 };
  const int nw = rc_problem_nw(pb), m = nw + pb->nout, ma = 7;
  const int nF = rc_problem_nF(pb);
  static double t[NT], ref[NT * 16], refa[NT * 7];
  for (int i = 0; i < NT; ++i)
    t[i] = pb->tf * i / (NT - 1);
  EXPECT(pb->reference(pb, NT, t, ref) == 0, "%s: reference failed", form);
  EXPECT(pa->reference(pa, NT, t, refa) == 0, "angle reference failed");
  const double g = param_default("g"), L = param_default("L");
  double resF = 0.0, resH = 0.0, resO = 0.0, F[16], h[3], d[5], o[8];
  for (int i = 0; i < NT; ++i) {
    const double *w = ref + i * m;
    EXPECT(pb->point.eval(pb, t[i], w, F) == 0, "%s: eval failed", form);
    state_derivative(form, g, L, refa[i * ma], refa[i * ma + 1], d);
    for (int k = 0; k < pb->nx; ++k)
      resF = fmax(resF, fabs(F[k] - d[k]));
    for (int k = pb->nx; k < nF; ++k)
      resF = fmax(resF, fabs(F[k]));
    EXPECT(pb->invariants.eval(pb, t[i], w, h) == 0, "%s: invariants", form);
    for (int k = 0; k < 3; ++k)
      resH = fmax(resH, fabs(h[k]));
    if (pb->nout > 0) {
      EXPECT(pb->outputs(pb, t[i], w, o) == 0, "%s: outputs", form);
      for (int k = 0; k < pb->nout; ++k)
        resO = fmax(resO, fabs(o[k] - w[nw + k]));
    }
  }
  /* The reference starts at the formulation's fixed initial values, and so
   * does the guess. */
  double r0 = 0.0, g0 = 0.0, wg[8];
  EXPECT(pb->guess(pb, pb->t0, wg) == 0, "%s: guess failed", form);
  for (int k = 0; k < pb->nx; ++k) {
    r0 = fmax(r0, fabs(ref[k] - pb->x0[k]));
    g0 = fmax(g0, fabs(wg[k] - pb->x0[k]));
  }
  printf("%-9s tf %4.1f x0 %.2f: max |f - x'|, |g| = %.2e, max |h| = %.2e, "
         "outputs %.1e, |ref(t0) - x0| = %.1e\n",
         form, pb->tf, L * sin(refa[0]), resF, resH, resO, r0);
  EXPECT(resF < 1e-9, "%s: residual along the reference %.3e", form, resF);
  EXPECT(resH < 1e-10, "%s: invariants along the reference %.3e", form, resH);
  EXPECT(resO < 1e-12, "%s: outputs differ from the reference by %.3e", form,
         resO);
  EXPECT(r0 < 1e-13, "%s: reference(t0) - x0 = %.3e", form, r0);
  EXPECT(g0 < 1e-13, "%s: guess(t0) - x0 = %.3e", form, g0);
  if (!strcmp(form, "ggl")) {
    double mu = 0.0;
    for (int i = 0; i < NT; ++i)
      mu = fmax(mu, fabs(ref[i * m + 5]));
    EXPECT(mu == 0.0, "ggl: reference mu must be 0");
  }
  rc_problem_free(&pb);
  rc_problem_free(&pa);
}

/* ---- 4. derivatives
 * ------------------------------------------------------------ */

static void test_derivatives(void) {
  for (int f = 0; f < NFORMS; ++f) {
    rc_error err;
    rc_problem *pb = make(forms[f], 0, NULL, NULL, &err);
    EXPECT(pb, "%s: %s", forms[f], err.message);
    if (!pb)
      continue;
    rc_check_options o;
    rc_check_options_default(&o);
    rc_check_report rep;
    EXPECT(rc_check_problem(pb, &o, &rep, &err) == RC_OK, "%s: check: %s",
           forms[f], err.message);
    EXPECT(rep.nfailures == 0, "%s: %d derivative failures (first: %s %d,%d)",
           forms[f], rep.nfailures, rep.nfailures ? rep.failures[0].block : "",
           rep.failures[0].row, rep.failures[0].col);
    rc_problem_free(&pb);
  }
}

/* ---- 5. parameters
 * ----------------------------------------------------------- */

static void test_parameters(void) {
  rc_error err;
  const char *n1[] = {"x0", "u0"};
  const double v1[] = {0.9, 0.0};
  rc_problem *pb = make("ode", 2, n1, v1, &err);
  EXPECT(pb, "ode with x0 = 0.9: %s", err.message);
  if (pb) {
    const double y0 = sqrt(1.0 - 0.81);
    EXPECT(fabs(pb->x0[1] - y0) < 1e-15 && pb->x0[3] == 0.0 &&
               fabs(pb->x0[4] - 9.81 * y0) < 1e-14,
           "derived y0, v0, T0 wrong: %g %g %g", pb->x0[1], pb->x0[3],
           pb->x0[4]);
    rc_problem_free(&pb);
  }
  /* Defaults reproduce SPEC 4.1's numbers. */
  pb = make("ode", 0, NULL, NULL, &err);
  if (pb) {
    const double y0 = sqrt(0.99), v0 = -0.1 / sqrt(0.99);
    EXPECT(fabs(pb->x0[1] - y0) < 1e-15 && fabs(pb->x0[3] - v0) < 1e-15 &&
               fabs(pb->x0[4] - (1.0 + v0 * v0 + 9.81 * y0)) < 1e-14,
           "defaults differ from SPEC 4.1");
    EXPECT(pb->fix_x0 && pb->fix_x0[4], "ode must fix T(t0)");
    rc_problem_free(&pb);
  }
  pb = make("coord", 0, NULL, NULL, &err);
  if (pb) {
    /* no bound on x: the guess picks the branch of x0 at t0 and follows the
     * physical motion through the zeros of x */
    double w0[5];
    EXPECT(pb->nx == 2 && pb->ny == 3 && pb->t0_algebraic == 1 &&
               isinf(pb->w_lo[2]) && pb->guess(pb, 0.0, w0) == 0 &&
               fabs(w0[2] - 0.1) < 1e-12,
           "coord: y v | x u T, x free, g at t0, guess on the branch of x0");
    rc_problem_free(&pb);
  }
  {
    const char *nm[] = {"x0"};
    const double vm[] = {-0.1};
    pb = make("coord", 1, nm, vm, &err);
    double w0[5];
    EXPECT(pb && pb->guess(pb, 0.0, w0) == 0 && fabs(w0[2] + 0.1) < 1e-12,
           "coord with x0 = -0.1: guess on the negative branch");
    rc_problem_free(&pb);
  }
  const char *nb[] = {"L"};
  const double vb[] = {-1.0};
  pb = make("accel", 1, nb, vb, &err);
  EXPECT(!pb && err.code == RC_ERR_INPUT && strstr(err.message, "L = -1"),
         "L = -1 must be rejected naming L: %s", err.message);
  const char *np[] = {"x0", "y0"};
  const double vp[] = {1.5, 0.1};
  pb = make("partition", 2, np, vp, &err);
  EXPECT(!pb && err.code == RC_ERR_INPUT && strstr(err.message, "x0 = 1.5"),
         "partition with |x0| > L must be rejected: %s", err.message);
  const char *nc[] = {"y0"};
  const double vc[] = {1.0};
  pb = make("coord", 1, nc, vc, &err);
  EXPECT(!pb && err.code == RC_ERR_INPUT && strstr(err.message, "y0 = 1"),
         "coord with x(t0) = 0 must be rejected: %s", err.message);
}

/* ---- 6. end to end
 * --------------------------------------------------------------- */

/* Max reference error of x over the element ends. */
static double solve_error(rc_problem *pb, int n, int s, rc_status *st) {
  rc_mesh mesh = {0};
  rc_options opt;
  rc_error err;
  rc_solution sol;
  rc_solve_stats stats;
  rc_diagnostics d;
  double e = HUGE_VAL;
  rc_options_default(&opt);
  if (rc_mesh_uniform(n, s, &mesh, &err) != RC_OK)
    return e;
  if (rc_solve(pb, &mesh, &opt, NULL, &sol, &stats, &err) == RC_OK) {
    *st = stats.status;
    if (rc_diagnose(pb, &sol, 8, &d, &err) == RC_OK) {
      e = 0.0;
      for (int k = 0; k < pb->nx; ++k)
        e = fmax(e, d.err_ends[k]);
      rc_diagnostics_free(&d);
    }
    rc_solution_free(&sol);
  } else {
    fprintf(stderr, "%s: %s\n", pb->formulation, err.message);
  }
  rc_mesh_free(&mesh);
  return e;
}

static void test_solve(const char *form, double tf, int n) {
  const char *names[] = {"tf"};
  const double vals[] = {tf};
  rc_error err;
  rc_problem *pb = make(form, 1, names, vals, &err);
  EXPECT(pb, "%s: %s", form, err.message);
  if (!pb)
    return;
  rc_status s1 = RC_STATUS_FAILED, s2 = RC_STATUS_FAILED;
  const double e1 = solve_error(pb, n, 3, &s1);
  const double e2 = solve_error(pb, 2 * n, 3, &s2);
  const double order = log2(e1 / e2);
  printf("solve %-9s tf %.1f s = 3: n = %d err %.2e, n = %d err %.2e, "
         "observed order %.2f\n",
         form, tf, n, e1, 2 * n, e2, order);
  EXPECT(s1 == RC_STATUS_CONVERGED && s2 == RC_STATUS_CONVERGED,
         "%s: solves did not converge (%d, %d)", form, s1, s2);
  EXPECT(e2 < 1e-5, "%s: error %.3e on the finer mesh", form, e2);
  EXPECT(order > 4.0 && order < 6.5, "%s: observed order %.2f, expected ~5",
         form, order);
  rc_problem_free(&pb);
}

int main(void) {
  if (!rc_find_model("pendulum")) {
    fprintf(stderr, "pendulum is not registered\n");
    return 1;
  }
  test_integrator_api();
  test_reference_accuracy();
  const char *seed_names[] = {"x0", "u0", "tf"};
  const double seed_vals[] = {0.9, 0.0, 10.0};
  for (int f = 0; f < NFORMS; ++f) {
    check_along_reference(forms[f], 0, NULL, NULL);
    check_along_reference(forms[f], 3, seed_names, seed_vals);
  }
  test_derivatives();
  test_parameters();
  test_solve("accel", 5.0, 40);
  test_solve("coord", 0.8, 8);
  if (failures)
    fprintf(stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
