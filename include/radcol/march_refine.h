/*
 * radcol/march_refine.h - an initial-value DAE (a square system) integrated
 * to a global tolerance: the adaptive march (radcol/march.h), its global
 * error estimate (radcol/estimate.h: the same mesh with one more stage per
 * element), and new marches with a tighter local tolerance while the
 * estimate of an index-1 unknown exceeds the tolerance (docs/march.md).
 *
 * The tolerance (radcol/options.h): unknown v_i is within atol_i + rtol
 * max |v_i| over the trajectory, at the nodes and on the dense output, for
 * every unknown of index 1 (states of an index-1 formulation, positions of
 * an index-3 mechanism, ...).  Unknowns of index 2 and 3 are held to it per
 * step only in the march's h-scaled norm (RADAU5's convention); their
 * estimates are reported but do not trigger a new march.
 *
 * March m (0-based) uses rtol f_m and atol f_m, f_0 = 1 and
 * f_{m+1} = f_m max(0.01, 0.5 rtol / E_m), E_m the largest relative estimate
 * of an index-1 unknown (the march's global error is about proportional to
 * its local tolerance, docs/march.md).
 */
#ifndef RADCOL_MARCH_REFINE_H
#define RADCOL_MARCH_REFINE_H

#include "radcol/errors.h"
#include "radcol/estimate.h"
#include "radcol/march.h"
#include "radcol/options.h"
#include "radcol/problem.h"
#include "radcol/refine.h"
#include "radcol/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* March pb to opt's tolerances with at most max_marches marches (1..100).
 * kind: the estimate of the result (RC_ESTIMATE_NONE: one march, no
 * estimate; RC_ESTIMATE_LOCAL: one march, the local estimate; GLOBAL: the
 * loop above).  On RC_OK *sol, *stats (stats->message says why the loop
 * stopped), *info (may be NULL) are those of the returned march, *rows
 * (malloc'ed, free()) and *nrows one row per march, *est (may be NULL
 * with kind NONE; free with rc_error_estimate_free) the returned
 * solution's estimate (kind NONE, nothing allocated, when the first march
 * failed).  Row fields: ipopt_iterations the march's Newton iterations,
 * est_error the local estimate's max, global_error the largest relative
 * global estimate of an index-1 unknown (the quantity held to rtol; NaN
 * without one).  A failed march ends the loop: the last successful march is
 * returned when there is one, else the failed one (status failed).  Any
 * other code: nothing allocated. */
rc_err rc_march_refined(const rc_problem *pb, const rc_options *opt,
                        const rc_solution *guess, int max_marches,
                        rc_estimate_kind kind, rc_solution *sol,
                        rc_solve_stats *stats, rc_march_info *info,
                        rc_refine_row **rows, int *nrows,
                        rc_error_estimate *est, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
