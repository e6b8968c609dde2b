/*
 * init.c - consistent initial conditions (radcol/init.h, SPEC section 5).
 *
 * The NLP, over the free entries of z = w(t0) (the fixed ones are
 * eliminated, so Ipopt never sees them):
 *
 *     min  sum_{i free} wt_i (z_i - zhat_i)^2
 *     s.t. r_q(z) = 0  for the kept rows q of  r = (h_1..h_ninv, g_1..g_ny)
 *          w_lo_i <= z_i <= w_hi_i  (bounds the guess violates are released)
 *
 * h is the problem's invariants block, g the rows nx..nx+ny-1 of its point
 * block at t = t0.  Derivatives are the problem's own: the Jacobian rows of
 * the kept rows restricted to the free columns; the Lagrangian Hessian
 *     2 obj_factor diag(wt) + sum_k lambda_k Hess h_k + sum_j lambda_j Hess g_j
 * (point block Hessian with weight 0 on f, c and L).
 *
 * Row selection.  Rows that are redundant (accel's g = h3, baumgarte's
 * g = 2 h3 + a h2 + b h1, rows of fixed values only) would make the equality
 * Jacobian rank deficient or outnumber the free entries (Ipopt then refuses
 * with "not enough degrees of freedom").  Modified Gram-Schmidt (twice) on
 * the gradient rows w.r.t. the free entries, in the order h then g, keeps a
 * row when its part orthogonal to the rows kept so far exceeds 1e-7 times
 * its norm.  The selection is made at the starting point; every row is
 * checked at the solution, and when a dropped row is violated the selection
 * is redone there and the NLP solved once more.
 *
 * Before a solve (rc_init_check_start, rc_init_apply_start): the fixed x0
 * entries are checked; when inconsistent, the nearest consistent point to the
 * same guess with nothing fixed is the start, and the problem is re-created
 * by its model with the moved states' start parameters NAME0 set to it, so
 * that reference and guess derived at create follow.  Facts only: the caller
 * words them.
 *
 * Invariants: patterns and slots are built once per solve; the callbacks
 * only evaluate into preallocated workspace.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nlp/ipopt_adapter.h"
#include "radcol/init.h"
#include "radcol/params.h"
#include "radcol/start.h"

#define RC_INIT_RANK_TOL 1e-7

void rc_init_options_default(rc_init_options *opt) {
  opt->weights = RC_INIT_WEIGHTS_RELATIVE;
  opt->tol = 1e-12;
  opt->feas_tol = 1e-8;
  opt->move_tol = 1e-9;
  opt->max_iter = 500;
  opt->find_conflicts = 1;
  opt->x0 = NULL;
}

void rc_init_report_free(rc_init_report *rep) {
  if (!rep)
    return;
  free(rep->z);
  free(rep->zhat);
  free(rep->fixed);
  free(rep->moved);
  free(rep->released);
  free(rep->residual);
  free(rep->kept);
  free(rep->con_names);
  free(rep->conflict);
  memset(rep, 0, sizeof *rep);
}

static rc_err report_alloc(const rc_problem *pb, rc_init_report *rep,
                           rc_error *err) {
  memset(rep, 0, sizeof *rep);
  const int nw = rc_problem_nw(pb), nc = pb->ninv + pb->ny;
  const size_t a = (size_t)(nw > 0 ? nw : 1), b = (size_t)(nc > 0 ? nc : 1);
  rep->nw = nw;
  rep->ncon = nc;
  rep->z = calloc(a, sizeof *rep->z);
  rep->zhat = calloc(a, sizeof *rep->zhat);
  rep->fixed = calloc(a, sizeof *rep->fixed);
  rep->moved = calloc(a, sizeof *rep->moved);
  rep->released = calloc(a, sizeof *rep->released);
  rep->residual = calloc(b, sizeof *rep->residual);
  rep->kept = calloc(b, sizeof *rep->kept);
  rep->con_names = calloc(b, sizeof *rep->con_names);
  rep->conflict = calloc(a, sizeof *rep->conflict);
  if (!rep->z || !rep->zhat || !rep->fixed || !rep->moved || !rep->released ||
      !rep->residual || !rep->kept || !rep->con_names || !rep->conflict) {
    rc_init_report_free(rep);
    return rc_error_set(err, RC_ERR_NOMEM, "init: out of memory");
  }
  for (int k = 0; k < nc; ++k) {
    if (k < pb->ninv)
      snprintf(rep->con_names[k], sizeof rep->con_names[k], "%s",
               pb->inv_names && pb->inv_names[k] ? pb->inv_names[k] : "h?");
    else
      snprintf(rep->con_names[k], sizeof rep->con_names[k], "g%d",
               k - pb->ninv + 1);
  }
  rep->status = RC_STATUS_NOT_RUN;
  return RC_OK;
}

int rc_init_var_index(const rc_problem *pb, const char *name) {
  const int nw = rc_problem_nw(pb);
  for (int i = 0; pb->var_names && i < nw; ++i)
    if (pb->var_names[i] && strcmp(pb->var_names[i], name) == 0)
      return i;
  return -1;
}

rc_err rc_init_default_guess(const rc_problem *pb, double *zhat,
                             rc_error *err) {
  const int nw = rc_problem_nw(pb);
  for (int i = 0; i < nw; ++i)
    zhat[i] = 0.0;
  if (pb->guess) {
    const int st = pb->guess(pb, pb->t0, zhat);
    if (st != 0)
      return rc_error_set(err, RC_ERR_EVAL,
                          "%s/%s: the guess function failed at t0 = %g "
                          "(status %d)",
                          pb->model, pb->formulation, pb->t0, st);
  } else {
    for (int i = pb->nx; i < nw; ++i) {
      if (pb->w_lo && zhat[i] < pb->w_lo[i])
        zhat[i] = pb->w_lo[i];
      if (pb->w_hi && zhat[i] > pb->w_hi[i])
        zhat[i] = pb->w_hi[i];
    }
  }
  for (int i = 0; pb->x0 && i < pb->nx; ++i)
    zhat[i] = pb->x0[i];
  for (int i = 0; i < nw; ++i)
    if (!isfinite(zhat[i]))
      return rc_error_set(err, RC_ERR_EVAL,
                          "%s/%s: default guess %s = %g at t0: expected a "
                          "finite value",
                          pb->model, pb->formulation, pb->var_names[i],
                          zhat[i]);
  return RC_OK;
}

/* ---- the NLP ----------------------------------------------------------- */

typedef struct init_nlp {
  const rc_problem *pb;
  int nw, ninv, ny, nx, nF, ncon;
  double t0;
  double *z; /* nw: full point, fixed entries in place */
  double *zhat, *wt;
  int nfree;
  int *free_idx; /* nfree -> point index */
  int *free_of;  /* nw -> free index or -1 */
  int m;
  int *con_of_row; /* m -> constraint index (0..ncon-1) */
  int *row_of_con; /* ncon -> kept row or -1 */
  int nnz_jac, nnz_hes;
  int *jr, *jc, *hr, *hc;
  int *inv_jslot, *pt_jslot; /* per block Jacobian entry, -1: not used */
  int *inv_hslot, *pt_hslot; /* per block Hessian entry, -1: not used */
  int *diag_slot;            /* nfree */
  double *hv, *F, *Jinv, *Jpt, *Hinv, *Hpt, *mu_inv, *mu_F;
  double *x_lo, *x_hi, *g_lo, *g_hi;
  double *dense; /* ncon x nfree gradients for the row selection */
} init_nlp;

static void nlp_free(init_nlp *n) {
  void *p[] = {
      n->z,          n->zhat,       n->wt,       n->free_idx,  n->free_of,
      n->con_of_row, n->row_of_con, n->jr,       n->jc,        n->hr,
      n->hc,         n->inv_jslot,  n->pt_jslot, n->inv_hslot, n->pt_hslot,
      n->diag_slot,  n->hv,         n->F,        n->Jinv,      n->Jpt,
      n->Hinv,       n->Hpt,        n->mu_inv,   n->mu_F,      n->x_lo,
      n->x_hi,       n->g_lo,       n->g_hi,     n->dense};
  for (size_t k = 0; k < sizeof p / sizeof p[0]; ++k)
    free(p[k]);
  memset(n, 0, sizeof *n);
}

static void *zalloc(size_t n, size_t size, int *fail) {
  void *p = calloc(n ? n : 1, size);
  if (!p)
    *fail = 1;
  return p;
}

static void set_point(init_nlp *n, const double *x) {
  for (int i = 0; i < n->nfree; ++i)
    n->z[n->free_idx[i]] = x[i];
}

static int need_inv(const init_nlp *n) {
  for (int k = 0; k < n->ninv; ++k)
    if (n->row_of_con[k] >= 0)
      return 1;
  return 0;
}
static int need_pt(const init_nlp *n) {
  for (int j = 0; j < n->ny; ++j)
    if (n->row_of_con[n->ninv + j] >= 0)
      return 1;
  return 0;
}

static int cb_obj(void *ctx, const double *x, double *f) {
  init_nlp *n = ctx;
  double s = 0.0;
  for (int i = 0; i < n->nfree; ++i) {
    const int k = n->free_idx[i];
    const double d = x[i] - n->zhat[k];
    s += n->wt[k] * d * d;
  }
  *f = s;
  return 0;
}

static int cb_grad(void *ctx, const double *x, double *g) {
  init_nlp *n = ctx;
  for (int i = 0; i < n->nfree; ++i) {
    const int k = n->free_idx[i];
    g[i] = 2.0 * n->wt[k] * (x[i] - n->zhat[k]);
  }
  return 0;
}

static int cb_con(void *ctx, const double *x, double *c) {
  init_nlp *n = ctx;
  const rc_problem *pb = n->pb;
  set_point(n, x);
  if (need_inv(n)) {
    const int st = pb->invariants.eval(pb, n->t0, n->z, n->hv);
    if (st)
      return st;
  }
  if (need_pt(n)) {
    const int st = pb->point.eval(pb, n->t0, n->z, n->F);
    if (st)
      return st;
  }
  for (int q = 0; q < n->m; ++q) {
    const int k = n->con_of_row[q];
    c[q] = k < n->ninv ? n->hv[k] : n->F[n->nx + k - n->ninv];
  }
  return 0;
}

static int cb_jac(void *ctx, const double *x, double *vals) {
  init_nlp *n = ctx;
  const rc_problem *pb = n->pb;
  set_point(n, x);
  for (int e = 0; e < n->nnz_jac; ++e)
    vals[e] = 0.0;
  if (need_inv(n)) {
    const int st = pb->invariants.jacobian(pb, n->t0, n->z, n->Jinv);
    if (st)
      return st;
    for (int e = 0; e < pb->invariants.jac.nnz; ++e)
      if (n->inv_jslot[e] >= 0)
        vals[n->inv_jslot[e]] += n->Jinv[e];
  }
  if (need_pt(n)) {
    const int st = pb->point.jacobian(pb, n->t0, n->z, n->Jpt);
    if (st)
      return st;
    for (int e = 0; e < pb->point.jac.nnz; ++e)
      if (n->pt_jslot[e] >= 0)
        vals[n->pt_jslot[e]] += n->Jpt[e];
  }
  return 0;
}

static int cb_hes(void *ctx, const double *x, double obj_factor,
                  const double *lambda, double *vals) {
  init_nlp *n = ctx;
  const rc_problem *pb = n->pb;
  set_point(n, x);
  for (int e = 0; e < n->nnz_hes; ++e)
    vals[e] = 0.0;
  for (int k = 0; k < n->ninv; ++k)
    n->mu_inv[k] = n->row_of_con[k] >= 0 ? lambda[n->row_of_con[k]] : 0.0;
  for (int k = 0; k < n->nF; ++k)
    n->mu_F[k] = 0.0;
  for (int j = 0; j < n->ny; ++j) {
    const int q = n->row_of_con[n->ninv + j];
    n->mu_F[n->nx + j] = q >= 0 ? lambda[q] : 0.0;
  }
  if (need_inv(n)) {
    const int st = pb->invariants.hessian(pb, n->t0, n->z, n->mu_inv, n->Hinv);
    if (st)
      return st;
    for (int e = 0; e < pb->invariants.hes.nnz; ++e)
      if (n->inv_hslot[e] >= 0)
        vals[n->inv_hslot[e]] += n->Hinv[e];
  }
  if (need_pt(n)) {
    const int st = pb->point.hessian(pb, n->t0, n->z, n->mu_F, n->Hpt);
    if (st)
      return st;
    for (int e = 0; e < pb->point.hes.nnz; ++e)
      if (n->pt_hslot[e] >= 0)
        vals[n->pt_hslot[e]] += n->Hpt[e];
  }
  for (int i = 0; i < n->nfree; ++i)
    vals[n->diag_slot[i]] += 2.0 * obj_factor * n->wt[n->free_idx[i]];
  return 0;
}

/* Workspace and the free/fixed split (independent of the row selection). */
static rc_err nlp_setup(init_nlp *n, const rc_problem *pb,
                        const rc_init_options *opt, const double *zhat,
                        const int *fixed, const double *fix_value,
                        int *released, rc_error *err) {
  memset(n, 0, sizeof *n);
  n->pb = pb;
  n->nw = rc_problem_nw(pb);
  n->ninv = pb->ninv;
  n->ny = pb->ny;
  n->nx = pb->nx;
  n->nF = rc_problem_nF(pb);
  n->ncon = n->ninv + n->ny;
  n->t0 = pb->t0;
  const size_t nw = (size_t)n->nw, nc = (size_t)n->ncon;
  const size_t ji = (size_t)(n->ninv ? pb->invariants.jac.nnz : 0);
  const size_t hi = (size_t)(n->ninv ? pb->invariants.hes.nnz : 0);
  const size_t jp = (size_t)pb->point.jac.nnz, hp = (size_t)pb->point.hes.nnz;
  int fail = 0;
  n->z = zalloc(nw, sizeof(double), &fail);
  n->zhat = zalloc(nw, sizeof(double), &fail);
  n->wt = zalloc(nw, sizeof(double), &fail);
  n->free_idx = zalloc(nw, sizeof(int), &fail);
  n->free_of = zalloc(nw, sizeof(int), &fail);
  n->con_of_row = zalloc(nc, sizeof(int), &fail);
  n->row_of_con = zalloc(nc, sizeof(int), &fail);
  n->jr = zalloc(ji + jp, sizeof(int), &fail);
  n->jc = zalloc(ji + jp, sizeof(int), &fail);
  n->hr = zalloc(nw * nw, sizeof(int), &fail);
  n->hc = zalloc(nw * nw, sizeof(int), &fail);
  n->inv_jslot = zalloc(ji, sizeof(int), &fail);
  n->pt_jslot = zalloc(jp, sizeof(int), &fail);
  n->inv_hslot = zalloc(hi, sizeof(int), &fail);
  n->pt_hslot = zalloc(hp, sizeof(int), &fail);
  n->diag_slot = zalloc(nw, sizeof(int), &fail);
  n->hv = zalloc((size_t)n->ninv, sizeof(double), &fail);
  n->F = zalloc((size_t)n->nF, sizeof(double), &fail);
  n->Jinv = zalloc(ji, sizeof(double), &fail);
  n->Jpt = zalloc(jp, sizeof(double), &fail);
  n->Hinv = zalloc(hi, sizeof(double), &fail);
  n->Hpt = zalloc(hp, sizeof(double), &fail);
  n->mu_inv = zalloc((size_t)n->ninv, sizeof(double), &fail);
  n->mu_F = zalloc((size_t)n->nF, sizeof(double), &fail);
  n->x_lo = zalloc(nw, sizeof(double), &fail);
  n->x_hi = zalloc(nw, sizeof(double), &fail);
  n->g_lo = zalloc(nc, sizeof(double), &fail);
  n->g_hi = zalloc(nc, sizeof(double), &fail);
  n->dense = zalloc(nc * nw, sizeof(double), &fail);
  if (fail) {
    nlp_free(n);
    return rc_error_set(err, RC_ERR_NOMEM, "init: out of memory");
  }
  for (int i = 0; i < n->nw; ++i) {
    n->zhat[i] = zhat[i];
    const double s = 1.0 + fabs(zhat[i]);
    n->wt[i] = opt->weights == RC_INIT_WEIGHTS_UNIT ? 1.0 : 1.0 / (s * s);
    n->free_of[i] = -1;
    if (fixed && fixed[i]) {
      n->z[i] = fix_value[i];
      continue;
    }
    double lo = pb->w_lo ? pb->w_lo[i] : -HUGE_VAL;
    double hi_ = pb->w_hi ? pb->w_hi[i] : HUGE_VAL;
    if (zhat[i] < lo || zhat[i] > hi_) {
      released[i] = 1;
      lo = -HUGE_VAL, hi_ = HUGE_VAL;
    }
    n->x_lo[n->nfree] = isfinite(lo) ? lo : -1e20;
    n->x_hi[n->nfree] = isfinite(hi_) ? hi_ : 1e20;
    n->z[i] = zhat[i];
    n->free_of[i] = n->nfree;
    n->free_idx[n->nfree++] = i;
  }
  return RC_OK;
}

/* Gradient rows w.r.t. the free entries at n->z into n->dense. */
static int dense_gradients(init_nlp *n) {
  const rc_problem *pb = n->pb;
  const int nf = n->nfree;
  memset(n->dense, 0, sizeof(double) * (size_t)n->ncon * (size_t)n->nw);
  if (n->ninv > 0) {
    const int st = pb->invariants.jacobian(pb, n->t0, n->z, n->Jinv);
    if (st)
      return st;
    for (int e = 0; e < pb->invariants.jac.nnz; ++e) {
      const int c = n->free_of[pb->invariants.jac.col[e]];
      if (c >= 0)
        n->dense[pb->invariants.jac.row[e] * nf + c] += n->Jinv[e];
    }
  }
  if (n->ny > 0) {
    const int st = pb->point.jacobian(pb, n->t0, n->z, n->Jpt);
    if (st)
      return st;
    for (int e = 0; e < pb->point.jac.nnz; ++e) {
      const int r = pb->point.jac.row[e] - n->nx;
      const int c = n->free_of[pb->point.jac.col[e]];
      if (r >= 0 && r < n->ny && c >= 0)
        n->dense[(n->ninv + r) * nf + c] += n->Jpt[e];
    }
  }
  return 0;
}

/* Greedy row selection (modified Gram-Schmidt, twice) at n->z; then the
 * Jacobian and Hessian patterns for the kept rows.  Orthonormal basis rows
 * are stored in place of the kept rows of n->dense. */
static int select_rows(init_nlp *n) {
  const int st = dense_gradients(n);
  if (st)
    return st;
  const int nf = n->nfree;
  n->m = 0;
  for (int k = 0; k < n->ncon; ++k) {
    n->row_of_con[k] = -1;
    double *v = n->dense + (size_t)k * (size_t)nf;
    double norm0 = 0.0;
    for (int i = 0; i < nf; ++i)
      norm0 += v[i] * v[i];
    norm0 = sqrt(norm0);
    if (!(norm0 > 0.0) || n->m >= nf)
      continue;
    for (int pass = 0; pass < 2; ++pass)
      for (int q = 0; q < n->m; ++q) {
        const double *b = n->dense + (size_t)n->con_of_row[q] * (size_t)nf;
        double d = 0.0;
        for (int i = 0; i < nf; ++i)
          d += v[i] * b[i];
        for (int i = 0; i < nf; ++i)
          v[i] -= d * b[i];
      }
    double norm = 0.0;
    for (int i = 0; i < nf; ++i)
      norm += v[i] * v[i];
    norm = sqrt(norm);
    if (norm > RC_INIT_RANK_TOL * norm0) {
      for (int i = 0; i < nf; ++i)
        v[i] /= norm;
      n->row_of_con[k] = n->m;
      n->con_of_row[n->m++] = k;
    }
  }
  /* Jacobian pattern: each kept row's block entries in free columns. */
  const rc_problem *pb = n->pb;
  n->nnz_jac = 0;
  for (int e = 0; n->ninv > 0 && e < pb->invariants.jac.nnz; ++e) {
    const int q = n->row_of_con[pb->invariants.jac.row[e]];
    const int c = n->free_of[pb->invariants.jac.col[e]];
    n->inv_jslot[e] = -1;
    if (q >= 0 && c >= 0) {
      n->jr[n->nnz_jac] = q, n->jc[n->nnz_jac] = c;
      n->inv_jslot[e] = n->nnz_jac++;
    }
  }
  for (int e = 0; e < pb->point.jac.nnz; ++e) {
    const int r = pb->point.jac.row[e] - n->nx;
    const int c = n->free_of[pb->point.jac.col[e]];
    n->pt_jslot[e] = -1;
    if (r >= 0 && r < n->ny && c >= 0 && n->row_of_con[n->ninv + r] >= 0) {
      n->jr[n->nnz_jac] = n->row_of_con[n->ninv + r], n->jc[n->nnz_jac] = c;
      n->pt_jslot[e] = n->nnz_jac++;
    }
  }
  /* Hessian pattern: dense lower-triangular map over the free entries. */
  const size_t nn = (size_t)nf * (size_t)nf;
  int *map = calloc(nn ? nn : 1, sizeof *map);
  if (!map)
    return -1;
  for (size_t e = 0; e < nn; ++e)
    map[e] = -1;
  n->nnz_hes = 0;
#define RC_HSLOT(r, c)                                                         \
  (map[(size_t)(r) * (size_t)nf + (size_t)(c)] >= 0                            \
       ? map[(size_t)(r) * (size_t)nf + (size_t)(c)]                           \
       : (n->hr[n->nnz_hes] = (r), n->hc[n->nnz_hes] = (c),                    \
          map[(size_t)(r) * (size_t)nf + (size_t)(c)] = n->nnz_hes++))
  for (int i = 0; i < nf; ++i)
    n->diag_slot[i] = RC_HSLOT(i, i);
  for (int e = 0; n->ninv > 0 && e < pb->invariants.hes.nnz; ++e) {
    const int r = n->free_of[pb->invariants.hes.row[e]];
    const int c = n->free_of[pb->invariants.hes.col[e]];
    n->inv_hslot[e] = r >= 0 && c >= 0 ? RC_HSLOT(r, c) : -1;
  }
  for (int e = 0; e < pb->point.hes.nnz; ++e) {
    const int r = n->free_of[pb->point.hes.row[e]];
    const int c = n->free_of[pb->point.hes.col[e]];
    n->pt_hslot[e] = r >= 0 && c >= 0 && n->ny > 0 ? RC_HSLOT(r, c) : -1;
  }
#undef RC_HSLOT
  free(map);
  return 0;
}

/* All residuals at n->z into rep->residual; returns the callback status. */
static int all_residuals(init_nlp *n, rc_init_report *rep) {
  const rc_problem *pb = n->pb;
  if (n->ninv > 0) {
    const int st = pb->invariants.eval(pb, n->t0, n->z, n->hv);
    if (st)
      return st;
  }
  if (n->ny > 0) {
    const int st = pb->point.eval(pb, n->t0, n->z, n->F);
    if (st)
      return st;
  }
  for (int k = 0; k < n->ncon; ++k)
    rep->residual[k] = k < n->ninv ? n->hv[k] : n->F[n->nx + k - n->ninv];
  return 0;
}

static void finish_report(const init_nlp *n, const rc_init_options *opt,
                          rc_init_report *rep) {
  rep->max_residual = 0.0;
  rep->consistent = 1;
  for (int k = 0; k < n->ncon; ++k) {
    const double a = fabs(rep->residual[k]);
    if (!(a <= opt->feas_tol))
      rep->consistent = 0;
    if (!(a <= rep->max_residual))
      rep->max_residual = a;
  }
  double obj = 0.0;
  for (int i = 0; i < n->nw; ++i) {
    rep->z[i] = n->z[i];
    const double d = n->z[i] - n->zhat[i];
    if (!rep->fixed[i])
      obj += n->wt[i] * d * d;
    rep->moved[i] =
        !rep->fixed[i] && fabs(d) > opt->move_tol * (1.0 + fabs(n->zhat[i]));
  }
  rep->objective = obj;
}

/* A start that already satisfies every row inside its bounds is the
 * minimiser (objective 0 at a feasible point): no NLP to solve. */
static int start_is_feasible(init_nlp *n, const rc_init_options *opt,
                             const double *x, rc_init_report *rep) {
  int feasible = all_residuals(n, rep) == 0;
  for (int k = 0; feasible && k < n->ncon; ++k)
    feasible = fabs(rep->residual[k]) <= opt->feas_tol;
  for (int i = 0; feasible && i < n->nfree; ++i)
    feasible = x[i] >= n->x_lo[i] && x[i] <= n->x_hi[i];
  return feasible;
}

/* The least-change NLP of n solved by Ipopt from x (x: the solution); its
 * status into rep, its iterations added to *iterations. */
static rc_err minimise(init_nlp *n, const rc_init_options *opt, double *x,
                       rc_init_report *rep, int *iterations, rc_error *err) {
  const rc_problem *pb = n->pb;
  if ((need_inv(n) && !pb->invariants.hessian) ||
      (need_pt(n) && !pb->point.hessian))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: init needs the Hessian of the %s block, "
                        "which the problem does not supply",
                        pb->model, pb->formulation,
                        need_inv(n) && !pb->invariants.hessian ? "invariants"
                                                               : "point");
  const rc_ipopt_nlp s = {.n = n->nfree,
                          .m = n->m,
                          .nnz_jac = n->nnz_jac,
                          .nnz_hes = n->nnz_hes,
                          .x_lo = n->x_lo,
                          .x_hi = n->x_hi,
                          .g_lo = n->g_lo,
                          .g_hi = n->g_hi,
                          .jac_row = n->jr,
                          .jac_col = n->jc,
                          .hes_row = n->hr,
                          .hes_col = n->hc,
                          .ctx = n,
                          .objective = cb_obj,
                          .gradient = cb_grad,
                          .constraints = cb_con,
                          .jacobian = cb_jac,
                          .hessian = cb_hes};
  rc_options io;
  rc_options_default(&io);
  io.tol = opt->tol;
  io.max_iter = opt->max_iter;
  rc_ipopt_outcome out;
  rc_err rc = rc_ipopt_solve(&s, &io, x, NULL, NULL, NULL, &out, err);
  if (rc)
    return rc;
  rep->status = out.status;
  *iterations += out.iterations;
  return RC_OK;
}

/* One solve without conflict search. */
static rc_err solve_once(const rc_problem *pb, const rc_init_options *opt,
                         const double *zhat, const int *fixed,
                         const double *fix_value, rc_init_report *rep,
                         rc_error *err) {
  rc_err rc = report_alloc(pb, rep, err);
  if (rc)
    return rc;
  for (int i = 0; i < rep->nw; ++i) {
    rep->zhat[i] = zhat[i];
    rep->fixed[i] = fixed ? (fixed[i] != 0) : 0;
  }
  init_nlp n;
  rc = nlp_setup(&n, pb, opt, zhat, rep->fixed, fix_value, rep->released, err);
  if (rc) {
    rc_init_report_free(rep);
    return rc;
  }
  double *x = calloc((size_t)(n.nw ? n.nw : 1), sizeof *x);
  if (!x) {
    nlp_free(&n);
    rc_init_report_free(rep);
    return rc_error_set(err, RC_ERR_NOMEM, "init: out of memory");
  }
  for (int i = 0; i < n.nfree; ++i)
    x[i] = zhat[n.free_idx[i]];
  int total_iter = 0;
  for (int pass = 0; pass < 2 && rc == RC_OK; ++pass) {
    set_point(&n, x);
    int st = select_rows(&n);
    if (st) {
      rc = rc_error_set(err, RC_ERR_EVAL,
                        "%s/%s: a constraint Jacobian failed to evaluate at "
                        "the %s (status %d)",
                        pb->model, pb->formulation,
                        pass ? "first solution" : "guess", st);
      break;
    }
    for (int k = 0; k < n.ncon; ++k)
      rep->kept[k] = n.row_of_con[k] >= 0;
    if (pass == 0 && start_is_feasible(&n, opt, x, rep)) {
      rep->status = RC_STATUS_CONVERGED;
    } else if (n.m > 0 && n.nfree > 0) {
      if ((rc = minimise(&n, opt, x, rep, &total_iter, err)) != RC_OK)
        break;
    } else {
      /* Nothing to satisfy by moving: the guess (inside its bounds). */
      for (int i = 0; i < n.nfree; ++i)
        x[i] = fmin(fmax(x[i], n.x_lo[i]), n.x_hi[i]);
      rep->status = RC_STATUS_NOT_RUN;
    }
    set_point(&n, x);
    st = all_residuals(&n, rep);
    if (st) {
      rc = rc_error_set(err, RC_ERR_EVAL,
                        "%s/%s: a constraint failed to evaluate at the init "
                        "solution (status %d)",
                        pb->model, pb->formulation, st);
      break;
    }
    int dropped_violated = 0;
    for (int k = 0; k < n.ncon; ++k)
      if (!rep->kept[k] && !(fabs(rep->residual[k]) <= opt->feas_tol))
        dropped_violated = 1;
    if (!dropped_violated)
      break;
  }
  rep->iterations = total_iter;
  if (rc == RC_OK)
    finish_report(&n, opt, rep);
  free(x);
  nlp_free(&n);
  if (rc)
    rc_init_report_free(rep);
  return rc;
}

static void append(char *buf, size_t size, const char *fmt, const char *s,
                   double v) {
  const size_t used = strlen(buf);
  if (used + 1 < size)
    snprintf(buf + used, size - used, fmt, s, v);
}

/* The message of an inconsistent request: the rows violated by more than
 * feas_tol with their residuals. */
static void name_violations(const rc_problem *pb, const rc_init_options *opt,
                            rc_init_report *rep) {
  char *msg = rep->message;
  const size_t ms = sizeof rep->message;
  snprintf(msg, ms,
           "%s/%s: no consistent point satisfies the request:", pb->model,
           pb->formulation);
  int first = 1;
  for (int k = 0; k < rep->ncon; ++k)
    if (!(fabs(rep->residual[k]) <= opt->feas_tol)) {
      append(msg, ms, first ? " %s residual %.3g" : ", %s residual %.3g",
             rep->con_names[k], rep->residual[k]);
      first = 0;
    }
  append(msg, ms, " (expected |residual| <= %s%.0e)", "", opt->feas_tol);
}

/* The fixed values whose release alone makes the request consistent (one
 * solve per fixed value) into rep->conflict. */
static rc_err find_conflicts(const rc_problem *pb, const rc_init_options *opt,
                             const double *zhat, const double *fix_value,
                             rc_init_report *rep, rc_error *err) {
  const int nw = rc_problem_nw(pb);
  int *fx = malloc(sizeof *fx * (size_t)nw);
  if (!fx)
    return rc_error_set(err, RC_ERR_NOMEM, "init: out of memory");
  for (int i = 0; i < nw; ++i) {
    if (!rep->fixed[i])
      continue;
    for (int k = 0; k < nw; ++k)
      fx[k] = rep->fixed[k] && k != i;
    rc_init_report r2;
    rc_error e2 = {RC_OK, ""};
    if (solve_once(pb, opt, zhat, fx, fix_value, &r2, &e2) == RC_OK) {
      if (r2.consistent)
        rep->conflict[rep->nconflict++] = i;
      rc_init_report_free(&r2);
    }
  }
  free(fx);
  return RC_OK;
}

rc_err rc_init_solve(const rc_problem *pb, const rc_init_options *opt,
                     const double *zhat, const int *fixed,
                     const double *fix_value, rc_init_report *rep,
                     rc_error *err) {
  if (!pb || !zhat || !rep)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_init_solve: %s is NULL: expected a pointer",
                        !pb ? "problem" : (!zhat ? "guess" : "report"));
  rc_init_options def;
  if (!opt) {
    rc_init_options_default(&def);
    opt = &def;
  }
  const int nw = rc_problem_nw(pb);
  if (pb->ninv > 0 && (!pb->invariants.eval || !pb->invariants.jacobian))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: %d invariants without value or Jacobian "
                        "functions",
                        pb->model, pb->formulation, pb->ninv);
  for (int i = 0; i < nw; ++i) {
    if (!isfinite(zhat[i]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "init: guess %s = %g: expected a finite value",
                          pb->var_names[i], zhat[i]);
    if (fixed && fixed[i] && !(fix_value && isfinite(fix_value[i])))
      return rc_error_set(err, RC_ERR_INPUT,
                          "init: fixed %s = %g: expected a finite value",
                          pb->var_names[i], fix_value ? fix_value[i] : NAN);
  }
  rc_err rc = solve_once(pb, opt, zhat, fixed, fix_value, rep, err);
  if (rc || rep->consistent)
    return rc;

  /* Inconsistent: name the violated rows, then look for conflicts. */
  char *msg = rep->message;
  const size_t ms = sizeof rep->message;
  name_violations(pb, opt, rep);
  int nfixed = 0;
  for (int i = 0; i < nw; ++i)
    nfixed += rep->fixed[i];
  if (!opt->find_conflicts || nfixed == 0) {
    if (nfixed == 0) {
      const size_t used = strlen(msg);
      snprintf(msg + used, ms - used,
               "; nothing is fixed: the solver ended with status %s",
               rc_status_name(rep->status));
    }
    return RC_OK;
  }
  if ((rc = find_conflicts(pb, opt, zhat, fix_value, rep, err)) != RC_OK)
    return rc;
  if (rep->nconflict > 0) {
    append(msg, ms, "; conflicting fixed values:%s", "", 0.0);
    for (int c = 0; c < rep->nconflict; ++c) {
      const int i = rep->conflict[c];
      append(msg, ms, c ? ", %s = %.10g" : " %s = %.10g", pb->var_names[i],
             fix_value[i]);
    }
    append(msg, ms,
           "%s (releasing any one of them makes the request "
           "consistent)",
           rep->nconflict == 1 ? "" : "", 0.0);
    if (rep->nconflict == 1) {
      char *p = strstr(msg, " (releasing any one of them");
      if (p)
        snprintf(p, ms - (size_t)(p - msg),
                 " (releasing it makes the request consistent)");
    }
  } else {
    append(msg, ms,
           "%s; releasing no single fixed value makes the request "
           "consistent",
           "", 0.0);
  }
  return RC_OK;
}

rc_err rc_make_consistent(const rc_problem *pb, const rc_init_options *opt,
                          double *x0_out, int *changed, rc_init_report *rep,
                          rc_error *err) {
  *changed = 0;
  if (!pb || !x0_out)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_make_consistent: NULL %s: expected a pointer",
                        pb ? "x0_out" : "problem");
  if (opt && opt->x0) { /* a different start: the problem restarted there */
    rc_init_options o = *opt;
    o.x0 = NULL;
    rc_problem *moved = NULL;
    rc_err rs = rc_problem_restart(pb, opt->x0, &moved, err);
    if (rs == RC_OK)
      rs = rc_make_consistent(moved, &o, x0_out, changed, rep, err);
    rc_problem_free(&moved);
    return rs;
  }
  rc_init_options o;
  if (opt)
    o = *opt;
  else
    rc_init_options_default(&o);
  o.find_conflicts = 0;
  const int nw = rc_problem_nw(pb);
  for (int i = 0; i < pb->nx; ++i)
    x0_out[i] = pb->x0 ? pb->x0[i] : 0.0;
  double *zhat = malloc(sizeof *zhat * (size_t)(nw ? nw : 1));
  int *fixed = calloc((size_t)(nw ? nw : 1), sizeof *fixed);
  if (!zhat || !fixed) {
    free(zhat);
    free(fixed);
    return rc_error_set(err, RC_ERR_NOMEM, "init: out of memory");
  }
  rc_init_report local, *r = rep ? rep : &local;
  int nfixed = 0;
  for (int i = 0; pb->fix_x0 && i < pb->nx; ++i)
    nfixed += fixed[i] = pb->fix_x0[i] != 0;
  rc_err rc = rc_init_default_guess(pb, zhat, err);
  if (rc == RC_OK)
    rc = rc_init_solve(pb, &o, zhat, fixed, zhat, r, err);
  if (rc == RC_OK && !r->consistent && nfixed > 0) {
    rc_init_report_free(r);
    rc = rc_init_solve(pb, &o, zhat, NULL, NULL, r, err);
    if (rc == RC_OK && r->consistent)
      for (int i = 0; i < pb->nx; ++i) {
        if (fixed[i] &&
            fabs(r->z[i] - x0_out[i]) > 1e-10 * (1.0 + fabs(x0_out[i])))
          *changed = 1;
        x0_out[i] = r->z[i];
      }
  }
  if (rc == RC_OK && r == &local)
    rc_init_report_free(&local);
  free(zhat);
  free(fixed);
  return rc;
}

void rc_init_start_free(rc_init_start *st) {
  if (!st)
    return;
  free(st->x0);
  free(st->moved);
  free(st->given_residual);
  free(st->con_names);
  memset(st, 0, sizeof *st);
}

/* Residuals of the given values: x0 fixed where pb->fix_x0 fixes it, the
 * rest guessed and solved for (no conflict search). */
static rc_err given_residuals(const rc_problem *pb, const rc_init_options *opt,
                              rc_init_start *st, rc_error *err) {
  const int nw = rc_problem_nw(pb);
  rc_init_options o = *opt;
  o.find_conflicts = 0;
  double *zhat = malloc(sizeof *zhat * (size_t)(nw ? nw : 1));
  int *fixed = calloc((size_t)(nw ? nw : 1), sizeof *fixed);
  rc_init_report rep;
  memset(&rep, 0, sizeof rep);
  rc_err rc = zhat && fixed
                  ? rc_init_default_guess(pb, zhat, err)
                  : rc_error_set(err, RC_ERR_NOMEM, "init: out of memory");
  for (int i = 0; rc == RC_OK && i < pb->nx; ++i)
    fixed[i] = pb->fix_x0[i] != 0;
  if (rc == RC_OK)
    rc = rc_init_solve(pb, &o, zhat, fixed, zhat, &rep, err);
  if (rc == RC_OK && rep.ncon > 0) {
    st->given_residual = malloc(sizeof *st->given_residual * (size_t)rep.ncon);
    st->con_names = malloc(sizeof *st->con_names * (size_t)rep.ncon);
    if (!st->given_residual || !st->con_names) {
      rc = rc_error_set(err, RC_ERR_NOMEM, "init: out of memory");
    } else {
      st->ncon = rep.ncon;
      memcpy(st->given_residual, rep.residual,
             sizeof *rep.residual * (size_t)rep.ncon);
      memcpy(st->con_names, rep.con_names,
             sizeof *rep.con_names * (size_t)rep.ncon);
    }
  }
  if (rc == RC_OK || rep.z)
    rc_init_report_free(&rep);
  free(zhat);
  free(fixed);
  return rc;
}

rc_err rc_init_check_start(const rc_problem *pb, double feas_tol,
                           rc_init_start *st, rc_error *err) {
  if (!st)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_init_check_start: NULL report: expected a pointer");
  memset(st, 0, sizeof *st);
  if (!pb)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_init_check_start: NULL problem: expected a "
                        "pointer");
  if (!(feas_tol > 0.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_init_check_start: feasibility tolerance %g: "
                        "expected > 0",
                        feas_tol);
  st->feas_tol = feas_tol;
  st->consistent = 1;
  int any = 0;
  for (int i = 0; pb->fix_x0 && pb->x0 && i < pb->nx; ++i)
    any |= pb->fix_x0[i] != 0;
  if (pb->sampled_reference || !any)
    return RC_OK; /* nothing to check */
  const size_t nx = (size_t)pb->nx;
  st->nx = pb->nx;
  st->x0 = malloc(sizeof *st->x0 * nx);
  st->moved = calloc(nx, sizeof *st->moved);
  if (!st->x0 || !st->moved) {
    rc_init_start_free(st);
    return rc_error_set(err, RC_ERR_NOMEM, "init: out of memory");
  }
  rc_init_options opt;
  rc_init_options_default(&opt);
  opt.feas_tol = feas_tol;
  rc_init_report rep;
  memset(&rep, 0, sizeof rep);
  int changed = 0;
  rc_err rc = rc_make_consistent(pb, &opt, st->x0, &changed, &rep, err);
  if (rc != RC_OK) {
    rc_init_start_free(st);
    return rc;
  }
  st->checked = 1;
  st->consistent = rep.consistent;
  if (!rep.consistent) {
    snprintf(st->message, sizeof st->message, "%s", rep.message);
    memcpy(st->x0, pb->x0, sizeof *st->x0 * nx);
  }
  rc_init_report_free(&rep);
  if (!st->consistent || !changed)
    return RC_OK;
  st->changed = 1;
  for (int i = 0; i < pb->nx; ++i)
    st->moved[i] =
        fabs(st->x0[i] - pb->x0[i]) > 1e-10 * (1.0 + fabs(pb->x0[i]));
  /* The residuals of the given values are a fact for the message only: when
   * they cannot be computed, ncon stays 0. */
  rc_error gerr = {RC_OK, ""};
  if (given_residuals(pb, &opt, st, &gerr) != RC_OK) {
    free(st->given_residual);
    free(st->con_names);
    st->given_residual = NULL;
    st->con_names = NULL;
    st->ncon = 0;
  }
  return RC_OK;
}

rc_err rc_init_apply_start(const rc_model *model, int formulation,
                           rc_param_values *pv, const rc_init_start *st,
                           rc_problem **pb, int *applied, char *why, size_t len,
                           rc_error *err) {
  *applied = 0;
  if (why && len > 0)
    why[0] = '\0';
  if (!model || !pv || !st || !pb || !*pb)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_init_apply_start: NULL argument: expected the "
                        "model, values, start and problem");
  const rc_problem *old = *pb;
  if (!st->changed)
    return RC_OK;
  if (st->nx != old->nx)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_init_apply_start: start has %d states, the "
                        "problem %d",
                        st->nx, old->nx);
  /* Every moved state must have its start parameter NAME0. */
  for (int i = 0; i < old->nx; ++i) {
    if (!st->moved[i])
      continue;
    char name[80];
    snprintf(name, sizeof name, "%s0", old->var_names[i]);
    if (rc_model_param_index(model, name) < 0) {
      if (why && len > 0)
        snprintf(why, len, "%s has no parameter %s", model->name, name);
      return RC_OK;
    }
  }
  rc_err rc = RC_OK;
  for (int i = 0; rc == RC_OK && i < old->nx; ++i) {
    if (!st->moved[i])
      continue;
    char name[80];
    snprintf(name, sizeof name, "%s0", old->var_names[i]);
    rc = rc_params_set_real(model, pv, rc_model_param_index(model, name),
                            st->x0[i], err);
  }
  /* The horizon: a model without a tf parameter keeps the old problem's. */
  const double tf = rc_model_param_index(model, "tf") < 0 ? old->tf : NAN;
  rc_problem *fresh = NULL;
  if (rc == RC_OK)
    rc = rc_model_create(model, formulation, pv, tf, &fresh, err);
  if (rc != RC_OK)
    return rc;
  rc_problem_free(pb);
  *pb = fresh;
  *applied = 1;
  return RC_OK;
}
