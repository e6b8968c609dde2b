/*
 * collocation/radau_transform.h - the eigen-decomposition of the Radau IIA
 * differentiation matrix and the embedded error estimator, the two tables
 * an implicit Radau IIA integrator needs beyond rc_radau (Hairer and Wanner,
 * Solving ODEs II, IV.8).
 *
 * D1 = D[:, 1:] (s x s) is A^{-1}.  Its eigenvalues are the roots of the
 * denominator of the (s-1, s) Pade approximant of e^z,
 *     Q(z) = sum_{k=0..s} (-1)^k (2s-1-k)! s! / ((2s-1)! k! (s-k)!) z^k,
 * one real root for odd s, the rest complex conjugate pairs.  With
 * D1 = V diag(lambda) V^{-1} the simplified-Newton matrix of a step,
 * D1 (x) E - h I (x) J, becomes block diagonal in W = (V^{-1} (x) I) dQ:
 * one real system (lambda E - h J) per real root and one complex system per
 * conjugate pair (the conjugate's solution is the conjugate).
 *
 * Embedded estimate (odd s; Hairer-Wanner IV.8 (8.19)-(8.20), RADAU5's for
 * s = 3): gamma0 = 1 / (the real eigenvalue of D1); the embedded method of
 * order s uses the nodes {0, c_1..c_s} with weight gamma0 on node 0 and
 * weights bh solving sum_i bh_i c_i^(k-1) = 1/k - gamma0 [k = 1], k = 1..s.
 * Its difference to the Radau IIA solution is
 *     yh - y1 = gamma0 h f(t0, y0) + sum_j e_j Z_j,   e = D1^T (bh - b),
 * Z_j = Y_j - y0 the stage increments; the estimate filters it through
 * (E - h gamma0 J)^{-1}, the real block of the transformed matrix.
 */
#ifndef RADCOL_COLLOCATION_RADAU_TRANSFORM_H
#define RADCOL_COLLOCATION_RADAU_TRANSFORM_H

#include <complex.h>

#include "collocation/radau.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rc_radau_eig {
  int s;
  int nreal; /* 1 for odd s, 0 for even s */
  int npair; /* complex conjugate pairs */
  int nblk;  /* nreal + npair */
  /* block k: its eigenvalue (real blocks first, then one per pair with
   * imaginary part > 0), its eigenvector V[:, k] (V[j * nblk + k]) and its
   * row of V^{-1} (Vinv[k * s + j]) */
  double complex lambda[RC_RADAU_MAX_STAGES];
  double complex V[RC_RADAU_MAX_STAGES * RC_RADAU_MAX_STAGES];
  double complex Vinv[RC_RADAU_MAX_STAGES * RC_RADAU_MAX_STAGES];
  double gamma0;                 /* 1 / real eigenvalue (odd s), else 0 */
  double e[RC_RADAU_MAX_STAGES]; /* embedded coefficients (odd s) */
  double resid;                  /* max |V diag V^{-1} - D1| / max |D1| */
} rc_radau_eig;

/* The tables for the rule r (r->s stages).  Returns 0, or -1 when the
 * decomposition fails: a root not found, or a residual above 1e-6 (V grows
 * ill-conditioned with s: measured 4e-17 at s = 3, 3e-9 at 12, 1e-7 at 14
 * and 15, 1e-5 at 16, so s <= 15 pass; callers fall back to the
 * untransformed matrix). */
int rc_radau_eig_init(const rc_radau *r, rc_radau_eig *out);

#ifdef __cplusplus
}
#endif
#endif
