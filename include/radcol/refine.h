/*
 * radcol/refine.h - adaptive hp mesh refinement (SPEC section 6).
 *
 * rc_solve_refined solves on an initial mesh, estimates the error of every
 * element, changes the mesh (raise the degree, split, merge) and re-solves,
 * warm-started from the previous solution, until every element's estimate is
 * below the tolerance or a cap (refinements, elements, memory) stops it.  Each
 * solve is one rc_refine_row, reported through a callback; the
 * library itself never prints.
 *
 * Estimators (docs/mesh-refinement.md):
 *   RC_REFINE_PHR    Patterson, Hager and Rao (2015): in element k with s_k
 *                    stages, the state polynomial X~ is evaluated at the
 *                    M = s_k + 1 Radau IIA points tau_j of an M-stage rule,
 *                    the dynamics integrated from the element start with that
 *                    rule's integration matrix,
 *                      X^_j = X~(t_k) + h_k sum_l A^(M)_jl f(tau_l, W~(tau_l)),
 *                    and e_k = max_{i,j} |X^_ij - X~_ij| / (1 + max_j |X~_ij|).
 *                    Algebraic variables get their own check: the residual
 *                    max_j |g(tau_j, W~)| / (1 + max |y|) at the same points.
 *   RC_REFINE_BETTS  the Betts relative defect of rc_diagnose (elem_defect).
 *   RC_REFINE_BOTH   the larger of the two.
 * hp decision per element with e_k > tol (Patterson-Hager-Rao): if
 *   s_new = s_k + ceil(log(e_k / tol) / log(s_k)) (at least s_k + 1) is at
 *   most max_stages, raise the degree to s_new; otherwise split into
 *   max(ceil((s_k + P_k) / min_stages), 2) equal elements of min_stages
 *   stages, P_k = ceil(log(e_k / tol) / log(s_k)).
 * Dense grid: an element where a bound, algebraic equation or path
 *   constraint is violated on the dense grid between the nodes by more than
 *   tol (relative, radcol/dense_check.h: elem_relative - elem_node_relative)
 *   is split in two, and the loop stops only when both the estimate and this
 *   violation are <= tol (rc_refine_row.dense_violation).
 * Merge: two neighbours with the same stage count, both estimates below
 *   merge_factor * tol, become one element (their union) when the merged
 *   element's predicted error (2^(s+1) times the larger) stays below
 *   merge_factor * tol as well.
 */
#ifndef RADCOL_REFINE_H
#define RADCOL_REFINE_H

#include "radcol/errors.h"
#include "radcol/estimate.h"
#include "radcol/mesh.h"
#include "radcol/options.h"
#include "radcol/problem.h"
#include "radcol/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One solve of the refinement loop (a row of the result file's /refinement,
 * radcol/io.h). */
typedef struct rc_refine_row {
  int iteration;
  int elements;
  int stages_min, stages_max;
  int nvars;
  double est_error; /* estimator's max over elements */
  double ref_error; /* max reference error over variables (NaN: none) */
  int ipopt_iterations;
  double wall_s;
  int status;             /* rc_status of that solve */
  double dense_violation; /* largest relative dense-grid violation between
                             the nodes (rc_dense_violation.worst_between;
                             NaN: not checked) */
  double global_error;    /* global estimate's max (radcol/estimate.h), NaN:
                             not computed for this solve */
} rc_refine_row;

/* Called after every solve of the loop with that solve's row (borrowed for
 * the call) and a short note of what happens next (e.g. "12 elements raised,
 * 3 split" or the stop reason). */
typedef void (*rc_refine_progress_fn)(void *ctx, const rc_refine_row *row,
                                      const char *note);

typedef struct rc_refine_options {
  double tol;              /* target estimate per element (> 0); 1e-8 */
  int max_refinements;     /* mesh changes after the first solve; 12 */
  int max_elements;        /* cap on the element count; 20000 */
  double max_memory_bytes; /* cap on the NLP memory estimate; 8 GiB */
  int max_stages;          /* degree cap of a raise (2..RC_MAX_STAGES); 8 */
  int min_stages;          /* stages of split elements (1..max); 3 */
  double merge_factor;     /* merge below merge_factor * tol; 0: never; 1e-3 */
  rc_refine_estimator estimator; /* RC_REFINE_PHR */
  int dual_warm_start;           /* warm start from the previous duals too; 1 */
  /* 1: tol bounds the global error estimate (radcol/estimate.h) of the
   * result, not only every element's local estimate: once the local
   * estimates are met an enriched solve estimates the global error; above
   * tol, the local target is tightened by 0.5 tol / global and the elements
   * whose global estimate exceeds tol are refined too.  0: local only. 1. */
  int global;
  rc_refine_progress_fn progress; /* or NULL */
  void *progress_ctx;
  /* 1: follow the switching structure (radcol/switching.h): a solution with
   * switches gets free breakpoints at them and its arcs pinned before the
   * hp steps continue inside the segments; 0: hp steps only.  1. */
  int switching;
} rc_refine_options;

void rc_refine_options_default(rc_refine_options *ro);
rc_err rc_refine_options_validate(const rc_refine_options *ro, rc_error *err);

/* One hp step: *out is the new mesh (allocated).  *nraised, *nsplit,
 * *nmerged count what was done (any may be NULL).  An unchanged mesh (all
 * estimates below tol) is returned as a copy. */
rc_err rc_refine_mesh(const rc_mesh *mesh, const double *est,
                      const rc_refine_options *ro, rc_mesh *out, int *nraised,
                      int *nsplit, int *nmerged, rc_error *err);

/* NLP size of pb on mesh with options opt (NULL: defaults; opt->dense_bounds
 * adds rows) without building it (rc_nlp_count, the count the transcription
 * itself uses), and an estimate of the memory
 * a solve needs (Ipopt vectors plus a MUMPS factor of the KKT matrix with a
 * fill factor of 10): bytes = 8 (10 nnz_kkt + 30 (nvars + ncons)) + 4 nnz_kkt
 * with nnz_kkt = nnz_jac + nnz_hes + nvars + ncons. */
typedef struct rc_nlp_size {
  long nvars, ncons, nnz_jac, nnz_hes;
  double bytes;
} rc_nlp_size;
void rc_refine_nlp_size(const rc_problem *pb, const rc_mesh *mesh,
                        const rc_options *opt, rc_nlp_size *size);

/* The refinement loop.  initial: the first mesh; guess: the first solve's
 * starting point (as for rc_solve; may be NULL); opt: solver options for
 * every solve (opt->warm_start is overridden by ro->dual_warm_start after the
 * first solve).  On RC_OK *sol holds the last solution (its mesh is the final
 * mesh), stats the last solve's stats with stats->message saying why the loop
 * stopped, *rows (malloc'ed, free with free()) and *nrows the history.
 * A sampled-reference problem (no NLP) is refined by its global estimate
 * (the reference sampled on the enriched mesh) and the dense-grid check;
 * its local estimates are 0.  A failed solve stops
 * the loop (its row and solution are returned).  With ro->global, a loop
 * that ends above tol returns the solution with the smallest global estimate
 * of the run when that is smaller than the last one's (stats->message says
 * so; *stats are that solve's).  On any other code nothing is allocated. */
rc_err rc_solve_refined(const rc_problem *pb, const rc_mesh *initial,
                        const rc_solution *guess, const rc_options *opt,
                        const rc_refine_options *ro, rc_solution *sol,
                        rc_solve_stats *stats, rc_refine_row **rows, int *nrows,
                        rc_error *err);

/* The accuracy verdict (rc_accuracy_verdict, docs/accuracy.md) of the
 * returned solution is in stats->accuracy (mode RC_MODE_REFINE, binding at
 * ro->tol: stats->status is RC_STATUS_INACCURATE when the solve converged
 * but the tolerance was not met, e.g. a cap stopped the loop); its estimate
 * is computed after the loop when the loop stopped before it needed one.
 * The loop itself stops when the verdict of a solve is met. */

/* rc_solve_refined, and the error estimate of the returned solution in
 * *final_estimate (may be NULL; free with rc_error_estimate_free): the global
 * one of the last solve when ro->global (computed after the loop if the loop
 * stopped before needing it), else the local one. */
rc_err rc_solve_refined_estimated(const rc_problem *pb, const rc_mesh *initial,
                                  const rc_solution *guess,
                                  const rc_options *opt,
                                  const rc_refine_options *ro, rc_solution *sol,
                                  rc_solve_stats *stats, rc_refine_row **rows,
                                  int *nrows, rc_error_estimate *final_estimate,
                                  rc_error *err);

/* Did the solve of this row meet ro->tol: its global estimate when
 * ro->global, else its max local estimate?  0 for NULL. */
int rc_refine_row_reached(const rc_refine_row *row,
                          const rc_refine_options *ro);

#ifdef __cplusplus
}
#endif
#endif
