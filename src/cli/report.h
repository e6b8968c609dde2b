/*
 * report.h - the diagnostics part of command output, shared by `solve` and
 * `simulate`: reference errors per variable or derived output and hidden-
 * constraint residuals, as JSON members or as text lines.
 */
#ifndef RADCOL_CLI_REPORT_H
#define RADCOL_CLI_REPORT_H

#include "cli/json.h"
#include "radcol/estimate.h"
#include "radcol/solve.h"

/* Name of diagnostics entry i: a variable (i < nx+ny+nu) or a derived output.
 */
const char *rc_cli_diag_name(const rc_problem *pb, int i);

/* "max_error": {"<var>": {"nodes", "dense", "ends"}} (absent without a
 * reference) and "invariants": {"<name>": {"nodes", "dense"}}. */
void rc_cli_json_diagnostics(rc_json *j, const rc_problem *pb,
                             const rc_diagnostics *d);

/* The text lines "max error ..." and "invariants ..."; node_label names the
 * node column ("nodes" for solve, "steps" for simulate). */
void rc_cli_print_diagnostics(const rc_problem *pb, const rc_diagnostics *d,
                              const char *node_label);

/* "error_estimate": {"kind", "max", "local_max", "note", "enriched_status",
 * "enriched_iterations", "variables": {"<var>": {"max", "scale",
 * "relative"}}, "elements": [relative max per element]} (docs/json.md). */
void rc_cli_json_estimate(rc_json *j, const rc_problem *pb,
                          const rc_error_estimate *e);

/* The text lines "estimate ..." (kind, max, per variable). */
void rc_cli_print_estimate(const rc_problem *pb, const rc_error_estimate *e);

/* Names of the variables whose relative estimate exceeds tol, comma
 * separated, into buf (empty if none). */
void rc_cli_estimate_above(const rc_problem *pb, const rc_error_estimate *e,
                           double tol, char *buf, size_t size);

#endif
