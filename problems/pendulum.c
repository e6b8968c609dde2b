/*
 * pendulum.c - the planar pendulum (SPEC 4.1, seeds/001) in eight
 * formulations.
 *
 * Model.  Point mass on a massless rod of length L, pivot at the origin,
 * y positive DOWNWARD, gravity g along +y.  With T the rod force per unit
 * mass divided by L (so that u' = -T x):
 *
 *     x' = u,  y' = v,  u' = -T x,  v' = g - T y,  0 = x^2 + y^2 - L^2.
 *
 * Hidden constraints (each the time derivative of the previous one, up to a
 * factor: h1' = 2 h2, h2' = h3 along the dynamics):
 *
 *     h1 = x^2 + y^2 - L^2,  h2 = x u + y v,
 *     h3 = u^2 + v^2 - T (x^2 + y^2) + g y.
 *
 * In the angle theta from the downward vertical, x = L sin theta,
 * y = L cos theta, u = L omega cos theta, v = -L omega sin theta and
 * theta'' = -(g/L) sin theta.  Then u' = -sin theta (g cos theta + L omega^2)
 * = -T x gives T = omega^2 + (g/L) cos theta for every L (T has unit 1/s^2),
 * the same as T = (u^2 + v^2 + g y)/L^2 from h3 = 0.
 *
 * Formulations (w is the point vector, x-part first):
 *
 *   index3     w = (x y u v | T)     g: h1 = 0                         index 3
 *   ode        w = (x y u v T)       T' = (-4 T (xu + yv) + 3 g v)/(x^2+y^2)
 *                                    (h3 = 0 differentiated once)      index 0
 *   coord      w = (y v | x u T)     y' = v, v' = g - T y; h1 = h2 = h3 = 0;
 *                                    x keeps the sign of x0 (bound)    index 1
 *   accel      w = (x y u v | T)     g: h3 = 0                         index 1
 *   baumgarte  w = (x y u v | T)     g: 2 h3 + 4 eta w h2 + w^2 h1 = 0
 *                                    (h1'' + 2 eta w h1' + w^2 h1 = 0) index 1
 *   ggl        w = (x y u v | T mu)  x' = u - 2 x mu, y' = v - 2 y mu;
 *                                    g: h1 = h2 = 0 (exact mu = 0)     index 2
 *   partition  w = (x u)             x' = u, u' = -T x with y = sqrt(L^2-x^2),
 *                                    v = -x u / y, T = (u^2+v^2+g y)/L^2
 *                                    = u^2/y^2 + g y/L^2               index 0
 *   angle      w = (theta omega)     theta' = omega,
 *                                    omega' = -(g/L) sin theta         index 0
 *
 * The seed writes the partition case with y upward (y = -sqrt(r^2-x^2),
 * u' = mu x, mu = (g y - (u^2+v^2))/r^2); with y downward that is mu = -T and
 * y = +sqrt(L^2-x^2), the branch used here.
 *
 * Initial data.  fix_x0 fixes every differential state (coord: y and v only;
 * x, u, T at t0 then follow from h1 = h2 = h3 = 0 on the branch of x0).
 * t0_algebraic = 1 for the index-1 forms (accel, baumgarte, coord), whose
 * algebraic equations determine T(t0) (and x(t0), u(t0)).  index3 and ggl
 * use t0_algebraic = 0: their algebraic equations h1 (and h2) do not involve
 * T or mu, so at t0 they would only constrain the fixed x0 (a redundant,
 * rank-deficient row) and leave T(t0), mu(t0) undetermined.
 *
 * Parameters.  y0, v0, T0, w, theta0 and omega0 default to values computed
 * from the others unless the user sets them: y0 = sqrt(L^2 - x0^2),
 * v0 = -x0 u0 / y0 (tangent), T0 = (u0^2 + v0^2 + g y0)/L^2, w = 2.4/dt,
 * theta0 = atan2(x0, y0), omega0 = (y0 u0 - x0 v0)/(x0^2 + y0^2).  The seed's
 * partition run is `--set x0=0.9 --set u0=0 --tf 10`.
 *
 * Reference (every formulation): the angle ODE integrated by GSL rk8pd at
 * tolerance 1e-14 (src/ode_reference.c), from the angle data implied by the
 * formulation's own independent initial values, mapped as above; ggl's mu is
 * 0.  coord carries no bound on x: the branch is chosen at t0 by the sign
 * of x0 through the guess, which (like the reference) follows the physical
 * motion through the zeros of x.  Near a zero of x the reduced system is
 * singular (u = -y v / x, y <= L): accuracy drops and the NLP may be
 * infeasible for a mesh with a node very close to the zero.  With the
 * default data x first vanishes at t ~ 0.91 s; on horizons such as --tf 0.8
 * coord converges at full order (see the note).
 *
 * Invariants h1, h2, h3 are supplied for every formulation in its own
 * variables.  In partition and angle they are built from the derived y, v, T
 * and vanish identically (to rounding): their Jacobians are empty.
 *
 * Outputs: partition adds y, v, T; angle adds x, y, u, v, T, so that every
 * formulation reports x, y, u, v, T.
 *
 * Units: SI (m, s, m/s^2); T in 1/s^2.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/kit.h"
#include "radcol/ode_reference.h"
#include "radcol/problem.h"

#include "origin.h"

#define REF_TOL 1e-14
#define PEND_PI 3.14159265358979323846

enum {
  F_INDEX3,
  F_ODE,
  F_COORD,
  F_ACCEL,
  F_BAUMGARTE,
  F_GGL,
  F_PARTITION,
  F_ANGLE,
  F_COUNT
};

enum {
  P_G,
  P_L,
  P_TF,
  P_X0,
  P_Y0,
  P_U0,
  P_V0,
  P_T0,
  P_ETA,
  P_DT,
  P_W,
  P_THETA0,
  P_OMEGA0,
  P_COUNT
};

/* Columns of w: standard layout (index3, ode, accel, baumgarte, ggl). */
enum { IX = 0, IY = 1, IU = 2, IV = 3, IT = 4, IMU = 5 };
/* coord layout. */
enum { CY = 0, CV = 1, CX = 2, CU = 3, CT = 4 };
/* partition and angle layouts. */
enum { PX = 0, PU = 1 };
enum { ATH = 0, AOM = 1 };

typedef struct pendulum {
  rc_kit_blocks kit; /* first: the kit's callbacks find their blocks here */
  rc_problem pb;
  int form;
  double g, L;
  double a, b;     /* Baumgarte: a = 4 eta w, b = w^2 */
  int branch;      /* coord: sign of x */
  double th0, om0; /* reference initial angle data */
  double x0[5];
  int fix_x0[5];
  double w_lo[6], w_hi[6];
  rc_model_origin origin; /* for restart */
} pendulum;

static const pendulum *P(const rc_problem *pb) {
  return (const pendulum *)pb->user;
}

/* Cartesian state s = (x, y, u, v, T) of a point vector. */
enum { SX, SY, SU, SV, ST };
static void load_state(const pendulum *p, const double *w, double s[5]) {
  if (p->form == F_COORD) {
    s[SX] = w[CX], s[SY] = w[CY], s[SU] = w[CU], s[SV] = w[CV], s[ST] = w[CT];
  } else if (p->form == F_PARTITION) {
    const double x = w[PX], u = w[PU], y = sqrt(p->L * p->L - x * x);
    s[SX] = x, s[SU] = u, s[SY] = y, s[SV] = -x * u / y;
    s[ST] = u * u / (y * y) + p->g * y / (p->L * p->L);
  } else if (p->form == F_ANGLE) {
    const double th = w[ATH], om = w[AOM], c = cos(th), sn = sin(th);
    s[SX] = p->L * sn, s[SY] = p->L * c, s[SU] = p->L * om * c;
    s[SV] = -p->L * om * sn, s[ST] = om * om + p->g / p->L * c;
  } else {
    memcpy(s, w, 5 * sizeof *s);
  }
}

/* ---- point blocks: each row with its derivatives (equation order) -------- */

/* Columns of the Cartesian state (x, y, u, v, T) in a layout. */
static const int std_col[5] = {IX, IY, IU, IV, IT};
static const int crd_col[5] = {CX, CY, CU, CV, CT};

/* Row i += sc h1, h1 = x^2 + y^2 - L^2 (state s, columns c). */
static void add_h1(const pendulum *p, const double s[5], const int c[5], int i,
                   double sc, rc_kit *k) {
  const double x = s[SX], y = s[SY];
  rc_kit_row(k, i, sc * (x * x + y * y - p->L * p->L));
  rc_kit_d(k, c[SX], sc * 2.0 * x);
  rc_kit_d(k, c[SY], sc * 2.0 * y);
  rc_kit_d2(k, c[SX], c[SX], sc * 2.0);
  rc_kit_d2(k, c[SY], c[SY], sc * 2.0);
}

/* Row i += sc h2, h2 = x u + y v. */
static void add_h2(const double s[5], const int c[5], int i, double sc,
                   rc_kit *k) {
  const double x = s[SX], y = s[SY], u = s[SU], v = s[SV];
  rc_kit_row(k, i, sc * (x * u + y * v));
  rc_kit_d(k, c[SX], sc * u);
  rc_kit_d(k, c[SY], sc * v);
  rc_kit_d(k, c[SU], sc * x);
  rc_kit_d(k, c[SV], sc * y);
  rc_kit_d2(k, c[SU], c[SX], sc);
  rc_kit_d2(k, c[SV], c[SY], sc);
}

/* Row i += sc h3, h3 = u^2 + v^2 - T (x^2 + y^2) + g y. */
static double h3_of(const pendulum *p, const double s[5]) {
  return s[SU] * s[SU] + s[SV] * s[SV] -
         s[ST] * (s[SX] * s[SX] + s[SY] * s[SY]) + p->g * s[SY];
}
static void add_h3(const pendulum *p, const double s[5], const int c[5], int i,
                   double sc, rc_kit *k) {
  const double x = s[SX], y = s[SY], T = s[ST];
  rc_kit_row(k, i, sc * h3_of(p, s));
  rc_kit_d(k, c[SX], sc * -2.0 * T * x);
  rc_kit_d(k, c[SY], sc * (-2.0 * T * y + p->g));
  rc_kit_d(k, c[SU], sc * 2.0 * s[SU]);
  rc_kit_d(k, c[SV], sc * 2.0 * s[SV]);
  rc_kit_d(k, c[ST], sc * -(x * x + y * y));
  rc_kit_d2(k, c[SX], c[SX], sc * -2.0 * T);
  rc_kit_d2(k, c[SY], c[SY], sc * -2.0 * T);
  rc_kit_d2(k, c[SU], c[SU], sc * 2.0);
  rc_kit_d2(k, c[SV], c[SV], sc * 2.0);
  rc_kit_d2(k, c[ST], c[SX], sc * -2.0 * x);
  rc_kit_d2(k, c[ST], c[SY], sc * -2.0 * y);
}

/* Rows 0..3 of the standard layout: x' = u, y' = v, u' = -T x,
 * v' = g - T y. */
static void rows_motion(const pendulum *p, const double *w, rc_kit *k) {
  rc_kit_row(k, 0, w[IU]);
  rc_kit_d(k, IU, 1.0);
  rc_kit_row(k, 1, w[IV]);
  rc_kit_d(k, IV, 1.0);
  rc_kit_row(k, 2, -w[IT] * w[IX]);
  rc_kit_d(k, IX, -w[IT]);
  rc_kit_d(k, IT, -w[IX]);
  rc_kit_d2(k, IT, IX, -1.0);
  rc_kit_row(k, 3, p->g - w[IT] * w[IY]);
  rc_kit_d(k, IY, -w[IT]);
  rc_kit_d(k, IT, -w[IY]);
  rc_kit_d2(k, IT, IY, -1.0);
}

/* index3: F = [u, v, -T x, g - T y, h1] */
static int index3_fn(const rc_problem *pb, double t, const double *w,
                     rc_kit *k) {
  (void)t;
  const pendulum *p = P(pb);
  rows_motion(p, w, k);
  add_h1(p, w, std_col, 4, 1.0, k);
  return 0;
}

/* accel: F = [u, v, -T x, g - T y, h3] */
static int accel_fn(const rc_problem *pb, double t, const double *w,
                    rc_kit *k) {
  (void)t;
  const pendulum *p = P(pb);
  rows_motion(p, w, k);
  add_h3(p, w, std_col, 4, 1.0, k);
  return 0;
}

/* baumgarte: F = [u, v, -T x, g - T y, 2 h3 + a h2 + b h1],
 * a = 4 eta w, b = w^2 */
static int baum_fn(const rc_problem *pb, double t, const double *w, rc_kit *k) {
  (void)t;
  const pendulum *p = P(pb);
  rows_motion(p, w, k);
  add_h3(p, w, std_col, 4, 2.0, k);
  add_h2(w, std_col, 4, p->a, k);
  add_h1(p, w, std_col, 4, p->b, k);
  return 0;
}

/* ode: F = [u, v, -T x, g - T y, N/D] with N = -4 T (xu + yv) + 3 g v,
 * D = x^2 + y^2.  Second derivatives of N/D:
 *   (N/D)_ab = N_ab/D - (N_a D_b + N_b D_a)/D^2 - N D_ab/D^2
 *              + 2 N D_a D_b / D^3,
 * nonzero on the 11 pairs below ((u,u), (v,v), (T,T), (v,u) vanish). */
static const int ode_pairs[11][2] = {{IX, IX}, {IY, IX}, {IY, IY}, {IU, IX},
                                     {IU, IY}, {IV, IX}, {IV, IY}, {IT, IX},
                                     {IT, IY}, {IT, IU}, {IT, IV}};

static int ode_fn(const rc_problem *pb, double t, const double *w, rc_kit *k) {
  (void)t;
  const pendulum *p = P(pb);
  const double x = w[IX], y = w[IY], u = w[IU], v = w[IV], T = w[IT];
  const double h2 = x * u + y * v, N = -4.0 * T * h2 + 3.0 * p->g * v;
  const double D = x * x + y * y;
  if (!(D > 0.0))
    return 1;
  rows_motion(p, w, k);
  rc_kit_row(k, 4, N / D);
  const double Na[5] = {-4.0 * T * u, -4.0 * T * v, -4.0 * T * x,
                        -4.0 * T * y + 3.0 * p->g, -4.0 * h2};
  const double Da[5] = {2.0 * x, 2.0 * y, 0.0, 0.0, 0.0};
  for (int a = 0; a < 5; ++a)
    rc_kit_d(k, a, Na[a] / D - N * Da[a] / (D * D));
  if (rc_kit_order(k) < 2)
    return 0;
  double Nab[5][5] = {{0.0}}, Dab[5][5] = {{0.0}};
  Nab[IU][IX] = Nab[IX][IU] = -4.0 * T;
  Nab[IV][IY] = Nab[IY][IV] = -4.0 * T;
  Nab[IT][IX] = Nab[IX][IT] = -4.0 * u;
  Nab[IT][IY] = Nab[IY][IT] = -4.0 * v;
  Nab[IT][IU] = Nab[IU][IT] = -4.0 * x;
  Nab[IT][IV] = Nab[IV][IT] = -4.0 * y;
  Dab[IX][IX] = Dab[IY][IY] = 2.0;
  for (int e = 0; e < 11; ++e) {
    const int a = ode_pairs[e][0], b = ode_pairs[e][1];
    rc_kit_d2(k, a, b,
              Nab[a][b] / D - (Na[a] * Da[b] + Na[b] * Da[a]) / (D * D) -
                  N * Dab[a][b] / (D * D) +
                  2.0 * N * Da[a] * Da[b] / (D * D * D));
  }
  return 0;
}

/* ggl: F = [u - 2 x mu, v - 2 y mu, -T x, g - T y, h1, h2] */
static int ggl_fn(const rc_problem *pb, double t, const double *w, rc_kit *k) {
  (void)t;
  const pendulum *p = P(pb);
  const double x = w[IX], y = w[IY], m = w[IMU];
  rc_kit_row(k, 0, w[IU] - 2.0 * x * m);
  rc_kit_d(k, IU, 1.0);
  rc_kit_d(k, IX, -2.0 * m);
  rc_kit_d(k, IMU, -2.0 * x);
  rc_kit_d2(k, IMU, IX, -2.0);
  rc_kit_row(k, 1, w[IV] - 2.0 * y * m);
  rc_kit_d(k, IV, 1.0);
  rc_kit_d(k, IY, -2.0 * m);
  rc_kit_d(k, IMU, -2.0 * y);
  rc_kit_d2(k, IMU, IY, -2.0);
  rc_kit_row(k, 2, -w[IT] * x);
  rc_kit_d(k, IX, -w[IT]);
  rc_kit_d(k, IT, -x);
  rc_kit_d2(k, IT, IX, -1.0);
  rc_kit_row(k, 3, p->g - w[IT] * y);
  rc_kit_d(k, IY, -w[IT]);
  rc_kit_d(k, IT, -y);
  rc_kit_d2(k, IT, IY, -1.0);
  add_h1(p, w, std_col, 4, 1.0, k);
  add_h2(w, std_col, 5, 1.0, k);
  return 0;
}

/* coord: F = [v, g - T y, h1, h2, h3] on w = (y v | x u T) */
static int coord_fn(const rc_problem *pb, double t, const double *w,
                    rc_kit *k) {
  (void)t;
  const pendulum *p = P(pb);
  double s[5];
  load_state(p, w, s);
  rc_kit_row(k, 0, w[CV]);
  rc_kit_d(k, CV, 1.0);
  rc_kit_row(k, 1, p->g - w[CT] * w[CY]);
  rc_kit_d(k, CY, -w[CT]);
  rc_kit_d(k, CT, -w[CY]);
  rc_kit_d2(k, CT, CY, -1.0);
  add_h1(p, s, crd_col, 2, 1.0, k);
  add_h2(s, crd_col, 3, 1.0, k);
  add_h3(p, s, crd_col, 4, 1.0, k);
  return 0;
}

/* partition: F = [u, -T x], T = u^2/s + g y/L^2, s = L^2 - x^2, y = sqrt(s):
 *   T_u = 2u/s, T_uu = 2/s, T_x = 2 x u^2/s^2 - g x/(y L^2),
 *   T_xu = 4 x u/s^2, T_xx = 2u^2/s^2 + 8 x^2 u^2/s^3 - g/y^3. */
static int part_fn(const rc_problem *pb, double t, const double *w, rc_kit *k) {
  (void)t;
  const pendulum *p = P(pb);
  const double x = w[PX], u = w[PU], L2 = p->L * p->L, s = L2 - x * x;
  if (!(s > 0.0))
    return 1; /* outside |x| < L: recoverable */
  const double y = sqrt(s), s2 = s * s;
  const double T = u * u / s + p->g * y / L2;
  const double Tu = 2.0 * u / s, Tuu = 2.0 / s;
  const double Tx = 2.0 * x * u * u / s2 - p->g * x / (y * L2);
  const double Txu = 4.0 * x * u / s2;
  const double Txx =
      2.0 * u * u / s2 + 8.0 * x * x * u * u / (s2 * s) - p->g / (y * y * y);
  rc_kit_row(k, 0, u);
  rc_kit_d(k, PU, 1.0);
  rc_kit_row(k, 1, -T * x);
  rc_kit_d(k, PX, -T - x * Tx);
  rc_kit_d(k, PU, -x * Tu);
  rc_kit_d2(k, PX, PX, -2.0 * Tx - x * Txx);
  rc_kit_d2(k, PU, PX, -Tu - x * Txu);
  rc_kit_d2(k, PU, PU, -x * Tuu);
  return 0;
}

/* angle: F = [omega, -(g/L) sin theta] */
static int angle_fn(const rc_problem *pb, double t, const double *w,
                    rc_kit *k) {
  (void)t;
  const pendulum *p = P(pb);
  const double th = w[ATH];
  rc_kit_row(k, 0, w[AOM]);
  rc_kit_d(k, AOM, 1.0);
  rc_kit_row(k, 1, -p->g / p->L * sin(th));
  rc_kit_d(k, ATH, -p->g / p->L * cos(th));
  rc_kit_d2(k, ATH, ATH, p->g / p->L * sin(th));
  return 0;
}

/* ---- invariants h1, h2, h3 ---------------------------------------------- */

/* In the standard and coord layouts h1, h2, h3 with their derivatives; in
 * partition and angle the values only (built from the derived y, v, T they
 * vanish identically: empty patterns). */
static int inv_fn(const rc_problem *pb, double t, const double *w, rc_kit *k) {
  (void)t;
  const pendulum *p = P(pb);
  double s[5];
  if (p->form == F_PARTITION && !(fabs(w[PX]) < p->L))
    return 1;
  load_state(p, w, s);
  if (p->form == F_PARTITION || p->form == F_ANGLE) {
    rc_kit_row(k, 0, s[SX] * s[SX] + s[SY] * s[SY] - p->L * p->L);
    rc_kit_row(k, 1, s[SX] * s[SU] + s[SY] * s[SV]);
    rc_kit_row(k, 2, h3_of(p, s));
    return 0;
  }
  const int *c = p->form == F_COORD ? crd_col : std_col;
  add_h1(p, s, c, 0, 1.0, k);
  add_h2(s, c, 1, 1.0, k);
  add_h3(p, s, c, 2, 1.0, k);
  return 0;
}

/* ---- derived outputs ------------------------------------------------------
 */

static int outputs(const rc_problem *pb, double t, const double *w,
                   double *out) {
  (void)t;
  const pendulum *p = P(pb);
  double s[5];
  if (p->form == F_PARTITION && !(fabs(w[PX]) < p->L))
    return 1;
  load_state(p, w, s);
  if (p->form == F_PARTITION) {
    out[0] = s[SY], out[1] = s[SV], out[2] = s[ST];
  } else {
    memcpy(out, s, 5 * sizeof *s);
  }
  return 0;
}

/* ---- reference and guess ----------------------------------------------------
 */

/* Writes the formulation's variables (and, if with_out, its outputs) for the
 * angle state (th, om). */
static void from_angle(const pendulum *p, double th, double om, int with_out,
                       double *row) {
  const double wa[2] = {th, om};
  double s[5];
  const pendulum pa = {.form = F_ANGLE, .g = p->g, .L = p->L};
  load_state(&pa, wa, s);
  switch (p->form) {
  case F_ANGLE:
    row[0] = th, row[1] = om;
    if (with_out)
      memcpy(row + 2, s, 5 * sizeof *s);
    break;
  case F_PARTITION:
    row[0] = s[SX], row[1] = s[SU];
    if (with_out)
      row[2] = s[SY], row[3] = s[SV], row[4] = s[ST];
    break;
  case F_COORD:
    row[CX] = s[SX], row[CY] = s[SY], row[CU] = s[SU], row[CV] = s[SV];
    row[CT] = s[ST];
    break;
  default:
    memcpy(row, s, 5 * sizeof *s);
    if (p->form == F_GGL)
      row[IMU] = 0.0;
    break;
  }
}

static int angle_rhs(double t, const double *y, double *dy, void *ctx) {
  (void)t;
  const pendulum *p = ctx;
  dy[0] = y[1];
  dy[1] = -p->g / p->L * sin(y[0]);
  return 0;
}

static int reference(const rc_problem *pb, int nt, const double *t,
                     double *ref) {
  const pendulum *p = P(pb);
  const int m = rc_problem_nw(pb) + pb->nout;
  const double y0[2] = {p->th0, p->om0};
  rc_error err;
  /* Angle states go into the first 2 nt entries; rows are then expanded from
   * the last to the first (row i's source [2i, 2i+2) lies at or before its
   * destination [m i, m i + m) and after every earlier row's source). */
  if (rc_ode_reference(2, angle_rhs, (void *)p, pb->t0, y0, nt, t, ref, REF_TOL,
                       &err) != RC_OK)
    return -1;
  for (int i = nt - 1; i >= 0; --i) {
    const double th = ref[2 * i], om = ref[2 * i + 1];
    from_angle(p, th, om, 1, ref + (size_t)i * (size_t)m);
  }
  return 0;
}

/* Complete elliptic integral of the first kind K(k) by the AGM. */
static double ellip_k(double k) {
  double a = 1.0, b = sqrt(1.0 - k * k);
  for (int i = 0; i < 40 && fabs(a - b) > 1e-15 * a; ++i) {
    const double an = 0.5 * (a + b);
    b = sqrt(a * b);
    a = an;
  }
  return PEND_PI / (2.0 * a);
}

/* A cheap guess: a harmonic oscillation through (th0, om0) whose frequency is
 * the exact nonlinear one, pi sqrt(g/L) / (2 K(sin(theta_max/2))), mapped to
 * the formulation's variables (coord: x follows the physical motion); a
 * rotating pendulum gets theta = th0 + om0 t. */
static int guess(const rc_problem *pb, double t, double *w) {
  const pendulum *p = P(pb);
  const double W2 = p->g / p->L, tau = t - pb->t0;
  const double E = 0.5 * p->om0 * p->om0 - W2 * cos(p->th0);
  double th, om;
  if (E < W2 * 0.999) {
    const double cmax = -E / W2;
    const double k = sin(0.5 * acos(cmax < -1.0 ? -1.0 : cmax));
    const double We = PEND_PI * sqrt(W2) / (2.0 * ellip_k(k));
    const double A = hypot(p->th0, p->om0 / We);
    const double phi = atan2(p->th0 * We, p->om0);
    th = A * sin(We * tau + phi);
    om = A * We * cos(We * tau + phi);
  } else {
    th = p->th0 + p->om0 * tau;
    om = p->om0;
  }
  from_angle(p, th, om, 0, w);
  return 0;
}

/* ---- catalogue
 * ---------------------------------------------------------------- */

static const rc_param_def params[P_COUNT] = {
    [P_G] = {"g", RC_PARAM_REAL, 9.81, NULL, "gravity along +y (down), m/s^2"},
    [P_L] = {"L", RC_PARAM_REAL, 1.0, NULL, "rod length, m"},
    [P_TF] = {"tf", RC_PARAM_REAL, 5.0, NULL, "final time, s (t0 = 0)"},
    [P_X0] = {"x0", RC_PARAM_REAL, 0.1, NULL, "x(t0), m"},
    [P_Y0] = {"y0", RC_PARAM_REAL, 0.99498743710662, NULL,
              "y(t0), m (y down); default sqrt(L^2 - x0^2)"},
    [P_U0] = {"u0", RC_PARAM_REAL, 1.0, NULL, "x'(t0), m/s"},
    [P_V0] = {"v0", RC_PARAM_REAL, -0.10050378152592121, NULL,
              "y'(t0), m/s; default -x0 u0 / y0 (tangent)"},
    [P_T0] = {"T0", RC_PARAM_REAL, 10.770927768116954, NULL,
              "T(t0), 1/s^2 (ode); default (u0^2 + v0^2 + g y0)/L^2"},
    [P_ETA] = {"eta", RC_PARAM_REAL, 0.7, NULL, "Baumgarte damping ratio"},
    [P_DT] = {"dt", RC_PARAM_REAL, 0.05, NULL,
              "Baumgarte time scale, s (sets the default w)"},
    [P_W] = {"w", RC_PARAM_REAL, 48.0, NULL,
             "Baumgarte frequency, 1/s; default 2.4/dt"},
    [P_THETA0] = {"theta0", RC_PARAM_REAL, 0.1001674211615598, NULL,
                  "theta(t0), rad from the downward vertical (angle); "
                  "default atan2(x0, y0)"},
    [P_OMEGA0] = {"omega0", RC_PARAM_REAL, 1.005037815259212, NULL,
                  "theta'(t0), rad/s (angle); default "
                  "(y0 u0 - x0 v0)/(x0^2 + y0^2)"},
};

static const rc_formulation_def formulations[F_COUNT] = {
    [F_INDEX3] = {"index3", "x y u v | T, position constraint h1 (index 3)"},
    [F_ODE] = {"ode", "x y u v T, T' from h3' = 0 (index 0)"},
    [F_COORD] = {"coord",
                 "y v | x u T, h1 = h2 = h3 = 0 (index 1 where x != 0)"},
    [F_ACCEL] = {"accel", "x y u v | T, acceleration constraint h3 (index 1)"},
    [F_BAUMGARTE] = {"baumgarte",
                     "x y u v | T, 2 h3 + 4 eta w h2 + w^2 h1 = 0 (index 1)"},
    [F_GGL] = {"ggl",
               "x y u v | T mu, Gear-Gupta-Leimkuhler, h1 = h2 = 0 (index 2)"},
    [F_PARTITION] = {"partition",
                     "x u, y = sqrt(L^2 - x^2) eliminated (seeds/001)"},
    [F_ANGLE] = {"angle", "theta omega, the angle ODE (reference)"},
};

static const char *const names_std[] = {"x", "y", "u", "v", "T", "mu"};
static const char *const names_coord[] = {"y", "v", "x", "u", "T"};
static const char *const names_part[] = {"x", "u"};
static const char *const names_angle[] = {"theta", "omega"};
static const char *const out_part[] = {"y", "v", "T"};
static const char *const out_angle[] = {"x", "y", "u", "v", "T"};
static const char *const inv_names[] = {"h1", "h2", "h3"};

typedef struct form_spec {
  int nx, ny, index, t0_algebraic;
  const char *const *names;
  rc_kit_fn point;
  const char *note;
} form_spec;

static const form_spec specs[F_COUNT] = {
    [F_INDEX3] = {4, 1, 3, 0, names_std, index3_fn,
                  "index 3: at element ends positions converge at order "
                  "2s-1, velocities at s, T at s-1"},
    [F_ODE] = {5, 0, 0, 0, names_std, ode_fn, NULL},
    [F_COORD] = {2, 3, 1, 1, names_coord, coord_fn,
                 "coord: index 1 only where x != 0; the branch of x is "
                 "chosen at t0 by the sign of x0 through the guess, which "
                 "follows the physical motion through the zeros of x; near "
                 "a zero the algebraic Jacobian is singular (u = -y v / x), "
                 "accuracy drops to about 1e-2 and a mesh with a node too "
                 "close to a zero may be infeasible (discrete y > L); "
                 "horizons on which x keeps its sign (default data: "
                 "tf < 0.9) converge at full order"},
    [F_ACCEL] = {4, 1, 1, 1, names_std, accel_fn, NULL},
    [F_BAUMGARTE] = {4, 1, 1, 1, names_std, baum_fn, NULL},
    [F_GGL] = {4, 2, 2, 0, names_std, ggl_fn,
               "ggl: index 2, T and mu converge at order s"},
    [F_PARTITION] = {2, 0, 0, 0, names_part, part_fn, NULL},
    [F_ANGLE] = {2, 0, 0, 0, names_angle, angle_fn, NULL},
};

static void destroy(rc_problem *pb) {
  pendulum *p = pb->user;
  rc_kit_release(&p->kit);
  rc_origin_free(&p->origin);
  free(p);
}

/* The problem from another start (rc_problem.restart, problems/origin.h). */
static rc_err restart(const rc_problem *pb, const double *x0, rc_problem **out,
                      rc_error *err) {
  const pendulum *d = pb->user;
  return rc_origin_restart(&d->origin, pb, x0, out, err);
}

/* The formulation and the parameter values checked: v the values, set which
 * of them the caller set. */
static rc_err check_params(const rc_model *model, int form,
                           const rc_param_values *pv, double v[P_COUNT],
                           int set[P_COUNT], rc_error *err) {
  if (form < 0 || form >= F_COUNT)
    return rc_error_set(err, RC_ERR_INPUT,
                        "pendulum: formulation %d: expected 0..%d", form,
                        F_COUNT - 1);
  if (!pv || pv->n != model->nparams || !pv->real)
    return rc_error_set(err, RC_ERR_INPUT,
                        "pendulum: %d parameter values: expected %d",
                        pv ? pv->n : -1, model->nparams);
  for (int i = 0; i < P_COUNT; ++i) {
    v[i] = pv->real[i];
    set[i] = pv->is_set ? pv->is_set[i] : 0;
    if (set[i] && !isfinite(v[i]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "pendulum: %s = %g: expected a finite number",
                          params[i].name, v[i]);
  }
  const double g = v[P_G], L = v[P_L];
  if (!(L > 0.0 && isfinite(L)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "pendulum: L = %g: expected a positive length", L);
  if (!isfinite(g))
    return rc_error_set(err, RC_ERR_INPUT,
                        "pendulum: g = %g: expected a finite number", g);
  if (!(v[P_TF] > 0.0 && isfinite(v[P_TF])))
    return rc_error_set(err, RC_ERR_INPUT,
                        "pendulum: tf = %g: expected a positive final time",
                        v[P_TF]);
  if (!(v[P_DT] > 0.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "pendulum: dt = %g: expected a positive time scale",
                        v[P_DT]);
  return RC_OK;
}

/* The defaults of the values not set, in dependency order: y0 on the
 * circle, v0 tangent to it, T0 from h3 = 0, w = 2.4 / dt, and the angle
 * data of (x0, y0, u0, v0). */
static rc_err derive_defaults(double v[P_COUNT], const int set[P_COUNT],
                              rc_error *err) {
  const double g = v[P_G], L = v[P_L];
  const double x0 = v[P_X0], u0 = v[P_U0];
  if (!set[P_Y0]) {
    if (!(x0 * x0 < L * L))
      return rc_error_set(err, RC_ERR_INPUT,
                          "pendulum: x0 = %g with L = %g leaves no default "
                          "y0 = sqrt(L^2 - x0^2): expected |x0| < L or y0 set",
                          x0, L);
    v[P_Y0] = sqrt(L * L - x0 * x0);
  }
  const double y0 = v[P_Y0];
  if (!set[P_V0])
    v[P_V0] = y0 != 0.0 ? -x0 * u0 / y0 : 0.0;
  const double v0 = v[P_V0];
  if (!set[P_T0])
    v[P_T0] = (u0 * u0 + v0 * v0 + g * y0) / (L * L);
  if (!set[P_W])
    v[P_W] = 2.4 / v[P_DT];
  const double r2 = x0 * x0 + y0 * y0;
  if (!set[P_THETA0])
    v[P_THETA0] = atan2(x0, y0);
  if (!set[P_OMEGA0])
    v[P_OMEGA0] = r2 > 0.0 ? (y0 * u0 - x0 * v0) / r2 : 0.0;
  return RC_OK;
}

/* Initial data of the formulation (p->x0, every component fixed) and the
 * angle data of its reference (p->th0, p->om0); a coord or partition start
 * outside the formulation's domain is refused. */
static rc_err initial_data(pendulum *p, const double v[P_COUNT],
                           rc_error *err) {
  const double L = p->L;
  const double x0 = v[P_X0], y0 = v[P_Y0], u0 = v[P_U0], v0 = v[P_V0];
  const double r2 = x0 * x0 + y0 * y0;
  double th0 = atan2(x0, y0), om0 = r2 > 0.0 ? (y0 * u0 - x0 * v0) / r2 : 0.0;
  switch (p->form) {
  case F_ODE:
    p->x0[4] = v[P_T0];
    /* fall through */
  case F_INDEX3:
  case F_ACCEL:
  case F_BAUMGARTE:
  case F_GGL:
    p->x0[0] = x0, p->x0[1] = y0, p->x0[2] = u0, p->x0[3] = v0;
    break;
  case F_COORD: {
    if (!(y0 * y0 < L * L))
      return rc_error_set(err, RC_ERR_INPUT,
                          "pendulum/coord: y0 = %g with L = %g puts x(t0) = 0 "
                          "where coord is singular: expected |y0| < L",
                          y0, L);
    const double xs = p->branch * sqrt(L * L - y0 * y0), us = -y0 * v0 / xs;
    p->x0[0] = y0, p->x0[1] = v0;
    th0 = atan2(xs, y0);
    om0 = (y0 * us - xs * v0) / (L * L);
    break;
  }
  case F_PARTITION: {
    if (!(x0 * x0 < L * L))
      return rc_error_set(err, RC_ERR_INPUT,
                          "pendulum/partition: x0 = %g with L = %g: expected "
                          "|x0| < L (y = sqrt(L^2 - x^2) > 0)",
                          x0, L);
    const double ys = sqrt(L * L - x0 * x0), vs = -x0 * u0 / ys;
    p->x0[0] = x0, p->x0[1] = u0;
    p->w_lo[PX] = -L, p->w_hi[PX] = L;
    th0 = atan2(x0, ys);
    om0 = (ys * u0 - x0 * vs) / (L * L);
    break;
  }
  case F_ANGLE:
    p->x0[0] = th0 = v[P_THETA0];
    p->x0[1] = om0 = v[P_OMEGA0];
    break;
  }
  p->th0 = th0, p->om0 = om0;
  for (int i = 0; i < specs[p->form].nx; ++i)
    p->fix_x0[i] = 1;
  return RC_OK;
}

/* The problem fields of the formulation (all but the kit's blocks). */
static void fill_problem(pendulum *p, double tf) {
  const int form = p->form;
  const form_spec *fs = &specs[form];
  rc_problem *pb = &p->pb;
  pb->model = "pendulum";
  pb->formulation = formulations[form].name;
  pb->summary = formulations[form].summary;
  pb->note = fs->note;
  pb->index = fs->index;
  pb->nx = fs->nx, pb->ny = fs->ny;
  pb->autonomous = 1;
  pb->var_names = fs->names;
  pb->w_lo = p->w_lo, pb->w_hi = p->w_hi;
  pb->t0 = 0.0, pb->tf = tf;
  pb->fix_x0 = p->fix_x0;
  pb->x0 = p->x0;
  pb->t0_algebraic = fs->t0_algebraic;
  if (form == F_PARTITION) {
    pb->nout = 3, pb->out_names = out_part, pb->outputs = outputs;
  } else if (form == F_ANGLE) {
    pb->nout = 5, pb->out_names = out_angle, pb->outputs = outputs;
  }
  pb->ninv = 3;
  pb->inv_names = inv_names;
  pb->guess = guess;
  pb->reference = reference;
  pb->user = p;
  pb->destroy = destroy;
  pb->restart = restart;
}

static rc_err create(const rc_model *model, int form, const rc_param_values *pv,
                     rc_problem **out, rc_error *err) {
  *out = NULL;
  double v[P_COUNT];
  int set[P_COUNT];
  rc_err rc = check_params(model, form, pv, v, set, err);
  if (rc == RC_OK)
    rc = derive_defaults(v, set, err);
  if (rc != RC_OK)
    return rc;

  pendulum *p = calloc(1, sizeof *p);
  if (!p)
    return rc_error_set(err, RC_ERR_NOMEM, "pendulum: out of memory");
  p->form = form;
  p->g = v[P_G], p->L = v[P_L];
  p->a = 4.0 * v[P_ETA] * v[P_W];
  p->b = v[P_W] * v[P_W];
  p->branch = v[P_X0] >= 0.0 ? 1 : -1;
  for (int i = 0; i < 6; ++i)
    p->w_lo[i] = -HUGE_VAL, p->w_hi[i] = HUGE_VAL;
  if ((rc = initial_data(p, v, err)) != RC_OK) {
    free(p);
    return rc;
  }
  fill_problem(p, v[P_TF]);
  rc_problem *pb = &p->pb;

  /* Record the patterns at the initial state (inside every domain). */
  double w_rec[6] = {0.0};
  guess(pb, pb->t0, w_rec);
  const rc_kit_spec ks = {
      .point = specs[form].point, .invariants = inv_fn, .w_record = w_rec};
  rc = rc_kit_attach(pb, &p->kit, &ks, err);
  if (rc == RC_OK)
    rc = rc_origin_record(&p->origin, model, form, pv, err);
  if (rc == RC_OK)
    rc = rc_problem_validate(pb, err);
  if (rc != RC_OK) {
    destroy(pb);
    return rc;
  }
  *out = pb;
  return RC_OK;
}

const rc_model rc_model_pendulum = {
    "pendulum",
    "planar pendulum in Cartesian, partitioned and angle coordinates "
    "(SPEC 4.1)",
    F_COUNT,
    formulations,
    F_ACCEL,
    P_COUNT,
    params,
    create,
    NULL, /* create_phases */
};
