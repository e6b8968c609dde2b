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

/* Whether argv (argv[0] = the command) asks for a job file (--job). */
int rc_cli_has_job(int argc, char **argv);

/* `radcol solve --job FILE.json [options]`; returns the exit status. */
int rc_cli_job_solve(int argc, char **argv);

/* `radcol check --job FILE.json [--points N] [--seed S] [--json]`. */
int rc_cli_job_check(int argc, char **argv);

#endif
