/*
 * double_integrator.c - the minimum-time double integrator, the textbook
 * bang-bang problem (Bryson and Ho, Applied Optimal Control, 1975, sec. 7.3;
 * Kirk, Optimal Control Theory, 1970, example 5.4-1), with its closed-form
 * optimum as the reference.
 *
 * States x (position, m), v (velocity, m/s); control u (acceleration, m/s^2):
 *
 *     x' = v,  v' = u,  |u| <= umax,
 *     x(0) = x0, v(0) = v0,  x(tf) = 0, v(tf) = 0,
 *     minimise tf  (formulation mintime; tf free in [tf_lo, tf_hi]).
 *
 * The optimum (Pontryagin: u = -umax sign(lambda_v), lambda_v linear in t,
 * so at most one switch).  On the switching curve x = -v |v| / (2 umax) the
 * last arc ends at the origin.  A start above it (x0 > -v0 |v0| / (2 umax))
 * brakes first: u = -umax until v reaches
 *     v_s = -sqrt(umax x0 + v0^2 / 2),     at t1 = (v0 - v_s) / umax,
 * (x + v^2 / (2 umax) is constant along u = -umax), then u = +umax to the
 * origin at tf* = (v0 - 2 v_s) / umax; a start below it is the mirror image
 * (x, v, u -> -x, -v, -u).  From rest at x0 > 0: t1 = sqrt(x0 / umax),
 * tf* = 2 sqrt(x0 / umax).  The reference samples this solution on
 * [0, tf*] (after tf*: the origin at rest).
 *
 * The Mayer term phi = tf sits in the boundary block (its one Jacobian entry
 * d phi / d tf = 1, no Hessian); the problem is autonomous, as a free tf
 * and free breakpoints need.  Units: SI, seconds.
 */
#include <math.h>
#include <stdlib.h>

#include "radcol/kit.h"
#include "radcol/problem.h"

#include "origin.h"

enum { DI_MINTIME, DI_NFORM };
enum { IX, IV, IU, NW };

typedef struct di_problem {
  rc_kit_blocks kit; /* first: the kit finds its blocks here */
  rc_problem pb;
  double umax, x0v[2];
  double lo[NW], hi[NW];
  int fix0[2], fixf[2];
  double xf[2];
  rc_model_origin origin; /* for restart */
} di_problem;

static const char *const di_names[NW] = {"x", "v", "u"};

static int di_point(const rc_problem *pb, double t, const double *w,
                    rc_kit *k) {
  (void)pb, (void)t;
  rc_kit_row(k, 0, w[IV]); /* x' = v */
  rc_kit_d(k, IV, 1.0);
  rc_kit_row(k, 1, w[IU]); /* v' = u */
  rc_kit_d(k, IU, 1.0);
  return 0;
}

/* z = (x(t0), v(t0), x(tf), v(tf), tf): phi = tf */
static int di_boundary(const rc_problem *pb, double t, const double *z,
                       rc_kit *k) {
  (void)pb, (void)t;
  rc_kit_row(k, 0, z[4]);
  rc_kit_d(k, 4, 1.0);
  return 0;
}

/* The closed-form optimum (header): first arc sign, switch time, tf*. */
static void di_optimum(const di_problem *d, double *sgn, double *t1,
                       double *T) {
  const double a = d->umax;
  double x0 = d->x0v[0], v0 = d->x0v[1];
  *sgn = x0 > -v0 * fabs(v0) / (2.0 * a) ? 1.0 : -1.0;
  x0 *= *sgn, v0 *= *sgn; /* mirror a start below the curve */
  const double vs = -sqrt(a * x0 + 0.5 * v0 * v0);
  *t1 = (v0 - vs) / a;
  *T = (v0 - 2.0 * vs) / a;
}

static int di_reference(const rc_problem *pb, int nt, const double *t,
                        double *ref) {
  const di_problem *d = pb->user;
  const double a = d->umax;
  double sgn, t1, T;
  di_optimum(d, &sgn, &t1, &T);
  const double x0 = sgn * d->x0v[0], v0 = sgn * d->x0v[1];
  for (int i = 0; i < nt; ++i) {
    double x, v, u;
    if (t[i] <= t1) {
      const double s = t[i];
      x = x0 + v0 * s - 0.5 * a * s * s, v = v0 - a * s, u = -a;
    } else if (t[i] < T) {
      const double r = T - t[i]; /* time to go on the u = +a arc */
      x = 0.5 * a * r * r, v = -a * r, u = a;
    } else {
      x = 0.0, v = 0.0, u = a;
    }
    ref[3 * i + 0] = sgn * x;
    ref[3 * i + 1] = sgn * v;
    ref[3 * i + 2] = sgn * u;
  }
  return 0;
}

/* x from x0 to 0 linearly over the starting tf, v its slope, u = 0. */
static int di_guess(const rc_problem *pb, double t, double *w) {
  const di_problem *d = pb->user;
  const double T = pb->tf - pb->t0, a = (t - pb->t0) / T;
  w[IX] = d->x0v[0] * (1.0 - a);
  w[IV] = -d->x0v[0] / T;
  w[IU] = 0.0;
  return 0;
}

static void di_destroy(rc_problem *pb) {
  di_problem *d = pb->user;
  rc_kit_release(&d->kit);
  rc_origin_free(&d->origin);
  free(d);
}

/* The problem from another start (rc_problem.restart, problems/origin.h). */
static rc_err di_restart(const rc_problem *pb, const double *x0,
                         rc_problem **out, rc_error *err) {
  const di_problem *d = pb->user;
  return rc_origin_restart(&d->origin, pb, x0, out, err);
}

static const rc_formulation_def di_forms[DI_NFORM] = {
    [DI_MINTIME] = {"mintime", "minimum time to the origin at rest, "
                               "|u| <= umax (bang-bang, one switch)"}};

static const rc_param_def di_params[] = {
    {"umax", RC_PARAM_REAL, 1.0, NULL, "control bound |u| <= umax (m/s^2)"},
    {"x0", RC_PARAM_REAL, 1.0, NULL, "x(t0) (m)"},
    {"v0", RC_PARAM_REAL, 0.0, NULL, "v(t0) (m/s)"},
    {"tf_lo", RC_PARAM_REAL, 0.01, NULL, "least final time (s)"},
    {"tf_hi", RC_PARAM_REAL, 100.0, NULL, "largest final time (s)"},
};
#define DI_NPARAMS ((int)(sizeof di_params / sizeof di_params[0]))

static rc_err di_create(const rc_model *model, int form,
                        const rc_param_values *pv, rc_problem **out,
                        rc_error *err) {
  *out = NULL;
  const double umax = pv->real[rc_model_param_index(model, "umax")];
  const double tf_lo = pv->real[rc_model_param_index(model, "tf_lo")];
  const double tf_hi = pv->real[rc_model_param_index(model, "tf_hi")];
  if (!(umax > 0.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "double-integrator: umax=%g: expected a number > 0",
                        umax);
  if (!(tf_lo > 0.0 && tf_hi > tf_lo))
    return rc_error_set(err, RC_ERR_INPUT,
                        "double-integrator: tf_lo=%g, tf_hi=%g: expected "
                        "0 < tf_lo < tf_hi",
                        tf_lo, tf_hi);
  di_problem *d = calloc(1, sizeof *d);
  if (!d)
    return rc_error_set(err, RC_ERR_NOMEM, "double-integrator: out of memory");
  d->umax = umax;
  d->x0v[0] = pv->real[rc_model_param_index(model, "x0")];
  d->x0v[1] = pv->real[rc_model_param_index(model, "v0")];
  for (int i = 0; i < NW; ++i)
    d->lo[i] = -HUGE_VAL, d->hi[i] = HUGE_VAL;
  d->lo[IU] = -umax, d->hi[IU] = umax;
  d->fix0[0] = d->fix0[1] = 1;
  d->fixf[0] = d->fixf[1] = 1;
  double sgn, t1, T;
  di_optimum(d, &sgn, &t1, &T);
  /* starting tf: 1.5 times the optimum, inside [tf_lo, tf_hi] */
  double tf = fmin(fmax(1.5 * T, tf_lo), tf_hi);
  if (!(tf > tf_lo))
    tf = 0.5 * (tf_lo + tf_hi);
  d->pb = (rc_problem){.model = model->name,
                       .formulation = di_forms[form].name,
                       .summary = di_forms[form].summary,
                       .index = 0,
                       .nx = 2,
                       .nu = 1,
                       .has_mayer = 1,
                       .autonomous = 1,
                       .var_names = di_names,
                       .w_lo = d->lo,
                       .w_hi = d->hi,
                       .t0 = 0.0,
                       .tf = tf,
                       .free_tf = 1,
                       .tf_lo = tf_lo,
                       .tf_hi = tf_hi,
                       .fix_x0 = d->fix0,
                       .x0 = d->x0v,
                       .fix_xf = d->fixf,
                       .xf = d->xf,
                       .guess = di_guess,
                       .reference = di_reference,
                       .user = d,
                       .destroy = di_destroy,
                       .restart = di_restart};
  const rc_kit_spec ks = {.point = di_point, .boundary = di_boundary};
  rc_err rc = rc_kit_attach(&d->pb, &d->kit, &ks, err);
  if (rc == RC_OK)
    rc = rc_origin_record(&d->origin, model, form, pv, err);
  if (rc != RC_OK) {
    di_destroy(&d->pb);
    return rc;
  }
  *out = &d->pb;
  return RC_OK;
}

const rc_model rc_model_double_integrator = {
    .name = "double-integrator",
    .summary = "minimum-time double integrator (bang-bang, closed-form "
               "optimum)",
    .nformulations = DI_NFORM,
    .formulations = di_forms,
    .default_formulation = DI_MINTIME,
    .nparams = DI_NPARAMS,
    .params = di_params,
    .create = di_create};
