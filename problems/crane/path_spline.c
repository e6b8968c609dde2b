/*
 * path_spline.c - the complete spline of degree 9 (path.h): the smooth mode
 * of a waypoint path (derivatives 1..4 zero at both ends) and the curves of
 * pathtime (end derivatives from the first and last rows), through the
 * degree-9 Hermite basis and the banded continuity system of derivatives
 * 5..8 at the interior knots.
 *
 * Invariants: on success cx, cz hold 10 (n - 1) finite coefficients in the
 * local variable a of each segment; on failure the path is left as it was
 * (rc_crane_path_smooth) or freed (rc_crane_curve_build).
 */
#include "path.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Degree-9 Hermite basis on [0, 1]: HB[f] for f = 5 side + j (side 0: a = 0,
 * 1: a = 1; j = 0..4) is the polynomial with q^(l)(side') = 1 if (side', l)
 * = (side, j), else 0 (l = 0..4).  Coefficients c_0..c_4 = q^(l)(0) / l!;
 * c_5..c_9 from the five conditions at a = 1 (a 5 x 5 solve, Gaussian
 * elimination with partial pivoting). */
static void hermite_basis(long double HB[10][10]) {
  for (int f = 0; f < 10; ++f) {
    const int side = f / 5, j = f % 5;
    long double *c = HB[f];
    for (int i = 0; i < 10; ++i)
      c[i] = 0.0L;
    if (side == 0)
      c[j] = 1.0L / rc_crane_falling(j, j);
    long double M[5][6];
    for (int l = 0; l < 5; ++l) {
      long double known = 0.0L;
      for (int i = l; i < 5; ++i)
        known += c[i] * rc_crane_falling(i, l);
      for (int i = 5; i < 10; ++i)
        M[l][i - 5] = rc_crane_falling(i, l);
      M[l][5] = (side == 1 && l == j ? 1.0L : 0.0L) - known;
    }
    for (int col = 0; col < 5; ++col) {
      int piv = col;
      for (int r = col + 1; r < 5; ++r)
        if (fabsl(M[r][col]) > fabsl(M[piv][col]))
          piv = r;
      for (int q = 0; q < 6; ++q) {
        long double tmp = M[col][q];
        M[col][q] = M[piv][q];
        M[piv][q] = tmp;
      }
      for (int r = col + 1; r < 5; ++r) {
        long double fct = M[r][col] / M[col][col];
        for (int q = col; q < 6; ++q)
          M[r][q] -= fct * M[col][q];
      }
    }
    for (int r = 4; r >= 0; --r) {
      long double v = M[r][5];
      for (int q = r + 1; q < 5; ++q)
        v -= M[r][q] * c[5 + q];
      c[5 + r] = v / M[r][r];
    }
  }
}

/* Banded Gaussian elimination with partial pivoting on nrhs right-hand
 * sides at once (the row-oriented, left-justified scheme of Numerical
 * Recipes' bandec).  Row i of the N x N matrix (kl sub-, ku
 * superdiagonals) is stored in a[i * W ..], W = kl + ku + 1, slot q holding
 * column max(0, i - kl) + q.  Before step k every candidate pivot row
 * (k .. k + kl) starts at column k: eliminating column k shifts each updated
 * row left by one slot, and U keeps kl + ku superdiagonals, which fit in the
 * W slots.  b is N x nrhs, row-major; the solution overwrites it.  Returns
 * 0, or 1 when a pivot is below 1e-13 times the largest entry (singular). */
static int band_solve(int N, int kl, int ku, long double *a, long double *b,
                      int nrhs) {
  const int W = kl + ku + 1;
  long double amax = 0.0L;
  for (long e = 0; e < (long)N * W; ++e)
    amax = fmaxl(amax, fabsl(a[e]));
  for (int k = 0; k < N; ++k) {
    const int last = k + kl < N - 1 ? k + kl : N - 1;
    int piv = k;
    for (int i = k + 1; i <= last; ++i)
      if (fabsl(a[(long)i * W]) > fabsl(a[(long)piv * W]))
        piv = i;
    if (!(fabsl(a[(long)piv * W]) > 1e-13 * amax))
      return 1;
    if (piv != k) {
      for (int q = 0; q < W; ++q) {
        long double tmp = a[(long)k * W + q];
        a[(long)k * W + q] = a[(long)piv * W + q];
        a[(long)piv * W + q] = tmp;
      }
      for (int r = 0; r < nrhs; ++r) {
        long double tmp = b[(long)k * nrhs + r];
        b[(long)k * nrhs + r] = b[(long)piv * nrhs + r];
        b[(long)piv * nrhs + r] = tmp;
      }
    }
    const long double *ak = a + (long)k * W;
    for (int i = k + 1; i <= last; ++i) {
      long double *ai = a + (long)i * W;
      const long double fct = ai[0] / ak[0];
      for (int q = 1; q < W; ++q)
        ai[q - 1] = ai[q] - fct * ak[q];
      ai[W - 1] = 0.0L;
      for (int r = 0; r < nrhs; ++r)
        b[(long)i * nrhs + r] -= fct * b[(long)k * nrhs + r];
    }
  }
  for (int i = N - 1; i >= 0; --i) {
    const long double *ai = a + (long)i * W;
    for (int r = 0; r < nrhs; ++r) {
      long double v = b[(long)i * nrhs + r];
      for (int q = 1; q < W && i + q < N; ++q)
        v -= ai[q] * b[(long)(i + q) * nrhs + r];
      b[(long)i * nrhs + r] = v / ai[0];
    }
  }
  return 0;
}

/* The spline with derivatives 1..4 at the first and last waypoint given:
 * ends[e][c][j - 1] = d^j/dt^j of coordinate c (0 x, 1 z) at end e (0
 * first, 1 last), or NULL for 0 (at rest). */
static rc_err smooth_with_ends(rc_crane_path *path, const double ends[2][2][4],
                               rc_error *err);

rc_err rc_crane_path_smooth(rc_crane_path *path, rc_error *err) {
  return smooth_with_ends(path, NULL, err);
}

/* Bandwidths of the continuity system: unknown j of knot k is column
 * 4 (k - 1) + j - 1, and the rows of knot k touch knots k - 1 .. k + 1. */
enum { SPL_KL = 7, SPL_KU = 7, SPL_W = SPL_KL + SPL_KU + 1 };

/* Length of segment k, and the length scale of interior knot k (the
 * unknowns are p^(j) H_k^j). */
static double seg_len(const double *t, int k) {
  return t[k + 1] - t[k];
}
static double knot_scale(const double *t, int k) {
  return 0.5 * (seg_len(t, k - 1) + seg_len(t, k));
}

/* DB[m - 5][f][e]: m-th derivative (m = 5..8) of basis f at a = e. */
static void basis_high_derivs(const long double HB[10][10],
                              long double DB[4][10][2]) {
  for (int m = 5; m <= 8; ++m)
    for (int f = 0; f < 10; ++f)
      for (int e = 0; e < 2; ++e) {
        long double v = 0.0L;
        for (int i = 9; i >= m; --i)
          v = v * e + HB[f][i] * rc_crane_falling(i, m);
        DB[m - 5][f][e] = v;
      }
}

/* The storage of one spline build: the band matrix A (N x SPL_W) and its
 * two right-hand sides rhs (N x 2, x and z) for the unknown derivatives
 * 1..4 at the N / 4 interior knots; D[10 k + j] (x), D[10 k + 5 + j] (z) =
 * p^(j)(t_k), j = 0..4; the coefficients cx, cz (10 per segment). */
typedef struct spline_work {
  long double *A, *rhs;
  double *D, *cx, *cz;
} spline_work;

static void spline_work_free(spline_work *w) {
  free(w->cx);
  free(w->cz);
  free(w->A);
  free(w->rhs);
  free(w->D);
}

static int spline_work_alloc(spline_work *w, int n) {
  const int nseg = n - 1, N = 4 * (n - 2);
  w->cx = malloc(sizeof(double) * 10 * (size_t)nseg);
  w->cz = malloc(sizeof(double) * 10 * (size_t)nseg);
  w->A = N > 0 ? calloc((size_t)N * SPL_W, sizeof(long double)) : NULL;
  w->rhs = N > 0 ? calloc((size_t)N * 2, sizeof(long double)) : NULL;
  w->D = malloc(sizeof(double) * 10 * (size_t)n);
  if (!w->cx || !w->cz || !w->D || (N > 0 && (!w->A || !w->rhs))) {
    spline_work_free(w);
    return 1;
  }
  return 0;
}

/* Rows 4 (k - 1) + m - 5 of A and rhs, k = 1..n-2, m = 5..8: the m-th
 * derivative of segment k at a = 0 equals that of segment k - 1 at a = 1,
 * scaled by H_k^m.  Known values (the waypoints, the given end derivatives)
 * go to the right-hand side. */
static void assemble_continuity(const rc_crane_path *path,
                                const double ends[2][2][4],
                                const long double DB[4][10][2],
                                spline_work *w) {
  const int n = path->n;
  const double *t = path->t;
  long double *A = w->A, *rhs = w->rhs;
  for (int k = 1; k <= n - 2; ++k) {
    const double Hk = knot_scale(t, k);
    for (int m = 5; m <= 8; ++m) {
      const int row = 4 * (k - 1) + (m - 5);
      /* +: segment k at a = 0 (knots k, k+1); -: segment k-1 at a = 1
       * (knots k-1, k) */
      for (int side = 0; side < 2; ++side) {
        const int seg = side == 0 ? k : k - 1;
        const double sign = side == 0 ? 1.0 : -1.0;
        const int e = side == 0 ? 0 : 1;
        const double h = seg_len(t, seg);
        const long double sm = sign * powl((long double)Hk / h, m);
        for (int end = 0; end < 2; ++end) {
          const int knot = seg + end;
          for (int j = 0; j < 5; ++j) {
            const long double db = DB[m - 5][5 * end + j][e];
            if (j == 0) {
              /* the two end values enter as their difference (derivatives
               * m >= 1 of the value basis: DB(left) = -DB(right)), which
               * keeps a large offset of x or z out of the rounding */
              if (end == 1) {
                rhs[2 * row + 0] -=
                    sm * db * ((long double)path->x[knot] - path->x[seg]);
                rhs[2 * row + 1] -=
                    sm * db * ((long double)path->z[knot] - path->z[seg]);
              }
            } else if (ends && (knot == 0 || knot == n - 1)) {
              const int ee = knot == 0 ? 0 : 1; /* a given end derivative */
              const long double coef = sm * db * powl((long double)h, j);
              rhs[2 * row + 0] -= coef * ends[ee][0][j - 1];
              rhs[2 * row + 1] -= coef * ends[ee][1][j - 1];
            } else if (knot > 0 && knot < n - 1) {
              const int col = 4 * (knot - 1) + (j - 1);
              const long double coef =
                  sm * db * powl((long double)h / knot_scale(t, knot), j);
              const int first = row - SPL_KL > 0 ? row - SPL_KL : 0;
              A[(long)row * SPL_W + (col - first)] += coef;
            }
          }
        }
      }
    }
  }
}

/* D from the waypoints, the solved interior derivatives (rhs, scaled by
 * H_k^j) and the end derivatives (given, or 0). */
static void knot_derivs(const rc_crane_path *path, const double ends[2][2][4],
                        spline_work *w) {
  const int n = path->n;
  const long double *rhs = w->rhs;
  double *D = w->D;
  for (int k = 0; k < n; ++k) {
    D[10 * k + 0] = path->x[k];
    D[10 * k + 5] = path->z[k];
    for (int j = 1; j < 5; ++j) {
      const int inner = k > 0 && k < n - 1;
      const double Hj = inner ? pow(knot_scale(path->t, k), (double)j) : 1.0;
      const double e0 = ends ? ends[k == 0 ? 0 : 1][0][j - 1] : 0.0;
      const double e1 = ends ? ends[k == 0 ? 0 : 1][1][j - 1] : 0.0;
      D[10 * k + j] =
          inner ? (double)(rhs[2 * (4 * (k - 1) + j - 1) + 0] / Hj) : e0;
      D[10 * k + 5 + j] =
          inner ? (double)(rhs[2 * (4 * (k - 1) + j - 1) + 1] / Hj) : e1;
    }
  }
}

/* cx, cz of every segment from the knot derivatives D through the Hermite
 * basis.  Returns 1 if all are finite, else 0. */
static int segment_coefs(const rc_crane_path *path,
                         const long double HB[10][10], spline_work *w) {
  const double *D = w->D;
  int finite = 1;
  for (int k = 0; k < path->n - 1; ++k) {
    const double h = seg_len(path->t, k);
    double *ax = w->cx + 10 * k, *az = w->cz + 10 * k;
    /* value part as x_k + (x_{k+1} - x_k) HB_5 (HB_0 + HB_5 = 1): a large
     * offset would otherwise sit in every coefficient and cancel in the
     * derivatives */
    long double lx[10] = {0}, lz[10] = {0};
    lx[0] = path->x[k];
    lz[0] = path->z[k];
    for (int end = 0; end < 2; ++end)
      for (int j = 0; j < 5; ++j) {
        long double vx, vz;
        if (j == 0) {
          if (end == 0)
            continue;
          vx = (long double)path->x[k + 1] - path->x[k];
          vz = (long double)path->z[k + 1] - path->z[k];
        } else {
          const long double hj = powl((long double)h, j);
          vx = hj * D[10 * (k + end) + j];
          vz = hj * D[10 * (k + end) + 5 + j];
        }
        for (int i = 0; i < 10; ++i) {
          lx[i] += vx * HB[5 * end + j][i];
          lz[i] += vz * HB[5 * end + j][i];
        }
      }
    for (int i = 0; i < 10; ++i) {
      ax[i] = (double)lx[i];
      az[i] = (double)lz[i];
      if (!isfinite(ax[i]) || !isfinite(az[i]))
        finite = 0;
    }
  }
  return finite;
}

/* Frees w and refuses the path: what is wrong with the spline, and what
 * the waypoints should be instead. */
static rc_err spline_refused(spline_work *w, const rc_crane_path *path,
                             const char *what, const char *expected,
                             rc_error *err) {
  spline_work_free(w);
  return rc_error_set(err, RC_ERR_INPUT,
                      "crane: the smooth path through %d waypoints (t = %g "
                      ".. %g) %s: expected %s (or use path_mode=stop)",
                      path->n, path->t[0], path->t[path->n - 1], what,
                      expected);
}

static rc_err smooth_with_ends(rc_crane_path *path, const double ends[2][2][4],
                               rc_error *err) {
  const int n = path->n, N = 4 * (n - 2);
  /* in long double: the continuity rows are differences of large basis
   * derivatives (~1e7 for m = 8), so the basis must be exact to well
   * below double rounding for the spline to be exact to double rounding */
  long double HB[10][10], DB[4][10][2];
  hermite_basis(HB);
  basis_high_derivs(HB, DB);
  spline_work w;
  if (spline_work_alloc(&w, n))
    return rc_error_set(err, RC_ERR_NOMEM,
                        "crane: out of memory for a smooth path of %d "
                        "waypoints",
                        n);
  assemble_continuity(path, ends, DB, &w);
  if (N > 0 && band_solve(N, SPL_KL, SPL_KU, w.A, w.rhs, 2))
    return spline_refused(&w, path, "is numerically singular",
                          "waypoint times spaced less unevenly", err);
  knot_derivs(path, ends, &w);
  if (!segment_coefs(path, HB, &w))
    return spline_refused(&w, path, "has non-finite coefficients",
                          "waypoint times and values of moderate size", err);
  free(w.A);
  free(w.rhs);
  free(w.D);
  free(path->cx);
  free(path->cz);
  path->cx = w.cx;
  path->cz = w.cz;
  path->mode = RC_CRANE_PATH_SMOOTH;
  return RC_OK;
}

/* ---- geometric curves (crane -f pathtime) -------------------------------- */

/* sigma_k by chord length: t[0] = 0, t[n - 1] = 1. */
static void chord_sigma(const double *x, const double *z, int n, double *t) {
  double len = 0.0;
  t[0] = 0.0;
  for (int k = 1; k < n; ++k) {
    len += hypot(x[k] - x[k - 1], z[k] - z[k - 1]);
    t[k] = len;
  }
  for (int k = 1; k < n; ++k)
    t[k] /= len;
  t[n - 1] = 1.0;
}

/* ends[e][c][j - 1]: the derivatives j = 1..4 at end e (sigma 0 or 1) of
 * coordinate c (0 x, 1 z) of the polynomial of degree min(n, 5) - 1
 * through the first (last) min(n, 5) points (exact for a curve that is
 * such a polynomial in sigma). */
static void curve_end_derivs(const double *t, const double *x, const double *z,
                             int n, double ends[2][2][4]) {
  const int np = n < 5 ? n : 5;
  for (int e = 0; e < 2; ++e) {
    const int first = e == 0 ? 0 : n - np;
    const double te = e == 0 ? 0.0 : 1.0;
    for (int c = 0; c < 2; ++c) {
      /* Newton's divided differences, then the derivatives at te of the
       * Newton form sum_i dd_i prod_{l<i} (s - t_l) */
      double dd[5], ts[5];
      for (int i = 0; i < np; ++i) {
        ts[i] = t[first + i];
        dd[i] = c == 0 ? x[first + i] : z[first + i];
      }
      for (int l = 1; l < np; ++l)
        for (int i = np - 1; i >= l; --i)
          dd[i] = (dd[i] - dd[i - 1]) / (ts[i] - ts[i - l]);
      /* Horner with derivatives: q = dd[np-1]; q = q (s - ts[i]) + dd[i] */
      double q[5] = {dd[np - 1], 0, 0, 0, 0};
      for (int i = np - 2; i >= 0; --i) {
        for (int j = 4; j >= 1; --j)
          q[j] = q[j] * (te - ts[i]) + j * q[j - 1];
        q[0] = q[0] * (te - ts[i]) + dd[i];
      }
      for (int j = 1; j <= 4; ++j)
        ends[e][c][j - 1] = q[j];
    }
  }
}

rc_err rc_crane_curve_build(rc_crane_path *curve, int n, double *x, double *z,
                            rc_error *err) {
  memset(curve, 0, sizeof *curve);
  double *t = malloc(sizeof(double) * (size_t)n);
  if (!t) {
    free(x);
    free(z);
    return rc_error_set(err, RC_ERR_NOMEM, "crane: out of memory for a curve");
  }
  chord_sigma(x, z, n, t);
  double ends[2][2][4];
  curve_end_derivs(t, x, z, n, ends);
  curve->n = n;
  curve->t = t;
  curve->x = x;
  curve->z = z;
  curve->mode = RC_CRANE_PATH_STOP;
  const rc_err rc = smooth_with_ends(curve, ends, err);
  if (rc != RC_OK) {
    rc_crane_path_free(curve);
    return rc;
  }
  curve->mode = RC_CRANE_PATH_CURVE;
  return RC_OK;
}
