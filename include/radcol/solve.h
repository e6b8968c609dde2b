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

#include <stddef.h>

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

/* Is pb a square system, an initial-value DAE that rc_solve can integrate
 * element by element by Newton (options.h, rc_solver_kind)?  Returns 1, or
 * 0 with the first reason it is not written into why (len bytes; why may be
 * NULL).  The rule: no Lagrange or Mayer term, no boundary constraint, every
 * x(t0) fixed and no x(tf) fixed, tf not free, every parameter fixed by
 * equal finite bounds, every path constraint an equality (c_lo == c_hi) and
 * as many path equalities as controls (nu == nc), and not a
 * sampled-reference formulation.  Finite simple bounds are allowed: the
 * Newton solution is checked against them afterwards. */
int rc_square_system(const rc_problem *pb, char *why, size_t len);

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
