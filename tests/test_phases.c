/*
 * test_phases.c - multiphase problems (radcol/phases.h) and data at
 * interior times (radcol/data.h).
 *
 *  1. One phase is today's NLP: for problems with and without a free final
 *     time and t0 values, the composed NLP of one phase has the same sizes,
 *     the same Jacobian and Hessian patterns entry for entry and bitwise the
 *     same values of every function as rc_nlp; solved, the same solution
 *     bit for bit as rc_solve.
 *  2. Derivatives: rc_phases_check over three phases with continuity by
 *     name (states in another order), parameter equality, a nonlinear user
 *     link with an objective term that reads both free durations, a data
 *     term and t0 values; then a planted wrong link derivative and a
 *     missing pattern entry must fail it.
 *  3. A closed-form two-phase optimum: a double integrator x' = v,
 *     v' = u / m, |u| <= F, whose mass changes from m1 to m2 at a free
 *     switching time tau where it passes x = a (velocity free, carried
 *     across by continuity), from rest at 0 to rest at L in minimum time
 *     T = tau + T2 (both durations free).  Bang-bang: full force in the
 *     light phase, v1 = sqrt(2 F a / m1), tau = v1 m1 / F; in the heavy
 *     phase (A2 = F / m2) accelerate to vp = sqrt((v1^2 + 2 A2 (L - a)) / 2)
 *     and brake, T2 = (2 vp - v1) / A2.  With m1 = 1, m2 = 2, F = 1,
 *     a = 0.5, L = 2: tau = 1, T = 2 sqrt(5) - 1.  The heavy phase's mesh
 *     has a breakpoint at its switch (fraction (vp - v1) / (2 vp - v1)), so
 *     the piecewise-quadratic states are exact for 3-stage collocation and
 *     the NLP must reproduce tau, T2 and T to 1e-9 relative.
 *     The same as a maximisation (every phase maximises -T_k, maximize =
 *     1): the same durations, objective -(2 sqrt(5) - 1), to 1e-9; a phase
 *     that maximises next to one that minimises is refused naming both.
 *  4. Data at interior times: the data mesh has the breakpoints; a fit of
 *     x' = -k x (one parameter k) to exact data exp(-k t) recovers k; bad
 *     data are refused with the value named.
 *  5. The absolute-time rule: a phase that depends on t after a free
 *     duration is refused, naming both phases.
 *  6. Path constraints between the nodes (rc_phases.path_tol): the crane's
 *     work cycle (crane -f cycle) on a coarse mesh (12 x 3 per phase)
 *     undercuts its stacks between the collocation points by more than
 *     1 mm without the back-off; with path_tol = 1e-6 m the stack rows,
 *     evaluated independently on a uniform grid of 2000 points per element
 *     of the dense output, hold to 1e-6 m, and the result reports the
 *     problems' own bounds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nlp/phases_nlp.h"
#include "nlp/transcription.h"
#include "radcol/catalogue.h"
#include "radcol/data.h"
#include "radcol/kit.h"
#include "radcol/params.h"
#include "radcol/phases.h"
#include "radcol/phases_check.h"
#include "radcol/phases_refine.h"
#include "radcol/solve.h"
#include "test_util.h"

/* ---- toy phases built with the kit ------------------------------------- */

enum { V_DI, V_DIP, V_BIG, V_SWAP, V_DECAY, V_MT };

typedef struct toy {
  rc_kit_blocks kit; /* first: the kit's callbacks find it */
  rc_problem pb;
  int variant;
  double m, c;
  const char *names[6];
  double lo[6], hi[6], x0[3], xf[3];
  int fix0[3], fixf[3];
  int nonauto;
} toy;

static const toy *T_(const rc_problem *pb) {
  return (const toy *)pb->user;
}

static int toy_point(const rc_problem *pb, double t, const double *w,
                     rc_kit *k) {
  const toy *q = T_(pb);
  const double m = q->m;
  switch (q->variant) {
  case V_MT: /* x v | u, no L: x' = v, v' = u / m */
    rc_kit_row(k, 0, w[1]);
    rc_kit_d(k, 1, 1.0);
    rc_kit_row(k, 1, w[2] / m);
    rc_kit_d(k, 2, 1.0 / m);
    return 0;
  case V_DI:  /* x v | u */
  case V_DIP: /* x v | u | p */
  {
    const double u = w[2], p = q->variant == V_DIP ? w[3] : 0.0;
    rc_kit_row(k, 0, w[1]);
    rc_kit_d(k, 1, 1.0);
    rc_kit_row(k, 1, (u + p) / m);
    rc_kit_d(k, 2, 1.0 / m);
    if (q->variant == V_DIP)
      rc_kit_d(k, 3, 1.0 / m);
    /* L = u^2 (+ 0.1 p^2) (+ 0.01 t x when not autonomous) */
    rc_kit_row(k, 2, u * u);
    rc_kit_d(k, 2, 2 * u);
    rc_kit_d2(k, 2, 2, 2.0);
    if (q->variant == V_DIP) {
      rc_kit_row(k, 2, 0.1 * p * p);
      rc_kit_d(k, 3, 0.2 * p);
      rc_kit_d2(k, 3, 3, 0.2);
    }
    if (q->nonauto) {
      rc_kit_row(k, 2, 0.01 * t * w[0]);
      rc_kit_d(k, 0, 0.01 * t);
    }
    return 0;
  }
  case V_BIG: { /* x v z | y | u | p */
    const double x = w[0], v = w[1], y = w[3], u = w[4], p = w[5];
    rc_kit_row(k, 0, v);
    rc_kit_d(k, 1, 1.0);
    rc_kit_row(k, 1, u / m - 0.1 * y + p);
    rc_kit_d(k, 4, 1.0 / m);
    rc_kit_d(k, 3, -0.1);
    rc_kit_d(k, 5, 1.0);
    rc_kit_row(k, 2, u * u * x);
    rc_kit_d(k, 4, 2 * u * x);
    rc_kit_d(k, 0, u * u);
    rc_kit_d2(k, 4, 4, 2 * x);
    rc_kit_d2(k, 4, 0, 2 * u);
    rc_kit_row(k, 3, y - sin(x)); /* g */
    rc_kit_d(k, 3, 1.0);
    rc_kit_d(k, 0, -cos(x));
    rc_kit_d2(k, 0, 0, sin(x));
    rc_kit_row(k, 4, u * u + y * y + 0.1 * p * p); /* L */
    rc_kit_d(k, 4, 2 * u);
    rc_kit_d(k, 3, 2 * y);
    rc_kit_d(k, 5, 0.2 * p);
    rc_kit_d2(k, 4, 4, 2.0);
    rc_kit_d2(k, 3, 3, 2.0);
    rc_kit_d2(k, 5, 5, 0.2);
    return 0;
  }
  case V_SWAP: { /* v x | u | p */
    const double v = w[0], u = w[2], p = w[3];
    rc_kit_row(k, 0, u / m + p);
    rc_kit_d(k, 2, 1.0 / m);
    rc_kit_d(k, 3, 1.0);
    rc_kit_row(k, 1, v);
    rc_kit_d(k, 0, 1.0);
    rc_kit_row(k, 2, u * u + p * p);
    rc_kit_d(k, 2, 2 * u);
    rc_kit_d(k, 3, 2 * p);
    rc_kit_d2(k, 2, 2, 2.0);
    rc_kit_d2(k, 3, 3, 2.0);
    return 0;
  }
  default: { /* V_DECAY: x | | | k:  x' = -k x, no L */
    rc_kit_row(k, 0, -w[1] * w[0]);
    rc_kit_d(k, 0, -w[1]);
    rc_kit_d(k, 1, -w[0]);
    rc_kit_d2(k, 0, 1, -1.0);
    return 0;
  }
  }
}

/* phi = c (tf - t0) (+ 0.01 z(tf)^2 for V_BIG); z = (x0, xf, p, tf). */
static int toy_boundary(const rc_problem *pb, double t, const double *z,
                        rc_kit *k) {
  (void)t;
  const toy *q = T_(pb);
  const int itf = 2 * pb->nx + pb->np;
  rc_kit_row(k, 0, q->c * (z[itf] - pb->t0));
  rc_kit_d(k, itf, q->c);
  if (q->variant == V_BIG) {
    const double zf = z[pb->nx + 2];
    rc_kit_row(k, 0, 0.01 * zf * zf);
    rc_kit_d(k, pb->nx + 2, 0.02 * zf);
    rc_kit_d2(k, pb->nx + 2, pb->nx + 2, 0.02);
  }
  return 0;
}

static void toy_destroy(rc_problem *pb) {
  toy *q = pb->user;
  rc_kit_release(&q->kit);
  free(q);
}

/* A toy phase; fix0 / fixf: which states are fixed at t0 / tf (to x0 /
 * xf); c: the Mayer weight on the duration; free_T: free final time in
 * [0.1, 20]. */
static rc_problem *toy_make(int variant, double m, double c, const char *x0s,
                            const double *x0, const char *xfs, const double *xf,
                            int free_T, double tf) {
  toy *q = calloc(1, sizeof *q);
  q->variant = variant;
  q->m = m;
  q->c = c;
  int nx = 2, ny = 0, nu = 1, np = 0, has_L = 1;
  switch (variant) {
  case V_DI:
  case V_MT:
    q->names[0] = "x", q->names[1] = "v", q->names[2] = "u";
    has_L = variant == V_DI;
    break;
  case V_DIP:
    q->names[0] = "x", q->names[1] = "v", q->names[2] = "u", q->names[3] = "p";
    np = 1;
    break;
  case V_BIG:
    q->names[0] = "x", q->names[1] = "v", q->names[2] = "z", q->names[3] = "y",
    q->names[4] = "u", q->names[5] = "p";
    nx = 3, ny = 1, np = 1;
    break;
  case V_SWAP:
    q->names[0] = "v", q->names[1] = "x", q->names[2] = "u", q->names[3] = "p";
    np = 1;
    break;
  default:
    q->names[0] = "x", q->names[1] = "k";
    nx = 1, nu = 0, np = 1, has_L = 0;
    break;
  }
  const int nw = nx + ny + nu + np;
  for (int i = 0; i < nw; ++i)
    q->lo[i] = -HUGE_VAL, q->hi[i] = HUGE_VAL;
  if (np)
    q->lo[nw - 1] = -5.0, q->hi[nw - 1] = 5.0;
  if (variant == V_MT) /* |u| <= F = 1 */
    q->lo[2] = -1.0, q->hi[2] = 1.0;
  for (int i = 0; i < nx; ++i) {
    q->x0[i] = x0 ? x0[i] : 0.0;
    q->xf[i] = xf ? xf[i] : 0.0;
    q->fix0[i] = x0s && x0s[i] == '1';
    q->fixf[i] = xfs && xfs[i] == '1';
  }
  q->pb = (rc_problem){.model = "toy",
                       .formulation = "v",
                       .nx = nx,
                       .ny = ny,
                       .nu = nu,
                       .np = np,
                       .has_lagrange = has_L,
                       .has_mayer = variant != V_DECAY,
                       .autonomous = 1,
                       .var_names = q->names,
                       .w_lo = q->lo,
                       .w_hi = q->hi,
                       .t0 = 0.0,
                       .tf = tf,
                       .free_tf = free_T,
                       .tf_lo = 0.1,
                       .tf_hi = 20.0,
                       .fix_x0 = q->fix0,
                       .x0 = q->x0,
                       .fix_xf = q->fixf,
                       .xf = q->xf,
                       .t0_algebraic = variant == V_BIG,
                       .user = q,
                       .destroy = toy_destroy};
  const rc_kit_spec ks = {.point = toy_point,
                          .boundary = variant != V_DECAY ? toy_boundary : NULL};
  rc_error err;
  if (rc_kit_attach(&q->pb, &q->kit, &ks, &err) != RC_OK) {
    fprintf(stderr, "kit: %s\n", err.message);
    exit(2);
  }
  return &q->pb;
}

/* ---- 1. one phase is today's NLP -------------------------------------- */

static void same_nlp(const rc_problem *pb, const rc_mesh *mesh,
                     const char *what) {
  rc_error err;
  rc_nlp *n = NULL;
  rc_pnlp *p = NULL;
  const rc_phase phase = {.name = "only", .pb = pb};
  const rc_phases ph = {
      .nphases = 1, .phase = &phase, .continuity = RC_CONTINUITY_SHARED};
  rc_problem local;
  rc_mesh m2;
  EXPECT(rc_phases_local_problem(&ph, 0, &local, NULL, &err) == RC_OK, "%s",
         err.message);
  EXPECT(rc_mesh_copy(mesh, &m2, &err) == RC_OK, "copy");
  EXPECT(rc_nlp_create(pb, mesh, 1, &n, &err) == RC_OK, "%s: %s", what,
         err.message);
  EXPECT(rc_pnlp_create(&ph, &local, &m2, 1, &p, &err) == RC_OK, "%s: %s", what,
         err.message);
  if (!n || !p)
    return;
  EXPECT(n->nvar == p->nvar && n->ncon == p->ncon && n->nnz_jac == p->nnz_jac &&
             n->nnz_hes == p->nnz_hes,
         "%s: sizes %d %d %d %d vs %d %d %d %d", what, n->nvar, n->ncon,
         n->nnz_jac, n->nnz_hes, p->nvar, p->ncon, p->nnz_jac, p->nnz_hes);
  int same_pat = 1;
  for (int e = 0; e < n->nnz_jac && e < p->nnz_jac; ++e)
    same_pat &=
        n->jac_row[e] == p->jac_row[e] && n->jac_col[e] == p->jac_col[e];
  for (int e = 0; e < n->nnz_hes && e < p->nnz_hes; ++e)
    same_pat &=
        n->hes_row[e] == p->hes_row[e] && n->hes_col[e] == p->hes_col[e];
  EXPECT(same_pat, "%s: patterns differ", what);
  const int nv = n->nvar, nc = n->ncon;
  double *x = calloc(nv, sizeof *x), *lam = calloc(nc, sizeof *lam);
  double *a = calloc(nv + nc + n->nnz_jac + n->nnz_hes + 1, sizeof *a);
  double *b = calloc(nv + nc + n->nnz_jac + n->nnz_hes + 1, sizeof *b);
  rc_nlp_default_guess(n, x, &err);
  for (int i = 0; i < nv; ++i)
    x[i] += 0.01 * sin(1.0 + i);
  for (int i = 0; i < nc; ++i)
    lam[i] = cos(2.0 + i);
  double fa, fb;
  rc_nlp_objective(n, x, &fa);
  rc_pnlp_objective(p, x, &fb);
  rc_nlp_gradient(n, x, a);
  rc_pnlp_gradient(p, x, b);
  rc_nlp_constraints(n, x, a + nv);
  rc_pnlp_constraints(p, x, b + nv);
  rc_nlp_jacobian(n, x, a + nv + nc);
  rc_pnlp_jacobian(p, x, b + nv + nc);
  rc_nlp_hessian(n, x, 0.7, lam, a + nv + nc + n->nnz_jac);
  rc_pnlp_hessian(p, x, 0.7, lam, b + nv + nc + n->nnz_jac);
  const size_t nall = (size_t)(nv + nc + n->nnz_jac + n->nnz_hes);
  EXPECT(fa == fb && memcmp(a, b, sizeof *a * nall) == 0,
         "%s: values differ (objective %.17g vs %.17g)", what, fa, fb);
  printf("one phase = today's NLP (%s): %d variables, %d constraints, nnz "
         "%d + %d, values bitwise equal\n",
         what, nv, nc, n->nnz_jac, n->nnz_hes);
  /* solved: the same solution bit for bit */
  rc_options opt;
  rc_options_default(&opt);
  opt.solver = RC_SOLVER_IPOPT;
  rc_solution s1, s2;
  rc_solve_stats st1, st2;
  rc_phases_solution ps;
  EXPECT(rc_solve(pb, mesh, &opt, NULL, &s1, &st1, &err) == RC_OK, "%s",
         err.message);
  EXPECT(rc_phases_solve(&ph, mesh, &opt, NULL, &ps, &st2, &err) == RC_OK, "%s",
         err.message);
  s2 = ps.sol[0];
  const size_t nw = (size_t)rc_problem_nw(pb) * (size_t)s1.nnodes;
  EXPECT(st1.iterations == st2.iterations && st1.objective == st2.objective &&
             s1.tf == s2.tf && memcmp(s1.w, s2.w, sizeof *s1.w * nw) == 0 &&
             memcmp(s1.lam_f, s2.lam_f,
                    sizeof *s1.lam_f * (size_t)pb->nx * s1.nnodes) == 0,
         "%s: solutions differ (iterations %d/%d, objective %.17g/%.17g)", what,
         st1.iterations, st2.iterations, st1.objective, st2.objective);
  printf("  solved: %d iterations, objective %.12g, solution bitwise equal\n",
         st2.iterations, st2.objective);
  rc_solution_free(&s1);
  rc_phases_solution_free(&ps);
  free(x), free(lam), free(a), free(b);
  rc_nlp_free(&n);
  rc_pnlp_free(&p);
  rc_mesh_free(&m2);
}

static void test_one_phase(void) {
  rc_error err;
  rc_mesh mesh;
  rc_mesh_uniform(6, 3, &mesh, &err);
  const double x0[] = {0, 0}, xf[] = {1, 0};
  rc_problem *di = toy_make(V_DI, 2.0, 0.5, "11", x0, "11", xf, 1, 2.0);
  same_nlp(di, &mesh, "double integrator, free tf");
  rc_problem_free(&di);
  /* a built-in model with t0 values and path constraints */
  const rc_model *model = rc_find_model("crane");
  rc_param_values pv;
  rc_params_init_defaults(model, &pv, &err);
  rc_problem *crane = NULL;
  const int f = rc_model_find_formulation(model, "track");
  EXPECT(rc_model_create(model, f, &pv, NAN, &crane, &err) == RC_OK, "%s",
         err.message);
  if (crane)
    same_nlp(crane, &mesh, "crane/track");
  rc_problem_free(&crane);
  rc_params_free(&pv);
  rc_mesh_free(&mesh);
}

/* ---- 2. derivatives: a user link block ---------------------------------- */

/* Between A = (x v | u | p) and B = (x v z | y | u | p):
 *   e = (xA, vA, pA, TA, xB, vB, zB, pB, TB)
 *   r0  = xB vA - TA TB
 *   r1  = zB + 0.5 pA
 *   obj = (pA - pB)^2 + TA xA^2                                         */
enum { E_XA, E_VA, E_PA, E_TA, E_XB, E_VB, E_ZB, E_PB, E_TB };
static const int lj_row[] = {0, 0, 0, 0, 1, 1, 2, 2, 2, 2};
static const int lj_col[] = {E_VA, E_TA, E_XB, E_TB, E_PA,
                             E_ZB, E_PA, E_PB, E_TA, E_XA};
static const int lh_row[] = {E_XB, E_TB, E_PA, E_PB, E_PB, E_TA, E_XA};
static const int lh_col[] = {E_VA, E_TA, E_PA, E_PA, E_PB, E_XA, E_XA};
static int planted; /* 1: a wrong value, 2: a missing entry */

static int link_eval(const rc_phases *ph, const rc_link *L, const double *e,
                     double *out) {
  (void)ph, (void)L;
  out[0] = e[E_XB] * e[E_VA] - e[E_TA] * e[E_TB];
  out[1] = e[E_ZB] + 0.5 * e[E_PA] + (planted == 2 ? 0.3 * e[E_VB] : 0.0);
  out[2] =
      (e[E_PA] - e[E_PB]) * (e[E_PA] - e[E_PB]) + e[E_TA] * e[E_XA] * e[E_XA];
  return 0;
}
static int link_jac(const rc_phases *ph, const rc_link *L, const double *e,
                    double *v) {
  (void)ph, (void)L;
  const double dp = e[E_PA] - e[E_PB];
  v[0] = e[E_XB];
  v[1] = -e[E_TB] * (planted == 1 ? 1.01 : 1.0);
  v[2] = e[E_VA];
  v[3] = -e[E_TA];
  v[4] = 0.5;
  v[5] = 1.0;
  v[6] = 2 * dp;
  v[7] = -2 * dp;
  v[8] = e[E_XA] * e[E_XA];
  v[9] = 2 * e[E_TA] * e[E_XA];
  return 0;
}
static int link_hes(const rc_phases *ph, const rc_link *L, const double *e,
                    const double *mu, double *v) {
  (void)ph, (void)L;
  v[0] = mu[0];               /* (xB, vA) */
  v[1] = -mu[0];              /* (TB, TA) */
  v[2] = 2 * mu[2];           /* (pA, pA) */
  v[3] = -2 * mu[2];          /* (pB, pA) */
  v[4] = 2 * mu[2];           /* (pB, pB) */
  v[5] = 2 * mu[2] * e[E_XA]; /* (TA, xA) */
  v[6] = 2 * mu[2] * e[E_TA]; /* (xA, xA) */
  return 0;
}

static const double link_lo[] = {-1.0, 0.0}, link_hi[] = {1.0, 0.0};
static const char *const link_names[] = {"xB vA - TA TB", "zB + pA/2"};

static void test_derivatives(void) {
  rc_error err;
  const double x0[] = {0, 0, 0};
  rc_problem *A = toy_make(V_DIP, 1.5, 0.3, "11", x0, NULL, NULL, 1, 1.2);
  rc_problem *B = toy_make(V_BIG, 2.0, 0.2, NULL, NULL, NULL, NULL, 1, 0.8);
  rc_problem *C = toy_make(V_SWAP, 0.7, 0.0, NULL, NULL, "11", x0, 0, 1.0);
  /* data on C (fixed duration 1.0): x at 0.25, 0.6 and 1.0, v at 0.6 */
  static const double dt[] = {0.25, 0.6, 1.0};
  static const int dv[] = {1, 0}; /* x, v of (v x | u | p) */
  static const double dval[] = {0.2, NAN, 0.5, -0.1, 0.9, NAN};
  static const double dw[] = {2.0, 0.5};
  const rc_data_fit data = {3, dt, 2, dv, dval, dw};
  rc_phase phase[3] = {{.name = "A", .pb = A, .duration = RC_DURATION_PROBLEM},
                       {.name = "B",
                        .pb = B,
                        .duration = RC_DURATION_FREE,
                        .T = 0.9,
                        .T_lo = 0.2,
                        .T_hi = 3.0},
                       {.name = "C",
                        .pb = C,
                        .duration = RC_DURATION_FIXED,
                        .T = 1.0,
                        .data = &data}};
  rc_link link = {.boundary = 0,
                  .nrows = 2,
                  .has_objective = 1,
                  .lo = link_lo,
                  .hi = link_hi,
                  .row_names = link_names,
                  .jac = {10, lj_row, lj_col},
                  .hes = {7, lh_row, lh_col},
                  .eval = link_eval,
                  .jacobian = link_jac,
                  .hessian = link_hes};
  rc_phases ph = {.name = "three",
                  .nphases = 3,
                  .phase = phase,
                  .continuity = RC_CONTINUITY_SHARED,
                  .link_parameters = 1,
                  .nlinks = 1,
                  .links = &link};
  rc_check_options o;
  rc_check_options_default(&o);
  rc_phases_check_report rep;
  planted = 0;
  EXPECT(rc_phases_check(&ph, NULL, &o, &rep, &err) == RC_OK, "check: %s",
         err.message);
  for (int i = 0; i < rep.nfailures && i < RC_CHECK_MAX_FAILURES; ++i)
    fprintf(stderr, "  %s (%d,%d) %s / %s: fd %.10g got %.10g\n",
            rep.failures[i].what, rep.failures[i].row, rep.failures[i].col,
            rep.failures[i].row_name, rep.failures[i].col_name,
            rep.failures[i].expected, rep.failures[i].got);
  EXPECT(rep.nfailures == 0, "correct derivatives: %d failures", rep.nfailures);
  /* A->B: x, v continuous and p equal; B->C: v, x (by name) and p */
  EXPECT(rep.nlink_rows == 3 + 3 + 2 && rep.nfree_durations == 2 &&
             rep.ndata == 4,
         "expected 8 linkage rows, 2 free durations, 4 data points: got %d, "
         "%d, %d",
         rep.nlink_rows, rep.nfree_durations, rep.ndata);
  printf("check: %d entries over %d variables, %d constraints (%d linkage "
         "rows, %d free durations, %d data points), max rel error %.2e\n",
         rep.nentries, rep.nvars, rep.ncons, rep.nlink_rows,
         rep.nfree_durations, rep.ndata, rep.max_rel_err);
  for (planted = 1; planted <= 2; ++planted) {
    EXPECT(rc_phases_check(&ph, NULL, &o, &rep, &err) == RC_OK, "check: %s",
           err.message);
    int link_seen = 0, nlp_seen = 0;
    for (int i = 0; i < rep.nfailures && i < RC_CHECK_MAX_FAILURES; ++i) {
      link_seen |= strncmp(rep.failures[i].what, "link", 4) == 0;
      nlp_seen |= strncmp(rep.failures[i].what, "NLP Jacobian", 12) == 0 &&
                  strstr(rep.failures[i].row_name, "linkage") != NULL;
    }
    EXPECT(rep.nfailures > 0 && link_seen && nlp_seen,
           "planted %s: %d failures (link %d, NLP linkage row %d)",
           planted == 1 ? "wrong dr0/dTA" : "missing dr1/dvB", rep.nfailures,
           link_seen, nlp_seen);
    if (rep.nfailures > 0)
      printf("planted %s: caught (%d failures; first: %s %s / %s, fd %.6g "
             "got %.6g)\n",
             planted == 1 ? "wrong value" : "missing entry", rep.nfailures,
             rep.failures[0].what, rep.failures[0].row_name,
             rep.failures[0].col_name, rep.failures[0].expected,
             rep.failures[0].got);
  }
  planted = 0;
  /* 5. absolute time: a phase depending on t after a free duration */
  rc_problem *D = toy_make(V_DI, 1.0, 0.0, NULL, NULL, NULL, NULL, 0, 1.0);
  D->autonomous = 0;
  rc_phase p2[2] = {
      {.name = "free", .pb = A, .duration = RC_DURATION_PROBLEM},
      {.name = "clock", .pb = D, .duration = RC_DURATION_PROBLEM}};
  rc_phases ph2 = {.nphases = 2, .phase = p2};
  EXPECT(rc_phases_validate(&ph2, &err) == RC_ERR_INPUT &&
             strstr(err.message, "clock") && strstr(err.message, "free") &&
             strstr(err.message, "not autonomous"),
         "non-autonomous after a free duration: %s", err.message);
  printf("refused: %s\n", err.message);
  /* after a fixed one it runs in absolute time: t0 = 1.2 */
  p2[0].duration = RC_DURATION_FIXED;
  p2[0].T = 1.2;
  rc_problem local;
  double S = NAN;
  EXPECT(rc_phases_validate(&ph2, &err) == RC_OK, "%s", err.message);
  EXPECT(rc_phases_local_problem(&ph2, 1, &local, &S, &err) == RC_OK &&
             local.t0 == 1.2 && local.tf == 2.2 && S == 1.2,
         "absolute frame: t0 %g tf %g S %g", local.t0, local.tf, S);
  /* a maximising phase next to minimising ones is refused (one sense for
   * the sum) */
  A->maximize = 1;
  EXPECT(rc_phases_validate(&ph2, &err) == RC_ERR_INPUT &&
             strstr(err.message, "free") && strstr(err.message, "maximi"),
         "maximising phase: %s", err.message);
  printf("refused: %s\n", err.message);
  A->maximize = 0;
  rc_problem_free(&D);
  rc_problem_free(&A);
  rc_problem_free(&B);
  rc_problem_free(&C);
}

/* ---- 3. the closed-form two-phase optimum -------------------------------- */

static void test_closed_form(int maximize) {
  rc_error err;
  /* light phase: m1 = 1 from rest at 0 to x = a (v free); heavy phase:
   * m2 = 2 on to rest at L; |u| <= F = 1; minimise T1 + T2. */
  const double m1 = 1.0, m2 = 2.0, F = 1.0, a = 0.5, L = 2.0;
  const double v1 = sqrt(2 * F / m1 * a), A2 = F / m2;
  const double vp = sqrt((v1 * v1 + 2 * A2 * (L - a)) / 2);
  const double T1 = v1 * m1 / F, T2 = (2 * vp - v1) / A2;
  const double x0[] = {0, 0}, xa[] = {a, 0}, xf[] = {L, 0};
  /* maximize: the same optimum as the maximum of -(T1 + T2) */
  const double c = maximize ? -1.0 : 1.0, J = c * (T1 + T2);
  rc_problem *P1 = toy_make(V_MT, m1, c, "11", x0, "10", xa, 1, 1.5);
  rc_problem *P2 = toy_make(V_MT, m2, c, NULL, NULL, "11", xf, 1, 2.0);
  P1->maximize = P2->maximize = maximize;
  const rc_phase phase[2] = {{.name = "light", .pb = P1},
                             {.name = "heavy", .pb = P2}};
  const rc_phases ph = {.name = "two-mass", .nphases = 2, .phase = phase};
  /* the heavy phase's control switches from +F to -F at the fraction
   * (vp - v1) / (2 vp - v1) of its duration: a breakpoint there */
  const double fs = (vp - v1) / (2 * vp - v1);
  const double frac2[] = {
      0, fs, fs + (1 - fs) / 4, fs + (1 - fs) / 2, fs + 3 * (1 - fs) / 4, 1};
  const int st2[] = {3, 3, 3, 3, 3};
  rc_mesh mesh[2];
  rc_mesh_uniform(4, 3, &mesh[0], &err);
  EXPECT(rc_mesh_from_arrays(5, frac2, st2, &mesh[1], &err) == RC_OK, "%s",
         err.message);
  rc_options opt;
  rc_options_default(&opt);
  opt.tol = 1e-12;
  /* u jumps at the heavy phase's breakpoint: its dense output (continuous
   * through the element start, docs/dense-bounds.md) cannot, so the bounds
   * hold at the nodes */
  opt.dense_bounds = 0;
  /* Ipopt relaxes bounds by 1e-8 relative by default: the optimum on
   * |u| <= F(1 + 1e-8) is 5e-9 faster */
  static const char *const kv[] = {"bound_relax_factor=0"};
  opt.nipopt = 1;
  opt.ipopt_kv = kv;
  rc_phases_solution s;
  rc_solve_stats st;
  EXPECT(rc_phases_solve(&ph, mesh, &opt, NULL, &s, &st, &err) == RC_OK, "%s",
         err.message);
  if (st.status == RC_STATUS_CONVERGED) {
    const double e_T1 = fabs(s.duration[0] - T1) / T1,
                 e_T2 = fabs(s.duration[1] - T2) / T2,
                 e_J = fabs(st.objective - J) / fabs(J);
    printf(
        "two-mass%s: switch %.15g (exact %.15g, rel %.1e), T2 %.15g (exact "
        "%.15g, rel %.1e), objective %.15g (exact +-(2 sqrt(5) - 1) = %.15g, "
        "rel "
        "%.1e), %d iterations\n",
        maximize ? " (maximise -T)" : "", s.duration[0], T1, e_T1,
        s.duration[1], T2, e_T2, st.objective, J, e_J, st.iterations);
    EXPECT(e_T1 < 1e-9 && e_T2 < 1e-9 && e_J < 1e-9,
           "closed form missed: %.2e %.2e %.2e", e_T1, e_T2, e_J);
    /* the velocity carried across the switch: v(tau) = v1 on both sides */
    const rc_solution *sa = &s.sol[0], *sb = &s.sol[1];
    const double va = sa->w[(size_t)(sa->nnodes - 1) * 3 + 1], vb = sb->w[1];
    EXPECT(fabs(va - v1) < 1e-9 && fabs(vb - va) < 1e-12,
           "v at the switch %.15g / %.15g, expected %.15g on both sides", va,
           vb, v1);
    EXPECT(s.nlink == 2 && fabs(s.start[1] - T1) < 1e-9,
           "2 continuity rows and the second phase starting at the switch");
  } else {
    EXPECT(0, "two-mass solve: %s", st.message);
  }
  rc_phases_solution_free(&s);
  rc_mesh_free(&mesh[0]);
  rc_mesh_free(&mesh[1]);
  rc_problem_free(&P1);
  rc_problem_free(&P2);
}

/* A phase that maximises next to one that minimises is refused, naming
 * both. */
static void test_mixed_senses(void) {
  rc_error err = {RC_OK, ""};
  const double x0[] = {0, 0}, xf[] = {1, 0};
  rc_problem *P1 = toy_make(V_MT, 1.0, -1.0, "11", x0, NULL, NULL, 1, 1.5);
  rc_problem *P2 = toy_make(V_MT, 1.0, 1.0, NULL, NULL, "11", xf, 1, 2.0);
  P1->maximize = 1;
  const rc_phase phase[2] = {{.name = "up", .pb = P1},
                             {.name = "down", .pb = P2}};
  const rc_phases ph = {.name = "mixed", .nphases = 2, .phase = phase};
  EXPECT(rc_phases_validate(&ph, &err) == RC_ERR_INPUT &&
             strstr(err.message, "phase down") &&
             strstr(err.message, "phase up maximises"),
         "mixed senses refused naming both phases: %s", err.message);
  printf("refused: %s\n", err.message);
  rc_problem_free(&P1);
  rc_problem_free(&P2);
}

/* ---- 4. data at interior times ------------------------------------------- */

static void test_data(void) {
  rc_error err;
  const double x0[] = {1.0};
  rc_problem *pb = toy_make(V_DECAY, 1.0, 0.0, "1", x0, NULL, NULL, 0, 2.0);
  const double kexact = 0.7;
  double t[7], val[7];
  const int var[] = {0};
  for (int m = 0; m < 7; ++m) {
    t[m] = m == 0 ? 0.0 : 0.1 + 0.3 * m - (m == 3 ? 0.0333 : 0.0);
    val[m] = exp(-kexact * t[m]);
  }
  rc_data_fit d = {7, t, 1, var, val, NULL};
  pb->data = &d;
  rc_mesh m0, m1;
  rc_mesh_uniform(4, 4, &m0, &err);
  EXPECT(rc_data_mesh(pb, &d, &m0, &m1, &err) == RC_OK, "%s", err.message);
  int found = 0;
  for (int m = 0; m < 7; ++m)
    found += rc_data_breakpoint(&m1, rc_data_fraction(pb, t[m])) >= 0;
  EXPECT(found == 7 && m1.n == 4 + 6,
         "breakpoints: %d of 7 data times on a mesh of %d elements (expected "
         "10: six data times inside elements split them)",
         found, m1.n);
  rc_mesh_free(&m1);
  rc_options opt;
  rc_options_default(&opt);
  opt.tol = 1e-12;
  rc_solution sol;
  rc_solve_stats st;
  rc_mesh_free(&m0);
  rc_mesh_uniform(8, 5, &m0, &err);
  EXPECT(rc_solve(pb, &m0, &opt, NULL, &sol, &st, &err) == RC_OK, "%s",
         err.message);
  if (st.status == RC_STATUS_CONVERGED) {
    const double k = sol.w[1];
    printf("decay fit: k = %.15g (exact data from k = %g), objective %.3g, "
           "mesh %d elements\n",
           k, kexact, st.objective, sol.mesh.n);
    EXPECT(fabs(k - kexact) < 1e-8 && st.objective < 1e-14,
           "fit to exact data: k = %.15g", k);
  } else {
    EXPECT(0, "decay fit: %s", st.message);
  }
  rc_solution_free(&sol);
  /* bad data */
  val[2] = INFINITY;
  EXPECT(rc_data_validate(pb, &d, &err) == RC_ERR_INPUT &&
             strstr(err.message, "inf"),
         "infinite value: %s", err.message);
  val[2] = 0.5;
  t[3] = 5.0;
  EXPECT(rc_data_validate(pb, &d, &err) == RC_ERR_INPUT &&
             strstr(err.message, "data time 3"),
         "time outside: %s", err.message);
  printf("refused: %s\n", err.message);
  pb->data = NULL;
  rc_mesh_free(&m0);
  rc_problem_free(&pb);
}

/* ---- 6. path constraints between the nodes ----------------------------- */

/* Largest excess of pb's path bounds on a uniform grid of n points per
 * element of sol (independent of the back-off's own search). */
static double fine_excess(const rc_problem *pb, const rc_solution *sol, int n) {
  double w[64], F[64], worst = -INFINITY;
  EXPECT(rc_problem_nw(pb) <= 64 && rc_problem_nF(pb) <= 64, "sizes");
  for (int k = 0; k < sol->mesh.n; ++k) {
    const double a = sol->t0 + (sol->tf - sol->t0) * sol->mesh.frac[k];
    const double b = sol->t0 + (sol->tf - sol->t0) * sol->mesh.frac[k + 1];
    for (int q = 0; q <= n; ++q) {
      const double t = a + (b - a) * q / n;
      if (rc_solution_eval(sol, t, w, NULL) != RC_OK ||
          pb->point.eval(pb, t, w, F) != 0)
        return INFINITY;
      for (int i = 0; i < pb->nc; ++i) {
        const double c = F[pb->nx + pb->ny + i];
        worst = fmax(worst, fmax(c - pb->c_hi[i], pb->c_lo[i] - c));
      }
    }
  }
  return worst;
}

static void test_backoff(void) {
  rc_error err = {RC_OK, ""};
  const rc_model *m = rc_find_model("crane");
  EXPECT(m != NULL, "crane is built in");
  if (!m)
    return;
  const int f = rc_model_find_formulation(m, "cycle");
  rc_param_values pv;
  rc_phases *ph = NULL;
  EXPECT(f >= 0 && rc_params_init_defaults(m, &pv, &err) == RC_OK &&
             m->create_phases(m, f, &pv, &ph, &err) == RC_OK && ph,
         "crane -f cycle: %s", err.message);
  if (!ph)
    return;
  EXPECT(ph->nphases == 2 && ph->path_tol == 1e-6, "two phases, 1e-6 m");
  rc_mesh mesh[2];
  rc_mesh_uniform(12, 3, &mesh[0], &err);
  rc_mesh_uniform(12, 3, &mesh[1], &err);
  rc_options opt;
  rc_options_default(&opt);
  double excess[2][2] = {{0}};
  for (int run = 0; run < 2; ++run) {
    ph->path_tol = run ? 1e-6 : 0.0;
    rc_phases_solution s;
    rc_solve_stats st;
    EXPECT(rc_phases_solve(ph, mesh, &opt, NULL, &s, &st, &err) == RC_OK, "%s",
           err.message);
    EXPECT(st.status == RC_STATUS_CONVERGED, "run %d: %s", run, st.message);
    for (int k = 0; k < 2 && s.sol; ++k) {
      excess[run][k] = fine_excess(&s.pb[k], &s.sol[k], 2000);
      EXPECT(s.pb[k].c_hi[0] == 0.0, "the problem's own bound reported");
    }
    if (run) {
      EXPECT(s.path_backoff && s.backoff_solves >= 1, "back-off ran");
      /* the global estimate's enriched solve solves the tightened bounds
       * (s.path_lo, s.path_hi), without a back-off of its own */
      EXPECT(s.path_hi && s.path_hi[0][0] < -0.1 && s.path_hi[1][0] < -0.1,
             "the bounds solved with are kept");
      rc_error_estimate est[2];
      EXPECT(rc_phases_estimate(ph, &s, &opt, RC_ESTIMATE_GLOBAL, est, &err) ==
                 RC_OK,
             "%s", err.message);
      /* (it ends max_iter at 100 iterations here, as the crane cycle's
       * enriched solve does without a back-off: the estimate falls back
       * to the local one; not asserted) */
      EXPECT(est[0].kind == RC_ESTIMATE_LOCAL ||
                 est[0].kind == RC_ESTIMATE_GLOBAL,
             "an estimate");
      printf("back-off: the enriched solve of the tightened bounds: %s, %d "
             "iterations; estimates %.3g, %.3g\n",
             rc_status_name((rc_status)est[0].enriched_status),
             est[0].enriched_iterations, est[0].max, est[1].max);
      rc_error_estimate_free(&est[0]);
      rc_error_estimate_free(&est[1]);
      for (int k = 0; k < 2 && s.path_backoff; ++k) {
        EXPECT(s.path_backoff[k] > 0 && s.path_violation[k] <= 1e-6,
               "phase %d: backoff %g, violation %g", k, s.path_backoff[k],
               s.path_violation[k]);
        printf("back-off: phase %s: stack bound tightened by %.4g m in %d "
               "re-solves; dense excess %.3g m (without: %.3g m); duration "
               "%.9g s\n",
               ph->phase[k].name, s.path_backoff[k], s.backoff_solves,
               excess[1][k], excess[0][k], s.duration[k]);
      }
    } else {
      EXPECT(!s.path_backoff, "no back-off without path_tol");
    }
    rc_phases_solution_free(&s);
  }
  for (int k = 0; k < 2; ++k) {
    EXPECT(excess[0][k] > 1e-3,
           "phase %d: without the back-off the stack "
           "is undercut between the nodes (%g m): the test means something",
           k, excess[0][k]);
    EXPECT(excess[1][k] <= 1e-6,
           "phase %d: with it the stack holds on the "
           "fine grid to 1e-6 m: excess %g m",
           k, excess[1][k]);
  }
  rc_mesh_free(&mesh[0]);
  rc_mesh_free(&mesh[1]);
  rc_phases_free(&ph);
  rc_params_free(&pv);
}

int main(void) {
  test_one_phase();
  test_derivatives();
  test_closed_form(0);
  test_closed_form(1);
  test_mixed_senses();
  test_data();
  test_backoff();
  return RC_TEST_EXIT();
}
