/*
 * report.h - the diagnostics part of command output, shared by `solve` and
 * `simulate`: reference errors per variable or derived output and hidden-
 * constraint residuals, as JSON members or as text lines.
 */
#ifndef RADCOL_CLI_REPORT_H
#define RADCOL_CLI_REPORT_H

#include "cli/json.h"
#include "radcol/solve.h"

/* Name of diagnostics entry i: a variable (i < nx+ny+nu) or a derived output. */
const char *rc_cli_diag_name(const rc_problem *pb, int i);

/* "max_error": {"<var>": {"nodes", "dense", "ends"}} (absent without a
 * reference) and "invariants": {"<name>": {"nodes", "dense"}}. */
void rc_cli_json_diagnostics(rc_json *j, const rc_problem *pb,
                             const rc_diagnostics *d);

/* The text lines "max error ..." and "invariants ..."; node_label names the
 * node column ("nodes" for solve, "steps" for simulate). */
void rc_cli_print_diagnostics(const rc_problem *pb, const rc_diagnostics *d,
                              const char *node_label);

#endif
