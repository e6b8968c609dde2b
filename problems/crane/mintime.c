/*
 * crane/mintime.c - the formulation mintime: the minimum-time rest-to-rest
 * move on the index-1 model (model.c), docs/crane-mintime.md.  Its checks
 * and free final time also serve pathtime (pathtime.c).
 *
 *   min phi = tf  (+ ureg int (u1/U1)^2 + ((u2 - C3 m g)/U2)^2 dt),
 *   tf_lo <= tf <= tf_hi, autonomous, x(t0) fixed, x(tf) at rest at
 *   (x_end, z_end): d = x_end, r = z_end, the rest 0,
 *   the limits of limits.c as simple bounds,
 *   stacks j = 1..nstack (z positive downward):
 *     c_j = z - ZMIN_j - (max(0, X0_j - x)^3 + max(0, x - X1_j)^3) / ell^2
 *         <= 0,
 *   ell = stack_edge (the stack's top, rounded at its edges so that c_j is
 *   C^2 in x).
 * U1, U2: u1max, u2max, or (M1 + M2) g and C3 times it.  The starting tf
 * (tf unset): the shortest T, in steps of 5 % from tf_lo or the larger
 * frictionless bang-bang time 2 sqrt(|x_end - x_start| (M1 + M2) / u1max),
 * on which the rest-to-rest profile's flat inverse meets every limit, with
 * tau >= m g / 2 and |u1| <= (M1 + M2) g; the guess is that flat inverse.
 * Ipopt sees 100 tf (obj_scale if set).  Point rows 7 .. 6 + nstack the stacks,
 * then the regularisation; invariant G.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crane.h"

#define CRANE_MT_OBJ_SCALE_DEFAULT 100.0 /* mintime: Ipopt sees 100 tf */

/* The rounded edge of stack st at x: q = (pos(X0 - x)^3 + pos(x - X1)^3) /
 * ell^2, and dq/dx, d2q/dx2 (q1, q2 may be NULL). */
static double stack_bump(const crane_mintime *mt, const double *st, double x,
                         double *q1, double *q2) {
  const double il2 = 1.0 / (mt->stack_ell * mt->stack_ell);
  const double a = fmax(0.0, st[0] - x), b = fmax(0.0, x - st[1]);
  if (q1)
    *q1 = 3.0 * (b * b - a * a) * il2;
  if (q2)
    *q2 = 6.0 * (a + b) * il2;
  return (a * a * a + b * b * b) * il2;
}

/* mintime: stack j, z - ZMIN - (pos(X0 - x)^3 + pos(x - X1)^3) / ell^2 */
static void row_stack(rc_kit *k, int i, const crane_mintime *mt, int j,
                      const double *w, const crane_core *K) {
  const double *st = mt->stack[j];
  const double r = w[IR], s = K->s, c = K->c;
  const double x = w[ID] + r * s, z = r * c;
  double q1, q2; /* dq/dx, d2q/dx2 */
  const double q0 = stack_bump(mt, st, x, &q1, &q2);
  rc_kit_row(k, i, z - st[2] - q0);
  if (rc_kit_order(k) < 1)
    return;
  /* x_w = (1, s, r c) and z_w = (0, c, -r s) over (d, r, th) */
  const double xd = 1.0, xr = s, xth = r * c;
  rc_kit_d(k, ID, 0.0 - q1 * xd);
  rc_kit_d(k, IR, c - q1 * xr);
  rc_kit_d(k, ITH, -r * s - q1 * xth);
  /* -q2 x_w x_w^T, plus z_ww - q1 x_ww: (r, th) -s - q1 c, (th, th)
   * -r c + q1 r s */
  rc_kit_d2(k, ID, ID, -q2 * xd * xd);
  rc_kit_d2(k, IR, ID, -q2 * xr * xd);
  rc_kit_d2(k, IR, IR, -q2 * xr * xr);
  rc_kit_d2(k, ITH, ID, -q2 * xth * xd);
  rc_kit_d2(k, ITH, IR, -q2 * xth * xr + (-s - q1 * c));
  rc_kit_d2(k, ITH, ITH, -q2 * xth * xth + (-r * c + q1 * r * s));
}

/* mintime: reg1 u1^2 + reg2 (u2 - u2hold)^2 */
static void row_reg(rc_kit *k, int i, const crane_mintime *mt,
                    const double *w) {
  const double e2 = w[IU2] - mt->u2hold;
  rc_kit_row(k, i, mt->reg1 * w[IU1] * w[IU1] + mt->reg2 * e2 * e2);
  rc_kit_d(k, IU1, 2.0 * mt->reg1 * w[IU1]);
  rc_kit_d(k, IU2, 2.0 * mt->reg2 * e2);
  rc_kit_d2(k, IU1, IU1, 2.0 * mt->reg1);
  rc_kit_d2(k, IU2, IU2, 2.0 * mt->reg2);
}

static const char *const INV_TENSION[] = {"tension_eq"};

static int mintime_point(const rc_problem *pb, double t, const double *w,
                         rc_kit *k) {
  (void)t;
  const crane_mintime *mt = crane_mintime_of(pb);
  crane_core K;
  const int rc = rc_crane_rows_model(&mt->base, w, 0, k, &K);
  if (rc)
    return rc;
  for (int j = 0; j < mt->nstack; ++j)
    row_stack(k, 7 + j, mt, j, w, &K);
  if (pb->has_lagrange)
    row_reg(k, 7 + mt->nstack, mt, w);
  return 0;
}

/* mintime: B(z) = [phi], phi = tf, z = (x(t0), x(tf), tf) */
static int mintime_boundary(const rc_problem *pb, double t, const double *z,
                            rc_kit *k) {
  (void)t;
  const int itf = 2 * pb->nx + pb->np;
  rc_kit_row(k, 0, z[itf]);
  rc_kit_d(k, itf, 1.0);
  return 0;
}

static int tension_inv(const rc_problem *pb, double t, const double *w,
                       rc_kit *k) {
  (void)t;
  crane_core K;
  const int rc = rc_crane_core_eval(crane_of(pb), w, rc_kit_order(k), &K);
  if (rc == 0)
    rc_crane_row_G(k, 0, &K);
  return rc;
}

/* Parses "X0:X1:ZMIN[;X0:X1:ZMIN...]" into mt->stack. */
static rc_err mt_parse_stacks(crane_mintime *mt, const char *text,
                              rc_error *err) {
  mt->nstack = 0;
  const char *p = text;
  while (p && *p) {
    double v[3];
    for (int k = 0; k < 3; ++k) {
      char *end;
      v[k] = strtod(p, &end);
      const char want = k < 2 ? ':' : ';';
      if (end == p || !isfinite(v[k]) ||
          !(*end == want || (k == 2 && *end == '\0')))
        return rc_error_set(err, RC_ERR_INPUT,
                            "crane: stack = '%s': expected X0:X1:ZMIN[;X0:X1:"
                            "ZMIN...] with finite numbers [m]",
                            text);
      p = *end ? end + 1 : end;
    }
    if (mt->nstack == MAXSTACK)
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: stack = '%s': expected at most %d stacks",
                          text, MAXSTACK);
    if (!(v[0] < v[1]) || !(v[2] > 0.0))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: stack %g:%g:%g: expected X0 < X1 and a top "
                          "ZMIN > 0 below the rail [m]",
                          v[0], v[1], v[2]);
    memcpy(mt->stack[mt->nstack++], v, sizeof v);
  }
  return RC_OK;
}

/* Largest violation of the limits by the flat inverse of cm->path (scanned):
 * 0 when the profile meets every limit. */
static double mt_profile_excess(const crane_model *cm, const double *v,
                                const crane_scan *ex) {
  double worst = 0.0;
  for (size_t l = 0; l < sizeof rc_crane_limits / sizeof *rc_crane_limits;
       ++l) {
    const crane_limit *L = &rc_crane_limits[l];
    const int i = L->var;
    if (L->psym >= 0)
      worst =
          fmax(worst, (fmax(ex->hi[i], -ex->lo[i]) - v[L->psym]) / v[L->psym]);
    if (L->phi >= 0 && isfinite(v[L->phi]))
      worst = fmax(worst, (ex->hi[i] - v[L->phi]) / v[L->phi]);
    if (L->plo >= 0)
      worst = fmax(worst, (v[L->plo] - ex->lo[i]) / fmax(v[L->plo], 1.0));
  }
  /* and a gentle profile, whatever the limits: tau >= m g / 2 (far from
   * the slack cable and the flat inverse's edge b = 0) */
  const double mg = cm->par.m * cm->par.g;
  worst = fmax(worst, (0.5 * mg - ex->lo[ITAU]) / mg);
  /* without u1max: trolley forces up to (M1 + M2) g */
  const double f1 = (cm->par.M1 + cm->par.M2) * cm->par.g;
  worst = fmax(worst, (fmax(ex->hi[IU1], -ex->lo[IU1]) - f1) / f1);
  return worst;
}

/* The parameters only mintime reads (and the path it refuses). */
static rc_err mt_check_params(const rc_param_values *pv, rc_error *err) {
  const double *v = pv->real;
  if (pv->text && pv->text[P_PATH] && *pv->text[P_PATH])
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: path = '%s' with formulation mintime: "
                        "expected no path (mintime moves from x_start, "
                        "z_start to x_end, z_end)",
                        pv->text[P_PATH]);
  if (!(v[P_TFLO] > 0.0 && v[P_TFLO] < v[P_TFHI] && isfinite(v[P_TFHI])))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: tf_lo = %g, tf_hi = %g: expected 0 < tf_lo < "
                        "tf_hi < inf [s]",
                        v[P_TFLO], v[P_TFHI]);
  if (!(v[P_STACKEDGE] > 0.0 && isfinite(v[P_STACKEDGE])))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: stack_edge = %g: expected a finite length > 0 "
                        "[m]",
                        v[P_STACKEDGE]);
  if (!(v[P_UREG] >= 0.0 && isfinite(v[P_UREG])))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: ureg = %g: expected a finite value >= 0",
                        v[P_UREG]);
  const int tf_set = pv->is_set && pv->is_set[P_TF];
  if (tf_set && !(v[P_TF] >= v[P_TFLO] && v[P_TF] <= v[P_TFHI]))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: tf = %g (the starting guess of mintime): "
                        "expected tf_lo = %g <= tf <= tf_hi = %g",
                        v[P_TF], v[P_TFLO], v[P_TFHI]);
  return RC_OK;
}

/* The end at rest at (x_end, z_end): d = x_end, r = z_end, the rest 0; the
 * fixed start and the rest state against the limits. */
static rc_err mt_fix_rest_end(crane_model *cm, const double *v, rc_error *err) {
  rc_problem *pb = &cm->pb;
  const double rest[NX] = {v[P_XE], v[P_ZE], 0.0, 0.0, 0.0, 0.0};
  for (int i = 0; i < NX; ++i) {
    cm->xf[i] = rest[i];
    cm->fix_xf[i] = 1;
  }
  pb->fix_xf = cm->fix_xf;
  pb->xf = cm->xf;
  for (int i = 0; i < NX; ++i) {
    const rc_err rc =
        rc_crane_check_fixed(cm, v, i, cm->x0[i], pb->t0, "start", err);
    if (rc != RC_OK)
      return rc;
  }
  /* at rest every state is 0 but r = z_end: only the cable bounds matter */
  if (v[P_ZE] < v[P_RMIN] || v[P_ZE] > v[P_RMAX])
    return rc_error_set(
        err, RC_ERR_INPUT,
        "crane: rmin = %g, rmax = %g contradict the end at rest "
        "(cable length r = z_end = %g m): expected rmin <= %g "
        "<= rmax",
        v[P_RMIN], v[P_RMAX], v[P_ZE], v[P_ZE]);
  const double mg = cm->par.m * cm->par.g;
  if (!(mg > v[P_TAUMIN]))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: taumin = %g: expected taumin < m g = %g N "
                        "(the tension at rest)",
                        v[P_TAUMIN], mg);
  return RC_OK;
}

/* The start and end points against the (rounded) stacks; the stack rows'
 * bounds c <= 0. */
static rc_err mt_check_stack_ends(crane_mintime *mt, const double *v,
                                  rc_error *err) {
  const crane_model *cm = &mt->base;
  for (int j = 0; j < mt->nstack; ++j) {
    const double *st = mt->stack[j];
    const double px[2] = {cm->x0[ID] + cm->x0[IR] * sin(cm->x0[ITH]), v[P_XE]};
    const double pz[2] = {cm->x0[IR] * cos(cm->x0[ITH]), v[P_ZE]};
    for (int e = 0; e < 2; ++e) {
      if (pz[e] - st[2] - stack_bump(mt, st, px[e], NULL, NULL) > 0.0)
        return rc_error_set(err, RC_ERR_INPUT,
                            "crane: stack %g:%g:%g: the %s point (%g, %g) m "
                            "is inside it or within its rounded edge "
                            "(stack_edge = %g m): expected z <= ZMIN over "
                            "the stack",
                            st[0], st[1], st[2], e ? "end" : "start", px[e],
                            pz[e], mt->stack_ell);
    }
    mt->c_lo[j] = -HUGE_VAL;
    mt->c_hi[j] = 0.0;
  }
  return RC_OK;
}

/* The regularisation weights ureg/U1^2, ureg/U2^2 and the holding torque. */
static void mt_reg_weights(crane_mintime *mt, const double *v) {
  const crane_model *cm = &mt->base;
  const double U1 =
      isfinite(v[P_U1MAX]) ? v[P_U1MAX] : (cm->par.M1 + cm->par.M2) * cm->par.g;
  const double U2 = isfinite(v[P_U2MAX])
                        ? v[P_U2MAX]
                        : cm->par.C3 * (cm->par.M1 + cm->par.M2) * cm->par.g;
  mt->reg1 = v[P_UREG] / (U1 * U1);
  mt->reg2 = v[P_UREG] / (U2 * U2);
  mt->u2hold = cm->par.C3 * (cm->par.m * cm->par.g); /* C3 m g */
}

/* The starting tf when `tf` is not set: the shortest T (geometric steps of
 * 5 % from a lower bound) on which the rest-to-rest profile's flat inverse
 * meets every limit, or the one closest to it (*excess > 0: the relative
 * excess); the guess is that flat inverse (guess=flat). */
static double mt_starting_tf(crane_model *cm, const double *v, double *excess) {
  const double D = fabs(v[P_XE] - v[P_XS]), M = cm->par.M1 + cm->par.M2;
  /* frictionless bang-bang time of the centre of mass: a lower bound */
  double T = isfinite(v[P_U1MAX]) ? 2.0 * sqrt(D * M / v[P_U1MAX]) : 0.0;
  T = fmax(T, v[P_TFLO]);
  double best_T = v[P_TFHI], best_ex = HUGE_VAL;
  for (; T <= v[P_TFHI]; T *= 1.05) {
    rc_crane_path trial = {0};
    rc_error e2;
    if (rc_crane_path_default(&trial, T, v[P_XS], v[P_ZS], v[P_XE], v[P_ZE],
                              &e2) != RC_OK)
      continue;
    double exT = HUGE_VAL;
    if (rc_crane_path_check_flat(&trial, &cm->par, &e2) == RC_OK) {
      rc_crane_path saved = cm->path;
      cm->path = trial;
      crane_scan ex;
      rc_crane_flat_scan(cm, 0.0, T, &ex);
      exT = mt_profile_excess(cm, v, &ex);
      cm->path = saved;
    }
    rc_crane_path_free(&trial);
    if (exT < best_ex) {
      best_ex = exT;
      best_T = T;
    }
    if (exT <= 0.0)
      break;
  }
  *excess = best_ex;
  return best_T;
}

/* Limits, rest end, stacks, objective and the starting tf (mintime). */
static rc_err mintime_setup(crane_mintime *mt, const rc_param_values *pv,
                            rc_error *err) {
  crane_model *cm = &mt->base;
  rc_problem *pb = &cm->pb;
  const double *v = pv->real;
  const int *is_set = pv->is_set;
  const int tf_set = is_set && is_set[P_TF];
  rc_err rc = mt_check_params(pv, err);
  if (rc == RC_OK)
    rc = mt_parse_stacks(
        mt, pv->text && pv->text[P_STACK] ? pv->text[P_STACK] : "", err);
  if (rc != RC_OK)
    return rc;
  mt->stack_ell = v[P_STACKEDGE];
  rc_crane_limits_as_bounds(v, cm->w_lo, cm->w_hi); /* as track */
  rc = mt_fix_rest_end(cm, v, err);
  if (rc == RC_OK)
    rc = mt_check_stack_ends(mt, v, err);
  if (rc != RC_OK)
    return rc;
  mt_reg_weights(mt, v);
  double T = v[P_TF], excess = 0.0;
  if (!tf_set)
    T = mt_starting_tf(cm, v, &excess);
  rc_crane_path_free(&cm->path);
  rc = rc_crane_path_default(&cm->path, T, v[P_XS], v[P_ZS], v[P_XE], v[P_ZE],
                             err);
  if (rc == RC_OK)
    rc = rc_crane_path_check_flat(&cm->path, &cm->par, err);
  if (rc != RC_OK)
    return rc;
  pb->tf = T;
  pb->free_tf = 1;
  pb->tf_lo = v[P_TFLO];
  pb->tf_hi = v[P_TFHI];
  pb->autonomous = 1;
  pb->has_mayer = 1;
  /* tf's gradient (1) is small against the model rows' Jacobian: 100 is
   * the scale Ipopt's gradient-based scaling caps at, and it takes the
   * issue-19 job from 67 to 37 iterations, one stack from 249 to 97, two
   * from 1144 to 84 (40 x 5; docs/crane-mintime.md) */
  pb->objective_scale =
      is_set && is_set[P_SIGMA] ? v[P_SIGMA] : CRANE_MT_OBJ_SCALE_DEFAULT;
  if (!tf_set && excess > 0.0)
    snprintf(mt->tf_note, sizeof mt->tf_note,
             "starting guess: no rest-to-rest profile in tf_lo..tf_hi meets "
             "every limit (best T = %.4g s, %.3g relative excess); "
             "the solve starts from it anyway",
             T, excess);
  /* Without a trolley force limit the infimum of tf is tf_lo and no
   * minimum exists: refused before any solve (issue 24 item 4), not a
   * minute of Ipopt iterations towards it. */
  if (!isfinite(v[P_U1MAX]))
    return rc_error_set(
        err, RC_ERR_INPUT,
        "crane/%s: u1max is not set: without a trolley force limit a "
        "minimum time is not attained (tf runs down towards tf_lo = %g s); "
        "expected a finite u1max [N], e.g. u1max=10",
        pb->formulation ? pb->formulation : "mintime", v[P_TFLO]);
  return RC_OK;
}

/* mintime (docs/crane-mintime.md): free tf, Mayer phi = tf, the limits,
 * the stacks, the regularisation. */
rc_err rc_crane_mintime_setup(crane_model *cm, const rc_param_values *pv,
                              const crane_choices *ch, rc_kit_spec *ks,
                              rc_error *err) {
  (void)ch;
  crane_mintime *mt = crane_as_mintime(cm);
  rc_problem *pb = &cm->pb;
  pb->t0_algebraic = 0; /* as track: u(t0) would be tied only by G(t0) */
  const rc_err rc = mintime_setup(mt, pv, err);
  if (rc != RC_OK)
    return rc;
  pb->nc = mt->nstack; /* stacks c <= 0 */
  pb->c_lo = mt->c_lo;
  pb->c_hi = mt->c_hi;
  pb->has_lagrange = pv->real[P_UREG] > 0.0;
  if (mt->tf_note[0])
    pb->note = mt->tf_note;
  pb->reference = NULL;            /* no independent reference of the optimum */
  ks->boundary = mintime_boundary; /* Mayer phi = tf */
  crane_blocks(pb, ks, mintime_point, tension_inv, INV_TENSION, 1);
  return RC_OK;
}
