/*
 * path.c - the crane's load path: the default two-waypoint path, the exact
 * derivatives up to order 4 of a path in stop or smooth mode and of a curve
 * in sigma, the flatness checks, the overshoot of a smooth path and the
 * exact flat inverse.  The maths is in path.h; the spline's coefficients
 * come from path_spline.c, waypoints and curve rows from path_csv.c.
 *
 * Invariants: a path has n >= 2 waypoints with strictly increasing finite t,
 * t[0] <= 0, finite x and z; in smooth and curve mode cx, cz hold 10 (n - 1)
 * finite coefficients; rc_crane_path_eval never fails (it rests at the end
 * points outside the waypoint range).
 */
#include "path.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_poly.h>

/* Coefficients of s(a) = sum_k S_COEF[k] a^k (degree 9). */
static const double S_COEF[10] = {0, 0, 0, 0, 0, 126, -420, 540, -315, 70};

/* j-th derivative of s at a (0 <= j <= 4), by Horner on the differentiated
 * coefficients k!/(k-j)! S_COEF[k]. */
double rc_crane_smooth_step(int j, double a) {
  double v = 0.0;
  for (int k = 9; k >= j; --k) {
    double ck = S_COEF[k];
    for (int i = 0; i < j; ++i)
      ck *= (double)(k - i);
    v = v * a + ck;
  }
  return v;
}

static rc_err path_alloc(rc_crane_path *path, int n, rc_error *err) {
  path->n = n;
  path->t = malloc(sizeof(double) * (size_t)n);
  path->x = malloc(sizeof(double) * (size_t)n);
  path->z = malloc(sizeof(double) * (size_t)n);
  if (!path->t || !path->x || !path->z) {
    rc_crane_path_free(path);
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for %d waypoints", n);
  }
  return RC_OK;
}

void rc_crane_path_free(rc_crane_path *path) {
  if (!path)
    return;
  free(path->t);
  free(path->x);
  free(path->z);
  free(path->cx);
  free(path->cz);
  path->t = path->x = path->z = path->cx = path->cz = NULL;
  path->n = 0;
  path->mode = RC_CRANE_PATH_STOP;
}

rc_err rc_crane_path_default(rc_crane_path *path, double tf, double x_start,
                             double z_start, double x_end, double z_end,
                             rc_error *err) {
  memset(path, 0, sizeof *path);
  if (!(isfinite(tf) && tf > 0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: tf = %g: expected a finite horizon > 0", tf);
  if (!(isfinite(x_start) && isfinite(z_start) && isfinite(x_end) &&
        isfinite(z_end)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: path end points (%g, %g) -> (%g, %g): "
                        "expected finite values",
                        x_start, z_start, x_end, z_end);
  rc_err rc = path_alloc(path, 2, err);
  if (rc != RC_OK)
    return rc;
  path->t[0] = 0.0;
  path->t[1] = tf;
  path->x[0] = x_start;
  path->x[1] = x_end;
  path->z[0] = z_start;
  path->z[1] = z_end;
  return RC_OK;
}

/* i! / (i - m)! (0 for i < m). */
double rc_crane_falling(int i, int m) {
  if (i < m)
    return 0.0;
  double v = 1.0;
  for (int l = 0; l < m; ++l)
    v *= (double)(i - l);
  return v;
}

/* m-th derivative at a of sum_i c[i] a^i (degree 9), by Horner. */
static double poly_deriv(const double c[10], int m, double a) {
  double v = 0.0;
  for (int i = 9; i >= m; --i)
    v = v * a + c[i] * rc_crane_falling(i, m);
  return v;
}

/* Segment holding t in (t[0], t[n-1]): t in (t[lo], t[lo+1]]. */
static int find_segment(const rc_crane_path *path, double t) {
  int lo = 0, hi = path->n - 1;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (path->t[mid] < t)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

void rc_crane_path_eval(const rc_crane_path *path, double t, double p1[5],
                        double p2[5]) {
  rc_crane_path_eval_n(path, t, 5, p1, p2);
}

void rc_crane_path_eval_n(const rc_crane_path *path, double t, int nd,
                          double *p1, double *p2) {
  const int n = path->n;
  for (int j = 1; j < nd; ++j)
    p1[j] = p2[j] = 0.0;
  if (!(t > path->t[0])) {
    p1[0] = path->x[0];
    p2[0] = path->z[0];
    return;
  }
  if (t >= path->t[n - 1]) {
    p1[0] = path->x[n - 1];
    p2[0] = path->z[n - 1];
    return;
  }
  const int lo = find_segment(path, t), hi = lo + 1;
  const double h = path->t[hi] - path->t[lo];
  const double a = (t - path->t[lo]) / h;
  double hj = 1.0;
  if (path->mode == RC_CRANE_PATH_SMOOTH) {
    for (int j = 0; j < nd; ++j) {
      p1[j] = poly_deriv(path->cx + 10 * lo, j, a) / hj;
      p2[j] = poly_deriv(path->cz + 10 * lo, j, a) / hj;
      hj *= h;
    }
    return;
  }
  const double dx = path->x[hi] - path->x[lo];
  const double dz = path->z[hi] - path->z[lo];
  for (int j = 0; j < nd; ++j) {
    double sj = rc_crane_smooth_step(j, a) / hj;
    p1[j] = (j == 0 ? path->x[lo] : 0.0) + dx * sj;
    p2[j] = (j == 0 ? path->z[lo] : 0.0) + dz * sj;
    hj *= h;
  }
}

/* Candidate points a in [0, 1] for the extrema of the m-th derivative of the
 * segment polynomial c: both ends, the real parts (clamped to [0, 1]) of all
 * roots of its (m+1)-th derivative, and NSAMP uniform samples.  Extra points
 * never hurt a minimum's soundness (they are values of the function); the
 * roots make it exact.  Returns the count (at most 2 + 8 + NSAMP + 1). */
#define NSAMP 64
static int extremum_candidates(const double c[10], int m, double *a) {
  int na = 0;
  for (int q = 0; q <= NSAMP; ++q)
    a[na++] = (double)q / NSAMP;
  /* coefficients of the (m+1)-th derivative, degree 8 - m */
  double d[10];
  int deg = 8 - m;
  double dmax = 0.0;
  for (int i = 0; i <= deg; ++i) {
    d[i] = c[i + m + 1] * rc_crane_falling(i + m + 1, m + 1);
    dmax = fmax(dmax, fabs(d[i]));
  }
  while (deg > 0 && !(fabs(d[deg]) > 1e-14 * dmax))
    --deg;
  if (deg < 1)
    return na;
  double z[2 * 10];
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  gsl_poly_complex_workspace *ws =
      gsl_poly_complex_workspace_alloc((size_t)deg + 1);
  int ok =
      ws && gsl_poly_complex_solve(d, (size_t)deg + 1, ws, z) == GSL_SUCCESS;
  if (ws)
    gsl_poly_complex_workspace_free(ws);
  gsl_set_error_handler(old);
  if (!ok) /* fall back on a denser sample */
    for (int q = 0; q < 8 * NSAMP; ++q)
      a[na++] = (q + 0.5) / (8 * NSAMP);
  else
    for (int r = 0; r < deg; ++r)
      a[na++] = fmin(1.0, fmax(0.0, z[2 * r]));
  return na;
}
#define NCAND (NSAMP + 1 + 8 * NSAMP)

rc_err rc_crane_path_check_flat(const rc_crane_path *path,
                                const rc_crane_params *par, rc_error *err) {
  for (int k = 0; k < path->n; ++k)
    if (!(path->z[k] > 0.0))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: path violates p2 > 0 at t = %g: p2 = %g "
                          "(the load would be at or above the trolley rail; "
                          "expected z > 0, z positive downward)",
                          path->t[k], path->z[k]);
  const double mg = par->m * par->g;
  if (path->mode == RC_CRANE_PATH_SMOOTH) {
    double a[NCAND];
    for (int k = 0; k + 1 < path->n; ++k) {
      const double t0 = path->t[k], h = path->t[k + 1] - t0;
      const double *c = path->cz + 10 * k;
      /* the segment's minimum of p2 and maximum of p2'' (exact: candidates
       * include every root of the derivative) */
      double p2min = HUGE_VAL, amin = 0.0, p2ddmax = -HUGE_VAL, amax = 0.0;
      int na = extremum_candidates(c, 0, a);
      for (int q = 0; q < na; ++q) {
        const double v = poly_deriv(c, 0, a[q]);
        if (!(v >= p2min)) {
          p2min = v;
          amin = a[q];
        }
      }
      na = extremum_candidates(c, 2, a);
      for (int q = 0; q < na; ++q) {
        const double v = poly_deriv(c, 2, a[q]) / (h * h);
        if (!(v <= p2ddmax)) {
          p2ddmax = v;
          amax = a[q];
        }
      }
      if (!(p2min > 0.0))
        return rc_error_set(
            err, RC_ERR_INPUT,
            "crane: path violates p2 > 0 at t = %.6g: p2 = %.6g (the "
            "smooth path between the waypoints at t = %g and %g reaches "
            "the trolley rail; expected z > 0, z positive downward: move "
            "the waypoints lower or use path_mode=stop)",
            t0 + amin * h, p2min, t0, path->t[k + 1]);
      const double b = mg - par->M2 * p2ddmax;
      if (!(b > 0.0))
        return rc_error_set(
            err, RC_ERR_INPUT,
            "crane: path violates b = m g - M2 p2'' > 0 at t = %.6g: "
            "p2'' = %.6g m/s^2 gives b = %.6g N (the load would have to "
            "accelerate downward at least as fast as gravity, g m/M2 = "
            "%.6g m/s^2; slow the segment from t = %g to %g)",
            t0 + amax * h, p2ddmax, b, mg / par->M2, t0, path->t[k + 1]);
    }
    return RC_OK;
  }
  /* s''(a) = 2520 a^3 (1-a)^3 (1-2a) has its maximum at a* = (1 - 1/sqrt7)/2
   * and its minimum at 1 - a*, with s''(1 - a) = -s''(a). */
  const double astar = 0.5 * (1.0 - 1.0 / sqrt(7.0));
  const double s2max = rc_crane_smooth_step(2, astar);
  for (int k = 0; k + 1 < path->n; ++k) {
    const double h = path->t[k + 1] - path->t[k];
    const double dz = path->z[k + 1] - path->z[k];
    if (dz == 0.0)
      continue;
    const double a = dz > 0 ? astar : 1.0 - astar; /* where p2'' is largest */
    const double p2dd = fabs(dz) * s2max / (h * h);
    const double b = mg - par->M2 * p2dd;
    if (!(b > 0.0))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: path violates b = m g - M2 p2'' > 0 at "
                          "t = %.6g: p2'' = %.6g m/s^2 gives b = %.6g N (the "
                          "load would have to accelerate downward at least "
                          "as fast as gravity, g m/M2 = %.6g m/s^2; slow the "
                          "segment from t = %g to %g)",
                          path->t[k] + a * h, p2dd, b, mg / par->M2, path->t[k],
                          path->t[k + 1]);
  }
  return RC_OK;
}

void rc_crane_path_overshoot(const rc_crane_path *path,
                             rc_crane_overshoot *out) {
  memset(out, 0, sizeof *out);
  out->tx = out->tz = path->t[0];
  if (path->mode != RC_CRANE_PATH_SMOOTH)
    return;
  double a[NCAND];
  for (int k = 0; k + 1 < path->n; ++k) {
    const double t0 = path->t[k], h = path->t[k + 1] - t0;
    for (int coord = 0; coord < 2; ++coord) {
      const double *c = (coord == 0 ? path->cx : path->cz) + 10 * k;
      const double *v = coord == 0 ? path->x : path->z;
      const double lo = fmin(v[k], v[k + 1]), hi = fmax(v[k], v[k + 1]);
      double *d = coord == 0 ? &out->dx : &out->dz;
      double *td = coord == 0 ? &out->tx : &out->tz;
      const int na = extremum_candidates(c, 0, a);
      for (int q = 0; q < na; ++q) {
        const double p = poly_deriv(c, 0, a[q]);
        const double o = fmax(p - hi, lo - p);
        /* below rounding of the waypoint values: not an overshoot */
        if (o > *d && o > 64 * DBL_EPSILON * fmax(fabs(lo), fabs(hi))) {
          *d = o;
          *td = t0 + a[q] * h;
        }
      }
    }
  }
}

/* Second-order jets: (value, first, second time derivative). */
typedef struct jet {
  double v, d, dd;
} jet;

static jet jet_mul(jet u, jet w) {
  jet r = {u.v * w.v, u.d * w.v + u.v * w.d,
           u.dd * w.v + 2.0 * u.d * w.d + u.v * w.dd};
  return r;
}

static jet jet_div(jet u, jet w) {
  jet r;
  r.v = u.v / w.v;
  r.d = (u.d - r.v * w.d) / w.v;
  r.dd = (u.dd - 2.0 * r.d * w.d - r.v * w.dd) / w.v;
  return r;
}

int rc_crane_flat_eval(const rc_crane_params *par, const rc_crane_path *path,
                       double t, rc_crane_flat *out) {
  double p1[5], p2[5];
  rc_crane_path_eval(path, t, p1, p2);
  const double M2 = par->M2;
  const jet a = {-M2 * p1[2], -M2 * p1[3], -M2 * p1[4]};
  const jet b = {par->m * par->g - M2 * p2[2], -M2 * p2[3], -M2 * p2[4]};
  if (!(b.v > 0.0) || !(p2[0] > 0.0))
    return 1;
  const jet P1 = {p1[0], p1[1], p1[2]}, P2 = {p2[0], p2[1], p2[2]};
  /* theta = atan2(a, b): theta' = (a' b - a b') / q, q = a^2 + b^2. */
  const double q = a.v * a.v + b.v * b.v;
  const double nn = a.d * b.v - a.v * b.d, nd = a.dd * b.v - a.v * b.dd;
  const double qd = 2.0 * (a.v * a.d + b.v * b.d);
  const jet th = {atan2(a.v, b.v), nn / q, (nd * q - nn * qd) / (q * q)};
  const double tau = sqrt(q);
  /* r = p2 tau / b = p2 / cos theta, d = p1 - p2 a / b. */
  const jet ab = jet_div(a, b);
  const jet pab = jet_mul(P2, ab);
  const jet d = {P1.v - pab.v, P1.d - pab.d, P1.dd - pab.dd};
  const jet ct = {cos(th.v), -sin(th.v) * th.d,
                  -cos(th.v) * th.d * th.d - sin(th.v) * th.dd};
  const jet r = jet_div(P2, ct);
  out->x = p1[0];
  out->z = p2[0];
  out->vx = p1[1];
  out->vz = p2[1];
  out->d = d.v;
  out->r = r.v;
  out->theta = th.v;
  out->vd = d.d;
  out->vr = r.d;
  out->omega = th.d;
  out->ad = d.dd;
  out->ar = r.dd;
  out->alpha = th.dd;
  out->tau = tau;
  out->u1 = par->M1 * d.dd + par->C1 * d.d - tau * sin(th.v);
  out->u2 = (par->C3 * par->C3 * tau - par->C2 * r.d - par->J * r.dd) / par->C3;
  return 0;
}

/* ---- the flat controls' time derivatives ----------------------------------
 * Truncated Taylor series of order TN (c[k] = f^(k)(t) / k!): the flat
 * inverse above once more, each quantity a series, so that u1, u2 come out
 * with their first two derivatives exactly.  u'' needs d'''' and r'''',
 * hence a, b (p'') to order 4 and the path to order 6. */
#define TN 5

static void ts_mul(const double *u, const double *w, double *r) {
  double o[TN];
  for (int k = 0; k < TN; ++k) {
    o[k] = 0.0;
    for (int i = 0; i <= k; ++i)
      o[k] += u[i] * w[k - i];
  }
  memcpy(r, o, sizeof o);
}

static void ts_div(const double *u, const double *w, double *r) {
  double o[TN];
  for (int k = 0; k < TN; ++k) {
    double v = u[k];
    for (int i = 1; i <= k; ++i)
      v -= w[i] * o[k - i];
    o[k] = v / w[0];
  }
  memcpy(r, o, sizeof o);
}

/* the series of f' (one order less; the last coefficient 0) */
static void ts_deriv(const double *u, double *r) {
  for (int k = 0; k + 1 < TN; ++k)
    r[k] = (k + 1) * u[k + 1];
  r[TN - 1] = 0.0;
}

int rc_crane_flat_u_derivs(const rc_crane_params *par,
                           const rc_crane_path *path, double t, double u1[3],
                           double u2[3]) {
  double p1[TN + 2], p2[TN + 2];
  rc_crane_path_eval_n(path, t, TN + 2, p1, p2);
  const double M2 = par->M2;
  double P1[TN], P2[TN], a[TN], b[TN], fact = 1.0;
  for (int k = 0; k < TN; ++k) { /* Taylor coefficients; a = -M2 p1'' */
    P1[k] = p1[k] / fact;
    P2[k] = p2[k] / fact;
    a[k] = -M2 * p1[k + 2] / fact;
    b[k] = -M2 * p2[k + 2] / fact;
    fact *= k + 1;
  }
  b[0] += par->m * par->g;
  if (!(b[0] > 0.0) || !(P2[0] > 0.0))
    return 1;
  /* theta = atan2(a, b): theta' = (a' b - a b') / (a^2 + b^2) */
  double ad[TN], bd[TN], q[TN], n1[TN], n2[TN], g[TN], th[TN];
  ts_deriv(a, ad);
  ts_deriv(b, bd);
  ts_mul(a, a, q);
  ts_mul(b, b, n1);
  for (int k = 0; k < TN; ++k)
    q[k] += n1[k];
  ts_mul(ad, b, n1);
  ts_mul(a, bd, n2);
  for (int k = 0; k < TN; ++k)
    n1[k] -= n2[k];
  ts_div(n1, q, g);
  th[0] = atan2(a[0], b[0]);
  for (int k = 1; k < TN; ++k)
    th[k] = g[k - 1] / k;
  double sn[TN], cs[TN];
  sn[0] = sin(th[0]);
  cs[0] = cos(th[0]);
  for (int k = 1; k < TN; ++k) {
    double vs = 0.0, vc = 0.0;
    for (int j = 1; j <= k; ++j) {
      vs += j * th[j] * cs[k - j];
      vc -= j * th[j] * sn[k - j];
    }
    sn[k] = vs / k;
    cs[k] = vc / k;
  }
  /* tau = sqrt(q) */
  double tau[TN];
  tau[0] = sqrt(q[0]);
  for (int k = 1; k < TN; ++k) {
    double v = q[k];
    for (int i = 1; i < k; ++i)
      v -= tau[i] * tau[k - i];
    tau[k] = v / (2.0 * tau[0]);
  }
  /* d = p1 - p2 a / b, r = p2 / cos theta */
  double ab[TN], d[TN], r[TN];
  ts_div(a, b, ab);
  ts_mul(P2, ab, ab);
  for (int k = 0; k < TN; ++k)
    d[k] = P1[k] - ab[k];
  ts_div(P2, cs, r);
  /* u1 = M1 d'' + C1 d' - tau sin theta,
   * u2 = (C3^2 tau - C2 r' - J r'') / C3, to order 2 */
  double d1[TN], d2[TN], r1[TN], r2[TN], ts[TN];
  ts_deriv(d, d1);
  ts_deriv(d1, d2);
  ts_deriv(r, r1);
  ts_deriv(r1, r2);
  ts_mul(tau, sn, ts);
  for (int k = 0; k < 3; ++k) {
    const double f = k == 2 ? 2.0 : 1.0; /* k! */
    u1[k] = f * (par->M1 * d2[k] + par->C1 * d1[k] - ts[k]);
    u2[k] = f *
            (par->C3 * par->C3 * tau[k] - par->C2 * r1[k] - par->J * r2[k]) /
            par->C3;
  }
  return 0;
}
#undef TN

/* ---- geometric curves (crane -f pathtime) -------------------------------- */

void rc_crane_curve_eval(const rc_crane_path *curve, double sigma,
                         double P[7][2]) {
  const int n = curve->n;
  int lo = 0;
  if (sigma >= curve->t[n - 1])
    lo = n - 2;
  else if (sigma > curve->t[0])
    lo = find_segment(curve, sigma);
  const double h = curve->t[lo + 1] - curve->t[lo];
  const double a = (sigma - curve->t[lo]) / h;
  double hj = 1.0;
  for (int j = 0; j < 7; ++j) {
    P[j][0] = poly_deriv(curve->cx + 10 * lo, j, a) / hj;
    P[j][1] = poly_deriv(curve->cz + 10 * lo, j, a) / hj;
    hj *= h;
  }
}

const double rc_crane_gl8_x[4] = {0.1834346424956498, 0.5255324099163290,
                                  0.7966664774136267, 0.9602898564975363};
const double rc_crane_gl8_w[4] = {0.3626837833783620, 0.3137066458778873,
                                  0.2223810344533745, 0.1012285362903763};

double rc_crane_curve_length(const rc_crane_path *curve) {
  const double *xg = rc_crane_gl8_x, *wg = rc_crane_gl8_w;
  double len = 0.0;
  for (int k = 0; k < curve->n - 1; ++k) {
    const double a = curve->t[k], b = curve->t[k + 1];
    for (int i = 0; i < 4; ++i)
      for (int sgn = -1; sgn <= 1; sgn += 2) {
        double P[7][2];
        rc_crane_curve_eval(curve, 0.5 * (a + b) + sgn * 0.5 * (b - a) * xg[i],
                            P);
        len += 0.5 * (b - a) * wg[i] * hypot(P[1][0], P[1][1]);
      }
  }
  return len;
}
