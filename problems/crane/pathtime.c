/*
 * crane/pathtime.c - the formulation pathtime: minimum time along a path
 * (docs/crane-mintime.md), with mintime's checks, free tf and starting T
 * (mintime.c), then its own dimensions: min tf, sigma from 0 to 1 at rest
 * at both ends, 0 <= sigma <= 1, sigma' >= 0.
 *
 * Load on p(t) = P(sigma(t)), P the straight line P0 + D sigma (D = P1 - P0)
 * or a curve (pt_curve); states (sigma, sigma1, sigma2, sigma3), control
 * sigma4 (chain of integrators).  The load's derivatives by the chain rule
 * (P^(k) = d^k P / d sigma^k, s_k = sigma_k):
 *   p'    = P' s1,
 *   p''   = P'' s1^2 + P' s2,
 *   p'''  = P''' s1^3 + 3 P'' s1 s2 + P' s3,
 *   p'''' = P'''' s1^4 + 6 P''' s1^2 s2 + P'' (3 s2^2 + 4 s1 s3) + P' s4.
 * Flat inverse (SPEC 4.3): a = -M2 p1'', b = m g - M2 p2'' (and a', a'',
 * b', b'' from p''', p''''), q = a / b = tan theta,
 *   q' = (a' - q b') / b,  q'' = (a'' - 2 q' b' - q b'') / b,
 *   S = sqrt(1 + q^2), S_q = q / S, S_qq = 1 / S^3,
 *   theta = atan q, tau = b S, r = p2 S, d = p1 - p2 q, omega = q' / S^2,
 *   vd = p1' - p2' q - p2 q',  d'' = p1'' - p2'' q - 2 p2' q' - p2 q'',
 *   vr = p2' S + p2 S_q q',  r'' = p2'' S + 2 p2' S_q q' + p2 (S_qq q'^2 +
 *   S_q q''),  u1 = M1 d'' + C1 vd - a  (tau sin theta = b q = a),
 *   u2 = (C3^2 tau - C2 vr - J r'') / C3.
 * Limits on the dense output: the nine crane quantities are algebraic
 * variables y = (d, r, theta, vd, vr, omega, tau, u1, u2) with the
 * equations 0 = y_k - Y_k(sigma .. sigma4) and the limits as simple bounds
 * on y, which the Bernstein rows of the transcription (docs/dense-bounds.md)
 * make hold on the whole dense output; between the nodes y differs from
 * Y(dense sigma) by the interpolation error of a smooth function of
 * polynomials, which the dense-grid check reports (alg_<y>): O(h^6) where
 * the controls are smooth, O(h) in an element where u1 switches (sigma4 is
 * steep there; docs/crane-mintime.md derives it).  One path
 * constraint b >= 0.01 m g (the flat inverse's domain).  Every expression is
 * a second-order jet (value, gradient, Hessian over the 5 inputs sigma ..
 * sigma4) built with the exact product, reciprocal, sqrt and atan rules.
 */
#include <math.h>
#include <string.h>

#include "crane.h"

#define PT_N 5  /* jet inputs: sigma, sigma1, sigma2, sigma3, sigma4 */
#define PT_NX 4 /* states sigma .. sigma3 */
#define PT_NY 9 /* algebraic copies d .. u2 */
#define PT_NW (PT_NX + PT_NY + 1)
#define PT_IU (PT_NX + PT_NY) /* w index of sigma4 */
#define PT_NC 1               /* path constraint b */
/* w index of jet input i */
static const int PT_WIN[PT_N] = {0, 1, 2, 3, PT_IU};

/* A second-order jet with its structure: gs bit i when g[i] can be nonzero,
 * bit j of hs[i] when h[i][j] can be (symmetric).  The structure follows
 * from the operations and the problem's data (the path's kind, zero
 * coefficients), never from the point: the kit declares what pathtime_point
 * writes, which is the structure. */
typedef struct jet2 {
  double v, g[PT_N], h[PT_N][PT_N];
  unsigned gs, hs[PT_N];
} jet2;

static jet2 j_var(double v, int i) {
  jet2 r;
  memset(&r, 0, sizeof r);
  r.v = v;
  r.g[i] = 1.0;
  r.gs = 1u << i;
  return r;
}
static jet2 j_const(double v) {
  jet2 r;
  memset(&r, 0, sizeof r);
  r.v = v;
  return r;
}
/* r.hs |= x.gs (x) y.gs, symmetrised */
static void j_outer(jet2 *r, unsigned xs, unsigned ys) {
  for (int i = 0; i < PT_N; ++i) {
    if (xs >> i & 1u)
      r->hs[i] |= ys;
    if (ys >> i & 1u)
      r->hs[i] |= xs;
  }
}
static jet2 j_lin(double a, jet2 x, double b, jet2 y) { /* a x + b y */
  jet2 r;
  r.v = a * x.v + b * y.v;
  const unsigned xm = a != 0.0 ? ~0u : 0u, ym = b != 0.0 ? ~0u : 0u;
  r.gs = (x.gs & xm) | (y.gs & ym);
  for (int i = 0; i < PT_N; ++i) {
    r.g[i] = a * x.g[i] + b * y.g[i];
    r.hs[i] = (x.hs[i] & xm) | (y.hs[i] & ym);
    for (int j = 0; j < PT_N; ++j)
      r.h[i][j] = a * x.h[i][j] + b * y.h[i][j];
  }
  return r;
}
static jet2 j_add(jet2 x, jet2 y) {
  return j_lin(1.0, x, 1.0, y);
}
static jet2 j_scale(double a, jet2 x) {
  return j_lin(a, x, 0.0, x);
}
static jet2 j_mul(jet2 x, jet2 y) {
  jet2 r;
  r.v = x.v * y.v;
  r.gs = x.gs | y.gs;
  for (int i = 0; i < PT_N; ++i) {
    r.g[i] = x.v * y.g[i] + y.v * x.g[i];
    r.hs[i] = x.hs[i] | y.hs[i];
    for (int j = 0; j < PT_N; ++j)
      r.h[i][j] =
          x.v * y.h[i][j] + y.v * x.h[i][j] + x.g[i] * y.g[j] + y.g[i] * x.g[j];
  }
  j_outer(&r, x.gs, y.gs);
  return r;
}
/* f(x) with f' = d1, f'' = d2 at x.v */
static jet2 j_fun(jet2 x, double f, double d1, double d2) {
  jet2 r;
  r.v = f;
  r.gs = x.gs;
  for (int i = 0; i < PT_N; ++i) {
    r.g[i] = d1 * x.g[i];
    r.hs[i] = x.hs[i];
    for (int j = 0; j < PT_N; ++j)
      r.h[i][j] = d1 * x.h[i][j] + d2 * x.g[i] * x.g[j];
  }
  j_outer(&r, x.gs, x.gs);
  return r;
}
static jet2 j_inv(jet2 x) {
  return j_fun(x, 1.0 / x.v, -1.0 / (x.v * x.v), 2.0 / (x.v * x.v * x.v));
}
static jet2 j_sqrt(jet2 x) {
  const double s = sqrt(x.v);
  return j_fun(x, s, 0.5 / s, -0.25 / (s * x.v));
}
static jet2 j_atan(jet2 x) {
  const double d = 1.0 + x.v * x.v;
  return j_fun(x, atan(x.v), 1.0 / d, -2.0 * x.v / (d * d));
}

/* P^(k)(sigma), k = 0..6, of x (P[k][0]) and z (P[k][1]). */
static void pt_curve(const crane_pathtime *pt, double sigma, double P[7][2]) {
  const crane_model *cm = &pt->mt.base;
  memset(P, 0, sizeof(double) * 14);
  if (cm->path.mode == RC_CRANE_PATH_CURVE) {
    rc_crane_curve_eval(&cm->path, sigma, P);
    return;
  }
  const double Dx = pt->dp[0], Dz = pt->dp[1]; /* set by pathtime_dims */
  P[0][0] = pt->p0[0] + Dx * sigma;
  P[0][1] = pt->p0[1] + Dz * sigma;
  P[1][0] = Dx;
  P[1][1] = Dz;
}

/* The load's derivatives p^(k), k = 0..4, as jets (pk[k][0] x, [1] z).  On
 * the straight line P'' = P''' = ... = 0: p = P0 + D sigma, p^(k) = D s_k,
 * so no structure comes from the curve's terms. */
static void pt_load(const crane_pathtime *pt, const double *w, jet2 pk[5][2]) {
  const jet2 sg = j_var(w[0], 0), s1 = j_var(w[1], 1), s2 = j_var(w[2], 2),
             s3 = j_var(w[3], 3), s4 = j_var(w[PT_IU], 4);
  double P[7][2];
  pt_curve(pt, w[0], P);
  if (pt->mt.base.path.mode != RC_CRANE_PATH_CURVE) {
    const jet2 sk[5] = {sg, s1, s2, s3, s4};
    for (int c = 0; c < 2; ++c) {
      pk[0][c] = j_lin(1.0, j_const(pt->p0[c]), P[1][c], sg);
      for (int k = 1; k < 5; ++k)
        pk[k][c] = j_scale(P[1][c], sk[k]);
    }
    return;
  }
  const jet2 s11 = j_mul(s1, s1), s12 = j_mul(s11, s2);
  const jet2 s111 = j_mul(s11, s1), s1111 = j_mul(s111, s1);
  const jet2 s1s2 = j_mul(s1, s2);
  const jet2 t4 = j_lin(3.0, j_mul(s2, s2), 4.0, j_mul(s1, s3));
  for (int c = 0; c < 2; ++c) {
    jet2 Pj[5]; /* P^(j)(sigma(w)) as jets */
    for (int j = 0; j < 5; ++j)
      Pj[j] = j_fun(sg, P[j][c], P[j + 1][c], P[j + 2][c]);
    pk[0][c] = Pj[0];
    pk[1][c] = j_mul(Pj[1], s1);
    pk[2][c] = j_add(j_mul(Pj[2], s11), j_mul(Pj[1], s2));
    pk[3][c] =
        j_add(j_add(j_mul(Pj[3], s111), j_scale(3.0, j_mul(Pj[2], s1s2))),
              j_mul(Pj[1], s3));
    pk[4][c] =
        j_add(j_add(j_mul(Pj[4], s1111), j_scale(6.0, j_mul(Pj[3], s12))),
              j_add(j_mul(Pj[2], t4), j_mul(Pj[1], s4)));
  }
}

/* Y_0..Y_8 = (d, r, theta, vd, vr, omega, tau, u1, u2) and b as jets. */
typedef struct pt_vals {
  jet2 y[PT_NY];
  jet2 b;
} pt_vals;

static int pt_eval_all(const crane_pathtime *pt, const double *w, pt_vals *o) {
  const rc_crane_params *P = &pt->mt.base.par;
  jet2 p[5][2];
  pt_load(pt, w, p);
  const double M2 = P->M2, mg = P->m * P->g;
  const jet2 a = j_scale(-M2, p[2][0]), ad = j_scale(-M2, p[3][0]),
             add = j_scale(-M2, p[4][0]);
  const jet2 b = j_add(j_const(mg), j_scale(-M2, p[2][1]));
  const jet2 bd = j_scale(-M2, p[3][1]), bdd = j_scale(-M2, p[4][1]);
  if (!(b.v > 0.0) || !(p[0][1].v > 0.0))
    return 1; /* outside the flat inverse's domain: the solver steps back */
  const jet2 ib = j_inv(b);
  const jet2 q = j_mul(a, ib);
  const jet2 qd = j_mul(j_lin(1.0, ad, -1.0, j_mul(q, bd)), ib);
  const jet2 qdd = j_mul(
      j_lin(1.0, add, -1.0, j_lin(2.0, j_mul(qd, bd), 1.0, j_mul(q, bdd))), ib);
  const jet2 S2 = j_add(j_const(1.0), j_mul(q, q));
  const jet2 S = j_sqrt(S2);
  const jet2 iS = j_inv(S);
  const jet2 Sq = j_mul(q, iS);              /* q / S */
  const jet2 Sqq = j_mul(iS, j_mul(iS, iS)); /* 1 / S^3 */
  const jet2 x = p[0][0], z = p[0][1], xd = p[1][0], zd = p[1][1],
             xdd = p[2][0], zdd = p[2][1];
  const jet2 tau = j_mul(b, S);
  const jet2 vd = j_lin(1.0, xd, -1.0, j_add(j_mul(zd, q), j_mul(z, qd)));
  const jet2 ddd = j_lin(1.0, j_lin(1.0, xdd, -1.0, j_mul(zdd, q)), -1.0,
                         j_lin(2.0, j_mul(zd, qd), 1.0, j_mul(z, qdd)));
  const jet2 vr = j_add(j_mul(zd, S), j_mul(z, j_mul(Sq, qd)));
  const jet2 rdd =
      j_add(j_lin(1.0, j_mul(zdd, S), 2.0, j_mul(zd, j_mul(Sq, qd))),
            j_mul(z, j_add(j_mul(Sqq, j_mul(qd, qd)), j_mul(Sq, qdd))));
  o->y[0] = j_lin(1.0, x, -1.0, j_mul(z, q)); /* d */
  o->y[1] = j_mul(z, S);                      /* r */
  o->y[2] = j_atan(q);                        /* theta */
  o->y[3] = vd;
  o->y[4] = vr;
  o->y[5] = j_mul(qd, j_inv(S2)); /* omega = theta' */
  o->y[6] = tau;
  o->y[7] = j_lin(1.0, j_lin(P->M1, ddd, P->C1, vd), -1.0, a); /* u1 */
  o->y[8] =
      j_lin(P->C3, tau, -1.0 / P->C3, j_lin(P->C2, vr, P->J, rdd)); /* u2 */
  o->b = b;
  return 0;
}

/* sgn Y's derivatives on the current row: the entries of Y's structure. */
static void pt_derivs(rc_kit *k, double sgn, const jet2 *Y) {
  for (int i = 0; i < PT_N; ++i) {
    if (Y->gs >> i & 1u)
      rc_kit_d(k, PT_WIN[i], sgn * Y->g[i]);
    for (int j = 0; j <= i; ++j)
      if (Y->hs[i] >> j & 1u)
        rc_kit_d2(k, PT_WIN[i], PT_WIN[j], sgn * Y->h[i][j]);
  }
}

/* F = [sigma1, sigma2, sigma3, sigma4 | y - Y(sigma..sigma4) | b]. */
static int pathtime_point(const rc_problem *pb, double t, const double *w,
                          rc_kit *k) {
  (void)t;
  pt_vals o;
  const int rc = pt_eval_all(crane_pathtime_of(pb), w, &o);
  if (rc)
    return rc;
  for (int i = 0; i < PT_NX; ++i) { /* sigma_i' = sigma_{i+1} */
    rc_kit_row(k, i, w[PT_WIN[i + 1]]);
    rc_kit_d(k, PT_WIN[i + 1], 1.0);
  }
  for (int j = 0; j < PT_NY; ++j) {
    const int row = PT_NX + j; /* the copy y_j is w[row] */
    rc_kit_row(k, row, w[row] - o.y[j].v);
    rc_kit_d(k, row, 1.0);
    pt_derivs(k, -1.0, &o.y[j]);
  }
  rc_kit_row(k, PT_NX + PT_NY, o.b.v);
  pt_derivs(k, 1.0, &o.b);
  return 0;
}

static const char *const PT_VAR_NAMES[PT_NW] = {
    "sigma", "sigma1", "sigma2", "sigma3", "d",  "r",  "theta",
    "vd",    "vr",     "omega",  "tau",    "u1", "u2", "sigma4"};

/* The load x, z, vx, vz from sigma (exactly on the path). */
static int pt_outputs(const rc_problem *pb, double t, const double *w,
                      double *out) {
  (void)t;
  double P[7][2];
  pt_curve(crane_pathtime_of(pb), w[0], P);
  out[0] = P[0][0];
  out[1] = P[0][1];
  out[2] = P[1][0] * w[1];
  out[3] = P[1][1] * w[1];
  return 0;
}

/* The simple guess: sigma = s(t/T), s the rest-to-rest step of path.h
 * (126a^5 - 420a^6 + 540a^7 - 315a^8 + 70a^9), T the starting tf (as
 * mintime); the copies y from the flat inverse. */
static int pt_guess(const rc_problem *pb, double t, double *w) {
  const double T = pb->tf - pb->t0;
  double a = (t - pb->t0) / T;
  a = a < 0 ? 0 : a > 1 ? 1 : a;
  for (int k = 0; k < PT_N; ++k)
    w[PT_WIN[k]] = rc_crane_smooth_step(k, a) / pow(T, k);
  pt_vals o;
  if (pt_eval_all(crane_pathtime_of(pb), w, &o))
    return -1;
  for (int k = 0; k < PT_NY; ++k)
    w[PT_NX + k] = o.y[k].v;
  return 0;
}

/* pathtime's limits: 0 <= sigma <= 1, sigma' >= 0 (monotone), the copies
 * y = (d, r, theta, vd, vr, omega, tau, u1, u2) within the crane's limits
 * and b >= 1 % of m g (the flat inverse's domain). */
static void pathtime_limits(crane_pathtime *pt, const double *v) {
  crane_model *cm = &pt->mt.base;
  for (int i = 0; i < NWMAX; ++i) {
    cm->w_lo[i] = -HUGE_VAL;
    cm->w_hi[i] = HUGE_VAL;
  }
  cm->w_lo[0] = 0.0;
  cm->w_hi[0] = 1.0;
  cm->w_lo[1] = 0.0;
  /* the copies y = w[PT_NX ..] are in the point-vector order d .. u2 */
  rc_crane_limits_as_bounds(v, cm->w_lo + PT_NX, cm->w_hi + PT_NX);
  pt->c_lo[0] = 0.01 * cm->par.m * cm->par.g; /* b: the flat inverse's */
  pt->c_hi[0] = HUGE_VAL;                     /* domain */
}

/* The curve hangs below the rail and its ends are reachable at rest:
 * rmin <= z <= rmax (and z > 0) at sigma = 0 and 1, z > 0 along the whole
 * curve (scanned at 200 points per segment; the flat inverse needs
 * p2 > 0). */
static rc_err check_curve_depth(const rc_crane_path *curve, const char *file,
                                const double *v, rc_error *err) {
  double P[2][7][2];
  rc_crane_curve_eval(curve, 0.0, P[0]);
  rc_crane_curve_eval(curve, 1.0, P[1]);
  for (int e = 0; e < 2; ++e)
    if (!(P[e][0][1] >= fmax(v[P_RMIN], 1e-9) && P[e][0][1] <= v[P_RMAX]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: curve '%s': the %s point is at depth z = "
                          "%g m, the cable length at rest there: expected "
                          "z > 0 and rmin = %g <= z <= rmax = %g",
                          file, e ? "end" : "start", P[e][0][1], v[P_RMIN],
                          v[P_RMAX]);
  const int nscan = 200 * (curve->n - 1);
  for (int k = 0; k <= nscan; ++k) {
    double Q[7][2];
    const double sg = (double)k / nscan;
    rc_crane_curve_eval(curve, sg, Q);
    if (!(Q[0][1] > 0.0))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: curve '%s' reaches z = %g m at sigma = "
                          "%g (x = %g m), at or above the rail: expected "
                          "z > 0 along the whole interpolated curve",
                          file, Q[0][1], sg, Q[0][0]);
  }
  return RC_OK;
}

/* The curve of file replaces the straight line as the path (cm->path): the
 * straight line's end parameters must not be set, the curve must pass
 * check_curve_depth, and an unset tf starts at the straight line's T scaled
 * like a bang-bang time, sqrt(length / chord). */
static rc_err pathtime_curve(crane_model *cm, const rc_param_values *pv,
                             const char *file, rc_error *err) {
  static const int ends[4] = {P_XS, P_ZS, P_XE, P_ZE};
  rc_problem *pb = &cm->pb;
  const double *v = pv->real;
  for (int k = 0; k < 4; ++k)
    if (pv->is_set && pv->is_set[ends[k]])
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: %s = %g with curve = '%s': expected no "
                          "%s (the curve's first and last rows are the "
                          "start and end)",
                          rc_crane_param_defs[ends[k]].name, v[ends[k]], file,
                          rc_crane_param_defs[ends[k]].name);
  rc_crane_path curve;
  rc_err rc = rc_crane_curve_read_csv(&curve, file, err);
  if (rc == RC_OK)
    rc = check_curve_depth(&curve, file, v, err);
  if (rc != RC_OK) {
    rc_crane_path_free(&curve);
    return rc;
  }
  const double L = rc_crane_curve_length(&curve);
  const double chord = hypot(v[P_XE] - v[P_XS], v[P_ZE] - v[P_ZS]);
  if (!(pv->is_set && pv->is_set[P_TF]) && chord > 0.0)
    pb->tf = fmin(pb->tf_hi, fmax(pb->tf_lo, pb->tf * sqrt(L / chord)));
  rc_crane_path_free(&cm->path);
  cm->path = curve; /* owned from now on (rc_crane_destroy frees it) */
  return RC_OK;
}

/* pathtime's dimensions, boundary values and kit functions: sigma and its
 * derivatives at rest at both ends; the straight line's P0 and D. */
static void pathtime_dims(crane_pathtime *pt, const double *v,
                          rc_kit_spec *ks) {
  crane_model *cm = &pt->mt.base;
  rc_problem *pb = &cm->pb;
  const double x0[PT_NX] = {0, 0, 0, 0}, xf[PT_NX] = {1, 0, 0, 0};
  memcpy(cm->x0, x0, sizeof x0);
  memcpy(cm->xf, xf, sizeof xf);
  pt->p0[0] = v[P_XS];
  pt->p0[1] = v[P_ZS];
  pt->dp[0] = v[P_XE] - v[P_XS];
  pt->dp[1] = v[P_ZE] - v[P_ZS];
  for (int i = 0; i < NX; ++i)
    cm->fix_x0[i] = cm->fix_xf[i] = i < PT_NX;
  crane_dims(pb, PT_NX, PT_NY, 1, PT_VAR_NAMES);
  pb->nc = PT_NC;
  pb->has_lagrange = 0;
  /* y(t0), u(t0) are NLP variables: g holds at t0 and the Bernstein rows
   * cover element 0 through them (docs/dense-bounds.md, 1a) */
  pb->t0_algebraic = 1;
  pb->c_lo = pt->c_lo;
  pb->c_hi = pt->c_hi;
  crane_blocks(pb, ks, pathtime_point, NULL, NULL, 0);
  /* ks->boundary stays mintime_boundary: phi = tf at z[2 nx] */
  pb->nout = 4;
  pb->out_names = rc_crane_out_names;
  pb->outputs = pt_outputs;
  pb->guess = pt_guess;
}

/* Turns a mintime problem (limits checked, free tf, starting T set) into
 * pathtime: its dimensions, limits and kit functions, along the straight
 * line or a curve file. */
static rc_err pathtime_finish(crane_pathtime *pt, const rc_param_values *pv,
                              rc_kit_spec *ks, rc_error *err) {
  const double *v = pv->real;
  if (pt->mt.nstack > 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: stack with formulation pathtime: expected no "
                        "stack (the load stays on the path)");
  if (v[P_UREG] > 0.0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: ureg = %g with formulation pathtime: expected "
                        "0 (not implemented there)",
                        v[P_UREG]);
  pathtime_limits(pt, v);
  const char *file = pv->text ? pv->text[P_CURVE] : NULL;
  if (file && *file) {
    rc_err rc = pathtime_curve(&pt->mt.base, pv, file, err);
    if (rc != RC_OK)
      return rc;
  }
  pathtime_dims(pt, v, ks);
  return RC_OK;
}

/* pathtime: mintime's checks, free tf and starting T, then its own
 * dimensions, limits and kit functions. */
rc_err rc_crane_pathtime_setup(crane_model *cm, const rc_param_values *pv,
                               const crane_choices *ch, rc_kit_spec *ks,
                               rc_error *err) {
  const rc_err rc = rc_crane_mintime_setup(cm, pv, ch, ks, err);
  if (rc != RC_OK)
    return rc;
  return pathtime_finish(crane_as_pathtime(cm), pv, ks, err);
}
