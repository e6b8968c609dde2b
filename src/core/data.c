/*
 * data.c - data at interior times (radcol/data.h): validation against a
 * problem, the mesh with a breakpoint at every measurement time, the value
 * of the least-squares term, and the CSV reader.
 *
 * Maths.  D = sum_m sum_i weight_i (w_var[i](t_m) - d_mi)^2 over the values
 * that are not NaN.  t_m sits at the breakpoint of fraction
 * f_m = (t_m - t0) / (tf - t0) (rc_data_fraction, the one formula), so
 * w(t_m) is one NLP variable and D is a separable quadratic: gradient
 * 2 weight_i (w - d), Hessian 2 weight_i (the transcription of phases,
 * src/nlp/phases_nlp.c, adds it).
 *
 * Invariants.  rc_data_mesh returns a valid mesh (rc_mesh_validate) whose
 * breakpoints include every f_m exactly; a data time closer than 1e-12 (in
 * fractions) to an existing interior breakpoint moves that breakpoint onto
 * it instead of creating a sliver element.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/numbers.h"
#include "radcol/data.h"
#include "radcol/problem.h"

#define RC_DATA_SNAP 1e-12

double rc_data_fraction(const rc_problem *pb, double t) {
  return (t - pb->t0) / (pb->tf - pb->t0);
}

static const char *var_name(const rc_problem *pb, int i) {
  return pb->var_names && i >= 0 && i < rc_problem_nw(pb) ? pb->var_names[i]
                                                          : "?";
}

rc_err rc_data_validate(const rc_problem *pb, const rc_data_fit *d,
                        rc_error *err) {
  const char *mo = pb->model, *fo = pb->formulation;
  const int nq = pb->nx + pb->ny + pb->nu;
  if (d->nt < 1 || d->nvar < 1 || !d->t || !d->var || !d->value)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: data with %d times and %d variables: expected "
                        "at least one of each, with their arrays",
                        mo, fo, d->nt, d->nvar);
  if (pb->free_tf)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: data at given times needs a fixed final time "
                        "(the final time is free)",
                        mo, fo);
  for (int i = 0; i < d->nvar; ++i) {
    const int v = d->var[i];
    if (v < 0 || v >= nq)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: data column %d measures w[%d]: expected a "
                          "state, algebraic variable or control (0..%d)",
                          mo, fo, i, v, nq - 1);
    for (int j = 0; j < i; ++j)
      if (d->var[j] == v)
        return rc_error_set(err, RC_ERR_INPUT,
                            "%s/%s: data measures %s twice (columns %d and "
                            "%d): expected each variable once",
                            mo, fo, var_name(pb, v), j, i);
    if (d->weight && !(isfinite(d->weight[i]) && d->weight[i] >= 0))
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: data weight of %s is %g: expected a finite "
                          "number >= 0",
                          mo, fo, var_name(pb, v), d->weight[i]);
  }
  for (int m = 0; m < d->nt; ++m) {
    const double t = d->t[m];
    if (!isfinite(t) || t < pb->t0 || t > pb->tf)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: data time %d is %.17g: expected a time in "
                          "[t0, tf] = [%.17g, %.17g]",
                          mo, fo, m, t, pb->t0, pb->tf);
    if (m > 0 && !(t > d->t[m - 1]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: data times %d and %d are %.17g and %.17g: "
                          "expected strictly increasing times",
                          mo, fo, m - 1, m, d->t[m - 1], t);
    for (int i = 0; i < d->nvar; ++i) {
      const double v = d->value[(size_t)m * d->nvar + i];
      if (isinf(v))
        return rc_error_set(err, RC_ERR_INPUT,
                            "%s/%s: data value of %s at t = %.17g is %g: "
                            "expected a finite number (or NaN: not measured)",
                            mo, fo, var_name(pb, d->var[i]), t, v);
      if (!isnan(v) && t == pb->t0 && d->var[i] >= pb->nx && !pb->t0_algebraic)
        return rc_error_set(err, RC_ERR_INPUT,
                            "%s/%s: data measures %s at t0 = %.17g, where the "
                            "formulation has no value of it (only states, "
                            "or formulations that impose g at t0)",
                            mo, fo, var_name(pb, d->var[i]), t);
    }
  }
  return RC_OK;
}

int rc_data_breakpoint(const rc_mesh *mesh, double f) {
  int lo = 0, hi = mesh->n;
  while (lo <= hi) {
    const int mid = (lo + hi) / 2;
    if (mesh->frac[mid] == f)
      return mid;
    if (mesh->frac[mid] < f)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

rc_err rc_data_mesh(const rc_problem *pb, const rc_data_fit *d,
                    const rc_mesh *in, rc_mesh *out, rc_error *err) {
  rc_err rc = rc_data_validate(pb, d, err);
  if (rc != RC_OK || (rc = rc_mesh_validate(in, err)) != RC_OK)
    return rc;
  const size_t cap = (size_t)in->n + (size_t)d->nt;
  double *frac = malloc(sizeof *frac * (cap + 1));
  int *st = malloc(sizeof *st * cap);
  if (!frac || !st) {
    free(frac);
    free(st);
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory for a mesh of %zu elements", cap);
  }
  /* Merge the breakpoints of in with the data fractions, in order. */
  int n = 0, m = 0;
  frac[0] = 0.0;
  for (int k = 0; k < in->n; ++k) {
    const double b = in->frac[k + 1];
    for (; m < d->nt; ++m) {
      const double f = rc_data_fraction(pb, d->t[m]);
      if (f <= frac[n])
        continue; /* at the element start already (t0, or snapped) */
      if (f >= b - RC_DATA_SNAP)
        break;
      st[n] = in->stages[k];
      frac[++n] = f;
    }
    double end = b;
    if (m < d->nt && k + 1 < in->n) {
      const double f = rc_data_fraction(pb, d->t[m]);
      if (fabs(f - b) <= RC_DATA_SNAP && f > frac[n])
        end = f; /* move this interior breakpoint onto the data time */
    }
    st[n] = in->stages[k];
    frac[++n] = k + 1 == in->n ? 1.0 : end;
  }
  rc = rc_mesh_from_arrays(n, frac, st, out, err);
  free(frac);
  free(st);
  return rc;
}

double rc_data_objective(const rc_problem *pb, const rc_data_fit *d,
                         rc_data_eval_fn fn, void *ctx) {
  const int nw = rc_problem_nw(pb);
  double *w = malloc(sizeof *w * (size_t)(nw > 0 ? nw : 1));
  if (!w)
    return NAN;
  double sum = 0.0;
  for (int m = 0; m < d->nt; ++m) {
    if (fn(ctx, d->t[m], w) != 0) {
      sum = NAN;
      break;
    }
    for (int i = 0; i < d->nvar; ++i) {
      const double v = d->value[(size_t)m * d->nvar + i];
      if (isnan(v))
        continue;
      const double r = w[d->var[i]] - v;
      sum += (d->weight ? d->weight[i] : 1.0) * r * r;
    }
  }
  free(w);
  return sum;
}

/* ---- the CSV reader ------------------------------------------------------ */

void rc_data_table_free(rc_data_table *tb) {
  if (!tb)
    return;
  free(tb->t);
  free(tb->value);
  free(tb->weight);
  free(tb->var);
  memset(tb, 0, sizeof *tb);
}

/* Splits line (modified in place) at commas into at most max fields, blanks
 * around each trimmed.  Returns the number of fields. */
static int split_csv(char *line, char **field, int max) {
  int n = 0;
  char *p = line;
  for (;;) {
    while (*p == ' ' || *p == '\t')
      ++p;
    char *start = p;
    while (*p && *p != ',')
      ++p;
    char *end = p;
    while (end > start && (end[-1] == ' ' || end[-1] == '\t' ||
                           end[-1] == '\r' || end[-1] == '\n'))
      --end;
    const int more = *p == ',';
    *end = '\0';
    if (n < max)
      field[n] = start;
    ++n;
    if (!more)
      break;
    ++p;
  }
  return n;
}

/* One cell: a decimal number, or empty / "nan" (not measured, allow_nan). */
static int parse_cell(const char *s, int allow_nan, double *v) {
  if (allow_nan && (!s[0] || strcmp(s, "nan") == 0 || strcmp(s, "NaN") == 0)) {
    *v = NAN;
    return 1;
  }
  return rc_parse_real(s, v);
}

#define RC_DATA_MAX_COLS 1024
#define RC_DATA_MAX_ROWS 10000000L
#define RC_DATA_LINE_MAX 65536

typedef struct csv_state {
  const char *path;
  const rc_problem *pb;
  rc_data_table *tb;
  long cap;
  int ncol; /* columns after t */
} csv_state;

static rc_err header_row(csv_state *c, char **field, int nf, long line,
                         rc_error *err) {
  const rc_problem *pb = c->pb;
  const int nq = pb->nx + pb->ny + pb->nu;
  if (nf < 2 || strcmp(field[0], "t") != 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s:%ld: header '%s%s': expected 't' and at least one "
                        "variable name (t,NAME,...)",
                        c->path, line, field[0], nf > 1 ? ",..." : "");
  if (nf - 1 > RC_DATA_MAX_COLS)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s:%ld: %d columns: expected at most %d", c->path,
                        line, nf - 1, RC_DATA_MAX_COLS);
  c->ncol = nf - 1;
  c->tb->var = malloc(sizeof(int) * (size_t)c->ncol);
  if (!c->tb->var)
    return rc_error_set(err, RC_ERR_NOMEM, "%s: out of memory", c->path);
  for (int i = 0; i < c->ncol; ++i) {
    const char *name = field[i + 1];
    int v = -1;
    for (int j = 0; j < nq && pb->var_names; ++j)
      if (strcmp(pb->var_names[j], name) == 0)
        v = j;
    if (v < 0) {
      char list[512] = "";
      size_t used = 0;
      for (int j = 0; j < nq && pb->var_names && used + 40 < sizeof list; ++j)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                 j ? " " : "", pb->var_names[j]);
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s:%ld: column %d '%s': expected a state, "
                          "algebraic variable or control of %s/%s (%s)",
                          c->path, line, i + 2, name, pb->model,
                          pb->formulation, list);
    }
    c->tb->var[i] = v;
  }
  return RC_OK;
}

static rc_err value_row(csv_state *c, char **field, int nf, long line,
                        int weights, rc_error *err) {
  rc_data_table *tb = c->tb;
  if (nf != c->ncol + 1)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s:%ld: %d fields: expected %d (t and %d values, as "
                        "the header)",
                        c->path, line, nf, c->ncol + 1, c->ncol);
  double *dst;
  if (weights) {
    tb->weight = malloc(sizeof(double) * (size_t)c->ncol);
    if (!tb->weight)
      return rc_error_set(err, RC_ERR_NOMEM, "%s: out of memory", c->path);
    dst = tb->weight;
  } else {
    if (tb->fit.nt >= RC_DATA_MAX_ROWS)
      return rc_error_set(err, RC_ERR_INPUT, "%s:%ld: more than %ld rows",
                          c->path, line, RC_DATA_MAX_ROWS);
    if (tb->fit.nt == c->cap) {
      const long cap = c->cap ? 2 * c->cap : 64;
      double *t = realloc(tb->t, sizeof(double) * (size_t)cap);
      if (t)
        tb->t = t;
      double *v =
          t ? realloc(tb->value, sizeof(double) * (size_t)cap * (size_t)c->ncol)
            : NULL;
      if (!t || !v)
        return rc_error_set(err, RC_ERR_NOMEM, "%s: out of memory", c->path);
      tb->value = v;
      c->cap = cap;
    }
    if (!parse_cell(field[0], 0, &tb->t[tb->fit.nt]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s:%ld: column 1 (t) '%s': expected a decimal "
                          "number",
                          c->path, line, field[0]);
    dst = tb->value + (size_t)tb->fit.nt * (size_t)c->ncol;
  }
  for (int i = 0; i < c->ncol; ++i)
    if (!parse_cell(field[i + 1], !weights, &dst[i]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s:%ld: column %d (%s) '%s': expected a decimal "
                          "number%s",
                          c->path, line, i + 2, c->pb->var_names[tb->var[i]],
                          field[i + 1],
                          weights ? " (a weight)" : ", empty or nan");
  if (!weights)
    tb->fit.nt++;
  return RC_OK;
}

rc_err rc_data_read_csv(const char *path, const rc_problem *pb,
                        rc_data_table *tb, rc_error *err) {
  memset(tb, 0, sizeof *tb);
  FILE *fp = fopen(path, "r");
  if (!fp)
    return rc_error_set(err, RC_ERR_IO, "%s: cannot open: %s", path,
                        strerror(errno));
  char *buf = malloc(RC_DATA_LINE_MAX);
  char **field = malloc(sizeof(char *) * (RC_DATA_MAX_COLS + 2));
  csv_state c = {path, pb, tb, 0, -1};
  rc_err rc = buf && field
                  ? RC_OK
                  : rc_error_set(err, RC_ERR_NOMEM, "%s: out of memory", path);
  long line = 0;
  int rows_seen = 0;
  while (rc == RC_OK && fgets(buf, RC_DATA_LINE_MAX, fp)) {
    ++line;
    const size_t len = strlen(buf);
    if (len == RC_DATA_LINE_MAX - 1 && buf[len - 1] != '\n') {
      rc = rc_error_set(err, RC_ERR_INPUT, "%s:%ld: line longer than %d bytes",
                        path, line, RC_DATA_LINE_MAX - 2);
      break;
    }
    const char *p = buf;
    while (*p == ' ' || *p == '\t')
      ++p;
    if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0')
      continue;
    const int nf = split_csv(buf, field, RC_DATA_MAX_COLS + 2);
    if (nf > RC_DATA_MAX_COLS + 1) {
      rc = rc_error_set(err, RC_ERR_INPUT, "%s:%ld: more than %d columns", path,
                        line, RC_DATA_MAX_COLS + 1);
      break;
    }
    if (c.ncol < 0)
      rc = header_row(&c, field, nf, line, err);
    else if (rows_seen == 0 && strcmp(field[0], "weight") == 0)
      rc = value_row(&c, field, nf, line, 1, err);
    else
      rc = value_row(&c, field, nf, line, 0, err), ++rows_seen;
  }
  if (rc == RC_OK && ferror(fp))
    rc = rc_error_set(err, RC_ERR_IO, "%s: read error", path);
  fclose(fp);
  free(buf);
  free(field);
  if (rc == RC_OK && (c.ncol < 0 || tb->fit.nt == 0))
    rc = rc_error_set(err, RC_ERR_INPUT,
                      "%s: %s: expected a header 't,NAME,...' and at least "
                      "one row of values",
                      path, c.ncol < 0 ? "empty" : "no rows");
  if (rc == RC_OK) {
    tb->fit.t = tb->t;
    tb->fit.nvar = c.ncol;
    tb->fit.var = tb->var;
    tb->fit.value = tb->value;
    tb->fit.weight = tb->weight;
    rc = rc_data_validate(pb, &tb->fit, err);
  }
  if (rc != RC_OK)
    rc_data_table_free(tb);
  return rc;
}
