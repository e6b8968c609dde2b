/*
 * report.h - the diagnostics part of command output, shared by `solve` and
 * `simulate`: reference errors per variable or derived output and hidden-
 * constraint residuals, as JSON members or as text lines; and the HDF5
 * result that solve, simulate, init and the replay write, in one sequence:
 *   output path (-o, or results/<problem>-<formulation><suffix>.h5), checked
 *   before any work -> diagnostics of the result (rc_diagnose, optionally
 *   rc_dense_check; a failure is a warning and the result is still written)
 *   -> the record (rc_cli_record: what every kind holds) -> the atomic write
 *   with this process's command line (rc_cli_write).
 */
#ifndef RADCOL_CLI_REPORT_H
#define RADCOL_CLI_REPORT_H

#include "cli/json.h"
#include "radcol/dense_check.h"
#include "radcol/estimate.h"
#include "radcol/io.h"
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

/* "met", "above" or "not_verified" for rc_accuracy.met = 1, 0, -1. */
const char *rc_cli_verdict_word(int met);

/* "accuracy": {"mode", "tolerance", "binding", "verdict", "estimate",
 * "estimate_max", "dense_worst", "solver_status"} (docs/json.md); the
 * solver status is named as shown (a sampled reference's not_run is
 * "converged"). */
void rc_cli_json_accuracy(rc_json *j, const rc_problem *pb,
                          const rc_accuracy *acc);

/* The text line "accuracy ...": verdict, tolerance, mode, binding. */
void rc_cli_print_accuracy(const rc_accuracy *acc);

/* ---- The result file ---- */

/* *path = a copy of given, or when given is NULL the default
 * results/<model>-<formulation><suffix>.h5 (results/ is created when
 * missing); then rc_cli_check_output.  *path is the caller's to free (also
 * on failure).  Returns 0 or the exit status after printing why. */
int rc_cli_output_path(const char *cmd, const char *given, const rc_problem *pb,
                       const char *suffix, char **path);

/* The diagnostics written with a result and shown in the summary. */
typedef struct rc_cli_diag {
  rc_diagnostics diag;      /* reference errors, invariants (rc_diagnose) */
  rc_dense_violation dense; /* constraints on the dense grid */
  int have_diag, have_dense;
} rc_cli_diag;

/* rc_diagnose with dense_per_element points per element and, when
 * check_dense, rc_dense_check.  A failure prints "warning: radcol CMD: ...
 * failed: why" and leaves that part out (have_* = 0). */
void rc_cli_diagnose(const char *cmd, const rc_problem *pb,
                     const rc_solution *sol, int dense_per_element,
                     int check_dense, rc_cli_diag *d);
void rc_cli_diag_free(rc_cli_diag *d);

/* A record of kind ("solve", "simulate", "init", "replay") holding the
 * model, parameter values, problem, solution and statistics (borrowed);
 * every other member empty, for the caller to add. */
rc_result_record rc_cli_record(const char *kind, const rc_model *model,
                               const rc_param_values *pv, const rc_problem *pb,
                               const rc_solution *sol,
                               const rc_solve_stats *st);

/* rc_write_result(path, rec) with rec->command_line this process's command
 * line ("radcol CMD" when out of memory).  Returns 0, or the exit status
 * after printing why (2, 3 or 4: nothing written). */
int rc_cli_write(const char *cmd, const char *path, rc_result_record *rec);

/* Ipopt's progress on stderr (rc_options.progress, ctx a rc_cli_progress
 * zeroed before the solve): every 10th iteration, or when 0.5 s passed since
 * the last line. */
typedef struct rc_cli_progress {
  double last_t;
  int printed;
} rc_cli_progress;
void rc_cli_ipopt_progress(void *ctx, int iter, double objective, double inf_pr,
                           double inf_du);

#endif
