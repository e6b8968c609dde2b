/*
 * radcol/result.h - a discrete trajectory on a mesh, and what a solve returns.
 *
 * Node layout (shared with the HDF5 file): node 0 is t0; node 1 + off_k + j - 1
 * is stage j (1..s_k) of element k, off_k = s_0 + ... + s_{k-1}.  The last
 * stage of element k is the first node of element k+1 (c_s = 1).
 *
 * w holds every point vector (x, y, u, p) at every node, node-major.  y and u
 * at t0 are the NLP's values when the formulation imposes g at t0; otherwise y
 * solves g(t0, x0, y, u0) = 0 where dg/dy is nonsingular (index-1
 * formulations), and the rest is the element-0 stage extrapolation
 * (rc_solution_eval_stages).
 *
 * Multipliers are stored as mesh-independent densities, so that they
 * approximate costates and continuous multipliers and can be interpolated onto
 * a new mesh for a warm start: the NLP dual of the (h-scaled) collocation row
 * at stage j of element k divided by b_j (the costate, in Ipopt's sign
 * convention L = f + lambda^T g), and the duals of algebraic and path
 * constraints divided by b_j h_k.  Row 0 (t0) holds the raw duals of the
 * constraints imposed at t0, or zeros.
 */
#ifndef RADCOL_RESULT_H
#define RADCOL_RESULT_H

#include "radcol/errors.h"
#include "radcol/mesh.h"
#include "radcol/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rc_solution {
  int nx, ny, nu, np, nc, nb;
  rc_mesh mesh;
  double t0, tf;
  int nnodes;
  double *t; /* nnodes times */
  double *w; /* nnodes x nw */
  int has_duals;
  double *lam_f; /* nnodes x nx  collocation duals / b_j (costates) */
  double *lam_g; /* nnodes x ny */
  double *lam_c; /* nnodes x nc */
  double *lam_b; /* nb boundary duals (raw) */
  double *z_lo;  /* nnodes x nw  bound duals (raw) */
  double *z_hi;  /* nnodes x nw */
  int *
      elem_off; /* mesh.n + 1: node index off_k before element k's stage 1
                   (off_k = s_0 + ... + s_{k-1}), filled by rc_solution_alloc */
} rc_solution;

/* The sizes a solution is allocated from (the dims of an rc_problem). */
typedef struct rc_solution_dims {
  int nx, ny, nu, np, nc, nb;
} rc_solution_dims;

/* Allocate a zeroed solution of dims d on a copy of mesh (for a solution
 * without a problem at hand, e.g. one read back from a file).  RC_ERR_INPUT
 * for a negative dim or a horizon that is not finite with tf > t0. */
rc_err rc_solution_alloc_dims(const rc_solution_dims *d, const rc_mesh *mesh,
                              double t0, double tf, int with_duals,
                              rc_solution *sol, rc_error *err);

/* Allocate a zeroed solution for the problem's dims on a copy of mesh. */
rc_err rc_solution_alloc(const rc_problem *pb, const rc_mesh *mesh, double t0,
                         double tf, int with_duals, rc_solution *sol,
                         rc_error *err);
void rc_solution_free(rc_solution *sol);
/* Fill sol->t from mesh, t0, tf and the Radau nodes. */
void rc_solution_set_times(rc_solution *sol);
/* Dense output at time t (t0 <= t <= tf): x, y and u from the degree-s
 * polynomial through the element's s+1 nodes (its first node and its s
 * stages), p constant; in the first element of a segment q >= 1 (free
 * breakpoints, radcol/mesh.h) y and u from the degree-(s-1) polynomial
 * through its stages only (they may jump at the segment boundary).  w gets
 * nw values. */
rc_err rc_solution_eval(const rc_solution *sol, double t, double *w,
                        rc_error *err);
/* The stage polynomial: x as rc_solution_eval, y and u from the degree-(s-1)
 * polynomial through the element's s stage values only (extrapolated before
 * the first stage).  Used to fill node 0's y and u when the NLP has none. */
rc_err rc_solution_eval_stages(const rc_solution *sol, double t, double *w,
                               rc_error *err);
/* Same for the multipliers (lam_f, lam_g, lam_c densities): degree s-1 through
 * the stage values.  out gets nx + ny + nc values. */
rc_err rc_solution_eval_duals(const rc_solution *sol, double t, double *out,
                              rc_error *err);
/* Node index off_k before element k's first stage (0 <= k <= mesh.n). */
int rc_solution_element_offset(const rc_solution *sol, int k);
/* Element containing t (ties go to the left element, t <= t0 gives 0). */
int rc_solution_element(const rc_solution *sol, double t);

/* A guess for pb from a solution src of another formulation of the same
 * problem (src_names: src's nw variable names): every variable of pb takes
 * the values of the source variable of the same name and a compatible kind
 * (trajectories - differential, algebraic, control - map to one another;
 * decision parameters only to decision parameters); source variables pb
 * lacks are ignored.  RC_ERR_INPUT naming every variable of pb that cannot
 * be mapped.  On RC_OK *out (no multipliers) is on a copy of src's mesh and
 * *nmapped (may be NULL) = nw. */
rc_err rc_solution_map(const rc_problem *pb, const rc_solution *src,
                       const char *const *src_names, int *nmapped,
                       rc_solution *out, rc_error *err);

/* How a result's discretisation was chosen: one solve on a given mesh
 * (rc_solve), the refinement loop to a tolerance (rc_solve_refined), or the
 * adaptive default (rc_solve_adaptive). */
typedef enum rc_solve_mode {
  RC_MODE_FIXED = 0,
  RC_MODE_REFINE = 1,
  RC_MODE_ADAPTIVE = 2
} rc_solve_mode;

/* "fixed", "refine" or "adaptive"; NULL outside the enum. */
const char *rc_solve_mode_name(rc_solve_mode mode);

/* The accuracy verdict of a result (docs/accuracy.md): its error estimate
 * and the dense-grid check of every imposed constraint against tol, both
 * relative (radcol/estimate.h, radcol/dense_check.h).  met = 1 when both
 * are <= tol; 0 when one exceeds it; -1 when it is not verified (the solver
 * did not succeed, no estimate was made, or a check could not run).  When
 * binding, a successful solve whose verdict is not met has status
 * RC_STATUS_INACCURATE; solver_status keeps how the solver itself ended. */
typedef struct rc_accuracy {
  int met;                 /* 1 met, 0 above tol, -1 not verified */
  int binding;             /* 1: the verdict decides the status */
  double tol;              /* relative to each variable's scale */
  int estimate_kind;       /* rc_estimate_kind behind estimate_max */
  double estimate_max;     /* the estimate's max, relative; NaN: none */
  double dense_worst;      /* worst relative dense-grid violation of an
                              imposed constraint; NaN: not checked */
  rc_status solver_status; /* the status before the verdict */
  rc_solve_mode mode;      /* how the discretisation was chosen */
} rc_accuracy;

typedef struct rc_solve_stats {
  rc_status status;
  int solver_status; /* raw Ipopt ApplicationReturnStatus */
  int iterations;
  double objective;
  double constraint_violation; /* max |constraint residual| incl. bounds */
  double dual_infeasibility;   /* Ipopt's scaled inf_du, last iteration */
  double wall_s, ipopt_s, eval_s;
  int nvars, ncons, nnz_jac, nnz_hes;
  char message[RC_MESSAGE_MAX]; /* how the solve ended, in words */
  double objective_scale; /* S: the NLP minimised S * objective (1: none) */
  /* Which solver produced the result: "newton", "ipopt", "ipopt (newton
   * fallback at element K)" or "sampled reference".  With "newton",
   * iterations counts Newton iterations over all elements, ipopt_s is the
   * Newton solver's own time (factorisations, solves) and nnz_jac the entries
   * of the dense element Jacobians (nnz_hes 0: no Hessian is used). */
  char solver[64];
  int newton_fallback_element; /* element where Newton failed, or -1 */
  rc_accuracy accuracy;        /* the verdict (rc_solve, rc_solve_refined,
                                  rc_solve_adaptive; zero from a solve
                                  inside an estimate) */
} rc_solve_stats;

/* The stats of a solve that has not run yet: zeroed, status
 * RC_STATUS_FAILED, no Newton fallback element (-1), objective scale 1;
 * every solve starts from it. */
void rc_solve_stats_begin(rc_solve_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
