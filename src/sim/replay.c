/*
 * replay.c - forward simulation of a semi-explicit index-1 formulation
 * driven by a plan's controls, and its deviation from the plan
 * (radcol/replay.h states the contract).
 *
 * Maths.  With the point block F = [f; g; c; L] of the problem:
 *     x' = f(t, x, y(t, x), u(t), p),   y(t, x) the root of g(t, x, ., u, p)
 * y is found by Newton's method,
 *     g_y(t, x, y_k, u, p) dy = -g(t, x, y_k, u, p),   y_{k+1} = y_k + dy,
 * stopping once |dy_i| <= 1e-12 (1 + |y_i|) for all i, from the previous
 * evaluation's y (warm start); g_y is the (ny x ny) block of the problem's
 * own Jacobian (rows nx.., columns nx..), factorised by Gaussian
 * elimination with partial pivoting.  A pivot below 1e-14 max|g_y| counts
 * as singular.
 *
 * Integration.  GSL odeiv2 rk8pd with the standard step-size control
 * (epsabs = epsrel = tol).  The sample times (radcol/replay.h) include
 * every point where u may jump; the integrator runs from one sample to the
 * next and is reset at each (so the derivative GSL keeps from the previous
 * step, computed with the previous interval's u, is never reused).  Within
 * an interval [a, b] the dense-output controls are evaluated at
 * max(t, nextafter(a, b)), so that at t = a (a plan breakpoint) the element
 * to the right of a is used, as for every other t of the interval.
 *
 * A failed evaluation (a callback returning > 0, Newton not converging, a
 * singular g_y or a non-finite value at a trial state) makes GSL retry the
 * step with half the step size; a callback returning < 0 stops at once.
 *
 * Invariants: every array is sized in rc_replay_run before the integration;
 * the right-hand side allocates nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

#include "core/dense_lu.h"
#include "core/timing.h"
#include "radcol/replay.h"

#define REPLAY_NEWTON_MAX 25
#define REPLAY_MAX_SAMPLES 1000000L /* all samples (the result mesh) */
#define REPLAY_MAX_STEPS 10000000L

void rc_replay_options_default(rc_replay_options *opt) {
  opt->hold = 0.0;
  opt->settle = -1.0;
  opt->tol = 1e-10;
  opt->samples = 1000;
  opt->after_rest = 0;
}

void rc_replay_free(rc_replay *r) {
  if (!r)
    return;
  free(r->t);
  free(r->w);
  free(r->out);
  free(r->plan);
  free(r->max_dev);
  free(r->end_err);
  free(r->settle_dev);
  free(r->u_after);
  free(r->bound_viol);
  free(r->path_viol);
  memset(r, 0, sizeof *r);
}

static void *zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

rc_err rc_replay_check(const rc_problem *pb, rc_error *err) {
  if (!pb)
    return rc_error_set(err, RC_ERR_INPUT, "replay: problem pointer is NULL");
  if (pb->index > 1)
    return rc_error_set(
        err, RC_ERR_INPUT,
        "%s/%s has differentiation index %d: a replay integrates x' = f and "
        "solves 0 = g for the algebraic variables, which needs a "
        "semi-explicit formulation of index 0 or 1 (g_y nonsingular)",
        pb->model, pb->formulation, pb->index);
  if (!pb->point.eval || (pb->ny > 0 && !pb->point.jacobian) ||
      pb->point.n_out < pb->nx + pb->ny)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: the point block lacks %s: expected f and g "
                        "values%s",
                        pb->model, pb->formulation,
                        !pb->point.eval ? "an eval function"
                        : pb->point.n_out < pb->nx + pb->ny
                            ? "the rows of f and g"
                            : "a Jacobian",
                        pb->ny > 0 ? " and the Jacobian g_y" : "");
  /* every algebraic variable must appear in g (else g_y has a zero column) */
  for (int j = 0; j < pb->ny; ++j) {
    int found = 0;
    for (int e = 0; e < pb->point.jac.nnz && !found; ++e) {
      const int r = pb->point.jac.row[e], c = pb->point.jac.col[e];
      found = r >= pb->nx && r < pb->nx + pb->ny && c == pb->nx + j;
    }
    if (!found)
      return rc_error_set(
          err, RC_ERR_INPUT,
          "%s/%s: algebraic variable %s does not occur in the algebraic "
          "equations 0 = g (g_y is singular): a replay needs an index-1 "
          "formulation",
          pb->model, pb->formulation,
          pb->var_names ? pb->var_names[pb->nx + j] : "?");
  }
  return RC_OK;
}

/* ---- evaluation context ------------------------------------------------- */

typedef struct ctx {
  const rc_problem *pb;
  const rc_solution *plan;
  int nx, ny, nu, np, nw, nF;
  const int *map; /* nw: plan index of each variable of pb, or -1 */
  double *w;      /* nw: the point vector of the last evaluation */
  double *F;      /* nF */
  double *jac;    /* point.jac.nnz */
  double *A;      /* ny x ny */
  int *perm;      /* ny + nu: pivots of the small dense solves (dense_lu.h) */
  double *b;      /* ny */
  double *y;      /* ny warm start */
  double *pw;     /* plan nw */
  double *ufix;   /* nu controls of a held interval */
  int dense;      /* 1: u from the plan's dense output */
  double seg_a, seg_b;
  long rhs_evals;
  int newton_max;
  /* failure of the last evaluation */
  rc_err fail;
  int fatal; /* a callback returned < 0: no retry with a smaller step */
  char why[RC_MESSAGE_MAX];
} ctx;

/* u(t) of the current interval into c->w. */
static int controls(ctx *c, double t) {
  const int off = c->nx + c->ny;
  if (!c->dense) {
    memcpy(c->w + off, c->ufix, sizeof *c->w * (size_t)c->nu);
    return 0;
  }
  double te = t <= c->seg_a ? nextafter(c->seg_a, c->seg_b) : t;
  if (te > c->plan->tf)
    te = c->plan->tf;
  if (rc_solution_eval(c->plan, te, c->pw, NULL) != RC_OK)
    return 1;
  for (int i = 0; i < c->nu; ++i)
    c->w[off + i] = c->pw[c->map[off + i]];
  return 0;
}

static int failf(ctx *c, rc_err code, const char *fmt, double t,
                 const char *name) {
  c->fail = code;
  snprintf(c->why, sizeof c->why, fmt, t, name);
  return 1;
}

/* The point vector at (t, x): controls of the interval, y by Newton; F
 * evaluated there.  0 on success, else c->fail and c->why are set. */
static int solve_point(ctx *c, double t, const double *x) {
  const rc_problem *pb = c->pb;
  const int nx = c->nx, ny = c->ny;
  c->fatal = 0;
  memcpy(c->w, x, sizeof *x * (size_t)nx);
  memcpy(c->w + nx, c->y, sizeof *c->y * (size_t)ny);
  if (controls(c, t) != 0)
    return failf(c, RC_ERR_EVAL,
                 "the plan's controls cannot be evaluated at t = %.17g%s", t,
                 "");
  int done = 0;
  for (int it = 0;; ++it) {
    const int st = pb->point.eval(pb, t, c->w, c->F);
    c->fatal = st < 0;
    if (st != 0)
      return failf(c, RC_ERR_EVAL,
                   "the dynamics f, g could not be evaluated at t = %.17g%s", t,
                   "");
    if (ny == 0 || done) {
      if (it > c->newton_max)
        c->newton_max = it;
      break;
    }
    if (it >= REPLAY_NEWTON_MAX)
      return failf(c, RC_ERR_EVAL,
                   "Newton's method for the algebraic variables did not "
                   "converge at t = %.17g%s",
                   t, "");
    const int sj = pb->point.jacobian(pb, t, c->w, c->jac);
    c->fatal = sj < 0;
    if (sj != 0)
      return failf(c, RC_ERR_EVAL,
                   "the Jacobian could not be evaluated at t = %.17g%s", t, "");
    memset(c->A, 0, sizeof *c->A * (size_t)(ny * ny));
    for (int e = 0; e < pb->point.jac.nnz; ++e) {
      const int r = pb->point.jac.row[e] - nx, k = pb->point.jac.col[e] - nx;
      if (r >= 0 && r < ny && k >= 0 && k < ny)
        c->A[r * ny + k] += c->jac[e];
    }
    for (int i = 0; i < ny; ++i)
      c->b[i] = -c->F[nx + i];
    const int bad = rc_lu_solve_once(ny, c->A, c->perm, c->b, 1e-14);
    if (bad >= 0)
      return failf(c, RC_ERR_INPUT,
                   "g_y is singular at t = %.17g (no pivot for algebraic "
                   "variable %s): the algebraic equations cannot be solved "
                   "for y (expected an index-1 formulation)",
                   t, pb->var_names ? pb->var_names[nx + bad] : "?");
    done = 1;
    for (int i = 0; i < ny; ++i) {
      double *yi = c->w + nx + i;
      *yi += c->b[i];
      if (!(fabs(c->b[i]) <= 1e-12 * (1.0 + fabs(*yi))))
        done = 0;
    }
  }
  for (int i = 0; i < nx + ny; ++i)
    if (!isfinite(c->F[i]) || (i >= nx && !isfinite(c->w[i])))
      return failf(c, RC_ERR_EVAL,
                   "the dynamics became non-finite at t = %.17g%s", t, "");
  memcpy(c->y, c->w + nx, sizeof *c->y * (size_t)ny);
  return 0;
}

static int gsl_rhs(double t, const double x[], double dxdt[], void *params) {
  ctx *c = params;
  ++c->rhs_evals;
  if (solve_point(c, t, x) != 0) /* GSL retries other codes with h/2 */
    return c->fatal ? GSL_EBADFUNC : GSL_FAILURE;
  memcpy(dxdt, c->F, sizeof *dxdt * (size_t)c->nx);
  return GSL_SUCCESS;
}

/* Plan controls at time t (dense output) into u (nu values). */
static rc_err plan_controls(ctx *c, double t, double *u, rc_error *err) {
  rc_err rc = rc_solution_eval(c->plan, t, c->pw, err);
  if (rc != RC_OK)
    return rc;
  for (int i = 0; i < c->nu; ++i)
    u[i] = c->pw[c->map[c->nx + c->ny + i]];
  return RC_OK;
}

/* Rest controls at tf (opt.after_rest): q = (y, u) minimising
 * |(f, g)(tf, x_plan(tf), q, p)|^2 by Gauss-Newton (normal equations with a
 * 1e-14 relative Levenberg term) from the plan's values at tf.  Uses c->w,
 * c->F, c->jac as scratch before the integration starts. */
static rc_err rest_controls(ctx *c, double tf, double *u, rc_error *err) {
  const rc_problem *pb = c->pb;
  const int nx = c->nx, ny = c->ny, nu = c->nu, m = nx + ny, nq = ny + nu;
  rc_err rc = rc_solution_eval(c->plan, tf, c->pw, err);
  if (rc != RC_OK)
    return rc;
  for (int i = 0; i < nx + nq; ++i)
    if (c->map[i] >= 0)
      c->w[i] = c->pw[c->map[i]]; /* parameters stay as set at t0 */
  double *J = calloc((size_t)(m * nq + nq * nq + nq) + 1, sizeof *J);
  if (!J)
    return rc_error_set(err, RC_ERR_NOMEM, "replay: out of memory");
  double *N = J + m * nq, *g = N + nq * nq;
  double res = HUGE_VAL, fscale = 0.0;
  for (int it = 0; it < 100; ++it) {
    if (pb->point.eval(pb, tf, c->w, c->F) != 0 ||
        pb->point.jacobian(pb, tf, c->w, c->jac) != 0)
      break;
    res = 0.0;
    for (int i = 0; i < m; ++i)
      res = fmax(res, fabs(c->F[i]));
    memset(J, 0, sizeof *J * (size_t)(m * nq));
    for (int e = 0; e < pb->point.jac.nnz; ++e) {
      const int r = pb->point.jac.row[e], k = pb->point.jac.col[e] - nx;
      if (r < m && k >= 0 && k < nq)
        J[r * nq + k] += c->jac[e];
    }
    double tr = 0.0;
    for (int a = 0; a < nq; ++a) {
      g[a] = 0.0;
      for (int r = 0; r < m; ++r)
        g[a] -= J[r * nq + a] * c->F[r];
      for (int b = 0; b < nq; ++b) {
        double s = 0.0;
        for (int r = 0; r < m; ++r)
          s += J[r * nq + a] * J[r * nq + b];
        N[a * nq + b] = s;
      }
      tr += N[a * nq + a];
    }
    for (int a = 0; a < nq; ++a)
      N[a * nq + a] += 1e-14 * tr;
    if (rc_lu_solve_once(nq, N, c->perm, g, 1e-14) >= 0)
      break;
    int done = 1;
    for (int a = 0; a < nq; ++a) {
      c->w[nx + a] += g[a];
      if (!(fabs(g[a]) <= 1e-13 * (1.0 + fabs(c->w[nx + a]))))
        done = 0;
    }
    fscale = 0.0;
    for (int i = 0; i < nx + nq; ++i)
      fscale = fmax(fscale, fabs(c->w[i]));
    if (done) {
      pb->point.eval(pb, tf, c->w, c->F);
      res = 0.0;
      for (int i = 0; i < m; ++i)
        res = fmax(res, fabs(c->F[i]));
      break;
    }
  }
  free(J);
  if (!(res <= 1e-8 * (1.0 + fscale)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "replay of %s/%s: no controls hold the plan's end "
                        "state at rest (the smallest residual of f, g found "
                        "is %.3g): expected a plan that ends at an "
                        "equilibrium",
                        pb->model, pb->formulation, res);
  for (int i = 0; i < nu; ++i)
    u[i] = c->w[nx + ny + i];
  return RC_OK;
}

/* ---- sample grid --------------------------------------------------------- */

typedef struct stop {
  double t;
  int prio; /* 0 sample, 1 jump of u, 2 an end (exact) */
} stop;

static int cmp_stop(const void *a, const void *b) {
  const double ta = ((const stop *)a)->t, tb = ((const stop *)b)->t;
  return ta < tb ? -1 : ta > tb;
}

/* Sorted, merged stop times; returns the count (0 when out of memory). */
static int make_grid(const rc_solution *plan, const rc_replay_options *opt,
                     double settle, long nhold, stop **out) {
  const double t0 = plan->t0, tf = plan->tf, T = tf - t0;
  const long N = opt->samples;
  const double dt = T / (double)N;
  const long M = settle > 0 ? (long)ceil(settle / dt - 1e-9) : 0;
  const long njump = opt->hold > 0 ? nhold + 1 : plan->mesh.n + 1;
  const long cap = N + 1 + M + njump + 2;
  stop *s = malloc(sizeof *s * (size_t)cap);
  if (!s)
    return 0;
  long n = 0;
  for (long k = 0; k <= N; ++k)
    s[n++] = (stop){k == N ? tf : t0 + (double)k * dt, k == N ? 2 : 0};
  s[0].prio = 2;
  for (long k = 1; k <= M; ++k)
    s[n++] = (stop){k == M ? tf + settle : tf + (double)k * dt, k == M ? 2 : 0};
  for (long k = 0; k < njump; ++k) {
    double t;
    if (opt->hold > 0)
      t = t0 + (double)k * opt->hold;
    else
      t = k == 0 ? t0 : k >= plan->mesh.n ? tf : t0 + T * plan->mesh.frac[k];
    if (t < tf)
      s[n++] = (stop){t, 1};
  }
  qsort(s, (size_t)n, sizeof *s, cmp_stop);
  const double tol = 1e-9 * dt;
  long m = 0;
  for (long k = 0; k < n; ++k) {
    if (m > 0 && s[k].t - s[m - 1].t <= tol) {
      if (s[k].prio > s[m - 1].prio)
        s[m - 1] = s[k];
      continue;
    }
    s[m++] = s[k];
  }
  *out = s;
  return (int)m;
}

/* ---- the replay ------------------------------------------------------- */

/* Adds the sample (w, F = point block at w) to the limit violations:
 * bound_viol over x, y, u with a finite bound, path_viol over c. */
static void limits(const rc_problem *pb, const double *w, const double *F,
                   rc_replay *r) {
  for (int i = 0; i < pb->nx + pb->ny + pb->nu; ++i) {
    const double lo = pb->w_lo ? pb->w_lo[i] : -HUGE_VAL;
    const double hi = pb->w_hi ? pb->w_hi[i] : HUGE_VAL;
    if (!isfinite(lo) && !isfinite(hi))
      continue;
    const double v = fmax(0.0, fmax(lo - w[i], w[i] - hi));
    if (isnan(r->bound_viol[i]) || v > r->bound_viol[i])
      r->bound_viol[i] = v;
  }
  const double *cv = F + pb->nx + pb->ny;
  for (int k = 0; k < pb->nc; ++k) {
    const double v = fmax(0.0, fmax(pb->c_lo[k] - cv[k], cv[k] - pb->c_hi[k]));
    if (v > r->path_viol[k])
      r->path_viol[k] = v;
  }
}

static rc_err check_options(const rc_solution *plan,
                            const rc_replay_options *opt, double *settle,
                            long *nhold, rc_error *err) {
  const double T = plan->tf - plan->t0;
  if (!(opt->hold >= 0.0) || !isfinite(opt->hold))
    return rc_error_set(err, RC_ERR_INPUT,
                        "replay: hold period %g: expected 0 (controls from "
                        "the dense output) or a finite period > 0",
                        opt->hold);
  *nhold = 0;
  if (opt->hold > 0) {
    const double n = ceil(T / opt->hold - 1e-9);
    if (n > (double)REPLAY_MAX_SAMPLES)
      return rc_error_set(err, RC_ERR_INPUT,
                          "replay: hold period %g gives %.3g hold intervals "
                          "over the plan's horizon %g: expected at most %ld",
                          opt->hold, n, T, REPLAY_MAX_SAMPLES);
    *nhold = (long)n;
  }
  if (!isfinite(opt->settle))
    return rc_error_set(err, RC_ERR_INPUT,
                        "replay: settle time %g: expected a finite time >= 0",
                        opt->settle);
  *settle = opt->settle < 0 ? T : opt->settle;
  if (*settle > 0 && *settle <= 1e-9 * T / fmax(opt->samples, 1))
    *settle = 0.0; /* shorter than the sample merging tolerance */
  if (!(opt->tol > 0.0 && opt->tol <= 1e-3))
    return rc_error_set(err, RC_ERR_INPUT,
                        "replay: tolerance %g: expected a number in (0, 1e-3]",
                        opt->tol);
  if (opt->samples < 1 || opt->samples > REPLAY_MAX_SAMPLES / 2)
    return rc_error_set(err, RC_ERR_INPUT,
                        "replay: %d samples: expected 1..%ld", opt->samples,
                        REPLAY_MAX_SAMPLES / 2);
  const double total = opt->samples + (double)*nhold +
                       (opt->hold > 0 ? 0.0 : plan->mesh.n) +
                       *settle / (T / opt->samples);
  if (total > (double)REPLAY_MAX_SAMPLES)
    return rc_error_set(err, RC_ERR_INPUT,
                        "replay: %.3g samples (%d per horizon, %ld hold "
                        "periods, settle time %g): expected at most %ld",
                        total, opt->samples, *nhold, *settle,
                        REPLAY_MAX_SAMPLES);
  return RC_OK;
}

/* map[i] = index in plan_names of pb's variable i, or -1; every x and u must
 * be found. */
static rc_err map_names(const rc_problem *pb, const char *const *plan_names,
                        int plan_nw, int *map, rc_error *err) {
  const int nw = rc_problem_nw(pb);
  for (int i = 0; i < nw; ++i) {
    map[i] = -1;
    for (int j = 0; j < plan_nw && map[i] < 0; ++j)
      if (plan_names[j] && strcmp(plan_names[j], pb->var_names[i]) == 0)
        map[i] = j;
    const rc_var_kind k = rc_problem_var_kind(pb, i);
    if (map[i] < 0 && (k == RC_VAR_DIFFERENTIAL || k == RC_VAR_CONTROL)) {
      char list[200] = "";
      size_t used = 0;
      for (int j = 0; j < plan_nw && used < sizeof list - 1; ++j) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "",
                         plan_names[j] ? plan_names[j] : "?");
        if (w < 0)
          break;
        used += (size_t)w;
      }
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s %s of %s/%s is not a variable of the plan "
                          "(which has: %s): expected a plan with every state "
                          "and control of the replayed formulation",
                          k == RC_VAR_DIFFERENTIAL ? "state" : "control",
                          pb->var_names[i], pb->model, pb->formulation, list);
    }
  }
  return RC_OK;
}

/* Plan values (nvar) at sample t into v, via wp (nw scratch, pb layout). */
static void plan_values(ctx *c, double t, double *wp, double *v, int nout) {
  const rc_problem *pb = c->pb;
  const int nxyu = c->nx + c->ny + c->nu;
  int complete = rc_solution_eval(c->plan, t, c->pw, NULL) == RC_OK;
  for (int i = 0; i < c->nw; ++i) {
    if (c->map[i] >= 0 && complete)
      wp[i] = c->pw[c->map[i]];
    else if (i >= nxyu)
      wp[i] = c->w[i]; /* parameters: the replay's */
    else
      wp[i] = NAN;
  }
  for (int i = 0; i < nxyu; ++i) {
    v[i] = wp[i];
    complete &= !isnan(wp[i]);
  }
  for (int i = 0; i < nout; ++i)
    v[nxyu + i] = NAN;
  if (complete && nout > 0 && pb->outputs(pb, t, wp, v + nxyu) != 0)
    for (int i = 0; i < nout; ++i)
      v[nxyu + i] = NAN;
}

/* The result arrays of r for the nt samples of grid (r->itf: the sample at
 * tf); the figures start as NaN (no finite bound, no plan value). */
static rc_err alloc_result(const ctx *c, const rc_replay_options *opt,
                           double settle, const stop *grid, int nt, int nout,
                           rc_replay *r, rc_error *err) {
  const rc_problem *pb = c->pb;
  const rc_solution *plan = c->plan;
  const int nx = c->nx, ny = c->ny, nu = c->nu, nw = c->nw;
  const int nvar = nx + ny + nu + nout;
  r->nx = nx, r->ny = ny, r->nu = nu, r->np = c->np, r->nout = nout;
  r->nvar = nvar;
  r->t0 = plan->t0;
  r->tf = plan->tf;
  r->tend = plan->tf + settle;
  r->hold = opt->hold;
  r->settle = settle;
  r->tol = opt->tol;
  r->nt = nt;
  r->t = zalloc((size_t)nt, sizeof *r->t);
  r->w = zalloc((size_t)nt * (size_t)nw, sizeof *r->w);
  r->out = zalloc((size_t)nt * (size_t)nout, sizeof *r->out);
  r->plan = zalloc((size_t)nt * (size_t)nvar, sizeof *r->plan);
  r->max_dev = zalloc((size_t)nvar, sizeof *r->max_dev);
  r->end_err = zalloc((size_t)nvar, sizeof *r->end_err);
  r->settle_dev = zalloc((size_t)nvar, sizeof *r->settle_dev);
  r->u_after = zalloc((size_t)nu, sizeof *r->u_after);
  r->nc = pb->nc;
  r->bound_viol = zalloc((size_t)(nx + ny + nu), sizeof *r->bound_viol);
  r->path_viol = zalloc((size_t)pb->nc, sizeof *r->path_viol);
  if (!r->t || !r->w || !r->out || !r->plan || !r->max_dev || !r->end_err ||
      !r->settle_dev || !r->u_after || !r->bound_viol || !r->path_viol)
    return rc_error_set(err, RC_ERR_NOMEM,
                        "replay: out of memory for %d samples", nt);
  r->itf = -1;
  for (int i = 0; i < nt; ++i) {
    r->t[i] = grid[i].t;
    if (grid[i].t == plan->tf)
      r->itf = i;
  }
  if (r->itf < 0)
    return rc_error_set(err, RC_ERR_INTERNAL, "replay: tf is not a sample");
  return RC_OK;
}

/* The start point c->w from the plan at t0: the plan's variables, the
 * problem's guess (clipped to the bounds) for the others, 0 if non-finite;
 * at a plan node t0 the plan's own x(t0).  wp: nw scratch. */
static rc_err initial_point(ctx *c, double *wp, rc_error *err) {
  const rc_problem *pb = c->pb;
  const rc_solution *plan = c->plan;
  rc_err rc = rc_solution_eval(plan, plan->t0, c->pw, err);
  if (rc != RC_OK)
    return rc;
  double *g0 = wp;
  int have_guess = pb->guess && pb->guess(pb, plan->t0, g0) == 0;
  for (int i = 0; i < c->nw; ++i) {
    const int m = c->map[i];
    double val = m >= 0 ? c->pw[m] : have_guess ? g0[i] : 0.0;
    if (m < 0 && pb->w_lo && pb->w_hi)
      val = fmin(fmax(val, pb->w_lo[i]), pb->w_hi[i]);
    if (!isfinite(val))
      val = 0.0;
    c->w[i] = val;
  }
  if (plan->t0 == plan->t[0])
    for (int i = 0; i < c->nx; ++i)
      c->w[i] = plan->w[c->map[i]]; /* node 0: the plan's own x(t0) */
  return RC_OK;
}

/* Sample by sample: the controls of [t_i, t_{i+1}), the point at t_i into
 * r (y and u right limits, outputs, bound and path violations), then rk8pd
 * to t_{i+1} (drv is NULL without states). */
static rc_err integrate(ctx *c, const rc_replay_options *opt,
                        gsl_odeiv2_driver *drv, double *x, rc_replay *r,
                        rc_error *err) {
  const rc_problem *pb = c->pb;
  const rc_solution *plan = c->plan;
  const int nt = r->nt, nx = c->nx, nu = c->nu, nw = c->nw, nout = r->nout;
  rc_err rc;
  for (int i = 0; i < nt; ++i) {
    /* controls of the interval [t_i, t_{i+1}) (the last sample: after tf) */
    const double a = r->t[i], b = i + 1 < nt ? r->t[i + 1] : a;
    c->seg_a = a;
    c->seg_b = b > a ? b : nextafter(a, INFINITY);
    c->dense = 0;
    if (i >= r->itf) {
      memcpy(c->ufix, r->u_after, sizeof *c->ufix * (size_t)nu);
    } else if (opt->hold > 0) {
      const double k = floor((a - plan->t0) / opt->hold + 1e-9);
      const double th = fmin(plan->t0 + k * opt->hold, plan->tf);
      if ((rc = plan_controls(c, th, c->ufix, err)) != RC_OK)
        return rc;
    } else {
      c->dense = 1;
    }
    /* record sample i: right limits of y and u (a singular g_y at t0 is
     * bad input, later it is a failure of the integration) */
    c->fail = RC_OK;
    if (solve_point(c, a, x) != 0)
      return rc_error_set(err, i == 0 ? c->fail : RC_ERR_EVAL,
                          "replay of %s/%s: %s", pb->model, pb->formulation,
                          c->why);
    memcpy(r->w + (size_t)i * nw, c->w, sizeof *c->w * (size_t)nw);
    limits(pb, c->w, c->F, r);
    if (nout > 0 && pb->outputs(pb, a, c->w, r->out + (size_t)i * nout) != 0)
      return rc_error_set(err, RC_ERR_EVAL,
                          "replay of %s/%s: the derived outputs could not be "
                          "evaluated at t = %.17g",
                          pb->model, pb->formulation, a);
    if (i + 1 == nt || nx == 0)
      continue;
    gsl_odeiv2_driver_reset(drv);
    double tc = a;
    const int st = gsl_odeiv2_driver_apply(drv, &tc, b, x);
    r->steps += (long)drv->e->count;
    r->failed_steps += (long)drv->e->failed_steps;
    if (st != GSL_SUCCESS) {
      if (c->fail != RC_OK)
        return rc_error_set(err, RC_ERR_EVAL, "replay of %s/%s: %s", pb->model,
                            pb->formulation, c->why);
      return rc_error_set(err, RC_ERR_EVAL,
                          "replay of %s/%s: rk8pd stopped at t = %.17g before "
                          "reaching %.17g: %s",
                          pb->model, pb->formulation, tc, b, gsl_strerror(st));
    }
    for (int k = 0; k < nx; ++k)
      if (!isfinite(x[k]))
        return rc_error_set(err, RC_ERR_EVAL,
                            "replay of %s/%s: state %s became non-finite by "
                            "t = %.17g",
                            pb->model, pb->formulation, pb->var_names[k], b);
  }
  return RC_OK;
}

/* The plan's values at every sample up to tf and the figures: the largest
 * deviation from the plan on [t0, tf], the error at tf, and the largest
 * deviation from the plan's tf values while settling.  wp: nw, v: nvar
 * scratch. */
static void figures(ctx *c, double settle, double *wp, double *v,
                    rc_replay *r) {
  const int nt = r->nt, nvar = r->nvar, nw = c->nw, nout = r->nout;
  const int nxyu = c->nx + c->ny + c->nu;
  for (int k = 0; k < nvar; ++k)
    r->max_dev[k] = r->end_err[k] = r->settle_dev[k] = NAN;
  for (int i = 0; i < nt; ++i) {
    double *pl = r->plan + (size_t)i * nvar;
    if (i > r->itf) {
      for (int k = 0; k < nvar; ++k)
        pl[k] = NAN;
    } else {
      memcpy(c->w, r->w + (size_t)i * nw, sizeof *c->w * (size_t)nw);
      plan_values(c, r->t[i], wp, pl, nout);
    }
    const double *ri = r->w + (size_t)i * nw;
    for (int k = 0; k < nvar; ++k)
      v[k] = k < nxyu ? ri[k] : r->out[(size_t)i * nout + k - nxyu];
    const double *ptf = r->plan + (size_t)r->itf * nvar;
    for (int k = 0; k < nvar; ++k) {
      if (i <= r->itf && !isnan(pl[k])) {
        const double e = fabs(v[k] - pl[k]);
        if (isnan(r->max_dev[k]) || e > r->max_dev[k])
          r->max_dev[k] = e;
        if (i == r->itf)
          r->end_err[k] = e;
      }
      if (i >= r->itf && settle > 0 && i > 0 && !isnan(ptf[k])) {
        const double e = fabs(v[k] - ptf[k]);
        if (isnan(r->settle_dev[k]) || e > r->settle_dev[k])
          r->settle_dev[k] = e;
      }
    }
  }
}

/* The evaluation vectors of c carved from work (after nw scratch at its
 * start); returns what follows them. */
static double *carve_workspace(ctx *c, double *work, int plan_w) {
  c->w = work + c->nw;
  c->F = c->w + c->nw;
  c->jac = c->F + c->nF;
  c->A = c->jac + c->pb->point.jac.nnz;
  c->b = c->A + c->ny * c->ny;
  c->y = c->b + c->ny;
  c->pw = c->y + c->ny;
  c->ufix = c->pw + plan_w;
  return c->ufix + c->nu;
}

/* GSL's rk8pd driver at tolerance tol (absolute and relative), first step
 * min(1e-3, the first sample interval); NULL without memory. */
static gsl_odeiv2_driver *rk8pd_driver(gsl_odeiv2_system *sys,
                                       const rc_replay *r, double tol) {
  const double dt = (r->t[1] - r->t[0]);
  gsl_odeiv2_driver *drv = gsl_odeiv2_driver_alloc_y_new(
      sys, gsl_odeiv2_step_rk8pd, fmin(1e-3, dt), tol, tol);
  if (drv)
    gsl_odeiv2_driver_set_nmax(drv, REPLAY_MAX_STEPS);
  return drv;
}

/* The problem, the plan (plan_nw named variables) and the options (opt_in,
 * or the defaults, into *opt) checked; *settle and *nhold as check_options
 * finds them. */
static rc_err check_run(const rc_problem *pb, const rc_solution *plan,
                        const char *const *plan_names, int plan_nw,
                        const rc_replay_options *opt_in, rc_replay_options *opt,
                        double *settle, long *nhold, rc_error *err) {
  rc_err rc = rc_replay_check(pb, err);
  if (rc != RC_OK)
    return rc;
  if (!plan || !plan->t || !plan->w || !plan_names ||
      plan_nw != plan->nx + plan->ny + plan->nu + plan->np)
    return rc_error_set(err, RC_ERR_INPUT,
                        "replay: expected a plan with %d variable names (got "
                        "%d)",
                        plan ? plan->nx + plan->ny + plan->nu + plan->np : -1,
                        plan_nw);
  if (opt_in)
    *opt = *opt_in;
  else
    rc_replay_options_default(opt);
  return check_options(plan, opt, settle, nhold, err);
}

/* The start of a replay: the sample grid (*grid, the caller frees it), the
 * result arrays of r, the initial point (x its state, c->y its algebraic
 * part) and the controls after tf (r->u_after). */
static rc_err start_replay(ctx *c, const rc_replay_options *opt, double settle,
                           long nhold, int nout, double *wp, double *x,
                           stop **grid, rc_replay *r, rc_error *err) {
  const rc_solution *plan = c->plan;
  const int nx = c->nx, ny = c->ny, nu = c->nu;
  const int nt = make_grid(plan, opt, settle, nhold, grid);
  if (nt < 2)
    return rc_error_set(err, RC_ERR_NOMEM, "replay: out of memory for samples");
  rc_err rc;
  if ((rc = alloc_result(c, opt, settle, *grid, nt, nout, r, err)) != RC_OK ||
      (rc = initial_point(c, wp, err)) != RC_OK)
    return rc;
  memcpy(x, c->w, sizeof *x * (size_t)nx);
  memcpy(c->y, c->w + nx, sizeof *c->y * (size_t)ny);
  if ((rc = plan_controls(c, plan->tf, r->u_after, err)) != RC_OK)
    return rc;
  if (opt->after_rest &&
      (rc = rest_controls(c, plan->tf, r->u_after, err)) != RC_OK)
    return rc;
  r->after_rest = opt->after_rest;
  for (int k = 0; k < nx + ny + nu; ++k)
    r->bound_viol[k] = NAN; /* stays NaN without a finite bound */
  return RC_OK;
}

/* The integration from x with GSL's rk8pd driver, GSL's error handler off,
 * then the figures of r. */
static rc_err integrate_and_measure(ctx *c, const rc_replay_options *opt,
                                    double settle, double *wp, double *v,
                                    double *x, rc_replay *r, rc_error *err) {
  rc_err rc;
  gsl_odeiv2_driver *drv = NULL;
  gsl_odeiv2_system sys = {gsl_rhs, NULL, (size_t)c->nx, c};
  gsl_error_handler_t *old_handler = gsl_set_error_handler_off();
  if (c->nx > 0 && !(drv = rk8pd_driver(&sys, r, opt->tol))) {
    rc = rc_error_set(err, RC_ERR_NOMEM,
                      "replay: GSL could not allocate the rk8pd driver");
    goto done;
  }
  const double t_start = rc_now_s();
  if ((rc = integrate(c, opt, drv, x, r, err)) != RC_OK)
    goto done;
  r->wall_s = rc_now_s() - t_start;
  r->rhs_evals = c->rhs_evals;
  r->newton_max = c->newton_max;
  figures(c, settle, wp, v, r);
  rc = RC_OK;

done:
  if (old_handler)
    gsl_set_error_handler(old_handler);
  if (drv)
    gsl_odeiv2_driver_free(drv);
  return rc;
}

rc_err rc_replay_run(const rc_problem *pb, const rc_solution *plan,
                     const char *const *plan_names, int plan_nw,
                     const rc_replay_options *opt_in, rc_replay *r,
                     rc_error *err) {
  if (!r)
    return rc_error_set(err, RC_ERR_INPUT, "replay: result pointer is NULL");
  memset(r, 0, sizeof *r);
  rc_replay_options opt;
  double settle = 0.0;
  long nhold = 0;
  rc_err rc = check_run(pb, plan, plan_names, plan_nw, opt_in, &opt, &settle,
                        &nhold, err);
  if (rc != RC_OK)
    return rc;

  const int nx = pb->nx, ny = pb->ny, nu = pb->nu, np = pb->np;
  const int nw = rc_problem_nw(pb), nF = rc_problem_nF(pb);
  const int nout = pb->nout > 0 && pb->outputs ? pb->nout : 0;
  const int nvar = nx + ny + nu + nout;
  const int plan_w = plan_nw;
  int *map = zalloc((size_t)nw, sizeof *map);
  int *perm = zalloc((size_t)(ny + nu), sizeof *perm);
  double *work = zalloc((size_t)(2 * nw + nF + pb->point.jac.nnz + ny * ny +
                                 2 * ny + plan_w + nu + nvar + nx),
                        sizeof *work);
  stop *grid = NULL;
  if (!map || !perm || !work) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "replay: out of memory");
    goto done;
  }
  if ((rc = map_names(pb, plan_names, plan_nw, map, err)) != RC_OK)
    goto done;
  ctx c;
  memset(&c, 0, sizeof c);
  c.pb = pb;
  c.plan = plan;
  c.nx = nx, c.ny = ny, c.nu = nu, c.np = np, c.nw = nw, c.nF = nF;
  c.map = map;
  c.perm = perm;
  double *wp = work;                             /* nw scratch */
  double *v = carve_workspace(&c, work, plan_w); /* nvar */
  double *x = v + nvar;                          /* nx */
  if ((rc = start_replay(&c, &opt, settle, nhold, nout, wp, x, &grid, r,
                         err)) == RC_OK)
    rc = integrate_and_measure(&c, &opt, settle, wp, v, x, r, err);

done:
  free(grid);
  free(map);
  free(perm);
  free(work);
  if (rc != RC_OK)
    rc_replay_free(r);
  else
    rc_error_clear(err);
  return rc;
}

rc_err rc_replay_solution(const rc_problem *pb, const rc_replay *r,
                          rc_solution *sol, rc_error *err) {
  if (!pb || !r || !sol || r->nt < 2 || !r->t || !r->w)
    return rc_error_set(err, RC_ERR_INPUT,
                        "replay solution: expected a problem and a replay "
                        "with at least 2 samples");
  const int n = r->nt - 1;
  double *frac = malloc(sizeof *frac * (size_t)(n + 1));
  int *stages = malloc(sizeof *stages * (size_t)n);
  rc_mesh mesh;
  memset(&mesh, 0, sizeof mesh);
  rc_err rc = RC_OK;
  if (!frac || !stages) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "replay solution: out of memory");
    goto done;
  }
  const double span = r->tend - r->t0;
  for (int k = 0; k <= n; ++k)
    frac[k] = (r->t[k] - r->t0) / span;
  frac[0] = 0.0;
  frac[n] = 1.0;
  for (int k = 0; k < n; ++k)
    stages[k] = 1;
  if ((rc = rc_mesh_from_arrays(n, frac, stages, &mesh, err)) != RC_OK)
    goto done;
  if ((rc = rc_solution_alloc(pb, &mesh, r->t0, r->tend, 0, sol, err)) != RC_OK)
    goto done;
  const int nw = rc_problem_nw(pb);
  memcpy(sol->t, r->t, sizeof *sol->t * (size_t)r->nt);
  memcpy(sol->w, r->w, sizeof *sol->w * (size_t)r->nt * (size_t)nw);
done:
  rc_mesh_free(&mesh);
  free(frac);
  free(stages);
  return rc;
}
