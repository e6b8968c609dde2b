/*
 * phases_solve.c - the solve of a multiphase problem (radcol/phases.h): the
 * composed NLP (phases_nlp.c) through Ipopt, mapped back to one solution per
 * phase.
 *
 * It follows rc_solve (solve.c) step for step: the objective factor S (the
 * objective scale, negated when the phases maximise) multiplies the
 * objective Ipopt sees and divides every reported objective and multiplier; a
 * warm start's multipliers are multiplied by S; a phase proved infeasible
 * before solving ends the whole solve infeasible at the starting point.  Each
 * phase's mesh gets a breakpoint at its data times (rc_data_mesh); the
 * solutions carry those meshes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/timing.h"
#include "nlp/ipopt_adapter.h"
#include "nlp/nlp_solve.h"
#include "nlp/phases_nlp.h"
#include "radcol/dense_check.h"
#include "radcol/phases.h"

#define RC_PATH_BACKOFF_MU 1e-2 /* the re-solves' starting barrier */

static const char *phase_name(const rc_phases *ph, int k) {
  const char *n = ph->phase[k].name;
  return n && n[0] ? n : "?";
}

/* The local problems and the meshes with breakpoints at the data times;
 * c_lo, c_hi: NULL, or per phase the path bounds to solve with (the
 * back-off). */
static rc_err prepare(const rc_phases *ph, const rc_mesh *meshes,
                      double *const *c_lo, double *const *c_hi, rc_problem *pb,
                      rc_mesh *mesh, rc_error *err) {
  rc_err rc = RC_OK;
  for (int k = 0; k < ph->nphases && rc == RC_OK; ++k) {
    if ((rc = rc_phases_local_problem(ph, k, &pb[k], NULL, err)) != RC_OK)
      break;
    if (c_lo && pb[k].nc > 0) {
      pb[k].c_lo = c_lo[k];
      pb[k].c_hi = c_hi[k];
    }
    if ((rc = rc_mesh_validate(&meshes[k], err)) != RC_OK) {
      char m[RC_MESSAGE_MAX];
      snprintf(m, sizeof m, "%s", err ? err->message : "");
      rc = rc_error_set(err, rc, "phase %s: mesh: %s", phase_name(ph, k), m);
      break;
    }
    rc = pb[k].data
             ? rc_data_mesh(&pb[k], pb[k].data, &meshes[k], &mesh[k], err)
             : rc_mesh_copy(&meshes[k], &mesh[k], err);
  }
  return rc;
}

rc_err rc_phases_count(const rc_phases *ph, const rc_mesh *meshes,
                       int dense_bounds, rc_phases_counts *c, rc_error *err) {
  rc_err rc = rc_phases_validate(ph, err);
  if (rc != RC_OK)
    return rc;
  const size_t n = (size_t)ph->nphases;
  rc_problem *pb = calloc(n, sizeof *pb);
  rc_mesh *mesh = calloc(n, sizeof *mesh);
  if (!pb || !mesh)
    rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory");
  else if ((rc = prepare(ph, meshes, NULL, NULL, pb, mesh, err)) == RC_OK)
    rc = rc_pnlp_count(ph, pb, mesh, dense_bounds, c, err);
  for (size_t k = 0; mesh && k < n; ++k)
    rc_mesh_free(&mesh[k]);
  free(pb);
  free(mesh);
  return rc;
}

/* ---- the solve ------------------------------------------------------------
 */

typedef struct solve_ctx {
  rc_pnlp *p;
  double S; /* objective factor: the scale, negative for a maximisation */
} solve_ctx;

static int cb_objective(void *c, const double *x, double *f) {
  const solve_ctx *s = c;
  const int st = rc_pnlp_objective(s->p, x, f);
  *f *= s->S;
  return st;
}
static int cb_gradient(void *c, const double *x, double *g) {
  const solve_ctx *s = c;
  const int st = rc_pnlp_gradient(s->p, x, g);
  for (int i = 0; s->S != 1.0 && i < s->p->nvar; ++i)
    g[i] *= s->S;
  return st;
}
static int cb_constraints(void *c, const double *x, double *g) {
  return rc_pnlp_constraints(((solve_ctx *)c)->p, x, g);
}
static int cb_jacobian(void *c, const double *x, double *v) {
  return rc_pnlp_jacobian(((solve_ctx *)c)->p, x, v);
}
static int cb_hessian(void *c, const double *x, double sigma,
                      const double *lambda, double *v) {
  const solve_ctx *s = c;
  return rc_pnlp_hessian(s->p, x, sigma * s->S, lambda, v);
}
static void cb_new_point(void *c) {
  rc_pnlp_new_point(((solve_ctx *)c)->p);
}

static double phases_scale(const rc_phases *ph) {
  if (ph->objective_scale > 0)
    return ph->objective_scale;
  double s0 = 0;
  for (int k = 0; k < ph->nphases; ++k) {
    const double s = ph->phase[k].pb->objective_scale > 0
                         ? ph->phase[k].pb->objective_scale
                         : 1.0;
    if (k == 0)
      s0 = s;
    else if (s != s0)
      return 1.0;
  }
  return s0 > 0 ? s0 : 1.0;
}

static rc_err result_alloc(rc_phases_solution *out, int nph, int nlink,
                           rc_error *err) {
  const size_t n = (size_t)nph, nl = (size_t)(nlink ? nlink : 1);
  out->nphases = nph;
  out->pb = calloc(n, sizeof *out->pb);
  out->sol = calloc(n, sizeof *out->sol);
  out->start = calloc(n, sizeof(double));
  out->duration = calloc(n, sizeof(double));
  out->objective = calloc(n, sizeof(double));
  out->data_objective = calloc(n, sizeof(double));
  out->nlink = nlink;
  out->link_name = calloc(nl, sizeof(char *));
  out->link_boundary = calloc(nl, sizeof(int));
  out->link_value = calloc(nl, sizeof(double));
  out->link_lo = calloc(nl, sizeof(double));
  out->link_hi = calloc(nl, sizeof(double));
  out->link_dual = calloc(nl, sizeof(double));
  if (!out->pb || !out->sol || !out->start || !out->duration ||
      !out->objective || !out->data_objective || !out->link_name ||
      !out->link_boundary || !out->link_value || !out->link_lo ||
      !out->link_hi || !out->link_dual)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for the result");
  return RC_OK;
}

/* Solution of every phase, starts, durations, objectives and the linkage
 * rows at the point v->x with its multipliers (already unscaled). */
static rc_err fill_result(rc_pnlp *p, const rc_options *opt, rc_nlp_vectors *v,
                          rc_phases_solution *out, rc_error *err) {
  rc_err rc = RC_OK;
  double S = p->pb[0].t0;
  for (int k = 0; k < p->nph && rc == RC_OK; ++k) {
    const rc_nlp *n = p->nlp[k];
    const int o = p->voff[k], c = p->coff[k];
    const double tf = rc_nlp_tf(n, v->x + o);
    if ((rc = rc_solution_alloc(&p->pb[k], &p->mesh[k], p->pb[k].t0, tf, 1,
                                &out->sol[k], err)) != RC_OK)
      break;
    rc_nlp_to_solution(n, v->x + o, v->lam + c, v->zl + o, v->zu + o,
                       &out->sol[k]);
    rc_nlp_fill_t0_values(&p->pb[k], &out->sol[k], opt->dense_bounds);
    out->start[k] = S;
    out->duration[k] = tf - p->pb[k].t0;
    S += out->duration[k];
    if (rc_pnlp_phase_objective(p, k, v->x, &out->objective[k],
                                &out->data_objective[k]) != 0)
      out->objective[k] = out->data_objective[k] = NAN;
  }
  if (rc != RC_OK)
    return rc;
  if (rc_pnlp_link_objective(p, v->x, &out->link_objective) != 0)
    out->link_objective = NAN;
  for (int r = 0; r < p->nlrow; ++r) {
    char name[256];
    rc_pnlp_row_name(p, r, name, sizeof name);
    out->link_name[r] = strdup(name);
    if (!out->link_name[r])
      return rc_error_set(err, RC_ERR_NOMEM, "out of memory");
    out->link_boundary[r] = p->row[r].boundary;
    out->link_value[r] = v->g[p->link_off + r];
    out->link_lo[r] = v->glo[p->link_off + r];
    out->link_hi[r] = v->ghi[p->link_off + r];
    out->link_dual[r] = v->lam[p->link_off + r];
  }
  return RC_OK;
}

static const char *first_infeasible(const rc_phases *ph, int *k) {
  for (*k = 0; *k < ph->nphases; ++*k)
    if (ph->phase[*k].pb->infeasible)
      return ph->phase[*k].pb->infeasible;
  return NULL;
}

/* One solve of the phases with path bounds c_lo, c_hi (NULL: the
 * problems' own); the result reports the problems' own bounds. */
static rc_err solve_once(const rc_phases *ph, const rc_mesh *meshes,
                         const rc_options *opt, const rc_solution *guesses,
                         double *const *c_lo, double *const *c_hi,
                         rc_phases_solution *out, rc_solve_stats *stats,
                         rc_error *err) {
  const double wall0 = rc_now_s();
  memset(out, 0, sizeof *out);
  rc_solve_stats_begin(stats);
  rc_err rc;
  if ((rc = rc_phases_validate(ph, err)) != RC_OK ||
      (rc = rc_options_validate(opt, err)) != RC_OK ||
      (rc = rc_ipopt_check_options(opt, err)) != RC_OK)
    return rc;
  if (!meshes)
    return rc_error_set(err, RC_ERR_INPUT, "expected one mesh per phase");
  const int nph = ph->nphases;
  rc_problem *pb = calloc((size_t)nph, sizeof *pb);
  rc_mesh *mesh = calloc((size_t)nph, sizeof *mesh);
  rc_pnlp *p = NULL;
  rc_nlp_vectors v;
  memset(&v, 0, sizeof v);
  if (!pb || !mesh) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory");
    goto done;
  }
  if ((rc = prepare(ph, meshes, c_lo, c_hi, pb, mesh, err)) != RC_OK ||
      (rc = rc_pnlp_create(ph, pb, mesh, opt->dense_bounds, &p, err)) != RC_OK)
    goto done;
  const size_t nv = (size_t)p->nvar, nc = (size_t)p->ncon;
  /* Ipopt minimises S * objective; S = -scale when the phases maximise
   * (every phase does, rc_phases_validate), as rc_solve does for one */
  const double S =
      ph->phase[0].pb->maximize ? -phases_scale(ph) : phases_scale(ph);
  if (!rc_nlp_vectors_alloc(&v, nv, nc)) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory for %zu NLP variables",
                      nv);
    goto done;
  }
  rc_options o = *opt;
  int have_duals = 0;
  for (int k = 0; guesses && k < nph; ++k)
    have_duals |= guesses[k].nnodes > 0 && guesses[k].has_duals;
  if (!guesses || !have_duals)
    o.warm_start = 0;
  if ((rc = rc_pnlp_guess(p, guesses, v.x, o.warm_start ? v.lam : NULL, v.zl,
                          v.zu, err)) != RC_OK)
    goto done;
  rc_nlp_scale_duals(S, nv, nc, v.lam, v.zl, v.zu);
  rc_pnlp_bounds(p, v.lo, v.hi, v.glo, v.ghi);
  for (size_t i = 0; i < nv; ++i) /* as rc_nlp_from_solution does */
    v.x[i] = fmin(fmax(v.x[i], v.lo[i]), v.hi[i]);
  stats->nvars = p->nvar;
  stats->ncons = p->ncon;
  stats->nnz_jac = p->nnz_jac;
  stats->nnz_hes = p->nnz_hes;
  solve_ctx ctx = {p, S};
  rc_ipopt_outcome res;
  memset(&res, 0, sizeof res);
  int bad = 0;
  const char *why = first_infeasible(ph, &bad);
  rc_pnlp_set_caching(p, 1);
  if (why) {
    res.status = RC_STATUS_INFEASIBLE;
    if (cb_objective(&ctx, v.x, &res.objective) != 0)
      res.objective = NAN;
    snprintf(res.message, sizeof res.message,
             "not solved, infeasible before solving: phase %s: %s",
             phase_name(ph, bad), why);
  } else {
    const rc_ipopt_nlp view = {.n = p->nvar,
                               .m = p->ncon,
                               .nnz_jac = p->nnz_jac,
                               .nnz_hes = p->nnz_hes,
                               .x_lo = v.lo,
                               .x_hi = v.hi,
                               .g_lo = v.glo,
                               .g_hi = v.ghi,
                               .jac_row = p->jac_row,
                               .jac_col = p->jac_col,
                               .hes_row = p->hes_row,
                               .hes_col = p->hes_col,
                               .ctx = &ctx,
                               .objective = cb_objective,
                               .gradient = cb_gradient,
                               .constraints = cb_constraints,
                               .jacobian = cb_jacobian,
                               .hessian = cb_hessian,
                               .new_point = cb_new_point};
    rc = rc_ipopt_solve(&view, &o, v.x, v.lam, v.zl, v.zu, &res, err);
  }
  rc_pnlp_set_caching(p, 0);
  if (rc != RC_OK)
    goto done;
  stats->status = res.status;
  stats->solver_status = res.app_status;
  stats->iterations = res.iterations;
  stats->objective = res.objective / S;
  stats->objective_scale = fabs(S);
  rc_nlp_scale_duals(1.0 / S, nv, nc, v.lam, v.zl, v.zu);
  stats->eval_s = res.eval_s;
  stats->ipopt_s = res.solve_s - res.eval_s;
  memcpy(stats->message, res.message, sizeof stats->message);
  stats->constraint_violation =
      rc_pnlp_constraints(p, v.x, v.g) != 0
          ? INFINITY
          : fmax(rc_nlp_max_violation(v.g, v.glo, v.ghi, nc),
                 rc_nlp_max_violation(v.x, v.lo, v.hi, nv));
  stats->dual_infeasibility = res.dual_infeasibility;
  snprintf(stats->solver, sizeof stats->solver, "ipopt");
  if ((rc = result_alloc(out, nph, p->nlrow, err)) != RC_OK)
    goto done;
  for (int k = 0; k < nph; ++k) {
    out->pb[k] = pb[k];
    out->pb[k].c_lo = ph->phase[k].pb->c_lo; /* not the back-off's */
    out->pb[k].c_hi = ph->phase[k].pb->c_hi;
  }
  if ((rc = fill_result(p, opt, &v, out, err)) != RC_OK)
    goto done;
  stats->wall_s = rc_now_s() - wall0;
done:
  if (rc != RC_OK)
    rc_phases_solution_free(out);
  rc_nlp_vectors_free(&v);
  rc_pnlp_free(&p);
  for (int k = 0; mesh && k < nph; ++k)
    rc_mesh_free(&mesh[k]);
  free(mesh);
  free(pb);
  return rc;
}

/* ---- the back-off of path constraints (rc_phases.path_tol) ----------------
 *
 * Collocation imposes a path constraint c_lo <= c(t, w) <= c_hi at the
 * collocation points; between them the dense output can cross the bound
 * (a container stack by millimetres).  The back-off solves with tightened
 * bounds c_hi - b_hi, c_lo + b_lo, b >= 0, chosen so that the dense output
 * holds the problem's own bounds: after each converged solve the excess v of
 * every bound on a grid of RC_PATH_BACKOFF_DENSE points per element is
 * measured, and a bound with v > path_tol gets b += v + path_tol / 2, until
 * every v <= path_tol (or RC_PATH_BACKOFF_MAX solves more; or a bound would
 * cross its partner).  Each re-solve starts warm from the last (multipliers
 * too, barrier parameter RC_PATH_BACKOFF_MU).  Exact in the
 * sense that the reported excess is of the problem's own bounds on that
 * grid; conservative at the nodes by b. */

/* Work space of path_excess: the point vector and the point block. */
typedef struct path_eval {
  const rc_problem *pb;
  const rc_solution *sol;
  double *w, *F;
} path_eval;

/* sign * (c_i(t) - bound): the excess of one bound at t (+inf where the
 * functions fail). */
static double excess_at(const path_eval *e, int i, double sign, double bound,
                        double t) {
  if (rc_solution_eval(e->sol, t, e->w, NULL) != RC_OK ||
      e->pb->point.eval(e->pb, t, e->w, e->F) != 0)
    return INFINITY;
  const double c = e->F[e->pb->nx + e->pb->ny + i];
  return isnan(c) ? INFINITY : sign * (c - bound);
}

/* The largest excess on [a, b] around a sampled local maximum: golden-
 * section search (60 steps: the bracket shrinks by 0.618^60 ~ 3e-13). */
static double excess_peak(const path_eval *e, int i, double sign, double bound,
                          double a, double b, double best) {
  const double g = 0.5 * (sqrt(5.0) - 1.0);
  double x1 = b - g * (b - a), x2 = a + g * (b - a);
  double f1 = excess_at(e, i, sign, bound, x1);
  double f2 = excess_at(e, i, sign, bound, x2);
  for (int it = 0; it < 60 && isfinite(f1) && isfinite(f2); ++it) {
    if (f1 >= f2) {
      b = x2, x2 = x1, f2 = f1;
      x1 = b - g * (b - a);
      f1 = excess_at(e, i, sign, bound, x1);
    } else {
      a = x1, x1 = x2, f1 = f2;
      x2 = a + g * (b - a);
      f2 = excess_at(e, i, sign, bound, x2);
    }
  }
  return fmax(best, fmax(f1, f2));
}

/* Largest excess of each path bound on the dense output of sol: ex_lo[i] =
 * max(c_lo - c), ex_hi[i] = max(c - c_hi), 0 when held.  Sampled at
 * RC_PATH_BACKOFF_DENSE points per element, then every sampled local
 * maximum within RC_PATH_BACKOFF_BAND of the bound (in the constraint's
 * units) is refined by a golden-section search between its neighbours, so
 * a peak narrower than the grid is measured at its top. */
static rc_err path_excess(const rc_problem *pb, const rc_solution *sol,
                          double *ex_lo, double *ex_hi, rc_error *err) {
  const int nw = rc_problem_nw(pb), nF = rc_problem_nF(pb), nc = pb->nc;
  const int nd = rc_dense_grid_size(sol, RC_PATH_BACKOFF_DENSE);
  double *t = malloc((size_t)nd * sizeof *t);
  double *v = malloc((size_t)nd * (size_t)nc * 2 * sizeof *v);
  path_eval e = {pb, sol, malloc((size_t)nw * sizeof(double)),
                 malloc((size_t)nF * sizeof(double))};
  rc_err rc = RC_OK;
  if (!t || !v || !e.w || !e.F)
    rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory");
  for (int i = 0; i < nc; ++i)
    ex_lo[i] = ex_hi[i] = 0.0;
  if (rc == RC_OK)
    rc_dense_grid(sol, RC_PATH_BACKOFF_DENSE, t, NULL);
  for (int q = 0; q < nd && rc == RC_OK; ++q) {
    double *vq = v + (size_t)q * 2 * (size_t)nc; /* lo side, then hi */
    for (int i = 0; i < nc; ++i) {
      vq[i] = isfinite(pb->c_lo[i]) ? excess_at(&e, i, -1.0, pb->c_lo[i], t[q])
                                    : -INFINITY;
      vq[nc + i] = isfinite(pb->c_hi[i])
                       ? excess_at(&e, i, 1.0, pb->c_hi[i], t[q])
                       : -INFINITY;
    }
  }
  for (int j = 0; j < 2 * nc && rc == RC_OK; ++j) {
    const int i = j % nc, hi = j >= nc;
    const double sign = hi ? 1.0 : -1.0, bound = hi ? pb->c_hi[i] : pb->c_lo[i];
    double best = 0.0;
    for (int q = 0; q < nd; ++q) {
      const double f = v[(size_t)q * 2 * (size_t)nc + (size_t)j];
      best = fmax(best, f);
      const double fl =
          q > 0 ? v[(size_t)(q - 1) * 2 * (size_t)nc + (size_t)j] : -INFINITY;
      const double fr = q + 1 < nd
                            ? v[(size_t)(q + 1) * 2 * (size_t)nc + (size_t)j]
                            : -INFINITY;
      if (isfinite(f) && f > -RC_PATH_BACKOFF_BAND && f >= fl && f >= fr)
        best = excess_peak(&e, i, sign, bound, t[q > 0 ? q - 1 : q],
                           t[q + 1 < nd ? q + 1 : q], best);
    }
    (hi ? ex_hi : ex_lo)[i] = best;
  }
  free(t);
  free(v);
  free(e.w);
  free(e.F);
  return rc;
}

static int solved(const rc_solve_stats *st) {
  return st->status == RC_STATUS_CONVERGED ||
         st->status == RC_STATUS_ACCEPTABLE;
}

/* The next back-off of one bound from b with excess v > tol: a secant step
 * on v(b) through the last pair (b_prev, v_prev) when its slope is sensible
 * (v falls by most of what b adds), else b + v; then
 * tol / 2 more, to land inside. */
static double next_backoff(double b, double v, double *hist, double tol) {
  double slope = 1.0;
  if (isfinite(hist[1]) && b != hist[0]) {
    const double s = (hist[1] - v) / (b - hist[0]);
    if (s > 0.1 && s < 10.0)
      slope = s;
  }
  hist[0] = b;
  hist[1] = v;
  return b + v / slope + 0.5 * tol;
}

/* Measures the excess of every phase's path bounds in out (its largest per
 * phase into out->path_violation) and tightens lo, hi (the bounds solved
 * with) where it exceeds tol; hist: per phase and bound the last (back-off,
 * excess) pair, lo side then hi side.  Returns 1 when a bound was
 * tightened, 0 when none needs it or none can be (an equality, or bounds
 * that would cross). */
static int tighten(const rc_phases *ph, double tol, rc_phases_solution *out,
                   double *const *lo, double *const *hi, double *const *hist,
                   double *ex, rc_err *rc, rc_error *err) {
  int more = 0;
  for (int k = 0; k < ph->nphases && *rc == RC_OK; ++k) {
    const rc_problem *pb = ph->phase[k].pb;
    const int nc = pb->nc;
    out->path_violation[k] = 0.0;
    if (nc == 0)
      continue;
    if ((*rc = path_excess(&out->pb[k], &out->sol[k], ex, ex + nc, err)) !=
        RC_OK)
      break;
    for (int i = 0; i < nc; ++i) {
      out->path_violation[k] =
          fmax(out->path_violation[k], fmax(ex[i], ex[nc + i]));
      if (pb->c_lo[i] == pb->c_hi[i])
        continue; /* an equality: nothing to back off */
      double *h = hist[k] + 4 * i;
      const double nlo =
          ex[i] > tol ? pb->c_lo[i] +
                            next_backoff(lo[k][i] - pb->c_lo[i], ex[i], h, tol)
                      : lo[k][i];
      const double nhi =
          ex[nc + i] > tol ? pb->c_hi[i] - next_backoff(pb->c_hi[i] - hi[k][i],
                                                        ex[nc + i], h + 2, tol)
                           : hi[k][i];
      if (!(nlo < nhi) || (nlo == lo[k][i] && nhi == hi[k][i]))
        continue;
      lo[k][i] = nlo;
      hi[k][i] = nhi;
      more = 1;
    }
  }
  return more;
}

rc_err rc_phases_solve(const rc_phases *ph, const rc_mesh *meshes,
                       const rc_options *opt, const rc_solution *guesses,
                       rc_phases_solution *out, rc_solve_stats *stats,
                       rc_error *err) {
  if (!(ph && ph->path_tol > 0.0 && ph->nphases > 0 && ph->phase))
    return solve_once(ph, meshes, opt, guesses, NULL, NULL, out, stats, err);
  const int nph = ph->nphases;
  const size_t n = (size_t)(nph > 0 ? nph : 1);
  int ncmax = 0;
  for (int k = 0; k < nph; ++k)
    if (ph->phase[k].pb && ph->phase[k].pb->nc > ncmax)
      ncmax = ph->phase[k].pb->nc;
  double **lo = calloc(n, sizeof *lo);
  double **hi = calloc(n, sizeof *hi);
  double **hist = calloc(n, sizeof *hist);
  double *ex = malloc((size_t)(2 * ncmax + 1) * sizeof *ex);
  rc_err rc = RC_OK;
  if (!lo || !hi || !hist || !ex)
    rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory");
  for (int k = 0; k < nph && rc == RC_OK; ++k) {
    const rc_problem *pb = ph->phase[k].pb;
    if (!pb) {
      rc = rc_phases_validate(ph, err); /* words the missing problem */
      break;
    }
    lo[k] = malloc((size_t)(pb->nc + 1) * sizeof **lo);
    hi[k] = malloc((size_t)(pb->nc + 1) * sizeof **hi);
    hist[k] = malloc((size_t)(4 * pb->nc + 1) * sizeof **hist);
    if (!lo[k] || !hi[k] || !hist[k])
      rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory");
    for (int i = 0; rc == RC_OK && i < 4 * pb->nc; ++i)
      hist[k][i] = NAN;
    for (int i = 0; rc == RC_OK && i < pb->nc; ++i) {
      lo[k][i] = pb->c_lo[i];
      hi[k][i] = pb->c_hi[i];
    }
  }
  if (rc == RC_OK)
    rc = solve_once(ph, meshes, opt, guesses, lo, hi, out, stats, err);
  int solves = 0, iterations = stats->iterations;
  double wall = stats->wall_s;
  while (rc == RC_OK && solved(stats)) {
    out->path_backoff = calloc(n, sizeof(double));
    out->path_violation = calloc(n, sizeof(double));
    if (!out->path_backoff || !out->path_violation) {
      rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory");
      break;
    }
    for (int k = 0; k < nph; ++k)
      for (int i = 0; i < ph->phase[k].pb->nc; ++i)
        out->path_backoff[k] = fmax(out->path_backoff[k],
                                    fmax(ph->phase[k].pb->c_hi[i] - hi[k][i],
                                         lo[k][i] - ph->phase[k].pb->c_lo[i]));
    out->backoff_solves = solves;
    /* the last allowed solve: measured, not tightened (lo, hi stay the
     * bounds it was solved with) */
    const double tol = solves == RC_PATH_BACKOFF_MAX ? INFINITY : ph->path_tol;
    if (!tighten(ph, tol, out, lo, hi, hist, ex, &rc, err) || rc != RC_OK)
      break;
    /* warm from the last solve, at a barrier parameter of 1e-2 (unless the
     * caller set one): a container cycle's three re-solves take 217
     * iterations in all against 303 cold and ~1000 at the default 1e-6 */
    rc_options o = *opt;
    o.warm_start = 1;
    if (!(opt->warm_start_mu > 0.0))
      o.warm_start_mu = RC_PATH_BACKOFF_MU;
    rc_phases_solution next;
    rc = solve_once(ph, meshes, &o, out->sol, lo, hi, &next, stats, err);
    if (rc != RC_OK)
      break;
    rc_phases_solution_free(out);
    *out = next;
    ++solves;
    iterations += stats->iterations;
    wall += stats->wall_s;
  }
  stats->iterations = iterations;
  stats->wall_s = wall;
  if (rc == RC_OK && out->path_backoff) { /* the bounds solved with */
    out->path_lo = lo, out->path_hi = hi;
    lo = hi = NULL;
  }
  if (rc != RC_OK)
    rc_phases_solution_free(out);
  for (int k = 0; k < nph; ++k) {
    if (lo)
      free(lo[k]);
    if (hi)
      free(hi[k]);
    if (hist)
      free(hist[k]);
  }
  free(lo);
  free(hi);
  free(hist);
  free(ex);
  return rc;
}

rc_err rc_phases_solve_problem(const rc_problem *pb, const rc_mesh *mesh,
                               const rc_options *opt, const rc_solution *guess,
                               rc_solution *sol, rc_solve_stats *stats,
                               rc_error *err) {
  memset(sol, 0, sizeof *sol);
  const rc_phase phase = {.name = "main", .pb = pb};
  const rc_phases ph = {.name = pb->model,
                        .nphases = 1,
                        .phase = &phase,
                        .continuity = RC_CONTINUITY_NONE};
  rc_phases_solution out;
  rc_err rc = rc_phases_solve(&ph, mesh, opt, guess, &out, stats, err);
  if (rc != RC_OK)
    return rc;
  *sol = out.sol[0];
  memset(&out.sol[0], 0, sizeof out.sol[0]);
  rc_phases_solution_free(&out);
  return RC_OK;
}
