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
 *   nan_x0     :  x0 = NaN (bad input: refused before solving).
 *
 * Issue 28 (tests/test_robust_probe.sh), each built like nan but:
 *   constrained:  w = (x, y, u), x' = u, 0 = y - u, path c = u in [-1, 1],
 *                 boundary b = x(tf) = 1/2, min int u^2 dt: a file with
 *                 multipliers alg_y, path_0 and boundary (w_record keeps
 *                 the kit's recording pass on the second layout).
 *   inf_hess   :  d2L/du2 = +inf (a wrong Hessian entry `check` must
 *                 fail); inf_jac: dL/du = +inf.
 *   huge_np    :  np = INT_MAX - 1 (dims must be bounded before summing).
 *   null_model :  pb->model = NULL.
 *   tiny_horizon: [t0, tf] = [1, nextafter(1)]: no distinct node times.
 *   nan_reference: solved by sampling a reference (sampled_reference)
 *                 that is NaN for t > 1/2.
 *   outputs_fail: one derived output xo = x whose function fails (+1)
 *                 for t > 1/2.
 *
 * Point block F = [f; L] = [u; u^2], w = (x, u), written through the kit
 * (radcol/kit.h): df/du = 1, dL/du = 2u, d2L/du2 = 2.  The faults are in
 * the values only (rc_kit_order(k) == 0), as a buggy eval would be.
 * No boundary block outputs (x(0), x(1) are fixed by simple bounds).
 * Built with the public headers only; rc_error_set comes from the radcol
 * executable at load time.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "radcol/kit.h"
#include "radcol/plugin.h"

enum {
  FORM_INFEASIBLE,
  FORM_NAN,
  FORM_FATAL,
  FORM_DOMAIN,
  FORM_NAN_X0,
  FORM_CONSTRAINED,
  FORM_INF_HESS,
  FORM_INF_JAC,
  FORM_HUGE_NP,
  FORM_NULL_MODEL,
  FORM_TINY_HORIZON,
  FORM_NAN_REFERENCE,
  FORM_OUTPUTS_FAIL,
  FORM_COUNT
};

static const char *const names[] = {"x", "u"};
static const char *const names3[] = {"x", "y", "u"};
static const char *const out_names[] = {"xo"};
static const double lo_box[] = {-1e20, -1.0}, hi_box[] = {1e20, 1.0};
static const double lo_free[] = {-1e20, -1e20}, hi_free[] = {1e20, 1e20};
static const double lo3[] = {-1e20, -1e20, -1e20}, hi3[] = {1e20, 1e20, 1e20};
static const double c_lo[] = {-1.0}, c_hi[] = {1.0};
static const double b_lo[] = {0.5}, b_hi[] = {0.5};
static const double x0[] = {0.0}, xf[] = {2.0}, x0_nan[] = {NAN};
static const int fix[] = {1};
static const double w_record3[] = {0.1, 0.2, 0.3};

typedef struct faults {
  rc_kit_blocks kit; /* first: the kit's callbacks find their blocks here */
  rc_problem pb;
  int form;
} faults;

static int fault_at(const rc_problem *pb, double t) {
  const int form = ((const faults *)pb->user)->form;
  if (form != FORM_NAN && form != FORM_FATAL && form != FORM_DOMAIN)
    return 0;
  return t <= 0.5 ? 0 : form;
}

static int point_fn(const rc_problem *pb, double t, const double *w,
                    rc_kit *k) {
  const int form = ((const faults *)pb->user)->form;
  const int fault = rc_kit_order(k) == 0 ? fault_at(pb, t) : 0;
  if (fault == FORM_FATAL)
    return -1;
  if (fault == FORM_DOMAIN)
    return 1;
  if (form == FORM_CONSTRAINED) { /* w = (x, y, u): F = [u; y - u; u; u^2] */
    rc_kit_row(k, 0, w[2]);
    rc_kit_d(k, 2, 1.0);
    rc_kit_row(k, 1, w[1] - w[2]);
    rc_kit_d(k, 1, 1.0);
    rc_kit_d(k, 2, -1.0);
    rc_kit_row(k, 2, w[2]);
    rc_kit_d(k, 2, 1.0);
    rc_kit_row(k, 3, w[2] * w[2]);
    rc_kit_d(k, 2, 2.0 * w[2]);
    rc_kit_d2(k, 2, 2, 2.0);
    return 0;
  }
  rc_kit_row(k, 0, fault == FORM_NAN ? NAN : w[1]);
  rc_kit_d(k, 1, 1.0);
  rc_kit_row(k, 1, w[1] * w[1]);
  rc_kit_d(k, 1, form == FORM_INF_JAC ? INFINITY : 2.0 * w[1]);
  rc_kit_d2(k, 1, 1, form == FORM_INF_HESS ? INFINITY : 2.0);
  return 0;
}

/* constrained: b = x(tf), z = (x(t0), x(tf), tf). */
static int boundary_fn(const rc_problem *pb, double t, const double *z,
                       rc_kit *k) {
  (void)pb;
  (void)t;
  rc_kit_row(k, 0, z[1]);
  rc_kit_d(k, 1, 1.0);
  return 0;
}

/* nan_reference: x = u = t, NaN for t > 1/2. */
static int reference_fn(const rc_problem *pb, int nt, const double *t,
                        double *ref) {
  (void)pb;
  for (int i = 0; i < nt; ++i)
    ref[2 * i] = ref[2 * i + 1] = t[i] <= 0.5 ? t[i] : NAN;
  return 0;
}

/* outputs_fail: xo = x, failing (+1) for t > 1/2. */
static int outputs_fn(const rc_problem *pb, double t, const double *w,
                      double *out) {
  (void)pb;
  if (t > 0.5)
    return 1;
  out[0] = w[0];
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
    {"nan_x0", "x0 = NaN (bad input: refused before solving)"},
    {"constrained", "x' = u, 0 = y - u, |u| <= 1 as a path constraint, x(1) = "
                    "1/2"},
    {"inf_hess", "d2L/du2 = +inf (a wrong Hessian entry)"},
    {"inf_jac", "dL/du = +inf (a wrong Jacobian entry)"},
    {"huge_np", "np = INT_MAX - 1"},
    {"null_model", "the problem's model name is NULL"},
    {"tiny_horizon", "horizon [1, nextafter(1)]: no distinct node times"},
    {"nan_reference", "solved by sampling a reference that is NaN for t > 1/2"},
    {"outputs_fail", "derived output xo = x failing for t > 1/2"}};

static rc_err create(const rc_model *model, int form, const rc_param_values *pv,
                     rc_problem **out, rc_error *err) {
  (void)pv;
  *out = NULL;
  if (form < 0 || form >= FORM_COUNT)
    return rc_error_set(err, RC_ERR_INPUT,
                        "faults: formulation %d, expected 0..%d", form,
                        FORM_COUNT - 1);
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
  rc_kit_spec ks = {.point = point_fn};
  if (form == FORM_CONSTRAINED) {
    pb->ny = 1, pb->nc = 1, pb->nb = 1;
    pb->var_names = names3;
    pb->w_lo = lo3, pb->w_hi = hi3;
    pb->c_lo = c_lo, pb->c_hi = c_hi;
    pb->b_lo = b_lo, pb->b_hi = b_hi;
    ks.boundary = boundary_fn;
    ks.w_record = w_record3;
  } else if (form == FORM_TINY_HORIZON) {
    pb->t0 = 1.0, pb->tf = nextafter(1.0, 2.0);
  } else if (form == FORM_NAN_REFERENCE) {
    pb->sampled_reference = 1;
    pb->reference = reference_fn;
  } else if (form == FORM_OUTPUTS_FAIL) {
    pb->nout = 1, pb->out_names = out_names, pb->outputs = outputs_fn;
  }
  pb->user = f;
  pb->destroy = destroy;
  rc_err rc = rc_kit_attach(pb, &f->kit, &ks, err);
  if (rc != RC_OK) {
    destroy(pb);
    return rc;
  }
  if (form == FORM_HUGE_NP) /* after the kit recorded the real layout */
    pb->np = INT_MAX - 1;
  if (form == FORM_NULL_MODEL)
    pb->model = NULL;
  *out = pb;
  return RC_OK;
}

static const rc_model model = {
    "faults",   "solves that fail on purpose (robustness tests)",
    FORM_COUNT, formulations,
    0,          0,
    NULL,       create,
    NULL};
static const rc_model *const models[] = {&model};
static const rc_plugin plugin = {RC_PROBLEM_ABI_VERSION, "robust-faults", 1,
                                 models};

RC_PLUGIN_EXPORT const rc_plugin *radcol_plugin(void) {
  return &plugin;
}
