/*
 * crane_path.c - the crane's waypoint path (default and CSV), its exact
 * derivatives up to order 4, the flatness checks and the exact flat inverse.
 * The maths is in crane_path.h.
 *
 * Invariants: a path has n >= 2 waypoints with strictly increasing finite t,
 * t[0] = 0, finite x and z; rc_crane_path_eval never fails (it rests at the
 * end points outside the waypoint range).
 */
#include "crane_path.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Coefficients of s(a) = sum_k S_COEF[k] a^k (degree 9). */
static const double S_COEF[10] = {0, 0, 0, 0, 0, 126, -420, 540, -315, 70};

/* j-th derivative of s at a (0 <= j <= 4), by Horner on the differentiated
 * coefficients k!/(k-j)! S_COEF[k]. */
static double smooth_step(int j, double a) {
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
  path->t = path->x = path->z = NULL;
  path->n = 0;
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

/* Parses up to 3 comma- (or whitespace-) separated numbers; returns how many
 * fields were found (fields that are not numbers count as -1 -> return -1). */
static int parse_row(char *line, double v[3], int *nfields) {
  int k = 0;
  char *p = line;
  *nfields = 0;
  for (;;) {
    while (*p == ' ' || *p == '\t')
      ++p;
    if (*p == '\0' || *p == '\n' || *p == '\r')
      break;
    char *end;
    errno = 0;
    double x = strtod(p, &end);
    if (end == p)
      return -1;
    if (k < 3)
      v[k] = x;
    ++k;
    p = end;
    while (*p == ' ' || *p == '\t')
      ++p;
    if (*p == ',' || *p == ';')
      ++p;
    else if (*p != '\0' && *p != '\n' && *p != '\r' &&
             !isdigit((unsigned char)*p) && *p != '-' && *p != '+' && *p != '.')
      return -1;
  }
  *nfields = k;
  return k;
}

rc_err rc_crane_path_read_csv(rc_crane_path *path, const char *file,
                              rc_error *err) {
  memset(path, 0, sizeof *path);
  FILE *fp = fopen(file, "r");
  if (!fp)
    return rc_error_set(err, RC_ERR_IO, "crane: cannot open path file '%s'",
                        file);
  char line[1024];
  int lineno = 0, cap = 0, n = 0, seen_data = 0;
  rc_err rc = RC_OK;
  double *t = NULL, *x = NULL, *z = NULL;
  while (rc == RC_OK && fgets(line, sizeof line, fp)) {
    ++lineno;
    char *s = line;
    while (isspace((unsigned char)*s))
      ++s;
    if (*s == '\0' || *s == '#')
      continue;
    double v[3] = {0, 0, 0};
    int nf;
    int k = parse_row(s, v, &nf);
    if (k < 0) {
      if (!seen_data && n == 0) { /* the one header line */
        seen_data = 1;
        continue;
      }
      rc = rc_error_set(err, RC_ERR_INPUT,
                        "crane: path file '%s' line %d: expected three "
                        "numbers t,x,z, got '%.40s'",
                        file, lineno, s);
      break;
    }
    seen_data = 1;
    if (k != 3) {
      rc = rc_error_set(err, RC_ERR_INPUT,
                        "crane: path file '%s' line %d: %d column%s, expected "
                        "3 (t,x,z)",
                        file, lineno, k, k == 1 ? "" : "s");
      break;
    }
    for (int i = 0; i < 3; ++i)
      if (!isfinite(v[i])) {
        rc = rc_error_set(err, RC_ERR_INPUT,
                          "crane: path file '%s' line %d: %s = %g, expected "
                          "a finite number",
                          file, lineno,
                          i == 0   ? "t"
                          : i == 1 ? "x"
                                   : "z",
                          v[i]);
        break;
      }
    if (rc != RC_OK)
      break;
    if (n == 0 && v[0] > 0.0) {
      rc = rc_error_set(err, RC_ERR_INPUT,
                        "crane: path file '%s' line %d: first t = %g, "
                        "expected <= 0 (the horizon starts at t0 = 0; a "
                        "negative first t starts it in motion)",
                        file, lineno, v[0]);
      break;
    }
    if (n > 0 && !(v[0] > t[n - 1])) {
      rc = rc_error_set(err, RC_ERR_INPUT,
                        "crane: path file '%s' line %d: t = %g after t = %g, "
                        "expected strictly increasing times",
                        file, lineno, v[0], t[n - 1]);
      break;
    }
    if (n == cap) {
      cap = cap ? 2 * cap : 16;
      double *nt = realloc(t, sizeof(double) * (size_t)cap);
      if (nt)
        t = nt;
      double *nx = realloc(x, sizeof(double) * (size_t)cap);
      if (nx)
        x = nx;
      double *nz = realloc(z, sizeof(double) * (size_t)cap);
      if (nz)
        z = nz;
      if (!nt || !nx || !nz) {
        rc = rc_error_set(err, RC_ERR_NOMEM,
                          "crane: out of memory reading "
                          "'%s'",
                          file);
        break;
      }
    }
    t[n] = v[0];
    x[n] = v[1];
    z[n] = v[2];
    ++n;
  }
  if (rc == RC_OK && ferror(fp))
    rc = rc_error_set(err, RC_ERR_IO, "crane: read error on path file '%s'",
                      file);
  fclose(fp);
  if (rc == RC_OK && n < 2)
    rc = rc_error_set(err, RC_ERR_INPUT,
                      "crane: path file '%s' has %d waypoint row%s, expected "
                      "at least 2",
                      file, n, n == 1 ? "" : "s");
  if (rc != RC_OK) {
    free(t);
    free(x);
    free(z);
    return rc;
  }
  path->n = n;
  path->t = t;
  path->x = x;
  path->z = z;
  return RC_OK;
}

void rc_crane_path_eval(const rc_crane_path *path, double t, double p1[5],
                        double p2[5]) {
  const int n = path->n;
  for (int j = 1; j < 5; ++j)
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
  int lo = 0, hi = n - 1; /* t in (t[lo], t[hi]) */
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (path->t[mid] < t)
      lo = mid;
    else
      hi = mid;
  }
  const double h = path->t[hi] - path->t[lo];
  const double a = (t - path->t[lo]) / h;
  const double dx = path->x[hi] - path->x[lo];
  const double dz = path->z[hi] - path->z[lo];
  double hj = 1.0;
  for (int j = 0; j < 5; ++j) {
    double sj = smooth_step(j, a) / hj;
    p1[j] = (j == 0 ? path->x[lo] : 0.0) + dx * sj;
    p2[j] = (j == 0 ? path->z[lo] : 0.0) + dz * sj;
    hj *= h;
  }
}

rc_err rc_crane_path_check_flat(const rc_crane_path *path,
                                const rc_crane_params *par, rc_error *err) {
  for (int k = 0; k < path->n; ++k)
    if (!(path->z[k] > 0.0))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: path violates p2 > 0 at t = %g: p2 = %g "
                          "(the load would be at or above the trolley rail; "
                          "expected z > 0, z positive downward)",
                          path->t[k], path->z[k]);
  /* s''(a) = 2520 a^3 (1-a)^3 (1-2a) has its maximum at a* = (1 - 1/sqrt7)/2
   * and its minimum at 1 - a*, with s''(1 - a) = -s''(a). */
  const double astar = 0.5 * (1.0 - 1.0 / sqrt(7.0));
  const double s2max = smooth_step(2, astar);
  const double mg = par->m * par->g;
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
