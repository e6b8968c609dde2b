/*
 * bryson_denham.c - the Bryson-Denham problem, the textbook state-constrained
 * optimal control problem (Bryson, Denham and Dreyfus, AIAA J. 1 (1963)
 * 2544; Bryson and Ho, Applied Optimal Control, 1975, sec. 3.11), with its
 * closed-form optimum as the reference.
 *
 * States x (position), v (velocity); control u (acceleration); t in [0, 1]:
 *
 *     x' = v,  v' = u,  x <= l,
 *     x(0) = 0, v(0) = 1,  x(1) = 0, v(1) = -1,
 *     minimise J = 1/2 int_0^1 u^2 dt.
 *
 * x <= l is a second-order state constraint (u first appears in x'').  For
 * l <= 1/6 the optimum has a boundary arc on [3 l, 1 - 3 l]:
 *
 *     0 <= t <= 3l:       x = l (1 - (1 - t/(3l))^3),  v = (1 - t/(3l))^2,
 *                         u = -2/(3l) (1 - t/(3l))
 *     3l <= t <= 1 - 3l:  x = l, v = 0, u = 0
 *     1 - 3l <= t <= 1:   the mirror image (x(t) = x(1 - t), v(t) =
 *                         -v(1 - t), u(t) = u(1 - t))
 *
 * and J* = 4 / (9 l) (l = 1/9: J* = 4).  u is continuous with kinks at the
 * junctions 3l and 1 - 3l, where x''' jumps: a transcription converges at
 * its full order only with breakpoints there.  For 1/6 < l the constraint
 * touches at a point or is inactive; the reference is then NaN (not
 * supplied).  tf = 1 belongs to the problem (the reference holds for it
 * only: another --tf gives a NaN reference).
 */
#include <math.h>
#include <stdlib.h>

#include "radcol/kit.h"
#include "radcol/problem.h"

enum { BD_L2, BD_NFORM };
enum { IX, IV, IU, NW };

typedef struct bd_problem {
  rc_kit_blocks kit; /* first: the kit finds its blocks here */
  rc_problem pb;
  double l;
  double lo[NW], hi[NW];
  int fix0[2], fixf[2];
  double x0v[2], xfv[2];
} bd_problem;

static const char *const bd_names[NW] = {"x", "v", "u"};

/* F = (x' = v, v' = u, L = u^2 / 2) */
static int bd_point(const rc_problem *pb, double t, const double *w,
                    rc_kit *k) {
  (void)pb, (void)t;
  rc_kit_row(k, 0, w[IV]);
  rc_kit_d(k, IV, 1.0);
  rc_kit_row(k, 1, w[IU]);
  rc_kit_d(k, IU, 1.0);
  rc_kit_row(k, 2, 0.5 * w[IU] * w[IU]);
  rc_kit_d(k, IU, w[IU]);
  rc_kit_d2(k, IU, IU, 1.0);
  return 0;
}

static int bd_reference(const rc_problem *pb, int nt, const double *t,
                        double *ref) {
  const bd_problem *d = pb->user;
  const double l = d->l, a = 3.0 * l;
  const int ok = l <= 1.0 / 6.0 && pb->t0 == 0.0 && pb->tf == 1.0;
  for (int i = 0; i < nt; ++i) {
    double *r = ref + 3 * i;
    if (!ok) {
      r[0] = r[1] = r[2] = NAN;
      continue;
    }
    const double s = t[i] <= 0.5 ? t[i] : 1.0 - t[i],
                 mir = t[i] <= 0.5 ? 1 : -1;
    if (s < a) {
      const double q = 1.0 - s / a;
      r[0] = l * (1.0 - q * q * q);
      r[1] = mir * q * q;
      r[2] = -2.0 / a * q;
    } else {
      r[0] = l, r[1] = 0.0, r[2] = 0.0;
    }
  }
  return 0;
}

/* the unconstrained optimum x = t (1 - t), v = 1 - 2t, u = -2, clipped */
static int bd_guess(const rc_problem *pb, double t, double *w) {
  const bd_problem *d = pb->user;
  w[IX] = fmin(t * (1.0 - t), d->l);
  w[IV] = 1.0 - 2.0 * t;
  w[IU] = -2.0;
  return 0;
}

static void bd_destroy(rc_problem *pb) {
  bd_problem *d = pb->user;
  rc_kit_release(&d->kit);
  free(d);
}

static const rc_formulation_def bd_forms[BD_NFORM] = {
    [BD_L2] = {"l2", "minimum 1/2 int u^2 with the state bound x <= l "
                     "(boundary arc for l <= 1/6, J* = 4/(9l))"}};

static const rc_param_def bd_params[] = {
    {"l", RC_PARAM_REAL, 1.0 / 9.0, NULL, "state bound x <= l (m)"},
};

static rc_err bd_create(const rc_model *model, int form,
                        const rc_param_values *pv, rc_problem **out,
                        rc_error *err) {
  *out = NULL;
  const double l = pv->real[rc_model_param_index(model, "l")];
  if (!(l > 0.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "bryson-denham: l=%g: expected a number > 0 (x(0) = "
                        "0 must satisfy x <= l)",
                        l);
  bd_problem *d = calloc(1, sizeof *d);
  if (!d)
    return rc_error_set(err, RC_ERR_NOMEM, "bryson-denham: out of memory");
  d->l = l;
  for (int i = 0; i < NW; ++i)
    d->lo[i] = -HUGE_VAL, d->hi[i] = HUGE_VAL;
  d->hi[IX] = l;
  d->fix0[0] = d->fix0[1] = d->fixf[0] = d->fixf[1] = 1;
  d->x0v[0] = 0.0, d->x0v[1] = 1.0;
  d->xfv[0] = 0.0, d->xfv[1] = -1.0;
  d->pb = (rc_problem){.model = model->name,
                       .formulation = bd_forms[form].name,
                       .summary = bd_forms[form].summary,
                       .nx = 2,
                       .nu = 1,
                       .has_lagrange = 1,
                       .autonomous = 1,
                       .var_names = bd_names,
                       .w_lo = d->lo,
                       .w_hi = d->hi,
                       .t0 = 0.0,
                       .tf = 1.0,
                       .fix_x0 = d->fix0,
                       .x0 = d->x0v,
                       .fix_xf = d->fixf,
                       .xf = d->xfv,
                       .guess = bd_guess,
                       .reference = bd_reference,
                       .user = d,
                       .destroy = bd_destroy};
  const rc_kit_spec ks = {.point = bd_point};
  rc_err rc = rc_kit_attach(&d->pb, &d->kit, &ks, err);
  if (rc != RC_OK) {
    bd_destroy(&d->pb);
    return rc;
  }
  *out = &d->pb;
  return RC_OK;
}

const rc_model rc_model_bryson_denham = {
    .name = "bryson-denham",
    .summary = "Bryson-Denham: min 1/2 int u^2 with a state bound "
               "(closed-form optimum)",
    .nformulations = BD_NFORM,
    .formulations = bd_forms,
    .default_formulation = BD_L2,
    .nparams = 1,
    .params = bd_params,
    .create = bd_create};
