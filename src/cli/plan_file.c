/*
 * cli/plan_file.c - a result file read back as a plan (see plan_file.h).
 *
 * The problem is rebuilt, not trusted: model and formulation come from the
 * root attributes, parameter values from the /problem attributes
 * (rc_read_param_assignments), and the rebuilt problem must carry exactly
 * the variable and output names the file records, so derived outputs
 * evaluated on the file's solution are the ones the file was written with.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/args.h"
#include "cli/plan_file.h"
#include "radcol/io.h"

int rc_cli_plan_read(const char *cmd, const char *opt, const char *path,
                     rc_cli_plan *p) {
  return rc_cli_plan_read_phase(cmd, opt, path, -1, p);
}

int rc_cli_plan_read_phase(const char *cmd, const char *opt, const char *path,
                           int phase, rc_cli_plan *p) {
  memset(p, 0, sizeof *p);
  p->path = path;
  p->phase = phase;
  int status = rc_cli_check_input(cmd, opt, path);
  if (status)
    return status;
  rc_error err = {RC_OK, ""};
  const rc_err rc =
      phase < 0
          ? rc_read_solution(path, &p->sol, p->problem, p->formulation, &err)
          : rc_read_phase_solution(path, phase, &p->sol, p->problem,
                                   p->formulation, &err);
  if (rc != RC_OK ||
      (phase < 0 ? rc_read_names(path, &p->var, &p->nw, &p->out, &p->nout, &err)
                 : rc_read_phase_names(path, phase, &p->var, &p->nw, &p->out,
                                       &p->nout, &err)) != RC_OK) {
    rc_cli_plan_free(p);
    return rc_cli_fail(cmd, &err);
  }
  return RC_CLI_OK;
}

void rc_cli_plan_free(rc_cli_plan *p) {
  if (!p)
    return;
  rc_solution_free(&p->sol);
  rc_free_strings(p->var, p->nw);
  rc_free_strings(p->out, p->nout);
  memset(p, 0, sizeof *p);
}

const rc_model *rc_cli_plan_model(const char *name) {
  for (const rc_model *const *m = rc_cli_models(); *m; ++m)
    if (strcmp((*m)->name, name) == 0)
      return *m;
  return NULL;
}

int rc_cli_plan_params(const char *cmd, const rc_cli_plan *p,
                       const rc_model *model, char ***assign, int *n) {
  rc_error err = {RC_OK, ""};
  if ((p->phase < 0 ? rc_read_param_assignments(p->path, model, assign, n, &err)
                    : rc_read_phase_param_assignments(
                          p->path, p->phase, model, assign, n, &err)) != RC_OK)
    return rc_cli_fail(cmd, &err);
  return RC_CLI_OK;
}

rc_problem *rc_cli_plan_problem(const rc_cli_plan *p, rc_param_values *pv,
                                char *why, size_t size) {
  memset(pv, 0, sizeof *pv);
  const rc_model *model = rc_cli_plan_model(p->problem);
  if (!model) {
    snprintf(why, size,
             "model '%s' is not loaded (a plugin's model needs --plugin)",
             p->problem);
    return NULL;
  }
  const int f = rc_model_find_formulation(model, p->formulation);
  if (f < 0) {
    snprintf(why, size, "%s has no formulation '%s'", model->name,
             p->formulation);
    return NULL;
  }
  rc_error err = {RC_OK, ""};
  char **assign = NULL;
  int n = 0;
  rc_problem *pb = NULL;
  rc_err rc = p->phase < 0
                  ? rc_read_param_assignments(p->path, model, &assign, &n, &err)
                  : rc_read_phase_param_assignments(p->path, p->phase, model,
                                                    &assign, &n, &err);
  if (rc == RC_OK)
    rc = rc_params_init_defaults(model, pv, &err);
  for (int k = 0; k < n && rc == RC_OK; ++k)
    rc = rc_params_set(model, pv, assign[k], &err);
  rc_free_strings(assign, n);
  /* the input files the result file stores (a path CSV), not the names */
  if (rc == RC_OK)
    rc = rc_read_param_files(p->path, model, pv, &err);
  /* A model without a tf parameter gets the file's horizon (the engine's,
   * rc_model_create). */
  const double tf = rc_model_param_index(model, "tf") < 0 ? p->sol.tf : NAN;
  if (rc == RC_OK)
    rc = rc_model_create(model, f, pv, tf, &pb, &err);
  if (rc != RC_OK || !pb) {
    snprintf(why, size, "%s/%s cannot be rebuilt from the file: %s",
             model->name, p->formulation,
             err.message[0] ? err.message : "no problem");
    rc_problem_free(&pb);
    rc_params_free(pv);
    return NULL;
  }
  int same = rc_problem_nw(pb) == p->nw && pb->nout == p->nout;
  for (int i = 0; same && i < p->nw; ++i)
    same = strcmp(pb->var_names[i], p->var[i]) == 0;
  for (int i = 0; same && i < p->nout; ++i)
    same = pb->out_names && strcmp(pb->out_names[i], p->out[i]) == 0;
  if (!same) {
    snprintf(why, size,
             "%s/%s rebuilt from the file has other variables or outputs "
             "than the file records (written by another version?)",
             model->name, p->formulation);
    rc_problem_free(&pb);
    rc_params_free(pv);
    return NULL;
  }
  return pb;
}
