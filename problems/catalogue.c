/*
 * catalogue.c - the built-in models, the one place that lists them
 * (radcol/catalogue.h; library radcol_models).  Each problem file in
 * problems/ defines one `const rc_model rc_model_<name>`; list it here (and
 * its source in problems/sources.cmake).  The engine (src/) never names one
 * and does not link this library.
 */
#include <stddef.h>

#include "radcol/catalogue.h"

/* extern declarations: one line per model */
extern const rc_model rc_model_bryson_denham;
extern const rc_model rc_model_crane;
extern const rc_model rc_model_double_integrator;
extern const rc_model rc_model_double_pendulum;
extern const rc_model rc_model_four_bar;
extern const rc_model rc_model_pendulum;

static const rc_model *const builtin_models[] = {
    /* entries: one line per model */
    &rc_model_bryson_denham,
    &rc_model_crane,
    &rc_model_double_integrator,
    &rc_model_double_pendulum,
    &rc_model_four_bar,
    &rc_model_pendulum,
    NULL};

const rc_model *const *rc_builtin_models(void) {
  return builtin_models;
}

const rc_model *rc_find_model(const char *name) {
  return rc_model_list_find(builtin_models, name);
}
