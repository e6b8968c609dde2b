/*
 * parse.h - the parsers of radcol's text forms (private to radcol: the
 * library, the CLI, tests and fuzz harnesses use them; not an installed
 * header).  A library user passes typed values (rc_options, rc_init_solve's
 * arrays, rc_sim_method, rc_params_set_real); these turn the command line's
 * words into them.
 *
 * One rule for numbers, reals and integers alike: decimal only.  The whole
 * string is one decimal number [+-]digits[.digits][(e|E)[+-]digits] (also .5
 * and 5.) with magnitude <= RC_REAL_MAX_ABS (radcol/params.h): no blanks, no
 * hexadecimal, no NaN or infinity; a value that underflows to a tiny or zero
 * double is accepted.
 */
#ifndef RADCOL_PARSE_H
#define RADCOL_PARSE_H

#include "radcol/errors.h"
#include "radcol/problem.h"
#include "radcol/simulate.h"

/* A real by the rule above.  Returns 1 on success (and stores *out), 0
 * otherwise (*out untouched). */
int rc_parse_real(const char *s, double *out);

/* The whole string is a decimal integer in [lo, hi] ([+-]digits, no blanks,
 * no hexadecimal).  Returns 1 or 0. */
int rc_parse_int(const char *s, long lo, long hi, long *out);

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
