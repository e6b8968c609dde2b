/*
 * test_switching_step.c - the refinement's switching step
 * (rc_switching_next_mesh, radcol/switching.h) on the minimum-time double
 * integrator solved on 9 uniform elements (its switch at tf/2 = 1 inside
 * element 4): an autonomous problem gets a step (resolve or plan, return
 * > 0); the same solution of the same problem declared non-autonomous gets
 * none (return 0: the hp step), and rc_switching_plan plans nothing for it -
 * free breakpoints would move the node times its functions depend on
 * (before this guard `radcol solve crane --refine` on the non-autonomous
 * track formulation exited 2).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "radcol/catalogue.h"
#include "radcol/mesh.h"
#include "radcol/options.h"
#include "radcol/params.h"
#include "radcol/solve.h"
#include "radcol/structure.h"
#include "radcol/switching.h"
#include "test_util.h"

int main(void) {
  const rc_model *m = rc_find_model("double-integrator");
  EXPECT(m != NULL, "double-integrator not registered");
  if (!m)
    return RC_TEST_EXIT();
  rc_param_values pv;
  rc_error err;
  rc_problem *pb = NULL;
  EXPECT(rc_params_init_defaults(m, &pv, &err) == RC_OK, "params");
  EXPECT(rc_model_create(m, 0, &pv, NAN, &pb, &err) == RC_OK, "create: %s",
         err.message);
  rc_params_free(&pv);
  if (!pb)
    return RC_TEST_EXIT();
  EXPECT(pb->autonomous, "double-integrator should be autonomous");
  rc_mesh mesh;
  EXPECT(rc_mesh_uniform(9, 3, &mesh, &err) == RC_OK, "mesh");
  rc_options o;
  rc_options_default(&o);
  rc_solution sol;
  rc_solve_stats st;
  EXPECT(rc_solve(pb, &mesh, &o, NULL, &sol, &st, &err) == RC_OK, "solve: %s",
         err.message);
  EXPECT(st.status == RC_STATUS_CONVERGED, "solve status %d", st.status);
  char note[256];
  rc_mesh next;
  int nres = 0, nplan = 0;
  const int a = rc_switching_next_mesh(pb, &sol, NULL, &nres, &nplan, &next,
                                       note, sizeof note, &err);
  printf("autonomous: step %d (%s)\n", a, note);
  EXPECT(a > 0, "autonomous problem with a switch: step %d, expected > 0", a);
  if (a > 0)
    rc_mesh_free(&next);
  /* the same solution, the problem declared time-dependent */
  rc_problem na = *pb;
  na.autonomous = 0;
  nres = nplan = 0;
  const int b = rc_switching_next_mesh(&na, &sol, NULL, &nres, &nplan, &next,
                                       note, sizeof note, &err);
  printf("not autonomous: step %d\n", b);
  EXPECT(b == 0, "non-autonomous problem: step %d, expected 0 (hp step)", b);
  if (b > 0)
    rc_mesh_free(&next);
  rc_structure s;
  rc_structure_options so;
  rc_structure_options_default(&so);
  EXPECT(rc_structure_detect(pb, &sol, &so, &s, &err) == RC_OK, "detect: %s",
         err.message);
  EXPECT(s.nswitch >= 1, "detected %d switches, expected the one at t = 1",
         s.nswitch);
  const int p = rc_switching_plan(&na, &sol, &s, NULL, &next, &err);
  EXPECT(p == 0, "non-autonomous plan: %d, expected 0", p);
  if (p > 0)
    rc_mesh_free(&next);
  rc_structure_free(&s);
  rc_solution_free(&sol);
  rc_mesh_free(&mesh);
  rc_problem_free(&pb);
  return RC_TEST_EXIT();
}
