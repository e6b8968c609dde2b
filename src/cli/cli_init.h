/*
 * cli/cli_init.h - what `radcol solve` borrows from `radcol init`.
 */
#ifndef RADCOL_CLI_INIT_H
#define RADCOL_CLI_INIT_H

#include "radcol/params.h"
#include "radcol/problem.h"

/* Before a solve: check the problem's fixed initial values against its
 * hidden constraints and algebraic equations (rc_init_check_start,
 * feasibility 1e-10).  When they are inconsistent and a consistent point
 * exists, print a warning naming the moved values and start *pb from it
 * (rc_init_apply_start: *pb and *pv are replaced).  Returns 0, or an exit
 * status (the problem and values are then freed). */
int rc_cli_init_for_solve(const char *cmd, const rc_model *model,
                          int formulation, rc_param_values *pv, rc_problem **pb,
                          int quiet);

#endif
