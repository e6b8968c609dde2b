/*
 * problems/origin.h - how the built-in models restart (rc_problem.restart).
 *
 * Every built-in model takes its initial values as parameters named after
 * the states with a 0 suffix (pendulum: x0, y0, u0, v0; the crane: x0, r0,
 * ...), and derives its reference and guess from them at create.  A problem
 * remembers what it was made from (its origin: model, formulation, a copy of
 * the parameter values); its restart sets the start parameters of the moved
 * states in a copy of those values and creates the problem again, so that
 * everything derived from the start is derived from the new one.  This is
 * the models' own convention, kept here, not the engine's.
 */
#ifndef RADCOL_PROBLEMS_ORIGIN_H
#define RADCOL_PROBLEMS_ORIGIN_H

#include "radcol/params.h"
#include "radcol/problem.h"

typedef struct rc_model_origin {
  const rc_model *model;
  int formulation;
  rc_param_values pv; /* owned copy */
} rc_model_origin;

/* Remember model, formulation and a copy of pv in *o. */
rc_err rc_origin_record(rc_model_origin *o, const rc_model *model,
                        int formulation, const rc_param_values *pv,
                        rc_error *err);
void rc_origin_free(rc_model_origin *o);

/* The problem pb (made from o) from start x0 into *out: the start
 * parameter NAME0 of every state that moves, the horizon pb->tf when the
 * model has no tf parameter and tf is fixed (a free tf's starting value is
 * the model's again, derived from the new start).  Only what the parameters
 * say is carried over: a field of pb changed after create is not.  When a
 * moving state has no start parameter the model cannot derive its data from
 * that start: the generic view (rc_problem_view: no reference; pb must outlive
 * it). */
rc_err rc_origin_restart(const rc_model_origin *o, const rc_problem *pb,
                         const double *x0, rc_problem **out, rc_error *err);

#endif
