/*
 * nlp_solve.c - rc_nlp_solve (nlp/nlp_solve.h): validate, transcribe, pick
 * the starting point, run Ipopt (or Newton), map the NLP solution back to a
 * trajectory and report how the solver ended.  The public rc_solve
 * (accuracy/solve.c) adds the error estimate and the accuracy verdict; the
 * estimator and the refinement loop call this one directly.
 *
 * Formulations with sampled_reference (e.g. an exact inverse by flatness) are
 * not solved: their reference is sampled at the mesh nodes.  A problem with
 * objective_scale S hands Ipopt S * objective, a maximisation (maximize = 1)
 * -S * objective: with the factor F = +-S, the objective and the multipliers
 * reported (the progress callback's objective too) are divided by F again
 * (those of the problem as defined), and a warm start's multipliers are
 * multiplied by F.  A problem
 * that set `infeasible` (proved before solving) ends infeasible at the
 * starting point without Ipopt.
 *
 * Dispatch (opt->solver).  A square system (rc_nlp_square_system) is solved by
 * Newton element by element (newton.c) under RC_SOLVER_AUTO and
 * RC_SOLVER_NEWTON; under AUTO a Newton failure falls back to Ipopt from the
 * same guess, and stats->solver says "ipopt (newton fallback at element K)".
 * RC_SOLVER_NEWTON on a problem that is not square is bad input.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dense_lu.h"
#include "core/timing.h"
#include "nlp/ipopt_adapter.h"
#include "nlp/newton.h"
#include "nlp/nlp_solve.h"
#include "nlp/square.h"
#include "nlp/transcription.h"
#include "radcol/march.h"
#include "radcol/phases.h"

/* The problem's objective scale S (0 means 1). */
static double objective_scale(const rc_problem *pb) {
  return pb->objective_scale > 0.0 ? pb->objective_scale : 1.0;
}

/* F = S, or -S for a maximisation: Ipopt minimises F * objective, so its
 * multipliers are F times those of the problem as defined. */
static double objective_factor(const rc_problem *pb) {
  return pb->maximize ? -objective_scale(pb) : objective_scale(pb);
}

/* The transcription seen through the solver-neutral rc_ipopt_nlp, with the
 * objective (value, gradient, Hessian weight) multiplied by F. */
static int nlp_objective(void *c, const double *x, double *f) {
  const int st = rc_nlp_objective(c, x, f);
  *f *= objective_factor(((rc_nlp *)c)->pb);
  return st;
}
static int nlp_gradient(void *c, const double *x, double *g) {
  const rc_nlp *nlp = c;
  const int st = rc_nlp_gradient(c, x, g);
  const double S = objective_factor(nlp->pb);
  for (int i = 0; S != 1.0 && i < nlp->nvar; ++i)
    g[i] *= S;
  return st;
}
static int nlp_constraints(void *c, const double *x, double *g) {
  return rc_nlp_constraints(c, x, g);
}
static int nlp_jacobian(void *c, const double *x, double *v) {
  return rc_nlp_jacobian(c, x, v);
}
static int nlp_hessian(void *c, const double *x, double sigma,
                       const double *lambda, double *v) {
  return rc_nlp_hessian(c, x, sigma * objective_factor(((rc_nlp *)c)->pb),
                        lambda, v);
}

/* The caller's progress callback, seeing the objective of the problem as
 * defined (Ipopt's divided by F). */
typedef struct progress_ctx {
  rc_progress_fn fn;
  void *ctx;
  double factor;
} progress_ctx;
static void nlp_progress(void *c, int iter, double objective, double inf_pr,
                         double inf_du) {
  const progress_ctx *p = c;
  p->fn(p->ctx, iter, objective / p->factor, inf_pr, inf_du);
}
static void nlp_new_point(void *c) {
  rc_nlp_new_point(c);
}

/* Largest violation of constraint and variable bounds at x. */
double rc_nlp_max_violation(const double *v, const double *lo, const double *hi,
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

void rc_nlp_scale_duals(double f, size_t nv, size_t nc, double *lam, double *zl,
                        double *zu) {
  for (size_t i = 0; f != 1.0 && i < nc; ++i)
    lam[i] *= f;
  for (size_t i = 0; f != 1.0 && i < nv; ++i) {
    zl[i] *= f;
    zu[i] *= f;
  }
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
  stats->objective_scale = 1.0;
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

/* How far the Bernstein coefficients of the element-0 dense output of y_i
 * with node-0 value y0 leave [lo, hi] (0 inside): M is the degree-s
 * conversion on element 0's nodes. */
static double t0_bernstein_excess(const rc_problem *pb, const rc_solution *sol,
                                  const double *M, int i, double y0) {
  const int s = sol->mesh.stages[0], nw = rc_problem_nw(pb), col = pb->nx + i;
  double excess = 0.0;
  for (int m = 0; m <= s; ++m) {
    double beta = M[m * (s + 1)] * y0;
    for (int l = 1; l <= s; ++l)
      beta += M[m * (s + 1) + l] * sol->w[(size_t)l * nw + col];
    excess = fmax(excess, fmax(pb->w_lo[col] - beta, beta - pb->w_hi[col]));
  }
  return excess;
}

/* With dense bounds, a bounded y keeps the Newton value at t0 only when the
 * element-0 dense output through it satisfies the Bernstein condition no
 * worse than through the stage extrapolation (whose polynomial is the
 * stage-only one the rows bound, docs/dense-bounds.md section 1a); else
 * node 0 keeps the extrapolation.  Returns 1 to keep the Newton values. */
static int t0_keeps_bounds(const rc_problem *pb, const rc_solution *sol,
                           const double *ynew) {
  const int s = sol->mesh.stages[0];
  if (s < 1 || s > RC_MAX_STAGES)
    return 0;
  double theta[RC_MAX_STAGES + 1], M[(RC_MAX_STAGES + 1) * (RC_MAX_STAGES + 1)];
  const double h = sol->t[s] - sol->t[0];
  for (int l = 0; l <= s; ++l)
    theta[l] = (sol->t[l] - sol->t[0]) / h;
  theta[s] = 1.0;
  if (!(h > 0) || rc_bernstein_inverse(s, theta, M) != 0)
    return 0;
  for (int i = 0; i < pb->ny; ++i) {
    if (!rc_nlp_dense_bounded(pb, pb->nx + i))
      continue;
    const double scale = fmax(1.0, fabs(sol->w[pb->nx + i]));
    if (t0_bernstein_excess(pb, sol, M, i, ynew[i]) >
        t0_bernstein_excess(pb, sol, M, i, sol->w[pb->nx + i]) + 1e-13 * scale)
      return 0;
  }
  return 1;
}

static void t0_algebraic_values(const rc_problem *pb, rc_solution *sol,
                                int dense_bounds) {
  const int nx = pb->nx, ny = pb->ny, nw = rc_problem_nw(pb);
  const int nF = rc_problem_nF(pb), nnz = pb->point.jac.nnz;
  if (pb->t0_algebraic || ny < 1 || ny > RC_T0_NEWTON_MAX_NY)
    return;
  double *w = malloc(sizeof *w * (size_t)(nw + nF + (nnz > 0 ? nnz : 1)));
  if (!w)
    return;
  double *F = w + nw, *J = F + nF;
  double G[RC_T0_NEWTON_MAX_NY * RC_T0_NEWTON_MAX_NY], r[RC_T0_NEWTON_MAX_NY];
  int perm[RC_T0_NEWTON_MAX_NY];
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
    for (int i = 0; i < ny; ++i)
      r[i] = F[nx + i];
    /* a pivot below 1e-10 max |dg/dy| means dg/dy is singular (not an
     * index-1 algebraic variable) */
    if (rc_lu_solve_once(ny, G, perm, r, 1e-10) >= 0)
      break;
    double step = 0.0;
    for (int i = 0; i < ny; ++i) {
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
    if (far <= 0.1 * ymax &&
        (!dense_bounds || t0_keeps_bounds(pb, sol, w + nx)))
      memcpy(sol->w + nx, w + nx, sizeof *w * (size_t)ny);
  }
  free(w);
}

int rc_nlp_square_system(const rc_problem *pb, char *why, size_t len) {
  return rc_square_check(pb, why, len);
}

void rc_nlp_vectors_free(rc_nlp_vectors *v) {
  free(v->x);
  free(v->lam);
  free(v->zl);
  free(v->zu);
  free(v->g);
  free(v->lo);
  free(v->hi);
  free(v->glo);
  free(v->ghi);
}

int rc_nlp_vectors_alloc(rc_nlp_vectors *v, size_t nv, size_t nc) {
  v->x = calloc(nv ? nv : 1, sizeof *v->x);
  v->lam = calloc(nc ? nc : 1, sizeof *v->lam);
  v->zl = calloc(nv ? nv : 1, sizeof *v->zl);
  v->zu = calloc(nv ? nv : 1, sizeof *v->zu);
  v->g = calloc(nc ? nc : 1, sizeof *v->g);
  v->lo = calloc(nv ? nv : 1, sizeof *v->lo);
  v->hi = calloc(nv ? nv : 1, sizeof *v->hi);
  v->glo = calloc(nc ? nc : 1, sizeof *v->glo);
  v->ghi = calloc(nc ? nc : 1, sizeof *v->ghi);
  return v->x && v->lam && v->zl && v->zu && v->g && v->lo && v->hi && v->glo &&
         v->ghi;
}

/* Ipopt on the NLP from v->x (with caching of the node blocks), or, for a
 * problem proved infeasible, the status without a solve. */
static rc_err run_ipopt(rc_nlp *nlp, const rc_options *opt, rc_nlp_vectors *v,
                        rc_ipopt_outcome *res, rc_error *err) {
  const rc_problem *pb = nlp->pb;
  rc_options oo = *opt;
  progress_ctx pc = {opt->progress, opt->progress_ctx, objective_factor(pb)};
  if (opt->progress && pc.factor != 1.0) {
    oo.progress = nlp_progress;
    oo.progress_ctx = &pc;
  }
  const rc_options *o = &oo;
  const rc_ipopt_nlp view = {.n = nlp->nvar,
                             .m = nlp->ncon,
                             .nnz_jac = nlp->nnz_jac,
                             .nnz_hes = nlp->nnz_hes,
                             .x_lo = v->lo,
                             .x_hi = v->hi,
                             .g_lo = v->glo,
                             .g_hi = v->ghi,
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
  rc_err rc = RC_OK;
  rc_nlp_set_caching(nlp, 1);
  if (pb->infeasible) { /* proved by the problem: no NLP to run */
    memset(res, 0, sizeof *res);
    res->status = RC_STATUS_INFEASIBLE;
    if (nlp_objective(nlp, v->x, &res->objective) != 0)
      res->objective = NAN;
    snprintf(res->message, sizeof res->message,
             "not solved, infeasible before solving: %s", pb->infeasible);
  } else {
    rc = rc_ipopt_solve(&view, o, v->x, v->lam, v->zl, v->zu, res, err);
  }
  rc_nlp_set_caching(nlp, 0);
  return rc;
}

/* The outcome in stats, back on the problem as defined (objective and every
 * multiplier divided by the factor F = +-S), with the unscaled violation at
 * the returned point. */
static void record_outcome(rc_nlp *nlp, const rc_ipopt_outcome *res,
                           rc_nlp_vectors *v, rc_solve_stats *stats) {
  const double F = objective_factor(nlp->pb);
  const size_t nv = (size_t)nlp->nvar, nc = (size_t)nlp->ncon;
  stats->status = res->status;
  stats->solver_status = res->app_status;
  stats->iterations = res->iterations;
  stats->objective = res->objective / F;
  stats->objective_scale = objective_scale(nlp->pb);
  rc_nlp_scale_duals(1.0 / F, nv, nc, v->lam, v->zl, v->zu);
  stats->eval_s = res->eval_s;
  stats->ipopt_s = res->solve_s - res->eval_s;
  memcpy(stats->message, res->message, sizeof stats->message);
  const int st = rc_nlp_constraints(nlp, v->x, v->g);
  stats->constraint_violation =
      st != 0 ? INFINITY
              : fmax(rc_nlp_max_violation(v->g, v->glo, v->ghi, nc),
                     rc_nlp_max_violation(v->x, v->lo, v->hi, nv));
  stats->dual_infeasibility = res->dual_infeasibility;
}

static rc_err solve_nlp(const rc_problem *pb, const rc_mesh *mesh,
                        const rc_options *opt, const rc_solution *guess,
                        rc_solution *sol, rc_solve_stats *stats,
                        rc_error *err) {
  const double wall0 = rc_now_s();
  rc_err rc;
  rc_nlp *nlp = NULL;
  if ((rc = rc_nlp_create(pb, mesh, opt->dense_bounds, &nlp, err)) != RC_OK)
    return rc;
  const size_t nv = (size_t)nlp->nvar, nc = (size_t)nlp->ncon;
  rc_nlp_vectors v;
  rc_ipopt_outcome res;
  if (!rc_nlp_vectors_alloc(&v, nv, nc)) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory for %zu NLP variables",
                      nv);
    goto done;
  }
  rc_options o = *opt;
  if (guess) {
    rc = rc_nlp_from_solution(nlp, guess, v.x, o.warm_start ? v.lam : NULL,
                              v.zl, v.zu, err);
    if (o.warm_start && !guess->has_duals)
      o.warm_start = 0;
    rc_nlp_scale_duals(objective_factor(pb), nv, nc, v.lam, v.zl, v.zu);
  } else {
    rc = rc_nlp_default_guess(nlp, v.x, err);
    o.warm_start = 0;
  }
  if (rc != RC_OK)
    goto done;
  stats->nvars = nlp->nvar;
  stats->ncons = nlp->ncon;
  stats->nnz_jac = nlp->nnz_jac;
  stats->nnz_hes = nlp->nnz_hes;
  rc_nlp_bounds(nlp, v.lo, v.hi, v.glo, v.ghi);
  if ((rc = run_ipopt(nlp, &o, &v, &res, err)) != RC_OK)
    goto done;
  record_outcome(nlp, &res, &v, stats);
  if ((rc = rc_solution_alloc(pb, mesh, pb->t0, rc_nlp_tf(nlp, v.x), 1, sol,
                              err)) != RC_OK)
    goto done;
  rc_nlp_to_solution(nlp, v.x, v.lam, v.zl, v.zu, sol);
  t0_algebraic_values(pb, sol, opt->dense_bounds);
  stats->wall_s = rc_now_s() - wall0;
done:
  rc_nlp_vectors_free(&v);
  rc_nlp_free(&nlp);
  return rc;
}

/* A non-finite value in a solution is never a converged result (issue 28
 * item 3): a sampled reference that gives one is bad input found late
 * (RC_ERR_EVAL, nothing to write); a solver outcome that claims success
 * with one becomes failed. */
static rc_err check_finite(const rc_problem *pb, rc_solution *sol,
                           rc_solve_stats *stats, rc_error *err) {
  const int nw = rc_problem_nw(pb);
  for (int n = 0; sol->w && n < sol->nnodes; ++n)
    for (int i = 0; i < nw; ++i) {
      const double v = sol->w[(size_t)n * nw + i];
      if (isfinite(v))
        continue;
      if (pb->sampled_reference) {
        rc_error_set(err, RC_ERR_EVAL,
                     "%s/%s: its reference gives %s = %g at t = %.17g: "
                     "expected finite values (the problem cannot be "
                     "evaluated with these parameters)",
                     pb->model, pb->formulation, pb->var_names[i], v,
                     sol->t[n]);
        rc_solution_free(sol);
        memset(sol, 0, sizeof *sol);
        return RC_ERR_EVAL;
      }
      if (stats->status == RC_STATUS_CONVERGED ||
          stats->status == RC_STATUS_ACCEPTABLE) {
        stats->status = RC_STATUS_FAILED;
        snprintf(stats->message, sizeof stats->message,
                 "the solution holds %s = %g at t = %.17g: not converged",
                 pb->var_names[i], v, sol->t[n]);
      }
      return RC_OK;
    }
  return RC_OK;
}

static rc_err solve_dispatch(const rc_problem *pb, const rc_mesh *mesh,
                             const rc_options *opt, const rc_solution *guess,
                             rc_solution *sol, rc_solve_stats *stats,
                             rc_error *err);

rc_err rc_nlp_solve(const rc_problem *pb, const rc_mesh *mesh,
                    const rc_options *opt, const rc_solution *guess,
                    rc_solution *sol, rc_solve_stats *stats, rc_error *err) {
  rc_err rc = solve_dispatch(pb, mesh, opt, guess, sol, stats, err);
  return rc == RC_OK ? check_finite(pb, sol, stats, err) : rc;
}

static rc_err solve_dispatch(const rc_problem *pb, const rc_mesh *mesh,
                             const rc_options *opt, const rc_solution *guess,
                             rc_solution *sol, rc_solve_stats *stats,
                             rc_error *err) {
  memset(sol, 0, sizeof *sol);
  rc_solve_stats_begin(stats);
  rc_err rc;
  if ((rc = rc_problem_validate(pb, err)) != RC_OK ||
      (rc = rc_options_validate(opt, err)) != RC_OK ||
      (rc = rc_mesh_validate(mesh, err)) != RC_OK ||
      (rc = rc_mesh_check_horizon(
           mesh, pb->t0, pb->free_tf ? pb->tf_lo : pb->tf, err)) != RC_OK ||
      (rc = rc_ipopt_check_options(opt, err)) != RC_OK)
    return rc;
  if (pb->sampled_reference) {
    snprintf(stats->solver, sizeof stats->solver, "sampled reference");
    if (opt->solver == RC_SOLVER_NEWTON)
      return rc_error_set(err, RC_ERR_INPUT,
                          "solver newton: %s/%s is not solved (its reference "
                          "is sampled on the mesh)",
                          pb->model, pb->formulation);
    return sample_reference(pb, mesh, sol, stats, err);
  }
  if (pb->data) /* data at interior times: the multiphase NLP, one phase */
    return rc_phases_solve_problem(pb, mesh, opt, guess, sol, stats, err);
  char why[160];
  int square = rc_nlp_square_system(pb, why, sizeof why);
  if (square && mesh->nseg > 0) { /* the durations are decisions */
    square = 0;
    snprintf(why, sizeof why, "the mesh has free breakpoints");
  }
  if (opt->solver == RC_SOLVER_NEWTON && !square)
    return rc_error_set(err, RC_ERR_INPUT,
                        "solver newton: %s/%s is not a square system (%s); "
                        "Newton solves initial-value problems only, expected "
                        "solver auto or ipopt",
                        pb->model, pb->formulation, why);
  int fallback = -1;
  char newton_msg[RC_MESSAGE_MAX] = "";
  if (square && opt->solver != RC_SOLVER_IPOPT) {
    if ((rc = rc_newton_solve(pb, mesh, opt, guess, sol, stats, err)) != RC_OK)
      return rc;
    if (stats->status == RC_STATUS_CONVERGED) {
      t0_algebraic_values(pb, sol, opt->dense_bounds);
      return RC_OK;
    }
    fallback = stats->newton_fallback_element;
    rc_solution_free(sol);
    /* the march's Newton (scaled tests, any index; march.h) before Ipopt */
    if ((rc = rc_march_mesh(pb, mesh, opt, opt->tol, 0, guess, sol, stats,
                            err)) != RC_OK)
      return rc;
    if (stats->status == RC_STATUS_CONVERGED ||
        opt->solver == RC_SOLVER_NEWTON) {
      if (stats->status == RC_STATUS_CONVERGED)
        snprintf(stats->solver, sizeof stats->solver,
                 "newton (scaled from element %d)", fallback);
      t0_algebraic_values(pb, sol, opt->dense_bounds);
      return RC_OK;
    }
    fallback = stats->newton_fallback_element;
    memcpy(newton_msg, stats->message, sizeof newton_msg);
    rc_solution_free(sol);
    memset(sol, 0, sizeof *sol);
    memset(stats, 0, sizeof *stats);
    stats->status = RC_STATUS_FAILED;
    stats->objective_scale = 1.0;
  }
  rc = solve_nlp(pb, mesh, opt, guess, sol, stats, err);
  stats->newton_fallback_element = fallback;
  if (fallback < 0) {
    snprintf(stats->solver, sizeof stats->solver, "ipopt");
  } else {
    snprintf(stats->solver, sizeof stats->solver,
             "ipopt (newton fallback at element %d)", fallback);
    /* An initial-value problem is not infeasible: its collocation
     * equations on this mesh were not solved (Newton did not reach a
     * solution from the flow, Ipopt found none near its start). */
    char m[RC_MESSAGE_MAX];
    if (rc == RC_OK && stats->status == RC_STATUS_INFEASIBLE) {
      stats->status = RC_STATUS_FAILED;
      snprintf(m, sizeof m,
               "the collocation equations on this mesh were not solved: "
               "Ipopt found no point satisfying them near its start after "
               "%d iterations; before Ipopt: %.250s",
               stats->iterations, newton_msg);
    } else {
      snprintf(m, sizeof m, "%.200s; before Ipopt: %.250s", stats->message,
               newton_msg);
    }
    memcpy(stats->message, m, sizeof m);
  }
  return rc;
}

/* y(t0) after an NLP solve, as rc_solve does it (for the phases, which
 * transcribe each phase through the same rc_nlp). */
void rc_nlp_fill_t0_values(const rc_problem *pb, rc_solution *sol,
                           int dense_bounds) {
  t0_algebraic_values(pb, sol, dense_bounds);
}
