/*
 * crane/along.c - the crane along its load path p = (p1, p2) (path.h): the
 * path quantities at t, the tracking errors and the hidden constraints of
 * the reduced formulation as rows, and the invariants of flat and track.
 *
 * With a = -M2 p1'', b = m g - M2 p2'' (and a', a'', b', b'' from p''',
 * p''''), s = sin th, c = cos th:
 *   P = a s + b c,  Q = a c - b s,  R = a' c - b' s,  S = a' s + b' c,
 *   T = a'' c - b'' s,  U = a'' s + b'' c,
 * and the rows (each times a factor sc, 0 where the projection replaces
 * them at t0):
 *   x - p1 = r s + d - p1,            z - p2 = r c - p2,
 *   vx - p1' = vr s + r om c + vd - p1',  vz - p2' = vr c - r om s - p2',
 *   Q,  Q' = R - P om (along solutions of the index-1 model).
 * rc_crane_rows_path writes the first n of these six rows (servo's path
 * constraints and invariants: 2 and 4; reduced's hidden constraints: 6).
 * Invariants of flat and track: G (model.c), x - p1, z - p2.
 */
#include <math.h>

#include "crane.h"

static void path_at(const crane_model *cm, double t, crane_pathq *q) {
  rc_crane_path_eval(&cm->path, t, q->p1, q->p2);
  const double M2 = cm->par.M2;
  q->a = -M2 * q->p1[2];
  q->ad = -M2 * q->p1[3];
  q->add = -M2 * q->p1[4];
  q->b = cm->par.m * cm->par.g - M2 * q->p2[2];
  q->bd = -M2 * q->p2[3];
  q->bdd = -M2 * q->p2[4];
}

void rc_crane_along_at(const crane_model *cm, double t, const double *w,
                       double s, double c, crane_along *X) {
  path_at(cm, t, &X->q);
  const crane_pathq *q = &X->q;
  X->s = s;
  X->c = c;
  X->ex = w[IR] * s + w[ID] - q->p1[0];
  X->ez = w[IR] * c - q->p2[0];
  X->P = q->a * s + q->b * c;
  X->Q = q->a * c - q->b * s;
  X->R = q->ad * c - q->bd * s;
  X->S = q->ad * s + q->bd * c;
  X->T = q->add * c - q->bdd * s;
  X->U = q->add * s + q->bdd * c;
}

/* The hidden constraints (reduced) and tracking errors, each times sc (the
 * projection writes them with sc = 0 at t0, where mu_i = 0 replaces them). */

/* x - p1 = r s + d - p1 */
static void row_ex(rc_kit *k, int i, double sc, const double *w,
                   const crane_along *X) {
  const double r = w[IR], s = X->s, c = X->c;
  rc_kit_row(k, i, sc * X->ex);
  rc_kit_d(k, ID, sc * 1.0);
  rc_kit_d(k, IR, sc * s);
  rc_kit_d(k, ITH, sc * (r * c));
  rc_kit_d2(k, ITH, IR, sc * c);
  rc_kit_d2(k, ITH, ITH, sc * (-r * s));
}

/* z - p2 = r c - p2 */
static void row_ez(rc_kit *k, int i, double sc, const double *w,
                   const crane_along *X) {
  const double r = w[IR], s = X->s, c = X->c;
  rc_kit_row(k, i, sc * X->ez);
  rc_kit_d(k, IR, sc * c);
  rc_kit_d(k, ITH, sc * (-r * s));
  rc_kit_d2(k, ITH, IR, sc * (-s));
  rc_kit_d2(k, ITH, ITH, sc * (-r * c));
}

/* vx - p1' = vr s + r om c + vd - p1' */
static void row_evx(rc_kit *k, int i, double sc, const double *w,
                    const crane_along *X) {
  const double r = w[IR], vr = w[IVR], om = w[IOM], s = X->s, c = X->c;
  rc_kit_row(k, i, sc * (vr * s + r * om * c + w[IVD] - X->q.p1[1]));
  if (rc_kit_order(k) < 1)
    return;
  rc_kit_d(k, IVR, sc * s);
  rc_kit_d(k, IR, sc * (om * c));
  rc_kit_d(k, IOM, sc * (r * c));
  rc_kit_d(k, ITH, sc * (vr * c - r * om * s));
  rc_kit_d(k, IVD, sc * 1.0);
  rc_kit_d2(k, IVR, ITH, sc * c);
  rc_kit_d2(k, IOM, IR, sc * c);
  rc_kit_d2(k, ITH, IR, sc * (-om * s));
  rc_kit_d2(k, IOM, ITH, sc * (-r * s));
  rc_kit_d2(k, ITH, ITH, sc * (-vr * s - r * om * c));
}

/* vz - p2' = vr c - r om s - p2' */
static void row_evz(rc_kit *k, int i, double sc, const double *w,
                    const crane_along *X) {
  const double r = w[IR], vr = w[IVR], om = w[IOM], s = X->s, c = X->c;
  rc_kit_row(k, i, sc * (vr * c - r * om * s - X->q.p2[1]));
  if (rc_kit_order(k) < 1)
    return;
  rc_kit_d(k, IVR, sc * c);
  rc_kit_d(k, IR, sc * (-om * s));
  rc_kit_d(k, IOM, sc * (-r * s));
  rc_kit_d(k, ITH, sc * (-vr * s - r * om * c));
  rc_kit_d2(k, IVR, ITH, sc * (-s));
  rc_kit_d2(k, IOM, IR, sc * (-s));
  rc_kit_d2(k, ITH, IR, sc * (-om * c));
  rc_kit_d2(k, IOM, ITH, sc * (-r * c));
  rc_kit_d2(k, ITH, ITH, sc * (-vr * c + r * om * s));
}

/* Q = a c - b s */
static void row_q(rc_kit *k, int i, double sc, const crane_along *X) {
  rc_kit_row(k, i, sc * X->Q);
  rc_kit_d(k, ITH, sc * (-X->P));
  rc_kit_d2(k, ITH, ITH, sc * (-X->Q));
}

/* Q' = R - P om */
static void row_qd(rc_kit *k, int i, double sc, const double *w,
                   const crane_along *X) {
  const double om = w[IOM];
  rc_kit_row(k, i, sc * (X->R - X->P * om));
  rc_kit_d(k, ITH, sc * (-X->S - X->Q * om));
  rc_kit_d(k, IOM, sc * (-X->P));
  rc_kit_d2(k, ITH, ITH, sc * (-X->R + X->P * om));
  rc_kit_d2(k, IOM, ITH, sc * (-X->Q));
}

void rc_crane_rows_path(rc_kit *k, int i0, int n, double sc, const double *w,
                        const crane_along *X) {
  if (n > 0)
    row_ex(k, i0, sc, w, X);
  if (n > 1)
    row_ez(k, i0 + 1, sc, w, X);
  if (n > 2)
    row_evx(k, i0 + 2, sc, w, X);
  if (n > 3)
    row_evz(k, i0 + 3, sc, w, X);
  if (n > 4)
    row_q(k, i0 + 4, sc, X);
  if (n > 5)
    row_qd(k, i0 + 5, sc, w, X);
}

int rc_crane_rows_along(const crane_model *cm, double t, const double *w,
                        int project, rc_kit *k, crane_core *K, crane_along *X) {
  const int rc = rc_crane_rows_model(cm, w, project, k, K);
  if (rc == 0)
    rc_crane_along_at(cm, t, w, K->s, K->c, X);
  return rc;
}

/* The invariants of flat and track: G, x - p1, z - p2. */
const char *const rc_crane_inv_tension_path[3] = {"tension_eq", "x-p1", "z-p2"};

int rc_crane_tension_path_inv(const rc_problem *pb, double t, const double *w,
                              rc_kit *k) {
  const crane_model *cm = crane_of(pb);
  crane_core K;
  const int rc = rc_crane_core_eval(cm, w, rc_kit_order(k), &K);
  if (rc)
    return rc;
  crane_along X;
  rc_crane_along_at(cm, t, w, K.s, K.c, &X);
  rc_crane_row_G(k, 0, &K);
  rc_crane_rows_path(k, 1, 2, 1.0, w, &X);
  return 0;
}
