/*
 * radcol/replay.h - replay of a computed plan: forward simulation of a
 * formulation driven by the controls of a solution (e.g. read back from a
 * result file), from the plan's initial state, continued after tf with the
 * controls held at their values at tf; and how far the replay strays from
 * the plan.
 *
 * The formulation must be semi-explicit of index <= 1:
 *
 *     x' = f(t, x, y, u, p),    0 = g(t, x, y, u, p),    g_y nonsingular
 *
 * (f rows 0..nx-1 and g rows nx..nx+ny-1 of the point block).  x is
 * integrated by GSL odeiv2 rk8pd (Prince-Dormand 8(9)) with the step-size
 * control |local error of x_i| <= tol + tol |x_i|; at every right-hand-side
 * evaluation y solves g = 0 by Newton's method with the problem's own
 * Jacobian block g_y, warm started from the previous solve.  Path
 * constraints, boundary conditions and the objective play no part.
 *
 * Controls on [t0, tf]: hold == 0 takes u(t) from the plan's dense output
 * (rc_solution_eval: the degree s-1 polynomial of the element holding t);
 * hold = H > 0 holds u(t) = u_plan(t0 + k H) on [t0 + k H, t0 + (k+1) H)
 * (zero-order hold, as a PLC that updates its set-points every H).  On
 * (tf, tf + settle] u(t) = u_plan(tf), or with after_rest the rest
 * controls: (y, u) minimising |(f, g)(tf, x_plan(tf), y, u, p)|^2 by
 * Gauss-Newton from the plan's values at tf (the controls that hold the
 * plan's end state in equilibrium; refused when the residual stays above
 * 1e-8 (1 + |F|)).
 *
 * Data from the plan, matched by name (plan_names, the plan's nw names in
 * the order of its w): every state x and control u of pb must be there; an
 * algebraic variable found there starts Newton at t0 (else pb->guess, else
 * 0); a parameter found there is taken from it (else pb->guess, else 0,
 * clipped to the bounds).  The initial state is the plan's x at t0.
 *
 * Samples.  The replay is recorded at a uniform grid of spacing
 * (tf - t0) / samples on [t0, tf] continued to tf + settle (the last sample
 * exactly at tf + settle), plus every point where the controls may jump:
 * the plan's element breakpoints (hold == 0) or the hold instants
 * (hold > 0).  The integrator is restarted at each of these points, so no
 * step straddles a jump of u.  Values recorded at a sample are the right
 * limits (u and y of the interval that starts there).  At most 10^6
 * samples in all (more is refused as bad input).
 *
 * Figures, per variable v in (x, y, u, outputs), nvar = nx + ny + nu + nout
 * (outputs: pb->outputs on the replay's and the plan's point vectors):
 *   max_dev[v]    = max over samples t in [t0, tf] of |v(t) - v_plan(t)|
 *   end_err[v]    = |v(tf) - v_plan(tf)|
 *   settle_dev[v] = max over samples t in [tf, tf + settle] of
 *                   |v(t) - v_plan(tf)|  (NaN when settle == 0)
 * NaN where the plan has no value for v.  For a plan that ends at rest,
 * settle_dev of an angle is the residual swing after tf.  Limits, over all
 * samples in [t0, tf + settle]:
 *   bound_viol[i] = max max(0, w_lo[i] - w_i, w_i - w_hi[i])  for x, y, u
 *                   with a finite bound (NaN without one)
 *   path_viol[k]  = max max(0, c_lo[k] - c_k, c_k - c_hi[k])  k < nc
 */
#ifndef RADCOL_REPLAY_H
#define RADCOL_REPLAY_H

#include "radcol/errors.h"
#include "radcol/problem.h"
#include "radcol/result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rc_replay_options {
  double hold;    /* 0: dense-output controls; > 0: zero-order hold period */
  double settle;  /* time simulated after tf (>= 0); default: tf - t0 */
  double tol;     /* rk8pd absolute and relative tolerance; default 1e-10 */
  int samples;    /* uniform samples per plan horizon; default 1000 */
  int after_rest; /* 1: after tf hold the rest controls (above); default 0 */
} rc_replay_options;

/* hold 0, settle -1 (meaning: tf - t0 of the plan), tol 1e-10,
 * samples 1000. */
void rc_replay_options_default(rc_replay_options *opt);

typedef struct rc_replay {
  int nx, ny, nu, np, nout;
  int nvar;      /* nx + ny + nu + nout */
  double t0, tf; /* the plan's horizon */
  double tend;   /* tf + settle */
  double hold, settle, tol;
  int nt;          /* samples */
  int itf;         /* index of the sample at tf */
  double *t;       /* nt sample times, ascending, t[0] = t0, t[nt-1] = tend */
  double *w;       /* nt x nw replay point vectors */
  double *out;     /* nt x nout replay derived outputs */
  double *plan;    /* nt x nvar plan values; NaN after tf and where the
                      plan has no value */
  double *max_dev; /* nvar */
  double *end_err; /* nvar */
  double *settle_dev; /* nvar */
  double *u_after;    /* nu controls held after tf */
  double *bound_viol; /* nx + ny + nu simple-bound violations */
  int nc;
  double *path_viol; /* nc path-constraint violations */
  long steps;        /* accepted rk8pd steps */
  long failed_steps; /* rejected rk8pd steps */
  long rhs_evals;    /* right-hand-side evaluations */
  int newton_max;    /* most Newton iterations one evaluation needed */
  double wall_s;     /* time spent integrating */
  char source[256];  /* free text naming the plan, set by the caller (the
                        result file writes it as the attribute "plan") */
  int after_rest;    /* u_after: 1 the rest controls, 0 u_plan(tf) */
} rc_replay;

/* RC_OK when pb can be replayed: index <= 1, a point block with eval (and
 * jacobian if ny > 0) and every algebraic variable in the pattern of g_y.
 * Otherwise RC_ERR_INPUT with a message naming the formulation and why. */
rc_err rc_replay_check(const rc_problem *pb, rc_error *err);

/* Replays plan (plan_names: its nw variable names, in its order; plan_nw:
 * their number) on pb.  On RC_OK *r is allocated (rc_replay_free).
 * RC_ERR_INPUT: pb cannot be replayed, a state or control of pb is missing
 * from the plan, the options are out of range, or g_y is singular at t0.
 * RC_ERR_EVAL: a function failed, Newton did not converge or the state
 * became non-finite (the message names t).  Nothing is allocated on
 * failure. */
rc_err rc_replay_run(const rc_problem *pb, const rc_solution *plan,
                     const char *const *plan_names, int plan_nw,
                     const rc_replay_options *opt, rc_replay *r, rc_error *err);
void rc_replay_free(rc_replay *r);

/* The replay as a solution of pb on [t0, tend]: one 1-stage element per
 * sample interval, so the nodes are exactly the samples (its dense output
 * is linear interpolation between them). */
rc_err rc_replay_solution(const rc_problem *pb, const rc_replay *r,
                          rc_solution *sol, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
