/*
 * crane/cycle.c - the formulation cycle: a container crane's work cycle as
 * one multiphase problem (radcol/phases.h, rc_model.create_phases;
 * docs/phases.md, section 6):
 *
 *   phase "loaded": mintime with the load mass spreader + container, from
 *     rest at the pick point (x_start, z_start) to rest at the release point
 *     (x_end, z_end), over the stacks `stack` (seen with the container
 *     below the spreader);
 *   phase "empty": mintime with the spreader alone, from the release point
 *     back to rest at the pick point, over the stacks `stack_empty` (the
 *     same stacks seen without the container: lower by its height);
 *   linkage: the six states (d, r, theta, vd, vr, omega) continuous at the
 *     release; the empty phase's start is free, set by that linkage alone
 *     (the release point and rest are imposed once, as the loaded phase's
 *     end);
 *   objective: T_loaded + T_empty, the cycle time (both durations free);
 *   every path constraint (the stacks) held on the dense grid to
 *   CYCLE_PATH_TOL m by the back-off of rc_phases.path_tol.
 *
 * The load mass M2 = m is the per-phase parameter; every parameter the
 * user does not set takes the cycle's data below (a ship-to-shore crane in
 * t, m, s, kN) instead of the model's laboratory defaults.  The phases'
 * blocks are mintime's (mintime.c): the cycle adds no derivative code.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crane.h"
#include "radcol/phases.h"

#define CYCLE_PATH_TOL 1e-6 /* m: the stacks on the dense grid */

/* The cycle's data where the user set nothing (docs/phases.md, section 6):
 * spreader 10 t, container 30 t, a 40 m run, the rest order-of-magnitude
 * values of a ship-to-shore crane. */
static const struct {
  int p;
  double v;
} CYCLE_REAL[] = {
    {P_M1, 20.0},     {P_J, 1.0},         {P_C1, 1.0},
    {P_C2, 0.01},     {P_C3, 0.5},        {P_U1MAX, 40.0},
    {P_U2MAX, 260.0}, {P_THMAX, 0.1},     {P_VDMAX, 4.0},
    {P_VRMAX, 1.5},   {P_RMIN, 2.0},      {P_STACKEDGE, 1.0},
    {P_XS, 0.0},      {P_ZS, 25.0},       {P_XE, 40.0},
    {P_ZE, 25.0},     {P_SPREADER, 10.0}, {P_CONTAINER, 30.0},
};
/* one stack 10 m <= x <= 30 m whose top is 17.6 m below the rail: with the
 * 2.6 m container below the spreader, z <= 15; empty, z <= 17.6 */
static const char CYCLE_STACK[] = "10:30:15";
static const char CYCLE_STACK_EMPTY[] = "10:30:17.6";

enum { LOADED = 0, EMPTY = 1, NPH = 2 };

typedef struct crane_cycle {
  rc_phases ph;
  rc_phase phase[NPH];
  double real[NPH][NPARAM];
  int is_set[NPH][NPARAM];
  const char *text[NPH][NPARAM];
  rc_param_values pv[NPH];
} crane_cycle;

static void cycle_destroy(rc_phases *ph) {
  crane_cycle *cy = ph->user;
  for (int k = 0; k < NPH; ++k)
    if (cy->phase[k].pb)
      rc_crane_destroy((rc_problem *)cy->phase[k].pb);
  free(cy);
}

/* The values of phase k: the user's, else the cycle's data, then the
 * phase's own load mass, end points and stacks. */
static void phase_values(crane_cycle *cy, int k, const rc_param_values *pv) {
  double *v = cy->real[k];
  int *set = cy->is_set[k];
  const char **text = cy->text[k];
  for (int i = 0; i < NPARAM; ++i) {
    v[i] = pv->real[i];
    set[i] = pv->is_set ? pv->is_set[i] : 0;
    text[i] = pv->text ? pv->text[i] : NULL;
  }
  for (size_t j = 0; j < sizeof CYCLE_REAL / sizeof *CYCLE_REAL; ++j)
    if (!set[CYCLE_REAL[j].p]) {
      v[CYCLE_REAL[j].p] = CYCLE_REAL[j].v;
      set[CYCLE_REAL[j].p] = 1;
    }
  if (!set[P_STACK])
    text[P_STACK] = CYCLE_STACK, set[P_STACK] = 1;
  if (!set[P_STACKEMPTY])
    text[P_STACKEMPTY] = CYCLE_STACK_EMPTY, set[P_STACKEMPTY] = 1;
  const double load =
      v[P_SPREADER] + (k == LOADED ? v[P_CONTAINER] : 0.0); /* t */
  v[P_M2] = v[P_MG] = load;
  set[P_M2] = set[P_MG] = 1;
  if (k == EMPTY) { /* release -> pick */
    const double xs = v[P_XS], zs = v[P_ZS];
    v[P_XS] = v[P_XE], v[P_ZS] = v[P_ZE];
    v[P_XE] = xs, v[P_ZE] = zs;
    text[P_STACK] = text[P_STACKEMPTY];
  }
  /* read here only: the phase is a plain mintime problem (its recorded
   * parameters rebuild it, e.g. for a replay) */
  text[P_STACKEMPTY] = NULL, set[P_STACKEMPTY] = 0;
  v[P_SPREADER] = rc_crane_param_defs[P_SPREADER].default_real;
  v[P_CONTAINER] = rc_crane_param_defs[P_CONTAINER].default_real;
  set[P_SPREADER] = set[P_CONTAINER] = 0;
  cy->pv[k] = *pv; /* file parameters as given */
  cy->pv[k].real = v;
  cy->pv[k].is_set = set;
  cy->pv[k].text = text;
}

/* The cycle's own parameters: M2 and m are per phase, set from spreader and
 * container; masses > 0. */
static rc_err check_cycle_params(const rc_param_values *pv, rc_error *err) {
  static const int per_phase[] = {P_M2, P_MG};
  for (size_t j = 0; j < 2; ++j)
    if (pv->is_set && pv->is_set[per_phase[j]])
      return rc_error_set(
          err, RC_ERR_INPUT,
          "crane/cycle: %s = %g: the cycle sets the load mass per phase "
          "(spreader + container loaded, spreader empty): expected %s "
          "unset (set spreader and container)",
          rc_crane_param_defs[per_phase[j]].name, pv->real[per_phase[j]],
          rc_crane_param_defs[per_phase[j]].name);
  static const int mass[] = {P_SPREADER, P_CONTAINER};
  for (size_t j = 0; j < 2; ++j) {
    const double m = pv->real[mass[j]];
    if (pv->is_set && pv->is_set[mass[j]] && !(m > 0.0 && isfinite(m)))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane/cycle: %s = %g: expected a mass > 0",
                          rc_crane_param_defs[mass[j]].name, m);
  }
  return RC_OK;
}

static const char *const PHASE_NAMES[NPH] = {"loaded", "empty"};

rc_err rc_crane_create_phases(const rc_model *model, int formulation,
                              const rc_param_values *pv, rc_phases **out,
                              rc_error *err) {
  *out = NULL;
  if (formulation != F_CYCLE)
    return RC_OK; /* one phase: create builds it */
  if (!pv || pv->n != NPARAM || !pv->real)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: %d parameter values, expected %d",
                        pv ? pv->n : 0, NPARAM);
  rc_err rc = check_cycle_params(pv, err);
  if (rc != RC_OK)
    return rc;
  crane_cycle *cy = calloc(1, sizeof *cy);
  if (!cy)
    return rc_error_set(err, RC_ERR_NOMEM, "crane: out of memory");
  cy->ph = (rc_phases){
      .name = "crane-cycle",
      .summary = "container crane work cycle in minimum total time: the "
                 "loaded traverse from the pick over the stacks to the "
                 "release, then the empty return; states continuous at the "
                 "release",
      .nphases = NPH,
      .phase = cy->phase,
      .continuity = RC_CONTINUITY_SHARED,
      .user = cy,
      .destroy = cycle_destroy,
      .path_tol = CYCLE_PATH_TOL,
  };
  for (int k = 0; k < NPH && rc == RC_OK; ++k) {
    phase_values(cy, k, pv);
    rc_problem *pb = NULL;
    rc = model->create(model, F_MINTIME, &cy->pv[k], &pb, err);
    if (rc != RC_OK) {
      char m[RC_MESSAGE_MAX];
      snprintf(m, sizeof m, "%s", err ? err->message : "");
      rc =
          rc_error_set(err, rc, "crane/cycle: phase %s: %s", PHASE_NAMES[k], m);
      break;
    }
    pb->default_elements = 40; /* 40 x 5 per phase (docs/phases.md) */
    if (k == EMPTY) { /* its start is the loaded phase's end, by linkage */
      crane_model *cm = (crane_model *)pb->user;
      for (int i = 0; i < NX; ++i)
        cm->fix_x0[i] = 0;
    }
    cy->phase[k] = (rc_phase){.name = PHASE_NAMES[k],
                              .pb = pb,
                              .duration = RC_DURATION_PROBLEM,
                              .model = model,
                              .params = &cy->pv[k]};
  }
  if (rc != RC_OK) {
    cycle_destroy(&cy->ph);
    return rc;
  }
  *out = &cy->ph;
  return RC_OK;
}
