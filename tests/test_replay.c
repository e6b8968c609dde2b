/*
 * test_replay.c - the replay library (src/replay.c) against closed-form
 * solutions.
 *
 * Problem "lin": x (state), y (algebraic), u (control), one output q = x + y:
 *     x' = u - y,    0 = y - 2 x      (index 1, g_y = 1)
 * so x' = u - 2 x.
 *  - Plan with u(t) = 1 + t at the nodes (s = 3: the degree-2 dense output
 *    of u is exact), x(0) = 1: x(t) = 1/4 + t/2 + (3/4) e^{-2t} on [0, tf];
 *    after tf, u = 1 + tf: x(t) = (1+tf)/2 + (x(tf) - (1+tf)/2) e^{-2(t-tf)}.
 *  - Zero-order hold H = 0.3 (does not divide tf = 2): on [t_k, t_k + H)
 *    u = 1 + t_k, x(t) = u_k/2 + (x(t_k) - u_k/2) e^{-2(t - t_k)}.
 * Refusals: index 2; y absent from g (structurally singular g_y); g_y = 2y
 * zero at t0 (numerically singular); a control missing from the plan; bad
 * options.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/mesh.h"
#include "radcol/replay.h"
#include "radcol/result.h"
#include "test_util.h"

enum { VARIANT_LIN = 0, VARIANT_NO_Y = 1, VARIANT_SQUARE = 2 };

typedef struct lin {
  rc_problem pb;
  int variant;
} lin;

static const char *const names[3] = {"x", "y", "u"};
static const char *const onames[1] = {"q"};
static const int jr[5] = {0, 0, 1, 1, 2}, jc[5] = {1, 2, 1, 0, 0};
/* bounds: u <= 2.5 (u reaches 3 at tf); path constraint c = x <= 0.9 */
static const double w_lo[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
static const double w_hi[3] = {HUGE_VAL, HUGE_VAL, 2.5};
static const double c_lo[1] = {-HUGE_VAL}, c_hi[1] = {0.9};

static int lin_eval(const rc_problem *pb, double t, const double *w,
                    double *F) {
  (void)t;
  const lin *l = (const lin *)pb;
  F[0] = w[2] - w[1];
  F[1] = l->variant == VARIANT_LIN      ? w[1] - 2.0 * w[0]
         : l->variant == VARIANT_SQUARE ? w[1] * w[1] - w[0]
                                        : w[0] - 1.0;
  if (l->variant != VARIANT_NO_Y)
    F[2] = w[0];
  return 0;
}

static int lin_jac(const rc_problem *pb, double t, const double *w, double *J) {
  (void)t;
  const lin *l = (const lin *)pb;
  J[0] = -1.0;
  J[1] = 1.0;
  J[2] = l->variant == VARIANT_SQUARE ? 2.0 * w[1] : 1.0;
  J[3] = l->variant == VARIANT_SQUARE ? -1.0 : -2.0;
  if (l->variant != VARIANT_NO_Y)
    J[4] = 1.0;
  return 0;
}

static int lin_out(const rc_problem *pb, double t, const double *w,
                   double *out) {
  (void)pb;
  (void)t;
  out[0] = w[0] + w[1];
  return 0;
}

static void make(lin *l, int variant) {
  memset(l, 0, sizeof *l);
  l->variant = variant;
  rc_problem *pb = &l->pb;
  pb->model = "lin";
  pb->formulation = "test";
  pb->index = 1;
  pb->nx = pb->ny = pb->nu = 1;
  pb->var_names = names;
  pb->t0 = 0.0;
  pb->tf = 2.0;
  pb->point.n_out = variant == VARIANT_NO_Y ? 2 : 3;
  pb->nc = variant == VARIANT_NO_Y ? 0 : 1;
  pb->c_lo = c_lo;
  pb->c_hi = c_hi;
  pb->w_lo = w_lo;
  pb->w_hi = w_hi;
  /* VARIANT_NO_Y: g = x - 1 has no y entry (drop pattern entry 2) */
  static const int jr3[3] = {0, 0, 1}, jc3[3] = {1, 2, 0};
  if (variant == VARIANT_NO_Y)
    pb->point.jac = (rc_pattern){3, jr3, jc3};
  else
    pb->point.jac = (rc_pattern){5, jr, jc};
  pb->point.eval = lin_eval;
  pb->point.jacobian = lin_jac;
  pb->nout = 1;
  pb->out_names = onames;
  pb->outputs = lin_out;
}

static double x_smooth(double t) {
  return 0.25 + 0.5 * t + 0.75 * exp(-2.0 * t);
}

/* The plan: 4 elements of 3 stages on [0, 2]; x exact, y = 2x, u = 1 + t. */
static int make_plan(const rc_problem *pb, double y0, rc_solution *sol) {
  const double frac[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
  const int stages[4] = {3, 3, 3, 3};
  rc_mesh mesh;
  rc_error err;
  if (rc_mesh_from_arrays(4, frac, stages, &mesh, &err) != RC_OK ||
      rc_solution_alloc(pb, &mesh, 0.0, 2.0, 0, sol, &err) != RC_OK) {
    fprintf(stderr, "plan: %s\n", err.message);
    return 1;
  }
  rc_mesh_free(&mesh);
  for (int n = 0; n < sol->nnodes; ++n) {
    const double t = sol->t[n];
    sol->w[3 * n] = x_smooth(t);
    sol->w[3 * n + 1] = n == 0 ? y0 : 2.0 * x_smooth(t);
    sol->w[3 * n + 2] = 1.0 + t;
  }
  return 0;
}

static void test_interpolated(void) {
  lin l;
  make(&l, VARIANT_LIN);
  rc_solution plan;
  if (make_plan(&l.pb, 2.0, &plan))
    return;
  rc_replay_options opt;
  rc_replay_options_default(&opt);
  opt.settle = 1.5;
  opt.samples = 200;
  rc_replay r;
  rc_error err;
  rc_err rc = rc_replay_run(&l.pb, &plan, names, 3, &opt, &r, &err);
  EXPECT(rc == RC_OK, "interpolated replay: %s", err.message);
  if (rc == RC_OK) {
    EXPECT(r.t[0] == 0.0 && r.t[r.itf] == 2.0 && r.t[r.nt - 1] == 3.5,
           "samples from 0 through tf = 2 to 3.5, got %g %g %g", r.t[0],
           r.t[r.itf], r.t[r.nt - 1]);
    double e = 0.0, ey = 0.0, eq = 0.0;
    const double xtf = x_smooth(2.0);
    for (int i = 0; i < r.nt; ++i) {
      const double t = r.t[i];
      const double x =
          t <= 2.0 ? x_smooth(t) : 1.5 + (xtf - 1.5) * exp(-2.0 * (t - 2.0));
      e = fmax(e, fabs(r.w[3 * i] - x));
      ey = fmax(ey, fabs(r.w[3 * i + 1] - 2.0 * r.w[3 * i]));
      eq = fmax(eq, fabs(r.out[i] - 3.0 * r.w[3 * i]));
    }
    EXPECT(e < 1e-10, "replay x against the closed form: max error %.3e", e);
    EXPECT(ey < 1e-13, "y solves 0 = y - 2x: max residual %.3e", ey);
    EXPECT(eq < 1e-13, "output q = x + y: max error %.3e", eq);
    EXPECT(fabs(r.u_after[0] - 3.0) < 1e-13, "u after tf = u(tf) = 3, got %g",
           r.u_after[0]);
    EXPECT(r.max_dev[2] < 1e-12, "u follows the plan: deviation %.3e",
           r.max_dev[2]);
    /* the plan's x is the closed form at the nodes, interpolated in between:
     * the deviation is the interpolation error (small, not zero) */
    EXPECT(r.max_dev[0] < 1e-3 && r.end_err[0] < 1e-10,
           "x deviation %.3e (expected < 1e-3), at tf %.3e (node: exact)",
           r.max_dev[0], r.end_err[0]);
    const double drift = fabs(1.5 + (xtf - 1.5) * exp(-3.0) - xtf);
    EXPECT(fabs(r.settle_dev[0] - drift) < 1e-9,
           "x drift after tf %.12g, expected %.12g", r.settle_dev[0], drift);
    EXPECT(isnan(r.bound_viol[0]) && isnan(r.bound_viol[1]) &&
               fabs(r.bound_viol[2] - 0.5) < 1e-13,
           "bound violations: x, y unbounded (NaN), u = 3 over 2.5 by 0.5; "
           "got %g %g %.15g",
           r.bound_viol[0], r.bound_viol[1], r.bound_viol[2]);
    const double xend = 1.5 + (xtf - 1.5) * exp(-3.0);
    EXPECT(r.nc == 1 && fabs(r.path_viol[0] - (xend - 0.9)) < 1e-9,
           "path violation max x - 0.9 = %.12g (x at tend), got %.12g",
           xend - 0.9, r.path_viol[0]);
    rc_solution s;
    rc = rc_replay_solution(&l.pb, &r, &s, &err);
    EXPECT(rc == RC_OK && s.nnodes == r.nt && s.t[r.nt - 1] == 3.5,
           "replay as a solution: %s", err.message);
    if (rc == RC_OK)
      rc_solution_free(&s);
    rc_replay_free(&r);
  }
  /* settle 0: nothing after tf, drift NaN */
  opt.settle = 0.0;
  rc = rc_replay_run(&l.pb, &plan, names, 3, &opt, &r, &err);
  EXPECT(rc == RC_OK && r.itf == r.nt - 1 && isnan(r.settle_dev[0]),
         "settle 0: tf is the last sample and the drift is NaN (%s)",
         err.message);
  if (rc == RC_OK)
    rc_replay_free(&r);
  rc_solution_free(&plan);
}

static void test_hold(void) {
  lin l;
  make(&l, VARIANT_LIN);
  rc_solution plan;
  if (make_plan(&l.pb, 2.0, &plan))
    return;
  rc_replay_options opt;
  rc_replay_options_default(&opt);
  opt.hold = 0.3;
  opt.settle = 1.0;
  rc_replay r;
  rc_error err;
  rc_err rc = rc_replay_run(&l.pb, &plan, names, 3, &opt, &r, &err);
  EXPECT(rc == RC_OK, "hold replay: %s", err.message);
  if (rc != RC_OK) {
    rc_solution_free(&plan);
    return;
  }
  /* closed form, hold interval by hold interval: [tk, next) holds
   * uk = 1 + tk; after tf u = 3 */
  double e = 0.0, eu = 0.0, du = 0.0, tk = 0.0, xk = 1.0, uk = 1.0;
  for (int i = 0; i < r.nt; ++i) {
    const double t = r.t[i];
    for (;;) {
      const double next = tk < 2.0 ? fmin(tk + 0.3, 2.0) : INFINITY;
      if (t < next - 1e-12)
        break;
      xk = uk / 2 + (xk - uk / 2) * exp(-2.0 * (next - tk));
      tk = next;
      uk = tk >= 2.0 ? 3.0 : 1.0 + tk;
    }
    const double x = uk / 2 + (xk - uk / 2) * exp(-2.0 * (t - tk));
    e = fmax(e, fabs(r.w[3 * i] - x));
    eu = fmax(eu, fabs(r.w[3 * i + 2] - uk));
    if (t <= 2.0)
      du = fmax(du, fabs(1.0 + t - uk));
  }
  EXPECT(e < 1e-10, "held replay x against the closed form: max error %.3e", e);
  EXPECT(eu < 1e-12, "held u: max error %.3e", eu);
  EXPECT(fabs(r.max_dev[2] - du) < 1e-12 && du > 0.29 && du < 0.3,
         "u deviation %.12g: expected the largest 1 + t - u_k over the "
         "samples, %.12g (just under the hold period 0.3)",
         r.max_dev[2], du);
  rc_replay_free(&r);
  rc_solution_free(&plan);
}

static void test_refusals(void) {
  lin l;
  rc_solution plan;
  rc_replay r;
  rc_error err;
  make(&l, VARIANT_LIN);
  if (make_plan(&l.pb, 2.0, &plan))
    return;
  l.pb.index = 2;
  EXPECT(rc_replay_run(&l.pb, &plan, names, 3, NULL, &r, &err) ==
                 RC_ERR_INPUT &&
             strstr(err.message, "index 2"),
         "index 2 refused, got: %s", err.message);
  make(&l, VARIANT_NO_Y);
  EXPECT(rc_replay_check(&l.pb, &err) == RC_ERR_INPUT &&
             strstr(err.message, "algebraic variable y"),
         "y absent from g refused, got: %s", err.message);
  rc_solution_free(&plan);

  make(&l, VARIANT_SQUARE);
  if (make_plan(&l.pb, 0.0, &plan))
    return;
  for (int n = 0; n < plan.nnodes; ++n)
    plan.w[3 * n + 1] = 0.0; /* y = 0 everywhere: g_y = 2y = 0 at t0 */
  EXPECT(rc_replay_run(&l.pb, &plan, names, 3, NULL, &r, &err) ==
                 RC_ERR_INPUT &&
             strstr(err.message, "singular"),
         "singular g_y at t0 refused, got: %s", err.message);

  make(&l, VARIANT_LIN);
  const char *const other[3] = {"x", "y", "v"};
  EXPECT(rc_replay_run(&l.pb, &plan, other, 3, NULL, &r, &err) ==
                 RC_ERR_INPUT &&
             strstr(err.message, "control u"),
         "missing control refused, got: %s", err.message);
  rc_replay_options opt;
  rc_replay_options_default(&opt);
  opt.hold = -1.0;
  EXPECT(rc_replay_run(&l.pb, &plan, names, 3, &opt, &r, &err) == RC_ERR_INPUT,
         "negative hold refused");
  opt.hold = 1e-9;
  EXPECT(rc_replay_run(&l.pb, &plan, names, 3, &opt, &r, &err) == RC_ERR_INPUT,
         "2e9 hold periods refused, got: %s", err.message);
  rc_replay_options_default(&opt);
  opt.settle = NAN;
  EXPECT(rc_replay_run(&l.pb, &plan, names, 3, &opt, &r, &err) == RC_ERR_INPUT,
         "NaN settle refused");
  rc_solution_free(&plan);
}

/* x' = x^2, x(0) = 1 blows up at t = 1; f refuses |x| > 1e8 (> 0:
 * recoverable, so GSL halves its step until it cannot get on). */
static const char *const bnames[1] = {"x"};
static const int br[1] = {0}, bc[1] = {0};
static int blow_eval(const rc_problem *pb, double t, const double *w,
                     double *F) {
  (void)pb;
  (void)t;
  F[0] = w[0] * w[0];
  return fabs(w[0]) > 1e8;
}
static int blow_jac(const rc_problem *pb, double t, const double *w,
                    double *J) {
  (void)pb;
  (void)t;
  J[0] = 2.0 * w[0];
  return 0;
}

static void test_failure(void) {
  rc_problem pb;
  memset(&pb, 0, sizeof pb);
  pb.model = "blow";
  pb.formulation = "up";
  pb.nx = 1;
  pb.var_names = bnames;
  pb.t0 = 0.0;
  pb.tf = 2.0;
  pb.point.n_out = 1;
  pb.point.jac = (rc_pattern){1, br, bc};
  pb.point.eval = blow_eval;
  pb.point.jacobian = blow_jac;
  const double frac[2] = {0.0, 1.0};
  const int stages[1] = {2};
  rc_mesh mesh;
  rc_solution plan;
  rc_error err;
  if (rc_mesh_from_arrays(1, frac, stages, &mesh, &err) != RC_OK ||
      rc_solution_alloc(&pb, &mesh, 0.0, 2.0, 0, &plan, &err) != RC_OK)
    return;
  rc_mesh_free(&mesh);
  for (int n = 0; n < plan.nnodes; ++n)
    plan.w[n] = 1.0;
  rc_replay r;
  rc_err rc = rc_replay_run(&pb, &plan, bnames, 1, NULL, &r, &err);
  printf("blow-up: %s\n", err.message);
  EXPECT(rc == RC_ERR_EVAL && strstr(err.message, "t = 0.99"),
         "blow-up at t = 1: expected an evaluation failure naming t ~ 1, "
         "got %d: %s",
         (int)rc, err.message);
  if (rc == RC_OK)
    rc_replay_free(&r);
  rc_solution_free(&plan);
}

int main(void) {
  test_failure();
  test_interpolated();
  test_hold();
  test_refusals();
  return RC_TEST_EXIT();
}
