/*
 * collocation/radau.c - Radau IIA nodes, weights, differentiation and
 * integration matrices for 1..RC_RADAU_MAX_STAGES stages, and Gauss-Legendre
 * quadrature on [0, 1] for 1..64 points.
 *
 * Invariants: nothing is tabulated; every number is computed on demand in
 * long double (64-bit mantissa on x86-64) and rounded once to double.  The
 * tables D, A, b and the barycentric weights are built from the *rounded*
 * double nodes c_j, so they are exact (to rounding) for the nodes the
 * transcription actually uses.  No static state: every function is
 * re-entrant and thread safe.
 *
 * Maths.
 *  - Nodes.  With z = 2c - 1 the s - 1 interior nodes are the roots of the
 *    Jacobi polynomial P_n^{(1,0)}(z), n = s - 1, evaluated by the three-term
 *    recurrence (alpha = 1, beta = 0)
 *        P_0 = 1,  P_1 = (3z + 1)/2,
 *        (m+1)(2m-1) P_m = ((4m^2-1) z + 1) P_{m-1} - (m-1)(2m+1) P_{m-2},
 *    and its derivative (the recurrence differentiated).  Newton starts from
 *    the asymptotic guesses z_k = cos((k + 1/4) pi / (n + 1)), k = 1..n, with
 *    deflation by the roots already found (step p / (p' - p sum 1/(z - z_i))),
 *    then each root is polished by two undeflated Newton steps.  c_s = 1.
 *  - Barycentric weights on nodes x_0..x_{m-1}: w_i = 1 / prod_{j!=i}(x_i-x_j).
 *  - D (s x (s+1)) on {0, c_1..c_s}: the barycentric differentiation formula
 *        D_jl = (w_l / w_j) / (x_j - x_l)   (l != j),   D_jj = -sum_{l!=j} D_jl
 *    (the negative row sum makes D annihilate constants to rounding).
 *  - A (s x s): A_jl = int_0^{c_j} m_l(t) dt, m_l the degree s-1 Lagrange basis
 *    on {c_1..c_s}, by (s+1)-point Gauss-Legendre on [0, c_j] (exact: degree
 *    2s+1 >= s-1).  b_l = A_sl.  inv(D[:, 1:]) = A holds because both
 *    describe the same collocation polynomial.
 *  - Gauss-Legendre: roots of P_m by Newton on the Legendre recurrence from
 *    z_i = cos(pi (i + 3/4) / (m + 1/2)), weights 2 / ((1 - z^2) P_m'(z)^2),
 *    mapped to [0, 1] (nodes (1 + z)/2 ascending, weights halved).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "collocation/radau.h"

#define RC_GL_MAX 64
#define RC_PI_L 3.141592653589793238462643383279502884L

/* P_n^{(1,0)}(z) and its derivative by the three-term recurrence. */
static void jacobi10(int n, long double z, long double *p, long double *dp) {
  long double p0 = 1.0L, d0 = 0.0L;
  if (n == 0) {
    *p = p0;
    *dp = d0;
    return;
  }
  long double p1 = (3.0L * z + 1.0L) / 2.0L, d1 = 1.5L;
  for (int m = 2; m <= n; ++m) {
    long double a = (long double)(m + 1) * (2 * m - 1);
    long double bz = (long double)(4 * m * m - 1);
    long double c = (long double)(m - 1) * (2 * m + 1);
    long double p2 = ((bz * z + 1.0L) * p1 - c * p0) / a;
    long double d2 = (bz * p1 + (bz * z + 1.0L) * d1 - c * d0) / a;
    p0 = p1;
    d0 = d1;
    p1 = p2;
    d1 = d2;
  }
  *p = p1;
  *dp = d1;
}

/* Legendre P_m(z) and its derivative. */
static void legendre(int m, long double z, long double *p, long double *dp) {
  long double p0 = 1.0L, p1 = z;
  if (m == 0) {
    *p = 1.0L;
    *dp = 0.0L;
    return;
  }
  for (int k = 2; k <= m; ++k) {
    long double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
    p0 = p1;
    p1 = p2;
  }
  *p = p1;
  /* P_m' = m (z P_m - P_{m-1}) / (z^2 - 1); roots are interior, so no 0/0. */
  *dp = m * (z * p1 - p0) / (z * z - 1.0L);
}

/* Gauss-Legendre on [0, 1] in long double, ascending nodes. */
static void gauss_legendre_l(int m, long double *x, long double *w) {
  for (int i = 0; i < m; ++i) {
    long double z = cosl(RC_PI_L * (i + 0.75L) / (m + 0.5L));
    long double p, dp;
    for (int it = 0; it < 100; ++it) {
      legendre(m, z, &p, &dp);
      long double dz = p / dp;
      z -= dz;
      if (fabsl(dz) <= 4 * LDBL_EPSILON)
        break;
    }
    legendre(m, z, &p, &dp);
    z -= p / dp; /* polish */
    legendre(m, z, &p, &dp);
    /* z descends with i; store ascending in x. */
    x[m - 1 - i] = (1.0L + z) / 2.0L;
    w[m - 1 - i] = 1.0L / ((1.0L - z * z) * dp * dp);
  }
}

static void bary_weights_l(int m, const long double *x, long double *bw) {
  for (int i = 0; i < m; ++i) {
    long double prod = 1.0L;
    for (int j = 0; j < m; ++j)
      if (j != i)
        prod *= x[i] - x[j];
    bw[i] = 1.0L / prod;
  }
}

/* Second (true) barycentric form; unit vector exactly at a node. */
static void lagrange_basis_l(int m, const long double *x, const long double *bw,
                             long double t, long double *out) {
  for (int i = 0; i < m; ++i) {
    if (t == x[i]) {
      for (int j = 0; j < m; ++j)
        out[j] = (j == i) ? 1.0L : 0.0L;
      return;
    }
  }
  long double sum = 0.0L;
  for (int i = 0; i < m; ++i) {
    out[i] = bw[i] / (t - x[i]);
    sum += out[i];
  }
  for (int i = 0; i < m; ++i)
    out[i] /= sum;
}

/* The n roots of P_n^{(1,0)}(2c - 1), as c in (0, 1), ascending. */
static void radau_interior_nodes(int n, long double *c) {
  long double z[RC_RADAU_MAX_STAGES];
  for (int k = 0; k < n; ++k) {
    long double zk = cosl((k + 1 + 0.25L) * RC_PI_L / (n + 1));
    long double p, dp;
    for (int it = 0; it < 100; ++it) {
      jacobi10(n, zk, &p, &dp);
      long double defl = 0.0L;
      for (int i = 0; i < k; ++i)
        defl += 1.0L / (zk - z[i]);
      long double dz = p / (dp - p * defl);
      zk -= dz;
      if (fabsl(dz) <= 4 * LDBL_EPSILON)
        break;
    }
    for (int it = 0; it < 2; ++it) {
      jacobi10(n, zk, &p, &dp);
      zk -= p / dp;
    }
    z[k] = zk;
  }
  /* z descends with k (cosine of increasing angles); map and reverse. */
  for (int k = 0; k < n; ++k)
    c[n - 1 - k] = (z[k] + 1.0L) / 2.0L;
}

int rc_radau_init(int s, rc_radau *r) {
  if (!r || s < 1 || s > RC_RADAU_MAX_STAGES)
    return -1;
  memset(r, 0, sizeof *r);
  r->s = s;

  long double cl[RC_RADAU_MAX_STAGES];
  radau_interior_nodes(s - 1, cl);
  for (int j = 0; j < s - 1; ++j)
    r->c[j] = (double)cl[j];
  r->c[s - 1] = 1.0;

  /* From here on, work with the rounded nodes. */
  long double tau[RC_RADAU_MAX_STAGES + 1], bws[RC_RADAU_MAX_STAGES + 1];
  long double c[RC_RADAU_MAX_STAGES], bwc[RC_RADAU_MAX_STAGES];
  tau[0] = 0.0L;
  for (int j = 0; j < s; ++j) {
    c[j] = r->c[j];
    tau[j + 1] = c[j];
  }
  bary_weights_l(s + 1, tau, bws);
  bary_weights_l(s, c, bwc);
  for (int l = 0; l <= s; ++l) {
    r->tau[l] = (double)tau[l];
    r->bw_state[l] = (double)bws[l];
  }
  for (int l = 0; l < s; ++l)
    r->bw_stage[l] = (double)bwc[l];

  /* D: rows j = 1..s of the differentiation matrix on tau. */
  for (int j = 1; j <= s; ++j) {
    long double diag = 0.0L;
    for (int l = 0; l <= s; ++l) {
      if (l == j)
        continue;
      long double d = (bws[l] / bws[j]) / (tau[j] - tau[l]);
      r->D[(j - 1) * (s + 1) + l] = (double)d;
      diag -= d;
    }
    r->D[(j - 1) * (s + 1) + j] = (double)diag;
  }

  /* A: integrals of the stage basis from 0 to c_j. */
  int q = s + 1;
  long double gx[RC_RADAU_MAX_STAGES + 1], gw[RC_RADAU_MAX_STAGES + 1];
  long double m[RC_RADAU_MAX_STAGES];
  gauss_legendre_l(q, gx, gw);
  for (int j = 0; j < s; ++j) {
    long double acc[RC_RADAU_MAX_STAGES] = {0};
    for (int i = 0; i < q; ++i) {
      lagrange_basis_l(s, c, bwc, c[j] * gx[i], m);
      for (int l = 0; l < s; ++l)
        acc[l] += gw[i] * m[l];
    }
    for (int l = 0; l < s; ++l)
      r->A[j * s + l] = (double)(c[j] * acc[l]);
  }
  for (int l = 0; l < s; ++l)
    r->b[l] = r->A[(s - 1) * s + l];
  return 0;
}

void rc_bary_weights(int m, const double *x, double *bw) {
  for (int i = 0; i < m; ++i) {
    long double prod = 1.0L;
    for (int j = 0; j < m; ++j)
      if (j != i)
        prod *= (long double)x[i] - (long double)x[j];
    bw[i] = (double)(1.0L / prod);
  }
}

void rc_lagrange_basis(int m, const double *x, const double *bw, double t,
                       double *out) {
  for (int i = 0; i < m; ++i) {
    if (t == x[i]) {
      for (int j = 0; j < m; ++j)
        out[j] = (j == i) ? 1.0 : 0.0;
      return;
    }
  }
  double sum = 0.0;
  for (int i = 0; i < m; ++i) {
    out[i] = bw[i] / (t - x[i]);
    if (!isfinite(out[i])) { /* t within underflow distance of x[i] */
      for (int j = 0; j < m; ++j)
        out[j] = (j == i) ? 1.0 : 0.0;
      return;
    }
    sum += out[i];
  }
  for (int i = 0; i < m; ++i)
    out[i] /= sum;
}

int rc_gauss_legendre(int m, double *x, double *w) {
  if (m < 1 || m > RC_GL_MAX || !x || !w)
    return -1;
  long double xl[RC_GL_MAX], wl[RC_GL_MAX];
  gauss_legendre_l(m, xl, wl);
  for (int i = 0; i < m; ++i) {
    x[i] = (double)xl[i];
    w[i] = (double)wl[i];
  }
  return 0;
}
