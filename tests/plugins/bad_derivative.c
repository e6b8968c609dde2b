/*
 * bad_derivative.c - a test plugin with one planted derivative bug, for
 * `radcol check`: model "bad-derivative", one state x, no control,
 *
 *     x' = -k x^2            (k = 1.5),  x(0) = 1,  tf = 1
 *
 * The kit function (radcol/kit.h) writes df/dx = -k x instead of the true
 * -2 k x (the second derivative, -2 k, is right), so the check must report
 * the point-block Jacobian entry (row x, column x) and exit with status 1.
 * Built with only the installed headers (pkg-config --cflags radcol);
 * rc_error_set is resolved from the radcol executable at load time.
 */
#include <stdlib.h>

#include "radcol/kit.h"
#include "radcol/plugin.h"

#define K 1.5

static const char *const names[] = {"x"};
static const double lo[] = {-1e20}, hi[] = {1e20}, x0[] = {1.0};
static const int fix[] = {1};

typedef struct bad {
  rc_kit_blocks kit; /* first: the kit's callbacks find their blocks here */
  rc_problem pb;
} bad;

static int point_fn(const rc_problem *pb, double t, const double *w,
                    rc_kit *k) {
  (void)pb, (void)t;
  rc_kit_row(k, 0, -K * w[0] * w[0]);
  rc_kit_d(k, 0, -K * w[0]); /* planted bug: the true value is -2 K x */
  rc_kit_d2(k, 0, 0, -2.0 * K);
  return 0;
}

static void destroy(rc_problem *pb) {
  bad *b = pb->user;
  rc_kit_release(&b->kit);
  free(b);
}

static rc_err create(const rc_model *model, int form, const rc_param_values *pv,
                     rc_problem **out, rc_error *err) {
  (void)pv;
  *out = NULL;
  if (form != 0)
    return rc_error_set(err, RC_ERR_INPUT, "bad-derivative: formulation %d",
                        form);
  bad *b = calloc(1, sizeof *b);
  if (!b)
    return rc_error_set(err, RC_ERR_NOMEM, "bad-derivative: out of memory");
  rc_problem *pb = &b->pb;
  pb->model = model->name;
  pb->formulation = "ode";
  pb->summary = "x' = -k x^2 with a wrong Jacobian";
  pb->nx = 1;
  pb->autonomous = 1;
  pb->var_names = names;
  pb->w_lo = lo, pb->w_hi = hi;
  pb->t0 = 0.0, pb->tf = 1.0;
  pb->fix_x0 = fix, pb->x0 = x0;
  pb->user = b;
  pb->destroy = destroy;
  const rc_kit_spec ks = {.point = point_fn};
  rc_err rc = rc_kit_attach(pb, &b->kit, &ks, err);
  if (rc != RC_OK) {
    destroy(pb);
    return rc;
  }
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
                               create,
                               NULL};
static const rc_model *const models[] = {&model};
static const rc_plugin plugin = {RC_PROBLEM_ABI_VERSION, "bad-derivative", 1,
                                 models};

RC_PLUGIN_EXPORT const rc_plugin *radcol_plugin(void) {
  return &plugin;
}
