/*
 * test_init.c - consistent initialisation (radcol/init.h) against
 * independent, closed-form consistent points:
 *
 *   pendulum/coord, y and v fixed: x = +-sqrt(L^2 - y^2) by the guess's
 *     sign, u = -y v / x, T = (u^2 + v^2 + g y)/L^2;
 *   pendulum/accel, x = y = 0.8 fixed: inconsistent, h1 = 0.28 named, the
 *     conflicting fixed values are exactly x and y;
 *   double-pendulum/index1: the default point has u2 = L2 w2 cos th2,
 *     v2 = L2 w2 sin th2; zero velocities of mass 1, u2 = 0 and the v2 of
 *     omega2 = -0.1 conflict through vel2, the conflict is {u2, v2};
 *   crane/reduced from a poor guess: the flat start (d, r) = (x_start,
 *     z_start), theta = 0, tau = m g, u2 = C3 tau; a moving trolley
 *     (vd = 0.5) is consistent for track but not for reduced;
 *   four-bar (torque driver), crank angle alone: B = L1 e(phi1), C from the
 *     two circles |C - B| = L2, |C - D| = L3 on the branch above BD;
 *   rc_make_consistent: default data unchanged, x0 = y0 = 0.8 moved onto the
 *     circle with h2 = 0;
 *   rc_init_check_start / rc_init_apply_start (the pre-solve step of
 *     radcol solve): pendulum/index3 with y0 = 0.9 (L = 1, x0 = 0.1): the
 *     given residual h1 = x^2 + y^2 - L^2 = -0.18 is reported, the
 *     re-created problem starts on the circle with x u + y v = 0, and its
 *     reference starts there too; the default data are not changed; a model
 *     without the start parameters is named and nothing changes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/catalogue.h"
#include "radcol/init.h"
#include "radcol/params.h"
#include "radcol/problem.h"

#include "test_util.h"

#define NEAR(a, b, tol, what)                                                  \
  EXPECT(fabs((a) - (b)) <= (tol), "%s = %.17g, expected %.17g (tol %g)",      \
         what, (double)(a), (double)(b), (double)(tol))

static rc_problem *make(const char *model_name, const char *form,
                        const char *const *sets, int nsets, rc_param_values *pv,
                        const rc_model **mout) {
  rc_error err = {RC_OK, ""};
  const rc_model *m = rc_find_model(model_name);
  if (!m) {
    EXPECT(0, "model %s missing", model_name);
    return NULL;
  }
  *mout = m;
  const int f = rc_model_find_formulation(m, form);
  EXPECT(f >= 0, "%s has no formulation %s", model_name, form);
  rc_problem *pb = NULL;
  if (rc_params_init_defaults(m, pv, &err) != RC_OK) {
    EXPECT(0, "%s", err.message);
    return NULL;
  }
  for (int k = 0; k < nsets; ++k)
    EXPECT(rc_params_set(m, pv, sets[k], &err) == RC_OK, "%s", err.message);
  EXPECT(m->create(m, f, pv, &pb, &err) == RC_OK && pb, "%s", err.message);
  return pb;
}

static double param(const rc_model *m, const rc_param_values *pv,
                    const char *name) {
  const int i = rc_model_param_index(m, name);
  return i >= 0 ? pv->real[i] : NAN;
}

static int idx(const rc_problem *pb, const char *name) {
  const int i = rc_init_var_index(pb, name);
  EXPECT(i >= 0, "%s/%s has no variable %s", pb->model, pb->formulation, name);
  return i < 0 ? 0 : i;
}

/* Solve with the named values fixed (NAN: fixed at the default guess) and
 * the named guesses overriding the default. */
static int solve(const rc_problem *pb, int nfix, const char *const *fix_names,
                 const double *fix_vals, int nguess,
                 const char *const *guess_names, const double *guess_vals,
                 rc_init_report *rep) {
  const int nw = rc_problem_nw(pb);
  double *zhat = calloc((size_t)nw, sizeof *zhat);
  double *fv = calloc((size_t)nw, sizeof *fv);
  int *fixed = calloc((size_t)nw, sizeof *fixed);
  rc_error err = {RC_OK, ""};
  EXPECT(rc_init_default_guess(pb, zhat, &err) == RC_OK, "%s", err.message);
  for (int k = 0; k < nguess; ++k)
    zhat[idx(pb, guess_names[k])] = guess_vals[k];
  for (int k = 0; k < nfix; ++k) {
    const int i = idx(pb, fix_names[k]);
    fixed[i] = 1;
    fv[i] = isnan(fix_vals[k]) ? zhat[i] : fix_vals[k];
    zhat[i] = fv[i];
  }
  rc_init_options opt;
  rc_init_options_default(&opt);
  const rc_err rc = rc_init_solve(pb, &opt, zhat, fixed, fv, rep, &err);
  EXPECT(rc == RC_OK, "rc_init_solve: %s", err.message);
  free(zhat);
  free(fv);
  free(fixed);
  return rc == RC_OK;
}

static int has_conflict(const rc_problem *pb, const rc_init_report *r,
                        const char *name) {
  for (int c = 0; c < r->nconflict; ++c)
    if (strcmp(pb->var_names[r->conflict[c]], name) == 0)
      return 1;
  return 0;
}

static void test_pendulum_coord(void) {
  rc_param_values pv;
  const rc_model *m;
  rc_problem *pb = make("pendulum", "coord", NULL, 0, &pv, &m);
  if (!pb)
    return;
  const double L = param(m, &pv, "L"), g = param(m, &pv, "g");
  const char *fix[] = {"y", "v"};
  const double nan2[] = {NAN, NAN};
  for (int branch = 1; branch >= -1; branch -= 2) {
    rc_init_report r;
    const char *gn[] = {"x"};
    const double gv[] = {-0.1};
    if (!solve(pb, 2, fix, nan2, branch > 0 ? 0 : 1, gn, gv, &r))
      continue;
    const double y = r.z[idx(pb, "y")], v = r.z[idx(pb, "v")];
    const double x = branch * sqrt(L * L - y * y), u = -y * v / x;
    const double T = (u * u + v * v + g * y) / (L * L);
    EXPECT(r.consistent, "coord branch %d: %s", branch, r.message);
    NEAR(r.z[idx(pb, "x")], x, 1e-10, "coord x");
    NEAR(r.z[idx(pb, "u")], u, 1e-9, "coord u");
    NEAR(r.z[idx(pb, "T")], T, 1e-8, "coord T");
    if (branch > 0) {
      NEAR(x, 0.1, 1e-12, "default x0 (independent: SPEC 4.1)");
      NEAR(u, 1.0, 1e-12, "default u0");
    } else {
      EXPECT(r.moved[idx(pb, "u")], "u must be reported as moved");
    }
    rc_init_report_free(&r);
  }
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

static void test_pendulum_conflict(void) {
  rc_param_values pv;
  const rc_model *m;
  rc_problem *pb = make("pendulum", "accel", NULL, 0, &pv, &m);
  if (!pb)
    return;
  const double L = param(m, &pv, "L");
  rc_init_report r;
  const char *fix[] = {"x", "y"};
  const double fv[] = {0.8, 0.8};
  if (solve(pb, 2, fix, fv, 0, NULL, NULL, &r)) {
    EXPECT(!r.consistent, "x = y = 0.8 must be inconsistent");
    const int h1 = 0;
    EXPECT(strcmp(r.con_names[h1], "h1") == 0, "first row %s", r.con_names[0]);
    NEAR(r.residual[h1], 0.8 * 0.8 + 0.8 * 0.8 - L * L, 1e-14, "h1");
    EXPECT(strstr(r.message, "h1") != NULL, "message lacks h1: %s", r.message);
    EXPECT(r.nconflict == 2 && has_conflict(pb, &r, "x") &&
               has_conflict(pb, &r, "y"),
           "conflicts should be x and y (%d found)", r.nconflict);
    rc_init_report_free(&r);
  }
  /* Over-fixing consistently is fine: all four states at the defaults. */
  const char *fix4[] = {"x", "y", "u", "v"};
  const double nan4[] = {NAN, NAN, NAN, NAN};
  if (solve(pb, 4, fix4, nan4, 0, NULL, NULL, &r)) {
    EXPECT(r.consistent, "default states fixed: %s", r.message);
    const double x = r.z[0], y = r.z[1], u = r.z[2], v = r.z[3];
    NEAR(r.z[idx(pb, "T")],
         (u * u + v * v + param(m, &pv, "g") * y) / (x * x + y * y), 1e-9,
         "accel T from h3");
    rc_init_report_free(&r);
  }
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

static void test_double_pendulum(void) {
  rc_param_values pv;
  const rc_model *m;
  rc_problem *pb = make("double-pendulum", "index1", NULL, 0, &pv, &m);
  if (!pb)
    return;
  const double L1 = param(m, &pv, "L1"), L2 = param(m, &pv, "L2");
  const double th1 = param(m, &pv, "theta1"), th2 = param(m, &pv, "theta2");
  const double w1 = param(m, &pv, "omega1"), w2 = param(m, &pv, "omega2");
  const double u1 = L1 * w1 * cos(th1), v1 = L1 * w1 * sin(th1);
  const double u2 = u1 + L2 * w2 * cos(th2), v2 = v1 + L2 * w2 * sin(th2);
  rc_init_report r;
  if (solve(pb, 0, NULL, NULL, 0, NULL, NULL, &r)) {
    EXPECT(r.consistent, "double-pendulum default: %s", r.message);
    NEAR(r.z[idx(pb, "u2")], u2, 1e-12, "u2 from omega2");
    NEAR(r.z[idx(pb, "v2")], v2, 1e-12, "v2 from omega2");
    NEAR(r.z[idx(pb, "x2")], L1 * sin(th1) + L2 * sin(th2), 1e-12, "x2");
    rc_init_report_free(&r);
  }
  /* Positions from the angles, the table's zero velocities of mass 1 and
   * u2 = 0, with v2 as omega2 = -0.1 implies: vel2 is violated. */
  const char *fix[] = {"x1", "y1", "x2", "y2", "u1", "v1", "u2", "v2"};
  const double fv[] = {NAN, NAN, NAN, NAN, 0.0, 0.0, 0.0, L2 * w2 * sin(th2)};
  if (solve(pb, 8, fix, fv, 0, NULL, NULL, &r)) {
    EXPECT(!r.consistent, "u2 = 0 with omega2's v2 must be inconsistent");
    EXPECT(strstr(r.message, "vel2") != NULL, "message: %s", r.message);
    EXPECT(r.nconflict == 2 && has_conflict(pb, &r, "u2") &&
               has_conflict(pb, &r, "v2"),
           "conflicts should be u2, v2 (%d found)", r.nconflict);
    rc_init_report_free(&r);
  }
  /* All velocities zero: consistent (with omega1 = omega2 = 0). */
  const double fz[] = {NAN, NAN, NAN, NAN, 0.0, 0.0, 0.0, 0.0};
  if (solve(pb, 8, fix, fz, 0, NULL, NULL, &r)) {
    EXPECT(r.consistent, "zero velocities: %s", r.message);
    EXPECT(r.moved[idx(pb, "l2")], "l2 must move from the omega2 guess");
    rc_init_report_free(&r);
  }
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

static void test_crane(void) {
  rc_param_values pv;
  const rc_model *m;
  rc_problem *pb = make("crane", "reduced", NULL, 0, &pv, &m);
  if (!pb)
    return;
  const double mg = param(m, &pv, "m") * param(m, &pv, "g");
  rc_init_report r;
  const char *gn[] = {"r", "theta", "vd", "tau", "u2"};
  const double gv[] = {1.5, 0.2, 0.3, 10.0, 0.0};
  if (solve(pb, 0, NULL, NULL, 5, gn, gv, &r)) {
    EXPECT(r.consistent, "crane reduced: %s", r.message);
    NEAR(r.z[idx(pb, "d")], param(m, &pv, "x_start"), 1e-10, "d");
    NEAR(r.z[idx(pb, "r")], param(m, &pv, "z_start"), 1e-10, "r");
    NEAR(r.z[idx(pb, "theta")], 0.0, 1e-10, "theta");
    NEAR(r.z[idx(pb, "vd")], 0.0, 1e-10, "vd");
    NEAR(r.z[idx(pb, "tau")], mg, 1e-8, "tau = m g");
    NEAR(r.z[idx(pb, "u2")], param(m, &pv, "C3") * mg, 1e-9, "u2 = C3 tau");
    rc_init_report_free(&r);
  }
  const char *fn[] = {"vd"};
  const double fv[] = {0.5};
  if (solve(pb, 1, fn, fv, 0, NULL, NULL, &r)) {
    EXPECT(!r.consistent && r.nconflict == 1,
           "reduced: a moving trolley on a rest path must conflict");
    rc_init_report_free(&r);
  }
  rc_problem_free(&pb);
  rc_params_free(&pv);
  pb = make("crane", "track", NULL, 0, &pv, &m);
  if (pb && solve(pb, 1, fn, fv, 0, NULL, NULL, &r)) {
    EXPECT(r.consistent, "track with vd = 0.5: %s", r.message);
    rc_init_report_free(&r);
  }
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

/* A path that does not start at rest (tests/data/crane_moving.csv: the
 * default segment started 2 s before t0): from a guess at rest, init must
 * find the moving consistent state, which the flat inverse (the problem's
 * closed-form reference, independent of the init NLP) gives at t0. */
static void test_crane_moving(void) {
  rc_param_values pv;
  const rc_model *m;
  const char *sets[] = {"path=" INIT_TEST_DATA "/crane_moving.csv"};
  rc_problem *pb = make("crane", "reduced", sets, 1, &pv, &m);
  if (!pb)
    return;
  const int nref = pb->nx + pb->ny + pb->nu + pb->nout;
  double *ref = calloc((size_t)nref, sizeof *ref);
  const double t0 = pb->t0;
  EXPECT(pb->reference(pb, 1, &t0, ref) == 0, "crane reference at t0");
  EXPECT(fabs(ref[idx(pb, "vd")]) > 0.1,
         "the moving path must start with a moving trolley (vd = %g)",
         ref[idx(pb, "vd")]);
  rc_init_report r;
  const char *gn[] = {"d", "r", "theta", "vd", "vr", "omega"};
  const double gv[] = {0.5, 1.9, 0.0, 0.0, 0.0, 0.0};
  if (solve(pb, 0, NULL, NULL, 6, gn, gv, &r)) {
    EXPECT(r.consistent, "crane reduced, moving start: %s", r.message);
    for (int k = 0; k < 6; ++k)
      NEAR(r.z[idx(pb, gn[k])], ref[idx(pb, gn[k])], 1e-8, gn[k]);
    rc_init_report_free(&r);
  }
  free(ref);
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

static void test_four_bar(void) {
  rc_param_values pv;
  const rc_model *m;
  const char *sets[] = {"driver=torque"};
  rc_problem *pb = make("four-bar", "baumgarte", sets, 1, &pv, &m);
  if (!pb)
    return;
  const double L1 = param(m, &pv, "L1"), L2 = param(m, &pv, "L2");
  const double L3 = param(m, &pv, "L3"), xD = param(m, &pv, "xD");
  const double phi1 = 0.7;
  rc_init_report r;
  const char *fn[] = {"phi1"};
  if (solve(pb, 1, fn, &phi1, 0, NULL, NULL, &r)) {
    EXPECT(r.consistent, "four-bar from phi1: %s", r.message);
    /* Independent: C on both circles, above the line B -> D. */
    const double Bx = L1 * cos(phi1), By = L1 * sin(phi1);
    const double dx = xD - Bx, dy = -By, e = hypot(dx, dy);
    const double a = (L2 * L2 - L3 * L3 + e * e) / (2.0 * e);
    const double hgt = sqrt(L2 * L2 - a * a);
    const double Cx = Bx + a * dx / e - hgt * dy / e;
    const double Cy = By + a * dy / e + hgt * dx / e;
    EXPECT((dx * (Cy - By) - dy * (Cx - Bx)) > 0.0, "C above BD");
    NEAR(r.z[idx(pb, "x1")], 0.5 * Bx, 1e-9, "x1");
    NEAR(r.z[idx(pb, "y1")], 0.5 * By, 1e-9, "y1");
    NEAR(r.z[idx(pb, "x2")], 0.5 * (Bx + Cx), 1e-9, "x2");
    NEAR(r.z[idx(pb, "y2")], 0.5 * (By + Cy), 1e-9, "y2");
    NEAR(r.z[idx(pb, "x3")], 0.5 * (xD + Cx), 1e-9, "x3");
    NEAR(r.z[idx(pb, "y3")], 0.5 * Cy, 1e-9, "y3");
    NEAR(r.z[idx(pb, "phi2")], atan2(Cy - By, Cx - Bx), 1e-9, "phi2");
    EXPECT(r.max_residual <= 1e-8, "max residual %g", r.max_residual);
    rc_init_report_free(&r);
  }
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

static void test_make_consistent(void) {
  rc_param_values pv;
  const rc_model *m;
  rc_error err = {RC_OK, ""};
  double x0[8];
  int changed = -1;
  rc_problem *pb = make("pendulum", "accel", NULL, 0, &pv, &m);
  if (pb) {
    EXPECT(rc_make_consistent(pb, NULL, x0, &changed, NULL, &err) == RC_OK,
           "%s", err.message);
    EXPECT(changed == 0, "default pendulum data must be consistent");
    rc_problem_free(&pb);
    rc_params_free(&pv);
  }
  const char *sets[] = {"x0=0.8", "y0=0.8"};
  pb = make("pendulum", "accel", sets, 2, &pv, &m);
  if (pb) {
    const double L = param(m, &pv, "L");
    EXPECT(rc_make_consistent(pb, NULL, x0, &changed, NULL, &err) == RC_OK,
           "%s", err.message);
    EXPECT(changed == 1, "x0 = y0 = 0.8 must be changed");
    NEAR(x0[0] * x0[0] + x0[1] * x0[1], L * L, 1e-9, "x^2 + y^2");
    NEAR(x0[0] * x0[2] + x0[1] * x0[3], 0.0, 1e-9, "x u + y v");
    EXPECT(x0[0] > 0 && x0[1] > 0, "nearest point stays in the quadrant");
    rc_problem_free(&pb);
    rc_params_free(&pv);
  }
}

static void test_start(void) {
  rc_param_values pv;
  const rc_model *m;
  rc_error err = {RC_OK, ""};
  rc_init_start st;
  rc_problem *pb = make("pendulum", "index3", NULL, 0, &pv, &m);
  if (pb) {
    EXPECT(rc_init_check_start(pb, 1e-10, &st, &err) == RC_OK, "%s",
           err.message);
    EXPECT(st.checked && st.consistent && !st.changed,
           "default pendulum data: checked %d consistent %d changed %d",
           st.checked, st.consistent, st.changed);
    rc_init_start_free(&st);
    rc_problem_free(&pb);
    rc_params_free(&pv);
  }
  const char *sets[] = {"y0=0.9"};
  pb = make("pendulum", "index3", sets, 1, &pv, &m);
  if (!pb)
    return;
  const double L = param(m, &pv, "L"), x0 = pb->x0[0], y0 = pb->x0[1];
  EXPECT(rc_init_check_start(pb, 1e-10, &st, &err) == RC_OK, "%s", err.message);
  EXPECT(st.checked && st.consistent && st.changed && st.nx == pb->nx,
         "y0 = 0.9: checked %d consistent %d changed %d", st.checked,
         st.consistent, st.changed);
  int found_h1 = 0;
  for (int k = 0; k < st.ncon; ++k)
    if (!strcmp(st.con_names[k], "h1")) {
      found_h1 = 1;
      NEAR(st.given_residual[k], x0 * x0 + y0 * y0 - L * L, 1e-12, "given h1");
    }
  EXPECT(found_h1, "no given residual named h1 (%d rows)", st.ncon);
  EXPECT(st.moved[1], "y must be moved");
  /* a model without start parameters: named, nothing changes */
  const rc_model bare = {.name = "bare",
                         .nformulations = 1,
                         .formulations = m->formulations,
                         .create = m->create};
  int applied = -1;
  char why[256];
  rc_problem *before = pb;
  EXPECT(rc_init_apply_start(&bare, 0, &pv, &st, &pb, &applied, why, sizeof why,
                             &err) == RC_OK,
         "%s", err.message);
  EXPECT(applied == 0 && pb == before && strstr(why, "bare has no parameter"),
         "bare model: applied %d, why '%s'", applied, why);
  /* the model itself: re-created from the consistent point */
  const int f = rc_model_find_formulation(m, "index3");
  EXPECT(rc_init_apply_start(m, f, &pv, &st, &pb, &applied, why, sizeof why,
                             &err) == RC_OK,
         "%s", err.message);
  EXPECT(applied == 1, "start not applied: %s", why);
  const double *z = pb->x0;
  for (int i = 0; i < pb->nx; ++i)
    NEAR(z[i], st.x0[i], 1e-15, "new x0 entry");
  NEAR(z[0] * z[0] + z[1] * z[1], L * L, 1e-9, "x^2 + y^2");
  NEAR(z[0] * z[2] + z[1] * z[3], 0.0, 1e-9, "x u + y v");
  NEAR(param(m, &pv, "y0"), st.x0[1], 0.0, "parameter y0");
  if (pb->reference) {
    double ref[16], t0 = pb->t0;
    EXPECT(pb->reference(pb, 1, &t0, ref) == 0, "reference failed");
    for (int i = 0; i < pb->nx; ++i)
      NEAR(ref[i], z[i], 1e-9, "reference(t0) entry");
  }
  rc_init_start_free(&st);
  EXPECT(rc_init_check_start(pb, 1e-10, &st, &err) == RC_OK && !st.changed,
         "re-created problem must be consistent: %s", err.message);
  rc_init_start_free(&st);
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

int main(void) {
  test_pendulum_coord();
  test_pendulum_conflict();
  test_double_pendulum();
  test_crane();
  test_crane_moving();
  test_four_bar();
  test_make_consistent();
  test_start();
  if (failures)
    fprintf(stderr, "test_init: %d failure(s)\n", failures);
  else
    printf("test_init: all checks passed\n");
  return failures ? 1 : 0;
}
