/*
 * test_radau.c - unit tests of collocation/radau.c against independent
 * references:
 *  - closed forms for s = 2 (c = 1/3, 1) and s = 3 (c = (4 -+ sqrt 6)/10, 1);
 *  - the nodes are roots of P_{s-1}^{(1,0)}(2c - 1) evaluated by the explicit
 *    binomial sum P_n^{(1,0)}(z) = sum_k C(n+1, n-k) C(n, k) ((z-1)/2)^k
 *    ((z+1)/2)^(n-k) in long double (not the recurrence radau.c uses): the
 *    sum changes sign across a tiny bracket around each node;
 *  - D differentiates monomials t^k (k <= s) exactly, A integrates t^k
 *    (k <= s-1) from 0 to c_j exactly, b integrates t^k exactly for
 *    k <= 2s-2 but not for k = 2s-1 (order 2s-1), D[:, 1:] A = I, sum b = 1;
 *  - Gauss-Legendre with m points integrates t^k exactly for k <= 2m-1;
 *  - Lagrange basis: unit vectors at nodes, reproduces polynomials elsewhere.
 * Prints the worst errors measured so the figures can be quoted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "collocation/radau.h"

#include "test_util.h"

static long double binom(int n, int k) {
  if (k < 0 || k > n)
    return 0.0L;
  long double r = 1.0L;
  for (int i = 1; i <= k; ++i)
    r = r * (n - k + i) / i;
  return r;
}

/* Explicit sum for P_n^{(1,0)}(z). */
static long double jacobi10_sum(int n, long double z) {
  long double a = (z - 1.0L) / 2.0L, b = (z + 1.0L) / 2.0L, sum = 0.0L;
  for (int k = 0; k <= n; ++k)
    sum += binom(n + 1, n - k) * binom(n, k) * powl(a, k) * powl(b, n - k);
  return sum;
}

static void test_closed_forms(void) {
  rc_radau r;
  EXPECT(rc_radau_init(1, &r) == 0, "s = 1 init");
  EXPECT(r.c[0] == 1.0 && r.b[0] == 1.0 && r.A[0] == 1.0,
         "s = 1: c = b = A = 1 (implicit Euler)");
  EXPECT(rc_radau_init(2, &r) == 0, "s = 2 init");
  EXPECT(fabs(r.c[0] - 1.0 / 3.0) < 1e-16 && r.c[1] == 1.0,
         "s = 2 nodes %.17g %.17g", r.c[0], r.c[1]);
  EXPECT(fabs(r.b[0] - 0.75) < 1e-15 && fabs(r.b[1] - 0.25) < 1e-15,
         "s = 2 weights %.17g %.17g (expected 3/4, 1/4)", r.b[0], r.b[1]);
  EXPECT(rc_radau_init(3, &r) == 0, "s = 3 init");
  double c1 = (4.0 - sqrt(6.0)) / 10.0, c2 = (4.0 + sqrt(6.0)) / 10.0;
  EXPECT(fabs(r.c[0] - c1) < 1e-15 && fabs(r.c[1] - c2) < 1e-15 &&
             r.c[2] == 1.0,
         "s = 3 nodes %.17g %.17g %.17g", r.c[0], r.c[1], r.c[2]);
  double b1 = (16.0 - sqrt(6.0)) / 36.0, b2 = (16.0 + sqrt(6.0)) / 36.0;
  EXPECT(fabs(r.b[0] - b1) < 1e-15 && fabs(r.b[1] - b2) < 1e-15 &&
             fabs(r.b[2] - 1.0 / 9.0) < 1e-15,
         "s = 3 weights %.17g %.17g %.17g", r.b[0], r.b[1], r.b[2]);
  EXPECT(rc_radau_init(0, &r) == -1, "s = 0 must be rejected");
  EXPECT(rc_radau_init(RC_RADAU_MAX_STAGES + 1, &r) == -1,
         "s = %d must be rejected", RC_RADAU_MAX_STAGES + 1);
  EXPECT(rc_radau_init(3, NULL) == -1, "NULL table must be rejected");
}

/* Worst errors over s, for the report. */
static double worst_root = 0, worst_D = 0, worst_A = 0, worst_b = 0,
              worst_inv = 0;

static void test_stage_count(int s) {
  rc_radau r;
  EXPECT(rc_radau_init(s, &r) == 0, "init s = %d", s);
  /* Tolerances: 1e-12 up to 12 stages, looser beyond (D grows like s^2 and
   * the monomial tests lose digits to cancellation). */
  double tol = s <= 12 ? 1e-12 : 1e-11;
  int n = s - 1;

  /* Nodes: ascending in (0, 1), c_s = 1, tau = {0, c}. */
  EXPECT(r.s == s && r.c[s - 1] == 1.0 && r.tau[0] == 0.0, "s = %d layout", s);
  for (int j = 0; j < s; ++j) {
    EXPECT(r.tau[j + 1] == r.c[j], "s = %d tau[%d]", s, j + 1);
    EXPECT(r.c[j] > (j ? r.c[j - 1] : 0.0) && r.c[j] <= 1.0,
           "s = %d node %d = %.17g not ascending in (0, 1]", s, j, r.c[j]);
  }
  /* Roots of the explicit sum: sign change across [c(1-d), c(1+d)] and
   * |P(c)| small against |P| at the bracket ends. */
  for (int j = 0; j < n; ++j) {
    long double c = r.c[j];
    long double d = 8e-16L * (s <= 12 ? 1 : 10);
    long double lo = jacobi10_sum(n, 2.0L * c * (1 - d) - 1.0L);
    long double hi = jacobi10_sum(n, 2.0L * c * (1 + d) - 1.0L);
    EXPECT(lo * hi < 0,
           "s = %d node %d = %.17Lg: P(%.3Lg) = %Lg and %Lg have"
           " the same sign",
           s, j, c, d, lo, hi);
    /* Root location error estimate |P / P'| with P' by central difference. */
    long double h = 1e-6L;
    long double dp = (jacobi10_sum(n, 2.0L * (c + h) - 1.0L) -
                      jacobi10_sum(n, 2.0L * (c - h) - 1.0L)) /
                     (2.0L * h);
    double est = (double)fabsl(jacobi10_sum(n, 2.0L * c - 1.0L) / dp);
    if (est > worst_root)
      worst_root = est;
    EXPECT(est < 2e-16 * (s <= 12 ? 1 : 10), "s = %d node %d: |P/P'| = %g", s,
           j, est);
  }

  /* D applied to t^k on tau gives k c_j^(k-1). */
  for (int k = 0; k <= s; ++k) {
    for (int j = 0; j < s; ++j) {
      double acc = 0.0;
      for (int l = 0; l <= s; ++l)
        acc += r.D[j * (s + 1) + l] * pow(r.tau[l], k);
      double exact = k ? k * pow(r.c[j], k - 1) : 0.0;
      double e = fabs(acc - exact) / fmax(1.0, fabs(exact));
      if (e > worst_D)
        worst_D = e;
      EXPECT(e < tol, "s = %d: D t^%d at c_%d: %.17g, expected %.17g", s, k,
             j + 1, acc, exact);
    }
  }
  /* A integrates t^k (k <= s-1) from 0 to c_j: stage order s. */
  for (int k = 0; k < s; ++k) {
    for (int j = 0; j < s; ++j) {
      double acc = 0.0;
      for (int l = 0; l < s; ++l)
        acc += r.A[j * s + l] * pow(r.c[l], k);
      double exact = pow(r.c[j], k + 1) / (k + 1);
      double e = fabs(acc - exact) / fmax(1e-3, fabs(exact));
      if (e > worst_A)
        worst_A = e;
      EXPECT(e < tol, "s = %d: A t^%d at c_%d: %.17g, expected %.17g", s, k,
             j + 1, acc, exact);
    }
  }
  /* b: exact up to degree 2s-2, not for 2s-1. */
  double sumb = 0.0;
  for (int l = 0; l < s; ++l) {
    sumb += r.b[l];
    EXPECT(r.b[l] > 0, "s = %d: weight %d = %g not positive", s, l, r.b[l]);
    EXPECT(r.b[l] == r.A[(s - 1) * s + l], "s = %d: b is not A's last row", s);
  }
  EXPECT(fabs(sumb - 1.0) < 1e-14, "s = %d: sum b = %.17g", s, sumb);
  for (int k = 0; k <= 2 * s - 1; ++k) {
    long double acc = 0.0L;
    for (int l = 0; l < s; ++l)
      acc += (long double)r.b[l] * powl(r.c[l], k);
    double e = (double)fabsl(acc - 1.0L / (k + 1)) * (k + 1);
    if (k <= 2 * s - 2) {
      if (e > worst_b)
        worst_b = e;
      EXPECT(e < tol, "s = %d: b misses t^%d by %g (relative)", s, k, e);
    } else {
      /* The Radau error for t^(2s-1) is far above rounding up to s = 12;
       * beyond that it shrinks like 1/16^s, so demand it only where
       * measurable. */
      if (s <= 12)
        EXPECT(e > 1e3 * 1e-16,
               "s = %d: b integrates t^%d (degree 2s-1) to"
               " %g: order too high?",
               s, k, e);
    }
  }
  /* D[:, 1:] A = I. */
  for (int i = 0; i < s; ++i) {
    for (int j = 0; j < s; ++j) {
      double acc = 0.0;
      for (int l = 0; l < s; ++l)
        acc += r.D[i * (s + 1) + l + 1] * r.A[l * s + j];
      double e = fabs(acc - (i == j ? 1.0 : 0.0));
      if (e > worst_inv)
        worst_inv = e;
      EXPECT(e < tol, "s = %d: (D[:,1:] A)[%d][%d] = %.17g", s, i, j, acc);
    }
  }
  /* Barycentric weights agree with rc_bary_weights; Lagrange basis is a unit
   * vector at nodes and reproduces degree-s polynomials between them. */
  double bw[RC_RADAU_MAX_STAGES + 1], l[RC_RADAU_MAX_STAGES + 1];
  rc_bary_weights(s + 1, r.tau, bw);
  for (int i = 0; i <= s; ++i)
    EXPECT(bw[i] == r.bw_state[i], "s = %d: bw_state[%d]", s, i);
  rc_bary_weights(s, r.c, bw);
  for (int i = 0; i < s; ++i)
    EXPECT(bw[i] == r.bw_stage[i], "s = %d: bw_stage[%d]", s, i);
  for (int i = 0; i <= s; ++i) {
    rc_lagrange_basis(s + 1, r.tau, r.bw_state, r.tau[i], l);
    for (int m = 0; m <= s; ++m)
      EXPECT(l[m] == (m == i ? 1.0 : 0.0), "s = %d: l_%d(tau_%d) = %.17g", s, m,
             i, l[m]);
  }
  for (int trial = 0; trial < 20; ++trial) {
    double t = (trial + 0.37) / 20.0;
    rc_lagrange_basis(s + 1, r.tau, r.bw_state, t, l);
    double acc = 0.0, exact = 0.0;
    for (int m = 0; m <= s; ++m) {
      double v = 0.0; /* q(t) = sum_k (t - 0.3)^k / (k + 1), degree s */
      for (int k = 0; k <= s; ++k)
        v += pow(r.tau[m] - 0.3, k) / (k + 1);
      acc += l[m] * v;
    }
    for (int k = 0; k <= s; ++k)
      exact += pow(t - 0.3, k) / (k + 1);
    EXPECT(fabs(acc - exact) < tol * 10,
           "s = %d: interpolant at %g: %.17g vs"
           " %.17g",
           s, t, acc, exact);
  }
}

static void test_gauss_legendre(void) {
  double x[64], w[64], worst = 0.0;
  EXPECT(rc_gauss_legendre(0, x, w) == -1, "m = 0 must be rejected");
  EXPECT(rc_gauss_legendre(65, x, w) == -1, "m = 65 must be rejected");
  for (int m = 1; m <= 64; ++m) {
    EXPECT(rc_gauss_legendre(m, x, w) == 0, "m = %d", m);
    for (int i = 0; i < m; ++i)
      EXPECT(x[i] > (i ? x[i - 1] : 0.0) && x[i] < 1.0 && w[i] > 0,
             "m = %d: node %d = %.17g weight %g", m, i, x[i], w[i]);
    for (int i = 0; i < m; ++i) /* symmetric about 1/2 */
      EXPECT(fabs(x[i] + x[m - 1 - i] - 1.0) < 1e-15 &&
                 fabs(w[i] - w[m - 1 - i]) < 1e-15,
             "m = %d: asymmetric pair %d", m, i);
    for (int k = 0; k <= 2 * m; ++k) {
      long double acc = 0.0L;
      for (int i = 0; i < m; ++i)
        acc += (long double)w[i] * powl(x[i], k);
      double e = (double)fabsl(acc - 1.0L / (k + 1)) * (k + 1);
      if (k <= 2 * m - 1) {
        if (e > worst)
          worst = e;
        EXPECT(e < 1e-13, "m = %d: t^%d integrated with relative error %g", m,
               k, e);
      } else if (m <= 8) {
        EXPECT(e > 1e-12, "m = %d: t^%d (degree 2m) integrated exactly?", m, k);
      }
    }
  }
  printf("gauss-legendre m = 1..64: worst relative error on t^k, k <= 2m-1: "
         "%.2e\n",
         worst);
}

int main(void) {
  test_closed_forms();
  for (int s = 1; s <= RC_RADAU_MAX_STAGES; ++s)
    test_stage_count(s);
  test_gauss_legendre();
  printf("radau s = 1..20 worst: node |P/P'| %.2e, D t^k %.2e, A t^k "
         "%.2e, b t^k %.2e, D[:,1:]A - I %.2e\n",
         worst_root, worst_D, worst_A, worst_b, worst_inv);
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("all radau checks passed\n");
  return 0;
}
