/*
 * cli/cli_job.h - job files: a multiphase problem for the command line, in
 * JSON (docs/phases.md, "The job file"), read with jansson.
 *
 * `radcol solve --job FILE.json` solves it (cli_solve.c hands the command
 * line over when it sees --job); `radcol check --job FILE.json` checks the
 * derivatives of every phase, of the linkage rows and of the assembled NLP.
 * A model whose formulation is multiphase (rc_model.create_phases) is solved
 * and checked the same way from `radcol solve MODEL -f F`.
 */
#ifndef RADCOL_CLI_JOB_H
#define RADCOL_CLI_JOB_H

#include "cli/args.h"
#include "cli/json.h"
#include "radcol/check.h"
#include "radcol/phases.h"
#include "radcol/problem.h"

/* The options of a multiphase solve (radcol solve --job, or a model's
 * multiphase formulation from radcol solve MODEL -f F). */
typedef struct rc_cli_job_args {
  const char *job, *output;
  int json, quiet;
  double tol;
  long max_iter, max_refinements;
  int have_tol, have_max_iter, have_refine, have_max_refinements;
  double refine_tol, error_tol;
  int have_error_tol, estimate; /* rc_estimate_kind */
  rc_cli_list ipopt;
  /* > 0: the accuracy rule's binding verdict against this tolerance on
   * every phase (a built-in multiphase formulation solved with no mesh
   * option, as `radcol solve` without one: exit 0 only when every phase's
   * global estimate and dense-grid check meet it; a local estimate verifies
   * nothing).  0: the job file's rule (dense grid 1e-2, or --error-tol). */
  double accuracy;
} rc_cli_job_args;

/* Formulation f of model as phases (rc_model.create_phases): 1 with *ph
 * set (validated; free with rc_phases_free) when it is multiphase, 0 when
 * it is one phase, else the exit status after printing why. */
int rc_cli_model_phases(const char *cmd, const rc_model *model, int f,
                        const rc_param_values *pv, rc_phases **ph);

/* Solve the phases a model built (ph is taken over and freed), every phase
 * on n x s elements (0: its problem's suggestion); returns the exit
 * status. */
int rc_cli_model_phases_solve(const char *cmd, const rc_model *model,
                              rc_phases *ph, const rc_cli_job_args *a, long n,
                              long s);

/* radcol check of a model's multiphase formulation (ph taken over and
 * freed): every phase and the assembled NLP, as text, or as members of the
 * open JSON object js.  Returns 0 pass, 1 fail, else the exit status. */
int rc_cli_model_phases_check(const char *cmd, const rc_model *model, int f,
                              rc_phases *ph, const rc_check_options *co,
                              rc_json *js);

/* Whether argv (argv[0] = the command) asks for a job file (--job). */
int rc_cli_has_job(int argc, char **argv);

/* `radcol solve --job FILE.json [options]`; returns the exit status. */
int rc_cli_job_solve(int argc, char **argv);

/* `radcol check --job FILE.json [--points N] [--seed S] [--json]`. */
int rc_cli_job_check(int argc, char **argv);

#endif
