/*
 * radau_step.c - one Radau IIA step of a square system and its simplified
 * Newton iteration (radau_step.h has the equations and the two matrices).
 *
 * Newton (Hairer and Wanner IV.8, RADAU5's iteration).  From the predictor
 * Q^0, with the factors held fixed:
 *     dQ^k = (matrix)^{-1} b(Q^k),   Q^{k+1} = Q^k + dQ^k,
 *     eta_k = |dQ^k / scal|  (RMS, or max with max_norm),
 *     theta_k = eta_k / eta_{k-1} (k = 1), sqrt(theta_k theta_{k-1}) (k > 1),
 *     faccon = theta / (1 - theta),
 * converged when faccon eta_k <= fnewt for k >= 1.  RADAU5 also accepts
 * the first iterate with the faccon carried from the last step; here that
 * accepted increments of up to 34 tolerances after h grew 8 times, and on an
 * index-2 formulation (a projected one) the starts drifted off the
 * constraints until the error estimate measured the drift (0.08), not h,
 * and the march stalled; with k >= 1 it takes 23 steps, and the iteration
 * counts of the other built-in formulations rose by 0 to 10 %.  theta >= 0.99
 * is divergence, except for the first allow_first ratios (up to 4: a predictor
 * far from the solution can make the first step uphill; the index-3
 * element that aborted at 1.08 converged one step later).  theta >= 0.5 with
 * |dQ / scal_floor| <= 1 is convergence at the rounding floor (the
 * increments are rounding noise; a Baumgarte-stabilised mechanism at rtol
 * 1e-10 stalled at increments of 2e-14 with theta 0.6..1.1 and h shrinking
 * to 4e-15).  With theta < 0.99 the remaining iterations are predicted:
 * faccon eta theta^(maxit-1-k) / fnewt >= 1 means maxit will not do, and the
 * step is abandoned with RADAU5's factor 0.8 q^(-1/(4 + maxit - 1 - k)),
 * q = that ratio clipped to [1e-4, 20].
 *
 * Transformed solve: u_k = sum_j Vinv_kj b_j (complex nq vectors, one per
 * block), W_k = (lambda_k E - h S J)^{-1} u_k, and dQ_j = sum over real
 * blocks V_jk W_k + sum over pairs 2 Re(V_jk W_k).
 *
 * The right-hand side's algebraic rows are scaled with the factors' h
 * (h_lu sigma(h_lu) R_a) so that both sides of a row carry the same scale
 * when the factors of an earlier h are reused.  Workspace is sized at
 * creation for smax stages (the full matrix on first use); nothing is
 * allocated per step.
 */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nlp/radau_step.h"

#include "collocation/radau.h"
#include "collocation/radau_transform.h"
#include "core/dense_lu.h"
#include "core/timing.h"

enum { LU_NONE = 0, LU_TRANSFORMED = 1, LU_FULL = 2 };

struct rc_rstep {
  const rc_problem *pb;
  const rc_var_index *vi;
  int nx, na, nq, np, nw, nF, smax;
  double *p;
  rc_radau *rd[RC_RADAU_MAX_STAGES + 1];
  rc_radau_eig *eg[RC_RADAU_MAX_STAGES + 1];
  int eg_ok[RC_RADAU_MAX_STAGES + 1];
  /* the current step */
  int s;
  double t, h, tend;
  double tj[RC_RADAU_MAX_STAGES];
  double *x0, *Q, *R, *B, *dQ; /* nx; smax nq each */
  double *w, *F, *jv;          /* nw, nF, nnz */
  double *J;                   /* nq x nq (rows f, g, c; columns x, a) */
  /* factors: the transformed set (tr_*), the full matrix (full_*), and
   * which one Newton uses (lu_mode) */
  int lu_mode;
  int tr_ok, tr_s, full_ok, full_s;
  double tr_h, full_h;
  double *Lr; /* real block, nq x nq */
  int *pr;
  double complex *Lc; /* npair blocks, nq x nq each */
  int *pc;
  double complex *U; /* transformed vectors, nblk x nq */
  double *M;         /* full matrix, (smax nq)^2, on first use */
  int *pm;
  rc_rstep_counts cnt;
};

/* ---- set-up ---------------------------------------------------------------
 */

void rc_rstep_free(rc_rstep **stp) {
  if (!stp || !*stp)
    return;
  rc_rstep *st = *stp;
  for (int s = 0; s <= RC_RADAU_MAX_STAGES; ++s) {
    free(st->rd[s]);
    free(st->eg[s]);
  }
  free(st->p);
  free(st->x0);
  free(st->Q);
  free(st->R);
  free(st->B);
  free(st->dQ);
  free(st->w);
  free(st->F);
  free(st->jv);
  free(st->J);
  free(st->Lr);
  free(st->pr);
  free(st->Lc);
  free(st->pc);
  free(st->U);
  free(st->M);
  free(st->pm);
  free(st);
  *stp = NULL;
}

static void *zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

rc_err rc_rstep_create(const rc_problem *pb, const rc_var_index *vi, int smax,
                       const double *p, rc_rstep **out, rc_error *err) {
  *out = NULL;
  if (smax < 1 || smax > RC_RADAU_MAX_STAGES)
    return rc_error_set(err, RC_ERR_INPUT, "stages %d: expected 1..%d", smax,
                        RC_RADAU_MAX_STAGES);
  rc_rstep *st = zalloc(1, sizeof *st);
  if (!st)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for a Radau step");
  st->pb = pb;
  st->vi = vi;
  st->nx = pb->nx;
  st->na = pb->ny + pb->nu;
  st->nq = st->nx + st->na;
  st->np = pb->np;
  st->nw = rc_problem_nw(pb);
  st->nF = rc_problem_nF(pb);
  st->smax = smax;
  const size_t nq = (size_t)st->nq, m = (size_t)smax * nq;
  const size_t npair = (size_t)(smax / 2);
  st->p = zalloc((size_t)st->np, sizeof *st->p);
  st->x0 = zalloc((size_t)st->nx, sizeof *st->x0);
  st->Q = zalloc(m, sizeof *st->Q);
  st->R = zalloc(m, sizeof *st->R);
  st->B = zalloc(m, sizeof *st->B);
  st->dQ = zalloc(m, sizeof *st->dQ);
  st->w = zalloc((size_t)st->nw, sizeof *st->w);
  st->F = zalloc((size_t)st->nF, sizeof *st->F);
  st->jv = zalloc((size_t)pb->point.jac.nnz, sizeof *st->jv);
  st->J = zalloc(nq * nq, sizeof *st->J);
  st->Lr = zalloc(nq * nq, sizeof *st->Lr);
  st->pr = zalloc(nq, sizeof *st->pr);
  st->Lc = zalloc(npair * nq * nq, sizeof *st->Lc);
  st->pc = zalloc(npair * nq, sizeof *st->pc);
  st->U = zalloc(m, sizeof *st->U);
  if (!st->p || !st->x0 || !st->Q || !st->R || !st->B || !st->dQ || !st->w ||
      !st->F || !st->jv || !st->J || !st->Lr || !st->pr || !st->Lc || !st->pc ||
      !st->U) {
    rc_rstep_free(&st);
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory for a Radau step of %d stages and %d "
                        "unknowns per stage",
                        smax, (int)nq);
  }
  if (st->np > 0)
    memcpy(st->p, p, sizeof *p * (size_t)st->np);
  *out = st;
  return RC_OK;
}

int rc_rstep_stages_init(rc_rstep *st, int s, int *transformed) {
  if (s < 1 || s > st->smax)
    return -1;
  if (!st->rd[s]) {
    st->rd[s] = malloc(sizeof *st->rd[s]);
    st->eg[s] = malloc(sizeof *st->eg[s]);
    if (!st->rd[s] || !st->eg[s] || rc_radau_init(s, st->rd[s]) != 0) {
      free(st->rd[s]);
      free(st->eg[s]);
      st->rd[s] = NULL;
      st->eg[s] = NULL;
      return -1;
    }
    st->eg_ok[s] = rc_radau_eig_init(st->rd[s], st->eg[s]) == 0;
  }
  if (transformed)
    *transformed = st->eg_ok[s];
  return 0;
}

const double *rc_rstep_nodes(const rc_rstep *st, int s) {
  return s >= 1 && s <= st->smax && st->rd[s] ? st->rd[s]->c : NULL;
}

void rc_rstep_begin(rc_rstep *st, int s, double t, double h, double tend,
                    const double *x0) {
  st->s = s;
  st->t = t;
  st->h = h;
  st->tend = tend;
  const double *c = st->rd[s]->c;
  for (int j = 0; j < s - 1; ++j)
    st->tj[j] = t + c[j] * h;
  st->tj[s - 1] = tend;
  memcpy(st->x0, x0, sizeof *x0 * (size_t)st->nx);
}

double *rc_rstep_Q(rc_rstep *st) {
  return st->Q;
}

const double *rc_rstep_times(const rc_rstep *st) {
  return st->tj;
}

const rc_rstep_counts *rc_rstep_counters(const rc_rstep *st) {
  return &st->cnt;
}

const double *rc_rstep_J(const rc_rstep *st) {
  return st->J;
}

double rc_rstep_factor_h(const rc_rstep *st) {
  return st->tr_ok ? st->tr_h : 0.0;
}

int rc_rstep_use_transformed(rc_rstep *st) {
  if (!st->tr_ok)
    return -1;
  st->lu_mode = LU_TRANSFORMED;
  return 0;
}

/* ---- evaluations ----------------------------------------------------------
 */

static void point_w(rc_rstep *st, const double *q) {
  memcpy(st->w, q, sizeof *q * (size_t)st->nq);
  if (st->np > 0)
    memcpy(st->w + st->nq, st->p, sizeof *st->p * (size_t)st->np);
}

int rc_rstep_eval(rc_rstep *st, double t, const double *q, double *out) {
  point_w(st, q);
  const double t0 = rc_now_s();
  const int rc = st->pb->point.eval(st->pb, t, st->w, out);
  st->cnt.eval_s += rc_now_s() - t0;
  st->cnt.nfev++;
  if (rc == 0)
    for (int r = 0; r < st->pb->nc; ++r)
      out[st->nx + st->pb->ny + r] -= st->pb->c_lo[r];
  return rc;
}

/* Point Jacobian values at (t, q) into st->jv. */
static int point_jac(rc_rstep *st, double t, const double *q) {
  point_w(st, q);
  const double t0 = rc_now_s();
  const int rc = st->pb->point.jacobian(st->pb, t, st->w, st->jv);
  st->cnt.eval_s += rc_now_s() - t0;
  st->cnt.njac++;
  return rc;
}

int rc_rstep_jacobian(rc_rstep *st, double t, const double *q) {
  const int rc = point_jac(st, t, q);
  if (rc != 0)
    return rc;
  const rc_pattern *P = &st->pb->point.jac;
  const int nq = st->nq, nrow = st->nx + st->na;
  memset(st->J, 0, sizeof *st->J * (size_t)nq * (size_t)nq);
  for (int e = 0; e < P->nnz; ++e) {
    const int r = P->row[e], c = P->col[e];
    if (r < nrow && c < nq)
      st->J[(size_t)r * nq + c] += st->jv[e];
  }
  return 0;
}

/* Residual R of the current step at st->Q: 0 or the callback's status. */
static int residual(rc_rstep *st) {
  const int s = st->s, nx = st->nx, nq = st->nq;
  const double *D = st->rd[s]->D;
  for (int j = 0; j < s; ++j) {
    const double *q = st->Q + (size_t)j * nq;
    const int rc = rc_rstep_eval(st, st->tj[j], q, st->F);
    if (rc != 0)
      return rc;
    const double *Dj = D + (size_t)j * (s + 1);
    double *Rj = st->R + (size_t)j * nq;
    for (int i = 0; i < nx; ++i) {
      double acc = 0.0;
      for (int l = 0; l < s; ++l)
        acc += Dj[l + 1] * (st->Q[(size_t)l * nq + i] - st->x0[i]);
      Rj[i] = acc - st->h * st->F[i];
    }
    memcpy(Rj + nx, st->F + nx, sizeof *Rj * (size_t)st->na);
  }
  return 0;
}

/* sigma of algebraic row r at step length h */
static double row_sigma(const rc_rstep *st, int r, double h) {
  return st->vi && st->vi->row_hi[r] ? 1.0 / h : 1.0;
}

/* ---- factors --------------------------------------------------------------
 */

/* The block matrix lambda E - h S J for a real lambda into A. */
static void block_real(const rc_rstep *st, double lambda, double h, double *A) {
  const int nx = st->nx, nq = st->nq;
  for (int r = 0; r < nq; ++r) {
    const double f = r < nx ? -h : -h * row_sigma(st, r - nx, h);
    const double *Jr = st->J + (size_t)r * nq;
    double *Ar = A + (size_t)r * nq;
    for (int c = 0; c < nq; ++c)
      Ar[c] = f * Jr[c];
    if (r < nx)
      Ar[r] += lambda;
  }
}

/* Complex LU with partial pivoting; -1 on success, else the column. */
static int zlu_factor(int m, double complex *A, int *perm) {
  for (int k = 0; k < m; ++k) {
    int piv = k;
    double amax = cabs(A[(size_t)k * m + k]);
    for (int i = k + 1; i < m; ++i) {
      const double a = cabs(A[(size_t)i * m + k]);
      if (a > amax) {
        amax = a;
        piv = i;
      }
    }
    if (!(amax > 0.0) || !isfinite(amax))
      return k;
    perm[k] = piv;
    if (piv != k)
      for (int j = 0; j < m; ++j) {
        const double complex t = A[(size_t)k * m + j];
        A[(size_t)k * m + j] = A[(size_t)piv * m + j];
        A[(size_t)piv * m + j] = t;
      }
    const double complex inv = 1.0 / A[(size_t)k * m + k];
    for (int i = k + 1; i < m; ++i) {
      double complex *ri = A + (size_t)i * m;
      const double complex l = ri[k] * inv;
      ri[k] = l;
      if (l != 0.0) {
        const double complex *rk = A + (size_t)k * m;
        for (int j = k + 1; j < m; ++j)
          ri[j] -= l * rk[j];
      }
    }
  }
  return -1;
}

static void zlu_solve(int m, const double complex *A, const int *perm,
                      double complex *b) {
  for (int k = 0; k < m; ++k)
    if (perm[k] != k) {
      const double complex t = b[k];
      b[k] = b[perm[k]];
      b[perm[k]] = t;
    }
  for (int i = 1; i < m; ++i) {
    double complex acc = b[i];
    const double complex *ri = A + (size_t)i * m;
    for (int j = 0; j < i; ++j)
      acc -= ri[j] * b[j];
    b[i] = acc;
  }
  for (int i = m - 1; i >= 0; --i) {
    double complex acc = b[i];
    const double complex *ri = A + (size_t)i * m;
    for (int j = i + 1; j < m; ++j)
      acc -= ri[j] * b[j];
    b[i] = acc / ri[i];
  }
}

int rc_rstep_factor(rc_rstep *st) {
  const int s = st->s, nq = st->nq, nx = st->nx;
  const double h = st->h;
  st->lu_mode = LU_NONE;
  st->tr_ok = 0;
  if (!st->eg_ok[s])
    return -1;
  const rc_radau_eig *eg = st->eg[s];
  st->cnt.nlu++;
  if (eg->nreal == 1) {
    block_real(st, creal(eg->lambda[0]), h, st->Lr);
    if (rc_lu_factor(nq, st->Lr, st->pr, 0.0) >= 0)
      return -1;
  }
  for (int k = 0; k < eg->npair; ++k) {
    const double complex lam = eg->lambda[eg->nreal + k];
    double complex *A = st->Lc + (size_t)k * nq * nq;
    for (int r = 0; r < nq; ++r) {
      const double f = r < nx ? -h : -h * row_sigma(st, r - nx, h);
      const double *Jr = st->J + (size_t)r * nq;
      double complex *Ar = A + (size_t)r * nq;
      for (int c = 0; c < nq; ++c)
        Ar[c] = f * Jr[c];
      if (r < nx)
        Ar[r] += lam;
    }
    if (zlu_factor(nq, A, st->pc + (size_t)k * nq) >= 0)
      return -1;
  }
  st->lu_mode = LU_TRANSFORMED;
  st->tr_ok = 1;
  st->tr_s = s;
  st->tr_h = h;
  return 0;
}

int rc_rstep_factor_full(rc_rstep *st) {
  const int s = st->s, nq = st->nq, nx = st->nx, m = s * nq;
  const double h = st->h;
  const rc_pattern *P = &st->pb->point.jac;
  st->lu_mode = LU_NONE;
  st->full_ok = 0;
  if (!st->M) {
    const size_t mm = (size_t)st->smax * (size_t)nq;
    st->M = malloc(sizeof *st->M * (mm > 0 ? mm * mm : 1));
    st->pm = malloc(sizeof *st->pm * (mm ? mm : 1));
    if (!st->M || !st->pm) {
      free(st->M);
      free(st->pm);
      st->M = NULL;
      st->pm = NULL;
      return -1;
    }
  }
  const double *D = st->rd[s]->D;
  memset(st->M, 0, sizeof *st->M * (size_t)m * (size_t)m);
  for (int j = 0; j < s; ++j) {
    const int rc = point_jac(st, st->tj[j], st->Q + (size_t)j * nq);
    if (rc != 0)
      return rc == -1 ? -2 : rc;
    double *Mj = st->M + (size_t)j * nq * m;
    const double *Dj = D + (size_t)j * (s + 1);
    for (int i = 0; i < nx; ++i)
      for (int l = 0; l < s; ++l)
        Mj[(size_t)i * m + (size_t)l * nq + i] += Dj[l + 1];
    for (int e = 0; e < P->nnz; ++e) {
      const int r = P->row[e], c = P->col[e];
      if (r >= nx + st->na || c >= nq)
        continue;
      const double f = r < nx ? -h : -h * row_sigma(st, r - nx, h);
      Mj[(size_t)r * m + (size_t)j * nq + c] += f * st->jv[e];
    }
  }
  st->cnt.nlu++;
  if (rc_lu_factor(m, st->M, st->pm, 0.0) >= 0)
    return -1;
  st->lu_mode = LU_FULL;
  st->full_ok = 1;
  st->full_s = s;
  st->full_h = h;
  return 0;
}

/* ---- Newton ---------------------------------------------------------------
 */

/* b from R (the factors' h on the algebraic rows), then dQ. */
static void newton_step(rc_rstep *st) {
  const int s = st->s, nq = st->nq, nx = st->nx, m = s * nq;
  const double hl = st->lu_mode == LU_FULL ? st->full_h : st->tr_h;
  for (int j = 0; j < s; ++j) {
    const double *Rj = st->R + (size_t)j * nq;
    double *Bj = st->B + (size_t)j * nq;
    for (int i = 0; i < nx; ++i)
      Bj[i] = -Rj[i];
    for (int r = 0; r < st->na; ++r)
      Bj[nx + r] = hl * row_sigma(st, r, hl) * Rj[nx + r];
  }
  if (st->lu_mode == LU_FULL) {
    memcpy(st->dQ, st->B, sizeof *st->B * (size_t)m);
    rc_lu_solve(m, st->M, st->pm, st->dQ);
    return;
  }
  const rc_radau_eig *eg = st->eg[s];
  const int nblk = eg->nblk;
  for (int k = 0; k < nblk; ++k) {
    double complex *u = st->U + (size_t)k * nq;
    const double complex *vrow = eg->Vinv + (size_t)k * s;
    for (int i = 0; i < nq; ++i)
      u[i] = 0.0;
    for (int j = 0; j < s; ++j) {
      const double complex v = vrow[j];
      const double *Bj = st->B + (size_t)j * nq;
      for (int i = 0; i < nq; ++i)
        u[i] += v * Bj[i];
    }
  }
  if (eg->nreal == 1) {
    double *ur = st->dQ; /* scratch: the real block's solution */
    for (int i = 0; i < nq; ++i)
      ur[i] = creal(st->U[i]);
    rc_lu_solve(nq, st->Lr, st->pr, ur);
    for (int i = 0; i < nq; ++i)
      st->U[i] = ur[i];
  }
  for (int k = 0; k < eg->npair; ++k)
    zlu_solve(nq, st->Lc + (size_t)k * nq * nq, st->pc + (size_t)k * nq,
              st->U + (size_t)(eg->nreal + k) * nq);
  for (int j = 0; j < s; ++j) {
    double *dq = st->dQ + (size_t)j * nq;
    for (int i = 0; i < nq; ++i)
      dq[i] = 0.0;
    for (int k = 0; k < nblk; ++k) {
      const double complex v = eg->V[(size_t)j * nblk + k];
      const double complex *Wk = st->U + (size_t)k * nq;
      const double f = k < eg->nreal ? 1.0 : 2.0;
      for (int i = 0; i < nq; ++i)
        dq[i] += f * creal(v * Wk[i]);
    }
  }
}

static double scaled_norm(const rc_rstep *st, const double *v,
                          const double *scal, int max_norm) {
  const int s = st->s, nq = st->nq;
  double acc = 0.0;
  for (int j = 0; j < s; ++j)
    for (int i = 0; i < nq; ++i) {
      const double a = v[(size_t)j * nq + i] / scal[i];
      if (max_norm) {
        if (!(fabs(a) <= acc))
          acc = isnan(a) ? INFINITY : fabs(a);
      } else {
        acc += a * a;
      }
    }
  return max_norm ? acc : sqrt(acc / (double)(s * nq));
}

rc_rstep_status rc_rstep_solve(rc_rstep *st, const double *scal,
                               rc_rstep_newton *nw) {
  const int m = st->s * st->nq;
  nw->iters = 0;
  nw->theta = 0.0;
  nw->hfac = 0.5;
  nw->eval = 0;
  if (st->lu_mode == LU_NONE ||
      (st->lu_mode == LU_FULL ? st->full_s : st->tr_s) != st->s)
    return RC_RSTEP_NOLU;
  double faccon = nw->faccon, dynold = 0.0, thqold = 0.0, theta = 0.0;
  for (int k = 0; k < nw->maxit; ++k) {
    const int rc = residual(st);
    if (rc != 0) {
      nw->eval = rc;
      return RC_RSTEP_EVAL;
    }
    newton_step(st);
    st->cnt.niter++;
    nw->iters = k + 1;
    const double dyno = scaled_norm(st, st->dQ, scal, nw->max_norm);
    nw->dyno = dyno;
    if (!isfinite(dyno))
      return RC_RSTEP_DIVERGED;
    if (k >= 1) {
      const double thq = dyno / dynold;
      theta = k == 1 ? thq : sqrt(thq * thqold);
      thqold = thq;
      nw->theta = theta;
      /* contraction gone at the rounding floor: converged there */
      if (theta >= 0.5 && nw->scal_floor &&
          scaled_norm(st, st->dQ, nw->scal_floor, nw->max_norm) <= 1.0) {
        for (int i = 0; i < m; ++i)
          st->Q[i] += st->dQ[i];
        nw->faccon = faccon;
        return RC_RSTEP_CONVERGED;
      }
      if (theta < 0.99) {
        faccon = theta / (1.0 - theta);
        const double dyth =
            faccon * dyno * pow(theta, nw->maxit - 1 - k) / nw->fnewt;
        if (dyth >= 1.0 && !nw->no_predict) {
          const double qn = fmax(1e-4, fmin(20.0, dyth));
          nw->hfac = 0.8 * pow(qn, -1.0 / (4.0 + nw->maxit - 1 - k));
          nw->faccon = faccon;
          return RC_RSTEP_SLOW;
        }
      } else {
        if (!(k <= nw->allow_first && thq < 4.0)) {
          nw->faccon = faccon;
          return RC_RSTEP_DIVERGED;
        }
      }
    }
    dynold = fmax(dyno, 1e-300);
    for (int i = 0; i < m; ++i)
      st->Q[i] += st->dQ[i];
    /* never on the first iterate alone (see the header) */
    if ((k > 0 || nw->accept_first) && faccon * dyno <= nw->fnewt) {
      nw->faccon = faccon;
      return RC_RSTEP_CONVERGED;
    }
  }
  nw->faccon = faccon;
  return RC_RSTEP_SLOW;
}

/* ---- error estimate -------------------------------------------------------
 */

int rc_rstep_error(rc_rstep *st, const double *f0, const double *q0,
                   const double *scal, int improved, double *norm) {
  const int s = st->s, nq = st->nq, nx = st->nx;
  const double h = st->h;
  *norm = INFINITY;
  if (!st->tr_ok || st->tr_s != s || st->tr_h != h || !st->eg_ok[s] ||
      st->eg[s]->nreal != 1)
    return -1;
  const rc_radau_eig *eg = st->eg[s];
  const double g0 = eg->gamma0, lam = 1.0 / g0;
  double *c = st->B;    /* nq values; B is free after Newton */
  double *err = st->dQ; /* free after Newton */
  const double *f = f0;
  for (int pass = 0; pass < (improved ? 2 : 1); ++pass) {
    if (pass == 1) {
      double *qe = c; /* q0 + err, then F there into st->F */
      for (int i = 0; i < nq; ++i)
        qe[i] = q0[i] + err[i];
      const int rc = rc_rstep_eval(st, st->t, qe, st->F);
      if (rc != 0)
        return rc;
      f = st->F;
    }
    for (int i = 0; i < nx; ++i) {
      double acc = g0 * h * f[i];
      for (int j = 0; j < s; ++j)
        acc += eg->e[j] * (st->Q[(size_t)j * nq + i] - st->x0[i]);
      c[i] = lam * acc;
    }
    /* the start's algebraic residual is the last step's Newton error, not
     * a local error of this step: measured from it (0 in the first pass) */
    for (int r = 0; r < st->na; ++r)
      c[nx + r] = lam * g0 * h * row_sigma(st, r, h) * (f[nx + r] - f0[nx + r]);
    memcpy(err, c, sizeof *c * (size_t)nq);
    rc_lu_solve(nq, st->Lr, st->pr, err);
  }
  double e = 0.0;
  for (int i = 0; i < nq; ++i) {
    const double a = fabs(err[i]) / scal[i];
    if (!(a <= e))
      e = isnan(a) ? INFINITY : a;
  }
  *norm = e;
  return 0;
}
