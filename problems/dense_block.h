/*
 * dense_block.h - hand-coded derivatives written densely (problem-side kit).
 *
 * The mechanics problems (double_pendulum.c, four_bar.c) write each equation
 * once: its value, and its Jacobian and Hessian entries added into small dense
 * stack arrays with rc_dense_jadd / rc_dense_hadd, which also mark which
 * entries an equation can touch.  At create time one evaluation with all
 * weights 1 records the marks as the declared sparsity pattern
 * (rc_dense_pattern_from_masks); callbacks then gather the dense values into
 * pattern order (rc_dense_gather).  The pattern is structural (entries an
 * equation writes), not numerical, so a derivative that happens to vanish at
 * the recording point is still declared.
 */
#ifndef RADCOL_PROBLEMS_DENSE_BLOCK_H
#define RADCOL_PROBLEMS_DENSE_BLOCK_H

#include "radcol/errors.h"

/* Dense accumulators for one block with nin inputs; either part may be NULL
 * (values only, or Jacobian only). */
typedef struct rc_dense_acc {
  int nin;
  double *jac; /* n_out x nin */
  unsigned char *jmask;
  double *hes; /* nin x nin, lower triangle used */
  unsigned char *hmask;
} rc_dense_acc;

/* jac(r, c) += v. */
static inline void rc_dense_jadd(rc_dense_acc *D, int r, int c, double v) {
  if (!D || !D->jac)
    return;
  D->jac[r * D->nin + c] += v;
  D->jmask[r * D->nin + c] = 1;
}

/* hes(i, j) += mu v, stored in the lower triangle. */
static inline void rc_dense_hadd(rc_dense_acc *D, double mu, int i, int j,
                                 double v) {
  if (!D || !D->hes)
    return;
  if (i < j) {
    const int k = i;
    i = j;
    j = k;
  }
  D->hes[i * D->nin + j] += mu * v;
  D->hmask[i * D->nin + j] = 1;
}

/* A declared pattern (owned arrays). */
typedef struct rc_dense_pattern {
  int njac, nhes;
  int *jr, *jc, *hr, *hc;
} rc_dense_pattern;

/* The pattern of the entries marked in jm (nout x nin) and hm (nin x nin,
 * lower triangle).  who names the problem in the out-of-memory message. */
rc_err rc_dense_pattern_from_masks(int nout, int nin, const unsigned char *jm,
                                   const unsigned char *hm, const char *who,
                                   rc_dense_pattern *pat, rc_error *err);
void rc_dense_pattern_free(rc_dense_pattern *pat);

/* vals[e] = dense(r[e], c[e]) for the nnz pattern entries. */
static inline void rc_dense_gather(const double *dense, int nin, int nnz,
                                   const int *r, const int *c, double *vals) {
  for (int e = 0; e < nnz; ++e)
    vals[e] = dense[r[e] * nin + c[e]];
}

#endif
