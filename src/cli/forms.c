/*
 * forms.c - the command line's text forms that name a variable or a method
 * (forms.h).  Numbers are read by the one decimal rule of core/numbers.h.
 */
#include "cli/forms.h"

#include <stdio.h>
#include <string.h>

#include "core/numbers.h"
#include "radcol/init.h"

rc_err rc_init_parse_assignment(const rc_problem *pb, const char *opt,
                                const char *assignment, int *index,
                                double *value, rc_error *err) {
  const char *eq = strchr(assignment, '=');
  if (!eq || eq == assignment)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s %s: expected NAME=VALUE with NAME a variable of "
                        "%s/%s",
                        opt, assignment, pb->model, pb->formulation);
  char name[128];
  const size_t len = (size_t)(eq - assignment);
  if (len >= sizeof name)
    return rc_error_set(err, RC_ERR_INPUT, "%s %s: name too long", opt,
                        assignment);
  memcpy(name, assignment, len);
  name[len] = '\0';
  const int i = rc_init_var_index(pb, name);
  if (i < 0) {
    char list[256] = "";
    const int nw = rc_problem_nw(pb);
    for (int k = 0; k < nw; ++k) {
      const size_t used = strlen(list);
      snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "",
               pb->var_names[k]);
    }
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s %s: %s/%s has no variable '%s' (expected one of "
                        "%s)",
                        opt, assignment, pb->model, pb->formulation, name,
                        list);
  }
  double v;
  if (!rc_parse_real(eq + 1, &v))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s %s: expected a finite number for %s", opt,
                        assignment, name);
  *index = i;
  *value = v;
  return RC_OK;
}

rc_err rc_sim_method_parse(const char *name, rc_sim_method *m, rc_error *err) {
  if (name && strcmp(name, "rk4") == 0) {
    *m = RC_SIM_RK4;
    return RC_OK;
  }
  if (name && strcmp(name, "collatz") == 0) {
    *m = RC_SIM_COLLATZ;
    return RC_OK;
  }
  return rc_error_set(err, RC_ERR_INPUT,
                      "method '%s': expected rk4 or collatz (explicit "
                      "fixed-step integrators)",
                      name ? name : "(null)");
}

rc_err rc_simulate_parse_guess(const char *spec, rc_sim_method *m, double *h,
                               rc_error *err) {
  static const char prefix[] = "simulate:";
  if (!spec || strncmp(spec, prefix, sizeof prefix - 1) != 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "simulation guess %s: expected simulate:METHOD[:H]",
                        spec ? spec : "(null)");
  const char *s = spec + sizeof prefix - 1;
  const char *colon = strchr(s, ':');
  char name[16];
  size_t len = colon ? (size_t)(colon - s) : strlen(s);
  if (len >= sizeof name)
    len = sizeof name - 1;
  memcpy(name, s, len);
  name[len] = '\0';
  if (rc_sim_method_parse(name, m, NULL) != RC_OK)
    return rc_error_set(
        err, RC_ERR_INPUT,
        "simulation guess %s: method '%s': expected simulate:rk4 or "
        "simulate:collatz (optionally :H, the largest step)",
        spec, name);
  *h = 0.0;
  if (colon && (!rc_parse_real(colon + 1, h) || !(*h > 0.0)))
    return rc_error_set(
        err, RC_ERR_INPUT,
        "simulation guess %s: step '%s': expected a finite number > 0", spec,
        colon + 1);
  return RC_OK;
}
