/*
 * robust_faults.c - a test plugin that makes solves fail on purpose, for the
 * robustness tests (tests/test_solver_failures.sh, docs/robustness.md).
 * Model "faults", one state x, one control u, t in [0, 1]:
 *
 *   infeasible :  x' = u, |u| <= 1, x(0) = 0, x(1) = 2, min int u^2 dt.
 *                 |x(1)| <= int |u| dt <= 1 < 2: no feasible point, and
 *                 every constraint is linear, so Ipopt's restoration phase
 *                 converges to a non-zero minimum of the violation.
 *   nan        :  x' = u, x(0) = 0, min int u^2 dt, but the dynamics
 *                 callback returns NaN (with status 0, "success") for
 *                 t > 1/2: the user bug radcol must survive.
 *   fatal      :  the same, but the callback returns -1 (fatal, radcol/
 *                 problem.h) for t > 1/2.
 *   domain     :  the same, but the callback returns +1 (recoverable:
 *                 outside the domain) for t > 1/2 at every point.
 *
 * Point block F = [f; L] = [u; u^2], w = (x, u), written through the kit
 * (radcol/kit.h): df/du = 1, dL/du = 2u, d2L/du2 = 2.  The faults are in
 * the values only (rc_kit_order(k) == 0), as a buggy eval would be.
 * No boundary block outputs (x(0), x(1) are fixed by simple bounds).
 * Built with the public headers only; rc_error_set comes from the radcol
 * executable at load time.
 */
#include <math.h>
#include <stdlib.h>

#include "radcol/kit.h"
#include "radcol/plugin.h"

enum { FORM_INFEASIBLE, FORM_NAN, FORM_FATAL, FORM_DOMAIN, FORM_NAN_X0 };

static const char *const names[] = {"x", "u"};
static const double lo_box[] = {-1e20, -1.0}, hi_box[] = {1e20, 1.0};
static const double lo_free[] = {-1e20, -1e20}, hi_free[] = {1e20, 1e20};
static const double x0[] = {0.0}, xf[] = {2.0}, x0_nan[] = {NAN};
static const int fix[] = {1};

typedef struct faults {
  rc_kit_blocks kit; /* first: the kit's callbacks find their blocks here */
  rc_problem pb;
  int form;
} faults;

static int fault_at(const rc_problem *pb, double t) {
  const int form = ((const faults *)pb->user)->form;
  if (form == FORM_INFEASIBLE || form == FORM_NAN_X0 || t <= 0.5)
    return 0;
  return form;
}

static int point_fn(const rc_problem *pb, double t, const double *w,
                    rc_kit *k) {
  const int fault = rc_kit_order(k) == 0 ? fault_at(pb, t) : 0;
  if (fault == FORM_FATAL)
    return -1;
  if (fault == FORM_DOMAIN)
    return 1;
  rc_kit_row(k, 0, fault == FORM_NAN ? NAN : w[1]);
  rc_kit_d(k, 1, 1.0);
  rc_kit_row(k, 1, w[1] * w[1]);
  rc_kit_d(k, 1, 2.0 * w[1]);
  rc_kit_d2(k, 1, 1, 2.0);
  return 0;
}

static void destroy(rc_problem *pb) {
  faults *f = pb->user;
  rc_kit_release(&f->kit);
  free(f);
}

static const rc_formulation_def formulations[] = {
    {"infeasible", "x' = u, |u| <= 1, x(0) = 0, x(1) = 2 (no feasible point)"},
    {"nan", "dynamics callback returns NaN for t > 1/2"},
    {"fatal", "dynamics callback returns -1 (fatal) for t > 1/2"},
    {"domain", "dynamics callback returns +1 (recoverable) for t > 1/2"},
    {"nan_x0", "x0 = NaN (bad input: refused before solving)"}};

static rc_err create(const rc_model *model, int form, const rc_param_values *pv,
                     rc_problem **out, rc_error *err) {
  (void)pv;
  *out = NULL;
  if (form < 0 || form > FORM_NAN_X0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "faults: formulation %d, expected 0..4", form);
  faults *f = calloc(1, sizeof *f);
  if (!f)
    return rc_error_set(err, RC_ERR_NOMEM, "faults: out of memory");
  rc_problem *pb = &f->pb;
  f->form = form;
  pb->model = model->name;
  pb->formulation = formulations[form].name;
  pb->summary = formulations[form].summary;
  pb->nx = 1;
  pb->nu = 1;
  pb->has_lagrange = 1;
  pb->autonomous = form == FORM_INFEASIBLE;
  pb->var_names = names;
  pb->w_lo = form == FORM_INFEASIBLE ? lo_box : lo_free;
  pb->w_hi = form == FORM_INFEASIBLE ? hi_box : hi_free;
  pb->t0 = 0.0, pb->tf = 1.0;
  pb->fix_x0 = fix, pb->x0 = form == FORM_NAN_X0 ? x0_nan : x0;
  if (form == FORM_INFEASIBLE)
    pb->fix_xf = fix, pb->xf = xf;
  pb->user = f;
  pb->destroy = destroy;
  const rc_kit_spec ks = {.point = point_fn};
  rc_err rc = rc_kit_attach(pb, &f->kit, &ks, err);
  if (rc != RC_OK) {
    destroy(pb);
    return rc;
  }
  *out = pb;
  return RC_OK;
}

static const rc_model model = {
    "faults", "solves that fail on purpose (robustness tests)",
    5,        formulations,
    0,        0,
    NULL,     create,
    NULL};
static const rc_model *const models[] = {&model};
static const rc_plugin plugin = {RC_PROBLEM_ABI_VERSION, "robust-faults", 1,
                                 models};

RC_PLUGIN_EXPORT const rc_plugin *radcol_plugin(void) {
  return &plugin;
}
