/*
 * catalogue.c - the built-in models, the one place that lists them.  Each
 * problem file in problems/ defines one `const rc_model rc_model_<name>`;
 * list it here (and its source in problems/sources.cmake).  The engine
 * (src/) reaches them only through rc_builtin_models() and never names one.
 */
#include <stddef.h>

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
