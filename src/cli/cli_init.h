/*
 * cli/cli_init.h - what `radcol solve` borrows from `radcol init`.
 */
#ifndef RADCOL_CLI_INIT_H
#define RADCOL_CLI_INIT_H

#include "radcol/problem.h"

/* Before a solve: check the problem's fixed initial values against its
 * hidden constraints and algebraic equations (rc_init_check_start,
 * feasibility 1e-10).  When they are inconsistent and a consistent point
 * exists, print a warning naming the moved values and restart *pb there
 * (rc_problem_restart): *pb becomes the restarted problem and *given the
 * problem as given, which the restarted one may borrow from - free *given
 * after *pb (NULL when nothing moved).  Returns 0, or an exit status (the
 * problem is then freed). */
int rc_cli_init_for_solve(const char *cmd, rc_problem **pb, rc_problem **given,
                          int quiet);

#endif
