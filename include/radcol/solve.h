/*
 * radcol/solve.h - transcribe and solve.
 *
 * rc_solve   : problem + mesh -> one sparse NLP (Radau IIA collocation) ->
 *              Ipopt (or Newton element by element for a square system) ->
 *              an rc_solution and rc_solve_stats.
 * rc_diagnose, which measures a solution, is in radcol/diagnose.h (included
 * here too, where radcol 0.1 declared it).
 */
#ifndef RADCOL_SOLVE_H
#define RADCOL_SOLVE_H

#include <stddef.h>

#include "radcol/diagnose.h"
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

#ifdef __cplusplus
}
#endif
#endif
