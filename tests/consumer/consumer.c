/*
 * consumer.c - a program that links the installed radcol library and solves
 * the built-in pendulum (formulation accel, 10 elements of 3 stages), to
 * show that the installed package (CMake targets and radcol.pc) is complete:
 * it prints the status and iteration count and exits 0 when converged.
 */
#include <stdio.h>

#include "radcol/catalogue.h"
#include "radcol/params.h"
#include "radcol/solve.h"

int main(void) {
  const rc_model *m = rc_find_model("pendulum");
  rc_param_values pv;
  rc_problem *pb = NULL;
  rc_mesh mesh;
  rc_options opt;
  rc_solution sol;
  rc_solve_stats st;
  rc_error err;
  if (!m || rc_params_init_defaults(m, &pv, &err) != RC_OK ||
      m->create(m, rc_model_find_formulation(m, "accel"), &pv, &pb, &err) !=
          RC_OK ||
      rc_mesh_uniform(10, 3, &mesh, &err) != RC_OK) {
    fprintf(stderr, "consumer: setup failed: %s\n",
            m ? err.message : "no pendulum");
    return 1;
  }
  rc_options_default(&opt);
  opt.print_level = 0;
  rc_err rc = rc_solve(pb, &mesh, &opt, NULL, &sol, &st, &err);
  printf("consumer: pendulum/accel %s after %d iterations\n",
         rc == RC_OK ? rc_status_name(st.status) : err.message, st.iterations);
  const int ok = rc == RC_OK && st.status == RC_STATUS_CONVERGED;
  if (rc == RC_OK)
    rc_solution_free(&sol);
  rc_mesh_free(&mesh);
  rc_problem_free(&pb);
  rc_params_free(&pv);
  return ok ? 0 : 1;
}
