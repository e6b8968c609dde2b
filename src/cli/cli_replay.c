/*
 * cli/cli_replay.c - `radcol simulate PROBLEM [-f F] --controls FILE.h5
 * [--hold H] [--settle T]`: forward simulation of formulation F driven by
 * the controls of the plan in FILE.h5 (radcol/replay.h), from the plan's
 * initial state, continued T seconds after tf with the controls held at
 * their values at tf; reports how far the replay strays from the plan.
 *
 * Flow (every refusal before the integration, so bad input writes
 * nothing): options -> the plan (cli/plan_file.h) -> model -> parameters:
 * the plan's recorded values when the plan is of the same model, then
 * --set -> formulation: -f, else the plan's when the model is the same,
 * else the model's default -> rc_replay_check (index <= 1) -> output path
 * (never the plan itself) -> rc_replay_run -> rc_replay_solution ->
 * rc_write_result (kind "replay", /diagnostics/replay) -> text or --json.
 * Exit status: 0 done; 1 the integration failed (nothing written); 2 bad
 * input (nothing written); 3 input/output failure.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/args.h"
#include "cli/cli_replay.h"
#include "cli/json.h"
#include "cli/plan_file.h"
#include "cli/report.h"
#include "radcol/io.h"
#include "radcol/replay.h"

static void print_text(const rc_problem *pb, const rc_replay *r,
                       const char *output) {
  printf("%s/%s: replay of %s, controls %s\n", pb->model, pb->formulation,
         r->source,
         r->hold > 0 ? "held (zero-order hold)" : "from the dense output");
  if (r->hold > 0)
    printf("  hold        every %g s from t0 (u = the plan's value at the "
           "start of each period)\n",
           r->hold);
  printf("  horizon     plan [%g, %g]", r->t0, r->tf);
  if (r->settle > 0)
    printf(", then %g s with the controls held at %s", r->settle,
           r->after_rest ? "their rest values (--after rest)"
                         : "their values at tf");
  printf("\n");
  if (pb->nu > 0) {
    printf("  u after tf ");
    for (int i = 0; i < pb->nu; ++i)
      printf(" %s = %.6g", pb->var_names[pb->nx + pb->ny + i], r->u_after[i]);
    printf("\n");
  }
  printf("  integration rk8pd tol %g: %ld steps (%ld rejected), %ld "
         "right-hand sides, Newton <= %d iterations, %.3f s\n",
         r->tol, r->steps, r->failed_steps, r->rhs_evals, r->newton_max,
         r->wall_s);
  printf("  %-11s %-11s %-18s %-11s %s\n", "deviation", "variable",
         "max on [t0, tf]", "at tf",
         r->settle > 0 ? "max |v - plan(tf)| after tf" : "");
  for (int i = 0; i < r->nvar; ++i) {
    const int is_out = i >= pb->nx + pb->ny + pb->nu;
    char name[80];
    snprintf(name, sizeof name, "%s%s", rc_cli_diag_name(pb, i),
             is_out ? " (out)" : "");
    printf("              %-11s %-18.3e %-11.3e", name, r->max_dev[i],
           r->end_err[i]);
    if (r->settle > 0)
      printf(" %.3e", r->settle_dev[i]);
    printf("\n");
  }
  int header = 0;
  for (int i = 0; i < pb->nx + pb->ny + pb->nu; ++i) {
    if (isnan(r->bound_viol[i]))
      continue;
    if (!header++)
      printf("  limits      %-11s %-18s %s\n", "variable", "max violation",
             "bounds");
    printf("              %-11s %-18.3e [%g, %g]\n", pb->var_names[i],
           r->bound_viol[i], pb->w_lo[i], pb->w_hi[i]);
  }
  for (int k = 0; k < r->nc; ++k)
    printf("  %-11s %-11d %-18.3e [%g, %g]\n", k ? "" : "path c", k,
           r->path_viol[k], pb->c_lo[k], pb->c_hi[k]);
  printf("  output      %s\n", output);
}

static void json_figures(rc_json *j, const char *key, const rc_problem *pb,
                         const rc_replay *r, const double *v) {
  rc_json_begin_object(j, key);
  for (int i = 0; i < r->nvar; ++i)
    rc_json_number(j, rc_cli_diag_name(pb, i), v[i]);
  rc_json_end_object(j);
}

static void print_json(const rc_problem *pb, const rc_replay *r,
                       const rc_cli_plan *p, const char *output) {
  rc_json j;
  rc_json_init(&j, stdout);
  rc_json_begin_object(&j, NULL);
  rc_json_string(&j, "problem", pb->model);
  rc_json_string(&j, "formulation", pb->formulation);
  rc_json_string(&j, "kind", "replay");
  rc_json_string(&j, "status", "completed");
  rc_json_string(&j, "controls_file", p->path);
  rc_json_string(&j, "plan_problem", p->problem);
  rc_json_string(&j, "plan_formulation", p->formulation);
  rc_json_string(&j, "controls", r->hold > 0 ? "hold" : "interpolated");
  if (r->hold > 0)
    rc_json_number(&j, "hold", r->hold);
  else
    rc_json_null(&j, "hold");
  rc_json_number(&j, "settle", r->settle);
  rc_json_string(&j, "after", r->after_rest ? "rest" : "plan");
  rc_json_number(&j, "t0", r->t0);
  rc_json_number(&j, "tf", r->tf);
  rc_json_number(&j, "tend", r->tend);
  rc_json_number(&j, "tol", r->tol);
  rc_json_int(&j, "samples", r->nt);
  rc_json_int(&j, "steps", r->steps);
  rc_json_int(&j, "rejected_steps", r->failed_steps);
  rc_json_int(&j, "rhs_evals", r->rhs_evals);
  rc_json_int(&j, "newton_max", r->newton_max);
  rc_json_number(&j, "wall_s", rc_cli_elapsed());
  rc_json_number(&j, "eval_s", r->wall_s);
  rc_json_string(&j, "output", output);
  json_figures(&j, "max_deviation", pb, r, r->max_dev);
  json_figures(&j, "end_error", pb, r, r->end_err);
  json_figures(&j, "settle_drift", pb, r, r->settle_dev);
  rc_json_begin_object(&j, "bound_violation");
  for (int i = 0; i < pb->nx + pb->ny + pb->nu; ++i)
    if (!isnan(r->bound_viol[i]))
      rc_json_number(&j, pb->var_names[i], r->bound_viol[i]);
  rc_json_end_object(&j);
  rc_json_begin_array(&j, "path_violation");
  for (int k = 0; k < r->nc; ++k)
    rc_json_number(&j, NULL, r->path_viol[k]);
  rc_json_end_array(&j);
  rc_json_begin_object(&j, "controls_after_tf");
  for (int i = 0; i < pb->nu; ++i)
    rc_json_number(&j, pb->var_names[pb->nx + pb->ny + i], r->u_after[i]);
  rc_json_end_object(&j);
  rc_json_end_object(&j);
  rc_json_finish(&j);
}

/* The same file (device and inode)? */
static int same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/* Is every control of a a control of b, and the other way round? */
static int same_controls(const rc_problem *a, const rc_problem *b) {
  if (a->nu != b->nu)
    return 0;
  for (int i = 0; i < a->nu; ++i) {
    const char *name = a->var_names[a->nx + a->ny + i];
    int found = 0;
    for (int j = 0; j < b->nu && !found; ++j)
      found = strcmp(name, b->var_names[b->nx + b->ny + j]) == 0;
    if (!found)
      return 0;
  }
  return 1;
}

/* The formulation a plan of this model replays on without -f: its own when
 * the same controls drive it as the model's default formulation (the same
 * inputs to the same machine); otherwise the default formulation, the
 * model's own dynamics.  A plan in a time-scaled path coordinate is driven
 * by the path's highest derivative and keeps the physical controls among
 * its variables (docs/export-replay.md): it replays on the default. */
static const char *replay_formulation(const rc_cli_plan *p,
                                      const rc_model *model) {
  rc_param_values pv;
  char why[256];
  rc_problem *own = rc_cli_plan_problem(p, &pv, why, sizeof why);
  if (!own)
    return p->formulation; /* the set-up below says what is wrong */
  const char *form = p->formulation;
  rc_problem *deflt = NULL;
  rc_error err = {RC_OK, ""};
  if (model->create(model, model->default_formulation, &pv, &deflt, &err) ==
          RC_OK &&
      !same_controls(own, deflt))
    form = model->formulations[model->default_formulation].name;
  rc_problem_free(&deflt);
  rc_problem_free(&own);
  rc_params_free(&pv);
  return form;
}

/* --hold, --settle and --after into opt. */
static int replay_options(const char *cmd, const rc_cli_replay_args *a,
                          rc_replay_options *opt) {
  int status;
  rc_replay_options_default(opt);
  if (a->hold && (status = rc_cli_real(cmd, "--hold", a->hold, 1, &opt->hold)))
    return status;
  if (a->settle) {
    if ((status = rc_cli_real(cmd, "--settle", a->settle, 0, &opt->settle)))
      return status;
    if (!(opt->settle >= 0)) {
      rc_cli_error(cmd, "--settle %s: expected a time >= 0 (seconds after tf)",
                   a->settle);
      return RC_CLI_BAD_INPUT;
    }
  }
  if (a->after && strcmp(a->after, "plan") != 0) {
    if (strcmp(a->after, "rest") != 0) {
      rc_cli_error(cmd, "--after %s: expected plan or rest", a->after);
      return RC_CLI_BAD_INPUT;
    }
    opt->after_rest = 1;
  }
  return RC_CLI_OK;
}

/* The problem that replays plan p: the model named on the command line;
 * its parameters the plan's recorded values when the plan is of the same
 * model, then --set; its formulation -f, else replay_formulation when the
 * model is the same, else the model's default.  *same_model says which. */
static int replay_problem(const char *cmd, const rc_cli_replay_args *a,
                          const rc_cli_plan *p, const rc_model **model,
                          rc_param_values *pv, rc_problem **pb,
                          int *same_model) {
  char **assign = NULL;
  int nassign = 0, f = -1;
  int status = rc_cli_find_model(cmd, a->problem, model);
  if (status)
    return status;
  *same_model = strcmp(p->problem, (*model)->name) == 0;
  if (*same_model &&
      (status = rc_cli_plan_params(cmd, p, *model, &assign, &nassign))) {
    rc_free_strings(assign, nassign);
    return status;
  }
  const char **sets = malloc(sizeof *sets * (size_t)(nassign + a->nsets + 1));
  if (!sets) {
    rc_cli_error(cmd, "out of memory");
    rc_free_strings(assign, nassign);
    return RC_CLI_NO_MEMORY;
  }
  for (int k = 0; k < nassign; ++k)
    sets[k] = assign[k];
  for (int k = 0; k < a->nsets; ++k)
    sets[nassign + k] = a->sets[k];
  const char *form = a->formulation ? a->formulation
                     : *same_model  ? replay_formulation(p, *model)
                                    : NULL;
  /* the plan's recorded input files (a path CSV) with its assignments */
  status = rc_cli_setup_problem_from(
      cmd, (*model)->name, form, nassign + a->nsets, sets,
      *same_model ? p->path : NULL, model, &f, pv, pb);
  rc_free_strings(assign, nassign);
  free(sets);
  return status;
}

/* The statistics the file records for a replay (no NLP). */
static void replay_stats(const rc_replay *r, rc_solve_stats *st) {
  memset(st, 0, sizeof *st);
  st->status = RC_STATUS_NOT_RUN;
  st->eval_s = r->wall_s;
  st->wall_s = rc_cli_elapsed();
  if (r->hold > 0)
    snprintf(st->message, sizeof st->message,
             "replay of %s: controls held every %g s, rk8pd tol %g, %ld "
             "steps (no NLP)",
             r->source, r->hold, r->tol, r->steps);
  else
    snprintf(st->message, sizeof st->message,
             "replay of %s: controls from the dense output, rk8pd tol %g, "
             "%ld steps (no NLP)",
             r->source, r->tol, r->steps);
}

/* ---- a multiphase plan (docs/phases.md): replayed phase by phase -------
 *
 * Phase k is replayed as a one-phase plan (its /phases/<k> group) on the
 * problem replay_problem builds for it (the phase's recorded parameters,
 * -f and --set for every phase), from the end of phase k-1's replay: every
 * state of phase k that phase k-1 has (by name, as the continuity linkage
 * joins them) starts at the replay's value at phase k-1's tf, the others at
 * the plan's.  Only the last phase is continued after its tf (--settle,
 * --after).  The result: a multiphase file whose phases are the replays
 * (kind "replay"), with the plan's absolute starts. */

typedef struct phase_replay {
  rc_cli_plan p;
  const rc_model *model;
  rc_param_values pv;
  rc_problem *pb;
  rc_replay r;
  rc_solution sol;
  int have_sol, carried; /* states started from the previous replay */
  rc_solve_stats st;
  rc_diagnostics d;
} phase_replay;

/* Start phase q's plan at the end of the previous phase's replay. */
static int carry_state(const phase_replay *prev, phase_replay *q) {
  const rc_problem *a = prev->pb, *b = q->pb;
  const int nwa = rc_problem_nw(a);
  const double *wa = prev->r.w + (size_t)prev->r.itf * (size_t)nwa;
  int n = 0;
  for (int i = 0; i < b->nx; ++i)
    for (int j = 0; j < a->nx; ++j)
      if (strcmp(b->var_names[i], a->var_names[j]) == 0)
        for (int v = 0; v < q->p.nw; ++v)
          if (strcmp(q->p.var[v], b->var_names[i]) == 0) {
            q->p.sol.w[v] = wa[j]; /* node 0 of the plan */
            ++n;
            break;
          }
  return n;
}

static void print_phases_text(const rc_phases_info *info, const phase_replay *q,
                              int n, const char *output) {
  printf("replay of %d phases, each from the end of the previous replay "
         "(states of the same name)\n",
         n);
  for (int k = 0; k < n; ++k) {
    const rc_problem *pb = q[k].pb;
    const rc_replay *r = &q[k].r;
    printf("  phase %-8s %s/%s: start %.10g, plan [%g, %g], %d states "
           "carried over, rk8pd %ld steps\n",
           info->names[k], pb->model, pb->formulation, info->start[k], r->t0,
           r->tf, q[k].carried, r->steps);
    printf("    %-11s %-18s %s\n", "variable", "max deviation", "at tf");
    for (int i = 0; i < r->nvar; ++i) {
      const int is_out = i >= pb->nx + pb->ny + pb->nu;
      char name[80];
      snprintf(name, sizeof name, "%s%s", rc_cli_diag_name(pb, i),
               is_out ? " (out)" : "");
      printf("    %-11s %-18.3e %.3e\n", name, r->max_dev[i], r->end_err[i]);
    }
  }
  printf("  output      %s\n", output);
}

static void print_phases_json(const rc_phases_info *info, const phase_replay *q,
                              int n, const char *path, const char *output) {
  rc_json j;
  rc_json_init(&j, stdout);
  rc_json_begin_object(&j, NULL);
  rc_json_string(&j, "kind", "replay");
  rc_json_string(&j, "status", "completed");
  rc_json_string(&j, "controls_file", path);
  rc_json_int(&j, "phases", n);
  rc_json_number(&j, "wall_s", rc_cli_elapsed());
  rc_json_string(&j, "output", output);
  rc_json_begin_array(&j, "phase_list");
  for (int k = 0; k < n; ++k) {
    const rc_replay *r = &q[k].r;
    rc_json_begin_object(&j, NULL);
    rc_json_string(&j, "name", info->names[k]);
    rc_json_string(&j, "problem", q[k].pb->model);
    rc_json_string(&j, "formulation", q[k].pb->formulation);
    rc_json_string(&j, "plan_formulation", q[k].p.formulation);
    rc_json_number(&j, "start", info->start[k]);
    rc_json_number(&j, "t0", r->t0);
    rc_json_number(&j, "tf", r->tf);
    rc_json_number(&j, "tend", r->tend);
    rc_json_int(&j, "carried_states", q[k].carried);
    rc_json_int(&j, "steps", r->steps);
    json_figures(&j, "max_deviation", q[k].pb, r, r->max_dev);
    json_figures(&j, "end_error", q[k].pb, r, r->end_err);
    rc_json_end_object(&j);
  }
  rc_json_end_array(&j);
  rc_json_end_object(&j);
  rc_json_finish(&j);
}

/* The replays of every phase as a multiphase file. */
static int write_phases(const char *cmd, const char *path,
                        const rc_phases_info *info, phase_replay *q, int n,
                        const char *output) {
  rc_phase *phase = calloc((size_t)n, sizeof *phase);
  rc_result_record *rec = calloc((size_t)n, sizeof *rec);
  rc_phases_solution res;
  memset(&res, 0, sizeof res);
  res.nphases = n;
  res.pb = calloc((size_t)n, sizeof *res.pb);
  res.sol = calloc((size_t)n, sizeof *res.sol);
  res.start = info->start;
  res.duration = calloc((size_t)n, sizeof(double));
  res.objective = calloc((size_t)n, sizeof(double));
  res.data_objective = calloc((size_t)n, sizeof(double));
  int status = RC_CLI_OK;
  if (!phase || !rec || !res.pb || !res.sol || !res.duration ||
      !res.objective || !res.data_objective) {
    rc_cli_error(cmd, "out of memory");
    status = RC_CLI_NO_MEMORY;
  }
  for (int k = 0; !status && k < n; ++k) {
    phase[k] = (rc_phase){.name = info->names[k], .pb = q[k].pb};
    res.pb[k] = *q[k].pb;
    res.sol[k] = q[k].sol;
    res.duration[k] = q[k].r.tend - q[k].r.t0;
    res.objective[k] = NAN;
    replay_stats(&q[k].r, &q[k].st);
    memset(&q[k].d, 0, sizeof q[k].d);
    q[k].d.nnodes = q[k].r.nt;
    q[k].d.out_nodes = q[k].r.nout > 0 ? q[k].r.out : NULL;
    rec[k] = rc_cli_record("replay", q[k].model, &q[k].pv, q[k].pb, &q[k].sol,
                           &q[k].st);
    rec[k].diag = &q[k].d;
    rec[k].replay = &q[k].r;
  }
  if (!status) {
    const rc_phases ph = {.name = "replay", .nphases = n, .phase = phase};
    char *cl = rc_cli_command_line();
    const rc_phases_record prec = {.ph = &ph,
                                   .res = &res,
                                   .phase = rec,
                                   .stats = &q[n - 1].st,
                                   .command_line = cl ? cl : "radcol simulate"};
    rc_error err = {RC_OK, ""};
    if (rc_write_phases_result(output, &prec, &err) != RC_OK)
      status = rc_cli_fail(cmd, &err);
    free(cl);
  }
  (void)path;
  free(phase);
  free(rec);
  free(res.pb);
  free(res.sol);
  free(res.duration);
  free(res.objective);
  free(res.data_objective);
  return status;
}

static int replay_phases(const char *cmd, const rc_cli_replay_args *a,
                         const rc_replay_options *opt0,
                         const rc_phases_info *info) {
  const int n = info->n;
  phase_replay *q = calloc((size_t)n, sizeof *q);
  char *output = NULL;
  rc_error err = {RC_OK, ""};
  int status = q ? RC_CLI_OK : RC_CLI_NO_MEMORY;
  if (!q)
    rc_cli_error(cmd, "out of memory");
  for (int k = 0; !status && k < n; ++k) {
    int same = 0;
    if ((status = rc_cli_plan_read_phase(cmd, "--controls", a->controls, k,
                                         &q[k].p)) ||
        (status = replay_problem(cmd, a, &q[k].p, &q[k].model, &q[k].pv,
                                 &q[k].pb, &same)))
      break;
    if (rc_replay_check(q[k].pb, &err) != RC_OK) {
      status = rc_cli_fail(cmd, &err);
      break;
    }
    if (!same) {
      rc_cli_error(cmd,
                   "--controls %s: phase %s is of model %s, the replay of "
                   "%s: expected the plan's model for every phase",
                   a->controls, info->names[k], q[k].p.problem,
                   q[k].model->name);
      status = RC_CLI_BAD_INPUT;
    }
  }
  if (!status &&
      !(status =
            rc_cli_output_path(cmd, a->output, q[0].pb, "-replay", &output)) &&
      same_file(output, a->controls)) {
    rc_cli_error(cmd, "-o %s: is the --controls file: expected another file",
                 output);
    status = RC_CLI_BAD_INPUT;
  }
  for (int k = 0; !status && k < n; ++k) {
    if (k > 0)
      q[k].carried = carry_state(&q[k - 1], &q[k]);
    rc_replay_options opt = *opt0;
    if (k < n - 1)
      opt.settle = 0.0, opt.after_rest = 0; /* the next phase follows */
    if (rc_replay_run(q[k].pb, &q[k].p.sol, (const char *const *)q[k].p.var,
                      q[k].p.nw, &opt, &q[k].r, &err) != RC_OK) {
      char m[RC_MESSAGE_MAX];
      snprintf(m, sizeof m, "%s", err.message);
      rc_error_set(&err, err.code, "phase %s: %s", info->names[k], m);
      status = rc_cli_fail(cmd, &err);
      break;
    }
    snprintf(q[k].r.source, sizeof q[k].r.source, "%s phase %s (%s/%s)",
             a->controls, info->names[k], q[k].p.problem, q[k].p.formulation);
    if (rc_replay_solution(q[k].pb, &q[k].r, &q[k].sol, &err) != RC_OK) {
      status = rc_cli_fail(cmd, &err);
      break;
    }
    q[k].have_sol = 1;
  }
  if (!status)
    status = write_phases(cmd, a->controls, info, q, n, output);
  if (!status) {
    if (a->json)
      print_phases_json(info, q, n, a->controls, output);
    else
      print_phases_text(info, q, n, output);
  }
  for (int k = 0; q && k < n; ++k) {
    if (q[k].have_sol)
      rc_solution_free(&q[k].sol);
    rc_replay_free(&q[k].r);
    rc_problem_free(&q[k].pb);
    rc_params_free(&q[k].pv);
    rc_cli_plan_free(&q[k].p);
  }
  free(q);
  free(output);
  return status;
}

int rc_cli_replay(const char *cmd, const rc_cli_replay_args *a) {
  rc_cli_plan p;
  memset(&p, 0, sizeof p);
  rc_param_values pv;
  memset(&pv, 0, sizeof pv);
  rc_problem *pb = NULL;
  rc_replay r;
  memset(&r, 0, sizeof r);
  rc_solution sol;
  memset(&sol, 0, sizeof sol);
  int have_sol = 0, same_model = 0;
  char *output = NULL;
  rc_error err = {RC_OK, ""};
  const rc_model *model = NULL;
  rc_replay_options opt;

  int status = replay_options(cmd, a, &opt);
  if (!status &&
      !(status = rc_cli_check_input(cmd, "--controls", a->controls))) {
    rc_phases_info info;
    memset(&info, 0, sizeof info);
    if (rc_read_phases_info(a->controls, &info, &err) == RC_OK && info.n > 0) {
      status = replay_phases(cmd, a, &opt, &info);
      rc_phases_info_free(&info);
      return status;
    }
    rc_phases_info_free(&info);
  }
  if (status ||
      (status = rc_cli_plan_read(cmd, "--controls", a->controls, &p)) ||
      (status = replay_problem(cmd, a, &p, &model, &pv, &pb, &same_model)))
    goto done;
  if (rc_replay_check(pb, &err) != RC_OK) {
    status = rc_cli_fail(cmd, &err);
    goto done;
  }
  if ((status = rc_cli_output_path(cmd, a->output, pb, "-replay", &output)))
    goto done;
  if (same_file(output, a->controls)) {
    rc_cli_error(cmd, "-o %s: is the --controls file: expected another file",
                 output);
    status = RC_CLI_BAD_INPUT;
    goto done;
  }
  if (!same_model)
    fprintf(stderr,
            "note: radcol simulate: the plan is of model %s, the replay of "
            "%s: parameters are the defaults and --set\n",
            p.problem, model->name);

  if (rc_replay_run(pb, &p.sol, (const char *const *)p.var, p.nw, &opt, &r,
                    &err) != RC_OK) {
    status = rc_cli_fail(cmd, &err);
    goto done;
  }
  snprintf(r.source, sizeof r.source, "%s (%s/%s)", a->controls, p.problem,
           p.formulation);
  if (rc_replay_solution(pb, &r, &sol, &err) != RC_OK) {
    status = rc_cli_fail(cmd, &err);
    goto done;
  }
  have_sol = 1;
  rc_diagnostics d;
  memset(&d, 0, sizeof d);
  d.nnodes = r.nt;
  d.out_nodes = r.nout > 0 ? r.out : NULL;
  rc_solve_stats st;
  replay_stats(&r, &st);
  rc_result_record rec = rc_cli_record("replay", model, &pv, pb, &sol, &st);
  rec.diag = &d;
  rec.replay = &r;
  if ((status = rc_cli_write(cmd, output, &rec)))
    goto done;
  if (a->json)
    print_json(pb, &r, &p, output);
  else
    print_text(pb, &r, output);

done:
  if (have_sol)
    rc_solution_free(&sol);
  rc_replay_free(&r);
  rc_problem_free(&pb);
  rc_params_free(&pv);
  rc_cli_plan_free(&p);
  free(output);
  return status;
}
