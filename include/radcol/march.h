/*
 * radcol/march.h - an initial-value DAE (a square system, rc_square_system)
 * integrated by an adaptive Radau IIA march: the mesh is chosen while
 * marching, element by element, by step-size control on a local error
 * estimate (docs/march.md).
 *
 * rc_march_solve  t0 -> tf with steps whose local error estimate is within
 *                 the tolerances; the accepted steps are the mesh, the
 *                 solution is the ordinary rc_solution on it (dense output:
 *                 the collocation polynomials).
 * rc_march_mesh   the same collocation equations on a given mesh, with the
 *                 march's Newton (scaled tests, reused factors, index-aware
 *                 weights): the robust fixed-mesh pass.
 *
 * Tolerances (radcol/options.h: rtol, atol, atol per name).  Every unknown
 * q_i of a stage (x, y, u) has the weight
 *     sc_i = (atol_i + rtol |q_i|) / h^(k_i - 1),
 * k_i its index (1, 2 or 3, found from the problem's structure: positions
 * 1, velocities 2 and multipliers 3 in an index-3 mechanism; Hairer and
 * Wanner II, VII.4), and a step is accepted when the embedded estimate of
 * its local error (Hairer and Wanner II, IV.8: RADAU5's estimate for s = 3,
 * the same construction for any odd s) is <= 1 in max_i |err_i| / sc_i.
 * The local tolerance is rtol_loc = 0.1 rtol^((s+1)/(2s-1)) (atol scaled
 * alike): the estimate is of order s + 1 in h while the solution's global
 * error is of order 2s - 1 (RADAU5 uses 0.1 rtol^(2/3) for s = 3), so that
 * the global error lands near rtol rather than far below it.  The global
 * error is estimated afterwards (radcol/estimate.h).
 *
 * Newton (Hairer and Wanner IV.8): simplified Newton with the Jacobian at the
 * step start, transformed into one real and (s-1)/2 complex systems of one
 * stage's size, the Jacobian and the factors reused from step to step while
 * the contraction is small and h unchanged; converged when theta/(1-theta)
 * times the scaled increment is below fnewt (a fraction of the tolerance,
 * never an absolute residual); divergence or a predicted failure shrinks h.
 * Algebraic rows are scaled by h, position-level rows of index-3
 * formulations by 1 (radcol's src/nlp/radau_step.h).
 */
#ifndef RADCOL_MARCH_H
#define RADCOL_MARCH_H

#include "radcol/errors.h"
#include "radcol/mesh.h"
#include "radcol/options.h"
#include "radcol/problem.h"
#include "radcol/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a march did (beside rc_solve_stats). */
typedef struct rc_march_info {
  int stages;            /* s of every step */
  int steps, rejected;   /* accepted steps (the elements) and rejected ones */
  int newton_failures;   /* rejections because Newton did not converge */
  int full_newton;       /* steps retried with the stages' own Jacobians */
  long long jacobians;   /* point Jacobian evaluations */
  long long lu;          /* factorisations (one set per (J, h)) */
  long long evaluations; /* point evaluations */
  double rtol_local;     /* the local tolerance the steps were held to */
  double rtol_raised;    /* 0, or the local tolerance raised to when the
                            error estimate stopped falling with h (its
                            rounding floor, for the rest of the march) */
  double h_min, h_max;   /* accepted step lengths */
  int index_max;         /* largest variable index found (1..3) */
  double fail_t;         /* where it stopped (NaN: it did not) */
} rc_march_info;

/* March pb (rc_square_system must hold) from t0 to tf with the tolerances
 * and stages of opt (radcol/options.h).  guess (may be NULL) supplies y and
 * u at t0 when the problem does not determine them (e.g. an index-3
 * multiplier); otherwise the problem's guess function.  On RC_OK *sol is
 * allocated and stats says how it ended: RC_STATUS_CONVERGED, or
 * RC_STATUS_FAILED with the time and step where the march stopped in
 * stats->message (the nodes after it hold the last state); info (may be
 * NULL) gets the counts.  RC_ERR_INPUT for a problem that is not square or
 * an atol name that is not a variable of pb; nothing allocated then. */
rc_err rc_march_solve(const rc_problem *pb, const rc_options *opt,
                      const rc_solution *guess, rc_solution *sol,
                      rc_solve_stats *stats, rc_march_info *info,
                      rc_error *err);

/* The collocation equations of pb on mesh, element by element, with the
 * march's Newton: the predictor is guess's dense output where guess is given
 * (else the previous element extrapolated), the transformed factors are
 * reused across elements while Newton contracts, a slow element gets the
 * full Newton matrix at its stages, and an element that still fails is
 * started again from an adaptive march across it (then by continuation in
 * the element's length from there).  Converged when the estimated Newton
 * error of every unknown is below newton_tol (atol_i / rtol + |q_i|),
 * divided by h^(k_i - 1) with index_weights (the march's weighting: for an
 * error estimate, whose index-k unknowns are held to that), and at the
 * unknowns' rounding floor.  On RC_OK *sol is allocated and stats says how
 * it ended (RC_STATUS_FAILED naming the element and its time interval). */
rc_err rc_march_mesh(const rc_problem *pb, const rc_mesh *mesh,
                     const rc_options *opt, double newton_tol,
                     int index_weights, const rc_solution *guess,
                     rc_solution *sol, rc_solve_stats *stats, rc_error *err);

/* The index of every unknown (x, y, u: nx + ny + nu values into k) as the
 * march weights it (1, 2 or 3, found from the problem's structure just after
 * t0; guess as for rc_march_solve).  RC_ERR_INPUT for a problem that is not
 * square. */
rc_err rc_march_variable_index(const rc_problem *pb, const rc_solution *guess,
                               int *k, rc_error *err);

/* The stages the march uses for a relative tolerance when opt->march_stages
 * is 0 (an odd number from 3 to 7; docs/march.md has the measurements). */
int rc_march_default_stages(double rtol);

#ifdef __cplusplus
}
#endif
#endif
