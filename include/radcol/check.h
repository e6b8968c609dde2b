/*
 * radcol/check.h - finite-difference check of a problem's hand-coded
 * derivatives: every Jacobian and Hessian entry of every block (point,
 * boundary, invariants) against Richardson-extrapolated central differences
 * at several random points, and completeness of the declared sparsity (a
 * derivative that is nonzero by finite differences but has no pattern entry
 * is a failure).  Each difference carries an estimate of its own error
 * (truncation and rounding), which the comparison credits, so a correct
 * model with steep derivatives (e.g. exp(-500 x)) passes while a wrong entry
 * still fails; src/measure/check.c states the rule.
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
  /* Largest difference step, relative to 1 + |v_j|: h_0 = step (1 + |v_j|);
   * in (0, 0.01], default cbrt(DBL_EPSILON) = 6.06e-6. */
  double step;
  /* Steps h_0, h_0/2, ..., h_0/2^(levels-1), extrapolated (Richardson) and
   * the best per entry kept; 1..8, default 4.  levels = 1 is the plain
   * central difference at h_0 with no error estimate. */
  int levels;
} rc_check_options;

#define RC_CHECK_MAX_FAILURES 32
/* At most this fraction of an entry's scale max(1, |fd|, |got|) is credited
 * to the finite difference's estimated truncation error. */
#define RC_CHECK_MAX_CREDIT 1e-3

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
  /* Estimated error of `expected` (truncation + rounding of the
   * differences).  unresolved != 0: the truncation estimate exceeded what
   * the comparison credits (RC_CHECK_MAX_CREDIT of the entry's scale), so
   * the difference, not the derivative, may be what is wrong (a smaller
   * step may resolve it). */
  double bound;
  int unresolved;
} rc_check_failure;

typedef struct rc_check_report {
  int nentries;  /* entries compared (declared and implicit zeros) */
  int nfailures; /* total failures (only the first RC_CHECK_MAX_FAILURES kept)
                  */
  rc_check_failure failures[RC_CHECK_MAX_FAILURES];
  double max_rel_err_jac, max_rel_err_hes;
  /* Largest error estimate of a difference compared with a declared entry,
   * relative to the entry's scale max(1, |fd|, |got|). */
  double max_rel_bound;
} rc_check_report;

void rc_check_options_default(rc_check_options *o);
/* RC_OK when the check ran (report->nfailures says whether it passed). */
rc_err rc_check_problem(const rc_problem *pb, const rc_check_options *o,
                        rc_check_report *report, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
