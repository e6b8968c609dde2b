/*
 * ipopt_small.h - a small, generic NLP handed to Ipopt (internal).
 *
 * For problems that are not a transcription (consistent initialisation):
 * n variables with bounds, m constraints g_lo <= c(x) <= g_hi, a Jacobian and
 * a lower-triangular Hessian of the Lagrangian on fixed triplet patterns.
 * Like ipopt_adapter.c, ipopt_small.c is a file that includes
 * IpStdCInterface.h (a documented exception to "only the adapter"): the
 * Ipopt conventions (Bool returns, values == NULL for structure) stay there.
 * Callbacks return 0 on success, nonzero on failure (Ipopt then cuts back).
 */
#ifndef RADCOL_IPOPT_SMALL_H
#define RADCOL_IPOPT_SMALL_H

#include "ipopt_adapter.h"

typedef struct rc_small_nlp {
  int n, m, nnz_jac, nnz_hes;
  const double *x_lo, *x_hi;    /* n */
  const double *g_lo, *g_hi;    /* m */
  const int *jac_row, *jac_col; /* nnz_jac */
  const int *hes_row, *hes_col; /* nnz_hes, row >= col */
  void *ctx;
  int (*objective)(void *ctx, const double *x, double *f);
  int (*gradient)(void *ctx, const double *x, double *grad);
  int (*constraints)(void *ctx, const double *x, double *c);
  int (*jacobian)(void *ctx, const double *x, double *vals);
  int (*hessian)(void *ctx, const double *x, double obj_factor,
                 const double *lambda, double *vals);
} rc_small_nlp;

/* Solve from x (n, in/out); lambda (m) receives the multipliers (may be
 * NULL).  tol, max_iter: Ipopt's.  RC_OK when Ipopt ran (out says how it
 * ended). */
rc_err rc_ipopt_small_solve(const rc_small_nlp *nlp, double tol, int max_iter,
                            double *x, double *lambda, rc_ipopt_outcome *out,
                            rc_error *err);

#endif
