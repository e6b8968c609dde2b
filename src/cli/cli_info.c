/*
 * cli/cli_info.c - `radcol info FILE.h5`: summary of a result file (root
 * attributes, sizes, status, errors) as text or one JSON object.  The
 * library reads the file (rc_read_result_summary); this file words it, the
 * JSON through the CLI's one writer (json.h).  Text output escapes control
 * bytes and invalid UTF-8 as \xNN, so a file cannot send terminal escape
 * sequences; JSON escapes them per RFC 8259 (invalid UTF-8 as U+FFFD).
 *
 * Exit status: a missing or unreadable file is an I/O failure (3, the path
 * is named); an existing file that is not HDF5 (checked by its signature) is
 * bad input (2); an HDF5 file that is not a radcol result gives whatever the
 * reader reports (2 for a wrong format, 3 for a read failure).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/json.h"
#include "core/numbers.h"
#include "core/utf8.h"
#include "radcol/io.h"

static const char usage[] =
    "usage: radcol info FILE.h5 [--json]\n\n"
    "Summarise a radcol result file: problem, formulation, command line,\n"
    "mesh and NLP size, solver status, reference errors and invariants.\n\n"
    "Options:\n"
    "  --json      print one JSON object on stdout; default: text\n"
    "  -h, --help  print this help\n\n" RC_CLI_EXIT_HELP
    "A missing file gives 3; a file that is not HDF5 gives 2.\n";

/* Text: control bytes and bytes that are not valid UTF-8 as \xNN, so a
 * file cannot send terminal escape sequences.  Returns buf. */
static const char *text_esc(const char *s, char *buf, size_t size) {
  size_t o = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p && o + 5 < size;) {
    const int n = rc_utf8_len((const char *)p);
    if (n == 0 || *p < 0x20 || *p == 0x7f) {
      o += (size_t)snprintf(buf + o, size - o, "\\x%02x", *p);
      ++p;
    } else if (o + (size_t)n < size) {
      memcpy(buf + o, p, (size_t)n);
      o += (size_t)n, p += n;
    } else {
      break;
    }
  }
  buf[o] = '\0';
  return buf;
}

static const char *const info_cols[] = {"nodes", "dense", "ends"};

/* "name": {"nodes": v, ...} for each row of t, ncol columns. */
static void json_table(rc_json *j, const char *key, const rc_result_table *t,
                       int ncol) {
  rc_json_begin_object(j, key);
  for (long i = 0; i < t->n; ++i) {
    rc_json_begin_object(j, t->names[i]);
    for (int k = 0; k < ncol; ++k)
      rc_json_number(j, info_cols[k], t->v[k] ? t->v[k][i] : NAN);
    rc_json_end_object(j);
  }
  rc_json_end_object(j);
}

/* The phases of a multiphase file (NULL: a one-phase file). */
typedef struct phases_view {
  rc_phases_info info;
  rc_result_summary *ps; /* info.n summaries */
  double link_violation; /* max over the linkage rows of their bound excess */
} phases_view;

static double link_violation(const rc_phases_info *p) {
  double m = 0.0;
  for (int q = 0; q < p->nlink; ++q)
    m = fmax(m, fmax(p->link_lo[q] - p->link_value[q],
                     p->link_value[q] - p->link_hi[q]));
  return m;
}

static void json_phases(rc_json *j, const phases_view *v) {
  rc_json_begin_array(j, "phase_list");
  for (int k = 0; k < v->info.n; ++k) {
    const rc_result_summary *s = &v->ps[k];
    rc_json_begin_object(j, NULL);
    rc_json_string(j, "name", v->info.names[k]);
    rc_json_string(j, "problem", s->problem);
    rc_json_string(j, "formulation", s->formulation);
    rc_json_number(j, "start", v->info.start[k]);
    rc_json_number(j, "duration", v->info.duration[k]);
    rc_json_number(j, "objective", v->info.objective[k]);
    rc_json_int(j, "elements", s->elements);
    rc_json_int(j, "stages_min", s->stages_min);
    rc_json_int(j, "stages_max", s->stages_max);
    rc_json_int(j, "nodes", s->nodes);
    rc_json_number(j, "t0", s->t0);
    rc_json_number(j, "tf", s->tf);
    rc_json_number(j, "error_estimate", s->error_estimate);
    json_table(j, "max_error", &s->reference_error, 3);
    rc_json_end_object(j);
  }
  rc_json_end_array(j);
  rc_json_int(j, "linkage_rows", v->info.nlink);
  rc_json_number(j, "linkage_violation", v->link_violation);
}

static void print_json(FILE *f, const char *path, const rc_result_summary *s,
                       const phases_view *v) {
  rc_json j;
  rc_json_init(&j, f);
  rc_json_begin_object(&j, NULL);
  rc_json_string(&j, "file", path);
  rc_json_string(&j, "problem", s->problem);
  rc_json_string(&j, "formulation", s->formulation);
  rc_json_string(&j, "kind", s->kind);
  rc_json_string(&j, "status", s->status);
  rc_json_string(&j, "radcol_version", s->radcol_version);
  rc_json_string(&j, "utc_time", s->utc_time);
  rc_json_string(&j, "command_line", s->command_line);
  rc_json_int(&j, "elements", s->elements);
  rc_json_int(&j, "stages_min", s->stages_min);
  rc_json_int(&j, "stages_max", s->stages_max);
  rc_json_int(&j, "nodes", s->nodes);
  rc_json_number(&j, "t0", s->t0);
  rc_json_number(&j, "tf", s->tf);
  rc_json_number(&j, "iterations", s->iterations);
  rc_json_number(&j, "iterations_last", s->iterations_last);
  rc_json_number(&j, "objective", s->objective);
  rc_json_number(&j, "constraint_violation", s->constraint_violation);
  rc_json_number(&j, "wall_s", s->wall_s);
  rc_json_number(&j, "variables", s->nvars);
  rc_json_number(&j, "constraints", s->ncons);
  rc_json_number(&j, "error_estimate", s->error_estimate);
  json_table(&j, "max_error", &s->reference_error, 3);
  json_table(&j, "invariants", &s->invariants, 2);
  rc_json_int(&j, "phases", v ? v->info.n : 0);
  if (v)
    json_phases(&j, v);
  rc_json_end_object(&j);
  rc_json_finish(&j);
}

static void print_text(FILE *f, const char *path, const rc_result_summary *s,
                       const phases_view *v) {
  enum { E = 4 * RC_SUMMARY_STR };
  char e1[E], e2[E], e3[E];
  fprintf(f, "file         %s\n", text_esc(path, e1, E));
  fprintf(f, "problem      %s / %s (%s)\n", text_esc(s->problem, e1, E),
          text_esc(s->formulation, e2, E), text_esc(s->kind, e3, E));
  fprintf(f, "status       %s\n", text_esc(s->status, e1, E));
  fprintf(f, "written      radcol %s, %s\n", text_esc(s->radcol_version, e1, E),
          text_esc(s->utc_time, e2, E));
  fprintf(f, "command      %s\n", text_esc(s->command_line, e1, E));
  char n0[RC_FMT_LEN], n1[RC_FMT_LEN];
  if (v) {
    double end = v->info.n > 0 ? v->info.start[0] : NAN;
    for (int k = 0; k < v->info.n; ++k) {
      const rc_result_summary *p = &v->ps[k];
      fprintf(f,
              "phase %-6s %s / %s: start %s, duration %.10g, objective "
              "%.10g, %ld elements, %d..%d stages\n",
              text_esc(v->info.names[k], e1, E), text_esc(p->problem, e2, E),
              text_esc(p->formulation, e3, E),
              rc_fmt_shortest(v->info.start[k], n0), v->info.duration[k],
              v->info.objective[k], p->elements, p->stages_min, p->stages_max);
      end = v->info.start[k] + v->info.duration[k];
    }
    fprintf(f, "horizon      %s .. %s over %d phases\n",
            rc_fmt_shortest(v->info.n > 0 ? v->info.start[0] : NAN, n0),
            rc_fmt_shortest(end, n1), v->info.n);
    fprintf(f, "linkage      %d rows, largest violation %.3g\n", v->info.nlink,
            v->link_violation);
  } else {
    fprintf(f, "mesh         %ld elements, %d..%d stages, %ld nodes\n",
            s->elements, s->stages_min, s->stages_max, s->nodes);
    fprintf(f, "horizon      t0 = %s, tf = %s\n", rc_fmt_shortest(s->t0, n0),
            rc_fmt_shortest(s->tf, n1));
  }
  if (!isnan(s->iterations_last))
    fprintf(f,
            "solver       %.0f iterations, objective %.10g, "
            "violation %.3g, wall %.3g s\n",
            s->iterations_last, s->objective, s->constraint_violation,
            s->wall_s);
  const rc_result_table *re = &s->reference_error, *inv = &s->invariants;
  if (re->n > 0) {
    fprintf(f, "max error vs reference   %12s %12s %12s\n", "nodes", "dense",
            "ends");
    for (long i = 0; i < re->n; ++i)
      fprintf(f, "  %-22s %12.3e %12.3e %12.3e\n",
              text_esc(re->names[i], e1, E), re->v[0] ? re->v[0][i] : NAN,
              re->v[1] ? re->v[1][i] : NAN, re->v[2] ? re->v[2][i] : NAN);
  }
  if (inv->n > 0) {
    fprintf(f, "invariants max |h|       %12s %12s\n", "nodes", "dense");
    for (long i = 0; i < inv->n; ++i)
      fprintf(f, "  %-22s %12.3e %12.3e\n", text_esc(inv->names[i], e1, E),
              inv->v[0] ? inv->v[0][i] : NAN, inv->v[1] ? inv->v[1][i] : NAN);
  }
}

static int run_info(int argc, char **argv) {
  const char *cmd = "info", *path = NULL;
  int json = 0;
  const rc_cli_option opts[] = {{"--json", NULL, RC_CLI_FLAG, .dest = &json},
                                {NULL}};
  const rc_cli_syntax syntax = {usage, opts, &path,
                                "missing FILE.h5 (see radcol info --help)"};
  int status = rc_cli_parse(cmd, argc, argv, &syntax);
  if (status)
    return status < 0 ? RC_CLI_OK : status;
  if ((status = rc_cli_check_input(cmd, NULL, path)))
    return status;
  rc_error err = {RC_OK, ""};
  rc_result_summary s;
  if (rc_read_result_summary(path, &s, &err) != RC_OK)
    return rc_cli_fail(cmd, &err);
  phases_view v;
  memset(&v, 0, sizeof v);
  if (s.nphases > 0) {
    rc_err rc = rc_read_phases_info(path, &v.info, &err);
    v.ps = rc == RC_OK ? calloc((size_t)v.info.n, sizeof *v.ps) : NULL;
    if (rc == RC_OK && !v.ps)
      rc = rc_error_set(&err, RC_ERR_NOMEM, "out of memory");
    for (int k = 0; rc == RC_OK && k < v.info.n; ++k)
      rc = rc_read_phase_summary(path, k, &v.ps[k], &err);
    if (rc != RC_OK) {
      for (int k = 0; v.ps && k < v.info.n; ++k)
        rc_result_summary_free(&v.ps[k]);
      free(v.ps);
      rc_phases_info_free(&v.info);
      rc_result_summary_free(&s);
      return rc_cli_fail(cmd, &err);
    }
    v.link_violation = link_violation(&v.info);
  }
  if (json)
    print_json(stdout, path, &s, s.nphases > 0 ? &v : NULL);
  else
    print_text(stdout, path, &s, s.nphases > 0 ? &v : NULL);
  for (int k = 0; v.ps && k < v.info.n; ++k)
    rc_result_summary_free(&v.ps[k]);
  free(v.ps);
  rc_phases_info_free(&v.info);
  rc_result_summary_free(&s);
  fflush(stdout);
  return RC_CLI_OK;
}

const rc_cli_command rc_cli_cmd_info = {"info", "summarise a result file",
                                        usage, run_info};
