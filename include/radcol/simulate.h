/*
 * radcol/simulate.h - explicit fixed-step integration of a formulation
 * without algebraic variables or controls (ny = 0, nu = 0), and simulation
 * as an initial guess for an NLP.
 *
 * The dynamics are the problem's own point block: f(t, w) = rows 0..nx-1 of
 * point.eval, with w = (x, p) and the parameters p held at their guess
 * values (pb->guess at t0, else 0 clipped to the bounds).  Two methods:
 *
 *   collatz (explicit midpoint, seeds/001 section 22.6):
 *       x_{k+1/2} = x_k + (h/2) f(t_k, x_k)
 *       x_{k+1}   = x_k + h f(t_k + h/2, x_{k+1/2})              order 2
 *   rk4 (classical Runge-Kutta):
 *       k1 = f(t_k, x_k),            k2 = f(t_k + h/2, x_k + h k1/2),
 *       k3 = f(t_k + h/2, x_k + h k2/2), k4 = f(t_k + h, x_k + h k3),
 *       x_{k+1} = x_k + h (k1 + 2 k2 + 2 k3 + k4)/6               order 4
 *
 * Steps.  With T = tf - t0 and the requested step H: if T/H is within
 * 1e-9 (relative) of an integer N, N equal steps of T/N are taken; otherwise
 * N = ceil(T/H) steps of H, the last one shortened to end at tf.  H must be
 * finite and > 0 and N <= RC_SIM_MAX_STEPS.
 *
 * Result.  The steps are the mesh: element k is step k with 1 Radau stage
 * (c_1 = 1), so the nodes are the step points t_0 .. t_N and the solution
 * holds x (and p) there; rc_diagnose's dense output on such a mesh is linear
 * interpolation between step points.
 */
#ifndef RADCOL_SIMULATE_H
#define RADCOL_SIMULATE_H

#include "radcol/errors.h"
#include "radcol/mesh.h"
#include "radcol/problem.h"
#include "radcol/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A simulation is stored as a solution with one mesh element per step, so
 * it takes at most as many steps as a mesh has elements (10^7). */
#define RC_SIM_MAX_STEPS ((long)RC_MESH_MAX_ELEMENTS)

typedef enum rc_sim_method { RC_SIM_RK4 = 0, RC_SIM_COLLATZ = 1 } rc_sim_method;

/* "rk4" or "collatz" (NULL for an unknown value). */
const char *rc_sim_method_name(rc_sim_method m);

/* RC_OK when pb can be integrated explicitly: ny = 0, nu = 0, fixed tf and a
 * point block with an eval function.  Otherwise RC_ERR_INPUT with a message
 * that names the formulation and why. */
rc_err rc_simulate_check(const rc_problem *pb, rc_error *err);

/* Number of steps for the horizon [t0, tf] and the requested step h (see
 * "Steps" above); *uniform = 1 when all steps are equal. */
rc_err rc_simulate_plan(double t0, double tf, double h, long *nsteps,
                        int *uniform, rc_error *err);

/* Doubles of workspace rc_simulate_step needs for pb. */
int rc_simulate_work_size(const rc_problem *pb);

/* One step of length h from (t, w) to wnext (nw values each; p copied).
 * work holds rc_simulate_work_size(pb) doubles.  RC_ERR_EVAL when f fails
 * or the new state is not finite. */
rc_err rc_simulate_step(const rc_problem *pb, rc_sim_method m, double t,
                        double h, const double *w, double *wnext, double *work,
                        rc_error *err);

/* Integrates pb from t0 (state pb->x0; from another state: simulate the
 * problem rc_problem_restart returns, radcol/start.h) to tf with step h.  On
 * RC_OK *sol is allocated (mesh: one 1-stage element per step) and, if stats is
 * not NULL, stats is filled (status RC_STATUS_NOT_RUN: no NLP; iterations 0;
 * message "rk4: N steps of h = ..."; eval_s the integration time).  On failure
 * nothing is allocated and err says where it failed. */
rc_err rc_simulate(const rc_problem *pb, rc_sim_method m, double h,
                   rc_solution *sol, rc_solve_stats *stats, rc_error *err);

/* An initial guess for target (a formulation of model, built with the
 * parameter values pv) on mesh, from a simulation of the nearest ODE
 * formulation of the same model: target itself if it has ny = nu = 0,
 * otherwise the model's "angle" formulation, otherwise its first
 * formulation with ny = nu = 0.  The source is integrated through the
 * target's node times with steps no longer than h (h <= 0: (tf - t0)/1000).
 * Target variables (x, y, u) take the value of the source variable or
 * output of the same name (double-pendulum: also x1 .. v2 from the angles);
 * every other entry (multipliers, controls, parameters) comes from target's
 * guess function (else x0 for x, 0 otherwise); all are clipped to the
 * target's bounds.  source (if not NULL, >= 64 chars) receives the source
 * formulation's name; *nmatched (if not NULL) the number of target
 * variables filled from the simulation.  On RC_OK *guess is allocated on a
 * copy of mesh over [target->t0, target->tf]. */
rc_err rc_simulate_guess(const rc_model *model, const rc_param_values *pv,
                         const rc_problem *target, const rc_mesh *mesh,
                         rc_sim_method m, double h, rc_solution *guess,
                         char *source, int *nmatched, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
