/*
 * test_check.c - unit test of the finite-difference derivative checker
 * (src/check.c) on a small hand-made problem with deliberately planted bugs.
 *
 * The problem: w = (x1, x2, y, u, p), t in [0, 2], bounds u in [-1, 1],
 * p in [0.5, 2] (the guess puts u = 0.99 next to its bound, so the checker's
 * clipping is exercised; every callback fails fatally outside the bounds).
 *
 *   f0 = x2 y                         f1 = -p sin x1 + u x2^2
 *   g0 = y - cos(x1) x2               c0 = x1 u
 *   L  = u^2 + x1^2 x2
 *   z  = (x1(t0), x2(t0), x1(tf), x2(tf), p, tf)
 *   b0 = x1(t0) - 0.5                 b1 = x1(tf) x2(tf) - p
 *   phi = tf x2(tf)^2
 *   invariant h = x1^2 + x2^2
 *
 * The correct problem must pass; each planted bug (a wrong Jacobian value, a
 * missing Jacobian pattern entry in the point and in the boundary block, a
 * wrong Hessian value in both blocks, a missing Hessian entry, a wrong
 * invariant Jacobian) must give exactly one failure of the right kind, block,
 * row, column and names.  Evaluation failures: a callback failing everywhere
 * gives RC_CHECK_EVAL, one failing on half the domain is retried and passes.
 *
 * Steep derivatives (issue 29): the Goddard rocket's drag
 * D = Dc v^2 exp(-500 (h - 1)) with h >= 1 (COPS 3.0 problem 10), w =
 * (h, v, m, T),
 *
 *   f_h = v,   f_v = (T - D) / m - 1 / h^2,   f_m = -T / c,   phi = h(tf).
 *
 * At the bound h = 1 the plain central difference at h_0 = cbrt(eps) (1 + h)
 * is off by (500 h_0)^2 / 6 = 6e-6 relative, more than rel_tol: levels = 1
 * (that difference alone) fails the correct model, the default (Richardson)
 * passes it with errors < 1e-8, and still fails: every Jacobian entry with
 * its sign flipped, every Hessian entry halved, and d f_v / d h wrong by only
 * 2e-5 relative.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "radcol/check.h"

#include "test_util.h"

enum bug {
  BUG_NONE,
  BUG_JAC_VALUE,     /* df1/du off by 0.1 */
  BUG_JAC_MISSING,   /* dg0/dy = 1 not declared */
  BUG_BND_MISSING,   /* db1/dp = -1 not declared */
  BUG_HES_VALUE,     /* d2/du dx2 off by 0.25 mu1 */
  BUG_HES_MISSING,   /* d2/dp dx1 = -cos(x1) mu1 not declared */
  BUG_BND_HES_VALUE, /* d2 phi/dtf dx2(tf) doubled */
  BUG_INV_VALUE,     /* dh/dx2 off by 0.5 */
  BUG_EVAL_ALWAYS,   /* point eval fails (recoverable) everywhere */
  BUG_EVAL_HALF      /* point eval fails (recoverable) where x1 > 0.6 */
};
static enum bug g_bug = BUG_NONE;

static const char *const names[] = {"x1", "x2", "y", "u", "p"};
static const char *const inv_names[] = {"h"};
static const double w_lo[] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL, -1.0, 0.5};
static const double w_hi[] = {HUGE_VAL, HUGE_VAL, HUGE_VAL, 1.0, 2.0};
static const double c_lo[] = {-1.0}, c_hi[] = {1.0};
static const double b_lo[] = {0.0, 0.0}, b_hi[] = {0.0, 0.0};
static const double x0[] = {0.5, 1.0};

static int out_of_bounds(const double *w) {
  return w[3] < -1.0 || w[3] > 1.0 || w[4] < 0.5 || w[4] > 2.0;
}

/* ---- point block ---- */
/* Jacobian pattern; (2,2) last so BUG_JAC_MISSING drops it. */
static const int jr[] = {0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4, 2};
static const int jc[] = {1, 2, 0, 1, 3, 4, 0, 1, 0, 3, 0, 1, 3, 2};
/* Hessian pattern (lower); (4,0) last so BUG_HES_MISSING drops it. */
static const int hr[] = {0, 1, 1, 2, 3, 3, 3, 4};
static const int hc[] = {0, 0, 1, 1, 0, 1, 3, 0};

static int pt_eval(const rc_problem *pb, double t, const double *w, double *F) {
  (void)pb;
  (void)t;
  if (out_of_bounds(w))
    return -7;
  if (g_bug == BUG_EVAL_ALWAYS || (g_bug == BUG_EVAL_HALF && w[0] > 0.6))
    return 1;
  double x1 = w[0], x2 = w[1], y = w[2], u = w[3], p = w[4];
  F[0] = x2 * y;
  F[1] = -p * sin(x1) + u * x2 * x2;
  F[2] = y - cos(x1) * x2;
  F[3] = x1 * u;
  F[4] = u * u + x1 * x1 * x2;
  return 0;
}

static int pt_jac(const rc_problem *pb, double t, const double *w, double *v) {
  (void)pb;
  (void)t;
  if (out_of_bounds(w))
    return -7;
  double x1 = w[0], x2 = w[1], y = w[2], u = w[3], p = w[4];
  v[0] = y;
  v[1] = x2;
  v[2] = -p * cos(x1);
  v[3] = 2 * u * x2;
  v[4] = x2 * x2 + (g_bug == BUG_JAC_VALUE ? 0.1 : 0.0);
  v[5] = -sin(x1);
  v[6] = sin(x1) * x2;
  v[7] = -cos(x1);
  v[8] = u;
  v[9] = x1;
  v[10] = 2 * x1 * x2;
  v[11] = x1 * x1;
  v[12] = 2 * u;
  if (g_bug != BUG_JAC_MISSING)
    v[13] = 1.0;
  return 0;
}

static int pt_hes(const rc_problem *pb, double t, const double *w,
                  const double *mu, double *v) {
  (void)pb;
  (void)t;
  if (out_of_bounds(w))
    return -7;
  double x1 = w[0], x2 = w[1], u = w[3], p = w[4];
  v[0] = mu[1] * p * sin(x1) + mu[2] * cos(x1) * x2 + 2 * x2 * mu[4];
  v[1] = mu[2] * sin(x1) + 2 * x1 * mu[4];
  v[2] = 2 * u * mu[1];
  v[3] = mu[0];
  v[4] = mu[3];
  v[5] = 2 * x2 * mu[1] + (g_bug == BUG_HES_VALUE ? 0.25 * mu[1] : 0.0);
  v[6] = 2 * mu[4];
  if (g_bug != BUG_HES_MISSING)
    v[7] = -cos(x1) * mu[1];
  return 0;
}

/* ---- boundary block ---- */
/* (1,4) last so BUG_BND_MISSING drops it. */
static const int bjr[] = {0, 1, 1, 2, 2, 1};
static const int bjc[] = {0, 2, 3, 3, 5, 4};
static const int bhr[] = {3, 3, 5};
static const int bhc[] = {2, 3, 3};

static int bd_eval(const rc_problem *pb, double t, const double *z, double *B) {
  (void)pb;
  (void)t;
  if (z[4] < 0.5 || z[4] > 2.0)
    return -7;
  B[0] = z[0] - 0.5;
  B[1] = z[2] * z[3] - z[4];
  B[2] = z[5] * z[3] * z[3];
  return 0;
}

static int bd_jac(const rc_problem *pb, double t, const double *z, double *v) {
  (void)pb;
  (void)t;
  if (z[4] < 0.5 || z[4] > 2.0)
    return -7;
  v[0] = 1.0;
  v[1] = z[3];
  v[2] = z[2];
  v[3] = 2 * z[5] * z[3];
  v[4] = z[3] * z[3];
  if (g_bug != BUG_BND_MISSING)
    v[5] = -1.0;
  return 0;
}

static int bd_hes(const rc_problem *pb, double t, const double *z,
                  const double *mu, double *v) {
  (void)pb;
  (void)t;
  if (z[4] < 0.5 || z[4] > 2.0)
    return -7;
  v[0] = mu[1];
  v[1] = 2 * z[5] * mu[2];
  v[2] = 2 * z[3] * mu[2] * (g_bug == BUG_BND_HES_VALUE ? 2.0 : 1.0);
  return 0;
}

/* ---- invariants ---- */
static const int ijr[] = {0, 0}, ijc[] = {0, 1};
static const int ihr[] = {0, 1}, ihc[] = {0, 1};

static int inv_eval(const rc_problem *pb, double t, const double *w,
                    double *h) {
  (void)pb;
  (void)t;
  h[0] = w[0] * w[0] + w[1] * w[1];
  return 0;
}

static int inv_jac(const rc_problem *pb, double t, const double *w, double *v) {
  (void)pb;
  (void)t;
  v[0] = 2 * w[0];
  v[1] = 2 * w[1] + (g_bug == BUG_INV_VALUE ? 0.5 : 0.0);
  return 0;
}

static int inv_hes(const rc_problem *pb, double t, const double *w,
                   const double *mu, double *v) {
  (void)pb;
  (void)t;
  (void)w;
  v[0] = 2 * mu[0];
  v[1] = 2 * mu[0];
  return 0;
}

static int guess(const rc_problem *pb, double t, double *w) {
  (void)pb;
  w[0] = 0.5 + 0.1 * t;
  w[1] = 1.0 - 0.2 * t;
  w[2] = cos(w[0]) * w[1];
  w[3] = 0.99;
  w[4] = 1.0;
  return 0;
}

static rc_problem make_problem(void) {
  rc_problem pb;
  memset(&pb, 0, sizeof pb);
  pb.model = "test";
  pb.formulation = "planted";
  pb.nx = 2;
  pb.ny = 1;
  pb.nu = 1;
  pb.np = 1;
  pb.nc = 1;
  pb.nb = 2;
  pb.has_lagrange = 1;
  pb.has_mayer = 1;
  pb.var_names = names;
  pb.w_lo = w_lo;
  pb.w_hi = w_hi;
  pb.c_lo = c_lo;
  pb.c_hi = c_hi;
  pb.b_lo = b_lo;
  pb.b_hi = b_hi;
  pb.t0 = 0.0;
  pb.tf = 2.0;
  pb.x0 = x0;
  pb.point = (rc_block){5,
                        {14 - (g_bug == BUG_JAC_MISSING), jr, jc},
                        {8 - (g_bug == BUG_HES_MISSING), hr, hc},
                        pt_eval,
                        pt_jac,
                        pt_hes};
  pb.boundary = (rc_block){3,
                           {6 - (g_bug == BUG_BND_MISSING), bjr, bjc},
                           {3, bhr, bhc},
                           bd_eval,
                           bd_jac,
                           bd_hes};
  pb.ninv = 1;
  pb.inv_names = inv_names;
  pb.invariants =
      (rc_block){1, {2, ijr, ijc}, {2, ihr, ihc}, inv_eval, inv_jac, inv_hes};
  pb.guess = guess;
  return pb;
}

static void print_report(const char *label, const rc_check_report *r) {
  printf("%-18s entries %5d failures %2d max rel err jac %.2e hes %.2e\n",
         label, r->nentries, r->nfailures, r->max_rel_err_jac,
         r->max_rel_err_hes);
  int n = r->nfailures < RC_CHECK_MAX_FAILURES ? r->nfailures
                                               : RC_CHECK_MAX_FAILURES;
  for (int k = 0; k < n; ++k) {
    const rc_check_failure *f = &r->failures[k];
    printf("   kind %d %s (%d %s, %d %s) t=%g fd %.10g got %.10g\n", f->kind,
           f->block, f->row, f->row_name, f->col, f->col_name, f->t,
           f->expected, f->got);
  }
}

static rc_check_report run(enum bug bug, const char *label) {
  rc_check_options o;
  rc_check_options_default(&o);
  rc_check_report r;
  rc_error err;
  g_bug = bug;
  rc_problem pb = make_problem();
  rc_err rc = rc_check_problem(&pb, &o, &r, &err);
  EXPECT(rc == RC_OK, "%s: rc_check_problem returned %s: %s", label,
         rc_err_name(rc), err.message);
  print_report(label, &r);
  return r;
}

/* Exactly one failure, of the given kind, block, entry and names. */
static void expect_one(enum bug bug, const char *label, rc_check_kind kind,
                       const char *block, int row, int col,
                       const char *row_name, const char *col_name,
                       const char *out_name) {
  rc_check_report r = run(bug, label);
  EXPECT(r.nfailures == 1, "%s: %d failures, expected exactly 1", label,
         r.nfailures);
  if (r.nfailures < 1)
    return;
  const rc_check_failure *f = &r.failures[0];
  EXPECT(f->kind == kind, "%s: kind %d, expected %d", label, f->kind, kind);
  EXPECT(strcmp(f->block, block) == 0, "%s: block %s, expected %s", label,
         f->block, block);
  EXPECT(f->row == row && f->col == col,
         "%s: entry (%d, %d), expected (%d, %d)", label, f->row, f->col, row,
         col);
  EXPECT(strcmp(f->row_name, row_name) == 0 &&
             strcmp(f->col_name, col_name) == 0,
         "%s: names (%s, %s), expected (%s, %s)", label, f->row_name,
         f->col_name, row_name, col_name);
  if (out_name) /* Hessian: the output row whose second derivative is wrong */
    EXPECT(f->out_row >= 0 && strcmp(f->out_name, out_name) == 0,
           "%s: output row %d '%s', expected '%s'", label, f->out_row,
           f->out_name, out_name);
  EXPECT(fabs(f->expected - f->got) > 1e-3,
         "%s: reported fd %g and got %g do not differ", label, f->expected,
         f->got);
}

/* ---- steep derivatives: the Goddard rocket's drag ------------------------ */

#define HC 500.0 /* drag decay with height */
#define DC 310.0 /* 0.5 vc, vc = 620 */
#define CF 0.5   /* thrust-to-fuel-flow */

enum { STEEP_OK = -1, STEEP_WRONG_DH = -2 };
/* >= 0: Jacobian entry g_flip's sign flipped; -1 none */
static int g_flip = STEEP_OK;
/* >= 0: Hessian entry g_halve halved; -1 none */
static int g_halve = -1;

static const char *const rk_names[] = {"h", "v", "m", "T"};
static const double rk_lo[] = {1.0, 0.0, 0.6, 0.0};
static const double rk_hi[] = {HUGE_VAL, HUGE_VAL, 1.0, 3.5};
static const double rk_x0[] = {1.0, 0.0, 1.0};
/* Jacobian: f_h/v, f_v/h, f_v/v, f_v/m, f_v/T, f_m/T */
static const int rkjr[] = {0, 1, 1, 1, 1, 2};
static const int rkjc[] = {1, 0, 1, 2, 3, 3};
#define RK_NJ 6
/* Hessian (lower) of mu_1 f_v: hh, vh, vv, mh, mv, mm, Tm */
static const int rkhr[] = {0, 1, 1, 2, 2, 2, 3};
static const int rkhc[] = {0, 0, 1, 0, 1, 2, 2};
#define RK_NH 7

static int rk_eval(const rc_problem *pb, double t, const double *w, double *F) {
  (void)pb;
  (void)t;
  const double h = w[0], v = w[1], m = w[2], T = w[3];
  const double D = DC * v * v * exp(-HC * (h - 1.0));
  F[0] = v;
  F[1] = (T - D) / m - 1.0 / (h * h);
  F[2] = -T / CF;
  return 0;
}

static int rk_jac(const rc_problem *pb, double t, const double *w, double *J) {
  (void)pb;
  (void)t;
  const double h = w[0], v = w[1], m = w[2], T = w[3];
  const double E = exp(-HC * (h - 1.0)), D = DC * v * v * E;
  J[0] = 1.0;
  J[1] = HC * D / m + 2.0 / (h * h * h);
  if (g_flip == STEEP_WRONG_DH)
    J[1] *= 1.0 + 2e-5;
  J[2] = -2.0 * DC * v * E / m;
  J[3] = -(T - D) / (m * m);
  J[4] = 1.0 / m;
  J[5] = -1.0 / CF;
  if (g_flip >= 0)
    J[g_flip] = -J[g_flip];
  return 0;
}

static int rk_hes(const rc_problem *pb, double t, const double *w,
                  const double *mu, double *H) {
  (void)pb;
  (void)t;
  const double h = w[0], v = w[1], m = w[2], T = w[3];
  const double E = exp(-HC * (h - 1.0)), D = DC * v * v * E, k = mu[1];
  H[0] = k * (-HC * HC * D / m - 6.0 / (h * h * h * h));
  H[1] = k * HC * 2.0 * DC * v * E / m;
  H[2] = k * -2.0 * DC * E / m;
  H[3] = k * -HC * D / (m * m);
  H[4] = k * 2.0 * DC * v * E / (m * m);
  H[5] = k * 2.0 * (T - D) / (m * m * m);
  H[6] = k * -1.0 / (m * m);
  if (g_halve >= 0)
    H[g_halve] *= 0.5;
  return 0;
}

/* phi = h(tf); z = (h, v, m at t0, at tf, tf) */
static const int rkbjr[] = {0}, rkbjc[] = {3};
static int rkb_eval(const rc_problem *pb, double t, const double *z,
                    double *B) {
  (void)pb;
  (void)t;
  B[0] = z[3];
  return 0;
}
static int rkb_jac(const rc_problem *pb, double t, const double *z, double *J) {
  (void)pb;
  (void)t;
  (void)z;
  J[0] = 1.0;
  return 0;
}
static int rkb_hes(const rc_problem *pb, double t, const double *z,
                   const double *mu, double *H) {
  (void)pb, (void)t, (void)z, (void)mu, (void)H;
  return 0;
}

/* Near the bound h = 1 where the drag is steepest; v about 0.1. */
static int rk_guess(const rc_problem *pb, double t, double *w) {
  (void)pb;
  w[0] = 1.0;
  w[1] = 0.1 + 0.5 * t;
  w[2] = 1.0 - 0.4 * t;
  w[3] = 1.75;
  return 0;
}

static rc_problem make_rocket(void) {
  rc_problem pb;
  memset(&pb, 0, sizeof pb);
  pb.model = "test";
  pb.formulation = "steep";
  pb.nx = 3;
  pb.nu = 1;
  pb.has_mayer = 1;
  pb.autonomous = 1;
  pb.var_names = rk_names;
  pb.w_lo = rk_lo;
  pb.w_hi = rk_hi;
  pb.t0 = 0.0;
  pb.tf = 0.2;
  pb.x0 = rk_x0;
  pb.point = (rc_block){
      3, {RK_NJ, rkjr, rkjc}, {RK_NH, rkhr, rkhc}, rk_eval, rk_jac, rk_hes};
  pb.boundary = (rc_block){1,        {1, rkbjr, rkbjc}, {0, NULL, NULL},
                           rkb_eval, rkb_jac,           rkb_hes};
  pb.guess = rk_guess;
  return pb;
}

static rc_check_report run_rocket(int levels, const char *label) {
  rc_check_options o;
  rc_check_options_default(&o);
  if (levels)
    o.levels = levels;
  rc_check_report r;
  rc_error err;
  rc_problem pb = make_rocket();
  rc_err rc = rc_check_problem(&pb, &o, &r, &err);
  EXPECT(rc == RC_OK, "%s: rc_check_problem returned %s: %s", label,
         rc_err_name(rc), err.message);
  print_report(label, &r);
  return r;
}

/* Is the entry (kind, row, col) among r's failures? */
static int has_failure(const rc_check_report *r, rc_check_kind kind, int row,
                       int col) {
  int n = r->nfailures < RC_CHECK_MAX_FAILURES ? r->nfailures
                                               : RC_CHECK_MAX_FAILURES;
  for (int k = 0; k < n; ++k)
    if (r->failures[k].kind == kind &&
        strcmp(r->failures[k].block, "point") == 0 &&
        r->failures[k].row == row && r->failures[k].col == col)
      return 1;
  return 0;
}

static void test_steep(void) {
  /* the plain central difference (levels = 1) fails the correct model by its
   * truncation error on d f_v / d h (and the Hessian entries through h) */
  g_flip = STEEP_OK, g_halve = -1;
  rc_check_report plain = run_rocket(1, "steep, plain");
  EXPECT(plain.nfailures > 0 && has_failure(&plain, RC_CHECK_JAC_VALUE, 1, 0),
         "steep, plain difference: %d failures, expected d f_v / d h among "
         "them (truncation 6e-6 > rel_tol 1e-6)",
         plain.nfailures);
  EXPECT(plain.max_rel_err_jac > 1e-6 && plain.max_rel_err_jac < 1e-4,
         "steep, plain difference: max rel err %g, expected the truncation "
         "error of about 6e-6",
         plain.max_rel_err_jac);
  /* step control: the correct model passes, with small errors */
  rc_check_report ok = run_rocket(0, "steep, default");
  EXPECT(ok.nfailures == 0, "steep, default: %d failures, expected 0",
         ok.nfailures);
  EXPECT(ok.max_rel_err_jac < 1e-8 && ok.max_rel_err_hes < 1e-8,
         "steep, default: max rel errors %g %g, expected < 1e-8",
         ok.max_rel_err_jac, ok.max_rel_err_hes);
  EXPECT(ok.max_rel_bound < 1e-7,
         "steep, default: error estimates up to %g, expected < 1e-7",
         ok.max_rel_bound);
  /* and still fails a slightly wrong entry: 2e-5 relative on d f_v / d h */
  g_flip = STEEP_WRONG_DH;
  rc_check_report wrong = run_rocket(0, "steep, 2e-5 off");
  EXPECT(has_failure(&wrong, RC_CHECK_JAC_VALUE, 1, 0),
         "steep: d f_v / d h wrong by 2e-5 relative not caught (%d failures)",
         wrong.nfailures);
  /* every Jacobian entry with its sign flipped, every Hessian entry halved */
  for (int e = 0; e < RK_NJ; ++e) {
    char label[64];
    snprintf(label, sizeof label, "steep, flip J%d", e);
    g_flip = e, g_halve = -1;
    rc_check_report r = run_rocket(0, label);
    EXPECT(has_failure(&r, RC_CHECK_JAC_VALUE, rkjr[e], rkjc[e]),
           "%s: the flipped entry (%d, %d) not reported", label, rkjr[e],
           rkjc[e]);
  }
  for (int e = 0; e < RK_NH; ++e) {
    char label[64];
    snprintf(label, sizeof label, "steep, halve H%d", e);
    g_flip = STEEP_OK, g_halve = e;
    rc_check_report r = run_rocket(0, label);
    EXPECT(has_failure(&r, RC_CHECK_HES_VALUE, rkhr[e], rkhc[e]),
           "%s: the halved entry (%d, %d) not reported", label, rkhr[e],
           rkhc[e]);
  }
  g_flip = STEEP_OK, g_halve = -1;
}

int main(void) {
  /* the correct problem passes, with small errors, reproducibly */
  rc_check_report ok = run(BUG_NONE, "correct");
  EXPECT(ok.nfailures == 0, "correct problem: %d failures", ok.nfailures);
  /* 6 points x (point 5x5 + 15 lower, boundary 3x6 + 21, invariants 1x5 + 15)
   */
  EXPECT(ok.nentries == 6 * (25 + 15 + 18 + 21 + 5 + 15),
         "correct problem: %d entries compared", ok.nentries);
  EXPECT(ok.max_rel_err_jac < 1e-8 && ok.max_rel_err_hes < 1e-8,
         "correct problem: max rel errors %g %g", ok.max_rel_err_jac,
         ok.max_rel_err_hes);
  EXPECT(ok.max_rel_err_jac > 0.0,
         "correct problem: zero Jacobian error is implausible for FD");
  rc_check_report again = run(BUG_NONE, "correct again");
  EXPECT(again.nentries == ok.nentries &&
             again.max_rel_err_jac == ok.max_rel_err_jac &&
             again.max_rel_err_hes == ok.max_rel_err_hes,
         "same seed gave a different run");

  expect_one(BUG_JAC_VALUE, "jac value", RC_CHECK_JAC_VALUE, "point", 1, 3,
             "f_x2", "u", NULL);
  expect_one(BUG_JAC_MISSING, "jac missing", RC_CHECK_JAC_MISSING, "point", 2,
             2, "g_0", "y", NULL);
  expect_one(BUG_BND_MISSING, "boundary missing", RC_CHECK_JAC_MISSING,
             "boundary", 1, 4, "b_1", "p", NULL);
  expect_one(BUG_HES_VALUE, "hes value", RC_CHECK_HES_VALUE, "point", 3, 1, "u",
             "x2", "f_x2");
  expect_one(BUG_HES_MISSING, "hes missing", RC_CHECK_HES_MISSING, "point", 4,
             0, "p", "x1", "f_x2");
  expect_one(BUG_BND_HES_VALUE, "boundary hes", RC_CHECK_HES_VALUE, "boundary",
             5, 3, "tf", "x2(tf)", "phi");
  expect_one(BUG_INV_VALUE, "invariant jac", RC_CHECK_JAC_VALUE, "invariants",
             0, 1, "h", "x2", NULL);

  /* a callback that always fails: one RC_CHECK_EVAL per point, nothing else */
  rc_check_report ev = run(BUG_EVAL_ALWAYS, "eval always");
  EXPECT(ev.nfailures == 6, "eval always: %d failures, expected 6",
         ev.nfailures);
  for (int k = 0; k < ev.nfailures && k < RC_CHECK_MAX_FAILURES; ++k)
    EXPECT(ev.failures[k].kind == RC_CHECK_EVAL &&
               strcmp(ev.failures[k].block, "point") == 0 &&
               strcmp(ev.failures[k].row_name, "eval") == 0 &&
               ev.failures[k].got == 1.0,
           "eval always: failure %d is kind %d block %s", k,
           ev.failures[k].kind, ev.failures[k].block);
  /* failing on part of the domain: retried, and the check still passes */
  rc_check_report half = run(BUG_EVAL_HALF, "eval half");
  EXPECT(half.nfailures == 0, "eval half: %d failures", half.nfailures);
  EXPECT(half.nentries > 0, "eval half: nothing compared");

  /* bad options are input errors */
  rc_check_options o;
  rc_check_options_default(&o);
  o.npoints = 0;
  rc_check_report r;
  rc_error err;
  g_bug = BUG_NONE;
  rc_problem pb = make_problem();
  EXPECT(rc_check_problem(&pb, &o, &r, &err) == RC_ERR_INPUT &&
             strstr(err.message, "npoints") != NULL,
         "npoints = 0 not rejected: %s", err.message);
  const double bad_steps[] = {0.0, -1e-6, 0.02, NAN};
  for (int k = 0; k < 4; ++k) {
    rc_check_options_default(&o);
    o.step = bad_steps[k];
    EXPECT(rc_check_problem(&pb, &o, &r, &err) == RC_ERR_INPUT &&
               strstr(err.message, "step = ") != NULL,
           "step = %g not rejected: %s", bad_steps[k], err.message);
  }
  const int bad_levels[] = {0, 9};
  for (int k = 0; k < 2; ++k) {
    rc_check_options_default(&o);
    o.levels = bad_levels[k];
    EXPECT(rc_check_problem(&pb, &o, &r, &err) == RC_ERR_INPUT &&
               strstr(err.message, "levels = ") != NULL,
           "levels = %d not rejected: %s", bad_levels[k], err.message);
  }

  test_steep();

  /* invariants without a Hessian are refused before any check (init needs
   * that Hessian, so check must not say PASS for them) */
  pb = make_problem();
  pb.invariants.hessian = NULL;
  EXPECT(rc_check_problem(&pb, NULL, &r, &err) == RC_ERR_INPUT &&
             strstr(err.message, "invariants block lacks its Hessian") != NULL,
         "invariants without a Hessian not refused: %s", err.message);
  printf("invariants without a Hessian: %s\n", err.message);

  if (failures)
    printf("%d check(s) failed\n", failures);
  else
    printf("all checks passed\n");
  return failures ? 1 : 0;
}
