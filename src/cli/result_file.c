/*
 * cli/result_file.c - the output path, diagnostics, record and write that
 * every command writing a result shares (see result_file.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/result_file.h"

int rc_cli_output_path(const char *cmd, const char *given, const rc_problem *pb,
                       const char *suffix, char **path) {
  const char *fmt = "results/%s-%s%s.h5";
  const int len =
      given ? (int)strlen(given)
            : snprintf(NULL, 0, fmt, pb->model, pb->formulation, suffix);
  *path = len >= 0 ? malloc((size_t)len + 1) : NULL;
  if (!*path) {
    rc_cli_error(cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  if (given)
    memcpy(*path, given, (size_t)len + 1);
  else
    snprintf(*path, (size_t)len + 1, fmt, pb->model, pb->formulation, suffix);
  return rc_cli_check_output(cmd, *path, given == NULL);
}

void rc_cli_diagnose(const char *cmd, const rc_problem *pb,
                     const rc_solution *sol, int dense_per_element,
                     int check_dense, rc_cli_diag *d) {
  rc_error err = {RC_OK, ""};
  memset(d, 0, sizeof *d);
  if (rc_diagnose(pb, sol, dense_per_element, &d->diag, &err) == RC_OK)
    d->have_diag = 1;
  else
    fprintf(stderr, "warning: radcol %s: diagnostics failed: %s\n", cmd,
            err.message);
  rc_error_clear(&err);
  if (!check_dense)
    return;
  if (rc_dense_check(pb, sol, dense_per_element, &d->dense, &err) == RC_OK)
    d->have_dense = 1;
  else
    fprintf(stderr, "warning: radcol %s: dense-grid check failed: %s\n", cmd,
            err.message);
}

void rc_cli_diag_free(rc_cli_diag *d) {
  if (d->have_diag)
    rc_diagnostics_free(&d->diag);
  if (d->have_dense)
    rc_dense_violation_free(&d->dense);
  d->have_diag = d->have_dense = 0;
}

rc_result_record rc_cli_record(const char *kind, const rc_model *model,
                               const rc_param_values *pv, const rc_problem *pb,
                               const rc_solution *sol,
                               const rc_solve_stats *st) {
  rc_result_record rec;
  memset(&rec, 0, sizeof rec);
  rec.kind = kind;
  rec.model = model;
  rec.params = pv;
  rec.pb = pb;
  rec.sol = sol;
  rec.stats = st;
  return rec;
}

int rc_cli_write(const char *cmd, const char *path, rc_result_record *rec) {
  char fallback[64];
  char *cmdline = rc_cli_command_line();
  snprintf(fallback, sizeof fallback, "radcol %s", cmd);
  rec->command_line = cmdline ? cmdline : fallback;
  rc_error err = {RC_OK, ""};
  int status = RC_CLI_OK;
  if (rc_write_result(path, rec, &err) != RC_OK)
    status = rc_cli_fail(cmd, &err); /* 2, 3 or 4: nothing written */
  rec->command_line = NULL;
  free(cmdline);
  return status;
}
