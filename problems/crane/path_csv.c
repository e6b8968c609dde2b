/*
 * path_csv.c - the crane's CSV inputs (path.h): waypoint files t,x,z and
 * curve files x,z, read by one line reader and row parser, each form with
 * its own check of a row (the message names file, line and value).
 *
 * Invariants: a file is read to its end or refused; what is returned holds
 * only accepted rows (nothing is allocated on failure); lines of any length
 * up to CSV_MAX_LINE bytes.
 */
#include "path.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest CSV line accepted (bytes); longer lines are refused by number. */
#define CSV_MAX_LINE (1 << 20)

/* ---- CSV ------------------------------------------------------------------
 */

/* Reads one line of any length up to CSV_MAX_LINE bytes into *buf (grown as
 * needed, NUL-terminated, newline dropped).  Returns 1 for a line, 0 at end
 * of file, -1 for a line that is too long or holds a NUL byte (*why says
 * which), -2 out of memory. */
static int read_line(FILE *fp, char **buf, size_t *cap, const char **why) {
  size_t len = 0;
  int c, any = 0;
  while ((c = getc(fp)) != EOF) {
    any = 1;
    if (c == '\n')
      break;
    if (c == '\0') {
      *why = "holds a NUL byte";
      return -1;
    }
    if (len + 1 >= CSV_MAX_LINE) {
      *why = "is longer than 1 MiB";
      return -1;
    }
    if (len + 2 > *cap) {
      size_t nc = *cap ? 2 * *cap : 256;
      char *nb = realloc(*buf, nc);
      if (!nb)
        return -2;
      *buf = nb;
      *cap = nc;
    }
    (*buf)[len++] = (char)c;
  }
  if (!any)
    return 0;
  if (!*buf) {
    *buf = malloc(1);
    if (!*buf)
      return -2;
    *cap = 1;
  }
  (*buf)[len] = '\0';
  return 1;
}

/* Splits a row into at most 4 fields (separated by ',' or ';', or by blanks
 * when the row has neither), trimmed in place.  Returns the field count (a
 * count above 3 is reported as is, later fields are not stored). */
static int split_row(char *s, char *field[4]) {
  int k = 0;
  const int sep = strpbrk(s, ",;") != NULL;
  char *p = s;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\r')
      ++p;
    if (!sep && *p == '\0')
      break;
    char *f = p;
    if (sep)
      while (*p && *p != ',' && *p != ';')
        ++p;
    else
      while (*p && *p != ' ' && *p != '\t' && *p != '\r')
        ++p;
    char *e = p;
    while (e > f && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
      --e;
    const char next = *p;
    *e = '\0';
    if (k < 4)
      field[k] = f;
    ++k;
    if (next == '\0')
      break;
    ++p;
  }
  return k;
}

/* 1 if the whole field is a number (strtod syntax), value in *v. */
static int field_number(const char *f, double *v) {
  char *end;
  errno = 0;
  *v = strtod(f, &end);
  return end != f && *end == '\0';
}

/* The two CSV forms: waypoints t,x,z (rc_crane_path_read_csv) and curve
 * rows x,z (rc_crane_curve_read_csv).  One reader serves both: it reads the
 * lines, skips blanks, comments and the header, parses the first ncol
 * fields of each row and stores the accepted rows column by column; a
 * form's own check words what is wrong with a row. */

/* One CSV file being read: the line buffer and the number of the line last
 * read (from 1, for messages). */
typedef struct csv_file {
  const struct csv_form *form;
  const char *file;
  FILE *fp;
  char *line;
  size_t linecap;
  int lineno;
  int header_done; /* the first non-blank row has been read */
} csv_file;

/* One row, its first ncol fields parsed (v[i] = 0 where there are fewer). */
typedef struct csv_row {
  int k; /* fields in the row, possibly more than ncol */
  double v[3];
  int nnum;            /* fields among the first ncol that are numbers */
  int nempty;          /* ... that are empty */
  int first_bad;       /* the first of them empty or not a number, or -1 */
  int first_nonfinite; /* the first of the numbers that is not finite, or -1 */
  char shown[48];      /* the row's first 40 bytes, for messages */
} csv_row;

/* The rows accepted so far, column by column (arrays grown by doubling). */
typedef struct csv_cols {
  double *c[3];
  int n, cap;
} csv_cols;

/* What differs between the forms: the words naming the file and its
 * columns, the column count, whether a first row without numbers is the
 * header even when a field is empty, and the check of a parsed row against
 * the rows before it (RC_OK, or the error naming file, line and value). */
typedef struct csv_form {
  const char *kind;  /* "path" or "curve" */
  const char *cols;  /* "t,x,z" or "x,z" */
  const char *rows;  /* what a data row is: "waypoint row" or "row" */
  const char *least; /* after "expected at least 2": "" or " points x,z" */
  int ncol;
  int header_may_have_empty;
  rc_err (*check)(const csv_file *f, const csv_row *row, const csv_cols *c,
                  rc_error *err);
} csv_form;

/* Splits and parses the row s (non-blank, not a comment) into *row. */
static void parse_row(const csv_form *form, char *s, csv_row *row) {
  snprintf(row->shown, sizeof row->shown, "%.40s", s);
  char *field[4];
  row->k = split_row(s, field);
  row->nnum = row->nempty = 0;
  row->first_bad = row->first_nonfinite = -1;
  for (int i = 0; i < 3; ++i)
    row->v[i] = 0.0;
  for (int i = 0; i < row->k && i < form->ncol; ++i) {
    if (field[i][0] == '\0') {
      ++row->nempty;
      if (row->first_bad < 0)
        row->first_bad = i;
    } else if (field_number(field[i], &row->v[i])) {
      ++row->nnum;
      if (!isfinite(row->v[i]) && row->first_nonfinite < 0)
        row->first_nonfinite = i;
    } else if (row->first_bad < 0) {
      row->first_bad = i;
    }
  }
}

/* Reads up to the next data row (skipping blank lines, comments and the one
 * header: a first row with no number among its first ncol fields).  *more
 * is 1 with the row in *row, or 0 at the end of the file. */
static rc_err next_row(csv_file *f, csv_row *row, int *more, rc_error *err) {
  const csv_form *form = f->form;
  *more = 0;
  for (;;) {
    const char *why = "";
    const int got = read_line(f->fp, &f->line, &f->linecap, &why);
    if (got == 0)
      return RC_OK;
    ++f->lineno;
    if (got == -2)
      return rc_error_set(err, RC_ERR_NOMEM,
                          "crane: out of memory reading '%s' line %d", f->file,
                          f->lineno);
    if (got < 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: %s file '%s' line %d %s: expected text "
                          "lines %s",
                          form->kind, f->file, f->lineno, why, form->cols);
    char *s = f->line;
    while (isspace((unsigned char)*s))
      ++s;
    if (*s == '\0' || *s == '#')
      continue;
    parse_row(form, s, row);
    const int header = !f->header_done && row->nnum == 0 &&
                       (form->header_may_have_empty || row->nempty == 0);
    f->header_done = 1;
    if (!header) {
      *more = 1;
      return RC_OK;
    }
  }
}

/* Appends the first ncol values of v as a new row of c. */
static rc_err append_row(csv_cols *c, int ncol, const double *v,
                         const char *file, rc_error *err) {
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 16;
    int ok = 1;
    for (int i = 0; i < ncol; ++i) {
      double *grown = realloc(c->c[i], sizeof(double) * (size_t)c->cap);
      if (grown)
        c->c[i] = grown;
      else
        ok = 0;
    }
    if (!ok)
      return rc_error_set(err, RC_ERR_NOMEM,
                          "crane: out of memory reading '%s'", file);
  }
  for (int i = 0; i < ncol; ++i)
    c->c[i][c->n] = v[i];
  ++c->n;
  return RC_OK;
}

static void free_cols(csv_cols *c) {
  for (int i = 0; i < 3; ++i)
    free(c->c[i]);
  memset(c, 0, sizeof *c);
}

/* Reads every data row of file in the given form into *c (emptied on
 * failure). */
static rc_err read_rows(const csv_form *form, const char *file, csv_cols *c,
                        rc_error *err) {
  memset(c, 0, sizeof *c);
  csv_file f = {form, file, fopen(file, "r"), NULL, 0, 0, 0};
  if (!f.fp)
    return rc_error_set(err, RC_ERR_IO, "crane: cannot open %s file '%s'",
                        form->kind, file);
  rc_err rc;
  for (;;) {
    csv_row row;
    int more;
    rc = next_row(&f, &row, &more, err);
    if (rc != RC_OK || !more)
      break;
    rc = form->check(&f, &row, c, err);
    if (rc == RC_OK)
      rc = append_row(c, form->ncol, row.v, file, err);
    if (rc != RC_OK)
      break;
  }
  free(f.line);
  if (rc == RC_OK && ferror(f.fp))
    rc = rc_error_set(err, RC_ERR_IO, "crane: read error on %s file '%s'",
                      form->kind, file);
  fclose(f.fp);
  if (rc != RC_OK)
    free_cols(c);
  return rc;
}

static const char *const COL_NAME[3] = {"t", "x", "z"};

/* A waypoint row: three finite numbers t,x,z, the first t <= 0, then t
 * strictly increasing. */
static rc_err check_waypoint(const csv_file *f, const csv_row *row,
                             const csv_cols *c, rc_error *err) {
  const char *file = f->file;
  const int line = f->lineno, n = c->n;
  const double *v = row->v, *t = c->c[0];
  if (row->nempty > 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: path file '%s' line %d: field %d (%s) is "
                        "empty, expected three numbers t,x,z",
                        file, line, row->first_bad + 1,
                        COL_NAME[row->first_bad]);
  if (row->first_bad >= 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: path file '%s' line %d: expected three "
                        "numbers t,x,z, got '%s'",
                        file, line, row->shown);
  if (row->k != 3)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: path file '%s' line %d: %d column%s, expected "
                        "3 (t,x,z)",
                        file, line, row->k, row->k == 1 ? "" : "s");
  if (row->first_nonfinite >= 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: path file '%s' line %d: %s = %g, expected "
                        "a finite number",
                        file, line, COL_NAME[row->first_nonfinite],
                        v[row->first_nonfinite]);
  if (n == 0 && v[0] > 0.0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: path file '%s' line %d: first t = %g, "
                        "expected <= 0 (the horizon starts at t0 = 0; a "
                        "negative first t starts it in motion)",
                        file, line, v[0]);
  if (n > 0 && !(v[0] > t[n - 1]))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: path file '%s' line %d: t = %g after t = %g, "
                        "expected strictly increasing times",
                        file, line, v[0], t[n - 1]);
  return RC_OK;
}

/* A curve row: two finite numbers x,z, not the previous row again. */
static rc_err check_curve_row(const csv_file *f, const csv_row *row,
                              const csv_cols *c, rc_error *err) {
  const int n = c->n;
  const double *v = row->v, *x = c->c[0], *z = c->c[1];
  if (row->k != 2 || row->first_bad >= 0 || row->first_nonfinite >= 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: curve file '%s' line %d: expected two finite "
                        "numbers x,z (no t), got '%s'",
                        f->file, f->lineno, row->shown);
  if (n > 0 && v[0] == x[n - 1] && v[1] == z[n - 1])
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: curve file '%s' line %d: the point (%g, %g) "
                        "repeats the previous row: expected distinct "
                        "consecutive points",
                        f->file, f->lineno, v[0], v[1]);
  return RC_OK;
}

/* A path file's header has no empty field (a row with one is refused);
 * a curve file's first row without numbers is its header whatever it
 * holds. */
static const csv_form PATH_FORM = {"path", "t,x,z", "waypoint row", "",
                                   3,      0,       check_waypoint};
static const csv_form CURVE_FORM = {
    "curve", "x,z", "row", " points x,z", 2, 1, check_curve_row};

/* Empties *path, then read_rows, and at least 2 rows. */
static rc_err read_two_rows(const csv_form *form, const char *file,
                            rc_crane_path *path, csv_cols *c, rc_error *err) {
  memset(path, 0, sizeof *path);
  rc_err rc = read_rows(form, file, c, err);
  if (rc == RC_OK && c->n < 2) {
    rc = rc_error_set(err, RC_ERR_INPUT,
                      "crane: %s file '%s' has %d %s%s, expected at least 2%s",
                      form->kind, file, c->n, form->rows, c->n == 1 ? "" : "s",
                      form->least);
    free_cols(c);
  }
  return rc;
}

rc_err rc_crane_path_read_csv(rc_crane_path *path, const char *file,
                              rc_error *err) {
  csv_cols c;
  const rc_err rc = read_two_rows(&PATH_FORM, file, path, &c, err);
  if (rc != RC_OK)
    return rc;
  path->n = c.n;
  path->t = c.c[0];
  path->x = c.c[1];
  path->z = c.c[2];
  return RC_OK;
}

rc_err rc_crane_curve_read_csv(rc_crane_path *curve, const char *file,
                               rc_error *err) {
  csv_cols c;
  const rc_err rc = read_two_rows(&CURVE_FORM, file, curve, &c, err);
  if (rc != RC_OK)
    return rc;
  return rc_crane_curve_build(curve, c.n, c.c[0], c.c[1], err);
}
