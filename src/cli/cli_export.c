/*
 * cli/cli_export.c - `radcol export`: the dense output of a result file
 * sampled on a uniform time grid, as CSV (for a PLC, a spreadsheet or any
 * script without HDF5).
 *
 * Values.  Variables come from rc_solution_eval (the dense output that also
 * fills /solution/dense of the file: x from the degree-s polynomial through
 * the element's s+1 nodes, y and u from the degree-(s-1) polynomial through
 * its stages, p constant); derived outputs from the problem's own outputs
 * function on those values, as rc_diagnose computes them, with the problem
 * rebuilt from the file (cli/plan_file.h).
 *
 * Grid.  With T = tf - t0 and the step H (default T/1000): if T/H is within
 * 1e-9 (relative) of an integer N, the rows are t0 + T k/N, k = 0..N;
 * otherwise t0 + k H for k < ceil(T/H) and a last row at tf
 * (rc_simulate_plan decides, as for `radcol simulate --step`).  At most
 * RC_EXPORT_MAX_ROWS rows.
 *
 * Format.  One header line of column names (time first, then the chosen
 * variables and outputs), quoted only when a name holds a comma, a quote or
 * a blank; then one line per time, values printed with %.17g (they read
 * back to the same doubles), separated by commas, "\n" line ends; NaN is
 * written "nan".  Units are not written: rc_problem records none (the
 * built-in models use SI units and seconds, see radcol list --params).
 *
 * Output.  stdout, or -o FILE: the CSV is built in memory and written by
 * rc_write_file (src/outfile.h), the result files' safe writer (random
 * exclusive temporary that never follows a link, fsync, rename).  An
 * existing FILE that is not a regular file (symbolic link, directory,
 * device, FIFO) or that is the input file itself is refused (exit 2) before
 * anything is written.
 *
 * Exit status: 0 ok; 2 bad input (not a radcol result file, unknown name,
 * bad step, a derived-output function failing on the file's values; nothing
 * written); 3 input/output failure; 4 out of memory.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/plan_file.h"
#include "io/outfile.h"
#include "radcol/io.h"
#include "radcol/simulate.h"

#define RC_EXPORT_MAX_ROWS 10000000L
#define RC_EXPORT_DEFAULT_ROWS 1000

static const char usage[] =
    "usage: radcol export FILE.h5 [--step H] [--vars NAME,NAME,...]\n"
    "                     [-o FILE.csv] [--plugin LIB.so]\n\n"
    "Sample the dense output of a result file (radcol solve, init or\n"
    "simulate) on a uniform time grid and write it as CSV: a header line of\n"
    "names (time first), then one line per time with 17 significant\n"
    "digits. A multiphase file (radcol solve --job) gives one CSV across\n"
    "its phases: time (absolute), then a phase column, then the union of\n"
    "the phases' names (nan where a phase lacks one); each phase on its own\n"
    "grid of step H, both ends included. The values are those of the file's "
    "dense output (the\n"
    "collocation polynomials); derived outputs (e.g. a load's x and z)\n"
    "are computed by the problem that wrote the file, rebuilt from the\n"
    "file's model, formulation and parameters. No units row: the built-in\n"
    "models use SI units and seconds (radcol list --params PROBLEM).\n\n"
    "Options:\n"
    "  --step H             grid step > 0; if H does not divide tf - t0 the\n"
    "                       last row is at tf; at most 1e7 rows;\n"
    "                       default: (tf - t0)/1000 (1001 rows)\n"
    "  --vars LIST          comma-separated variable and output names, in\n"
    "                       column order; default: every state, algebraic\n"
    "                       variable, control and derived output (parameters\n"
    "                       are constant: name them to get a column)\n"
    "  -o, --output FILE    CSV file, written atomically (temporary file,\n"
    "                       then rename); an existing FILE that is not a\n"
    "                       regular file is refused; default: stdout\n"
    "  --plugin LIB.so      load a plugin (for a plugin problem's outputs)\n"
    "  -h, --help           print this help\n\n"
    "Exit status: 0 ok; 2 bad input (nothing written), also a derived\n"
    "             output that cannot be computed from the file's values;\n"
    "             3 input/output failure; 4 out of memory.\n";

typedef struct export_args {
  const char *file, *step, *vars, *output;
} export_args;

static int parse_args(const char *cmd, int argc, char **argv, export_args *a) {
  const rc_cli_option opts[] = {
      {"--step", NULL, RC_CLI_TEXT, .dest = &a->step},
      {"--vars", NULL, RC_CLI_TEXT, .dest = &a->vars},
      {"-o", "--output", RC_CLI_TEXT, .dest = &a->output},
      {NULL}};
  const rc_cli_syntax syntax = {
      usage, opts, &a->file,
      "missing FILE.h5 (a result file of radcol solve, init or simulate; see "
      "radcol export --help)"};
  return rc_cli_parse(cmd, argc, argv, &syntax);
}

/* Columns: index into w (0..nw-1) or nw + output index. */
typedef struct columns {
  int n;
  int *idx;
} columns;

/* All names a column may take, for messages. */
static void list_names(const rc_cli_plan *p, int with_outputs, char *buf,
                       size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < p->nw + (with_outputs ? p->nout : 0); ++i) {
    const char *s = i < p->nw ? p->var[i] : p->out[i - p->nw];
    int w = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", s);
    if (w < 0 || (size_t)w >= size - used) {
      if (size > 4)
        strcpy(buf + size - 4, "...");
      return;
    }
    used += (size_t)w;
  }
}

static int choose_columns(const char *cmd, const export_args *a,
                          const rc_cli_plan *p, const rc_problem *pb,
                          const char *why, columns *c) {
  const int nxyu = p->sol.nx + p->sol.ny + p->sol.nu;
  c->idx = malloc(sizeof *c->idx * (size_t)(p->nw + p->nout + 1));
  if (!c->idx) {
    rc_cli_error(cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  c->n = 0;
  if (!a->vars) {
    for (int i = 0; i < nxyu; ++i)
      c->idx[c->n++] = i;
    for (int i = 0; pb && i < p->nout; ++i)
      c->idx[c->n++] = p->nw + i;
    if (!pb && p->nout > 0)
      fprintf(stderr,
              "warning: radcol export: derived outputs (%s%s) left out: "
              "%s\n",
              p->out[0], p->nout > 1 ? ", ..." : "", why);
    return RC_CLI_OK;
  }
  char *copy = strdup(a->vars);
  if (!copy) {
    rc_cli_error(cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  int status = RC_CLI_OK;
  char *s = copy;
  for (;;) {
    char *comma = strchr(s, ',');
    if (comma)
      *comma = '\0';
    int found = -1;
    for (int i = 0; i < p->nw + p->nout && found < 0; ++i)
      if (strcmp(s, i < p->nw ? p->var[i] : p->out[i - p->nw]) == 0)
        found = i;
    char names[RC_MESSAGE_MAX / 2];
    if (!s[0]) {
      rc_cli_error(cmd,
                   "--vars %s: empty name: expected comma-separated "
                   "names without blanks",
                   a->vars);
      status = RC_CLI_BAD_INPUT;
      break;
    } else if (strcmp(s, "time") == 0) {
      /* time is always the first column */
    } else if (found < 0) {
      list_names(p, 1, names, sizeof names);
      rc_cli_error(cmd, "--vars: unknown name '%s': expected one of %s", s,
                   names);
      status = RC_CLI_BAD_INPUT;
      break;
    } else if (found >= p->nw && !pb) {
      rc_cli_error(cmd, "--vars: derived output '%s' cannot be computed: %s", s,
                   why);
      status = RC_CLI_BAD_INPUT;
      break;
    } else if (c->n < p->nw + p->nout) {
      c->idx[c->n++] = found;
    }
    if (!comma)
      break;
    s = comma + 1;
  }
  free(copy);
  return status;
}

/* A CSV field: quoted when it holds a comma, a quote or a blank. */
static void put_name(FILE *f, const char *s) {
  if (!strpbrk(s, ",\" \t\r\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; ++s) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

/* Time of row r of nrows (the grid of the file's header comment). */
static double row_time(const rc_solution *sol, long r, long nrows, int uniform,
                       double h) {
  const double T = sol->tf - sol->t0;
  return r == nrows - 1 ? sol->tf
         : uniform      ? sol->t0 + T * ((double)r / (double)(nrows - 1))
                        : sol->t0 + (double)r * h;
}

/* The values of row r: w from the dense output, out from the problem's
 * outputs when need_out.  0, or the exit status after printing why: a
 * derived-output function that fails on the file's values is bad input
 * (exit 2), found before anything is printed (write_csv's first pass). */
static int eval_row(const char *cmd, const rc_cli_plan *p, const rc_problem *pb,
                    int need_out, double t, double *w, double *out) {
  rc_error err = {RC_OK, ""};
  if (rc_solution_eval(&p->sol, t, w, &err) != RC_OK)
    return rc_cli_fail(cmd, &err);
  if (need_out && pb->outputs(pb, t, w, out) != 0) {
    rc_cli_error(cmd,
                 "%s: the derived outputs of %s/%s failed at t = %.17g "
                 "(status nonzero): nothing exported",
                 p->path, pb->model, pb->formulation, t);
    return RC_CLI_BAD_INPUT;
  }
  return RC_CLI_OK;
}

/* Writes the table; 0, or nonzero after printing why.  With derived
 * outputs every row is evaluated once before the first byte is written,
 * so a failing output function leaves no partial table (issue 28 item 8);
 * then the rows are evaluated again and printed (no table in memory: up to
 * 1e7 rows). */
static int write_csv(const char *cmd, FILE *f, const rc_cli_plan *p,
                     const rc_problem *pb, const columns *c, long nrows,
                     int uniform, double h) {
  const rc_solution *sol = &p->sol;
  const int nw = p->nw;
  double *w = malloc(sizeof *w * (size_t)(nw + p->nout + 1));
  if (!w) {
    rc_cli_error(cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  double *out = w + nw;
  int need_out = 0;
  for (int k = 0; k < c->n; ++k)
    need_out |= c->idx[k] >= nw;
  int status = RC_CLI_OK;
  for (long r = 0; need_out && r < nrows && status == RC_CLI_OK; ++r)
    status = eval_row(cmd, p, pb, need_out, row_time(sol, r, nrows, uniform, h),
                      w, out);
  if (status != RC_CLI_OK) {
    free(w);
    return status;
  }
  put_name(f, "time");
  for (int k = 0; k < c->n; ++k) {
    fputc(',', f);
    put_name(f, c->idx[k] < nw ? p->var[c->idx[k]] : p->out[c->idx[k] - nw]);
  }
  fputc('\n', f);
  for (long r = 0; r < nrows && status == RC_CLI_OK; ++r) {
    const double t = row_time(sol, r, nrows, uniform, h);
    if ((status = eval_row(cmd, p, pb, need_out, t, w, out)) != RC_CLI_OK)
      break;
    fprintf(f, "%.17g", t);
    for (int k = 0; k < c->n; ++k)
      fprintf(f, ",%.17g", c->idx[k] < nw ? w[c->idx[k]] : out[c->idx[k] - nw]);
    fputc('\n', f);
    if (ferror(f)) {
      rc_cli_error(cmd, "writing the CSV failed: %s", strerror(errno));
      status = RC_CLI_IO;
    }
  }
  free(w);
  return status;
}

/* Checks -o path before any work (rc_cli_check_output: a file name, no
 * existing non-regular file) and that it is not the input file. */
static int check_output(const char *cmd, const char *path, const char *input) {
  int status = rc_cli_check_output(cmd, path, 0);
  if (status)
    return status;
  struct stat st, in;
  if (lstat(path, &st) == 0 && stat(input, &in) == 0 &&
      in.st_dev == st.st_dev && in.st_ino == st.st_ino) {
    rc_cli_error(cmd, "-o %s: is the input file: expected another file", path);
    return RC_CLI_BAD_INPUT;
  }
  return RC_CLI_OK;
}

/* Writes the CSV held in memory to -o path through the library's safe
 * writer (rc_write_file: random exclusive temporary, fsync, rename). */
static int commit_output(const char *cmd, const char *path, char *buf,
                         size_t len, int status) {
  if (status != RC_CLI_OK)
    return status;
  rc_error err = {RC_OK, ""};
  if (rc_write_file(path, buf, len, &err) != RC_OK) {
    rc_cli_error(cmd, "-o %s", err.message);
    return rc_cli_status_of(err.code);
  }
  return RC_CLI_OK;
}

/* ---- multiphase files: one CSV across the phases ---------------------- */

/* A column of the union over the phases: its name and, per phase, the
 * index into that phase's w (or nw + output), or -1 (NaN there). */
typedef struct ucol {
  const char *name;
  int *at;
} ucol;

typedef struct phase_plan {
  rc_cli_plan p;
  rc_param_values pv;
  rc_problem *pb;
  char why[RC_MESSAGE_MAX];
} phase_plan;

static int find_name(const rc_cli_plan *p, const char *s, int with_out) {
  for (int i = 0; i < p->nw + (with_out ? p->nout : 0); ++i)
    if (strcmp(s, i < p->nw ? p->var[i] : p->out[i - p->nw]) == 0)
      return i;
  return -1;
}

/* Adds name (if new) to the union; returns its column or -1 (no memory). */
static int add_col(ucol *u, int *nu, int cap, int nph, const char *name) {
  for (int c = 0; c < *nu; ++c)
    if (strcmp(u[c].name, name) == 0)
      return c;
  if (*nu == cap)
    return -1;
  u[*nu].name = name;
  u[*nu].at = malloc(sizeof(int) * (size_t)nph);
  if (!u[*nu].at)
    return -1;
  for (int k = 0; k < nph; ++k)
    u[*nu].at[k] = -1;
  return (*nu)++;
}

static int export_phases(const char *cmd, const export_args *a,
                         const rc_phases_info *info, FILE **fp, char **csv,
                         size_t *csv_len) {
  const int n = info->n;
  phase_plan *pp = calloc((size_t)n, sizeof *pp);
  int cap = 0, nu = 0, status = RC_CLI_OK;
  if (!pp) {
    rc_cli_error(cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  for (int k = 0; k < n && !status; ++k) {
    if ((status = rc_cli_plan_read_phase(cmd, NULL, a->file, k, &pp[k].p)))
      break;
    cap += pp[k].p.nw + pp[k].p.nout;
    if (pp[k].p.nout > 0)
      pp[k].pb =
          rc_cli_plan_problem(&pp[k].p, &pp[k].pv, pp[k].why, sizeof pp[k].why);
  }
  ucol *u = status ? NULL : calloc((size_t)(cap ? cap : 1), sizeof *u);
  if (!status && !u) {
    rc_cli_error(cmd, "out of memory");
    status = RC_CLI_NO_MEMORY;
  }
  /* the columns: every x, y, u and output of every phase, or --vars */
  if (!status && !a->vars) {
    for (int k = 0; k < n && !status; ++k) {
      const rc_cli_plan *p = &pp[k].p;
      const int nxyu = p->sol.nx + p->sol.ny + p->sol.nu;
      for (int i = 0; i < nxyu + p->nout && !status; ++i) {
        if (i >= nxyu && !pp[k].pb) {
          if (i == nxyu)
            fprintf(stderr,
                    "warning: radcol export: phase %s: derived outputs left "
                    "out: %s\n",
                    info->names[k], pp[k].why);
          continue;
        }
        const int idx = i < nxyu ? i : p->nw + (i - nxyu);
        const char *nm = i < nxyu ? p->var[i] : p->out[i - nxyu];
        const int c = add_col(u, &nu, cap, n, nm);
        if (c < 0)
          status = RC_CLI_NO_MEMORY;
        else
          u[c].at[k] = idx;
      }
    }
  } else if (!status) {
    char *copy = strdup(a->vars);
    char *s = copy;
    while (copy && !status) {
      char *comma = strchr(s, ',');
      if (comma)
        *comma = '\0';
      if (!s[0]) {
        rc_cli_error(cmd,
                     "--vars %s: empty name: expected comma-separated "
                     "names without blanks",
                     a->vars);
        status = RC_CLI_BAD_INPUT;
        break;
      }
      if (strcmp(s, "time") != 0 && strcmp(s, "phase") != 0) {
        int seen = 0, c = -1;
        for (int k = 0; k < n && !status; ++k) {
          const int i = find_name(&pp[k].p, s, pp[k].pb != NULL);
          if (i < 0)
            continue;
          const char *nm =
              i < pp[k].p.nw ? pp[k].p.var[i] : pp[k].p.out[i - pp[k].p.nw];
          if (c < 0 && (c = add_col(u, &nu, cap, n, nm)) < 0)
            status = RC_CLI_NO_MEMORY;
          else
            u[c].at[k] = i, seen = 1;
        }
        if (!seen && !status) {
          rc_cli_error(cmd,
                       "--vars: unknown name '%s': expected a variable or "
                       "derived output of one of the %d phases",
                       s, n);
          status = RC_CLI_BAD_INPUT;
        }
      }
      if (!comma)
        break;
      s = comma + 1;
    }
    free(copy);
  }
  /* the grid: step H across the whole horizon, each phase on its own */
  double total = 0.0, h = 0.0;
  for (int k = 0; k < n; ++k)
    total += info->duration[k];
  if (!status && a->step)
    status = rc_cli_real(cmd, "--step", a->step, 1, &h);
  if (!a->step)
    h = total / RC_EXPORT_DEFAULT_ROWS;
  long *nsteps = status ? NULL : calloc((size_t)n, sizeof(long));
  int *uni = status ? NULL : calloc((size_t)n, sizeof(int));
  long rows = 0;
  rc_error err = {RC_OK, ""};
  for (int k = 0; !status && k < n; ++k) {
    const rc_solution *sol = &pp[k].p.sol;
    if (rc_simulate_plan(sol->t0, sol->tf, h, &nsteps[k], &uni[k], &err) !=
        RC_OK) {
      status = rc_cli_fail(cmd, &err);
      break;
    }
    rows += nsteps[k] + 1;
  }
  if (!status && rows > RC_EXPORT_MAX_ROWS) {
    rc_cli_error(cmd,
                 "--step %s: %ld rows over %d phases: expected at most "
                 "%ld rows",
                 a->step ? a->step : "(default)", rows, n, RC_EXPORT_MAX_ROWS);
    status = RC_CLI_BAD_INPUT;
  }
  if (!status && a->output) {
    if ((status = check_output(cmd, a->output, a->file)))
      goto done;
    if (!(*fp = open_memstream(csv, csv_len))) {
      rc_cli_error(cmd, "out of memory for the CSV");
      status = RC_CLI_NO_MEMORY;
    }
  }
  if (status)
    goto done;
  FILE *f = *fp;
  put_name(f, "time");
  fputs(",phase", f);
  for (int c = 0; c < nu; ++c) {
    fputc(',', f);
    put_name(f, u[c].name);
  }
  fputc('\n', f);
  for (int k = 0; k < n && !status; ++k) {
    const rc_cli_plan *p = &pp[k].p;
    const rc_solution *sol = &p->sol;
    const int nw = p->nw;
    double *w = malloc(sizeof *w * (size_t)(nw + p->nout + 1));
    if (!w) {
      status = RC_CLI_NO_MEMORY;
      break;
    }
    double *out = w + nw;
    int need_out = 0;
    for (int c = 0; c < nu; ++c)
      need_out |= u[c].at[k] >= nw;
    const long nr = nsteps[k] + 1;
    const double T = sol->tf - sol->t0;
    for (long r = 0; r < nr && !status; ++r) {
      const double t = r == nr - 1 ? sol->tf
                       : uni[k] ? sol->t0 + T * ((double)r / (double)(nr - 1))
                                : sol->t0 + (double)r * h;
      if (rc_solution_eval(sol, t, w, &err) != RC_OK) {
        status = rc_cli_fail(cmd, &err);
        break;
      }
      if (need_out && pp[k].pb->outputs(pp[k].pb, t, w, out) != 0) {
        rc_cli_error(cmd,
                     "%s: phase %s: the derived outputs failed at t = "
                     "%.17g",
                     a->file, info->names[k], t);
        status = RC_CLI_NOT_CONVERGED;
        break;
      }
      fprintf(f, "%.17g,", info->start[k] + (t - sol->t0));
      put_name(f, info->names[k]);
      for (int c = 0; c < nu; ++c) {
        const int i = u[c].at[k];
        fprintf(f, ",%.17g", i < 0 ? NAN : i < nw ? w[i] : out[i - nw]);
      }
      fputc('\n', f);
      if (ferror(f)) {
        rc_cli_error(cmd, "writing the CSV failed: %s", strerror(errno));
        status = RC_CLI_IO;
      }
    }
    free(w);
  }
done:
  free(nsteps);
  free(uni);
  for (int c = 0; u && c < nu; ++c)
    free(u[c].at);
  free(u);
  for (int k = 0; k < n; ++k) {
    rc_problem_free(&pp[k].pb);
    rc_params_free(&pp[k].pv);
    rc_cli_plan_free(&pp[k].p);
  }
  free(pp);
  return status;
}

static int run_export(int argc, char **argv) {
  const char *cmd = "export";
  export_args a;
  memset(&a, 0, sizeof a);
  rc_cli_plan p;
  memset(&p, 0, sizeof p);
  rc_param_values pv;
  memset(&pv, 0, sizeof pv);
  rc_problem *pb = NULL;
  columns cols = {0, NULL};
  char *csv = NULL; /* -o: the CSV in memory, then written safely */
  size_t csv_len = 0;
  int status = parse_args(cmd, argc, argv, &a);
  if (status)
    goto done;
  double h = 0.0;
  if (a.step && (status = rc_cli_real(cmd, "--step", a.step, 1, &h)))
    goto done;
  if ((status = rc_cli_check_input(cmd, NULL, a.file)))
    goto done;
  rc_phases_info info;
  rc_error ierr = {RC_OK, ""};
  if (rc_read_phases_info(a.file, &info, &ierr) != RC_OK) {
    status = rc_cli_fail(cmd, &ierr);
    goto done;
  }
  if (info.n > 0) { /* a multiphase file: one CSV with a phase column */
    FILE *pf = stdout;
    status = export_phases(cmd, &a, &info, &pf, &csv, &csv_len);
    rc_phases_info_free(&info);
    if (a.output && pf != stdout) {
      if (fclose(pf) != 0 && status == RC_CLI_OK) {
        rc_cli_error(cmd, "out of memory for the CSV");
        status = RC_CLI_NO_MEMORY;
      }
      status = commit_output(cmd, a.output, csv, csv_len, status);
    } else if (!status && (fflush(stdout) != 0 || ferror(stdout))) {
      rc_cli_error(cmd, "writing to standard output failed: %s",
                   strerror(errno));
      status = RC_CLI_IO;
    }
    goto done;
  }
  if ((status = rc_cli_plan_read(cmd, NULL, a.file, &p)))
    goto done;
  const double T = p.sol.tf - p.sol.t0;
  if (!a.step)
    h = T / RC_EXPORT_DEFAULT_ROWS;
  long nsteps = 0;
  int uniform = 1;
  rc_error err = {RC_OK, ""};
  if (rc_simulate_plan(p.sol.t0, p.sol.tf, h, &nsteps, &uniform, &err) !=
          RC_OK ||
      nsteps + 1 > RC_EXPORT_MAX_ROWS) {
    rc_cli_error(cmd,
                 "--step %s: %.3g rows over [%g, %g]: expected a step giving "
                 "at most %ld rows",
                 a.step ? a.step : "(default)", T / h + 1, p.sol.t0, p.sol.tf,
                 RC_EXPORT_MAX_ROWS);
    status = RC_CLI_BAD_INPUT;
    goto done;
  }
  char why[RC_MESSAGE_MAX] = "";
  if (p.nout > 0)
    pb = rc_cli_plan_problem(&p, &pv, why, sizeof why);
  if ((status = choose_columns(cmd, &a, &p, pb, why, &cols)))
    goto done;

  FILE *f = stdout;
  if (a.output) {
    if ((status = check_output(cmd, a.output, a.file)))
      goto done;
    if (!(f = open_memstream(&csv, &csv_len))) {
      rc_cli_error(cmd, "out of memory for the CSV");
      status = RC_CLI_NO_MEMORY;
      goto done;
    }
  }
  status = write_csv(cmd, f, &p, pb, &cols, nsteps + 1, uniform, h);
  if (a.output) {
    if (fclose(f) != 0 && status == RC_CLI_OK) {
      rc_cli_error(cmd, "out of memory for the CSV");
      status = RC_CLI_NO_MEMORY;
    }
    status = commit_output(cmd, a.output, csv, csv_len, status);
  } else if (fflush(stdout) != 0 || ferror(stdout)) {
    if (status == RC_CLI_OK) {
      rc_cli_error(cmd, "writing to standard output failed: %s",
                   strerror(errno));
      status = RC_CLI_IO;
    }
  }

done:
  if (status < 0)
    status = RC_CLI_OK; /* --help */
  free(csv);
  free(cols.idx);
  rc_problem_free(&pb);
  rc_params_free(&pv);
  rc_cli_plan_free(&p);
  return status;
}

const rc_cli_command rc_cli_cmd_export = {
    "export", "the dense solution of a result file on a uniform grid, as CSV",
    usage, run_export};
