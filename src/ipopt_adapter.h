/*
 * ipopt_adapter.h - hands an rc_nlp to Ipopt (internal).  The only file that
 * includes IpStdCInterface.h is ipopt_adapter.c; the "values == NULL means
 * structure" convention of Ipopt's callbacks stays there too.
 */
#ifndef RADCOL_IPOPT_ADAPTER_H
#define RADCOL_IPOPT_ADAPTER_H

#include "radcol/options.h"
#include "transcription.h"

typedef struct rc_ipopt_outcome {
  int app_status;   /* Ipopt ApplicationReturnStatus */
  rc_status status; /* mapped */
  int iterations;
  double objective;
  double solve_s;   /* wall time inside IpoptSolve */
  double eval_s;    /* wall time inside radcol's callbacks */
  int eval_failures;/* callbacks that reported a nonzero status */
  int fatal_status; /* first fatal (< 0) callback status, or 0 */
  char message[RC_MESSAGE_MAX];
} rc_ipopt_outcome;

/* Solve from the starting point x (nvar).  lambda (ncon), zl, zu (nvar) are
 * outputs, and inputs when opt->warm_start.  Returns RC_OK when Ipopt ran. */
rc_err rc_ipopt_solve(rc_nlp *nlp, const rc_options *opt, double *x,
                      double *lambda, double *zl, double *zu,
                      rc_ipopt_outcome *out, rc_error *err);

#endif
