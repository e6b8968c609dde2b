/*
 * collocation/radau.h - Radau IIA collocation tables for any number of stages.
 *
 * For s stages the nodes c_1 < ... < c_s = 1 are the s-1 roots of the Jacobi
 * polynomial P_{s-1}^{(1,0)}(2c - 1) on (0, 1), plus c_s = 1.  They are
 * computed by Newton iteration on the three-term recurrence (in long double)
 * to machine precision; there is no hard-coded table.
 *
 * With the node set {c_0 = 0, c_1, ..., c_s} and Lagrange basis l_0..l_s:
 *   D[j][l] = l_l'(c_j)            j = 1..s (row j-1), l = 0..s
 *   A[j][l] = int_0^{c_j} m_l      Butcher matrix, m_l the Lagrange basis on
 *                                  {c_1..c_s}; b_l = A[s][l] = int_0^1 m_l
 * and inv(D[:, 1:]) = A (the h-scaled collocation form is exactly Radau IIA).
 * b integrates polynomials of degree <= 2s - 2 exactly on [0, 1].
 *
 * No I/O, no allocation after rc_radau_init, no dependency beyond libm.
 */
#ifndef RADCOL_COLLOCATION_RADAU_H
#define RADCOL_COLLOCATION_RADAU_H

#ifdef __cplusplus
extern "C" {
#endif

/* One more than the mesh cap RC_MAX_STAGES (radcol/mesh.h): the
 * Patterson-Hager-Rao estimate of an element with s stages uses the
 * (s + 1)-stage rule (src/refine.c checks the relation at compile time). */
#define RC_RADAU_MAX_STAGES 21

typedef struct rc_radau {
  int s;
  double c[RC_RADAU_MAX_STAGES]; /* c_1..c_s, c[s-1] = 1 */
  double b[RC_RADAU_MAX_STAGES]; /* quadrature weights */
  double A[RC_RADAU_MAX_STAGES * RC_RADAU_MAX_STAGES]; /* row-major s x s */
  double D[RC_RADAU_MAX_STAGES * (RC_RADAU_MAX_STAGES + 1)]; /* s x (s+1) */
  double tau[RC_RADAU_MAX_STAGES + 1];      /* {0, c_1, ..., c_s} */
  double bw_state[RC_RADAU_MAX_STAGES + 1]; /* barycentric weights on tau */
  double bw_stage[RC_RADAU_MAX_STAGES];     /* barycentric weights on c */
} rc_radau;

/* Fill r for s stages (1 <= s <= RC_RADAU_MAX_STAGES).  Returns 0, or -1 for
 * an s out of range. */
int rc_radau_init(int s, rc_radau *r);

/* Barycentric weights of m distinct nodes x (out: m values). */
void rc_bary_weights(int m, const double *x, double *bw);

/* Values of the m Lagrange basis polynomials on nodes x (barycentric weights
 * bw) at the point t: out[i] = l_i(t).  Exact (out = unit vector) at a node. */
void rc_lagrange_basis(int m, const double *x, const double *bw, double t,
                       double *out);

/* Legendre-Gauss nodes and weights on [0, 1] for m points (1 <= m <= 64), used
 * for accurate quadrature of error estimates.  Returns 0, or -1 if m is out of
 * range. */
int rc_gauss_legendre(int m, double *x, double *w);

#ifdef __cplusplus
}
#endif
#endif
