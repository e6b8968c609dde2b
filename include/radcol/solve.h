/*
 * radcol/solve.h - transcribe, solve and diagnose.
 *
 * rc_solve   : problem + mesh -> one sparse NLP (Radau IIA collocation) ->
 *              Ipopt -> an rc_solution and rc_solve_stats.
 * rc_diagnose: errors of a solution against the problem's reference (at the
 *              nodes and on a dense grid), hidden-constraint residuals, and a
 *              per-element defect estimate.
 */
#ifndef RADCOL_SOLVE_H
#define RADCOL_SOLVE_H

#include "radcol/errors.h"
#include "radcol/mesh.h"
#include "radcol/options.h"
#include "radcol/problem.h"
#include "radcol/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Solve pb on mesh.  guess may be NULL (then the problem's guess function, or
 * x0 and zeros, are used); otherwise it is evaluated by dense output at the
 * new nodes (and its duals used when opt->warm_start).  On RC_OK the solve
 * ran: *sol is allocated and stats->status says how it ended.  On any other
 * code nothing is allocated and err says why. */
rc_err rc_solve(const rc_problem *pb, const rc_mesh *mesh,
                const rc_options *opt, const rc_solution *guess,
                rc_solution *sol, rc_solve_stats *stats, rc_error *err);

typedef struct rc_diagnostics {
  int nvar; /* nx + ny + nu + nout: variables and outputs */
  int has_reference;
  double *err_nodes; /* nvar: max |sol - ref| over the nodes (NaN: no ref) */
  double *err_dense; /* nvar: the same over the dense grid */
  double *err_ends;  /* nvar: the same over the element ends only */
  int ninv;
  double *inv_nodes; /* ninv: max |h| over the nodes */
  double *inv_dense; /* ninv: max |h| over the dense grid */
  int nnodes;
  double *out_nodes; /* nnodes x nout derived outputs */
  double *ref_nodes; /* nnodes x nvar reference (NULL without reference) */
  int ndense;
  double *t_dense;     /* ndense */
  double *w_dense;     /* ndense x nw */
  double *out_dense;   /* ndense x nout */
  double *ref_dense;   /* ndense x nvar (NULL without reference) */
  double *inv_dense_t; /* ndense x ninv residuals along the grid */
  int nelem;
  double *elem_defect; /* nelem: Betts relative defect estimate per element */
} rc_diagnostics;

/* dense_per_element points per element (uniform, both ends included once). */
rc_err rc_diagnose(const rc_problem *pb, const rc_solution *sol,
                   int dense_per_element, rc_diagnostics *d, rc_error *err);
void rc_diagnostics_free(rc_diagnostics *d);

#ifdef __cplusplus
}
#endif
#endif
