/*
 * registry.c - the built-in catalogue of models.  Each problem file in
 * problems/ defines one `const rc_model rc_model_<name>`; list it here (and
 * its source in problems/sources.cmake).
 */
#include <string.h>

#include "radcol/problem.h"

/* extern declarations: one line per model */
extern const rc_model rc_model_crane;
extern const rc_model rc_model_double_pendulum;
extern const rc_model rc_model_four_bar;
extern const rc_model rc_model_pendulum;

static const rc_model *const builtin_models[] = {
    /* entries: one line per model */
    &rc_model_crane, &rc_model_double_pendulum, &rc_model_four_bar,
    &rc_model_pendulum, NULL};

const rc_model *const *rc_builtin_models(void) {
  return builtin_models;
}

const rc_model *rc_find_model(const char *name) {
  if (!name)
    return NULL;
  for (const rc_model *const *m = builtin_models; *m; ++m)
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
