/*
 * newton.h - the square-system path (internal): an initial-value DAE solved
 * element by element by Newton's method on the collocation equations, i.e.
 * an implicit Radau IIA integrator on the given mesh.  The equations are the
 * ones transcription.h lists, so the result is the NLP's solution.
 */
#ifndef RADCOL_NEWTON_H
#define RADCOL_NEWTON_H

#include "radcol/mesh.h"
#include "radcol/options.h"
#include "radcol/problem.h"
#include "radcol/result.h"

/* Solve pb on mesh by Newton (pb must pass rc_square_system).  On RC_OK *sol
 * is allocated and stats says how it ended: RC_STATUS_CONVERGED, or
 * RC_STATUS_FAILED with stats->newton_fallback_element the element where
 * Newton did not converge (the nodes from there on hold the last converged
 * state held constant) and stats->message the reason.  Any other code: an
 * allocation or setup failure, nothing allocated. */
rc_err rc_newton_solve(const rc_problem *pb, const rc_mesh *mesh,
                       const rc_options *opt, const rc_solution *guess,
                       rc_solution *sol, rc_solve_stats *stats, rc_error *err);

#endif
