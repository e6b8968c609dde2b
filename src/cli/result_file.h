/*
 * cli/result_file.h - the HDF5 result that solve, simulate, init and the
 * replay write, in one sequence:
 *   output path (-o, or results/<problem>-<formulation><suffix>.h5), checked
 *   before any work -> diagnostics of the result (rc_diagnose, optionally
 *   rc_dense_check; a failure is a warning and the result is still written)
 *   -> the record (rc_cli_record: what every kind holds) -> the atomic write
 *   with this process's command line (rc_cli_write).
 */
#ifndef RADCOL_CLI_RESULT_FILE_H
#define RADCOL_CLI_RESULT_FILE_H

#include "radcol/dense_check.h"
#include "radcol/io.h"
#include "radcol/solve.h"

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

#endif
