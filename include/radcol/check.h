/*
 * radcol/check.h - finite-difference check of a problem's hand-coded
 * derivatives: every Jacobian and Hessian entry of every block (point,
 * boundary, invariants) against central differences at several random points,
 * and completeness of the declared sparsity (a derivative that is nonzero by
 * finite differences but has no pattern entry is a failure).
 */
#ifndef RADCOL_CHECK_H
#define RADCOL_CHECK_H

#include "radcol/errors.h"
#include "radcol/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rc_check_options {
  int npoints;    /* random points per block; default 6 */
  unsigned seed;  /* default 12345 */
  double rel_tol; /* default 1e-6 */
  double abs_tol; /* default 1e-6 */
  double spread;  /* relative random perturbation around the guess; 0.05 */
} rc_check_options;

#define RC_CHECK_MAX_FAILURES 32

typedef enum rc_check_kind {
  RC_CHECK_JAC_VALUE = 0,   /* a declared Jacobian entry is wrong */
  RC_CHECK_JAC_MISSING = 1, /* nonzero Jacobian entry with no pattern entry */
  RC_CHECK_HES_VALUE = 2,
  RC_CHECK_HES_MISSING = 3,
  RC_CHECK_EVAL = 4 /* a callback returned an error at a test point */
} rc_check_kind;

typedef struct rc_check_failure {
  rc_check_kind kind;
  const char *block; /* "point", "boundary", "invariants" */
  int row, col;      /* output row and input column (Hessian: both inputs) */
  char row_name[64], col_name[64];
  double t;
  double expected; /* finite-difference value */
  double got;      /* hand-coded value */
  /* Hessian kinds: the output row whose second derivative
   * d2 B_out_row / d row d col is wrong (found by checking each row on its
   * own), or -1 when no single row is (out_name then empty). */
  int out_row;
  char out_name[64];
} rc_check_failure;

typedef struct rc_check_report {
  int nentries;  /* entries compared (declared and implicit zeros) */
  int nfailures; /* total failures (only the first RC_CHECK_MAX_FAILURES kept)
                  */
  rc_check_failure failures[RC_CHECK_MAX_FAILURES];
  double max_rel_err_jac, max_rel_err_hes;
} rc_check_report;

void rc_check_options_default(rc_check_options *o);
/* RC_OK when the check ran (report->nfailures says whether it passed). */
rc_err rc_check_problem(const rc_problem *pb, const rc_check_options *o,
                        rc_check_report *report, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
