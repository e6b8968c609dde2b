/*
 * test_dense_check.c - bounds on the dense output, the dense-grid
 * constraint check, the refinement criterion it feeds and the node-0 rule of
 * the nodal reference errors.
 *
 * The test problem is an LQ optimal control with an active control bound:
 *     min 1/2 int_0^T (x^2 + u^2) dt,  x' = u,  x(0) = 1,  u >= umin,
 * T = 1, umin = -0.5.  Analytic solution (Pontryagin; u is continuous at the
 * junction because the Hamiltonian is strictly convex in u): u = umin on
 * [0, t1], x = 1 + umin t; then the unconstrained arc from x1 = x(t1),
 *     x = x1 cosh(T - t) / cosh(T - t1),  u = -x1 sinh(T - t) / cosh(T - t1),
 * with t1 from u(t1+) = umin: x1 tanh(T - t1) = -umin (t1 ~ 0.316), and
 *     J* = 1/2 [(1 - x1^3) / (3 |umin|) + umin^2 t1] + x1^2 tanh(T - t1) / 2.
 * The meshes never put a breakpoint at t1, so the element holding the
 * junction has a kink to fit: its degree-(s-1) control polynomial through
 * the stage values overshoots the bound between the nodes.
 *
 * 1. Dense bounds on: the dense output never leaves [umin, inf) (checked on
 *    a fine grid of our own, not only the dense-check grid) and
 *    rc_dense_check says so; off: the check reports a violation of the
 *    bound, with its time inside the junction element.
 *    A state bound likewise (the degree-s state polynomial).
 * 2. The conservatism of the Bernstein condition vanishes with h: the
 *    objective error against J* falls with the mesh, at least like h^2.
 * 3. rc_dense_check on a hand-built solution: the violation, its time,
 *    element and relative value are the ones constructed.
 * 4. --refine with dense bounds off: the dense criterion splits elements
 *    until the violation between the nodes is <= tol, at a tolerance the
 *    estimate alone already meets on the first mesh.
 * 5. The node-0 rule: nodal reference errors include node 0 (y, u there are
 *    the extrapolated dense output when g is not imposed at t0), element-end
 *    errors cover tau_1..tau_n only; recomputed here from the solution and
 *    the analytic reference.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/dense_check.h"
#include "radcol/refine.h"
#include "radcol/solve.h"

#include "test_lq.h"
#include "test_util.h"

#define UMIN (-0.5)
#define T_END 1.0

/* ---- the LQ problem: w = (x, u), F = (f, L) ------------------------------ */
static const double lq_lo[] = {-HUGE_VAL, UMIN}, lq_hi[] = {HUGE_VAL, HUGE_VAL};
static const double lq_free_lo[] = {-HUGE_VAL, -HUGE_VAL};
static const double lq_x0[] = {1.0};
static const int lq_fix[] = {1};
static int no_B(const rc_problem *pb, double t, const double *z, double *B) {
  (void)pb, (void)t, (void)z, (void)B;
  return 0;
}

/* Junction t1 and x1 = x(t1) of the bounded problem (bisection). */
static void junction(double *t1, double *x1) {
  double a = 0.0, b = T_END;
  for (int it = 0; it < 200; ++it) {
    const double m = 0.5 * (a + b);
    const double f = (1 + UMIN * m) * tanh(T_END - m) + UMIN;
    if (f > 0)
      a = m;
    else
      b = m;
  }
  *t1 = 0.5 * (a + b);
  *x1 = 1 + UMIN * *t1;
}

static double analytic_J(void) {
  double t1, x1;
  junction(&t1, &x1);
  return 0.5 * ((1 - x1 * x1 * x1) / (3 * fabs(UMIN)) + UMIN * UMIN * t1) +
         0.5 * x1 * x1 * tanh(T_END - t1);
}

/* Reference of the unbounded problem (x, u). */
static int lq_free_ref(const rc_problem *pb, int nt, const double *t,
                       double *ref) {
  (void)pb;
  for (int i = 0; i < nt; ++i) {
    ref[2 * i] = cosh(T_END - t[i]) / cosh(T_END);
    ref[2 * i + 1] = -sinh(T_END - t[i]) / cosh(T_END);
  }
  return 0;
}

static rc_problem lq_problem(int bounded) {
  rc_problem pb;
  memset(&pb, 0, sizeof pb);
  pb.model = "lq", pb.formulation = bounded ? "bounded" : "free";
  pb.nx = 1, pb.nu = 1, pb.has_lagrange = 1, pb.autonomous = 1;
  pb.var_names = lq_names;
  pb.w_lo = bounded ? lq_lo : lq_free_lo, pb.w_hi = lq_hi;
  pb.t0 = 0, pb.tf = T_END, pb.x0 = lq_x0, pb.fix_x0 = lq_fix;
  pb.point = lq_block();
  pb.boundary =
      (rc_block){0, {0, NULL, NULL}, {0, NULL, NULL}, no_B, NULL, NULL};
  if (!bounded)
    pb.reference = lq_free_ref;
  return pb;
}

static int solve_lq(const rc_problem *pb, int n, int s, int dense_bounds,
                    rc_solution *sol, rc_solve_stats *st) {
  rc_mesh mesh;
  rc_error err;
  rc_mesh_uniform(n, s, &mesh, &err);
  rc_options opt;
  rc_options_default(&opt);
  opt.dense_bounds = dense_bounds;
  const rc_err rc = rc_solve(pb, &mesh, &opt, NULL, sol, st, &err);
  rc_mesh_free(&mesh);
  EXPECT(rc == RC_OK, "solve n=%d s=%d: %s", n, s, err.message);
  if (rc != RC_OK)
    return 0;
  EXPECT(st->status == RC_STATUS_CONVERGED, "n=%d s=%d dense_bounds=%d: %s", n,
         s, dense_bounds, st->message);
  return 1;
}

/* Smallest u of the dense output on 200 points per element. */
static double min_dense_u(const rc_solution *sol) {
  double m = INFINITY, w[2];
  for (int k = 0; k < sol->mesh.n; ++k) {
    const double a = sol->t0 + (sol->tf - sol->t0) * sol->mesh.frac[k];
    const double b = sol->t0 + (sol->tf - sol->t0) * sol->mesh.frac[k + 1];
    for (int q = 0; q <= 200; ++q) {
      rc_solution_eval(sol, a + (b - a) * q / 200.0, w, NULL);
      m = fmin(m, w[1]);
    }
  }
  return m;
}

static void check_bounds_on_off(void) {
  rc_problem pb = lq_problem(1);
  double t1, x1;
  junction(&t1, &x1);
  for (int on = 1; on >= 0; --on) {
    rc_solution sol;
    rc_solve_stats st;
    if (!solve_lq(&pb, 5, 3, on, &sol, &st))
      return;
    rc_dense_violation dv;
    rc_error err;
    EXPECT(rc_dense_check(&pb, &sol, 8, &dv, &err) == RC_OK, "check: %s",
           err.message);
    EXPECT(dv.n == 1 && dv.kind[0] == RC_DENSE_BOUND &&
               strcmp(dv.name[0], "bound_u") == 0,
           "one bound constraint named bound_u, got %d (%s)", dv.n,
           dv.n ? dv.name[0] : "");
    const double umin = min_dense_u(&sol);
    printf("dense bounds %s: min dense u %.10f (bound %.1f), check: max %.3e "
           "at t = %.4f (element %d, junction t1 = %.4f), relative %.3e, "
           "between nodes %.3e, %d iterations\n",
           on ? "on " : "off", umin, UMIN, dv.max[0], dv.time[0], dv.element[0],
           t1, dv.relative[0], dv.worst_between, st.iterations);
    if (on) {
      EXPECT(umin >= UMIN - 1e-8, "dense u reaches %.10g below %g", umin, UMIN);
      EXPECT(dv.worst_relative <= 1e-8, "dense check reports %.3e",
             dv.worst_relative);
    } else {
      EXPECT(umin < UMIN - 1e-4,
             "dense bounds off: expected an overshoot "
             "below the bound, min u %.10g",
             umin);
      EXPECT(dv.relative[0] > 1e-4 && dv.worst == 0,
             "dense check misses the violation: %.3e", dv.relative[0]);
      /* the time found is a grid point where u < umin, in the element
       * holding the junction or a neighbour */
      const double h = T_END / 5;
      EXPECT(fabs(dv.time[0] - t1) < 1.5 * h, "violation at t = %g, t1 = %g",
             dv.time[0], t1);
      double w[2];
      rc_solution_eval(&sol, dv.time[0], w, NULL);
      EXPECT(fabs((UMIN - w[1]) - dv.max[0]) < 1e-14,
             "max %.3e is not the violation at its time %.3e", dv.max[0],
             UMIN - w[1]);
      EXPECT(dv.element[0] == rc_solution_element(&sol, dv.time[0]) &&
                 dv.elem_relative[dv.element[0]] == dv.relative[0],
             "element %d of the violation", dv.element[0]);
    }
    rc_dense_violation_free(&dv);
    rc_solution_free(&sol);
  }
}

/* A state bound x >= 0.7 (the unbounded optimum ends at 1/cosh(1) = 0.648):
 * with dense bounds on, the degree-s state polynomial of every element stays
 * above it, also between the nodes (checked on 2000 points); off, it dips
 * below by about 1e-6 between the nodes - between the 8-point grid's points
 * too, so the grid check does not see it: the Bernstein rows hold where a
 * sampled check cannot look. */
static void check_state_bound(void) {
  static const double lo[] = {0.7, -HUGE_VAL};
  rc_problem pb = lq_problem(1);
  pb.w_lo = lo;
  for (int on = 1; on >= 0; --on) {
    rc_solution sol;
    rc_solve_stats st;
    if (!solve_lq(&pb, 5, 3, on, &sol, &st))
      return;
    double xmin = INFINITY, w[2];
    for (int q = 0; q <= 2000; ++q) {
      rc_solution_eval(&sol, T_END * q / 2000.0, w, NULL);
      xmin = fmin(xmin, w[0]);
    }
    rc_dense_violation dv;
    rc_error err;
    EXPECT(rc_dense_check(&pb, &sol, 8, &dv, &err) == RC_OK, "check");
    printf("state bound x >= 0.7, dense bounds %s: min dense x %.10f, check "
           "max %.3e (relative %.3e), objective %.10f\n",
           on ? "on " : "off", xmin, dv.max[0], dv.relative[0], st.objective);
    if (on)
      EXPECT(xmin >= 0.7 - 1e-8 && dv.worst_relative <= 1e-8,
             "state bound: min dense x %.10g, check %.3e", xmin,
             dv.worst_relative);
    else
      EXPECT(xmin < 0.7 - 1e-7,
             "state bound off: expected a dip below 0.7 "
             "between the nodes, min %.10g",
             xmin);
    rc_dense_violation_free(&dv);
    rc_solution_free(&sol);
  }
}

/* The objective error against J* falls like h^2 or faster with the bounds
 * on, and so does the price of the Bernstein condition, J_on - J_off (both
 * from n = 8 to n = 64; not monotone in between: the error depends on where
 * the junction falls in its element). */
static void check_conservatism(void) {
  rc_problem pb = lq_problem(1);
  const double J = analytic_J();
  double e8 = NAN, d8 = NAN;
  printf(
      "   n   J error (dense bounds on)   J error (off)   iterations on/off\n");
  for (int n = 4; n <= 64; n *= 2) {
    rc_solution a, b;
    rc_solve_stats sa, sb;
    if (!solve_lq(&pb, n, 3, 1, &a, &sa) || !solve_lq(&pb, n, 3, 0, &b, &sb))
      return;
    const double eon = fabs(sa.objective - J), eoff = fabs(sb.objective - J);
    printf("  %3d   %.3e                   %.3e       %d/%d\n", n, eon, eoff,
           sa.iterations, sb.iterations);
    EXPECT(sa.objective >= sb.objective - 1e-12,
           "n=%d: the tighter NLP has the smaller objective", n);
    if (n == 8) {
      e8 = eon;
      d8 = sa.objective - sb.objective;
    }
    if (n == 64) {
      EXPECT(eon < e8 / 16, "objective error %.3e at n = 64, %.3e at n = 8",
             eon, e8);
      EXPECT(sa.objective - sb.objective < d8 / 16,
             "price of the condition %.3e at n = 64, %.3e at n = 8",
             sa.objective - sb.objective, d8);
    }
    rc_solution_free(&a);
    rc_solution_free(&b);
  }
}

/* A hand-built solution: u > 1.25 at one known point only. */
static void check_hand_built(void) {
  rc_problem pb = lq_problem(0);
  static const double lo[] = {-HUGE_VAL, -1.0}, hi[] = {2.0, 1.25};
  pb.w_lo = lo, pb.w_hi = hi;
  rc_mesh mesh;
  rc_error err;
  rc_mesh_uniform(2, 1, &mesh, &err); /* s = 1: x linear, u constant */
  rc_solution sol;
  EXPECT(rc_solution_alloc(&pb, &mesh, 0.0, 2.0, 0, &sol, &err) == RC_OK,
         "alloc");
  /* nodes: t = 0, 1, 2.  x: 0, 3, 0 (above 2 around t = 1 only); u: 0, 0.5,
   * 1.5, linear through the element start and the stage like x (result.h),
   * so above 1.25 on (1.75, 2] only */
  const double w[] = {0, 0, 3, 0.5, 0, 1.5};
  memcpy(sol.w, w, sizeof w);
  rc_dense_violation dv;
  EXPECT(rc_dense_check(&pb, &sol, 4, &dv, &err) == RC_OK, "check: %s",
         err.message);
  EXPECT(dv.n == 2 && dv.ndense == 9, "n %d ndense %d", dv.n, dv.ndense);
  /* x: grid 0, .25, ..., 2; x = 3 t on [0, 1], 3 (2 - t) after: worst at t = 1
   * (element 0, value 3, violation 1, scale max(1, 2, 3) = 3) */
  EXPECT(fabs(dv.max[0] - 1.0) < 1e-15 && dv.time[0] == 1.0 &&
             dv.element[0] == 0 && fabs(dv.relative[0] - 1.0 / 3) < 1e-15,
         "bound_x: max %g at %g element %d relative %g", dv.max[0], dv.time[0],
         dv.element[0], dv.relative[0]);
  /* u = 1.5 at t = 2 (element 1); at the grid point 1.75 u is 1.25 */
  EXPECT(fabs(dv.max[1] - 0.25) < 1e-15 && dv.time[1] == 2.0 &&
             dv.element[1] == 1 && fabs(dv.relative[1] - 0.25 / 1.5) < 1e-15,
         "bound_u: max %g at %g element %d relative %g", dv.max[1], dv.time[1],
         dv.element[1], dv.relative[1]);
  EXPECT(dv.worst == 0 && fabs(dv.worst_relative - 1.0 / 3) < 1e-15,
         "worst %d %g", dv.worst, dv.worst_relative);
  /* both violations show at a stage node too (x = 3 at t = 1, u = 1.5 at
   * t = 2), so none of them is "between the nodes" */
  EXPECT(fabs(dv.elem_node_relative[0] - 1.0 / 3) < 1e-15,
         "element 0 node violation %g", dv.elem_node_relative[0]);
  EXPECT(dv.worst_between < 1e-15, "between %g", dv.worst_between);
  rc_dense_violation_free(&dv);
  rc_solution_free(&sol);
  rc_mesh_free(&mesh);
}

/* --refine with dense bounds off: the estimate of the first mesh is already
 * below tol, the dense violation is not; the loop must split until it is. */
static void check_refine(void) {
  rc_problem pb = lq_problem(1);
  rc_mesh mesh;
  rc_error err;
  rc_mesh_uniform(5, 3, &mesh, &err);
  rc_options opt;
  rc_options_default(&opt);
  opt.dense_bounds = 0;
  rc_refine_options ro;
  rc_refine_options_default(&ro);
  ro.tol = 2e-4;
  rc_solution sol;
  rc_solve_stats st;
  rc_refine_row *rows = NULL;
  int nrows = 0;
  EXPECT(rc_solve_refined(&pb, &mesh, NULL, &opt, &ro, &sol, &st, &rows, &nrows,
                          &err) == RC_OK,
         "refine: %s", err.message);
  for (int i = 0; i < nrows; ++i)
    printf("refine %d: %d elements, estimate %.3e, dense violation %.3e\n",
           rows[i].iteration, rows[i].elements, rows[i].est_error,
           rows[i].dense_violation);
  EXPECT(nrows >= 2 && rows[0].est_error <= ro.tol &&
             rows[0].dense_violation > ro.tol,
         "expected a first mesh meeting the estimate but not the dense "
         "criterion (%d rows)",
         nrows);
  EXPECT(nrows > 0 && rows[nrows - 1].dense_violation <= ro.tol &&
             rows[nrows - 1].est_error <= ro.tol,
         "refinement ended with dense violation %.3e",
         nrows ? rows[nrows - 1].dense_violation : NAN);
  rc_dense_violation dv;
  EXPECT(rc_dense_check(&pb, &sol, opt.dense_per_element, &dv, &err) == RC_OK,
         "check");
  EXPECT(dv.worst_relative <= ro.tol, "final dense violation %.3e",
         dv.worst_relative);
  rc_dense_violation_free(&dv);
  free(rows);
  rc_solution_free(&sol);
  rc_mesh_free(&mesh);
}

/* --refine with dense bounds on and a tight tolerance (1e-9; 1e-11 was
 * reached before the degree-s dense output of y, u: the local estimate now
 * levels off near 5e-10 at the kink where u reaches its bound): the loop
 * reaches it, estimate and dense violation alike, in a few solves.  (Ipopt
 * relaxes the Bernstein rows like any constraint, by up to 1e-8 relative, so
 * at this tolerance the polynomial may dip 1e-11 below the bound between the
 * nodes and the dense criterion splits for it: docs/dense-bounds.md.)  The
 * loop runs on the local estimate (ro.global = 0): this test is about the
 * dense criterion; the global estimate of this LQ stays near 1e-3 at the
 * kink where u reaches its bound, which local splitting does not target
 * (noted in docs/mesh-refinement.md).  Switching is off: this test is about
 * the dense criterion on a fixed structure of elements; with free
 * breakpoints the kink's time is found only to about the square root of the
 * NLP's tolerance (docs/switching.md) and the local estimate next to it
 * levels off near 1.4e-9 (seen once by hand; no test holds that figure). */
static void check_refine_tight(void) {
  rc_problem pb = lq_problem(1);
  rc_mesh mesh;
  rc_error err;
  rc_mesh_uniform(5, 3, &mesh, &err);
  rc_options opt;
  rc_options_default(&opt);
  rc_refine_options ro;
  rc_refine_options_default(&ro);
  ro.tol = 1e-9;
  ro.global = 0;
  ro.switching = 0;
  rc_solution sol;
  rc_solve_stats st;
  rc_refine_row *rows = NULL;
  int nrows = 0;
  EXPECT(rc_solve_refined(&pb, &mesh, NULL, &opt, &ro, &sol, &st, &rows, &nrows,
                          &err) == RC_OK,
         "refine: %s", err.message);
  for (int i = 0; i < nrows; ++i) {
    printf("refine (on, 1e-11) %d: %d elements, estimate %.3e, dense "
           "violation %.3e\n",
           rows[i].iteration, rows[i].elements, rows[i].est_error,
           rows[i].dense_violation);
  }
  EXPECT(nrows > 0 && nrows <= 8 && rows[nrows - 1].est_error <= ro.tol &&
             rows[nrows - 1].dense_violation <= ro.tol,
         "tolerance not reached in at most 8 solves (%d): %s", nrows,
         st.message);
  free(rows);
  rc_solution_free(&sol);
  rc_mesh_free(&mesh);
}

/* Node-0 rule: u(t0) is not an NLP value (t0_algebraic = 0), the file holds
 * the element-0 polynomial extrapolated there; "nodes" includes it, "ends"
 * is tau_1..tau_n.  The errors are recomputed here from the nodes and the
 * analytic reference; then the node-0 value of u is moved by 0.1 (as a
 * wrong extrapolation would), which "nodes" must show and "ends" must not. */
static void check_node0(void) {
  rc_problem pb = lq_problem(0);
  rc_solution sol;
  rc_solve_stats st;
  if (!solve_lq(&pb, 4, 3, 1, &sol, &st))
    return;
  rc_diagnostics d;
  rc_error err;
  EXPECT(rc_diagnose(&pb, &sol, 8, &d, &err) == RC_OK, "diagnose: %s",
         err.message);
  double nodes[2] = {0, 0}, ends[2] = {0, 0}, ref[2];
  for (int n = 0; n < sol.nnodes; ++n) {
    lq_free_ref(&pb, 1, &sol.t[n], ref);
    for (int i = 0; i < 2; ++i) {
      const double e = fabs(sol.w[2 * n + i] - ref[i]);
      nodes[i] = fmax(nodes[i], e);
      if (n > 0 && n % 3 == 0) /* element ends: every third node */
        ends[i] = fmax(ends[i], e);
    }
  }
  printf("node 0: nodes %.3e, ends %.3e\n", d.err_nodes[1], d.err_ends[1]);
  for (int i = 0; i < 2; ++i) {
    EXPECT(d.err_nodes[i] == nodes[i],
           "nodes error of %s: %.17g, expected "
           "%.17g",
           lq_names[i], d.err_nodes[i], nodes[i]);
    EXPECT(d.err_ends[i] == ends[i], "ends error of %s: %.17g, expected %.17g",
           lq_names[i], d.err_ends[i], ends[i]);
  }
  const double ends_u = d.err_ends[1];
  rc_diagnostics_free(&d);
  lq_free_ref(&pb, 1, &sol.t[0], ref);
  sol.w[1] = ref[1] + 0.1;
  EXPECT(rc_diagnose(&pb, &sol, 8, &d, &err) == RC_OK, "diagnose: %s",
         err.message);
  EXPECT(fabs(d.err_nodes[1] - 0.1) < 1e-15 && d.err_ends[1] == ends_u,
         "u(t0) off by 0.1: nodes %.17g (expected 0.1), ends %.3e (expected "
         "%.3e)",
         d.err_nodes[1], d.err_ends[1], ends_u);
  rc_diagnostics_free(&d);
  rc_solution_free(&sol);
}

/* ---- y(t0) and the dense bounds (docs/dense-bounds.md section 1a) -------
 * w = (x, y, u): x' = u, 0 = y - x - u, y >= 1/2, x(0) = 0,
 * min 1/2 int (x^2 + u^2).  y rides its bound from t0 (u = 1/2 - x, x
 * concave), so Newton on g at t0 from the stage values gives y0 =
 * x0 + u(t0) below 1/2 by the extrapolation error of x.  The solve must keep
 * the element-0 dense output of y inside its bound (the node-0 value is
 * then the stage extrapolation), and the dense check must see no
 * violation. */
static const char *const ry_names[] = {"x", "y", "u"};
static const double ry_lo[] = {-HUGE_VAL, 0.5, -HUGE_VAL},
                    ry_hi[] = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
static const double ry_x0[] = {0.0};
static const int ry_jr[] = {0, 1, 1, 1, 2, 2}, ry_jc[] = {2, 0, 1, 2, 0, 2};
static const int ry_hr[] = {0, 2}, ry_hc[] = {0, 2};
static int ry_F(const rc_problem *pb, double t, const double *w, double *F) {
  (void)pb, (void)t;
  F[0] = w[2];
  F[1] = w[1] - w[0] - w[2];
  F[2] = 0.5 * (w[0] * w[0] + w[2] * w[2]);
  return 0;
}
static int ry_J(const rc_problem *pb, double t, const double *w, double *v) {
  (void)pb, (void)t;
  v[0] = 1, v[1] = -1, v[2] = 1, v[3] = -1, v[4] = w[0], v[5] = w[2];
  return 0;
}
static int ry_H(const rc_problem *pb, double t, const double *w,
                const double *mu, double *v) {
  (void)pb, (void)t, (void)w;
  v[0] = mu[2], v[1] = mu[2];
  return 0;
}

static void check_t0_bounded_y(void) {
  rc_problem pb;
  memset(&pb, 0, sizeof pb);
  pb.model = "ride", pb.formulation = "y";
  pb.nx = 1, pb.ny = 1, pb.nu = 1, pb.has_lagrange = 1, pb.autonomous = 1;
  pb.var_names = ry_names;
  pb.w_lo = ry_lo, pb.w_hi = ry_hi;
  pb.t0 = 0, pb.tf = 1, pb.x0 = ry_x0, pb.fix_x0 = lq_fix;
  pb.point =
      (rc_block){3, {6, ry_jr, ry_jc}, {2, ry_hr, ry_hc}, ry_F, ry_J, ry_H};
  pb.boundary =
      (rc_block){0, {0, NULL, NULL}, {0, NULL, NULL}, no_B, NULL, NULL};
  for (int s = 2; s <= 4; ++s) {
    rc_solution sol;
    rc_solve_stats st;
    if (!solve_lq(&pb, 8, s, 1, &sol, &st))
      continue;
    /* what Newton on g at t0 gives: y0 = x0 + u(t0) */
    const double newton = sol.w[0] + sol.w[2];
    double ymin = INFINITY, w[3];
    const double b = sol.t0 + (sol.tf - sol.t0) * sol.mesh.frac[1];
    for (int q = 0; q <= 400; ++q) {
      rc_solution_eval(&sol, sol.t0 + (b - sol.t0) * q / 400.0, w, NULL);
      ymin = fmin(ymin, w[1]);
    }
    rc_dense_violation dv;
    rc_error err;
    EXPECT(rc_dense_check(&pb, &sol, 16, &dv, &err) == RC_OK, "check: %s",
           err.message);
    /* the bounds; g at t0 then keeps the extrapolation error (printed) */
    double bound_rel = 0.0, alg_rel = 0.0;
    for (int i = 0; i < dv.n; ++i) {
      if (dv.kind[i] == RC_DENSE_BOUND)
        bound_rel = fmax(bound_rel, dv.relative[i]);
      else
        alg_rel = fmax(alg_rel, dv.relative[i]);
    }
    printf("bounded y, s = %d: Newton y(t0) - 1/2 = %.3e, file y(t0) - 1/2 = "
           "%.3e, min dense y on element 0 - 1/2 = %.3e, check: bounds "
           "%.3e, algebraic %.3e relative\n",
           s, newton - 0.5, sol.w[1] - 0.5, ymin - 0.5, bound_rel, alg_rel);
    EXPECT(newton < 0.5 - 1e-9,
           "s = %d: the case does not exercise the rule "
           "(Newton y(t0) %.17g is inside the bound)",
           s, newton);
    EXPECT(ymin >= 0.5 - 1e-7, "s = %d: dense y %.17g below its bound 0.5", s,
           ymin);
    EXPECT(bound_rel <= 1e-7, "s = %d: dense check of the bounds %.3e", s,
           bound_rel);
    rc_dense_violation_free(&dv);
    rc_solution_free(&sol);
  }
}

int main(void) {
  check_hand_built();
  check_bounds_on_off();
  check_state_bound();
  check_conservatism();
  check_refine();
  check_refine_tight();
  check_node0();
  check_t0_bounded_y();
  if (failures)
    printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
