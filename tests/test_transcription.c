/*
 * test_transcription.c - the assembled NLP derivatives are exact, and the
 * solver reaches analytic solutions at the theoretical order.
 *
 * 1. A toy problem using every feature (nx = 2, ny = 1, nu = 1, np = 1, a
 *    path constraint, a boundary constraint, Lagrange and Mayer terms, free
 *    tf, t0_algebraic on/off) on a mesh with mixed stage counts:
 *      x1' = p x2 + u            x2' = -sin(x1) + y u
 *      0   = y - x1^2 - x2       c   = x1 u
 *      L   = u^2 + x1 x2
 *      b   = x1(tf) x2(t0) + p^2 phi = tf x1(tf) + p x2(tf)^2
 *    The NLP Jacobian and Lagrangian Hessian assembled by the transcription
 *    are compared entry by entry (dense, so a missing pattern entry fails)
 *    with central differences of the NLP constraint and gradient functions,
 *    with and without the dense-bound (Bernstein) rows of x1, y and u.
 *    The Bernstein rows are also checked for what they mean: with the end
 *    coefficients added, the Bernstein polynomial of each row block must
 *    reproduce the dense output (rc_solution_eval) inside the element, and
 *    the rows must be time-ordered (each after its element's last stage).
 * 2. x' = -x, x(0) = 1 on [0, 1]: the error at tf against exp(-1) decreases
 *    with order 2s - 1 (s = 1..4).
 * 3. min 1/2 int_0^T (x^2 + u^2), x' = u, x(0) = 1, T = 1: the analytic
 *    optimum J = tanh(T)/2, x(t) = cosh(T - t)/cosh(T).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nlp/transcription.h"
#include "radcol/check.h"
#include "radcol/solve.h"

#include "test_lq.h"
#include "test_util.h"

/* ---- toy problem -------------------------------------------------------- */
/* w = (x1, x2, y, u, p); F = (f1, f2, g, c, L); z = (x1a, x2a, x1b, x2b, p, tf)
 */
static const char *const toy_names[] = {"x1", "x2", "y", "u", "p"};
/* x1 and u bounded on both sides, y from above only, x2 and p free: every
 * kind of dense-bound row (state, algebraic, control; one- and two-sided). */
static const double toy_lo[] = {-5, -HUGE_VAL, -HUGE_VAL, -2, -HUGE_VAL};
static const double toy_hi[] = {5, HUGE_VAL, 10, 2, HUGE_VAL};
static const double toy_clo[] = {-10}, toy_chi[] = {10};
static const double toy_blo[] = {-10}, toy_bhi[] = {10};
static const double toy_x0[] = {0.3, -0.2};
static const int toy_fix0[] = {1, 0};

static const int jf_row[] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4};
static const int jf_col[] = {1, 3, 4, 0, 2, 3, 0, 1, 2, 0, 3, 0, 1, 3};
static int toy_F(const rc_problem *pb, double t, const double *w, double *F) {
  (void)pb;
  (void)t;
  F[0] = w[4] * w[1] + w[3];
  F[1] = -sin(w[0]) + w[2] * w[3];
  F[2] = w[2] - w[0] * w[0] - w[1];
  F[3] = w[0] * w[3];
  F[4] = w[3] * w[3] + w[0] * w[1];
  return 0;
}
static int toy_JF(const rc_problem *pb, double t, const double *w, double *v) {
  (void)pb;
  (void)t;
  v[0] = w[4]; /* df1/dx2 */
  v[1] = 1;    /* df1/du */
  v[2] = w[1]; /* df1/dp */
  v[3] = -cos(w[0]);
  v[4] = w[3];
  v[5] = w[2];
  v[6] = -2 * w[0];
  v[7] = -1;
  v[8] = 1;
  v[9] = w[3];
  v[10] = w[0];
  v[11] = w[1];
  v[12] = w[0];
  v[13] = 2 * w[3];
  return 0;
}
/* lower triangle: (1,0) x2x1, (3,0) ux1, (3,2) uy, (3,3) uu, (4,1) px2, (0,0)
 */
static const int hf_row[] = {0, 1, 3, 3, 3, 4};
static const int hf_col[] = {0, 0, 0, 2, 3, 1};
static int toy_HF(const rc_problem *pb, double t, const double *w,
                  const double *mu, double *v) {
  (void)pb;
  (void)t;
  v[0] = mu[1] * sin(w[0]) - 2 * mu[2];
  v[1] = mu[4];
  v[2] = mu[3];
  v[3] = mu[1];
  v[4] = 2 * mu[4];
  v[5] = mu[0];
  return 0;
}
static const int jb_row[] = {0, 0, 0, 1, 1, 1, 1};
static const int jb_col[] = {1, 2, 4, 2, 3, 4, 5};
static int toy_B(const rc_problem *pb, double t, const double *z, double *B) {
  (void)pb;
  (void)t;
  B[0] = z[2] * z[1] + z[4] * z[4];
  B[1] = z[5] * z[2] + z[4] * z[3] * z[3];
  return 0;
}
static int toy_JB(const rc_problem *pb, double t, const double *z, double *v) {
  (void)pb;
  (void)t;
  v[0] = z[2];
  v[1] = z[1];
  v[2] = 2 * z[4];
  v[3] = z[5];
  v[4] = 2 * z[4] * z[3];
  v[5] = z[3] * z[3];
  v[6] = z[2];
  return 0;
}
/* (2,1) x1b x2a, (4,4) pp, (3,3) x2b x2b, (4,3) p x2b, (5,2) tf x1b */
static const int hb_row[] = {2, 4, 3, 4, 5};
static const int hb_col[] = {1, 4, 3, 3, 2};
static int toy_HB(const rc_problem *pb, double t, const double *z,
                  const double *mu, double *v) {
  (void)pb;
  (void)t;
  v[0] = mu[0];
  v[1] = 2 * mu[0];
  v[2] = 2 * mu[1] * z[4];
  v[3] = 2 * mu[1] * z[3];
  v[4] = mu[1];
  return 0;
}
static int toy_guess(const rc_problem *pb, double t, double *w) {
  (void)pb;
  w[0] = 0.3 + 0.1 * t;
  w[1] = -0.2 + 0.05 * t * t;
  w[2] = w[0] * w[0] + w[1];
  w[3] = 0.5 - 0.2 * t;
  w[4] = 0.7;
  return 0;
}

static rc_problem toy_problem(int t0_alg, int free_tf) {
  rc_problem pb;
  memset(&pb, 0, sizeof pb);
  pb.model = "toy";
  pb.formulation = "all-features";
  pb.nx = 2, pb.ny = 1, pb.nu = 1, pb.np = 1, pb.nc = 1, pb.nb = 1;
  pb.has_lagrange = 1, pb.has_mayer = 1, pb.autonomous = 1;
  pb.var_names = toy_names;
  pb.w_lo = toy_lo, pb.w_hi = toy_hi;
  pb.c_lo = toy_clo, pb.c_hi = toy_chi, pb.b_lo = toy_blo, pb.b_hi = toy_bhi;
  pb.t0 = 0.0, pb.tf = 1.3;
  pb.free_tf = free_tf, pb.tf_lo = 0.5, pb.tf_hi = 3;
  pb.x0 = toy_x0, pb.fix_x0 = toy_fix0;
  pb.t0_algebraic = t0_alg;
  pb.point = (rc_block){
      5, {14, jf_row, jf_col}, {6, hf_row, hf_col}, toy_F, toy_JF, toy_HF};
  pb.boundary = (rc_block){
      2, {7, jb_row, jb_col}, {5, hb_row, hb_col}, toy_B, toy_JB, toy_HB};
  pb.guess = toy_guess;
  return pb;
}

/* The Bernstein rows of nlp at x mean what transcription.h says: for each
 * element k and bounded entry i, the row values plus the end coefficients
 * (the element's first and last node values; y, u in element 0 without t0
 * variables: the last stage value) are the Bernstein coefficients of the
 * dense output, so sum_m beta_m B_m(theta) equals rc_solution_eval at
 * t = tau_k + theta h_k.  Also: the row count matches
 * rc_nlp_count (its nnz bound the pattern's), and every row of element k lies
 * after the rows of its last stage and before the rows of element k + 1 (time
 * order). */
static void check_bernstein_rows(const rc_problem *pb, rc_nlp *nlp,
                                 const double *x, int dense_bounds) {
  rc_error err;
  rc_nlp_counts sz;
  rc_nlp_count(pb, nlp->mesh, dense_bounds, &sz);
  EXPECT(sz.nvars == nlp->nvar && sz.ncons == nlp->ncon,
         "rc_nlp_count %ld x %ld, NLP %d x %d", sz.nvars, sz.ncons, nlp->nvar,
         nlp->ncon);
  /* nnz: contributions before duplicates merge (rc_nlp_create allocates
   * exactly these), never fewer than the merged pattern entries */
  EXPECT(sz.nnz_jac >= nlp->nnz_jac && sz.nnz_hes >= nlp->nnz_hes &&
             nlp->nnz_jac > 0,
         "rc_nlp_count nnz %ld / %ld, NLP pattern %d / %d", sz.nnz_jac,
         sz.nnz_hes, nlp->nnz_jac, nlp->nnz_hes);
  EXPECT(nlp->nbnd == (dense_bounds ? 3 : 0), "bounded entries %d", nlp->nbnd);
  if (!dense_bounds)
    return;
  double *g = calloc((size_t)nlp->ncon, sizeof *g);
  rc_solution sol;
  EXPECT(rc_solution_alloc(pb, nlp->mesh, pb->t0, rc_nlp_tf(nlp, x), 0, &sol,
                           &err) == RC_OK,
         "alloc");
  rc_nlp_to_solution(nlp, x, NULL, NULL, NULL, &sol);
  rc_nlp_constraints(nlp, x, g);
  const int nw = nlp->nw;
  double w[8];
  double worst = 0.0;
  for (int k = 0; k < nlp->mesh->n; ++k) {
    const int s = nlp->mesh->stages[k];
    const int last = nlp->elem_first[k] + s - 1;
    if (s > 1)
      EXPECT(nlp->dense_off[k] >=
                     nlp->con_off[last] + nlp->nx + nlp->ny + pb->nc &&
                 (k + 1 == nlp->mesh->n ||
                  nlp->dense_off[k] + (s - 1) * nlp->nbnd <=
                      nlp->con_off[last + 1]),
             "element %d: dense rows at %d not between its last stage and "
             "the next element",
             k, nlp->dense_off[k]);
    const double ta = sol.t[nlp->elem_first[k] - 1], tb = sol.t[last];
    for (int b = 0; b < nlp->nbnd; ++b) {
      const int i = nlp->bnd_idx[b];
      /* y, u have the state shape except in element 0 without t0
       * variables (there node 0 is the stage extrapolation) */
      const int st = i < nlp->nx || k > 0 || nlp->yu_off[0] >= 0;
      const int deg = st ? s : s - 1;
      double beta[32];
      const double *rows = g + nlp->dense_off[k] + b * (s - 1);
      if (st) {
        beta[0] = sol.w[(size_t)(nlp->elem_first[k] - 1) * nw + i];
        for (int m = 1; m < s; ++m)
          beta[m] = rows[m - 1];
        beta[s] = sol.w[(size_t)last * nw + i];
      } else {
        for (int m = 0; m < s - 1; ++m)
          beta[m] = rows[m];
        beta[s - 1] = sol.w[(size_t)last * nw + i];
      }
      for (int q = 0; q <= 6; ++q) {
        const double th = q / 6.0 * 0.999 + 0.0005;
        double bern = 0.0, binom = 1.0;
        for (int m = 0; m <= deg; ++m) {
          bern += beta[m] * binom * pow(th, m) * pow(1 - th, deg - m);
          binom = binom * (deg - m) / (m + 1);
        }
        rc_solution_eval(&sol, ta + th * (tb - ta), w, NULL);
        const double e = fabs(bern - w[i]) / (1 + fabs(w[i]));
        worst = fmax(worst, e);
        /* the Lagrange -> Bernstein conversion loses about 2^s in rounding */
        EXPECT(e < 1e-14 * ldexp(1.0, s),
               "element %d entry %d theta %.3f: Bernstein form %.15g, dense "
               "output %.15g",
               k, i, th, bern, w[i]);
      }
    }
  }
  printf("  Bernstein rows reproduce the dense output to %.1e\n", worst);
  rc_solution_free(&sol);
  free(g);
}

/* The Bernstein rows for high stage counts (conditioning of the conversion):
 * the toy problem on 2 elements of s stages at a perturbed guess. */
static void check_bernstein_high(int s) {
  rc_problem pb = toy_problem(0, 0);
  rc_error err;
  rc_mesh mesh;
  EXPECT(rc_mesh_uniform(2, s, &mesh, &err) == RC_OK, "mesh");
  rc_nlp *nlp;
  EXPECT(rc_nlp_create(&pb, &mesh, 1, &nlp, &err) == RC_OK, "create: %s",
         err.message);
  double *x = calloc((size_t)nlp->nvar, sizeof *x);
  rc_nlp_default_guess(nlp, x, &err);
  for (int i = 0; i < nlp->nvar; ++i)
    x[i] += 0.3 * sin(3.7 * i);
  printf("s = %d:", s);
  check_bernstein_rows(&pb, nlp, x, 1);
  free(x);
  rc_nlp_free(&nlp);
  rc_mesh_free(&mesh);
}

/* Lagrangian gradient sigma grad f + J^T lambda at x. */
static void lag_grad(rc_nlp *nlp, const double *x, double sigma,
                     const double *lam, double *out, double *jv, double *tmp) {
  rc_nlp_gradient(nlp, x, tmp);
  for (int i = 0; i < nlp->nvar; ++i)
    out[i] = sigma * tmp[i];
  rc_nlp_jacobian(nlp, x, jv);
  for (int e = 0; e < nlp->nnz_jac; ++e)
    out[nlp->jac_col[e]] += jv[e] * lam[nlp->jac_row[e]];
}

static void check_assembly(int t0_alg, int free_tf, int dense_bounds) {
  rc_problem pb = toy_problem(t0_alg, free_tf);
  rc_error err;
  EXPECT(rc_problem_validate(&pb, &err) == RC_OK, "toy invalid: %s",
         err.message);
  rc_check_options co;
  rc_check_options_default(&co);
  rc_check_report rep;
  EXPECT(rc_check_problem(&pb, &co, &rep, &err) == RC_OK && rep.nfailures == 0,
         "toy problem's own derivatives fail the checker (%d failures)",
         rep.nfailures);
  const double frac[] = {0, 0.3, 0.55, 1};
  const int stages[] = {1, 3, 2};
  rc_mesh mesh;
  EXPECT(rc_mesh_from_arrays(3, frac, stages, &mesh, &err) == RC_OK, "mesh");
  rc_nlp *nlp;
  EXPECT(rc_nlp_create(&pb, &mesh, dense_bounds, &nlp, &err) == RC_OK,
         "create: %s", err.message);
  const int nv = nlp->nvar, nc = nlp->ncon;
  double *x = calloc(nv, sizeof *x), *xp = calloc(nv, sizeof *xp);
  double *gp = calloc(nc, sizeof *gp), *gm = calloc(nc, sizeof *gm);
  double *jv = calloc(nlp->nnz_jac, sizeof *jv),
         *hv = calloc(nlp->nnz_hes, sizeof *hv);
  double *lam = calloc(nc, sizeof *lam);
  double *Jd = calloc((size_t)nv * nc, sizeof *Jd),
         *Hd = calloc((size_t)nv * nv, sizeof *Hd);
  double *lp = calloc(nv, sizeof *lp), *lm = calloc(nv, sizeof *lm),
         *tmp = calloc(nv, sizeof *tmp);
  double *jw = calloc(nlp->nnz_jac, sizeof *jw);
  rc_nlp_default_guess(nlp, x, &err);
  unsigned long long seed = 88172645463325252ULL;
  for (int i = 0; i < nv; ++i) {
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    x[i] += 0.05 * ((double)(seed % 10000) / 5000.0 - 1.0);
  }
  for (int i = 0; i < nc; ++i) {
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    lam[i] = (double)(seed % 10000) / 5000.0 - 1.0;
  }
  /* structure: lower triangle, unique */
  for (int e = 0; e < nlp->nnz_hes; ++e)
    EXPECT(nlp->hes_row[e] >= nlp->hes_col[e], "Hessian entry above diagonal");
  rc_nlp_jacobian(nlp, x, jv);
  for (int e = 0; e < nlp->nnz_jac; ++e)
    Jd[(size_t)nlp->jac_row[e] * nv + nlp->jac_col[e]] += jv[e];
  const double sig = 0.7;
  rc_nlp_hessian(nlp, x, sig, lam, hv);
  for (int e = 0; e < nlp->nnz_hes; ++e)
    Hd[(size_t)nlp->hes_row[e] * nv + nlp->hes_col[e]] += hv[e];
  double worst_j = 0, worst_h = 0;
  for (int v = 0; v < nv; ++v) {
    const double h = 1e-6 * (1 + fabs(x[v]));
    memcpy(xp, x, sizeof *x * nv);
    xp[v] = x[v] + h;
    rc_nlp_constraints(nlp, xp, gp);
    lag_grad(nlp, xp, sig, lam, lp, jw, tmp);
    xp[v] = x[v] - h;
    rc_nlp_constraints(nlp, xp, gm);
    lag_grad(nlp, xp, sig, lam, lm, jw, tmp);
    for (int r = 0; r < nc; ++r) {
      const double fd = (gp[r] - gm[r]) / (2 * h);
      const double e = fabs(fd - Jd[(size_t)r * nv + v]) / (1 + fabs(fd));
      if (e > worst_j)
        worst_j = e;
      EXPECT(e < 1e-6,
             "t0_alg=%d free_tf=%d: Jacobian (%d,%d) fd %.10g got %.10g",
             t0_alg, free_tf, r, v, fd, Jd[(size_t)r * nv + v]);
    }
    for (int r = v; r < nv; ++r) {
      const double fd = (lp[r] - lm[r]) / (2 * h);
      const double e = fabs(fd - Hd[(size_t)r * nv + v]) / (1 + fabs(fd));
      if (e > worst_h)
        worst_h = e;
      EXPECT(e < 1e-6,
             "t0_alg=%d free_tf=%d: Hessian (%d,%d) fd %.10g got %.10g", t0_alg,
             free_tf, r, v, fd, Hd[(size_t)r * nv + v]);
    }
  }
  /* objective gradient */
  double fp, fm;
  rc_nlp_gradient(nlp, x, tmp);
  for (int v = 0; v < nv; ++v) {
    const double h = 1e-6 * (1 + fabs(x[v]));
    memcpy(xp, x, sizeof *x * nv);
    xp[v] = x[v] + h;
    rc_nlp_objective(nlp, xp, &fp);
    xp[v] = x[v] - h;
    rc_nlp_objective(nlp, xp, &fm);
    const double fd = (fp - fm) / (2 * h);
    EXPECT(fabs(fd - tmp[v]) < 1e-6 * (1 + fabs(fd)),
           "gradient %d: fd %g got %g", v, fd, tmp[v]);
  }
  /* With caching on (as during a solve), every function gives bit-identical
   * values along a sequence of points announced by rc_nlp_new_point (so a
   * missing invalidation would serve the previous point's values). */
  {
    enum { NREP = 3 };
    const size_t sz = sizeof(double);
    double f1[NREP], f2;
    double *g1 = calloc((size_t)NREP * nc, sz), *g2 = calloc(nc, sz);
    double *j1 = calloc((size_t)NREP * nlp->nnz_jac, sz),
           *j2 = calloc(nlp->nnz_jac, sz);
    double *h1 = calloc((size_t)NREP * nlp->nnz_hes, sz),
           *h2 = calloc(nlp->nnz_hes, sz);
    double *d1 = calloc((size_t)NREP * nv, sz), *d2 = calloc(nv, sz);
    double *xs = calloc((size_t)NREP * nv, sz);
    for (int rep = 0; rep < NREP; ++rep)
      for (int i = 0; i < nv; ++i)
        xs[rep * nv + i] = x[i] + 0.01 * (rep + 1) * sin(1.0 + i);
    rc_nlp_set_caching(nlp, 0);
    for (int rep = 0; rep < NREP; ++rep) {
      const double *xr = xs + rep * nv;
      rc_nlp_objective(nlp, xr, &f1[rep]);
      rc_nlp_constraints(nlp, xr, g1 + rep * nc);
      rc_nlp_gradient(nlp, xr, d1 + rep * nv);
      rc_nlp_jacobian(nlp, xr, j1 + rep * nlp->nnz_jac);
      rc_nlp_hessian(nlp, xr, sig, lam, h1 + rep * nlp->nnz_hes);
    }
    rc_nlp_set_caching(nlp, 1);
    int same = nlp->caching;
    for (int rep = 0; rep < NREP; ++rep) {
      const double *xr = xs + rep * nv;
      rc_nlp_new_point(nlp);
      /* Ipopt's order: f, g, then the derivatives at the same x */
      rc_nlp_objective(nlp, xr, &f2);
      rc_nlp_constraints(nlp, xr, g2);
      rc_nlp_gradient(nlp, xr, d2);
      rc_nlp_jacobian(nlp, xr, j2);
      rc_nlp_hessian(nlp, xr, sig, lam, h2);
      same = same && f1[rep] == f2 && !memcmp(g1 + rep * nc, g2, sz * nc) &&
             !memcmp(d1 + rep * nv, d2, sz * nv) &&
             !memcmp(j1 + rep * nlp->nnz_jac, j2, sz * nlp->nnz_jac) &&
             !memcmp(h1 + rep * nlp->nnz_hes, h2, sz * nlp->nnz_hes);
    }
    rc_nlp_set_caching(nlp, 0);
    EXPECT(same,
           "t0_alg=%d free_tf=%d: cached evaluations differ from uncached",
           t0_alg, free_tf);
    free(g1), free(g2), free(j1), free(j2), free(h1), free(h2), free(d1),
        free(d2);
    free(xs);
  }
  check_bernstein_rows(&pb, nlp, x, dense_bounds);
  printf("assembly t0_alg=%d free_tf=%d dense_bounds=%d: nvar %d ncon %d "
         "nnz_jac %d nnz_hes %d, max rel err J %.2e H %.2e\n",
         t0_alg, free_tf, dense_bounds, nv, nc, nlp->nnz_jac, nlp->nnz_hes,
         worst_j, worst_h);
  free(x), free(xp), free(gp), free(gm), free(jv), free(hv), free(lam),
      free(Jd);
  free(Hd), free(lp), free(lm), free(tmp), free(jw);
  rc_nlp_free(&nlp);
  rc_mesh_free(&mesh);
}

/* ---- x' = -x ------------------------------------------------------------- */
static const char *const decay_names[] = {"x"};
static const double decay_lo[] = {-HUGE_VAL}, decay_hi[] = {HUGE_VAL};
static const double decay_x0[] = {1.0};
static const int decay_fix[] = {1};
static const int d_jr[] = {0}, d_jc[] = {0};
static int decay_F(const rc_problem *pb, double t, const double *w, double *F) {
  (void)pb, (void)t;
  F[0] = -w[0];
  return 0;
}
static int decay_J(const rc_problem *pb, double t, const double *w, double *v) {
  (void)pb, (void)t, (void)w;
  v[0] = -1;
  return 0;
}
static int decay_H(const rc_problem *pb, double t, const double *w,
                   const double *mu, double *v) {
  (void)pb, (void)t, (void)w, (void)mu, (void)v;
  return 0;
}
static int no_B(const rc_problem *pb, double t, const double *z, double *B) {
  (void)pb, (void)t, (void)z, (void)B;
  return 0;
}

static double decay_error(int n, int s) {
  rc_problem pb;
  memset(&pb, 0, sizeof pb);
  pb.model = "decay", pb.formulation = "ode";
  pb.nx = 1, pb.autonomous = 1, pb.var_names = decay_names;
  pb.w_lo = decay_lo, pb.w_hi = decay_hi, pb.t0 = 0, pb.tf = 1;
  pb.x0 = decay_x0, pb.fix_x0 = decay_fix;
  pb.point = (rc_block){1,       {1, d_jr, d_jc}, {0, NULL, NULL},
                        decay_F, decay_J,         decay_H};
  pb.boundary =
      (rc_block){0, {0, NULL, NULL}, {0, NULL, NULL}, no_B, NULL, NULL};
  rc_mesh mesh;
  rc_error err;
  rc_mesh_uniform(n, s, &mesh, &err);
  rc_options opt;
  rc_options_default(&opt);
  opt.tol = 1e-14;
  rc_solution sol;
  rc_solve_stats st;
  if (rc_solve(&pb, &mesh, &opt, NULL, &sol, &st, &err) != RC_OK) {
    printf("decay solve failed: %s\n", err.message);
    failures++;
    rc_mesh_free(&mesh);
    return NAN;
  }
  EXPECT(st.status == RC_STATUS_CONVERGED, "decay n=%d s=%d: %s", n, s,
         st.message);
  const double e = fabs(sol.w[sol.nnodes - 1] - exp(-1.0));
  rc_solution_free(&sol);
  rc_mesh_free(&mesh);
  return e;
}

/* ---- LQ optimal control ---------------------------------------------------
 */
static const double lq_lo[] = {-HUGE_VAL, -HUGE_VAL},
                    lq_hi[] = {HUGE_VAL, HUGE_VAL};

static void check_lq(void) {
  rc_problem pb;
  memset(&pb, 0, sizeof pb);
  pb.model = "lq", pb.formulation = "ocp";
  pb.nx = 1, pb.nu = 1, pb.has_lagrange = 1, pb.autonomous = 1;
  pb.var_names = lq_names, pb.w_lo = lq_lo, pb.w_hi = lq_hi;
  pb.t0 = 0, pb.tf = 1, pb.x0 = decay_x0, pb.fix_x0 = decay_fix;
  pb.point = lq_block();
  pb.boundary =
      (rc_block){0, {0, NULL, NULL}, {0, NULL, NULL}, no_B, NULL, NULL};
  rc_mesh mesh;
  rc_error err;
  rc_mesh_uniform(10, 4, &mesh, &err);
  rc_options opt;
  rc_options_default(&opt);
  rc_solution sol;
  rc_solve_stats st;
  EXPECT(rc_solve(&pb, &mesh, &opt, NULL, &sol, &st, &err) == RC_OK, "lq: %s",
         err.message);
  const double J = 0.5 * tanh(1.0);
  EXPECT(fabs(st.objective - J) < 1e-10, "lq objective %.15g, analytic %.15g",
         st.objective, J);
  double emax = 0;
  for (int n = 0; n < sol.nnodes; ++n)
    emax = fmax(emax, fabs(sol.w[2 * n] - cosh(1 - sol.t[n]) / cosh(1.0)));
  EXPECT(emax < 1e-8, "lq state error %g", emax);
  /* costate: with the NLP Lagrangian J + sum lambda (D X - h f), stationarity
   * in u gives h b_j u - lambda h = 0, so the density lambda / b_j equals u
   * (Pontryagin: H = L - p u with p = u). */
  double cmax = 0;
  for (int n = 1; n < sol.nnodes; ++n)
    cmax = fmax(cmax, fabs(sol.lam_f[n] - sol.w[2 * n + 1]));
  EXPECT(cmax < 1e-6, "lq costate density vs u: %g", cmax);
  printf("lq: objective error %.2e, state error %.2e, costate error %.2e, %d "
         "iterations\n",
         fabs(st.objective - J), emax, cmax, st.iterations);
  rc_solution_free(&sol);
  rc_mesh_free(&mesh);
}

/* The same LQ problem written as a maximisation (ABI 3, maximize = 1):
 * maximise the integral of -(x^2 + u^2) / 2.  The solution is the LQ one, the
 * objective reported is the maximised value -tanh(1)/2, and the multipliers
 * are those of the problem as defined: stationarity of
 * -L + sum lambda (D X - h f) in u gives lambda / b_j = -u. */
static int lqmax_F(const rc_problem *pb, double t, const double *w, double *F) {
  const int st = lq_F(pb, t, w, F);
  F[1] = -F[1];
  return st;
}
static int lqmax_J(const rc_problem *pb, double t, const double *w, double *v) {
  const int st = lq_J(pb, t, w, v);
  v[1] = -v[1], v[2] = -v[2];
  return st;
}
static int lqmax_H(const rc_problem *pb, double t, const double *w,
                   const double *mu, double *v) {
  const int st = lq_H(pb, t, w, mu, v);
  v[0] = -v[0], v[1] = -v[1];
  return st;
}

static void check_lq_maximize(void) {
  rc_problem pb;
  memset(&pb, 0, sizeof pb);
  pb.model = "lq", pb.formulation = "max";
  pb.nx = 1, pb.nu = 1, pb.has_lagrange = 1, pb.autonomous = 1;
  pb.maximize = 1;
  pb.var_names = lq_names, pb.w_lo = lq_lo, pb.w_hi = lq_hi;
  pb.t0 = 0, pb.tf = 1, pb.x0 = decay_x0, pb.fix_x0 = decay_fix;
  pb.point = lq_block();
  pb.point.eval = lqmax_F, pb.point.jacobian = lqmax_J;
  pb.point.hessian = lqmax_H;
  pb.boundary =
      (rc_block){0, {0, NULL, NULL}, {0, NULL, NULL}, no_B, NULL, NULL};
  rc_mesh mesh;
  rc_error err;
  rc_mesh_uniform(10, 4, &mesh, &err);
  rc_options opt;
  rc_options_default(&opt);
  rc_solution sol;
  rc_solve_stats st;
  EXPECT(rc_solve(&pb, &mesh, &opt, NULL, &sol, &st, &err) == RC_OK,
         "lq max: %s", err.message);
  const double J = -0.5 * tanh(1.0);
  EXPECT(st.status == RC_STATUS_CONVERGED, "lq max: status %s",
         rc_status_name(st.status));
  EXPECT(fabs(st.objective - J) < 1e-10,
         "lq max objective %.15g, analytic %.15g", st.objective, J);
  double emax = 0, cmax = 0;
  for (int n = 0; n < sol.nnodes; ++n)
    emax = fmax(emax, fabs(sol.w[2 * n] - cosh(1 - sol.t[n]) / cosh(1.0)));
  for (int n = 1; n < sol.nnodes; ++n)
    cmax = fmax(cmax, fabs(sol.lam_f[n] + sol.w[2 * n + 1]));
  EXPECT(emax < 1e-8, "lq max state error %g", emax);
  EXPECT(cmax < 1e-6, "lq max costate density vs -u: %g", cmax);
  printf("lq max: objective %.15g (analytic %.15g), state error %.2e, costate "
         "error %.2e\n",
         st.objective, J, emax, cmax);
  rc_solution_free(&sol);
  /* maximize must be 0 or 1, and needs an objective */
  pb.maximize = 2;
  EXPECT(rc_solve(&pb, &mesh, &opt, NULL, &sol, &st, &err) == RC_ERR_INPUT &&
             strstr(err.message, "maximize = 2"),
         "maximize = 2 refused: %s", err.message);
  pb.maximize = 1, pb.has_lagrange = 0;
  EXPECT(rc_solve(&pb, &mesh, &opt, NULL, &sol, &st, &err) == RC_ERR_INPUT &&
             strstr(err.message, "no objective"),
         "maximize without objective refused: %s", err.message);
  rc_mesh_free(&mesh);
}

/* The --json status strings of the foundation issue come from the X-macro
 * tables; every code has a distinct name and an unknown code is named so. */
static void check_names(void) {
  const rc_status st[] = {RC_STATUS_CONVERGED, RC_STATUS_ACCEPTABLE,
                          RC_STATUS_MAX_ITER, RC_STATUS_INFEASIBLE,
                          RC_STATUS_FAILED};
  const char *want[] = {"converged", "acceptable", "max_iter", "infeasible",
                        "failed"};
  for (int i = 0; i < 5; ++i)
    EXPECT(strcmp(rc_status_name(st[i]), want[i]) == 0, "status %d is named %s",
           (int)st[i], rc_status_name(st[i]));
  EXPECT(strcmp(rc_err_name(RC_ERR_IO), "io") == 0, "RC_ERR_IO name");
  EXPECT(strcmp(rc_status_name((rc_status)99), "unknown") == 0,
         "unknown status");
  EXPECT(strcmp(rc_err_message((rc_err)99), "unknown error") == 0,
         "unknown error");
}

int main(void) {
  check_names();
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      for (int d = 0; d < 2; ++d)
        check_assembly(a, b, d);
  for (int s = 1; s <= 4; ++s) {
    const double e1 = decay_error(4, s), e2 = decay_error(8, s);
    const double order = log(e1 / e2) / log(2.0);
    printf("decay s=%d: err(n=4) %.3e err(n=8) %.3e order %.2f (theory %d)\n",
           s, e1, e2, order, 2 * s - 1);
    if (e2 > 1e-13)
      EXPECT(fabs(order - (2 * s - 1)) < 0.3, "order %.2f for s=%d", order, s);
  }
  for (int s = 4; s <= RC_MAX_STAGES; s += 4)
    check_bernstein_high(s);
  check_lq();
  check_lq_maximize();
  if (failures)
    printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
