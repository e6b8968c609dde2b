/*
 * march.c - the adaptive Radau IIA march of a square system and the robust
 * fixed-mesh pass (radcol/march.h).
 *
 * The march (Hairer and Wanner II, IV.8, RADAU5's step control, for any odd
 * number of stages s).  From (t, q0 = (x0, a0), f0 = F(t, q0)) with step h:
 *   1. J at (t, q0) when asked (after a step with theta > 0.001, or a
 *      rejection with a stale J); the transformed factors when J or h
 *      changed (radau_step.h);
 *   2. predictor: the last accepted step's collocation polynomials
 *      extrapolated (x degree s, a degree s - 1), or q0 held constant;
 *   3. simplified Newton with weights sc_i = (atol_i + rtol |q0_i|) /
 *      h^(k_i - 1) (RMS norm), fnewt = max(10 eps / rtol, min(0.03,
 *      sqrt(rtol))), at most max(7, s + 4) iterations; a failure shrinks h
 *      (by Newton's prediction, or by 2) and repeats the step;
 *   4. err = the embedded estimate in max_i |err_i| / sc_i (the improved
 *      one after a rejection or in the first step);
 *   5. fac = min(0.9, 0.9 (2 maxit + 1) / (2 maxit + iterations)),
 *      quot = clip(err^(1/(s+1)) / fac, 1/8, 5), hnew = h / quot, and after
 *      an accepted step the predictive (Gustafsson) factor
 *      (hacc / h) (err^2 / erracc)^(1/(s+1)) / 0.9 when it is larger;
 *   6. err < 1 accepts (no increase right after a rejection); h is kept,
 *      with its J and factors, when theta <= 0.001 and 1 <= hnew/h <= 1.2.
 *      The first rejection divides h by 10.
 * The last step ends at tf exactly; a remainder below 1.9 h is split in
 * two equal steps, one below 1.0001 h is taken whole.  The march fails
 * (status failed, the time in the message) when h falls below
 * 10 eps max(|t|, tf - t0), after 5 singular matrices in a row, when a
 * problem function fails at an accepted point, or at the step limit.
 *
 * Tolerances: rtol_loc = 0.1 rtol^((s+1)/(2s-1)), atol_loc,i = atol_i
 * rtol_loc / rtol (radcol/march.h says why).
 *
 * Node 0: x0; y, u from the algebraic equations at t0 by Newton where they
 * determine them (every algebraic unknown of index 1, or the formulation
 * imposes them at t0), else the guess for f0 and, in the result, the
 * first step's stage polynomial extrapolated (as newton.c reports them).
 *
 * The fixed-mesh pass (rc_march_mesh): per element, the predictor (guess's
 * dense output, else the previous element extrapolated), then
 *   a. the transformed factors (reused while the element length is within
 *      20 % of theirs), max norm, allow_first 1;
 *   b. failing that, the full Newton matrix at the predictor's stages,
 *      refreshed up to 3 times at the current iterate while it is slow;
 *   c. failing that, a march across the element (rtol 1e-8 relative) as the
 *      predictor, then b again.
 * Weights sc_i = newton_tol (atol_i / rtol + |q0_i|), the rounding floor
 * 1e3 eps (atol_i / rtol + |q0_i|) / h^(k_i - 1).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/march.h"
#include "radcol/start.h"

#include "collocation/radau.h"
#include "core/dense_lu.h"
#include "core/timing.h"
#include "nlp/radau_step.h"
#include "nlp/square.h"
#include "nlp/var_index.h"

#define MARCH_SAFE 0.9
#define MARCH_FACL 5.0   /* quot <= 5: h shrinks at most 5 times a step */
#define MARCH_FACR 0.125 /* quot >= 1/8: h grows at most 8 times */
#define MARCH_THET 0.001 /* contraction above which J is re-evaluated */
#define MARCH_QUOT1 1.0
#define MARCH_QUOT2 1.2
#define MARCH_MAX_SINGULAR 5
/* The stored stages of the accepted steps are capped at 1 GiB. */
#define MARCH_MAX_BYTES (1024.0 * 1024.0 * 1024.0)

/* Barycentric weights of the collocation polynomials of s stages at nodes
 * c: bws on {0, c_1..c_s} (x, and a through the step start), bwc on
 * {c_1..c_s} (a through the stages). */
typedef struct poly_weights {
  int s;
  double tau[RC_RADAU_MAX_STAGES + 1], bws[RC_RADAU_MAX_STAGES + 1],
      bwc[RC_RADAU_MAX_STAGES];
} poly_weights;

static void poly_weights_init(int s, const double *c, poly_weights *pw) {
  pw->s = s;
  pw->tau[0] = 0.0;
  for (int j = 0; j < s; ++j)
    pw->tau[j + 1] = c[j];
  rc_bary_weights(s + 1, pw->tau, pw->bws);
  rc_bary_weights(s, c, pw->bwc);
}

int rc_march_default_stages(double rtol) {
  return rtol >= 1e-6 ? 5 : 7;
}

/* ---- one run: a march over [ta, tb] ------------------------------------ */

typedef struct march_run {
  const rc_problem *pb;
  int nx, na, nq, np, nw, nF, s;
  const rc_var_index *vi;
  rc_rstep *st;
  double rtol;     /* local */
  double *atol;    /* nq, local */
  double relax;    /* >= 1: the tolerances raised to the estimate's floor */
  poly_weights pw; /* of the run's s stages */
  int max_steps;
  /* state */
  double t;
  double *q0, *f0, *base, *scal, *floor, *pred;
  /* the previous accepted step, for the predictor */
  int have_prev;
  double hp;
  double *xps, *Qp;
  /* projection of a start onto the constraints on x (row_x rows) */
  int nproj;
  int *prow, *pperm;
  double *pG, *pS, *pr;
  /* accepted steps: tk[0..n], stage values Qs (n x s nq) */
  int n, cap;
  double *tk, *Qs;
  rc_march_info info;
  char why[256];
} march_run;

static void run_free(march_run *r) {
  free(r->atol);
  free(r->prow);
  free(r->pperm);
  free(r->pG);
  free(r->pS);
  free(r->pr);
  free(r->q0);
  free(r->f0);
  free(r->base);
  free(r->scal);
  free(r->floor);
  free(r->pred);
  free(r->xps);
  free(r->Qp);
  free(r->tk);
  free(r->Qs);
}

static int run_alloc(march_run *r) {
  const size_t nq = (size_t)r->nq, m = (size_t)r->s * nq;
  r->atol = calloc(nq + 1, sizeof(double));
  r->q0 = calloc(nq + 1, sizeof(double));
  r->f0 = calloc((size_t)r->nF + 1, sizeof(double));
  r->base = calloc(nq + 1, sizeof(double));
  r->scal = calloc(nq + 1, sizeof(double));
  r->floor = calloc(nq + 1, sizeof(double));
  r->pred = calloc(m + 1, sizeof(double));
  r->xps = calloc((size_t)r->nx + 1, sizeof(double));
  r->Qp = calloc(m + 1, sizeof(double));
  r->nproj = 0;
  if (r->vi->nhigh > 0)
    for (int k = 0; k < r->na; ++k)
      r->nproj += r->vi->row_x[k];
  const size_t np = (size_t)r->nproj;
  r->prow = malloc(sizeof *r->prow * (np + 1));
  r->pperm = malloc(sizeof *r->pperm * (np + 1));
  r->pG = malloc(sizeof *r->pG * (np * (size_t)r->nx + 1));
  r->pS = malloc(sizeof *r->pS * (np * np + 1));
  r->pr = malloc(sizeof *r->pr * (np + (size_t)r->nx + 1));
  if (!r->prow || !r->pperm || !r->pG || !r->pS || !r->pr)
    return 0;
  for (int k = 0, q = 0; k < r->na && r->nproj > 0; ++k)
    if (r->vi->row_x[k])
      r->prow[q++] = k;
  r->cap = 64;
  r->tk = malloc(sizeof *r->tk * (size_t)(r->cap + 1));
  r->Qs = malloc(sizeof *r->Qs * (size_t)r->cap * m);
  return r->atol && r->q0 && r->f0 && r->base && r->scal && r->floor &&
         r->pred && r->xps && r->Qp && r->tk && r->Qs;
}

/* The local tolerance of s stages for the user's rtol (radcol/march.h). */
static double local_rtol(double rtol, int s) {
  (void)s;
  return rtol;
}

/* A run of s stages on engine st from (t, q0) to the user's tolerances
 * (rtol, atol: nq values), converted to the local ones; 0 or -1 (memory,
 * or no tables for s). */
static int run_init(march_run *r, const rc_problem *pb, const rc_var_index *vi,
                    rc_rstep *st, int s, double rtol, const double *atol,
                    int max_steps, double t, const double *q0) {
  memset(r, 0, sizeof *r);
  r->pb = pb;
  r->nx = pb->nx;
  r->nq = pb->nx + pb->ny + pb->nu;
  r->na = r->nq - r->nx;
  r->np = pb->np;
  r->nw = rc_problem_nw(pb);
  r->nF = rc_problem_nF(pb);
  r->s = s;
  r->vi = vi;
  r->st = st;
  r->rtol = local_rtol(rtol, s);
  r->max_steps = max_steps;
  r->t = t;
  r->relax = 1.0;
  r->info.fail_t = NAN;
  if (!run_alloc(r) || rc_rstep_stages_init(st, s, NULL) != 0)
    return -1;
  poly_weights_init(s, rc_rstep_nodes(st, s), &r->pw);
  for (int i = 0; i < r->nq; ++i)
    r->atol[i] = atol[i] * r->rtol / rtol;
  memcpy(r->q0, q0, sizeof *q0 * (size_t)r->nq);
  return 0;
}

static int store_step(march_run *r, double t, double tend, const double *Q) {
  const size_t m = (size_t)r->s * (size_t)r->nq;
  if (r->n == r->cap) {
    const int cap = 2 * r->cap;
    if ((double)cap * (double)m * sizeof(double) > MARCH_MAX_BYTES)
      return -1;
    double *tk = realloc(r->tk, sizeof *tk * (size_t)(cap + 1));
    if (!tk)
      return -1;
    r->tk = tk;
    double *Qs = realloc(r->Qs, sizeof *Qs * (size_t)cap * m);
    if (!Qs)
      return -1;
    r->Qs = Qs;
    r->cap = cap;
  }
  r->tk[r->n] = t;
  r->tk[r->n + 1] = tend;
  memcpy(r->Qs + (size_t)r->n * m, Q, sizeof *Q * m);
  r->n++;
  return 0;
}

/* The collocation polynomials of a step (pw->s stages, start state xs,
 * stage values Qp) at theta = (t - start) / length into q: x of degree s
 * through the start and the stages, the algebraic unknowns of degree s - 1
 * through the stages (a0 NULL) or of degree s through the start's a0 and
 * the stages (the dense output of result.h). */
static void step_poly(int nx, int nq, const poly_weights *pw, const double *xs,
                      const double *a0, const double *Qp, double theta,
                      double *q) {
  const int sp = pw->s;
  double lx[RC_RADAU_MAX_STAGES + 1], ly[RC_RADAU_MAX_STAGES];
  rc_lagrange_basis(sp + 1, pw->tau, pw->bws, theta, lx);
  if (!a0)
    rc_lagrange_basis(sp, pw->tau + 1, pw->bwc, theta, ly);
  for (int i = 0; i < nx; ++i) {
    double v = lx[0] * xs[i];
    for (int l = 1; l <= sp; ++l)
      v += lx[l] * Qp[(size_t)(l - 1) * nq + i];
    q[i] = v;
  }
  for (int i = nx; i < nq; ++i) {
    double v = 0.0;
    if (a0) {
      v = lx[0] * a0[i - nx];
      for (int l = 1; l <= sp; ++l)
        v += lx[l] * Qp[(size_t)(l - 1) * nq + i];
    } else if (sp == 1) {
      v = Qp[i];
    } else {
      for (int l = 0; l < sp; ++l)
        v += ly[l] * Qp[(size_t)l * nq + i];
    }
    q[i] = v;
  }
}

/* The last accepted step extrapolated to the stages (nodes c) of a step of
 * length h into Q. */
static void extrapolate(const march_run *r, const double *c, double h,
                        double *Q) {
  for (int j = 0; j < r->s; ++j)
    step_poly(r->nx, r->nq, &r->pw, r->xps, NULL, r->Qp, 1.0 + c[j] * h / r->hp,
              Q + (size_t)j * r->nq);
}

static void set_base(march_run *r) {
  for (int i = 0; i < r->nq; ++i)
    r->base[i] = r->relax * (r->atol[i] + r->rtol * fabs(r->q0[i]));
}

static void set_scal(march_run *r, double h) {
  const double fl = 1e3 * DBL_EPSILON / r->rtol;
  for (int i = 0; i < r->nq; ++i) {
    const int k = r->vi->k[i];
    r->scal[i] = k == 1   ? r->base[i]
                 : k == 2 ? r->base[i] / h
                          : r->base[i] / (h * h);
    /* the rounding floor: 1e3 eps relative to the weight's own scale */
    r->floor[i] = fl * r->scal[i];
  }
}

static int fail(march_run *r, const char *fmt, double a, double b) {
  snprintf(r->why, sizeof r->why, fmt, a, b);
  r->info.fail_t = r->t;
  return -1;
}

/* The start x0 projected onto the constraints on x alone (the rows of
 * (g; c) without an algebraic unknown) when the problem has unknowns of
 * index 2 or 3: dx = -W G^T (G W G^T)^{-1} g(x0), G their x-columns of the
 * last J, W = diag(base_x^2).  A start off those constraints by delta forces
 * the next step's stages to jump by delta / h (velocities) and delta / h^2
 * (multipliers), and its error estimate then stays at about delta / atol
 * whatever h is (a chaotic two-link mechanism in index-3 form stalled with
 * a position constraint off by 2.6e-7, 0.03 of its weight, left by Newton).
 * Moves x0 and the last accepted step's last stage (the same node) and
 * returns 1 when the correction is above 1e-4 of the weights. */
static int project_start(march_run *r) {
  const int m = r->nproj, nx = r->nx, nq = r->nq;
  if (m == 0)
    return 0;
  const double *J = rc_rstep_J(r->st);
  for (int a = 0; a < m; ++a) {
    const double *Jr = J + (size_t)(nx + r->prow[a]) * nq;
    for (int i = 0; i < nx; ++i)
      r->pG[(size_t)a * nx + i] = Jr[i];
    r->pr[a] = r->f0[nx + r->prow[a]];
  }
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < m; ++b) {
      double acc = 0.0;
      for (int i = 0; i < nx; ++i)
        acc += r->pG[(size_t)a * nx + i] * r->base[i] * r->base[i] *
               r->pG[(size_t)b * nx + i];
      r->pS[(size_t)a * m + b] = acc;
    }
  if (rc_lu_solve_once(m, r->pS, r->pperm, r->pr, 1e-12) >= 0)
    return 0; /* dependent constraints at this point: leave the start */
  double *dx = r->pr + m, move = 0.0;
  for (int i = 0; i < nx; ++i) {
    double acc = 0.0;
    for (int a = 0; a < m; ++a)
      acc += r->pG[(size_t)a * nx + i] * r->pr[a];
    dx[i] = -r->base[i] * r->base[i] * acc;
    move = fmax(move, fabs(dx[i]) / r->base[i]);
  }
  if (!(move > 1e-4) || !isfinite(move))
    return 0;
  const size_t m_s = (size_t)r->s * (size_t)nq;
  double *last = r->Qs + (size_t)(r->n - 1) * m_s + (size_t)(r->s - 1) * nq;
  double *lastp = r->Qp + (size_t)(r->s - 1) * nq;
  for (int i = 0; i < nx; ++i) {
    r->q0[i] += dx[i];
    last[i] = r->q0[i];
    lastp[i] = r->q0[i];
  }
  return 1;
}

/* A first step length from the state and its derivative (weighted). */
static double initial_step(const march_run *r, double T) {
  double d0 = 0.0, d1 = 0.0;
  for (int i = 0; i < r->nx; ++i) {
    d0 = fmax(d0, fabs(r->q0[i]) / r->base[i]);
    d1 = fmax(d1, fabs(r->f0[i]) / r->base[i]);
  }
  double h =
      (d0 < 1e-5 || d1 < 1e-5 || !isfinite(d1)) ? 1e-6 * T : 0.01 * d0 / d1;
  h = fmin(h, 0.1 * T);
  return fmax(h, 1e-10 * T);
}

/* March from r->t (state r->q0) to tb.  0, or -1 with r->why. */
static int run_march(march_run *r, double tb) {
  const int s = r->s, nq = r->nq;
  const size_t m = (size_t)s * (size_t)nq;
  const double T = tb - r->t;
  int rc = rc_rstep_eval(r->st, r->t, r->q0, r->f0);
  if (rc != 0)
    return fail(r, "a problem function failed (status %g) at the start t = %g",
                (double)rc, r->t);
  set_base(r);
  double h = initial_step(r, T);
  const int maxit = s + 4 > 7 ? s + 4 : 7;
  const double fnewt =
      fmax(10 * DBL_EPSILON / r->rtol, fmin(0.03, sqrt(r->rtol)));
  const double *c = rc_rstep_nodes(r->st, s);
  double faccon = 1.0, hacc = 0.0, erracc = 1e-2, theta = 1.0;
  double hcap = INFINITY;         /* step length cap after Newton failures */
  double href = 0.0, erref = 0.0; /* reference for the rounding floor */
  int first = 1, reject = 0, caljac = 1, jac_fresh = 0, nsing = 0;
  r->info.h_min = INFINITY;
  r->info.h_max = 0.0;
  for (;;) {
    if (r->info.steps + r->info.rejected >= r->max_steps)
      return fail(r, "the step limit %g was reached at t = %g",
                  (double)r->max_steps, r->t);
    const double rem = tb - r->t;
    int last = 0;
    if (r->t + 1.0001 * h >= tb) {
      h = rem;
      last = 1;
    } else if (rem < 1.9 * h) {
      h = 0.5 * rem;
    }
    if (h < 10 * DBL_EPSILON * fmax(fabs(r->t), fabs(T)))
      return fail(r,
                  "the step length %g is too small at t = %g (Newton or "
                  "the error test keep failing)",
                  h, r->t);
    const double tend = last ? tb : r->t + h;
    rc_rstep_begin(r->st, s, r->t, h, tend, r->q0);
    if (caljac) {
      if ((rc = rc_rstep_jacobian(r->st, r->t, r->q0)) != 0)
        return fail(r,
                    "the Jacobian failed (status %g) at the accepted point "
                    "t = %g",
                    (double)rc, r->t);
      caljac = 0;
      jac_fresh = 1;
      r->info.jacobians++;
    }
    if (rc_rstep_factor_h(r->st) != h || jac_fresh == 1) {
      if (rc_rstep_factor(r->st) != 0) {
        if (++nsing >= MARCH_MAX_SINGULAR)
          return fail(r,
                      "the Newton matrix is singular %g times in a row at "
                      "t = %g",
                      (double)nsing, r->t);
        h *= 0.5;
        r->info.rejected++;
        reject = 1;
        continue;
      }
      nsing = 0;
      r->info.lu++;
      jac_fresh = 2; /* J fresh, factors made */
    }
    double *Q = rc_rstep_Q(r->st);
    if (r->have_prev) {
      extrapolate(r, c, h, Q);
    } else {
      for (int j = 0; j < s; ++j)
        memcpy(Q + (size_t)j * nq, r->q0, sizeof *Q * (size_t)nq);
    }
    set_scal(r, h);
    memcpy(r->pred, Q, sizeof *Q * m);
    rc_rstep_use_transformed(r->st);
    rc_rstep_newton nw = {.maxit = maxit,
                          .fnewt = fnewt,
                          .faccon = faccon,
                          .max_norm = 0,
                          .allow_first = 0,
                          .scal_floor = r->floor};
    rc_rstep_status ns = rc_rstep_solve(r->st, r->scal, &nw);
    if (ns != RC_RSTEP_CONVERGED && ns != RC_RSTEP_EVAL && jac_fresh) {
      /* J is the start's already: the stages' own Jacobians before a
       * shorter step (the Jacobian varies along the step) */
      memcpy(Q, r->pred, sizeof *Q * m);
      if (rc_rstep_factor_full(r->st) == 0) {
        r->info.lu++;
        r->info.full_newton++;
        rc_rstep_newton nf = nw;
        nf.faccon = 1.0;
        nf.allow_first = 1;
        ns = rc_rstep_solve(r->st, r->scal, &nf);
        nw = nf;
      }
    }
    if (ns != RC_RSTEP_CONVERGED) {
      r->info.newton_failures++;
      r->info.rejected++;
      hcap = fmin(hcap, 0.9 * h);
      h *= ns == RC_RSTEP_SLOW ? nw.hfac : 0.5;
      reject = 1;
      if (!jac_fresh)
        caljac = 1;
      continue;
    }
    faccon = nw.faccon;
    theta = nw.theta;
    double err = INFINITY;
    rc = rc_rstep_error(r->st, r->f0, r->q0, r->scal, 0, &err);
    if (rc == 0 && err >= 1.0 && (first || reject))
      rc = rc_rstep_error(r->st, r->f0, r->q0, r->scal, 1, &err);
    if (rc != 0)
      err = INFINITY; /* F failed near the start: a smaller step */
    /* The rounding floor of the estimate: err should fall like h^(s+1);
     * when h fell 100 times since the reference step but err fell less
     * than 10 times, err is rounding noise (an index-2 multiplier near 0
     * with atol 1e-11 gave err 0.3..1.5 for every h from 2e-3 to 1e-13,
     * and the predictive controller kept shrinking h) */
    if (isfinite(err) && err > 1e-2) {
      if (!(href > 0) || h > href) {
        href = h;
        erref = err;
      } else if (h < 1e-2 * href && err > 0.1 * erref) {
        r->relax *= fmax(4.0, 2.0 * err);
        r->info.rtol_raised = r->rtol * r->relax;
        set_base(r);
        set_scal(r, h);
        href = 0.0;
        err = 0.5; /* this step, at the raised tolerance */
      }
    }
    const double fac = fmin(MARCH_SAFE, MARCH_SAFE * (2 * maxit + 1) /
                                            (double)(2 * maxit + nw.iters));
    double quot =
        fmax(MARCH_FACR, fmin(MARCH_FACL, pow(err, 1.0 / (s + 1)) / fac));
    double hnew = h / quot;
    if (err < 1.0) {
      first = 0;
      if (r->info.steps >= 1) {
        double facgus =
            (hacc / h) * pow(err * err / erracc, 1.0 / (s + 1)) / MARCH_SAFE;
        facgus = fmax(MARCH_FACR, fmin(MARCH_FACL, facgus));
        quot = fmax(quot, facgus);
        hnew = h / quot;
      }
      hacc = h;
      erracc = fmax(1e-2, err);
      if (store_step(r, r->t, tend, Q) != 0)
        return fail(r,
                    "out of memory (or the 1 GiB cap on stored steps) after "
                    "%g steps at t = %g",
                    (double)r->info.steps, r->t);
      r->info.steps++;
      r->info.h_min = fmin(r->info.h_min, h);
      r->info.h_max = fmax(r->info.h_max, h);
      memcpy(r->xps, r->q0, sizeof *r->xps * (size_t)r->nx);
      memcpy(r->Qp, Q, sizeof *Q * m);
      r->hp = h;
      r->have_prev = 1;
      memcpy(r->q0, Q + (size_t)(s - 1) * nq, sizeof *Q * (size_t)nq);
      r->t = tend;
      if (last)
        return 0;
      if ((rc = rc_rstep_eval(r->st, r->t, r->q0, r->f0)) != 0 ||
          (project_start(r) &&
           (rc = rc_rstep_eval(r->st, r->t, r->q0, r->f0)) != 0))
        return fail(r,
                    "a problem function failed (status %g) at the accepted "
                    "point t = %g",
                    (double)rc, r->t);
      set_base(r);
      faccon = pow(fmax(faccon, DBL_EPSILON), 0.8);
      if (reject)
        hnew = fmin(hnew, h);
      /* below the length where Newton last failed, the cap relaxing by
       * 1.5 a step (the error test alone let h grow 6 times into a
       * Newton failure every third step on a stiff Baumgarte form) */
      hnew = fmin(hnew, hcap);
      hcap *= 1.5;
      reject = 0;
      jac_fresh = 0;
      const double qt = hnew / h;
      if (theta <= MARCH_THET && qt >= MARCH_QUOT1 && qt <= MARCH_QUOT2)
        continue; /* same h, J and factors */
      h = hnew;
      caljac = theta > MARCH_THET;
    } else {
      reject = 1;
      r->info.rejected++;
      h = first ? 0.1 * h : hnew;
      if (!jac_fresh)
        caljac = 1;
    }
  }
}

/* ---- set-up shared by the march and the mesh pass ---------------------- */

/* The guess's point vector at t (nw values). */
static int guess_at(const rc_problem *pb, const rc_solution *guess, double t,
                    double *w) {
  const int nw = rc_problem_nw(pb), nx = pb->nx;
  memset(w, 0, sizeof *w * (size_t)nw);
  if (guess) {
    const double tg = fmin(fmax(t, guess->t0), guess->tf);
    if (rc_solution_eval(guess, tg, w, NULL) != RC_OK)
      return -1;
  } else if (pb->guess) {
    if (pb->guess(pb, t, w) != 0)
      return -1;
  } else {
    for (int i = 0; i < nx; ++i)
      w[i] = pb->x0[i];
    for (int i = nx; i < nw; ++i)
      w[i] = fmin(fmax(0.0, pb->w_lo[i]), pb->w_hi[i]);
  }
  return 0;
}

/* Newton on (g; c)(t0, x0, a) = 0 for a (q: nq values, a updated; F gets
 * F there); 1 when converged. */
static int algebraic_start(rc_rstep *st, const rc_problem *pb, double t0,
                           const double *p, double *q, double *F) {
  const int nx = pb->nx, na = pb->ny + pb->nu, nq = nx + na;
  const int nw = rc_problem_nw(pb);
  const rc_pattern *P = &pb->point.jac;
  double *G = malloc(sizeof *G * (size_t)(na * na + na + nw) + 1);
  double *jv = malloc(sizeof *jv * (size_t)(P->nnz + 1));
  int *perm = malloc(sizeof *perm * (size_t)(na + 1));
  int ok = 0;
  if (!G || !jv || !perm)
    goto done;
  double *r = G + na * na, *w = r + na;
  for (int it = 0; it < 20 && !ok; ++it) {
    if (rc_rstep_eval(st, t0, q, F) != 0)
      break;
    double rn = 0.0, an = 0.0;
    for (int i = 0; i < na; ++i) {
      r[i] = F[nx + i];
      rn = fmax(rn, fabs(r[i]));
      an = fmax(an, fabs(q[nx + i]));
    }
    memcpy(w, q, sizeof *q * (size_t)nq);
    if (nw > nq)
      memcpy(w + nq, p, sizeof *p * (size_t)(nw - nq));
    if (!isfinite(rn) || pb->point.jacobian(pb, t0, w, jv) != 0)
      break;
    memset(G, 0, sizeof *G * (size_t)na * (size_t)na);
    for (int e = 0; e < P->nnz; ++e) {
      const int row = P->row[e] - nx, col = P->col[e] - nx;
      if (row >= 0 && row < na && col >= 0 && col < na)
        G[row * na + col] += jv[e];
    }
    if (rc_lu_solve_once(na, G, perm, r, 1e-12) >= 0)
      break;
    double step = 0.0;
    for (int i = 0; i < na; ++i) {
      q[nx + i] -= r[i];
      step = fmax(step, fabs(r[i]));
    }
    if (step <= 1e-14 * fmax(1.0, an))
      ok = 1;
  }
  if (ok && rc_rstep_eval(st, t0, q, F) != 0)
    ok = 0;
done:
  free(G);
  free(jv);
  free(perm);
  return ok;
}

/* atol per unknown (nq): opt->atol, then the named ones. */
static rc_err resolve_atol(const rc_problem *pb, const rc_options *opt,
                           double *atol, rc_error *err) {
  const int nq = pb->nx + pb->ny + pb->nu;
  for (int i = 0; i < nq; ++i)
    atol[i] = opt->atol;
  for (int k = 0; k < opt->natol; ++k) {
    int found = -1;
    for (int i = 0; i < nq && found < 0; ++i)
      if (strcmp(pb->var_names[i], opt->atol_names[k]) == 0)
        found = i;
    if (found < 0) {
      char names[256] = "";
      for (int i = 0; i < nq; ++i) {
        const size_t len = strlen(names);
        if (len + strlen(pb->var_names[i]) + 8 >= sizeof names) {
          snprintf(names + len, sizeof names - len, ", ...");
          break;
        }
        snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "",
                 pb->var_names[i]);
      }
      return rc_error_set(err, RC_ERR_INPUT,
                          "absolute tolerance for '%s': %s/%s has no state, "
                          "algebraic variable or control of that name "
                          "(expected one of %s)",
                          opt->atol_names[k], pb->model, pb->formulation,
                          names);
    }
    atol[found] = opt->atol_values[k];
  }
  return RC_OK;
}

/* The solution on the mesh of the steps tk[0..n] over [t0, tf] (a last
 * filler element holding the last state when tk[n] < tf), node 0 = w0. */
static rc_err build_solution(const rc_problem *pb, const march_run *r,
                             double t0, double tf, const double *w0,
                             const double *p, rc_solution *sol, rc_error *err) {
  const int nq = r->nq, nw = r->nw, s = r->s;
  const int filler = r->n == 0 || r->tk[r->n] < tf;
  const int ne = r->n + (filler ? 1 : 0);
  double *frac = malloc(sizeof *frac * (size_t)(ne + 1));
  int *stg = malloc(sizeof *stg * (size_t)ne);
  if (!frac || !stg) {
    free(frac);
    free(stg);
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory for a mesh of %d "
                        "elements",
                        ne);
  }
  const double T = tf - t0;
  frac[0] = 0.0;
  for (int k = 1; k <= r->n; ++k)
    frac[k] = (r->tk[k] - t0) / T;
  if (filler)
    frac[ne] = 1.0;
  else
    frac[r->n] = 1.0;
  for (int k = 0; k < ne; ++k)
    stg[k] = s;
  /* strictly increasing (a step shorter than the rounding of frac would
   * not be representable; never seen, but a mesh must be valid) */
  for (int k = 1; k <= ne; ++k)
    if (!(frac[k] > frac[k - 1]))
      frac[k] = nextafter(frac[k - 1], 2.0);
  rc_mesh mesh;
  rc_err rc = rc_mesh_from_arrays(ne, frac, stg, &mesh, err);
  free(frac);
  free(stg);
  if (rc != RC_OK)
    return rc;
  rc = rc_solution_alloc(pb, &mesh, t0, tf, 1, sol, err);
  rc_mesh_free(&mesh);
  if (rc != RC_OK)
    return rc;
  memcpy(sol->w, w0, sizeof *w0 * (size_t)nw);
  const double *last = w0;
  for (int k = 0; k < ne; ++k) {
    const int off = sol->elem_off[k];
    for (int j = 0; j < s; ++j) {
      double *w = sol->w + (size_t)(1 + off + j) * nw;
      if (k < r->n) {
        memcpy(w, r->Qs + ((size_t)k * s + j) * nq, sizeof *w * (size_t)nq);
        if (nw > nq)
          memcpy(w + nq, p, sizeof *w * (size_t)(nw - nq));
      } else {
        memcpy(w, last, sizeof *w * (size_t)nw);
      }
    }
    last = sol->w + (size_t)(off + s) * nw;
  }
  return RC_OK;
}

/* The node-0 (y, u) of a formulation that does not impose them at t0 and
 * whose start was not solved: the stage polynomial of element 0
 * extrapolated (newton.c reports the same). */
static void node0_extrapolate(const rc_problem *pb, rc_solution *sol,
                              double *wtmp) {
  const int nx = pb->nx, nq = nx + pb->ny + pb->nu;
  if (nq > nx && sol->nnodes > 1 &&
      rc_solution_eval_stages(sol, sol->t0, wtmp, NULL) == RC_OK)
    memcpy(sol->w + nx, wtmp + nx, sizeof *wtmp * (size_t)(nq - nx));
}

/* First node whose (x, y, u) leaves a finite bound, or -1. */
static int bound_violation(const rc_problem *pb, const rc_solution *sol,
                           int check_node0_alg, int *var) {
  const int nw = rc_problem_nw(pb), nx = pb->nx, nq = nx + pb->ny + pb->nu;
  for (int n = 0; n < sol->nnodes; ++n) {
    const double *w = sol->w + (size_t)n * nw;
    const int nchk = n == 0 && !check_node0_alg ? nx : nq;
    for (int i = 0; i < nchk; ++i)
      if (w[i] < pb->w_lo[i] || w[i] > pb->w_hi[i]) {
        *var = i;
        return n;
      }
  }
  return -1;
}

/* Shared set-up: the square check, atol, fixed parameters, node 0 from
 * the guess, the index classification and the engine. */
typedef struct march_setup {
  double *atol, *p, *w0, *F;
  rc_var_index vi;
  int have_vi;
  rc_rstep *st;
  int t0_alg, a0_solved;
} march_setup;

static void setup_free(march_setup *su) {
  free(su->atol);
  free(su->p);
  free(su->w0);
  free(su->F);
  if (su->have_vi)
    rc_var_index_free(&su->vi);
  rc_rstep_free(&su->st);
  memset(su, 0, sizeof *su);
}

static rc_err setup(const rc_problem *pb, const rc_options *opt,
                    const rc_solution *guess, int smax, int solve_start,
                    march_setup *su, rc_error *err) {
  memset(su, 0, sizeof *su);
  char why[160];
  if (!rc_square_check(pb, why, sizeof why))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s is not a square system (%s): the march "
                        "integrates initial-value problems only",
                        pb->model, pb->formulation, why);
  if (guess && (guess->nx != pb->nx || guess->ny != pb->ny ||
                guess->nu != pb->nu || guess->np != pb->np))
    return rc_error_set(err, RC_ERR_INPUT,
                        "guess sizes nx=%d ny=%d nu=%d np=%d, expected "
                        "nx=%d ny=%d nu=%d np=%d",
                        guess->nx, guess->ny, guess->nu, guess->np, pb->nx,
                        pb->ny, pb->nu, pb->np);
  const int nx = pb->nx, nq = nx + pb->ny + pb->nu, nw = rc_problem_nw(pb);
  su->atol = malloc(sizeof *su->atol * (size_t)(nq + 1));
  su->p = malloc(sizeof *su->p * (size_t)(pb->np + 1));
  su->w0 = malloc(sizeof *su->w0 * (size_t)(nw + 1));
  su->F = malloc(sizeof *su->F * (size_t)(rc_problem_nF(pb) + 1));
  if (!su->atol || !su->p || !su->w0 || !su->F) {
    setup_free(su);
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for the march");
  }
  rc_err rc = resolve_atol(pb, opt, su->atol, err);
  if (rc != RC_OK) {
    setup_free(su);
    return rc;
  }
  for (int i = 0; i < pb->np; ++i)
    su->p[i] = pb->w_lo[nq + i];
  if (guess_at(pb, guess, pb->t0, su->w0) != 0) {
    setup_free(su);
    return rc_error_set(err, RC_ERR_EVAL, "%s/%s: the guess failed at t0 = %g",
                        pb->model, pb->formulation, pb->t0);
  }
  memcpy(su->w0, pb->x0, sizeof *su->w0 * (size_t)nx);
  for (int i = 0; i < pb->np; ++i)
    su->w0[nq + i] = su->p[i];
  /* The structure is classified just after t0: a formulation may replace
   * equations at t0 itself (a projection: mu = 0 there, h(x) = 0 after). */
  const double tc = pb->t0 + 1e-3 * (pb->tf - pb->t0);
  double *wc = malloc(sizeof *wc * (size_t)(nw + 1));
  if (!wc || guess_at(pb, guess, tc, wc) != 0) {
    free(wc);
    setup_free(su);
    return rc_error_set(err, RC_ERR_EVAL, "%s/%s: the guess failed at t = %g",
                        pb->model, pb->formulation, tc);
  }
  for (int i = 0; i < pb->np; ++i)
    wc[nq + i] = su->p[i];
  rc = rc_var_index_compute(pb, tc, wc, &su->vi, err);
  free(wc);
  if (rc != RC_OK) {
    setup_free(su);
    return rc;
  }
  su->have_vi = 1;
  if ((rc = rc_rstep_create(pb, &su->vi, smax, su->p, &su->st, err)) != RC_OK) {
    setup_free(su);
    return rc;
  }
  su->t0_alg = pb->t0_algebraic && nq > nx;
  if (solve_start && nq > nx && (su->t0_alg || su->vi.nhigh == 0))
    su->a0_solved = algebraic_start(su->st, pb, pb->t0, su->p, su->w0, su->F);
  return RC_OK;
}

static void fill_stats(const rc_problem *pb, const rc_solution *sol,
                       const rc_rstep *st, double wall0,
                       rc_solve_stats *stats) {
  const rc_rstep_counts *cn = rc_rstep_counters(st);
  const int nq = pb->nx + pb->ny + pb->nu;
  const long long nv = (long long)sol->nnodes * nq;
  stats->nvars = nv > 2147483647LL ? 2147483647 : (int)nv;
  stats->ncons = stats->nvars;
  stats->iterations = cn->niter > 2147483647LL ? 2147483647 : (int)cn->niter;
  stats->objective = 0.0;
  stats->dual_infeasibility = 0.0;
  stats->nnz_jac = nq * nq;
  stats->nnz_hes = 0;
  stats->eval_s = cn->eval_s;
  stats->wall_s = rc_now_s() - wall0;
  stats->ipopt_s = stats->wall_s - cn->eval_s;
  stats->solver_status = 0;
  stats->objective_scale = 1.0;
  stats->newton_fallback_element = -1;
}

rc_err rc_march_solve(const rc_problem *pb, const rc_options *opt,
                      const rc_solution *guess, rc_solution *sol,
                      rc_solve_stats *stats, rc_march_info *info,
                      rc_error *err) {
  if (opt && opt->x0) { /* a different start: the problem restarted there */
    rc_options o = *opt;
    o.x0 = NULL;
    rc_problem *moved = NULL;
    rc_err rs = rc_problem_restart(pb, opt->x0, &moved, err);
    if (rs == RC_OK)
      rs = rc_march_solve(moved, &o, guess, sol, stats, info, err);
    rc_problem_free(&moved);
    return rs;
  }
  const double wall0 = rc_now_s();
  memset(sol, 0, sizeof *sol);
  rc_solve_stats_begin(stats);
  if (info)
    memset(info, 0, sizeof *info);
  rc_err rc;
  if ((rc = rc_problem_validate(pb, err)) != RC_OK ||
      (rc = rc_options_validate(opt, err)) != RC_OK)
    return rc;
  const int s = opt->march_stages > 0 ? opt->march_stages
                                      : rc_march_default_stages(opt->rtol);
  march_setup su;
  if ((rc = setup(pb, opt, guess, s, 1, &su, err)) != RC_OK)
    return rc;
  march_run r;
  if (run_init(&r, pb, &su.vi, su.st, s, opt->rtol, su.atol,
               opt->march_max_steps, pb->t0, su.w0) != 0) {
    run_free(&r);
    setup_free(&su);
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for the march");
  }
  const int failed = run_march(&r, pb->tf) != 0;
  rc = build_solution(pb, &r, pb->t0, pb->tf, su.w0, su.p, sol, err);
  if (rc == RC_OK) {
    if (!su.a0_solved && !su.t0_alg)
      node0_extrapolate(pb, sol, su.w0);
    fill_stats(pb, sol, su.st, wall0, stats);
    snprintf(stats->solver, sizeof stats->solver, "march");
    const rc_rstep_counts *cn = rc_rstep_counters(su.st);
    r.info.stages = s;
    r.info.evaluations = cn->nfev;
    r.info.rtol_local = r.rtol;
    r.info.index_max = su.vi.kmax;
    int var = -1;
    const int nb = failed ? -1 : bound_violation(pb, sol, su.t0_alg, &var);
    if (failed) {
      stats->status = RC_STATUS_FAILED;
      stats->newton_fallback_element = r.n;
      snprintf(stats->message, sizeof stats->message,
               "the march stopped at t = %.6g after %d steps (element %d): "
               "%s",
               r.t, r.info.steps, r.n, r.why);
    } else if (nb >= 0) {
      stats->status = RC_STATUS_FAILED;
      stats->newton_fallback_element = rc_solution_element(sol, sol->t[nb]);
      r.info.fail_t = sol->t[nb];
      snprintf(stats->message, sizeof stats->message,
               "the solution leaves the bounds [%g, %g] of %s at t = %g "
               "(value %.6g, element %d)",
               pb->w_lo[var], pb->w_hi[var], pb->var_names[var], sol->t[nb],
               sol->w[(size_t)nb * r.nw + var], stats->newton_fallback_element);
    } else {
      stats->status = RC_STATUS_CONVERGED;
      snprintf(stats->message, sizeof stats->message,
               "march: %d steps of %d stages (%d rejected, %d for Newton), "
               "h %.3g..%.3g, %lld Jacobians, %lld factorisations, "
               "local rtol %.3g",
               r.info.steps, s, r.info.rejected, r.info.newton_failures,
               r.info.h_min, r.info.h_max, r.info.jacobians, r.info.lu, r.rtol);
      if (r.info.rtol_raised > 0) {
        const size_t len = strlen(stats->message);
        snprintf(stats->message + len, sizeof stats->message - len,
                 " (raised to %.3g: the error estimate's rounding floor)",
                 r.info.rtol_raised);
      }
    }
    stats->constraint_violation = failed ? INFINITY : 0.0;
    if (info)
      *info = r.info;
  }
  run_free(&r);
  setup_free(&su);
  return rc;
}

/* ---- the fixed-mesh pass -------------------------------------------------
 */

/* The dense output of a finished run at t (q: nq values), the run started
 * from qs; algebraic unknowns through the step start as in result.h. */
static void run_dense(const march_run *r, const double *qs, double t,
                      double *q) {
  int lo = 0, hi = r->n - 1;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (t <= r->tk[mid + 1])
      hi = mid;
    else
      lo = mid + 1;
  }
  const size_t m = (size_t)r->s * (size_t)r->nq;
  const double *start =
      lo == 0 ? qs : r->Qs + (size_t)(lo - 1) * m + (size_t)(r->s - 1) * r->nq;
  const double h = r->tk[lo + 1] - r->tk[lo];
  step_poly(r->nx, r->nq, &r->pw, start, start + r->nx, r->Qs + (size_t)lo * m,
            (t - r->tk[lo]) / h, q);
}

/* Factors are reused while the element length is within this fraction of
 * theirs. */
#define MESH_REUSE_H 0.3

/* The sub-march of a failing element: stages and relative tolerance. */
#define MESH_SUB_STAGES 5
#define MESH_SUB_RTOL 1e-8

typedef struct mesh_pass {
  const rc_problem *pb;
  const rc_options *opt;
  march_setup *su;
  int nx, nq;
  int maxit; /* opt->newton_max_iter: per attempt (full: per matrix, <= 3) */
  int index_weights; /* scal of an index-k unknown divided by h^(k-1) */
  int accept_first;  /* an element may converge at its first iterate */
  double faccon;     /* theta/(1-theta) of the last element that measured
                        one (1 at the start), floored at 1e-3 */
  double newton_tol;
  double *scal, *floor, *pred, *qs; /* nq; nq; smax nq; nq */
  double jac_t;                     /* where J was evaluated (NaN: none) */
  rc_rstep *sub;
  /* the previous element, for the predictor */
  int sp;
  double hp;
  double *xps, *Qp;
  poly_weights pw; /* of sp stages (pw.s = 0: none yet) */
} mesh_pass;

static void pass_free(mesh_pass *mp) {
  free(mp->scal);
  free(mp->floor);
  free(mp->pred);
  free(mp->qs);
  free(mp->xps);
  free(mp->Qp);
  rc_rstep_free(&mp->sub);
}

/* Newton with the full matrix from the iterate in Q: the matrix refreshed
 * at the current iterate every 3 iterations (a Newton that keeps its
 * quadratic rate far from the solution), 12 matrices at most. */
static int full_newton(mesh_pass *mp, int s) {
  rc_rstep *st = mp->su->st;
  const double *Q = rc_rstep_Q(st);
  for (int f = 0; f < 12; ++f) {
    if (rc_rstep_factor_full(st) != 0)
      return 0;
    rc_rstep_newton nw = {.maxit = mp->maxit < 3 ? mp->maxit : 3,
                          .fnewt = 1.0,
                          .faccon = 1.0,
                          .max_norm = 1,
                          .allow_first = 2,
                          .no_predict = 1,
                          .scal_floor = mp->floor};
    const rc_rstep_status ns = rc_rstep_solve(st, mp->scal, &nw);
    if (ns == RC_RSTEP_CONVERGED)
      return 1;
    if (ns == RC_RSTEP_EVAL || ns == RC_RSTEP_NOLU)
      return 0;
    for (int i = 0; i < s * mp->nq; ++i)
      if (!isfinite(Q[i]))
        return 0;
  }
  return 0;
}

/* A march across [ta, tb] from qs into *r (the caller frees it with
 * run_free); 1 when it arrived. */
static int sub_march(mesh_pass *mp, double ta, double tb, march_run *r) {
  const rc_problem *pb = mp->pb;
  rc_error e = {RC_OK, ""};
  memset(r, 0, sizeof *r);
  if (!mp->sub && rc_rstep_create(pb, &mp->su->vi, MESH_SUB_STAGES, mp->su->p,
                                  &mp->sub, &e) != RC_OK)
    return 0;
  double *atol = malloc(sizeof *atol * (size_t)mp->nq);
  if (!atol)
    return 0;
  for (int i = 0; i < mp->nq; ++i)
    atol[i] = MESH_SUB_RTOL * mp->su->atol[i] / mp->opt->rtol;
  const int ok = run_init(r, pb, &mp->su->vi, mp->sub, MESH_SUB_STAGES,
                          MESH_SUB_RTOL, atol, 100000, ta, mp->qs) == 0 &&
                 run_march(r, tb) == 0 && r->n > 0;
  free(atol);
  return ok;
}

/* Continuation in the element's length: the collocation step from qs of
 * length theta h for theta from 1/8 (predictor: the sub-march's dense
 * output, mp->sub_run) up to 1, theta doubled after each success and
 * halved towards the last success after a failure (16 solves at most), each
 * step's polynomials extrapolated as the next one's predictor.  The branch
 * of collocation solutions that starts at the flow for short steps is
 * followed to the element's length.  1 when theta = 1 converged. */
static int length_continuation(mesh_pass *mp, const march_run *sub, double ta,
                               double tb, int s) {
  rc_rstep *st = mp->su->st;
  const int nq = mp->nq, nx = mp->nx;
  const size_t m = (size_t)s * (size_t)nq;
  const double h = tb - ta;
  const double *c = rc_rstep_nodes(st, s);
  double *Q = rc_rstep_Q(st);
  double *best = malloc(sizeof *best * (m + 1));
  if (!best)
    return 0;
  double done = 0.0, theta = 0.125;
  int ok = 0;
  poly_weights pwc;
  poly_weights_init(s, c, &pwc);
  for (int tries = 0; tries < 16 && !ok; ++tries) {
    const double hl = theta * h, tend = theta >= 1.0 ? tb : ta + hl;
    rc_rstep_begin(st, s, ta, hl, tend, mp->qs);
    const double *tj = rc_rstep_times(st);
    for (int j = 0; j < s; ++j) {
      double *q = Q + (size_t)j * nq;
      if (done == 0.0)
        run_dense(sub, mp->qs, tj[j], q);
      else
        step_poly(nx, nq, &pwc, mp->qs, NULL, best, c[j] * theta / done, q);
    }
    const int conv = full_newton(mp, s);
    if (conv) {
      memcpy(best, Q, sizeof *Q * m);
      done = theta;
      ok = theta >= 1.0;
      theta = fmin(1.0, 2.0 * theta);
    } else {
      theta = done + 0.5 * (theta - done);
      if (theta - done < 1e-3)
        break;
    }
  }
  free(best);
  if (!ok)
    rc_rstep_begin(st, s, ta, h, tb, mp->qs);
  return ok;
}

/* Element [ta, tb] of s stages from mp->qs; 1 when Newton converged (the
 * stages in the engine's Q). */
static int mesh_element(mesh_pass *mp, int k, double ta, double tb, int s,
                        const rc_solution *guess) {
  rc_rstep *st = mp->su->st;
  const int nq = mp->nq;
  const size_t m = (size_t)s * (size_t)nq;
  int transformed = 0;
  if (rc_rstep_stages_init(st, s, &transformed) != 0)
    return 0;
  const double h = tb - ta;
  rc_rstep_begin(st, s, ta, h, tb, mp->qs);
  const double *tj = rc_rstep_times(st);
  const double *c = rc_rstep_nodes(st, s);
  for (int i = 0; i < nq; ++i) {
    const double a = mp->su->atol[i] / mp->opt->rtol + fabs(mp->qs[i]);
    const int ki = mp->su->vi.k[i];
    mp->scal[i] = mp->newton_tol * a;
    if (mp->index_weights && ki > 1)
      mp->scal[i] /= pow(h, ki - 1);
    mp->floor[i] = 1e3 * DBL_EPSILON * a / (ki == 1 ? 1.0 : pow(h, ki - 1));
  }
  int have_pred = 0;
  if (guess) {
    double *w = malloc(sizeof *w * (size_t)rc_problem_nw(mp->pb));
    have_pred = w != NULL;
    for (int j = 0; j < s && have_pred; ++j) {
      const double tg = fmin(fmax(tj[j], guess->t0), guess->tf);
      have_pred = rc_solution_eval(guess, tg, w, NULL) == RC_OK;
      memcpy(mp->pred + (size_t)j * nq, w, sizeof *w * (size_t)nq);
    }
    free(w);
  }
  if (!have_pred && k > 0) {
    if (mp->pw.s != mp->sp)
      poly_weights_init(mp->sp, rc_rstep_nodes(st, mp->sp), &mp->pw);
    for (int j = 0; j < s; ++j)
      step_poly(mp->nx, nq, &mp->pw, mp->xps, NULL, mp->Qp,
                1.0 + c[j] * h / mp->hp, mp->pred + (size_t)j * nq);
    have_pred = 1;
  }
  if (!have_pred)
    for (int j = 0; j < s; ++j)
      memcpy(mp->pred + (size_t)j * nq, mp->qs, sizeof *mp->qs * (size_t)nq);
  double *Q = rc_rstep_Q(st);
  /* a. the transformed factors, reused while h is within 20 % of theirs */
  if (transformed) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      const double hl = rc_rstep_factor_h(st);
      const int fresh = mp->jac_t == ta;
      if (attempt == 1 && fresh)
        break;
      if (attempt == 1 || !(hl > 0) || fabs(h / hl - 1.0) > MESH_REUSE_H ||
          isnan(mp->jac_t)) {
        if (!fresh && (attempt == 1 || isnan(mp->jac_t))) {
          if (rc_rstep_jacobian(st, ta, mp->qs) != 0)
            break;
          mp->jac_t = ta;
        }
        if (rc_rstep_factor(st) != 0)
          break;
      }
      memcpy(Q, mp->pred, sizeof *Q * m);
      rc_rstep_newton nw = {.maxit = mp->maxit,
                            .fnewt = 1.0,
                            .faccon = mp->faccon,
                            .max_norm = 1,
                            .allow_first = 1,
                            .accept_first = mp->accept_first,
                            .scal_floor = mp->floor};
      const rc_rstep_status ns = rc_rstep_solve(st, mp->scal, &nw);
      mp->faccon = ns == RC_RSTEP_CONVERGED && nw.iters > 1
                       ? fmax(nw.faccon, 1e-3)
                       : (ns == RC_RSTEP_CONVERGED ? mp->faccon : 1.0);
      if (ns == RC_RSTEP_CONVERGED)
        return 1;
    }
  }
  /* b. the full Newton matrix at the predictor's stages */
  memcpy(Q, mp->pred, sizeof *Q * m);
  if (full_newton(mp, s))
    return 1;
  /* c. a march across the element as the predictor, then d. continuation
   * in the element's length from it */
  march_run sub;
  int ok = sub_march(mp, ta, tb, &sub);
  if (ok) {
    for (int j = 0; j < s; ++j)
      run_dense(&sub, mp->qs, tj[j], Q + (size_t)j * nq);
    ok = full_newton(mp, s);
    if (!ok) {
      ok = length_continuation(mp, &sub, ta, tb, s);
    }
  }
  run_free(&sub);
  return ok;
}

rc_err rc_march_mesh(const rc_problem *pb, const rc_mesh *mesh,
                     const rc_options *opt, double newton_tol,
                     int index_weights, const rc_solution *guess,
                     rc_solution *sol, rc_solve_stats *stats, rc_error *err) {
  const double wall0 = rc_now_s();
  memset(sol, 0, sizeof *sol);
  rc_solve_stats_begin(stats);
  rc_err rc;
  if ((rc = rc_problem_validate(pb, err)) != RC_OK ||
      (rc = rc_options_validate(opt, err)) != RC_OK ||
      (rc = rc_mesh_validate(mesh, err)) != RC_OK)
    return rc;
  if (!(newton_tol > 0 && newton_tol < 1))
    return rc_error_set(err, RC_ERR_INPUT,
                        "Newton tolerance %g: expected a number in (0, 1)",
                        newton_tol);
  const int smax = rc_mesh_max_stages(mesh);
  march_setup su;
  if ((rc = setup(pb, opt, guess, smax, 1, &su, err)) != RC_OK)
    return rc;
  if ((rc = rc_solution_alloc(pb, mesh, pb->t0, pb->tf, 1, sol, err)) !=
      RC_OK) {
    setup_free(&su);
    return rc;
  }
  const int nx = pb->nx, nq = nx + pb->ny + pb->nu, nw = rc_problem_nw(pb);
  mesh_pass mp;
  memset(&mp, 0, sizeof mp);
  mp.pb = pb;
  mp.opt = opt;
  mp.su = &su;
  mp.nx = nx;
  mp.nq = nq;
  mp.newton_tol = newton_tol;
  mp.maxit = opt->newton_max_iter;
  mp.index_weights = index_weights;
  /* An error estimate's pass starts within the tolerance of its solution:
   * its first iterate may converge, as in RADAU5 (Newton work halves), but
   * not with unknowns of index 2 or 3, whose first increments are below
   * their h-scaled weights and would leave them at the predictor's values
   * (a projection multiplier's estimate came out 0 where its error was
   * 1e-8). */
  mp.accept_first = index_weights && su.vi.nhigh == 0;
  mp.faccon = 1.0;
  mp.jac_t = NAN;
  mp.scal = malloc(sizeof(double) * (size_t)(nq + 1));
  mp.floor = malloc(sizeof(double) * (size_t)(nq + 1));
  mp.pred = malloc(sizeof(double) * (size_t)smax * (size_t)nq + 1);
  mp.qs = malloc(sizeof(double) * (size_t)(nq + 1));
  mp.xps = malloc(sizeof(double) * (size_t)(nx + 1));
  mp.Qp = malloc(sizeof(double) * (size_t)smax * (size_t)nq + 1);
  if (!mp.scal || !mp.floor || !mp.pred || !mp.qs || !mp.xps || !mp.Qp) {
    pass_free(&mp);
    setup_free(&su);
    rc_solution_free(sol);
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for %d elements",
                        mesh->n);
  }
  memcpy(sol->w, su.w0, sizeof *su.w0 * (size_t)nw);
  memcpy(mp.qs, su.w0, sizeof *mp.qs * (size_t)nq);
  char why[256] = "";
  int fail_elem = -1;
  if (su.t0_alg && !su.a0_solved) {
    fail_elem = 0;
    snprintf(why, sizeof why,
             "Newton did not solve the algebraic equations at t0 = %g", pb->t0);
  }
  for (int k = 0; k < mesh->n && fail_elem < 0; ++k) {
    const int off = sol->elem_off[k], s = mesh->stages[k];
    const double ta = sol->t[off], tb = sol->t[off + s];
    if (!mesh_element(&mp, k, ta, tb, s, guess)) {
      fail_elem = k;
      snprintf(why, sizeof why,
               "Newton did not converge in element %d (t in [%g, %g], %d "
               "stages) from any predictor (the previous element, the full "
               "Newton matrix, a march across the element)",
               k, ta, tb, s);
      break;
    }
    const double *Q = rc_rstep_Q(su.st);
    for (int j = 0; j < s; ++j) {
      double *w = sol->w + (size_t)(1 + off + j) * nw;
      memcpy(w, Q + (size_t)j * nq, sizeof *w * (size_t)nq);
      if (nw > nq)
        memcpy(w + nq, su.p, sizeof *w * (size_t)(nw - nq));
    }
    mp.sp = s;
    mp.hp = tb - ta;
    memcpy(mp.xps, mp.qs, sizeof *mp.xps * (size_t)nx);
    memcpy(mp.Qp, Q, sizeof *Q * (size_t)s * (size_t)nq);
    memcpy(mp.qs, Q + (size_t)(s - 1) * nq, sizeof *Q * (size_t)nq);
  }
  if (fail_elem >= 0) {
    const int n0 = 1 + sol->elem_off[fail_elem];
    const double *last = sol->w + (size_t)(n0 - 1) * nw;
    for (int n = n0; n < sol->nnodes; ++n)
      memcpy(sol->w + (size_t)n * nw, last, sizeof *last * (size_t)nw);
  } else if (!su.a0_solved && !su.t0_alg) {
    node0_extrapolate(pb, sol, su.w0);
  }
  int var = -1;
  const int nb = fail_elem < 0 ? bound_violation(pb, sol, su.t0_alg, &var) : -1;
  if (nb >= 0) {
    fail_elem = rc_solution_element(sol, sol->t[nb]);
    snprintf(why, sizeof why,
             "the solution leaves the bounds [%g, %g] of %s at t = %g (value "
             "%.6g, element %d)",
             pb->w_lo[var], pb->w_hi[var], pb->var_names[var], sol->t[nb],
             sol->w[(size_t)nb * nw + var], fail_elem);
  }
  fill_stats(pb, sol, su.st, wall0, stats);
  snprintf(stats->solver, sizeof stats->solver, "newton (scaled)");
  const rc_rstep_counts *cn = rc_rstep_counters(su.st);
  if (fail_elem < 0) {
    stats->status = RC_STATUS_CONVERGED;
    stats->constraint_violation = 0.0;
    snprintf(stats->message, sizeof stats->message,
             "scaled Newton converged in every element: %d elements, %lld "
             "iterations, %lld factorisations, relative tolerance %.3g",
             mesh->n, cn->niter, cn->nlu, newton_tol);
  } else {
    stats->status = RC_STATUS_FAILED;
    stats->constraint_violation = INFINITY;
    stats->newton_fallback_element = fail_elem;
    snprintf(stats->message, sizeof stats->message, "%s", why);
  }
  pass_free(&mp);
  setup_free(&su);
  return RC_OK;
}

rc_err rc_march_variable_index(const rc_problem *pb, const rc_solution *guess,
                               int *k, rc_error *err) {
  rc_options opt;
  rc_options_default(&opt);
  march_setup su;
  rc_err rc = rc_problem_validate(pb, err);
  if (rc != RC_OK || (rc = setup(pb, &opt, guess, 1, 0, &su, err)) != RC_OK)
    return rc;
  memcpy(k, su.vi.k, sizeof *k * (size_t)su.vi.nq);
  setup_free(&su);
  return RC_OK;
}
