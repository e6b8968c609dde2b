/*
 * test_models.h - a built-in model's formulation with its default
 * parameters (and one NAME=VALUE assignment), for the tests that solve
 * built-in problems (header-only: each test is one translation unit).
 */
#ifndef RADCOL_TEST_MODELS_H
#define RADCOL_TEST_MODELS_H

#include "radcol/catalogue.h"
#include "radcol/params.h"
#include "test_util.h"

/* Formulation `formulation` of the built-in model `model_name`, with set
 * (NULL or NAME=VALUE) applied; pv holds the values (rc_params_free after
 * the problem).  NULL after recording a failure. */
static rc_problem *make(const char *model_name, const char *formulation,
                        const char *set, rc_param_values *pv) {
  rc_error err = {RC_OK, ""};
  const rc_model *model = rc_find_model(model_name);
  EXPECT(model, "model %s registered", model_name);
  if (!model)
    return NULL;
  const int f = rc_model_find_formulation(model, formulation);
  EXPECT(f >= 0, "%s has formulation %s", model_name, formulation);
  rc_problem *pb = NULL;
  if (f < 0 || rc_params_init_defaults(model, pv, &err) != RC_OK ||
      (set && rc_params_set(model, pv, set, &err) != RC_OK) ||
      model->create(model, f, pv, &pb, &err) != RC_OK) {
    EXPECT(0, "%s/%s: create failed: %s", model_name, formulation, err.message);
    return NULL;
  }
  return pb;
}

#endif
