/*
 * dense_lu.c - small dense LU with partial pivoting (see dense_lu.h).
 *
 * Step k: choose the row p >= k with the largest |A_pk|, swap rows k and p,
 * then for i > k store l_ik = A_ik / A_kk in A_ik and subtract l_ik times
 * row k from row i.  Solve: apply the swaps to b, forward-substitute with
 * the unit L, back-substitute with U.
 */
#include "core/dense_lu.h"

#include <math.h>
#include <stddef.h>

int rc_lu_factor(int m, double *A, int *perm, double min_pivot) {
  for (int k = 0; k < m; ++k) {
    int piv = k;
    double amax = fabs(A[k * m + k]);
    for (int i = k + 1; i < m; ++i)
      if (fabs(A[i * m + k]) > amax) {
        amax = fabs(A[i * m + k]);
        piv = i;
      }
    if (!(amax > min_pivot) || !isfinite(amax))
      return k;
    perm[k] = piv;
    if (piv != k)
      for (int j = 0; j < m; ++j) {
        const double t = A[k * m + j];
        A[k * m + j] = A[piv * m + j];
        A[piv * m + j] = t;
      }
    const double inv = 1.0 / A[k * m + k];
    for (int i = k + 1; i < m; ++i) {
      double *ri = A + (size_t)i * m;
      const double l = ri[k] * inv;
      ri[k] = l;
      if (l != 0.0) {
        const double *rk = A + (size_t)k * m;
        for (int j = k + 1; j < m; ++j)
          ri[j] -= l * rk[j];
      }
    }
  }
  return -1;
}

void rc_lu_solve(int m, const double *A, const int *perm, double *b) {
  for (int k = 0; k < m; ++k)
    if (perm[k] != k) {
      const double t = b[k];
      b[k] = b[perm[k]];
      b[perm[k]] = t;
    }
  for (int i = 1; i < m; ++i) {
    double s = b[i];
    const double *ri = A + (size_t)i * m;
    for (int j = 0; j < i; ++j)
      s -= ri[j] * b[j];
    b[i] = s;
  }
  for (int i = m - 1; i >= 0; --i) {
    double s = b[i];
    const double *ri = A + (size_t)i * m;
    for (int j = i + 1; j < m; ++j)
      s -= ri[j] * b[j];
    b[i] = s / ri[i];
  }
}

int rc_lu_solve_once(int m, double *A, int *perm, double *b, double rel) {
  double scale = 0.0;
  for (int i = 0; i < m * m; ++i)
    scale = fmax(scale, fabs(A[i]));
  const int bad = rc_lu_factor(m, A, perm, rel * scale);
  if (bad < 0)
    rc_lu_solve(m, A, perm, b);
  return bad;
}
