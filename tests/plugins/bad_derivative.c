/*
 * bad_derivative.c - a test plugin with one planted derivative bug, for
 * `radcol check`: model "bad-derivative", one state x, no control,
 *
 *     x' = -k x^2            (k = 1.5),  x(0) = 1,  tf = 1
 *
 * The Jacobian returns df/dx = -k x instead of the true -2 k x (the Hessian,
 * -2 k mu, is right), so the check must report the point-block Jacobian
 * entry (row x, column x) and exit with status 1.  Built with only the
 * installed headers (pkg-config --cflags radcol); rc_error_set is resolved
 * from the radcol executable at load time.
 */
#include <stdlib.h>

#include "radcol/plugin.h"

#define K 1.5

static const int jr[] = {0}, jc[] = {0};
static const int hr[] = {0}, hc[] = {0};
static const char *const names[] = {"x"};
static const double lo[] = {-1e20}, hi[] = {1e20}, x0[] = {1.0};
static const int fix[] = {1};

static int f_eval(const rc_problem *pb, double t, const double *w, double *F) {
  (void)pb, (void)t;
  F[0] = -K * w[0] * w[0];
  return 0;
}
static int f_jac(const rc_problem *pb, double t, const double *w, double *J) {
  (void)pb, (void)t;
  J[0] = -K * w[0]; /* planted bug: the true value is -2 K x */
  return 0;
}
static int f_hes(const rc_problem *pb, double t, const double *w,
                 const double *mu, double *H) {
  (void)pb, (void)t, (void)w;
  H[0] = -2.0 * K * mu[0];
  return 0;
}
static int b_eval(const rc_problem *pb, double t, const double *z,
                  double *out) {
  (void)pb, (void)t, (void)z, (void)out;
  return 0;
}
static int b_jac(const rc_problem *pb, double t, const double *z, double *J) {
  (void)pb, (void)t, (void)z, (void)J;
  return 0;
}
static int b_hes(const rc_problem *pb, double t, const double *z,
                 const double *mu, double *H) {
  (void)pb, (void)t, (void)z, (void)mu, (void)H;
  return 0;
}

static void destroy(rc_problem *pb) {
  free(pb);
}

static rc_err create(const rc_model *model, int form, const rc_param_values *pv,
                     rc_problem **out, rc_error *err) {
  (void)pv;
  *out = NULL;
  if (form != 0)
    return rc_error_set(err, RC_ERR_INPUT, "bad-derivative: formulation %d",
                        form);
  rc_problem *pb = calloc(1, sizeof *pb);
  if (!pb)
    return rc_error_set(err, RC_ERR_NOMEM, "bad-derivative: out of memory");
  pb->model = model->name;
  pb->formulation = "ode";
  pb->summary = "x' = -k x^2 with a wrong Jacobian";
  pb->nx = 1;
  pb->autonomous = 1;
  pb->var_names = names;
  pb->w_lo = lo, pb->w_hi = hi;
  pb->t0 = 0.0, pb->tf = 1.0;
  pb->fix_x0 = fix, pb->x0 = x0;
  pb->point = (rc_block){1, {1, jr, jc}, {1, hr, hc}, f_eval, f_jac, f_hes};
  pb->boundary =
      (rc_block){0, {0, NULL, NULL}, {0, NULL, NULL}, b_eval, b_jac, b_hes};
  pb->destroy = destroy;
  *out = pb;
  return RC_OK;
}

static const rc_formulation_def formulations[] = {{"ode", "wrong df/dx"}};
static const rc_model model = {"bad-derivative",
                               "planted derivative bug",
                               1,
                               formulations,
                               0,
                               0,
                               NULL,
                               create};
static const rc_model *const models[] = {&model};
static const rc_plugin plugin = {RC_PROBLEM_ABI_VERSION, "bad-derivative", 1,
                                 models};

RC_PLUGIN_EXPORT const rc_plugin *radcol_plugin(void) {
  return &plugin;
}
