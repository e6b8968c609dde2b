/*
 * cli/cli_simulate.c - `radcol simulate`: explicit fixed-step integration
 * (Collatz explicit midpoint or classical RK4, radcol/simulate.h) of a
 * formulation without algebraic variables or controls, diagnosed against
 * the problem's reference and written to HDF5 with kind "simulate".
 *
 * Flow (every refusal comes before the integration, so bad input writes
 * nothing; the writer is atomic):
 *   arguments -> model -> formulation -> parameters (defaults, then --set
 *   and --tf in command-line order) -> model->create -> rc_simulate_check
 *   (ny = nu = 0) -> rc_simulate_plan (step) -> output path -> rc_simulate
 *   -> rc_diagnose -> rc_write_result -> summary (text or --json).
 * The file's mesh is the steps (one 1-stage element per step), so its nodes
 * are the step points; its status is "not_run" (no NLP), --json says
 * "completed".  Diagnostics use 2 dense points per step (the midpoint: the
 * dense output of a 1-stage element is linear interpolation), 1 (the step
 * points only) above RC_SIM_CLI_DENSE_MAX steps.
 * Exit status: 0 done, 1 the integration failed (f could not be evaluated
 * or the state diverged; nothing written), 2 bad input, 3 I/O.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli_replay.h"
#include "cli/forms.h"
#include "cli/json.h"
#include "cli/report.h"
#include "radcol/io.h"
#include "radcol/simulate.h"
#include "radcol/solve.h"

#define RC_SIM_CLI_DENSE_MAX 1000000L

static const char usage[] =
    "usage: radcol simulate PROBLEM [-f FORMULATION] --method rk4|collatz\n"
    "                       --step H [--tf T] [--set NAME=VALUE]...\n"
    "                       [-o FILE.h5] [--json]\n"
    "       radcol simulate PROBLEM [-f FORMULATION] --controls FILE.h5\n"
    "                       [--hold H] [--settle T] [--after plan|rest]\n"
    "                       [--set NAME=VALUE]... [-o FILE.h5] [--json]\n\n"
    "Integrate a formulation without algebraic variables or controls (an\n"
    "ODE; any other is refused, naming why) with an explicit\n"
    "fixed-step method, measure errors against the problem's reference and\n"
    "write an HDF5 file whose mesh is the steps.\n\n"
    "With --controls: replay a computed plan. The formulation (index 0 or\n"
    "1) is integrated by rk8pd (tolerance 1e-10) from the plan's initial\n"
    "state, driven by the plan's controls, and continued after tf with the\n"
    "controls held at their values at tf; the algebraic variables solve\n"
    "0 = g by Newton. Reports per variable and derived output the largest\n"
    "deviation from the plan, the error at tf and the largest drift after\n"
    "tf (docs/export-replay.md).\n\n"
    "Options:\n"
    "  -f, --formulation F  formulation (radcol list); default: the problem's\n"
    "                       default formulation (refused if it has algebraic\n"
    "                       variables or controls)\n"
    "  --method M           rk4 (classical, order 4) or collatz (explicit\n"
    "                       midpoint as in seeds/001, order 2); required\n"
    "  --step H             step > 0; if H does not divide the horizon the\n"
    "                       last step is shortened; at most 1e7 steps; "
    "required\n"
    "  --tf T               final time of any problem, same as --set tf=T;\n"
    "                       default: the problem's own\n"
    "  --set NAME=VALUE     set a parameter (radcol list --params PROBLEM),\n"
    "                       repeatable, applied in order; default: none\n"
    "  --controls FILE.h5   replay the plan in FILE.h5 (a radcol result\n"
    "                       file); its parameter values are used when it\n"
    "                       is of the same PROBLEM (--set overrides them),\n"
    "                       and -f defaults to its formulation\n"
    "  --hold H             with --controls: hold each control for H > 0\n"
    "                       seconds (zero-order hold, like a PLC); default:\n"
    "                       the plan's dense output\n"
    "  --settle T           with --controls: seconds simulated after tf\n"
    "                       (>= 0); default: the plan's tf - t0\n"
    "  --after plan|rest    with --controls: controls after tf: the plan's\n"
    "                       at tf, or rest (those holding the plan's end\n"
    "                       state in equilibrium); default: plan\n"
    "  -o, --output FILE.h5 result file; default:\n"
    "                       results/<problem>-<formulation>-<method>.h5\n"
    "                       (--controls: ...-replay.h5)\n"
    "                       (results/ is created if missing)\n"
    "  --json               print one JSON object on stdout; default: text\n"
    "  -h, --help           print this help\n\n"
    "Exit status: 0 ok; 1 the integration failed (nothing written);\n"
    "             2 bad input (nothing written); 3 input/output failure.\n";

typedef struct sim_args {
  const char *problem, *formulation, *method, *step, *output, *tf_value;
  const char *controls, *hold, *settle; /* replay (cli_replay.c) */
  const char *after;                    /* replay: --after plan|rest */
  int json;
  rc_cli_list sets; /* --set and --tf, in order */
} sim_args;

/* The options (rc_cli_parse), then what they exclude and require. */
static int parse_args(const char *cmd, int argc, char **argv, sim_args *a) {
  const rc_cli_option opts[] = {
      {"--json", NULL, RC_CLI_FLAG, .dest = &a->json},
      {"-f", "--formulation", RC_CLI_TEXT, .dest = &a->formulation},
      {"--method", NULL, RC_CLI_TEXT, .dest = &a->method},
      {"--step", NULL, RC_CLI_TEXT, .dest = &a->step},
      {"--controls", NULL, RC_CLI_TEXT, .dest = &a->controls},
      {"--hold", NULL, RC_CLI_TEXT, .dest = &a->hold},
      {"--settle", NULL, RC_CLI_TEXT, .dest = &a->settle},
      {"--after", NULL, RC_CLI_TEXT, .dest = &a->after},
      {"--tf", NULL, RC_CLI_TF, .dest = &a->sets, .text = &a->tf_value},
      {"--set", NULL, RC_CLI_LIST, .dest = &a->sets},
      {"-o", "--output", RC_CLI_TEXT, .dest = &a->output},
      {NULL}};
  const rc_cli_syntax syntax = {
      usage, opts, &a->problem,
      "missing PROBLEM (see radcol list and radcol simulate --help)"};
  int st = rc_cli_parse(cmd, argc, argv, &syntax);
  if (st)
    return st;
  if (a->controls && (a->method || a->step || a->tf_value)) {
    rc_cli_error(cmd,
                 "%s with --controls: a replay integrates by rk8pd over "
                 "the plan's horizon (expected no --method, --step or "
                 "--tf)",
                 a->method ? "--method"
                 : a->step ? "--step"
                           : "--tf");
    return RC_CLI_BAD_INPUT;
  }
  if (!a->controls && (a->hold || a->settle || a->after)) {
    rc_cli_error(cmd,
                 "%s without --controls: expected --controls FILE.h5 "
                 "(they set up a replay)",
                 a->hold     ? "--hold"
                 : a->settle ? "--settle"
                             : "--after");
    return RC_CLI_BAD_INPUT;
  }
  if (a->controls)
    return RC_CLI_OK;
  if (!a->method) {
    rc_cli_error(cmd, "missing --method: expected rk4 or collatz");
    return RC_CLI_BAD_INPUT;
  }
  if (!a->step) {
    rc_cli_error(cmd, "missing --step H: expected a step > 0");
    return RC_CLI_BAD_INPUT;
  }
  return RC_CLI_OK;
}

/* Refusal of a formulation with algebraic variables or controls, listing
 * the model's formulations that can be simulated (built with pv). */
static int refuse_formulation(const char *cmd, const rc_model *model,
                              const rc_param_values *pv, const rc_error *why) {
  char list[RC_MESSAGE_MAX] = "";
  size_t used = 0;
  for (int f = 0; f < model->nformulations; ++f) {
    rc_problem *q = NULL;
    rc_error e;
    if (model->create(model, f, pv, &q, &e) == RC_OK && q &&
        rc_simulate_check(q, NULL) == RC_OK) {
      int w = snprintf(list + used, sizeof list - used, "%s%s",
                       used ? ", " : "", model->formulations[f].name);
      if (w > 0 && (size_t)w < sizeof list - used)
        used += (size_t)w;
    }
    rc_problem_free(&q);
  }
  rc_cli_error(cmd, "%s; formulations of %s that can be simulated: %s",
               why->message, model->name, used ? list : "none");
  return RC_CLI_BAD_INPUT;
}

static void print_json(const rc_problem *pb, const char *method, long nsteps,
                       const rc_solution *sol, const rc_solve_stats *st,
                       const rc_diagnostics *d, const char *output) {
  const int nw = rc_problem_nw(pb);
  rc_json j;
  rc_json_init(&j, stdout);
  rc_json_begin_object(&j, NULL);
  rc_json_string(&j, "problem", pb->model);
  rc_json_string(&j, "formulation", pb->formulation);
  rc_json_string(&j, "kind", "simulate");
  rc_json_string(&j, "method", method);
  rc_json_number(&j, "step", sol->t[1] - sol->t[0]);
  rc_json_number(&j, "last_step",
                 sol->t[sol->nnodes - 1] - sol->t[sol->nnodes - 2]);
  rc_json_int(&j, "steps", nsteps);
  rc_json_int(&j, "elements", sol->mesh.n);
  rc_json_int(&j, "stages", 1);
  rc_json_int(&j, "nodes", sol->nnodes);
  rc_json_int(&j, "variables", st->nvars);
  rc_json_int(&j, "constraints", 0);
  rc_json_string(&j, "status", "completed");
  rc_json_string(&j, "message", st->message);
  rc_json_int(&j, "iterations", 0);
  rc_json_null(&j, "objective");
  rc_json_null(&j, "constraint_violation");
  rc_json_number(&j, "wall_s", rc_cli_elapsed());
  rc_json_number(&j, "ipopt_s", 0.0);
  rc_json_number(&j, "eval_s", st->eval_s);
  rc_json_string(&j, "output", output);
  rc_json_begin_object(&j, "final");
  rc_json_number(&j, "t", sol->t[sol->nnodes - 1]);
  for (int i = 0; i < pb->nx; ++i)
    rc_json_number(&j, rc_cli_diag_name(pb, i),
                   sol->w[(size_t)(sol->nnodes - 1) * nw + i]);
  rc_json_end_object(&j);
  rc_cli_json_diagnostics(&j, pb, d);
  rc_json_string(&j, "note", pb->note);
  rc_json_end_object(&j);
  rc_json_finish(&j);
}

static void print_text(const rc_problem *pb, const rc_solution *sol,
                       const rc_solve_stats *st, const rc_diagnostics *d,
                       const char *output) {
  printf("%s/%s: %s\n", pb->model, pb->formulation, st->message);
  printf("  steps       %d, %d nodes, t in [%g, %g]\n", sol->mesh.n,
         sol->nnodes, sol->t0, sol->tf);
  printf("  time        wall %.3f s, integration %.3f s\n", rc_cli_elapsed(),
         st->eval_s);
  rc_cli_print_diagnostics(pb, d, "steps");
  printf("  output      %s\n", output);
}

/* The replay of a plan (--controls FILE.h5, cli_replay.c). */
static int replay(const char *cmd, const sim_args *a) {
  const rc_cli_replay_args ra = {
      a->problem, a->formulation, a->controls, a->hold,   a->settle,
      a->output,  a->json,        a->sets.n,   a->sets.v, a->after};
  return rc_cli_replay(cmd, &ra);
}

/* What one integration holds (free_sim releases it). */
typedef struct sim_job {
  const rc_model *model;
  rc_param_values pv;
  rc_problem *pb;
  rc_sim_method method;
  double h;    /* --step */
  long nsteps; /* steps over the horizon (rc_simulate_plan) */
  char *output;
  rc_solution sol;
  int have_sol;
  rc_solve_stats st;
  rc_cli_diag diag;
} sim_job;

static void free_sim(sim_job *j) {
  rc_cli_diag_free(&j->diag);
  if (j->have_sol)
    rc_solution_free(&j->sol);
  rc_problem_free(&j->pb);
  rc_params_free(&j->pv);
  free(j->output);
}

/* --method and --step, the problem (one that can be simulated), the number
 * of steps and the output path: every refusal before the integration. */
static int prepare(const char *cmd, const sim_args *a, sim_job *j) {
  rc_error err = {RC_OK, ""};
  int f = -1, status;
  if (rc_sim_method_parse(a->method, &j->method, &err) != RC_OK) {
    rc_cli_error(cmd, "--method %s: expected rk4 or collatz", a->method);
    return RC_CLI_BAD_INPUT;
  }
  if ((status = rc_cli_real(cmd, "--step", a->step, 1, &j->h)) ||
      (status = rc_cli_setup_problem(cmd, a->problem, a->formulation, a->sets.n,
                                     a->sets.v, &j->model, &f, &j->pv, &j->pb)))
    return status;
  if (rc_simulate_check(j->pb, &err) != RC_OK)
    return err.code == RC_ERR_INPUT
               ? refuse_formulation(cmd, j->model, &j->pv, &err)
               : rc_cli_fail(cmd, &err);
  int uniform = 1;
  if (rc_simulate_plan(j->pb->t0, j->pb->tf, j->h, &j->nsteps, &uniform,
                       &err) != RC_OK) {
    rc_cli_error(cmd, "--step %s: %s", a->step, err.message);
    return RC_CLI_BAD_INPUT;
  }
  char suffix[32];
  snprintf(suffix, sizeof suffix, "-%s", rc_sim_method_name(j->method));
  return rc_cli_output_path(cmd, a->output, j->pb, suffix, &j->output);
}

/* Integrate, diagnose, write, print. */
static int integrate(const char *cmd, const sim_args *a, sim_job *j) {
  const rc_problem *pb = j->pb;
  rc_error err = {RC_OK, ""};
  if (pb->note)
    fprintf(stderr, "warning: %s/%s: %s\n", pb->model, pb->formulation,
            pb->note);
  if (rc_simulate(pb, j->method, j->h, &j->sol, &j->st, &err) != RC_OK)
    return rc_cli_fail(cmd, &err);
  j->have_sol = 1;
  rc_cli_diagnose(cmd, pb, &j->sol, j->nsteps > RC_SIM_CLI_DENSE_MAX ? 1 : 2, 0,
                  &j->diag);
  rc_result_record rec =
      rc_cli_record("simulate", j->model, &j->pv, pb, &j->sol, &j->st);
  rec.diag = j->diag.have_diag ? &j->diag.diag : NULL;
  int status = rc_cli_write(cmd, j->output, &rec);
  if (status)
    return status;
  if (a->json)
    print_json(pb, rc_sim_method_name(j->method), j->nsteps, &j->sol, &j->st,
               rec.diag, j->output);
  else
    print_text(pb, &j->sol, &j->st, rec.diag, j->output);
  return RC_CLI_OK;
}

static int run_simulate(int argc, char **argv) {
  const char *cmd = "simulate";
  sim_args a;
  memset(&a, 0, sizeof a);
  sim_job j;
  memset(&j, 0, sizeof j);
  int status = parse_args(cmd, argc, argv, &a);
  if (!status && a.controls)
    status = replay(cmd, &a);
  else if (!status && !(status = prepare(cmd, &a, &j)))
    status = integrate(cmd, &a, &j);
  free_sim(&j);
  rc_cli_list_free(&a.sets);
  return status < 0 ? RC_CLI_OK : status; /* -1: --help */
}

const rc_cli_command rc_cli_cmd_simulate = {
    "simulate",
    "explicit fixed-step integration (rk4 or collatz) of an ODE "
    "formulation",
    usage, run_simulate};
