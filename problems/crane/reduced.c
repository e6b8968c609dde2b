/*
 * crane/reduced.c - the formulations that impose the path on the index-1
 * model (model.c) with the quantities along it (along.c):
 *
 *   flat     the flat inverse sampled on the mesh (no NLP); the point block
 *            is the index-1 model (f, G) so that it can be checked and
 *            diagnosed.
 *   servo    the index-1 model + path constraints x - p1 = 0, z - p2 = 0 at
 *            the collocation points (index 5, transcribed directly).
 *   reduced  the note's index reduction completed (docs/crane-index-
 *            reduction.md): u1, u2 become algebraic, with
 *              0 = G,
 *              0 = G2 := tau - P,                 P = a s + b c,
 *              0 = G3 := T - 2 S om - Q om^2 - P Om,
 *            a = -M2 p1'', b = m g - M2 p2'', Q = a c - b s,
 *            R = a' c - b' s, S = a' s + b' c, T = a'' c - b'' s; G3 = Q''
 *            along solutions.  Index 1; hidden constraints Q = 0, Q' = R -
 *            P om = 0 and the path levels x - p1, z - p2, vx - p1',
 *            vz - p2'.  project=1 (default): x' = f + mu and the six hidden
 *            constraints h = 0 at every collocation point (mu algebraic,
 *            w = (.., mu)), replaced by mu = 0 at t0 where x is fixed; no
 *            drift (docs/crane-index-reduction.md, section 6).
 *
 * Invariants: flat G, x - p1, z - p2; servo x - p1, z - p2, vx - p1',
 * vz - p2'; reduced those four and Q, Q'.  G2 and G3 are written with
 * their derivatives in the order of the terms; the projection rows (mu_j
 * at t0, h_j elsewhere) are both written at every t, the unused one times
 * 0, so that the pattern is their union.
 */
#include "crane.h"

static const char *const SERVO_NOTE =
    "the index-5 path constraint is transcribed directly: with s "
    "Radau IIA stages expect about order s for vx vz, s-1 for theta tau d r, "
    "s-2 for vd vr and s-3 for u1 u2 (with s <= 3 the controls do not "
    "converge); for the controls use -f reduced, flat or track";

static const char *const REDUCED_PLAIN_NOTE =
    "project=0: the hidden constraints (path, Q, Q') are not imposed and "
    "drift on long horizons (roughly like t^4); check the invariants x-p1, "
    "z-p2 on the dense grid, or use project=1";

/* reduced: 0 = G2 = tau - P */
static void row_g2(rc_kit *k, int i, const double *w, const crane_along *X) {
  rc_kit_row(k, i, w[ITAU] - X->P);
  rc_kit_d(k, ITAU, 1.0);
  rc_kit_d(k, ITH, -X->Q);
  rc_kit_d2(k, ITH, ITH, X->P);
}

/* reduced: 0 = G3 = T - 2 S om - Q om^2 - P Om: -P times Om's entries, plus
 * the (th, .) column and (om, om) of the other terms. */
static void row_g3(rc_kit *k, int i, const double *w, const crane_core *K,
                   const crane_along *X) {
  const double om = w[IOM], P = X->P, Q = X->Q, R = X->R, S = X->S;
  rc_kit_row(k, i, X->T - 2.0 * S * om - Q * om * om - P * K->Om);
  if (rc_kit_order(k) < 1)
    return;
  static const int in[] = {IR, ITH, IVD, IVR, IOM, ITAU, IU1};
  for (size_t j = 0; j < sizeof in / sizeof *in; ++j) {
    double v = -P * K->Om_g[in[j]];
    if (in[j] == ITH)
      v += -X->U - 2.0 * R * om + P * om * om - Q * K->Om;
    if (in[j] == IOM)
      v += -2.0 * S - 2.0 * Q * om;
    rc_kit_d(k, in[j], v);
  }
  if (rc_kit_order(k) < 2)
    return;
  const double *g = K->Om_g;
  rc_kit_d2(k, IR, IR, -P * K->Om_rr);
  rc_kit_d2(k, ITH, IR, -P * K->Om_rk[ITH] + -Q * g[IR]);
  for (size_t j = 2; j < sizeof in / sizeof *in; ++j)
    rc_kit_d2(k, in[j], IR, -P * K->Om_rk[in[j]]);
  rc_kit_d2(k, ITH, ITH,
            -P * K->Om_thth + (-2.0 * Q * g[ITH] + P * K->Om - X->T +
                               2.0 * S * om + Q * om * om));
  rc_kit_d2(k, IVD, ITH, -P * K->Om_thvd + -Q * g[IVD]);
  rc_kit_d2(k, IVR, ITH, -Q * g[IVR]);
  rc_kit_d2(k, IOM, ITH, -Q * g[IOM] + (-2.0 * R + 2.0 * P * om));
  rc_kit_d2(k, ITAU, ITH, -P * K->Om_thtau + -Q * g[ITAU]);
  rc_kit_d2(k, IU1, ITH, -P * K->Om_thu1 + -Q * g[IU1]);
  rc_kit_d2(k, IOM, IVR, -P * K->Om_vrom);
  rc_kit_d2(k, IOM, IOM, -2.0 * Q);
}

static const char *const INV_SERVO[] = {"x-p1", "z-p2", "vx-p1'", "vz-p2'"};

static const char *const INV_HIDDEN[] = {"x-p1",   "z-p2", "vx-p1'",
                                         "vz-p2'", "Q",    "Q'"};

static int flat_point(const rc_problem *pb, double t, const double *w,
                      rc_kit *k) {
  (void)t;
  crane_core K;
  return rc_crane_rows_model(crane_of(pb), w, 0, k, &K);
}

static int servo_point(const rc_problem *pb, double t, const double *w,
                       rc_kit *k) {
  crane_core K;
  crane_along X;
  const int rc = rc_crane_rows_along(crane_of(pb), t, w, 0, k, &K, &X);
  if (rc)
    return rc;
  rc_crane_rows_path(k, 7, 2, 1.0, w, &X);
  return 0;
}

static int reduced_point(const rc_problem *pb, double t, const double *w,
                         rc_kit *k) {
  const int project = pb->ny > 3; /* the multipliers mu follow G, G2, G3 */
  crane_core K;
  crane_along X;
  const int rc = rc_crane_rows_along(crane_of(pb), t, w, project, k, &K, &X);
  if (rc)
    return rc;
  row_g2(k, 7, w, &X);
  row_g3(k, 8, w, &K, &X);
  if (project) { /* docs/crane-index-reduction.md, "Projection" */
    const double at_t0 = t == pb->t0 ? 1.0 : 0.0;
    rc_crane_rows_path(k, 9, NX, 1.0 - at_t0, w, &X);
    for (int j = 0; j < NX; ++j) {
      rc_kit_row(k, 9 + j, at_t0 * w[IMU + j]);
      rc_kit_d(k, IMU + j, at_t0);
    }
  }
  return 0;
}

/* The path quantities at (t, w) without the core (invariants). */
static int along_only(const rc_problem *pb, double t, const double *w,
                      crane_along *X) {
  double s, c;
  if (rc_crane_core_trig(w, &s, &c))
    return 1;
  rc_crane_along_at(crane_of(pb), t, w, s, c, X);
  return 0;
}

/* servo: x - p1, z - p2, vx - p1', vz - p2'; reduced: those and Q, Q'. */
static int path_inv(const rc_problem *pb, double t, const double *w,
                    rc_kit *k) {
  crane_along X;
  if (along_only(pb, t, w, &X))
    return 1;
  rc_crane_rows_path(k, 0, pb->ninv, 1.0, w, &X);
  return 0;
}

/* flat: the flat inverse sampled on the mesh (no NLP). */
rc_err rc_crane_flat_setup(crane_model *cm, const rc_param_values *pv,
                           const crane_choices *ch, rc_kit_spec *ks,
                           rc_error *err) {
  (void)pv, (void)ch, (void)err; /* unused (crane_setup_fn) */
  rc_problem *pb = &cm->pb;
  pb->sampled_reference = 1;
  crane_blocks(pb, ks, flat_point, rc_crane_tension_path_inv,
               rc_crane_inv_tension_path, 3);
  return RC_OK;
}

/* servo: the path constraints x = p1, z = p2 at the collocation points. */
rc_err rc_crane_servo_setup(crane_model *cm, const rc_param_values *pv,
                            const crane_choices *ch, rc_kit_spec *ks,
                            rc_error *err) {
  (void)pv, (void)ch, (void)err; /* unused (crane_setup_fn) */
  rc_problem *pb = &cm->pb;
  pb->nc = 2;
  pb->index = 5;
  pb->t0_algebraic = 0; /* x(t0) fixed: c at t0 would repeat it */
  pb->note = SERVO_NOTE;
  crane_blocks(pb, ks, servo_point, path_inv, INV_SERVO, 4);
  return RC_OK;
}

/* reduced: u1, u2 algebraic, G2, G3, and with project=1 the multipliers. */
rc_err rc_crane_reduced_setup(crane_model *cm, const rc_param_values *pv,
                              const crane_choices *ch, rc_kit_spec *ks,
                              rc_error *err) {
  (void)ch, (void)err;
  rc_problem *pb = &cm->pb;
  pb->ny = 3;
  pb->nu = 0;
  if (pv->real[P_PROJECT] != 0.0) /* docs/crane-index-reduction.md */
    pb->ny = 3 + NX;
  else
    pb->note = REDUCED_PLAIN_NOTE;
  crane_blocks(pb, ks, reduced_point, path_inv, INV_HIDDEN, NX);
  return RC_OK;
}
