/*
 * cli/cli_solve.c - `radcol solve`: a result to a tolerance (the adaptive
 * default), one solve on a mesh the user chose, or the refinement loop;
 * diagnosed against the problem's reference and written to HDF5.
 *
 * Modes (docs/accuracy.md; the library forms the verdict):
 *   adaptive  no -n, -s, --mesh, --refine: rc_solve_adaptive from the
 *             problem's suggested mesh to --accuracy TOL (default 1e-6),
 *             binding: exit 0 only when the estimate and the dense-grid
 *             check meet TOL.  With --estimate off nothing can be verified:
 *             one solve on the suggested mesh (fixed, said on stderr).
 *   fixed     -n, -s or --mesh: rc_solve_estimated on that mesh; the
 *             verdict against TOL is reported (warnings above it) and
 *             binding only with --error-tol TOL.
 *   refine    --refine TOL: rc_solve_refined_estimated from the mesh given
 *             (or the suggested one), binding at TOL.
 * Flow (every check that can refuse the input runs before the solve, so bad
 * input never writes or leaves a file; the writer itself is atomic):
 *   arguments -> model -> formulation -> parameters (defaults, then --set and
 *   --tf in command-line order) -> model->create -> rc_problem_validate ->
 *   mesh -> guess (--guess, same problem; from another formulation mapped by
 *   name and kind) -> options -> output path -> the solve of the mode (one
 *   /refinement row and one stderr line per solve of a loop) -> rc_diagnose
 *   -> rc_write_result -> summary (text, or one JSON object).  Exit status:
 *   0 converged or acceptable (or a sampled-reference problem) with the
 *   verdict met where it is binding, 1 any other outcome (the file is
 *   written), 2 bad input, 3 I/O.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli_init.h"
#include "cli/cli_job.h"
#include "cli/forms.h"
#include "cli/json.h"
#include "cli/report.h"
#include "cli/structure_report.h"
#include "core/numbers.h"
#include "radcol/estimate.h"
#include "radcol/io.h"
#include "radcol/march.h"
#include "radcol/march_refine.h"
#include "radcol/mesh.h"
#include "radcol/mesh_check.h"
#include "radcol/options.h"
#include "radcol/refine.h"
#include "radcol/simulate.h"
#include "radcol/solve.h"
#include "radcol/switching.h"

#define DEFAULT_ELEMENTS 40
#define DEFAULT_STAGES 3
/* Warn when the reference interpolated on the mesh (radcol/mesh_check.h)
 * misses by more than this, relative to the variable's largest value. */
#define MESH_CHECK_WARN 1e-3
#define MAX_ELEMENTS 10000000L
/* The default accuracy (--accuracy), relative to each variable's scale. */
#define DEFAULT_ACCURACY 1e-6

static const char usage[] =
    "usage: radcol solve PROBLEM [-f FORMULATION] [--accuracy TOL]\n"
    "                    [-n ELEMENTS] [-s STAGES] [--mesh FILE.h5]\n"
    "                    [--refine TOL] [--error-tol TOL]\n"
    "                    [--tf T] [--set NAME=VALUE]... [--guess FILE.h5]\n"
    "                    [--ipopt KEY=VALUE]... [--tol TOL] [--max-iter N]\n"
    "                    [--estimate global|local|off] [--plugin LIB.so]\n"
    "                    [--solver auto|ipopt|newton]\n"
    "                    [--rtol R] [--atol [NAME=]A]... [--march-stages S]\n"
    "                    [--dense-bounds on|off]\n"
    "                    [-o FILE.h5] [--json] [--quiet]\n"
    "       radcol solve --job FILE.json [options] (radcol solve --job x "
    "--help)\n\n"
    "Transcribe PROBLEM by Radau IIA collocation, solve the NLP with Ipopt\n"
    "(or Newton), estimate its error, measure errors against the problem's\n"
    "reference and write an HDF5 file.\n\n"
    "Modes (docs/accuracy.md):\n"
    "  adaptive (no -n, -s, --mesh or --refine): from the problem's suggested\n"
    "    mesh, refine until the error estimate and the dense-grid check of\n"
    "    every constraint meet --accuracy TOL; exit 0 only when they do\n"
    "  fixed (-n, -s or --mesh): one solve on that mesh; the estimate and the\n"
    "    dense-grid check are reported (warnings above TOL) and exit 0 when\n"
    "    the solver converged; --error-tol TOL makes the verdict binding\n"
    "  refine (--refine TOL): the adaptive loop from the mesh of -n/-s/--mesh\n"
    "    (or the suggested one) to TOL\n"
    "  march (an initial-value problem, a square system: no objective, x(t0)\n"
    "    fixed, without -n, -s or --mesh): the adaptive Radau IIA march; the\n"
    "    steps are chosen by local error control to --rtol/--atol, the global\n"
    "    error is estimated and the march repeated at a tighter local\n"
    "    tolerance until every index-1 unknown meets it (docs/march.md); "
    "where\n"
    "    the march fails, the adaptive mode above\n\n"
    "Options:\n"
    "  -f, --formulation F  formulation (radcol list); default: the problem's\n"
    "                       default formulation\n"
    "  --accuracy TOL       tolerance of the accuracy verdict, relative to\n"
    "                       each variable's scale max(1, max |v|): the target\n"
    "                       of the adaptive mode, the warning threshold on a\n"
    "                       fixed mesh; default: 1e-6\n"
    "  -n, --elements N     fixed mesh: uniform, N >= 1 elements; default: "
    "the\n"
    "                       problem's suggested mesh (e.g. breakpoints at a\n"
    "                       path's waypoints), else 40\n"
    "  -s, --stages S       fixed mesh: Radau IIA stages per element, 1..20;\n"
    "                       default: the problem's suggestion, else 3\n"
    "  --mesh FILE.h5       fixed mesh: the mesh of a result file (exclusive\n"
    "                       with -n/-s)\n"
    "  --refine TOL         adaptive hp mesh refinement until the global\n"
    "                       error estimate of the result (every variable, at\n"
    "                       the nodes and on the dense output, relative to\n"
    "                       max(1, max |v|)), every element's local estimate\n"
    "                       and the dense-grid check are <= TOL\n"
    "                       (docs/mesh-refinement.md), starting from the mesh\n"
    "                       of -n/-s or --mesh; exit 1 if a cap stops it\n"
    "                       first; default: off\n"
    "  --error-tol TOL      on a fixed mesh: status 'inaccurate' and exit 1\n"
    "                       (the file is still written) when the error\n"
    "                       estimate or a dense-grid violation exceeds TOL;\n"
    "                       without a mesh option the same as --accuracy TOL;\n"
    "                       default: off (reported, not binding)\n"
    "  --estimate KIND      a-posteriori error estimate: global (an enriched\n"
    "                       re-solve with one more stage per element), local\n"
    "                       (the refinement's element estimate, no re-solve)\n"
    "                       or off (then nothing is verified: without a mesh\n"
    "                       option, one solve on the suggested mesh);\n"
    "                       default: global\n"
    "  --max-refinements N  adaptive and --refine: at most N mesh changes;\n"
    "                       default: 12\n"
    "  --max-elements N     adaptive and --refine: at most N elements;\n"
    "                       default: 20000\n"
    "  --refine-no-duals    adaptive and --refine: warm-start each solve from\n"
    "                       the previous primal solution only; default:\n"
    "                       primal and dual\n"
    "  --tf T               final time of any problem, same as --set tf=T;\n"
    "                       default: the problem's own\n"
    "  --set NAME=VALUE     set a parameter (radcol list --params PROBLEM),\n"
    "                       repeatable, applied in order; default: none\n"
    "  --guess simulate:rk4|simulate:collatz[:H]  initial guess from an\n"
    "                       explicit simulation (docs/simulate.md)\n"
    "  --guess FILE.h5      initial guess from a result file of the same\n"
    "                       problem; from another formulation its variables\n"
    "                       are mapped by name and kind; default: the\n"
    "                       problem's guess function\n"
    "  --warm-start         also use the guess file's multipliers; default: "
    "off\n"
    "  --ipopt KEY=VALUE    raw Ipopt option, repeatable; default: none\n"
    "  --tol TOL            Ipopt tolerance > 0; default: 1e-10\n"
    "  --max-iter N         Ipopt iteration limit >= 0; default: 3000\n"
    "  --solver S           auto, ipopt or newton: newton integrates a square\n"
    "                       system (an initial-value DAE, "
    "docs/performance.md)\n"
    "                       element by element; auto uses it where it applies\n"
    "                       and falls back to Ipopt; default: auto\n"
    "  --rtol R             the march's relative tolerance, 1e-14..0.1: each\n"
    "                       unknown v within atol + R max |v| at the nodes\n"
    "                       and on the dense output; default: 1e-6\n"
    "  --atol A, --atol NAME=A  absolute tolerance > 0 of every unknown, or "
    "of\n"
    "                       the state, algebraic variable or control NAME\n"
    "                       (repeatable); default: 1e-6.  Unknowns of index 2\n"
    "                       and 3 (velocities, multipliers of an index-3\n"
    "                       formulation) are held to it per step scaled by\n"
    "                       h and h^2 (RADAU5's convention), not globally\n"
    "  --march-stages S     Radau IIA stages of every step of the march, odd\n"
    "                       1..13; default: 5 for R >= 1e-6, else 7\n"
    "  --dense-bounds on|off  on: simple bounds on states, algebraic\n"
    "                       variables and controls hold on the whole dense\n"
    "                       output (the Bernstein coefficients of every\n"
    "                       element's polynomial are bounded: sufficient,\n"
    "                       conservative by O(h^2), docs/dense-bounds.md);\n"
    "                       off: at the collocation nodes only; default: on.\n"
    "                       Every solve also checks every constraint on the\n"
    "                       dense grid (text line 'dense grid', JSON\n"
    "                       dense_violation, stderr warnings above 1e-6\n"
    "                       relative); the adaptive loop also splits elements\n"
    "                       where one is violated between the nodes by more\n"
    "                       than TOL\n"
    "  -o, --output FILE.h5 result file; default:\n"
    "                       results/<problem>-<formulation>.h5 (results/ is\n"
    "                       created if missing)\n"
    "  --json               print one JSON object on stdout; default: text\n"
    "  --quiet              no per-iteration progress on stderr; default: one\n"
    "                       line every 10 iterations or 0.5 s\n"
    "  --switching on|off   adaptive and --refine: follow the switching\n"
    "                       structure (free breakpoints at the switches, arcs\n"
    "                       pinned; docs/switching.md); default: on\n"
    "  --plugin LIB.so      load problems from a shared library first\n"
    "                       (docs/writing-a-problem.md); default: none\n"
    "  -h, --help           print this help\n\n"
    "--json fields: docs/json.md (every field, type and "
    "unit).\n" RC_CLI_EXIT_HELP
    "Exit 1 also when the accuracy verdict is binding (adaptive, --refine,\n"
    "--error-tol) and not met: status 'inaccurate', the file is written.\n"
    "Sampled-reference formulations (an exact inverse) solve no NLP.\n"
    "Before solving, a problem's reference is interpolated from the mesh\n"
    "nodes and compared on a fine grid; a mesh from -n, -s or --mesh that\n"
    "misses it by more than 1e-3 of a variable's largest value gets a\n"
    "warning on stderr (--json, any mesh: \"mesh_check\": max_rel_error,\n"
    "variable, t, threshold, mesh).\n";

typedef struct solve_args {
  const char *problem, *formulation, *mesh_path, *guess_path, *output;
  long n, s;
  int have_n, have_s;
  int json, quiet, warm_start;
  double tol;
  long max_iter;
  int have_tol, have_max_iter;
  rc_cli_list sets;  /* --set and --tf, in order */
  rc_cli_list ipopt; /* --ipopt KEY=VALUE */
  double refine_tol; /* --refine */
  long max_refinements, max_elements;
  int have_refine, have_max_refinements, have_max_elements, refine_no_duals;
  int solver;       /* --solver: rc_solver_kind */
  int dense_bounds; /* --dense-bounds: -1 default, 0 off, 1 on */
  double error_tol; /* --error-tol */
  int have_error_tol;
  double accuracy; /* --accuracy */
  int have_accuracy;
  int estimate; /* --estimate: rc_estimate_kind, global by default */
  double rtol;  /* --rtol */
  int have_rtol;
  rc_cli_list atol; /* --atol V or NAME=V, in order */
  long march_stages;
  int have_march_stages;
  int switching; /* --switching: 1 on (default), 0 off */
  int have_switching;
  /* from the options above (parse_args): the mode, the verdict's tolerance
   * and whether it is binding */
  rc_solve_mode mode;
  double acc_tol;
  int binding;
} solve_args;

/* One stderr line per refinement iteration (--refine). */
static void refine_progress(void *ctx, const rc_refine_row *r,
                            const char *note) {
  (void)ctx;
  char global[48] = "";
  if (!isnan(r->global_error))
    snprintf(global, sizeof global, " (global %.2e)", r->global_error);
  fprintf(stderr,
          "refine %2d: %6d elements, stages %d..%d, %8d variables, estimate "
          "%.2e%s, dense violation %.2e, reference error %.2e, %3d solver "
          "iterations, %.2f s; %s\n",
          r->iteration, r->elements, r->stages_min, r->stages_max, r->nvars,
          r->est_error, global, r->dense_violation, r->ref_error,
          r->ipopt_iterations, r->wall_s, note);
}

static void free_args(solve_args *a) {
  rc_cli_list_free(&a->sets);
  rc_cli_list_free(&a->ipopt);
  rc_cli_list_free(&a->atol);
}

static const char *const solver_words[] = {"auto", "ipopt", "newton", NULL};
static const int solver_values[] = {RC_SOLVER_AUTO, RC_SOLVER_IPOPT,
                                    RC_SOLVER_NEWTON};
static const char *const on_off_words[] = {"on", "off", NULL};
static const int on_off_values[] = {1, 0};
static const char *const estimate_words[] = {"global", "local", "off", NULL};
static const int estimate_values[] = {RC_ESTIMATE_GLOBAL, RC_ESTIMATE_LOCAL,
                                      RC_ESTIMATE_NONE};

/* The options (rc_cli_parse), then what they exclude. */
static int parse_args(const char *cmd, int argc, char **argv, solve_args *a) {
  a->estimate = RC_ESTIMATE_GLOBAL;
  a->dense_bounds = -1;
  a->switching = 1;
  const rc_cli_option opts[] = {
      {"--json", NULL, RC_CLI_FLAG, .dest = &a->json},
      {"--quiet", NULL, RC_CLI_FLAG, .dest = &a->quiet},
      {"--warm-start", NULL, RC_CLI_FLAG, .dest = &a->warm_start},
      {"--refine-no-duals", NULL, RC_CLI_FLAG, .dest = &a->refine_no_duals},
      {"-f", "--formulation", RC_CLI_TEXT, .dest = &a->formulation},
      {"-n", "--elements", RC_CLI_INT, .dest = &a->n, .seen = &a->have_n,
       .lo = 1, .hi = MAX_ELEMENTS, .what = "an integer >= 1"},
      {"-s", "--stages", RC_CLI_INT, .dest = &a->s, .seen = &a->have_s, .lo = 1,
       .hi = RC_MAX_STAGES, .what = "an integer in 1..20"},
      {"--tf", NULL, RC_CLI_TF, .dest = &a->sets},
      {"--set", NULL, RC_CLI_LIST, .dest = &a->sets},
      {"--mesh", NULL, RC_CLI_TEXT, .dest = &a->mesh_path},
      {"--guess", NULL, RC_CLI_TEXT, .dest = &a->guess_path},
      {"--ipopt", NULL, RC_CLI_KEYVAL, .dest = &a->ipopt,
       .what = "an Ipopt option"},
      {"--tol", NULL, RC_CLI_POSITIVE, .dest = &a->tol, .seen = &a->have_tol},
      {"--max-iter", NULL, RC_CLI_INT, .dest = &a->max_iter,
       .seen = &a->have_max_iter, .lo = 0, .hi = 1000000000L,
       .what = "an integer >= 0"},
      {"-o", "--output", RC_CLI_TEXT, .dest = &a->output},
      {"--refine", NULL, RC_CLI_POSITIVE, .dest = &a->refine_tol,
       .seen = &a->have_refine},
      {"--max-refinements", NULL, RC_CLI_INT, .dest = &a->max_refinements,
       .seen = &a->have_max_refinements, .lo = 0, .hi = 1000000L,
       .what = "an integer >= 0"},
      {"--max-elements", NULL, RC_CLI_INT, .dest = &a->max_elements,
       .seen = &a->have_max_elements, .lo = 1, .hi = MAX_ELEMENTS,
       .what = "an integer >= 1"},
      {"--solver", NULL, RC_CLI_CHOICE, .dest = &a->solver,
       .choices = solver_words, .values = solver_values},
      {"--dense-bounds", NULL, RC_CLI_CHOICE, .dest = &a->dense_bounds,
       .choices = on_off_words, .values = on_off_values},
      {"--error-tol", NULL, RC_CLI_POSITIVE, .dest = &a->error_tol,
       .seen = &a->have_error_tol},
      {"--accuracy", NULL, RC_CLI_POSITIVE, .dest = &a->accuracy,
       .seen = &a->have_accuracy},
      {"--estimate", NULL, RC_CLI_CHOICE, .dest = &a->estimate,
       .choices = estimate_words, .values = estimate_values},
      {"--rtol", NULL, RC_CLI_POSITIVE, .dest = &a->rtol,
       .seen = &a->have_rtol},
      {"--atol", NULL, RC_CLI_LIST, .dest = &a->atol},
      {"--march-stages", NULL, RC_CLI_INT, .dest = &a->march_stages,
       .seen = &a->have_march_stages, .lo = 1, .hi = 13,
       .what = "an odd number in 1..13"},
      {"--switching", NULL, RC_CLI_CHOICE, .dest = &a->switching,
       .seen = &a->have_switching, .choices = on_off_words,
       .values = on_off_values},
      {NULL}};
  const rc_cli_syntax syntax = {
      usage, opts, &a->problem,
      "missing PROBLEM (see radcol list and radcol solve --help)"};
  int st = rc_cli_parse(cmd, argc, argv, &syntax);
  if (st)
    return st;
  const int mesh_option = a->have_n || a->have_s || a->mesh_path;
  if (a->have_refine)
    a->mode = RC_MODE_REFINE;
  else if (mesh_option || a->estimate == RC_ESTIMATE_NONE)
    a->mode = RC_MODE_FIXED;
  else
    a->mode = RC_MODE_ADAPTIVE;
  if (a->mode == RC_MODE_FIXED &&
      (a->have_max_refinements || a->have_max_elements || a->refine_no_duals ||
       a->have_switching)) {
    rc_cli_error(cmd,
                 "%s: only meaningful when the mesh is refined (--refine TOL, "
                 "or no -n, -s, --mesh)",
                 a->have_max_refinements ? "--max-refinements"
                 : a->have_max_elements  ? "--max-elements"
                 : a->refine_no_duals    ? "--refine-no-duals"
                                         : "--switching");
    return RC_CLI_BAD_INPUT;
  }
  if (a->have_error_tol && a->estimate == RC_ESTIMATE_NONE) {
    rc_cli_error(cmd,
                 "--error-tol %g: needs an error estimate (not "
                 "--estimate off)",
                 a->error_tol);
    return RC_CLI_BAD_INPUT;
  }
  if (a->have_refine && (a->have_accuracy || a->have_error_tol)) {
    rc_cli_error(cmd,
                 "%s %g: --refine %g already sets the tolerance the result is "
                 "held to; give one of them",
                 a->have_accuracy ? "--accuracy" : "--error-tol",
                 a->have_accuracy ? a->accuracy : a->error_tol, a->refine_tol);
    return RC_CLI_BAD_INPUT;
  }
  if (a->have_accuracy && a->have_error_tol) {
    rc_cli_error(cmd,
                 "--error-tol %g: --accuracy %g already sets the tolerance; "
                 "give one of them (--error-tol makes it binding on a fixed "
                 "mesh)",
                 a->error_tol, a->accuracy);
    return RC_CLI_BAD_INPUT;
  }
  if (a->mesh_path && (a->have_n || a->have_s)) {
    rc_cli_error(cmd, "--mesh %s: cannot be combined with -n or -s",
                 a->mesh_path);
    return RC_CLI_BAD_INPUT;
  }
  a->acc_tol = a->have_refine      ? a->refine_tol
               : a->have_error_tol ? a->error_tol
               : a->have_accuracy  ? a->accuracy
                                   : DEFAULT_ACCURACY;
  a->binding = a->mode != RC_MODE_FIXED || a->have_error_tol;
  return RC_CLI_OK;
}

/* The guess file must hold the same problem.  From the same formulation it
 * must have the same sizes and is used as it is (multipliers too); from
 * another formulation its variables are mapped by name and kind
 * (rc_solution_map) and g is replaced by the mapped guess. */
static int check_guess(const char *cmd, const char *path, const rc_problem *pb,
                       rc_solution *g, const char *problem,
                       const char *formulation, int quiet) {
  if (strcmp(problem, pb->model) != 0) {
    rc_cli_error(cmd,
                 "--guess %s: holds a solution of %s/%s, expected a solution "
                 "of %s (a guess must come from the same problem)",
                 path, problem, formulation, pb->model);
    return RC_CLI_BAD_INPUT;
  }
  if (strcmp(formulation, pb->formulation) != 0) {
    char **names = NULL;
    int nn = 0, nmapped = 0;
    rc_error err = {RC_OK, ""};
    rc_solution mapped;
    if (rc_read_names(path, &names, &nn, NULL, NULL, &err) != RC_OK)
      return rc_cli_fail(cmd, &err);
    rc_err rc = rc_solution_map(pb, g, (const char *const *)names, &nmapped,
                                &mapped, &err);
    rc_free_strings(names, nn);
    if (rc != RC_OK) {
      rc_cli_error(cmd, "--guess %s: holds %s/%s: %s", path, problem,
                   formulation, err.message);
      return rc == RC_ERR_INPUT ? RC_CLI_BAD_INPUT : rc_cli_fail(cmd, &err);
    }
    rc_solution_free(g);
    *g = mapped;
    if (!quiet)
      fprintf(stderr,
              "guess: %d variables of %s/%s mapped by name from %s/%s (%s)\n",
              nmapped, pb->model, pb->formulation, problem, formulation, path);
    return RC_CLI_OK;
  }
  if (g->nx != pb->nx || g->ny != pb->ny || g->nu != pb->nu ||
      g->np != pb->np) {
    rc_cli_error(cmd,
                 "--guess %s: sizes nx=%d ny=%d nu=%d np=%d, expected nx=%d "
                 "ny=%d nu=%d np=%d for %s/%s",
                 path, g->nx, g->ny, g->nu, g->np, pb->nx, pb->ny, pb->nu,
                 pb->np, pb->model, pb->formulation);
    return RC_CLI_BAD_INPUT;
  }
  return RC_CLI_OK;
}

/* Status shown to the user: sampled-reference problems solve no NLP. */
static const char *shown_status(const rc_problem *pb, rc_status s) {
  if (s == RC_STATUS_INACCURATE)
    return rc_status_name(s);
  if (s == RC_STATUS_NOT_RUN)
    return pb->sampled_reference ? "converged" : "failed";
  return rc_status_name(s);
}

static int success(const rc_problem *pb, rc_status s) {
  return s == RC_STATUS_CONVERGED || s == RC_STATUS_ACCEPTABLE ||
         (s == RC_STATUS_NOT_RUN && pb->sampled_reference);
}

/* The simple bounds active at the returned point of a solve that did not
 * converge ("u1 <= 3 at 37 of 150 nodes; tau >= 0 at 5 of 150 nodes"), so
 * that an infeasible or failed solve names the limits it ran into; "" when
 * none; "at" means within 1e-4 (1 + |bound|) (an interior-point iterate
 * that stopped early is near, not on, its bounds).  Nodes count from 1 (t0
 * holds no NLP values for y, u unless the formulation imposes g there). */
static void active_bounds(const rc_problem *pb, const rc_solution *sol,
                          char *buf, size_t len) {
  const int nw = rc_problem_nw(pb);
  buf[0] = '\0';
  size_t used = 0;
  for (int i = 0; i < nw && sol->w; ++i)
    for (int side = 0; side < 2; ++side) {
      const double b = side ? pb->w_hi[i] : pb->w_lo[i];
      if (!isfinite(b))
        continue;
      int n = 0;
      for (int k = 1; k < sol->nnodes; ++k)
        n += fabs(sol->w[(size_t)k * nw + i] - b) <= 1e-4 * (1.0 + fabs(b));
      if (n > 0 && used + 80 < len)
        used += (size_t)snprintf(buf + used, len - used,
                                 "%s%s %s %g at %d of %d nodes",
                                 used ? "; " : "", pb->var_names[i],
                                 side ? "<=" : ">=", b, n, sol->nnodes - 1);
    }
}

/* What --json and the text summary report beyond the last solve's stats. */
typedef struct solve_report {
  int iterations_total; /* Ipopt iterations over every refinement solve */
  int solves;           /* NLP solves behind the result (refinement rows) */
  const rc_error_estimate *estimate;
  double error_tol; /* NaN: no --error-tol */
  double tf;        /* the solution's final time (solved when free) */
  const rc_solution *sol;
  const rc_structure *structure;
} solve_report;

static void print_json(const rc_problem *pb, const rc_mesh *mesh,
                       const rc_solve_stats *st, const rc_diagnostics *d,
                       const rc_dense_violation *dv, const rc_mesh_check *mc,
                       const char *mesh_from, const char *output,
                       const char *bounds, const solve_report *r) {
  rc_json j;
  rc_json_init(&j, stdout);
  rc_json_begin_object(&j, NULL);
  rc_json_string(&j, "problem", pb->model);
  rc_json_string(&j, "formulation", pb->formulation);
  rc_json_int(&j, "index", pb->index);
  rc_json_int(&j, "elements", mesh->n);
  /* One type per field (docs/json.md): stages is always the largest stage
   * count, stages_min the smallest. */
  rc_json_int(&j, "stages", rc_mesh_max_stages(mesh));
  rc_json_int(&j, "stages_min", rc_mesh_min_stages(mesh));
  rc_json_int(&j, "nodes", rc_mesh_nodes(mesh));
  rc_json_int(&j, "variables", st->nvars);
  rc_json_int(&j, "constraints", st->ncons);
  rc_json_int(&j, "nnz_jac", st->nnz_jac);
  rc_json_int(&j, "nnz_hes", st->nnz_hes);
  rc_json_string(&j, "status", shown_status(pb, st->status));
  rc_json_string(&j, "message", st->message[0] ? st->message : NULL);
  rc_json_string(&j, "solver", st->solver[0] ? st->solver : NULL);
  rc_json_int(&j, "iterations", r->iterations_total);
  rc_json_int(&j, "iterations_last", st->iterations);
  rc_json_int(&j, "solves", r->solves);
  rc_json_number(&j, "objective", st->objective);
  rc_json_string(&j, "objective_sense", pb->maximize ? "max" : "min");
  rc_json_number(&j, "objective_scale", st->objective_scale);
  rc_json_number(&j, "tf", r->tf);
  rc_json_bool(&j, "tf_free", pb->free_tf);
  rc_json_number(&j, "constraint_violation", st->constraint_violation);
  rc_json_number(&j, "dual_infeasibility", st->dual_infeasibility);
  rc_json_number(&j, "wall_s", rc_cli_elapsed());
  rc_json_number(&j, "ipopt_s", st->ipopt_s);
  rc_json_number(&j, "eval_s", st->eval_s);
  rc_json_string(&j, "output", output);
  rc_cli_json_diagnostics(&j, pb, d);
  rc_cli_json_dense(&j, dv);
  rc_cli_json_estimate(&j, pb, r->estimate);
  rc_cli_json_structure(&j, pb, r->sol, r->structure);
  rc_json_number(&j, "error_tol", r->error_tol);
  rc_cli_json_accuracy(&j, pb, &st->accuracy);
  rc_json_string(&j, "note", pb->note);
  rc_json_string(&j, "active_bounds", bounds[0] ? bounds : NULL);
  if (mc && mc->worst_var >= 0) { /* the starting mesh against the reference */
    rc_json_begin_object(&j, "mesh_check");
    rc_json_number(&j, "max_rel_error", mc->worst_rel);
    rc_json_string(&j, "variable", rc_mesh_check_var_name(pb, mc->worst_var));
    rc_json_number(&j, "t", mc->worst_t);
    rc_json_number(&j, "threshold", MESH_CHECK_WARN);
    rc_json_string(&j, "mesh", mesh_from);
    rc_json_end_object(&j);
  }
  rc_json_end_object(&j);
  rc_json_finish(&j);
}

static void print_text(const rc_problem *pb, const rc_mesh *mesh,
                       const rc_solve_stats *st, const rc_diagnostics *d,
                       const rc_dense_violation *dv, const char *output,
                       const solve_report *r) {
  printf("%s/%s: %s (%s)\n", pb->model, pb->formulation,
         shown_status(pb, st->status),
         pb->sampled_reference && st->status == RC_STATUS_NOT_RUN
             ? "reference sampled on the mesh, no NLP"
             : (st->message[0] ? st->message : rc_status_message(st->status)));
  printf("  mesh        %d elements, stages %d..%d, %d nodes\n", mesh->n,
         rc_mesh_min_stages(mesh), rc_mesh_max_stages(mesh),
         rc_mesh_nodes(mesh));
  printf("  NLP         %d variables, %d constraints, nnz jac %d, nnz hes "
         "%d\n",
         st->nvars, st->ncons, st->nnz_jac, st->nnz_hes);
  const char *sense = pb->maximize ? "maximised; " : "";
  if (r->solves > 1)
    printf("  solver      %s: %d iterations over %d solves (%d in the last), "
           "objective %.12g (%sNLP scale %g), constraint violation %.3g\n",
           st->solver[0] ? st->solver : "none", r->iterations_total, r->solves,
           st->iterations, st->objective, sense, st->objective_scale,
           st->constraint_violation);
  else
    printf("  solver      %s: %d iterations, objective %.12g (%sNLP scale %g), "
           "constraint violation %.3g\n",
           st->solver[0] ? st->solver : "none", st->iterations, st->objective,
           sense, st->objective_scale, st->constraint_violation);
  if (pb->free_tf) {
    char tfs[RC_FMT_LEN];
    printf("  final time  tf = %s (free, solved)\n",
           rc_fmt_shortest(r->tf, tfs));
  }
  printf("  time        wall %.3f s, ipopt %.3f s, eval %.3f s\n",
         rc_cli_elapsed(), st->ipopt_s, st->eval_s);
  rc_cli_print_diagnostics(pb, d, "nodes");
  rc_cli_print_dense(dv);
  rc_cli_print_estimate(pb, r->estimate);
  rc_cli_print_structure(pb, r->sol, r->structure);
  rc_cli_print_accuracy(&st->accuracy);
  printf("  output      %s\n", output);
}

/* Everything one `radcol solve` holds, from the arguments to the summary;
 * the steps below fill it in order and free_job releases it. */
typedef struct solve_job {
  const char *cmd;
  solve_args a;
  const rc_model *model;
  int f;
  rc_param_values pv;
  rc_problem *pb;
  rc_problem *pb_given;  /* the problem as given, when pb is its restart */
  rc_mesh mesh;          /* the starting mesh */
  const char *mesh_from; /* where it came from: --mesh, -n, -s, default */
  rc_mesh_check mcheck;  /* the reference interpolated on it */
  rc_solution guess, sol;
  int have_guess, have_sol;
  rc_options opt;
  rc_cli_progress ps;
  rc_refine_options ro;
  rc_refine_row *refine_rows; /* one per solve of --refine */
  int nrefine;
  rc_solve_stats st;
  rc_error_estimate est;
  int have_est;
  rc_structure structure; /* the switching structure of the result */
  int have_structure;
  rc_cli_diag diag;
  char *output;
  char bounds[512]; /* simple bounds active at a failed solve's point */
  int march;        /* a square system without a mesh option: marched */
  rc_march_info minfo;
  const char **atol_names; /* --atol NAME=V (names owned) */
  double *atol_values;
  int natol_owned;
} solve_job;

static void free_job(solve_job *j) {
  for (int i = 0; i < j->natol_owned; ++i)
    free((char *)j->atol_names[i]);
  free(j->atol_names);
  free(j->atol_values);
  rc_cli_diag_free(&j->diag);
  if (j->have_structure)
    rc_structure_free(&j->structure);
  rc_mesh_check_free(&j->mcheck);
  if (j->have_est)
    rc_error_estimate_free(&j->est);
  if (j->have_sol)
    rc_solution_free(&j->sol);
  if (j->have_guess)
    rc_solution_free(&j->guess);
  rc_mesh_free(&j->mesh);
  rc_problem_free(&j->pb);
  rc_problem_free(&j->pb_given);
  rc_params_free(&j->pv);
  free(j->output);
  free(j->refine_rows);
  free_args(&j->a);
}

/* The starting mesh: --mesh, else the problem's suggested mesh unless -n is
 * given (e.g. breakpoints at waypoints), else uniform -n x -s with the
 * problem's defaults, else DEFAULT_ELEMENTS x DEFAULT_STAGES. */
static int make_mesh(solve_job *j) {
  const solve_args *a = &j->a;
  const rc_problem *pb = j->pb;
  rc_error err = {RC_OK, ""};
  rc_err rc;
  if (a->mesh_path) {
    int status = rc_cli_check_input(j->cmd, "--mesh", a->mesh_path);
    if (status)
      return status;
    rc = rc_read_mesh(a->mesh_path, &j->mesh, &err);
  } else if (!a->have_n && pb->default_mesh_n > 0) {
    rc = rc_mesh_suggested(pb, a->have_s ? (int)a->s : 0, DEFAULT_STAGES,
                           &j->mesh, &err);
  } else {
    int n = a->have_n ? (int)a->n
                      : (pb->default_elements > 0 ? pb->default_elements
                                                  : DEFAULT_ELEMENTS);
    int s = a->have_s ? (int)a->s
                      : (pb->default_stages > 0 ? pb->default_stages
                                                : DEFAULT_STAGES);
    rc = rc_mesh_uniform(n, s, &j->mesh, &err);
  }
  j->mesh_from = a->mesh_path ? "--mesh"
                 : a->have_n  ? "-n"
                 : a->have_s  ? "-s"
                              : "default";
  return rc == RC_OK ? RC_CLI_OK : rc_cli_fail(j->cmd, &err);
}

/* Can the mesh represent the reference (e.g. a path's corners)?  A floor
 * under the dense-output error, computed before solving; a user's mesh
 * that misses it by more than MESH_CHECK_WARN gets a warning. */
static void check_mesh(solve_job *j) {
  const solve_args *a = &j->a;
  const rc_problem *pb = j->pb;
  const rc_mesh_check *mc = &j->mcheck;
  rc_error merr = {RC_OK, ""};
  if (!pb->reference)
    return;
  if (rc_mesh_check_reference(pb, &j->mesh, 0, &j->mcheck, &merr) != RC_OK) {
    fprintf(stderr, "warning: %s/%s: mesh check skipped: %s\n", pb->model,
            pb->formulation, merr.message);
  } else if ((a->mesh_path || a->have_n || a->have_s) && mc->worst_var >= 0 &&
             mc->worst_rel > MESH_CHECK_WARN) {
    fprintf(stderr,
            "warning: %s/%s: the mesh (%d elements, %s) is too coarse for "
            "the reference: interpolated from the nodes it misses %s by "
            "%.3g of its largest value at t = %.6g (more than %g); expect "
            "dense-output errors at least that large (more elements, or "
            "leave out -n, -s and --mesh for the problem's mesh)\n",
            pb->model, pb->formulation, j->mesh.n, j->mesh_from,
            rc_mesh_check_var_name(pb, mc->worst_var), mc->worst_rel,
            mc->worst_t, MESH_CHECK_WARN);
  }
}

/* --guess simulate:METHOD[:H] (an explicit simulation, simulate.h) or
 * --guess FILE.h5 (check_guess); without it the problem's guess. */
static int load_guess(solve_job *j) {
  const char *cmd = j->cmd, *path = j->a.guess_path;
  rc_error err = {RC_OK, ""};
  if (!path)
    return RC_CLI_OK;
  if (strncmp(path, "simulate:", 9) == 0) {
    rc_sim_method sm;
    double sh;
    char src[64] = "";
    if (rc_simulate_parse_guess(path, &sm, &sh, &err) != RC_OK ||
        rc_simulate_guess(j->model, &j->pv, j->pb, &j->mesh, sm, sh, &j->guess,
                          src, NULL, &err) != RC_OK)
      return rc_cli_fail(cmd, &err);
    j->have_guess = 1;
    if (!j->a.quiet)
      fprintf(stderr, "guess: %s simulation of %s/%s\n", rc_sim_method_name(sm),
              j->pb->model, src);
    return RC_CLI_OK;
  }
  char gp[64] = "", gf[64] = "";
  int status = rc_cli_check_input(cmd, "--guess", path);
  if (status)
    return status;
  if (rc_read_solution(path, &j->guess, gp, gf, &err) != RC_OK)
    return rc_cli_fail(cmd, &err);
  j->have_guess = 1;
  gp[63] = gf[63] = '\0';
  return check_guess(cmd, path, j->pb, &j->guess, gp, gf, j->a.quiet);
}

/* --rtol, --atol V and --atol NAME=V (the last scalar one wins, names in
 * order), --march-stages into j->opt. */
static int march_tolerances(solve_job *j) {
  const solve_args *a = &j->a;
  rc_options *opt = &j->opt;
  if (a->have_rtol)
    opt->rtol = a->rtol;
  if (a->have_march_stages)
    opt->march_stages = (int)a->march_stages;
  const int n = a->atol.n;
  j->atol_names = calloc((size_t)n + 1, sizeof *j->atol_names);
  j->atol_values = calloc((size_t)n + 1, sizeof *j->atol_values);
  if (!j->atol_names || !j->atol_values) {
    rc_cli_error(j->cmd, "out of memory for %d --atol values", n);
    return RC_CLI_NO_MEMORY;
  }
  int named = 0;
  for (int i = 0; i < n; ++i) {
    const char *v = a->atol.v[i], *eq = strchr(v, '=');
    double x;
    if (eq && eq == v) {
      rc_cli_error(j->cmd,
                   "--atol %s: expected V or NAME=V (a variable "
                   "name before '=')",
                   v);
      return RC_CLI_BAD_INPUT;
    }
    int st = rc_cli_real(j->cmd, "--atol", eq ? eq + 1 : v, 1, &x);
    if (st)
      return st;
    if (!eq) {
      opt->atol = x;
      continue;
    }
    /* the name is the text before '=' (kept in the argument list) */
    char *name = strndup(v, (size_t)(eq - v));
    if (!name) {
      rc_cli_error(j->cmd, "out of memory for --atol %s", v);
      return RC_CLI_NO_MEMORY;
    }
    j->atol_names[named] = name;
    j->atol_values[named++] = x;
  }
  j->natol_owned = named;
  opt->natol = named;
  opt->atol_names = j->atol_names;
  opt->atol_values = j->atol_values;
  return RC_CLI_OK;
}

/* The solver options from the arguments, validated; the refinement's too. */
static int make_options(solve_job *j) {
  const solve_args *a = &j->a;
  rc_options *opt = &j->opt;
  rc_error err = {RC_OK, ""};
  rc_options_default(opt);
  opt->print_level = 0;
  if (a->have_tol)
    opt->tol = a->tol;
  if (a->have_max_iter)
    opt->max_iter = (int)a->max_iter;
  opt->warm_start = a->warm_start;
  opt->solver = (rc_solver_kind)a->solver;
  if (a->dense_bounds >= 0)
    opt->dense_bounds = a->dense_bounds;
  opt->nipopt = a->ipopt.n;
  opt->ipopt_kv = a->ipopt.v;
  if (!a->quiet) {
    opt->progress = rc_cli_ipopt_progress;
    opt->progress_ctx = &j->ps;
  }
  int status = march_tolerances(j);
  if (status)
    return status;
  opt->estimate = (rc_estimate_kind)a->estimate;
  opt->accuracy_tol = a->acc_tol;
  opt->accuracy_binding = a->binding;
  if (rc_options_validate(opt, &err) != RC_OK)
    return rc_cli_fail(j->cmd, &err);
  rc_refine_options *ro = &j->ro;
  rc_refine_options_default(ro);
  if (a->mode != RC_MODE_FIXED) {
    ro->tol = a->acc_tol;
    if (a->have_max_refinements)
      ro->max_refinements = (int)a->max_refinements;
    if (a->have_max_elements)
      ro->max_elements = (int)a->max_elements;
    ro->dual_warm_start = !a->refine_no_duals;
    ro->switching = a->switching;
    if (!a->quiet)
      ro->progress = refine_progress;
    ro->global = a->estimate == RC_ESTIMATE_GLOBAL;
  }
  return RC_CLI_OK;
}

/* The march to tolerance (radcol/march_refine.h): --refine TOL sets rtol
 * (and atol, unless --atol gave one) and caps the marches at
 * --max-refinements + 1; else 3 marches at --rtol/--atol. */
static rc_err run_march(solve_job *j, const rc_solution *guess, rc_error *err) {
  const solve_args *a = &j->a;
  if (a->have_refine) {
    j->opt.rtol = a->refine_tol;
    int scalar_atol = 0;
    for (int i = 0; i < a->atol.n; ++i)
      scalar_atol = scalar_atol || !strchr(a->atol.v[i], '=');
    if (!scalar_atol)
      j->opt.atol = a->refine_tol;
  }
  const int marches = a->have_refine ? j->ro.max_refinements + 1 : 3;
  rc_err rc =
      rc_march_refined(j->pb, &j->opt, guess, marches < 100 ? marches : 100,
                       (rc_estimate_kind)a->estimate, &j->sol, &j->st,
                       &j->minfo, &j->refine_rows, &j->nrefine, &j->est, err);
  if (rc != RC_OK)
    return rc;
  j->have_est = j->est.kind != RC_ESTIMATE_NONE;
  if (!a->quiet && a->have_refine)
    for (int i = 0; i < j->nrefine; ++i)
      refine_progress(NULL, &j->refine_rows[i],
                      i + 1 < j->nrefine ? "march again" : j->st.message);
  return RC_OK;
}

/* Forget a failed march (its solution, estimate and rows). */
static void drop_march(solve_job *j) {
  rc_solution_free(&j->sol);
  memset(&j->sol, 0, sizeof j->sol);
  if (j->have_est)
    rc_error_estimate_free(&j->est);
  j->have_est = 0;
  free(j->refine_rows);
  j->refine_rows = NULL;
  j->nrefine = 0;
  j->march = 0;
}

/* The solve of the mode (adaptive, refine or fixed); the library forms the
 * error estimate and the accuracy verdict (docs/accuracy.md). */
static rc_err solve_in_mode(solve_job *j, const rc_solution *guess,
                            rc_error *err) {
  const rc_problem *pb = j->pb;
  const solve_args *a = &j->a;
  rc_err rc;
  if (!a->quiet && a->mode == RC_MODE_ADAPTIVE)
    fprintf(stderr,
            "adaptive: %s/%s to accuracy %g from %d elements (no -n, -s or "
            "--mesh; docs/accuracy.md)\n",
            pb->model, pb->formulation, a->acc_tol, j->mesh.n);
  else if (!a->quiet && a->mode == RC_MODE_FIXED && !a->have_n && !a->have_s &&
           !a->mesh_path)
    fprintf(stderr,
            "fixed: --estimate off leaves nothing to verify, so one solve "
            "on the problem's mesh (%d elements)\n",
            j->mesh.n);
  const int want_est = a->estimate != RC_ESTIMATE_NONE;
  if (a->mode == RC_MODE_ADAPTIVE) {
    rc = rc_solve_adaptive(pb, &j->mesh, guess, &j->opt, &j->ro, &j->sol,
                           &j->st, &j->refine_rows, &j->nrefine, &j->est, err);
    j->have_est = rc == RC_OK;
  } else if (a->mode == RC_MODE_REFINE) {
    rc = rc_solve_refined_estimated(
        pb, &j->mesh, guess, &j->opt, &j->ro, &j->sol, &j->st, &j->refine_rows,
        &j->nrefine, want_est ? &j->est : NULL, err);
    j->have_est = rc == RC_OK && want_est;
  } else {
    rc = rc_solve_estimated(pb, &j->mesh, &j->opt, guess, &j->sol, &j->st,
                            &j->est, &j->diag.dense, err);
    j->have_est = rc == RC_OK;
    j->diag.have_dense = rc == RC_OK;
  }
  return rc;
}

/* The accuracy verdict of a march to --refine TOL (binding, against the
 * march's rtol = TOL, as rc_solve_adaptive forms it), with the dense-grid
 * check it is formed from. */
static void march_verdict(solve_job *j) {
  rc_error err = {RC_OK, ""};
  rc_dense_violation dv;
  const int have_dv = rc_dense_check(j->pb, &j->sol, j->opt.dense_per_element,
                                     &dv, &err) == RC_OK;
  j->st.accuracy.mode = RC_MODE_ADAPTIVE;
  j->st.status = rc_accuracy_verdict(
      j->st.status, 0, j->have_est ? &j->est : NULL, have_dv ? &dv : NULL,
      j->opt.rtol, 1, &j->st.accuracy);
  if (have_dv) {
    j->diag.dense = dv;
    j->diag.have_dense = 1;
  }
}

/* The solve: --refine TOL on a square system without a mesh option is the
 * march to TOL (run_march), solved by the refinement loop when the march
 * fails; else the solve of the mode (solve_in_mode: the adaptive default
 * of a square system marches inside rc_solve_adaptive). */
static int run_solver(solve_job *j) {
  const rc_problem *pb = j->pb;
  const rc_solution *guess = j->have_guess ? &j->guess : NULL;
  rc_error err = {RC_OK, ""};
  rc_err rc;
  if (pb->note)
    fprintf(stderr, "warning: %s/%s: %s\n", pb->model, pb->formulation,
            pb->note);
  /* --refine TOL on a square system without a mesh option: the march to
   * rtol TOL (the adaptive default marches inside rc_solve_adaptive) */
  j->march = j->a.have_refine && !j->a.mesh_path && !j->a.have_n &&
             !j->a.have_s && j->opt.solver == RC_SOLVER_AUTO &&
             rc_square_system(pb, NULL, 0);
  rc = RC_OK;
  if (j->march && (rc = run_march(j, guess, &err)) == RC_OK &&
      j->st.status != RC_STATUS_CONVERGED) {
    fprintf(stderr,
            "note: %s/%s: the adaptive march failed (%s); solving on the "
            "%s mesh of %d elements instead\n",
            pb->model, pb->formulation, j->st.message, j->mesh_from, j->mesh.n);
    drop_march(j);
  }
  if (rc != RC_OK)
    return rc_cli_fail(j->cmd, &err);
  if (j->march)
    march_verdict(j);
  else if ((rc = solve_in_mode(j, guess, &err)) != RC_OK)
    return rc_cli_fail(j->cmd, &err);
  if (j->have_est && j->est.kind == RC_ESTIMATE_NONE) {
    rc_error_estimate_free(&j->est);
    j->have_est = 0;
  }
  j->have_sol = 1;
  if (j->have_est && j->a.estimate == RC_ESTIMATE_GLOBAL &&
      j->est.kind == RC_ESTIMATE_LOCAL)
    fprintf(stderr,
            "warning: %s/%s: no global error estimate (%s); the local "
            "estimate is reported instead\n",
            pb->model, pb->formulation, j->est.note);
  /* a singular arc's control judged by its running mean: the pointwise
   * values the user reads are not within the estimate (docs/switching.md) */
  if (j->have_est && j->est.singular_elements > 0)
    fprintf(stderr,
            "warning: %s/%s: on %d element(s) of singular arcs the estimate "
            "compares the control through its running mean; its pointwise "
            "values there are resolved only to %.3g (the NLP's flat "
            "directions)\n",
            pb->model, pb->formulation, j->est.singular_elements,
            j->est.singular_pointwise);
  if (j->st.newton_fallback_element >= 0 && j->opt.solver == RC_SOLVER_AUTO)
    fprintf(stderr,
            "note: %s/%s: Newton did not converge at element %d; solved by "
            "Ipopt instead (solver \"%s\")\n",
            pb->model, pb->formulation, j->st.newton_fallback_element,
            j->st.solver);
  return RC_CLI_OK;
}

/* The switching structure of the result (radcol/structure.h), with the
 * free breakpoints' errors from the estimate when it has them; a failure
 * is a warning. */
static void detect_structure(solve_job *j) {
  const rc_problem *pb = j->pb;
  const rc_mesh *m = &j->sol.mesh;
  if (pb->sampled_reference || j->sol.nnodes < 2)
    return;
  rc_switching_options so;
  rc_switching_options_default(&so);
  double *unc = NULL;
  if (j->have_est && m->nseg > 1 && j->est.nswitch == m->nseg - 1 &&
      (unc = malloc(sizeof *unc * (size_t)(m->nseg + 1)))) {
    unc[0] = unc[m->nseg] = 0.0;
    for (int q = 1; q < m->nseg; ++q)
      unc[q] = j->est.switch_err[q - 1];
    so.detect.boundary_unc = unc;
  }
  rc_error err = {RC_OK, ""};
  if (rc_structure_detect(pb, &j->sol, &so.detect, &j->structure, &err) ==
      RC_OK)
    j->have_structure = 1;
  else
    fprintf(stderr, "warning: radcol solve: switching structure: %s\n",
            err.message);
  free(unc);
}

/* The result file (kind "solve"). */
static int write_result(solve_job *j) {
  rc_result_record rec =
      rc_cli_record("solve", j->model, &j->pv, j->pb, &j->sol, &j->st);
  rec.diag = j->diag.have_diag ? &j->diag.diag : NULL;
  rec.dense = j->diag.have_dense ? &j->diag.dense : NULL;
  rec.nrefine = j->nrefine;
  rec.refine = j->refine_rows;
  rec.nipopt = j->a.ipopt.n; /* /diagnostics/ipopt_options */
  rec.ipopt_kv = j->a.ipopt.v;
  rec.estimate = j->have_est ? &j->est : NULL;
  rec.structure = j->have_structure ? &j->structure : NULL;
  return rc_cli_write(j->cmd, j->output, &rec);
}

/* The summary on stdout (text or --json), then the dense-grid warnings. */
static void print_summary(solve_job *j) {
  const rc_problem *pb = j->pb;
  const rc_cli_diag *d = &j->diag;
  solve_report rep = {j->st.iterations,
                      1,
                      j->have_est ? &j->est : NULL,
                      j->a.have_error_tol ? j->a.error_tol : NAN,
                      j->sol.mesh.n > 0 ? j->sol.tf : pb->tf,
                      &j->sol,
                      j->have_structure ? &j->structure : NULL};
  if (j->nrefine > 0) {
    rep.iterations_total = 0;
    rep.solves = j->nrefine;
    for (int i = 0; i < j->nrefine; ++i)
      rep.iterations_total += j->refine_rows[i].ipopt_iterations;
  }
  if (!success(pb, j->st.status) && !pb->infeasible)
    active_bounds(pb, &j->sol, j->bounds, sizeof j->bounds);
  const rc_mesh *mesh = j->sol.mesh.n > 0 ? &j->sol.mesh : &j->mesh;
  if (j->a.json)
    print_json(pb, mesh, &j->st, d->have_diag ? &d->diag : NULL,
               d->have_dense ? &d->dense : NULL, &j->mcheck, j->mesh_from,
               j->output, j->bounds, &rep);
  else
    print_text(pb, mesh, &j->st, d->have_diag ? &d->diag : NULL,
               d->have_dense ? &d->dense : NULL, j->output, &rep);
  /* A problem proved infeasible before solving writes its starting point:
   * the file records that point's dense-grid check, but warnings about it
   * would read as if a solution broke the constraints. */
  if (d->have_dense && !pb->infeasible)
    rc_cli_warn_dense(j->cmd, pb, &d->dense);
}

/* The option that set the verdict's tolerance, for messages. */
static const char *tol_option(const solve_args *a) {
  return a->have_refine      ? "--refine"
         : a->have_error_tol ? "--error-tol"
         : a->have_accuracy  ? "--accuracy"
                             : "the default accuracy";
}

/* The verdict's reasons, "; "-separated, into why: the estimate above TOL
 * (naming the variables), a dense-grid violation above TOL, or why it is
 * not verified. */
static void verdict_reasons(const solve_job *j, char *why, size_t len) {
  const solve_args *a = &j->a;
  const rc_accuracy *acc = &j->st.accuracy;
  const rc_error_estimate *est = j->have_est ? &j->est : NULL;
  size_t used = 0;
  why[0] = '\0';
  if (acc->estimate_max > acc->tol) {
    char above[256];
    rc_cli_estimate_above(j->pb, est, acc->tol, above, sizeof above);
    used += (size_t)snprintf(
        why + used, len - used, "error estimate %.3g (%s) above %s %g%s%s",
        acc->estimate_max,
        rc_estimate_kind_name((rc_estimate_kind)acc->estimate_kind),
        tol_option(a), acc->tol, above[0] ? ": " : "", above);
  } else if (isnan(acc->estimate_max) && used < len) {
    used += (size_t)snprintf(why + used, len - used,
                             "no error estimate verifies it (%.300s)",
                             est && est->note[0] ? est->note
                             : a->estimate == RC_ESTIMATE_NONE
                                 ? "--estimate off"
                                 : "the estimate was not computed or failed");
  }
  if (acc->dense_worst > acc->tol && used < len)
    used += (size_t)snprintf(
        why + used, len - used,
        "%sa constraint is violated on the dense output by %.3g relative, "
        "above %s %g (the warnings name it)",
        used ? "; " : "", acc->dense_worst, tol_option(a), acc->tol);
  else if (isnan(acc->dense_worst) && used < len)
    used += (size_t)snprintf(why + used, len - used,
                             "%sthe dense-grid check did not run",
                             used ? "; " : "");
  if (a->mode != RC_MODE_FIXED && used < len)
    snprintf(why + used, len - used, "%s%.400s", used ? "; " : "",
             j->st.message);
}

/* A fixed mesh without --error-tol: a warning when the verdict is not met
 * (reported, not binding). */
static void warn_accuracy(const solve_job *j) {
  const rc_accuracy *acc = &j->st.accuracy;
  if (acc->met != 0)
    return;
  char why[1024];
  verdict_reasons(j, why, sizeof why);
  fprintf(stderr,
          "warning: radcol solve: %s/%s: the result does not meet the "
          "accuracy %g on this fixed mesh: %s (reported, not binding: "
          "--error-tol TOL makes it binding; leave out -n, -s and --mesh for "
          "the adaptive solve)\n",
          j->pb->model, j->pb->formulation, acc->tol, why);
}

/* Why the result is inaccurate: every reason that holds. */
static void explain_inaccurate(const solve_job *j) {
  char why[1024];
  verdict_reasons(j, why, sizeof why);
  fprintf(stderr,
          "radcol solve: %s/%s is inaccurate: %s; the result is in %s\n",
          j->pb->model, j->pb->formulation, why, j->output);
}

/* The exit status (0 success, else 1: the file is written) and the stderr
 * lines that say why it is not 0. */
static int final_status(const solve_job *j) {
  const rc_problem *pb = j->pb;
  const rc_solve_stats *st = &j->st;
  const int status = success(pb, st->status) ? RC_CLI_OK : RC_CLI_NOT_CONVERGED;
  if (st->status == RC_STATUS_INACCURATE)
    explain_inaccurate(j);
  else if (status)
    fprintf(stderr,
            "radcol solve: %s/%s did not converge: %s (%s); the "
            "result is in %s\n",
            pb->model, pb->formulation, shown_status(pb, st->status),
            rc_status_message(st->status), j->output);
  else if (!st->accuracy.binding)
    warn_accuracy(j);
  if (status && j->bounds[0])
    fprintf(stderr, "radcol solve: bounds active at the returned point: %s\n",
            j->bounds);
  if (st->status == RC_STATUS_INACCURATE && j->a.mode != RC_MODE_FIXED &&
      pb->index >= 3)
    fprintf(stderr,
            "note: %s/%s has index %d: its multipliers converge at order "
            "s-1 and the NLP's conditioning grows like h^-%d, so a tight "
            "tolerance can be out of reach for them (docs/mesh-refinement.md;"
            " an index-1 or GGL formulation reaches it)\n",
            pb->model, pb->formulation, pb->index, pb->index);
  return status;
}

/* A model's multiphase formulation (rc_model.create_phases, docs/phases.md)
 * is solved as a job: returns 1 with *status set when it was one, else 0
 * (a one-phase formulation: the ordinary flow). */
static int multiphase(solve_job *j, int *status) {
  const solve_args *a = &j->a;
  const rc_model *model = rc_model_list_find(rc_cli_models(), a->problem);
  if (!model || !model->create_phases)
    return 0;
  const int f = a->formulation
                    ? rc_model_find_formulation(model, a->formulation)
                    : model->default_formulation;
  rc_error err = {RC_OK, ""};
  rc_param_values pv;
  rc_phases *ph = NULL;
  if (f < 0 || rc_params_init_defaults(model, &pv, &err) != RC_OK)
    return 0; /* the ordinary flow words the error */
  for (int k = 0; k < a->sets.n; ++k)
    if (rc_params_set(model, &pv, a->sets.v[k], &err) != RC_OK) {
      rc_params_free(&pv);
      return 0;
    }
  /* pv outlives the phases: a model may record it in them */
  *status = rc_cli_model_phases(j->cmd, model, f, &pv, &ph);
  if (*status == 0) {
    rc_params_free(&pv);
    return 0;
  }
  if (*status == 1) {
    if (a->mesh_path || a->guess_path || a->dense_bounds >= 0 ||
        a->warm_start || a->have_max_elements || a->refine_no_duals ||
        a->solver == RC_SOLVER_NEWTON) {
      rc_cli_error(j->cmd,
                   "%s/%s is a multiphase formulation: --mesh, --guess, "
                   "--warm-start, --dense-bounds, --max-elements, "
                   "--refine-no-duals and --solver newton do not apply (a "
                   "job file sets them per phase, docs/phases.md; phases are "
                   "solved by Ipopt)",
                   model->name, model->formulations[f].name);
      rc_phases_free(&ph);
      rc_params_free(&pv);
      *status = RC_CLI_BAD_INPUT;
      return 1;
    }
    rc_cli_job_args ja;
    memset(&ja, 0, sizeof ja);
    ja.output = a->output;
    ja.json = a->json;
    ja.quiet = a->quiet;
    ja.tol = a->tol, ja.have_tol = a->have_tol;
    ja.max_iter = a->max_iter, ja.have_max_iter = a->have_max_iter;
    ja.refine_tol = a->refine_tol, ja.have_refine = a->have_refine;
    ja.max_refinements = a->max_refinements;
    ja.have_max_refinements = a->have_max_refinements;
    ja.error_tol = a->error_tol, ja.have_error_tol = a->have_error_tol;
    ja.estimate = a->estimate;
    ja.ipopt = a->ipopt;
    /* no mesh option: the accuracy the user did not give up (as one phase) */
    if (!a->have_n && !a->have_s && !a->have_error_tol && !a->have_refine &&
        a->estimate != RC_ESTIMATE_NONE)
      ja.accuracy = a->acc_tol;
    *status = rc_cli_model_phases_solve(
        j->cmd, model, ph, &ja, a->have_n ? a->n : 0, a->have_s ? a->s : 0);
  }
  rc_params_free(&pv);
  return 1;
}

/* The flow of the file's header comment; every refusal comes before
 * run_solver. */
static int solve_steps(solve_job *j, int argc, char **argv) {
  solve_args *a = &j->a;
  int status;
  if ((status = parse_args(j->cmd, argc, argv, a)))
    return status;
  if (multiphase(j, &status))
    return status;
  if ((status =
           rc_cli_setup_problem(j->cmd, a->problem, a->formulation, a->sets.n,
                                a->sets.v, &j->model, &j->f, &j->pv, &j->pb)))
    return status;
  /* Inconsistent initial values: start from the nearest consistent point
   * (radcol init's machinery), with a warning naming what moved. */
  if ((status =
           rc_cli_init_for_solve(j->cmd, &j->pb, &j->pb_given, a->quiet)) ||
      (status = make_mesh(j)))
    return status;
  check_mesh(j);
  if ((status = load_guess(j)) || (status = make_options(j)) ||
      (status = rc_cli_output_path(j->cmd, a->output, j->pb, "", &j->output)) ||
      (status = run_solver(j)))
    return status;
  detect_structure(j);
  /* the fixed mode's dense-grid check came with the verdict */
  const rc_dense_violation dense = j->diag.dense;
  const int have_dense = j->diag.have_dense;
  rc_cli_diagnose(j->cmd, j->pb, &j->sol, j->opt.dense_per_element, !have_dense,
                  &j->diag);
  if (have_dense) {
    j->diag.dense = dense;
    j->diag.have_dense = 1;
  }
  if ((status = write_result(j)))
    return status;
  print_summary(j);
  return final_status(j);
}

static int run_solve(int argc, char **argv) {
  if (rc_cli_has_job(argc, argv)) /* radcol solve --job FILE.json */
    return rc_cli_job_solve(argc, argv);
  solve_job j;
  memset(&j, 0, sizeof j);
  j.cmd = "solve";
  j.f = -1;
  int status = solve_steps(&j, argc, argv);
  free_job(&j);
  return status < 0 ? RC_CLI_OK : status; /* -1: --help */
}

const rc_cli_command rc_cli_cmd_solve = {
    "solve", "transcribe, solve with Ipopt, diagnose and write HDF5", usage,
    run_solve};
