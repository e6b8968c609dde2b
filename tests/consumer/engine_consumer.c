/*
 * engine_consumer.c - a program that links the installed engine library
 * alone (radcol::radcol: no built-in model, no GSL) and solves a plugin's
 * problem: it opens the plugin given as argv[1] with dlopen, takes its model
 * argv[2] (formulation argv[3]) from the entry point of radcol/plugin.h,
 * builds the problem from the default parameters, solves it on the
 * problem's suggested mesh (or 20 x 3) and prints the status and objective.
 * Exit 0 when converged.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "radcol/params.h"
#include "radcol/plugin.h"
#include "radcol/solve.h"

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: engine_consumer PLUGIN.so MODEL FORMULATION\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "engine_consumer: %s\n", dlerror());
    return 1;
  }
  rc_plugin_entry_fn entry;
  *(void **)&entry = dlsym(lib, RC_PLUGIN_ENTRY);
  const rc_plugin *pl = entry ? entry() : NULL;
  if (!pl || pl->abi_version != RC_PROBLEM_ABI_VERSION) {
    fprintf(stderr, "engine_consumer: %s: no usable entry point\n", argv[1]);
    dlclose(lib);
    return 1;
  }
  const rc_model *m = NULL;
  for (int k = 0; k < pl->nmodels && !m; ++k)
    if (strcmp(pl->models[k]->name, argv[2]) == 0)
      m = pl->models[k];
  const int f = m ? rc_model_find_formulation(m, argv[3]) : -1;
  rc_param_values pv;
  rc_problem *pb = NULL;
  rc_mesh mesh;
  rc_error err = {RC_OK, ""};
  if (f < 0 || rc_params_init_defaults(m, &pv, &err) != RC_OK) {
    fprintf(stderr, "engine_consumer: no model %s/%s %s\n", argv[2], argv[3],
            err.message);
    dlclose(lib);
    return 1;
  }
  int ok = 0;
  if (rc_model_create(m, f, &pv, NAN, &pb, &err) == RC_OK &&
      rc_mesh_uniform(pb->default_elements > 0 ? pb->default_elements : 20,
                      pb->default_stages > 0 ? pb->default_stages : 3, &mesh,
                      &err) == RC_OK) {
    rc_options opt;
    rc_options_default(&opt);
    rc_solution sol;
    rc_solve_stats st;
    if (rc_solve(pb, &mesh, &opt, NULL, &sol, &st, &err) == RC_OK) {
      printf("engine_consumer: %s/%s %s after %d iterations, objective "
             "%.12g\n",
             argv[2], argv[3], rc_status_name(st.status), st.iterations,
             st.objective);
      ok = st.status == RC_STATUS_CONVERGED;
      rc_solution_free(&sol);
    }
    rc_mesh_free(&mesh);
    rc_problem_free(&pb);
  }
  if (err.code != RC_OK)
    fprintf(stderr, "engine_consumer: %s\n", err.message);
  rc_params_free(&pv);
  dlclose(lib);
  return ok ? 0 : 1;
}
