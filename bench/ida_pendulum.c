/*
 * ida_pendulum.c - benchmark driver: radcol versus SUNDIALS IDA on the
 * index-1 pendulum (pendulum/accel), timed in the same process.
 *
 * The DAE (SPEC 4.1, y downward, g = 9.81, L = 1, tf = 5 by default):
 *     x' = u,  y' = v,  u' = -T x,  v' = g - T y,
 *     0  = h3 = u^2 + v^2 - T (x^2 + y^2) + g y        (index 1 in T)
 * IDA solves it in residual form F(t, z, z') = 0, z = (x, y, u, v, T):
 *     F0 = x' - u, F1 = y' - v, F2 = u' + T x, F3 = v' - g + T y, F4 = h3,
 * with the analytic iteration matrix dF/dz + cj dF/dz' (dense, 5 x 5),
 * (x, y, u, v)(t0) = the problem's x0, T(t0) from h3 = 0, and z'(t0) from
 * the equations (T' is not used by F, so 0 is consistent).  radcol solves the
 * same problem object (built from the registry with its default parameters) by
 * rc_solve on a uniform mesh of n elements with s stages.
 *
 * Error, for both: max over the five variables and over the method's own
 * points (IDA: every internal step, IDA_ONE_STEP; radcol: every collocation
 * node, interior stages included) of |z - z_ref|, where z_ref is the
 * problem's reference (the angle ODE integrated by GSL rk8pd at 1e-13,
 * independent of both methods).  Time: wall clock of the solve only
 * (IDA: create, init, integrate, free; radcol: rc_solve, i.e. Newton element
 * by element, or transcription, Ipopt and MUMPS), the minimum over --repeat
 * runs (the machine may be loaded; the minimum is the least disturbed run).
 * Reference evaluation and error computation are outside the timed region.
 *
 * Usage: radcol_bench_ida [--repeat R] SPEC...
 *   SPEC = ida:RTOL:ATOL | radcol:S:N[:auto|ipopt|newton]  (default auto:
 *   the Newton path, pendulum/accel being a square system)
 * prints one JSON object per SPEC on stdout.
 */
#include <ida/ida.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <time.h>

#include "radcol/catalogue.h"
#include "radcol/mesh.h"
#include "radcol/options.h"
#include "radcol/params.h"
#include "radcol/problem.h"
#include "radcol/result.h"
#include "radcol/solve.h"

#define NZ 5

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct bench_ctx {
  double g;
} bench_ctx;

static int pend_res(sunrealtype t, N_Vector zz, N_Vector zp, N_Vector rr,
                    void *ud) {
  (void)t;
  const bench_ctx *c = ud;
  const double *z = N_VGetArrayPointer(zz), *d = N_VGetArrayPointer(zp);
  double *r = N_VGetArrayPointer(rr);
  const double x = z[0], y = z[1], u = z[2], v = z[3], T = z[4];
  r[0] = d[0] - u;
  r[1] = d[1] - v;
  r[2] = d[2] + T * x;
  r[3] = d[3] - c->g + T * y;
  r[4] = u * u + v * v - T * (x * x + y * y) + c->g * y;
  return 0;
}

static int pend_jac(sunrealtype t, sunrealtype cj, N_Vector zz, N_Vector zp,
                    N_Vector rr, SUNMatrix J, void *ud, N_Vector t1,
                    N_Vector t2, N_Vector t3) {
  (void)t, (void)zp, (void)rr, (void)t1, (void)t2, (void)t3;
  const bench_ctx *c = ud;
  const double *z = N_VGetArrayPointer(zz);
  const double x = z[0], y = z[1], u = z[2], v = z[3], T = z[4];
  SUNMatZero(J);
  for (int i = 0; i < 4; ++i)
    SM_ELEMENT_D(J, i, i) = cj;
  SM_ELEMENT_D(J, 0, 2) = -1.0;
  SM_ELEMENT_D(J, 1, 3) = -1.0;
  SM_ELEMENT_D(J, 2, 0) = T;
  SM_ELEMENT_D(J, 2, 4) = x;
  SM_ELEMENT_D(J, 3, 1) = T;
  SM_ELEMENT_D(J, 3, 4) = y;
  SM_ELEMENT_D(J, 4, 0) = -2.0 * T * x;
  SM_ELEMENT_D(J, 4, 1) = -2.0 * T * y + c->g;
  SM_ELEMENT_D(J, 4, 2) = 2.0 * u;
  SM_ELEMENT_D(J, 4, 3) = 2.0 * v;
  SM_ELEMENT_D(J, 4, 4) = -(x * x + y * y);
  return 0;
}

/* Maximum |z - ref| over nt points (rows of NZ in z, rows of mref in ref). */
static double max_err(int nt, const double *z, int mz, const double *ref,
                      int mref) {
  double e = 0.0;
  for (int i = 0; i < nt; ++i)
    for (int j = 0; j < NZ; ++j) {
      const double d = fabs(z[(size_t)i * mz + j] - ref[(size_t)i * mref + j]);
      if (d > e || isnan(d))
        e = d;
    }
  return e;
}

typedef struct run_out {
  double time_s, error;
  long steps, resevals, jacevals;
  int points, ok;
} run_out;

/* One IDA integration; stores the step times and states when ts/zs != NULL. */
static int ida_once(const rc_problem *pb, bench_ctx *bc, double rtol,
                    double atol, int cap, double *ts, double *zs, run_out *o) {
  SUNContext ctx = NULL;
  if (SUNContext_Create(NULL, &ctx) != 0)
    return -1;
  N_Vector zz = N_VNew_Serial(NZ, ctx), zp = N_VNew_Serial(NZ, ctx),
           id = N_VNew_Serial(NZ, ctx);
  double *z = N_VGetArrayPointer(zz), *d = N_VGetArrayPointer(zp);
  for (int i = 0; i < 4; ++i)
    z[i] = pb->x0[i]; /* nx = 4: T is algebraic, consistent from h3 = 0 */
  z[4] =
      (z[2] * z[2] + z[3] * z[3] + bc->g * z[1]) / (z[0] * z[0] + z[1] * z[1]);
  d[0] = z[2];
  d[1] = z[3];
  d[2] = -z[4] * z[0];
  d[3] = bc->g - z[4] * z[1];
  d[4] = 0.0;
  double *idv = N_VGetArrayPointer(id);
  for (int i = 0; i < NZ; ++i)
    idv[i] = i < 4 ? 1.0 : 0.0;
  void *mem = IDACreate(ctx);
  SUNMatrix A = SUNDenseMatrix(NZ, NZ, ctx);
  SUNLinearSolver LS = SUNLinSol_Dense(zz, A, ctx);
  int flag = IDAInit(mem, pend_res, pb->t0, zz, zp);
  flag |= IDASStolerances(mem, rtol, atol);
  flag |= IDASetUserData(mem, bc);
  flag |= IDASetId(mem, id);
  flag |= IDASetLinearSolver(mem, LS, A);
  flag |= IDASetJacFn(mem, pend_jac);
  flag |= IDASetMaxNumSteps(mem, 10000000L);
  flag |= IDASetStopTime(mem, pb->tf);
  int np = 0;
  if (ts) {
    ts[0] = pb->t0;
    memcpy(zs, z, sizeof *z * NZ);
  }
  np = 1;
  double t = pb->t0;
  while (flag == 0 && t < pb->tf) {
    const int r = IDASolve(mem, pb->tf, &t, zz, zp, IDA_ONE_STEP);
    if (r < 0) {
      flag = r;
      break;
    }
    if (ts && np < cap) {
      ts[np] = t;
      memcpy(zs + (size_t)np * NZ, z, sizeof *z * NZ);
    }
    np++;
  }
  IDAGetNumSteps(mem, &o->steps);
  IDAGetNumResEvals(mem, &o->resevals);
  IDAGetNumJacEvals(mem, &o->jacevals);
  o->points = np;
  IDAFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(zz);
  N_VDestroy(zp);
  N_VDestroy(id);
  SUNContext_Free(&ctx);
  return flag;
}

static void run_ida(const rc_problem *pb, bench_ctx *bc, double rtol,
                    double atol, int repeat, run_out *o) {
  memset(o, 0, sizeof *o);
  o->time_s = INFINITY;
  for (int r = 0; r < repeat; ++r) {
    run_out tmp;
    const double t0 = now_s();
    const int st = ida_once(pb, bc, rtol, atol, 0, NULL, NULL, &tmp);
    const double dt = now_s() - t0;
    if (st != 0)
      return;
    if (dt < o->time_s)
      o->time_s = dt;
    o->steps = tmp.steps, o->resevals = tmp.resevals,
    o->jacevals = tmp.jacevals, o->points = tmp.points;
  }
  /* untimed rerun that keeps the points (deterministic: same steps) */
  const int cap = o->points;
  double *ts = malloc(sizeof *ts * (size_t)cap);
  double *zs = malloc(sizeof *zs * (size_t)cap * NZ);
  const int mref = rc_problem_nw(pb) + pb->nout;
  double *ref = malloc(sizeof *ref * (size_t)cap * (size_t)mref);
  run_out tmp;
  if (ts && zs && ref && ida_once(pb, bc, rtol, atol, cap, ts, zs, &tmp) == 0 &&
      pb->reference(pb, cap, ts, ref) == 0) {
    o->error = max_err(cap, zs, NZ, ref, mref);
    o->ok = 1;
  }
  free(ts);
  free(zs);
  free(ref);
}

static void run_radcol(const rc_problem *pb, int s, int n,
                       rc_solver_kind solver, int repeat, run_out *o) {
  memset(o, 0, sizeof *o);
  o->time_s = INFINITY;
  rc_mesh mesh = {0};
  rc_error err;
  if (rc_mesh_uniform(n, s, &mesh, &err) != RC_OK)
    return;
  rc_options opt;
  rc_options_default(&opt);
  opt.solver = solver;
  rc_solution sol = {0};
  for (int r = 0; r < repeat; ++r) {
    rc_solve_stats st;
    rc_solution_free(&sol);
    const double t0 = now_s();
    const rc_err rc = rc_solve(pb, &mesh, &opt, NULL, &sol, &st, &err);
    const double dt = now_s() - t0;
    if (rc != RC_OK || (st.status != RC_STATUS_CONVERGED &&
                        st.status != RC_STATUS_ACCEPTABLE)) {
      rc_solution_free(&sol);
      rc_mesh_free(&mesh);
      return;
    }
    if (dt < o->time_s)
      o->time_s = dt;
    o->steps = st.iterations;
  }
  const int mref = rc_problem_nw(pb) + pb->nout;
  double *ref = malloc(sizeof *ref * (size_t)sol.nnodes * (size_t)mref);
  if (ref && pb->reference(pb, sol.nnodes, sol.t, ref) == 0) {
    o->error = max_err(sol.nnodes, sol.w, rc_problem_nw(pb), ref, mref);
    o->points = sol.nnodes;
    o->ok = 1;
  }
  free(ref);
  rc_solution_free(&sol);
  rc_mesh_free(&mesh);
}

static int usage(void) {
  fprintf(stderr,
          "usage: radcol_bench_ida [--repeat R] SPEC...\n"
          "  SPEC = ida:RTOL:ATOL | radcol:S:N[:auto|ipopt|newton]\n"
          "  one JSON line per SPEC: method, setting, time_s (min of R), "
          "error (max |z - ref| at the method's points)\n");
  return 2;
}

int main(int argc, char **argv) {
  int repeat = 3, first = 1;
  if (argc > 2 && strcmp(argv[1], "--repeat") == 0) {
    repeat = atoi(argv[2]);
    first = 3;
  }
  if (first >= argc || repeat < 1)
    return usage();
  const rc_model *model = rc_find_model("pendulum");
  if (!model)
    return fprintf(stderr, "no pendulum model\n"), 1;
  const int f = rc_model_find_formulation(model, "accel");
  rc_param_values pv = {0};
  rc_error err;
  rc_problem *pb = NULL;
  if (f < 0 || rc_params_init_defaults(model, &pv, &err) != RC_OK ||
      model->create(model, f, &pv, &pb, &err) != RC_OK) {
    fprintf(stderr, "pendulum/accel: %s\n", err.message);
    return 1;
  }
  const int ig = rc_model_param_index(model, "g");
  bench_ctx bc = {.g = ig >= 0 ? pv.real[ig] : 9.81};
  for (int a = first; a < argc; ++a) {
    run_out o;
    double p1, p2;
    if (sscanf(argv[a], "ida:%lf:%lf", &p1, &p2) == 2) {
      run_ida(pb, &bc, p1, p2, repeat, &o);
      printf("{\"method\": \"ida\", \"rtol\": %g, \"atol\": %g, \"ok\": %d, "
             "\"time_s\": %.6e, \"error\": %.6e, \"steps\": %ld, "
             "\"resevals\": %ld, \"jacevals\": %ld}\n",
             p1, p2, o.ok, o.time_s, o.error, o.steps, o.resevals, o.jacevals);
    } else if (sscanf(argv[a], "radcol:%lf:%lf", &p1, &p2) == 2) {
      const char *sv = strchr(strchr(argv[a], ':') + 1, ':');
      sv = sv ? strchr(sv + 1, ':') : NULL;
      rc_solver_kind kind = RC_SOLVER_AUTO;
      if (sv && strcmp(sv + 1, "ipopt") == 0)
        kind = RC_SOLVER_IPOPT;
      else if (sv && strcmp(sv + 1, "newton") == 0)
        kind = RC_SOLVER_NEWTON;
      else if (sv && strcmp(sv + 1, "auto") != 0) {
        fprintf(stderr,
                "bad SPEC '%s': expected solver auto, ipopt or newton\n",
                argv[a]);
        rc_problem_free(&pb);
        rc_params_free(&pv);
        return 2;
      }
      run_radcol(pb, (int)p1, (int)p2, kind, repeat, &o);
      printf("{\"method\": \"radcol\", \"s\": %d, \"n\": %d, "
             "\"solver\": \"%s\", \"ok\": %d, "
             "\"time_s\": %.6e, \"error\": %.6e, \"iterations\": %ld, "
             "\"nodes\": %d}\n",
             (int)p1, (int)p2, rc_solver_kind_name(kind), o.ok, o.time_s,
             o.error, o.steps, o.points);
    } else {
      fprintf(stderr, "bad SPEC '%s': expected ida:RTOL:ATOL or radcol:S:N\n",
              argv[a]);
      rc_problem_free(&pb);
      rc_params_free(&pv);
      return 2;
    }
    fflush(stdout);
  }
  rc_problem_free(&pb);
  rc_params_free(&pv);
  return 0;
}
