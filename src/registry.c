/*
 * registry.c - looking models, formulations and parameters up by name.  The
 * built-in models themselves are listed in problems/catalogue.c
 * (rc_builtin_models): the engine never names a problem.
 */
#include <string.h>

#include "radcol/problem.h"

const rc_model *rc_find_model(const char *name) {
  if (!name)
    return NULL;
  for (const rc_model *const *m = rc_builtin_models(); *m; ++m)
    if (strcmp((*m)->name, name) == 0)
      return *m;
  return NULL;
}

int rc_model_find_formulation(const rc_model *model, const char *name) {
  if (!model || !name)
    return -1;
  for (int i = 0; i < model->nformulations; ++i)
    if (strcmp(model->formulations[i].name, name) == 0)
      return i;
  return -1;
}

int rc_model_param_index(const rc_model *model, const char *name) {
  if (!model || !name)
    return -1;
  for (int i = 0; i < model->nparams; ++i)
    if (strcmp(model->params[i].name, name) == 0)
      return i;
  return -1;
}
