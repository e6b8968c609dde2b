/*
 * cli/cli_job.c - job files (docs/phases.md, "The job file"): a multiphase
 * problem in JSON for `radcol solve --job FILE.json` and `radcol check
 * --job FILE.json`, and the multiphase formulations of models
 * (rc_model.create_phases) from `radcol solve MODEL -f F`.
 *
 * The file is read with jansson (Debian libjansson-dev): it reports syntax
 * errors with their line and column and refuses duplicate keys.  Every
 * other error names the phase, the key and the value:
 *     job.json: phase 'a' (phases[0]): key 'formulation': 'mintme' is
 *     not a formulation of MODEL (its formulations, listed)
 *
 * Flow of a solve (every refusal before the solve; the writer is atomic):
 *   arguments -> the file -> each phase (model, formulation, set, tf ->
 *   rc_model_create; mesh; duration; data; guess) -> links -> solver
 *   options -> output path -> rc_phases_solve (rc_phases_solve_refined with
 *   --refine) -> the estimate per phase -> diagnostics per phase -> verdict
 *   -> rc_write_phases_result -> summary (text, or one JSON object).
 * Exit status as `radcol solve`: 0 converged, 1 not (file written), 2 bad
 * input, 3 I/O, 4 out of memory, 5 internal.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/args.h"
#include "cli/cli_job.h"
#include "cli/json.h"
#include "cli/report.h"
#include "radcol/check.h"
#include "radcol/data.h"
#include "radcol/io.h"
#include "radcol/phases.h"
#include "radcol/phases_check.h"
#include "radcol/phases_refine.h"

#define JOB_DEFAULT_ELEMENTS 40
#define JOB_DEFAULT_STAGES 3
#define JOB_MAX_PHASES 1000
#define JOB_MAX_SETS 256

static const char usage_solve[] =
    "usage: radcol solve --job FILE.json [-o FILE.h5] [--json] [--quiet]\n"
    "                    [--tol TOL] [--max-iter N] [--ipopt KEY=VALUE]...\n"
    "                    [--refine TOL] [--max-refinements N]\n"
    "                    [--estimate global|local|off] [--error-tol TOL]\n"
    "                    [--plugin LIB.so]\n\n"
    "Solve the multiphase problem of a job file (docs/phases.md): its phases\n"
    "(each a model, formulation, parameters, mesh, duration, data), linked\n"
    "at their boundaries, as one NLP; write every phase and the linkage\n"
    "multipliers to one HDF5 file (docs/hdf5-layout.md, multiphase files).\n\n"
    "Options (they override the file's \"solver\" and \"output\"):\n"
    "  --job FILE.json      the job file; default: none (radcol solve "
    "PROBLEM)\n"
    "  -o, --output FILE.h5 result file; default: the file's \"output\", else\n"
    "                       results/<name>.h5\n"
    "  --json               print one JSON object on stdout; default: text\n"
    "  --quiet              no progress lines on stderr\n"
    "  --tol TOL            Ipopt tolerance > 0; default: 1e-10\n"
    "  --max-iter N         Ipopt iteration limit; default: 3000\n"
    "  --ipopt KEY=VALUE    raw Ipopt option, repeatable\n"
    "  --refine TOL         hp refinement of every phase until each meets TOL\n"
    "                       (radcol/phases_refine.h); default: off\n"
    "  --max-refinements N  with --refine: at most N mesh changes; default: "
    "12\n"
    "  --estimate KIND      global (an enriched solve of all phases), local "
    "or\n"
    "                       off; default: global\n"
    "  --error-tol TOL      status 'inaccurate' (exit 1) when a phase's\n"
    "                       estimate exceeds TOL; default: off\n"
    "  --plugin LIB.so      load problems from a shared library first\n"
    "  -h, --help           print this help\n\n" RC_CLI_EXIT_HELP;

/* ---- the job ------------------------------------------------------------- */

typedef struct job_row { /* one linear linkage row */
  int nterm;
  int *idx;  /* into the event vector */
  int *zero; /* nterm zeros: the Jacobian's row indices */
  double *coef;
  double lo, hi;
  char *name;
} job_row;

typedef struct job_phase {
  const char *name;
  const rc_model *model;
  int f;
  rc_param_values pv;
  rc_problem *pb;
  rc_mesh mesh;
  rc_data_table data;
  int have_data;
  rc_solution guess;
  int have_guess;
} job_phase;

typedef struct job {
  const char *cmd, *path;
  json_t *root;
  const char *name;
  int n;
  job_phase *jp;
  rc_phase *phase;
  int nrows;
  job_row *rows;
  rc_link *links;
  rc_phases ph;
  /* from the file's "solver" */
  double tol;
  long max_iter;
  int have_tol, have_max_iter, dense_bounds;
  int nipopt;
  char **ipopt;
  const char *output;
  /* a model's multiphase formulation instead of a file */
  rc_phases *owned;
} job;

static void job_free(job *j) {
  for (int k = 0; j->jp && k < j->n; ++k) {
    job_phase *p = &j->jp[k];
    if (p->have_data)
      rc_data_table_free(&p->data);
    if (p->have_guess)
      rc_solution_free(&p->guess);
    rc_mesh_free(&p->mesh);
    rc_problem_free(&p->pb);
    rc_params_free(&p->pv);
  }
  for (int r = 0; j->rows && r < j->nrows; ++r) {
    free(j->rows[r].idx);
    free(j->rows[r].zero);
    free(j->rows[r].coef);
    free(j->rows[r].name);
  }
  for (int i = 0; j->ipopt && i < j->nipopt; ++i)
    free(j->ipopt[i]);
  free(j->ipopt);
  free(j->rows);
  free(j->links);
  free(j->jp);
  free(j->phase);
  rc_phases_free(&j->owned);
  if (j->root)
    json_decref(j->root);
  memset(j, 0, sizeof *j);
}

/* "radcol CMD: FILE: phase 'NAME' (phases[K]): key 'KEY': message" */
static int job_fail(const job *j, int k, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int job_fail(const job *j, int k, const char *key, const char *fmt,
                    ...) {
  char msg[1024], where[256] = "";
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  size_t u = 0;
  if (k >= 0 && j->jp && j->jp[k].name)
    u += (size_t)snprintf(where + u, sizeof where - u,
                          "phase '%s' (phases[%d]): ", j->jp[k].name, k);
  else if (k >= 0)
    u += (size_t)snprintf(where + u, sizeof where - u, "phases[%d]: ", k);
  if (key && u < sizeof where)
    snprintf(where + u, sizeof where - u, "key '%s': ", key);
  rc_cli_error(j->cmd, "%s: %s%s", j->path, where, msg);
  return RC_CLI_BAD_INPUT;
}

/* The value as it is written in the file (compact, at most 80 chars). */
static void shown(const json_t *v, char *buf, size_t len) {
  char *s = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
  if (!s) {
    snprintf(buf, len, "(missing)");
    return;
  }
  if (strlen(s) > 80)
    snprintf(buf, len, "%.77s...", s);
  else
    snprintf(buf, len, "%s", s);
  free(s);
}

/* Unknown keys of an object are refused (typos would be ignored). */
static int known_keys(const job *j, int k, const char *what, json_t *obj,
                      const char *const *keys) {
  const char *key;
  json_t *v;
  json_object_foreach(obj, key, v) {
    int ok = 0;
    for (int i = 0; keys[i]; ++i)
      ok |= strcmp(key, keys[i]) == 0;
    if (!ok) {
      char list[256] = "";
      size_t u = 0;
      for (int i = 0; keys[i] && u + 20 < sizeof list; ++i)
        u += (size_t)snprintf(list + u, sizeof list - u, "%s%s", i ? ", " : "",
                              keys[i]);
      char sv[96];
      shown(v, sv, sizeof sv);
      return job_fail(j, k, key,
                      "unknown key in %s (value %s): expected one "
                      "of %s",
                      what, sv, list);
    }
  }
  return RC_CLI_OK;
}

static int get_string(const job *j, int k, json_t *obj, const char *key,
                      int required, const char **out) {
  json_t *v = json_object_get(obj, key);
  *out = NULL;
  if (!v) {
    if (required)
      return job_fail(j, k, key, "missing: expected a string");
    return RC_CLI_OK;
  }
  if (!json_is_string(v) || !json_string_value(v)[0]) {
    char sv[96];
    shown(v, sv, sizeof sv);
    return job_fail(j, k, key, "%s: expected a non-empty string", sv);
  }
  *out = json_string_value(v);
  return RC_CLI_OK;
}

static int get_number(const job *j, int k, const char *key, json_t *v,
                      double *out) {
  if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
      fabs(json_number_value(v)) > 1e150) {
    char sv[96];
    shown(v, sv, sizeof sv);
    return job_fail(j, k, key,
                    "%s: expected a finite number of magnitude <= 1e150", sv);
  }
  *out = json_number_value(v);
  return RC_CLI_OK;
}

static int get_int(const job *j, int k, const char *key, json_t *v, long lo,
                   long hi, long *out) {
  if (!json_is_integer(v) || json_integer_value(v) < lo ||
      json_integer_value(v) > hi) {
    char sv[96];
    shown(v, sv, sizeof sv);
    return job_fail(j, k, key, "%s: expected an integer in %ld..%ld", sv, lo,
                    hi);
  }
  *out = (long)json_integer_value(v);
  return RC_CLI_OK;
}

/* ---- one phase ------------------------------------------------------------
 */

/* "set": {"NAME": number or string, ...} and "tf" -> the problem. */
static int phase_problem(job *j, int k, json_t *o) {
  job_phase *p = &j->jp[k];
  const char *problem, *form;
  int st;
  if ((st = get_string(j, k, o, "problem", 1, &problem)) ||
      (st = get_string(j, k, o, "formulation", 0, &form)))
    return st;
  p->model = rc_model_list_find(rc_cli_models(), problem);
  if (!p->model) {
    char list[512] = "";
    size_t u = 0;
    for (const rc_model *const *m = rc_cli_models(); *m && u + 40 < sizeof list;
         ++m)
      u += (size_t)snprintf(list + u, sizeof list - u, "%s%s", u ? ", " : "",
                            (*m)->name);
    return job_fail(j, k, "problem",
                    "'%s' is not a problem (%s; a plugin's problem needs "
                    "--plugin or the file's \"plugin\")",
                    problem, list);
  }
  p->f = form ? rc_model_find_formulation(p->model, form)
              : p->model->default_formulation;
  if (p->f < 0) {
    char list[512] = "";
    size_t u = 0;
    for (int i = 0; i < p->model->nformulations && u + 40 < sizeof list; ++i)
      u += (size_t)snprintf(list + u, sizeof list - u, "%s%s", i ? ", " : "",
                            p->model->formulations[i].name);
    return job_fail(j, k, "formulation", "'%s' is not a formulation of %s (%s)",
                    form, p->model->name, list);
  }
  rc_error err = {RC_OK, ""};
  if (rc_params_init_defaults(p->model, &p->pv, &err) != RC_OK)
    return rc_cli_fail(j->cmd, &err);
  double tf = NAN;
  const int own_tf = rc_model_param_index(p->model, "tf") >= 0;
  json_t *set = json_object_get(o, "set");
  if (set && !json_is_object(set)) {
    char sv[96];
    shown(set, sv, sizeof sv);
    return job_fail(j, k, "set", "%s: expected an object {\"NAME\": value}",
                    sv);
  }
  const char *key;
  json_t *v;
  json_object_foreach(set, key, v) {
    char a[4096];
    if (json_is_string(v))
      snprintf(a, sizeof a, "%s=%s", key, json_string_value(v));
    else if (json_is_integer(v))
      snprintf(a, sizeof a, "%s=%lld", key, (long long)json_integer_value(v));
    else if (json_is_real(v))
      snprintf(a, sizeof a, "%s=%.17g", key, json_real_value(v));
    else {
      char sv[96];
      shown(v, sv, sizeof sv);
      return job_fail(j, k, "set", "%s: %s: expected a number or a string", key,
                      sv);
    }
    if (rc_params_set(p->model, &p->pv, a, &err) != RC_OK)
      return job_fail(j, k, "set", "%s", err.message);
  }
  json_t *jtf = json_object_get(o, "tf");
  if (jtf) {
    if ((st = get_number(j, k, "tf", jtf, &tf)))
      return st;
    if (own_tf) {
      char a[64];
      snprintf(a, sizeof a, "tf=%.17g", tf);
      if (rc_params_set(p->model, &p->pv, a, &err) != RC_OK)
        return job_fail(j, k, "tf", "%s", err.message);
      tf = NAN;
    }
  }
  if (p->model->create_phases) {
    rc_phases *inner = NULL;
    if (p->model->create_phases(p->model, p->f, &p->pv, &inner, &err) != RC_OK)
      return job_fail(j, k, "formulation", "%s", err.message);
    const int multi = inner != NULL;
    rc_phases_free(&inner);
    if (multi)
      return job_fail(j, k, "formulation",
                      "%s/%s is itself a multiphase problem: expected a "
                      "one-phase formulation in a phase",
                      p->model->name, p->model->formulations[p->f].name);
  }
  if (rc_model_create(p->model, p->f, &p->pv, tf, &p->pb, &err) != RC_OK)
    return job_fail(j, k, jtf ? "tf" : "set", "%s", err.message);
  return RC_CLI_OK;
}

/* n x s elements (0: the problem's suggestion, else 40 x 3), or the
 * problem's suggested mesh when n is 0 and it has one. */
static rc_err default_mesh(const rc_problem *pb, long n, long s, rc_mesh *m,
                           rc_error *err) {
  if (!n && pb->default_mesh_n > 0)
    return rc_mesh_suggested(pb, (int)s, JOB_DEFAULT_STAGES, m, err);
  return rc_mesh_uniform(
      n ? (int)n
        : (pb->default_elements > 0 ? pb->default_elements
                                    : JOB_DEFAULT_ELEMENTS),
      s ? (int)s
        : (pb->default_stages > 0 ? pb->default_stages : JOB_DEFAULT_STAGES),
      m, err);
}

/* "mesh": {"elements": N, "stages": S} or "FILE.h5" or {"file", "phase"}. */
static int phase_mesh(job *j, int k, json_t *o) {
  job_phase *p = &j->jp[k];
  const rc_problem *pb = p->pb;
  json_t *m = json_object_get(o, "mesh");
  rc_error err = {RC_OK, ""};
  rc_err rc;
  long n = 0, s = 0, ph = -1;
  const char *file = NULL;
  int st;
  if (m && json_is_string(m)) {
    file = json_string_value(m);
  } else if (m && json_is_object(m)) {
    static const char *const keys[] = {"elements", "stages",    "file",
                                       "phase",    "fractions", NULL};
    if ((st = known_keys(j, k, "\"mesh\"", m, keys)))
      return st;
    json_t *v;
    if ((v = json_object_get(m, "elements")) &&
        (st = get_int(j, k, "mesh.elements", v, 1, 10000000, &n)))
      return st;
    if ((v = json_object_get(m, "stages")) &&
        (st = get_int(j, k, "mesh.stages", v, 1, RC_MAX_STAGES, &s)))
      return st;
    if ((v = json_object_get(m, "phase")) &&
        (st = get_int(j, k, "mesh.phase", v, 0, JOB_MAX_PHASES, &ph)))
      return st;
    if ((v = json_object_get(m, "fractions"))) {
      /* breakpoints as fractions of the phase's duration, 0 ... 1 */
      if (!json_is_array(v) || json_array_size(v) < 2 ||
          json_array_size(v) > 10000001 || n)
        return job_fail(j, k, "mesh.fractions",
                        "expected an array [0, ..., 1] of at least 2 "
                        "breakpoints (and no \"elements\")");
      const size_t nf = json_array_size(v);
      double *fr = malloc(sizeof *fr * nf);
      int *sg = malloc(sizeof *sg * nf);
      if (!fr || !sg) {
        free(fr);
        free(sg);
        return RC_CLI_NO_MEMORY;
      }
      st = RC_CLI_OK;
      for (size_t i = 0; i < nf && !st; ++i) {
        sg[i] = s ? (int)s : JOB_DEFAULT_STAGES;
        st = get_number(j, k, "mesh.fractions", json_array_get(v, i), &fr[i]);
      }
      if (!st &&
          rc_mesh_from_arrays((int)nf - 1, fr, sg, &p->mesh, &err) != RC_OK)
        st = job_fail(j, k, "mesh.fractions", "%s", err.message);
      free(fr);
      free(sg);
      return st;
    }
    if ((v = json_object_get(m, "file"))) {
      if (!json_is_string(v))
        return job_fail(j, k, "mesh.file", "expected a file name");
      file = json_string_value(v);
      if (n || s)
        return job_fail(j, k, "mesh",
                        "a file and elements/stages: expected "
                        "one or the other");
    }
  } else if (m) {
    char sv[96];
    shown(m, sv, sizeof sv);
    return job_fail(j, k, "mesh",
                    "%s: expected {\"elements\": N, \"stages\": S} or a "
                    "result file name",
                    sv);
  }
  if (file) {
    if ((st = rc_cli_check_input(j->cmd, "mesh", file)))
      return st;
    rc = ph >= 0 ? rc_read_phase_mesh(file, (int)ph, &p->mesh, &err)
                 : rc_read_mesh(file, &p->mesh, &err);
    if (rc != RC_OK)
      return job_fail(j, k, "mesh", "%s", err.message);
    return RC_CLI_OK;
  }
  rc = default_mesh(pb, n, s, &p->mesh, &err);
  return rc == RC_OK ? RC_CLI_OK : job_fail(j, k, "mesh", "%s", err.message);
}

/* "duration": T (fixed) or {"min", "max", "guess"} (free). */
static int phase_duration(job *j, int k, json_t *o) {
  rc_phase *P = &j->phase[k];
  json_t *d = json_object_get(o, "duration");
  int st;
  if (!d)
    return RC_CLI_OK;
  if (json_is_number(d)) {
    if ((st = get_number(j, k, "duration", d, &P->T)))
      return st;
    if (!(P->T > 0))
      return job_fail(j, k, "duration", "%g: expected a number > 0", P->T);
    P->duration = RC_DURATION_FIXED;
    return RC_CLI_OK;
  }
  if (!json_is_object(d)) {
    char sv[96];
    shown(d, sv, sizeof sv);
    return job_fail(j, k, "duration",
                    "%s: expected a number (fixed) or {\"min\", \"max\", "
                    "\"guess\"} (free)",
                    sv);
  }
  static const char *const keys[] = {"min", "max", "guess", NULL};
  if ((st = known_keys(j, k, "\"duration\"", d, keys)))
    return st;
  json_t *lo = json_object_get(d, "min"), *hi = json_object_get(d, "max"),
         *g = json_object_get(d, "guess");
  if (!lo || !hi)
    return job_fail(j, k, "duration",
                    "a free duration needs \"min\" and \"max\"");
  if ((st = get_number(j, k, "duration.min", lo, &P->T_lo)) ||
      (st = get_number(j, k, "duration.max", hi, &P->T_hi)))
    return st;
  P->T = 0.5 * (P->T_lo + P->T_hi);
  if (g && (st = get_number(j, k, "duration.guess", g, &P->T)))
    return st;
  if (!(P->T_lo > 0 && P->T_lo <= P->T && P->T <= P->T_hi))
    return job_fail(j, k, "duration",
                    "min %g, guess %g, max %g: expected 0 < min <= guess <= "
                    "max",
                    P->T_lo, P->T, P->T_hi);
  if (!j->jp[k].pb->autonomous)
    return job_fail(j, k, "duration",
                    "%s/%s depends on t: a free duration needs an autonomous "
                    "problem",
                    j->jp[k].pb->model, j->jp[k].pb->formulation);
  P->duration = RC_DURATION_FREE;
  return RC_CLI_OK;
}

/* "data": "FILE.csv"; "guess": "FILE.h5" or {"file", "phase"}. */
static int phase_files(job *j, int k, json_t *o) {
  job_phase *p = &j->jp[k];
  rc_error err = {RC_OK, ""};
  int st;
  const char *data;
  if ((st = get_string(j, k, o, "data", 0, &data)))
    return st;
  if (data) {
    rc_problem local;
    if (rc_phases_local_problem(
            &(rc_phases){.nphases = k + 1, .phase = j->phase}, k, &local, NULL,
            &err) != RC_OK)
      return job_fail(j, k, "duration", "%s", err.message);
    if (rc_data_read_csv(data, &local, &p->data, &err) != RC_OK)
      return err.code == RC_ERR_IO ? rc_cli_fail(j->cmd, &err)
                                   : job_fail(j, k, "data", "%s", err.message);
    p->have_data = 1;
    j->phase[k].data = &p->data.fit;
  }
  json_t *g = json_object_get(o, "guess");
  if (!g)
    return RC_CLI_OK;
  const char *file = NULL;
  long ph = -1;
  if (json_is_string(g)) {
    file = json_string_value(g);
  } else if (json_is_object(g)) {
    static const char *const keys[] = {"file", "phase", NULL};
    if ((st = known_keys(j, k, "\"guess\"", g, keys)))
      return st;
    json_t *v = json_object_get(g, "file");
    if (!json_is_string(v))
      return job_fail(j, k, "guess.file", "expected a file name");
    file = json_string_value(v);
    if ((v = json_object_get(g, "phase")) &&
        (st = get_int(j, k, "guess.phase", v, 0, JOB_MAX_PHASES, &ph)))
      return st;
  } else {
    return job_fail(j, k, "guess",
                    "expected a result file name or {\"file\", \"phase\"}");
  }
  if ((st = rc_cli_check_input(j->cmd, "guess", file)))
    return st;
  char gp[64] = "", gf[64] = "";
  rc_err rc =
      ph >= 0 ? rc_read_phase_solution(file, (int)ph, &p->guess, gp, gf, &err)
              : rc_read_solution(file, &p->guess, gp, gf, &err);
  if (rc != RC_OK)
    return job_fail(j, k, "guess", "%s", err.message);
  p->have_guess = 1;
  if (strcmp(gp, p->pb->model) != 0 || strcmp(gf, p->pb->formulation) != 0 ||
      p->guess.nx != p->pb->nx || p->guess.ny != p->pb->ny ||
      p->guess.nu != p->pb->nu || p->guess.np != p->pb->np)
    return job_fail(j, k, "guess",
                    "%s holds %s/%s (nx %d, ny %d, nu %d, np %d): expected a "
                    "solution of %s/%s",
                    file, gp, gf, p->guess.nx, p->guess.ny, p->guess.nu,
                    p->guess.np, p->pb->model, p->pb->formulation);
  return RC_CLI_OK;
}

static int load_phase(job *j, int k, json_t *o) {
  static const char *const keys[] = {"name",  "problem", "formulation", "set",
                                     "tf",    "mesh",    "duration",    "data",
                                     "guess", NULL};
  int st;
  if (!json_is_object(o)) {
    char sv[96];
    shown(o, sv, sizeof sv);
    return job_fail(j, k, NULL, "%s: expected an object", sv);
  }
  if ((st = get_string(j, k, o, "name", 1, &j->jp[k].name)) ||
      (st = known_keys(j, k, "a phase", o, keys)))
    return st;
  for (int i = 0; i < k; ++i)
    if (strcmp(j->jp[i].name, j->jp[k].name) == 0)
      return job_fail(j, k, "name",
                      "'%s' is also the name of phases[%d]: expected "
                      "distinct names",
                      j->jp[k].name, i);
  if ((st = phase_problem(j, k, o)))
    return st;
  rc_phase *P = &j->phase[k];
  P->name = j->jp[k].name;
  P->pb = j->jp[k].pb;
  P->duration = RC_DURATION_PROBLEM;
  if ((st = phase_duration(j, k, o)) || (st = phase_mesh(j, k, o)) ||
      (st = phase_files(j, k, o)))
    return st;
  return RC_CLI_OK;
}

/* ---- linear linkage rows --------------------------------------------------
 */

static int link_eval(const rc_phases *ph, const rc_link *L, const double *e,
                     double *out) {
  (void)ph;
  const job_row *r = L->user;
  double s = 0.0;
  for (int i = 0; i < r->nterm; ++i)
    s += r->coef[i] * e[r->idx[i]];
  out[0] = s;
  return 0;
}
static int link_jac(const rc_phases *ph, const rc_link *L, const double *e,
                    double *v) {
  (void)ph, (void)e;
  const job_row *r = L->user;
  memcpy(v, r->coef, sizeof *v * (size_t)r->nterm);
  return 0;
}
static int link_hes(const rc_phases *ph, const rc_link *L, const double *e,
                    const double *mu, double *v) {
  (void)ph, (void)L, (void)e, (void)mu, (void)v;
  return 0;
}

/* "PHASE.NAME@end", "PHASE.NAME@start", "PHASE.PARAM", "PHASE.duration":
 * its phase and index in that phase's part of an event vector (-1: bad). */
static int parse_term(const job *j, const char *term, int *phase, int *side,
                      int *idx, char *why, size_t len) {
  const char *dot = strchr(term, '.');
  if (!dot) {
    snprintf(why, len,
             "expected PHASE.VARIABLE@end|@start, PHASE.PARAMETER "
             "or PHASE.duration");
    return -1;
  }
  *phase = -1;
  for (int k = 0; k < j->n; ++k)
    if (strlen(j->jp[k].name) == (size_t)(dot - term) &&
        strncmp(term, j->jp[k].name, (size_t)(dot - term)) == 0)
      *phase = k;
  if (*phase < 0) {
    snprintf(why, len, "no phase called '%.*s'", (int)(dot - term), term);
    return -1;
  }
  const rc_problem *pb = j->jp[*phase].pb;
  char var[96];
  snprintf(var, sizeof var, "%s", dot + 1);
  char *at = strchr(var, '@');
  *side = -1; /* -1: either (parameters, duration) */
  if (at) {
    *at = '\0';
    if (strcmp(at + 1, "end") == 0)
      *side = 0;
    else if (strcmp(at + 1, "start") == 0)
      *side = 1;
    else {
      snprintf(why, len, "'@%s': expected @end or @start", at + 1);
      return -1;
    }
  }
  if (strcmp(var, "duration") == 0 && !at) {
    *idx = pb->nx + pb->np;
    return 0;
  }
  for (int i = 0; i < pb->nx; ++i)
    if (strcmp(pb->var_names[i], var) == 0) {
      if (!at) {
        snprintf(why, len, "state %s needs @end or @start", var);
        return -1;
      }
      *idx = i;
      return 0;
    }
  const int p0 = pb->nx + pb->ny + pb->nu;
  for (int i = 0; i < pb->np; ++i)
    if (strcmp(pb->var_names[p0 + i], var) == 0 && !at) {
      *idx = pb->nx + i;
      return 0;
    }
  snprintf(why, len,
           "'%s' is not a state (with @end or @start), decision parameter "
           "or 'duration' of phase %s",
           var, j->jp[*phase].name);
  return -1;
}

static int load_row(job *j, int r, json_t *o) {
  job_row *row = &j->rows[r];
  char key[48];
  snprintf(key, sizeof key, "link.rows[%d]", r);
  static const char *const keys[] = {"name", "terms", "equals",
                                     "min",  "max",   NULL};
  int st;
  if (!json_is_object(o))
    return job_fail(j, -1, key,
                    "expected an object {\"terms\": {...}, "
                    "\"equals\" | \"min\", \"max\"}");
  if ((st = known_keys(j, -1, key, o, keys)))
    return st;
  json_t *terms = json_object_get(o, "terms");
  if (!json_is_object(terms) || json_object_size(terms) == 0)
    return job_fail(j, -1, key,
                    "\"terms\": expected an object {\"PHASE.NAME@end\": "
                    "coefficient, ...}");
  const size_t nt = json_object_size(terms);
  row->idx = calloc(nt, sizeof(int));
  row->zero = calloc(nt, sizeof(int));
  row->coef = calloc(nt, sizeof(double));
  if (!row->idx || !row->zero || !row->coef) {
    rc_cli_error(j->cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  int lo_ph = j->n, hi_ph = -1;
  int *ph = calloc(nt, sizeof(int)), *side = calloc(nt, sizeof(int)),
      *id = calloc(nt, sizeof(int));
  const char *t;
  json_t *v;
  int i = 0;
  st = ph && side && id ? RC_CLI_OK : RC_CLI_NO_MEMORY;
  json_object_foreach(terms, t, v) {
    if (st)
      break;
    char why[512];
    if (parse_term(j, t, &ph[i], &side[i], &id[i], why, sizeof why) != 0) {
      st = job_fail(j, -1, key, "term '%s': %s", t, why);
      break;
    }
    if ((st = get_number(j, -1, key, v, &row->coef[i])))
      break;
    lo_ph = ph[i] < lo_ph ? ph[i] : lo_ph;
    hi_ph = ph[i] > hi_ph ? ph[i] : hi_ph;
    ++i;
  }
  /* the boundary: between lo_ph and lo_ph + 1 */
  int b = -1;
  if (!st) {
    if (j->n < 2)
      st = job_fail(j, -1, key, "a linkage row needs two phases or more");
    else if (hi_ph > lo_ph + 1)
      st = job_fail(j, -1, key,
                    "terms of phases %s and %s: expected phases next to "
                    "each other (one boundary)",
                    j->jp[lo_ph].name, j->jp[hi_ph].name);
    else
      b = hi_ph > lo_ph ? lo_ph : (lo_ph + 1 < j->n ? lo_ph : lo_ph - 1);
  }
  for (int q = 0; !st && q < i; ++q) {
    const int s = ph[q] == b ? 0 : 1; /* a or b of the boundary */
    if (side[q] >= 0 && side[q] != s) {
      st = job_fail(j, -1, key,
                    "term %d: the %s of phase %s is not at the boundary "
                    "%s->%s",
                    q, side[q] ? "start" : "end", j->jp[ph[q]].name,
                    j->jp[b].name, j->jp[b + 1].name);
      break;
    }
    const rc_problem *a = j->jp[b].pb;
    row->idx[q] = s == 0 ? id[q] : a->nx + a->np + 1 + id[q];
    for (int u = 0; u < q; ++u)
      if (row->idx[u] == row->idx[q])
        st = job_fail(j, -1, key, "term %d repeats term %d", q, u);
  }
  free(ph);
  free(side);
  free(id);
  if (st)
    return st;
  row->nterm = i;
  json_t *eq = json_object_get(o, "equals"), *lo = json_object_get(o, "min"),
         *hi = json_object_get(o, "max");
  row->lo = -HUGE_VAL;
  row->hi = HUGE_VAL;
  if (eq && (lo || hi))
    return job_fail(j, -1, key,
                    "\"equals\" and \"min\"/\"max\": expected "
                    "one or the other");
  if (eq) {
    if ((st = get_number(j, -1, key, eq, &row->lo)))
      return st;
    row->hi = row->lo;
  } else if (!lo && !hi) {
    return job_fail(j, -1, key,
                    "expected \"equals\", or \"min\" and/or "
                    "\"max\"");
  }
  if ((lo && (st = get_number(j, -1, key, lo, &row->lo))) ||
      (hi && (st = get_number(j, -1, key, hi, &row->hi))))
    return st;
  if (row->lo > row->hi)
    return job_fail(j, -1, key, "min %g > max %g", row->lo, row->hi);
  const char *nm = NULL;
  if ((st = get_string(j, -1, o, "name", 0, &nm)))
    return st;
  char def[64];
  snprintf(def, sizeof def, "row %d", r);
  row->name = strdup(nm ? nm : def);
  if (!row->name) {
    rc_cli_error(j->cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  rc_link *L = &j->links[r];
  L->boundary = b;
  L->nrows = 1;
  L->lo = &row->lo;
  L->hi = &row->hi;
  L->row_names = (const char *const *)&row->name;
  L->jac = (rc_pattern){row->nterm, row->zero, row->idx};
  L->eval = link_eval;
  L->jacobian = link_jac;
  L->hessian = link_hes;
  L->user = row;
  return RC_CLI_OK;
}

static int load_links(job *j, json_t *l) {
  static const char *const keys[] = {"continuity", "parameters", "rows", NULL};
  int st;
  j->ph.continuity = RC_CONTINUITY_SHARED;
  if (!l)
    return RC_CLI_OK;
  if (!json_is_object(l))
    return job_fail(j, -1, "link", "expected an object");
  if ((st = known_keys(j, -1, "\"link\"", l, keys)))
    return st;
  json_t *c = json_object_get(l, "continuity"),
         *p = json_object_get(l, "parameters"),
         *rows = json_object_get(l, "rows");
  if (c && !json_is_boolean(c))
    return job_fail(j, -1, "link.continuity", "expected true or false");
  if (p && !json_is_boolean(p))
    return job_fail(j, -1, "link.parameters", "expected true or false");
  if (c && json_is_false(c))
    j->ph.continuity = RC_CONTINUITY_NONE;
  j->ph.link_parameters = p && json_is_true(p);
  if (!rows)
    return RC_CLI_OK;
  if (!json_is_array(rows))
    return job_fail(j, -1, "link.rows", "expected an array of rows");
  j->nrows = (int)json_array_size(rows);
  j->rows = calloc((size_t)(j->nrows ? j->nrows : 1), sizeof *j->rows);
  j->links = calloc((size_t)(j->nrows ? j->nrows : 1), sizeof *j->links);
  if (!j->rows || !j->links)
    return RC_CLI_NO_MEMORY;
  for (int r = 0; r < j->nrows; ++r)
    if ((st = load_row(j, r, json_array_get(rows, (size_t)r))))
      return st;
  return RC_CLI_OK;
}

static int load_solver(job *j, json_t *s) {
  static const char *const keys[] = {"tol",          "max_iter", "ipopt",
                                     "dense_bounds", "path_tol", NULL};
  int st;
  j->dense_bounds = -1;
  if (!s)
    return RC_CLI_OK;
  if (!json_is_object(s))
    return job_fail(j, -1, "solver", "expected an object");
  if ((st = known_keys(j, -1, "\"solver\"", s, keys)))
    return st;
  json_t *v;
  if ((v = json_object_get(s, "tol"))) {
    if ((st = get_number(j, -1, "solver.tol", v, &j->tol)))
      return st;
    if (!(j->tol > 0))
      return job_fail(j, -1, "solver.tol", "%g: expected a number > 0", j->tol);
    j->have_tol = 1;
  }
  if ((v = json_object_get(s, "max_iter"))) {
    if ((st = get_int(j, -1, "solver.max_iter", v, 0, 1000000000L,
                      &j->max_iter)))
      return st;
    j->have_max_iter = 1;
  }
  if ((v = json_object_get(s, "path_tol"))) { /* rc_phases.path_tol */
    if ((st = get_number(j, -1, "solver.path_tol", v, &j->ph.path_tol)))
      return st;
    if (!(j->ph.path_tol >= 0 && isfinite(j->ph.path_tol)))
      return job_fail(j, -1, "solver.path_tol",
                      "%g: expected a finite number >= 0 (0: no back-off)",
                      j->ph.path_tol);
  }
  if ((v = json_object_get(s, "dense_bounds"))) {
    if (!json_is_boolean(v))
      return job_fail(j, -1, "solver.dense_bounds", "expected true or false");
    j->dense_bounds = json_is_true(v);
  }
  if ((v = json_object_get(s, "ipopt"))) {
    if (!json_is_object(v))
      return job_fail(j, -1, "solver.ipopt",
                      "expected an object {\"KEY\": value}");
    j->ipopt = calloc(json_object_size(v) + 1, sizeof(char *));
    if (!j->ipopt)
      return RC_CLI_NO_MEMORY;
    const char *key;
    json_t *x;
    json_object_foreach(v, key, x) {
      char a[1024];
      if (json_is_string(x))
        snprintf(a, sizeof a, "%s=%s", key, json_string_value(x));
      else if (json_is_integer(x))
        snprintf(a, sizeof a, "%s=%lld", key, (long long)json_integer_value(x));
      else if (json_is_real(x))
        snprintf(a, sizeof a, "%s=%.17g", key, json_real_value(x));
      else
        return job_fail(j, -1, "solver.ipopt",
                        "%s: expected a number or a "
                        "string",
                        key);
      if (!(j->ipopt[j->nipopt++] = strdup(a)))
        return RC_CLI_NO_MEMORY;
    }
  }
  return RC_CLI_OK;
}

/* Reads the job file and builds j->ph. */
static int job_load(job *j, const char *cmd, const char *path) {
  j->cmd = cmd;
  j->path = path;
  json_error_t jerr;
  struct stat sb;
  if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
    rc_cli_error(cmd,
                 "--job %s: not a regular file (expected a JSON job "
                 "file)",
                 path);
    return RC_CLI_BAD_INPUT;
  }
  FILE *fp = fopen(path, "r");
  if (!fp) {
    rc_cli_error(cmd, "--job %s: cannot open: %s", path, strerror(errno));
    return RC_CLI_IO;
  }
  j->root = json_loadf(fp, JSON_REJECT_DUPLICATES, &jerr);
  fclose(fp);
  if (!j->root) {
    rc_cli_error(cmd, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
    return RC_CLI_BAD_INPUT;
  }
  static const char *const keys[] = {"name", "summary", "plugin", "phases",
                                     "link", "solver",  "output", NULL};
  int st;
  if (!json_is_object(j->root))
    return job_fail(j, -1, NULL, "expected an object at the top level");
  if ((st = known_keys(j, -1, "the job", j->root, keys)))
    return st;
  if ((st = get_string(j, -1, j->root, "name", 0, &j->name)) ||
      (st = get_string(j, -1, j->root, "output", 0, &j->output)))
    return st;
  json_t *pl = json_object_get(j->root, "plugin");
  if (pl) {
    if (json_is_string(pl)) {
      if ((st = rc_cli_load_plugin(cmd, json_string_value(pl))))
        return st;
    } else if (json_is_array(pl)) {
      for (size_t i = 0; i < json_array_size(pl); ++i) {
        json_t *x = json_array_get(pl, i);
        if (!json_is_string(x))
          return job_fail(j, -1, "plugin", "expected file names");
        if ((st = rc_cli_load_plugin(cmd, json_string_value(x))))
          return st;
      }
    } else {
      return job_fail(j, -1, "plugin", "expected a file name or a list");
    }
  }
  json_t *phases = json_object_get(j->root, "phases");
  if (!json_is_array(phases) || json_array_size(phases) < 1 ||
      json_array_size(phases) > JOB_MAX_PHASES)
    return job_fail(j, -1, "phases",
                    "expected an array of 1..%d phases {\"name\", "
                    "\"problem\", ...}",
                    JOB_MAX_PHASES);
  j->n = (int)json_array_size(phases);
  j->jp = calloc((size_t)j->n, sizeof *j->jp);
  j->phase = calloc((size_t)j->n, sizeof *j->phase);
  if (!j->jp || !j->phase) {
    rc_cli_error(cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  for (int k = 0; k < j->n; ++k)
    if ((st = load_phase(j, k, json_array_get(phases, (size_t)k))))
      return st;
  if (!j->name)
    j->name = j->jp[0].name;
  j->ph.name = j->name;
  j->ph.nphases = j->n;
  j->ph.phase = j->phase;
  if ((st = load_links(j, json_object_get(j->root, "link"))) ||
      (st = load_solver(j, json_object_get(j->root, "solver"))))
    return st;
  j->ph.nlinks = j->nrows;
  j->ph.links = j->links;
  rc_error err = {RC_OK, ""};
  if (rc_phases_validate(&j->ph, &err) != RC_OK)
    return job_fail(j, -1, NULL, "%s", err.message);
  return RC_CLI_OK;
}

/* ---- the solve ------------------------------------------------------------
 */

typedef rc_cli_job_args solve_args;

static void refine_progress(void *ctx, const rc_refine_row *r,
                            const char *note) {
  (void)ctx, (void)note;
  fprintf(stderr,
          "refine %2d: %6d elements over the phases, stages %d..%d, %8d "
          "variables, estimate %.2e, %3d iterations, %.2f s\n",
          r->iteration, r->elements, r->stages_min, r->stages_max, r->nvars,
          r->est_error, r->ipopt_iterations, r->wall_s);
}

int rc_cli_has_job(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (strcmp(argv[i], "--job") == 0 || strncmp(argv[i], "--job=", 6) == 0)
      return 1;
  return 0;
}

static const char *const estimate_words[] = {"global", "local", "off", NULL};
static const int estimate_values[] = {RC_ESTIMATE_GLOBAL, RC_ESTIMATE_LOCAL,
                                      RC_ESTIMATE_NONE};

typedef struct phases_run {
  rc_phases_solution res;
  int have_res;
  rc_solve_stats st;
  rc_refine_row *rows;
  int nrows;
  rc_error_estimate *est;
  int have_est;
  rc_cli_diag *diag;
  rc_solve_stats *pst; /* per phase: the stats with the phase's objective */
  rc_result_record *rec;
  char *output;
  double worst_dense;
  int worst_dense_phase;
} phases_run;

static void run_free(phases_run *r, int n) {
  for (int k = 0; r->diag && k < n; ++k)
    rc_cli_diag_free(&r->diag[k]);
  for (int k = 0; r->have_est && k < n; ++k)
    rc_error_estimate_free(&r->est[k]);
  if (r->have_res)
    rc_phases_solution_free(&r->res);
  free(r->est);
  free(r->diag);
  free(r->pst);
  free(r->rec);
  free(r->rows);
  free(r->output);
}

static int success(rc_status s) {
  return s == RC_STATUS_CONVERGED || s == RC_STATUS_ACCEPTABLE;
}

static void print_json(const job *j, const phases_run *r) {
  rc_json js;
  rc_json_init(&js, stdout);
  rc_json_begin_object(&js, NULL);
  rc_json_string(&js, "problem", j->name);
  rc_json_string(&js, "kind", "phases");
  rc_json_int(&js, "phases", j->n);
  rc_json_int(&js, "variables", r->st.nvars);
  rc_json_int(&js, "constraints", r->st.ncons);
  rc_json_int(&js, "nnz_jac", r->st.nnz_jac);
  rc_json_int(&js, "nnz_hes", r->st.nnz_hes);
  rc_json_int(&js, "linkage_rows", r->res.nlink);
  rc_json_string(&js, "status", rc_status_name(r->st.status));
  rc_json_string(&js, "message", r->st.message);
  rc_json_int(&js, "iterations", r->st.iterations);
  rc_json_int(&js, "solves", r->nrows > 0 ? r->nrows : 1);
  rc_json_number(&js, "objective", r->st.objective);
  rc_json_number(&js, "link_objective", r->res.link_objective);
  rc_json_number(&js, "constraint_violation", r->st.constraint_violation);
  rc_json_number(&js, "wall_s", rc_cli_elapsed());
  rc_json_number(&js, "ipopt_s", r->st.ipopt_s);
  rc_json_number(&js, "eval_s", r->st.eval_s);
  double total = 0.0;
  for (int k = 0; k < j->n; ++k)
    total += r->res.duration[k];
  rc_json_number(&js, "duration", total);
  rc_json_number(&js, "dense_violation_worst", r->worst_dense);
  rc_json_begin_array(&js, "phase_list");
  for (int k = 0; k < j->n; ++k) {
    const rc_problem *pb = &r->res.pb[k];
    const rc_mesh *m = &r->res.sol[k].mesh;
    rc_json_begin_object(&js, NULL);
    rc_json_string(&js, "name", j->phase[k].name);
    rc_json_string(&js, "problem", pb->model);
    rc_json_string(&js, "formulation", pb->formulation);
    rc_json_int(&js, "elements", m->n);
    rc_json_int(&js, "stages", rc_mesh_max_stages(m));
    rc_json_int(&js, "stages_min", rc_mesh_min_stages(m));
    rc_json_int(&js, "nodes", rc_mesh_nodes(m));
    rc_json_number(&js, "start", r->res.start[k]);
    rc_json_number(&js, "duration", r->res.duration[k]);
    rc_json_number(&js, "objective", r->res.objective[k]);
    rc_json_number(&js, "data_objective", r->res.data_objective[k]);
    if (r->res.path_backoff) {
      rc_json_number(&js, "path_backoff", r->res.path_backoff[k]);
      rc_json_number(&js, "path_violation", r->res.path_violation[k]);
    }
    const rc_cli_diag *d = &r->diag[k];
    rc_cli_json_diagnostics(&js, pb, d->have_diag ? &d->diag : NULL);
    rc_cli_json_dense(&js, d->have_dense ? &d->dense : NULL);
    rc_cli_json_estimate(&js, pb, r->have_est ? &r->est[k] : NULL);
    rc_json_end_object(&js);
  }
  rc_json_end_array(&js);
  rc_json_begin_array(&js, "linkage");
  for (int q = 0; q < r->res.nlink; ++q) {
    rc_json_begin_object(&js, NULL);
    rc_json_string(&js, "name", r->res.link_name[q]);
    rc_json_number(&js, "value", r->res.link_value[q]);
    rc_json_number(&js, "lo", r->res.link_lo[q]);
    rc_json_number(&js, "hi", r->res.link_hi[q]);
    rc_json_number(&js, "multiplier", r->res.link_dual[q]);
    rc_json_end_object(&js);
  }
  rc_json_end_array(&js);
  rc_json_string(&js, "output", r->output);
  rc_json_end_object(&js);
  rc_json_finish(&js);
}

static void print_text(const job *j, const phases_run *r) {
  printf("%s: %s (%s)\n", j->name, rc_status_name(r->st.status),
         r->st.message[0] ? r->st.message : rc_status_message(r->st.status));
  double total = 0.0;
  for (int k = 0; k < j->n; ++k)
    total += r->res.duration[k];
  printf("  phases      %d, total duration %.10g\n", j->n, total);
  for (int k = 0; k < j->n; ++k) {
    const rc_mesh *m = &r->res.sol[k].mesh;
    printf("  phase %-8s %s/%s: start %.10g, duration %.10g, objective "
           "%.10g; %d elements, stages %d..%d\n",
           j->phase[k].name, r->res.pb[k].model, r->res.pb[k].formulation,
           r->res.start[k], r->res.duration[k], r->res.objective[k], m->n,
           rc_mesh_min_stages(m), rc_mesh_max_stages(m));
  }
  if (r->res.path_backoff) {
    printf("  path back-off (every path constraint within %g on a dense grid "
           "of %d points per element; %d re-solves):\n",
           j->ph.path_tol, RC_PATH_BACKOFF_DENSE, r->res.backoff_solves);
    for (int k = 0; k < j->n; ++k)
      printf("    phase %-8s bounds tightened by %.4g, largest excess left "
             "%.3g\n",
             j->phase[k].name, r->res.path_backoff[k],
             r->res.path_violation[k]);
  }
  printf("  NLP         %d variables, %d constraints (%d linkage rows), nnz "
         "jac %d, nnz hes %d\n",
         r->st.nvars, r->st.ncons, r->res.nlink, r->st.nnz_jac, r->st.nnz_hes);
  printf("  solver      %s: %d iterations, objective %.12g, constraint "
         "violation %.3g\n",
         r->st.solver, r->st.iterations, r->st.objective,
         r->st.constraint_violation);
  printf("  time        wall %.3f s, ipopt %.3f s, eval %.3f s\n",
         rc_cli_elapsed(), r->st.ipopt_s, r->st.eval_s);
  for (int k = 0; k < j->n; ++k) {
    const rc_cli_diag *d = &r->diag[k];
    printf("  -- phase %s\n", j->phase[k].name);
    rc_cli_print_diagnostics(&r->res.pb[k], d->have_diag ? &d->diag : NULL,
                             "nodes");
    rc_cli_print_dense(d->have_dense ? &d->dense : NULL);
    if (r->have_est)
      rc_cli_print_estimate(&r->res.pb[k], &r->est[k]);
  }
  printf("  output      %s\n", r->output);
}

/* Solve j->ph; the output path is checked first. */
static int solve_phases(job *j, const solve_args *a) {
  const char *cmd = j->cmd;
  const int n = j->n;
  phases_run r;
  memset(&r, 0, sizeof r);
  r.worst_dense = NAN;
  r.worst_dense_phase = -1;
  int status = RC_CLI_OK;
  rc_error err = {RC_OK, ""};
  /* output path */
  const char *given = a->output ? a->output : j->output;
  if (given) {
    r.output = strdup(given);
  } else {
    const int len = snprintf(NULL, 0, "results/%s.h5", j->name);
    r.output = malloc((size_t)len + 1);
    if (r.output)
      snprintf(r.output, (size_t)len + 1, "results/%s.h5", j->name);
  }
  if (!r.output) {
    rc_cli_error(cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  if ((status = rc_cli_check_output(cmd, r.output, given == NULL)))
    goto done;
  /* options */
  rc_options opt;
  rc_options_default(&opt);
  opt.print_level = 0;
  if (j->have_tol)
    opt.tol = j->tol;
  if (j->have_max_iter)
    opt.max_iter = (int)j->max_iter;
  if (a->have_tol)
    opt.tol = a->tol;
  if (a->have_max_iter)
    opt.max_iter = (int)a->max_iter;
  if (j->dense_bounds >= 0)
    opt.dense_bounds = j->dense_bounds;
  const char **kv = calloc((size_t)(j->nipopt + a->ipopt.n + 1), sizeof *kv);
  if (!kv) {
    status = RC_CLI_NO_MEMORY;
    goto done;
  }
  int nkv = 0;
  for (int i = 0; i < j->nipopt; ++i)
    kv[nkv++] = j->ipopt[i];
  for (int i = 0; i < a->ipopt.n; ++i)
    kv[nkv++] = a->ipopt.v[i];
  opt.nipopt = nkv;
  opt.ipopt_kv = kv;
  rc_cli_progress ps = {0, 0};
  if (!a->quiet) {
    opt.progress = rc_cli_ipopt_progress;
    opt.progress_ctx = &ps;
  }
  if (rc_options_validate(&opt, &err) != RC_OK) {
    status = rc_cli_fail(cmd, &err);
    goto done_kv;
  }
  rc_mesh *meshes = calloc((size_t)n, sizeof *meshes);
  rc_solution *guesses = calloc((size_t)n, sizeof *guesses);
  r.est = calloc((size_t)n, sizeof *r.est);
  r.diag = calloc((size_t)n, sizeof *r.diag);
  r.pst = calloc((size_t)n, sizeof *r.pst);
  r.rec = calloc((size_t)n, sizeof *r.rec);
  if (!meshes || !guesses || !r.est || !r.diag || !r.pst || !r.rec) {
    free(meshes);
    free(guesses);
    status = RC_CLI_NO_MEMORY;
    goto done_kv;
  }
  int any_guess = 0;
  for (int k = 0; k < n; ++k) {
    meshes[k] = j->jp[k].mesh; /* borrowed */
    if (j->jp[k].have_guess) {
      guesses[k] = j->jp[k].guess;
      any_guess = 1;
    }
  }
  for (int k = 0; k < n; ++k)
    if (j->phase[k].pb->note && !a->quiet)
      fprintf(stderr, "warning: phase %s: %s/%s: %s\n", j->phase[k].name,
              j->phase[k].pb->model, j->phase[k].pb->formulation,
              j->phase[k].pb->note);
  rc_err rc;
  if (a->have_refine) {
    rc_refine_options ro;
    rc_refine_options_default(&ro);
    ro.tol = a->refine_tol;
    if (a->have_max_refinements)
      ro.max_refinements = (int)a->max_refinements;
    ro.global = a->estimate == RC_ESTIMATE_GLOBAL;
    if (!a->quiet)
      ro.progress = refine_progress;
    rc = rc_phases_solve_refined(&j->ph, meshes, any_guess ? guesses : NULL,
                                 &opt, &ro, &r.res, &r.st, &r.rows, &r.nrows,
                                 &err);
  } else {
    rc = rc_phases_solve(&j->ph, meshes, &opt, any_guess ? guesses : NULL,
                         &r.res, &r.st, &err);
  }
  free(meshes);
  free(guesses);
  if (rc != RC_OK) {
    status = rc_cli_fail(cmd, &err);
    goto done_kv;
  }
  r.have_res = 1;
  /* the estimate of every phase */
  if (a->estimate != RC_ESTIMATE_NONE && success(r.st.status)) {
    if (!a->quiet && a->estimate == RC_ESTIMATE_GLOBAL)
      fprintf(stderr, "estimate: enriched solve of all %d phases\n", n);
    if (rc_phases_estimate(&j->ph, &r.res, &opt, (rc_estimate_kind)a->estimate,
                           r.est, &err) == RC_OK)
      r.have_est = 1;
    else
      fprintf(stderr, "warning: radcol %s: error estimate failed: %s\n", cmd,
              err.message);
  }
  /* diagnostics and the verdict */
  double est_max = 0.0;
  for (int k = 0; k < n; ++k) {
    rc_cli_diagnose(cmd, &r.res.pb[k], &r.res.sol[k], opt.dense_per_element, 1,
                    &r.diag[k]);
    if (r.diag[k].have_dense &&
        !(r.diag[k].dense.worst_relative <= r.worst_dense)) {
      r.worst_dense = r.diag[k].dense.worst_relative;
      r.worst_dense_phase = k;
    }
    if (r.have_est)
      est_max = fmax(est_max, r.est[k].max);
  }
  const double acc = a->accuracy > 0.0   ? a->accuracy
                     : a->have_error_tol ? a->error_tol
                                         : RC_CLI_DENSE_INACCURATE;
  int unverified = -1; /* a phase whose accuracy is not verified */
  if (a->accuracy > 0.0) {
    /* the accuracy rule on every phase, binding; only a global estimate
     * verifies (docs/accuracy.md) */
    const rc_status solved = r.st.status;
    for (int k = 0; k < n; ++k) {
      const int global = r.have_est && r.est[k].kind == RC_ESTIMATE_GLOBAL;
      rc_accuracy ak = {0};
      const rc_status sk = rc_accuracy_verdict(
          solved, 0, global ? &r.est[k] : NULL,
          r.diag[k].have_dense ? &r.diag[k].dense : NULL, acc, 1, &ak);
      if (sk == RC_STATUS_INACCURATE && r.st.status != RC_STATUS_INACCURATE) {
        r.st.status = RC_STATUS_INACCURATE;
        unverified = ak.met < 0 ? k : -1;
        if (ak.met >= 0)
          r.worst_dense_phase = k;
      }
    }
  } else {
    r.st.status = rc_accuracy_status(
        r.st.status, a->have_error_tol && r.have_est ? est_max : NAN,
        isnan(r.worst_dense) ? 0.0 : r.worst_dense, acc);
  }
  /* the file */
  for (int k = 0; k < n; ++k) {
    r.pst[k] = r.st;
    r.pst[k].objective = r.res.objective[k];
    r.rec[k] = rc_cli_record("solve", j->jp[k].model,
                             j->jp[k].model ? &j->jp[k].pv : NULL, &r.res.pb[k],
                             &r.res.sol[k], &r.pst[k]);
    r.rec[k].diag = r.diag[k].have_diag ? &r.diag[k].diag : NULL;
    r.rec[k].dense = r.diag[k].have_dense ? &r.diag[k].dense : NULL;
    r.rec[k].estimate = r.have_est ? &r.est[k] : NULL;
  }
  char *cl = rc_cli_command_line();
  const rc_phases_record prec = {.ph = &j->ph,
                                 .res = &r.res,
                                 .phase = r.rec,
                                 .stats = &r.st,
                                 .nrefine = r.nrows,
                                 .refine = r.rows,
                                 .command_line = cl ? cl : "radcol solve",
                                 .nipopt = nkv,
                                 .ipopt_kv = kv};
  rc = rc_write_phases_result(r.output, &prec, &err);
  free(cl);
  if (rc != RC_OK) {
    status = rc_cli_fail(cmd, &err);
    goto done_kv;
  }
  if (a->json)
    print_json(j, &r);
  else
    print_text(j, &r);
  for (int k = 0; k < n; ++k)
    if (r.diag[k].have_dense)
      rc_cli_warn_dense(cmd, &r.res.pb[k], &r.diag[k].dense);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    rc_cli_error(cmd, "writing stdout failed");
    status = RC_CLI_IO;
    goto done_kv;
  }
  status = success(r.st.status) ? RC_CLI_OK : RC_CLI_NOT_CONVERGED;
  if (r.st.status == RC_STATUS_INACCURATE && unverified >= 0)
    fprintf(stderr,
            "radcol %s: %s is inaccurate: the accuracy %g of phase %s is not "
            "verified (%s); the result is in %s\n",
            cmd, j->name, acc, j->phase[unverified].name,
            r.have_est && r.est[unverified].note[0]
                ? r.est[unverified].note
                : "no global error estimate",
            r.output);
  else if (r.st.status == RC_STATUS_INACCURATE)
    fprintf(stderr,
            "radcol %s: %s is inaccurate: %s (worst relative dense-grid "
            "violation %.3g in phase %s, estimate %.3g, tolerance %g); the "
            "result is in %s\n",
            cmd, j->name,
            a->accuracy > 0.0   ? "the estimate or a dense-grid violation "
                                  "exceeds the accuracy"
            : a->have_error_tol ? "the estimate or a dense-grid violation "
                                  "exceeds --error-tol"
                                : "a constraint is violated on the dense grid",
            r.worst_dense,
            r.worst_dense_phase >= 0 ? j->phase[r.worst_dense_phase].name : "-",
            est_max, acc, r.output);
  else if (status)
    fprintf(stderr, "radcol %s: %s did not converge: %s; the result is in %s\n",
            cmd, j->name, rc_status_name(r.st.status), r.output);
done_kv:
  free(kv);
done:
  run_free(&r, n);
  return status;
}

static int parse_solve_args(const char *cmd, int argc, char **argv,
                            solve_args *a) {
  a->estimate = RC_ESTIMATE_GLOBAL;
  const rc_cli_option opts[] = {
      {"--job", NULL, RC_CLI_TEXT, .dest = &a->job},
      {"--json", NULL, RC_CLI_FLAG, .dest = &a->json},
      {"--quiet", NULL, RC_CLI_FLAG, .dest = &a->quiet},
      {"-o", "--output", RC_CLI_TEXT, .dest = &a->output},
      {"--tol", NULL, RC_CLI_POSITIVE, .dest = &a->tol, .seen = &a->have_tol},
      {"--max-iter", NULL, RC_CLI_INT, .dest = &a->max_iter,
       .seen = &a->have_max_iter, .lo = 0, .hi = 1000000000L,
       .what = "an integer >= 0"},
      {"--ipopt", NULL, RC_CLI_KEYVAL, .dest = &a->ipopt,
       .what = "an Ipopt option"},
      {"--refine", NULL, RC_CLI_POSITIVE, .dest = &a->refine_tol,
       .seen = &a->have_refine},
      {"--max-refinements", NULL, RC_CLI_INT, .dest = &a->max_refinements,
       .seen = &a->have_max_refinements, .lo = 0, .hi = 1000000L,
       .what = "an integer >= 0"},
      {"--estimate", NULL, RC_CLI_CHOICE, .dest = &a->estimate,
       .choices = estimate_words, .values = estimate_values},
      {"--error-tol", NULL, RC_CLI_POSITIVE, .dest = &a->error_tol,
       .seen = &a->have_error_tol},
      {NULL}};
  /* no operand: a PROBLEM next to --job is refused as unknown */
  const rc_cli_syntax syntax = {usage_solve, opts, NULL, NULL};
  int st = rc_cli_parse(cmd, argc, argv, &syntax);
  if (st)
    return st;
  if (!a->job) {
    rc_cli_error(cmd, "--job: expected a job file");
    return RC_CLI_BAD_INPUT;
  }
  if (a->have_error_tol && a->estimate == RC_ESTIMATE_NONE) {
    rc_cli_error(cmd,
                 "--error-tol %g: needs an error estimate (not "
                 "--estimate off)",
                 a->error_tol);
    return RC_CLI_BAD_INPUT;
  }
  if (a->have_max_refinements && !a->have_refine) {
    rc_cli_error(cmd, "--max-refinements: only meaningful with --refine TOL");
    return RC_CLI_BAD_INPUT;
  }
  return RC_CLI_OK;
}

int rc_cli_job_solve(int argc, char **argv) {
  const char *cmd = "solve";
  solve_args a;
  memset(&a, 0, sizeof a);
  int st = parse_solve_args(cmd, argc, argv, &a);
  if (st) {
    rc_cli_list_free(&a.ipopt);
    return st < 0 ? RC_CLI_OK : st;
  }
  job j;
  memset(&j, 0, sizeof j);
  st = job_load(&j, cmd, a.job);
  if (!st)
    st = solve_phases(&j, &a);
  job_free(&j);
  rc_cli_list_free(&a.ipopt);
  return st;
}

/* ---- the check ------------------------------------------------------------
 */

/* Every phase's blocks (rc_check_problem) and the assembled NLP
 * (rc_phases_check): text lines, or members of the open JSON object js.
 * Returns 1 when everything passes. */
static int check_job(job *j, const rc_check_options *co, rc_json *js) {
  if (js)
    rc_json_begin_array(js, "phase_list");
  int pass = 1;
  rc_error err = {RC_OK, ""};
  for (int k = 0; k < j->n; ++k) {
    rc_check_report rep;
    memset(&rep, 0, sizeof rep);
    rc_err rc = rc_check_problem(j->phase[k].pb, co, &rep, &err);
    const int ok = rc == RC_OK && rep.nfailures == 0;
    pass &= ok;
    if (js) {
      rc_json_begin_object(js, NULL);
      rc_json_string(js, "name", j->phase[k].name);
      rc_json_string(js, "problem", j->phase[k].pb->model);
      rc_json_string(js, "formulation", j->phase[k].pb->formulation);
      rc_json_bool(js, "pass", ok);
      rc_json_int(js, "entries", rep.nentries);
      rc_json_int(js, "failures", rep.nfailures);
      rc_json_end_object(js);
    } else {
      printf("%s phase %s (%s/%s): %d entries, %d failures, max rel err jac "
             "%.2e hes %.2e%s%s\n",
             ok ? "PASS" : "FAIL", j->phase[k].name, j->phase[k].pb->model,
             j->phase[k].pb->formulation, rep.nentries, rep.nfailures,
             rep.max_rel_err_jac, rep.max_rel_err_hes, rc == RC_OK ? "" : ": ",
             rc == RC_OK ? "" : err.message);
      for (int q = 0; q < rep.nfailures && q < RC_CHECK_MAX_FAILURES; ++q)
        printf("  %s: %s row %d (%s) column %d (%s): expected %.10g, got "
               "%.10g\n",
               j->phase[k].name, rep.failures[q].block, rep.failures[q].row,
               rep.failures[q].row_name, rep.failures[q].col,
               rep.failures[q].col_name, rep.failures[q].expected,
               rep.failures[q].got);
    }
  }
  rc_phases_check_report pr;
  rc_err rc = rc_phases_check(&j->ph, NULL, co, &pr, &err);
  const int ok = rc == RC_OK && pr.nfailures == 0;
  pass &= ok;
  const int kept = pr.nfailures < RC_CHECK_MAX_FAILURES ? pr.nfailures
                                                        : RC_CHECK_MAX_FAILURES;
  if (js) {
    rc_json_end_array(js);
    rc_json_begin_object(js, "assembled");
    rc_json_bool(js, "pass", ok);
    rc_json_string(js, "error", rc == RC_OK ? NULL : err.message);
    rc_json_int(js, "entries", pr.nentries);
    rc_json_int(js, "failures", pr.nfailures);
    rc_json_number(js, "max_rel_err", pr.max_rel_err);
    rc_json_int(js, "variables", pr.nvars);
    rc_json_int(js, "constraints", pr.ncons);
    rc_json_int(js, "linkage_rows", pr.nlink_rows);
    rc_json_int(js, "link_blocks", pr.nlink_blocks);
    rc_json_int(js, "free_durations", pr.nfree_durations);
    rc_json_int(js, "data_points", pr.ndata);
    rc_json_begin_array(js, "failure_list");
    for (int q = 0; q < kept; ++q) {
      rc_json_begin_object(js, NULL);
      rc_json_string(js, "what", pr.failures[q].what);
      rc_json_string(js, "row_name", pr.failures[q].row_name);
      rc_json_string(js, "col_name", pr.failures[q].col_name);
      rc_json_number(js, "expected", pr.failures[q].expected);
      rc_json_number(js, "got", pr.failures[q].got);
      rc_json_end_object(js);
    }
    rc_json_end_array(js);
    rc_json_end_object(js);
  } else {
    for (int q = 0; q < kept; ++q)
      printf("  %s: %s / %s: expected %.10g (finite differences), got "
             "%.10g\n",
             pr.failures[q].what, pr.failures[q].row_name,
             pr.failures[q].col_name, pr.failures[q].expected,
             pr.failures[q].got);
    printf("%s assembled NLP of %d phases: %d variables, %d constraints (%d "
           "linkage rows, %d link blocks, %d free durations, %d data "
           "points), %d entries, %d failures, max rel err %.2e%s%s\n",
           ok ? "PASS" : "FAIL", j->n, pr.nvars, pr.ncons, pr.nlink_rows,
           pr.nlink_blocks, pr.nfree_durations, pr.ndata, pr.nentries,
           pr.nfailures, pr.max_rel_err, rc == RC_OK ? "" : ": ",
           rc == RC_OK ? "" : err.message);
  }
  return pass;
}

int rc_cli_job_check(int argc, char **argv) {
  const char *cmd = "check";
  const char *path = NULL;
  int json = 0, have_points = 0, have_seed = 0;
  long npoints = 0, seed = 0;
  static const char usage[] =
      "usage: radcol check --job FILE.json [--points N] [--seed S] [--json]\n"
      "Check every phase's derivatives (as radcol check PROBLEM), every\n"
      "linkage row and the assembled NLP of all phases (linkage rows, free\n"
      "durations, data terms) against finite differences.\n";
  const rc_cli_option opts[] = {
      {"--job", NULL, RC_CLI_TEXT, .dest = &path},
      {"--json", NULL, RC_CLI_FLAG, .dest = &json},
      {"--points", NULL, RC_CLI_INT, .dest = &npoints, .seen = &have_points,
       .lo = 1, .hi = 100000, .what = "an integer in 1..100000"},
      {"--seed", NULL, RC_CLI_INT, .dest = &seed, .seen = &have_seed, .lo = 0,
       .hi = 4294967295L, .what = "an integer in 0..4294967295"},
      {NULL}};
  const rc_cli_syntax syntax = {usage, opts, NULL, NULL};
  int st = rc_cli_parse(cmd, argc, argv, &syntax);
  if (st)
    return st < 0 ? RC_CLI_OK : st;
  if (!path) {
    rc_cli_error(cmd, "--job: expected a job file");
    return RC_CLI_BAD_INPUT;
  }
  job j;
  memset(&j, 0, sizeof j);
  if ((st = job_load(&j, cmd, path))) {
    job_free(&j);
    return st;
  }
  rc_check_options co;
  rc_check_options_default(&co);
  if (have_points)
    co.npoints = (int)npoints;
  if (have_seed)
    co.seed = (unsigned)seed;
  rc_json js;
  if (json) {
    rc_json_init(&js, stdout);
    rc_json_begin_object(&js, NULL);
    rc_json_string(&js, "job", j.name);
  }
  const int pass = check_job(&j, &co, json ? &js : NULL);
  if (json) {
    rc_json_bool(&js, "pass", pass);
    rc_json_end_object(&js);
    rc_json_finish(&js);
  }
  job_free(&j);
  return pass ? RC_CLI_OK : RC_CLI_NOT_CONVERGED;
}

/* ---- a model's multiphase formulation (rc_model.create_phases) ---------- */

int rc_cli_model_phases(const char *cmd, const rc_model *model, int f,
                        const rc_param_values *pv, rc_phases **ph) {
  *ph = NULL;
  if (!model->create_phases)
    return 0;
  rc_error err = {RC_OK, ""};
  if (model->create_phases(model, f, pv, ph, &err) != RC_OK) {
    *ph = NULL;
    return rc_cli_fail(cmd, &err);
  }
  if (!*ph)
    return 0;
  if (rc_phases_validate(*ph, &err) != RC_OK) {
    rc_phases_free(ph);
    rc_cli_error(cmd, "%s/%s: %s", model->name, model->formulations[f].name,
                 err.message);
    return RC_CLI_BAD_INPUT;
  }
  return 1;
}

/* A job around phases a model built (owned: freed with the job); every
 * phase on n x s elements (0: its problem's suggestion).  j->phase points
 * at the model's phase array (read only). */
static int job_of_phases(job *j, const char *cmd, const rc_model *model,
                         rc_phases *ph, long n, long s) {
  memset(j, 0, sizeof *j);
  j->cmd = cmd;
  j->path = model->name;
  j->owned = ph;
  j->ph = *ph;
  j->n = ph->nphases;
  j->name = ph->name ? ph->name : model->name;
  j->dense_bounds = -1;
  j->jp = calloc((size_t)j->n, sizeof *j->jp);
  if (!j->jp) {
    rc_cli_error(cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  for (int k = 0; k < j->n; ++k) {
    rc_error err = {RC_OK, ""};
    j->jp[k].name = ph->phase[k].name;
    if (ph->phase[k].model && ph->phase[k].params) { /* recorded values */
      j->jp[k].model = ph->phase[k].model;
      if (rc_params_init_defaults(j->jp[k].model, &j->jp[k].pv, &err) != RC_OK)
        return rc_cli_fail(cmd, &err);
      const rc_param_values *pv = ph->phase[k].params;
      for (int i = 0; i < pv->n && i < j->jp[k].pv.n; ++i) {
        if (pv->text && pv->text[i]) {
          char a[4096];
          snprintf(a, sizeof a, "%s=%s", j->jp[k].model->params[i].name,
                   pv->text[i]);
          if (rc_params_set(j->jp[k].model, &j->jp[k].pv, a, &err) != RC_OK)
            return rc_cli_fail(cmd, &err);
        } else if (j->jp[k].model->params[i].type == RC_PARAM_REAL) {
          const double v = pv->real[i],
                       d = j->jp[k].model->params[i].default_real;
          if (!(v == d || (isnan(v) && isnan(d))) &&
              rc_params_set_real(j->jp[k].model, &j->jp[k].pv, i, v, &err) !=
                  RC_OK)
            return rc_cli_fail(cmd, &err);
        }
      }
    }
    if (default_mesh(ph->phase[k].pb, n, s, &j->jp[k].mesh, &err) != RC_OK)
      return job_fail(j, k, "mesh", "%s", err.message);
  }
  j->phase = (rc_phase *)ph->phase;
  return RC_CLI_OK;
}

int rc_cli_model_phases_solve(const char *cmd, const rc_model *model,
                              rc_phases *ph, const rc_cli_job_args *a, long n,
                              long s) {
  job j;
  int st = job_of_phases(&j, cmd, model, ph, n, s);
  if (!st)
    st = solve_phases(&j, a);
  j.phase = NULL; /* the model's array, freed with j.owned */
  job_free(&j);
  return st;
}

int rc_cli_model_phases_check(const char *cmd, const rc_model *model, int f,
                              rc_phases *ph, const rc_check_options *co,
                              rc_json *js) {
  job j;
  int st = job_of_phases(&j, cmd, model, ph, 0, 0);
  int pass = 0;
  if (!st) {
    if (!js)
      printf("%s/%s: %d phases\n", model->name, model->formulations[f].name,
             j.n);
    pass = check_job(&j, co, js);
  }
  j.phase = NULL;
  job_free(&j);
  return st ? st : pass ? RC_CLI_OK : RC_CLI_NOT_CONVERGED;
}
