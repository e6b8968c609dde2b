/*
 * march_refine.c - an initial-value DAE integrated to a global tolerance
 * (radcol/march_refine.h): march, estimate, and march again with the local
 * tolerance scaled by max(0.01, 0.5 rtol / E) while E, the largest relative
 * global estimate of an index-1 unknown, exceeds rtol; not again after a
 * march whose local tolerance was raised to its rounding floor or whose
 * successor's would be below 1e3 eps, or one that did not halve E (a
 * tighter local tolerance would not help).
 *
 * Invariants: exactly one march's solution is alive between iterations (the
 * best so far, the last that succeeded); every march gets one row; the
 * options of march m are opt with rtol, atol and every named atol times f_m
 * (so atol_i / rtol, the estimate's scale, is the same for every march).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/timing.h"
#include "radcol/march_refine.h"
#include "radcol/start.h"

/* opt with its tolerances times f (named atols into the caller's array). */
static rc_options scaled(const rc_options *opt, double f, double *atol_v) {
  rc_options o = *opt;
  o.progress = NULL;
  o.progress_ctx = NULL;
  o.rtol = opt->rtol * f;
  o.atol = opt->atol * f;
  for (int i = 0; i < opt->natol; ++i)
    atol_v[i] = opt->atol_values[i] * f;
  o.atol_values = opt->natol > 0 ? atol_v : NULL;
  if (o.rtol < 1e-14) /* the options' floor */
    o.rtol = 1e-14;
  return o;
}

/* Largest relative estimate over the index-1 unknowns (NaN: none). */
static double index1_worst(const rc_error_estimate *e, const int *k) {
  double w = NAN;
  for (int i = 0; i < e->nvar; ++i) {
    if (k[i] != 1)
      continue;
    const double r = e->var[i] / e->scale[i];
    if (isnan(w) || !(r <= w))
      w = isnan(r) ? INFINITY : r;
  }
  return w;
}

static void fill_row(rc_refine_row *row, int it, const rc_solution *s,
                     const rc_solve_stats *st, const rc_error_estimate *e,
                     double wall) {
  memset(row, 0, sizeof *row);
  row->iteration = it;
  row->elements = s->mesh.n;
  row->stages_min = rc_mesh_min_stages(&s->mesh);
  row->stages_max = rc_mesh_max_stages(&s->mesh);
  row->nvars = st->nvars;
  row->est_error = e ? e->local_max : NAN;
  row->ref_error = NAN;
  row->ipopt_iterations = st->iterations;
  row->wall_s = wall;
  row->status = (int)st->status;
  row->dense_violation = NAN;
  row->global_error = NAN;
}

rc_err rc_march_refined(const rc_problem *pb, const rc_options *opt,
                        const rc_solution *guess, int max_marches,
                        rc_estimate_kind kind, rc_solution *sol,
                        rc_solve_stats *stats, rc_march_info *info,
                        rc_refine_row **rows, int *nrows,
                        rc_error_estimate *est, rc_error *err) {
  if (opt && opt->x0) { /* a different start: the problem restarted there */
    rc_options o = *opt;
    o.x0 = NULL;
    rc_problem *moved = NULL;
    rc_err rs = rc_problem_restart(pb, opt->x0, &moved, err);
    if (rs == RC_OK)
      rs = rc_march_refined(moved, &o, guess, max_marches, kind, sol, stats,
                            info, rows, nrows, est, err);
    rc_problem_free(&moved);
    return rs;
  }
  memset(sol, 0, sizeof *sol);
  memset(stats, 0, sizeof *stats);
  if (est)
    memset(est, 0, sizeof *est);
  *rows = NULL;
  *nrows = 0;
  if (max_marches < 1 || max_marches > 100)
    return rc_error_set(err, RC_ERR_INPUT,
                        "march count %d: expected an integer in 1..100",
                        max_marches);
  if (kind != RC_ESTIMATE_NONE && !est)
    return rc_error_set(err, RC_ERR_INPUT,
                        "an estimate was asked for without a place for it");
  rc_err rc = rc_options_validate(opt, err);
  if (rc != RC_OK)
    return rc;
  const int nq = pb->nx + pb->ny + pb->nu;
  int *k = malloc(sizeof *k * (size_t)(nq + 1));
  double *atol_v = malloc(sizeof *atol_v * (size_t)(opt->natol + 1));
  rc_refine_row *hist = calloc((size_t)max_marches, sizeof *hist);
  if (!k || !atol_v || !hist) {
    free(k);
    free(atol_v);
    free(hist);
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for %d marches",
                        max_marches);
  }
  if ((rc = rc_march_variable_index(pb, guess, k, err)) != RC_OK) {
    free(k);
    free(atol_v);
    free(hist);
    return rc;
  }
  double f = 1.0, prev_worst = NAN;
  int n = 0, have = 0;
  char why[RC_MESSAGE_MAX] = "";
  rc_march_info minfo;
  for (int m = 0; m < max_marches; ++m) {
    const double t0 = rc_now_s();
    const rc_options o = scaled(opt, f, atol_v);
    rc_solution s;
    rc_solve_stats st;
    rc_march_info inf;
    if ((rc = rc_march_solve(pb, &o, guess, &s, &st, &inf, err)) != RC_OK)
      break;
    if (st.status != RC_STATUS_CONVERGED) {
      fill_row(&hist[n++], m, &s, &st, NULL, rc_now_s() - t0);
      if (have) { /* keep the last march that succeeded */
        snprintf(why, sizeof why,
                 "march %d (local tolerance %.3g) failed (%.200s); the result "
                 "is march %d's",
                 m, o.rtol, st.message, m - 1);
        rc_solution_free(&s);
      } else {
        *sol = s;
        *stats = st;
        minfo = inf;
        have = 1;
        snprintf(why, sizeof why, "the first march failed");
      }
      break;
    }
    rc_error_estimate e;
    int have_e = 0;
    if (kind != RC_ESTIMATE_NONE) {
      if ((rc = rc_estimate_error(pb, &s, &o, kind, &e, err)) != RC_OK) {
        rc_solution_free(&s);
        break;
      }
      have_e = 1;
    }
    fill_row(&hist[n++], m, &s, &st, have_e ? &e : NULL, rc_now_s() - t0);
    if (have) {
      rc_solution_free(sol);
      if (est)
        rc_error_estimate_free(est);
    }
    *sol = s;
    *stats = st;
    minfo = inf;
    have = 1;
    if (have_e)
      *est = e;
    const double worst =
        have_e && e.kind == RC_ESTIMATE_GLOBAL ? index1_worst(&e, k) : NAN;
    hist[n - 1].global_error = worst;
    if (kind != RC_ESTIMATE_GLOBAL) {
      snprintf(why, sizeof why, "one march at local tolerance %.3g", o.rtol);
      break;
    }
    if (isnan(worst)) {
      snprintf(why, sizeof why,
               "one march at local tolerance %.3g; the global estimate "
               "failed (%.300s)",
               o.rtol, e.note);
      break;
    }
    if (worst <= opt->rtol) {
      snprintf(why, sizeof why,
               "tolerance %.3g met after %d march%s: global estimate %.3g "
               "(index-1 unknowns), local tolerance %.3g",
               opt->rtol, m + 1, m ? "es" : "", worst, o.rtol);
      break;
    }
    /* a march at its rounding floor, or one that did not halve the
     * estimate, is not improved by a tighter local tolerance */
    const double f_next = f * fmax(0.01, 0.5 * opt->rtol / worst);
    const int floor_hit = inf.rtol_raised > 0;
    const int too_tight = f_next * opt->rtol < 1e3 * DBL_EPSILON;
    const int stalled = !isnan(prev_worst) && !(worst < 0.5 * prev_worst);
    snprintf(why, sizeof why,
             "tolerance %.3g not met after %d march%s (%s): global estimate "
             "%.3g (index-1 unknowns) at local tolerance %.3g",
             opt->rtol, m + 1, m ? "es" : "",
             floor_hit   ? "the march is at its rounding floor"
             : too_tight ? "the next local tolerance would be below 1e3 eps"
             : stalled   ? "the last march did not halve the estimate"
                         : "the march cap",
             worst, o.rtol);
    if (floor_hit || too_tight || stalled)
      break;
    prev_worst = worst;
    f = f_next;
  }
  free(k);
  free(atol_v);
  if (rc != RC_OK || !have) {
    if (have) {
      rc_solution_free(sol);
      if (est && kind != RC_ESTIMATE_NONE)
        rc_error_estimate_free(est);
    }
    free(hist);
    memset(sol, 0, sizeof *sol);
    memset(stats, 0, sizeof *stats);
    return rc != RC_OK ? rc
                       : rc_error_set(err, RC_ERR_INTERNAL,
                                      "the march loop ended without a march");
  }
  if (info)
    *info = minfo;
  *rows = hist;
  *nrows = n;
  char m[RC_MESSAGE_MAX];
  snprintf(m, sizeof m, "%.250s; %.250s", stats->message, why);
  memcpy(stats->message, m, sizeof m);
  rc_error_clear(err);
  return RC_OK;
}
