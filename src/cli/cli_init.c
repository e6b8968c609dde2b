/*
 * cli/cli_init.c - `radcol init`: consistent initial conditions
 * (radcol/init.h), and the consistency check `radcol solve` runs first.
 *
 * Flow: arguments -> model -> formulation -> parameters (--set) -> problem
 * -> default guess (x0, the problem's guess at t0) -> --guess NAME=VALUE
 * overrides -> --fix NAME=VALUE (or NAME alone: fixed at its guess value)
 * -> rc_init_solve -> report (text or --json) -> -o FILE.h5 (only when
 * consistent).  The file is a result of kind "init": a mesh of one element
 * with one stage on [t0, tf] whose two nodes both hold the consistent point
 * (only node 0, t0, is meaningful) and /diagnostics/invariants/nodes holding
 * the invariants' residuals.
 * Exit status: 0 consistent; 2 bad input or an inconsistent request (the
 * message names the violated constraints and the conflicting fixed values;
 * nothing is written); 1 the solver failed with nothing fixed (with -o the
 * point reached is written, marked failed: exit 1 promises a file); 3 I/O;
 * 4 out of memory.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli_init.h"
#include "cli/forms.h"
#include "cli/json.h"
#include "cli/report.h"
#include "radcol/init.h"
#include "radcol/io.h"
#include "radcol/mesh.h"
#include "radcol/result.h"
#include "radcol/solve.h"
#include "radcol/start.h"

static const char usage[] =
    "usage: radcol init PROBLEM [-f FORMULATION] [--set NAME=VALUE]...\n"
    "                   [--fix NAME[=VALUE]]... [--guess NAME=VALUE]...\n"
    "                   [--weights relative|unit] [-o FILE.h5] [--json]\n\n"
    "Consistent initial conditions: the point z = (x, y, u, p) at t0 nearest\n"
    "to the guess, min sum_i w_i (z_i - zhat_i)^2, that satisfies every\n"
    "hidden constraint (invariant) of the problem, its algebraic equations\n"
    "and the fixed values.  Reports the point, every constraint's residual\n"
    "and the guessed values that had to move.\n\n"
    "Options:\n"
    "  -f, --formulation F  formulation (radcol list); default: the "
    "problem's\n"
    "  --set NAME=VALUE     set a model parameter (as for solve); default: "
    "none\n"
    "  --fix NAME=VALUE     fix variable NAME at VALUE (NAME alone: at its\n"
    "                       guess value), repeatable; default: nothing fixed\n"
    "  --guess NAME=VALUE   guess for variable NAME, repeatable; default: x0\n"
    "                       for the states, the problem's guess at t0 else\n"
    "  --weights W          relative: w_i = 1/(1+|zhat_i|)^2 (default); unit\n"
    "  -o, --output FILE.h5 write the point as an HDF5 result (kind init);\n"
    "                       default: nothing written\n"
    "  --json               print one JSON object on stdout; default: text\n"
    "  -h, --help           print this help\n\n"
    "Exit status: 0 consistent; 1 solver failure (with -o the point\n"
    "             reached is still written, status failed); 2 bad input or\n"
    "             an inconsistent request (nothing written); 3 I/O failure;\n"
    "             4 out of memory; 5 internal error.\n"
    "Output: a random temporary file next to -o, renamed over it when\n"
    "complete; an existing -o that is not a regular file is refused.\n";

typedef struct init_args {
  const char *problem, *formulation, *output;
  int json, unit_weights;
  rc_cli_list sets, fix, guess;
} init_args;

static const char *const weight_words[] = {"relative", "unit", NULL};
static const int weight_values[] = {0, 1};

static int parse_args(const char *cmd, int argc, char **argv, init_args *a) {
  const rc_cli_option opts[] = {
      {"--json", NULL, RC_CLI_FLAG, .dest = &a->json},
      {"-f", "--formulation", RC_CLI_TEXT, .dest = &a->formulation},
      {"--set", NULL, RC_CLI_LIST, .dest = &a->sets},
      {"--fix", NULL, RC_CLI_LIST, .dest = &a->fix},
      {"--guess", NULL, RC_CLI_LIST, .dest = &a->guess},
      {"--weights", NULL, RC_CLI_CHOICE, .dest = &a->unit_weights,
       .choices = weight_words, .values = weight_values},
      {"-o", "--output", RC_CLI_TEXT, .dest = &a->output},
      {NULL}};
  const rc_cli_syntax syntax = {
      usage, opts, &a->problem,
      "missing PROBLEM (see radcol list and radcol init --help)"};
  return rc_cli_parse(cmd, argc, argv, &syntax);
}

static void print_text(const rc_problem *pb, const rc_init_report *r,
                       const int *user_guess, const char *output) {
  printf("%s/%s: %s (%s, %d Ipopt iterations, weighted distance %.3g)\n",
         pb->model, pb->formulation,
         r->consistent ? "consistent" : "inconsistent",
         rc_status_name(r->status), r->iterations, r->objective);
  printf("  %-10s %-13s %-22s %-22s %s\n", "variable", "kind", "guess", "value",
         "");
  for (int i = 0; i < r->nw; ++i) {
    char note[96] = "";
    if (r->fixed[i])
      snprintf(note, sizeof note, "fixed");
    else if (r->moved[i])
      snprintf(note, sizeof note, "moved by %+.6g%s", r->z[i] - r->zhat[i],
               user_guess[i] ? " (your --guess)" : "");
    printf("  %-10s %-13s %-22.15g %-22.15g %s\n", pb->var_names[i],
           rc_var_kind_name(rc_problem_var_kind(pb, i)), r->zhat[i], r->z[i],
           note);
  }
  printf("  %-10s %-22s %s\n", "constraint", "residual", "");
  for (int k = 0; k < r->ncon; ++k)
    printf("  %-10s %-22.3e %s\n", r->con_names[k], r->residual[k],
           k < pb->ninv ? (r->kept[k] ? "invariant" : "invariant (redundant)")
                        : (r->kept[k] ? "algebraic equation"
                                      : "algebraic equation (redundant)"));
  int nmoved = 0;
  for (int i = 0; i < r->nw; ++i)
    nmoved += r->moved[i];
  printf("  moved       %d guessed value%s", nmoved, nmoved == 1 ? "" : "s");
  for (int i = 0, c = 0; i < r->nw; ++i)
    if (r->moved[i])
      printf("%s%s %.10g -> %.10g", c++ ? ", " : ": ", pb->var_names[i],
             r->zhat[i], r->z[i]);
  printf("\n");
  for (int i = 0; i < r->nw; ++i)
    if (r->released[i])
      printf("  note        the guess %s = %g lies outside the formulation's "
             "bounds [%g, %g]; the bound is released for init\n",
             pb->var_names[i], r->zhat[i], pb->w_lo[i], pb->w_hi[i]);
  if (output)
    printf("  output      %s\n", output);
}

static void print_json(const rc_problem *pb, const rc_init_report *r,
                       const int *user_guess, const char *output) {
  rc_json j;
  rc_json_init(&j, stdout);
  rc_json_begin_object(&j, NULL);
  rc_json_string(&j, "command", "init");
  rc_json_string(&j, "problem", pb->model);
  rc_json_string(&j, "formulation", pb->formulation);
  rc_json_string(&j, "status", r->consistent ? "consistent" : "inconsistent");
  rc_json_string(&j, "ipopt_status", rc_status_name(r->status));
  rc_json_int(&j, "iterations", r->iterations);
  rc_json_number(&j, "objective", r->objective);
  rc_json_number(&j, "constraint_violation", r->max_residual);
  rc_json_int(&j, "variables", r->nw);
  rc_json_int(&j, "constraints", r->ncon);
  rc_json_number(&j, "wall_s", rc_cli_elapsed());
  rc_json_string(&j, "output", output);
  rc_json_begin_object(&j, "point");
  for (int i = 0; i < r->nw; ++i) {
    rc_json_begin_object(&j, pb->var_names[i]);
    rc_json_string(&j, "kind", rc_var_kind_name(rc_problem_var_kind(pb, i)));
    rc_json_number(&j, "value", r->z[i]);
    rc_json_number(&j, "guess", r->zhat[i]);
    rc_json_bool(&j, "fixed", r->fixed[i]);
    rc_json_bool(&j, "user_guess", user_guess[i]);
    rc_json_bool(&j, "moved", r->moved[i]);
    rc_json_number(&j, "delta", r->z[i] - r->zhat[i]);
    rc_json_bool(&j, "bound_released", r->released[i]);
    rc_json_end_object(&j);
  }
  rc_json_end_object(&j);
  rc_json_begin_object(&j, "residuals");
  for (int k = 0; k < r->ncon; ++k)
    rc_json_number(&j, r->con_names[k], r->residual[k]);
  rc_json_end_object(&j);
  rc_json_begin_array(&j, "moved");
  for (int i = 0; i < r->nw; ++i)
    if (r->moved[i])
      rc_json_string(&j, NULL, pb->var_names[i]);
  rc_json_end_array(&j);
  rc_json_begin_array(&j, "conflicts");
  for (int c = 0; c < r->nconflict; ++c)
    rc_json_string(&j, NULL, pb->var_names[r->conflict[c]]);
  rc_json_end_array(&j);
  rc_json_string(&j, "message", r->consistent ? NULL : r->message);
  rc_json_end_object(&j);
  rc_json_finish(&j);
}

/* The "init" result file: one element, one stage, both nodes = z. */
static int write_file(const char *cmd, const char *path, const rc_model *model,
                      const rc_param_values *pv, const rc_problem *pb,
                      const rc_init_report *r) {
  rc_error err = {RC_OK, ""};
  rc_mesh mesh;
  memset(&mesh, 0, sizeof mesh);
  rc_solution sol;
  memset(&sol, 0, sizeof sol);
  if (rc_mesh_uniform(1, 1, &mesh, &err) != RC_OK ||
      rc_solution_alloc(pb, &mesh, pb->t0, pb->tf, 0, &sol, &err) != RC_OK) {
    rc_mesh_free(&mesh);
    return rc_cli_fail(cmd, &err);
  }
  rc_solution_set_times(&sol);
  for (int n = 0; n < sol.nnodes; ++n)
    memcpy(sol.w + (size_t)n * (size_t)r->nw, r->z,
           sizeof(double) * (size_t)r->nw);
  rc_solve_stats st;
  memset(&st, 0, sizeof st);
  st.status = r->status == RC_STATUS_NOT_RUN ? RC_STATUS_CONVERGED : r->status;
  if (!r->consistent &&
      (st.status == RC_STATUS_CONVERGED || st.status == RC_STATUS_ACCEPTABLE))
    st.status = RC_STATUS_FAILED; /* the file must not claim success */
  st.iterations = r->iterations;
  st.objective = r->objective;
  st.constraint_violation = r->max_residual;
  st.wall_s = rc_cli_elapsed();
  st.nvars = r->nw;
  st.ncons = r->ncon;
  if (r->consistent)
    snprintf(st.message, sizeof st.message,
             "consistent initial point at t0 = %g (both nodes hold it)",
             pb->t0);
  else
    snprintf(st.message, sizeof st.message,
             "no consistent point found; the point reached at t0 = %g: %.400s",
             pb->t0, r->message);
  rc_diagnostics d;
  memset(&d, 0, sizeof d);
  d.ninv = pb->ninv;
  d.inv_nodes = r->residual; /* the invariants come first */
  d.nnodes = sol.nnodes;
  rc_result_record rec = rc_cli_record("init", model, pv, pb, &sol, &st);
  rec.diag = pb->ninv > 0 ? &d : NULL;
  const int status = rc_cli_write(cmd, path, &rec);
  rc_solution_free(&sol);
  rc_mesh_free(&mesh);
  return status;
}

/* What rc_init_solve is asked: the guess zhat (x0 for the states, the
 * problem's guess at t0 else, then --guess), the fixed values (--fix) and
 * which guesses the user gave. */
typedef struct init_request {
  double *zhat, *fixv;
  int *fixed, *user_guess;
  int nfixed;
} init_request;

static void free_request(init_request *q) {
  free(q->zhat);
  free(q->fixv);
  free(q->fixed);
  free(q->user_guess);
}

/* --guess NAME=VALUE, in order. */
static int apply_guesses(const char *cmd, const rc_problem *pb,
                         const rc_cli_list *guess, init_request *q) {
  rc_error err = {RC_OK, ""};
  for (int k = 0; k < guess->n; ++k) {
    int i;
    double v;
    if (rc_init_parse_assignment(pb, "--guess", guess->v[k], &i, &v, &err))
      return rc_cli_fail(cmd, &err);
    q->zhat[i] = v;
    q->user_guess[i] = 1;
  }
  return RC_CLI_OK;
}

/* --fix NAME=VALUE, or NAME alone (fixed at its guess), in order; a fixed
 * value is also the guess. */
static int apply_fixes(const char *cmd, const rc_problem *pb,
                       const rc_cli_list *fix, init_request *q) {
  rc_error err = {RC_OK, ""};
  for (int k = 0; k < fix->n; ++k) {
    const char *s = fix->v[k];
    int i;
    double v;
    if (!strchr(s, '=')) {
      i = rc_init_var_index(pb, s);
      if (i < 0) {
        rc_error_set(&err, RC_ERR_INPUT,
                     "--fix %s: %s/%s has no variable '%s' (see radcol "
                     "init %s -f %s --json for the names)",
                     s, pb->model, pb->formulation, s, pb->model,
                     pb->formulation);
        return rc_cli_fail(cmd, &err);
      }
      v = q->zhat[i];
    } else if (rc_init_parse_assignment(pb, "--fix", s, &i, &v, &err)) {
      return rc_cli_fail(cmd, &err);
    }
    q->nfixed += !q->fixed[i];
    q->fixed[i] = 1;
    q->fixv[i] = v;
    q->zhat[i] = v;
  }
  return RC_CLI_OK;
}

static int make_request(const char *cmd, const rc_problem *pb,
                        const init_args *a, init_request *q) {
  const size_t nw = (size_t)rc_problem_nw(pb);
  rc_error err = {RC_OK, ""};
  q->zhat = calloc(nw ? nw : 1, sizeof *q->zhat);
  q->fixv = calloc(nw ? nw : 1, sizeof *q->fixv);
  q->fixed = calloc(nw ? nw : 1, sizeof *q->fixed);
  q->user_guess = calloc(nw ? nw : 1, sizeof *q->user_guess);
  if (!q->zhat || !q->fixv || !q->fixed || !q->user_guess) {
    rc_cli_error(cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  if (rc_init_default_guess(pb, q->zhat, &err) != RC_OK)
    return rc_cli_fail(cmd, &err);
  int status = apply_guesses(cmd, pb, &a->guess, q);
  return status ? status : apply_fixes(cmd, pb, &a->fix, q);
}

static void print_report(const init_args *a, const rc_problem *pb,
                         const rc_init_report *rep, const init_request *q,
                         const char *output) {
  if (a->json)
    print_json(pb, rep, q->user_guess, output);
  else
    print_text(pb, rep, q->user_guess, output);
}

/* No consistent point: the report, then exit 2 when fixed values conflict,
 * else 1 (exit 1 promises a file: with -o the point reached, marked
 * failed; without -o none was asked for). */
static int finish_inconsistent(const char *cmd, const init_args *a,
                               const rc_model *model, const rc_param_values *pv,
                               const rc_problem *pb, const rc_init_report *rep,
                               const init_request *q) {
  print_report(a, pb, rep, q, NULL);
  if (q->nfixed > 0 || !a->output) {
    rc_cli_error(cmd, "%s; nothing written", rep->message);
    return q->nfixed > 0 ? RC_CLI_BAD_INPUT : RC_CLI_NOT_CONVERGED;
  }
  int status = write_file(cmd, a->output, model, pv, pb, rep);
  if (status)
    return status;
  rc_cli_error(
      cmd, "%s; the point reached is in %s (status %s)", rep->message,
      a->output,
      rc_status_name(rep->status < 0 ? rep->status : RC_STATUS_FAILED));
  return RC_CLI_NOT_CONVERGED;
}

static int run_init(int argc, char **argv) {
  const char *cmd = "init";
  init_args a;
  memset(&a, 0, sizeof a);
  rc_param_values pv;
  memset(&pv, 0, sizeof pv);
  rc_problem *pb = NULL;
  rc_init_report rep;
  memset(&rep, 0, sizeof rep);
  init_request q;
  memset(&q, 0, sizeof q);
  rc_error err = {RC_OK, ""};
  int have_rep = 0;
  const rc_model *model = NULL;
  int f = -1;

  int status = parse_args(cmd, argc, argv, &a);
  if (status ||
      (status = rc_cli_setup_problem(cmd, a.problem, a.formulation, a.sets.n,
                                     a.sets.v, &model, &f, &pv, &pb)) ||
      (status = make_request(cmd, pb, &a, &q)) ||
      (a.output && (status = rc_cli_check_output(cmd, a.output, 0))))
    goto done;

  rc_init_options opt;
  rc_init_options_default(&opt);
  if (a.unit_weights)
    opt.weights = RC_INIT_WEIGHTS_UNIT;
  if (rc_init_solve(pb, &opt, q.zhat, q.fixed, q.fixv, &rep, &err) != RC_OK) {
    status = rc_cli_fail(cmd, &err);
    goto done;
  }
  have_rep = 1;
  if (!rep.consistent)
    status = finish_inconsistent(cmd, &a, model, &pv, pb, &rep, &q);
  else if (!a.output ||
           !(status = write_file(cmd, a.output, model, &pv, pb, &rep)))
    print_report(&a, pb, &rep, &q, a.output);

done:
  if (status < 0)
    status = RC_CLI_OK; /* --help */
  if (have_rep)
    rc_init_report_free(&rep);
  free_request(&q);
  rc_problem_free(&pb);
  rc_params_free(&pv);
  rc_cli_list_free(&a.sets);
  rc_cli_list_free(&a.fix);
  rc_cli_list_free(&a.guess);
  return status;
}

int rc_cli_init_for_solve(const char *cmd, rc_problem **pb, rc_problem **given,
                          int quiet) {
  const rc_problem *p = *pb;
  *given = NULL;
  rc_init_start st;
  rc_error err = {RC_OK, ""};
  (void)quiet; /* a changed start is always reported */
  if (rc_init_check_start(p, 1e-10, &st, &err) != RC_OK) {
    fprintf(stderr,
            "warning: radcol %s: consistency check of the initial values "
            "skipped: %s\n",
            cmd, err.message);
    return RC_CLI_OK;
  }
  if (!st.consistent) {
    fprintf(stderr,
            "warning: radcol %s: %s/%s: the initial values are inconsistent "
            "and no consistent point was found (%s); solving from them "
            "anyway\n",
            cmd, p->model, p->formulation, st.message);
    rc_init_start_free(&st);
    return RC_CLI_OK;
  }
  if (!st.changed) {
    rc_init_start_free(&st);
    return RC_CLI_OK;
  }
  char viol[RC_MESSAGE_MAX] = "", moved[RC_MESSAGE_MAX] = "";
  for (int k = 0; k < st.ncon; ++k)
    if (!(fabs(st.given_residual[k]) <= st.feas_tol)) {
      const size_t used = strlen(viol);
      snprintf(viol + used, sizeof viol - used, "%s%s residual %.3g",
               used ? ", " : "", st.con_names[k], st.given_residual[k]);
    }
  /* The start: the moved values, the others exactly as given. */
  for (int i = 0; i < st.nx; ++i)
    if (st.moved[i]) {
      const size_t used = strlen(moved);
      snprintf(moved + used, sizeof moved - used, "%s%s %.10g -> %.10g",
               used ? ", " : "", p->var_names[i], p->x0[i], st.x0[i]);
    } else {
      st.x0[i] = p->x0[i];
    }
  fprintf(stderr,
          "warning: radcol %s: %s/%s: the initial values are not "
          "consistent (%s; expected |residual| <= 1e-10): starting from "
          "the nearest consistent point (radcol init): %s\n",
          cmd, p->model, p->formulation, viol[0] ? viol : "see radcol init",
          moved);
  rc_problem *fresh = NULL;
  int status = RC_CLI_OK;
  if (rc_problem_restart(p, st.x0, &fresh, &err) != RC_OK) {
    status = rc_cli_fail(cmd, &err);
    rc_problem_free(pb);
  } else {
    if (p->reference && !fresh->reference)
      fprintf(stderr,
              "warning: radcol %s: %s/%s: the model's reference belongs to "
              "the given start: no reference errors from the consistent "
              "one\n",
              cmd, p->model, p->formulation);
    *given = *pb; /* a restart may borrow from it: kept until the end */
    *pb = fresh;
  }
  rc_init_start_free(&st);
  return status;
}

const rc_cli_command rc_cli_cmd_init = {
    "init", "consistent initial conditions (hidden constraints, fixed values)",
    usage, run_init};
