/*
 * simulate.c - explicit fixed-step integrators (Collatz explicit midpoint,
 * classical RK4) on a problem's point block, and simulation as an initial
 * guess for the NLP (radcol/simulate.h).
 *
 * Invariants: only formulations with ny = nu = 0 and fixed tf are
 * integrated; w = (x, p) with p constant; f is rows 0..nx-1 of point.eval.
 * The work array of rc_simulate_step is laid out as
 *     [ ws (nw) | F (nF) | k1 k2 k3 k4 (nx each) ]
 * and no step allocates.
 *
 * Maths (h = t_{k+1} - t_k):
 *   collatz  x_{k+1/2} = x_k + (h/2) f(t_k, x_k)
 *            x_{k+1}   = x_k + h f(t_k + h/2, x_{k+1/2})       (seeds/001 22.6)
 *   rk4      k1 = f(t_k, x_k), k2 = f(t_k + h/2, x_k + (h/2) k1),
 *            k3 = f(t_k + h/2, x_k + (h/2) k2), k4 = f(t_k + h, x_k + h k3),
 *            x_{k+1} = x_k + (h/6)(k1 + 2 k2 + 2 k3 + k4)     (seeds/001 22.7)
 *
 * Steps: N = round(T/H) equal steps when |T/H - N| <= 1e-9 max(1, T/H),
 * else N = ceil(T/H) with the last step shortened; N <= RC_SIM_MAX_STEPS.
 *
 * Guess (rc_simulate_guess): the source ODE formulation is integrated
 * through the target's node times (each interval split into equal substeps
 * no longer than h), so the values at the nodes carry only the method's
 * error, no interpolation.  Names map the source's variables and outputs
 * onto the target's variables; a source whose states are not the target's
 * (angles for Cartesian coordinates) provides the map as derived outputs
 * named like the target's variables (SPEC 4.2), so nothing here depends on
 * the problem.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/timing.h"
#include "radcol/params.h"
#include "radcol/simulate.h"

#define SIM_MAX_NAMES 64

const char *rc_sim_method_name(rc_sim_method m) {
  switch (m) {
  case RC_SIM_RK4:
    return "rk4";
  case RC_SIM_COLLATZ:
    return "collatz";
  }
  return NULL;
}

rc_err rc_simulate_check(const rc_problem *pb, rc_error *err) {
  if (!pb)
    return rc_error_set(err, RC_ERR_INPUT, "problem pointer is NULL");
  if (pb->ny > 0 || pb->nu > 0) {
    const char *first =
        pb->var_names ? pb->var_names[pb->nx] : "?"; /* first y or u */
    return rc_error_set(
        err, RC_ERR_INPUT,
        "%s/%s has %d algebraic variable%s and %d control%s (first: %s): "
        "explicit integration needs an ODE formulation (ny = 0, nu = 0); "
        "the algebraic equations 0 = g(t, w) and free controls have no "
        "explicit update",
        pb->model, pb->formulation, pb->ny, pb->ny == 1 ? "" : "s", pb->nu,
        pb->nu == 1 ? "" : "s", first);
  }
  if (pb->free_tf)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s has a free final time: a simulation needs a "
                        "fixed horizon",
                        pb->model, pb->formulation);
  if (pb->nx < 1 || !pb->point.eval || !pb->x0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: nx = %d, no dynamics or no initial state: "
                        "nothing to integrate",
                        pb->model, pb->formulation, pb->nx);
  if (!(pb->tf > pb->t0) || !isfinite(pb->tf) || !isfinite(pb->t0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: horizon [%g, %g]: expected finite t0 < tf",
                        pb->model, pb->formulation, pb->t0, pb->tf);
  return RC_OK;
}

rc_err rc_simulate_plan(double t0, double tf, double h, long *nsteps,
                        int *uniform, rc_error *err) {
  if (!(h > 0.0) || !isfinite(h))
    return rc_error_set(err, RC_ERR_INPUT,
                        "step %g: expected a finite number > 0", h);
  const double T = tf - t0;
  if (!(T > 0.0) || !isfinite(T))
    return rc_error_set(err, RC_ERR_INPUT,
                        "horizon [%g, %g]: expected finite t0 < tf", t0, tf);
  const double r = T / h;
  if (!(r <= (double)RC_SIM_MAX_STEPS + 0.5))
    return rc_error_set(err, RC_ERR_INPUT,
                        "step %g over [%g, %g] needs %.3g steps: expected at "
                        "most %ld",
                        h, t0, tf, r, RC_SIM_MAX_STEPS);
  double n = floor(r + 0.5);
  int uni = n >= 1.0 && fabs(r - n) <= 1e-9 * fmax(1.0, r);
  if (!uni)
    n = ceil(r);
  if (n > (double)RC_SIM_MAX_STEPS)
    return rc_error_set(err, RC_ERR_INPUT,
                        "step %g over [%g, %g] needs %.0f steps: expected at "
                        "most %ld",
                        h, t0, tf, n, RC_SIM_MAX_STEPS);
  *nsteps = (long)n;
  *uniform = uni || n == 1.0;
  return RC_OK;
}

int rc_simulate_work_size(const rc_problem *pb) {
  return rc_problem_nw(pb) + rc_problem_nF(pb) + 4 * pb->nx + 1;
}

/* k = f(t, w): rows 0..nx-1 of the point block. */
static rc_err eval_f(const rc_problem *pb, double t, const double *w, double *F,
                     double *k, rc_sim_method m, rc_error *err) {
  int st = pb->point.eval(pb, t, w, F);
  if (st != 0) {
    char buf[160];
    int len = 0;
    for (int i = 0; i < pb->nx && len < (int)sizeof buf - 40; ++i)
      len +=
          snprintf(buf + len, sizeof buf - (size_t)len, "%s%s = %.6g",
                   i ? ", " : "", pb->var_names ? pb->var_names[i] : "?", w[i]);
    return rc_error_set(err, RC_ERR_EVAL,
                        "%s/%s: f failed (status %d) at t = %.9g during %s, "
                        "with %s",
                        pb->model, pb->formulation, st, t,
                        rc_sim_method_name(m), len ? buf : "no states");
  }
  memcpy(k, F, sizeof *k * (size_t)pb->nx);
  return RC_OK;
}

rc_err rc_simulate_step(const rc_problem *pb, rc_sim_method m, double t,
                        double h, const double *w, double *wnext, double *work,
                        rc_error *err) {
  const int nx = pb->nx, nw = rc_problem_nw(pb), nF = rc_problem_nF(pb);
  double *ws = work, *F = ws + nw, *k1 = F + nF, *k2 = k1 + nx, *k3 = k2 + nx,
         *k4 = k3 + nx;
  rc_err rc;
  memcpy(ws, w, sizeof *ws * (size_t)nw); /* p part stays */
  if ((rc = eval_f(pb, t, w, F, k1, m, err)))
    return rc;
  if (m == RC_SIM_COLLATZ) {
    for (int i = 0; i < nx; ++i)
      ws[i] = w[i] + 0.5 * h * k1[i];
    if ((rc = eval_f(pb, t + 0.5 * h, ws, F, k2, m, err)))
      return rc;
    for (int i = 0; i < nx; ++i)
      wnext[i] = w[i] + h * k2[i];
  } else if (m == RC_SIM_RK4) {
    for (int i = 0; i < nx; ++i)
      ws[i] = w[i] + 0.5 * h * k1[i];
    if ((rc = eval_f(pb, t + 0.5 * h, ws, F, k2, m, err)))
      return rc;
    for (int i = 0; i < nx; ++i)
      ws[i] = w[i] + 0.5 * h * k2[i];
    if ((rc = eval_f(pb, t + 0.5 * h, ws, F, k3, m, err)))
      return rc;
    for (int i = 0; i < nx; ++i)
      ws[i] = w[i] + h * k3[i];
    if ((rc = eval_f(pb, t + h, ws, F, k4, m, err)))
      return rc;
    for (int i = 0; i < nx; ++i)
      wnext[i] = w[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  } else {
    return rc_error_set(err, RC_ERR_INPUT, "method %d: expected rk4 or collatz",
                        (int)m);
  }
  for (int i = nx; i < nw; ++i)
    wnext[i] = w[i];
  for (int i = 0; i < nx; ++i)
    if (!isfinite(wnext[i]))
      return rc_error_set(err, RC_ERR_EVAL,
                          "%s/%s: %s = %g after the %s step from t = %.9g "
                          "(h = %g): the integration diverged",
                          pb->model, pb->formulation,
                          pb->var_names ? pb->var_names[i] : "?", wnext[i],
                          rc_sim_method_name(m), t, h);
  return RC_OK;
}

static double clip(double v, double lo, double hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

/* Initial point vector: x0, and p from the guess function (else 0), clipped. */
static void initial_point(const rc_problem *pb, double *w) {
  const int nw = rc_problem_nw(pb);
  for (int i = 0; i < nw; ++i)
    w[i] = 0.0;
  if (pb->guess && pb->np > 0)
    (void)pb->guess(pb, pb->t0, w);
  for (int i = 0; i < pb->nx; ++i)
    w[i] = pb->x0[i];
  for (int i = pb->nx; i < nw; ++i) {
    const double lo = pb->w_lo ? pb->w_lo[i] : -HUGE_VAL;
    const double hi = pb->w_hi ? pb->w_hi[i] : HUGE_VAL;
    w[i] = clip(isfinite(w[i]) ? w[i] : 0.0, lo, hi);
  }
}

rc_err rc_simulate(const rc_problem *pb, rc_sim_method m, double h,
                   rc_solution *sol, rc_solve_stats *stats, rc_error *err) {
  rc_err rc;
  if ((rc = rc_simulate_check(pb, err)))
    return rc;
  if (!rc_sim_method_name(m))
    return rc_error_set(err, RC_ERR_INPUT, "method %d: expected rk4 or collatz",
                        (int)m);
  long n;
  int uniform;
  if ((rc = rc_simulate_plan(pb->t0, pb->tf, h, &n, &uniform, err)))
    return rc;
  const double start = rc_now_s();
  const double T = pb->tf - pb->t0;
  const int N = (int)n, nw = rc_problem_nw(pb);
  double *frac = malloc(sizeof *frac * (size_t)(N + 1));
  int *stages = malloc(sizeof *stages * (size_t)N);
  double *work = malloc(sizeof *work * (size_t)rc_simulate_work_size(pb));
  rc_mesh mesh;
  memset(&mesh, 0, sizeof mesh);
  memset(sol, 0, sizeof *sol);
  if (!frac || !stages || !work) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory for %d steps", N);
    goto done;
  }
  for (int k = 0; k < N; ++k) {
    frac[k] = uniform ? (double)k / N : k * h / T;
    stages[k] = 1;
  }
  frac[N] = 1.0;
  if ((rc = rc_mesh_from_arrays(N, frac, stages, &mesh, err)))
    goto done;
  if ((rc = rc_solution_alloc(pb, &mesh, pb->t0, pb->tf, 0, sol, err)))
    goto done;
  rc_solution_set_times(sol);
  initial_point(pb, sol->w);
  for (int k = 0; k < N; ++k) {
    const double *w = sol->w + (size_t)k * nw;
    double *wn = sol->w + (size_t)(k + 1) * nw;
    if ((rc = rc_simulate_step(pb, m, sol->t[k], sol->t[k + 1] - sol->t[k], w,
                               wn, work, err))) {
      rc_solution_free(sol);
      goto done;
    }
  }
  if (stats) {
    memset(stats, 0, sizeof *stats);
    stats->status = RC_STATUS_NOT_RUN;
    stats->objective = NAN;
    stats->constraint_violation = NAN;
    stats->dual_infeasibility = NAN;
    stats->wall_s = stats->eval_s = rc_now_s() - start;
    stats->nvars = sol->nnodes * nw;
    snprintf(stats->message, sizeof stats->message,
             "explicit %s: %d step%s of h = %.9g%s (no NLP)",
             rc_sim_method_name(m), N, N == 1 ? "" : "s", uniform ? T / N : h,
             uniform ? "" : ", the last one shortened");
  }
done:
  rc_mesh_free(&mesh);
  free(frac);
  free(stages);
  free(work);
  return rc;
}

/* Source formulation for a guess: target itself if it is an ODE, else the
 * model's "angle", else its first formulation that is an ODE. */
static rc_err make_source(const rc_model *model, const rc_param_values *pv,
                          const rc_problem *target, rc_problem **src,
                          rc_error *err) {
  *src = NULL;
  int f = rc_model_find_formulation(model, target->formulation);
  if (!(target->ny == 0 && target->nu == 0))
    f = rc_model_find_formulation(model, "angle");
  rc_error e2;
  if (f >= 0 && model->create(model, f, pv, src, &e2) == RC_OK && *src &&
      rc_simulate_check(*src, NULL) == RC_OK)
    return RC_OK;
  rc_problem_free(src);
  for (f = 0; f < model->nformulations; ++f) {
    if (model->create(model, f, pv, src, &e2) == RC_OK && *src &&
        rc_simulate_check(*src, NULL) == RC_OK)
      return RC_OK;
    rc_problem_free(src);
  }
  return rc_error_set(err, RC_ERR_INPUT,
                      "%s/%s: the model has no formulation without algebraic "
                      "variables and controls to simulate for a guess",
                      target->model, target->formulation);
}

/* Named values of the source at one time: its states and its derived
 * outputs (a problem that can seed others by name provides the map as
 * outputs, e.g. Cartesian positions from angles).  Returns the
 * count. */
static int source_values(const rc_problem *src, double t, const double *w,
                         double *out, const char **names, double *vals) {
  int n = 0;
  const int nv = src->nx;
  for (int i = 0; i < nv && n < SIM_MAX_NAMES; ++i, ++n)
    names[n] = src->var_names[i], vals[n] = w[i];
  if (src->nout > 0 && src->outputs && src->out_names &&
      src->outputs(src, t, w, out) == 0)
    for (int i = 0; i < src->nout && n < SIM_MAX_NAMES; ++i, ++n)
      names[n] = src->out_names[i], vals[n] = out[i];
  return n;
}

/* Advance the source from *t to tn in equal substeps <= h (ws: the state,
 * wn and work scratch). */
static rc_err advance_to(const rc_problem *src, rc_sim_method m, double h,
                         double *t, double tn, double *ws, double *wn,
                         double *work, rc_error *err) {
  if (!(tn > *t))
    return RC_OK;
  const double gap = tn - *t;
  const double r = gap / h;
  if (!(r <= (double)RC_SIM_MAX_STEPS))
    return rc_error_set(err, RC_ERR_INPUT,
                        "guess step %g: needs more than %ld steps", h,
                        RC_SIM_MAX_STEPS);
  const long ns = (long)ceil(r - 1e-9);
  const double hs = gap / (double)(ns > 0 ? ns : 1);
  for (long q = 0; q < (ns > 0 ? ns : 1); ++q) {
    rc_err rc = rc_simulate_step(src, m, *t + q * hs, hs, ws, wn, work, err);
    if (rc)
      return rc;
    memcpy(ws, wn, sizeof *ws * (size_t)rc_problem_nw(src));
  }
  *t = tn;
  return RC_OK;
}

/* The target's point w at tn: its own guess (x0 and zeros without one),
 * then every variable named like a variable or output of the simulation
 * (marked in filled), clipped to the bounds.  out: src->nout scratch. */
static void target_point(const rc_problem *target, const rc_problem *src,
                         double tn, const double *ws, double *out, double *w,
                         int *filled) {
  const int nwt = rc_problem_nw(target);
  const char *names[SIM_MAX_NAMES];
  double vals[SIM_MAX_NAMES];
  for (int i = 0; i < nwt; ++i)
    w[i] = i < target->nx && target->x0 ? target->x0[i] : 0.0;
  if (target->guess && target->guess(target, tn, w) != 0)
    for (int i = 0; i < nwt; ++i)
      w[i] = i < target->nx && target->x0 ? target->x0[i] : 0.0;
  const int nv = source_values(src, tn, ws, out, names, vals);
  const int nxyu = target->nx + target->ny + target->nu;
  for (int i = 0; i < nxyu; ++i)
    for (int j = 0; j < nv; ++j)
      if (target->var_names && strcmp(target->var_names[i], names[j]) == 0) {
        w[i] = vals[j];
        filled[i] = 1;
        break;
      }
  for (int i = 0; i < nwt; ++i) {
    const double lo = target->w_lo ? target->w_lo[i] : -HUGE_VAL;
    const double hi = target->w_hi ? target->w_hi[i] : HUGE_VAL;
    w[i] = clip(isfinite(w[i]) ? w[i] : 0.0, lo, hi);
  }
}

rc_err rc_simulate_guess(const rc_model *model, const rc_param_values *pv,
                         const rc_problem *target, const rc_mesh *mesh,
                         rc_sim_method m, double h, rc_solution *guess,
                         char *source, int *nmatched, rc_error *err) {
  if (!model || !pv || !target || !mesh || !guess)
    return rc_error_set(err, RC_ERR_INPUT, "simulate guess: NULL argument");
  if (!rc_sim_method_name(m))
    return rc_error_set(err, RC_ERR_INPUT, "method %d: expected rk4 or collatz",
                        (int)m);
  memset(guess, 0, sizeof *guess);
  rc_problem *src = NULL;
  rc_err rc = make_source(model, pv, target, &src, err);
  if (rc)
    return rc;
  if (source)
    snprintf(source, 64, "%s", src->formulation);
  const double t0 = target->t0, tf = target->tf;
  if (!(h > 0.0))
    h = (tf - t0) / 1000.0;
  const int nws = rc_problem_nw(src), nwt = rc_problem_nw(target);
  double *ws = malloc(sizeof *ws * (size_t)nws);
  double *wn = malloc(sizeof *wn * (size_t)nws);
  double *work = malloc(sizeof *work * (size_t)rc_simulate_work_size(src));
  double *out = malloc(sizeof *out * (size_t)(src->nout + 1));
  int *filled = calloc((size_t)nwt + 1, sizeof *filled);
  int matched = 0;
  if (!ws || !wn || !work || !out || !filled) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory for a simulated guess");
    goto done;
  }
  if ((rc = rc_solution_alloc(target, mesh, t0, tf, 0, guess, err)))
    goto done;
  rc_solution_set_times(guess);
  initial_point(src, ws);
  double t = src->t0;
  for (int n = 0; n < guess->nnodes; ++n) {
    const double tn = guess->t[n];
    if ((rc = advance_to(src, m, h, &t, tn, ws, wn, work, err)))
      goto fail;
    target_point(target, src, tn, ws, out, guess->w + (size_t)n * nwt, filled);
  }
  for (int i = 0; i < nwt; ++i)
    matched += filled[i];
  if (matched == 0) {
    rc = rc_error_set(err, RC_ERR_INPUT,
                      "%s/%s: no variable matches a variable or output of "
                      "the simulated %s/%s",
                      target->model, target->formulation, src->model,
                      src->formulation);
    goto fail;
  }
  if (nmatched)
    *nmatched = matched;
  goto done;
fail:
  rc_solution_free(guess);
done:
  rc_problem_free(&src);
  free(ws);
  free(wn);
  free(work);
  free(out);
  free(filled);
  return rc;
}
