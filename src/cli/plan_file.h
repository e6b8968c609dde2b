/*
 * cli/plan_file.h - a result file read back as a plan, for `radcol export`
 * and `radcol simulate --controls`: the solution, the names it records, and
 * the problem that wrote it rebuilt from the recorded model, formulation
 * and parameter values.
 */
#ifndef RADCOL_CLI_PLAN_FILE_H
#define RADCOL_CLI_PLAN_FILE_H

#include "radcol/params.h"
#include "radcol/problem.h"
#include "radcol/result.h"

typedef struct rc_cli_plan {
  const char *path;
  int phase; /* phase of a multiphase file, or -1 (a one-phase file) */
  rc_solution sol;
  char problem[64], formulation[64]; /* root attributes */
  char **var;                        /* nw variable names, order of w */
  int nw;
  char **out; /* nout derived output names */
  int nout;
} rc_cli_plan;

/* Reads path (the value of option opt, may be NULL) as a plan.  Messages
 * printed; returns 0, 2 (not a radcol result file, wrong content) or 3
 * (missing or unreadable). */
int rc_cli_plan_read(const char *cmd, const char *opt, const char *path,
                     rc_cli_plan *p);
void rc_cli_plan_free(rc_cli_plan *p);
/* Phase `phase` of a multiphase file as a plan (the same reads on the
 * phase's group, radcol/io.h). */
int rc_cli_plan_read_phase(const char *cmd, const char *opt, const char *path,
                           int phase, rc_cli_plan *p);

/* The model called name among the loaded plugins and the built-in ones, or
 * NULL (nothing printed). */
const rc_model *rc_cli_plan_model(const char *name);

/* The "NAME=VALUE" parameter assignments the plan records for model (those
 * that differ from its defaults): *assign (owned, rc_free_strings) and *n.
 * Messages printed; returns 0, 2 or 3. */
int rc_cli_plan_params(const char *cmd, const rc_cli_plan *p,
                       const rc_model *model, char ***assign, int *n);

/* The problem that wrote the plan, rebuilt (model and formulation from the
 * file, parameters from the file), if its model is loaded and the rebuilt
 * problem has the plan's variable and output names.  Returns NULL and
 * writes the reason into why (size bytes) otherwise; prints nothing.  *pv
 * is owned by the caller when a problem is returned. */
rc_problem *rc_cli_plan_problem(const rc_cli_plan *p, rc_param_values *pv,
                                char *why, size_t size);

#endif
