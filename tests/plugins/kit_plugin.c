/*
 * kit_plugin.c - a test plugin for the problem kit as plugins see it
 * (radcol/kit.h, header only; radcol/ode_reference.h, resolved from the
 * radcol executable at load time).  Model "kit-test", one state x,
 *
 *     x' = -k x^2,  x(0) = 1,  t in [0, 1],  k = 1.5  (exact: 1/(1 + k t)),
 *
 * in three formulations:
 *   ode     correct derivatives; the reference integrates x' = -k x^2 with
 *           rc_ode_reference (GSL rk8pd, 1e-13): check passes and a solve
 *           reports its error against that reference;
 *   drift   writes df/dx only where x > 0.5, a branch on w: the recording
 *           pass (at the default record point x = 0.3) does not see the
 *           entry, so a later Jacobian pass near x = 1 writes an unrecorded
 *           entry and the callback returns RC_KIT_UNRECORDED (check fails);
 *   badcol  writes df/dw_5 with nw = 1: create is refused naming the entry.
 */
#include <stdlib.h>

#include "radcol/kit.h"
#include "radcol/ode_reference.h"
#include "radcol/plugin.h"

#define K 1.5

enum { F_ODE, F_DRIFT, F_BADCOL, NFORM };

static const char *const names[] = {"x"};
static const double lo[] = {-1e20}, hi[] = {1e20}, x0[] = {1.0};
static const int fix[] = {1};

typedef struct kt {
  rc_kit_blocks kit; /* first: the kit's callbacks find their blocks here */
  rc_problem pb;
  int form;
} kt;

static int point_fn(const rc_problem *pb, double t, const double *w,
                    rc_kit *k) {
  (void)t;
  const int form = ((const kt *)pb->user)->form;
  const double x = w[0];
  rc_kit_row(k, 0, -K * x * x);
  if (form != F_DRIFT || x > 0.5) /* drift: a branch on w (the misuse) */
    rc_kit_d(k, form == F_BADCOL ? 5 : 0, -2.0 * K * x);
  rc_kit_d2(k, 0, 0, -2.0 * K);
  return 0;
}

static int rhs(double t, const double *y, double *dy, void *ctx) {
  (void)t, (void)ctx;
  dy[0] = -K * y[0] * y[0];
  return 0;
}

static int reference(const rc_problem *pb, int nt, const double *t,
                     double *ref) {
  rc_error err;
  return rc_ode_reference(1, rhs, NULL, pb->t0, x0, nt, t, ref, 1e-13, &err) ==
                 RC_OK
             ? 0
             : -1;
}

static void destroy(rc_problem *pb) {
  kt *p = pb->user;
  rc_kit_release(&p->kit);
  free(p);
}

static const rc_formulation_def formulations[NFORM] = {
    [F_ODE] = {"ode", "x' = -k x^2, kit derivatives, rk8pd reference"},
    [F_DRIFT] = {"drift", "df/dx written only where x > 0.5 (pattern drift)"},
    [F_BADCOL] = {"badcol", "a derivative in column 5 of 1 (refused)"}};

static rc_err create(const rc_model *model, int form, const rc_param_values *pv,
                     rc_problem **out, rc_error *err) {
  (void)pv;
  *out = NULL;
  kt *p = calloc(1, sizeof *p);
  if (!p)
    return rc_error_set(err, RC_ERR_NOMEM, "kit-test: out of memory");
  p->form = form;
  p->pb = (rc_problem){.model = model->name,
                       .formulation = formulations[form].name,
                       .summary = formulations[form].summary,
                       .nx = 1,
                       .autonomous = 1,
                       .var_names = names,
                       .w_lo = lo,
                       .w_hi = hi,
                       .t0 = 0.0,
                       .tf = 1.0,
                       .fix_x0 = fix,
                       .x0 = x0,
                       .reference = reference,
                       .user = p,
                       .destroy = destroy};
  const rc_kit_spec ks = {.point = point_fn};
  rc_err rc = rc_kit_attach(&p->pb, &p->kit, &ks, err);
  if (rc != RC_OK) {
    destroy(&p->pb);
    return rc;
  }
  *out = &p->pb;
  return RC_OK;
}

static const rc_model model = {.name = "kit-test",
                               .summary = "the problem kit from a plugin",
                               .nformulations = NFORM,
                               .formulations = formulations,
                               .default_formulation = F_ODE,
                               .create = create};
static const rc_model *const models[] = {&model};
static const rc_plugin plugin = {.abi_version = RC_PROBLEM_ABI_VERSION,
                                 .name = "kit-test",
                                 .nmodels = 1,
                                 .models = models};

RC_PLUGIN_EXPORT const rc_plugin *radcol_plugin(void) {
  return &plugin;
}
