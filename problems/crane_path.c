/*
 * crane_path.c - the crane's waypoint path (default and CSV, stop and smooth
 * modes), its exact derivatives up to order 4, the flatness checks, the
 * overshoot of a smooth path and the exact flat inverse.  The maths is in
 * crane_path.h.
 *
 * Invariants: a path has n >= 2 waypoints with strictly increasing finite t,
 * t[0] <= 0, finite x and z; in smooth mode cx, cz hold 10 (n - 1) finite
 * coefficients; rc_crane_path_eval never fails (it rests at the end points
 * outside the waypoint range).
 */
#include "crane_path.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_poly.h>

/* Longest CSV line accepted (bytes); longer lines are refused by number. */
#define CSV_MAX_LINE (1 << 20)

/* Coefficients of s(a) = sum_k S_COEF[k] a^k (degree 9). */
static const double S_COEF[10] = {0, 0, 0, 0, 0, 126, -420, 540, -315, 70};

/* j-th derivative of s at a (0 <= j <= 4), by Horner on the differentiated
 * coefficients k!/(k-j)! S_COEF[k]. */
static double smooth_step(int j, double a) {
  double v = 0.0;
  for (int k = 9; k >= j; --k) {
    double ck = S_COEF[k];
    for (int i = 0; i < j; ++i)
      ck *= (double)(k - i);
    v = v * a + ck;
  }
  return v;
}

static rc_err path_alloc(rc_crane_path *path, int n, rc_error *err) {
  path->n = n;
  path->t = malloc(sizeof(double) * (size_t)n);
  path->x = malloc(sizeof(double) * (size_t)n);
  path->z = malloc(sizeof(double) * (size_t)n);
  if (!path->t || !path->x || !path->z) {
    rc_crane_path_free(path);
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for %d waypoints", n);
  }
  return RC_OK;
}

void rc_crane_path_free(rc_crane_path *path) {
  if (!path)
    return;
  free(path->t);
  free(path->x);
  free(path->z);
  free(path->cx);
  free(path->cz);
  path->t = path->x = path->z = path->cx = path->cz = NULL;
  path->n = 0;
  path->mode = RC_CRANE_PATH_STOP;
}

rc_err rc_crane_path_default(rc_crane_path *path, double tf, double x_start,
                             double z_start, double x_end, double z_end,
                             rc_error *err) {
  memset(path, 0, sizeof *path);
  if (!(isfinite(tf) && tf > 0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: tf = %g: expected a finite horizon > 0", tf);
  if (!(isfinite(x_start) && isfinite(z_start) && isfinite(x_end) &&
        isfinite(z_end)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: path end points (%g, %g) -> (%g, %g): "
                        "expected finite values",
                        x_start, z_start, x_end, z_end);
  rc_err rc = path_alloc(path, 2, err);
  if (rc != RC_OK)
    return rc;
  path->t[0] = 0.0;
  path->t[1] = tf;
  path->x[0] = x_start;
  path->x[1] = x_end;
  path->z[0] = z_start;
  path->z[1] = z_end;
  return RC_OK;
}

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
  const char *kind; /* "path" or "curve" */
  const char *cols; /* "t,x,z" or "x,z" */
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
static const csv_form PATH_FORM = {"path", "t,x,z", 3, 0, check_waypoint};
static const csv_form CURVE_FORM = {"curve", "x,z", 2, 1, check_curve_row};

rc_err rc_crane_path_read_csv(rc_crane_path *path, const char *file,
                              rc_error *err) {
  memset(path, 0, sizeof *path);
  csv_cols c;
  rc_err rc = read_rows(&PATH_FORM, file, &c, err);
  if (rc == RC_OK && c.n < 2) {
    rc = rc_error_set(err, RC_ERR_INPUT,
                      "crane: path file '%s' has %d waypoint row%s, expected "
                      "at least 2",
                      file, c.n, c.n == 1 ? "" : "s");
    free_cols(&c);
  }
  if (rc != RC_OK)
    return rc;
  path->n = c.n;
  path->t = c.c[0];
  path->x = c.c[1];
  path->z = c.c[2];
  return RC_OK;
}

/* ---- the smooth spline ----------------------------------------------------
 */

/* i! / (i - m)! (0 for i < m). */
static double falling(int i, int m) {
  if (i < m)
    return 0.0;
  double v = 1.0;
  for (int l = 0; l < m; ++l)
    v *= (double)(i - l);
  return v;
}

/* m-th derivative at a of sum_i c[i] a^i (degree 9), by Horner. */
static double poly_deriv(const double c[10], int m, double a) {
  double v = 0.0;
  for (int i = 9; i >= m; --i)
    v = v * a + c[i] * falling(i, m);
  return v;
}

/* Degree-9 Hermite basis on [0, 1]: HB[f] for f = 5 side + j (side 0: a = 0,
 * 1: a = 1; j = 0..4) is the polynomial with q^(l)(side') = 1 if (side', l)
 * = (side, j), else 0 (l = 0..4).  Coefficients c_0..c_4 = q^(l)(0) / l!;
 * c_5..c_9 from the five conditions at a = 1 (a 5 x 5 solve, Gaussian
 * elimination with partial pivoting). */
static void hermite_basis(long double HB[10][10]) {
  for (int f = 0; f < 10; ++f) {
    const int side = f / 5, j = f % 5;
    long double *c = HB[f];
    for (int i = 0; i < 10; ++i)
      c[i] = 0.0L;
    if (side == 0)
      c[j] = 1.0L / falling(j, j);
    long double M[5][6];
    for (int l = 0; l < 5; ++l) {
      long double known = 0.0L;
      for (int i = l; i < 5; ++i)
        known += c[i] * falling(i, l);
      for (int i = 5; i < 10; ++i)
        M[l][i - 5] = falling(i, l);
      M[l][5] = (side == 1 && l == j ? 1.0L : 0.0L) - known;
    }
    for (int col = 0; col < 5; ++col) {
      int piv = col;
      for (int r = col + 1; r < 5; ++r)
        if (fabsl(M[r][col]) > fabsl(M[piv][col]))
          piv = r;
      for (int q = 0; q < 6; ++q) {
        long double tmp = M[col][q];
        M[col][q] = M[piv][q];
        M[piv][q] = tmp;
      }
      for (int r = col + 1; r < 5; ++r) {
        long double fct = M[r][col] / M[col][col];
        for (int q = col; q < 6; ++q)
          M[r][q] -= fct * M[col][q];
      }
    }
    for (int r = 4; r >= 0; --r) {
      long double v = M[r][5];
      for (int q = r + 1; q < 5; ++q)
        v -= M[r][q] * c[5 + q];
      c[5 + r] = v / M[r][r];
    }
  }
}

/* Banded Gaussian elimination with partial pivoting on nrhs right-hand
 * sides at once (the row-oriented, left-justified scheme of Numerical
 * Recipes' bandec).  Row i of the N x N matrix (kl sub-, ku
 * superdiagonals) is stored in a[i * W ..], W = kl + ku + 1, slot q holding
 * column max(0, i - kl) + q.  Before step k every candidate pivot row
 * (k .. k + kl) starts at column k: eliminating column k shifts each updated
 * row left by one slot, and U keeps kl + ku superdiagonals, which fit in the
 * W slots.  b is N x nrhs, row-major; the solution overwrites it.  Returns
 * 0, or 1 when a pivot is below 1e-13 times the largest entry (singular). */
static int band_solve(int N, int kl, int ku, long double *a, long double *b,
                      int nrhs) {
  const int W = kl + ku + 1;
  long double amax = 0.0L;
  for (long e = 0; e < (long)N * W; ++e)
    amax = fmaxl(amax, fabsl(a[e]));
  for (int k = 0; k < N; ++k) {
    const int last = k + kl < N - 1 ? k + kl : N - 1;
    int piv = k;
    for (int i = k + 1; i <= last; ++i)
      if (fabsl(a[(long)i * W]) > fabsl(a[(long)piv * W]))
        piv = i;
    if (!(fabsl(a[(long)piv * W]) > 1e-13 * amax))
      return 1;
    if (piv != k) {
      for (int q = 0; q < W; ++q) {
        long double tmp = a[(long)k * W + q];
        a[(long)k * W + q] = a[(long)piv * W + q];
        a[(long)piv * W + q] = tmp;
      }
      for (int r = 0; r < nrhs; ++r) {
        long double tmp = b[(long)k * nrhs + r];
        b[(long)k * nrhs + r] = b[(long)piv * nrhs + r];
        b[(long)piv * nrhs + r] = tmp;
      }
    }
    const long double *ak = a + (long)k * W;
    for (int i = k + 1; i <= last; ++i) {
      long double *ai = a + (long)i * W;
      const long double fct = ai[0] / ak[0];
      for (int q = 1; q < W; ++q)
        ai[q - 1] = ai[q] - fct * ak[q];
      ai[W - 1] = 0.0L;
      for (int r = 0; r < nrhs; ++r)
        b[(long)i * nrhs + r] -= fct * b[(long)k * nrhs + r];
    }
  }
  for (int i = N - 1; i >= 0; --i) {
    const long double *ai = a + (long)i * W;
    for (int r = 0; r < nrhs; ++r) {
      long double v = b[(long)i * nrhs + r];
      for (int q = 1; q < W && i + q < N; ++q)
        v -= ai[q] * b[(long)(i + q) * nrhs + r];
      b[(long)i * nrhs + r] = v / ai[0];
    }
  }
  return 0;
}

/* The spline with derivatives 1..4 at the first and last waypoint given:
 * ends[e][c][j - 1] = d^j/dt^j of coordinate c (0 x, 1 z) at end e (0
 * first, 1 last), or NULL for 0 (at rest). */
static rc_err smooth_with_ends(rc_crane_path *path, const double ends[2][2][4],
                               rc_error *err);

rc_err rc_crane_path_smooth(rc_crane_path *path, rc_error *err) {
  return smooth_with_ends(path, NULL, err);
}

/* Bandwidths of the continuity system: unknown j of knot k is column
 * 4 (k - 1) + j - 1, and the rows of knot k touch knots k - 1 .. k + 1. */
enum { SPL_KL = 7, SPL_KU = 7, SPL_W = SPL_KL + SPL_KU + 1 };

/* Length of segment k, and the length scale of interior knot k (the
 * unknowns are p^(j) H_k^j). */
static double seg_len(const double *t, int k) {
  return t[k + 1] - t[k];
}
static double knot_scale(const double *t, int k) {
  return 0.5 * (seg_len(t, k - 1) + seg_len(t, k));
}

/* DB[m - 5][f][e]: m-th derivative (m = 5..8) of basis f at a = e. */
static void basis_high_derivs(const long double HB[10][10],
                              long double DB[4][10][2]) {
  for (int m = 5; m <= 8; ++m)
    for (int f = 0; f < 10; ++f)
      for (int e = 0; e < 2; ++e) {
        long double v = 0.0L;
        for (int i = 9; i >= m; --i)
          v = v * e + HB[f][i] * falling(i, m);
        DB[m - 5][f][e] = v;
      }
}

/* The storage of one spline build: the band matrix A (N x SPL_W) and its
 * two right-hand sides rhs (N x 2, x and z) for the unknown derivatives
 * 1..4 at the N / 4 interior knots; D[10 k + j] (x), D[10 k + 5 + j] (z) =
 * p^(j)(t_k), j = 0..4; the coefficients cx, cz (10 per segment). */
typedef struct spline_work {
  long double *A, *rhs;
  double *D, *cx, *cz;
} spline_work;

static void spline_work_free(spline_work *w) {
  free(w->cx);
  free(w->cz);
  free(w->A);
  free(w->rhs);
  free(w->D);
}

static int spline_work_alloc(spline_work *w, int n) {
  const int nseg = n - 1, N = 4 * (n - 2);
  w->cx = malloc(sizeof(double) * 10 * (size_t)nseg);
  w->cz = malloc(sizeof(double) * 10 * (size_t)nseg);
  w->A = N > 0 ? calloc((size_t)N * SPL_W, sizeof(long double)) : NULL;
  w->rhs = N > 0 ? calloc((size_t)N * 2, sizeof(long double)) : NULL;
  w->D = malloc(sizeof(double) * 10 * (size_t)n);
  if (!w->cx || !w->cz || !w->D || (N > 0 && (!w->A || !w->rhs))) {
    spline_work_free(w);
    return 1;
  }
  return 0;
}

/* Rows 4 (k - 1) + m - 5 of A and rhs, k = 1..n-2, m = 5..8: the m-th
 * derivative of segment k at a = 0 equals that of segment k - 1 at a = 1,
 * scaled by H_k^m.  Known values (the waypoints, the given end derivatives)
 * go to the right-hand side. */
static void assemble_continuity(const rc_crane_path *path,
                                const double ends[2][2][4],
                                const long double DB[4][10][2],
                                spline_work *w) {
  const int n = path->n;
  const double *t = path->t;
  long double *A = w->A, *rhs = w->rhs;
  for (int k = 1; k <= n - 2; ++k) {
    const double Hk = knot_scale(t, k);
    for (int m = 5; m <= 8; ++m) {
      const int row = 4 * (k - 1) + (m - 5);
      /* +: segment k at a = 0 (knots k, k+1); -: segment k-1 at a = 1
       * (knots k-1, k) */
      for (int side = 0; side < 2; ++side) {
        const int seg = side == 0 ? k : k - 1;
        const double sign = side == 0 ? 1.0 : -1.0;
        const int e = side == 0 ? 0 : 1;
        const double h = seg_len(t, seg);
        const long double sm = sign * powl((long double)Hk / h, m);
        for (int end = 0; end < 2; ++end) {
          const int knot = seg + end;
          for (int j = 0; j < 5; ++j) {
            const long double db = DB[m - 5][5 * end + j][e];
            if (j == 0) {
              /* the two end values enter as their difference (derivatives
               * m >= 1 of the value basis: DB(left) = -DB(right)), which
               * keeps a large offset of x or z out of the rounding */
              if (end == 1) {
                rhs[2 * row + 0] -=
                    sm * db * ((long double)path->x[knot] - path->x[seg]);
                rhs[2 * row + 1] -=
                    sm * db * ((long double)path->z[knot] - path->z[seg]);
              }
            } else if (ends && (knot == 0 || knot == n - 1)) {
              const int ee = knot == 0 ? 0 : 1; /* a given end derivative */
              const long double coef = sm * db * powl((long double)h, j);
              rhs[2 * row + 0] -= coef * ends[ee][0][j - 1];
              rhs[2 * row + 1] -= coef * ends[ee][1][j - 1];
            } else if (knot > 0 && knot < n - 1) {
              const int col = 4 * (knot - 1) + (j - 1);
              const long double coef =
                  sm * db * powl((long double)h / knot_scale(t, knot), j);
              const int first = row - SPL_KL > 0 ? row - SPL_KL : 0;
              A[(long)row * SPL_W + (col - first)] += coef;
            }
          }
        }
      }
    }
  }
}

/* D from the waypoints, the solved interior derivatives (rhs, scaled by
 * H_k^j) and the end derivatives (given, or 0). */
static void knot_derivs(const rc_crane_path *path, const double ends[2][2][4],
                        spline_work *w) {
  const int n = path->n;
  const long double *rhs = w->rhs;
  double *D = w->D;
  for (int k = 0; k < n; ++k) {
    D[10 * k + 0] = path->x[k];
    D[10 * k + 5] = path->z[k];
    for (int j = 1; j < 5; ++j) {
      const int inner = k > 0 && k < n - 1;
      const double Hj = inner ? pow(knot_scale(path->t, k), (double)j) : 1.0;
      const double e0 = ends ? ends[k == 0 ? 0 : 1][0][j - 1] : 0.0;
      const double e1 = ends ? ends[k == 0 ? 0 : 1][1][j - 1] : 0.0;
      D[10 * k + j] =
          inner ? (double)(rhs[2 * (4 * (k - 1) + j - 1) + 0] / Hj) : e0;
      D[10 * k + 5 + j] =
          inner ? (double)(rhs[2 * (4 * (k - 1) + j - 1) + 1] / Hj) : e1;
    }
  }
}

/* cx, cz of every segment from the knot derivatives D through the Hermite
 * basis.  Returns 1 if all are finite, else 0. */
static int segment_coefs(const rc_crane_path *path,
                         const long double HB[10][10], spline_work *w) {
  const double *D = w->D;
  int finite = 1;
  for (int k = 0; k < path->n - 1; ++k) {
    const double h = seg_len(path->t, k);
    double *ax = w->cx + 10 * k, *az = w->cz + 10 * k;
    /* value part as x_k + (x_{k+1} - x_k) HB_5 (HB_0 + HB_5 = 1): a large
     * offset would otherwise sit in every coefficient and cancel in the
     * derivatives */
    long double lx[10] = {0}, lz[10] = {0};
    lx[0] = path->x[k];
    lz[0] = path->z[k];
    for (int end = 0; end < 2; ++end)
      for (int j = 0; j < 5; ++j) {
        long double vx, vz;
        if (j == 0) {
          if (end == 0)
            continue;
          vx = (long double)path->x[k + 1] - path->x[k];
          vz = (long double)path->z[k + 1] - path->z[k];
        } else {
          const long double hj = powl((long double)h, j);
          vx = hj * D[10 * (k + end) + j];
          vz = hj * D[10 * (k + end) + 5 + j];
        }
        for (int i = 0; i < 10; ++i) {
          lx[i] += vx * HB[5 * end + j][i];
          lz[i] += vz * HB[5 * end + j][i];
        }
      }
    for (int i = 0; i < 10; ++i) {
      ax[i] = (double)lx[i];
      az[i] = (double)lz[i];
      if (!isfinite(ax[i]) || !isfinite(az[i]))
        finite = 0;
    }
  }
  return finite;
}

/* Frees w and refuses the path: what is wrong with the spline, and what
 * the waypoints should be instead. */
static rc_err spline_refused(spline_work *w, const rc_crane_path *path,
                             const char *what, const char *expected,
                             rc_error *err) {
  spline_work_free(w);
  return rc_error_set(err, RC_ERR_INPUT,
                      "crane: the smooth path through %d waypoints (t = %g "
                      ".. %g) %s: expected %s (or use path_mode=stop)",
                      path->n, path->t[0], path->t[path->n - 1], what,
                      expected);
}

static rc_err smooth_with_ends(rc_crane_path *path, const double ends[2][2][4],
                               rc_error *err) {
  const int n = path->n, N = 4 * (n - 2);
  /* in long double: the continuity rows are differences of large basis
   * derivatives (~1e7 for m = 8), so the basis must be exact to well
   * below double rounding for the spline to be exact to double rounding */
  long double HB[10][10], DB[4][10][2];
  hermite_basis(HB);
  basis_high_derivs(HB, DB);
  spline_work w;
  if (spline_work_alloc(&w, n))
    return rc_error_set(err, RC_ERR_NOMEM,
                        "crane: out of memory for a smooth path of %d "
                        "waypoints",
                        n);
  assemble_continuity(path, ends, DB, &w);
  if (N > 0 && band_solve(N, SPL_KL, SPL_KU, w.A, w.rhs, 2))
    return spline_refused(&w, path, "is numerically singular",
                          "waypoint times spaced less unevenly", err);
  knot_derivs(path, ends, &w);
  if (!segment_coefs(path, HB, &w))
    return spline_refused(&w, path, "has non-finite coefficients",
                          "waypoint times and values of moderate size", err);
  free(w.A);
  free(w.rhs);
  free(w.D);
  free(path->cx);
  free(path->cz);
  path->cx = w.cx;
  path->cz = w.cz;
  path->mode = RC_CRANE_PATH_SMOOTH;
  return RC_OK;
}

/* Segment holding t in (t[0], t[n-1]): t in (t[lo], t[lo+1]]. */
static int find_segment(const rc_crane_path *path, double t) {
  int lo = 0, hi = path->n - 1;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (path->t[mid] < t)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

void rc_crane_path_eval(const rc_crane_path *path, double t, double p1[5],
                        double p2[5]) {
  const int n = path->n;
  for (int j = 1; j < 5; ++j)
    p1[j] = p2[j] = 0.0;
  if (!(t > path->t[0])) {
    p1[0] = path->x[0];
    p2[0] = path->z[0];
    return;
  }
  if (t >= path->t[n - 1]) {
    p1[0] = path->x[n - 1];
    p2[0] = path->z[n - 1];
    return;
  }
  const int lo = find_segment(path, t), hi = lo + 1;
  const double h = path->t[hi] - path->t[lo];
  const double a = (t - path->t[lo]) / h;
  double hj = 1.0;
  if (path->mode == RC_CRANE_PATH_SMOOTH) {
    for (int j = 0; j < 5; ++j) {
      p1[j] = poly_deriv(path->cx + 10 * lo, j, a) / hj;
      p2[j] = poly_deriv(path->cz + 10 * lo, j, a) / hj;
      hj *= h;
    }
    return;
  }
  const double dx = path->x[hi] - path->x[lo];
  const double dz = path->z[hi] - path->z[lo];
  for (int j = 0; j < 5; ++j) {
    double sj = smooth_step(j, a) / hj;
    p1[j] = (j == 0 ? path->x[lo] : 0.0) + dx * sj;
    p2[j] = (j == 0 ? path->z[lo] : 0.0) + dz * sj;
    hj *= h;
  }
}

/* Candidate points a in [0, 1] for the extrema of the m-th derivative of the
 * segment polynomial c: both ends, the real parts (clamped to [0, 1]) of all
 * roots of its (m+1)-th derivative, and NSAMP uniform samples.  Extra points
 * never hurt a minimum's soundness (they are values of the function); the
 * roots make it exact.  Returns the count (at most 2 + 8 + NSAMP + 1). */
#define NSAMP 64
static int extremum_candidates(const double c[10], int m, double *a) {
  int na = 0;
  for (int q = 0; q <= NSAMP; ++q)
    a[na++] = (double)q / NSAMP;
  /* coefficients of the (m+1)-th derivative, degree 8 - m */
  double d[10];
  int deg = 8 - m;
  double dmax = 0.0;
  for (int i = 0; i <= deg; ++i) {
    d[i] = c[i + m + 1] * falling(i + m + 1, m + 1);
    dmax = fmax(dmax, fabs(d[i]));
  }
  while (deg > 0 && !(fabs(d[deg]) > 1e-14 * dmax))
    --deg;
  if (deg < 1)
    return na;
  double z[2 * 10];
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  gsl_poly_complex_workspace *ws =
      gsl_poly_complex_workspace_alloc((size_t)deg + 1);
  int ok =
      ws && gsl_poly_complex_solve(d, (size_t)deg + 1, ws, z) == GSL_SUCCESS;
  if (ws)
    gsl_poly_complex_workspace_free(ws);
  gsl_set_error_handler(old);
  if (!ok) /* fall back on a denser sample */
    for (int q = 0; q < 8 * NSAMP; ++q)
      a[na++] = (q + 0.5) / (8 * NSAMP);
  else
    for (int r = 0; r < deg; ++r)
      a[na++] = fmin(1.0, fmax(0.0, z[2 * r]));
  return na;
}
#define NCAND (NSAMP + 1 + 8 * NSAMP)

rc_err rc_crane_path_check_flat(const rc_crane_path *path,
                                const rc_crane_params *par, rc_error *err) {
  for (int k = 0; k < path->n; ++k)
    if (!(path->z[k] > 0.0))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: path violates p2 > 0 at t = %g: p2 = %g "
                          "(the load would be at or above the trolley rail; "
                          "expected z > 0, z positive downward)",
                          path->t[k], path->z[k]);
  const double mg = par->m * par->g;
  if (path->mode == RC_CRANE_PATH_SMOOTH) {
    double a[NCAND];
    for (int k = 0; k + 1 < path->n; ++k) {
      const double t0 = path->t[k], h = path->t[k + 1] - t0;
      const double *c = path->cz + 10 * k;
      /* the segment's minimum of p2 and maximum of p2'' (exact: candidates
       * include every root of the derivative) */
      double p2min = HUGE_VAL, amin = 0.0, p2ddmax = -HUGE_VAL, amax = 0.0;
      int na = extremum_candidates(c, 0, a);
      for (int q = 0; q < na; ++q) {
        const double v = poly_deriv(c, 0, a[q]);
        if (!(v >= p2min)) {
          p2min = v;
          amin = a[q];
        }
      }
      na = extremum_candidates(c, 2, a);
      for (int q = 0; q < na; ++q) {
        const double v = poly_deriv(c, 2, a[q]) / (h * h);
        if (!(v <= p2ddmax)) {
          p2ddmax = v;
          amax = a[q];
        }
      }
      if (!(p2min > 0.0))
        return rc_error_set(
            err, RC_ERR_INPUT,
            "crane: path violates p2 > 0 at t = %.6g: p2 = %.6g (the "
            "smooth path between the waypoints at t = %g and %g reaches "
            "the trolley rail; expected z > 0, z positive downward: move "
            "the waypoints lower or use path_mode=stop)",
            t0 + amin * h, p2min, t0, path->t[k + 1]);
      const double b = mg - par->M2 * p2ddmax;
      if (!(b > 0.0))
        return rc_error_set(
            err, RC_ERR_INPUT,
            "crane: path violates b = m g - M2 p2'' > 0 at t = %.6g: "
            "p2'' = %.6g m/s^2 gives b = %.6g N (the load would have to "
            "accelerate downward at least as fast as gravity, g m/M2 = "
            "%.6g m/s^2; slow the segment from t = %g to %g)",
            t0 + amax * h, p2ddmax, b, mg / par->M2, t0, path->t[k + 1]);
    }
    return RC_OK;
  }
  /* s''(a) = 2520 a^3 (1-a)^3 (1-2a) has its maximum at a* = (1 - 1/sqrt7)/2
   * and its minimum at 1 - a*, with s''(1 - a) = -s''(a). */
  const double astar = 0.5 * (1.0 - 1.0 / sqrt(7.0));
  const double s2max = smooth_step(2, astar);
  for (int k = 0; k + 1 < path->n; ++k) {
    const double h = path->t[k + 1] - path->t[k];
    const double dz = path->z[k + 1] - path->z[k];
    if (dz == 0.0)
      continue;
    const double a = dz > 0 ? astar : 1.0 - astar; /* where p2'' is largest */
    const double p2dd = fabs(dz) * s2max / (h * h);
    const double b = mg - par->M2 * p2dd;
    if (!(b > 0.0))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: path violates b = m g - M2 p2'' > 0 at "
                          "t = %.6g: p2'' = %.6g m/s^2 gives b = %.6g N (the "
                          "load would have to accelerate downward at least "
                          "as fast as gravity, g m/M2 = %.6g m/s^2; slow the "
                          "segment from t = %g to %g)",
                          path->t[k] + a * h, p2dd, b, mg / par->M2, path->t[k],
                          path->t[k + 1]);
  }
  return RC_OK;
}

void rc_crane_path_overshoot(const rc_crane_path *path,
                             rc_crane_overshoot *out) {
  memset(out, 0, sizeof *out);
  out->tx = out->tz = path->t[0];
  if (path->mode != RC_CRANE_PATH_SMOOTH)
    return;
  double a[NCAND];
  for (int k = 0; k + 1 < path->n; ++k) {
    const double t0 = path->t[k], h = path->t[k + 1] - t0;
    for (int coord = 0; coord < 2; ++coord) {
      const double *c = (coord == 0 ? path->cx : path->cz) + 10 * k;
      const double *v = coord == 0 ? path->x : path->z;
      const double lo = fmin(v[k], v[k + 1]), hi = fmax(v[k], v[k + 1]);
      double *d = coord == 0 ? &out->dx : &out->dz;
      double *td = coord == 0 ? &out->tx : &out->tz;
      const int na = extremum_candidates(c, 0, a);
      for (int q = 0; q < na; ++q) {
        const double p = poly_deriv(c, 0, a[q]);
        const double o = fmax(p - hi, lo - p);
        /* below rounding of the waypoint values: not an overshoot */
        if (o > *d && o > 64 * DBL_EPSILON * fmax(fabs(lo), fabs(hi))) {
          *d = o;
          *td = t0 + a[q] * h;
        }
      }
    }
  }
}

/* Second-order jets: (value, first, second time derivative). */
typedef struct jet {
  double v, d, dd;
} jet;

static jet jet_mul(jet u, jet w) {
  jet r = {u.v * w.v, u.d * w.v + u.v * w.d,
           u.dd * w.v + 2.0 * u.d * w.d + u.v * w.dd};
  return r;
}

static jet jet_div(jet u, jet w) {
  jet r;
  r.v = u.v / w.v;
  r.d = (u.d - r.v * w.d) / w.v;
  r.dd = (u.dd - 2.0 * r.d * w.d - r.v * w.dd) / w.v;
  return r;
}

int rc_crane_flat_eval(const rc_crane_params *par, const rc_crane_path *path,
                       double t, rc_crane_flat *out) {
  double p1[5], p2[5];
  rc_crane_path_eval(path, t, p1, p2);
  const double M2 = par->M2;
  const jet a = {-M2 * p1[2], -M2 * p1[3], -M2 * p1[4]};
  const jet b = {par->m * par->g - M2 * p2[2], -M2 * p2[3], -M2 * p2[4]};
  if (!(b.v > 0.0) || !(p2[0] > 0.0))
    return 1;
  const jet P1 = {p1[0], p1[1], p1[2]}, P2 = {p2[0], p2[1], p2[2]};
  /* theta = atan2(a, b): theta' = (a' b - a b') / q, q = a^2 + b^2. */
  const double q = a.v * a.v + b.v * b.v;
  const double nn = a.d * b.v - a.v * b.d, nd = a.dd * b.v - a.v * b.dd;
  const double qd = 2.0 * (a.v * a.d + b.v * b.d);
  const jet th = {atan2(a.v, b.v), nn / q, (nd * q - nn * qd) / (q * q)};
  const double tau = sqrt(q);
  /* r = p2 tau / b = p2 / cos theta, d = p1 - p2 a / b. */
  const jet ab = jet_div(a, b);
  const jet pab = jet_mul(P2, ab);
  const jet d = {P1.v - pab.v, P1.d - pab.d, P1.dd - pab.dd};
  const jet ct = {cos(th.v), -sin(th.v) * th.d,
                  -cos(th.v) * th.d * th.d - sin(th.v) * th.dd};
  const jet r = jet_div(P2, ct);
  out->x = p1[0];
  out->z = p2[0];
  out->vx = p1[1];
  out->vz = p2[1];
  out->d = d.v;
  out->r = r.v;
  out->theta = th.v;
  out->vd = d.d;
  out->vr = r.d;
  out->omega = th.d;
  out->ad = d.dd;
  out->ar = r.dd;
  out->alpha = th.dd;
  out->tau = tau;
  out->u1 = par->M1 * d.dd + par->C1 * d.d - tau * sin(th.v);
  out->u2 = (par->C3 * par->C3 * tau - par->C2 * r.d - par->J * r.dd) / par->C3;
  return 0;
}

/* ---- geometric curves (crane -f pathtime) -------------------------------- */

/* sigma_k by chord length: t[0] = 0, t[n - 1] = 1. */
static void chord_sigma(const double *x, const double *z, int n, double *t) {
  double len = 0.0;
  t[0] = 0.0;
  for (int k = 1; k < n; ++k) {
    len += hypot(x[k] - x[k - 1], z[k] - z[k - 1]);
    t[k] = len;
  }
  for (int k = 1; k < n; ++k)
    t[k] /= len;
  t[n - 1] = 1.0;
}

/* ends[e][c][j - 1]: the derivatives j = 1..4 at end e (sigma 0 or 1) of
 * coordinate c (0 x, 1 z) of the polynomial of degree min(n, 5) - 1
 * through the first (last) min(n, 5) points (exact for a curve that is
 * such a polynomial in sigma). */
static void curve_end_derivs(const double *t, const double *x, const double *z,
                             int n, double ends[2][2][4]) {
  const int np = n < 5 ? n : 5;
  for (int e = 0; e < 2; ++e) {
    const int first = e == 0 ? 0 : n - np;
    const double te = e == 0 ? 0.0 : 1.0;
    for (int c = 0; c < 2; ++c) {
      /* Newton's divided differences, then the derivatives at te of the
       * Newton form sum_i dd_i prod_{l<i} (s - t_l) */
      double dd[5], ts[5];
      for (int i = 0; i < np; ++i) {
        ts[i] = t[first + i];
        dd[i] = c == 0 ? x[first + i] : z[first + i];
      }
      for (int l = 1; l < np; ++l)
        for (int i = np - 1; i >= l; --i)
          dd[i] = (dd[i] - dd[i - 1]) / (ts[i] - ts[i - l]);
      /* Horner with derivatives: q = dd[np-1]; q = q (s - ts[i]) + dd[i] */
      double q[5] = {dd[np - 1], 0, 0, 0, 0};
      for (int i = np - 2; i >= 0; --i) {
        for (int j = 4; j >= 1; --j)
          q[j] = q[j] * (te - ts[i]) + j * q[j - 1];
        q[0] = q[0] * (te - ts[i]) + dd[i];
      }
      for (int j = 1; j <= 4; ++j)
        ends[e][c][j - 1] = q[j];
    }
  }
}

rc_err rc_crane_curve_read_csv(rc_crane_path *curve, const char *file,
                               rc_error *err) {
  memset(curve, 0, sizeof *curve);
  csv_cols c;
  rc_err rc = read_rows(&CURVE_FORM, file, &c, err);
  if (rc == RC_OK && c.n < 2)
    rc = rc_error_set(err, RC_ERR_INPUT,
                      "crane: curve file '%s' has %d row%s, expected at "
                      "least 2 points x,z",
                      file, c.n, c.n == 1 ? "" : "s");
  double *t = rc == RC_OK ? malloc(sizeof(double) * (size_t)c.n) : NULL;
  if (rc == RC_OK && !t)
    rc = rc_error_set(err, RC_ERR_NOMEM, "crane: out of memory for a curve");
  if (rc != RC_OK) {
    free_cols(&c);
    return rc;
  }
  const int n = c.n;
  double *x = c.c[0], *z = c.c[1];
  chord_sigma(x, z, n, t);
  double ends[2][2][4];
  curve_end_derivs(t, x, z, n, ends);
  curve->n = n;
  curve->t = t;
  curve->x = x;
  curve->z = z;
  curve->mode = RC_CRANE_PATH_STOP;
  rc = smooth_with_ends(curve, ends, err);
  if (rc != RC_OK) {
    rc_crane_path_free(curve);
    return rc;
  }
  curve->mode = RC_CRANE_PATH_CURVE;
  return RC_OK;
}

void rc_crane_curve_eval(const rc_crane_path *curve, double sigma,
                         double P[7][2]) {
  const int n = curve->n;
  int lo = 0;
  if (sigma >= curve->t[n - 1])
    lo = n - 2;
  else if (sigma > curve->t[0])
    lo = find_segment(curve, sigma);
  const double h = curve->t[lo + 1] - curve->t[lo];
  const double a = (sigma - curve->t[lo]) / h;
  double hj = 1.0;
  for (int j = 0; j < 7; ++j) {
    P[j][0] = poly_deriv(curve->cx + 10 * lo, j, a) / hj;
    P[j][1] = poly_deriv(curve->cz + 10 * lo, j, a) / hj;
    hj *= h;
  }
}

double rc_crane_curve_length(const rc_crane_path *curve) {
  static const double xg[4] = {0.1834346424956498, 0.5255324099163290,
                               0.7966664774136267, 0.9602898564975363};
  static const double wg[4] = {0.3626837833783620, 0.3137066458778873,
                               0.2223810344533745, 0.1012285362903763};
  double len = 0.0;
  for (int k = 0; k < curve->n - 1; ++k) {
    const double a = curve->t[k], b = curve->t[k + 1];
    for (int i = 0; i < 4; ++i)
      for (int sgn = -1; sgn <= 1; sgn += 2) {
        double P[7][2];
        rc_crane_curve_eval(curve, 0.5 * (a + b) + sgn * 0.5 * (b - a) * xg[i],
                            P);
        len += 0.5 * (b - a) * wg[i] * hypot(P[1][0], P[1][1]);
      }
  }
  return len;
}
