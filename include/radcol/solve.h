/*
 * radcol/solve.h - transcribe and solve, with the accuracy verdict.
 *
 * rc_solve   : problem + mesh -> one sparse NLP (Radau IIA collocation) ->
 *              Ipopt (or Newton element by element for a square system) ->
 *              an rc_solution and rc_solve_stats; then the error estimate
 *              and the dense-grid check of the result, and the accuracy
 *              verdict (docs/accuracy.md) in stats->accuracy.
 * rc_solve_adaptive : the adaptive default, a result to a tolerance from a
 *              starting mesh (refinement for optimal-control problems; the
 *              dispatch point of square systems).
 * rc_diagnose, which measures a solution, is in radcol/diagnose.h (included
 * here too, where radcol 0.1 declared it).
 */
#ifndef RADCOL_SOLVE_H
#define RADCOL_SOLVE_H

#include <stddef.h>

#include "radcol/dense_check.h"
#include "radcol/diagnose.h"
#include "radcol/errors.h"
#include "radcol/estimate.h"
#include "radcol/mesh.h"
#include "radcol/options.h"
#include "radcol/problem.h"
#include "radcol/refine.h"
#include "radcol/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Solve pb on mesh.  guess may be NULL (then the problem's guess function, or
 * x0 and zeros, are used); otherwise it is evaluated by dense output at the
 * new nodes (and its duals used when opt->warm_start).  On RC_OK the solve
 * ran: *sol is allocated and stats->status says how it ended.  On any other
 * code nothing is allocated and err says why.
 *
 * After a solve that succeeded, the error estimate of kind opt->estimate
 * (radcol/estimate.h) and the dense-grid check (radcol/dense_check.h) are
 * compared with opt->accuracy_tol by rc_accuracy_verdict: the verdict is in
 * stats->accuracy (mode RC_MODE_FIXED), and with opt->accuracy_binding a
 * verdict other than met makes stats->status RC_STATUS_INACCURATE
 * (stats->accuracy.solver_status keeps the solver's own).  An estimate that
 * fails to run leaves the verdict unverified and says why in
 * stats->message. */
rc_err rc_solve(const rc_problem *pb, const rc_mesh *mesh,
                const rc_options *opt, const rc_solution *guess,
                rc_solution *sol, rc_solve_stats *stats, rc_error *err);

/* rc_solve, and what the verdict was formed from: *est (may be NULL; free
 * with rc_error_estimate_free; kind RC_ESTIMATE_NONE when none was made)
 * and *dense (may be NULL; free with rc_dense_violation_free; always
 * computed, also for a failed solve).  Both are allocated exactly when
 * RC_OK is returned. */
rc_err rc_solve_estimated(const rc_problem *pb, const rc_mesh *mesh,
                          const rc_options *opt, const rc_solution *guess,
                          rc_solution *sol, rc_solve_stats *stats,
                          rc_error_estimate *est, rc_dense_violation *dense,
                          rc_error *err);

/* The adaptive default: a result whose error estimate and dense-grid check
 * meet ro->tol, starting from the mesh initial (usually the problem's
 * suggested mesh, rc_mesh_suggested) and guess (may be NULL).  Arguments
 * and results as rc_solve_refined_estimated (radcol/refine.h); the verdict
 * is binding (stats->accuracy, mode RC_MODE_ADAPTIVE).  Dispatch:
 *   - a square system (rc_square_system) unless opt->solver is
 *     RC_SOLVER_IPOPT: the square-system path.  Today it is the refinement
 *     loop below, with every solve and the estimate's enriched solve done by
 *     Newton; it is the place of an adaptive march (issue 26);
 *   - otherwise: the refinement loop (rc_solve_refined_estimated) with its
 *     global estimate. */
rc_err rc_solve_adaptive(const rc_problem *pb, const rc_mesh *initial,
                         const rc_solution *guess, const rc_options *opt,
                         const rc_refine_options *ro, rc_solution *sol,
                         rc_solve_stats *stats, rc_refine_row **rows,
                         int *nrows, rc_error_estimate *final_estimate,
                         rc_error *err);

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

#ifdef __cplusplus
}
#endif
#endif
