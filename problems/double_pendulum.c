/*
 * double_pendulum.c - the planar double pendulum in Cartesian coordinates
 * (SPEC 4.2, seeds/000), four formulations: index3, index1, baumgarte, angle.
 *
 * Convention: y positive upward, pivot at the origin, point masses m1, m2 on
 * massless rods L1, L2, gravity g downward.  Z = (x1 y1 x2 y2 u1 v1 u2 v2),
 * multipliers lambda = (l1, l2):
 *
 *   x1' = u1, y1' = v1, x2' = u2, y2' = v2,
 *   u1' = (x1 l1 + dx l2)/m1,  v1' = (y1 l1 + dy l2)/m1 - g,
 *   u2' = -dx l2/m2,           v2' = -dy l2/m2 - g,
 *   dx = x1-x2, dy = y1-y2, du = u1-u2, dv = v1-v2, 1/mt = 1/m1 + 1/m2.
 *
 * So (x1, y1) l1 is the force of rod 1 on mass 1 and (dx, dy) l2 the force of
 * rod 2 on mass 1 (minus that on mass 2): a hanging pendulum has l1, l2 < 0.
 * Hidden constraints (invariants, each the half derivative of the previous):
 *
 *   pos1 = x1^2+y1^2-L1^2                 pos2 = dx^2+dy^2-L2^2
 *   vel1 = x1 u1 + y1 v1                  vel2 = dx du + dy dv
 *   acc1 = u1^2+v1^2 + ((x1^2+y1^2) l1 + p l2)/m1 - g y1
 *   acc2 = du^2+dv^2 + p l1/m1 + (dx^2+dy^2) l2/mt,   p = x1 dx + y1 dy,
 *
 * and m1 (acc1, acc2) = A(Z) lambda - b(Z) with A, b as in SPEC 4.2 (the
 * note's (Constraint 1)'' with the missing u1' restored).
 *
 * Formulations (x = Z, y = lambda unless said):
 *   index3    0 = (pos1, pos2)                                     index 3
 *   index1    0 = A lambda - b = m1 (acc1, acc2)                    index 1
 *   baumgarte 0 = A lambda - b_stab
 *               = m1 (acc + 2 eta w vel + (w^2/2) pos)  (per row)  index 1
 *   angle     x = (theta1, theta2, omega1, omega2), the Lagrangian ODE
 *             (m1+m2) L1 a1 + m2 L2 cos(D) a2 = -m2 L2 w2^2 sin D
 *                                                - (m1+m2) g sin th1
 *             L1 cos(D) a1 + L2 a2 = L1 w1^2 sin D - g sin th2,
 *             D = th1 - th2, a_i = omega_i', solved as a 2x2 system.
 *
 * Angles to Cartesian (SPEC 4.2): x1 = L1 sin th1, y1 = -L1 cos th1,
 * x2 = x1 + L2 sin th2, y2 = y1 - L2 cos th2, u1 = L1 w1 cos th1,
 * v1 = L1 w1 sin th1, u2 = u1 + L2 w2 cos th2, v2 = v1 + L2 w2 sin th2.
 * The multipliers of the reference follow from Newton's law for each mass
 * with the Cartesian accelerations of the angle solution:
 *   l2 = m2 (a2 + g e_y).(x2-x1, y2-y1) / L2^2,
 *   l1 = (m1 (a1 + g e_y) - (dx, dy) l2).(x1, y1) / L1^2.
 *
 * Reference: the angle ODE integrated by rc_ode_reference (GSL rk8pd) at
 * tolerance 1e-13.  Guess: the same solution integrated once at create on a
 * uniform grid of RC_DP_GRID points and interpolated by cubic Hermite
 * polynomials (values and exact derivatives), then mapped like the
 * reference.  Output: total energy E = T + V (constant in exact arithmetic).
 *
 * Parameters: m1, m2 (kg), L1, L2 (m), g (m/s^2), theta1, theta2 (rad),
 * omega1, omega2 (rad/s) - the initial angles (the angle formulation's
 * initial state) - eta, dt (s), w (1/s, default 2.4/dt), tf (s), and the
 * Cartesian initial values x10 ... v20, whose defaults come from the angles
 * (a value set by the user replaces the default; consistent initialisation
 * then exposes a conflict).
 *
 * Derivatives (radcol/kit.h): each equation writes its value with its
 * Jacobian and Hessian entries, in the order of the equations above; the
 * patterns are the entries written, recorded by the kit once at create
 * (structural, independent of values).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/kit.h"
#include "radcol/ode_reference.h"
#include "radcol/problem.h"

#include "origin.h"

#define RC_DP_GRID 2001
#define RC_DP_REF_TOL 1e-13
#define RC_DP_MAXW 10

enum { DP_INDEX3 = 0, DP_INDEX1 = 1, DP_BAUMGARTE = 2, DP_ANGLE = 3 };

/* ---- problem data ----------------------------------------------------------
 */

typedef struct dp_data {
  rc_kit_blocks kit; /* first: the kit's callbacks find their blocks here */
  rc_problem pb;
  int form;
  double m1, m2, L1, L2, g, eta, w;
  double ang0[4]; /* theta1, theta2, omega1, omega2 at t0 */
  double x0[8];
  int fix_x0[8];
  double w_lo[RC_DP_MAXW], w_hi[RC_DP_MAXW];
  /* guess: the angle solution on a uniform grid */
  int ngrid;
  double grid_h;
  double *grid_y;         /* ngrid x 4 */
  double *grid_dy;        /* ngrid x 4 */
  rc_model_origin origin; /* for restart */
} dp_data;

static const dp_data *dp_of(const rc_problem *pb) {
  return (const dp_data *)pb->user;
}

/* ---- the angle ODE with exact first and second derivatives -------------- */

/* Accelerations a = M(D)^{-1} r(s) of the Lagrangian ODE at s = (th1, th2,
 * w1, w2), and optionally da[i][k] = d a_i / d s_k and d2a[i][k][l], by
 * implicit differentiation of M a = r:
 *   M da_k = r_k - M_k a,
 *   M d2a_kl = r_kl - M_kl a - M_k da_l - M_l da_k,
 * where M depends on s only through D = th1 - th2. */
static void dp_angle_accel(const dp_data *d, const double *s, double a[2],
                           double da[2][4], double d2a[2][4][4]) {
  const double m1 = d->m1, m2 = d->m2, L1 = d->L1, L2 = d->L2, g = d->g;
  const double th1 = s[0], th2 = s[1], w1 = s[2], w2 = s[3];
  const double D = th1 - th2, cD = cos(D), sD = sin(D);
  const double K = m2 * L2, G1 = (m1 + m2) * g;
  const double M[2][2] = {{(m1 + m2) * L1, K * cD}, {L1 * cD, L2}};
  const double det = M[0][0] * M[1][1] - M[0][1] * M[1][0];
  const double r[2] = {-K * w2 * w2 * sD - G1 * sin(th1),
                       L1 * w1 * w1 * sD - g * sin(th2)};
#define DP_SOLVE(out, b0, b1)                                                  \
  do {                                                                         \
    (out)[0] = (M[1][1] * (b0)-M[0][1] * (b1)) / det;                          \
    (out)[1] = (M[0][0] * (b1)-M[1][0] * (b0)) / det;                          \
  } while (0)
  DP_SOLVE(a, r[0], r[1]);
  if (!da)
    return;
  const double dD[4] = {1.0, -1.0, 0.0, 0.0};
  /* dM/dD and d2M/dD2 (only the off-diagonal entries vary) */
  const double M1[2][2] = {{0.0, -K * sD}, {-L1 * sD, 0.0}};
  const double M2[2][2] = {{0.0, -K * cD}, {-L1 * cD, 0.0}};
  double dr[2][4] = {{-K * w2 * w2 * cD - G1 * cos(th1), K * w2 * w2 * cD, 0.0,
                      -2.0 * K * w2 * sD},
                     {L1 * w1 * w1 * cD, -L1 * w1 * w1 * cD - g * cos(th2),
                      2.0 * L1 * w1 * sD, 0.0}};
  double d2r[2][4][4];
  memset(d2r, 0, sizeof d2r);
  /* r0 = -K w2^2 sin D - G1 sin th1 */
  d2r[0][0][0] = K * w2 * w2 * sD + G1 * sin(th1);
  d2r[0][0][1] = d2r[0][1][0] = -K * w2 * w2 * sD;
  d2r[0][1][1] = K * w2 * w2 * sD;
  d2r[0][3][0] = d2r[0][0][3] = -2.0 * K * w2 * cD;
  d2r[0][3][1] = d2r[0][1][3] = 2.0 * K * w2 * cD;
  d2r[0][3][3] = -2.0 * K * sD;
  /* r1 = L1 w1^2 sin D - g sin th2 */
  d2r[1][0][0] = -L1 * w1 * w1 * sD;
  d2r[1][0][1] = d2r[1][1][0] = L1 * w1 * w1 * sD;
  d2r[1][1][1] = -L1 * w1 * w1 * sD + g * sin(th2);
  d2r[1][2][0] = d2r[1][0][2] = 2.0 * L1 * w1 * cD;
  d2r[1][2][1] = d2r[1][1][2] = -2.0 * L1 * w1 * cD;
  d2r[1][2][2] = 2.0 * L1 * sD;
  for (int k = 0; k < 4; ++k) {
    const double b0 = dr[0][k] - dD[k] * (M1[0][1] * a[1]);
    const double b1 = dr[1][k] - dD[k] * (M1[1][0] * a[0]);
    double o[2];
    DP_SOLVE(o, b0, b1);
    da[0][k] = o[0];
    da[1][k] = o[1];
  }
  if (!d2a)
    return;
  for (int k = 0; k < 4; ++k)
    for (int l = 0; l <= k; ++l) {
      const double dd = dD[k] * dD[l];
      const double b0 = d2r[0][k][l] - dd * M2[0][1] * a[1] -
                        dD[k] * M1[0][1] * da[1][l] -
                        dD[l] * M1[0][1] * da[1][k];
      const double b1 = d2r[1][k][l] - dd * M2[1][0] * a[0] -
                        dD[k] * M1[1][0] * da[0][l] -
                        dD[l] * M1[1][0] * da[0][k];
      double o[2];
      DP_SOLVE(o, b0, b1);
      d2a[0][k][l] = d2a[0][l][k] = o[0];
      d2a[1][k][l] = d2a[1][l][k] = o[1];
    }
#undef DP_SOLVE
}

static int dp_angle_rhs(double t, const double *y, double *dy, void *ctx) {
  (void)t;
  double a[2];
  dp_angle_accel((const dp_data *)ctx, y, a, NULL, NULL);
  dy[0] = y[2];
  dy[1] = y[3];
  dy[2] = a[0];
  dy[3] = a[1];
  return 0;
}

/* Angle state s (4) -> Cartesian Z (8), multipliers (2) and energy. */
static void dp_angles_to_cartesian(const dp_data *d, const double *s, double *z,
                                   double *lam, double *energy) {
  const double L1 = d->L1, L2 = d->L2, m1 = d->m1, m2 = d->m2, g = d->g;
  const double c1 = cos(s[0]), s1 = sin(s[0]), c2 = cos(s[1]), s2 = sin(s[1]);
  const double w1 = s[2], w2 = s[3];
  double x1 = L1 * s1, y1 = -L1 * c1, x2 = x1 + L2 * s2, y2 = y1 - L2 * c2;
  double u1 = L1 * w1 * c1, v1 = L1 * w1 * s1;
  double u2 = u1 + L2 * w2 * c2, v2 = v1 + L2 * w2 * s2;
  z[0] = x1, z[1] = y1, z[2] = x2, z[3] = y2;
  z[4] = u1, z[5] = v1, z[6] = u2, z[7] = v2;
  if (lam) {
    double a[2];
    dp_angle_accel(d, s, a, NULL, NULL);
    const double a1x = L1 * (a[0] * c1 - w1 * w1 * s1);
    const double a1y = L1 * (a[0] * s1 + w1 * w1 * c1);
    const double a2x = a1x + L2 * (a[1] * c2 - w2 * w2 * s2);
    const double a2y = a1y + L2 * (a[1] * s2 + w2 * w2 * c2);
    const double dx = x1 - x2, dy = y1 - y2;
    const double l2 = m2 * (-a2x * dx - (a2y + g) * dy) / (L2 * L2);
    const double l1 =
        ((m1 * a1x - dx * l2) * x1 + (m1 * (a1y + g) - dy * l2) * y1) /
        (L1 * L1);
    lam[0] = l1;
    lam[1] = l2;
  }
  if (energy)
    *energy = 0.5 * m1 * (u1 * u1 + v1 * v1) + 0.5 * m2 * (u2 * u2 + v2 * v2) +
              g * (m1 * y1 + m2 * y2);
}

/* ---- hidden constraint levels, each added as scale * level -------------- */

/* Every helper adds sc * h to row `row` with its derivatives (the kit
 * weights the second derivatives with the row's multiplier). */
static void lv_pos1(rc_kit *k, const double *w, int row, double sc,
                    const dp_data *d) {
  const double x1 = w[0], y1 = w[1];
  rc_kit_row(k, row, sc * (x1 * x1 + y1 * y1 - d->L1 * d->L1));
  rc_kit_d(k, 0, sc * 2.0 * x1);
  rc_kit_d(k, 1, sc * 2.0 * y1);
  rc_kit_d2(k, 0, 0, sc * 2.0);
  rc_kit_d2(k, 1, 1, sc * 2.0);
}

static void lv_pos2(rc_kit *k, const double *w, int row, double sc,
                    const dp_data *d) {
  const double dx = w[0] - w[2], dy = w[1] - w[3];
  rc_kit_row(k, row, sc * (dx * dx + dy * dy - d->L2 * d->L2));
  rc_kit_d(k, 0, sc * 2.0 * dx);
  rc_kit_d(k, 2, -sc * 2.0 * dx);
  rc_kit_d(k, 1, sc * 2.0 * dy);
  rc_kit_d(k, 3, -sc * 2.0 * dy);
  rc_kit_d2(k, 0, 0, sc * 2.0);
  rc_kit_d2(k, 2, 0, sc * -2.0);
  rc_kit_d2(k, 2, 2, sc * 2.0);
  rc_kit_d2(k, 1, 1, sc * 2.0);
  rc_kit_d2(k, 3, 1, sc * -2.0);
  rc_kit_d2(k, 3, 3, sc * 2.0);
}

static void lv_vel1(rc_kit *k, const double *w, int row, double sc) {
  const double x1 = w[0], y1 = w[1], u1 = w[4], v1 = w[5];
  rc_kit_row(k, row, sc * (x1 * u1 + y1 * v1));
  rc_kit_d(k, 0, sc * u1);
  rc_kit_d(k, 4, sc * x1);
  rc_kit_d(k, 1, sc * v1);
  rc_kit_d(k, 5, sc * y1);
  rc_kit_d2(k, 4, 0, sc * 1.0);
  rc_kit_d2(k, 5, 1, sc * 1.0);
}

static void lv_vel2(rc_kit *k, const double *w, int row, double sc) {
  const double dx = w[0] - w[2], dy = w[1] - w[3];
  const double du = w[4] - w[6], dv = w[5] - w[7];
  rc_kit_row(k, row, sc * (dx * du + dy * dv));
  rc_kit_d(k, 0, sc * du);
  rc_kit_d(k, 2, -sc * du);
  rc_kit_d(k, 4, sc * dx);
  rc_kit_d(k, 6, -sc * dx);
  rc_kit_d(k, 1, sc * dv);
  rc_kit_d(k, 3, -sc * dv);
  rc_kit_d(k, 5, sc * dy);
  rc_kit_d(k, 7, -sc * dy);
  rc_kit_d2(k, 4, 0, sc * 1.0);
  rc_kit_d2(k, 6, 0, sc * -1.0);
  rc_kit_d2(k, 4, 2, sc * -1.0);
  rc_kit_d2(k, 6, 2, sc * 1.0);
  rc_kit_d2(k, 5, 1, sc * 1.0);
  rc_kit_d2(k, 7, 1, sc * -1.0);
  rc_kit_d2(k, 5, 3, sc * -1.0);
  rc_kit_d2(k, 7, 3, sc * 1.0);
}

static void lv_acc1(rc_kit *k, const double *w, int row, double sc,
                    const dp_data *d) {
  const double x1 = w[0], y1 = w[1], x2 = w[2], y2 = w[3], u1 = w[4], v1 = w[5],
               l1 = w[8], l2 = w[9];
  const double dx = x1 - x2, dy = y1 - y2, p = x1 * dx + y1 * dy;
  const double im1 = 1.0 / d->m1, g = d->g;
  rc_kit_row(k, row,
             sc * (u1 * u1 + v1 * v1 +
                   ((x1 * x1 + y1 * y1) * l1 + p * l2) * im1 - g * y1));
  rc_kit_d(k, 0, sc * (2.0 * x1 * l1 + (x1 + dx) * l2) * im1);
  rc_kit_d(k, 1, sc * ((2.0 * y1 * l1 + (y1 + dy) * l2) * im1 - g));
  rc_kit_d(k, 2, -sc * x1 * l2 * im1);
  rc_kit_d(k, 3, -sc * y1 * l2 * im1);
  rc_kit_d(k, 4, sc * 2.0 * u1);
  rc_kit_d(k, 5, sc * 2.0 * v1);
  rc_kit_d(k, 8, sc * (x1 * x1 + y1 * y1) * im1);
  rc_kit_d(k, 9, sc * p * im1);
  rc_kit_d2(k, 0, 0, sc * ((2.0 * l1 + 2.0 * l2) * im1));
  rc_kit_d2(k, 1, 1, sc * ((2.0 * l1 + 2.0 * l2) * im1));
  rc_kit_d2(k, 2, 0, sc * (-l2 * im1));
  rc_kit_d2(k, 3, 1, sc * (-l2 * im1));
  rc_kit_d2(k, 4, 4, sc * 2.0);
  rc_kit_d2(k, 5, 5, sc * 2.0);
  rc_kit_d2(k, 8, 0, sc * (2.0 * x1 * im1));
  rc_kit_d2(k, 8, 1, sc * (2.0 * y1 * im1));
  rc_kit_d2(k, 9, 0, sc * ((x1 + dx) * im1));
  rc_kit_d2(k, 9, 1, sc * ((y1 + dy) * im1));
  rc_kit_d2(k, 9, 2, sc * (-x1 * im1));
  rc_kit_d2(k, 9, 3, sc * (-y1 * im1));
}

static void lv_acc2(rc_kit *k, const double *w, int row, double sc,
                    const dp_data *d) {
  const double x1 = w[0], y1 = w[1], x2 = w[2], y2 = w[3], l1 = w[8], l2 = w[9];
  const double dx = x1 - x2, dy = y1 - y2, du = w[4] - w[6], dv = w[5] - w[7];
  const double p = x1 * dx + y1 * dy;
  const double im1 = 1.0 / d->m1, imt = 1.0 / d->m1 + 1.0 / d->m2;
  rc_kit_row(
      k, row,
      sc * (du * du + dv * dv + p * l1 * im1 + (dx * dx + dy * dy) * l2 * imt));
  rc_kit_d(k, 0, sc * ((x1 + dx) * l1 * im1 + 2.0 * imt * dx * l2));
  rc_kit_d(k, 2, sc * (-x1 * l1 * im1 - 2.0 * imt * dx * l2));
  rc_kit_d(k, 1, sc * ((y1 + dy) * l1 * im1 + 2.0 * imt * dy * l2));
  rc_kit_d(k, 3, sc * (-y1 * l1 * im1 - 2.0 * imt * dy * l2));
  rc_kit_d(k, 4, sc * 2.0 * du);
  rc_kit_d(k, 6, -sc * 2.0 * du);
  rc_kit_d(k, 5, sc * 2.0 * dv);
  rc_kit_d(k, 7, -sc * 2.0 * dv);
  rc_kit_d(k, 8, sc * p * im1);
  rc_kit_d(k, 9, sc * (dx * dx + dy * dy) * imt);
  for (int c = 0; c < 2; ++c) { /* c = 0: x coordinates, c = 1: y */
    const int i1 = c, i2 = 2 + c;
    const double q1 = c ? y1 : x1, dq = c ? dy : dx;
    rc_kit_d2(k, i1, i1, sc * (2.0 * l1 * im1 + 2.0 * imt * l2));
    rc_kit_d2(k, i2, i1, sc * (-l1 * im1 - 2.0 * imt * l2));
    rc_kit_d2(k, i2, i2, sc * (2.0 * imt * l2));
    rc_kit_d2(k, 4 + c, 4 + c, sc * 2.0);
    rc_kit_d2(k, 6 + c, 4 + c, sc * -2.0);
    rc_kit_d2(k, 6 + c, 6 + c, sc * 2.0);
    rc_kit_d2(k, 8, i1, sc * ((q1 + dq) * im1));
    rc_kit_d2(k, 8, i2, sc * (-q1 * im1));
    rc_kit_d2(k, 9, i1, sc * (2.0 * imt * dq));
    rc_kit_d2(k, 9, i2, sc * (-2.0 * imt * dq));
  }
}

/* ---- the point block -------------------------------------------------------
 */

static int dp_point_cartesian(const dp_data *d, const double *w, rc_kit *k) {
  const double x1 = w[0], y1 = w[1], x2 = w[2], y2 = w[3], l1 = w[8], l2 = w[9];
  const double m1 = d->m1, m2 = d->m2, g = d->g;
  const double dx = x1 - x2, dy = y1 - y2;
  /* x' = u */
  for (int i = 0; i < 4; ++i) {
    rc_kit_row(k, i, w[4 + i]);
    rc_kit_d(k, 4 + i, 1.0);
  }
  /* mass 1: u1' (c = 0, coordinate x) and v1' (c = 1, coordinate y) */
  for (int c = 0; c < 2; ++c) {
    const int r = 4 + c, i1 = c, i2 = 2 + c;
    const double q1 = c ? y1 : x1, dq = c ? dy : dx;
    rc_kit_row(k, r, (q1 * l1 + dq * l2) / m1 - (c ? g : 0.0));
    rc_kit_d(k, i1, (l1 + l2) / m1);
    rc_kit_d(k, i2, -l2 / m1);
    rc_kit_d(k, 8, q1 / m1);
    rc_kit_d(k, 9, dq / m1);
    rc_kit_d2(k, 8, i1, 1.0 / m1);
    rc_kit_d2(k, 9, i1, 1.0 / m1);
    rc_kit_d2(k, 9, i2, -1.0 / m1);
  }
  /* mass 2: u2' and v2' */
  for (int c = 0; c < 2; ++c) {
    const int r = 6 + c, i1 = c, i2 = 2 + c;
    const double dq = c ? dy : dx;
    rc_kit_row(k, r, -dq * l2 / m2 - (c ? g : 0.0));
    rc_kit_d(k, i1, -l2 / m2);
    rc_kit_d(k, i2, l2 / m2);
    rc_kit_d(k, 9, -dq / m2);
    rc_kit_d2(k, 9, i1, -1.0 / m2);
    rc_kit_d2(k, 9, i2, 1.0 / m2);
  }
  /* algebraic equations */
  switch (d->form) {
  case DP_INDEX3:
    lv_pos1(k, w, 8, 1.0, d);
    lv_pos2(k, w, 9, 1.0, d);
    break;
  case DP_INDEX1:
    lv_acc1(k, w, 8, m1, d);
    lv_acc2(k, w, 9, m1, d);
    break;
  default: { /* DP_BAUMGARTE */
    const double cv = m1 * 2.0 * d->eta * d->w, cp = m1 * 0.5 * d->w * d->w;
    lv_acc1(k, w, 8, m1, d);
    lv_vel1(k, w, 8, cv);
    lv_pos1(k, w, 8, cp, d);
    lv_acc2(k, w, 9, m1, d);
    lv_vel2(k, w, 9, cv);
    lv_pos2(k, w, 9, cp, d);
  } break;
  }
  return 0;
}

/* angle: s' = (omega1, omega2, a1, a2) with a from dp_angle_accel. */
static int dp_point_angle(const dp_data *d, const double *w, rc_kit *k) {
  double a[2], da[2][4], d2a[2][4][4];
  const int order = rc_kit_order(k);
  dp_angle_accel(d, w, a, order >= 1 ? da : NULL, order >= 2 ? d2a : NULL);
  rc_kit_row(k, 0, w[2]);
  rc_kit_d(k, 2, 1.0);
  rc_kit_row(k, 1, w[3]);
  rc_kit_d(k, 3, 1.0);
  for (int i = 0; i < 2; ++i) {
    rc_kit_row(k, 2 + i, a[i]);
    if (order < 1)
      continue;
    for (int c = 0; c < 4; ++c)
      rc_kit_d(k, c, da[i][c]);
    if (order < 2)
      continue;
    for (int c = 0; c < 4; ++c)
      for (int l = 0; l <= c; ++l)
        rc_kit_d2(k, c, l, d2a[i][c][l]);
  }
  return 0;
}

static int dp_point_fn(const rc_problem *pb, double t, const double *w,
                       rc_kit *k) {
  (void)t;
  const dp_data *d = dp_of(pb);
  return d->form == DP_ANGLE ? dp_point_angle(d, w, k)
                             : dp_point_cartesian(d, w, k);
}

/* Invariants pos1, pos2, vel1, vel2, acc1, acc2 (Cartesian forms). */
static int dp_inv_fn(const rc_problem *pb, double t, const double *w,
                     rc_kit *k) {
  (void)t;
  const dp_data *d = dp_of(pb);
  lv_pos1(k, w, 0, 1.0, d);
  lv_pos2(k, w, 1, 1.0, d);
  lv_vel1(k, w, 2, 1.0);
  lv_vel2(k, w, 3, 1.0);
  lv_acc1(k, w, 4, 1.0, d);
  lv_acc2(k, w, 5, 1.0, d);
  return 0;
}

/* Outputs: the total energy; the angle formulation also gives the Cartesian
 * positions and velocities (x1 .. v2), so that its simulation can seed the
 * Cartesian formulations by name. */
static int dp_outputs(const rc_problem *pb, double t, const double *w,
                      double *out) {
  (void)t;
  const dp_data *d = dp_of(pb);
  if (d->form == DP_ANGLE) {
    dp_angles_to_cartesian(d, w, out + 1, NULL, out);
    return 0;
  }
  out[0] = 0.5 * d->m1 * (w[4] * w[4] + w[5] * w[5]) +
           0.5 * d->m2 * (w[6] * w[6] + w[7] * w[7]) +
           d->g * (d->m1 * w[1] + d->m2 * w[3]);
  return 0;
}

/* One reference row from an angle state: formulation variables then energy. */
static void dp_row_from_angles(const dp_data *d, const double *s, double *row) {
  double z[8], lam[2], e;
  dp_angles_to_cartesian(d, s, z, lam, &e);
  if (d->form == DP_ANGLE) {
    memcpy(row, s, 4 * sizeof *row);
    row[4] = e;
    memcpy(row + 5, z, 8 * sizeof *row);
  } else {
    memcpy(row, z, 8 * sizeof *row);
    row[8] = lam[0];
    row[9] = lam[1];
    row[10] = e;
  }
}

static int dp_reference(const rc_problem *pb, int nt, const double *t,
                        double *ref) {
  const dp_data *d = dp_of(pb);
  const int ncol = pb->nx + pb->ny + pb->nout;
  double *ang = malloc(sizeof *ang * 4 * (size_t)(nt > 0 ? nt : 1));
  if (!ang)
    return -1;
  rc_error err;
  rc_err rc = rc_ode_reference(4, dp_angle_rhs, (void *)d, pb->t0, d->ang0, nt,
                               t, ang, RC_DP_REF_TOL, &err);
  if (rc == RC_OK)
    for (int i = 0; i < nt; ++i)
      dp_row_from_angles(d, ang + 4 * i, ref + (size_t)i * ncol);
  free(ang);
  return rc == RC_OK ? 0 : -1;
}

/* Cubic Hermite interpolation of the precomputed angle solution. */
static int dp_guess(const rc_problem *pb, double t, double *w) {
  const dp_data *d = dp_of(pb);
  double s[4];
  double x = (t - pb->t0) / d->grid_h;
  int k = (int)floor(x);
  if (k < 0)
    k = 0;
  if (k > d->ngrid - 2)
    k = d->ngrid - 2;
  double th = x - k;
  if (th < 0.0)
    th = 0.0;
  if (th > 1.0)
    th = 1.0;
  const double h00 = (1 + 2 * th) * (1 - th) * (1 - th),
               h10 = th * (1 - th) * (1 - th), h01 = th * th * (3 - 2 * th),
               h11 = th * th * (th - 1);
  for (int i = 0; i < 4; ++i)
    s[i] = h00 * d->grid_y[4 * k + i] +
           h10 * d->grid_h * d->grid_dy[4 * k + i] +
           h01 * d->grid_y[4 * (k + 1) + i] +
           h11 * d->grid_h * d->grid_dy[4 * (k + 1) + i];
  double row[13]; /* the longer of 4 + 9 (angle) and 11 (Cartesian) */
  dp_row_from_angles(d, s, row);
  memcpy(w, row, sizeof *w * (size_t)rc_problem_nw(pb));
  return 0;
}

/* ---- create
 * ------------------------------------------------------------------ */

static void dp_destroy(rc_problem *pb) {
  if (!pb)
    return;
  dp_data *d = (dp_data *)pb->user;
  rc_kit_release(&d->kit);
  rc_origin_free(&d->origin);
  free(d->grid_y), free(d->grid_dy);
  free(d);
}

/* The problem from another start (rc_problem.restart, problems/origin.h). */
static rc_err dp_restart(const rc_problem *pb, const double *x0,
                         rc_problem **out, rc_error *err) {
  const dp_data *d = pb->user;
  return rc_origin_restart(&d->origin, pb, x0, out, err);
}

static const char *const dp_names_cart[] = {"x1", "y1", "x2", "y2", "u1",
                                            "v1", "u2", "v2", "l1", "l2"};
static const char *const dp_names_angle[] = {"theta1", "theta2", "omega1",
                                             "omega2"};
static const char *const dp_inv_names[] = {"pos1", "pos2", "vel1",
                                           "vel2", "acc1", "acc2"};
static const char *const dp_out_names[] = {"energy", "x1", "y1", "x2", "y2",
                                           "u1",     "v1", "u2", "v2"};

static const rc_formulation_def dp_forms[] = {
    {"index3", "Cartesian index-3 DAE: position constraints"},
    {"index1", "index 1: multipliers from A(Z) lambda = b(Z)"},
    {"baumgarte", "index 1 with Baumgarte-stabilised constraints"},
    {"angle", "Lagrangian ODE in theta1, theta2 (the reference)"}};

static const char *const dp_init_names[8] = {"x10", "y10", "x20", "y20",
                                             "u10", "v10", "u20", "v20"};

static const rc_param_def dp_params[] = {
    {"m1", RC_PARAM_REAL, 5.0, NULL, "mass 1 (kg)"},
    {"m2", RC_PARAM_REAL, 1.0, NULL, "mass 2 (kg)"},
    {"L1", RC_PARAM_REAL, 1.0, NULL, "rod 1 length (m)"},
    {"L2", RC_PARAM_REAL, 1.0, NULL, "rod 2 length (m)"},
    {"g", RC_PARAM_REAL, 9.81, NULL, "gravity (m/s^2)"},
    {"theta1", RC_PARAM_REAL, 1.5707963267948966, NULL,
     "initial angle of rod 1 from the downward vertical (rad)"},
    {"theta2", RC_PARAM_REAL, 0.7853981633974483, NULL,
     "initial angle of rod 2 from the downward vertical (rad)"},
    {"omega1", RC_PARAM_REAL, 0.0, NULL, "initial theta1' (rad/s)"},
    {"omega2", RC_PARAM_REAL, -0.1, NULL, "initial theta2' (rad/s)"},
    {"eta", RC_PARAM_REAL, 0.7, NULL, "Baumgarte damping ratio"},
    {"dt", RC_PARAM_REAL, 0.05, NULL, "Baumgarte time scale (s)"},
    {"w", RC_PARAM_REAL, 48.0, NULL, "Baumgarte frequency (1/s), 2.4/dt"},
    {"tf", RC_PARAM_REAL, 5.0, NULL, "final time (s)"},
    {"x10", RC_PARAM_REAL, 0.0, NULL, "x1(t0) (m), from the angles"},
    {"y10", RC_PARAM_REAL, 0.0, NULL, "y1(t0) (m), from the angles"},
    {"x20", RC_PARAM_REAL, 0.0, NULL, "x2(t0) (m), from the angles"},
    {"y20", RC_PARAM_REAL, 0.0, NULL, "y2(t0) (m), from the angles"},
    {"u10", RC_PARAM_REAL, 0.0, NULL, "u1(t0) (m/s), from the angles"},
    {"v10", RC_PARAM_REAL, 0.0, NULL, "v1(t0) (m/s), from the angles"},
    {"u20", RC_PARAM_REAL, 0.0, NULL, "u2(t0) (m/s), from the angles"},
    {"v20", RC_PARAM_REAL, 0.0, NULL, "v2(t0) (m/s), from the angles"},
};

#define PV(name) pv->real[rc_model_param_index(model, name)]
#define SET(name) (pv->is_set && pv->is_set[rc_model_param_index(model, name)])

/* The formulation and parameter values checked. */
static rc_err dp_check_params(const rc_model *model, int formulation,
                              const rc_param_values *pv, rc_error *err) {
  if (formulation < 0 || formulation >= model->nformulations)
    return rc_error_set(err, RC_ERR_INPUT,
                        "double-pendulum: formulation %d: expected 0..%d",
                        formulation, model->nformulations - 1);
  if (!pv || pv->n != model->nparams)
    return rc_error_set(err, RC_ERR_INPUT,
                        "double-pendulum: %d parameter values, expected %d",
                        pv ? pv->n : 0, model->nparams);
  const char *positive[] = {"m1", "m2", "L1", "L2", "dt", "tf"};
  for (int i = 0; i < 6; ++i)
    if (!(PV(positive[i]) > 0.0) || !isfinite(PV(positive[i])))
      return rc_error_set(err, RC_ERR_INPUT,
                          "double-pendulum: %s = %g: expected a finite "
                          "positive value",
                          positive[i], PV(positive[i]));
  for (int i = 0; i < model->nparams; ++i)
    if (!isfinite(pv->real[i]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "double-pendulum: %s = %g: expected a finite value",
                          model->params[i].name, pv->real[i]);
  return RC_OK;
}

/* The constants and the initial state: the angles, and the Cartesian state
 * they give, each component replaced by its parameter when set. */
static void dp_set_data(dp_data *d, const rc_model *model,
                        const rc_param_values *pv) {
  d->m1 = PV("m1"), d->m2 = PV("m2"), d->L1 = PV("L1"), d->L2 = PV("L2");
  d->g = PV("g"), d->eta = PV("eta");
  d->w = SET("w") ? PV("w") : 2.4 / PV("dt");
  d->ang0[0] = PV("theta1"), d->ang0[1] = PV("theta2");
  d->ang0[2] = PV("omega1"), d->ang0[3] = PV("omega2");
  double z0[8];
  dp_angles_to_cartesian(d, d->ang0, z0, NULL, NULL);
  for (int i = 0; i < 8; ++i)
    d->x0[i] = SET(dp_init_names[i]) ? PV(dp_init_names[i]) : z0[i];
  for (int i = 0; i < 8; ++i)
    d->fix_x0[i] = 1;
  for (int i = 0; i < RC_DP_MAXW; ++i)
    d->w_lo[i] = -HUGE_VAL, d->w_hi[i] = HUGE_VAL;
}
#undef PV
#undef SET

/* The problem fields of the formulation (all but the kit's blocks). */
static void dp_fill_problem(dp_data *d, const rc_model *model, double tf) {
  rc_problem *pb = &d->pb;
  const int formulation = d->form, angle = formulation == DP_ANGLE;
  pb->model = model->name;
  pb->formulation = dp_forms[formulation].name;
  pb->summary = dp_forms[formulation].summary;
  pb->note = formulation == DP_INDEX3
                 ? "index-3 DAE transcribed directly: expect order "
                   "reduction in velocities and multipliers"
                 : NULL;
  pb->index = formulation == DP_INDEX3 ? 3 : (angle ? 0 : 1);
  pb->nx = angle ? 4 : 8;
  pb->ny = angle ? 0 : 2;
  pb->autonomous = 1;
  pb->var_names = angle ? dp_names_angle : dp_names_cart;
  pb->w_lo = d->w_lo;
  pb->w_hi = d->w_hi;
  pb->t0 = 0.0;
  pb->tf = tf;
  pb->fix_x0 = d->fix_x0;
  pb->x0 = angle ? d->ang0 : d->x0;
  pb->t0_algebraic = formulation != DP_INDEX3 && !angle;
  if (!angle) {
    pb->ninv = 6;
    pb->inv_names = dp_inv_names;
  }
  pb->nout = angle ? 9 : 1;
  pb->out_names = dp_out_names;
  pb->outputs = dp_outputs;
  pb->reference = dp_reference;
  pb->guess = dp_guess;
}

/* The guess grid: the angle solution and its derivative at RC_DP_GRID
 * uniform times. */
static rc_err dp_guess_grid(dp_data *d, rc_error *err) {
  const rc_problem *pb = &d->pb;
  rc_err rc = RC_OK;
  d->ngrid = RC_DP_GRID;
  d->grid_h = (pb->tf - pb->t0) / (d->ngrid - 1);
  d->grid_y = malloc(sizeof(double) * 4 * d->ngrid);
  d->grid_dy = malloc(sizeof(double) * 4 * d->ngrid);
  double *tg = malloc(sizeof(double) * d->ngrid);
  if (!d->grid_y || !d->grid_dy || !tg)
    rc = rc_error_set(err, RC_ERR_NOMEM, "double-pendulum: out of memory");
  else {
    for (int i = 0; i < d->ngrid; ++i)
      tg[i] = pb->t0 + i * d->grid_h;
    tg[d->ngrid - 1] = pb->tf;
    rc = rc_ode_reference(4, dp_angle_rhs, d, pb->t0, d->ang0, d->ngrid, tg,
                          d->grid_y, 1e-11, err);
    if (rc == RC_ERR_INPUT && err) { /* GSL gave up on these parameters */
      char why[RC_MESSAGE_MAX];
      snprintf(why, sizeof why, "%s", err->message);
      rc_error_set(err, rc,
                   "double-pendulum: no motion for these parameters (the "
                   "angle ODE behind the guess and the reference): %.400s",
                   why);
    }
    for (int i = 0; rc == RC_OK && i < d->ngrid; ++i)
      dp_angle_rhs(tg[i], d->grid_y + 4 * i, d->grid_dy + 4 * i, d);
  }
  free(tg);
  return rc;
}

static rc_err dp_create(const rc_model *model, int formulation,
                        const rc_param_values *pv, rc_problem **out,
                        rc_error *err) {
  *out = NULL;
  rc_err rc = dp_check_params(model, formulation, pv, err);
  if (rc != RC_OK)
    return rc;
  dp_data *d = calloc(1, sizeof *d);
  if (!d)
    return rc_error_set(err, RC_ERR_NOMEM, "double-pendulum: out of memory");
  rc_problem *pb = &d->pb;
  pb->user = d;
  pb->destroy = dp_destroy;
  pb->restart = dp_restart;
  d->form = formulation;
  dp_set_data(d, model, pv);
  dp_fill_problem(d, model, pv->real[rc_model_param_index(model, "tf")]);
  const rc_kit_spec ks = {.point = dp_point_fn,
                          .invariants =
                              formulation == DP_ANGLE ? NULL : dp_inv_fn};
  rc = rc_kit_attach(pb, &d->kit, &ks, err);
  if (rc == RC_OK)
    rc = dp_guess_grid(d, err);
  if (rc == RC_OK)
    rc = rc_origin_record(&d->origin, model, formulation, pv, err);
  if (rc == RC_OK)
    rc = rc_problem_validate(pb, err);
  if (rc != RC_OK) {
    dp_destroy(pb);
    return rc;
  }
  *out = pb;
  return RC_OK;
}

const rc_model rc_model_double_pendulum = {
    "double-pendulum",
    "planar double pendulum in Cartesian coordinates (index 3 and reductions)",
    4,
    dp_forms,
    DP_INDEX1,
    (int)(sizeof dp_params / sizeof dp_params[0]),
    dp_params,
    dp_create,
    NULL /* create_phases */};
