/*
 * four_bar.c - planar four-bar linkage in body coordinates with joint
 * reaction forces (SPEC 4.4, seeds/003): formulations index3, ggl, baumgarte.
 *
 * Bodies b = 1 crank, 2 coupler, 3 rocker: uniform slender rods of density
 * rho (kg/m), length L_b, mass m_b = rho L_b, inertia I_b = m_b L_b^2 / 12
 * about the centre of mass.  q_b = (x_b, y_b, phi_b): centre of mass and the
 * angle of the rod axis e(phi) = (cos phi, sin phi); v_b = (vx_b, vy_b,
 * om_b).  A point at signed distance s along the axis of body b is
 * P = r_b + s e(phi_b).  Ground pivots A = (0, 0), D = (xD, 0); y is up,
 * gravity -g in y.  Units: m, kg, s, N, N m.
 *
 * Joints (revolute; each gives two equations, x and y components):
 *   A: crank(s = -L1/2)   - A         = 0
 *   B: crank(s = +L1/2)   - coupler(s = -L2/2) = 0
 *   C: coupler(s = +L2/2) - rocker(s = +L3/2)  = 0
 *   D: rocker(s = -L3/2)  - D         = 0
 *   driver (driver = "speed"): phi_1 - Omega t - phi10 = 0
 * C(q, t) = 0 stacks the nl = 9 (speed) or 8 (torque) equations.
 *
 * Equations of motion  M v' = F + Cq^T lambda,  q' = v, with
 * F = (0, -m_b g, tau_b) (tau_1 = the crank torque parameter with
 * driver = "torque", else 0).  Sign convention of the multipliers:
 * lambda_J = (F_J_x, F_J_y) is the force (N) that joint J applies to the
 * FIRST body named in its equation above (A, B: the crank; C: the coupler;
 * D: the rocker); the second body of B and C feels -lambda_J.  "torque" is
 * the driving torque (N m) applied to the crank by the motor.
 *
 * Levels of a joint equation (component c = x, y), summed over its ends with
 * sign sigma = +1 (first) / -1 (second), G(phi) = (cos phi, sin phi)_c and
 * E(phi) = G'(phi) = (-sin phi, cos phi)_c:
 *   pos = sum sigma (q_c + s G(phi)) - ground_c
 *   vel = sum sigma (v_c + s om E(phi))
 *   acc = sum sigma (a_c + s alpha E(phi) - s om^2 G(phi))
 * with the accelerations (a_x, a_y, alpha) of the dynamics, so acc depends on
 * (phi, om, lambda).  Driver: pos = phi_1 - Omega t - phi10, vel = om_1 -
 * Omega, acc = alpha_1.
 *
 * Formulations (x = (q, v), y = lambda unless said):
 *   index3    0 = pos                                          index 3
 *   ggl       y = (lambda, mu), q' = v - Cq^T mu, 0 = (pos, vel) index 2
 *             (Gear-Gupta-Leimkuhler; mu = 0 on exact solutions)
 *   baumgarte 0 = acc + 2 eta w vel + w^2 pos                  index 1
 * Invariants: pos_*, vel_*, acc_* (3 nl), with Jacobian and Hessian.
 *
 * Reference (torque driver): the augmented system below with the eight joint
 * rows as an ODE (q, v)' = (v, a), integrated by rc_ode_reference (GSL
 * rk8pd, tolerance 1e-12), multipliers pointwise; it also gives the guess.
 * Reference (speed driver): closed-form position analysis: B = L1 e(phi_1),
 * d = D - B, e = |d|, cos alpha = (L2^2 + e^2 - L3^2)/(2 L2 e),
 * cos beta = (L3^2 + e^2 - L2^2)/(2 L3 e); phi_2 = arg d + br alpha,
 * phi_3 = arg d + pi - br beta, br = branch (+1: joint C above the line BD,
 * the default configuration).  Velocities from Cq v = (0, ..., om_1) and
 * accelerations from Cq a = -gamma + (0, ..., alpha_1), gamma the om^2 terms
 * of acc; the multipliers from the augmented system
 *   [M  -Cq^T; Cq 0] [a; lambda] = [F; -gamma]
 * by GSL LU, pointwise.  mu = 0 for ggl.
 *
 * Outputs: power_residual = tau_drive om_1 - d/dt (T + V), where tau_drive is
 * the torque multiplier (speed) or the torque parameter, and
 * d/dt (T + V) = sum_b v_b^T M_b a_b + m_b g vy_b with a_b the formulation's
 * dynamics at w (a pointwise function of w; zero on exact solutions);
 * kinetic T and potential V = sum m_b g y_b.
 *
 * Derivatives (radcol/kit.h): every term adds its value with its Jacobian
 * and Hessian entries to its row; the patterns are the entries the terms
 * write, recorded by the kit once at create (structural).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "radcol/kit.h"
#include "radcol/ode_reference.h"
#include "radcol/problem.h"

#include "origin.h"

#define FB_MAXW 36
#define FB_NQ 9
#define FB_NX 18
#define FB_GRID 801

enum { FB_INDEX3 = 0, FB_GGL = 1, FB_BAUMGARTE = 2 };

/* ---- data -----------------------------------------------------------------
 */

typedef struct fb_end {
  int body; /* 0..2, or -1: ground */
  double s; /* offset along the axis */
  double sigma;
} fb_end;

typedef struct fb_data {
  rc_kit_blocks kit; /* first: the kit's callbacks find their blocks here */
  rc_problem pb;
  int form;
  int speed; /* 1: constant-speed driver, 0: given torque */
  int nl;    /* multipliers: 9 or 8 */
  double L[3], m[3], I[3], g, xD, Omega, phi10, torque, eta, w, branch;
  fb_end ends[4][2];
  double ground[4][2];
  double x0[FB_NX];
  int fix_x0[FB_NX];
  double w_lo[FB_MAXW], w_hi[FB_MAXW];
  const char *names[FB_MAXW];
  const char *inv_names[27];
  char name_buf[FB_MAXW + 27][16];
  /* torque driver: the ODE solution on a uniform grid, for the guess */
  int ngrid;
  double grid_h;
  double *grid_y, *grid_dy; /* ngrid x 18 */
  rc_model_origin origin;   /* for restart */
} fb_data;

static const fb_data *fb_of(const rc_problem *pb) {
  return (const fb_data *)pb->user;
}

static const char fb_joint_letter[4] = {'A', 'B', 'C', 'D'};

/* ---- linear forms in the multipliers ------------------------------------ */

/* L = c0 + sum_j c_j w[idx_j] with c_j a function of one angle phi (at
 * index phi_idx, -1 if none): cp_j = dc_j/dphi, cpp_j = d2c_j/dphi2. */
typedef struct fb_lin {
  int n, phi_idx;
  int idx[6];
  double c[6], cp[6], cpp[6];
  double c0;
} fb_lin;

static void lin_push(fb_lin *L, int idx, double c, double cp, double cpp) {
  L->idx[L->n] = idx;
  L->c[L->n] = c;
  L->cp[L->n] = cp;
  L->cpp[L->n] = cpp;
  L->n++;
}

/* Component comp (0 x, 1 y, 2 phi) of Cq^T l for body b, with the
 * multipliers l at w[base .. base + nl - 1]. */
static void fb_gen_force(const fb_data *d, const double *w, int b, int comp,
                         int base, fb_lin *L) {
  L->n = 0;
  L->c0 = 0.0;
  L->phi_idx = comp == 2 ? 3 * b + 2 : -1;
  const double ph = w[3 * b + 2], sn = sin(ph), cs = cos(ph);
  for (int k = 0; k < 4; ++k)
    for (int e = 0; e < 2; ++e) {
      const fb_end *en = &d->ends[k][e];
      if (en->body != b)
        continue;
      const int lx = base + 2 * k, ly = lx + 1;
      const double ss = en->sigma * en->s;
      if (comp == 0)
        lin_push(L, lx, en->sigma, 0.0, 0.0);
      else if (comp == 1)
        lin_push(L, ly, en->sigma, 0.0, 0.0);
      else {
        /* torque of the force at P: s e'(phi) . l, e' = (-sin, cos) */
        lin_push(L, lx, -ss * sn, -ss * cs, ss * sn);
        lin_push(L, ly, ss * cs, -ss * sn, -ss * cs);
      }
    }
  if (comp == 2 && b == 0 && d->speed)
    lin_push(L, base + 8, 1.0, 0.0, 0.0);
}

/* Body acceleration component comp as a linear form in lambda. */
static void fb_accel(const fb_data *d, const double *w, int b, int comp,
                     fb_lin *L) {
  fb_gen_force(d, w, b, comp, FB_NX, L);
  const double inv = comp == 2 ? 1.0 / d->I[b] : 1.0 / d->m[b];
  for (int j = 0; j < L->n; ++j) {
    L->c[j] *= inv;
    L->cp[j] *= inv;
    L->cpp[j] *= inv;
  }
  if (comp == 1)
    L->c0 = -d->g;
  if (comp == 2 && b == 0 && !d->speed)
    L->c0 = d->torque * inv;
}

static double lin_value(const fb_lin *L, const double *w) {
  double v = L->c0;
  for (int j = 0; j < L->n; ++j)
    v += L->c[j] * w[L->idx[j]];
  return v;
}

/* Row `row` += K L E(phi) with E, E', E'' given (E = 1, 0, 0 for a plain L),
 * with its derivatives w.r.t. phi (L->phi_idx, which E also depends on if
 * e_phi >= 0) and the multipliers. */
static void add_lin_e(rc_kit *k, int row, double K, const fb_lin *L,
                      const double *w, int e_phi, double E, double E1,
                      double E2) {
  const int phi = L->phi_idx >= 0 ? L->phi_idx : e_phi;
  double Lv = L->c0, Lp = 0.0, Lpp = 0.0;
  for (int j = 0; j < L->n; ++j) {
    const double l = w[L->idx[j]];
    Lv += L->c[j] * l;
    Lp += L->cp[j] * l;
    Lpp += L->cpp[j] * l;
  }
  rc_kit_row(k, row, K * Lv * E);
  for (int j = 0; j < L->n; ++j) {
    rc_kit_d(k, L->idx[j], K * L->c[j] * E);
    if (phi >= 0)
      rc_kit_d2(k, L->idx[j], phi, K * (L->cp[j] * E + L->c[j] * E1));
  }
  if (phi >= 0) {
    rc_kit_d(k, phi, K * (Lp * E + Lv * E1));
    rc_kit_d2(k, phi, phi, K * (Lpp * E + 2.0 * Lp * E1 + Lv * E2));
  }
}

/* ---- constraint levels ----------------------------------------------------
 */

/* Adds sc * level to row `row` for joint equation r (r = 2k + c, or 8: the
 * driver), with its derivatives. */
static void lv_pos(const fb_data *d, double t, const double *w, rc_kit *k,
                   int row, int r, double sc) {
  if (r == 8) {
    rc_kit_row(k, row, sc * (w[2] - d->Omega * t - d->phi10));
    rc_kit_d(k, 2, sc);
    return;
  }
  const int kj = r / 2, c = r % 2;
  rc_kit_row(k, row, -sc * d->ground[kj][c]);
  for (int e = 0; e < 2; ++e) {
    const fb_end *en = &d->ends[kj][e];
    if (en->body < 0)
      continue;
    const int b = en->body, ip = 3 * b + 2;
    const double ph = w[ip], ss = sc * en->sigma * en->s;
    const double G = c ? sin(ph) : cos(ph), G1 = c ? cos(ph) : -sin(ph);
    rc_kit_row(k, row, sc * en->sigma * w[3 * b + c] + ss * G);
    rc_kit_d(k, 3 * b + c, sc * en->sigma);
    rc_kit_d(k, ip, ss * G1);
    rc_kit_d2(k, ip, ip, sc * (en->sigma * en->s * -G));
  }
}

static void lv_vel(const fb_data *d, const double *w, rc_kit *k, int row, int r,
                   double sc) {
  if (r == 8) {
    rc_kit_row(k, row, sc * (w[FB_NQ + 2] - d->Omega));
    rc_kit_d(k, FB_NQ + 2, sc);
    return;
  }
  const int kj = r / 2, c = r % 2;
  for (int e = 0; e < 2; ++e) {
    const fb_end *en = &d->ends[kj][e];
    if (en->body < 0)
      continue;
    const int b = en->body, ip = 3 * b + 2, iw = FB_NQ + 3 * b + 2;
    const double ph = w[ip], om = w[iw], s = en->sigma * en->s;
    const double E = c ? cos(ph) : -sin(ph), E1 = c ? -sin(ph) : -cos(ph),
                 E2 = -E;
    rc_kit_row(k, row, sc * (en->sigma * w[FB_NQ + 3 * b + c] + s * om * E));
    rc_kit_d(k, FB_NQ + 3 * b + c, sc * en->sigma);
    rc_kit_d(k, iw, sc * s * E);
    rc_kit_d(k, ip, sc * s * om * E1);
    rc_kit_d2(k, iw, ip, sc * (s * E1));
    rc_kit_d2(k, ip, ip, sc * (s * om * E2));
  }
}

static void lv_acc(const fb_data *d, const double *w, rc_kit *k, int row, int r,
                   double sc) {
  fb_lin L;
  if (r == 8) {
    fb_accel(d, w, 0, 2, &L);
    add_lin_e(k, row, sc, &L, w, -1, 1.0, 0.0, 0.0);
    return;
  }
  const int kj = r / 2, c = r % 2;
  for (int e = 0; e < 2; ++e) {
    const fb_end *en = &d->ends[kj][e];
    if (en->body < 0)
      continue;
    const int b = en->body, ip = 3 * b + 2, iw = FB_NQ + 3 * b + 2;
    const double ph = w[ip], om = w[iw], s = en->sigma * en->s;
    const double G = c ? sin(ph) : cos(ph), G1 = c ? cos(ph) : -sin(ph),
                 G2 = -G;
    const double E = G1, E1 = G2, E2 = -G1;
    /* sigma a_c */
    fb_accel(d, w, b, c, &L);
    add_lin_e(k, row, sc * en->sigma, &L, w, -1, 1.0, 0.0, 0.0);
    /* s alpha E(phi) */
    fb_accel(d, w, b, 2, &L);
    add_lin_e(k, row, sc * s, &L, w, ip, E, E1, E2);
    /* -s om^2 G(phi) */
    rc_kit_row(k, row, -sc * s * om * om * G);
    rc_kit_d(k, iw, -sc * 2.0 * s * om * G);
    rc_kit_d(k, ip, -sc * s * om * om * G1);
    rc_kit_d2(k, iw, iw, sc * (-2.0 * s * G));
    rc_kit_d2(k, iw, ip, sc * (-2.0 * s * om * G1));
    rc_kit_d2(k, ip, ip, sc * (-s * om * om * G2));
  }
}

/* ---- blocks -----------------------------------------------------------------
 */

static int fb_point_fn(const rc_problem *pb, double t, const double *w,
                       rc_kit *k) {
  const fb_data *d = fb_of(pb);
  fb_lin L;
  for (int b = 0; b < 3; ++b)
    for (int comp = 0; comp < 3; ++comp) {
      const int rq = 3 * b + comp, rv = FB_NQ + rq;
      /* q' = v (- Cq^T mu) */
      rc_kit_row(k, rq, w[rv]);
      rc_kit_d(k, rv, 1.0);
      if (d->form == FB_GGL) {
        fb_gen_force(d, w, b, comp, FB_NX + d->nl, &L);
        add_lin_e(k, rq, -1.0, &L, w, -1, 1.0, 0.0, 0.0);
      }
      /* v' = M^{-1} (F + Cq^T lambda) */
      fb_accel(d, w, b, comp, &L);
      add_lin_e(k, rv, 1.0, &L, w, -1, 1.0, 0.0, 0.0);
    }
  const int nl = d->nl;
  for (int r = 0; r < nl; ++r) {
    const int row = FB_NX + r;
    switch (d->form) {
    case FB_INDEX3:
      lv_pos(d, t, w, k, row, r, 1.0);
      break;
    case FB_GGL:
      lv_pos(d, t, w, k, row, r, 1.0);
      lv_vel(d, w, k, row + nl, r, 1.0);
      break;
    default: {
      const double cv = 2.0 * d->eta * d->w, cp = d->w * d->w;
      lv_acc(d, w, k, row, r, 1.0);
      lv_vel(d, w, k, row, r, cv);
      lv_pos(d, t, w, k, row, r, cp);
    } break;
    }
  }
  return 0;
}

static int fb_inv_fn(const rc_problem *pb, double t, const double *w,
                     rc_kit *k) {
  const fb_data *d = fb_of(pb);
  const int nl = d->nl;
  for (int r = 0; r < nl; ++r) {
    lv_pos(d, t, w, k, r, r, 1.0);
    lv_vel(d, w, k, nl + r, r, 1.0);
    lv_acc(d, w, k, 2 * nl + r, r, 1.0);
  }
  return 0;
}

/* Outputs: power_residual, kinetic, potential. */
static int fb_outputs(const rc_problem *pb, double t, const double *w,
                      double *out) {
  (void)t;
  const fb_data *d = fb_of(pb);
  double T = 0.0, V = 0.0, dE = 0.0;
  for (int b = 0; b < 3; ++b) {
    const double *v = w + FB_NQ + 3 * b;
    const double mass[3] = {d->m[b], d->m[b], d->I[b]};
    for (int comp = 0; comp < 3; ++comp) {
      fb_lin L;
      fb_accel(d, w, b, comp, &L);
      T += 0.5 * mass[comp] * v[comp] * v[comp];
      dE += mass[comp] * v[comp] * lin_value(&L, w);
    }
    V += d->m[b] * d->g * w[3 * b + 1];
    dE += d->m[b] * d->g * v[1];
  }
  const double tau = d->speed ? w[FB_NX + 8] : d->torque;
  out[0] = tau * w[FB_NQ + 2] - dE;
  out[1] = T;
  out[2] = V;
  return 0;
}

/* ---- exact kinematics and the augmented system ----------------------------
 */

/* Constraint Jacobian Cq (9 x 9) with the crank-angle row last, and gamma
 * (the om^2 terms of the acceleration level), at (q, v). */
static void fb_cq_gamma(const fb_data *d, const double *q, const double *v,
                        double *Cq, double *gamma) {
  memset(Cq, 0, sizeof(double) * 81);
  for (int r = 0; r < 8; ++r) {
    const int k = r / 2, c = r % 2;
    gamma[r] = 0.0;
    for (int e = 0; e < 2; ++e) {
      const fb_end *en = &d->ends[k][e];
      if (en->body < 0)
        continue;
      const int b = en->body;
      const double ph = q[3 * b + 2], om = v[3 * b + 2];
      const double G = c ? sin(ph) : cos(ph), G1 = c ? cos(ph) : -sin(ph);
      Cq[r * 9 + 3 * b + c] += en->sigma;
      Cq[r * 9 + 3 * b + 2] += en->sigma * en->s * G1;
      gamma[r] += -en->sigma * en->s * om * om * G;
    }
  }
  Cq[8 * 9 + 2] = 1.0;
  gamma[8] = 0.0;
}

/* Solve the n x n system A x = b in place (b <- x); 0 on success. */
static int fb_lu_solve(int n, double *A, double *b) {
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  size_t perm[18];
  gsl_permutation p = {(size_t)n, perm};
  gsl_matrix_view Av = gsl_matrix_view_array(A, (size_t)n, (size_t)n);
  gsl_vector_view bv = gsl_vector_view_array(b, (size_t)n);
  int sgn, rc = gsl_linalg_LU_decomp(&Av.matrix, &p, &sgn);
  for (int i = 0; rc == 0 && i < n; ++i)
    if (fabs(A[i * n + i]) < 1e-14)
      rc = 1;
  if (rc == 0)
    rc = gsl_linalg_LU_svx(&Av.matrix, &p, &bv.vector);
  gsl_set_error_handler(old);
  return rc;
}

/* The augmented system [M -Cq^T; Cq 0] [a; lam] = [F; -gamma + al1 e_9]
 * with the first nr rows of Cq and gamma (8: joints, 9: joints and the crank
 * angle); F = (0, -m g, tau) with tau the crank torque of the torque driver.
 * Writes a (9) and lam (nr).  Returns 0, or 1 if the system is singular. */
static int fb_augmented(const fb_data *d, const double *Cq, const double *gamma,
                        int nr, double al1, double *a, double *lam) {
  const int n = 9 + nr;
  double K[18 * 18] = {0}, rhs[18];
  for (int b = 0; b < 3; ++b) {
    K[(3 * b) * n + 3 * b] = d->m[b];
    K[(3 * b + 1) * n + 3 * b + 1] = d->m[b];
    K[(3 * b + 2) * n + 3 * b + 2] = d->I[b];
    rhs[3 * b] = 0.0;
    rhs[3 * b + 1] = -d->m[b] * d->g;
    rhs[3 * b + 2] = 0.0;
  }
  if (!d->speed)
    rhs[2] = d->torque;
  for (int r = 0; r < nr; ++r)
    for (int c = 0; c < 9; ++c) {
      K[c * n + 9 + r] = -Cq[r * 9 + c];
      K[(9 + r) * n + c] = Cq[r * 9 + c];
    }
  for (int r = 0; r < nr; ++r)
    rhs[9 + r] = -gamma[r];
  if (nr == 9)
    rhs[17] += al1;
  if (fb_lu_solve(n, K, rhs))
    return 1;
  for (int i = 0; i < 9; ++i)
    a[i] = rhs[i];
  for (int i = 0; i < nr; ++i)
    lam[i] = rhs[9 + i];
  return 0;
}

/* Crank angle ph1, speed om1, acceleration al1 -> q, v, a (9 each) and the
 * nine multipliers of the constant-speed driver (lam may be NULL).
 * Returns 0, or 1 when the linkage cannot be assembled. */
static int fb_kinematics(const fb_data *d, double ph1, double om1, double al1,
                         double *q, double *v, double *a, double *lam) {
  const double L1 = d->L[0], L2 = d->L[1], L3 = d->L[2];
  const double Bx = L1 * cos(ph1), By = L1 * sin(ph1);
  const double dx = d->xD - Bx, dy = -By, e = hypot(dx, dy);
  const double ca = (L2 * L2 + e * e - L3 * L3) / (2.0 * L2 * e);
  const double cb = (L3 * L3 + e * e - L2 * L2) / (2.0 * L3 * e);
  if (!(fabs(ca) <= 1.0 && fabs(cb) <= 1.0))
    return 1;
  const double arg = atan2(dy, dx);
  const double ph2 = arg + d->branch * acos(ca);
  const double ph3 = arg + 3.14159265358979323846 - d->branch * acos(cb);
  q[0] = 0.5 * L1 * cos(ph1), q[1] = 0.5 * L1 * sin(ph1), q[2] = ph1;
  q[3] = Bx + 0.5 * L2 * cos(ph2), q[4] = By + 0.5 * L2 * sin(ph2), q[5] = ph2;
  q[6] = d->xD + 0.5 * L3 * cos(ph3), q[7] = 0.5 * L3 * sin(ph3), q[8] = ph3;
  double Cq[81], gamma[9], zero[9] = {0};
  fb_cq_gamma(d, q, zero, Cq, gamma);
  for (int i = 0; i < 9; ++i)
    v[i] = 0.0;
  v[8] = om1;
  if (fb_lu_solve(9, Cq, v))
    return 1;
  fb_cq_gamma(d, q, v, Cq, gamma);
  if (!lam) {
    for (int i = 0; i < 9; ++i)
      a[i] = -gamma[i];
    a[8] = al1;
    return fb_lu_solve(9, Cq, a) ? 1 : 0;
  }
  return fb_augmented(d, Cq, gamma, 9, al1, a, lam);
}

/* Dynamics of a state (q, v) with the torque driver: the augmented system
 * with the eight joint rows, a and lam (8) out.  Returns 0 or 1. */
static int fb_torque_dynamics(const fb_data *d, const double *q,
                              const double *v, double *a, double *lam) {
  double Cq[81], gamma[9];
  fb_cq_gamma(d, q, v, Cq, gamma);
  return fb_augmented(d, Cq, gamma, 8, 0.0, a, lam);
}

/* Right-hand side y = (q, v) -> (v, a) of the torque-driven linkage. */
static int fb_torque_rhs(double t, const double *y, double *dy, void *ctx) {
  (void)t;
  double lam[9];
  memcpy(dy, y + FB_NQ, sizeof(double) * FB_NQ);
  return fb_torque_dynamics((const fb_data *)ctx, y, y + FB_NQ, dy + FB_NQ,
                            lam);
}
/* One row of reference values (formulation variables, then outputs) from
 * q, v and the multipliers. */
static void fb_fill_row(const fb_data *d, const rc_problem *pb, const double *q,
                        const double *v, const double *lam, double *row) {
  memcpy(row, q, sizeof(double) * 9);
  memcpy(row + 9, v, sizeof(double) * 9);
  for (int i = 0; i < d->nl; ++i)
    row[FB_NX + i] = lam[i];
  if (d->form == FB_GGL)
    for (int i = 0; i < d->nl; ++i)
      row[FB_NX + d->nl + i] = 0.0;
  double *o = row + pb->nx + pb->ny;
  double T = 0.0, V = 0.0;
  for (int b = 0; b < 3; ++b) {
    T += 0.5 * d->m[b] * (v[3 * b] * v[3 * b] + v[3 * b + 1] * v[3 * b + 1]) +
         0.5 * d->I[b] * v[3 * b + 2] * v[3 * b + 2];
    V += d->m[b] * d->g * q[3 * b + 1];
  }
  o[0] = 0.0; /* the exact power balance */
  o[1] = T;
  o[2] = V;
}

/* Speed driver: exact kinematics.  Torque driver: the augmented-system ODE
 * (q, v)' = (v, a) from x0 by rc_ode_reference at tolerance 1e-12, the
 * multipliers by the augmented system at each output. */
static int fb_reference(const rc_problem *pb, int nt, const double *t,
                        double *ref) {
  const fb_data *d = fb_of(pb);
  const int ncol = pb->nx + pb->ny + pb->nout;
  double q[9], v[9], a[9], lam[9];
  if (d->speed) {
    for (int i = 0; i < nt; ++i) {
      if (fb_kinematics(d, d->phi10 + d->Omega * t[i], d->Omega, 0.0, q, v, a,
                        lam))
        return 1;
      fb_fill_row(d, pb, q, v, lam, ref + (size_t)i * ncol);
    }
    return 0;
  }
  double *y = malloc(sizeof(double) * FB_NX * (size_t)(nt > 0 ? nt : 1));
  if (!y)
    return -1;
  rc_error err;
  int rc = rc_ode_reference(FB_NX, fb_torque_rhs, (void *)d, pb->t0, d->x0, nt,
                            t, y, 1e-12, &err) == RC_OK
               ? 0
               : 1;
  for (int i = 0; rc == 0 && i < nt; ++i) {
    const double *yi = y + (size_t)FB_NX * i;
    rc = fb_torque_dynamics(d, yi, yi + FB_NQ, a, lam);
    if (rc == 0)
      fb_fill_row(d, pb, yi, yi + FB_NQ, lam, ref + (size_t)i * ncol);
  }
  free(y);
  return rc;
}

/* Guess.  Speed driver: the exact kinematics.  Torque driver: cubic Hermite
 * interpolation of the ODE solution stored on a grid at create, multipliers
 * from the augmented system.  mu = 0 (ggl). */
static int fb_guess(const rc_problem *pb, double t, double *w) {
  const fb_data *d = fb_of(pb);
  double q[9], v[9], a[9], lam[9];
  if (d->speed) {
    if (fb_kinematics(d, d->phi10 + d->Omega * t, d->Omega, 0.0, q, v, a, lam))
      return 1;
  } else {
    double x = (t - pb->t0) / d->grid_h, y[FB_NX];
    int k = (int)floor(x);
    k = k < 0 ? 0 : (k > d->ngrid - 2 ? d->ngrid - 2 : k);
    double th = x - k;
    th = th < 0.0 ? 0.0 : (th > 1.0 ? 1.0 : th);
    const double h00 = (1 + 2 * th) * (1 - th) * (1 - th),
                 h10 = th * (1 - th) * (1 - th), h01 = th * th * (3 - 2 * th),
                 h11 = th * th * (th - 1);
    const double *y0 = d->grid_y + FB_NX * k, *y1 = y0 + FB_NX;
    const double *f0 = d->grid_dy + FB_NX * k, *f1 = f0 + FB_NX;
    for (int i = 0; i < FB_NX; ++i)
      y[i] = h00 * y0[i] + h10 * d->grid_h * f0[i] + h01 * y1[i] +
             h11 * d->grid_h * f1[i];
    memcpy(q, y, sizeof q);
    memcpy(v, y + FB_NQ, sizeof v);
    if (fb_torque_dynamics(d, q, v, a, lam))
      return 1;
  }
  memcpy(w, q, sizeof q);
  memcpy(w + 9, v, sizeof v);
  for (int i = 0; i < d->nl; ++i)
    w[FB_NX + i] = lam[i];
  if (d->form == FB_GGL)
    for (int i = 0; i < d->nl; ++i)
      w[FB_NX + d->nl + i] = 0.0;
  return 0;
}

/* ---- create
 * ------------------------------------------------------------------ */

static void fb_destroy(rc_problem *pb) {
  if (!pb)
    return;
  fb_data *d = (fb_data *)pb->user;
  rc_kit_release(&d->kit);
  rc_origin_free(&d->origin);
  free(d->grid_y), free(d->grid_dy);
  free(d);
}

/* The problem from another start (rc_problem.restart, problems/origin.h). */
static rc_err fb_restart(const rc_problem *pb, const double *x0,
                         rc_problem **out, rc_error *err) {
  const fb_data *d = pb->user;
  return rc_origin_restart(&d->origin, pb, x0, out, err);
}

static const char *const fb_state_names[FB_NX] = {
    "x1",  "y1",  "phi1", "x2",  "y2",  "phi2", "x3",  "y3",  "phi3",
    "vx1", "vy1", "om1",  "vx2", "vy2", "om2",  "vx3", "vy3", "om3"};
static const char *const fb_out_names[] = {"power_residual", "kinetic",
                                           "potential"};

static const rc_formulation_def fb_forms[] = {
    {"index3", "body coordinates, position-level joint constraints (index 3)"},
    {"ggl", "Gear-Gupta-Leimkuhler: position and velocity level (index 2)"},
    {"baumgarte", "acceleration level with Baumgarte terms (index 1)"}};

static const rc_param_def fb_params[] = {
    {"L1", RC_PARAM_REAL, 0.3, NULL, "crank length (m)"},
    {"L2", RC_PARAM_REAL, 1.0, NULL, "coupler length (m)"},
    {"L3", RC_PARAM_REAL, 0.8, NULL, "rocker length (m)"},
    {"xD", RC_PARAM_REAL, 1.0, NULL, "rocker ground pivot x (m); A = (0,0)"},
    {"rho", RC_PARAM_REAL, 1.0, NULL, "rod density (kg/m)"},
    {"g", RC_PARAM_REAL, 9.81, NULL, "gravity (m/s^2)"},
    {"driver", RC_PARAM_TEXT, 0.0, "speed",
     "crank driver: speed (constant Omega) or torque (given torque)"},
    {"Omega", RC_PARAM_REAL, 6.283185307179586, NULL,
     "crank speed of the speed driver (rad/s)"},
    {"torque", RC_PARAM_REAL, 0.0, NULL,
     "crank torque of the torque driver (N m)"},
    {"branch", RC_PARAM_REAL, 1.0, NULL,
     "assembly branch: +1 joint C above line BD, -1 below"},
    {"eta", RC_PARAM_REAL, 0.7, NULL, "Baumgarte damping ratio"},
    {"dt", RC_PARAM_REAL, 0.05, NULL, "Baumgarte time scale (s)"},
    {"w", RC_PARAM_REAL, 48.0, NULL, "Baumgarte frequency (1/s), 2.4/dt"},
    {"tf", RC_PARAM_REAL, 2.0, NULL, "final time (s)"},
    {"x10", RC_PARAM_REAL, 0, NULL, "x1(t0) (m), default from kinematics"},
    {"y10", RC_PARAM_REAL, 0, NULL, "y1(t0) (m), default from kinematics"},
    {"phi10", RC_PARAM_REAL, 0, NULL, "crank angle at t0 (rad)"},
    {"x20", RC_PARAM_REAL, 0, NULL, "x2(t0) (m), default from kinematics"},
    {"y20", RC_PARAM_REAL, 0, NULL, "y2(t0) (m), default from kinematics"},
    {"phi20", RC_PARAM_REAL, 0, NULL, "phi2(t0) (rad), from kinematics"},
    {"x30", RC_PARAM_REAL, 0, NULL, "x3(t0) (m), default from kinematics"},
    {"y30", RC_PARAM_REAL, 0, NULL, "y3(t0) (m), default from kinematics"},
    {"phi30", RC_PARAM_REAL, 0, NULL, "phi3(t0) (rad), from kinematics"},
    {"vx10", RC_PARAM_REAL, 0, NULL, "vx1(t0) (m/s), from kinematics"},
    {"vy10", RC_PARAM_REAL, 0, NULL, "vy1(t0) (m/s), from kinematics"},
    {"om10", RC_PARAM_REAL, 6.283185307179586, NULL,
     "crank speed at t0 (rad/s), default Omega"},
    {"vx20", RC_PARAM_REAL, 0, NULL, "vx2(t0) (m/s), from kinematics"},
    {"vy20", RC_PARAM_REAL, 0, NULL, "vy2(t0) (m/s), from kinematics"},
    {"om20", RC_PARAM_REAL, 0, NULL, "om2(t0) (rad/s), from kinematics"},
    {"vx30", RC_PARAM_REAL, 0, NULL, "vx3(t0) (m/s), from kinematics"},
    {"vy30", RC_PARAM_REAL, 0, NULL, "vy3(t0) (m/s), from kinematics"},
    {"om30", RC_PARAM_REAL, 0, NULL, "om3(t0) (rad/s), from kinematics"},
};

/* ---- create ---------------------------------------------------------------
 */

#define IDX(name) rc_model_param_index(model, name)
#define PV(name) pv->real[IDX(name)]
#define SET(name) (pv->is_set && pv->is_set[IDX(name)])

/* The formulation and parameter values checked; *driver is the driver
 * parameter ("speed" unless set). */
static rc_err fb_check_params(const rc_model *model, int formulation,
                              const rc_param_values *pv, const char **driver,
                              rc_error *err) {
  if (formulation < 0 || formulation >= model->nformulations)
    return rc_error_set(err, RC_ERR_INPUT,
                        "four-bar: formulation %d: expected 0..%d", formulation,
                        model->nformulations - 1);
  if (!pv || pv->n != model->nparams)
    return rc_error_set(err, RC_ERR_INPUT,
                        "four-bar: %d parameter values, expected %d",
                        pv ? pv->n : 0, model->nparams);
  const char *positive[] = {"L1", "L2", "L3", "xD", "rho", "dt", "tf"};
  for (int i = 0; i < 7; ++i)
    if (!(PV(positive[i]) > 0.0) || !isfinite(PV(positive[i])))
      return rc_error_set(err, RC_ERR_INPUT,
                          "four-bar: %s = %g: expected a finite positive "
                          "value",
                          positive[i], PV(positive[i]));
  for (int i = 0; i < model->nparams; ++i)
    if (model->params[i].type == RC_PARAM_REAL && !isfinite(pv->real[i]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "four-bar: %s = %g: expected a finite value",
                          model->params[i].name, pv->real[i]);
  const char *drv = pv->text ? pv->text[IDX("driver")] : NULL;
  if (!drv)
    drv = "speed";
  if (strcmp(drv, "speed") != 0 && strcmp(drv, "torque") != 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "four-bar: driver = \"%s\": expected \"speed\" or "
                        "\"torque\"",
                        drv);
  if (PV("branch") != 1.0 && PV("branch") != -1.0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "four-bar: branch = %g: expected +1 or -1",
                        PV("branch"));
  *driver = drv;
  return RC_OK;
}

/* The bodies (length, mass, inertia), the constants and the joint ends. */
static void fb_set_linkage(fb_data *d, const rc_model *model,
                           const rc_param_values *pv) {
  const char *ln[3] = {"L1", "L2", "L3"};
  for (int b = 0; b < 3; ++b) {
    d->L[b] = PV(ln[b]);
    d->m[b] = PV("rho") * d->L[b];
    d->I[b] = d->m[b] * d->L[b] * d->L[b] / 12.0;
  }
  d->g = PV("g"), d->xD = PV("xD"), d->Omega = PV("Omega");
  d->phi10 = PV("phi10"), d->torque = PV("torque"), d->eta = PV("eta");
  d->w = SET("w") ? PV("w") : 2.4 / PV("dt");
  d->branch = PV("branch");
  /* joint ends: (body, offset, sign) */
  const fb_end G = {-1, 0.0, 0.0};
  d->ends[0][0] = (fb_end){0, -0.5 * d->L[0], 1.0}, d->ends[0][1] = G;
  d->ends[1][0] = (fb_end){0, 0.5 * d->L[0], 1.0};
  d->ends[1][1] = (fb_end){1, -0.5 * d->L[1], -1.0};
  d->ends[2][0] = (fb_end){1, 0.5 * d->L[1], 1.0};
  d->ends[2][1] = (fb_end){2, 0.5 * d->L[2], -1.0};
  d->ends[3][0] = (fb_end){2, -0.5 * d->L[2], 1.0}, d->ends[3][1] = G;
  d->ground[3][0] = d->xD;
}

/* Initial state: the kinematics at phi10, om10 (Omega unless set), each
 * component replaced by its parameter NAME0 when set. */
static rc_err fb_initial_state(fb_data *d, const rc_model *model,
                               const rc_param_values *pv, rc_error *err) {
  double q[9], v[9], a[9];
  const double om10 = SET("om10") ? PV("om10") : d->Omega;
  if (fb_kinematics(d, d->phi10, om10, 0.0, q, v, a, NULL))
    return rc_error_set(err, RC_ERR_INPUT,
                        "four-bar: phi10 = %g: the linkage cannot be "
                        "assembled with L1 = %g, L2 = %g, L3 = %g, xD = %g",
                        PV("phi10"), d->L[0], d->L[1], d->L[2], d->xD);
  for (int i = 0; i < FB_NX; ++i) {
    char nm[16];
    strcpy(nm, fb_state_names[i]);
    strcat(nm, "0");
    d->x0[i] = SET(nm) ? PV(nm) : (i < 9 ? q[i] : v[i - 9]);
    d->fix_x0[i] = 1;
  }
  return RC_OK;
}
#undef PV
#undef SET
#undef IDX

/* Variable names (the states, then F_J_c per joint row, torque for the
 * driver row, and with ggl mu_J_c, mu_drv) and invariant names (pos_, vel_,
 * acc_ per row). */
static void fb_name_variables(fb_data *d, int ggl) {
  const int nl = d->nl;
  int nb = 0;
  for (int i = 0; i < FB_NX; ++i)
    d->names[i] = fb_state_names[i];
  for (int r = 0; r < nl; ++r)
    for (int set = 0; set < (ggl ? 2 : 1); ++set) {
      char *s = d->name_buf[nb++];
      if (r == 8)
        strcpy(s, set ? "mu_drv" : "torque");
      else
        snprintf(s, 16, "%s_%c_%c", set ? "mu" : "F", fb_joint_letter[r / 2],
                 r % 2 ? 'y' : 'x');
      d->names[FB_NX + set * nl + r] = s;
    }
  const char *lv[3] = {"pos", "vel", "acc"};
  for (int l = 0; l < 3; ++l)
    for (int r = 0; r < nl; ++r) {
      char *s = d->name_buf[nb++];
      if (r == 8)
        snprintf(s, 16, "%s_drv", lv[l]);
      else
        snprintf(s, 16, "%s_%c_%c", lv[l], fb_joint_letter[r / 2],
                 r % 2 ? 'y' : 'x');
      d->inv_names[l * nl + r] = s;
    }
}

/* The problem fields of the formulation (all but the kit's blocks). */
static void fb_fill_problem(fb_data *d, const rc_model *model, int formulation,
                            double tf) {
  rc_problem *pb = &d->pb;
  const int nl = d->nl, ggl = formulation == FB_GGL;
  for (int i = 0; i < FB_MAXW; ++i)
    d->w_lo[i] = -HUGE_VAL, d->w_hi[i] = HUGE_VAL;
  pb->model = model->name;
  pb->formulation = fb_forms[formulation].name;
  pb->summary = fb_forms[formulation].summary;
  pb->note = formulation == FB_INDEX3
                 ? "index-3 DAE transcribed directly: expect order "
                   "reduction in velocities and reaction forces"
                 : NULL;
  pb->index = formulation == FB_INDEX3 ? 3 : (ggl ? 2 : 1);
  pb->nx = FB_NX;
  pb->ny = ggl ? 2 * nl : nl;
  pb->autonomous = !d->speed; /* the speed driver depends on t */
  pb->var_names = d->names;
  pb->w_lo = d->w_lo;
  pb->w_hi = d->w_hi;
  pb->t0 = 0.0;
  pb->tf = tf;
  pb->fix_x0 = d->fix_x0;
  pb->x0 = d->x0;
  pb->t0_algebraic = formulation == FB_BAUMGARTE;
  pb->ninv = 3 * nl;
  pb->inv_names = d->inv_names;
  pb->nout = 3;
  pb->out_names = fb_out_names;
  pb->outputs = fb_outputs;
  pb->reference = fb_reference;
  pb->guess = fb_guess;
  /* the free (torque-driven) linkage moves fast: the light crank reaches
   * ~850 rad/s^2 under gravity; 20..40 elements over 2 s fail, 400 converge */
  if (!d->speed)
    pb->default_elements = 400;
}

/* Torque driver: the reference ODE solution and its derivative on FB_GRID
 * uniform times, for the guess. */
static rc_err fb_torque_grid(fb_data *d, rc_error *err) {
  const rc_problem *pb = &d->pb;
  rc_err rc = RC_OK;
  d->ngrid = FB_GRID;
  d->grid_h = (pb->tf - pb->t0) / (d->ngrid - 1);
  d->grid_y = malloc(sizeof(double) * FB_NX * d->ngrid);
  d->grid_dy = malloc(sizeof(double) * FB_NX * d->ngrid);
  double *tg = malloc(sizeof(double) * d->ngrid);
  if (!d->grid_y || !d->grid_dy || !tg)
    rc = rc_error_set(err, RC_ERR_NOMEM, "four-bar: out of memory");
  else {
    for (int i = 0; i < d->ngrid; ++i)
      tg[i] = pb->t0 + i * d->grid_h;
    tg[d->ngrid - 1] = pb->tf;
    rc = rc_ode_reference(FB_NX, fb_torque_rhs, d, pb->t0, d->x0, d->ngrid, tg,
                          d->grid_y, 1e-10, err);
    if (rc == RC_ERR_INPUT && err) { /* GSL gave up on these parameters */
      char why[RC_MESSAGE_MAX];
      snprintf(why, sizeof why, "%s", err->message);
      rc_error_set(err, rc,
                   "four-bar: no motion for these parameters (the "
                   "torque-driven ODE behind the guess and the reference): "
                   "%.400s",
                   why);
    }
    for (int i = 0; rc == RC_OK && i < d->ngrid; ++i)
      if (fb_torque_rhs(tg[i], d->grid_y + FB_NX * i, d->grid_dy + FB_NX * i,
                        d))
        rc = rc_error_set(err, RC_ERR_EVAL,
                          "four-bar: singular augmented system at t = %g",
                          tg[i]);
  }
  free(tg);
  return rc;
}

static rc_err fb_create(const rc_model *model, int formulation,
                        const rc_param_values *pv, rc_problem **out,
                        rc_error *err) {
  *out = NULL;
  const char *drv = NULL;
  rc_err rc = fb_check_params(model, formulation, pv, &drv, err);
  if (rc != RC_OK)
    return rc;
  fb_data *d = calloc(1, sizeof *d);
  if (!d)
    return rc_error_set(err, RC_ERR_NOMEM, "four-bar: out of memory");
  rc_problem *pb = &d->pb;
  pb->user = d;
  pb->destroy = fb_destroy;
  pb->restart = fb_restart;
  d->form = formulation;
  d->speed = strcmp(drv, "speed") == 0;
  d->nl = d->speed ? 9 : 8;
  fb_set_linkage(d, model, pv);
  rc = fb_initial_state(d, model, pv, err);
  if (rc == RC_OK) {
    fb_name_variables(d, formulation == FB_GGL);
    fb_fill_problem(d, model, formulation,
                    pv->real[rc_model_param_index(model, "tf")]);
    const rc_kit_spec ks = {.point = fb_point_fn, .invariants = fb_inv_fn};
    rc = rc_kit_attach(pb, &d->kit, &ks, err);
  }
  if (rc == RC_OK && !d->speed)
    rc = fb_torque_grid(d, err);
  if (rc == RC_OK)
    rc = rc_origin_record(&d->origin, model, formulation, pv, err);
  if (rc == RC_OK)
    rc = rc_problem_validate(pb, err);
  if (rc != RC_OK) {
    fb_destroy(pb);
    return rc;
  }
  *out = pb;
  return RC_OK;
}

const rc_model rc_model_four_bar = {
    "four-bar",
    "planar four-bar linkage in body coordinates with joint reaction forces",
    3,
    fb_forms,
    FB_BAUMGARTE,
    (int)(sizeof fb_params / sizeof fb_params[0]),
    fb_params,
    fb_create,
    NULL /* create_phases */};
