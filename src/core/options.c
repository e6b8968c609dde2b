/*
 * options.c - solver settings: defaults and the one place they are validated.
 */
#include <math.h>
#include <string.h>

#include "radcol/options.h"

void rc_options_default(rc_options *opt) {
  memset(opt, 0, sizeof *opt);
  opt->tol = 1e-10;
  opt->acceptable_tol = 1e-6;
  opt->max_iter = 3000;
  opt->max_cpu_s = 1e6;
  opt->print_level = 0;
  opt->warm_start = 0;
  opt->dense_per_element = 8;
  opt->dense_bounds = 1;
  opt->solver = RC_SOLVER_AUTO;
  opt->newton_max_iter = 10;
  opt->rtol = 1e-6;
  opt->atol = 1e-6;
  opt->natol = 0;
  opt->atol_names = NULL;
  opt->atol_values = NULL;
  opt->march_stages = 0;
  opt->march_max_steps = 1000000;
  opt->estimate = RC_ESTIMATE_GLOBAL;
  opt->accuracy_tol = 1e-6;
  opt->accuracy_binding = 0;
  opt->warm_start_mu = 0.0;
}

const char *rc_solver_kind_name(rc_solver_kind kind) {
  switch (kind) {
  case RC_SOLVER_AUTO:
    return "auto";
  case RC_SOLVER_IPOPT:
    return "ipopt";
  case RC_SOLVER_NEWTON:
    return "newton";
  }
  return NULL;
}

rc_err rc_options_validate(const rc_options *opt, rc_error *err) {
  if (!(opt->tol > 0 && isfinite(opt->tol)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "tolerance %g: expected a finite number > 0", opt->tol);
  if (!(opt->acceptable_tol > 0 && isfinite(opt->acceptable_tol)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "acceptable tolerance %g: expected a finite number > 0",
                        opt->acceptable_tol);
  if (opt->max_iter < 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "max_iter %d: expected an integer >= 0", opt->max_iter);
  if (!(opt->max_cpu_s > 0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "max_cpu_s %g: expected a number > 0", opt->max_cpu_s);
  if (opt->print_level < 0 || opt->print_level > 12)
    return rc_error_set(err, RC_ERR_INPUT, "print_level %d: expected 0..12",
                        opt->print_level);
  if (opt->dense_per_element < 1 || opt->dense_per_element > 1000)
    return rc_error_set(err, RC_ERR_INPUT,
                        "dense points per element %d: expected 1..1000",
                        opt->dense_per_element);
  if (!rc_solver_kind_name(opt->solver))
    return rc_error_set(err, RC_ERR_INPUT,
                        "solver %d: expected auto (%d), ipopt (%d) or newton "
                        "(%d)",
                        (int)opt->solver, RC_SOLVER_AUTO, RC_SOLVER_IPOPT,
                        RC_SOLVER_NEWTON);
  if (opt->newton_max_iter < 1 || opt->newton_max_iter > 1000)
    return rc_error_set(err, RC_ERR_INPUT,
                        "newton_max_iter %d: expected 1..1000",
                        opt->newton_max_iter);
  if (!(opt->rtol >= 1e-14 && opt->rtol <= 0.1))
    return rc_error_set(err, RC_ERR_INPUT,
                        "relative tolerance %g: expected a number in "
                        "1e-14..0.1",
                        opt->rtol);
  if (!(opt->atol > 0 && isfinite(opt->atol)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "absolute tolerance %g: expected a finite number > 0",
                        opt->atol);
  if (opt->natol < 0 ||
      (opt->natol > 0 && (!opt->atol_names || !opt->atol_values)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%d per-variable absolute tolerances: expected a "
                        "count >= 0 with its names and values",
                        opt->natol);
  for (int i = 0; i < opt->natol; ++i) {
    const char *name = opt->atol_names[i];
    if (!name || !name[0])
      return rc_error_set(err, RC_ERR_INPUT,
                          "absolute tolerance %d: expected a variable name",
                          i + 1);
    if (!(opt->atol_values[i] > 0 && isfinite(opt->atol_values[i])))
      return rc_error_set(err, RC_ERR_INPUT,
                          "absolute tolerance of %s %g: expected a finite "
                          "number > 0",
                          name, opt->atol_values[i]);
  }
  if (opt->march_stages != 0 &&
      (opt->march_stages < 1 || opt->march_stages > 13 ||
       opt->march_stages % 2 == 0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "march stages %d: expected 0 (chosen from the "
                        "tolerance) or an odd number in 1..13",
                        opt->march_stages);
  if (opt->march_max_steps < 1)
    return rc_error_set(err, RC_ERR_INPUT,
                        "march step limit %d: expected an integer >= 1",
                        opt->march_max_steps);
  if (opt->estimate != RC_ESTIMATE_NONE && opt->estimate != RC_ESTIMATE_LOCAL &&
      opt->estimate != RC_ESTIMATE_GLOBAL)
    return rc_error_set(err, RC_ERR_INPUT,
                        "estimate kind %d: expected RC_ESTIMATE_NONE (0), "
                        "RC_ESTIMATE_LOCAL (1) or RC_ESTIMATE_GLOBAL (2)",
                        (int)opt->estimate);
  if (!(opt->accuracy_tol > 0 && isfinite(opt->accuracy_tol)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "accuracy tolerance %g: expected a finite number > 0",
                        opt->accuracy_tol);
  if (opt->accuracy_binding != 0 && opt->accuracy_binding != 1)
    return rc_error_set(err, RC_ERR_INPUT,
                        "accuracy_binding %d: expected 0 or 1",
                        opt->accuracy_binding);
  if (opt->accuracy_binding && opt->estimate == RC_ESTIMATE_NONE)
    return rc_error_set(err, RC_ERR_INPUT,
                        "a binding accuracy verdict needs an error estimate: "
                        "expected estimate local or global, not none");
  if (!(opt->warm_start_mu >= 0 && opt->warm_start_mu < 1.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "warm_start_mu %g: expected 0 (the default) or a "
                        "number in (0, 1)",
                        opt->warm_start_mu);
  for (int i = 0; i < opt->nipopt; ++i) {
    const char *kv = opt->ipopt_kv[i];
    const char *eq = kv ? strchr(kv, '=') : NULL;
    if (!eq || eq == kv || eq[1] == '\0')
      return rc_error_set(err, RC_ERR_INPUT,
                          "Ipopt option '%s': expected KEY=VALUE",
                          kv ? kv : "(null)");
  }
  return RC_OK;
}
