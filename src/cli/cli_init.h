/*
 * cli/cli_init.h - what `radcol solve` borrows from `radcol init`.
 */
#ifndef RADCOL_CLI_INIT_H
#define RADCOL_CLI_INIT_H

#include "radcol/params.h"
#include "radcol/problem.h"

/* Check the problem's fixed initial values against its hidden constraints
 * and algebraic equations (rc_make_consistent, feasibility 1e-10).  When they
 * are inconsistent and a consistent point exists, print a warning naming the
 * moved values and rebuild *pb and *pv with --set NAME0=VALUE for each moved
 * differential state (every model exposes initial values as parameters
 * named after the variable with a 0 suffix).  sets/nsets are the user's
 * --set list (the new assignments go after them).  Returns 0, or an exit
 * status (the problem is then freed). */
int rc_cli_init_for_solve(const char *cmd, const rc_model *model,
                          int formulation, int nsets, const char *const *sets,
                          rc_param_values *pv, rc_problem **pb, int quiet);

#endif
