/*
 * phases_refine.c - error estimates and hp refinement of multiphase problems
 * (radcol/phases_refine.h): the one-phase estimators (estimate.c) and mesh
 * changes (refine.c) applied phase by phase, the solves always of the whole
 * linked problem (rc_phases_solve).
 *
 * The enriched solve of the global estimate is run as estimate.c runs its
 * own: warm from the solution, Ipopt tolerance min(tol, 1e-13), at most 100
 * iterations (a solve that needs more is not a perturbation of this one).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/phases_refine.h"

#define RC_PHASES_ENRICHED_MAX_ITER 100
#define RC_PHASES_ENRICHED_TOL 1e-13

static rc_err split_mesh(const rc_mesh *m, rc_mesh *out, rc_error *err) {
  const int n = m->n;
  double *frac = malloc(sizeof *frac * (size_t)(2 * n + 1));
  int *st = malloc(sizeof *st * (size_t)(2 * n));
  if (!frac || !st) {
    free(frac);
    free(st);
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for a mesh");
  }
  for (int k = 0; k < n; ++k) {
    frac[2 * k] = m->frac[k];
    frac[2 * k + 1] = 0.5 * (m->frac[k] + m->frac[k + 1]);
    st[2 * k] = st[2 * k + 1] = m->stages[k];
  }
  frac[2 * n] = 1.0;
  rc_err rc = rc_mesh_from_arrays(2 * n, frac, st, out, err);
  free(frac);
  free(st);
  return rc;
}

static void free_meshes(rc_mesh *m, int n) {
  for (int k = 0; m && k < n; ++k)
    rc_mesh_free(&m[k]);
  free(m);
}

rc_err rc_phases_estimate(const rc_phases *ph, const rc_phases_solution *s,
                          const rc_options *opt, rc_estimate_kind kind,
                          rc_error_estimate *est, rc_error *err) {
  const int n = s->nphases;
  memset(est, 0, sizeof *est * (size_t)n);
  rc_phases_solution fine;
  rc_solve_stats fst;
  memset(&fine, 0, sizeof fine);
  memset(&fst, 0, sizeof fst);
  int have_fine = 0;
  char why[RC_MESSAGE_MAX] = "";
  if (kind == RC_ESTIMATE_GLOBAL) {
    rc_mesh *m = calloc((size_t)n, sizeof *m);
    rc_err rc = m ? RC_OK : rc_error_set(err, RC_ERR_NOMEM, "out of memory");
    for (int k = 0; k < n && rc == RC_OK; ++k)
      rc = split_mesh(&s->sol[k].mesh, &m[k], err);
    if (rc != RC_OK) {
      free_meshes(m, n);
      return rc;
    }
    rc_options o = *opt;
    o.progress = NULL;
    o.progress_ctx = NULL;
    o.warm_start = s->sol[0].has_duals;
    o.tol = fmin(opt->tol, RC_PHASES_ENRICHED_TOL);
    o.acceptable_tol = opt->tol;
    if (o.max_iter > RC_PHASES_ENRICHED_MAX_ITER)
      o.max_iter = RC_PHASES_ENRICHED_MAX_ITER;
    rc_error ferr = {RC_OK, ""};
    /* a solution of a path back-off (rc_phases.path_tol) solved tightened
     * bounds: the enriched solve solves those, without a back-off of its
     * own (the same problem on a finer mesh) */
    rc_phases same = *ph;
    rc_phase *phase = s->path_lo ? calloc((size_t)n, sizeof *phase) : NULL;
    rc_problem *pb = s->path_lo ? calloc((size_t)n, sizeof *pb) : NULL;
    if (s->path_lo && (!phase || !pb))
      rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory");
    for (int k = 0; rc == RC_OK && phase && k < n; ++k) {
      pb[k] = *ph->phase[k].pb;
      pb[k].destroy = NULL;
      pb[k].c_lo = s->path_lo[k];
      pb[k].c_hi = s->path_hi[k];
      phase[k] = ph->phase[k];
      phase[k].pb = &pb[k];
    }
    if (phase) {
      same.phase = phase;
      same.path_tol = 0.0;
    }
    if (rc == RC_OK)
      rc = rc_phases_solve(&same, m, &o, s->sol, &fine, &fst, &ferr);
    free(phase);
    free(pb);
    free_meshes(m, n);
    if (rc == RC_ERR_NOMEM)
      return rc;
    if (rc != RC_OK)
      snprintf(why, sizeof why,
               "local estimate only: the enriched solve (every element of "
               "every phase split in two) could not run: %.400s",
               ferr.message);
    else if (fst.status != RC_STATUS_CONVERGED &&
             fst.status != RC_STATUS_ACCEPTABLE)
      snprintf(why, sizeof why,
               "local estimate only: the enriched solve (every element of "
               "every phase split in two) ended '%s' after %d iterations",
               rc_status_name(fst.status), fst.iterations);
    else
      have_fine = 1;
    if (rc == RC_OK && !have_fine)
      rc_phases_solution_free(&fine);
  }
  char what[160];
  snprintf(what, sizeof what,
           "an enriched solve of all %d phases with every element split in "
           "two (%d variables, %d iterations)",
           n, fst.nvars, fst.iterations);
  rc_err rc = RC_OK;
  for (int k = 0; k < n && rc == RC_OK; ++k) {
    rc = rc_estimate_error_against(&s->pb[k], &s->sol[k],
                                   have_fine ? &fine.sol[k] : NULL, opt, what,
                                   &est[k], err);
    if (rc != RC_OK)
      break;
    if (kind == RC_ESTIMATE_GLOBAL) {
      est[k].enriched_status = (int)fst.status;
      est[k].enriched_iterations = fst.iterations;
      est[k].enriched_nvars = fst.nvars;
      est[k].enriched_wall_s = fst.wall_s;
      if (!have_fine)
        snprintf(est[k].note, sizeof est[k].note, "%s", why);
    } else if (kind == RC_ESTIMATE_NONE) {
      est[k].kind = RC_ESTIMATE_NONE;
      snprintf(est[k].note, sizeof est[k].note, "no error estimate requested");
    }
  }
  if (have_fine)
    rc_phases_solution_free(&fine);
  if (rc != RC_OK)
    for (int k = 0; k < n; ++k)
      rc_error_estimate_free(&est[k]);
  return rc;
}

/* One row of the history for the solve s. */
static void fill_row(rc_refine_row *r, int it, const rc_phases_solution *s,
                     const rc_solve_stats *st, double est_max, double global) {
  memset(r, 0, sizeof *r);
  r->iteration = it;
  r->stages_min = RC_MAX_STAGES;
  for (int k = 0; k < s->nphases; ++k) {
    const rc_mesh *m = &s->sol[k].mesh;
    r->elements += m->n;
    const int a = rc_mesh_min_stages(m), b = rc_mesh_max_stages(m);
    r->stages_min = a < r->stages_min ? a : r->stages_min;
    r->stages_max = b > r->stages_max ? b : r->stages_max;
  }
  r->nvars = st->nvars;
  r->est_error = est_max;
  r->ref_error = NAN;
  r->ipopt_iterations = st->iterations;
  r->wall_s = st->wall_s;
  r->status = (int)st->status;
  r->dense_violation = NAN;
  r->global_error = global;
}

static int solved(rc_status s) {
  return s == RC_STATUS_CONVERGED || s == RC_STATUS_ACCEPTABLE;
}

rc_err rc_phases_solve_refined(
    const rc_phases *ph, const rc_mesh *meshes, const rc_solution *guesses,
    const rc_options *opt, const rc_refine_options *ro, rc_phases_solution *out,
    rc_solve_stats *stats, rc_refine_row **rows, int *nrows, rc_error *err) {
  *rows = NULL;
  *nrows = 0;
  memset(out, 0, sizeof *out);
  rc_err rc = rc_refine_options_validate(ro, err);
  if (rc != RC_OK)
    return rc;
  const int n = ph->nphases;
  rc_mesh *cur = calloc((size_t)n, sizeof *cur);
  rc_refine_row *hist = calloc((size_t)ro->max_refinements + 2, sizeof *hist);
  if (!cur || !hist) {
    free(cur);
    free(hist);
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory");
  }
  for (int k = 0; k < n && rc == RC_OK; ++k)
    rc = rc_mesh_copy(&meshes[k], &cur[k], err);
  rc_phases_solution sol, prev;
  memset(&sol, 0, sizeof sol);
  memset(&prev, 0, sizeof prev);
  int have_prev = 0, it = 0;
  char stop[RC_MESSAGE_MAX] = "";
  rc_options o = *opt;
  while (rc == RC_OK) {
    rc = rc_phases_solve(ph, cur, &o, have_prev ? prev.sol : guesses, &sol,
                         stats, err);
    if (rc != RC_OK)
      break;
    if (have_prev) {
      rc_phases_solution_free(&prev);
      have_prev = 0;
    }
    /* the local estimate of every element of every phase */
    double emax = 0.0;
    double **est = calloc((size_t)n, sizeof *est);
    int total = 0;
    for (int k = 0; est && k < n && rc == RC_OK; ++k) {
      est[k] = malloc(sizeof(double) * (size_t)sol.sol[k].mesh.n);
      if (!est[k]) {
        rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory");
        break;
      }
      rc = rc_refine_estimate(&sol.pb[k], &sol.sol[k], ro->estimator, est[k],
                              err);
      for (int e = 0; rc == RC_OK && e < sol.sol[k].mesh.n; ++e)
        emax = fmax(emax, est[k][e]);
      total += sol.sol[k].mesh.n;
    }
    if (!est && rc == RC_OK)
      rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory");
    double global = NAN;
    rc_error_estimate *gest = NULL;
    const int ok = solved(stats->status);
    if (rc == RC_OK && ok && emax <= ro->tol && ro->global) {
      gest = calloc((size_t)n, sizeof *gest);
      if (gest && rc_phases_estimate(ph, &sol, opt, RC_ESTIMATE_GLOBAL, gest,
                                     err) == RC_OK) {
        global = 0.0;
        for (int k = 0; k < n; ++k)
          global = fmax(global, gest[k].kind == RC_ESTIMATE_GLOBAL ? gest[k].max
                                                                   : INFINITY);
      } else {
        free(gest);
        gest = NULL;
        rc_error_clear(err);
      }
    }
    if (rc == RC_OK) {
      fill_row(&hist[it], it, &sol, stats, emax, global);
      *nrows = it + 1;
      if (ro->progress)
        ro->progress(ro->progress_ctx, &hist[it], "");
    }
    int done = 1;
    if (rc != RC_OK)
      done = 1;
    else if (!ok)
      snprintf(stop, sizeof stop, "stopped: solve %d ended '%s'", it,
               rc_status_name(stats->status));
    else if (emax <= ro->tol && (!ro->global || global <= ro->tol))
      snprintf(stop, sizeof stop,
               "reached tol %g: local estimate %.3g%s after %d mesh "
               "changes",
               ro->tol, emax, ro->global ? " and global estimate" : "", it);
    else if (it >= ro->max_refinements)
      snprintf(stop, sizeof stop,
               "stopped at the cap of %d mesh changes: local estimate %.3g%s",
               ro->max_refinements, emax, isnan(global) ? "" : " (global)");
    else
      done = 0;
    int grown = 0;
    for (int k = 0; !done && k < n && rc == RC_OK; ++k) {
      rc_mesh next;
      memset(&next, 0, sizeof next);
      if (gest && emax <= ro->tol) {
        /* local met, global not: split the elements above tol */
        double *e = est[k];
        for (int q = 0; q < sol.sol[k].mesh.n; ++q)
          e[q] = gest[k].elem_max[q] > ro->tol ? 2.0 * ro->tol * 1e3 : 0.0;
      }
      rc = rc_refine_mesh(&sol.sol[k].mesh, est[k], ro, &next, NULL, NULL, NULL,
                          err);
      if (rc != RC_OK)
        break;
      grown += next.n;
      rc_mesh_free(&cur[k]);
      cur[k] = next;
    }
    if (!done && rc == RC_OK && grown > ro->max_elements) {
      snprintf(stop, sizeof stop,
               "stopped at the cap of %d elements (the next mesh would have "
               "%d): local estimate %.3g",
               ro->max_elements, grown, emax);
      done = 1;
    }
    for (int k = 0; est && k < n; ++k)
      free(est[k]);
    free(est);
    for (int k = 0; gest && k < n; ++k)
      rc_error_estimate_free(&gest[k]);
    free(gest);
    if (done || rc != RC_OK)
      break;
    prev = sol;
    have_prev = 1;
    memset(&sol, 0, sizeof sol);
    o.warm_start = ro->dual_warm_start;
    ++it;
  }
  free_meshes(cur, n);
  if (have_prev)
    rc_phases_solution_free(&prev);
  if (rc != RC_OK) {
    rc_phases_solution_free(&sol);
    free(hist);
    *nrows = 0;
    return rc;
  }
  *out = sol;
  *rows = hist;
  snprintf(stats->message + strlen(stats->message),
           sizeof stats->message - strlen(stats->message), "; refinement %s",
           stop);
  return RC_OK;
}
