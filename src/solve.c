/*
 * solve.c - rc_solve: validate, transcribe, pick the starting point, run
 * Ipopt, map the NLP solution back to a trajectory and report.
 *
 * Formulations with sampled_reference (e.g. the crane's exact inverse) are
 * not solved: their reference is sampled at the mesh nodes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipopt_adapter.h"
#include "radcol/solve.h"
#include "timing.h"
#include "transcription.h"

/* The transcription seen through the solver-neutral rc_ipopt_nlp. */
static int nlp_objective(void *c, const double *x, double *f) {
  return rc_nlp_objective(c, x, f);
}
static int nlp_gradient(void *c, const double *x, double *g) {
  return rc_nlp_gradient(c, x, g);
}
static int nlp_constraints(void *c, const double *x, double *g) {
  return rc_nlp_constraints(c, x, g);
}
static int nlp_jacobian(void *c, const double *x, double *v) {
  return rc_nlp_jacobian(c, x, v);
}
static int nlp_hessian(void *c, const double *x, double sigma,
                       const double *lambda, double *v) {
  return rc_nlp_hessian(c, x, sigma, lambda, v);
}
static void nlp_new_point(void *c) {
  rc_nlp_new_point(c);
}

/* Largest violation of constraint and variable bounds at x. */
static double max_violation(const double *v, const double *lo, const double *hi,
                            size_t n) {
  double m = 0.0;
  for (size_t i = 0; i < n; ++i) {
    double d = 0.0;
    if (v[i] < lo[i])
      d = lo[i] - v[i];
    else if (v[i] > hi[i])
      d = v[i] - hi[i];
    if (!(d <= m)) /* NaN counts */
      m = isnan(d) ? INFINITY : d;
  }
  return m;
}

static rc_err sample_reference(const rc_problem *pb, const rc_mesh *mesh,
                               rc_solution *sol, rc_solve_stats *stats,
                               rc_error *err) {
  rc_err rc = rc_solution_alloc(pb, mesh, pb->t0, pb->tf, 0, sol, err);
  if (rc != RC_OK)
    return rc;
  rc_solution_set_times(sol);
  const int nw = rc_problem_nw(pb);
  const int nref = pb->nx + pb->ny + pb->nu + pb->nout;
  double *ref = malloc(sizeof *ref * (size_t)sol->nnodes * (size_t)nref);
  if (!ref) {
    rc_solution_free(sol);
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory sampling the reference");
  }
  const double t0 = rc_now_s();
  const int st = pb->reference(pb, sol->nnodes, sol->t, ref);
  if (st != 0) {
    free(ref);
    rc_solution_free(sol);
    return rc_error_set(err, RC_ERR_EVAL,
                        "%s/%s: the reference failed (status %d)", pb->model,
                        pb->formulation, st);
  }
  for (int n = 0; n < sol->nnodes; ++n) {
    double *w = sol->w + (size_t)n * nw;
    memcpy(w, ref + (size_t)n * nref,
           sizeof *w * (size_t)(pb->nx + pb->ny + pb->nu));
    /* The reference covers x, y, u; parameters are 0 clipped to their
     * bounds (a sampled formulation has nothing to decide them). */
    for (int i = pb->nx + pb->ny + pb->nu; i < nw; ++i)
      w[i] = fmin(fmax(0.0, pb->w_lo[i]), pb->w_hi[i]);
  }
  free(ref);
  stats->status = RC_STATUS_NOT_RUN;
  stats->solver_status = 0;
  stats->wall_s = rc_now_s() - t0;
  stats->eval_s = stats->wall_s;
  snprintf(stats->message, sizeof stats->message,
           "%s/%s is solved without an NLP: its reference sampled at %d nodes",
           pb->model, pb->formulation, sol->nnodes);
  return RC_OK;
}

/* y(t0) for formulations that do not impose g at t0: Newton on
 * g(t0, x0, y, u0) = 0 from the stage extrapolation, where dg/dy is
 * nonsingular (index 1).  For index-2/3 forms (dg/dy singular, e.g. a
 * multiplier that appears only in f) node 0 keeps the extrapolation. The
 * dense output of y on element 0 interpolates node 0, so this removes the
 * extrapolation error there (solution.c). */
#define RC_T0_NEWTON_MAX_NY 32
static void t0_algebraic_values(const rc_problem *pb, rc_solution *sol) {
  const int nx = pb->nx, ny = pb->ny, nw = rc_problem_nw(pb);
  const int nF = rc_problem_nF(pb), nnz = pb->point.jac.nnz;
  if (pb->t0_algebraic || ny < 1 || ny > RC_T0_NEWTON_MAX_NY)
    return;
  double *w = malloc(sizeof *w * (size_t)(nw + nF + (nnz > 0 ? nnz : 1)));
  if (!w)
    return;
  double *F = w + nw, *J = F + nF;
  double G[RC_T0_NEWTON_MAX_NY * RC_T0_NEWTON_MAX_NY], r[RC_T0_NEWTON_MAX_NY];
  int ok = 0;
  memcpy(w, sol->w, sizeof *w * (size_t)nw);
  for (int it = 0; it < 10; ++it) {
    if (pb->point.eval(pb, sol->t0, w, F) != 0 ||
        pb->point.jacobian(pb, sol->t0, w, J) != 0)
      break;
    double ymax = 1.0, gmax = 0.0;
    for (int i = 0; i < ny; ++i) {
      ymax = fmax(ymax, fabs(w[nx + i]));
      gmax = fmax(gmax, fabs(F[nx + i]));
    }
    if (!isfinite(gmax))
      break;
    if (gmax <= 1e-14 * ymax) {
      ok = 1;
      break;
    }
    memset(G, 0, sizeof G);
    for (int e = 0; e < nnz; ++e) {
      const int row = pb->point.jac.row[e] - nx,
                col = pb->point.jac.col[e] - nx;
      if (row >= 0 && row < ny && col >= 0 && col < ny)
        G[row * ny + col] = J[e];
    }
    double gnorm = 0.0;
    for (int i = 0; i < ny * ny; ++i)
      gnorm = fmax(gnorm, fabs(G[i]));
    for (int i = 0; i < ny; ++i)
      r[i] = F[nx + i];
    /* Gaussian elimination with partial pivoting; a tiny pivot means
     * dg/dy is singular (not an index-1 algebraic variable). */
    int singular = !(gnorm > 0.0);
    for (int c = 0; c < ny && !singular; ++c) {
      int p = c;
      for (int i = c + 1; i < ny; ++i)
        if (fabs(G[i * ny + c]) > fabs(G[p * ny + c]))
          p = i;
      if (!(fabs(G[p * ny + c]) > 1e-10 * gnorm)) {
        singular = 1;
        break;
      }
      if (p != c) {
        for (int j = 0; j < ny; ++j) {
          const double tmp = G[c * ny + j];
          G[c * ny + j] = G[p * ny + j];
          G[p * ny + j] = tmp;
        }
        const double tmp = r[c];
        r[c] = r[p];
        r[p] = tmp;
      }
      for (int i = c + 1; i < ny; ++i) {
        const double m = G[i * ny + c] / G[c * ny + c];
        for (int j = c; j < ny; ++j)
          G[i * ny + j] -= m * G[c * ny + j];
        r[i] -= m * r[c];
      }
    }
    if (singular)
      break;
    double step = 0.0;
    for (int i = ny - 1; i >= 0; --i) {
      double acc = r[i];
      for (int j = i + 1; j < ny; ++j)
        acc -= G[i * ny + j] * r[j];
      r[i] = acc / G[i * ny + i];
      w[nx + i] -= r[i];
      step = fmax(step, fabs(r[i]));
    }
    if (step <= 1e-15 * ymax) {
      ok = 1;
      break;
    }
  }
  /* Accept only a converged point close to the extrapolation (a Newton
   * that wandered to another root is not the solution's value). */
  if (ok) {
    double far = 0.0, ymax = 1.0;
    for (int i = 0; i < ny; ++i) {
      far = fmax(far, fabs(w[nx + i] - sol->w[nx + i]));
      ymax = fmax(ymax, fabs(sol->w[nx + i]));
    }
    if (far <= 0.1 * ymax)
      memcpy(sol->w + nx, w + nx, sizeof *w * (size_t)ny);
  }
  free(w);
}

rc_err rc_solve(const rc_problem *pb, const rc_mesh *mesh,
                const rc_options *opt, const rc_solution *guess,
                rc_solution *sol, rc_solve_stats *stats, rc_error *err) {
  memset(sol, 0, sizeof *sol);
  memset(stats, 0, sizeof *stats);
  stats->status = RC_STATUS_FAILED;
  const double wall0 = rc_now_s();
  rc_err rc;
  if ((rc = rc_problem_validate(pb, err)) != RC_OK ||
      (rc = rc_options_validate(opt, err)) != RC_OK ||
      (rc = rc_mesh_validate(mesh, err)) != RC_OK)
    return rc;
  if (pb->sampled_reference)
    return sample_reference(pb, mesh, sol, stats, err);

  rc_nlp *nlp = NULL;
  if ((rc = rc_nlp_create(pb, mesh, &nlp, err)) != RC_OK)
    return rc;
  const size_t nv = (size_t)nlp->nvar, nc = (size_t)nlp->ncon;
  double *x = calloc(nv ? nv : 1, sizeof *x);
  double *lam = calloc(nc ? nc : 1, sizeof *lam);
  double *zl = calloc(nv ? nv : 1, sizeof *zl);
  double *zu = calloc(nv ? nv : 1, sizeof *zu);
  double *g = calloc(nc ? nc : 1, sizeof *g);
  double *lo = calloc(nv ? nv : 1, sizeof *lo),
         *hi = calloc(nv ? nv : 1, sizeof *hi);
  double *glo = calloc(nc ? nc : 1, sizeof *glo),
         *ghi = calloc(nc ? nc : 1, sizeof *ghi);
  if (!x || !lam || !zl || !zu || !g || !lo || !hi || !glo || !ghi) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory for %zu NLP variables",
                      nv);
    goto done;
  }
  rc_options o = *opt;
  if (guess) {
    rc = rc_nlp_from_solution(nlp, guess, x, o.warm_start ? lam : NULL, zl, zu,
                              err);
    if (o.warm_start && !guess->has_duals)
      o.warm_start = 0;
  } else {
    rc = rc_nlp_default_guess(nlp, x, err);
    o.warm_start = 0;
  }
  if (rc != RC_OK)
    goto done;

  stats->nvars = nlp->nvar;
  stats->ncons = nlp->ncon;
  stats->nnz_jac = nlp->nnz_jac;
  stats->nnz_hes = nlp->nnz_hes;
  rc_nlp_bounds(nlp, lo, hi, glo, ghi);
  const rc_ipopt_nlp view = {.n = nlp->nvar,
                             .m = nlp->ncon,
                             .nnz_jac = nlp->nnz_jac,
                             .nnz_hes = nlp->nnz_hes,
                             .x_lo = lo,
                             .x_hi = hi,
                             .g_lo = glo,
                             .g_hi = ghi,
                             .jac_row = nlp->jac_row,
                             .jac_col = nlp->jac_col,
                             .hes_row = nlp->hes_row,
                             .hes_col = nlp->hes_col,
                             .ctx = nlp,
                             .objective = nlp_objective,
                             .gradient = nlp_gradient,
                             .constraints = nlp_constraints,
                             .jacobian = nlp_jacobian,
                             .hessian = nlp_hessian,
                             .new_point = nlp_new_point};
  rc_ipopt_outcome res;
  rc_nlp_set_caching(nlp, 1);
  rc = rc_ipopt_solve(&view, &o, x, lam, zl, zu, &res, err);
  rc_nlp_set_caching(nlp, 0);
  if (rc != RC_OK)
    goto done;
  stats->status = res.status;
  stats->solver_status = res.app_status;
  stats->iterations = res.iterations;
  stats->objective = res.objective;
  stats->eval_s = res.eval_s;
  stats->ipopt_s = res.solve_s - res.eval_s;
  memcpy(stats->message, res.message, sizeof stats->message);

  /* Unscaled violation at the returned point. */
  const int st = rc_nlp_constraints(nlp, x, g);
  stats->constraint_violation = st != 0 ? INFINITY
                                        : fmax(max_violation(g, glo, ghi, nc),
                                               max_violation(x, lo, hi, nv));
  stats->dual_infeasibility = res.dual_infeasibility;

  if ((rc = rc_solution_alloc(pb, mesh, pb->t0, rc_nlp_tf(nlp, x), 1, sol,
                              err)) != RC_OK)
    goto done;
  rc_nlp_to_solution(nlp, x, lam, zl, zu, sol);
  t0_algebraic_values(pb, sol);
  stats->wall_s = rc_now_s() - wall0;
done:
  free(x);
  free(lam);
  free(zl);
  free(zu);
  free(g);
  free(lo);
  free(hi);
  free(glo);
  free(ghi);
  rc_nlp_free(&nlp);
  return rc;
}
