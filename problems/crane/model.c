/*
 * crane/model.c - the crane's index-1 model, shared by every formulation
 * but pathtime: the core A, B, Om, G with their partial derivatives, one
 * row writer per equation, the derived outputs, the reference by flatness,
 * the guess and the problem's destructor.
 *
 * Units SI; z positive downward, theta the cable angle from the vertical.
 * Trolley position d, cable length r, load (x, z) = (r sin th + d, r cos th),
 * tension tau, trolley force u1 [N], winch torque u2 [N m].  Defaults:
 * M1 = 10 kg, M2 = m = 2 kg, J = 0.01 kg m^2, C1 = 1 N s/m, C2 = 0.005
 * N m s, C3 = 0.1 m (drum radius), g = 9.81 m/s^2, tf = 6 s, path from
 * (0, 2) to (4, 1) m (path.h).
 *
 * Point vector: w = (d, r, th, vd, vr, om | tau | u1, u2) (crane.h: ID ..
 * IU2; reduced with projection appends mu_d .. mu_omega) with s = sin th,
 * c = cos th and
 *   A  = (-C1 vd + u1 + tau s) / M1                      (= vd')
 *   B  = (-C2 vr - C3 u2 + C3^2 tau) / J                 (= vr')
 *   Om = (-(m/M2) g s - A c - 2 vr om) / r               (= om')
 * Index-1 model (tangential and radial components of M2 (x'', z'') =
 * (-tau s, m g - tau c) with x'' = r'' s + 2 r' th' c + r (th'' c - th'^2 s)
 * + d'' and z'' = r'' c - 2 r' th' s - r (th'' s + th'^2 c)):
 *   d' = vd, r' = vr, th' = om, vd' = A, vr' = B, om' = Om,
 *   0 = G := tau - m g c + M2 (A s + B - r om^2),
 *   dG/dtau = 1 + (M2/M1) s^2 + M2 C3^2 / J > 0.
 * Outputs: x, z, vx = vr s + r om c + vd, vz = vr c - r om s.
 * Reference: the exact flat inverse of the path (path.h), the projection
 * multipliers 0.
 *
 * Derivatives are hand-coded in the order of the equations with the
 * derivative kit (radcol/kit.h): rc_crane_core_eval computes A, B, Om, G and
 * their partials, and one writer per row states the row's value and its
 * Jacobian and Hessian entries together (the entries written are the
 * pattern, so only entries that are not identically zero are declared).
 * The projection terms (+ mu_i) are linear with coefficient 1.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crane.h"

const char *const rc_crane_var_names[NWMAX] = {
    "d",  "r",    "theta", "vd",       "vr",    "omega", "tau",     "u1",
    "u2", "mu_d", "mu_r",  "mu_theta", "mu_vd", "mu_vr", "mu_omega"};

const char *const rc_crane_out_names[4] = {"x", "z", "vx", "vz"};

/* sin and cos of th; 1 (recoverable) outside the model's domain r > 0. */
int rc_crane_core_trig(const double *w, double *s, double *c) {
  if (!(w[IR] > 0.0) || !isfinite(w[IR]) || !isfinite(w[ITH]))
    return 1; /* outside the domain of Om: the solver may step back */
  *s = sin(w[ITH]);
  *c = cos(w[ITH]);
  return 0;
}

int rc_crane_core_eval(const crane_model *cm, const double *w, int order,
                       crane_core *K) {
  const rc_crane_params *P = &cm->par;
  const double r = w[IR], vd = w[IVD], vr = w[IVR], om = w[IOM];
  const double tau = w[ITAU], u1 = w[IU1], u2 = w[IU2];
  double s, c;
  if (rc_crane_core_trig(w, &s, &c))
    return 1;
  const double M1 = P->M1, M2 = P->M2, J = P->J, mgM = P->m * P->g / M2;
  K->s = s;
  K->c = c;
  const double A = (-P->C1 * vd + u1 + tau * s) / M1;
  const double B = (-P->C2 * vr - P->C3 * u2 + P->C3 * P->C3 * tau) / J;
  const double N = -mgM * s - A * c - 2.0 * vr * om;
  K->A = A;
  K->B = B;
  K->N = N;
  K->Om = N / r;
  K->G = tau - P->m * P->g * c + M2 * (A * s + B - r * om * om);
  if (order < 1)
    return 0;
  K->A_vd = -P->C1 / M1;
  K->A_u1 = 1.0 / M1;
  K->A_tau = s / M1;
  K->A_th = tau * c / M1;
  K->B_vr = -P->C2 / J;
  K->B_u2 = -P->C3 / J;
  K->B_tau = P->C3 * P->C3 / J;
  /* N = -(m g/M2) s - A c - 2 vr om, then Om = N / r */
  double Ng[NW] = {0};
  Ng[IVD] = -K->A_vd * c;
  Ng[IU1] = -K->A_u1 * c;
  Ng[ITAU] = -K->A_tau * c;
  Ng[ITH] = -mgM * c - K->A_th * c + A * s;
  Ng[IVR] = -2.0 * om;
  Ng[IOM] = -2.0 * vr;
  for (int k = 0; k < NW; ++k)
    K->Om_g[k] = Ng[k] / r;
  K->Om_g[IR] = -N / (r * r);
  /* G = tau - m g c + M2 (A s + B - r om^2) */
  K->G_r = -M2 * om * om;
  K->G_th = M2 * (K->A_th * s) + (P->m * P->g * s + M2 * A * c);
  K->G_vd = M2 * (K->A_vd * s);
  K->G_vr = M2 * K->B_vr;
  K->G_om = -2.0 * M2 * r * om;
  K->G_tau = M2 * (K->A_tau * s + K->B_tau) + 1.0;
  K->G_u1 = M2 * (K->A_u1 * s);
  K->G_u2 = M2 * K->B_u2;
  if (order < 2)
    return 0;
  K->A_thth = -tau * s / M1;
  K->A_thtau = c / M1;
  /* N's Hessian: (th, th), (th, vd), (th, tau), (th, u1), (vr, om) = -2 */
  const double N_thth = mgM * s - K->A_thth * c + 2.0 * K->A_th * s + A * c;
  const double N_thvd = K->A_vd * s, N_thu1 = K->A_u1 * s;
  const double N_thtau = -K->A_thtau * c + K->A_tau * s;
  /* Om = N / r */
  K->Om_thth = N_thth / r;
  K->Om_thvd = N_thvd / r;
  K->Om_thtau = N_thtau / r;
  K->Om_thu1 = N_thu1 / r;
  K->Om_vrom = -2.0 / r;
  for (int k = 0; k < NW; ++k)
    K->Om_rk[k] = -Ng[k] / (r * r);
  K->Om_rr = 2.0 * N / (r * r * r);
  /* G */
  K->G_thth =
      P->m * P->g * c + M2 * (K->A_thth * s + 2.0 * K->A_th * c - A * s);
  K->G_thvd = M2 * (K->A_vd * c);
  K->G_thtau = M2 * (K->A_thtau * s + K->A_tau * c);
  K->G_thu1 = M2 * (K->A_u1 * c);
  K->G_rom = -2.0 * M2 * om;
  K->G_omom = -2.0 * M2 * r;
  return 0;
}

/* ---- rows of the model: f and G -------------------------------------------
 * Each writer states a row's value and its derivative entries together
 * (radcol/kit.h); the entries it writes are the row's pattern. */

/* vd' = A */
static void row_A(rc_kit *k, int i, const crane_core *K) {
  rc_kit_row(k, i, K->A);
  if (rc_kit_order(k) < 1)
    return;
  rc_kit_d(k, ITH, K->A_th);
  rc_kit_d(k, IVD, K->A_vd);
  rc_kit_d(k, ITAU, K->A_tau);
  rc_kit_d(k, IU1, K->A_u1);
  rc_kit_d2(k, ITH, ITH, K->A_thth);
  rc_kit_d2(k, ITAU, ITH, K->A_thtau);
}

/* vr' = B (linear) */
static void row_B(rc_kit *k, int i, const crane_core *K) {
  rc_kit_row(k, i, K->B);
  rc_kit_d(k, IVR, K->B_vr);
  rc_kit_d(k, ITAU, K->B_tau);
  rc_kit_d(k, IU2, K->B_u2);
}

/* om' = Om = N / r */
static void row_Om(rc_kit *k, int i, const crane_core *K) {
  static const int in[] = {IR, ITH, IVD, IVR, IOM, ITAU, IU1};
  rc_kit_row(k, i, K->Om);
  if (rc_kit_order(k) < 1)
    return;
  for (size_t j = 0; j < sizeof in / sizeof *in; ++j)
    rc_kit_d(k, in[j], K->Om_g[in[j]]);
  rc_kit_d2(k, IR, IR, K->Om_rr);
  for (size_t j = 1; j < sizeof in / sizeof *in; ++j)
    rc_kit_d2(k, in[j], IR, K->Om_rk[in[j]]);
  rc_kit_d2(k, ITH, ITH, K->Om_thth);
  rc_kit_d2(k, IVD, ITH, K->Om_thvd);
  rc_kit_d2(k, ITAU, ITH, K->Om_thtau);
  rc_kit_d2(k, IU1, ITH, K->Om_thu1);
  rc_kit_d2(k, IOM, IVR, K->Om_vrom);
}

/* 0 = G = tau - m g c + M2 (A s + B - r om^2) */
void rc_crane_row_G(rc_kit *k, int i, const crane_core *K) {
  rc_kit_row(k, i, K->G);
  if (rc_kit_order(k) < 1)
    return;
  rc_kit_d(k, IR, K->G_r);
  rc_kit_d(k, ITH, K->G_th);
  rc_kit_d(k, IVD, K->G_vd);
  rc_kit_d(k, IVR, K->G_vr);
  rc_kit_d(k, IOM, K->G_om);
  rc_kit_d(k, ITAU, K->G_tau);
  rc_kit_d(k, IU1, K->G_u1);
  rc_kit_d(k, IU2, K->G_u2);
  rc_kit_d2(k, ITH, ITH, K->G_thth);
  rc_kit_d2(k, IVD, ITH, K->G_thvd);
  rc_kit_d2(k, ITAU, ITH, K->G_thtau);
  rc_kit_d2(k, IU1, ITH, K->G_thu1);
  rc_kit_d2(k, IOM, IR, K->G_rom);
  rc_kit_d2(k, IOM, IOM, K->G_omom);
}

/* Rows 0..6 of every crane formulation: x' = f (rows 0..5) and 0 = G
 * (row 6).  With projection (reduced, project=1) row i gets + mu_i. */
int rc_crane_rows_model(const crane_model *cm, const double *w, int project,
                        rc_kit *k, crane_core *K) {
  const int rc = rc_crane_core_eval(cm, w, rc_kit_order(k), K);
  if (rc)
    return rc;
  rc_kit_row(k, 0, w[IVD]);
  rc_kit_d(k, IVD, 1.0);
  rc_kit_row(k, 1, w[IVR]);
  rc_kit_d(k, IVR, 1.0);
  rc_kit_row(k, 2, w[IOM]);
  rc_kit_d(k, IOM, 1.0);
  row_A(k, 3, K);
  row_B(k, 4, K);
  row_Om(k, 5, K);
  if (project)
    for (int i = 0; i < NX; ++i) {
      rc_kit_row(k, i, w[IMU + i]);
      rc_kit_d(k, IMU + i, 1.0);
    }
  rc_crane_row_G(k, 6, K);
  return 0;
}

int rc_crane_outputs(const rc_problem *pb, double t, const double *w,
                     double *out) {
  (void)pb;
  (void)t;
  const double s = sin(w[ITH]), c = cos(w[ITH]);
  const double r = w[IR], om = w[IOM], vr = w[IVR];
  out[0] = r * s + w[ID];
  out[1] = r * c;
  out[2] = vr * s + r * om * c + w[IVD];
  out[3] = vr * c - r * om * s;
  return 0;
}

void rc_crane_flat_to_w(const rc_crane_flat *f, double *w) {
  w[ID] = f->d;
  w[IR] = f->r;
  w[ITH] = f->theta;
  w[IVD] = f->vd;
  w[IVR] = f->vr;
  w[IOM] = f->omega;
  w[ITAU] = f->tau;
  w[IU1] = f->u1;
  w[IU2] = f->u2;
}

int rc_crane_reference(const rc_problem *pb, int nt, const double *t,
                       double *ref) {
  const crane_model *cm = crane_of(pb);
  const int nw = rc_problem_nw(pb);
  for (int k = 0; k < nt; ++k) {
    rc_crane_flat f;
    if (rc_crane_flat_eval(&cm->par, &cm->path, t[k], &f))
      return -1; /* excluded by the flatness check at create */
    double *row = ref + (size_t)k * (size_t)(nw + 4);
    rc_crane_flat_to_w(&f, row);
    for (int i = NW; i < nw; ++i)
      row[i] = 0.0; /* projection multipliers vanish on exact solutions */
    row[nw + 0] = f.x;
    row[nw + 1] = f.z;
    row[nw + 2] = f.vx;
    row[nw + 3] = f.vz;
  }
  return 0;
}

int rc_crane_guess(const rc_problem *pb, double t, double *w) {
  const crane_model *cm = crane_of(pb);
  const int nw = rc_problem_nw(pb);
  for (int i = NW; i < nw; ++i)
    w[i] = 0.0;
  if (cm->guess_rest) { /* at rest under the trolley at the start point */
    const double mg = cm->par.m * cm->par.g;
    const double rest[NW] = {cm->start_x, cm->start_z,    0, 0, 0, 0, mg,
                             0.0,         cm->par.C3 * mg};
    memcpy(w, rest, sizeof rest);
  } else {
    rc_crane_flat f;
    if (rc_crane_flat_eval(&cm->par, &cm->path, t, &f))
      return -1;
    rc_crane_flat_to_w(&f, w);
  }
  if (t <= pb->t0) { /* the user's initial values where they were set */
    for (int i = 0; i < NX; ++i)
      w[i] = cm->x0[i];
    w[ITAU] = cm->tau0;
  }
  return 0;
}

void rc_crane_destroy(rc_problem *pb) {
  crane_model *cm = (crane_model *)pb->user;
  rc_kit_release(&cm->kit);
  rc_crane_path_free(&cm->path);
  free(cm->mesh_frac);
  rc_origin_free(&cm->origin);
  free(cm);
}
