/*
 * refine.c - adaptive hp mesh refinement: the hp mesh update, the NLP's
 * memory budget and the warm-started refinement loop (radcol/refine.h, SPEC
 * section 6, docs/mesh-refinement.md).
 *
 * Estimates come from estimate.c (the local Patterson-Hager-Rao estimate,
 * rc_refine_estimate, and the global one, rc_estimate_error); this file only
 * turns them into meshes.
 *
 * Mesh update (per element, in order; see refine.h for the formulas):
 * e > tol raises s by P = ceil(log(e/tol)/log(max(s, 2))) while s + P <=
 * max_stages, else splits into max(ceil((s + P)/min_stages), 2) equal
 * elements of min_stages stages; a non-finite e splits in two.  Runs of two
 * unrefined neighbours with equal s and 2^(s+1) max(e) < merge_factor tol are
 * merged (the error of a degree-s interpolant scales like h^(s+1)).
 *
 * Loop invariants: every solve after the first starts from the previous
 * solution (dense output at the new nodes; duals when dual_warm_start); the
 * next mesh is checked against the element and memory caps before it is
 * solved, so a cap never starts a solve it would refuse.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collocation/radau.h"
#include "core/timing.h"
#include "nlp/nlp_solve.h"
#include "nlp/transcription.h"
#include "radcol/dense_check.h"
#include "radcol/diagnose.h"
#include "radcol/estimate.h"
#include "radcol/refine.h"
#include "radcol/start.h"
#include "radcol/switching.h"

void rc_refine_options_default(rc_refine_options *ro) {
  memset(ro, 0, sizeof *ro);
  ro->tol = 1e-8;
  ro->max_refinements = 12;
  ro->max_elements = 20000;
  ro->max_memory_bytes = 8.0 * 1024.0 * 1024.0 * 1024.0;
  ro->max_stages = 8;
  ro->min_stages = 3;
  ro->merge_factor = 1e-3;
  ro->estimator = RC_REFINE_PHR;
  ro->dual_warm_start = 1;
  ro->global = 1;
  ro->switching = 1;
}

rc_err rc_refine_options_validate(const rc_refine_options *ro, rc_error *err) {
  if (!ro)
    return rc_error_set(err, RC_ERR_INPUT, "refinement options are NULL");
  if (!(ro->tol > 0.0 && isfinite(ro->tol)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "refinement tolerance %g: expected a finite number > 0",
                        ro->tol);
  if (ro->max_refinements < 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "max refinements %d: expected an integer >= 0",
                        ro->max_refinements);
  if (ro->max_elements < 1)
    return rc_error_set(err, RC_ERR_INPUT,
                        "max elements %d: expected an integer >= 1",
                        ro->max_elements);
  if (!(ro->max_memory_bytes > 0.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "max memory %g bytes: expected a number > 0",
                        ro->max_memory_bytes);
  if (ro->switching != 0 && ro->switching != 1)
    return rc_error_set(err, RC_ERR_INPUT,
                        "switching %d: expected 0 (off) or 1 (on)",
                        ro->switching);
  if (ro->max_stages < 2 || ro->max_stages > RC_MAX_STAGES)
    return rc_error_set(err, RC_ERR_INPUT,
                        "max stages %d: expected an integer in 2..%d",
                        ro->max_stages, RC_MAX_STAGES);
  if (ro->min_stages < 1 || ro->min_stages > ro->max_stages)
    return rc_error_set(err, RC_ERR_INPUT,
                        "min stages %d: expected an integer in 1..%d (max "
                        "stages)",
                        ro->min_stages, ro->max_stages);
  if (!(ro->merge_factor >= 0.0 && ro->merge_factor < 1.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "merge factor %g: expected 0 <= factor < 1",
                        ro->merge_factor);
  if (ro->estimator != RC_REFINE_PHR && ro->estimator != RC_REFINE_BETTS &&
      ro->estimator != RC_REFINE_BOTH)
    return rc_error_set(err, RC_ERR_INPUT,
                        "estimator %d: expected RC_REFINE_PHR (0), "
                        "RC_REFINE_BETTS (1) or RC_REFINE_BOTH (2)",
                        (int)ro->estimator);
  return RC_OK;
}

/* ---- mesh update --------------------------------------------------------- */

/* Degree increase P = ceil(log(e/tol)/log(max(s, 2))), at least 1. */
static int degree_increase(double e, double tol, int s) {
  const double r = log(e / tol) / log(s < 2 ? 2.0 : (double)s);
  if (!(r < 64.0))
    return 64;
  const int p = (int)ceil(r);
  return p < 1 ? 1 : p;
}

static rc_err refine_mesh(const rc_mesh *mesh, const double *est,
                          const rc_refine_options *ro, int square, rc_mesh *out,
                          int *nraised, int *nsplit, int *nmerged,
                          rc_error *err);

rc_err rc_refine_mesh(const rc_mesh *mesh, const double *est,
                      const rc_refine_options *ro, rc_mesh *out, int *nraised,
                      int *nsplit, int *nmerged, rc_error *err) {
  return refine_mesh(mesh, est, ro, 0, out, nraised, nsplit, nmerged, err);
}

/* The hp step (refine.h); square (an initial-value problem, whose solution
 * is smooth between the problem's own breaks): an element above tol whose
 * degree increase P would pass max_stages is raised to max_stages and split
 * into m = max(2, ceil(r^(1/(max_stages + 1)))) elements of max_stages
 * stages, r = (e/tol) / s^(max_stages - s) (the raise reduces e by PHR's
 * rate s per degree, the split the rest at h^(max_stages + 1)), instead of
 * ceil((s + P) / min_stages) elements of min_stages stages: at 1e-10 the
 * latter gave a car-axle model 19,507 elements where 240 of 7 stages meet
 * the tolerance (issue 26). */
static rc_err refine_mesh(const rc_mesh *mesh, const double *est,
                          const rc_refine_options *ro, int square, rc_mesh *out,
                          int *nraised, int *nsplit, int *nmerged,
                          rc_error *err) {
  memset(out, 0, sizeof *out);
  rc_err rc;
  if ((rc = rc_mesh_validate(mesh, err)) != RC_OK ||
      (rc = rc_refine_options_validate(ro, err)) != RC_OK)
    return rc;
  const int n = mesh->n;
  /* Children per element: at most max(ceil((s + 64)/min), 2) <= 85. */
  int *kids = malloc(sizeof *kids * (size_t)n);
  int *kid_s = malloc(sizeof *kid_s * (size_t)n);
  int *merge = calloc((size_t)n, sizeof *merge); /* 1: merge with k + 1 */
  if (!kids || !kid_s || !merge) {
    free(kids);
    free(kid_s);
    free(merge);
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory refining %d elements",
                        n);
  }
  int raised = 0, split = 0, merged = 0;
  long total = 0;
  for (int k = 0; k < n; ++k) {
    const int s = mesh->stages[k];
    const double e = est[k];
    kids[k] = 1;
    kid_s[k] = s;
    if (!isfinite(e)) {
      kids[k] = 2;
      ++split;
    } else if (e > ro->tol) {
      const int p = degree_increase(e, ro->tol, s);
      if (s + p <= ro->max_stages) {
        kid_s[k] = s + p;
        ++raised;
      } else if (square) {
        /* the raise to max_stages gives s^(max - s) (PHR's rate), the
         * split the rest at h^(max + 1) */
        const double left =
            e / ro->tol / pow(s < 2 ? 2.0 : (double)s, ro->max_stages - s);
        const double m = ceil(pow(left, 1.0 / (ro->max_stages + 1)));
        kids[k] = m > 2 ? (m < 64 ? (int)m : 64) : 2;
        kid_s[k] = ro->max_stages;
        ++split;
      } else {
        const int m = (s + p + ro->min_stages - 1) / ro->min_stages;
        kids[k] = m > 2 ? m : 2;
        kid_s[k] = ro->min_stages;
        ++split;
      }
    }
  }
  if (ro->merge_factor > 0.0)
    for (int k = 0; k + 1 < n; ++k) {
      const int s = mesh->stages[k];
      if (kids[k] != 1 || kids[k + 1] != 1 || kid_s[k] != s ||
          mesh->stages[k + 1] != s || kid_s[k + 1] != s ||
          rc_mesh_segment_start(mesh, k + 1)) /* never across a segment */
        continue;
      const double e = fmax(est[k], est[k + 1]);
      if (ldexp(e, s + 1) < ro->merge_factor * ro->tol) {
        merge[k] = 1;
        ++merged;
        ++k; /* k + 1 is taken */
      }
    }
  for (int k = 0; k < n; ++k)
    total += merge[k] ? 0 : kids[k];
  double *frac = malloc(sizeof *frac * (size_t)(total + 1));
  int *stages = malloc(sizeof *stages * (size_t)(total > 0 ? total : 1));
  if (!frac || !stages) {
    rc = rc_error_set(err, RC_ERR_NOMEM,
                      "out of memory for a mesh of %ld elements", total);
  } else {
    long q = 0;
    frac[0] = 0.0;
    for (int k = 0; k < n; ++k) {
      if (merge[k])
        continue; /* the merged element ends at frac[k + 2] */
      const double a = frac[q], b = mesh->frac[k + 1];
      for (int c = 0; c < kids[k]; ++c) {
        stages[q] = kid_s[k];
        frac[q + 1] = c + 1 == kids[k] ? b : a + (b - a) * (c + 1) / kids[k];
        ++q;
      }
    }
    frac[total] = 1.0;
    rc = rc_mesh_from_arrays((int)total, frac, stages, out, err);
    if (rc == RC_OK && (rc = rc_mesh_carry_segments(mesh, out, err)) != RC_OK)
      rc_mesh_free(out); /* free breakpoints: the segments stay */
  }
  free(frac);
  free(stages);
  free(kids);
  free(kid_s);
  free(merge);
  if (nraised)
    *nraised = raised;
  if (nsplit)
    *nsplit = split;
  if (nmerged)
    *nmerged = merged;
  return rc;
}

/* ---- dense-grid criterion -------------------------------------------------
 */

/* Elements where the dense grid dv shows a constraint violated between the
 * nodes by more than tol (relative, rc_dense_violation: elem_relative minus
 * elem_node_relative, so a violation the solver's tolerance leaves at the
 * nodes is not the mesh's) are split in two: mark[k] = +inf, the rule of a
 * non-finite estimate (for a square system, square = 1: mark[k] =
 * max(mark[k], v), an error measure the hp rule answers by a raise first);
 * the other marks are left as they are.  Returns the
 * largest such violation (0: none), or +inf without a check (dv NULL). */
static double mark_dense_violations(const rc_dense_violation *dv, int ne,
                                    int square, double tol, double *mark) {
  if (!dv)
    return INFINITY;
  double worst = 0.0;
  for (int k = 0; k < ne; ++k) {
    const double v = dv->elem_relative[k] - dv->elem_node_relative[k];
    if (!(v <= tol))
      mark[k] = square && isfinite(v) ? fmax(mark[k], v) : INFINITY;
    if (!(v <= worst))
      worst = isnan(v) ? INFINITY : v;
  }
  return worst;
}

/* ---- NLP size and memory --------------------------------------------------
 */

void rc_refine_nlp_size(const rc_problem *pb, const rc_mesh *mesh,
                        const rc_options *opt, rc_nlp_size *size) {
  rc_options def;
  if (!opt) {
    rc_options_default(&def);
    opt = &def;
  }
  rc_nlp_counts c;
  rc_nlp_count(pb, mesh, opt->dense_bounds, &c); /* nlp/transcription.c */
  size->nvars = c.nvars;
  size->ncons = c.ncons;
  size->nnz_jac = c.nnz_jac;
  size->nnz_hes = c.nnz_hes;
  /* The memory model: Ipopt's vectors plus a MUMPS factor of the KKT
   * matrix with a fill factor of 10 (radcol/refine.h). */
  const double kkt =
      (double)(size->nnz_jac + size->nnz_hes + size->nvars + size->ncons);
  size->bytes =
      8.0 * (10.0 * kkt + 30.0 * (double)(size->nvars + size->ncons)) +
      4.0 * kkt;
}

/* ---- the loop -------------------------------------------------------------
 */

static double max_finite_or_inf(const double *v, int n) {
  double m = 0.0;
  for (int i = 0; i < n; ++i)
    if (!(v[i] <= m))
      m = isnan(v[i]) ? INFINITY : v[i];
  return m;
}

static void fill_row(rc_refine_row *r, int it, const rc_solution *sol,
                     const rc_solve_stats *st, const double *est,
                     const rc_diagnostics *d, double wall) {
  const rc_mesh *m = &sol->mesh;
  r->iteration = it;
  r->elements = m->n;
  r->stages_min = rc_mesh_min_stages(m);
  r->stages_max = rc_mesh_max_stages(m);
  r->nvars = st->nvars;
  r->est_error = est ? max_finite_or_inf(est, m->n) : NAN;
  r->ref_error = NAN;
  if (d && d->has_reference)
    for (int i = 0; i < d->nvar; ++i)
      if (!isnan(d->err_dense[i]) &&
          (isnan(r->ref_error) || d->err_dense[i] > r->ref_error))
        r->ref_error = d->err_dense[i];
  r->ipopt_iterations = st->iterations;
  r->wall_s = wall;
  r->status = (int)st->status;
  r->dense_violation = NAN;
  r->global_error = NAN;
}

static double nlp_bytes(const rc_problem *pb, const rc_mesh *mesh,
                        const rc_options *opt, rc_nlp_size *sz) {
  rc_refine_nlp_size(pb, mesh, opt, sz);
  return sz->bytes;
}

/* Did the solve succeed: converged, acceptable, or a sampled reference. */
static int solve_ok(const rc_problem *pb, rc_status s) {
  return s == RC_STATUS_CONVERGED || s == RC_STATUS_ACCEPTABLE ||
         (pb->sampled_reference && s == RC_STATUS_NOT_RUN);
}

rc_err rc_solve_refined(const rc_problem *pb, const rc_mesh *initial,
                        const rc_solution *guess, const rc_options *opt,
                        const rc_refine_options *ro, rc_solution *sol,
                        rc_solve_stats *stats, rc_refine_row **rows, int *nrows,
                        rc_error *err) {
  return rc_solve_refined_estimated(pb, initial, guess, opt, ro, sol, stats,
                                    rows, nrows, NULL, err);
}

/* One solve of the run and what is known of it: its solution, stats and
 * row, and its global estimate once computed.  A candidate owns its
 * solution and estimate; nothing is shared between candidates. */
typedef struct refine_candidate {
  rc_solution sol;
  rc_solve_stats st;
  int row;               /* index into the history, -1: empty */
  int have_est;          /* est holds this solution's estimate */
  rc_error_estimate est; /* GLOBAL, or LOCAL when the enriched solve failed */
} refine_candidate;

static void candidate_free(refine_candidate *c) {
  if (c->row >= 0)
    rc_solution_free(&c->sol);
  if (c->have_est)
    rc_error_estimate_free(&c->est);
  memset(c, 0, sizeof *c);
  c->row = -1;
}

/* Its global estimate's max, +inf when there is none (or only a local
 * fallback). */
static double candidate_global(const refine_candidate *c) {
  return c->row >= 0 && c->have_est && c->est.kind == RC_ESTIMATE_GLOBAL
             ? c->est.max
             : INFINITY;
}

/* Compute the estimate of c (kind) unless it has one. */
static rc_err candidate_estimate(const rc_problem *pb, const rc_options *opt,
                                 refine_candidate *c, rc_estimate_kind kind,
                                 rc_error *err) {
  if (c->have_est)
    return RC_OK;
  const rc_err rc = rc_estimate_error(pb, &c->sol, opt, kind, &c->est, err);
  c->have_est = rc == RC_OK;
  return rc;
}

/* The state of one refinement run: the row history, the current and next
 * mesh, the last solve (cur) with its local estimates and marks, and the
 * earlier solve with the smallest global estimate (best).  When the loop
 * ends above the tolerance, refining can have made the answer worse (an
 * undetermined control at a singular point wanders on finer meshes), so the
 * best verified solution is returned instead of the last one.  A solve
 * becomes best when it is replaced by the next one. */
typedef struct refine_run {
  const rc_problem *pb;
  const rc_options *opt;
  const rc_refine_options *ro;
  rc_refine_row *hist;
  int n; /* rows so far */
  rc_mesh mesh, next;
  refine_candidate cur, best;
  double *est, *mark;
  int nresolve, nplan;         /* switching steps so far (switching.h) */
  int switch_off;              /* free breakpoints dropped (a plan failed) */
  char swnote[RC_MESSAGE_MAX]; /* what the last one did */
  /* Local target: ro->tol, tightened when the global estimate of a locally
   * converged mesh is above ro->tol (errors propagate between elements). */
  double tol_local;
  char why[RC_MESSAGE_MAX];
} refine_run;

/* What one solve's estimates say. */
typedef struct refine_verdict {
  int local_met; /* max local estimate <= tol_local */
  int global_ok; /* a global estimate of this solve exists */
  int dense_ok;  /* dense-grid violation <= tol */
  int done;      /* the tolerance is met */
} refine_verdict;

/* The solve being replaced becomes best when its global estimate is the
 * smallest so far; otherwise it is freed. */
static void retire_cur(refine_run *r) {
  if (r->cur.row < 0)
    return;
  if (candidate_global(&r->cur) < candidate_global(&r->best)) {
    candidate_free(&r->best);
    r->best = r->cur;
    memset(&r->cur, 0, sizeof r->cur);
    r->cur.row = -1;
  } else {
    candidate_free(&r->cur);
  }
}

/* Solve on r->mesh (from the last solution, or guess), make it r->cur and
 * append its row with the local estimates (wall time since t_start). */
static rc_err solve_and_record(refine_run *r, int it, const rc_solution *guess,
                               double t_start, rc_error *err) {
  rc_options o = *r->opt;
  const int warm = r->cur.row >= 0;
  if (warm)
    o.warm_start = r->ro->dual_warm_start;
  /* Free breakpoints at kinks are fixed by the objective's curvature only:
   * a switch time comes out to about the square root of the NLP's
   * tolerance (docs/switching.md), so these solves go tighter. */
  if (r->mesh.nseg > 0) { /* "acceptable" still means the asked tol */
    o.tol = fmin(o.tol, RC_SWITCHING_TOL);
    o.acceptable_tol = fmin(o.acceptable_tol, r->opt->tol);
  }
  rc_solution sol;
  rc_solve_stats st;
  rc_err rc = rc_nlp_solve(r->pb, &r->mesh, &o, warm ? &r->cur.sol : guess,
                           &sol, &st, err);
  if (rc != RC_OK)
    return rc;
  if (st.status == RC_STATUS_ACCEPTABLE && o.tol < r->opt->tol &&
      o.acceptable_tol <= r->opt->tol) {
    /* acceptable here is the asked tolerance met, the tighter one not */
    st.status = RC_STATUS_CONVERGED;
    char m[RC_MESSAGE_MAX];
    snprintf(m, sizeof m,
             "%.300s (converged to the requested tol %g; the free "
             "breakpoints' %g not reached)",
             st.message, r->opt->tol, o.tol);
    memcpy(st.message, m, sizeof m);
  }
  retire_cur(r);
  r->cur.sol = sol;
  r->cur.st = st;
  r->cur.row = r->n;
  free(r->est);
  free(r->mark);
  r->est = malloc(sizeof *r->est * (size_t)sol.mesh.n);
  r->mark = malloc(sizeof *r->mark * (size_t)sol.mesh.n);
  if (!r->est || !r->mark)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for %d estimates",
                        sol.mesh.n);
  rc_diagnostics d;
  int have_d =
      rc_diagnose(r->pb, &sol, r->opt->dense_per_element, &d, NULL) == RC_OK;
  /* A sampled reference solves no NLP: its local estimates are 0 and the
   * global estimate (the reference sampled on the enriched mesh) and the
   * dense-grid check steer the mesh. */
  const int sampled = r->pb->sampled_reference != 0;
  for (int k = 0; sampled && k < sol.mesh.n; ++k)
    r->est[k] = 0.0;
  if (!sampled && (rc = rc_refine_estimate(r->pb, &sol, r->ro->estimator,
                                           r->est, err)) != RC_OK) {
    if (have_d)
      rc_diagnostics_free(&d);
    return rc;
  }
  fill_row(&r->hist[r->n], it, &sol, &st, r->est, have_d ? &d : NULL,
           rc_now_s() - t_start);
  if (have_d)
    rc_diagnostics_free(&d);
  r->n++;
  return RC_OK;
}

/* The accuracy verdict (rc_accuracy_verdict, the one rule) of candidate c
 * against ro->tol: with ro->global its global estimate (a local fallback
 * verifies nothing), else its largest local estimate local_max; dv its
 * dense-grid check (NULL: not verified).  Returns the status. */
static rc_status candidate_verdict(const refine_run *r,
                                   const refine_candidate *c, double local_max,
                                   const rc_dense_violation *dv,
                                   rc_accuracy *acc) {
  rc_error_estimate loc;
  memset(&loc, 0, sizeof loc);
  loc.kind = RC_ESTIMATE_LOCAL;
  loc.max = loc.local_max = local_max;
  const rc_error_estimate *e = &loc;
  if (r->ro->global)
    e = c->have_est && c->est.kind == RC_ESTIMATE_GLOBAL ? &c->est : NULL;
  return rc_accuracy_verdict(c->st.status, r->pb->sampled_reference != 0, e, dv,
                             r->ro->tol, 1, acc);
}

/* Global estimate once the local one is met (or at the last allowed
 * solve); the marks are the local estimates in units of ro->tol and,
 * with a global estimate, its per-element values.  Elements violated
 * between the nodes by more than ro->tol are marked too (dense_check.h).
 * The loop is done when the accuracy verdict of this solve is met. */
static refine_verdict judge(refine_run *r, int it, rc_refine_row *row) {
  const rc_refine_options *ro = r->ro;
  refine_candidate *c = &r->cur;
  const rc_solution *cur = &c->sol;
  refine_verdict v = {0};
  const int ok = solve_ok(r->pb, c->st.status);
  v.local_met = ok && row->est_error <= r->tol_local;
  if (ok && ro->global && (v.local_met || it >= ro->max_refinements)) {
    candidate_estimate(r->pb, r->opt, c, RC_ESTIMATE_GLOBAL, NULL);
    v.global_ok = c->have_est && c->est.kind == RC_ESTIMATE_GLOBAL;
    if (v.global_ok)
      row->global_error = c->est.max;
  }
  for (int k = 0; ok && k < cur->mesh.n; ++k)
    r->mark[k] = r->est[k] * (ro->tol / r->tol_local);
  if (v.global_ok && !(c->est.max <= ro->tol)) {
    r->tol_local =
        fmin(r->tol_local, 0.5 * r->tol_local * ro->tol / c->est.max);
    for (int k = 0; k < cur->mesh.n; ++k)
      r->mark[k] =
          fmax(r->est[k] * (ro->tol / r->tol_local),
               isnan(c->est.elem_max[k]) ? INFINITY : c->est.elem_max[k]);
  }
  rc_dense_violation dv;
  const int have_dv =
      rc_dense_check(r->pb, cur, r->opt->dense_per_element, &dv, NULL) == RC_OK;
  /* an initial-value problem: the violation is the element's error measure
   * (the hp rule then raises the degree first), not a split in two */
  row->dense_violation = mark_dense_violations(
      have_dv ? &dv : NULL, cur->mesh.n, rc_nlp_square_system(r->pb, NULL, 0),
      ro->tol, r->mark);
  v.dense_ok = row->dense_violation <= ro->tol;
  rc_accuracy acc = {0};
  candidate_verdict(r, c, row->est_error, have_dv ? &dv : NULL, &acc);
  v.done = acc.met == 1;
  if (have_dv)
    rc_dense_violation_free(&dv);
  return v;
}

/* The next mesh: the switching structure's step when it calls for one
 * (*nsw = 1, r->swnote says what; radcol/switching.h), else the hp step. */
static rc_err next_mesh(refine_run *r, int *nr, int *ns, int *nm, int *nsw,
                        rc_error *err) {
  *nsw = 0;
  if (r->ro->switching && !r->switch_off) {
    const int sw = rc_switching_next_mesh(r->pb, &r->cur.sol, NULL,
                                          &r->nresolve, &r->nplan, &r->next,
                                          r->swnote, sizeof r->swnote, err);
    if (sw < 0)
      return err ? err->code : RC_ERR_INTERNAL;
    if (sw > 0) {
      *nsw = 1;
      return RC_OK;
    }
  }
  return refine_mesh(&r->cur.sol.mesh, r->mark, r->ro,
                     rc_nlp_square_system(r->pb, NULL, 0), &r->next, nr, ns, nm,
                     err);
}

/* What is known of the current solve's global estimate, in words, for the
 * stop messages: its value, or why there is none (never "nan"). */
static void global_words(const refine_run *r, const rc_refine_row *row,
                         char *buf, size_t len) {
  if (!isnan(row->global_error))
    snprintf(buf, len, "global %.3g", row->global_error);
  else if (!r->ro->global)
    snprintf(buf, len, "local estimates only, no global one");
  else if (r->cur.have_est)
    snprintf(buf, len, "no global estimate: %.300s", r->cur.est.note);
  else
    snprintf(buf, len,
             "global estimate not computed: the local estimates are above "
             "their target %.3g",
             r->tol_local);
}

/* The error the loop drives down: the global estimate, else the local. */
static double row_error(const rc_refine_row *row) {
  return isfinite(row->global_error) ? row->global_error : row->est_error;
}

/* Is the NLP solver's tolerance the floor of the estimate?  The estimate
 * did not fall by half since the previous solve although the mesh was
 * refined, and it is within a factor 100 above to 1000 below opt->tol (the
 * solver's own error shows in the estimate at that level; measured: a
 * steering control at 4.3 tol, a boundary layer at 3.6e-3 tol): a finer
 * mesh cannot go lower, only a tighter solver tolerance can (issue 29: 12
 * refinements in vain). */
static int solver_floor(const refine_run *r, const rc_refine_row *row) {
  if (r->n < 2 || r->mesh.nseg > 0)
    return 0;
  const double now = row_error(row), prev = row_error(&r->hist[r->n - 2]);
  return isfinite(now) && isfinite(prev) && now > r->ro->tol &&
         now > 0.5 * prev && now <= 100.0 * r->opt->tol &&
         now >= 1e-3 * r->opt->tol;
}

/* Stop (*stop = 1, r->why says why) or build the next mesh into r->next and
 * check it against the caps. */
static rc_err stop_or_next(refine_run *r, int it, const rc_refine_row *row,
                           const refine_verdict *v, int *stop, rc_error *err) {
  const rc_problem *pb = r->pb;
  const rc_refine_options *ro = r->ro;
  const rc_solve_stats *st = &r->cur.st;
  char *why = r->why;
  const size_t nwhy = sizeof r->why;
  rc_nlp_size sz;
  int nr = 0, ns = 0, nm = 0, nsw = 0;
  rc_err rc = RC_OK;
  char global[400];
  global_words(r, row, global, sizeof global);
  *stop = 1;
  if (!solve_ok(pb, st->status) && r->cur.sol.mesh.nseg > 0 && !r->switch_off &&
      it < ro->max_refinements) {
    /* A plan that pins an arc the optimum does not have is infeasible (or
     * stalls): drop the free breakpoints for the rest of the run and go on
     * by hp steps on the same elements (their breakpoints where this solve
     * left them), from the run's starting guess, not from the failed
     * point. */
    const rc_mesh *m = &r->cur.sol.mesh;
    if ((rc = rc_mesh_from_arrays(m->n, m->frac, m->stages, &r->next, err)) !=
        RC_OK)
      return rc;
    r->switch_off = 1;
    *stop = 0;
    snprintf(why, nwhy,
             "solve %d on free breakpoints ended '%s' (%.200s): free "
             "breakpoints dropped; next mesh: %d elements from the starting "
             "guess",
             it, rc_status_name(st->status), st->message, r->next.n);
    candidate_free(&r->cur);
    return RC_OK;
  } else if (!solve_ok(pb, st->status)) {
    snprintf(why, nwhy, "solve %d ended '%s': %.450s", it,
             rc_status_name(st->status), st->message);
    return RC_OK; /* the estimates of a failed solve say nothing */
  } else if (v->done) {
    snprintf(
        why, nwhy,
        "tolerance %.3g reached after %d solves: %.300s, max local estimate "
        "%.3g, dense-grid violation %.3g on %d elements",
        ro->tol, r->n, global, row->est_error, row->dense_violation,
        row->elements);
  } else if (ro->global && v->local_met && !v->global_ok) {
    snprintf(why, nwhy,
             "the global estimate failed (%.300s): max local estimate %.3g, "
             "tolerance %.3g not verified",
             r->cur.have_est ? r->cur.est.note : "no estimate", row->est_error,
             ro->tol);
  } else if (it >= ro->max_refinements) {
    snprintf(why, nwhy,
             "stopped at the refinement cap (max_refinements = %d): max "
             "estimate %.3g (%.300s; dense-grid violation %.3g), expected <= "
             "tolerance %.3g",
             ro->max_refinements, row->est_error, global, row->dense_violation,
             ro->tol);
  } else if (solver_floor(r, row)) {
    snprintf(why, nwhy,
             "stopped: the estimate %.3g did not fall on the refined mesh "
             "(%.3g before) and is near the NLP solver's tolerance "
             "tol = %g, its floor: refine to a tolerance above it or lower "
             "the solver tolerance",
             row_error(row), row_error(&r->hist[r->n - 2]), r->opt->tol);
  } else if ((rc = next_mesh(r, &nr, &ns, &nm, &nsw, err)) != RC_OK) {
    return rc;
  } else if (r->next.n > ro->max_elements) {
    snprintf(why, nwhy,
             "stopped at the element cap (max_elements = %d): the next "
             "mesh would have %d; max estimate %.3g (%.300s), expected "
             "<= tolerance %.3g",
             ro->max_elements, r->next.n, row->est_error, global, ro->tol);
  } else if (nlp_bytes(pb, &r->next, r->opt, &sz) > ro->max_memory_bytes) {
    snprintf(why, nwhy,
             "stopped at the memory cap of %.3g bytes: the next mesh (%d "
             "elements, %ld variables) needs about %.3g; max estimate %.3g "
             "(%.300s), expected <= tolerance %.3g",
             ro->max_memory_bytes, r->next.n, sz.nvars, sz.bytes,
             row->est_error, global, ro->tol);
  } else if (nr + ns + nm + nsw == 0) {
    snprintf(why, nwhy,
             "the mesh cannot change any more (degree and split caps): max "
             "estimate %.3g (%.300s), expected <= tolerance %.3g",
             row->est_error, global, ro->tol);
  } else if (nsw) {
    *stop = 0;
    snprintf(why, nwhy, "next mesh: %d elements; %.400s", r->next.n, r->swnote);
  } else {
    *stop = 0;
    snprintf(why, nwhy,
             "next mesh: %d elements (%d raised, %d split, %d merged)",
             r->next.n, nr, ns, nm);
  }
  if (*stop && !v->dense_ok) { /* a cap stopped it before the dense criterion */
    const size_t len = strlen(why);
    snprintf(why + len, nwhy - len,
             "; dense-grid violation between the nodes %.3g, expected <= "
             "tolerance %.3g",
             row->dense_violation, ro->tol);
  }
  return RC_OK;
}

/* The verdict of the solution returned (binding: the loop's target is
 * ro->tol) into its stats: status inaccurate unless it is met. */
static void final_verdict(refine_run *r) {
  refine_candidate *c = &r->cur;
  rc_dense_violation dv;
  const int have_dv = rc_dense_check(r->pb, &c->sol, r->opt->dense_per_element,
                                     &dv, NULL) == RC_OK;
  c->st.accuracy.mode = RC_MODE_REFINE;
  c->st.status = candidate_verdict(r, c, r->hist[c->row].est_error,
                                   have_dv ? &dv : NULL, &c->st.accuracy);
  if (have_dv)
    rc_dense_violation_free(&dv);
}

/* Above the tolerance: return the best verified solution instead of the last
 * one when the last is worse (or unverified).  Frees best. */
static void return_best(refine_run *r) {
  if (r->best.row >= 0 && r->n > 0 &&
      !rc_refine_row_reached(&r->hist[r->n - 1], r->ro)) {
    candidate_estimate(r->pb, r->opt, &r->cur, RC_ESTIMATE_GLOBAL, NULL);
    const double last = candidate_global(&r->cur);
    if (r->best.est.max < last) {
      char tail[RC_MESSAGE_MAX];
      snprintf(tail, sizeof tail,
               "; returned the solution of solve %d (global estimate %.3g, the "
               "smallest verified) instead of the last one (%.3g)",
               r->best.row, r->best.est.max, last);
      strncat(r->why, tail, sizeof r->why - strlen(r->why) - 1);
      candidate_free(&r->cur);
      r->cur = r->best;
      memset(&r->best, 0, sizeof r->best);
      r->best.row = -1;
    }
  }
  candidate_free(&r->best);
}

rc_err rc_solve_refined_estimated(const rc_problem *pb, const rc_mesh *initial,
                                  const rc_solution *guess,
                                  const rc_options *opt,
                                  const rc_refine_options *ro, rc_solution *sol,
                                  rc_solve_stats *stats, rc_refine_row **rows,
                                  int *nrows, rc_error_estimate *final_estimate,
                                  rc_error *err) {
  if (final_estimate)
    memset(final_estimate, 0, sizeof *final_estimate);
  memset(sol, 0, sizeof *sol);
  memset(stats, 0, sizeof *stats);
  *rows = NULL;
  *nrows = 0;
  if (opt && opt->x0) { /* a different start: the problem restarted there */
    rc_options o = *opt;
    o.x0 = NULL;
    rc_problem *moved = NULL;
    rc_err rs = rc_problem_restart(pb, opt->x0, &moved, err);
    if (rs == RC_OK)
      rs = rc_solve_refined_estimated(moved, initial, guess, &o, ro, sol, stats,
                                      rows, nrows, final_estimate, err);
    rc_problem_free(&moved);
    return rs;
  }
  rc_err rc;
  if ((rc = rc_refine_options_validate(ro, err)) != RC_OK ||
      (rc = rc_mesh_validate(initial, err)) != RC_OK ||
      (rc = rc_options_validate(opt, err)) != RC_OK)
    return rc;
  rc_nlp_size sz;
  rc_refine_nlp_size(pb, initial, opt, &sz);
  if (sz.bytes > ro->max_memory_bytes)
    return rc_error_set(err, RC_ERR_INPUT,
                        "initial mesh of %d elements: estimated %.3g bytes "
                        "for %ld NLP variables, expected at most the memory "
                        "cap %.3g bytes",
                        initial->n, sz.bytes, sz.nvars, ro->max_memory_bytes);
  refine_run r;
  memset(&r, 0, sizeof r);
  r.pb = pb;
  r.opt = opt;
  r.ro = ro;
  r.tol_local = ro->tol;
  r.cur.row = r.best.row = -1;
  const int cap = ro->max_refinements + 1;
  r.hist = calloc((size_t)cap, sizeof *r.hist);
  if (!r.hist)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for %d rows", cap);
  if ((rc = rc_mesh_copy(initial, &r.mesh, err)) != RC_OK) {
    free(r.hist);
    return rc;
  }
  for (int it = 0;; ++it) {
    const double t_start = rc_now_s();
    if ((rc = solve_and_record(&r, it, guess, t_start, err)) != RC_OK)
      break;
    rc_refine_row *row = &r.hist[r.n - 1];
    const refine_verdict v = judge(&r, it, row);
    int stop;
    if ((rc = stop_or_next(&r, it, row, &v, &stop, err)) != RC_OK)
      break;
    if (ro->progress)
      ro->progress(ro->progress_ctx, row, r.why);
    if (stop)
      break;
    rc_mesh_free(&r.mesh);
    r.mesh = r.next;
    memset(&r.next, 0, sizeof r.next);
  }
  free(r.est);
  free(r.mark);
  rc_mesh_free(&r.mesh);
  rc_mesh_free(&r.next);
  if (rc == RC_OK) {
    return_best(&r);
    if (r.cur.row >= 0) {
      /* the estimate of the solution returned (computed now if the loop
       * stopped before it needed one), and its accuracy verdict */
      rc = candidate_estimate(
          pb, opt, &r.cur, ro->global ? RC_ESTIMATE_GLOBAL : RC_ESTIMATE_LOCAL,
          err);
      if (rc == RC_OK)
        final_verdict(&r);
      if (rc == RC_OK && final_estimate) {
        *final_estimate = r.cur.est;
        r.cur.have_est = 0;
      }
    }
  }
  candidate_free(&r.best);
  if (rc != RC_OK) {
    candidate_free(&r.cur);
    free(r.hist);
    memset(stats, 0, sizeof *stats);
    return rc;
  }
  *sol = r.cur.sol;
  *stats = r.cur.st;
  if (r.cur.have_est)
    rc_error_estimate_free(&r.cur.est);
  *rows = r.hist;
  *nrows = r.n;
  snprintf(stats->message, sizeof stats->message, "refinement: %.480s", r.why);
  rc_error_clear(err);
  return RC_OK;
}

int rc_refine_row_reached(const rc_refine_row *row,
                          const rc_refine_options *ro) {
  if (!row || !ro)
    return 0;
  const int est_ok =
      ro->global ? row->global_error <= ro->tol : row->est_error <= ro->tol;
  return est_ok && !(row->dense_violation > ro->tol);
}
