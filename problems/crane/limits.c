/*
 * crane/limits.c - the physical limits of SPEC 4.3 (track, mintime,
 * pathtime) and the extremes of the flat inverse they are checked against.
 *
 * Limits, as simple bounds on the point vector:
 *   |u1| <= u1max, |u2| <= u2max, rmin <= r <= rmax, tau >= taumin,
 *   |theta| <= thetamax, |vd| <= vdmax, |vr| <= vrmax.
 * A fixed start or end state outside them is an input error, named with the
 * parameter and the value that would admit it (rc_crane_check_fixed).
 *
 * Extremes of the flat inverse (d .. u2, then x, z) on [t0, tf]: scanned on
 * a grid of max(2000, 400 per waypoint segment) points (at most 2e5), then
 * each extreme polished by golden-section search on the two grid intervals
 * around it (the flat inverse is smooth between waypoints; every path radcol
 * builds is C^4, so the polished value is the local maximum to ~1e-12).
 */
#include <math.h>

#include "crane.h"

static double flat_value(const crane_model *cm, int i, double t) {
  rc_crane_flat f;
  double w[NW];
  rc_crane_flat_eval(&cm->par, &cm->path, t, &f);
  rc_crane_flat_to_w(&f, w);
  return i < NW ? w[i] : i == NW ? f.x : f.z;
}

/* Maximum of sgn * flat_value(i) on [a, b]: golden-section search. */
static double golden_max(const crane_model *cm, int i, double sgn, double a,
                         double b, double *t_at) {
  const double gr = 0.5 * (sqrt(5.0) - 1.0);
  double x1 = b - gr * (b - a), x2 = a + gr * (b - a);
  double f1 = sgn * flat_value(cm, i, x1), f2 = sgn * flat_value(cm, i, x2);
  for (int it = 0; it < 80 && b - a > 1e-14 * (1.0 + fabs(b)); ++it) {
    if (f1 >= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - gr * (b - a);
      f1 = sgn * flat_value(cm, i, x1);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + gr * (b - a);
      f2 = sgn * flat_value(cm, i, x2);
    }
  }
  *t_at = f1 >= f2 ? x1 : x2;
  return f1 >= f2 ? f1 : f2;
}

void rc_crane_flat_scan(const crane_model *cm, double t0, double tf,
                        crane_scan *e) {
  int ngrid = 400 * (cm->path.n - 1);
  ngrid = ngrid < 2000 ? 2000 : ngrid > 200000 ? 200000 : ngrid;
  int khi[NSCAN], klo[NSCAN];
  for (int k = 0; k <= ngrid; ++k) {
    const double t = t0 + (tf - t0) * k / ngrid;
    for (int i = 0; i < NSCAN; ++i) {
      const double v = flat_value(cm, i, t);
      if (k == 0 || v > e->hi[i]) {
        e->hi[i] = v;
        khi[i] = k;
      }
      if (k == 0 || v < e->lo[i]) {
        e->lo[i] = v;
        klo[i] = k;
      }
    }
  }
  const double h = (tf - t0) / ngrid;
  for (int i = 0; i < NSCAN; ++i) {
    double a = fmax(t0, t0 + (khi[i] - 1) * h),
           b = fmin(tf, t0 + (khi[i] + 1) * h);
    double t;
    double v = golden_max(cm, i, 1.0, a, b, &t);
    e->t_hi[i] = t0 + khi[i] * h;
    if (v > e->hi[i]) {
      e->hi[i] = v;
      e->t_hi[i] = t;
    }
    a = fmax(t0, t0 + (klo[i] - 1) * h);
    b = fmin(tf, t0 + (klo[i] + 1) * h);
    v = -golden_max(cm, i, -1.0, a, b, &t);
    e->t_lo[i] = t0 + klo[i] * h;
    if (v < e->lo[i]) {
      e->lo[i] = v;
      e->t_lo[i] = t;
    }
  }
}

const crane_limit rc_crane_limits[CRANE_NLIMITS] = {
    {IU1, -1, -1, P_U1MAX, "N"},   {IU2, -1, -1, P_U2MAX, "N m"},
    {IR, P_RMIN, P_RMAX, -1, "m"}, {ITAU, P_TAUMIN, -1, -1, "N"},
    {ITH, -1, -1, P_THMAX, "rad"}, {IVD, -1, -1, P_VDMAX, "m/s"},
    {IVR, -1, -1, P_VRMAX, "m/s"},
};

/* The error for a fixed state value that contradicts the bound set by
 * parameter p: the value of p that would admit it is rel bound. */
static rc_err contradicts(const double *v, int p, const char *which, int var,
                          double value, const char *unit, double t,
                          const char *rel, double bound, rc_error *err) {
  return rc_error_set(err, RC_ERR_INPUT,
                      "crane: %s = %g contradicts the fixed %s state "
                      "%s = %g %s at t = %g s: expected %s %s %g",
                      rc_crane_param_defs[p].name, v[p], which,
                      rc_crane_var_names[var], value, unit, t,
                      rc_crane_param_defs[p].name, rel, bound);
}

/* A fixed state value against the bounds of its variable. */
rc_err rc_crane_check_fixed(const crane_model *cm, const double *v, int var,
                            double value, double t, const char *which,
                            rc_error *err) {
  for (size_t l = 0; l < sizeof rc_crane_limits / sizeof *rc_crane_limits;
       ++l) {
    const crane_limit *L = &rc_crane_limits[l];
    if (L->var != var)
      continue;
    if (L->psym >= 0 && fabs(value) > v[L->psym])
      return contradicts(v, L->psym, which, var, value, L->unit, t,
                         ">=", fabs(value), err);
    if (L->plo >= 0 && cm->w_lo[var] > -HUGE_VAL && value < cm->w_lo[var])
      return contradicts(v, L->plo, which, var, value, L->unit, t, "<=", value,
                         err);
    if (L->phi >= 0 && value > v[L->phi])
      return contradicts(v, L->phi, which, var, value, L->unit, t, ">=", value,
                         err);
  }
  return RC_OK;
}

/* The physical limits of SPEC 4.3 as simple bounds on the point vector
 * (track, mintime, and pathtime's copies of them): |u1| <= u1max, |u2| <=
 * u2max, rmin <= r <= rmax, tau >= taumin, |theta| <= thetamax, |vd| <= vdmax,
 * |vr| <= vrmax. */
void rc_crane_limits_as_bounds(const double *v, double *lo, double *hi) {
  lo[IU1] = -v[P_U1MAX];
  hi[IU1] = v[P_U1MAX];
  lo[IU2] = -v[P_U2MAX];
  hi[IU2] = v[P_U2MAX];
  if (v[P_RMIN] > 0.0)
    lo[IR] = v[P_RMIN];
  hi[IR] = v[P_RMAX];
  lo[ITAU] = v[P_TAUMIN];
  lo[ITH] = -v[P_THMAX];
  hi[ITH] = v[P_THMAX];
  lo[IVD] = -v[P_VDMAX];
  hi[IVD] = v[P_VDMAX];
  lo[IVR] = -v[P_VRMAX];
  hi[IVR] = v[P_VRMAX];
}
