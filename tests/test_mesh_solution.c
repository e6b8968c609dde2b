/*
 * test_mesh_solution.c - unit tests of src/mesh.c and src/solution.c.
 *
 *  - meshes: uniform and from arrays, copies, node counts; bad meshes are
 *    rejected with messages naming the bad value and the expected range, and
 *    leave the output mesh untouched;
 *  - node times: t[0] = t0, stage j of element k at tau_k + c_j h_k, last
 *    stage of every element bit-equal to the next breakpoint, t[last] = tf;
 *  - dense output: a hand-built solution whose states are a continuous
 *    piecewise polynomial of degree s_k in element k, whose algebraic
 *    variables and controls are too (through the element start and the
 *    stages), and whose multiplier densities are polynomials of degree
 *    s_k - 1 per element is reproduced at random times (to rounding) and
 *    exactly at the nodes; p comes from node 0; the stage polynomial
 *    (rc_solution_eval_stages) interpolates the stages;
 *  - element lookup at and around breakpoints (ties go left).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collocation/radau.h"
#include "radcol/mesh.h"
#include "radcol/result.h"

#include "test_util.h"

static unsigned long long rng_state = 88172645463325252ULL;
static double urand(void) { /* xorshift64, uniform in [0, 1) */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* Expect failure code RC_ERR_INPUT with exactly the message `msg` (or, if
 * prefix_only, a message starting with it). */
static void expect_msg(rc_err rc, const rc_error *err, const char *msg,
                       int prefix_only, int line) {
  int ok = rc == RC_ERR_INPUT && err->code == RC_ERR_INPUT &&
           (prefix_only ? strncmp(err->message, msg, strlen(msg)) == 0
                        : strcmp(err->message, msg) == 0);
  if (!ok) {
    ++failures;
    fprintf(stderr,
            "FAIL line %d: got code %d message \"%s\", expected \"%s\"\n", line,
            (int)rc, err->message, msg);
  }
}
#define EXPECT_MSG(rc, err, msg) expect_msg(rc, err, msg, 0, __LINE__)
#define EXPECT_PREFIX(rc, err, msg) expect_msg(rc, err, msg, 1, __LINE__)

static void test_mesh(void) {
  rc_mesh m;
  rc_error err;
  memset(&m, 0, sizeof m);
  EXPECT(rc_mesh_uniform(4, 3, &m, &err) == RC_OK, "uniform: %s", err.message);
  EXPECT(m.n == 4 && m.frac[0] == 0.0 && m.frac[4] == 1.0 &&
             m.frac[1] == 0.25 && m.frac[2] == 0.5 && m.frac[3] == 0.75,
         "uniform fractions");
  EXPECT(rc_mesh_nodes(&m) == 13 && rc_mesh_max_stages(&m) == 3,
         "uniform nodes %d max stages %d", rc_mesh_nodes(&m),
         rc_mesh_max_stages(&m));
  EXPECT(rc_mesh_validate(&m, &err) == RC_OK && err.code == RC_OK,
         "uniform mesh valid");
  rc_mesh c;
  EXPECT(rc_mesh_copy(&m, &c, &err) == RC_OK, "copy");
  EXPECT(c.n == 4 && c.frac != m.frac && c.stages != m.stages &&
             memcmp(c.frac, m.frac, 5 * sizeof(double)) == 0 &&
             memcmp(c.stages, m.stages, 4 * sizeof(int)) == 0,
         "copy is deep and equal");
  rc_mesh_free(&c);
  EXPECT(c.n == 0 && c.frac == NULL && c.stages == NULL, "free zeroes");
  rc_mesh_free(&c); /* safe on a zeroed mesh */
  rc_mesh_free(NULL);
  EXPECT(rc_mesh_uniform(10000000, 1, &c, &err) == RC_OK, "10^7 elements");
  EXPECT(c.frac[10000000] == 1.0, "last fraction of a large mesh");
  rc_mesh_free(&c);

  /* Bad meshes; m must stay untouched by every failing constructor. */
  rc_mesh keep = m;
  EXPECT_MSG(rc_mesh_uniform(0, 3, &m, &err), &err,
             "number of elements 0: expected an integer >= 1");
  EXPECT_MSG(rc_mesh_uniform(-5, 3, &m, &err), &err,
             "number of elements -5: expected an integer >= 1");
  EXPECT_MSG(rc_mesh_uniform(10000001, 3, &m, &err), &err,
             "number of elements 10000001: expected at most 10000000");
  EXPECT_MSG(rc_mesh_uniform(2, 0, &m, &err), &err,
             "stages 0 in element 0: expected 1..20");
  EXPECT_MSG(rc_mesh_uniform(2, 21, &m, &err), &err,
             "stages 21 in element 0: expected 1..20");

  double f[6] = {0.0, 0.1, 0.3, 0.6, 0.8, 1.0};
  int s[5] = {1, 2, 20, 40, 3};
  EXPECT_MSG(rc_mesh_from_arrays(5, f, s, &m, &err), &err,
             "stages 40 in element 3: expected 1..20");
  s[3] = 4;
  f[0] = 0.05;
  EXPECT_MSG(rc_mesh_from_arrays(5, f, s, &m, &err), &err,
             "first breakpoint fraction 0.050000000000000003: expected 0");
  f[0] = 0.0;
  f[5] = 0.99;
  EXPECT_MSG(rc_mesh_from_arrays(5, f, s, &m, &err), &err,
             "last breakpoint fraction (index 5) 0.98999999999999999: "
             "expected 1");
  f[5] = 1.0;
  f[3] = 0.3;
  EXPECT_MSG(rc_mesh_from_arrays(5, f, s, &m, &err), &err,
             "breakpoint fractions 2 and 3 are 0.29999999999999999 and "
             "0.29999999999999999: expected strictly increasing values");
  f[3] = 1.5;
  EXPECT_PREFIX(rc_mesh_from_arrays(5, f, s, &m, &err), &err,
                "breakpoint fractions 3 and 4 are 1.5 and 0.8");
  f[3] = NAN;
  EXPECT_MSG(rc_mesh_from_arrays(5, f, s, &m, &err), &err,
             "breakpoint fraction 3 is nan: expected a finite number in "
             "[0, 1]");
  f[3] = 0.6;
  EXPECT_PREFIX(rc_mesh_from_arrays(5, NULL, s, &m, &err), &err,
                "mesh with 5 elements has no breakpoint array");
  EXPECT(m.n == keep.n && m.frac == keep.frac && m.stages == keep.stages,
         "failing constructors left the mesh untouched");

  /* A good non-uniform mesh; validate catches later corruption. */
  EXPECT(rc_mesh_from_arrays(5, f, s, &c, &err) == RC_OK, "from arrays: %s",
         err.message);
  EXPECT(rc_mesh_nodes(&c) == 1 + 1 + 2 + 20 + 4 + 3 &&
             rc_mesh_max_stages(&c) == 20,
         "non-uniform nodes");
  EXPECT(rc_mesh_validate(&c, &err) == RC_OK, "valid");
  c.stages[4] = 0;
  EXPECT_MSG(rc_mesh_validate(&c, &err), &err,
             "stages 0 in element 4: expected 1..20");
  c.n = 0;
  EXPECT_MSG(rc_mesh_validate(&c, &err), &err,
             "number of elements 0: expected an integer >= 1");
  c.n = 5;
  rc_mesh_free(&c);
  rc_mesh_free(&m);
}

/* Value of a polynomial with coefficients a[0..deg] in the local variable
 * xi = (t - t0) / h. */
static double poly(const double *a, int deg, double xi) {
  double v = 0.0;
  for (int i = deg; i >= 0; --i)
    v = v * xi + a[i];
  return v;
}

#define NE 6
#define MAXS 8

typedef struct piecewise {
  /* Per element and component: states q(t) = v_k + xi * r(xi) (degree s),
   * the rest r(xi) of degree s-1; xi local to the element. */
  double xv[NE][2];
  double xr[NE][2][MAXS];
  double yv[NE][2];       /* y, u at the element start */
  double yu[NE][2][MAXS]; /* y, u: yv + xi * (degree s-1) */
  double du[NE][5][MAXS]; /* lam_f (2), lam_g (1), lam_c (2): degree s-1 */
} piecewise;

static void test_solution(void) {
  rc_problem pb;
  memset(&pb, 0, sizeof pb);
  pb.nx = 2;
  pb.ny = 1;
  pb.nu = 1;
  pb.np = 1;
  pb.nc = 2;
  pb.nb = 3;
  const int nw = 5;
  double frac[NE + 1] = {0.0, 0.07, 0.3, 0.31, 0.62, 0.9, 1.0};
  int st[NE] = {1, 2, 3, 5, 8, 4};
  rc_mesh m;
  rc_error err;
  EXPECT(rc_mesh_from_arrays(NE, frac, st, &m, &err) == RC_OK, "mesh");
  const double t0 = 0.1, tf = 2.35; /* tf - t0 is not exact in binary */

  rc_solution sol;
  EXPECT_MSG(rc_solution_alloc(&pb, &m, 1.0, 1.0, 0, &sol, &err), &err,
             "horizon [t0, tf] = [1, 1]: expected finite values with tf > t0");
  pb.nc = -1;
  EXPECT_MSG(rc_solution_alloc(&pb, &m, t0, tf, 0, &sol, &err), &err,
             "problem dimension nc = -1: expected >= 0");
  pb.nc = 2;
  EXPECT(rc_solution_alloc(&pb, &m, t0, tf, 1, &sol, &err) == RC_OK,
         "alloc: %s", err.message);
  rc_mesh_free(&m); /* the solution holds its own copy */
  EXPECT(sol.nnodes == 1 + 1 + 2 + 3 + 5 + 8 + 4 && sol.has_duals &&
             sol.nx == 2 && sol.ny == 1 && sol.nu == 1 && sol.np == 1 &&
             sol.nc == 2 && sol.nb == 3,
         "dims and node count");
  int zero = 1;
  for (int i = 0; i < sol.nnodes * nw; ++i)
    zero &= sol.w[i] == 0.0 && sol.z_lo[i] == 0.0 && sol.z_hi[i] == 0.0;
  for (int i = 0; i < sol.nnodes * 2; ++i)
    zero &= sol.lam_f[i] == 0.0 && sol.lam_c[i] == 0.0;
  for (int i = 0; i < 3; ++i)
    zero &= sol.lam_b[i] == 0.0;
  EXPECT(zero, "arrays are zeroed");

  /* Node times. */
  EXPECT(sol.t[0] == t0 && sol.t[sol.nnodes - 1] == tf, "end times %.17g %.17g",
         sol.t[0], sol.t[sol.nnodes - 1]);
  int off[NE + 1];
  off[0] = 0;
  for (int k = 0; k < NE; ++k) {
    off[k + 1] = off[k] + st[k];
    rc_radau r;
    rc_radau_init(st[k], &r);
    double tau = t0 + (tf - t0) * frac[k], next = t0 + (tf - t0) * frac[k + 1];
    if (k == 0)
      tau = t0;
    if (k == NE - 1)
      next = tf;
    EXPECT(sol.t[off[k]] == tau, "first node of element %d", k);
    EXPECT(sol.t[off[k + 1]] == next,
           "last stage of element %d is bit-equal "
           "to the next breakpoint: %.17g vs %.17g",
           k, sol.t[off[k + 1]], next);
    for (int j = 1; j <= st[k]; ++j)
      EXPECT(fabs(sol.t[off[k] + j] - (tau + r.c[j - 1] * (next - tau))) <
                 1e-15,
             "stage %d of element %d at %.17g", j, k, sol.t[off[k] + j]);
  }

  /* Element lookup. */
  EXPECT(rc_solution_element(&sol, t0) == 0 &&
             rc_solution_element(&sol, t0 - 1.0) == 0 &&
             rc_solution_element(&sol, tf) == NE - 1 &&
             rc_solution_element(&sol, tf + 1.0) == NE - 1,
         "lookup at the ends");
  for (int k = 1; k < NE; ++k) {
    double tau = sol.t[off[k]];
    EXPECT(rc_solution_element(&sol, tau) == k - 1,
           "tie at breakpoint %d "
           "goes left: got %d",
           k, rc_solution_element(&sol, tau));
    EXPECT(rc_solution_element(&sol, nextafter(tau, tf)) == k,
           "just after breakpoint %d: got %d", k,
           rc_solution_element(&sol, nextafter(tau, tf)));
    EXPECT(rc_solution_element(&sol, nextafter(tau, t0)) == k - 1,
           "just before breakpoint %d", k);
  }

  /* Build the piecewise polynomials and fill the node values. */
  piecewise P;
  for (int k = 0; k < NE; ++k)
    for (int c = 0; c < 2; ++c) {
      P.xv[k][c] = k ? 0.0 : 2.0 * urand() - 1.0;
      for (int i = 0; i < MAXS; ++i)
        P.xr[k][c][i] = 2.0 * urand() - 1.0;
      for (int i = 0; i < MAXS; ++i)
        P.yu[k][c][i] = 2.0 * urand() - 1.0;
      P.yv[k][c] = k ? 0.0 : 2.0 * urand() - 1.0;
    }
  for (int k = 0; k < NE; ++k)
    for (int c = 0; c < 5; ++c)
      for (int i = 0; i < MAXS; ++i)
        P.du[k][c][i] = 2.0 * urand() - 1.0;
  for (int k = 0; k + 1 < NE; ++k) /* continuity: v_{k+1} = q_k(xi = 1) */
    for (int c = 0; c < 2; ++c)
      P.xv[k + 1][c] = P.xv[k][c] + poly(P.xr[k][c], st[k] - 1, 1.0),
               P.yv[k + 1][c] = P.yv[k][c] + poly(P.yu[k][c], st[k] - 1, 1.0);

  const double pval = 7.25;
  for (int i = 0; i < sol.nnodes * nw; ++i)
    sol.w[i] = 1e6; /* junk where nothing must be read */
  for (int i = 0; i < sol.nnodes * 2; ++i)
    sol.lam_f[i] = sol.lam_c[i] = 1e6;
  for (int i = 0; i < sol.nnodes; ++i)
    sol.lam_g[i] = 1e6;
  sol.w[4] = pval;
  for (int c = 0; c < 2; ++c) {
    sol.w[c] = P.xv[0][c];
    sol.w[2 + c] = P.yv[0][c];
  }
  for (int k = 0; k < NE; ++k) {
    double tau = sol.t[off[k]], h = sol.t[off[k + 1]] - tau;
    for (int j = 1; j <= st[k]; ++j) {
      int node = off[k] + j;
      double xi = (sol.t[node] - tau) / h;
      for (int c = 0; c < 2; ++c) {
        sol.w[node * nw + c] =
            j == st[k] ? P.xv[k][c] + poly(P.xr[k][c], st[k] - 1, 1.0)
                       : P.xv[k][c] + xi * poly(P.xr[k][c], st[k] - 1, xi);
        sol.w[node * nw + 2 + c] =
            j == st[k] ? P.yv[k][c] + poly(P.yu[k][c], st[k] - 1, 1.0)
                       : P.yv[k][c] + xi * poly(P.yu[k][c], st[k] - 1, xi);
        sol.lam_f[node * 2 + c] = poly(P.du[k][c], st[k] - 1, xi);
        sol.lam_c[node * 2 + c] = poly(P.du[k][3 + c], st[k] - 1, xi);
      }
      sol.lam_g[node] = poly(P.du[k][2], st[k] - 1, xi);
    }
  }

  /* Random times, plus every node time. */
  double worst = 0.0;
  int ntest = 400;
  for (int trial = 0; trial < ntest + sol.nnodes; ++trial) {
    double t = trial < ntest ? t0 + (tf - t0) * urand() : sol.t[trial - ntest];
    int at_node = trial >= ntest;
    int k = rc_solution_element(&sol, t);
    double tau = sol.t[off[k]], h = sol.t[off[k + 1]] - tau;
    double xi = (t - tau) / h;
    double w[5], d[5], ew[5], ed[5];
    EXPECT(rc_solution_eval(&sol, t, w, &err) == RC_OK, "eval: %s",
           err.message);
    EXPECT(rc_solution_eval_duals(&sol, t, d, &err) == RC_OK, "duals: %s",
           err.message);
    for (int c = 0; c < 2; ++c) {
      ew[c] = P.xv[k][c] + xi * poly(P.xr[k][c], st[k] - 1, xi);
      ew[2 + c] = P.yv[k][c] + xi * poly(P.yu[k][c], st[k] - 1, xi);
      ed[c] = poly(P.du[k][c], st[k] - 1, xi);
      ed[3 + c] = poly(P.du[k][3 + c], st[k] - 1, xi);
    }
    ew[4] = pval;
    ed[2] = poly(P.du[k][2], st[k] - 1, xi);
    for (int i = 0; i < 5; ++i) {
      double e1 = fabs(w[i] - ew[i]), e2 = fabs(d[i] - ed[i]);
      worst = fmax(worst, fmax(e1, e2));
      EXPECT(e1 < 1e-11 && e2 < 1e-11,
             "element %d (s = %d) t = %.17g component %d: w %.17g vs %.17g, "
             "dual %.17g vs %.17g",
             k, st[k], t, i, w[i], ew[i], d[i], ed[i]);
    }
    if (at_node) { /* exact at the nodes, no rounding at all */
      int node = trial - ntest;
      EXPECT(w[0] == sol.w[node * nw] && w[1] == sol.w[node * nw + 1],
             "state at node %d not exact", node);
      EXPECT(w[2] == sol.w[node * nw + 2] && w[3] == sol.w[node * nw + 3],
             "y, u at node %d not exact", node);
      if (node > 0 && node != off[k])
        EXPECT(d[2] == sol.lam_g[node], "dual at node %d not exact", node);
      /* The stage polynomial (node 0's extrapolation) interpolates the
       * stages of the element too. */
      double ws[5];
      EXPECT(rc_solution_eval_stages(&sol, sol.t[node], ws, &err) == RC_OK,
             "eval_stages: %s", err.message);
      if (node > 0)
        EXPECT(fabs(ws[2] - sol.w[node * nw + 2]) < 1e-11 &&
                   fabs(ws[3] - sol.w[node * nw + 3]) < 1e-11 && ws[0] == w[0],
               "stage polynomial at node %d", node);
    }
  }
  printf("dense output: worst abs error %.2e over %d random times and %d "
         "nodes (degrees 1..8)\n",
         worst, ntest, sol.nnodes);

  /* Times outside the horizon and missing arguments. */
  double w[5];
  EXPECT_PREFIX(rc_solution_eval(&sol, tf + 0.5, w, &err), &err,
                "dense output at time 2.8500000000000001: expected a time in "
                "[t0, tf]");
  EXPECT_PREFIX(rc_solution_eval(&sol, NAN, w, &err), &err,
                "dense output at time nan");
  EXPECT_MSG(rc_solution_eval(&sol, t0, NULL, &err), &err,
             "dense output: w is NULL");

  rc_solution nod;
  EXPECT(rc_solution_alloc(&pb, &sol.mesh, t0, tf, 0, &nod, &err) == RC_OK,
         "alloc without duals");
  EXPECT(!nod.has_duals && !nod.lam_f && !nod.z_lo, "no dual arrays");
  EXPECT_PREFIX(rc_solution_eval_duals(&nod, t0, w, &err), &err,
                "dual dense output: the solution holds no multipliers");
  rc_solution_free(&nod);

  rc_solution_free(&sol);
  EXPECT(sol.t == NULL && sol.w == NULL && sol.mesh.frac == NULL &&
             sol.nnodes == 0,
         "free zeroes");
  rc_solution_free(&sol);
  rc_solution_free(NULL);
}

int main(void) {
  test_mesh();
  test_solution();
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("all mesh and solution checks passed\n");
  return 0;
}
