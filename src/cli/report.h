/*
 * report.h - the diagnostics part of command output, shared by `solve` and
 * `simulate`: reference errors per variable or derived output and hidden-
 * constraint residuals, as JSON members or as text lines.
 */
#ifndef RADCOL_CLI_REPORT_H
#define RADCOL_CLI_REPORT_H

#include "cli/json.h"
#include "radcol/dense_check.h"
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

/* Relative dense-grid violation above which the CLI warns. */
#define RC_CLI_DENSE_WARN 1e-6
/* Relative dense-grid violation of an imposed constraint above which a
 * solve without --error-tol is `inaccurate` (exit 1), not converged. */
#define RC_CLI_DENSE_INACCURATE 1e-2

/* "dense_violation": {"<name>": {"kind", "max", "time", "relative"}} for
 * every constraint checked (radcol/dense_check.h), then
 * "dense_violation_worst": the largest relative violation of an imposed
 * constraint (bounds, algebraic equations, path constraints).  dv may be
 * NULL (then an empty object and null). */
void rc_cli_json_dense(rc_json *j, const rc_dense_violation *dv);

/* The text line(s) "dense grid ...": the worst violations (at most 3 above
 * RC_CLI_DENSE_WARN), or that none is above it. */
void rc_cli_print_dense(const rc_dense_violation *dv);

/* One stderr warning line per imposed constraint violated by more than
 * RC_CLI_DENSE_WARN relative on the dense grid (at most 5, worst first). */
void rc_cli_warn_dense(const char *cmd, const rc_problem *pb,
                       const rc_dense_violation *dv);
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
