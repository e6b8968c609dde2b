/*
 * test_refine.c - adaptive hp mesh refinement (src/refine.c).
 *
 * 1. Options: defaults validate, bad values are named in the message.
 * 2. Estimator: zero (to rounding) on an exact polynomial trajectory, and
 *    falls at about order s + 1 with h on the boundary-layer problem below.
 * 3. Mesh update: raise, split, merge by the formulas of refine.h.
 * 4. Boundary layer x' = -lambda (x - cos t), x(0) = 0, lambda = 50, whose
 *    exact solution x = (lambda^2 cos t + lambda sin t)/(1 + lambda^2)
 *    - lambda^2/(1 + lambda^2) e^(-lambda t) is the independent reference:
 *    --refine 1e-8 reaches a dense reference error within 20 tol with fewer
 *    NLP variables than the smallest uniform s = 3 mesh reaching it.
 * 5. Pendulum accel (rc_find_model): the same comparison against its angle-ODE
 *    reference; warm start: the last refinement step needs no more Ipopt
 *    iterations than a cold solve on the same mesh.
 * 6. Runaway protection: tolerance 1e-15 stops at a cap with a message that
 *    says which cap, and the returned solution is the last one solved.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/catalogue.h"
#include "radcol/problem.h"
#include "radcol/refine.h"
#include "radcol/solve.h"
#include "test_util.h"

/* ---- the boundary-layer problem ------------------------------------------ */

#define LAMBDA 50.0

static int bl_eval(const rc_problem *pb, double t, const double *w,
                   double *out) {
  (void)pb;
  out[0] = -LAMBDA * (w[0] - cos(t));
  return 0;
}
static int bl_jac(const rc_problem *pb, double t, const double *w,
                  double *vals) {
  (void)pb;
  (void)t;
  (void)w;
  vals[0] = -LAMBDA;
  return 0;
}
static int bl_hes(const rc_problem *pb, double t, const double *w,
                  const double *mu, double *vals) {
  (void)pb;
  (void)t;
  (void)w;
  (void)mu;
  (void)vals;
  return 0;
}
static int bl_ref(const rc_problem *pb, int nt, const double *t, double *ref) {
  (void)pb;
  const double l2 = LAMBDA * LAMBDA;
  for (int i = 0; i < nt; ++i)
    ref[i] = (l2 * cos(t[i]) + LAMBDA * sin(t[i])) / (1.0 + l2) -
             l2 / (1.0 + l2) * exp(-LAMBDA * t[i]);
  return 0;
}

static const int zero_i[1] = {0};
static const char *const bl_names[1] = {"x"};
static const double bl_lo[1] = {-HUGE_VAL}, bl_hi[1] = {HUGE_VAL};
static const int bl_fix[1] = {1};
static const double bl_x0[1] = {0.0};

static rc_problem boundary_layer(void) {
  rc_problem pb;
  memset(&pb, 0, sizeof pb);
  pb.model = "boundary-layer";
  pb.formulation = "ode";
  pb.nx = 1;
  pb.autonomous = 0;
  pb.var_names = bl_names;
  pb.w_lo = bl_lo;
  pb.w_hi = bl_hi;
  pb.t0 = 0.0;
  pb.tf = 2.0;
  pb.fix_x0 = bl_fix;
  pb.x0 = bl_x0;
  pb.point = (rc_block){
      1, {1, zero_i, zero_i}, {0, NULL, NULL}, bl_eval, bl_jac, bl_hes};
  pb.reference = bl_ref;
  return pb;
}

/* ---- helpers --------------------------------------------------------------
 */

static rc_problem *make_pendulum(const char *form) {
  const rc_model *m = rc_find_model("pendulum");
  if (!m)
    return NULL;
  double real[64];
  int is_set[64] = {0};
  for (int i = 0; i < m->nparams && i < 64; ++i)
    real[i] = m->params[i].default_real;
  rc_param_values pv = {m->nparams, real, NULL, is_set, NULL, NULL};
  rc_problem *pb = NULL;
  rc_error err = {RC_OK, ""};
  if (m->create(m, rc_model_find_formulation(m, form), &pv, &pb, &err) != RC_OK)
    fprintf(stderr, "pendulum/%s: %s\n", form, err.message);
  return pb;
}

/* MUMPS's MC64 permuting scaling fails (INFO -9, "Restoration_Failed")
 * on the zero-Hessian KKT matrix of the linear boundary-layer problem from
 * about 800 elements on (Ipopt 3.11.9); without it every mesh solves in one
 * iteration.  Used for every solve here, refined and uniform alike. */
static const char *const ipopt_kv[1] = {"mumps_permuting_scaling=0"};

static rc_options quiet_options(void) {
  rc_options o;
  rc_options_default(&o);
  o.print_level = 0;
  o.nipopt = 1;
  o.ipopt_kv = ipopt_kv;
  return o;
}

/* Max dense reference error over variables; -1 on failure. */
static double dense_error(const rc_problem *pb, const rc_solution *sol) {
  rc_diagnostics d;
  if (rc_diagnose(pb, sol, 8, &d, NULL) != RC_OK)
    return -1.0;
  double e = 0.0;
  for (int i = 0; i < d.nvar; ++i)
    if (!isnan(d.err_dense[i]))
      e = fmax(e, d.err_dense[i]);
  rc_diagnostics_free(&d);
  return e;
}

/* Uniform s-stage solve on n elements: dense error, variables, iterations. */
static int uniform(const rc_problem *pb, int n, int s, double *e, int *nvars,
                   int *iters) {
  rc_mesh m;
  rc_options o = quiet_options();
  o.max_iter = 200;
  rc_solution sol;
  rc_solve_stats st;
  if (rc_mesh_uniform(n, s, &m, NULL) != RC_OK)
    return -1;
  int rc = rc_solve(pb, &m, &o, NULL, &sol, &st, NULL) == RC_OK ? 0 : -1;
  rc_mesh_free(&m);
  if (rc)
    return rc;
  *e = dense_error(pb, &sol);
  *nvars = st.nvars;
  if (iters)
    *iters = st.iterations;
  rc_solution_free(&sol);
  return st.status == RC_STATUS_CONVERGED ? 0 : -1;
}

/* Smallest n (by bisection between powers of two) whose uniform s-stage mesh
 * reaches dense error <= target; returns its variable count, or -1. */
static int smallest_uniform(const rc_problem *pb, int s, double target,
                            int nmax, int *n_out) {
  int lo = 1, hi = 0, nv = -1;
  double e;
  for (int n = 16; n <= nmax; n *= 2) {
    if (uniform(pb, n, s, &e, &nv, NULL) != 0)
      return -1;
    if (e <= target) {
      hi = n;
      break;
    }
    lo = n;
  }
  if (!hi)
    return -1;
  while (hi - lo > 1 && hi - lo > hi / 16) {
    const int mid = (lo + hi) / 2;
    if (uniform(pb, mid, s, &e, &nv, NULL) != 0)
      return -1;
    if (e <= target)
      hi = mid;
    else
      lo = mid;
  }
  uniform(pb, hi, s, &e, &nv, NULL);
  *n_out = hi;
  return nv;
}

typedef struct progress_log {
  int calls;
  char last[RC_MESSAGE_MAX];
} progress_log;

static void log_progress(void *ctx, const rc_refine_row *row,
                         const char *note) {
  progress_log *p = ctx;
  ++p->calls;
  snprintf(p->last, sizeof p->last, "%s", note);
  if (getenv("RC_TEST_VERBOSE"))
    fprintf(stderr,
            "  refine %d: %d elements s %d..%d, %d vars, est %.3g, ref %.3g, "
            "%d iters, %.3f s: %s\n",
            row->iteration, row->elements, row->stages_min, row->stages_max,
            row->nvars, row->est_error, row->ref_error, row->ipopt_iterations,
            row->wall_s, note);
}

/* ---- 1. options ------------------------------------------------------------
 */

static void test_options(void) {
  rc_refine_options ro;
  rc_error err;
  rc_refine_options_default(&ro);
  EXPECT(rc_refine_options_validate(&ro, &err) == RC_OK, "defaults: %s",
         err.message);
  ro.tol = -1.0;
  EXPECT(rc_refine_options_validate(&ro, &err) == RC_ERR_INPUT &&
             strstr(err.message, "-1"),
         "negative tol not named: %s", err.message);
  rc_refine_options_default(&ro);
  ro.max_stages = 40;
  EXPECT(rc_refine_options_validate(&ro, &err) == RC_ERR_INPUT &&
             strstr(err.message, "40"),
         "max stages 40 not named: %s", err.message);
  rc_refine_options_default(&ro);
  ro.min_stages = 9;
  EXPECT(rc_refine_options_validate(&ro, &err) == RC_ERR_INPUT &&
             strstr(err.message, "9"),
         "min stages 9 > max 8 not named: %s", err.message);
}

/* ---- 2. estimator ----------------------------------------------------------
 */

static void test_estimator(void) {
  rc_problem pb = boundary_layer();
  rc_options o = quiet_options();
  double prev = NAN;
  for (int n = 200; n <= 800; n *= 2) {
    rc_mesh m;
    rc_solution sol;
    rc_solve_stats st;
    rc_mesh_uniform(n, 3, &m, NULL);
    EXPECT(rc_solve(&pb, &m, &o, NULL, &sol, &st, NULL) == RC_OK,
           "solve n = %d", n);
    double *est = malloc(sizeof *est * (size_t)n);
    EXPECT(rc_refine_estimate(&pb, &sol, RC_REFINE_PHR, est, NULL) == RC_OK,
           "estimate n = %d", n);
    /* the boundary layer at t = 0 dominates: element 0 has the largest */
    double emax = 0.0;
    int kmax = -1;
    for (int k = 0; k < n; ++k)
      if (est[k] > emax) {
        emax = est[k];
        kmax = k;
      }
    EXPECT(kmax == 0, "n = %d: largest estimate in element %d, expected 0", n,
           kmax);
    EXPECT(est[n - 1] < 1e-3 * emax,
           "n = %d: last element %.3g not far below first %.3g", n, est[n - 1],
           emax);
    if (!isnan(prev)) {
      const double order = log(prev / emax) / log(2.0);
      EXPECT(order > 3.0 && order < 5.5,
             "n = %d: estimate order %.2f, expected about s + 1 = 4", n, order);
    }
    prev = emax;
    free(est);
    rc_solution_free(&sol);
    rc_mesh_free(&m);
  }
}

/* ---- 3. mesh update --------------------------------------------------------
 */

static void test_mesh_update(void) {
  rc_refine_options ro;
  rc_refine_options_default(&ro);
  ro.tol = 1e-8;
  rc_mesh m, out;
  rc_mesh_uniform(6, 3, &m, NULL);
  /* e/tol = 10 -> P = ceil(log 10 / log 3) = 3 -> s = 6 (raise);
   * e/tol = 1e6 -> P = 13 -> s + P = 16 > 8 -> split ceil(16/3) = 6;
   * two tiny neighbours merge; one ordinary element stays. */
  const double est[6] = {1e-7, 1e-2, 1e-20, 1e-20, 5e-9, NAN};
  int nr, ns, nm;
  EXPECT(rc_refine_mesh(&m, est, &ro, &out, &nr, &ns, &nm, NULL) == RC_OK,
         "refine mesh");
  EXPECT(nr == 1 && ns == 2 && nm == 1, "raised %d split %d merged %d", nr, ns,
         nm);
  /* elements: [s6] [6 x s3] [merged s3] [s3] [2 x s3] = 11 */
  EXPECT(out.n == 11, "new mesh has %d elements, expected 11", out.n);
  if (out.n == 11) {
    EXPECT(out.stages[0] == 6, "raised element has %d stages, expected 6",
           out.stages[0]);
    EXPECT(fabs(out.frac[7] - 2.0 / 6.0) < 1e-15 &&
               fabs(out.frac[8] - 4.0 / 6.0) < 1e-15,
           "merged element spans [%g, %g], expected [1/3, 2/3]", out.frac[7],
           out.frac[8]);
    EXPECT(fabs(out.frac[2] - (1.0 / 6.0 + 1.0 / 36.0)) < 1e-15,
           "split children not equal: %g", out.frac[2]);
  }
  rc_mesh_free(&out);
  rc_mesh_free(&m);
}

/* ---- 4./5. refine vs uniform ---------------------------------------------
 */

static void refine_vs_uniform(const rc_problem *pb, int n0, int nmax,
                              const char *what) {
  rc_options o = quiet_options();
  rc_refine_options ro;
  rc_refine_options_default(&ro);
  ro.tol = 1e-8;
  progress_log log = {0, ""};
  ro.progress = log_progress;
  ro.progress_ctx = &log;
  rc_mesh m;
  rc_mesh_uniform(n0, 3, &m, NULL);
  rc_solution sol;
  rc_solve_stats st;
  rc_refine_row *rows = NULL;
  int nrows = 0;
  rc_error err = {RC_OK, ""};
  rc_err rc =
      rc_solve_refined(pb, &m, NULL, &o, &ro, &sol, &st, &rows, &nrows, &err);
  EXPECT(rc == RC_OK, "%s: rc_solve_refined: %s", what, err.message);
  if (rc != RC_OK) {
    rc_mesh_free(&m);
    return;
  }
  const rc_refine_row *last = &rows[nrows - 1];
  EXPECT(st.status == RC_STATUS_CONVERGED, "%s: last solve %s", what,
         rc_status_name(st.status));
  EXPECT(last->est_error <= ro.tol, "%s: estimate %.3g above tol: %s", what,
         last->est_error, st.message);
  EXPECT(strstr(st.message, "tolerance") != NULL, "%s: message '%s'", what,
         st.message);
  EXPECT(log.calls == nrows, "%s: %d progress calls for %d rows", what,
         log.calls, nrows);
  const double e = dense_error(pb, &sol);
  EXPECT(e > 0.0 && e < 20.0 * ro.tol,
         "%s: dense reference error %.3g, expected near tol %.3g", what, e,
         ro.tol);
  EXPECT(fabs(e - last->ref_error) <= 1e-12 + 1e-6 * e,
         "%s: row ref_error %.3g != diagnosed %.3g", what, last->ref_error, e);
  int nu = 0;
  const int nv_uni = smallest_uniform(pb, 3, e, nmax, &nu);
  EXPECT(nv_uni > 0, "%s: no uniform mesh up to %d elements reaches %.3g", what,
         nmax, e);
  EXPECT(last->nvars < nv_uni,
         "%s: refined mesh has %d variables, uniform s = 3 (n = %d) %d", what,
         last->nvars, nu, nv_uni);
  fprintf(stderr,
          "%s: refined %d elements (s %d..%d) %d vars, dense error %.3g; "
          "uniform s=3 n=%d %d vars (ratio %.3f)\n",
          what, last->elements, last->stages_min, last->stages_max, last->nvars,
          e, nu, nv_uni, (double)last->nvars / nv_uni);

  /* Warm start: the last step against a cold solve on the same mesh. */
  if (nrows >= 2) {
    rc_solution cold;
    rc_solve_stats cst;
    EXPECT(rc_solve(pb, &sol.mesh, &o, NULL, &cold, &cst, NULL) == RC_OK,
           "%s: cold solve", what);
    /* Newton (a square system) predicts every element after the first from
     * the previous one: the warm start only changes element 0's predictor,
     * which may cost a couple of iterations either way */
    const int newton = strncmp(cst.solver, "newton", 6) == 0;
    EXPECT(last->ipopt_iterations <=
               cst.iterations + (newton ? 2 + cst.iterations / 50 : 0),
           "%s: warm start took %d %s iterations, cold %d", what,
           last->ipopt_iterations, newton ? "Newton" : "Ipopt", cst.iterations);
    fprintf(stderr, "%s: last step warm %d iterations, cold %d\n", what,
            last->ipopt_iterations, cst.iterations);
    rc_solution_free(&cold);
  }
  free(rows);
  rc_solution_free(&sol);
  rc_mesh_free(&m);
}

/* ---- 6. runaway ------------------------------------------------------------
 */

static void test_runaway(void) {
  rc_problem pb = boundary_layer();
  rc_options o = quiet_options();
  rc_refine_options ro;
  rc_refine_options_default(&ro);
  ro.tol = 1e-15;
  ro.max_refinements = 4;
  ro.max_elements = 400;
  rc_mesh m;
  rc_mesh_uniform(8, 3, &m, NULL);
  rc_solution sol;
  rc_solve_stats st;
  rc_refine_row *rows = NULL;
  int nrows = 0;
  rc_error err = {RC_OK, ""};
  rc_err rc =
      rc_solve_refined(&pb, &m, NULL, &o, &ro, &sol, &st, &rows, &nrows, &err);
  EXPECT(rc == RC_OK, "runaway: %s", err.message);
  if (rc == RC_OK) {
    EXPECT(strstr(st.message, "cap") != NULL,
           "runaway: message '%s' names no cap", st.message);
    EXPECT(nrows >= 1 && nrows <= ro.max_refinements + 1, "runaway: %d rows",
           nrows);
    EXPECT(rows[nrows - 1].est_error > ro.tol, "runaway: estimate %.3g",
           rows[nrows - 1].est_error);
    EXPECT(sol.mesh.n == rows[nrows - 1].elements && sol.mesh.n <= 400,
           "runaway: solution mesh %d elements, last row %d", sol.mesh.n,
           rows[nrows - 1].elements);
    fprintf(stderr, "runaway: %d rows, %s\n", nrows, st.message);
    free(rows);
    rc_solution_free(&sol);
  }
  /* the solver's tolerance as the floor (issue 29 item 7): Newton/Ipopt
   * at tol 1e-6 cannot give an estimate of 1e-12; the loop stops when the
   * estimate no longer falls near that tolerance, and says so */
  {
    rc_options lo = quiet_options();
    lo.tol = 1e-6;
    rc_refine_options fr;
    rc_refine_options_default(&fr);
    fr.tol = 1e-12;
    rc = rc_solve_refined(&pb, &m, NULL, &lo, &fr, &sol, &st, &rows, &nrows,
                          &err);
    EXPECT(rc == RC_OK, "solver floor: %s", err.message);
    if (rc == RC_OK) {
      EXPECT(strstr(st.message, "NLP solver's tolerance tol = 1e-06") != NULL,
             "solver floor: message '%s' does not name the solver tolerance",
             st.message);
      EXPECT(nrows < fr.max_refinements + 1,
             "solver floor: %d rows, the loop ran to its cap", nrows);
      fprintf(stderr, "solver floor: %d rows, %s\n", nrows, st.message);
      free(rows);
      rc_solution_free(&sol);
    }
  }
  /* the memory cap: an initial mesh above it is refused, naming the cap */
  ro.max_memory_bytes = 1000.0;
  rc = rc_solve_refined(&pb, &m, NULL, &o, &ro, &sol, &st, &rows, &nrows, &err);
  EXPECT(rc == RC_ERR_INPUT && strstr(err.message, "memory cap"),
         "memory cap not applied: %s", err.message);
  rc_mesh_free(&m);
}

int main(void) {
  test_options();
  test_estimator();
  test_mesh_update();
  rc_problem bl = boundary_layer();
  refine_vs_uniform(&bl, 8, 32768, "boundary layer");
  rc_problem *pend = make_pendulum("accel");
  EXPECT(pend != NULL, "pendulum/accel not available");
  if (pend)
    refine_vs_uniform(pend, 10, 4096, "pendulum accel");
  rc_problem_free(&pend);
  test_runaway();
  if (failures)
    fprintf(stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
