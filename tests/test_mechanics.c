/*
 * test_mechanics.c - the double pendulum (problems/double_pendulum.c) and the
 * four-bar linkage (problems/four_bar.c).
 *
 * Double pendulum:
 *  1. The angle reference conserves the energy (a wrong Lagrangian ODE or a
 *     loose integration would not) over tf = 5 s.
 *  2. The initial state follows SPEC 4.2's angle-to-Cartesian formulas and
 *     the reference starts there.
 *  3. Along the reference, with the exact time derivative obtained here from
 *     the angle ODE by the chain rule (written independently of the problem
 *     file), every Cartesian formulation's point block gives f - x' = 0 and
 *     g = 0, and all six invariants vanish: this fixes the sign and scale of
 *     the multipliers against the index-3 equations.
 * Four-bar (constant-speed driver):
 *  4. The reference satisfies all eight joint constraints (rod end points
 *     computed here from body coordinates) and the driver.
 *  5. Reference velocities and accelerations equal 4th-order central
 *     differences of the reference positions and velocities, and every
 *     formulation's f - x' = 0 and g = 0 there: the multipliers solve the
 *     augmented system.  Power balance: the torque times the crank speed
 *     equals d/dt of T + V by central differences, and the power_residual
 *     output vanishes.
 *  6. Torque driver (torque = 0.7 N m): the reference (augmented-system ODE
 *     integrated by rc_ode_reference) passes the same checks, with the power
 *     balance torque * om1 = d/dt (T + V).
 * Both: rc_check_problem passes on every formulation (and the torque driver).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/catalogue.h"
#include "radcol/check.h"
#include "radcol/params.h"
#include "radcol/problem.h"

#include "test_util.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static rc_problem *make(const char *model, const char *form, int nset,
                        const char *const *sets) {
  const rc_model *m = rc_find_model(model);
  rc_error err;
  rc_param_values pv = {0};
  rc_problem *pb = NULL;
  if (!m) {
    EXPECT(0, "model %s not registered", model);
    return NULL;
  }
  if (rc_params_init_defaults(m, &pv, &err) != RC_OK) {
    EXPECT(0, "defaults: %s", err.message);
    return NULL;
  }
  for (int i = 0; i < nset; ++i)
    if (rc_params_set(m, &pv, sets[i], &err) != RC_OK)
      EXPECT(0, "set %s: %s", sets[i], err.message);
  int f = rc_model_find_formulation(m, form);
  EXPECT(f >= 0, "no formulation %s", form);
  if (f >= 0 && m->create(m, f, &pv, &pb, &err) != RC_OK)
    EXPECT(0, "create %s/%s: %s", model, form, err.message);
  rc_params_free(&pv);
  return pb;
}

static void check_derivatives(const rc_problem *pb) {
  rc_check_options o;
  rc_check_report rep;
  rc_error err;
  rc_check_options_default(&o);
  EXPECT(rc_check_problem(pb, &o, &rep, &err) == RC_OK, "check: %s",
         err.message);
  EXPECT(rep.nfailures == 0,
         "%s/%s: %d derivative failures (first: %s row %d "
         "col %d expected %g got %g)",
         pb->model, pb->formulation, rep.nfailures,
         rep.nfailures ? rep.failures[0].block : "", rep.failures[0].row,
         rep.failures[0].col, rep.failures[0].expected, rep.failures[0].got);
}

/* ---- double pendulum --------------------------------------------------------
 */

#define NT 251

static void test_double_pendulum(void) {
  const double m1 = 5, m2 = 1, L1 = 1, L2 = 1, g = 9.81, tf = 5;
  double t[NT];
  for (int i = 0; i < NT; ++i)
    t[i] = tf * i / (NT - 1);
  rc_problem *ang = make("double-pendulum", "angle", 0, NULL);
  if (!ang)
    return;
  /* angle outputs: energy, then the Cartesian map x1 y1 x2 y2 u1 v1 u2 v2 */
  enum { AW = 4 + 9 };
  EXPECT(ang->nout == 9 && strcmp(ang->out_names[0], "energy") == 0 &&
             strcmp(ang->out_names[1], "x1") == 0 &&
             strcmp(ang->out_names[8], "v2") == 0,
         "angle outputs are energy, x1 .. v2");
  static double aref[NT * AW];
  EXPECT(ang->reference(ang, NT, t, aref) == 0, "angle reference failed");
  /* 1. energy, computed here from the angles */
  double E0 = 0, dEmax = 0;
  for (int i = 0; i < NT; ++i) {
    const double *s = aref + AW * i;
    const double u1 = L1 * s[2] * cos(s[0]), v1 = L1 * s[2] * sin(s[0]);
    const double u2 = u1 + L2 * s[3] * cos(s[1]),
                 v2 = v1 + L2 * s[3] * sin(s[1]);
    const double y1 = -L1 * cos(s[0]), y2 = y1 - L2 * cos(s[1]);
    const double E = 0.5 * m1 * (u1 * u1 + v1 * v1) +
                     0.5 * m2 * (u2 * u2 + v2 * v2) + g * (m1 * y1 + m2 * y2);
    if (i == 0)
      E0 = E;
    dEmax = fmax(dEmax, fabs(E - E0));
    EXPECT(fabs(E - s[4]) < 1e-12 * (1 + fabs(E)), "energy output at t=%g",
           t[i]);
    const double cart[8] = {L1 * sin(s[0]),
                            y1,
                            L1 * sin(s[0]) + L2 * sin(s[1]),
                            y2,
                            u1,
                            v1,
                            u2,
                            v2};
    for (int j = 0; j < 8; ++j)
      EXPECT(fabs(cart[j] - s[5 + j]) < 1e-14, "output %s at t=%g",
             ang->out_names[1 + j], t[i]);
  }
  printf("double-pendulum angle reference: max |E - E0| over 5 s = %.3e "
         "(E0 = %.6f)\n",
         dEmax, E0);
  EXPECT(dEmax < 5e-11, "energy drift %.3e", dEmax);
  /* the motion is not trivial: theta1 leaves its start by > 1 rad */
  double span = 0;
  for (int i = 0; i < NT; ++i)
    span = fmax(span, fabs(aref[AW * i] - aref[0]));
  EXPECT(span > 1.0, "theta1 span %g", span);

  const char *forms[3] = {"index3", "index1", "baumgarte"};
  for (int f = 0; f < 3; ++f) {
    rc_problem *pb = make("double-pendulum", forms[f], 0, NULL);
    if (!pb)
      continue;
    /* 2. initial state from the angles (SPEC 4.2) */
    const double th1 = M_PI / 2, th2 = M_PI / 4, w1 = 0, w2 = -0.1;
    const double x1 = L1 * sin(th1), y1 = -L1 * cos(th1);
    const double z0[8] = {x1,
                          y1,
                          x1 + L2 * sin(th2),
                          y1 - L2 * cos(th2),
                          L1 * w1 * cos(th1),
                          L1 * w1 * sin(th1),
                          L1 * w1 * cos(th1) + L2 * w2 * cos(th2),
                          L1 * w1 * sin(th1) + L2 * w2 * sin(th2)};
    for (int i = 0; i < 8; ++i)
      EXPECT(fabs(pb->x0[i] - z0[i]) < 1e-15, "%s x0[%d] = %g, expected %g",
             forms[f], i, pb->x0[i], z0[i]);
    static double ref[NT * 11];
    EXPECT(pb->reference(pb, NT, t, ref) == 0, "%s reference", forms[f]);
    for (int i = 0; i < 8; ++i)
      EXPECT(fabs(ref[i] - z0[i]) < 1e-14, "%s reference starts at x0",
             forms[f]);
    /* 3. residuals along the reference with the exact derivative */
    double maxf = 0, maxg = 0, maxinv = 0;
    for (int k = 0; k < NT; ++k) {
      const double *s = aref + AW * k, *w = ref + 11 * k;
      double Fa[4];
      ang->point.eval(ang, t[k], s, Fa); /* (w1, w2, a1, a2) */
      const double c1 = cos(s[0]), s1 = sin(s[0]), c2 = cos(s[1]),
                   s2 = sin(s[1]);
      double dz[8];
      dz[0] = w[4], dz[1] = w[5], dz[2] = w[6], dz[3] = w[7];
      dz[4] = L1 * (Fa[2] * c1 - s[2] * s[2] * s1);
      dz[5] = L1 * (Fa[2] * s1 + s[2] * s[2] * c1);
      dz[6] = dz[4] + L2 * (Fa[3] * c2 - s[3] * s[3] * s2);
      dz[7] = dz[5] + L2 * (Fa[3] * s2 + s[3] * s[3] * c2);
      double F[10], h[6];
      EXPECT(pb->point.eval(pb, t[k], w, F) == 0, "eval");
      for (int i = 0; i < 8; ++i)
        maxf = fmax(maxf, fabs(F[i] - dz[i]) / (1 + fabs(dz[i])));
      maxg = fmax(maxg, fmax(fabs(F[8]), fabs(F[9])));
      pb->invariants.eval(pb, t[k], w, h);
      for (int i = 0; i < 6; ++i)
        maxinv = fmax(maxinv, fabs(h[i]));
    }
    printf("double-pendulum/%s along reference: |f - x'| %.2e  |g| %.2e  "
           "|inv| %.2e\n",
           forms[f], maxf, maxg, maxinv);
    EXPECT(maxf < 1e-8, "%s f residual %.3e", forms[f], maxf);
    EXPECT(maxg < 1e-8, "%s g residual %.3e", forms[f], maxg);
    EXPECT(maxinv < 1e-8, "%s invariants %.3e", forms[f], maxinv);
    check_derivatives(pb);
    rc_problem_free(&pb);
  }
  check_derivatives(ang);
  rc_problem_free(&ang);
}

/* ---- four-bar ------------------------------------------------------------ */

#define NF 101

/* Joint gaps of the reference positions: rod ends from body coordinates. */
static double joint_gap(const double *q, double t, int speed) {
  const double L[3] = {0.3, 1.0, 0.8};
  double P[3][2][2]; /* body, end (-, +), xy */
  for (int b = 0; b < 3; ++b)
    for (int e = 0; e < 2; ++e) {
      const double s = (e ? 0.5 : -0.5) * L[b];
      P[b][e][0] = q[3 * b] + s * cos(q[3 * b + 2]);
      P[b][e][1] = q[3 * b + 1] + s * sin(q[3 * b + 2]);
    }
  double gap = 0;
  for (int c = 0; c < 2; ++c) {
    gap = fmax(gap, fabs(P[0][0][c] - 0.0));                  /* A */
    gap = fmax(gap, fabs(P[0][1][c] - P[1][0][c]));           /* B */
    gap = fmax(gap, fabs(P[1][1][c] - P[2][1][c]));           /* C */
    gap = fmax(gap, fabs(P[2][0][c] - (c == 0 ? 1.0 : 0.0))); /* D */
  }
  return speed ? fmax(gap, fabs(q[2] - 2 * M_PI * t)) : gap;
}

static void test_four_bar(void) {
  const char *forms[3] = {"index3", "ggl", "baumgarte"};
  const char *sets[2] = {"driver=torque", "torque=0.7"};
  const double tf = 2;
  for (int run = 0; run < 6; ++run) {
    const int f = run % 3, speed = run < 3;
    rc_problem *pb = make("four-bar", forms[f], speed ? 0 : 2, sets);
    if (!pb)
      continue;
    const int nl = speed ? 9 : 8;
    /* the torque-driven motion is fast (crank speed 3..12 rad/s): smaller
     * difference step */
    const double hfd = speed ? 5e-4 : 1e-4;
    EXPECT(pb->ny == (f == 1 ? 2 * nl : nl), "multiplier count");
    const int nw = rc_problem_nw(pb), ncol = pb->nx + pb->ny + pb->nout;
    EXPECT(pb->reference != NULL, "reference");
    EXPECT(strcmp(pb->var_names[18], "F_A_x") == 0 &&
               strcmp(pb->var_names[25], "F_D_y") == 0 &&
               (!speed || strcmp(pb->var_names[26], "torque") == 0),
           "multiplier names");
    double t[NF * 5];
    for (int i = 0; i < NF; ++i) {
      const double tc = 0.01 + (tf - 0.02) * i / (NF - 1);
      const double off[5] = {0, -2 * hfd, -hfd, hfd, 2 * hfd};
      for (int j = 0; j < 5; ++j)
        t[5 * i + j] = tc + off[j];
    }
    /* reference times must ascend: evaluate each point's stencil apart */
    double *ref = malloc(sizeof(double) * NF * 5 * ncol);
    int ok = 1;
    for (int i = 0; i < NF; ++i) {
      double ts[5] = {t[5 * i + 1], t[5 * i + 2], t[5 * i], t[5 * i + 3],
                      t[5 * i + 4]};
      ok &= pb->reference(pb, 5, ts, ref + (size_t)5 * i * ncol) == 0;
    }
    EXPECT(ok, "four-bar reference failed");
    double gap = 0, dv = 0, da = 0, maxf = 0, maxg = 0, dP = 0, pres = 0;
    for (int i = 0; i < NF && ok; ++i) {
      const double *r0 = ref + (size_t)5 * i * ncol; /* t - 2h */
      const double *r1 = r0 + ncol, *w = r0 + 2 * ncol, *r3 = r0 + 3 * ncol,
                   *r4 = r0 + 4 * ncol;
      const double tc = t[5 * i];
      gap = fmax(gap, joint_gap(w, tc, speed));
      double xdot[18];
      for (int j = 0; j < 18; ++j) {
        const double d = (r0[j] - 8 * r1[j] + 8 * r3[j] - r4[j]) / (12 * hfd);
        xdot[j] = d;
        if (j < 9)
          dv = fmax(dv, fabs(d - w[9 + j]));
      }
      double F[64];
      EXPECT(pb->point.eval(pb, tc, w, F) == 0, "eval");
      for (int j = 0; j < 18; ++j) {
        if (j >= 9)
          da = fmax(da, fabs(F[j] - xdot[j]) / (1 + fabs(xdot[j])));
        else
          maxf = fmax(maxf, fabs(F[j] - w[9 + j]));
      }
      for (int j = 18; j < rc_problem_nF(pb); ++j)
        maxg = fmax(maxg, fabs(F[j]));
      /* power: torque * om1 = d/dt (T + V) by central differences */
      const int io = pb->nx + pb->ny;
      const double dE =
          ((r0[io + 1] + r0[io + 2]) - 8 * (r1[io + 1] + r1[io + 2]) +
           8 * (r3[io + 1] + r3[io + 2]) - (r4[io + 1] + r4[io + 2])) /
          (12 * hfd);
      dP = fmax(dP, fabs((speed ? w[26] : 0.7) * w[11] - dE));
      double out[3];
      pb->outputs(pb, tc, w, out);
      pres = fmax(pres, fabs(out[0]));
      (void)nw;
    }
    printf(
        "four-bar/%s (%s driver) reference: joint gap %.2e  |v - dq/dt| %.2e  "
        "|f - x'| %.2e (v rows, rel) %.2e (q rows)  |g| %.2e  "
        "|P - dE/dt| %.2e  power_residual %.2e\n",
        forms[f], speed ? "speed" : "torque", gap, dv, da, maxf, maxg, dP,
        pres);
    EXPECT(gap < (speed ? 1e-13 : 1e-9), "joint gap %.3e", gap);
    EXPECT(dv < 1e-7, "velocity vs differences %.3e", dv);
    EXPECT(da < 1e-6, "acceleration vs differences %.3e", da);
    EXPECT(maxf < 1e-13, "q' = v %.3e", maxf);
    EXPECT(maxg < 1e-8, "g residual %.3e", maxg);
    EXPECT(dP < 1e-6, "power balance %.3e", dP);
    EXPECT(pres < 1e-8, "power_residual %.3e", pres);
    free(ref);
    check_derivatives(pb);
    rc_problem_free(&pb);
  }
}

int main(void) {
  test_double_pendulum();
  test_four_bar();
  if (failures)
    fprintf(stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
