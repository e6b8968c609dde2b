/*
 * ida_dae.c - benchmark driver: SUNDIALS IDA on any square radcol problem
 * (a built-in or a plugin's formulation), for the DAE work-precision study
 * (scripts/bench_dae.py, benchmarks/dae/).
 *
 * One generic driver rather than one per problem: IDA integrates the very
 * equations radcol transcribes, taken from the same rc_problem (the
 * generated plugin of benchmarks/dae/<name>/model.py), with the same exact
 * Jacobian, so a difference between the two solvers is the method's and
 * never a transcription of the model by hand; a new benchmark needs no C.
 *
 * The problem x' = f(t, x, y), 0 = g(t, x, y) (nx states, ny algebraic
 * variables, no controls or free parameters) in IDA's residual form, with
 * z = (x, y):
 *     F_i = z'_i - f_i   (i < nx),        F_i = g_i   (i >= nx),
 *     dF/dz + cj dF/dz' = [ cj I - f_x   -f_y ]
 *                         [ g_x           g_y ]   (dense, from the problem's
 *                                                   sparse point Jacobian).
 * Initial values: x(t0) = the problem's x0; y(t0) from its guess, made
 * consistent by IDACalcIC (IDA_YA_YDP_INIT) when the problem imposes g at
 * t0 (t0_algebraic: index 1); else (index 2, 3) y(t0) = the guess, x'(t0) =
 * f and y'(t0) = 0, and --suppress-alg should be given (the test set's way of
 * running DASSL/IDA on index-2 forms: algebraic variables out of the error
 * test).  Tolerances: rtol and, per variable, atol_i = rtol * scale_i with
 * scale_i = max |ref_i| over the reference grid (the size of the component,
 * which a user of IDA knows), 1 for a variable the reference lacks; with
 * --atol A a scalar A instead.
 *
 * Output: IDA_NORMAL to every time of the reference grid (IDA's
 * interpolation between its steps; stop time tf), then
 *   digits_end   = -log10 max_i |z_i(tf) - ref_i(tf)| / |ref_i(tf)|
 *                  (the test set's significant correct digits, scd),
 *   digits_grid  = -log10 max_{k,i} |z_i(t_k) - ref_i(t_k)| / max_k |ref_i|,
 * over the compared variables (--compare; derived outputs allowed), and
 * digits = min(digits_end, digits_grid).  --stop-at-grid makes every grid
 * time a stop time (values at IDA's own steps, no interpolation);
 * --max-ord K caps IDA's BDF order.  Time: wall clock of the
 * integration (IDACreate to the last output, CalcIC included), minimum and
 * median over --repeat runs; the reference is read and the errors computed
 * outside it.
 *
 * Usage: radcol_bench_ida_dae [--plugin LIB.so] PROBLEM [-f FORM]
 *          [--set NAME=VALUE]... --ref REF.csv [--compare a,b,...]
 *          [--repeat R] [--suppress-alg] [--atol A] [--stop-at-grid]
 *          [--max-ord K] [--out OUT.csv] RTOL...
 * prints one JSON object per RTOL on stdout (exit 0), 2 on bad input; --out
 * gets the grid values of the last RTOL.
 */
#include <ida/ida.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <time.h>

#include "plugin_loader.h"
#include "radcol/catalogue.h"
#include "radcol/params.h"
#include "radcol/problem.h"

#define MAX_COLS 256
#define MAX_REPEAT 101

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the problem in IDA's residual form ---------------------------------- */

typedef struct dae {
  const rc_problem *pb;
  int nx, ny, n, nw, nF;
  double *w, *F, *jv; /* workspace: point vector, F values, Jacobian values */
  long nres, njac;
} dae;

static int load_w(dae *d, const double *z) {
  memcpy(d->w, z, sizeof *z * (size_t)d->n);
  return 0;
}

static int cb_status(int st) {
  return st == 0 ? 0 : (st > 0 ? 1 : -1); /* > 0: IDA may retry smaller */
}

static int res_fn(sunrealtype t, N_Vector zz, N_Vector zp, N_Vector rr,
                  void *ud) {
  dae *d = ud;
  const double *z = N_VGetArrayPointer(zz), *dz = N_VGetArrayPointer(zp);
  double *r = N_VGetArrayPointer(rr);
  load_w(d, z);
  d->nres++;
  const int st = d->pb->point.eval(d->pb, t, d->w, d->F);
  if (st != 0)
    return cb_status(st);
  for (int i = 0; i < d->n; ++i) {
    r[i] = i < d->nx ? dz[i] - d->F[i] : d->F[i];
    if (!isfinite(r[i]))
      return 1;
  }
  return 0;
}

static int jac_fn(sunrealtype t, sunrealtype cj, N_Vector zz, N_Vector zp,
                  N_Vector rr, SUNMatrix J, void *ud, N_Vector t1, N_Vector t2,
                  N_Vector t3) {
  (void)zp, (void)rr, (void)t1, (void)t2, (void)t3;
  dae *d = ud;
  load_w(d, N_VGetArrayPointer(zz));
  d->njac++;
  const int st = d->pb->point.jacobian(d->pb, t, d->w, d->jv);
  if (st != 0)
    return cb_status(st);
  SUNMatZero(J);
  const rc_pattern *P = &d->pb->point.jac;
  for (int e = 0; e < P->nnz; ++e) {
    const int r = P->row[e], c = P->col[e];
    if (r >= d->n || c >= d->n)
      continue; /* no path rows or Lagrange term in a square problem */
    SM_ELEMENT_D(J, r, c) += r < d->nx ? -d->jv[e] : d->jv[e];
  }
  for (int i = 0; i < d->nx; ++i)
    SM_ELEMENT_D(J, i, i) += cj;
  return 0;
}

/* ---- the reference grid ---------------------------------------------------
 */

typedef struct grid {
  int ncol, nt;
  char *names[MAX_COLS];
  double *val; /* nt rows of ncol: column 0 is the time */
} grid;

static void grid_free(grid *g) {
  for (int j = 0; j < g->ncol; ++j)
    free(g->names[j]);
  free(g->val);
  memset(g, 0, sizeof *g);
}

/* Reads a CSV of a header line of names (time first) and numeric rows. */
static int grid_read(const char *path, grid *g) {
  memset(g, 0, sizeof *g);
  FILE *fp = fopen(path, "r");
  if (!fp)
    return fprintf(stderr, "--ref %s: cannot open\n", path), -1;
  static char line[1 << 16];
  if (!fgets(line, sizeof line, fp)) {
    fclose(fp);
    return fprintf(stderr, "--ref %s: empty\n", path), -1;
  }
  line[strcspn(line, "\r\n")] = 0;
  for (char *tok = strtok(line, ","); tok; tok = strtok(NULL, ",")) {
    if (g->ncol == MAX_COLS) {
      fclose(fp);
      return fprintf(stderr, "--ref %s: more than %d columns\n", path,
                     MAX_COLS),
             -1;
    }
    g->names[g->ncol++] = strdup(tok);
  }
  int cap = 0;
  while (fgets(line, sizeof line, fp)) {
    if (line[0] == '\n' || line[0] == 0)
      continue;
    if (g->nt == cap) {
      cap = cap ? 2 * cap : 256;
      double *nv = realloc(g->val, sizeof *nv * (size_t)cap * g->ncol);
      if (!nv) {
        fclose(fp);
        return fprintf(stderr, "out of memory\n"), -1;
      }
      g->val = nv;
    }
    char *p = line;
    for (int j = 0; j < g->ncol; ++j) {
      char *end;
      g->val[(size_t)g->nt * g->ncol + j] = strtod(p, &end);
      if (end == p) {
        fclose(fp);
        return fprintf(stderr, "--ref %s: row %d, column %d: not a number\n",
                       path, g->nt + 2, j + 1),
               -1;
      }
      p = *end == ',' ? end + 1 : end;
    }
    g->nt++;
  }
  fclose(fp);
  if (g->nt < 2 || strcmp(g->names[0], "t") != 0)
    return fprintf(stderr,
                   "--ref %s: expected a header 't,NAME,...' and >= 2 rows\n",
                   path),
           -1;
  return 0;
}

static int grid_col(const grid *g, const char *name) {
  for (int j = 1; j < g->ncol; ++j)
    if (strcmp(g->names[j], name) == 0)
      return j;
  return -1;
}

/* ---- one integration ------------------------------------------------------
 */

typedef struct run_cfg {
  double rtol, atol; /* atol < 0: per variable, rtol * scale */
  int suppress_alg;
  int stop_at_grid;    /* every grid time a stop time (no interpolation) */
  int max_ord;         /* IDA's maximum BDF order (0: its default, 5) */
  const double *scale; /* n */
} run_cfg;

typedef struct run_out {
  int flag; /* 0 or IDA's failing return code */
  double time_s;
  long steps, resevals, jacevals, etfails, ncfails;
  double *z; /* nt rows of (n + nout): variables, then outputs */
} run_out;

static int integrate(dae *d, const grid *g, const run_cfg *rc, run_out *o,
                     double *w0) {
  const rc_problem *pb = d->pb;
  const int n = d->n, nout = pb->nout, m = n + nout;
  SUNContext ctx = NULL;
  if (SUNContext_Create(NULL, &ctx) != 0)
    return -100;
  N_Vector zz = N_VNew_Serial(n, ctx), zp = N_VNew_Serial(n, ctx),
           id = N_VNew_Serial(n, ctx), av = N_VNew_Serial(n, ctx);
  SUNMatrix A = SUNDenseMatrix(n, n, ctx);
  SUNLinearSolver LS = SUNLinSol_Dense(zz, A, ctx);
  void *mem = IDACreate(ctx);
  double *z = N_VGetArrayPointer(zz), *dz = N_VGetArrayPointer(zp);
  int flag = 0;
  /* initial values: x0, y from the guess, x' = f, y' = 0 */
  memcpy(z, w0, sizeof *z * (size_t)n);
  load_w(d, z);
  if (pb->point.eval(pb, pb->t0, d->w, d->F) != 0)
    flag = -101;
  for (int i = 0; i < n; ++i) {
    dz[i] = i < d->nx ? d->F[i] : 0.0;
    N_VGetArrayPointer(id)[i] = i < d->nx ? 1.0 : 0.0;
    N_VGetArrayPointer(av)[i] =
        rc->atol >= 0 ? rc->atol : rc->rtol * rc->scale[i];
  }
  if (!flag)
    flag = IDAInit(mem, res_fn, pb->t0, zz, zp);
  if (!flag)
    flag = IDASVtolerances(mem, rc->rtol, av);
  if (!flag)
    flag = IDASetUserData(mem, d);
  if (!flag)
    flag = IDASetId(mem, id);
  if (!flag)
    flag = IDASetLinearSolver(mem, LS, A);
  if (!flag)
    flag = IDASetJacFn(mem, jac_fn);
  if (!flag)
    flag = IDASetMaxNumSteps(mem, 10000000L);
  if (!flag)
    flag = IDASetStopTime(mem, pb->tf);
  if (!flag && rc->max_ord > 0)
    flag = IDASetMaxOrd(mem, rc->max_ord);
  if (!flag && rc->suppress_alg)
    flag = IDASetSuppressAlg(mem, SUNTRUE);
  if (!flag && pb->t0_algebraic) {
    flag = IDACalcIC(mem, IDA_YA_YDP_INIT, g->val[(size_t)1 * g->ncol]);
    if (!flag)
      flag = IDAGetConsistentIC(mem, zz, zp);
  }
  double t = pb->t0;
  for (int k = 0; k < g->nt && !flag; ++k) {
    const double tk = g->val[(size_t)k * g->ncol];
    if (k > 0) {
      if (rc->stop_at_grid && (flag = IDASetStopTime(mem, tk)) != 0)
        break;
      const int r = IDASolve(mem, tk, &t, zz, zp, IDA_NORMAL);
      if (r < 0) {
        flag = r;
        break;
      }
    }
    double *row = o->z + (size_t)k * m;
    memcpy(row, z, sizeof *z * (size_t)n);
    if (nout > 0) {
      load_w(d, z);
      if (pb->outputs(pb, tk, d->w, row + n) != 0)
        flag = -102;
    }
  }
  IDAGetNumSteps(mem, &o->steps);
  IDAGetNumResEvals(mem, &o->resevals);
  IDAGetNumJacEvals(mem, &o->jacevals);
  IDAGetNumErrTestFails(mem, &o->etfails);
  IDAGetNumNonlinSolvConvFails(mem, &o->ncfails);
  IDAFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(zz);
  N_VDestroy(zp);
  N_VDestroy(id);
  N_VDestroy(av);
  SUNContext_Free(&ctx);
  o->flag = flag;
  return flag;
}

/* ---- errors against the reference ------------------------------------------
 */

static int cmp_dbl(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct cmp_col {
  int zcol; /* column in the run's rows */
  int gcol; /* column in the reference */
} cmp_col;

static void digits(const grid *g, const double *z, int m, const cmp_col *cc,
                   int ncmp, double *d_end, double *d_grid,
                   const char **worst) {
  double e_end = 0.0, e_grid = 0.0;
  *worst = "";
  for (int c = 0; c < ncmp; ++c) {
    double scale = 0.0, emax = 0.0;
    for (int k = 0; k < g->nt; ++k) {
      const double r = g->val[(size_t)k * g->ncol + cc[c].gcol];
      const double e = fabs(z[(size_t)k * m + cc[c].zcol] - r);
      scale = fmax(scale, fabs(r));
      if (!(e <= emax))
        emax = e;
    }
    const int kl = g->nt - 1;
    const double rl = g->val[(size_t)kl * g->ncol + cc[c].gcol];
    const double el = fabs(z[(size_t)kl * m + cc[c].zcol] - rl);
    const double rel_end = rl != 0.0 ? el / fabs(rl) : el;
    const double rel_grid = scale > 0.0 ? emax / scale : emax;
    if (!(rel_end <= e_end))
      e_end = rel_end;
    if (!(rel_grid <= e_grid)) {
      e_grid = rel_grid;
      *worst = g->names[cc[c].gcol];
    }
  }
  *d_end = isnan(e_end) ? -INFINITY : -log10(fmax(e_end, 1e-300));
  *d_grid = isnan(e_grid) ? -INFINITY : -log10(fmax(e_grid, 1e-300));
}

static int write_out(const char *path, const grid *g, const double *z, int m,
                     const char *const *names) {
  FILE *fp = fopen(path, "w");
  if (!fp)
    return fprintf(stderr, "--out %s: cannot open\n", path), -1;
  fprintf(fp, "t");
  for (int j = 0; j < m; ++j)
    fprintf(fp, ",%s", names[j]);
  fprintf(fp, "\n");
  for (int k = 0; k < g->nt; ++k) {
    fprintf(fp, "%.17g", g->val[(size_t)k * g->ncol]);
    for (int j = 0; j < m; ++j)
      fprintf(fp, ",%.17g", z[(size_t)k * m + j]);
    fprintf(fp, "\n");
  }
  return fclose(fp) == 0 ? 0 : -1;
}

static void json_num(const char *key, double v) {
  if (isfinite(v))
    printf(", \"%s\": %.6g", key, v);
  else
    printf(", \"%s\": null", key);
}

static int usage(void) {
  fprintf(stderr,
          "usage: radcol_bench_ida_dae [--plugin LIB.so] PROBLEM [-f FORM]\n"
          "         [--set NAME=VALUE]... --ref REF.csv [--compare a,b,...]\n"
          "         [--repeat R] [--suppress-alg] [--atol A] [--stop-at-grid]\n"
          "         [--max-ord K] [--out OUT.csv] RTOL...\n"
          "  one JSON line per RTOL: time_s (min of R), digits_end, "
          "digits_grid\n");
  return 2;
}

int main(int argc, char **argv) {
  const char *plugin = NULL, *problem = NULL, *form = NULL, *ref = NULL,
             *compare = NULL, *out = NULL;
  const char *sets[64];
  int nsets = 0, repeat = 3, suppress = 0, stop_grid = 0, max_ord = 0;
  double atol = -1.0, rtols[64];
  int nrtol = 0;
  for (int a = 1; a < argc; ++a) {
    const char *s = argv[a];
    const int more = a + 1 < argc;
    if (strcmp(s, "--plugin") == 0 && more)
      plugin = argv[++a];
    else if (strcmp(s, "-f") == 0 && more)
      form = argv[++a];
    else if (strcmp(s, "--set") == 0 && more && nsets < 64)
      sets[nsets++] = argv[++a];
    else if (strcmp(s, "--ref") == 0 && more)
      ref = argv[++a];
    else if (strcmp(s, "--compare") == 0 && more)
      compare = argv[++a];
    else if (strcmp(s, "--out") == 0 && more)
      out = argv[++a];
    else if (strcmp(s, "--repeat") == 0 && more)
      repeat = atoi(argv[++a]);
    else if (strcmp(s, "--atol") == 0 && more)
      atol = strtod(argv[++a], NULL);
    else if (strcmp(s, "--suppress-alg") == 0)
      suppress = 1;
    else if (strcmp(s, "--stop-at-grid") == 0)
      stop_grid = 1;
    else if (strcmp(s, "--max-ord") == 0 && more)
      max_ord = atoi(argv[++a]);
    else if (s[0] == '-' && !(s[1] >= '0' && s[1] <= '9'))
      return fprintf(stderr, "unknown option '%s'\n", s), usage();
    else if (!problem && !(s[0] >= '0' && s[0] <= '9'))
      problem = s;
    else if (nrtol < 64) {
      char *end;
      rtols[nrtol] = strtod(s, &end);
      if (*end || !(rtols[nrtol] > 0))
        return fprintf(stderr, "RTOL '%s': expected a number > 0\n", s),
               usage();
      nrtol++;
    }
  }
  if (!problem || !ref || nrtol == 0 || repeat < 1 || repeat > MAX_REPEAT)
    return usage();

  rc_error err = {0};
  rc_plugin_handle *ph = NULL;
  const rc_model *model = NULL;
  if (plugin) {
    if (rc_plugin_open(plugin, rc_builtin_models(), &ph, &err) != RC_OK)
      return fprintf(stderr, "%s\n", err.message), 2;
    model = rc_plugin_find_model(ph, problem);
  } else {
    model = rc_find_model(problem);
  }
  if (!model) {
    rc_plugin_close(&ph);
    return fprintf(stderr, "no problem '%s'\n", problem), 2;
  }
  const int f = form ? rc_model_find_formulation(model, form)
                     : model->default_formulation;
  rc_param_values pv = {0};
  rc_problem *pb = NULL;
  int rc = 2;
  grid g = {0};
  double *scale = NULL, *w0 = NULL, *times = NULL;
  dae d = {0};
  run_out o = {0};
  cmp_col cc[MAX_COLS];
  int ncmp = 0;
  if (f < 0) {
    fprintf(stderr, "%s: no formulation '%s'\n", problem, form);
    goto done;
  }
  if (rc_params_init_defaults(model, &pv, &err) != RC_OK)
    goto fail;
  for (int i = 0; i < nsets; ++i)
    if (rc_params_set(model, &pv, sets[i], &err) != RC_OK)
      goto fail;
  if (rc_model_create(model, f, &pv, NAN, &pb, &err) != RC_OK)
    goto fail;
  if (pb->nu || pb->np || pb->nc || pb->has_lagrange || pb->free_tf) {
    fprintf(stderr,
            "%s/%s: IDA needs a square DAE x' = f, 0 = g (no "
            "controls, parameters, path constraints, objective or "
            "free tf)\n",
            pb->model, pb->formulation);
    goto done;
  }
  if (grid_read(ref, &g) != 0)
    goto done;
  if (fabs(g.val[0] - pb->t0) > 1e-12 * (1 + fabs(pb->t0)) ||
      fabs(g.val[(size_t)(g.nt - 1) * g.ncol] - pb->tf) >
          1e-12 * (1 + fabs(pb->tf))) {
    fprintf(stderr,
            "--ref %s: grid [%g, %g], expected the problem's [%g, %g]\n", ref,
            g.val[0], g.val[(size_t)(g.nt - 1) * g.ncol], pb->t0, pb->tf);
    goto done;
  }
  d.pb = pb;
  d.nx = pb->nx, d.ny = pb->ny, d.n = pb->nx + pb->ny;
  d.nw = rc_problem_nw(pb), d.nF = rc_problem_nF(pb);
  const int m = d.n + pb->nout;
  const char *cols[MAX_COLS + 64];
  if (m > MAX_COLS) {
    fprintf(stderr, "too many variables (%d)\n", m);
    goto done;
  }
  for (int j = 0; j < m; ++j)
    cols[j] = j < d.n ? pb->var_names[j] : pb->out_names[j - d.n];
  d.w = calloc((size_t)d.nw, sizeof *d.w);
  d.F = calloc((size_t)d.nF, sizeof *d.F);
  d.jv = calloc((size_t)pb->point.jac.nnz + 1, sizeof *d.jv);
  scale = calloc((size_t)d.n, sizeof *scale);
  w0 = calloc((size_t)d.nw, sizeof *w0);
  times = calloc((size_t)repeat, sizeof *times);
  o.z = calloc((size_t)g.nt * m, sizeof *o.z);
  if (!d.w || !d.F || !d.jv || !scale || !w0 || !times || !o.z) {
    fprintf(stderr, "out of memory\n");
    goto done;
  }
  /* compared columns: the names of --compare (each a variable or output of
   * the problem and a column of the reference), else every variable the
   * reference has */
  for (const char *p = compare; p && *p && ncmp < MAX_COLS;) {
    const size_t len = strcspn(p, ",");
    int j = 0;
    while (j < m && !(strlen(cols[j]) == len && strncmp(p, cols[j], len) == 0))
      ++j;
    const int gc = j < m ? grid_col(&g, cols[j]) : -1;
    if (gc < 0) {
      fprintf(stderr, "--compare %s: '%.*s' is %s\n", compare, (int)len, p,
              j < m ? "not a column of the reference"
                    : "no variable or output of the problem");
      goto done;
    }
    cc[ncmp++] = (cmp_col){j, gc};
    p += len + (p[len] == ',');
  }
  for (int j = 0; j < m && !compare; ++j) {
    const int gc = grid_col(&g, cols[j]);
    if (gc > 0)
      cc[ncmp++] = (cmp_col){j, gc};
  }
  if (ncmp == 0) {
    fprintf(stderr, "no variable to compare with the reference\n");
    goto done;
  }
  for (int i = 0; i < d.n; ++i) {
    const int gc = grid_col(&g, cols[i]);
    scale[i] = 1.0;
    if (gc > 0) {
      double s = 0.0;
      for (int k = 0; k < g.nt; ++k)
        s = fmax(s, fabs(g.val[(size_t)k * g.ncol + gc]));
      if (s > 0.0)
        scale[i] = s;
    }
  }
  if (pb->guess && pb->guess(pb, pb->t0, w0) != 0) {
    fprintf(stderr, "%s/%s: the guess failed at t0\n", pb->model,
            pb->formulation);
    goto done;
  }
  memcpy(w0, pb->x0, sizeof *w0 * (size_t)d.nx);

  for (int r = 0; r < nrtol; ++r) {
    const run_cfg cfg = {rtols[r], atol, suppress, stop_grid, max_ord, scale};
    for (int k = 0; k < repeat; ++k) {
      d.nres = d.njac = 0;
      const double t0 = now_s();
      integrate(&d, &g, &cfg, &o, w0);
      times[k] = now_s() - t0;
      if (o.flag)
        break;
    }
    double dend = -INFINITY, dgrid = -INFINITY;
    const char *worst = "";
    if (!o.flag)
      digits(&g, o.z, m, cc, ncmp, &dend, &dgrid, &worst);
    const int nrun = o.flag ? 1 : repeat;
    qsort(times, (size_t)nrun, sizeof *times, cmp_dbl);
    printf("{\"solver\": \"ida\", \"problem\": \"%s\", \"formulation\": "
           "\"%s\", \"rtol\": %g, \"atol\": %s, \"suppress_alg\": %d, "
           "\"ok\": %d, \"flag\": %d",
           pb->model, pb->formulation, rtols[r],
           atol >= 0 ? "\"scalar\"" : "\"rtol*scale\"", suppress, !o.flag,
           o.flag);
    json_num("time_s", times[0]);
    json_num("time_median_s", times[nrun / 2]);
    json_num("digits_end", dend);
    json_num("digits_grid", dgrid);
    json_num("digits", fmin(dend, dgrid));
    printf(", \"worst\": \"%s\", \"steps\": %ld, \"resevals\": %ld, "
           "\"jacevals\": %ld, \"err_test_fails\": %ld, "
           "\"nonlin_conv_fails\": %ld, \"repeat\": %d}\n",
           worst, o.steps, o.resevals, o.jacevals, o.etfails, o.ncfails, nrun);
    fflush(stdout);
    if (out && !o.flag && write_out(out, &g, o.z, m, cols) != 0) {
      rc = 3;
      goto done;
    }
  }
  rc = 0;
  goto done;
fail:
  fprintf(stderr, "%s\n", err.message);
done:
  free(d.w);
  free(d.F);
  free(d.jv);
  free(scale);
  free(w0);
  free(times);
  free(o.z);
  grid_free(&g);
  rc_problem_free(&pb);
  rc_params_free(&pv);
  rc_plugin_close(&ph);
  return rc;
}
