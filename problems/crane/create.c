/*
 * crane/create.c - the crane model (rc_model_crane, SPEC 4.3): its
 * parameter table, its seven formulations (the seventh, cycle, multiphase:
 * cycle.c) and create.
 *
 * create checks the parameters and parses the text choices (end, guess,
 * uref; eps defaults to 3e-11 with uref=zero, 1e-6 with uref=flat:
 * docs/crane-jobs.md, "Objective"), builds the load path (a waypoint file,
 * path_mode smooth or stop, whose last t is tf; or the default rest-to-rest
 * step from (x_start, z_start) to (x_end, z_end) over tf) and checks it for
 * the flat inverse (b = m g - M2 p2'' > 0, p2 > 0), takes x(t0) from the
 * flat inverse at t0 unless d0 .. omega0 are set, allocates the
 * formulation's struct (crane.h) and fills what every formulation shares:
 * the index-1 model's dimensions nx = 6, ny = 1, nu = 2, no simple bounds,
 * x(t0) fixed, outputs, guess, reference (model.c), 30 elements of 5
 * stages.  The formulation's setup (table FORMS) then sets its own
 * dimensions, limits, notes and kit functions; the kit records the blocks
 * at the guess at t0; a smooth path's overshoot leads the note; a waypoint
 * file gets its own default mesh (mesh.c).
 *
 * Invariants: on success the problem owns its struct, path and mesh and
 * pb.user is the struct; on any error everything is freed
 * (rc_crane_destroy) and *out is NULL.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crane.h"
#include "radcol/params.h"

/* Tracking weight and objective scale: docs/crane-jobs.md, "Objective". */
#define CRANE_EPS_DEFAULT 3e-11     /* uref=zero */
#define CRANE_EPS_FLAT_DEFAULT 1e-6 /* uref=flat */
#define CRANE_OBJ_SCALE_DEFAULT 1e5

const rc_param_def rc_crane_param_defs[NPARAM] = {
    {"M1", RC_PARAM_REAL, 10.0, NULL, "trolley mass [kg]"},
    {"M2", RC_PARAM_REAL, 2.0, NULL, "load (inertial) mass [kg]"},
    {"m", RC_PARAM_REAL, 2.0, NULL, "load (gravitational) mass [kg]"},
    {"J", RC_PARAM_REAL, 0.01, NULL, "winch drum inertia [kg m^2]"},
    {"C1", RC_PARAM_REAL, 1.0, NULL, "trolley viscous friction [N s/m]"},
    {"C2", RC_PARAM_REAL, 0.005, NULL, "winch viscous friction [N m s]"},
    {"C3", RC_PARAM_REAL, 0.1, NULL, "winch drum radius [m]"},
    {"g", RC_PARAM_REAL, 9.81, NULL, "gravity [m/s^2]"},
    {"tf", RC_PARAM_REAL, 6.0, NULL,
     "horizon [s]; with a path file: its last t unless set"},
    {"x_start", RC_PARAM_REAL, 0.0, NULL, "default path: start x [m]"},
    {"z_start", RC_PARAM_REAL, 2.0, NULL,
     "default path: start z [m] (below the rail, > 0)"},
    {"x_end", RC_PARAM_REAL, 4.0, NULL, "default path: end x [m]"},
    {"z_end", RC_PARAM_REAL, 1.0, NULL, "default path: end z [m] (> 0)"},
    {"eps", RC_PARAM_REAL, NAN, NULL,
     "track: control weight in (1/T) int |(x,z)-p|^2/Lref^2 + eps "
     "(((u1-uref1)/U1)^2 + ((u2-uref2)/U2)^2) dt (Lref, U1, U2: path and "
     "flat-inverse scales, docs/crane-jobs.md; default 3e-11 with "
     "uref=zero, 1e-6 with uref=flat) [-]"},
    {"u1max", RC_PARAM_REAL, HUGE_VAL, NULL,
     "track: bound |u1| <= u1max [N] (inf: none)"},
    {"u2max", RC_PARAM_REAL, HUGE_VAL, NULL,
     "track: bound |u2| <= u2max [N m] (inf: none)"},
    {"rmin", RC_PARAM_REAL, 0.0, NULL, "track: bound r >= rmin [m] (0: none)"},
    {"rmax", RC_PARAM_REAL, HUGE_VAL, NULL,
     "track: bound r <= rmax [m] (inf: none)"},
    {"path", RC_PARAM_FILE, 0.0, NULL,
     "waypoint CSV t,x,z (header allowed, first t = 0); replaces the "
     "default path"},
    {"path_mode", RC_PARAM_TEXT, 0.0, "smooth",
     "waypoint path: smooth (one degree-9 spline through every waypoint, at "
     "rest at the first and last) or stop (rest at every waypoint)"},
    {"d0", RC_PARAM_REAL, NAN, NULL, "initial d [m] (default: flat inverse)"},
    {"r0", RC_PARAM_REAL, NAN, NULL, "initial r [m] (default: flat inverse)"},
    {"theta0", RC_PARAM_REAL, NAN, NULL,
     "initial theta [rad] (default: flat inverse)"},
    {"vd0", RC_PARAM_REAL, NAN, NULL,
     "initial vd [m/s] (default: flat inverse)"},
    {"vr0", RC_PARAM_REAL, NAN, NULL,
     "initial vr [m/s] (default: flat inverse)"},
    {"omega0", RC_PARAM_REAL, NAN, NULL,
     "initial omega [rad/s] (default: flat inverse)"},
    {"tau0", RC_PARAM_REAL, NAN, NULL,
     "guess of tau(t0) [N] (algebraic: G decides it; default flat)"},
    {"obj_scale", RC_PARAM_REAL, CRANE_OBJ_SCALE_DEFAULT, NULL,
     "track: Ipopt minimises obj_scale times the objective (conditioning "
     "only: the reported objective is the unscaled cost) [1]"},
    /* physical limits, end conditions, guess, stabilisation (crane-jobs) */
    {"taumin", RC_PARAM_REAL, 0.0, NULL,
     "track: bound tau >= taumin [N] (0: a cable cannot push; > 0: a "
     "tension margin)"},
    {"thetamax", RC_PARAM_REAL, HUGE_VAL, NULL,
     "track: bound |theta| <= thetamax [rad] (inf: none)"},
    {"vdmax", RC_PARAM_REAL, HUGE_VAL, NULL,
     "track: bound |vd| <= vdmax [m/s] (inf: none)"},
    {"vrmax", RC_PARAM_REAL, HUGE_VAL, NULL,
     "track: bound |vr| <= vrmax [m/s] (inf: none)"},
    {"end", RC_PARAM_TEXT, 0.0, "rest",
     "track: end condition [-]: rest (load at the path's end point, vd = vr "
     "= theta = omega = 0), flat (the flat inverse's end state; the same for "
     "paths that end at rest), free"},
    {"guess", RC_PARAM_TEXT, 0.0, "flat",
     "initial guess [-]: flat (the exact inverse), rest (at rest at the "
     "start point, tau = m g, u1 = 0, u2 = C3 m g)"},
    {"project", RC_PARAM_REAL, 1.0, NULL,
     "reduced: 1 projects the states onto the hidden constraints at every "
     "collocation point (no drift on long horizons), 0 the plain index-1 "
     "transcription [-]"},
    {"uref", RC_PARAM_TEXT, 0.0, "flat",
     "track: control term eps |u - uref|^2 with uref = zero (SPEC's eps "
     "|u|^2) or flat (the flat inverse's controls: exact tracking is then "
     "the optimum wherever the limits allow it) [-]"},
    /* minimum-time moves (docs/crane-mintime.md) */
    {"tf_lo", RC_PARAM_REAL, 0.01, NULL,
     "mintime, pathtime: lower bound of the free final time [s] (> 0)"},
    {"tf_hi", RC_PARAM_REAL, 1000.0, NULL,
     "mintime, pathtime: upper bound of the free final time [s]; the "
     "starting guess "
     "of tf is `tf` if set, else the shortest horizon on which the "
     "default rest-to-rest profile's flat inverse meets every limit"},
    {"stack", RC_PARAM_TEXT, 0.0, NULL,
     "mintime: container stacks the load must pass above, "
     "X0:X1:ZMIN[;X0:X1:ZMIN...] [m]: z <= ZMIN while X0 <= x <= X1 "
     "(z down), at most 8"},
    {"stack_edge", RC_PARAM_REAL, 0.1, NULL,
     "mintime: rounding length ell of the stack constraint z - ZMIN - "
     "(max(0, X0-x)^3 + max(0, x-X1)^3)/ell^2 <= 0 [m] (> 0)"},
    {"ureg", RC_PARAM_REAL, 0.0, NULL,
     "mintime: control regularisation: minimise tf + ureg int (u1/U1)^2 + "
     "((u2 - C3 m g)/U2)^2 dt (U1, U2: u1max, u2max, or (M1+M2) g and C3 "
     "times it) [1/s]"},
    {"reach_rmax", RC_PARAM_REAL, 0.0, NULL,
     "track: the cable length [m] the reachability check of a fixed end "
     "state assumes when rmax is not set (0: 5 times the path's longest "
     "cable; 1e100: in effect no assumption)"},
    {"curve", RC_PARAM_FILE, 0.0, NULL,
     "pathtime: CSV of (x, z) rows (no t; header allowed) the load must "
     "follow from the first row to the last, interpolated by a C^8 "
     "degree-9 spline in the chord-length parameter sigma (default: the "
     "straight line x_start, z_start -> x_end, z_end) [m]"},
    /* the work cycle (cycle.c, docs/phases.md section 6) */
    {"spreader", RC_PARAM_REAL, 10.0, NULL,
     "cycle: spreader mass, the load of the empty phase (M2 = m) [t]"},
    {"container", RC_PARAM_REAL, 30.0, NULL,
     "cycle: container mass; the loaded phase carries spreader + container "
     "[t]"},
    {"stack_empty", RC_PARAM_TEXT, 0.0, NULL,
     "cycle: the stacks of the empty phase, as stack (the loaded phase's); "
     "default 10:30:17.6 (stack's default 10:30:15 without the 2.6 m "
     "container below the spreader) [m]"},
};

static const rc_formulation_def crane_formulations[NFORM] = {
    {"flat", "exact inverse by flatness sampled on the mesh (no NLP)"},
    {"track", "tracking OCP on the index-1 model, min |(x,z)-p|^2 + eps|u|^2"},
    {"servo", "index-1 model + x = p1, z = p2 at collocation points (index 5)"},
    {"reduced", "index reduction completed: index-1 DAE, u1 u2 algebraic"},
    {"mintime", "minimum-time rest-to-rest move on the index-1 model, free "
                "tf, every limit, optional stacks"},
    {"pathtime", "minimum-time move along the straight line start-end or "
                 "a curve: sigma'''' control, crane state by the flat "
                 "inverse"},
    {"cycle", "work cycle: loaded traverse pick -> release, empty return, "
              "two mintime phases, minimum total time (multiphase)"},
};

static rc_err check_params(const double *v, rc_error *err) {
  static const int positive[] = {P_M1,    P_M2,    P_MG,    P_J,     P_C3,
                                 P_G,     P_TF,    P_U1MAX, P_U2MAX, P_SIGMA,
                                 P_THMAX, P_VDMAX, P_VRMAX};
  for (size_t i = 0; i < sizeof positive / sizeof *positive; ++i)
    if (!(v[positive[i]] > 0.0) || isnan(v[positive[i]]))
      return rc_error_set(
          err, RC_ERR_INPUT, "crane: %s = %g: expected a value > 0",
          rc_crane_param_defs[positive[i]].name, v[positive[i]]);
  static const int nonneg[] = {P_C1, P_C2, P_RMIN, P_TAUMIN};
  if (!(v[P_REACHRMAX] >= 0.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: reach_rmax = %g: expected a value >= 0 "
                        "(0: automatic)",
                        v[P_REACHRMAX]);
  for (size_t i = 0; i < sizeof nonneg / sizeof *nonneg; ++i)
    if (!(v[nonneg[i]] >= 0.0 && isfinite(v[nonneg[i]])))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: %s = %g: expected a finite value >= 0",
                          rc_crane_param_defs[nonneg[i]].name, v[nonneg[i]]);
  if (!(v[P_RMAX] > v[P_RMIN]))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: rmax = %g: expected rmax > rmin = %g",
                        v[P_RMAX], v[P_RMIN]);
  if (!isfinite(v[P_TF]))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: tf = %g: expected a finite value", v[P_TF]);
  if (!(v[P_PROJECT] == 0.0 || v[P_PROJECT] == 1.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: project = %g: expected 0 or 1", v[P_PROJECT]);
  return RC_OK;
}

/* Index of `text` in the NULL-terminated list, or -1. */
static int text_choice(const char *text, const char *const *choices) {
  for (int i = 0; choices[i]; ++i)
    if (strcmp(text, choices[i]) == 0)
      return i;
  return -1;
}

static rc_err parse_choices(const rc_param_values *pv, crane_choices *ch,
                            rc_error *err) {
  static const char *const END_CHOICES[] = {"rest", "flat", "free", NULL};
  static const char *const GUESS_CHOICES[] = {"flat", "rest", NULL};
  static const char *const UREF_CHOICES[] = {"zero", "flat", NULL};
  const double *v = pv->real;
  const char *uref_text =
      pv->text && pv->text[P_UREF] ? pv->text[P_UREF] : "zero";
  const int uref = text_choice(uref_text, UREF_CHOICES);
  if (uref < 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: uref = '%s': expected zero or flat", uref_text);
  const char *end_text = pv->text && pv->text[P_END] ? pv->text[P_END] : "rest";
  const char *guess_text =
      pv->text && pv->text[P_GUESS] ? pv->text[P_GUESS] : "flat";
  const int end = text_choice(end_text, END_CHOICES);
  const int guess = text_choice(guess_text, GUESS_CHOICES);
  if (end < 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: end = '%s': expected rest, flat or free",
                        end_text);
  if (guess < 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: guess = '%s': expected flat or rest",
                        guess_text);
  const int eps_set = pv->is_set && pv->is_set[P_EPS];
  const double eps = eps_set     ? v[P_EPS]
                     : uref == 1 ? CRANE_EPS_FLAT_DEFAULT
                                 : CRANE_EPS_DEFAULT;
  if (!(eps >= 0.0 && isfinite(eps)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: eps = %g: expected a finite value >= 0", eps);
  ch->end = end;
  ch->guess_rest = guess == 1;
  ch->uref_flat = uref == 1;
  ch->eps = eps;
  return RC_OK;
}

extern const rc_model rc_model_crane;

rc_err rc_crane_read_path_param(const rc_param_values *pv, int index,
                                rc_crane_path *path, rc_error *err) {
  const int curve = index == P_CURVE;
  const char *file = pv->text ? pv->text[index] : NULL;
  memset(path, 0, sizeof *path);
  FILE *fp =
      rc_param_open_file(&rc_model_crane, pv, index,
                         curve ? "crane: curve file" : "crane: path file", err);
  if (!fp)
    return err ? err->code : RC_ERR_IO;
  return curve ? rc_crane_curve_read_fp(path, fp, file, err)
               : rc_crane_path_read_fp(path, fp, file, err);
}

/* The load path: the waypoint file (path_mode smooth or stop; *tf becomes
 * its last t) or the default step to tf, checked for the flat inverse. */
static rc_err load_path(crane_model *cm, const rc_param_values *pv, double *tf,
                        rc_error *err) {
  const double *v = pv->real;
  const char *file = pv->text ? pv->text[P_PATH] : NULL;
  const char *mode = pv->text ? pv->text[P_PATHMODE] : NULL;
  int smooth = 1;
  if (mode && *mode && strcmp(mode, "smooth") != 0) {
    if (strcmp(mode, "stop") != 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: path_mode = '%.40s': expected smooth or stop",
                          mode);
    smooth = 0;
  }
  rc_err rc;
  if (file && *file) {
    rc = rc_crane_read_path_param(pv, P_PATH, &cm->path, err);
    if (rc == RC_OK && smooth)
      rc = rc_crane_path_smooth(&cm->path, err);
    if (rc == RC_OK) {
      double tl = cm->path.t[cm->path.n - 1];
      if (pv->is_set && pv->is_set[P_TF] &&
          fabs(tl - *tf) > 1e-12 * fmax(1.0, fabs(*tf)))
        rc = rc_error_set(err, RC_ERR_INPUT,
                          "crane: path file '%s' ends at t = %g but tf = %g "
                          "was set: expected them to agree (leave tf unset "
                          "to take the path's end)",
                          file, tl, *tf);
      *tf = tl;
    }
  } else {
    rc = rc_crane_path_default(&cm->path, *tf, v[P_XS], v[P_ZS], v[P_XE],
                               v[P_ZE], err);
  }
  if (rc == RC_OK)
    rc = rc_crane_path_check_flat(&cm->path, &cm->par, err);
  return rc;
}

/* x(t0) (fixed) from the flat inverse unless set, and tau's guess at t0. */
static rc_err initial_state(crane_model *cm, const rc_param_values *pv,
                            rc_error *err) {
  static const int init_param[NX] = {P_D0, P_R0, P_TH0, P_VD0, P_VR0, P_OM0};
  const double *v = pv->real;
  rc_crane_flat f0;
  rc_crane_flat_eval(&cm->par, &cm->path, 0.0, &f0);
  cm->start_x = f0.x;
  cm->start_z = f0.z;
  double w0[NW];
  rc_crane_flat_to_w(&f0, w0);
  for (int i = 0; i < NX; ++i) {
    int set = pv->is_set && pv->is_set[init_param[i]];
    cm->x0[i] = set ? v[init_param[i]] : w0[i];
    cm->fix_x0[i] = 1;
    if (!isfinite(cm->x0[i]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "crane: %s = %g: expected a finite initial value",
                          rc_crane_param_defs[init_param[i]].name, cm->x0[i]);
  }
  if (!(cm->x0[IR] > 0.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: r0 = %g: expected a cable length > 0",
                        cm->x0[IR]);
  cm->tau0 = (pv->is_set && pv->is_set[P_TAU0] && isfinite(v[P_TAU0]))
                 ? v[P_TAU0]
                 : w0[ITAU];
  return RC_OK;
}

/* What every formulation shares: the index-1 model's dimensions, no
 * simple bounds, x(t0) fixed, the outputs, guess and reference. */
static void problem_common(crane_model *cm, const rc_model *model,
                           int formulation, double tf) {
  for (int i = 0; i < NWMAX; ++i) {
    cm->w_lo[i] = -HUGE_VAL;
    cm->w_hi[i] = HUGE_VAL;
  }
  static const double zeros[2] = {0.0, 0.0};
  rc_problem *pb = &cm->pb;
  pb->model = model->name;
  pb->formulation = crane_formulations[formulation].name;
  pb->summary = crane_formulations[formulation].summary;
  crane_dims(pb, NX, 1, 2, rc_crane_var_names);
  pb->w_lo = cm->w_lo;
  pb->w_hi = cm->w_hi;
  pb->c_lo = zeros;
  pb->c_hi = zeros;
  pb->t0 = 0.0;
  pb->tf = tf;
  pb->fix_x0 = cm->fix_x0;
  pb->x0 = cm->x0;
  pb->t0_algebraic = 1;
  pb->index = 1;
  pb->nout = 4;
  pb->out_names = rc_crane_out_names;
  pb->outputs = rc_crane_outputs;
  pb->guess = rc_crane_guess;
  pb->reference = rc_crane_reference;
  pb->destroy = rc_crane_destroy;
  /* track: 30 x 5 meets |(x,z)-p| <= 1e-6 m and control errors <= 1e-3
   * max|u| on the default path (docs/crane-index-reduction.md,
   * "Measurements"); a waypoint path gets a mesh of its own (mesh.c). */
  pb->default_elements = 30;
  pb->default_stages = 5;
}

/* Each formulation: the size of its struct (crane.h) and the function that
 * sets its dimensions, limits, notes and kit functions. */
typedef struct crane_form {
  size_t size;
  crane_setup_fn *setup;
} crane_form;

static const crane_form FORMS[NFORM] = {
    [F_FLAT] = {sizeof(crane_model), rc_crane_flat_setup},
    [F_TRACK] = {sizeof(crane_track), rc_crane_track_setup},
    [F_SERVO] = {sizeof(crane_model), rc_crane_servo_setup},
    [F_REDUCED] = {sizeof(crane_model), rc_crane_reduced_setup},
    [F_MINTIME] = {sizeof(crane_mintime), rc_crane_mintime_setup},
    [F_PATHTIME] = {sizeof(crane_pathtime), rc_crane_pathtime_setup},
};

/* A smooth waypoint path: its overshoot between waypoints, before the
 * formulation's note. */
static void smooth_path_note(crane_model *cm) {
  rc_problem *pb = &cm->pb;
  rc_crane_overshoot os;
  rc_crane_path_overshoot(&cm->path, &os);
  char prev[sizeof cm->note]; /* the track or servo note, maybe cm->note */
  snprintf(prev, sizeof prev, "%s", pb->note ? pb->note : "");
  snprintf(cm->note, sizeof cm->note,
           "smooth path through %d waypoints (degree-9 spline, at rest at "
           "the first and last): between waypoints it leaves their range "
           "by up to %.3g m in x (t = %.4g s) and %.3g m in z (t = %.4g s)"
           "%s%.1700s",
           cm->path.n, os.dx, os.tx, os.dz, os.tz, prev[0] ? "; " : "", prev);
  pb->note = cm->note;
}

/* The problem of formulation on cm (path and initial state set). */
static rc_err crane_build(crane_model *cm, const rc_model *model,
                          int formulation, const rc_param_values *pv,
                          const crane_choices *ch, double tf, rc_error *err) {
  rc_problem *pb = &cm->pb;
  problem_common(cm, model, formulation, tf);
  rc_kit_spec ks = {0};
  rc_err rc = FORMS[formulation].setup(cm, pv, ch, &ks, err);
  if (rc != RC_OK)
    return rc;
  /* record the blocks at the guess at t0 (inside every domain) */
  double w_rec[NWMAX];
  if (pb->guess(pb, pb->t0, w_rec) != 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane/%s: the guess at t0 = %g is outside the "
                        "model's domain: expected a start the flat inverse "
                        "reaches",
                        pb->formulation, pb->t0);
  ks.w_record = w_rec;
  rc = rc_kit_attach(pb, &cm->kit, &ks, err);
  if (rc != RC_OK)
    return rc;
  if (cm->path.mode == RC_CRANE_PATH_SMOOTH)
    smooth_path_note(cm);
  const char *file = pv->text ? pv->text[P_PATH] : NULL;
  if (file && *file) {
    rc = rc_crane_default_mesh(cm, err);
    if (rc != RC_OK)
      return rc;
  }
  return rc_problem_validate(pb, err);
}

/* The problem from another start (rc_problem.restart, problems/origin.h). */
static rc_err crane_restart(const rc_problem *pb, const double *x0,
                            rc_problem **out, rc_error *err) {
  const crane_model *cm = pb->user;
  return rc_origin_restart(&cm->origin, pb, x0, out, err);
}

static rc_err crane_create(const rc_model *model, int formulation,
                           const rc_param_values *pv, rc_problem **out,
                           rc_error *err) {
  *out = NULL;
  if (formulation < 0 || formulation >= NFORM)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: formulation %d: expected 0..%d", formulation,
                        NFORM - 1);
  if (!pv || pv->n != NPARAM || !pv->real)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane: %d parameter values, expected %d",
                        pv ? pv->n : 0, NPARAM);
  if (formulation == F_CYCLE)
    return rc_error_set(err, RC_ERR_INPUT,
                        "crane/cycle is a multiphase formulation: it is "
                        "built by create_phases (radcol solve crane -f "
                        "cycle)");
  const double *v = pv->real;
  crane_choices ch = {0};
  rc_err rc = check_params(v, err);
  if (rc == RC_OK)
    rc = parse_choices(pv, &ch, err);
  /* only pathtime reads curve: elsewhere it was silently ignored (issue 28) */
  const char *curve = pv->text ? pv->text[P_CURVE] : NULL;
  if (rc == RC_OK && formulation != F_PATHTIME && curve && *curve)
    rc = rc_error_set(err, RC_ERR_INPUT,
                      "crane: curve = '%.200s' with formulation %s: expected "
                      "no curve (only pathtime follows a curve; for a "
                      "waypoint path see path)",
                      curve, model->formulations[formulation].name);
  /* the cycle's own parameters elsewhere would be silently ignored */
  static const int cycle_only[] = {P_SPREADER, P_CONTAINER, P_STACKEMPTY};
  for (size_t i = 0; rc == RC_OK && i < 3; ++i)
    if (pv->is_set && pv->is_set[cycle_only[i]])
      rc = rc_error_set(err, RC_ERR_INPUT,
                        "crane: %s is set with formulation %s: expected it "
                        "unset (only cycle reads it)",
                        rc_crane_param_defs[cycle_only[i]].name,
                        model->formulations[formulation].name);
  if (rc != RC_OK)
    return rc;
  /* the formulation's struct, its common model first (crane.h) */
  crane_model *cm = calloc(1, FORMS[formulation].size);
  if (!cm)
    return rc_error_set(err, RC_ERR_NOMEM, "crane: out of memory");
  cm->pb.user = cm; /* from here on rc_crane_destroy frees everything */
  cm->par = (rc_crane_params){v[P_M1], v[P_M2], v[P_MG], v[P_J],
                              v[P_C1], v[P_C2], v[P_C3], v[P_G]};
  cm->guess_rest = ch.guess_rest;
  double tf = v[P_TF];
  rc = load_path(cm, pv, &tf, err);
  if (rc == RC_OK)
    rc = initial_state(cm, pv, err);
  if (rc == RC_OK)
    rc = crane_build(cm, model, formulation, pv, &ch, tf, err);
  if (rc == RC_OK)
    rc = rc_origin_record(&cm->origin, model, formulation, pv, err);
  cm->pb.restart = crane_restart;
  if (rc != RC_OK) {
    rc_crane_destroy(&cm->pb);
    return rc;
  }
  *out = &cm->pb;
  return RC_OK;
}

const rc_model rc_model_crane = {
    "crane",
    "planar crane with winch following a load path (index 5; flat reference)",
    NFORM,
    crane_formulations,
    F_TRACK,
    NPARAM,
    rc_crane_param_defs,
    crane_create,
    rc_crane_create_phases,
};
