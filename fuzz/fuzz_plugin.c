/*
 * fuzz/fuzz_plugin.c - libFuzzer harness for what radcol trusts from a
 * plugin: the descriptor checks of the loader (rc_plugin_validate: ABI
 * version, models, names, formulations, parameters) and the problem checks
 * every created problem passes (rc_problem_validate: dims, patterns, bounds,
 * horizon), on descriptors built from the fuzz input.
 *
 * Contract checked (a violated check aborts):
 *   - each validator returns RC_OK or RC_ERR_INPUT (RC_ERR_NOMEM allowed)
 *     with a non-empty message;
 *   - an accepted plugin satisfies, re-checked independently here: names of
 *     models, formulations and parameters non-empty, of [A-Za-z0-9_.-], not
 *     starting with '-', unique where required; default formulation in
 *     range; parameter types known and real defaults finite; create set;
 *   - an accepted problem is safe to transcribe: every pattern entry in
 *     range, Hessians lower-triangular, no duplicate, bounds not NaN with
 *     lo <= hi, finite t0 < tf; then rc_nlp_create on a 2 x 2 mesh, the
 *     default guess, and one evaluation of objective, gradient, constraints,
 *     Jacobian and Hessian run (ASan/UBSan check the memory they touch); the
 *     default guess is either finite or refused as bad input.
 *
 * Input layout: a stream of bytes consumed in order (missing bytes read as
 * 0), so every input is a valid descriptor of some shape.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/plugin_loader.h"
#include "fuzz_util.h"
#include "nlp/transcription.h"
#include "radcol/catalogue.h"
#include "radcol/mesh.h"
#include "radcol/plugin.h"

typedef struct stream {
  const uint8_t *p;
  size_t n;
} stream;

static unsigned byte(stream *s) {
  if (s->n == 0)
    return 0;
  --s->n;
  return *s->p++;
}

/* A double: a few special values or a small decimal. */
static double real(stream *s) {
  const unsigned k = byte(s);
  switch (k % 16) {
  case 0:
    return NAN;
  case 1:
    return INFINITY;
  case 2:
    return -INFINITY;
  case 3:
    return 1e300;
  case 4:
    return -1e20;
  case 5:
    return 1e20;
  default:
    return ((double)byte(s) - 128.0) / 16.0;
  }
}

/* A name of up to 7 characters from a small alphabet with bad characters. */
static void name(stream *s, char *out) {
  static const char alpha[] = "ab_.-/ 9\xff";
  const unsigned len = byte(s) % 8;
  for (unsigned i = 0; i < len; ++i)
    out[i] = alpha[byte(s) % (sizeof alpha - 1)];
  out[len] = '\0';
}

static int valid_name(const char *n) {
  if (!n || !n[0] || n[0] == '-')
    return 0;
  return strspn(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                   "0123456789_-.") == strlen(n);
}

static rc_err create_none(const rc_model *m, int f, const rc_param_values *pv,
                          rc_problem **out, rc_error *err) {
  (void)m, (void)f, (void)pv, (void)err;
  *out = NULL;
  return RC_OK;
}

/* ---- the plugin descriptor ------------------------------------------ */

enum { MAXM = 3, MAXF = 3, MAXP = 3 };

static void fuzz_plugin(stream *s) {
  char mnames[MAXM][8], fnames[MAXM][MAXF][8], pnames[MAXM][MAXP][8];
  rc_formulation_def forms[MAXM][MAXF];
  rc_param_def params[MAXM][MAXP];
  rc_model models[MAXM];
  const rc_model *mptr[MAXM];
  memset(forms, 0, sizeof forms);
  memset(params, 0, sizeof params);
  memset(models, 0, sizeof models);
  const int nm = (int)(byte(s) % (MAXM + 1));
  for (int k = 0; k < MAXM; ++k) {
    rc_model *m = &models[k];
    name(s, mnames[k]);
    m->name = byte(s) % 8 ? mnames[k] : NULL;
    m->summary = "fuzzed";
    m->nformulations = (int)(byte(s) % (MAXF + 1)) - (byte(s) % 8 == 0);
    m->formulations = byte(s) % 8 ? forms[k] : NULL;
    for (int f = 0; f < MAXF; ++f) {
      name(s, fnames[k][f]);
      forms[k][f].name = byte(s) % 8 ? fnames[k][f] : NULL;
      forms[k][f].summary = "fuzzed";
    }
    m->default_formulation = (int)(byte(s) % 5) - 1;
    m->nparams = (int)(byte(s) % (MAXP + 1)) - (byte(s) % 8 == 0);
    m->params = byte(s) % 8 ? params[k] : NULL;
    for (int i = 0; i < MAXP; ++i) {
      name(s, pnames[k][i]);
      params[k][i].name = byte(s) % 8 ? pnames[k][i] : NULL;
      params[k][i].type = (rc_param_type)(byte(s) % 4);
      params[k][i].default_real = real(s);
    }
    m->create = byte(s) % 8 ? create_none : NULL;
    mptr[k] = byte(s) % 16 ? m : NULL;
  }
  rc_plugin pl = {byte(s) % 8 ? RC_PROBLEM_ABI_VERSION : (int)byte(s), "fuzz",
                  nm, byte(s) % 8 ? mptr : NULL};
  rc_error err = {RC_OK, ""};
  const rc_err rc =
      rc_plugin_validate("fuzz.so", &pl, rc_builtin_models(), &err);
  if (rc != RC_OK) {
    CHECK(rc == RC_ERR_INPUT && err.code == rc && err.message[0]);
    return;
  }
  CHECK(pl.abi_version == RC_PROBLEM_ABI_VERSION && pl.nmodels >= 1 &&
        pl.models);
  for (int k = 0; k < pl.nmodels; ++k) {
    const rc_model *m = pl.models[k];
    CHECK(m && valid_name(m->name) && m->create);
    for (int e = 0; e < k; ++e)
      CHECK(strcmp(pl.models[e]->name, m->name) != 0);
    CHECK(m->nformulations >= 1 && m->formulations);
    CHECK(m->default_formulation >= 0 &&
          m->default_formulation < m->nformulations);
    for (int f = 0; f < m->nformulations; ++f) {
      CHECK(valid_name(m->formulations[f].name));
      for (int e = 0; e < f; ++e)
        CHECK(strcmp(m->formulations[e].name, m->formulations[f].name) != 0);
    }
    CHECK(m->nparams >= 0 && (m->nparams == 0 || m->params));
    for (int i = 0; i < m->nparams; ++i) {
      const rc_param_def *p = &m->params[i];
      CHECK(valid_name(p->name));
      CHECK(p->type == RC_PARAM_REAL || p->type == RC_PARAM_TEXT ||
            p->type == RC_PARAM_FILE);
      CHECK(p->type != RC_PARAM_REAL || isfinite(p->default_real));
      for (int e = 0; e < i; ++e)
        CHECK(strcmp(m->params[e].name, p->name) != 0);
    }
  }
}

/* ---- the problem descriptor ------------------------------------------ */

enum { MAXN = 3, MAXNNZ = 8, MAXW = 4 * MAXN };

typedef struct fuzz_problem {
  rc_problem pb;
  int rows[3][2][MAXNNZ], cols[3][2][MAXNNZ]; /* block x {jac, hes} */
  double w_lo[MAXW], w_hi[MAXW], c_lo[MAXN], c_hi[MAXN], b_lo[MAXN], b_hi[MAXN],
      x0[MAXN], xf[MAXN];
  int fix[MAXN];
  const char *names[MAXW];
  char namebuf[MAXW][8];
} fuzz_problem;

/* Callbacks fill exactly what the declared sizes promise. */
static int ev(const rc_block *b, double *out) {
  for (int i = 0; i < b->n_out; ++i)
    out[i] = 0.0;
  return 0;
}
static int jv(const rc_block *b, double *vals) {
  for (int e = 0; e < b->jac.nnz; ++e)
    vals[e] = 1.0;
  return 0;
}
static int hv(const rc_block *b, double *vals) {
  for (int e = 0; e < b->hes.nnz; ++e)
    vals[e] = 0.0;
  return 0;
}
#define RC_FUZZ_BLOCK(blk)                                                     \
  static int blk##_eval(const rc_problem *pb, double t, const double *w,       \
                        double *out) {                                         \
    (void)t, (void)w;                                                          \
    return ev(&pb->blk, out);                                                  \
  }                                                                            \
  static int blk##_jac(const rc_problem *pb, double t, const double *w,        \
                       double *vals) {                                         \
    (void)t, (void)w;                                                          \
    return jv(&pb->blk, vals);                                                 \
  }                                                                            \
  static int blk##_hes(const rc_problem *pb, double t, const double *w,        \
                       const double *mu, double *vals) {                       \
    (void)t, (void)w, (void)mu;                                                \
    return hv(&pb->blk, vals);                                                 \
  }
RC_FUZZ_BLOCK(point)
RC_FUZZ_BLOCK(boundary)
RC_FUZZ_BLOCK(invariants)

static void fuzz_block(stream *s, fuzz_problem *fp, int k, rc_block *b,
                       int nout) {
  b->n_out = byte(s) % 8 ? nout : nout + 1;
  for (int h = 0; h < 2; ++h) {
    rc_pattern *p = h ? &b->hes : &b->jac;
    p->nnz = (int)(byte(s) % (MAXNNZ + 1));
    for (int e = 0; e < p->nnz; ++e) {
      fp->rows[k][h][e] = (int)(byte(s) % 10) - 1;
      fp->cols[k][h][e] = (int)(byte(s) % 10) - 1;
    }
    p->row = fp->rows[k][h];
    p->col = fp->cols[k][h];
  }
}

static void check_pattern(const rc_pattern *p, int nrow, int ncol, int lower) {
  for (int e = 0; e < p->nnz; ++e) {
    CHECK(p->row[e] >= 0 && p->row[e] < nrow && p->col[e] >= 0 &&
          p->col[e] < ncol);
    CHECK(!lower || p->row[e] >= p->col[e]);
    for (int f = 0; f < e; ++f)
      CHECK(p->row[e] != p->row[f] || p->col[e] != p->col[f]);
  }
}

static void check_bounds(int n, const double *lo, const double *hi) {
  for (int i = 0; i < n; ++i)
    CHECK(!isnan(lo[i]) && !isnan(hi[i]) && lo[i] <= hi[i]);
}

static void fuzz_problem_desc(stream *s) {
  fuzz_problem *fp = calloc(1, sizeof *fp);
  CHECK(fp);
  rc_problem *pb = &fp->pb;
  pb->model = "fuzz";
  pb->formulation = "f";
  pb->nx = (int)(byte(s) % (MAXN + 1));
  pb->ny = (int)(byte(s) % (MAXN + 1));
  pb->nu = (int)(byte(s) % (MAXN + 1));
  pb->np = (int)(byte(s) % 2);
  pb->nc = (int)(byte(s) % (MAXN + 1));
  pb->nb = (int)(byte(s) % (MAXN + 1));
  pb->ninv = (int)(byte(s) % 2);
  pb->has_lagrange = (int)(byte(s) % 2);
  pb->has_mayer = (int)(byte(s) % 2);
  pb->autonomous = (int)(byte(s) % 2);
  const int nw = rc_problem_nw(pb);
  for (int i = 0; i < nw; ++i) {
    snprintf(fp->namebuf[i], sizeof fp->namebuf[i], "w%d", i);
    fp->names[i] = fp->namebuf[i];
    fp->w_lo[i] = real(s);
    fp->w_hi[i] = real(s);
  }
  for (int i = 0; i < MAXN; ++i) {
    fp->c_lo[i] = real(s), fp->c_hi[i] = real(s);
    fp->b_lo[i] = real(s), fp->b_hi[i] = real(s);
    fp->x0[i] = real(s), fp->xf[i] = real(s);
    fp->fix[i] = (int)(byte(s) % 2);
  }
  pb->var_names = fp->names;
  pb->inv_names = fp->names;
  pb->w_lo = fp->w_lo, pb->w_hi = fp->w_hi;
  pb->c_lo = fp->c_lo, pb->c_hi = fp->c_hi;
  pb->b_lo = fp->b_lo, pb->b_hi = fp->b_hi;
  pb->t0 = real(s);
  pb->tf = real(s);
  pb->free_tf = (int)(byte(s) % 4 == 0);
  pb->tf_lo = real(s);
  pb->tf_hi = real(s);
  pb->x0 = byte(s) % 8 ? fp->x0 : NULL;
  pb->fix_x0 = byte(s) % 2 ? fp->fix : NULL;
  pb->fix_xf = byte(s) % 4 == 0 ? fp->fix : NULL;
  pb->xf = byte(s) % 8 ? fp->xf : NULL;
  fuzz_block(s, fp, 0, &pb->point, rc_problem_nF(pb));
  fuzz_block(s, fp, 1, &pb->boundary, rc_problem_nB(pb));
  fuzz_block(s, fp, 2, &pb->invariants, pb->ninv);
  pb->point.eval = point_eval, pb->point.jacobian = point_jac;
  pb->point.hessian = byte(s) % 16 ? point_hes : NULL;
  pb->boundary.eval = boundary_eval, pb->boundary.jacobian = boundary_jac;
  pb->boundary.hessian = boundary_hes;
  pb->invariants.eval = invariants_eval;
  pb->invariants.jacobian = invariants_jac;
  pb->invariants.hessian = invariants_hes;

  rc_error err = {RC_OK, ""};
  const rc_err rc = rc_problem_validate(pb, &err);
  if (rc != RC_OK) {
    CHECK((rc == RC_ERR_INPUT || rc == RC_ERR_NOMEM) && err.code == rc &&
          err.message[0]);
    free(fp);
    return;
  }
  /* Accepted: the engine may trust it. */
  CHECK(isfinite(pb->t0) && isfinite(pb->tf) && pb->t0 < pb->tf);
  check_bounds(nw, pb->w_lo, pb->w_hi);
  check_bounds(pb->nc, pb->c_lo, pb->c_hi);
  check_bounds(pb->nb, pb->b_lo, pb->b_hi);
  CHECK(pb->point.n_out == rc_problem_nF(pb));
  CHECK(pb->boundary.n_out == rc_problem_nB(pb));
  /* A block without outputs has empty patterns; else every entry is in
   * range (row 0..n_out-1), Hessians lower-triangular, none repeated. */
  check_pattern(&pb->point.jac, pb->point.n_out, nw, 0);
  check_pattern(&pb->point.hes, pb->point.n_out ? nw : 0, nw, 1);
  check_pattern(&pb->boundary.jac, pb->boundary.n_out, rc_problem_nz(pb), 0);
  check_pattern(&pb->boundary.hes, pb->boundary.n_out ? rc_problem_nz(pb) : 0,
                rc_problem_nz(pb), 1);
  if (pb->ninv > 0)
    check_pattern(&pb->invariants.jac, pb->ninv, nw, 0);

  rc_mesh mesh;
  rc_nlp *nlp = NULL;
  CHECK(rc_mesh_uniform(2, 2, &mesh, &err) == RC_OK);
  if (rc_nlp_create(pb, &mesh, 1, &nlp, &err) == RC_OK) {
    const size_t nv = (size_t)nlp->nvar, nc = (size_t)nlp->ncon;
    double *x = calloc(nv + 1, sizeof *x), *g = calloc(nc + 1, sizeof *g);
    double *lam = calloc(nc + 1, sizeof *lam);
    double *jac = calloc((size_t)nlp->nnz_jac + 1, sizeof *jac);
    double *hes = calloc((size_t)nlp->nnz_hes + 1, sizeof *hes);
    double *grad = calloc(nv + 1, sizeof *grad);
    CHECK(x && g && lam && jac && hes && grad);
    const rc_err grc = rc_nlp_default_guess(nlp, x, &err);
    CHECK(grc == RC_OK || grc == RC_ERR_INPUT);
    for (size_t i = 0; grc == RC_OK && i < nv; ++i)
      CHECK(!isnan(x[i]));
    if (grc == RC_OK) {
      double f = 0;
      rc_nlp_objective(nlp, x, &f);
      rc_nlp_gradient(nlp, x, grad);
      rc_nlp_constraints(nlp, x, g);
      rc_nlp_jacobian(nlp, x, jac);
      if (pb->point.hessian)
        rc_nlp_hessian(nlp, x, 1.0, lam, hes);
    }
    free(x), free(g), free(lam), free(jac), free(hes), free(grad);
    rc_nlp_free(&nlp);
  }
  rc_mesh_free(&mesh);
  free(fp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  stream s = {data, size};
  if (byte(&s) % 2)
    fuzz_plugin(&s);
  else
    fuzz_problem_desc(&s);
  return 0;
}
