/*
 * origin.c - the built-in models' restart through their start parameters
 * (problems/origin.h).
 */
#include <math.h>
#include <stdio.h>

#include "origin.h"
#include "radcol/start.h"

rc_err rc_origin_record(rc_model_origin *o, const rc_model *model,
                        int formulation, const rc_param_values *pv,
                        rc_error *err) {
  o->model = model;
  o->formulation = formulation;
  return rc_params_copy(model, pv, &o->pv, err);
}

void rc_origin_free(rc_model_origin *o) {
  if (o)
    rc_params_free(&o->pv);
}

rc_err rc_origin_restart(const rc_model_origin *o, const rc_problem *pb,
                         const double *x0, rc_problem **out, rc_error *err) {
  *out = NULL;
  const rc_model *m = o->model;
  /* a moving state without its start parameter: the generic view */
  for (int i = 0; i < pb->nx; ++i) {
    char name[80];
    snprintf(name, sizeof name, "%s0", pb->var_names[i]);
    if (!(pb->x0 && x0[i] == pb->x0[i]) && rc_model_param_index(m, name) < 0)
      return rc_problem_view(pb, x0, out, err);
  }
  rc_param_values pv;
  rc_err rc = rc_params_copy(m, &o->pv, &pv, err);
  for (int i = 0; rc == RC_OK && i < pb->nx; ++i) {
    if (pb->x0 && x0[i] == pb->x0[i])
      continue;
    char name[80];
    snprintf(name, sizeof name, "%s0", pb->var_names[i]);
    rc = rc_params_set_real(m, &pv, rc_model_param_index(m, name), x0[i], err);
  }
  /* a fixed horizon the engine owns stays; a free tf's start is derived */
  const double tf =
      rc_model_param_index(m, "tf") < 0 && !pb->free_tf ? pb->tf : NAN;
  if (rc == RC_OK)
    rc = rc_model_create(m, o->formulation, &pv, tf, out, err);
  rc_params_free(&pv);
  return rc;
}
