/*
 * wrong_abi.c - a test plugin that claims the ABI version TEST_ABI_VERSION
 * (set by the build: one copy older, one newer than RC_PROBLEM_ABI_VERSION).
 * Its model is otherwise complete, so the version check alone must refuse
 * it (exit status 2, both versions in the message) before create is called.
 */
#include <stddef.h>

#include "radcol/plugin.h"

#ifndef TEST_ABI_VERSION
#error "define TEST_ABI_VERSION"
#endif

static rc_err create(const rc_model *model, int form, const rc_param_values *pv,
                     rc_problem **out, rc_error *err) {
  (void)model, (void)form, (void)pv;
  *out = NULL;
  return rc_error_set(err, RC_ERR_INTERNAL, "wrong_abi: create must not run");
}

static const rc_formulation_def formulations[] = {{"only", "never built"}};
static const rc_model model = {
    "wrong-abi", "ABI mismatch test", 1, formulations, 0, 0, NULL, create,
    NULL};
static const rc_model *const models[] = {&model};
static const rc_plugin plugin = {TEST_ABI_VERSION, "wrong-abi", 1, models};

RC_PLUGIN_EXPORT const rc_plugin *radcol_plugin(void) {
  return &plugin;
}
