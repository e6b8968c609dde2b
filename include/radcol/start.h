/*
 * radcol/start.h - a different start as a library operation.
 *
 * A problem fixes its initial state x(t0) = x0 (rc_problem.x0, fix_x0).  To
 * solve, initialise or simulate the same problem from another start - the
 * consistent point that rc_init_check_start found, a state from a previous
 * move, a parameter study over starts - restart the problem:
 *
 *     rc_problem *moved = NULL;
 *     rc_problem_restart(pb, x0, &moved, &err);  then solve/simulate moved
 *
 * or hand the start to the solve itself (rc_options.x0, rc_init_options.x0),
 * which does the same inside.
 *
 * Who derives what: a model may derive data from its start when it builds
 * the problem (a reference integrated from x0, a guess through it).  A model
 * that implements rc_problem.restart derives them again; the built-in models
 * do (from their parameters: a field of the problem changed after create,
 * other than a fixed horizon, is not carried over).  Otherwise
 * rc_problem_restart returns a view: the same callbacks and model data, its own
 * copy of x0, and no reference (a reference that starts elsewhere is not a
 * reference of the moved problem; reference errors are then not reported).  A
 * view borrows everything else from pb: pb must outlive it; as a model's
 * restart may return a view too (a built-in model whose start has no
 * parameter), keep pb until the restarted problem is freed.  A
 * sampled-reference problem (its solution is its reference) cannot be viewed:
 * without the model's restart it is refused.
 */
#ifndef RADCOL_START_H
#define RADCOL_START_H

#include "radcol/errors.h"
#include "radcol/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pb from the initial state x0 (pb->nx finite values) into *out (free with
 * rc_problem_free), validated (rc_problem_validate).  *out == NULL and err
 * filled on failure: NULL argument, a non-finite entry (named), the model's
 * restart refusing the state, a sampled-reference problem without one, no
 * memory. */
rc_err rc_problem_restart(const rc_problem *pb, const double *x0,
                          rc_problem **out, rc_error *err);

/* The generic restart: a view of pb from x0 (callbacks and model data
 * borrowed, x0 its own copy, no reference), unvalidated; what
 * rc_problem_restart does for a problem without restart, and what a model's
 * restart may return when it cannot derive its data from x0.  Errors: a
 * sampled-reference problem, no memory. */
rc_err rc_problem_view(const rc_problem *pb, const double *x0, rc_problem **out,
                       rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
