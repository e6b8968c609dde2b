/*
 * test_start.c - a different start as a library operation (radcol/start.h):
 *
 *   - a built-in model's restart is the problem its parameters would build
 *     from that start (x0, guess and reference sampled equal bit for bit);
 *   - rc_options.x0 on rc_solve and rc_march_solve gives the node values of
 *     the problem built with the moved start parameters, bit for bit, and
 *     leaves the given problem untouched;
 *   - rc_init_options.x0 on rc_make_consistent starts from the given state;
 *   - the generic view of a problem without restart: its own x0, no
 *     reference, the callbacks shared; a sampled-reference problem refused;
 *     a non-finite start refused naming the variable;
 *   - a minimum-time OCP (double integrator, closed form tf* = 2 sqrt(x0 /
 *     umax) from rest) solved from another start through rc_options.x0.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "radcol/init.h"
#include "radcol/march.h"
#include "radcol/solve.h"
#include "radcol/start.h"
#include "test_models.h"

/* The pendulum index 3 from a start moved along the circle. */
static const double MOVED[4] = {0.6, 0.8, 1.2, -0.9};

static int same(const double *a, const double *b, int n) {
  return memcmp(a, b, sizeof(double) * (size_t)n) == 0;
}

/* The pendulum index 3 made with x0..v0 set to MOVED. */
static rc_problem *make_moved(rc_param_values *pv) {
  rc_problem *pb = make("pendulum", "index3", "tf=1", pv);
  if (!pb)
    return NULL;
  rc_problem_free(&pb);
  const rc_model *m = rc_find_model("pendulum");
  static const char *const names[4] = {"x0", "y0", "u0", "v0"};
  rc_error err = {RC_OK, ""};
  for (int i = 0; i < 4; ++i)
    EXPECT(rc_params_set_real(m, pv, rc_model_param_index(m, names[i]),
                              MOVED[i], &err) == RC_OK,
           "set %s: %s", names[i], err.message);
  EXPECT(m->create(m, rc_model_find_formulation(m, "index3"), pv, &pb, &err) ==
             RC_OK,
         "create moved: %s", err.message);
  return pb;
}

static void test_model_restart(void) {
  rc_param_values pv, pv2;
  rc_problem *pb = make("pendulum", "index3", NULL, &pv);
  rc_problem *ref = make_moved(&pv2);
  rc_problem *moved = NULL;
  rc_error err = {RC_OK, ""};
  if (!pb || !ref)
    goto done;
  const double given0 = pb->x0[0];
  EXPECT(pb->restart, "pendulum has a restart");
  EXPECT(rc_problem_restart(pb, MOVED, &moved, &err) == RC_OK, "restart: %s",
         err.message);
  if (!moved)
    goto done;
  EXPECT(pb->x0[0] == given0, "the given problem keeps its start");
  EXPECT(same(moved->x0, ref->x0, 4), "restart x0 = parameter x0");
  EXPECT(moved->reference, "the model's restart keeps a reference");
  double t[3] = {0.0, 0.37, 1.0}, a[3 * 16], b[3 * 16];
  const int nw = rc_problem_nw(moved);
  EXPECT(nw <= 16, "nw %d", nw);
  EXPECT(moved->reference(moved, 3, t, a) == 0 &&
             ref->reference(ref, 3, t, b) == 0,
         "references evaluate");
  EXPECT(same(a, b, 3 * nw), "reference of the restart = of the parameters");
  EXPECT(moved->guess(moved, 0.37, a) == 0 && ref->guess(ref, 0.37, b) == 0 &&
             same(a, b, nw),
         "guess of the restart = of the parameters");
done:
  rc_problem_free(&moved);
  rc_problem_free(&pb);
  rc_problem_free(&ref);
  rc_params_free(&pv);
  rc_params_free(&pv2);
}

static void test_solve_override(void) {
  rc_param_values pv, pv2;
  rc_problem *pb = make("pendulum", "index3", "tf=1", &pv);
  rc_problem *ref = make_moved(&pv2);
  rc_error err = {RC_OK, ""};
  rc_mesh mesh = {0};
  rc_solution s1 = {0}, s2 = {0}, m1 = {0}, m2 = {0};
  rc_solve_stats st;
  if (!pb || !ref || rc_mesh_uniform(12, 3, &mesh, &err) != RC_OK)
    goto done;
  rc_options opt;
  rc_options_default(&opt);
  opt.estimate = RC_ESTIMATE_NONE;
  rc_options o1 = opt;
  o1.x0 = MOVED;
  EXPECT(rc_solve(pb, &mesh, &o1, NULL, &s1, &st, &err) == RC_OK,
         "solve with x0: %s", err.message);
  EXPECT(rc_solve(ref, &mesh, &opt, NULL, &s2, &st, &err) == RC_OK,
         "solve moved: %s", err.message);
  const int nw = rc_problem_nw(pb);
  EXPECT(s1.nnodes == s2.nnodes && same(s1.w, s2.w, s1.nnodes * nw),
         "rc_options.x0 = the problem with moved start parameters, bit for "
         "bit");
  EXPECT(same(s1.w, MOVED, 4), "the solution starts at x0");
  /* the march (a square system) */
  EXPECT(rc_march_solve(pb, &o1, NULL, &m1, &st, NULL, &err) == RC_OK,
         "march with x0: %s", err.message);
  EXPECT(rc_march_solve(ref, &opt, NULL, &m2, &st, NULL, &err) == RC_OK,
         "march moved: %s", err.message);
  EXPECT(m1.nnodes == m2.nnodes && same(m1.w, m2.w, m1.nnodes * nw),
         "march with rc_options.x0 = march of the moved problem");
  /* consistent initialisation from another start: MOVED is consistent */
  rc_init_options io;
  rc_init_options_default(&io);
  io.x0 = MOVED;
  double x0c[4];
  int changed = 1;
  EXPECT(rc_make_consistent(pb, &io, x0c, &changed, NULL, &err) == RC_OK,
         "make consistent from x0: %s", err.message);
  EXPECT(!changed && same(x0c, MOVED, 4), "a consistent start stays");
  /* an inconsistent one moves onto the circle */
  const double off[4] = {0.6, 0.9, 1.2, -0.9};
  io.x0 = off;
  EXPECT(rc_make_consistent(pb, &io, x0c, &changed, NULL, &err) == RC_OK,
         "make consistent from an inconsistent x0: %s", err.message);
  EXPECT(changed && fabs(hypot(x0c[0], x0c[1]) - 1.0) < 1e-10,
         "moved onto the circle: |(x, y)| = %.15g", hypot(x0c[0], x0c[1]));
done:
  rc_solution_free(&s1);
  rc_solution_free(&s2);
  rc_solution_free(&m1);
  rc_solution_free(&m2);
  rc_mesh_free(&mesh);
  rc_problem_free(&pb);
  rc_problem_free(&ref);
  rc_params_free(&pv);
  rc_params_free(&pv2);
}

static void test_view(void) {
  rc_param_values pv;
  rc_problem *pb = make("pendulum", "index3", NULL, &pv);
  rc_problem *v = NULL, *vv = NULL;
  rc_error err = {RC_OK, ""};
  if (!pb)
    goto done;
  /* a problem without restart (a plugin's): the view */
  pb->restart = NULL;
  EXPECT(rc_problem_restart(pb, MOVED, &v, &err) == RC_OK, "view: %s",
         err.message);
  if (!v)
    goto done;
  EXPECT(same(v->x0, MOVED, 4) && v->x0 != pb->x0, "the view owns its x0");
  EXPECT(!v->reference && pb->reference, "the view drops the reference only");
  EXPECT(v->point.eval == pb->point.eval && v->user == pb->user,
         "the view shares the callbacks and model data");
  EXPECT(rc_problem_restart(v, pb->x0, &vv, &err) == RC_OK &&
             same(vv->x0, pb->x0, 4),
         "a view of a view: %s", err.message);
  /* a non-finite start is refused, naming the state */
  rc_problem *bad = NULL;
  const double nan4[4] = {0.6, NAN, 1.2, -0.9};
  EXPECT(rc_problem_restart(pb, nan4, &bad, &err) == RC_ERR_INPUT && !bad &&
             strstr(err.message, "start y = nan"),
         "non-finite start refused: %s", err.message);
  /* a sampled-reference problem cannot be viewed */
  pb->sampled_reference = 1;
  EXPECT(rc_problem_restart(pb, MOVED, &bad, &err) == RC_ERR_INPUT && !bad &&
             strstr(err.message, "sampled-reference"),
         "sampled reference refused: %s", err.message);
  pb->sampled_reference = 0;
done:
  rc_problem_free(&vv);
  rc_problem_free(&v);
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

static void test_ocp_start(void) {
  rc_param_values pv;
  rc_problem *pb = make("double-integrator", "mintime", NULL, &pv);
  rc_error err = {RC_OK, ""};
  rc_mesh mesh = {0};
  rc_solution sol = {0};
  rc_solve_stats st;
  rc_problem *moved = NULL;
  if (!pb || rc_mesh_uniform(20, 3, &mesh, &err) != RC_OK)
    goto done;
  const double x0[2] = {4.0, 0.0};
  EXPECT(rc_problem_restart(pb, x0, &moved, &err) == RC_OK, "restart: %s",
         err.message);
  /* the model derived its starting tf (1.5 tf*) from the new start */
  EXPECT(moved && fabs(moved->tf - 1.5 * 4.0) < 1e-12,
         "starting tf from the new start: %g", moved ? moved->tf : NAN);
  rc_options opt;
  rc_options_default(&opt);
  opt.estimate = RC_ESTIMATE_NONE;
  opt.x0 = x0;
  EXPECT(rc_solve(pb, &mesh, &opt, NULL, &sol, &st, &err) == RC_OK &&
             st.status == RC_STATUS_CONVERGED,
         "solve from x0 = 4: %s %s", err.message, st.message);
  /* tf* = 2 sqrt(x0 / umax) = 4 (a 20-element uniform mesh: first order at
   * the switch, so 1e-2) */
  EXPECT(fabs(sol.tf - 4.0) < 1e-2, "tf %.12g, closed form 4", sol.tf);
done:
  rc_solution_free(&sol);
  rc_mesh_free(&mesh);
  rc_problem_free(&moved);
  rc_problem_free(&pb);
  rc_params_free(&pv);
}

int main(void) {
  test_model_restart();
  test_solve_override();
  test_view();
  test_ocp_start();
  RC_TEST_EXIT();
}
