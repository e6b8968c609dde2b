/*
 * newton.c - the square-system path: Radau IIA collocation equations solved
 * by Newton's method element by element along the mesh (an implicit Radau
 * IIA integrator on the given mesh).
 *
 * When it applies (rc_square_system, solve.h): no objective, no boundary
 * constraints, every x(t0) fixed, no x(tf) fixed, tf fixed, every parameter
 * fixed by equal bounds, every path constraint an equality and as many path
 * equalities as controls (nu == nc), so each stage has as many equations as
 * unknowns.  Finite simple bounds are allowed: they are checked on the
 * result (a solution inside every bound is feasible for the NLP, hence its
 * solution; one outside means the NLP, which enforces the bound, has another
 * answer, and the solve is reported as failed, which makes the automatic
 * solver fall back to Ipopt).
 *
 * The equations are those of transcription.h.  With q = (x, y, u) at a stage
 * (nq = nx + ny + nu values), h_k = (tf - t0) sigma_k, the stage times of
 * the transcription, X_k0 the state at the element start (known: x0, or the
 * previous element's last stage) and Z = (q_k1, ..., q_ks) the unknowns:
 *
 *   collocation  sum_{l=0..s} D_jl X_kl - h_k f(t_kj, w_kj) = 0   (nx rows)
 *   algebraic    g(t_kj, w_kj) = 0                               (ny rows)
 *   path         c(t_kj, w_kj) - c_lo = 0                        (nc rows)
 *
 * stage-major, rows and unknowns of stage j at j nq.  The element Jacobian
 * is dense, s nq square: D_jl on the state diagonal of block (j, l), plus the
 * problem's point Jacobian (scaled by -h_k in the collocation rows) in block
 * (j, j), scattered from its pattern.  With t0_algebraic the NLP also holds
 * (y, u) at t0 and imposes g, c there: that node-0 system is solved first.
 *
 * Newton.  Simplified Newton: the LU factors (partial pivoting, hand-rolled:
 * at these sizes, 5..100, a plain triple loop beats calling GSL) are kept
 * from element to element while they converge; the contraction theta =
 * |dZ_i| / |dZ_{i-1}| (scaled max norm, |v| / (1 + |Z|)) triggers a fresh
 * Jacobian at the current iterate when theta > 0.1, and divergence (theta >=
 * 1) with fresh factors ends an attempt.  Converged when the residual max
 * norm or the last step |dZ| is <= eps = 0.01 tol, tol the solver tolerance
 * (1e-10: the Ipopt path's), or when the steps stop shrinking below 100 eps
 * (the roundoff floor of an ill-conditioned element).  The linear-rate
 * estimate theta / (1 - theta) |dZ| is not used: measured on an index-1
 * built-in formulation (docs/performance.md) it accepted iterates with
 * residuals of 1e-10 while Ipopt's were 1e-15.
 * Predictors, tried in order, each for at most
 * newton_max_iter iterations: the previous element's polynomials
 * extrapolated (x degree s, y and u degree s - 1; the guess in element 0),
 * then the previous element's end held constant with a fresh Jacobian, then
 * the guess (the given trajectory, the problem's guess function, or x0 and
 * zeros clipped to the bounds).
 *
 * Multipliers: with no objective the NLP's stationarity is J^T lambda = 0
 * with J (restricted to the free variables) square and nonsingular, so every
 * dual is zero; the solution is allocated with duals, all zero.
 *
 * Sizes are fixed at setup; nothing is allocated in the element loop.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nlp/newton.h"

#include "collocation/radau.h"
#include "core/dense_lu.h"
#include "core/timing.h"
#include "nlp/transcription.h"

/* Contraction above which the Jacobian is refreshed at the current iterate
 * (measured on an index-1 formulation, n = 30 and 1000: 0.5 took 33-120 % more
 * iterations, 0.03 up to 43 % more Jacobians for up to 35 % fewer
 * iterations; docs/performance.md). */
#define NEWTON_THETA_REFRESH 0.1

typedef struct newton_ctx {
  const rc_problem *pb;
  const rc_mesh *mesh;
  const rc_solution *guess;
  int nx, ny, nu, np, nc, nq, nw;
  int maxit;
  double eps; /* error / residual threshold */
  double t0, tf;
  rc_radau *radau; /* RC_MAX_STAGES + 1 tables, [s] valid if used */

  /* workspace */
  double *Z, *R, *dZ, *M; /* element unknowns, residual, step, LU factors */
  int *perm;
  double *Zprev; /* previous element's stage values */
  double *xstart, *xprev_start;
  double *w, *F, *jv, *p;
  double tj[RC_MAX_STAGES];
  int lu_s; /* stages of the factors held in M (0: none) */

  /* statistics */
  long long iters, njac, nnz;
  double eval_s, viol;
  int eval_status; /* last nonzero callback status */
} newton_ctx;

/* max_i |v_i| / (1 + |z_i|) */
static double scaled_norm(int m, const double *v, const double *z) {
  double r = 0.0;
  for (int i = 0; i < m; ++i) {
    const double a = fabs(v[i]) / (1.0 + fabs(z[i]));
    if (!(a <= r))
      r = isnan(a) ? INFINITY : a;
  }
  return r;
}

static double max_abs(int m, const double *v) {
  double r = 0.0;
  for (int i = 0; i < m; ++i)
    if (!(fabs(v[i]) <= r))
      r = isnan(v[i]) ? INFINITY : fabs(v[i]);
  return r;
}

/* ---- the element system ---------------------------------------------------
 */

static void stage_w(const newton_ctx *c, const double *q) {
  memcpy(c->w, q, sizeof *q * (size_t)c->nq);
  memcpy(c->w + c->nq, c->p, sizeof *c->p * (size_t)c->np);
}

/* R(Z) of element (s, h) with start state xs; 0 or the callback's status. */
static int residual(newton_ctx *c, int s, double h, const double *xs) {
  const rc_problem *pb = c->pb;
  const int nx = c->nx, ny = c->ny, nq = c->nq;
  const rc_radau *rd = &c->radau[s];
  const double t0 = rc_now_s();
  int st = 0;
  for (int j = 0; j < s && st == 0; ++j) {
    stage_w(c, c->Z + (size_t)j * nq);
    if ((st = pb->point.eval(pb, c->tj[j], c->w, c->F)) != 0)
      break;
    const double *D = rd->D + (size_t)j * (s + 1);
    double *Rj = c->R + (size_t)j * nq;
    for (int i = 0; i < nx; ++i) {
      double r = D[0] * xs[i];
      for (int l = 1; l <= s; ++l)
        r += D[l] * c->Z[(size_t)(l - 1) * nq + i];
      Rj[i] = r - h * c->F[i];
    }
    for (int r = 0; r < ny; ++r)
      Rj[nx + r] = c->F[nx + r];
    for (int r = 0; r < c->nc; ++r)
      Rj[nx + ny + r] = c->F[nx + ny + r] - pb->c_lo[r];
  }
  c->eval_s += rc_now_s() - t0;
  if (st != 0)
    c->eval_status = st;
  return st;
}

/* Jacobian of R at Z into M, then factorised.  0, a callback status, or -1
 * for a singular matrix. */
static int refresh(newton_ctx *c, int s, double h) {
  const rc_problem *pb = c->pb;
  const rc_pattern *P = &pb->point.jac;
  const int nx = c->nx, nq = c->nq, m = s * nq, nrow = nx + c->ny + c->nc;
  const rc_radau *rd = &c->radau[s];
  const double t0 = rc_now_s();
  memset(c->M, 0, sizeof *c->M * (size_t)m * (size_t)m);
  int st = 0;
  for (int j = 0; j < s; ++j) {
    stage_w(c, c->Z + (size_t)j * nq);
    if ((st = pb->point.jacobian(pb, c->tj[j], c->w, c->jv)) != 0)
      break;
    const double *D = rd->D + (size_t)j * (s + 1);
    double *Mj = c->M + (size_t)j * nq * m; /* rows of stage j */
    for (int i = 0; i < nx; ++i)
      for (int l = 1; l <= s; ++l)
        Mj[(size_t)i * m + (size_t)(l - 1) * nq + i] += D[l];
    for (int e = 0; e < P->nnz; ++e) {
      const int r = P->row[e], col = P->col[e];
      if (col >= nq || r >= nrow)
        continue; /* fixed parameters; no Lagrange row in a square system */
      Mj[(size_t)r * m + (size_t)j * nq + col] +=
          r < nx ? -h * c->jv[e] : c->jv[e];
    }
  }
  c->eval_s += rc_now_s() - t0;
  if (st != 0) {
    c->eval_status = st;
    c->lu_s = 0;
    return st;
  }
  c->njac++;
  c->nnz += (long long)m * m;
  if (rc_lu_factor(m, c->M, c->perm, 0.0) >= 0) {
    c->lu_s = 0;
    return -1;
  }
  c->lu_s = s;
  return 0;
}

/* Newton on the element from the predictor in c->Z; 1 if converged.  With
 * allow_stale the factors left by the previous element are tried first. */
static int element_newton(newton_ctx *c, int s, double h, const double *xs,
                          int allow_stale) {
  const int m = s * c->nq;
  int fresh = 0;
  if (!allow_stale || c->lu_s != s) {
    if (refresh(c, s, h) != 0)
      return 0;
    fresh = 1;
  }
  if (residual(c, s, h, xs) != 0)
    return 0;
  if (max_abs(m, c->R) <= c->eps) {
    c->viol = fmax(c->viol, max_abs(m, c->R));
    return 1;
  }
  double nd_prev = 0.0;
  int have_prev = 0;
  for (int it = 1; it <= c->maxit; ++it) {
    for (int i = 0; i < m; ++i)
      c->dZ[i] = -c->R[i];
    rc_lu_solve(m, c->M, c->perm, c->dZ);
    for (int i = 0; i < m; ++i)
      c->Z[i] += c->dZ[i];
    const double nd = scaled_norm(m, c->dZ, c->Z);
    c->iters++;
    const int st = residual(c, s, h, xs);
    const double nres = st == 0 ? max_abs(m, c->R) : INFINITY;
    const double theta = have_prev ? nd / nd_prev : 0.0;
    /* converged: residual or last step below eps, or the steps stopped
     * shrinking at the roundoff floor (within 100 eps) */
    if (isfinite(nres) && (nres <= c->eps || nd <= c->eps ||
                           (have_prev && theta >= 1.0 && nd <= 100 * c->eps))) {
      if (nres > c->viol)
        c->viol = nres;
      return 1;
    }
    if (!isfinite(nres) || (have_prev && theta >= 1.0)) {
      /* diverging: step back; a stale Jacobian gets one refresh there */
      if (fresh)
        return 0;
      for (int i = 0; i < m; ++i)
        c->Z[i] -= c->dZ[i];
      if (refresh(c, s, h) != 0 || residual(c, s, h, xs) != 0)
        return 0;
      fresh = 1;
      have_prev = 0;
      continue;
    }
    if (have_prev && theta > NEWTON_THETA_REFRESH) {
      /* slow: a fresh Jacobian at the current iterate (R is current) */
      if (refresh(c, s, h) != 0)
        return 0;
      fresh = 1;
      have_prev = 0;
      continue;
    }
    nd_prev = nd;
    have_prev = 1;
  }
  return 0;
}

/* ---- predictors ------------------------------------------------------------
 */

/* The guess's point vector at time t into w (nw values). */
static int guess_at(newton_ctx *c, double t, double *w) {
  const rc_problem *pb = c->pb;
  memset(w, 0, sizeof *w * (size_t)c->nw);
  if (c->guess) {
    const double tg = fmin(fmax(t, c->guess->t0), c->guess->tf);
    if (rc_solution_eval(c->guess, tg, w, NULL) != RC_OK)
      return -1;
  } else if (pb->guess) {
    if (pb->guess(pb, t, w) != 0)
      return -1;
  } else {
    for (int i = 0; i < c->nx; ++i)
      w[i] = pb->x0[i];
    for (int i = c->nx; i < c->nw; ++i)
      w[i] = fmin(fmax(0.0, pb->w_lo[i]), pb->w_hi[i]);
  }
  return 0;
}

static int predict_guess(newton_ctx *c, int s) {
  for (int j = 0; j < s; ++j) {
    if (guess_at(c, c->tj[j], c->w) != 0)
      return -1;
    memcpy(c->Z + (size_t)j * c->nq, c->w, sizeof *c->w * (size_t)c->nq);
  }
  return 0;
}

/* x at the start state, (y, u) from ylast (nq - nx values) at every stage. */
static void predict_constant(newton_ctx *c, int s, const double *xs,
                             const double *ylast) {
  for (int j = 0; j < s; ++j) {
    double *q = c->Z + (size_t)j * c->nq;
    memcpy(q, xs, sizeof *xs * (size_t)c->nx);
    memcpy(q + c->nx, ylast, sizeof *ylast * (size_t)(c->nq - c->nx));
  }
}

/* The previous element (sp stages, length hp, start state xps, stages in
 * Zprev) extrapolated to the new stage times (element length h). */
static void predict_extrapolate(newton_ctx *c, int s, double h, int sp,
                                double hp, const double *xps) {
  const rc_radau *rp = &c->radau[sp];
  const int nx = c->nx, nq = c->nq;
  double lx[RC_RADAU_MAX_STAGES + 1], ly[RC_RADAU_MAX_STAGES];
  for (int j = 0; j < s; ++j) {
    const double th = 1.0 + c->radau[s].c[j] * h / hp;
    rc_lagrange_basis(sp + 1, rp->tau, rp->bw_state, th, lx);
    rc_lagrange_basis(sp, rp->c, rp->bw_stage, th, ly);
    double *q = c->Z + (size_t)j * nq;
    for (int i = 0; i < nx; ++i) {
      double v = lx[0] * xps[i];
      for (int l = 1; l <= sp; ++l)
        v += lx[l] * c->Zprev[(size_t)(l - 1) * nq + i];
      q[i] = v;
    }
    for (int i = nx; i < nq; ++i) {
      double v = 0.0;
      for (int l = 0; l < sp; ++l)
        v += ly[l] * c->Zprev[(size_t)l * nq + i];
      q[i] = sp == 1 ? c->Zprev[i] : v;
    }
  }
}

/* ---- node 0: (y, u) at t0 from g, c (t0_algebraic) ----------------------- */

static int node0_residual(newton_ctx *c, const double *w0, double *r) {
  const rc_problem *pb = c->pb;
  const double t0 = rc_now_s();
  const int st = pb->point.eval(pb, c->t0, w0, c->F);
  c->eval_s += rc_now_s() - t0;
  if (st != 0) {
    c->eval_status = st;
    return st;
  }
  for (int i = 0; i < c->ny; ++i)
    r[i] = c->F[c->nx + i];
  for (int i = 0; i < c->nc; ++i)
    r[c->ny + i] = c->F[c->nx + c->ny + i] - pb->c_lo[i];
  return 0;
}

/* Full Newton on the m0 = ny + nu unknowns of w0 (entries nx..nq-1). */
static int node0_newton(newton_ctx *c, double *w0) {
  const rc_problem *pb = c->pb;
  const rc_pattern *P = &pb->point.jac;
  const int nx = c->nx, m0 = c->nq - nx, nrow = nx + c->ny + c->nc;
  double *r = c->R, *M = c->M, *d = c->dZ;
  if (node0_residual(c, w0, r) != 0)
    return 0;
  for (int it = 1; it <= c->maxit; ++it) {
    if (max_abs(m0, r) <= c->eps)
      return 1;
    const double t0 = rc_now_s();
    const int st = pb->point.jacobian(pb, c->t0, w0, c->jv);
    c->eval_s += rc_now_s() - t0;
    if (st != 0) {
      c->eval_status = st;
      return 0;
    }
    memset(M, 0, sizeof *M * (size_t)m0 * (size_t)m0);
    for (int e = 0; e < P->nnz; ++e) {
      const int row = P->row[e], col = P->col[e];
      if (row < nx || row >= nrow || col < nx || col >= c->nq)
        continue;
      M[(size_t)(row - nx) * m0 + (col - nx)] += c->jv[e];
    }
    c->njac++;
    c->nnz += (long long)m0 * m0;
    c->lu_s = 0; /* M no longer holds element factors */
    if (rc_lu_factor(m0, M, c->perm, 0.0) >= 0)
      return 0;
    for (int i = 0; i < m0; ++i)
      d[i] = -r[i];
    rc_lu_solve(m0, M, c->perm, d);
    for (int i = 0; i < m0; ++i)
      w0[nx + i] += d[i];
    c->iters++;
    if (node0_residual(c, w0, r) != 0)
      return 0;
    if (scaled_norm(m0, d, w0 + nx) <= c->eps && max_abs(m0, r) <= 1e3 * c->eps)
      return 1;
  }
  return max_abs(m0, r) <= c->eps;
}

/* ---- driver ----------------------------------------------------------------
 */

static void ctx_free(newton_ctx *c) {
  free(c->radau);
  free(c->Z);
  free(c->R);
  free(c->dZ);
  free(c->M);
  free(c->perm);
  free(c->Zprev);
  free(c->xstart);
  free(c->xprev_start);
  free(c->w);
  free(c->F);
  free(c->jv);
  free(c->p);
}

static void *xmalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

/* Stage times of element k, as the transcription computes them. */
static void stage_times(newton_ctx *c, int k, int s) {
  const double *frac = c->mesh->frac;
  const double sigma = frac[k + 1] - frac[k], T = c->tf - c->t0;
  for (int j = 0; j < s - 1; ++j)
    c->tj[j] = c->t0 + T * (frac[k] + c->radau[s].c[j] * sigma);
  c->tj[s - 1] = c->t0 + T * frac[k + 1];
}

/* First node whose value leaves a finite bound, or -1; *var gets the entry. */
static int bound_violation(const newton_ctx *c, const rc_solution *sol,
                           int t0_alg, int *var) {
  const rc_problem *pb = c->pb;
  for (int n = 0; n < sol->nnodes; ++n) {
    const double *w = sol->w + (size_t)n * c->nw;
    const int nchk = n == 0 && !t0_alg ? c->nx : c->nq;
    for (int i = 0; i < nchk; ++i)
      if (w[i] < pb->w_lo[i] || w[i] > pb->w_hi[i]) {
        *var = i;
        return n;
      }
  }
  return -1;
}

/* The element systems' workspace for the largest stage count of the mesh,
 * the Radau tables of its stage counts and the fixed parameters. */
static rc_err ctx_setup(newton_ctx *c, rc_error *err) {
  const rc_problem *pb = c->pb;
  const rc_mesh *mesh = c->mesh;
  const int smax = rc_mesh_max_stages(mesh);
  const size_t mmax = (size_t)smax * (size_t)c->nq;
  c->radau = xmalloc(RC_MAX_STAGES + 1, sizeof *c->radau);
  c->Z = xmalloc(mmax, sizeof(double));
  c->R = xmalloc(mmax, sizeof(double));
  c->dZ = xmalloc(mmax, sizeof(double));
  c->M = xmalloc(mmax * mmax, sizeof(double));
  c->perm = xmalloc(mmax, sizeof(int));
  c->Zprev = xmalloc(mmax, sizeof(double));
  c->xstart = xmalloc((size_t)c->nx, sizeof(double));
  c->xprev_start = xmalloc((size_t)c->nx, sizeof(double));
  c->w = xmalloc((size_t)c->nw, sizeof(double));
  c->F = xmalloc((size_t)rc_problem_nF(pb), sizeof(double));
  c->jv = xmalloc((size_t)pb->point.jac.nnz, sizeof(double));
  c->p = xmalloc((size_t)c->np, sizeof(double));
  if (!c->radau || !c->Z || !c->R || !c->dZ || !c->M || !c->perm || !c->Zprev ||
      !c->xstart || !c->xprev_start || !c->w || !c->F || !c->jv || !c->p)
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory for Newton's element systems (%zu "
                        "unknowns)",
                        mmax);
  for (int k = 0; k < mesh->n; ++k) {
    const int s = mesh->stages[k];
    if (c->radau[s].s == 0 && rc_radau_init(s, &c->radau[s]) != 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "stages %d in element %d: expected 1..%d", s, k,
                          RC_MAX_STAGES);
  }
  for (int i = 0; i < c->np; ++i)
    c->p[i] = pb->w_lo[c->nq + i]; /* fixed: lo == hi */
  return RC_OK;
}

/* Node 0 into w0: x0, the parameters, and (y, u) from the guess, solved
 * for the algebraic equations when they hold at t0.  Returns 0, or -1 with
 * the reason in why. */
static int start_node(newton_ctx *c, int t0_alg, double *w0, char *why,
                      size_t len) {
  const rc_problem *pb = c->pb;
  int fail = 0;
  if (guess_at(c, pb->t0, w0) != 0) {
    fail = -1;
    snprintf(why, len, "the guess failed at t0 = %g", pb->t0);
  }
  memcpy(w0, pb->x0, sizeof *w0 * (size_t)c->nx);
  memcpy(w0 + c->nq, c->p, sizeof *c->p * (size_t)c->np);
  if (!fail && t0_alg && c->nq > c->nx && !node0_newton(c, w0)) {
    fail = -1;
    snprintf(why, len,
             "Newton did not converge on the algebraic equations at t0 = %g "
             "in %d iterations",
             pb->t0, c->maxit);
  }
  memcpy(c->xstart, pb->x0, sizeof *c->xstart * (size_t)c->nx);
  return fail;
}

/* Element by element: predict (extrapolated from the previous element, or
 * the guess, or constant), Newton, and the other predictors when it fails;
 * the stage values go into sol.  Returns the first element that did not
 * converge (why says why), or -1. */
static int march_elements(newton_ctx *c, rc_solution *sol, char *why,
                          size_t len) {
  const rc_problem *pb = c->pb;
  const rc_mesh *mesh = c->mesh;
  const double *w0 = sol->w;
  int sp = 0;
  double hp = 0.0;
  for (int k = 0; k < mesh->n; ++k) {
    const int s = mesh->stages[k];
    const double h = (pb->tf - pb->t0) * (mesh->frac[k + 1] - mesh->frac[k]);
    stage_times(c, k, s);
    /* (y, u) to hold constant: the previous element's last stage, or t0 */
    const double *ylast =
        k == 0 ? w0 + c->nx : c->Zprev + (size_t)(sp - 1) * c->nq + c->nx;
    int ok = 0;
    if (k > 0)
      predict_extrapolate(c, s, h, sp, hp, c->xprev_start);
    else if (predict_guess(c, s) != 0)
      predict_constant(c, s, c->xstart, ylast);
    ok = element_newton(c, s, h, c->xstart, 1);
    if (!ok) {
      predict_constant(c, s, c->xstart, ylast);
      ok = element_newton(c, s, h, c->xstart, 0);
    }
    if (!ok && k > 0 && predict_guess(c, s) == 0)
      ok = element_newton(c, s, h, c->xstart, 0);
    if (!ok) {
      snprintf(why, len,
               "Newton did not converge in element %d (t in [%g, %g], %d "
               "stages) from any predictor in %d iterations each%s",
               k, c->tj[s - 1] - h, c->tj[s - 1], s, c->maxit,
               c->eval_status ? " (a problem function failed)" : "");
      return k;
    }
    const int off = sol->elem_off[k];
    for (int j = 0; j < s; ++j) {
      double *w = sol->w + (size_t)(1 + off + j) * c->nw;
      memcpy(w, c->Z + (size_t)j * c->nq, sizeof *w * (size_t)c->nq);
      memcpy(w + c->nq, c->p, sizeof *w * (size_t)c->np);
    }
    memcpy(c->xprev_start, c->xstart, sizeof *c->xstart * (size_t)c->nx);
    memcpy(c->xstart, c->Z + (size_t)(s - 1) * c->nq,
           sizeof *c->xstart * (size_t)c->nx);
    memcpy(c->Zprev, c->Z, sizeof *c->Z * (size_t)s * (size_t)c->nq);
    sp = s;
    hp = h;
  }
  return -1;
}

/* The stats of the square path: its Newton counts, the NLP sizes for the
 * record, and the status with why (fail_elem >= 0: failed there). */
static void newton_stats(const newton_ctx *c, const rc_nlp_counts *sz,
                         int fail_elem, const char *why, double wall0,
                         rc_solve_stats *stats) {
  stats->nvars = sz->nvars > INT_MAX ? INT_MAX : (int)sz->nvars;
  stats->ncons = sz->ncons > INT_MAX ? INT_MAX : (int)sz->ncons;
  stats->iterations = c->iters > INT_MAX ? INT_MAX : (int)c->iters;
  stats->objective = 0.0;
  stats->constraint_violation = fail_elem < 0 ? c->viol : INFINITY;
  stats->dual_infeasibility = 0.0;
  stats->nnz_jac = c->nnz > INT_MAX ? INT_MAX : (int)c->nnz;
  stats->nnz_hes = 0;
  stats->eval_s = c->eval_s;
  stats->wall_s = rc_now_s() - wall0;
  stats->ipopt_s = stats->wall_s - c->eval_s;
  stats->solver_status = 0;
  stats->newton_fallback_element = fail_elem;
  snprintf(stats->solver, sizeof stats->solver, "newton");
  if (fail_elem < 0) {
    stats->status = RC_STATUS_CONVERGED;
    snprintf(stats->message, sizeof stats->message,
             "Newton converged in every element: %d elements, %lld "
             "iterations, %lld Jacobians, max residual %.2e",
             c->mesh->n, c->iters, c->njac, c->viol);
  } else {
    stats->status = RC_STATUS_FAILED;
    snprintf(stats->message, sizeof stats->message, "%s", why);
  }
}

rc_err rc_newton_solve(const rc_problem *pb, const rc_mesh *mesh,
                       const rc_options *opt, const rc_solution *guess,
                       rc_solution *sol, rc_solve_stats *stats, rc_error *err) {
  const double wall0 = rc_now_s();
  newton_ctx c;
  memset(&c, 0, sizeof c);
  c.pb = pb;
  c.mesh = mesh;
  c.nx = pb->nx;
  c.ny = pb->ny;
  c.nu = pb->nu;
  c.np = pb->np;
  c.nc = pb->nc;
  c.nq = pb->nx + pb->ny + pb->nu;
  c.nw = rc_problem_nw(pb);
  c.maxit = opt->newton_max_iter;
  c.eps = 0.01 * opt->tol;
  c.t0 = pb->t0;
  c.tf = pb->tf;
  if (guess) {
    if (guess->nx != pb->nx || guess->ny != pb->ny || guess->nu != pb->nu ||
        guess->np != pb->np)
      return rc_error_set(err, RC_ERR_INPUT,
                          "guess sizes nx=%d ny=%d nu=%d np=%d, expected "
                          "nx=%d ny=%d nu=%d np=%d",
                          guess->nx, guess->ny, guess->nu, guess->np, pb->nx,
                          pb->ny, pb->nu, pb->np);
    c.guess = guess;
  }
  rc_err rc;
  if ((rc = ctx_setup(&c, err)) != RC_OK ||
      (rc = rc_solution_alloc(pb, mesh, pb->t0, pb->tf, 1, sol, err)) !=
          RC_OK) {
    ctx_free(&c);
    return rc;
  }
  /* NLP sizes, for the record: the transcription's count (rc_nlp_count)
   * without the dense-bound rows, which the square path does not impose */
  rc_nlp_counts sz;
  rc_nlp_count(pb, mesh, 0, &sz);
  const int t0_alg = pb->t0_algebraic && (c.ny + c.nu > 0 || c.nc > 0);
  double *w0 = sol->w;
  char why[256] = "";
  int fail_elem = start_node(&c, t0_alg, w0, why, sizeof why) == 0
                      ? march_elements(&c, sol, why, sizeof why)
                      : 0;
  if (fail_elem >= 0) {
    /* The rest holds the last converged state, so the file is well formed. */
    const int n0 = fail_elem == 0 ? 1 : 1 + sol->elem_off[fail_elem];
    const double *last = sol->w + (size_t)(n0 - 1) * c.nw;
    for (int n = n0; n < sol->nnodes; ++n)
      memcpy(sol->w + (size_t)n * c.nw, last, sizeof *last * (size_t)c.nw);
  }
  if (!t0_alg && c.nq > c.nx && sol->nnodes > 1) {
    /* y, u at t0: element-0 stage extrapolation, as the NLP path reports
     * them (rc_solution_eval would interpolate node 0, i.e. the guess) */
    if (rc_solution_eval_stages(sol, sol->t0, c.w, NULL) == RC_OK)
      memcpy(w0 + c.nx, c.w + c.nx, sizeof *w0 * (size_t)(c.nq - c.nx));
  }
  int var = -1;
  const int nb = fail_elem < 0 ? bound_violation(&c, sol, t0_alg, &var) : -1;
  if (nb >= 0) {
    fail_elem = nb == 0 ? 0 : rc_solution_element(sol, sol->t[nb]);
    snprintf(why, sizeof why,
             "the square system's solution leaves the bounds [%g, %g] of %s "
             "at t = %g (value %.6g), so the NLP's answer differs",
             pb->w_lo[var], pb->w_hi[var], pb->var_names[var], sol->t[nb],
             sol->w[(size_t)nb * c.nw + var]);
  }
  newton_stats(&c, &sz, fail_elem, why, wall0, stats);
  ctx_free(&c);
  return RC_OK;
}
