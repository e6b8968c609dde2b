/*
 * cli/cli_replay.h - `radcol simulate PROBLEM --controls FILE.h5`: replay of
 * a plan's controls (radcol/replay.h), run from cli_simulate.c.
 */
#ifndef RADCOL_CLI_REPLAY_H
#define RADCOL_CLI_REPLAY_H

typedef struct rc_cli_replay_args {
  const char *problem, *formulation; /* formulation may be NULL */
  const char *controls;              /* the plan file */
  const char *hold, *settle;         /* option values or NULL */
  const char *output;                /* NULL: the default path */
  int json;
  int nsets;
  const char *const *sets; /* --set NAME=VALUE, in order */
  const char *after;       /* --after plan|rest, or NULL (plan) */
} rc_cli_replay_args;

/* Runs the replay; messages printed; returns the exit status. */
int rc_cli_replay(const char *cmd, const rc_cli_replay_args *a);

#endif
