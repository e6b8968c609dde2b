/*
 * ipopt_adapter.h - hands an NLP to Ipopt (internal).  The only files that
 * include IpStdCInterface.h are ipopt_adapter.c and ipopt_load.[ch] (which
 * loads Ipopt on the first check or solve: RC_ERR_SOLVER when it cannot);
 * the "values == NULL means structure" convention of Ipopt's callbacks stays
 * in ipopt_adapter.c.
 *
 * rc_ipopt_nlp is the solver-neutral view of an NLP: n variables with bounds,
 * m constraints g_lo <= g(x) <= g_hi, the Jacobian and the lower-triangular
 * Hessian of the Lagrangian sigma f + lambda^T g on fixed triplet patterns
 * (borrowed), and callbacks returning 0 on success, > 0 recoverable, < 0
 * fatal.  The transcription (solve.c) and consistent initialisation
 * (init.c) both provide one.  new_point, if set, is called whenever Ipopt
 * moves to a new x, before any evaluation there (for caches).
 */
#ifndef RADCOL_IPOPT_ADAPTER_H
#define RADCOL_IPOPT_ADAPTER_H

#include "radcol/errors.h"
#include "radcol/options.h"

typedef struct rc_ipopt_outcome {
  int app_status;   /* Ipopt ApplicationReturnStatus */
  rc_status status; /* mapped */
  int iterations;
  double dual_infeasibility; /* Ipopt's scaled inf_du at the last iteration */
  double objective;
  double solve_s;    /* wall time inside IpoptSolve */
  double eval_s;     /* wall time inside radcol's callbacks */
  int eval_failures; /* callbacks that reported a nonzero status */
  int fatal_status;  /* first fatal (< 0) callback status, or 0 */
  char message[RC_MESSAGE_MAX];
} rc_ipopt_outcome;

typedef struct rc_ipopt_nlp {
  int n, m, nnz_jac, nnz_hes;
  const double *x_lo, *x_hi;    /* n (+-1e20 and beyond: no bound) */
  const double *g_lo, *g_hi;    /* m */
  const int *jac_row, *jac_col; /* nnz_jac */
  const int *hes_row, *hes_col; /* nnz_hes, row >= col */
  void *ctx;
  int (*objective)(void *ctx, const double *x, double *f);
  int (*gradient)(void *ctx, const double *x, double *grad);
  int (*constraints)(void *ctx, const double *x, double *g);
  int (*jacobian)(void *ctx, const double *x, double *vals);
  int (*hessian)(void *ctx, const double *x, double obj_factor,
                 const double *lambda, double *vals);
  void (*new_point)(void *ctx); /* optional */
} rc_ipopt_nlp;

/* Type of the linked Ipopt's option key (ipopt_options.inc): 0 real,
 * 1 integer, 2 string; -1 when Ipopt has no such option. */
int rc_ipopt_option_type(const char *key);

/* The raw --ipopt KEY=VALUE options of opt checked as rc_ipopt_solve sets
 * them (refused, unknown, mistyped, out of range: RC_ERR_INPUT), without an
 * NLP, so a solve that never reaches Ipopt (Newton) refuses them too. */
rc_err rc_ipopt_check_options(const rc_options *opt, rc_error *err);

/* Solve from the starting point x (n).  lambda (m), zl, zu (n) are outputs
 * (each may be NULL), and inputs when opt->warm_start.  Returns RC_OK when
 * Ipopt ran; out says how it ended. */
rc_err rc_ipopt_solve(const rc_ipopt_nlp *nlp, const rc_options *opt, double *x,
                      double *lambda, double *zl, double *zu,
                      rc_ipopt_outcome *out, rc_error *err);

#endif
