/*
 * radcol/diagnose.h - measure a solution: errors against the problem's
 * reference (at the nodes and on a dense grid), hidden-constraint residuals
 * along the grid, derived outputs, and the Betts relative defect per element.
 * Nothing here solves: it evaluates the problem's functions on the
 * solution's dense output.
 */
#ifndef RADCOL_DIAGNOSE_H
#define RADCOL_DIAGNOSE_H

#include "radcol/errors.h"
#include "radcol/problem.h"
#include "radcol/result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rc_diagnostics {
  int nvar; /* nx + ny + nu + nout: variables and outputs */
  int has_reference;
  double *err_nodes; /* nvar: max |sol - ref| over all nodes, node 0 included
                        (NaN: no ref) */
  double *err_dense; /* nvar: the same over the dense grid */
  double *err_ends;  /* nvar: the same over the element ends tau_1..tau_n
                        only (not t0) */
  int ninv;
  double *inv_nodes; /* ninv: max |h| over all nodes, node 0 included */
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
