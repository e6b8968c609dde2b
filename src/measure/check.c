/*
 * check.c - finite-difference check of a problem's hand-coded derivatives
 * (radcol/check.h).
 *
 * What it checks.  Each block of the problem (point F(t, w), boundary B(z)
 * with z = (x(t0), x(tf), p, tf), invariants when ninv > 0) is a function
 * out = B(v) of n_in inputs.  At npoints random points v per block:
 *
 *   Jacobian  J_fd[r][j] = d B_r / d v_j by central differences,
 *   Hessian   of sum_r mu_r B_r with mu_r ~ U(-1, 1), from central
 *             differences of the hand-coded gradient g = J(v)^T mu along
 *             v_j, symmetrised: H(r, c) = (H_fd[r][c] + H_fd[c][r]) / 2,
 *             r >= c.
 *
 * Step control (Richardson, as in Ridders' method).  Along input j the
 * central differences
 *
 *   D_k = (B(v + h_k e_j) - B(v - h_k e_j)) / (2 h_k),
 *   h_k = h_0 / 2^k, k = 0 .. levels-1,  h_0 = step (1 + |v_j|)
 *
 * (each h_k rounded so that v_j + h_k is exact) have the error expansion
 * D_k = B' + a_1 h_k^2 + a_2 h_k^4 + ...; the tableau
 *
 *   R[k][0] = D_k,  R[k][m] = R[k][m-1] + (R[k][m-1] - R[k-1][m-1]) / (4^m - 1)
 *
 * removes one term per column.  Each R[k][m] (k >= 1) carries a truncation
 * estimate: E = max(|R[k][m] - R[k][m-1]|, |R[k][m] - R[k-1][m-1]|) for
 * m >= 1 and |D_k - D_(k-1)| for m = 0 (both larger than the error of R[k][m]
 * once the steps resolve the function), and a rounding floor N propagated
 * through the same combinations from N_k = 100 eps (1 + max |value at
 * v +- h_k|) / h_k.  Per output entry the R[k][m] with the smallest E + N is
 * the finite-difference value fd, and E, N its error estimates.  With
 * levels = 1 this is the plain central difference at h_0 with E = 0.
 *
 * The rule.  A declared entry fails (RC_CHECK_JAC_VALUE / RC_CHECK_HES_VALUE)
 * when
 *     |fd - got| > rel_tol S + N + min(E, RC_CHECK_MAX_CREDIT S),
 *     S = max(1, |fd|, |got|),
 * an undeclared entry (implicit zero; Hessian: lower triangle) fails
 * (RC_CHECK_JAC_MISSING / RC_CHECK_HES_MISSING) when
 *     |fd| > abs_tol + N + min(E, RC_CHECK_MAX_CREDIT S).
 * So a correct entry whose plain difference is off by its truncation error
 * (exp(-500 h): 6e-6 relative at h_0) passes, and a wrong entry still fails
 * unless it is wrong by less than the estimated error of a difference that
 * resolves the function; an estimate above the credit cap marks the failure
 * `unresolved` (the difference may be what is wrong).  NaN compares as a
 * failure.  failure.bound = E + N.
 *
 * Test points.  Point blocks: t ~ U(t0, tf); w from pb->guess(t) when it
 * exists and succeeds, else x = x0 and zeros; then w_i += spread (1 + |w_i|)
 * U(-1, 1), clipped to the simple bounds with a margin of 4 h_0 so that the
 * difference stencil stays inside them.  Boundary block: x(t0), p from the
 * guess at t0, x(tf) from the guess at tf (else xf, else x0), tf = pb->tf,
 * perturbed and clipped the same way (tf also to [tf_lo, tf_hi] when free,
 * and kept above t0).  The PRNG is xorshift64* seeded from o->seed, so a run
 * is reproducible.
 *
 * Evaluation failures.  A callback that fails at a perturbed point v +- h_k
 * e_j removes column j from the comparison at that point.  When the base
 * point itself fails (value, Jacobian or Hessian; or non-finite values) with
 * a recoverable status (> 0) another point is drawn, up to CHK_RETRIES times;
 * a fatal status (< 0) or running out of retries records one RC_CHECK_EVAL
 * failure: row = col = -1, row_name = the callback ("eval", "jacobian",
 * "hessian"), got = its status, expected = 0.
 *
 * Report.  Each (block, entry) is reported at most once, at the first point
 * where it fails, so nfailures counts distinct failing entries plus
 * RC_CHECK_EVAL events, and failures[0 .. min(nfailures, MAX) - 1] holds the
 * first ones found.  nentries counts every comparison made (declared entries
 * and implicit zeros, at every point).  Names: point rows f_<state>, g_<k>,
 * c_<k>, L; boundary rows b_<k>, phi; invariant rows inv_names[k]; point and
 * invariant inputs var_names; boundary inputs <x>(t0), <x>(tf), p names, tf
 * (k zero-based, like row and col).  Boundary failures carry t = tf.
 *
 * Workspace is allocated once per block and freed before the next block; the
 * library never prints.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/check.h"

#define CHK_RETRIES 20
#define CHK_MAX_LEVELS 8

void rc_check_options_default(rc_check_options *o) {
  if (!o)
    return;
  o->npoints = 6;
  o->seed = 12345u;
  o->rel_tol = 1e-6;
  o->abs_tol = 1e-6;
  o->spread = 0.05;
  o->step = cbrt(DBL_EPSILON);
  o->levels = 4;
}

/* ---- deterministic random numbers (xorshift64*) ------------------------- */

typedef struct chk_rng {
  uint64_t s;
} chk_rng;

static void rng_seed(chk_rng *g, unsigned seed) {
  /* splitmix64 of the seed: never zero, well mixed for small seeds */
  uint64_t z = (uint64_t)seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  g->s = z ? z : 0x2545F4914F6CDD1Dull;
}

/* Uniform in [0, 1). */
static double rng_unit(chk_rng *g) {
  g->s ^= g->s >> 12;
  g->s ^= g->s << 25;
  g->s ^= g->s >> 27;
  uint64_t r = g->s * 0x2545F4914F6CDD1Dull;
  return (double)(r >> 11) * (1.0 / 9007199254740992.0);
}

static double rng_sym(chk_rng *g) {
  return 2.0 * rng_unit(g) - 1.0;
}

/* ---- one block under test ------------------------------------------------ */

typedef enum chk_kind { CHK_POINT, CHK_BOUNDARY, CHK_INVARIANTS } chk_kind;

typedef struct chk_ctx {
  const rc_problem *pb;
  const rc_block *b;
  chk_kind kind;
  const char *name;
  int nin, nout, nw;
  const rc_check_options *o;
  rc_check_report *rep;
  chk_rng *rng;

  double *v;             /* nin: test point */
  double *lo, *hi;       /* nin: bounds for the test point (+-HUGE_VAL: none) */
  double *f0, *fp, *fm;  /* nout */
  double *jac, *jp, *jm; /* jac.nnz: hand-coded values at v, v +- h */
  double *hes;           /* hes.nnz */
  double *hes1;          /* hes.nnz: Hessian of one row (localisation) */
  double *mu;            /* nout */
  double *mu1;           /* nout: unit weights (localisation) */
  double *gp, *gm, *ap, *am;   /* nin: J^T mu and sum |J mu| at v +- h */
  double *jfd, *jerr, *jnoise; /* nout * nin: fd, truncation, rounding */
  double *hfd, *herr, *hnoise; /* nin * nin */
  /* Richardson scratch, nscr = max(nout, nin, jac.nnz) per array */
  int nscr;
  double *sp, *sm, *sap, *sam; /* outputs and magnitudes at v +- h_k */
  double *dk, *nk;             /* levels * nscr: D_k and N_k */
  double *rd, *re, *rn;        /* best value, truncation, rounding */
  double *rows;                /* 6 * nout: hes_row_of's two directions */
  int *jidx, *hidx;            /* dense -> pattern entry, or -1 */
  unsigned char *jbad, *hbad;  /* entry already reported */
  unsigned char *jok, *hok;    /* nin: column usable at this point */
  double *wtmp;                /* nw: guess scratch */
} chk_ctx;

static void ctx_free(chk_ctx *c) {
  free(c->v);
  free(c->lo);
  free(c->hi);
  free(c->f0);
  free(c->fp);
  free(c->fm);
  free(c->jac);
  free(c->jp);
  free(c->jm);
  free(c->hes);
  free(c->hes1);
  free(c->mu);
  free(c->mu1);
  free(c->gp);
  free(c->gm);
  free(c->ap);
  free(c->am);
  free(c->jfd);
  free(c->jerr);
  free(c->jnoise);
  free(c->hfd);
  free(c->herr);
  free(c->hnoise);
  free(c->sp);
  free(c->sm);
  free(c->sap);
  free(c->sam);
  free(c->dk);
  free(c->nk);
  free(c->rd);
  free(c->re);
  free(c->rn);
  free(c->rows);
  free(c->jidx);
  free(c->hidx);
  free(c->jbad);
  free(c->hbad);
  free(c->jok);
  free(c->hok);
  free(c->wtmp);
}

static void *alloc0(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

static rc_err ctx_alloc(chk_ctx *c, rc_error *err) {
  size_t ni = (size_t)c->nin, no = (size_t)c->nout;
  size_t nj = (size_t)c->b->jac.nnz, nh = (size_t)c->b->hes.nnz;
  c->v = alloc0(ni, sizeof(double));
  c->lo = alloc0(ni, sizeof(double));
  c->hi = alloc0(ni, sizeof(double));
  c->f0 = alloc0(no, sizeof(double));
  c->fp = alloc0(no, sizeof(double));
  c->fm = alloc0(no, sizeof(double));
  c->jac = alloc0(nj, sizeof(double));
  c->jp = alloc0(nj, sizeof(double));
  c->jm = alloc0(nj, sizeof(double));
  c->hes = alloc0(nh, sizeof(double));
  c->hes1 = alloc0(nh, sizeof(double));
  c->mu = alloc0(no, sizeof(double));
  c->mu1 = alloc0(no, sizeof(double));
  c->gp = alloc0(ni, sizeof(double));
  c->gm = alloc0(ni, sizeof(double));
  c->ap = alloc0(ni, sizeof(double));
  c->am = alloc0(ni, sizeof(double));
  c->jfd = alloc0(no * ni, sizeof(double));
  c->jerr = alloc0(no * ni, sizeof(double));
  c->jnoise = alloc0(no * ni, sizeof(double));
  c->hfd = alloc0(ni * ni, sizeof(double));
  c->herr = alloc0(ni * ni, sizeof(double));
  c->hnoise = alloc0(ni * ni, sizeof(double));
  size_t ns = no > ni ? no : ni;
  if (nj > ns)
    ns = nj;
  c->nscr = (int)ns;
  size_t nl = (size_t)c->o->levels;
  c->sp = alloc0(ns, sizeof(double));
  c->sm = alloc0(ns, sizeof(double));
  c->sap = alloc0(ns, sizeof(double));
  c->sam = alloc0(ns, sizeof(double));
  c->dk = alloc0(nl * ns, sizeof(double));
  c->nk = alloc0(nl * ns, sizeof(double));
  c->rd = alloc0(ns, sizeof(double));
  c->re = alloc0(ns, sizeof(double));
  c->rn = alloc0(ns, sizeof(double));
  c->rows = alloc0(6 * no, sizeof(double));
  c->jidx = alloc0(no * ni, sizeof(int));
  c->hidx = alloc0(ni * ni, sizeof(int));
  c->jbad = alloc0(no * ni, 1);
  c->hbad = alloc0(ni * ni, 1);
  c->jok = alloc0(ni, 1);
  c->hok = alloc0(ni, 1);
  c->wtmp = alloc0((size_t)c->nw, sizeof(double));
  if (!c->v || !c->lo || !c->hi || !c->f0 || !c->fp || !c->fm || !c->jac ||
      !c->jp || !c->jm || !c->hes || !c->hes1 || !c->mu || !c->mu1 || !c->gp ||
      !c->gm || !c->ap || !c->am || !c->jfd || !c->jerr || !c->jnoise ||
      !c->hfd || !c->herr || !c->hnoise || !c->sp || !c->sm || !c->sap ||
      !c->sam || !c->dk || !c->nk || !c->rd || !c->re || !c->rn || !c->rows ||
      !c->jidx || !c->hidx || !c->jbad || !c->hbad || !c->jok || !c->hok ||
      !c->wtmp)
    return rc_error_set(err, RC_ERR_NOMEM,
                        "%s/%s: out of memory for the %s block check (%d "
                        "inputs, %d outputs)",
                        c->pb->model, c->pb->formulation, c->name, c->nin,
                        c->nout);
  for (size_t k = 0; k < no * ni; ++k)
    c->jidx[k] = -1;
  for (size_t k = 0; k < ni * ni; ++k)
    c->hidx[k] = -1;
  for (int e = 0; e < c->b->jac.nnz; ++e)
    c->jidx[(size_t)c->b->jac.row[e] * ni + (size_t)c->b->jac.col[e]] = e;
  for (int e = 0; e < c->b->hes.nnz; ++e)
    c->hidx[(size_t)c->b->hes.row[e] * ni + (size_t)c->b->hes.col[e]] = e;
  return RC_OK;
}

/* ---- names ----------------------------------------------------------------
 */

static const char *var_name(const rc_problem *pb, int i) {
  const char *s = pb->var_names ? pb->var_names[i] : NULL;
  return s ? s : "?";
}

static void input_name(const chk_ctx *c, int j, char *buf, size_t n) {
  const rc_problem *pb = c->pb;
  if (c->kind != CHK_BOUNDARY) {
    snprintf(buf, n, "%s", var_name(pb, j));
    return;
  }
  if (j < pb->nx)
    snprintf(buf, n, "%s(t0)", var_name(pb, j));
  else if (j < 2 * pb->nx)
    snprintf(buf, n, "%s(tf)", var_name(pb, j - pb->nx));
  else if (j < 2 * pb->nx + pb->np)
    snprintf(buf, n, "%s",
             var_name(pb, pb->nx + pb->ny + pb->nu + j - 2 * pb->nx));
  else
    snprintf(buf, n, "tf");
}

static void output_name(const chk_ctx *c, int r, char *buf, size_t n) {
  const rc_problem *pb = c->pb;
  if (c->kind == CHK_INVARIANTS) {
    const char *s = pb->inv_names ? pb->inv_names[r] : NULL;
    snprintf(buf, n, "%s", s ? s : "?");
  } else if (c->kind == CHK_BOUNDARY) {
    if (r < pb->nb)
      snprintf(buf, n, "b_%d", r);
    else
      snprintf(buf, n, "phi");
  } else if (r < pb->nx) {
    snprintf(buf, n, "f_%s", var_name(pb, r));
  } else if (r < pb->nx + pb->ny) {
    snprintf(buf, n, "g_%d", r - pb->nx);
  } else if (r < pb->nx + pb->ny + pb->nc) {
    snprintf(buf, n, "c_%d", r - pb->nx - pb->ny);
  } else {
    snprintf(buf, n, "L");
  }
}

static int hes_row_of(chk_ctx *c, double t, int a, int b);

static void add_failure(chk_ctx *c, rc_check_kind kind, int row, int col,
                        double t, double expected, double got, double err,
                        double noise, const char *eval_what) {
  rc_check_report *rep = c->rep;
  if (rep->nfailures < RC_CHECK_MAX_FAILURES) {
    rc_check_failure *f = &rep->failures[rep->nfailures];
    memset(f, 0, sizeof *f);
    f->out_row = -1;
    f->kind = kind;
    f->block = c->name;
    f->row = row;
    f->col = col;
    f->t = t;
    f->expected = expected;
    f->got = got;
    f->bound = err + noise;
    f->unresolved =
        err > RC_CHECK_MAX_CREDIT * fmax(1.0, fmax(fabs(expected), fabs(got)));
    if (kind == RC_CHECK_EVAL) {
      snprintf(f->row_name, sizeof f->row_name, "%s", eval_what);
    } else if (kind == RC_CHECK_HES_VALUE || kind == RC_CHECK_HES_MISSING) {
      input_name(c, row, f->row_name, sizeof f->row_name);
      input_name(c, col, f->col_name, sizeof f->col_name);
      f->out_row = hes_row_of(c, t, row, col);
      if (f->out_row >= 0)
        output_name(c, f->out_row, f->out_name, sizeof f->out_name);
    } else {
      output_name(c, row, f->row_name, sizeof f->row_name);
      input_name(c, col, f->col_name, sizeof f->col_name);
    }
  }
  rep->nfailures++;
}

/* ---- test points ------------------------------------------------------------
 */

/* The largest difference step h_0 at x. */
static double fd_step(const chk_ctx *c, double x) {
  return c->o->step * (1.0 + fabs(x));
}

/* Clip x into [lo, hi] keeping a margin for the difference stencil. */
static double clip_inside(const chk_ctx *c, double x, double lo, double hi) {
  if (lo == hi)
    return lo;
  double mlo = isfinite(lo) ? 4.0 * fd_step(c, lo) : 0.0;
  double mhi = isfinite(hi) ? 4.0 * fd_step(c, hi) : 0.0;
  if (isfinite(lo) && isfinite(hi) && mlo + mhi >= 0.5 * (hi - lo))
    mlo = mhi = 0.25 * (hi - lo);
  if (x < lo + mlo)
    x = lo + mlo;
  if (x > hi - mhi)
    x = hi - mhi;
  return x;
}

/* The unperturbed point vector w at time t (guess, else x0 and zeros). */
static void base_w(chk_ctx *c, double t, double *w) {
  const rc_problem *pb = c->pb;
  if (pb->guess && pb->guess(pb, t, w) == 0)
    return;
  for (int i = 0; i < c->nw; ++i)
    w[i] = (i < pb->nx && pb->x0) ? pb->x0[i] : 0.0;
}

static void set_bounds(chk_ctx *c) {
  const rc_problem *pb = c->pb;
  for (int j = 0; j < c->nin; ++j) {
    c->lo[j] = -HUGE_VAL;
    c->hi[j] = HUGE_VAL;
  }
  if (c->kind != CHK_BOUNDARY) {
    for (int j = 0; j < c->nin; ++j) {
      if (pb->w_lo)
        c->lo[j] = pb->w_lo[j];
      if (pb->w_hi)
        c->hi[j] = pb->w_hi[j];
    }
    return;
  }
  const int nx = pb->nx, pofs = pb->nx + pb->ny + pb->nu;
  for (int j = 0; j < 2 * nx + pb->np; ++j) {
    int wi = j < 2 * nx ? j % (nx ? nx : 1) : pofs + j - 2 * nx;
    if (pb->w_lo)
      c->lo[j] = pb->w_lo[wi];
    if (pb->w_hi)
      c->hi[j] = pb->w_hi[wi];
  }
  if (pb->free_tf) {
    c->lo[c->nin - 1] = pb->tf_lo;
    c->hi[c->nin - 1] = pb->tf_hi;
  }
}

/* Draws a test point into c->v and returns its time. */
static double draw_point(chk_ctx *c) {
  const rc_problem *pb = c->pb;
  double t;
  if (c->kind != CHK_BOUNDARY) {
    t = pb->t0 + (pb->tf - pb->t0) * rng_unit(c->rng);
    base_w(c, t, c->v);
  } else {
    const int nx = pb->nx, pofs = pb->nx + pb->ny + pb->nu;
    t = pb->tf;
    base_w(c, pb->t0, c->wtmp);
    for (int i = 0; i < nx; ++i)
      c->v[i] = c->wtmp[i];
    for (int k = 0; k < pb->np; ++k)
      c->v[2 * nx + k] = c->wtmp[pofs + k];
    if (pb->guess && pb->guess(pb, pb->tf, c->wtmp) == 0) {
      for (int i = 0; i < nx; ++i)
        c->v[nx + i] = c->wtmp[i];
    } else {
      for (int i = 0; i < nx; ++i)
        c->v[nx + i] = pb->xf ? pb->xf[i] : (pb->x0 ? pb->x0[i] : 0.0);
    }
    c->v[c->nin - 1] = pb->tf;
  }
  for (int j = 0; j < c->nin; ++j) {
    double x = c->v[j];
    x += c->o->spread * (1.0 + fabs(x)) * rng_sym(c->rng);
    c->v[j] = clip_inside(c, x, c->lo[j], c->hi[j]);
  }
  if (c->kind == CHK_BOUNDARY) {
    double *tf = &c->v[c->nin - 1];
    double tmin = pb->t0 + 4.0 * fd_step(c, pb->t0) + 1e-3 * (pb->tf - pb->t0);
    if (*tf < tmin)
      *tf = tmin;
  }
  return t;
}

static int all_finite(const double *x, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(x[i]))
      return 0;
  return 1;
}

/* Evaluates value, Jacobian and Hessian at the base point.  Returns 0, or the
 * failing status with *what naming the callback. */
static int eval_base(chk_ctx *c, double t, const char **what) {
  const rc_problem *pb = c->pb;
  int st;
  *what = "eval";
  if ((st = c->b->eval(pb, t, c->v, c->f0)) != 0)
    return st;
  if (!all_finite(c->f0, c->nout))
    return 1;
  *what = "jacobian";
  if ((st = c->b->jacobian(pb, t, c->v, c->jac)) != 0)
    return st;
  if (c->b->hessian) {
    *what = "hessian";
    if ((st = c->b->hessian(pb, t, c->v, c->mu, c->hes)) != 0)
      return st;
  }
  return 0;
}

/* ---- Richardson-extrapolated central differences ------------------------ */

/* The n outputs of one function of the test point at c->v, and the magnitude
 * each is rounded at.  Returns 0, or nonzero when a callback failed. */
typedef int (*chk_vec_fn)(chk_ctx *c, double t, double *out, double *mag);

static int fn_values(chk_ctx *c, double t, double *out, double *mag) {
  if (c->b->eval(c->pb, t, c->v, out) != 0)
    return 1;
  for (int r = 0; r < c->nout; ++r)
    mag[r] = fabs(out[r]);
  return 0;
}

/* g = J^T mu and a = sum |J mu| (rounding scale) from Jacobian values jv. */
static void jt_mu(const chk_ctx *c, const double *jv, double *g, double *a) {
  for (int j = 0; j < c->nin; ++j)
    g[j] = a[j] = 0.0;
  for (int e = 0; e < c->b->jac.nnz; ++e) {
    double term = jv[e] * c->mu[c->b->jac.row[e]];
    g[c->b->jac.col[e]] += term;
    a[c->b->jac.col[e]] += fabs(term);
  }
}

static int fn_gradient(chk_ctx *c, double t, double *out, double *mag) {
  if (c->b->jacobian(c->pb, t, c->v, c->jp) != 0)
    return 1;
  jt_mu(c, c->jp, out, mag);
  return 0;
}

static int fn_jacobian(chk_ctx *c, double t, double *out, double *mag) {
  if (c->b->jacobian(c->pb, t, c->v, out) != 0)
    return 1;
  for (int e = 0; e < c->b->jac.nnz; ++e)
    mag[e] = fabs(out[e]);
  return 0;
}

/* d/dv_j of the n outputs of fn at c->v: c->rd (value), c->re (truncation
 * estimate), c->rn (rounding floor), by the tableau of the file comment.
 * Returns 1, or 0 when a callback failed at some v +- h_k e_j (column
 * unusable).  Restores c->v. */
static int richardson(chk_ctx *c, double t, int j, int n, chk_vec_fn fn) {
  const int nl = c->o->levels, ns = c->nscr;
  const double vj = c->v[j];
  double h = fd_step(c, vj);
  for (int k = 0; k < nl; ++k, h *= 0.5) {
    volatile double tmp = vj + h;
    const double hk = tmp - vj;
    c->v[j] = vj + hk;
    int ok = fn(c, t, c->sp, c->sap) == 0;
    c->v[j] = vj - hk;
    ok = ok && fn(c, t, c->sm, c->sam) == 0;
    c->v[j] = vj;
    if (!ok)
      return 0;
    double *d = c->dk + (size_t)k * ns, *nz = c->nk + (size_t)k * ns;
    for (int i = 0; i < n; ++i) {
      d[i] = (c->sp[i] - c->sm[i]) / (2.0 * hk);
      nz[i] = 100.0 * DBL_EPSILON * (1.0 + fmax(c->sap[i], c->sam[i])) / hk;
    }
  }
  for (int i = 0; i < n; ++i) {
    double R[CHK_MAX_LEVELS][CHK_MAX_LEVELS], N[CHK_MAX_LEVELS][CHK_MAX_LEVELS];
    double best = c->dk[i], be = 0.0, bn = c->nk[i], btot = HUGE_VAL;
    for (int k = 0; k < nl; ++k) {
      R[k][0] = c->dk[(size_t)k * ns + i];
      N[k][0] = c->nk[(size_t)k * ns + i];
      double f = 1.0;
      for (int m = 1; m <= k; ++m) {
        f *= 4.0;
        R[k][m] = R[k][m - 1] + (R[k][m - 1] - R[k - 1][m - 1]) / (f - 1.0);
        N[k][m] = (f * N[k][m - 1] + N[k - 1][m - 1]) / (f - 1.0);
      }
      for (int m = 0; k >= 1 && m <= k; ++m) {
        double e = m == 0 ? fabs(R[k][0] - R[k - 1][0])
                          : fmax(fabs(R[k][m] - R[k][m - 1]),
                                 fabs(R[k][m] - R[k - 1][m - 1]));
        if (e + N[k][m] < btot || isnan(e)) {
          btot = isnan(e) ? -1.0 : e + N[k][m];
          best = R[k][m], be = isnan(e) ? HUGE_VAL : e, bn = N[k][m];
        }
        if (btot < 0)
          break;
      }
      if (btot < 0)
        break;
    }
    c->rd[i] = best;
    c->re[i] = be;
    c->rn[i] = bn;
  }
  return 1;
}

/* Does |fd - got| pass for a declared entry (got given) or an implicit zero
 * (declared = 0)?  S = max(1, |fd|, |got|). */
static int entry_ok(const chk_ctx *c, int declared, double fd, double got,
                    double e, double noise) {
  const double s = fmax(1.0, fmax(fabs(fd), fabs(got)));
  const double tol = (declared ? c->o->rel_tol * s : c->o->abs_tol) + noise +
                     fmin(e, RC_CHECK_MAX_CREDIT * s);
  return fabs(fd - got) <= tol;
}

/* Differences of values (Jacobian) and of J^T mu (Hessian), every column. */
static void differences(chk_ctx *c, double t) {
  const int ni = c->nin, no = c->nout;
  for (int j = 0; j < ni; ++j) {
    c->jok[j] = (unsigned char)richardson(c, t, j, no, fn_values);
    if (c->jok[j])
      for (int r = 0; r < no; ++r) {
        size_t k = (size_t)r * ni + j;
        c->jfd[k] = c->rd[r];
        c->jerr[k] = c->re[r];
        c->jnoise[k] = c->rn[r];
      }
    c->hok[j] =
        c->b->hessian ? (unsigned char)richardson(c, t, j, ni, fn_gradient) : 0;
    if (c->hok[j])
      for (int i = 0; i < ni; ++i) {
        size_t k = (size_t)i * ni + j;
        c->hfd[k] = c->rd[i];
        c->herr[k] = c->re[i];
        c->hnoise[k] = c->rn[i];
      }
  }
}

/* Which output row r makes the Hessian entry (a, b) of sum_r mu_r B_r wrong:
 * for each r, the hand-coded Hessian with mu = e_r against the symmetrised
 * difference (as above) of the hand-coded Jacobian entries (r, a) along v_b
 * and (r, b) along v_a.  Returns the row with the largest relative
 * disagreement among those failing the rule, or -1 (not localised: every row
 * passes on its own, or a callback failed).  Uses rows, hes1, mu1 as
 * scratch; restores c->v. */
static int hes_row_of(chk_ctx *c, double t, int a, int b) {
  const rc_problem *pb = c->pb;
  const int ni = c->nin, no = c->nout;
  const int e = c->hidx[(size_t)a * ni + b];
  double *d[2], *de[2], *dn[2];
  for (int s = 0; s < 2; ++s) {
    d[s] = c->rows + (size_t)(3 * s) * no;
    de[s] = d[s] + no;
    dn[s] = de[s] + no;
    const int along = s ? a : b, entry = s ? b : a;
    if (!richardson(c, t, along, c->b->jac.nnz, fn_jacobian))
      return -1;
    for (int r = 0; r < no; ++r) {
      const int je = c->jidx[(size_t)r * ni + entry];
      d[s][r] = je >= 0 ? c->rd[je] : 0.0;
      de[s][r] = je >= 0 ? c->re[je] : 0.0;
      dn[s][r] = je >= 0 ? c->rn[je] : 0.0;
    }
  }
  int best = -1;
  double worst = 0.0;
  for (int r = 0; r < no; ++r) {
    for (int k = 0; k < no; ++k)
      c->mu1[k] = k == r ? 1.0 : 0.0;
    if (c->b->hessian(pb, t, c->v, c->mu1, c->hes1) != 0)
      return -1;
    const double got = e >= 0 ? c->hes1[e] : 0.0;
    const double fd = 0.5 * (d[0][r] + d[1][r]);
    if (entry_ok(c, 1, fd, got, 0.5 * (de[0][r] + de[1][r]),
                 0.5 * (dn[0][r] + dn[1][r])))
      continue;
    const double rel = fabs(fd - got) / fmax(1.0, fmax(fabs(fd), fabs(got)));
    if (!(rel <= worst))
      worst = isnan(rel) ? HUGE_VAL : rel, best = r;
  }
  return best;
}

/* Largest estimated error of a difference, relative to its entry's scale. */
static void note_bound(chk_ctx *c, double fd, double got, double bound) {
  double rel = bound / fmax(1.0, fmax(fabs(fd), fabs(got)));
  if (!(rel <= c->rep->max_rel_bound))
    c->rep->max_rel_bound = isnan(rel) ? HUGE_VAL : rel;
}

static void compare_jacobian(chk_ctx *c, double t) {
  const int ni = c->nin;
  for (int r = 0; r < c->nout; ++r)
    for (int j = 0; j < ni; ++j) {
      if (!c->jok[j])
        continue;
      size_t k = (size_t)r * ni + j;
      double fd = c->jfd[k], er = c->jerr[k], noise = c->jnoise[k];
      int e = c->jidx[k];
      c->rep->nentries++;
      if (e >= 0) {
        double got = c->jac[e];
        double scale = fmax(1.0, fmax(fabs(fd), fabs(got)));
        double rel = fabs(fd - got) / scale;
        if (!(rel <= c->rep->max_rel_err_jac))
          c->rep->max_rel_err_jac = isnan(rel) ? HUGE_VAL : rel;
        note_bound(c, fd, got, er + noise);
        if (!entry_ok(c, 1, fd, got, er, noise) && !c->jbad[k]) {
          c->jbad[k] = 1;
          add_failure(c, RC_CHECK_JAC_VALUE, r, j, t, fd, got, er, noise, NULL);
        }
      } else if (!entry_ok(c, 0, fd, 0.0, er, noise) && !c->jbad[k]) {
        c->jbad[k] = 1;
        add_failure(c, RC_CHECK_JAC_MISSING, r, j, t, fd, 0.0, er, noise, NULL);
      }
    }
}

static void compare_hessian(chk_ctx *c, double t) {
  const int ni = c->nin;
  for (int r = 0; r < ni; ++r)
    for (int j = 0; j <= r; ++j) {
      /* H(r, j) from column j (d g_r / d v_j) and column r (d g_j / d v_r) */
      size_t krj = (size_t)r * ni + j, kjr = (size_t)j * ni + r;
      double fd, er, noise;
      if (c->hok[j] && c->hok[r]) {
        fd = 0.5 * (c->hfd[krj] + c->hfd[kjr]);
        er = 0.5 * (c->herr[krj] + c->herr[kjr]);
        noise = 0.5 * (c->hnoise[krj] + c->hnoise[kjr]);
      } else if (c->hok[j]) {
        fd = c->hfd[krj];
        er = c->herr[krj];
        noise = c->hnoise[krj];
      } else if (c->hok[r]) {
        fd = c->hfd[kjr];
        er = c->herr[kjr];
        noise = c->hnoise[kjr];
      } else {
        continue;
      }
      int e = c->hidx[krj];
      c->rep->nentries++;
      if (e >= 0) {
        double got = c->hes[e];
        double scale = fmax(1.0, fmax(fabs(fd), fabs(got)));
        double rel = fabs(fd - got) / scale;
        if (!(rel <= c->rep->max_rel_err_hes))
          c->rep->max_rel_err_hes = isnan(rel) ? HUGE_VAL : rel;
        note_bound(c, fd, got, er + noise);
        if (!entry_ok(c, 1, fd, got, er, noise) && !c->hbad[krj]) {
          c->hbad[krj] = 1;
          add_failure(c, RC_CHECK_HES_VALUE, r, j, t, fd, got, er, noise, NULL);
        }
      } else if (!entry_ok(c, 0, fd, 0.0, er, noise) && !c->hbad[krj]) {
        c->hbad[krj] = 1;
        add_failure(c, RC_CHECK_HES_MISSING, r, j, t, fd, 0.0, er, noise, NULL);
      }
    }
}

static rc_err check_block(const rc_problem *pb, const rc_block *b,
                          chk_kind kind, const char *name, int nin,
                          const rc_check_options *o, chk_rng *rng,
                          rc_check_report *rep, rc_error *err) {
  if (b->n_out <= 0 || nin <= 0)
    return RC_OK;
  chk_ctx c;
  memset(&c, 0, sizeof c);
  c.pb = pb;
  c.b = b;
  c.kind = kind;
  c.name = name;
  c.nin = nin;
  c.nout = b->n_out;
  c.nw = rc_problem_nw(pb);
  c.o = o;
  c.rep = rep;
  c.rng = rng;
  rc_err rc = ctx_alloc(&c, err);
  if (rc == RC_OK) {
    set_bounds(&c);
    for (int k = 0; k < o->npoints; ++k) {
      int st = 0, tries = 0;
      const char *what = "eval";
      double t;
      do {
        t = draw_point(&c);
        for (int r = 0; r < c.nout; ++r)
          c.mu[r] = rng_sym(rng);
        st = eval_base(&c, t, &what);
      } while (st > 0 && ++tries < CHK_RETRIES);
      if (st != 0) {
        add_failure(&c, RC_CHECK_EVAL, -1, -1, t, 0.0, (double)st, 0.0, 0.0,
                    what);
        continue;
      }
      differences(&c, t);
      compare_jacobian(&c, t);
      if (b->hessian)
        compare_hessian(&c, t);
    }
  }
  ctx_free(&c);
  return rc;
}

rc_err rc_check_problem(const rc_problem *pb, const rc_check_options *o,
                        rc_check_report *report, rc_error *err) {
  rc_check_options def;
  rc_error_clear(err);
  if (!report)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_check_problem: report is NULL, expected a report "
                        "to fill");
  memset(report, 0, sizeof *report);
  if (!o) {
    rc_check_options_default(&def);
    o = &def;
  }
  if (o->npoints < 1)
    return rc_error_set(err, RC_ERR_INPUT,
                        "check: npoints = %d, expected at least 1", o->npoints);
  if (!(o->rel_tol > 0) || !(o->abs_tol > 0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "check: rel_tol = %g, abs_tol = %g: expected both > 0",
                        o->rel_tol, o->abs_tol);
  if (!(o->spread >= 0) || !isfinite(o->spread))
    return rc_error_set(err, RC_ERR_INPUT,
                        "check: spread = %g, expected a finite value >= 0",
                        o->spread);
  if (!(o->step > 0) || !(o->step <= 0.01))
    return rc_error_set(err, RC_ERR_INPUT,
                        "check: step = %g, expected a value in (0, 0.01]",
                        o->step);
  if (o->levels < 1 || o->levels > CHK_MAX_LEVELS)
    return rc_error_set(err, RC_ERR_INPUT,
                        "check: levels = %d, expected an integer in 1..%d",
                        o->levels, CHK_MAX_LEVELS);
  rc_err rc = rc_problem_validate(pb, err);
  if (rc != RC_OK)
    return rc;
  chk_rng rng;
  rng_seed(&rng, o->seed);
  const int nw = rc_problem_nw(pb);
  rc =
      check_block(pb, &pb->point, CHK_POINT, "point", nw, o, &rng, report, err);
  if (rc == RC_OK)
    rc = check_block(pb, &pb->boundary, CHK_BOUNDARY, "boundary",
                     rc_problem_nz(pb), o, &rng, report, err);
  if (rc == RC_OK && pb->ninv > 0)
    rc = check_block(pb, &pb->invariants, CHK_INVARIANTS, "invariants", nw, o,
                     &rng, report, err);
  return rc;
}
