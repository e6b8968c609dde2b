/*
 * radcol/estimate.h - a-posteriori error estimate of a solution, no reference
 * needed (docs/mesh-refinement.md, "Error estimate").
 *
 * RC_ESTIMATE_GLOBAL (the default of `radcol solve`): an enriched re-solve.
 *   The same mesh with one more stage in every element (an element at
 *   RC_MAX_STAGES is split in two instead) is solved again, warm-started
 *   from the solution (primal and dual); the estimate of variable i (x, y
 *   and u) in element k is
 *       E_ki = max_{t in T_k} |v_i(t) - v'_i(t)|
 *   over T_k = the element's nodes and its points of the dense grid of
 *   rc_diagnose (dense_per_element per element, plus tf), where v is the
 *   dense output of the solution and v' that of the enriched one.  With s + 1
 *   stages every variable's order rises by at least one (dense output: s + 1
 *   -> s + 2 for states, s -> s + 1 for y and u; element ends 2s - 1 ->
 *   2s + 1), so e' = O(h) e and E = (1 + O(h)) e estimates the *global*
 *   error of the solution the file holds, at its nodes and on its dense
 *   output, in the max norm, in the asymptotic range
 *   (results/estimate-reliability.md measures it).  Cost: the enriched NLP
 *   has (s + 1)/s the variables; for an optimal-control problem that touches
 *   no inequality it is solved by Newton steps on its KKT system from the
 *   solution (warm start with the barrier parameter at 1e-3 tol; usually one
 *   step, at most 10), otherwise by a warm-started Ipopt run of at most 100
 *   iterations.  A square system (an initial-value DAE, rc_square_system)
 *   is never re-solved through Ipopt: the same enriched mesh (if that fails,
 *   every element split in two) is integrated element by element by the
 *   march's Newton (radcol/march.h, rc_march_mesh, from the solution's dense
 *   output), with scale_i = atol_i / rtol + max over the nodes of |v_i|
 *   (opt's tolerances).
 * RC_ESTIMATE_LOCAL: the Patterson-Hager-Rao element estimate of the
 *   refinement (radcol/refine.h): the local, relative defect of the state
 *   interpolant plus the algebraic residual between nodes.  It does not see
 *   error propagation, y or u errors; per-variable values are NaN.  Cheap.
 *
 * Scales: scale_i = max(1, max over the nodes of |v_i|), so the relative
 * estimate E_i / scale_i is an absolute error for variables of size <= 1 and a
 * relative one for larger variables.  `max` is max_i E_i / scale_i.
 */
#ifndef RADCOL_ESTIMATE_H
#define RADCOL_ESTIMATE_H

#include "radcol/dense_check.h"
#include "radcol/errors.h"
#include "radcol/options.h"
#include "radcol/problem.h"
#include "radcol/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* rc_estimate_kind (none, local, global) is declared in radcol/options.h,
 * where the solve options name it. */

/* "none", "local" or "global". */
const char *rc_estimate_kind_name(rc_estimate_kind kind);

typedef struct rc_error_estimate {
  rc_estimate_kind kind; /* what was computed (GLOBAL may fall back) */
  int nelem, nvar;       /* nvar = nx + ny + nu */
  double *scale;         /* nvar: max(1, max_nodes |v_i|) */
  double *var;           /* nvar: max over elements of E_ki (absolute) */
  double *elem;          /* nelem x nvar: E_ki (absolute), row-major */
  double *elem_max;      /* nelem: max_i E_ki / scale_i (or the local one) */
  double *local;         /* nelem: Patterson-Hager-Rao estimate (relative) */
  double max;            /* max_k elem_max[k] */
  double local_max;      /* max_k local[k] */
  /* the enriched solve (GLOBAL) */
  int enriched_status; /* rc_status */
  int enriched_iterations, enriched_nvars;
  double enriched_wall_s;
  char note[RC_MESSAGE_MAX]; /* what was estimated, fallbacks, in words */
  /* With free breakpoints (GLOBAL): the segment boundaries' times and their
   * estimated errors |t_q - t'_q| against the enriched solve (whose
   * breakpoints are free too); the per-element estimates above compare the
   * two solutions segment by segment (docs/switching.md). */
  int nswitch;
  double *switch_t;   /* nswitch boundary times, ascending */
  double *switch_err; /* nswitch */
  /* Singular arcs (GLOBAL, docs/switching.md section 7): the elements on
   * which a singular control was compared through its running mean, and the
   * largest pointwise difference that comparison replaced (the NLP's flat
   * directions; the control's pointwise values are resolved only to it). */
  int singular_elements;
  double singular_pointwise;
} rc_error_estimate;

/* Estimate the error of sol (a solution of pb on its mesh).  opt: the solver
 * options of the enriched solve (its progress callback is not called);
 * dense_per_element from opt.  With RC_ESTIMATE_GLOBAL, an enriched solve
 * that does not converge leaves the local estimate (kind LOCAL, note says
 * why).  On RC_OK *est is allocated (free with rc_error_estimate_free). */
rc_err rc_estimate_error(const rc_problem *pb, const rc_solution *sol,
                         const rc_options *opt, rc_estimate_kind kind,
                         rc_error_estimate *est, rc_error *err);
void rc_error_estimate_free(rc_error_estimate *est);

/* The estimate of sol against an enriched solution fine that the caller
 * solved (e.g. every phase of a multiphase problem re-solved together,
 * radcol/phases_refine.h): the local estimate, and with fine (not NULL) the
 * global one from it, as RC_ESTIMATE_GLOBAL computes it (what, for the note:
 * what fine is).  enriched_* are left 0 for the caller.  On RC_OK *est is
 * allocated. */
rc_err rc_estimate_error_against(const rc_problem *pb, const rc_solution *sol,
                                 const rc_solution *fine, const rc_options *opt,
                                 const char *what, rc_error_estimate *est,
                                 rc_error *err);

/* The local estimators of the refinement loop (radcol/refine.h, "hp
 * decision"): RC_REFINE_PHR the Patterson-Hager-Rao estimate above,
 * RC_REFINE_BETTS the Betts relative defect of rc_diagnose (elem_defect),
 * RC_REFINE_BOTH the larger of the two. */
typedef enum rc_refine_estimator {
  RC_REFINE_PHR = 0,
  RC_REFINE_BETTS = 1,
  RC_REFINE_BOTH = 2
} rc_refine_estimator;

/* Per-element error estimate of sol (est: sol->mesh.n values).  Elements
 * where a problem function fails to evaluate get +inf (they need refining). */
rc_err rc_refine_estimate(const rc_problem *pb, const rc_solution *sol,
                          rc_refine_estimator estimator, double *est,
                          rc_error *err);

/* The comparison at the heart of the accuracy rule: RC_STATUS_INACCURATE
 * when a solve that ended `solved` converged (or was acceptable) but the
 * estimate's max or the worst dense-grid constraint violation (relative, as
 * the estimate; pass 0 when not measured) exceeds tol; otherwise `solved`
 * unchanged (NaN is no verdict of inaccuracy, +inf is). */
rc_status rc_accuracy_status(rc_status solved, double estimate_max,
                             double worst_dense_violation, double tol);

/* The accuracy rule (docs/accuracy.md), the one place a verdict is formed;
 * rc_solve, rc_solve_refined and rc_solve_adaptive call it on the result
 * they return.  A solve that ended `solved` succeeded when it converged or
 * was acceptable, or, with sampled = 1 (a sampled-reference problem), when
 * it ended RC_STATUS_NOT_RUN.  The verdict, in *acc (mode left as it is):
 * met (1) when it succeeded and both the estimate's max (est; NULL or kind
 * none: not verified) and the worst relative dense-grid violation of an
 * imposed constraint (dv->worst_relative; NULL: not verified) are <= tol;
 * 0 when one exceeds tol; -1 when not verified.  Returns the status:
 * RC_STATUS_INACCURATE when binding, the solve succeeded and the verdict is
 * not met (above tol or not verified); otherwise `solved`. */
rc_status rc_accuracy_verdict(rc_status solved, int sampled,
                              const rc_error_estimate *est,
                              const rc_dense_violation *dv, double tol,
                              int binding, rc_accuracy *acc);

#ifdef __cplusplus
}
#endif
#endif
