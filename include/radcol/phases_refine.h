/*
 * radcol/phases_refine.h - error estimates and hp refinement of multiphase
 * problems, phase by phase (radcol/phases.h; the one-phase versions are
 * radcol/estimate.h and radcol/refine.h).
 *
 * Estimate.  RC_ESTIMATE_LOCAL: the Patterson-Hager-Rao element estimate of
 * each phase (no solve).  RC_ESTIMATE_GLOBAL: every phase's mesh split in
 * two and the whole multiphase problem solved again, warm-started from the
 * solution (one NLP: the phases stay linked); each phase's estimate is then
 * max |v_h - v_h/2| over its nodes and dense grid, as for one problem.  When
 * the enriched solve does not converge, the local estimates remain (their
 * note says why).
 *
 * Refinement.  Solve; estimate every element of every phase (the local
 * estimator of ro); refine each phase's mesh where its elements exceed
 * ro->tol (rc_refine_mesh, radcol/refine.h); re-solve warm-started from the
 * previous solutions; stop when every phase meets the tolerance or a cap
 * (ro->max_refinements, ro->max_elements over all phases) stops it.  With
 * ro->global, a loop whose local estimates meet the tolerance computes the
 * global estimate and splits the elements above tol while refinements are
 * left.  Data breakpoints are kept (rc_phases_solve puts them back).
 */
#ifndef RADCOL_PHASES_REFINE_H
#define RADCOL_PHASES_REFINE_H

#include "radcol/errors.h"
#include "radcol/estimate.h"
#include "radcol/options.h"
#include "radcol/phases.h"
#include "radcol/refine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* est: nphases estimates, allocated on RC_OK (free each with
 * rc_error_estimate_free). */
rc_err rc_phases_estimate(const rc_phases *ph, const rc_phases_solution *s,
                          const rc_options *opt, rc_estimate_kind kind,
                          rc_error_estimate *est, rc_error *err);

/* The refinement loop (rows: one per solve, malloc'ed, est_error the largest
 * over the phases, elements and nvars totals; global_error the global
 * estimate's max when computed).  On RC_OK *out and *stats hold the last
 * solve (stats->message says why the loop stopped). */
rc_err rc_phases_solve_refined(const rc_phases *ph, const rc_mesh *meshes,
                               const rc_solution *guesses,
                               const rc_options *opt,
                               const rc_refine_options *ro,
                               rc_phases_solution *out, rc_solve_stats *stats,
                               rc_refine_row **rows, int *nrows, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
