/*
 * collocation/radau_transform.c - eigen-decomposition of D1 = A^{-1} and the
 * embedded error estimator of Radau IIA (radau_transform.h has the maths).
 *
 * Eigenvalues: the roots of Q (radau_transform.h), found by Aberth-Ehrlich
 * iteration in long double complex arithmetic from points on the circle of
 * radius |q_0 / q_s|^(1/s) until the roots move by less than 1e-12 relative
 * (4 to 9 sweeps for s = 3..11; at most 200), then polished by three Newton
 * steps on Q each and checked (|Q| <= 1e-12 |q_0| (1 + |z|)).  Eigenvectors:
 * inverse iteration on the double D1 of the rule (the matrix the integrator
 * uses) at the polished root, three solves with a complex LU in long double.
 * V^{-1} from the full V (each pair's vector and its conjugate).  Embedded
 * weights: a Vandermonde solve in long double. No I/O, no allocation.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "collocation/radau_transform.h"

#define S_MAX RC_RADAU_MAX_STAGES

typedef long double complex lcplx;

/* a / b without libgcc's __divxc3 (which handles infinities and NaN at
 * several times the cost; the operands here are finite and b != 0) */
/* |re| + |im|: a size without hypotl (with __divxc3 it made this file's
 * set-up cost 0.2-1 ms per rule) */
static long double l1abs(lcplx z) {
  return fabsl(creall(z)) + fabsl(cimagl(z));
}

static lcplx cdiv(lcplx a, lcplx b) {
  const long double br = creall(b), bi = cimagl(b), d = br * br + bi * bi;
  return (a * (br - bi * I)) / d;
}

/* Q's coefficients q[0..s] (q_0 = 1). */
static void pade_denominator(int s, long double *q) {
  q[0] = 1.0L;
  for (int k = 0; k < s; ++k)
    q[k + 1] = -q[k] * (long double)(s - k) /
               ((long double)(k + 1) * (long double)(2 * s - 1 - k));
}

static lcplx poly_eval(int s, const long double *q, lcplx z, lcplx *dp) {
  lcplx p = q[s], d = 0.0L;
  for (int k = s - 1; k >= 0; --k) {
    d = d * z + p;
    p = p * z + q[k];
  }
  if (dp)
    *dp = d;
  return p;
}

/* The s roots of Q into z; 0, or -1 when the iteration does not settle. */
static int pade_roots(int s, lcplx *z) {
  long double q[S_MAX + 1];
  pade_denominator(s, q);
  const long double r = powl(fabsl(q[0] / q[s]), 1.0L / s);
  const lcplx seed = 0.4L + 0.9L * I;
  lcplx w = 1.0L;
  for (int k = 0; k < s; ++k) {
    w *= seed;
    z[k] = r * w / cabsl(w);
  }
  int settled = 0;
  for (int it = 0; it < 200 && !settled; ++it) {
    long double move = 0.0L;
    for (int k = 0; k < s; ++k) {
      lcplx dp, sum = 0.0L;
      const lcplx pk = poly_eval(s, q, z[k], &dp);
      const lcplx ratio = cdiv(pk, dp);
      for (int j = 0; j < s; ++j)
        if (j != k)
          sum += cdiv(1.0L, z[k] - z[j]);
      const lcplx dz = cdiv(ratio, 1.0L - ratio * sum);
      z[k] -= dz;
      move = fmaxl(move, l1abs(dz) / (1.0L + l1abs(z[k])));
    }
    /* a few digits suffice: Newton on Q polishes each root below */
    settled = move <= 1e-12L;
  }
  for (int k = 0; k < s; ++k)
    for (int it = 0; it < 3; ++it) {
      lcplx dp;
      const lcplx p = poly_eval(s, q, z[k], &dp);
      if (cabsl(dp) > 0)
        z[k] -= cdiv(p, dp);
    }
  for (int k = 0; k < s; ++k) {
    lcplx dp;
    const long double p = cabsl(poly_eval(s, q, z[k], &dp));
    if (!(p <= 1e-12L * fabsl(q[0]) * (1.0L + cabsl(z[k]))))
      return -1;
  }
  return 0;
}

/* Complex LU with partial pivoting (m x m, row-major) and solve; returns -1
 * on success, else the failing column. */
static int clu_factor(int m, lcplx *A, int *perm) {
  for (int k = 0; k < m; ++k) {
    int p = k;
    for (int i = k + 1; i < m; ++i)
      if (l1abs(A[i * m + k]) > l1abs(A[p * m + k]))
        p = i;
    perm[k] = p;
    if (!(l1abs(A[p * m + k]) > 0.0L))
      return k;
    if (p != k)
      for (int j = 0; j < m; ++j) {
        const lcplx t = A[k * m + j];
        A[k * m + j] = A[p * m + j];
        A[p * m + j] = t;
      }
    const lcplx inv = cdiv(1.0L, A[k * m + k]);
    for (int i = k + 1; i < m; ++i) {
      const lcplx l = A[i * m + k] * inv;
      A[i * m + k] = l;
      for (int j = k + 1; j < m; ++j)
        A[i * m + j] -= l * A[k * m + j];
    }
  }
  return -1;
}

static void clu_solve(int m, const lcplx *A, const int *perm, lcplx *b) {
  /* the factor swapped whole rows: permute b first, then substitute */
  for (int k = 0; k < m; ++k)
    if (perm[k] != k) {
      const lcplx t = b[k];
      b[k] = b[perm[k]];
      b[perm[k]] = t;
    }
  for (int k = 0; k < m; ++k)
    for (int i = k + 1; i < m; ++i)
      b[i] -= A[i * m + k] * b[k];
  for (int k = m - 1; k >= 0; --k) {
    for (int j = k + 1; j < m; ++j)
      b[k] -= A[k * m + j] * b[j];
    b[k] = cdiv(b[k], A[k * m + k]);
  }
}

/* Eigenvector of D1 (s x s, long double) at eigenvalue lam by inverse
 * iteration; 0 or -1. */
static int eigenvector(int s, const long double *D1, lcplx lam, lcplx *v) {
  lcplx M[S_MAX * S_MAX];
  int perm[S_MAX];
  /* a shift just off the eigenvalue keeps the LU finite */
  const lcplx mu = lam * (1.0L + 1e-13L);
  for (int i = 0; i < s; ++i)
    for (int j = 0; j < s; ++j)
      M[i * s + j] = D1[i * s + j] - (i == j ? mu : 0.0L);
  if (clu_factor(s, M, perm) >= 0)
    return -1;
  for (int i = 0; i < s; ++i)
    v[i] = 1.0L + 0.1L * i + 0.05L * I * (s - i);
  for (int it = 0; it < 3; ++it) {
    clu_solve(s, M, perm, v);
    long double nrm = 0.0L;
    int big = 0;
    for (int i = 0; i < s; ++i)
      if (l1abs(v[i]) > nrm) {
        nrm = l1abs(v[i]);
        big = i;
      }
    if (!(nrm > 0.0L) || !isfinite(nrm))
      return -1;
    const lcplx scale = cdiv(1.0L, v[big]);
    for (int i = 0; i < s; ++i)
      v[i] *= scale;
  }
  return 0;
}

/* Embedded coefficients e (odd s): bh from the Vandermonde system, then
 * e = D1^T (bh - b). */
static void embedded(const rc_radau *r, const long double *D1, double gamma0,
                     double *e) {
  const int s = r->s;
  lcplx M[S_MAX * S_MAX], rhs[S_MAX];
  int perm[S_MAX];
  for (int i = 0; i < s; ++i) {
    long double ck = 1.0L;
    for (int k = 0; k < s; ++k) {
      M[k * s + i] = ck;
      ck *= (long double)r->c[i];
    }
  }
  for (int k = 0; k < s; ++k)
    rhs[k] = 1.0L / (k + 1) - (k == 0 ? (long double)gamma0 : 0.0L);
  if (clu_factor(s, M, perm) >= 0) {
    memset(e, 0, sizeof *e * (size_t)s);
    return;
  }
  clu_solve(s, M, perm, rhs);
  for (int j = 0; j < s; ++j) {
    long double acc = 0.0L;
    for (int i = 0; i < s; ++i)
      acc += D1[i * s + j] * (creall(rhs[i]) - (long double)r->b[i]);
    e[j] = (double)acc;
  }
}

int rc_radau_eig_init(const rc_radau *r, rc_radau_eig *out) {
  if (!r || !out || r->s < 1 || r->s > S_MAX)
    return -1;
  const int s = r->s;
  memset(out, 0, sizeof *out);
  out->s = s;
  long double D1[S_MAX * S_MAX];
  long double dmax = 0.0L;
  for (int i = 0; i < s; ++i)
    for (int j = 0; j < s; ++j) {
      D1[i * s + j] = r->D[i * (s + 1) + j + 1];
      dmax = fmaxl(dmax, fabsl(D1[i * s + j]));
    }
  lcplx z[S_MAX];
  if (pade_roots(s, z) != 0)
    return -1;
  /* blocks: real roots first, then one root of each pair (imag > 0) */
  lcplx blk[S_MAX];
  int nreal = 0, npair = 0;
  for (int k = 0; k < s; ++k)
    if (fabsl(cimagl(z[k])) <= 1e-12L * cabsl(z[k]))
      blk[nreal++] = creall(z[k]);
  for (int k = 0; k < s; ++k)
    if (cimagl(z[k]) > 1e-12L * cabsl(z[k]))
      blk[nreal + npair++] = z[k];
  if (nreal + 2 * npair != s || nreal != (s % 2))
    return -1;
  const int nblk = nreal + npair;
  out->nreal = nreal;
  out->npair = npair;
  out->nblk = nblk;
  /* the full V: block vectors, then the conjugates of the pairs' */
  lcplx Vf[S_MAX * S_MAX], vec[S_MAX];
  for (int k = 0; k < nblk; ++k) {
    if (eigenvector(s, D1, blk[k], vec) != 0)
      return -1;
    if (k < nreal)
      for (int i = 0; i < s; ++i)
        vec[i] = creall(vec[i]);
    for (int i = 0; i < s; ++i) {
      Vf[i * s + k] = vec[i];
      if (k >= nreal)
        Vf[i * s + nblk + (k - nreal)] = conjl(vec[i]);
    }
    out->lambda[k] = (double complex)blk[k];
  }
  /* V^{-1}: solve V X = I column by column */
  lcplx LU[S_MAX * S_MAX], col[S_MAX], Vi[S_MAX * S_MAX];
  int perm[S_MAX];
  memcpy(LU, Vf, sizeof(lcplx) * (size_t)(s * s));
  if (clu_factor(s, LU, perm) >= 0)
    return -1;
  for (int j = 0; j < s; ++j) {
    for (int i = 0; i < s; ++i)
      col[i] = i == j ? 1.0L : 0.0L;
    clu_solve(s, LU, perm, col);
    for (int i = 0; i < s; ++i)
      Vi[i * s + j] = col[i];
  }
  for (int k = 0; k < nblk; ++k)
    for (int j = 0; j < s; ++j) {
      out->V[j * nblk + k] = (double complex)Vf[j * s + k];
      out->Vinv[k * s + j] = (double complex)Vi[k * s + j];
    }
  /* residual of the decomposition, as the integrator applies it */
  /* residual of the rounded tables, in double as the integrator uses them */
  double res = 0.0;
  for (int i = 0; i < s; ++i)
    for (int j = 0; j < s; ++j) {
      double complex acc = 0.0;
      for (int k = 0; k < s; ++k) {
        const double complex lam =
            (double complex)(k < nblk ? blk[k] : conjl(blk[nreal + k - nblk]));
        acc +=
            (double complex)Vf[i * s + k] * lam * (double complex)Vi[k * s + j];
      }
      res = fmax(res, cabs(acc - (double)D1[i * s + j]));
    }
  out->resid = res / (double)dmax;
  if (!(out->resid <= 1e-6))
    return -1;
  if (nreal == 1) {
    out->gamma0 = (double)(1.0L / creall(blk[0]));
    embedded(r, D1, out->gamma0, out->e);
  }
  return 0;
}
