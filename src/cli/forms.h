/*
 * forms.h - the command line's text forms that name a variable or a method
 * (private to the CLI; tests use it from the source tree).  The library takes
 * typed values (an index into the problem's variables, rc_sim_method); these
 * turn the words of `radcol init --fix/--guess NAME=VALUE` and `radcol
 * simulate --method`, `radcol solve --guess simulate:METHOD[:H]` into them,
 * with messages that name the option.  Numbers follow core/numbers.h.
 */
#ifndef RADCOL_CLI_FORMS_H
#define RADCOL_CLI_FORMS_H

#include "radcol/errors.h"
#include "radcol/problem.h"
#include "radcol/simulate.h"

/* Parse "NAME=VALUE" (VALUE a finite number) against the problem's variable
 * names (rc_init_var_index).  opt is the option name used in messages
 * ("--fix", "--guess"). */
rc_err rc_init_parse_assignment(const rc_problem *pb, const char *opt,
                                const char *assignment, int *index,
                                double *value, rc_error *err);

/* Parses "rk4" or "collatz"; fills err naming the value otherwise. */
rc_err rc_sim_method_parse(const char *name, rc_sim_method *m, rc_error *err);

/* Parses a solve --guess value "simulate:METHOD" or "simulate:METHOD:H"
 * (H > 0 the largest step; 0 when not given). Returns RC_ERR_INPUT naming
 * the value if spec does not start with "simulate:" or is malformed. */
rc_err rc_simulate_parse_guess(const char *spec, rc_sim_method *m, double *h,
                               rc_error *err);

#endif
