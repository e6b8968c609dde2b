/*
 * brachistochrone.c - a radcol plugin template: the brachistochrone as a
 * minimum-time optimal-control problem in semi-explicit DAE form, with
 * hand-coded first and second derivatives.  Copy this file, change the
 * equations, keep the structure; docs/writing-a-problem.md walks through it.
 *
 * Problem.  A bead slides without friction from rest at the origin to the
 * point (xf, yf) under gravity g; y points DOWN.  Find the path (here: the
 * direction of motion, a unit vector) that gets there in least time.
 *
 *   w = (x, y, v, ux, uy)         position, speed, direction of motion
 *
 *   x'  = v ux                    f0
 *   y'  = v uy                    f1
 *   ode: v' = g uy                f2  (Newton along the path; v a state)
 *   dae: 0  = v^2 - 2 g y         g0  (energy; v algebraic, index 1 where
 *                                      v != 0, i.e. singular at t0)
 *   1  <= ux^2 + uy^2 <= 1        c0  (path constraint: unit direction)
 *
 *   x(0) = y(0) = 0 (ode: v(0) = 0), x(tf) = xf, y(tf) = yf,
 *   tf free in [1e-3, tf_max], minimise phi = tf (a Mayer term).
 *
 * Formulations: "ode" (default: x y v | ux uy) and "dae" (x y | v | ux uy).
 * Both use the same point vector w = (x, y, v, ux, uy); only the kind of v
 * and the third equation differ.  The dae form is singular at t0 (v = 0
 * makes dg0/dv vanish, and near t0 the controls hardly act): collocation
 * converges only at first order in h there (measured: objective error
 * 1.5e-3, 6.9e-4, 3.3e-4 for 20, 40, 80 elements of 3 stages), while the
 * ode form converges at order 2s - 1 = 5 (objective error 4.0e-8, 1.2e-9,
 * 3.9e-11 for 5, 10, 20 elements of 3 stages).  v >= 0 is a bound in both.
 *
 * Units: SI (m, s, m/s^2).
 *
 * Analytic optimum (the reference).  The fastest path is the cycloid
 *   x = R (p - sin p),  y = R (1 - cos p),  p = t sqrt(g / R),
 * with speed v = 2 sqrt(g R) sin(p/2) and direction ux = sin(p/2),
 * uy = cos(p/2).  The end parameter pf solves
 *   (pf - sin pf) / (1 - cos pf) = xf / yf,  0 < pf < 2 pi
 * (the left side increases from 0 to infinity), then R = yf / (1 - cos pf)
 * and the minimum time is tf* = pf sqrt(R / g).  For xf = yf = 1, g = 9.81:
 * pf = 2.412011, tf* = 0.5828955 s.
 *
 * Blocks, as radcol sees them:
 *   point block    F(w) = [f0, f1, f2 or g0, c0]   inputs w (5), autonomous
 *   boundary block B(z) = [phi]     inputs z = (x(0)[nx], x(tf)[nx], tf)
 * Derivatives go through the kit (radcol/kit.h): one function per block
 * writes each row's value with its Jacobian entries dF_i/dw_a and Hessian
 * entries d2F_i/dw_a dw_b (each pair once, any order); the kit records the
 * sparsity patterns from these writes when the problem is created and
 * supplies radcol's callbacks, so pattern and values cannot disagree:
 *   df0/dv = ux, df0/dux = v, d2f0/dux dv = 1;  f1 likewise with uy;
 *   ode: df2/duy = g;   dae: dg0/dy = -2 g, dg0/dv = 2 v, d2g0/dv2 = 2;
 *   dc0/dux = 2 ux, dc0/duy = 2 uy, d2c0/dux2 = d2c0/duy2 = 2;
 *   dphi/dtf = 1.
 * Invariant (a diagnostic, in both forms): the energy balance
 * h = v^2 - 2 g y, conserved by the ode and imposed at the nodes by the dae;
 * radcol reports its residual between the collocation nodes.
 *
 * Rules every problem follows: block functions return 0 (ok), > 0
 * (recoverable, e.g. outside the domain) or < 0 (fatal); they never allocate
 * or print, and write the same entries at every point (branch on the
 * problem's data, never on w); `create` validates the parameters and reports
 * a bad one through rc_error_set; the functions reach the instance's data
 * through pb->user; structs are filled with designated
 * initialisers (.field = value), so a field added to rc_problem in a later
 * radcol is zero here rather than shifting the others.  The same problem
 * from a 25-line model file: examples/models/brachistochrone.py and
 * scripts/radcol-gen (docs/writing-a-problem.md).
 */
#include <math.h>
#include <stdlib.h>

#include "radcol/kit.h"
#include "radcol/plugin.h"

/* Indices into the point vector w. */
enum { W_X, W_Y, W_V, W_UX, W_UY, NW };
/* The formulations. */
enum { F_ODE, F_DAE, NFORM };
/* Parameters (the order of params[] below). */
enum { P_G, P_XF, P_YF, P_TF, P_TF_MAX, NPAR };

#define TWO_PI 6.283185307179586

/* Everything a problem instance owns.  The block functions reach it through
 * pb->user (the one documented way); create sets pb->user = the instance,
 * whose first member is the kit's part. */
typedef struct brach {
  rc_kit_blocks kit; /* first: the kit's callbacks find their blocks here */
  rc_problem pb;
  int form;
  double g, xf, yf;
  double pf, R; /* analytic cycloid: end parameter and radius */
  double w_lo[NW], w_hi[NW];
  double c_lo[1], c_hi[1];
  double x0[3], xf_val[3];
  int fix_x0[3], fix_xf[3];
} brach;

static const brach *B(const rc_problem *pb) {
  return pb->user;
}

/* ---- point block F = [f0, f1, f2 or g0, c0] ------------------------------ */

static int point_fn(const rc_problem *pb, double t, const double *w,
                    rc_kit *k) {
  (void)t;
  const brach *b = B(pb);
  const double v = w[W_V], ux = w[W_UX], uy = w[W_UY];
  rc_kit_row(k, 0, v * ux); /* f0 = v ux */
  rc_kit_d(k, W_V, ux);
  rc_kit_d(k, W_UX, v);
  rc_kit_d2(k, W_UX, W_V, 1.0);
  rc_kit_row(k, 1, v * uy); /* f1 = v uy */
  rc_kit_d(k, W_V, uy);
  rc_kit_d(k, W_UY, v);
  rc_kit_d2(k, W_UY, W_V, 1.0);
  if (b->form == F_ODE) {
    rc_kit_row(k, 2, b->g * uy); /* f2 = g uy */
    rc_kit_d(k, W_UY, b->g);
  } else {
    rc_kit_row(k, 2, v * v - 2.0 * b->g * w[W_Y]); /* g0 = v^2 - 2 g y */
    rc_kit_d(k, W_Y, -2.0 * b->g);
    rc_kit_d(k, W_V, 2.0 * v);
    rc_kit_d2(k, W_V, W_V, 2.0);
  }
  rc_kit_row(k, 3, ux * ux + uy * uy); /* c0 = ux^2 + uy^2 */
  rc_kit_d(k, W_UX, 2.0 * ux);
  rc_kit_d(k, W_UY, 2.0 * uy);
  rc_kit_d2(k, W_UX, W_UX, 2.0);
  rc_kit_d2(k, W_UY, W_UY, 2.0);
  return 0;
}

/* ---- boundary block B = [phi], phi = tf -----------------------------------
 */

/* z = (x(0)[nx], x(tf)[nx], tf): tf is z[2 nx] (np = 0).  A problem without
 * boundary constraints and Mayer term has no boundary function. */
static int boundary_fn(const rc_problem *pb, double t, const double *z,
                       rc_kit *k) {
  (void)t;
  const int itf = 2 * pb->nx;
  rc_kit_row(k, 0, z[itf]);
  rc_kit_d(k, itf, 1.0);
  return 0;
}

/* ---- invariant: the energy balance, checked between the nodes ------------ */

/* h = v^2 - 2 g y is g0 again: collocation imposes it at the nodes only, so
 * its residual on radcol's dense grid measures the error between them. */
static const char *const inv_names[] = {"energy"};

static int inv_fn(const rc_problem *pb, double t, const double *w, rc_kit *k) {
  (void)t;
  const double g = B(pb)->g;
  rc_kit_row(k, 0, w[W_V] * w[W_V] - 2.0 * g * w[W_Y]);
  rc_kit_d(k, W_Y, -2.0 * g);
  rc_kit_d(k, W_V, 2.0 * w[W_V]);
  rc_kit_d2(k, W_V, W_V, 2.0);
  return 0;
}

/* ---- initial guess and reference ----------------------------------------- */

/* Uniform acceleration along the straight line to (xf, yf), arriving at
 * the initial final time pb->tf; v from the energy equation. */
static int guess(const rc_problem *pb, double t, double *w) {
  const brach *b = B(pb);
  const double L = hypot(b->xf, b->yf), a = t / pb->tf, s = a * a;
  w[W_X] = s * b->xf;
  w[W_Y] = s * b->yf;
  w[W_V] = sqrt(2.0 * b->g * fmax(w[W_Y], 0.0));
  w[W_UX] = b->xf / L;
  w[W_UY] = b->yf / L;
  return 0;
}

/* The analytic cycloid (see the header), rows (x, y, v, ux, uy). */
static int reference(const rc_problem *pb, int nt, const double *t,
                     double *ref) {
  const brach *b = B(pb);
  const double k = sqrt(b->g / b->R);
  for (int i = 0; i < nt; ++i) {
    const double p = k * t[i];
    double *r = ref + (size_t)i * NW;
    r[W_X] = b->R * (p - sin(p));
    r[W_Y] = b->R * (1.0 - cos(p));
    r[W_V] = 2.0 * sqrt(b->g * b->R) * sin(0.5 * p);
    r[W_UX] = sin(0.5 * p);
    r[W_UY] = cos(0.5 * p);
  }
  return 0;
}

/* Solve (p - sin p)/(1 - cos p) = ratio on (0, 2 pi) by bisection: the left
 * side is increasing, so 200 halvings reach the root to rounding. */
static double cycloid_end(double ratio) {
  double lo = 1e-9, hi = TWO_PI - 1e-9;
  for (int k = 0; k < 200; ++k) {
    const double p = 0.5 * (lo + hi);
    if ((p - sin(p)) / (1.0 - cos(p)) < ratio)
      lo = p;
    else
      hi = p;
  }
  return 0.5 * (lo + hi);
}

/* ---- the model: parameters, formulations, create ------------------------- */

static const char *const var_names[NW] = {"x", "y", "v", "ux", "uy"};

static const rc_param_def params[NPAR] = {
    [P_G] = {"g", RC_PARAM_REAL, 9.81, NULL, "gravity along +y (down), m/s^2"},
    [P_XF] = {"xf", RC_PARAM_REAL, 1.0, NULL, "x(tf), m (> 0)"},
    [P_YF] = {"yf", RC_PARAM_REAL, 1.0, NULL, "y(tf), m (> 0, y down)"},
    [P_TF] = {"tf", RC_PARAM_REAL, 1.0, NULL,
              "initial guess of the free final time, s"},
    [P_TF_MAX] = {"tf_max", RC_PARAM_REAL, 10.0, NULL,
                  "upper bound of the final time, s"},
};

static const rc_formulation_def formulations[NFORM] = {
    [F_ODE] = {"ode", "x y v | ux uy: v' = g uy, unit-direction path "
                      "constraint, minimum time (index 0)"},
    [F_DAE] = {"dae", "x y | v | ux uy: energy equation for v (index 1, "
                      "singular at t0: first order in h)"},
};

static void destroy(rc_problem *pb) {
  brach *b = pb->user;
  rc_kit_release(&b->kit);
  free(b);
}

static rc_err create(const rc_model *model, int form, const rc_param_values *pv,
                     rc_problem **out, rc_error *err) {
  /* radcol calls create with 0 <= form < NFORM and one value per parameter
   * in pv (the defaults unless set): only the values need checking. */
  *out = NULL;
  const double *v = pv->real;
  if (!(v[P_G] > 0.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "brachistochrone: g = %g: expected g > 0", v[P_G]);
  if (!(v[P_XF] > 0.0) || !(v[P_YF] > 0.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "brachistochrone: (xf, yf) = (%g, %g): expected both "
                        "> 0 (y points down)",
                        v[P_XF], v[P_YF]);
  if (!(v[P_TF] > 0.0 && v[P_TF] <= v[P_TF_MAX]))
    return rc_error_set(err, RC_ERR_INPUT,
                        "brachistochrone: tf = %g with tf_max = %g: expected "
                        "0 < tf <= tf_max",
                        v[P_TF], v[P_TF_MAX]);

  brach *b = calloc(1, sizeof *b);
  if (!b)
    return rc_error_set(err, RC_ERR_NOMEM, "brachistochrone: out of memory");
  const int nx = form == F_ODE ? 3 : 2;
  b->form = form;
  b->g = v[P_G], b->xf = v[P_XF], b->yf = v[P_YF];
  b->pf = cycloid_end(b->xf / b->yf);
  b->R = b->yf / (1.0 - cos(b->pf));
  for (int i = 0; i < NW; ++i)
    b->w_lo[i] = -HUGE_VAL, b->w_hi[i] = HUGE_VAL;
  b->w_lo[W_V] = 0.0;                   /* the physical branch (dae) */
  b->w_lo[W_UX] = b->w_lo[W_UY] = -1.0; /* implied by c0; tells the */
  b->w_hi[W_UX] = b->w_hi[W_UY] = 1.0;  /* solver early */
  b->c_lo[0] = b->c_hi[0] = 1.0;
  /* Start at rest at the origin; end at (xf, yf) with any speed. */
  for (int i = 0; i < nx; ++i)
    b->x0[i] = 0.0, b->fix_x0[i] = 1;
  b->xf_val[0] = b->xf, b->xf_val[1] = b->yf;
  b->fix_xf[0] = b->fix_xf[1] = 1;

  /* The problem, field by field (designated initialisers: every field not
   * named is zero, e.g. no outputs, no decision parameters).  The blocks
   * (point, boundary, invariants) are filled by rc_kit_attach below. */
  b->pb = (rc_problem){
      .model = model->name,
      .formulation = formulations[form].name,
      .summary = formulations[form].summary,
      .index = form == F_ODE ? 0 : 1,
      .nx = nx,
      .ny = 3 - nx,
      .nu = 2,
      .np = 0,
      .nc = 1,
      .nb = 0,
      .has_lagrange = 0,
      .has_mayer = 1,
      .autonomous = 1, /* required by free_tf */
      .var_names = var_names,
      .w_lo = b->w_lo,
      .w_hi = b->w_hi,
      .c_lo = b->c_lo,
      .c_hi = b->c_hi,
      .t0 = 0.0,
      .tf = v[P_TF], /* with free_tf: the initial guess */
      .free_tf = 1,
      .tf_lo = 1e-3,
      .tf_hi = v[P_TF_MAX],
      .fix_x0 = b->fix_x0,
      .x0 = b->x0,
      .fix_xf = b->fix_xf,
      .xf = b->xf_val,
      .t0_algebraic = 0, /* dae: g0 is singular at t0 (v = 0), not imposed */
      .default_elements = 20,
      .default_stages = 3,
      .ninv = 1,
      .inv_names = inv_names,
      .guess = guess,
      .reference = reference,
      .user = b, /* the callbacks' way to the instance: B(pb) */
      .destroy = destroy};
  /* Record the patterns from the functions' writes and install the
   * callbacks; the sizes come from the dims above. */
  const rc_kit_spec ks = {
      .point = point_fn, .boundary = boundary_fn, .invariants = inv_fn};
  rc_err rc = rc_kit_attach(&b->pb, &b->kit, &ks, err);
  if (rc != RC_OK) {
    destroy(&b->pb);
    return rc;
  }
  *out = &b->pb;
  return RC_OK;
}

static const rc_model brachistochrone = {
    .name = "brachistochrone",
    .summary = "minimum-time slide under gravity (plugin template; analytic "
               "cycloid reference)",
    .nformulations = NFORM,
    .formulations = formulations,
    .default_formulation = F_ODE,
    .nparams = NPAR,
    .params = params,
    .create = create};

/* ---- the plugin entry point ---------------------------------------------- */

static const rc_model *const models[] = {&brachistochrone};

static const rc_plugin plugin = {.abi_version = RC_PROBLEM_ABI_VERSION,
                                 .name = "plugin-template",
                                 .nmodels = 1,
                                 .models = models};

RC_PLUGIN_EXPORT const rc_plugin *radcol_plugin(void) {
  return &plugin;
}
