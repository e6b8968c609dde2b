/*
 * crane/track.c - the formulation track: a tracking OCP on the index-1
 * model (model.c) with the physical limits (docs/crane-jobs.md), and the
 * checks made before solving it.
 *
 * Objective (docs/crane-jobs.md, "Objective"):
 *   min (1/T) int ((x-p1)^2 + (z-p2)^2) / Lref^2
 *                 + eps (((u1-uref1)/U1)^2 + ((u2-uref2)/U2)^2) dt,
 * uref = 0 (uref=zero) or the flat inverse's controls (uref=flat), Lref the
 * path's extent (its depth for a load at rest), U1, U2 the flat inverse's
 * max |u1|, |u2| (or u1max, u2max if smaller; at least 1e-6 (M1+M2) g and
 * C3 times it).  As a Lagrange row L = wq (ex^2 + ez^2) + wu1 du1^2 +
 * wu2 du2^2 with wq = 1/(T Lref^2), wu_i = eps/(T U_i^2), du = u - uref;
 * Ipopt sees it times obj_scale (rc_problem.objective_scale).
 *
 * x(t0) fixed to the consistent state; x(tf) by end=rest (the load at the
 * path's end point at rest: d = p1(tf), r = p2(tf), the rest 0), flat (the
 * flat inverse's end state) or free; the limits (limits.c) as simple
 * bounds.  Before solving: a fixed start or end state outside the limits,
 * and a path whose flat inverse needs tau <= taumin, are input errors;
 * bounds the flat inverse leaves only make exact tracking impossible, which
 * the note says with the extreme value and where; a fixed end the trolley
 * force cannot reach is proved so by the horizontal momentum balance
 * (momentum_reach below) and the solve ends infeasible without the NLP.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "crane.h"

/* track: L = wq (ex^2 + ez^2) + wu1 du1^2 + wu2 du2^2, du = u - uref */
static int row_track(rc_kit *k, int i, const crane_track *ct, double t,
                     const double *w, const crane_along *X) {
  const double q = ct->wq, a1 = ct->wu1, a2 = ct->wu2;
  const double r = w[IR], s = X->s, c = X->c, ex = X->ex, ez = X->ez;
  double du1 = w[IU1], du2 = w[IU2];
  if (ct->uref_flat) { /* uref = the flat inverse's controls at t */
    rc_crane_flat f;
    if (rc_crane_flat_eval(&ct->base.par, &ct->base.path, t, &f))
      return -1; /* excluded by the flatness check at create */
    du1 -= f.u1;
    du2 -= f.u2;
  }
  rc_kit_row(k, i, q * (ex * ex + ez * ez) + a1 * du1 * du1 + a2 * du2 * du2);
  if (rc_kit_order(k) < 1)
    return 0;
  rc_kit_d(k, ID, 2.0 * q * ex);
  rc_kit_d(k, IR, 2.0 * q * (ex * s + ez * c));
  rc_kit_d(k, ITH, 2.0 * q * r * (ex * c - ez * s));
  rc_kit_d(k, IU1, 2.0 * a1 * du1);
  rc_kit_d(k, IU2, 2.0 * a2 * du2);
  rc_kit_d2(k, ID, ID, 2.0 * q);
  rc_kit_d2(k, IR, ID, 2.0 * q * s);
  rc_kit_d2(k, ITH, ID, 2.0 * q * r * c);
  rc_kit_d2(k, IR, IR, 2.0 * q);
  rc_kit_d2(k, ITH, IR, 2.0 * q * (ex * c - ez * s));
  rc_kit_d2(k, ITH, ITH, 2.0 * q * (r * r - r * (ex * s + ez * c)));
  rc_kit_d2(k, IU1, IU1, 2.0 * a1);
  rc_kit_d2(k, IU2, IU2, 2.0 * a2);
  return 0;
}

static int track_point(const rc_problem *pb, double t, const double *w,
                       rc_kit *k) {
  const crane_track *ct = crane_track_of(pb);
  crane_core K;
  crane_along X;
  const int rc = rc_crane_rows_along(&ct->base, t, w, 0, k, &K, &X);
  return rc ? rc : row_track(k, 7, ct, t, w, &X);
}

/* track: only L depends on t, through p(t) in ex = r s + d - p1(t),
 * ez = r c - p2(t) and, with uref=flat, through du = u - u_flat(t)
 * (rc_problem.time_derivs, for free breakpoints):
 *   L_t  = -2 wq (ex p1' + ez p2') - 2 wu1 du1 u1f' - 2 wu2 du2 u2f',
 *   L_tw = -2 wq (p1' dex/dw + p2' dez/dw)   (w = d, r, theta),
 *          -2 wu1 u1f', -2 wu2 u2f'          (w = u1, u2),
 *   L_tt = 2 wq (p1'^2 + p2'^2 - ex p1'' - ez p2'')
 *          + 2 wu_i (u_if'^2 - du_i u_if'')  (i = 1, 2). */
static const int track_time_rows[1] = {7},
                 track_time_cols[5] = {ID, IR, ITH, IU1, IU2};

static int track_time(const rc_problem *pb, double t, const double *w,
                      const double *mu, double *Ft, double *Ftw, double *Ftt) {
  const crane_track *ct = crane_track_of(pb);
  double p1[5], p2[5];
  rc_crane_path_eval(&ct->base.path, t, p1, p2);
  const double q = ct->wq, r = w[IR], s = sin(w[ITH]), c = cos(w[ITH]);
  const double ex = r * s + w[ID] - p1[0], ez = r * c - p2[0];
  double f1[3] = {0.0, 0.0, 0.0}, f2[3] = {0.0, 0.0, 0.0};
  if (ct->uref_flat &&
      rc_crane_flat_u_derivs(&ct->base.par, &ct->base.path, t, f1, f2))
    return -1; /* excluded by the flatness check at create */
  const double a1 = ct->wu1, a2 = ct->wu2;
  const double du1 = w[IU1] - f1[0], du2 = w[IU2] - f2[0];
  Ft[0] = -2.0 * q * (ex * p1[1] + ez * p2[1]) - 2.0 * a1 * du1 * f1[1] -
          2.0 * a2 * du2 * f2[1];
  if (!mu)
    return 0;
  const double m = mu[7];
  Ftw[0] = m * (-2.0 * q * p1[1]);
  Ftw[1] = m * (-2.0 * q * (p1[1] * s + p2[1] * c));
  Ftw[2] = m * (-2.0 * q * r * (p1[1] * c - p2[1] * s));
  Ftw[3] = m * (-2.0 * a1 * f1[1]);
  Ftw[4] = m * (-2.0 * a2 * f2[1]);
  *Ftt =
      m * 2.0 *
      (q * (p1[1] * p1[1] + p2[1] * p2[1] - ex * p1[2] - ez * p2[2]) +
       a1 * (f1[1] * f1[1] - du1 * f1[2]) + a2 * (f2[1] * f2[1] - du2 * f2[2]));
  return 0;
}

static void note_add(crane_model *cm, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void note_add(crane_model *cm, const char *fmt, ...) {
  size_t len = strlen(cm->note);
  if (len + 2 >= sizeof cm->note)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cm->note + len, sizeof cm->note - len, fmt, ap);
  va_end(ap);
}

/* Necessary condition for reaching a fixed end state with |u1| <= a, from
 * the horizontal momentum balance (docs/crane-jobs.md, "End conditions"):
 * X = M1 d + M2 x, P = X', rho = x - d = r sin theta, M = M1 + M2,
 * k = C1 / M:
 *   X(T) - X0 - P0 E = int_0^T e^{-k(T-s)} U(s) ds
 *                      + k M2 int_0^T e^{-k(T-s)} (rho(s) - rho0) ds,
 *   U(t) = int_0^t u1,  U(T) = P_T - P0 + k (X_T - X0) - k M2 (rho_T - rho0),
 *   E = (1 - e^{-kT}) / k.
 * |U'| <= a with U(0) = 0 and U(T) fixed bounds U pointwise by a tent; the
 * weight is positive, so the first integral lies in [lo, hi].  Returns the
 * shortfall (> 0: unreachable unless the sway term supplies it) and the
 * needed and reachable values. */
typedef struct reach {
  double need, lo, hi, sway_gain; /* sway_gain = k M2 E */
  int impulse;                    /* |U(T)| > a T: impossible outright */
  double UT;
} reach;

/* int_0^T e^{-k(T-s)} min(a s, UT + a (T - s)) ds, exactly up to rounding:
 * the integrand is a line times an exponential on each side of the kink,
 * and 8-point Gauss-Legendre integrates such a piece to a relative error
 * below (k T)^16 / 16! -- a proof must not rest on a quadrature error. */
static double tent_integral(double k, double T, double a, double UT) {
  const double *X = rc_crane_gl8_x, *W = rc_crane_gl8_w;
  const double kink = fmin(fmax(0.5 * (UT + a * T) / a, 0.0), T);
  const double cut[3] = {0.0, kink, T};
  double sum = 0.0;
  for (int p = 0; p < 2; ++p) {
    /* sub-pieces of k-length <= 1 keep the bound for long horizons */
    const int m = 1 + (int)fmin(k * (cut[p + 1] - cut[p]), 1e4);
    const double len = (cut[p + 1] - cut[p]) / m;
    for (int j = 0; j < m; ++j) {
      const double c = cut[p] + (j + 0.5) * len, h = 0.5 * len;
      for (int q = 0; q < 8; ++q) {
        const double sv = c + (q < 4 ? -h : h) * X[q % 4];
        sum +=
            h * W[q % 4] * exp(-k * (T - sv)) * fmin(a * sv, UT + a * (T - sv));
      }
    }
  }
  return sum;
}

static void momentum_reach(const crane_model *cm, const double *xs,
                           const double *xe, double T, double a, reach *R) {
  const rc_crane_params *P = &cm->par;
  const double M = P->M1 + P->M2, k = P->C1 / M;
  double X[2], Pm[2], rho[2];
  const double *st[2] = {xs, xe};
  for (int j = 0; j < 2; ++j) {
    const double *x = st[j], s = sin(x[ITH]), c = cos(x[ITH]);
    rho[j] = x[IR] * s;
    const double vx = x[IVD] + x[IVR] * s + x[IR] * x[IOM] * c;
    X[j] = P->M1 * x[ID] + P->M2 * (x[ID] + rho[j]);
    Pm[j] = P->M1 * x[IVD] + P->M2 * vx;
  }
  const double E = k > 0.0 ? -expm1(-k * T) / k : T;
  R->UT = Pm[1] - Pm[0] + k * (X[1] - X[0]) - k * P->M2 * (rho[1] - rho[0]);
  R->need = X[1] - X[0] - Pm[0] * E;
  R->sway_gain = k * P->M2 * E;
  R->impulse = fabs(R->UT) > a * T;
  R->hi = tent_integral(k, T, a, R->UT);
  R->lo = -tent_integral(k, T, a, -R->UT);
}

static const char *const END_NAMES[] = {"rest", "flat"};

/* End condition: rest puts the load at the path's end point with
 * theta = 0, so d = p1(tf), r = p2(tf); flat takes the flat inverse's end
 * state (identical for a path that ends at rest); free fixes nothing. */
static void track_fix_end(crane_model *cm, int end) {
  rc_problem *pb = &cm->pb;
  if (end != 2) {
    rc_crane_flat ff;
    rc_crane_flat_eval(&cm->par, &cm->path, pb->tf, &ff);
    double wf[NW];
    rc_crane_flat_to_w(&ff, wf);
    if (end == 0) {
      const double rest[NX] = {ff.x, ff.z, 0.0, 0.0, 0.0, 0.0};
      memcpy(wf, rest, sizeof rest);
    }
    for (int i = 0; i < NX; ++i) {
      cm->xf[i] = wf[i];
      cm->fix_xf[i] = 1;
    }
    pb->fix_xf = cm->fix_xf;
    pb->xf = cm->xf;
  }
}

/* The fixed start and end states against the bounds, and a path whose
 * flat inverse needs tau <= taumin: input errors. */
static rc_err track_check_fixed(const crane_model *cm, const double *v, int end,
                                const crane_scan *ex, rc_error *err) {
  const rc_problem *pb = &cm->pb;
  for (int i = 0; i < NX; ++i) {
    rc_err rc = rc_crane_check_fixed(cm, v, i, cm->x0[i], pb->t0, "start", err);
    if (rc == RC_OK && end != 2) {
      char which[32];
      snprintf(which, sizeof which, "end (end=%s)", END_NAMES[end]);
      rc = rc_crane_check_fixed(cm, v, i, cm->xf[i], pb->tf, which, err);
    }
    if (rc != RC_OK)
      return rc;
  }
  if (ex->lo[ITAU] <= v[P_TAUMIN])
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: the path needs tension tau = %.4g N <= taumin "
                        "= %g at t = %.4g s (a slack or pushing cable): "
                        "expected a slower or smaller move, or a smaller "
                        "taumin",
                        ex->lo[ITAU], v[P_TAUMIN], ex->t_lo[ITAU]);
  return RC_OK;
}

/* The note: exact tracking is impossible where the flat inverse leaves a
 * bound (the extreme value and where). */
static void track_note_limits(crane_model *cm, const double *v,
                              const crane_scan *ex) {
  int first = 1;
  for (size_t l = 0; l < sizeof rc_crane_limits / sizeof *rc_crane_limits;
       ++l) {
    const crane_limit *L = &rc_crane_limits[l];
    const int i = L->var;
    const char *fmt_hi = "%sflat %s = %.4g %s > %s = %g at t = %.4g s";
    const char *fmt_lo = "%sflat %s = %.4g %s < %s = %g at t = %.4g s";
    const char *lead = first ? "exact tracking is impossible within the "
                               "limits: "
                             : "; ";
    if (L->psym >= 0 && fmax(ex->hi[i], -ex->lo[i]) > v[L->psym]) {
      const int up = ex->hi[i] >= -ex->lo[i];
      note_add(cm, "%sflat |%s| = %.4g %s > %s = %g at t = %.4g s", lead,
               rc_crane_var_names[i], up ? ex->hi[i] : -ex->lo[i], L->unit,
               rc_crane_param_defs[L->psym].name, v[L->psym],
               up ? ex->t_hi[i] : ex->t_lo[i]);
      first = 0;
    }
    if (L->phi >= 0 && ex->hi[i] > v[L->phi]) {
      note_add(cm, fmt_hi, lead, rc_crane_var_names[i], ex->hi[i], L->unit,
               rc_crane_param_defs[L->phi].name, v[L->phi], ex->t_hi[i]);
      first = 0;
    }
    if (L->plo >= 0 && i != ITAU && v[L->plo] > 0.0 && ex->lo[i] < v[L->plo]) {
      note_add(cm, fmt_lo, first ? lead : "; ", rc_crane_var_names[i],
               ex->lo[i], L->unit, rc_crane_param_defs[L->plo].name, v[L->plo],
               ex->t_lo[i]);
      first = 0;
    }
  }
  if (!first)
    note_add(cm, " (the solve tracks as well as the limits allow)");
}

/* Reachability of a fixed end state with |u1| <= u1max (momentum_reach):
 * proved unreachable, pb->infeasible says why (the solve ends infeasible
 * without running the NLP), under the stated cable-length assumption when
 * rmax is not set; otherwise a note on the sway reaching would need. */
static void track_reachability(crane_track *ct, const double *v, int end,
                               const crane_scan *ex) {
  crane_model *cm = &ct->base;
  rc_problem *pb = &cm->pb;
  if (end != 2 && isfinite(v[P_U1MAX])) {
    reach R;
    momentum_reach(cm, cm->x0, cm->xf, pb->tf - pb->t0, v[P_U1MAX], &R);
    const double M = cm->par.M1 + cm->par.M2;
    /* |x - d| = r |sin theta| <= r sin(min(thetamax, pi/2)); without rmax
     * the check assumes r <= reach_rmax (0: 5 times the path's longest
     * cable) and says so: docs/crane-jobs.md, "An end state the limits
     * cannot reach". */
    const double s_th = v[P_THMAX] < 2.0 * atan(1.0) ? sin(v[P_THMAX]) : 1.0;
    const int assumed = !isfinite(v[P_RMAX]);
    const double r_b = !assumed               ? v[P_RMAX]
                       : v[P_REACHRMAX] > 0.0 ? v[P_REACHRMAX]
                                              : 5.0 * ex->hi[IR];
    const double rho0 = fabs(cm->x0[IR] * sin(cm->x0[ITH]));
    const double sway = R.sway_gain > 0.0 ? R.sway_gain * (r_b * s_th + rho0)
                                          : 0.0; /* C1 = 0 */
    const double tol = 1e-6 * (fabs(R.need) + M);
    const double short_hi = R.need - R.hi, short_lo = R.lo - R.need;
    const double gap = fmax(short_hi, short_lo);
    const double reach_m = (gap == short_hi ? R.hi : R.lo) / M;
    /* the smallest cable length that could close the gap */
    const double r_need =
        R.sway_gain > 0.0 ? ((gap - tol) / R.sway_gain - rho0) / s_th : 0.0;
    if (R.impulse || (isfinite(sway) && gap > tol + sway)) {
      /* the solve ends infeasible without running the NLP */
      if (R.impulse)
        snprintf(ct->infeasible, sizeof ct->infeasible,
                 "the end state (end=%s) is unreachable with |u1| <= u1max "
                 "= %g N: the horizontal momentum balance needs a force "
                 "impulse of %.4g N s, more than u1max T = %.4g N s",
                 END_NAMES[end], v[P_U1MAX], fabs(R.UT),
                 v[P_U1MAX] * (pb->tf - pb->t0));
      else {
        char why[384], th_text[64] = "";
        if (isfinite(v[P_THMAX]))
          snprintf(th_text, sizeof th_text, " and thetamax = %g rad",
                   v[P_THMAX]);
        if (R.sway_gain <= 0.0)
          snprintf(why, sizeof why, "(C1 = 0: the sway cannot help)");
        else if (!assumed)
          snprintf(why, sizeof why,
                   "with the sway allowed by rmax = %g m%s (reaching needs "
                   "r > %.4g m)",
                   v[P_RMAX], th_text, r_need);
        else
          snprintf(why, sizeof why,
                   "unless the cable is paid out beyond r = %.4g m to let "
                   "the load swing that far off the trolley's vertical; "
                   "checked for r <= %.4g m (rmax not set: reach_rmax, "
                   "default 5 times the path's longest cable %.4g m; "
                   "a larger reach_rmax (1e100: none) lets the solver search)",
                   r_need, r_b, ex->hi[IR]);
        snprintf(ct->infeasible, sizeof ct->infeasible,
                 "the end state (end=%s) is unreachable with |u1| <= u1max "
                 "= %g N: the horizontal momentum balance of trolley and "
                 "load (%g kg) moves their centre of mass by at most %.4g m "
                 "(needed %.4g m) %s",
                 END_NAMES[end], v[P_U1MAX], M, reach_m, R.need / M, why);
      }
      pb->infeasible = ct->infeasible;
    } else if (gap > tol) {
      note_add(cm,
               "%swith |u1| <= u1max = %g N the horizontal momentum balance "
               "of trolley and load (%g kg) moves their centre of mass by at "
               "most %.4g m (needed %.4g m) unless the cable's sway offset "
               "x - d changes by %.4g m on average (a cable of at least "
               "%.4g m): reaching the end state needs that much sway",
               cm->note[0] ? "; " : "", v[P_U1MAX], M, reach_m, R.need / M,
               gap / R.sway_gain, r_need);
    }
  }
}

/* Objective scales (docs/crane-jobs.md, "Objective"). */
static void track_objective(crane_track *ct, const double *v,
                            const crane_scan *ex) {
  const crane_model *cm = &ct->base;
  rc_problem *pb = &ct->base.pb;
  const double T = pb->tf - pb->t0;
  const double zmax = ex->hi[NW + 1];
  ct->lref = hypot(ex->hi[NW] - ex->lo[NW], zmax - ex->lo[NW + 1]);
  if (!(ct->lref > 1e-3 * zmax))
    ct->lref = zmax; /* a load at rest: its depth */
  const double floor_f = 1e-6 * (cm->par.M1 + cm->par.M2) * cm->par.g;
  ct->u1ref = fmax(fmin(fmax(ex->hi[IU1], -ex->lo[IU1]), v[P_U1MAX]), floor_f);
  ct->u2ref = fmax(fmin(fmax(ex->hi[IU2], -ex->lo[IU2]), v[P_U2MAX]),
                   floor_f * cm->par.C3);
  ct->wq = 1.0 / (T * ct->lref * ct->lref);
  ct->wu1 = ct->eps / (T * ct->u1ref * ct->u1ref);
  ct->wu2 = ct->eps / (T * ct->u2ref * ct->u2ref);
  pb->objective_scale = v[P_SIGMA];
}

/* Limits, checks, end condition, objective scales and the note (track). */
static rc_err track_setup(crane_track *ct, const double *v, int end,
                          const crane_scan *ex, rc_error *err) {
  crane_model *cm = &ct->base;
  rc_crane_limits_as_bounds(v, cm->w_lo, cm->w_hi);
  track_fix_end(cm, end);
  const rc_err rc = track_check_fixed(cm, v, end, ex, err);
  if (rc != RC_OK)
    return rc;
  track_note_limits(cm, v, ex);
  track_reachability(ct, v, end, ex);
  track_objective(ct, v, ex);
  return RC_OK;
}

/* track: limits, checks, end condition, objective and the note. */
rc_err rc_crane_track_setup(crane_model *cm, const rc_param_values *pv,
                            const crane_choices *ch, rc_kit_spec *ks,
                            rc_error *err) {
  crane_track *ct = crane_as_track(cm);
  ct->eps = ch->eps;
  ct->uref_flat = ch->uref_flat;
  rc_problem *pb = &cm->pb;
  pb->has_lagrange = 1;
  pb->t0_algebraic = 0; /* u(t0) would be free: only G(t0) holds it */
  crane_scan ex;
  rc_crane_flat_scan(cm, pb->t0, pb->tf, &ex);
  const rc_err rc = track_setup(ct, pv->real, ch->end, &ex, err);
  if (rc != RC_OK)
    return rc;
  if (cm->note[0])
    pb->note = cm->note;
  crane_blocks(pb, ks, track_point, rc_crane_tension_path_inv,
               rc_crane_inv_tension_path, 3);
  pb->n_time_rows = 1;
  pb->time_rows = track_time_rows;
  pb->n_time_cols = 5;
  pb->time_cols = track_time_cols;
  pb->time_derivs = track_time;
  return RC_OK;
}
