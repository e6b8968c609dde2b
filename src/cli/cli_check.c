/*
 * cli/cli_check.c - `radcol check PROBLEM [-f F]`: the finite-difference
 * check of every hand-coded Jacobian and Hessian entry (rc_check_problem) on
 * one formulation or all of them.  Prints each failure (block, kind, row and
 * column names, expected +- the difference's error estimate vs got) and one
 * PASS/FAIL line per formulation.  --step, --rtol, --atol set the largest
 * difference step and the tolerances of rc_check_options.
 * Exit status: 0 all pass, 1 any fails, 2 bad input.
 */
#include <stdio.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli_job.h"
#include "cli/json.h"
#include "radcol/check.h"
#include "radcol/kit.h"
#include "radcol/nlp_check.h"

static const char usage[] =
    "usage: radcol check PROBLEM [-f FORMULATION] [--points N] [--seed S]\n"
    "                    [--step H] [--rtol R] [--atol A]\n"
    "                    [--set NAME=VALUE]... [--json]\n"
    "       radcol check --job FILE.json [--points N] [--seed S] [--json]\n\n"
    "Compare every hand-coded Jacobian and Hessian entry of PROBLEM (point,\n"
    "boundary and invariant blocks) with central finite differences at\n"
    "random points, and check that the declared sparsity is complete.\n"
    "The differences use the steps H (1 + |v|), H/2, H/4, H/8 extrapolated\n"
    "(Richardson), each entry the best with an estimate of its error, which\n"
    "the comparison credits up to 1e-3 of the entry: an entry fails when\n"
    "|fd - got| > R max(1, |fd|, |got|) + that estimate (a missing entry\n"
    "when |fd| > A + the estimate).  Then the transcription's own terms on\n"
    "a 6-element mesh: the NLP's gradient, Jacobian and Lagrangian Hessian\n"
    "with free segment durations (free breakpoints: autonomous problems,\n"
    "or problems that give dF/dt), pins, free tf and Bernstein bound rows\n"
    "(at most 3 points).\n\n"
    "Options:\n"
    "  -f, --formulation F  check one formulation; default: all of them\n"
    "  --points N           random points per block, N >= 1; default: 6\n"
    "  --seed S             random seed, 0..4294967295; default: 12345\n"
    "  --step H             largest difference step relative to 1 + |v|,\n"
    "                       0 < H <= 0.01; default: 6.06e-6 (cbrt(eps));\n"
    "                       smaller for very steep functions\n"
    "  --rtol R             relative tolerance of a declared entry, R > 0;\n"
    "                       default: 1e-6\n"
    "  --atol A             absolute tolerance of an undeclared entry, A > 0;\n"
    "                       default: 1e-6\n"
    "  --set NAME=VALUE     set a parameter before building the problem,\n"
    "                       repeatable; default: none\n"
    "  --json               print one JSON object on stdout; default: text\n"
    "  --plugin LIB.so      load problems from a shared library first\n"
    "                       (docs/writing-a-problem.md); default: none\n"
    "  -h, --help           print this help\n\n"
    "Exit status: 0 every checked formulation passes; 1 any fails;\n"
    "             2 bad input; 3 input/output failure.\n";

static const char *kind_name(rc_check_kind k) {
  switch (k) {
  case RC_CHECK_JAC_VALUE:
    return "jac_value";
  case RC_CHECK_JAC_MISSING:
    return "jac_missing";
  case RC_CHECK_HES_VALUE:
    return "hes_value";
  case RC_CHECK_HES_MISSING:
    return "hes_missing";
  case RC_CHECK_EVAL:
    return "eval";
  }
  return "unknown";
}

/* The derivative a failure is about, in words:
 *   Jacobian  d f_x[0] / d x[0]
 *   Hessian   d2 f_u[2] / d T[4] d x[0]  (the output row found by checking
 *             each row alone; d2 (sum_i mu_i F_i) when no single row is) */
static void describe(const rc_check_failure *x, char *buf, size_t n) {
  if (!strcmp(x->block, "nlp")) { /* names carry the indices */
    if (x->kind == RC_CHECK_EVAL)
      snprintf(buf, n, "an NLP callback failed near %s", x->col_name);
    else if (x->kind == RC_CHECK_HES_VALUE || x->kind == RC_CHECK_HES_MISSING)
      snprintf(buf, n, "d2 L / d %s d %s", x->row_name, x->col_name);
    else
      snprintf(buf, n, "d %s / d %s", x->row_name, x->col_name);
  } else if (x->kind == RC_CHECK_EVAL && x->got == RC_KIT_UNRECORDED) {
    snprintf(buf, n,
             "callback %s returned %g: the block function wrote an entry "
             "its recording pass did not (radcol/kit.h: write the same "
             "entries at every point)",
             x->row_name, x->got);
  } else if (x->kind == RC_CHECK_EVAL) {
    snprintf(buf, n, "callback %s returned %g", x->row_name, x->got);
  } else if (x->kind == RC_CHECK_HES_VALUE || x->kind == RC_CHECK_HES_MISSING) {
    if (x->out_row >= 0)
      snprintf(buf, n, "d2 %s[%d] / d %s[%d] d %s[%d]", x->out_name, x->out_row,
               x->row_name, x->row, x->col_name, x->col);
    else
      snprintf(buf, n, "d2 (sum_i mu_i F_i) / d %s[%d] d %s[%d]", x->row_name,
               x->row, x->col_name, x->col);
  } else {
    snprintf(buf, n, "d %s[%d] / d %s[%d]", x->row_name, x->row, x->col_name,
             x->col);
  }
}

static void json_failures(rc_json *j, const rc_check_report *rep, rc_err rc) {
  const int kept = rep->nfailures < RC_CHECK_MAX_FAILURES
                       ? rep->nfailures
                       : RC_CHECK_MAX_FAILURES;
  rc_json_begin_array(j, "failure_list");
  for (int k = 0; rc == RC_OK && k < kept; ++k) {
    const rc_check_failure *x = &rep->failures[k];
    rc_json_begin_object(j, NULL);
    rc_json_string(j, "block", x->block);
    rc_json_string(j, "kind", kind_name(x->kind));
    rc_json_int(j, "row", x->row);
    rc_json_int(j, "col", x->col);
    rc_json_string(j, "row_name", x->row_name);
    rc_json_string(j, "col_name", x->col_name);
    if (x->kind == RC_CHECK_HES_VALUE || x->kind == RC_CHECK_HES_MISSING) {
      rc_json_int(j, "output_row", x->out_row);
      rc_json_string(j, "output_name", x->out_row >= 0 ? x->out_name : NULL);
    }
    rc_json_number(j, "t", x->t);
    rc_json_number(j, "expected", x->expected);
    rc_json_number(j, "got", x->got);
    if (x->kind != RC_CHECK_EVAL) {
      rc_json_number(j, "bound", x->bound);
      rc_json_bool(j, "unresolved", x->unresolved);
    }
    rc_json_end_object(j);
  }
  rc_json_end_array(j);
}

static void text_failures(const char *name, const char *fname,
                          const rc_check_report *rep, rc_err rc) {
  const int kept = rep->nfailures < RC_CHECK_MAX_FAILURES
                       ? rep->nfailures
                       : RC_CHECK_MAX_FAILURES;
  for (int k = 0; rc == RC_OK && k < kept; ++k) {
    const rc_check_failure *x = &rep->failures[k];
    char what[256];
    describe(x, what, sizeof what);
    if (!strcmp(x->block, "nlp"))
      printf("  %s/%s: transcription %s %s: expected %.10g (finite "
             "differences), got %.10g\n",
             name, fname, kind_name(x->kind), what, x->expected, x->got);
    else if (x->kind == RC_CHECK_EVAL)
      printf("  %s/%s: %s %s %s at t=%.6g\n", name, fname, x->block,
             kind_name(x->kind), what, x->t);
    else
      printf("  %s/%s: %s %s %s at t=%.6g: expected %.10g +- %.2g (finite "
             "differences), got %.10g%s\n",
             name, fname, x->block, kind_name(x->kind), what, x->t, x->expected,
             x->bound, x->got,
             x->unresolved ? " (the differences do not resolve this entry: "
                             "try a smaller --step)"
                           : "");
  }
  if (rc == RC_OK && rep->nfailures > kept)
    printf("  %s/%s: ... and %d more failures\n", name, fname,
           rep->nfailures - kept);
}

/* Check one formulation; returns 0 pass, 1 fail, 2 or 3 for bad input. */
static int check_one(const char *cmd, const rc_model *model, int f,
                     const rc_check_options *co, int nsets,
                     const char *const *sets, rc_json *j) {
  rc_param_values pv;
  rc_problem *pb = NULL;
  if (model->create_phases) { /* a multiphase formulation (docs/phases.md) */
    rc_error err = {RC_OK, ""};
    rc_phases *ph = NULL;
    int st = rc_params_init_defaults(model, &pv, &err) == RC_OK ? 0 : 2;
    for (int k = 0; !st && k < nsets; ++k)
      st = rc_params_set(model, &pv, sets[k], &err) == RC_OK ? 0 : 2;
    if (!st && rc_cli_model_phases(cmd, model, f, &pv, &ph) == 1) {
      if (j) {
        rc_json_begin_object(j, NULL);
        rc_json_string(j, "formulation", model->formulations[f].name);
      }
      st = rc_cli_model_phases_check(cmd, model, f, ph, co, j);
      if (j) {
        rc_json_bool(j, "pass", st == RC_CLI_OK);
        rc_json_end_object(j);
      }
      rc_params_free(&pv); /* after the phases: they may record it */
      return st;
    }
    rc_params_free(&pv);
  }
  int status = rc_cli_make_problem(cmd, model, f, nsets, sets, NULL, &pv, &pb);
  if (status)
    return status;
  rc_check_report rep;
  memset(&rep, 0, sizeof rep);
  rc_error err = {RC_OK, ""};
  rc_err rc = rc_check_problem(pb, co, &rep, &err);
  /* the transcription's own terms (radcol/nlp_check.h): free segment
   * durations, pins, free tf, Bernstein rows */
  rc_check_report trep;
  rc_nlp_check_info info;
  rc_error terr = {RC_OK, ""};
  rc_err trc = rc_check_nlp(pb, co, &trep, &info, &terr);
  const int tpass = trc == RC_OK && trep.nfailures == 0;
  int pass = rc == RC_OK && rep.nfailures == 0 && tpass;
  const char *fname = model->formulations[f].name;
  if (j) {
    rc_json_begin_object(j, NULL);
    rc_json_string(j, "formulation", fname);
    rc_json_bool(j, "pass", pass);
    rc_json_string(j, "error", rc == RC_OK ? NULL : err.message);
    rc_json_int(j, "entries", rep.nentries);
    rc_json_int(j, "failures", rep.nfailures);
    rc_json_number(j, "max_rel_err_jac", rep.max_rel_err_jac);
    rc_json_number(j, "max_rel_err_hes", rep.max_rel_err_hes);
    rc_json_number(j, "max_rel_bound", rep.max_rel_bound);
    json_failures(j, &rep, rc);
    rc_json_begin_object(j, "transcription");
    rc_json_bool(j, "pass", tpass);
    rc_json_string(j, "error", trc == RC_OK ? NULL : terr.message);
    rc_json_string(j, "skipped", info.skipped ? info.why : NULL);
    rc_json_int(j, "segments", info.nseg);
    rc_json_int(j, "pins", info.npin);
    rc_json_bool(j, "free_tf", info.free_tf);
    rc_json_int(j, "variables", info.nvar);
    rc_json_int(j, "constraints", info.ncon);
    rc_json_int(j, "entries", trep.nentries);
    rc_json_int(j, "failures", trep.nfailures);
    rc_json_number(j, "max_rel_err_jac", trep.max_rel_err_jac);
    rc_json_number(j, "max_rel_err_hes", trep.max_rel_err_hes);
    rc_json_number(j, "max_rel_err_grad", info.max_rel_err_grad);
    json_failures(j, &trep, trc);
    rc_json_end_object(j);
    rc_json_end_object(j);
  } else {
    if (rc != RC_OK)
      printf("  %s/%s: check could not run: %s\n", model->name, fname,
             err.message);
    text_failures(model->name, fname, &rep, rc);
    printf("%s %s/%s: %d entries, %d failures, max rel err jac %.2e hes "
           "%.2e (differences good to %.1e relative)\n",
           pass ? "PASS" : "FAIL", model->name, fname, rep.nentries,
           rep.nfailures, rep.max_rel_err_jac, rep.max_rel_err_hes,
           rep.max_rel_bound);
    if (trc != RC_OK)
      printf("  %s/%s: transcription check could not run: %s\n", model->name,
             fname, terr.message);
    text_failures(model->name, fname, &trep, trc);
    if (info.skipped)
      printf("SKIP %s/%s transcription: %s\n", model->name, fname, info.why);
    else
      printf("%s %s/%s transcription (%d free segments, %d pins, tf %s): %d "
             "entries, %d failures, max rel err jac %.2e hes %.2e\n",
             tpass ? "PASS" : "FAIL", model->name, fname, info.nseg, info.npin,
             info.free_tf ? "free" : "fixed", trep.nentries, trep.nfailures,
             trep.max_rel_err_jac, trep.max_rel_err_hes);
  }
  rc_problem_free(&pb);
  rc_params_free(&pv);
  return pass ? RC_CLI_OK : RC_CLI_NOT_CONVERGED;
}

/* Checks one formulation of problem, or all (form NULL). */
static int check_all(const char *cmd, const char *problem, const char *form,
                     const rc_check_options *co, const rc_cli_list *sets,
                     int json) {
  int st;
  const rc_model *model;
  int f = -1;
  if ((st = rc_cli_find_model(cmd, problem, &model)))
    return st;
  if (form && (st = rc_cli_find_formulation(cmd, model, form, &f)))
    return st;
  rc_json j, *jp = NULL;
  if (json) {
    rc_json_init(&j, stdout);
    jp = &j;
    rc_json_begin_object(jp, NULL);
    rc_json_string(jp, "problem", model->name);
    rc_json_number(jp, "step", co->step);
    rc_json_int(jp, "levels", co->levels);
    rc_json_number(jp, "rtol", co->rel_tol);
    rc_json_number(jp, "atol", co->abs_tol);
    rc_json_begin_array(jp, "formulations");
  }
  int worst = RC_CLI_OK;
  for (int k = f >= 0 ? f : 0; k < (f >= 0 ? f + 1 : model->nformulations);
       ++k) {
    int s = check_one(cmd, model, k, co, sets->n, sets->v, jp);
    worst = s > worst ? s : worst;
  }
  if (json) {
    rc_json_end_array(jp);
    rc_json_bool(jp, "pass", worst == RC_CLI_OK);
    rc_json_end_object(jp);
    rc_json_finish(jp);
  }
  return worst;
}

static int run_check(int argc, char **argv) {
  if (rc_cli_has_job(argc, argv)) /* radcol check --job FILE.json */
    return rc_cli_job_check(argc, argv);
  const char *cmd = "check", *problem = NULL, *form = NULL;
  int json = 0;
  long npoints = 0, seed = 0;
  double step = 0, rtol = 0, atol = 0;
  int have_points = 0, have_seed = 0, have_step = 0, have_rtol = 0,
      have_atol = 0;
  rc_cli_list sets = {0, NULL, NULL, 0};
  const rc_cli_option opts[] = {
      {"--json", NULL, RC_CLI_FLAG, .dest = &json},
      {"-f", "--formulation", RC_CLI_TEXT, .dest = &form},
      {"--points", NULL, RC_CLI_INT, .dest = &npoints, .seen = &have_points,
       .lo = 1, .hi = 100000, .what = "an integer in 1..100000"},
      {"--seed", NULL, RC_CLI_INT, .dest = &seed, .seen = &have_seed, .lo = 0,
       .hi = 4294967295L, .what = "an integer in 0..4294967295"},
      {"--step", NULL, RC_CLI_POSITIVE, .dest = &step, .seen = &have_step},
      {"--rtol", NULL, RC_CLI_POSITIVE, .dest = &rtol, .seen = &have_rtol},
      {"--atol", NULL, RC_CLI_POSITIVE, .dest = &atol, .seen = &have_atol},
      {"--set", NULL, RC_CLI_LIST, .dest = &sets},
      {NULL}};
  const rc_cli_syntax syntax = {usage, opts, &problem,
                                "missing PROBLEM (see radcol list)"};
  int st = rc_cli_parse(cmd, argc, argv, &syntax);
  if (st) {
    rc_cli_list_free(&sets);
    return st < 0 ? RC_CLI_OK : st;
  }
  rc_check_options co;
  rc_check_options_default(&co);
  if (have_points)
    co.npoints = (int)npoints;
  if (have_seed)
    co.seed = (unsigned)seed;
  if (have_step && step > 0.01) {
    rc_cli_error(cmd,
                 "--step %g: expected a number in (0, 0.01] (the "
                 "largest difference step relative to 1 + |v|)",
                 step);
    rc_cli_list_free(&sets);
    return RC_CLI_BAD_INPUT;
  }
  if (have_step)
    co.step = step;
  if (have_rtol)
    co.rel_tol = rtol;
  if (have_atol)
    co.abs_tol = atol;
  st = check_all(cmd, problem, form, &co, &sets, json);
  rc_cli_list_free(&sets);
  return st;
}

const rc_cli_command rc_cli_cmd_check = {
    "check", "finite-difference check of every hand-coded derivative", usage,
    run_check};
