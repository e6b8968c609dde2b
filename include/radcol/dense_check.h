/*
 * radcol/dense_check.h - does a solution satisfy its constraints between the
 * nodes?  Every constraint of the problem is evaluated on the dense grid (the
 * grid whose dense output the result file holds, /solution/dense) and its
 * largest violation, where it occurs and how large it is relative to a
 * stated scale are returned.  The library states facts; the CLI words them.
 *
 * Constraints and names (k zero-based):
 *   RC_DENSE_BOUND      bound_<w>   simple bound lo <= w <= hi of every x, y,
 *                                   u or p entry with a finite bound;
 *                                   violation max(lo - w, w - hi, 0);
 *                                   scale max(1, |finite lo|, |finite hi|,
 *                                   max over the grid of |w|)
 *   RC_DENSE_ALGEBRAIC  alg_<y>     algebraic equation k (paired with the
 *                                   k-th algebraic variable y); violation
 *                                   |g_k|; scale max(1, max over the grid of
 *                                   max_i |y_i|) (the refinement estimator's
 *                                   scale)
 *   RC_DENSE_PATH       path_<k>    path constraint c_lo <= c_k <= c_hi;
 *                                   violation max(c_lo - c, c - c_hi, 0);
 *                                   scale max(1, |finite bounds|, max over
 *                                   the grid of |c_k|)
 *   RC_DENSE_INVARIANT  inv_<name>  hidden constraint of the original DAE
 *                                   (problems with invariants); violation
 *                                   |h_k|; scale 1 (absolute)
 * relative = max / scale.  A point where the problem's functions fail to
 * evaluate counts as an infinite violation of every g and c entry.
 *
 * Invariants are reported but do not enter worst_relative or elem_relative:
 * the NLP does not impose them (an index-reduced formulation lets them drift,
 * a tracking formulation relaxes them on purpose), so their size is an error
 * of the model solved, not a constraint the answer breaks.  worst_relative
 * and elem_relative cover the constraints the NLP imposes at the nodes:
 * bounds, algebraic equations and path constraints.
 *
 * Dense grid: dense_per_element points per element, uniform in time with the
 * element's left end first, plus tf (rc_dense_grid; rc_diagnose uses the same
 * grid).  Dense output is rc_solution_eval (ties go to the left element).
 */
#ifndef RADCOL_DENSE_CHECK_H
#define RADCOL_DENSE_CHECK_H

#include "radcol/errors.h"
#include "radcol/problem.h"
#include "radcol/result.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RC_DENSE_NAME_MAX 80

typedef enum rc_dense_kind {
  RC_DENSE_BOUND = 0,
  RC_DENSE_ALGEBRAIC = 1,
  RC_DENSE_PATH = 2,
  RC_DENSE_INVARIANT = 3
} rc_dense_kind;

typedef struct rc_dense_violation {
  int n; /* constraints checked */
  char (*name)[RC_DENSE_NAME_MAX];
  rc_dense_kind *kind;
  int *index;       /* w entry (bounds), row of g, c or the invariants */
  double *max;      /* n: largest violation, in the constraint's units, >= 0 */
  double *time;     /* n: time of it (NaN when max is 0) */
  double *scale;    /* n: scale (above) */
  double *relative; /* n: max / scale */
  int *element;     /* n: element holding that time (-1 when max is 0) */
  int nelem;
  double *elem_relative;      /* nelem: largest relative violation of a bound,
                                 algebraic equation or path constraint on the
                                 element's grid points */
  double *elem_node_relative; /* nelem: the same at the element's stage
                                 nodes (sol->w), where the NLP imposes the
                                 constraints: what the solver's tolerance
                                 leaves (e.g. Ipopt's bound relaxation) */
  double worst_relative;      /* max of elem_relative (0: none) */
  double worst_between;       /* max over elements of elem_relative -
                                 elem_node_relative: the violation the mesh
                                 causes, which refinement can remove */
  int worst;                  /* entry of worst_relative, -1 if none */
  int ndense;                 /* grid points */
} rc_dense_violation;

/* Points of the dense grid: mesh.n * dense_per_element + 1. */
int rc_dense_grid_size(const rc_solution *sol, int dense_per_element);
/* The grid times (rc_dense_grid_size values) and, when elem is not NULL, the
 * element whose polynomial the dense output uses there
 * (rc_solution_element: a breakpoint belongs to the element it ends). */
void rc_dense_grid(const rc_solution *sol, int dense_per_element, double *t,
                   int *elem);

/* Check every constraint of pb on sol's dense grid.  On RC_OK *dv is
 * allocated (free with rc_dense_violation_free); otherwise nothing is. */
rc_err rc_dense_check(const rc_problem *pb, const rc_solution *sol,
                      int dense_per_element, rc_dense_violation *dv,
                      rc_error *err);
void rc_dense_violation_free(rc_dense_violation *dv);
/* "bound", "algebraic", "path", "invariant". */
const char *rc_dense_kind_name(rc_dense_kind kind);

#ifdef __cplusplus
}
#endif
#endif
