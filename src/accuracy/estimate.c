/*
 * estimate.c - a-posteriori error estimate of a solution (radcol/estimate.h):
 * the global estimate from an enriched re-solve on the mesh with one more
 * stage in every element, the local Patterson-Hager-Rao estimate per element
 * that the refinement loop (refine.c) steers by, and the accuracy rule
 * (rc_accuracy_verdict, docs/accuracy.md: status "inaccurate").
 *
 * Global estimate.  Solution v on mesh M (elements k = 0..n-1, s_k stages),
 * v' the solution on M' (element k with s_k + 1 stages; split at its
 * midpoint when s_k = RC_MAX_STAGES), solved warm from v.  For every
 * variable i of x, y, u
 *     E_ki = max_{t in T_k} |v_i(t) - v'_i(t')|,
 * T_k = nodes of element k (its first node included) and the dense grid of
 * rc_diagnose in it (dense_per_element uniform points, left end included;
 * tf belongs to the last element); t' = t0 + (t - t0) (tf' - t0)/(tf - t0)
 * maps the time scale of a free final time.  If the error of v is e = C h^p
 * and that of v' is e' = C' h^(p+q), q >= 1 (one more stage raises every
 * order: the degree of the dense output and the superconvergence at the
 * ends), then E = e (1 + O(h^q)): an estimate of the coarse solution's
 * error that tends to it as h -> 0.  (Before issue 24 the enriched mesh
 * split every element in two, E = (1 +- 2^-p) e; one more stage costs
 * (s + 1)/s the variables instead of twice, and measured as reliably.)  The
 * enriched solution is discarded: the file holds the solution whose error is
 * estimated.
 *
 * Enriched solve (rc_nlp_solve on M', options from the solve's own):
 *  - warm start from v (interpolated by dense output, its multipliers), the
 *    solve's tolerance;
 *  - an optimal-control problem whose solution touches no inequality
 *    (touches_inequality): the barrier parameter starts at 1e-3 tol
 *    (rc_options.warm_start_mu), so Ipopt's first iteration is a Newton step
 *    on the enriched KKT system and usually the last; at most 10.  Measured
 *    (issue 24: a tracking OCP on 10000 elements of 5 stages, the split
 *    mesh then): with Ipopt's warm-start defaults (mu 1e-6, multipliers
 *    pushed to 1e-9) and tolerance 1e-13 the enriched solve crawled (16
 *    iterations, steps of 1e-7 to 1e-2 under Hessian regularisation): its
 *    dual infeasibility stalls near 1e-11 at 900 000 variables, above
 *    1e-13, and the pushed multipliers of 110 000 inequalities keep
 *    complementarity above it too; the whole command took 290 s after a
 *    26 s solve.  Ipopt's inertia check stays off here (its inertia-free
 *    curvature test, neg_curv_test_tol): on that OCP (one more stage now)
 *    the interpolated multipliers gave the KKT matrix a wrong inertia, the
 *    first iteration was refactorised with a 1e-4 Hessian regularisation
 *    that damped its step to 1.5e-6 in the directions the tracking
 *    objective barely determines, and the third again: 3 iterations, about
 *    5 factorisations, 17.6 s of Ipopt CPU; with the curvature test 2 full
 *    Newton steps (3.7 each), 13.5 s;
 *  - otherwise (active bounds, bang-bang controls): Ipopt's warm start, at
 *    most 100 iterations (a minimum-time OCP on 40 x 5 needs about 35);
 *  - a square system: Newton element by element (rc_nlp_solve's automatic
 *    solver, Ipopt only when Newton fails);
 *  - a first Ipopt run that accepts the interpolated solution without an
 *    iteration (its error is below what the tolerance resolves) is repeated
 *    at 1e-13, so that a correction is still measured.
 * An enriched solve that does not converge leaves the local estimate (the
 * note says why): one that needs more is no perturbation of this solution.
 *
 * Free breakpoints (radcol/mesh.h, docs/switching.md).  The enriched mesh
 * keeps the segments and pins (every segment's elements split), so its
 * breakpoints move too.  Times map segment by segment: t in segment q =
 * [a_q, b_q] goes to t' = a'_q + (t - a_q) (b'_q - a'_q) / (b_q - a_q) of
 * the enriched segment, with ties at a boundary on the same (left) side in
 * both solutions, so a jump at a switch is never compared with the value on
 * its other side: E_ki is the error of the smooth piece, and the switch
 * times' error is reported separately, |a_q - a'_q| for q = 1..nseg-1.
 *
 * Singular arcs (docs/switching.md, section 7).  On an element wholly inside
 * a singular arc of a control that enters linearly, that control is compared
 * through its primitive from the arc's entry divided by the arc's length
 * (singular_means below), not pointwise: the NLP determines the primitive,
 * not the node-to-node shape.  The note says so.
 *
 * Local estimate (Patterson, Hager and Rao 2015).  Element k = [t_a, t_b],
 * h = t_b - t_a, s stages, state polynomial X~ of degree s through the
 * element start and its s stages, y~ and u~ of degree s - 1 (the dense output
 * of result.h).  With the M = s + 1 stage Radau IIA rule (nodes c^M, matrix
 * A^M, radau.h) and tau_j = t_a + c^M_j h:
 *     X^_j = X~(t_a) + h sum_l A^M_jl f(tau_l, W~(tau_l))       j = 1..M
 *     e_k  = max_{i,j} |X^_ij - X~_i(tau_j)| / (1 + max_j |X~_i(tau_j)|)
 * X^ is exact for dynamics of degree M - 1 along the trajectory, so e_k
 * measures how far the degree-s interpolant is from satisfying x' = f between
 * the nodes.  Algebraic equations are checked at the same points:
 *     e_k^g = max_{i,j} |g_i(tau_j, W~(tau_j))| / (1 + max_j |y~(tau_j)|).
 * The element estimate is max(e_k, e_k^g); RC_REFINE_BETTS takes the Betts
 * defect of rc_diagnose instead, RC_REFINE_BOTH the larger.
 *
 * Square systems (an initial-value DAE: rc_square_system).  The enriched
 * solution is never Ipopt's: the same mesh with one more stage per element
 * (s_k + 1; an element at RC_MAX_STAGES split in two), integrated element by
 * element by the march's Newton from the solution's dense output
 * (rc_march_mesh, radcol/march.h, Newton tolerance 1e-2 rtol in the
 * index-weighted norm), else the split mesh the same way, else the local
 * estimate with a note.  s + 1 stages are of order 2s + 1 at the nodes and
 * s + 2 on the dense output (index 1), so E is the error of the s-stage
 * solution to a factor 1 + O(h).  Scales: atol_i / rtol + max |v_i| (the
 * march's tolerances, radcol/options.h).
 *
 * Invariants: est->elem is nelem x nvar absolute values; elem_max and max
 * are relative to scale (max(1, max over nodes of |v_i|)); local is always
 * computed; kind says which of the two elem_max holds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collocation/radau.h"
#include "nlp/nlp_solve.h"
#include "radcol/diagnose.h"
#include "radcol/estimate.h"
#include "radcol/march.h"
#include "radcol/structure.h"
#include "radcol/switching.h"

/* The estimate of an element with s <= RC_MAX_STAGES stages needs the
 * (s + 1)-stage Radau rule: without it every estimate of a 20-stage element
 * was +inf and the loop split forever (issue 17 item 5). */
_Static_assert(RC_RADAU_MAX_STAGES == RC_MAX_STAGES + 1,
               "one stage limit: the Radau tables go one beyond the mesh cap "
               "(the PHR estimate of an s-stage element uses s + 1 stages)");

/* Ipopt iteration cap of the enriched solve when the solution touches an
 * inequality (see "Enriched solve" above). */
#define RC_ESTIMATE_ENRICHED_MAX_ITER 100

/* ... and when it touches none: a few Newton steps on the enriched KKT. */
#define RC_ESTIMATE_NEWTON_MAX_ITER 10

/* ... and the Ipopt option that makes those steps Newton steps: the
 * inertia-free curvature test (Zavala and Chiang 2014) instead of the
 * inertia check, so a step whose curvature is positive is taken without
 * Hessian regularisation (see "Enriched solve" above). */
#define RC_ESTIMATE_NEWTON_CURVATURE "neg_curv_test_tol=1e-12"

/* The barrier parameter a warm start begins at, in units of the solver
 * tolerance, when no inequality is touched. */
#define RC_ESTIMATE_ENRICHED_MU 1e-3

/* Ipopt tolerance of the enriched solve's second attempt when the first
 * accepted the coarse solution without an iteration. */
#define RC_ESTIMATE_ENRICHED_TOL 1e-13

/* Newton tolerance of a square system's enriched integration, relative to
 * rtol: the estimate measures errors of about rtol, its own Newton error
 * stays two digits below (1e-3 measured no better and 5-20 % dearer). */
#define RC_ESTIMATE_MARCH_NEWTON 1e-2

const char *rc_estimate_kind_name(rc_estimate_kind kind) {
  switch (kind) {
  case RC_ESTIMATE_LOCAL:
    return "local";
  case RC_ESTIMATE_GLOBAL:
    return "global";
  default:
    return "none";
  }
}

void rc_error_estimate_free(rc_error_estimate *est) {
  if (!est)
    return;
  free(est->scale);
  free(est->var);
  free(est->elem);
  free(est->elem_max);
  free(est->local);
  free(est->switch_t);
  free(est->switch_err);
  memset(est, 0, sizeof *est);
}

/* ---- local estimate (Patterson-Hager-Rao) -------------------------------- */

/* PHR estimate of element k; work holds (M + 1) * nw + M * nF doubles. */
static double phr_element(const rc_problem *pb, const rc_solution *sol, int k,
                          int node0, const rc_radau *rule, double *work) {
  const int nx = pb->nx, ny = pb->ny, nw = rc_problem_nw(pb);
  const int nF = rc_problem_nF(pb);
  const int s = sol->mesh.stages[k], M = s + 1;
  if (!rule)
    return INFINITY;
  const rc_radau *R = rule;
  const double ta = sol->t[node0], tb = sol->t[node0 + s];
  const double h = tb - ta;
  const double *X0 = sol->w + (size_t)node0 * nw;
  double *W = work, *F = work + (size_t)M * nw;
  for (int j = 0; j < M; ++j) {
    const double t = ta + R->c[j] * h;
    if (rc_solution_eval(sol, t, W + (size_t)j * nw, NULL) != RC_OK)
      return INFINITY;
    if (pb->point.eval(pb, t, W + (size_t)j * nw, F + (size_t)j * nF) != 0)
      return INFINITY;
  }
  double e = 0.0;
  for (int i = 0; i < nx; ++i) {
    double scale = fabs(X0[i]);
    for (int j = 0; j < M; ++j)
      scale = fmax(scale, fabs(W[(size_t)j * nw + i]));
    scale += 1.0;
    for (int j = 0; j < M; ++j) {
      double acc = 0.0;
      for (int l = 0; l < M; ++l)
        acc += R->A[j * M + l] * F[(size_t)l * nF + i];
      const double d = fabs(X0[i] + h * acc - W[(size_t)j * nw + i]) / scale;
      if (!(d <= e))
        e = isnan(d) ? INFINITY : d;
    }
  }
  if (ny > 0) {
    double ymax = 0.0;
    for (int j = 0; j < M; ++j)
      for (int i = 0; i < ny; ++i)
        ymax = fmax(ymax, fabs(W[(size_t)j * nw + nx + i]));
    for (int j = 0; j < M; ++j)
      for (int i = 0; i < ny; ++i) {
        const double d = fabs(F[(size_t)j * nF + nx + i]) / (1.0 + ymax);
        if (!(d <= e))
          e = isnan(d) ? INFINITY : d;
      }
  }
  return e;
}

rc_err rc_refine_estimate(const rc_problem *pb, const rc_solution *sol,
                          rc_refine_estimator estimator, double *est,
                          rc_error *err) {
  if (!pb || !sol || !est || sol->mesh.n < 1)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_refine_estimate: expected a problem, a solution "
                        "on a mesh and an output array");
  const int ne = sol->mesh.n;
  for (int k = 0; k < ne; ++k)
    est[k] = 0.0;
  if (estimator == RC_REFINE_PHR || estimator == RC_REFINE_BOTH) {
    const int nw = rc_problem_nw(pb), nF = rc_problem_nF(pb);
    const int M = rc_mesh_max_stages(&sol->mesh) + 1;
    double *work =
        malloc(sizeof *work * ((size_t)(M + 1) * nw + (size_t)M * nF + 1));
    if (!work)
      return rc_error_set(err, RC_ERR_NOMEM,
                          "out of memory for the error estimate of %d "
                          "elements",
                          ne);
    /* the (s+1)-stage rules, once per stage count (computing one takes
     * long double Newton and Gauss-Legendre: per element it was half the
     * estimate of a march's solution) */
    rc_radau *rules[RC_RADAU_MAX_STAGES + 1] = {0};
    for (int k = 0, node0 = 0; k < ne; node0 += sol->mesh.stages[k], ++k) {
      const int Mk = sol->mesh.stages[k] + 1;
      if (Mk <= RC_RADAU_MAX_STAGES && !rules[Mk] &&
          (rules[Mk] = malloc(sizeof *rules[Mk])) != NULL &&
          rc_radau_init(Mk, rules[Mk]) != 0) {
        free(rules[Mk]);
        rules[Mk] = NULL;
      }
      est[k] = phr_element(pb, sol, k, node0,
                           Mk <= RC_RADAU_MAX_STAGES ? rules[Mk] : NULL, work);
    }
    for (int m = 0; m <= RC_RADAU_MAX_STAGES; ++m)
      free(rules[m]);
    free(work);
  }
  if (estimator == RC_REFINE_BETTS || estimator == RC_REFINE_BOTH) {
    rc_diagnostics d;
    rc_err rc = rc_diagnose(pb, sol, 2, &d, err);
    if (rc != RC_OK)
      return rc;
    for (int k = 0; k < ne; ++k) {
      const double b = isnan(d.elem_defect[k]) ? INFINITY : d.elem_defect[k];
      est[k] = fmax(est[k], b);
    }
    rc_diagnostics_free(&d);
  }
  rc_error_clear(err);
  return RC_OK;
}

rc_status rc_accuracy_status(rc_status solved, double estimate_max,
                             double worst_dense_violation, double tol) {
  if (solved != RC_STATUS_CONVERGED && solved != RC_STATUS_ACCEPTABLE)
    return solved;
  /* NaN (no estimate) is not a verdict of inaccuracy; +inf is. */
  if (estimate_max > tol || worst_dense_violation > tol)
    return RC_STATUS_INACCURATE;
  return solved;
}

rc_status rc_accuracy_verdict(rc_status solved, int sampled,
                              const rc_error_estimate *est,
                              const rc_dense_violation *dv, double tol,
                              int binding, rc_accuracy *acc) {
  const rc_solve_mode mode = acc->mode;
  memset(acc, 0, sizeof *acc);
  acc->mode = mode;
  acc->binding = binding != 0;
  acc->tol = tol;
  acc->solver_status = solved;
  const int have_est = est && est->kind != RC_ESTIMATE_NONE;
  acc->estimate_kind = have_est ? (int)est->kind : (int)RC_ESTIMATE_NONE;
  acc->estimate_max = have_est ? est->max : NAN;
  acc->dense_worst = dv ? dv->worst_relative : NAN;
  const int ok = solved == RC_STATUS_CONVERGED ||
                 solved == RC_STATUS_ACCEPTABLE ||
                 (sampled && solved == RC_STATUS_NOT_RUN);
  acc->met = -1;
  if (ok && !isnan(acc->estimate_max) && !isnan(acc->dense_worst))
    acc->met = rc_accuracy_status(RC_STATUS_CONVERGED, acc->estimate_max,
                                  acc->dense_worst, tol) == RC_STATUS_CONVERGED;
  return binding && ok && acc->met != 1 ? RC_STATUS_INACCURATE : solved;
}

static double nan_max(double a, double b) {
  if (isnan(a))
    return b;
  return b > a || isnan(b) ? (isnan(b) ? INFINITY : b) : a;
}

/* The enriched mesh: every element of m with one more stage (same
 * breakpoints); an element already at RC_MAX_STAGES is split at its
 * midpoint instead (same stages). */
static rc_err enriched_mesh(const rc_mesh *m, rc_mesh *out, rc_error *err) {
  const int n = m->n;
  int ne = 0;
  for (int k = 0; k < n; ++k)
    ne += m->stages[k] < RC_MAX_STAGES ? 1 : 2;
  double *frac = malloc(sizeof *frac * (size_t)(ne + 1));
  int *stages = malloc(sizeof *stages * (size_t)ne);
  if (!frac || !stages) {
    free(frac);
    free(stages);
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory for the enriched mesh of %d elements",
                        ne);
  }
  for (int k = 0, q = 0; k < n; ++k) {
    frac[q] = m->frac[k];
    if (m->stages[k] < RC_MAX_STAGES) {
      stages[q++] = m->stages[k] + 1;
    } else {
      stages[q++] = m->stages[k];
      frac[q] = 0.5 * (m->frac[k] + m->frac[k + 1]);
      stages[q++] = m->stages[k];
    }
  }
  frac[ne] = 1.0;
  rc_err rc = rc_mesh_from_arrays(ne, frac, stages, out, err);
  if (rc == RC_OK && (rc = rc_mesh_carry_segments(m, out, err)) != RC_OK)
    rc_mesh_free(out);
  free(frac);
  free(stages);
  return rc;
}

/* Time of boundary q (0..nseg) of sol's segments. */
static double segment_time(const rc_solution *sol, int q) {
  const rc_mesh *m = &sol->mesh;
  return sol->t[rc_solution_element_offset(sol, m->seg_first[q])];
}

/* t (in element k of sol) on fine's time scale: segment by segment with
 * free breakpoints, else scaled with a free final time. */
static double map_time(const rc_solution *sol, const rc_solution *fine, int k,
                       double t) {
  if (sol->mesh.nseg > 1 && fine->mesh.nseg == sol->mesh.nseg) {
    const int q = rc_mesh_segment_of(&sol->mesh, k);
    const double a = segment_time(sol, q), b = segment_time(sol, q + 1);
    const double fa = segment_time(fine, q), fb = segment_time(fine, q + 1);
    return t <= a ? fa : t >= b ? fb : fa + (t - a) * (fb - fa) / (b - a);
  }
  if (fine->tf != sol->tf)
    return sol->t0 +
           (t - sol->t0) * (fine->tf - fine->t0) / (sol->tf - sol->t0);
  return t;
}

/* Does sol touch an inequality of pb: a finite simple bound of x, y or u
 * (within 1e-6 (1 + |bound|) at some node), or an inequality path
 * constraint within the same distance of a finite end?  With none, the
 * enriched NLP is an equality-constrained perturbation of this one and its
 * barrier can start at the tolerance. */
static int touches_inequality(const rc_problem *pb, const rc_solution *sol) {
  const int nw = rc_problem_nw(pb), nq = pb->nx + pb->ny + pb->nu;
  const int nF = rc_problem_nF(pb);
  for (int n = 0; n < sol->nnodes; ++n)
    for (int i = 0; i < nq; ++i) {
      const double v = sol->w[(size_t)n * nw + i];
      const double lo = pb->w_lo[i], hi = pb->w_hi[i];
      if ((isfinite(lo) && v - lo <= 1e-6 * (1.0 + fabs(lo))) ||
          (isfinite(hi) && hi - v <= 1e-6 * (1.0 + fabs(hi))))
        return 1;
    }
  int ineq = 0;
  for (int i = 0; i < pb->nc; ++i)
    ineq |= pb->c_lo[i] < pb->c_hi[i];
  if (!ineq)
    return 0;
  double *F = malloc(sizeof *F * (size_t)(nF > 0 ? nF : 1));
  if (!F)
    return 1; /* unknown: the cautious answer */
  int touch = 0;
  const int c0 = pb->nx + pb->ny; /* c follows f and g in F */
  for (int n = 1; n < sol->nnodes && !touch; ++n) {
    if (pb->point.eval(pb, sol->t[n], sol->w + (size_t)n * nw, F) != 0) {
      touch = 1;
      break;
    }
    for (int i = 0; i < pb->nc && !touch; ++i) {
      const double lo = pb->c_lo[i], hi = pb->c_hi[i], c = F[c0 + i];
      if (!(lo < hi))
        continue;
      touch = (isfinite(lo) && c - lo <= 1e-6 * (1.0 + fabs(lo))) ||
              (isfinite(hi) && hi - c <= 1e-6 * (1.0 + fabs(hi)));
    }
  }
  free(F);
  return touch;
}

/* Fold |v^h(t) - v^{h/2}(t')| at time t of element k into est->elem. */
static rc_err fold_point(const rc_solution *sol, const rc_solution *fine,
                         const double *wc, double t, int k, double *wf,
                         rc_error_estimate *est, rc_error *err) {
  double tf = map_time(sol, fine, k, t);
  tf = fmin(fmax(tf, fine->t0), fine->tf);
  rc_err rc = rc_solution_eval(fine, tf, wf, err);
  if (rc != RC_OK)
    return rc;
  double *row = est->elem + (size_t)k * est->nvar;
  for (int i = 0; i < est->nvar; ++i)
    row[i] = nan_max(row[i], fabs(wc[i] - wf[i]));
  return RC_OK;
}

static rc_err global_from(const rc_problem *pb, const rc_solution *sol,
                          const rc_solution *fine, int dense_per_element,
                          rc_error_estimate *est, rc_error *err) {
  const int nw = rc_problem_nw(pb), ne = sol->mesh.n;
  double *wc = malloc(sizeof *wc * (size_t)(2 * nw));
  if (!wc)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for the estimate");
  double *wf = wc + nw;
  rc_err rc = RC_OK;
  for (int k = 0; k < ne && rc == RC_OK; ++k) {
    const int off = rc_solution_element_offset(sol, k), s = sol->mesh.stages[k];
    for (int j = 0; j <= s && rc == RC_OK; ++j) /* nodes */
      rc = fold_point(sol, fine, sol->w + (size_t)(off + j) * nw,
                      sol->t[off + j], k, wf, est, err);
    const double a = sol->t[off], b = sol->t[off + s];
    for (int q = 0; q <= dense_per_element && rc == RC_OK; ++q) {
      if (q == dense_per_element && k + 1 < ne)
        break; /* tf belongs to the last element only */
      const double t = q == dense_per_element
                           ? b
                           : a + (b - a) * (double)q / dense_per_element;
      if ((rc = rc_solution_eval(sol, t, wc, err)) == RC_OK)
        rc = fold_point(sol, fine, wc, t, k, wf, est, err);
    }
  }
  free(wc);
  return rc;
}

/* Singular arcs (docs/switching.md, section 7).  On an arc where control i
 * enters linearly and sits inside its bounds, the second-order optimality
 * condition is coercive in the primitive v(t) = int_{t_entry}^t u_i (Goh's
 * transformation), not in u_i: the NLP fixes the states, and through them
 * v, to the discretisation's accuracy, while u_i's shape from node to node
 * is a flat direction (reduced Hessian eigenvalues that shrink with h),
 * resolved only to about the KKT tolerance over that eigenvalue.  A
 * pointwise comparison there measures the solver, not the mesh.  So on
 * every element wholly inside a singular arc (t_a, t_b within [t_entry,
 * t_exit]) E_ki of that control is max(|V(t_a) - V'(t_a)|, |V(t_b) -
 * V'(t_b)|) / (t_exit - t_entry), V the primitive by the elements' Radau
 * quadrature (exact for the stage polynomial), V' the enriched solve's on
 * the same elements: in units of u, the error of u's running mean over the
 * arc.  The pointwise difference it replaces is kept for the note
 * (*ringing, the largest). */
/* Control i's E_ki of element k from its points after the start node: the
 * nodes j = 1..s and the dense grid without its left end (the other
 * variables keep theirs).  The value it replaces goes into *ringing. */
static rc_err fold_after(const rc_problem *pb, const rc_solution *sol,
                         const rc_solution *fine, int k, int dpe, int i,
                         rc_error_estimate *est, double *ringing,
                         rc_error *err) {
  const int nw = rc_problem_nw(pb), nv = est->nvar, ne = sol->mesh.n;
  double *row = est->elem + (size_t)k * nv;
  double *wc = malloc(sizeof *wc * (size_t)(2 * nw + nv));
  if (!wc)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for the estimate");
  double *wf = wc + nw, *keep = wc + 2 * nw;
  memcpy(keep, row, sizeof *keep * (size_t)nv);
  if (!isnan(row[i]))
    *ringing = fmax(*ringing, row[i]);
  row[i] = NAN;
  const int off = rc_solution_element_offset(sol, k), s = sol->mesh.stages[k];
  rc_err rc = RC_OK;
  for (int j = 1; j <= s && rc == RC_OK; ++j)
    rc = fold_point(sol, fine, sol->w + (size_t)(off + j) * nw, sol->t[off + j],
                    k, wf, est, err);
  const double a = sol->t[off], b = sol->t[off + s];
  for (int q = 1; q <= dpe && rc == RC_OK; ++q) {
    if (q == dpe && k + 1 < ne)
      break;
    const double t = q == dpe ? b : a + (b - a) * (double)q / dpe;
    if ((rc = rc_solution_eval(sol, t, wc, err)) == RC_OK)
      rc = fold_point(sol, fine, wc, t, k, wf, est, err);
  }
  for (int v = 0; v < nv; ++v)
    if (v != i)
      row[v] = keep[v];
  free(wc);
  return rc;
}

static rc_err singular_means(const rc_problem *pb, const rc_solution *sol,
                             const rc_solution *fine, int dpe,
                             rc_error_estimate *est, int *nelem,
                             double *ringing, rc_error *err) {
  *nelem = 0;
  *ringing = 0.0;
  if (pb->nu < 1 || fine->mesh.n != sol->mesh.n)
    return RC_OK;
  /* only a control without its (u_i, u_i) Hessian entry can be singular
   * (radcol/structure.h): nothing to detect otherwise */
  int linear = 0;
  for (int j = 0, i0 = pb->nx + pb->ny; j < pb->nu && !linear; ++j) {
    linear = 1;
    for (int e = 0; e < pb->point.hes.nnz; ++e)
      if (pb->point.hes.row[e] == i0 + j && pb->point.hes.col[e] == i0 + j)
        linear = 0;
  }
  if (!linear)
    return RC_OK;
  rc_structure_options so;
  rc_structure_options_default(&so);
  rc_structure st;
  rc_error derr = {RC_OK, ""};
  rc_err rc = rc_structure_detect(pb, sol, &so, &st, &derr);
  if (rc == RC_ERR_NOMEM)
    return rc_error_set(err, rc, "%s", derr.message);
  if (rc != RC_OK)
    return RC_OK; /* no structure: the pointwise comparison stands */
  const int nw = rc_problem_nw(pb);
  for (int a = 0; a < st.narc && st.nsingular > 0; ++a) {
    const rc_arc *arc = &st.arcs[a];
    if (arc->kind != RC_ARC_SINGULAR || arc->touch || arc->index >= est->nvar)
      continue;
    const int i = arc->index;
    const double slack = 1e-12 * (1.0 + fabs(sol->tf - sol->t0));
    const double len = fmax(arc->t_exit - arc->t_entry, slack);
    double U = 0.0, FU = 0.0; /* the primitives from the arc's entry */
    for (int k = 0; k < sol->mesh.n; ++k) {
      const int off = rc_solution_element_offset(sol, k);
      const int s = sol->mesh.stages[k],
                foff = rc_solution_element_offset(fine, k);
      const int fs = fine->mesh.stages[k];
      if (k > 0 && fabs(sol->t[off] - arc->t_exit) <= slack) {
        /* the element after the arc: its start node (and the dense point
         * there) holds the arc's last stage value, compared by the mean
         * above; compare the rest of the element only */
        if ((rc = fold_after(pb, sol, fine, k, dpe, i, est, ringing, err)) !=
            RC_OK) {
          rc_structure_free(&st);
          return rc;
        }
        continue;
      }
      if (sol->t[off] < arc->t_entry - slack ||
          sol->t[off + s] > arc->t_exit + slack)
        continue;
      rc_radau R, F;
      if (rc_radau_init(s, &R) != 0 || rc_radau_init(fs, &F) != 0) {
        rc_structure_free(&st);
        return rc_error_set(err, RC_ERR_INTERNAL,
                            "no Radau rule of %d or %d stages", s, fs);
      }
      double m = 0.0, fm = 0.0;
      for (int j = 0; j < s; ++j)
        m += R.b[j] * sol->w[(size_t)(off + 1 + j) * nw + i];
      for (int j = 0; j < fs; ++j)
        fm += F.b[j] * fine->w[(size_t)(foff + 1 + j) * nw + i];
      const double d0 = fabs(U - FU);
      U += (sol->t[off + s] - sol->t[off]) * m;
      FU += (fine->t[foff + fs] - fine->t[foff]) * fm;
      double *e = est->elem + (size_t)k * est->nvar + i;
      if (!isnan(*e))
        *ringing = fmax(*ringing, *e);
      *e = fmax(d0, fabs(U - FU)) / len;
      ++*nelem;
    }
  }
  rc_structure_free(&st);
  return RC_OK;
}

static void summarise(rc_error_estimate *est) {
  est->max = 0.0;
  for (int i = 0; i < est->nvar; ++i)
    est->var[i] = NAN;
  for (int k = 0; k < est->nelem; ++k) {
    double m = NAN;
    const double *row = est->elem + (size_t)k * est->nvar;
    for (int i = 0; i < est->nvar; ++i) {
      est->var[i] = nan_max(est->var[i], row[i]);
      m = nan_max(m, row[i] / est->scale[i]);
    }
    est->elem_max[k] = m;
    est->max = nan_max(est->max, m);
  }
}

/* The arrays of est for ne elements, all NaN; the scales 1 + max |w_i| over
 * the nodes. */
static rc_err estimate_alloc(const rc_problem *pb, const rc_solution *sol,
                             rc_error_estimate *est, rc_error *err) {
  const int ne = sol->mesh.n, nv = pb->nx + pb->ny + pb->nu;
  const int nw = rc_problem_nw(pb);
  est->kind = RC_ESTIMATE_NONE;
  est->nelem = ne;
  est->nvar = nv;
  est->max = est->local_max = NAN;
  est->scale = malloc(sizeof(double) * (size_t)(nv > 0 ? nv : 1));
  est->var = malloc(sizeof(double) * (size_t)(nv > 0 ? nv : 1));
  est->elem = malloc(sizeof(double) * (size_t)ne * (size_t)(nv > 0 ? nv : 1));
  est->elem_max = malloc(sizeof(double) * (size_t)ne);
  est->local = malloc(sizeof(double) * (size_t)ne);
  if (!est->scale || !est->var || !est->elem || !est->elem_max || !est->local)
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory for the error estimate of %d elements",
                        ne);
  for (int i = 0; i < nv; ++i) {
    double m = 1.0;
    for (int n = 0; n < sol->nnodes; ++n)
      m = fmax(m, fabs(sol->w[(size_t)n * nw + i]));
    est->scale[i] = m;
    est->var[i] = NAN;
  }
  for (size_t q = 0; q < (size_t)ne * (size_t)nv; ++q)
    est->elem[q] = NAN;
  for (int k = 0; k < ne; ++k)
    est->elem_max[k] = est->local[k] = NAN;
  return RC_OK;
}

/* The local estimate (always: cheap, and the refinement history records
 * it): PHR per element, 0 for a sampled reference. */
static rc_err local_estimate(const rc_problem *pb, const rc_solution *sol,
                             rc_error_estimate *est, rc_error *err) {
  const int ne = sol->mesh.n;
  if (pb->sampled_reference) {
    for (int k = 0; k < ne; ++k)
      est->local[k] = 0.0;
  } else {
    rc_err rc = rc_refine_estimate(pb, sol, RC_REFINE_PHR, est->local, err);
    if (rc != RC_OK)
      return rc;
  }
  est->local_max = 0.0;
  for (int k = 0; k < ne; ++k) {
    est->local_max = nan_max(est->local_max, est->local[k]);
    est->elem_max[k] = est->local[k];
  }
  est->max = est->local_max;
  est->kind = RC_ESTIMATE_LOCAL;
  snprintf(est->note, sizeof est->note,
           "local Patterson-Hager-Rao element estimate (relative state defect "
           "and algebraic residual; blind to error propagation, y and u)");
  return RC_OK;
}

/* The mesh of m with every element split in two (same stages), segments
 * carried. */
static rc_err split_mesh(const rc_mesh *m, rc_mesh *out, rc_error *err) {
  const int n = m->n;
  double *frac = malloc(sizeof *frac * (size_t)(2 * n + 1));
  int *stages = malloc(sizeof *stages * (size_t)(2 * n));
  if (!frac || !stages) {
    free(frac);
    free(stages);
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory for the enriched mesh of %d elements",
                        2 * n);
  }
  for (int k = 0; k < n; ++k) {
    frac[2 * k] = m->frac[k];
    frac[2 * k + 1] = 0.5 * (m->frac[k] + m->frac[k + 1]);
    stages[2 * k] = stages[2 * k + 1] = m->stages[k];
  }
  frac[2 * n] = 1.0;
  rc_err rc = rc_mesh_from_arrays(2 * n, frac, stages, out, err);
  if (rc == RC_OK && (rc = rc_mesh_carry_segments(m, out, err)) != RC_OK)
    rc_mesh_free(out);
  free(frac);
  free(stages);
  return rc;
}

/* The global estimate of a square system (an initial-value DAE): the same
 * mesh with one more stage per element, integrated by the march's Newton
 * element by element from sol (radcol/march.h, rc_march_mesh); never Ipopt.
 * With order 2s - 1 at the nodes and s + 1 on the dense output (index 1),
 * the (s+1)-stage solution's error is h^2 (nodes) or h (dense output)
 * times the s-stage one, so E estimates the error of sol to those factors.
 * Scales: atol_i / rtol + max over the nodes of |v_i| (the march's
 * tolerance, radcol/options.h), so max <= rtol means every unknown within
 * atol_i + rtol max |v_i|. */
static rc_err square_global_estimate(const rc_problem *pb,
                                     const rc_solution *sol,
                                     const rc_options *opt,
                                     rc_error_estimate *est, rc_error *err) {
  const double newton_tol = fmax(1e-13, RC_ESTIMATE_MARCH_NEWTON * opt->rtol);
  rc_solution fine;
  rc_solve_stats fst;
  char first[RC_MESSAGE_MAX] = "";
  const char *how = "one more stage per element";
  double wall = 0.0;
  int iters = 0, done = 0;
  /* p-enrichment, then h; h first above index 3, where the unknowns of the
   * highest index converge at order s - 3 or less and the s + 1 solution is
   * no better than the s one (an index-5 control: an estimate of 3e-5
   * from one more stage, a true error of 6e-3) */
  const int h_first = pb->index > 3;
  for (int attempt = 0; attempt < 2 && !done; ++attempt) {
    const int split = (attempt == 0) == h_first;
    rc_mesh fine_mesh;
    rc_err rc = split ? split_mesh(&sol->mesh, &fine_mesh, err)
                      : enriched_mesh(&sol->mesh, &fine_mesh, err);
    if (rc != RC_OK)
      return rc;
    rc_error ferr = {RC_OK, ""};
    rc = rc_march_mesh(pb, &fine_mesh, opt, newton_tol, 1, sol, &fine, &fst,
                       &ferr);
    rc_mesh_free(&fine_mesh);
    if (rc == RC_OK) {
      wall += fst.wall_s;
      iters += fst.iterations;
    }
    if (rc == RC_OK && fst.status == RC_STATUS_CONVERGED) {
      done = 1;
      how = split ? "every element split in two" : "one more stage per element";
      break;
    }
    if (attempt == 0)
      snprintf(first, sizeof first, "%.300s",
               rc == RC_OK ? fst.message : ferr.message);
    if (rc == RC_OK)
      rc_solution_free(&fine);
  }
  est->enriched_status = (int)(done ? RC_STATUS_CONVERGED : RC_STATUS_FAILED);
  est->enriched_iterations = iters;
  est->enriched_nvars = done ? fst.nvars : 0;
  est->enriched_wall_s = wall;
  if (!done) {
    snprintf(est->note, sizeof est->note,
             "local estimate only: the enriched integrations (one more stage "
             "per element; every element split in two) failed, the first: "
             "%.300s",
             first);
    return RC_OK;
  }
  rc_err rc;
  rc = global_from(pb, sol, &fine, opt->dense_per_element, est, err);
  rc_solution_free(&fine);
  if (rc != RC_OK)
    return rc;
  double *atol = malloc(sizeof *atol * (size_t)(est->nvar + 1));
  if (!atol)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for the estimate");
  for (int i = 0; i < est->nvar; ++i)
    atol[i] = opt->atol;
  for (int a = 0; a < opt->natol; ++a)
    for (int i = 0; i < est->nvar; ++i)
      if (strcmp(pb->var_names[i], opt->atol_names[a]) == 0)
        atol[i] = opt->atol_values[a];
  const int nw = rc_problem_nw(pb);
  for (int i = 0; i < est->nvar; ++i) {
    double m = 0.0;
    for (int n = 0; n < sol->nnodes; ++n)
      m = fmax(m, fabs(sol->w[(size_t)n * nw + i]));
    est->scale[i] = atol[i] / opt->rtol + m;
  }
  free(atol);
  summarise(est);
  est->kind = RC_ESTIMATE_GLOBAL;
  snprintf(est->note, sizeof est->note,
           "global: max |v - v_fine| at the nodes and on the dense grid "
           "against the mesh with %s, integrated element by element (%d "
           "iterations, %.3g s); scale atol/rtol + max |v|",
           how, iters, wall);
  return RC_OK;
}

/* The options of the enriched solve (see the file's header comment,
 * "Enriched solve").  kv has room for opt->nipopt + 1 raw Ipopt options: the
 * Newton mode's curvature test first, the caller's after it (they win). */
static rc_options enriched_options(const rc_problem *pb, const rc_solution *sol,
                                   const rc_options *opt, int square,
                                   const char **kv) {
  rc_options o = *opt;
  o.progress = NULL;
  o.progress_ctx = NULL;
  o.warm_start = sol->has_duals;
  /* Free breakpoints: the switch times are measured too, at the tighter
   * tolerance of docs/switching.md. */
  o.tol = sol->mesh.nseg > 0 ? fmin(opt->tol, RC_SWITCHING_TOL) : opt->tol;
  o.acceptable_tol = opt->tol;
  if (!square && o.warm_start && !touches_inequality(pb, sol)) {
    o.warm_start_mu = RC_ESTIMATE_ENRICHED_MU * opt->tol;
    if (o.max_iter > RC_ESTIMATE_NEWTON_MAX_ITER)
      o.max_iter = RC_ESTIMATE_NEWTON_MAX_ITER;
    kv[0] = RC_ESTIMATE_NEWTON_CURVATURE;
    for (int i = 0; i < opt->nipopt; ++i)
      kv[i + 1] = opt->ipopt_kv[i];
    o.ipopt_kv = kv;
    o.nipopt = opt->nipopt + 1;
  } else if (o.max_iter > RC_ESTIMATE_ENRICHED_MAX_ITER) {
    o.max_iter = RC_ESTIMATE_ENRICHED_MAX_ITER;
  }
  return o;
}

/* The global estimate: the enriched re-solve (one more stage per element).
 * When that solve cannot run or does not converge, est stays local and its
 * note says why (RC_OK). */
static rc_err global_estimate(const rc_problem *pb, const rc_solution *sol,
                              const rc_options *opt, rc_error_estimate *est,
                              rc_error *err) {
  const int square =
      opt->solver != RC_SOLVER_IPOPT && rc_nlp_square_system(pb, NULL, 0);
  if (square) /* never through Ipopt: the march's Newton */
    return square_global_estimate(pb, sol, opt, est, err);
  rc_mesh fine_mesh;
  rc_err rc = enriched_mesh(&sol->mesh, &fine_mesh, err);
  if (rc != RC_OK)
    return rc;
  const char **kv = malloc(sizeof *kv * (size_t)(opt->nipopt + 1));
  if (!kv) {
    rc_mesh_free(&fine_mesh);
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory for the enriched solve's options");
  }
  rc_options o = enriched_options(pb, sol, opt, square, kv);
  rc_solution fine;
  rc_solve_stats fst;
  rc_error ferr = {RC_OK, ""};
  rc = rc_nlp_solve(pb, &fine_mesh, &o, sol, &fine, &fst, &ferr);
  if (rc == RC_OK && !square && fst.iterations == 0 &&
      fst.status == RC_STATUS_CONVERGED && strcmp(fst.solver, "ipopt") == 0) {
    /* The coarse solution met the enriched NLP's tolerance as it was: its
     * error is below what that tolerance resolves.  Solved once more to
     * RC_ESTIMATE_ENRICHED_TOL, so that the estimate is still measured. */
    rc_solution_free(&fine);
    o.tol = fmin(opt->tol, RC_ESTIMATE_ENRICHED_TOL);
    rc = rc_nlp_solve(pb, &fine_mesh, &o, sol, &fine, &fst, &ferr);
  }
  free(kv);
  rc_mesh_free(&fine_mesh);
  if (rc != RC_OK) {
    snprintf(est->note, sizeof est->note,
             "local estimate only: the enriched solve (one more stage per "
             "element) could not run: %.400s",
             ferr.message);
    return RC_OK;
  }
  est->enriched_status = (int)fst.status;
  est->enriched_iterations = fst.iterations;
  est->enriched_nvars = fst.nvars;
  est->enriched_wall_s = fst.wall_s;
  const int ok = fst.status == RC_STATUS_CONVERGED ||
                 fst.status == RC_STATUS_ACCEPTABLE ||
                 (fst.status == RC_STATUS_NOT_RUN && pb->sampled_reference);
  if (!ok) {
    snprintf(est->note, sizeof est->note,
             "local estimate only: the enriched solve (one more stage per "
             "element, solver %s) ended '%s' after %d iterations",
             fst.solver, rc_status_name(fst.status), fst.iterations);
    rc_solution_free(&fine);
    return RC_OK;
  }
  rc = global_from(pb, sol, &fine, opt->dense_per_element, est, err);
  int nsing = 0;
  double ringing = 0.0;
  if (rc == RC_OK)
    rc = singular_means(pb, sol, &fine, opt->dense_per_element, est, &nsing,
                        &ringing, err);
  if (rc == RC_OK && sol->mesh.nseg > 1 && fine.mesh.nseg == sol->mesh.nseg) {
    const int nsw = sol->mesh.nseg - 1;
    est->switch_t = malloc(sizeof *est->switch_t * (size_t)nsw);
    est->switch_err = malloc(sizeof *est->switch_err * (size_t)nsw);
    if (!est->switch_t || !est->switch_err) {
      rc =
          rc_error_set(err, RC_ERR_NOMEM, "out of memory for %d switches", nsw);
    } else {
      est->nswitch = nsw;
      for (int q = 1; q <= nsw; ++q) {
        est->switch_t[q - 1] = segment_time(sol, q);
        est->switch_err[q - 1] =
            fabs(segment_time(&fine, q) - est->switch_t[q - 1]);
      }
    }
  }
  rc_solution_free(&fine);
  if (rc != RC_OK)
    return rc;
  summarise(est);
  est->kind = RC_ESTIMATE_GLOBAL;
  snprintf(est->note, sizeof est->note,
           "global: max |v - v'| at the nodes and on the dense grid against an "
           "enriched solve with one more stage per element (%d variables, "
           "solver %s, %d iterations)",
           fst.nvars, fst.solver, fst.iterations);
  est->singular_elements = nsing;
  est->singular_pointwise = nsing > 0 ? ringing : 0.0;
  if (nsing > 0) {
    const size_t l = strlen(est->note);
    snprintf(est->note + l, sizeof est->note - l,
             "; on %d element(s) of singular arcs the control is compared "
             "through its primitive from the arc's entry, divided by the "
             "arc's length (pointwise difference up to %.3g there: the NLP's "
             "flat directions)",
             nsing, ringing);
  }
  return RC_OK;
}

rc_err rc_estimate_error(const rc_problem *pb, const rc_solution *sol,
                         const rc_options *opt, rc_estimate_kind kind,
                         rc_error_estimate *est, rc_error *err) {
  memset(est, 0, sizeof *est);
  if (!pb || !sol || !opt || sol->mesh.n < 1 || !sol->w)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_estimate_error: expected a problem, a solution on "
                        "a mesh and options");
  if (kind != RC_ESTIMATE_NONE && kind != RC_ESTIMATE_LOCAL &&
      kind != RC_ESTIMATE_GLOBAL)
    return rc_error_set(err, RC_ERR_INPUT,
                        "estimate kind %d: expected RC_ESTIMATE_NONE (0), "
                        "RC_ESTIMATE_LOCAL (1) or RC_ESTIMATE_GLOBAL (2)",
                        (int)kind);
  rc_err rc = estimate_alloc(pb, sol, est, err);
  if (rc == RC_OK && kind == RC_ESTIMATE_NONE)
    snprintf(est->note, sizeof est->note, "no error estimate requested");
  else if (rc == RC_OK && (rc = local_estimate(pb, sol, est, err)) == RC_OK &&
           kind == RC_ESTIMATE_GLOBAL)
    rc = global_estimate(pb, sol, opt, est, err);
  if (rc != RC_OK) {
    rc_error_estimate_free(est);
    return rc;
  }
  rc_error_clear(err);
  return RC_OK;
}

rc_err rc_estimate_error_against(const rc_problem *pb, const rc_solution *sol,
                                 const rc_solution *fine, const rc_options *opt,
                                 const char *what, rc_error_estimate *est,
                                 rc_error *err) {
  memset(est, 0, sizeof *est);
  if (!pb || !sol || !opt || sol->mesh.n < 1 || !sol->w)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_estimate_error_against: expected a problem, a "
                        "solution on a mesh and options");
  rc_err rc = estimate_alloc(pb, sol, est, err);
  if (rc == RC_OK)
    rc = local_estimate(pb, sol, est, err);
  if (rc == RC_OK && fine && fine->w) {
    if ((rc = global_from(pb, sol, fine, opt->dense_per_element, est, err)) ==
        RC_OK) {
      summarise(est);
      est->kind = RC_ESTIMATE_GLOBAL;
      snprintf(est->note, sizeof est->note,
               "global: max |v_h - v_h/2| at the nodes and on the dense grid "
               "against %s",
               what ? what : "an enriched solve");
    }
  }
  if (rc != RC_OK) {
    rc_error_estimate_free(est);
    return rc;
  }
  rc_error_clear(err);
  return RC_OK;
}
