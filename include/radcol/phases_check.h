/*
 * radcol/phases_check.h - finite-difference check of a multiphase problem's
 * derivatives beyond those of its phases (whose blocks rc_check_problem,
 * radcol/check.h, checks one by one): every user link block (Jacobian,
 * Hessian, pattern completeness, at random event vectors), and the whole
 * assembled NLP of radcol/phases.h on small meshes (every Jacobian entry of
 * every row, linkage rows included, against central differences of the
 * constraints; every Hessian entry of the Lagrangian against differences of
 * its gradient; the objective's gradient), so the columns of free phase
 * durations, the linkage rows and the data terms are covered entry by entry.
 */
#ifndef RADCOL_PHASES_CHECK_H
#define RADCOL_PHASES_CHECK_H

#include "radcol/check.h"
#include "radcol/errors.h"
#include "radcol/mesh.h"
#include "radcol/phases.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rc_phases_check_failure {
  char what[32]; /* "link Jacobian", "link Hessian", "NLP Jacobian",
                    "NLP Hessian", "NLP gradient" */
  int row, col;  /* link: output row and input column (Hessian: inputs);
                    NLP: constraint row (or variable) and variable */
  char row_name[128], col_name[128];
  double expected; /* finite differences */
  double got;      /* assembled */
} rc_phases_check_failure;

typedef struct rc_phases_check_report {
  int nentries;  /* entries compared */
  int nfailures; /* all failures (the first RC_CHECK_MAX_FAILURES kept) */
  rc_phases_check_failure failures[RC_CHECK_MAX_FAILURES];
  double max_rel_err; /* largest relative difference seen */
  /* what the assembled NLP held */
  int nvars, ncons, nlink_rows, nlink_blocks, nfree_durations, ndata;
} rc_phases_check_report;

/* Check ph (validated first).  meshes: one per phase, or NULL for 2
 * elements of 3 stages each (the check is dense: nvars evaluations of the
 * constraints and of the Lagrangian's gradient per point).  o: NULL for the
 * defaults of rc_check_options_default.  RC_OK when the check ran
 * (rep->nfailures says whether it passed). */
rc_err rc_phases_check(const rc_phases *ph, const rc_mesh *meshes,
                       const rc_check_options *o, rc_phases_check_report *rep,
                       rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
