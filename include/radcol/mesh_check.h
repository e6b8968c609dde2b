/*
 * radcol/mesh_check.h - can a mesh represent the problem's reference?
 *
 * A pre-solve check for problems with a reference: sample the reference at
 * the mesh nodes, build radcol's dense output from those samples exactly as
 * for a solution (rc_solution_eval: x by the degree-s polynomial through the
 * element's s+1 nodes, y and u by the degree-(s-1) polynomial through the s
 * stage values; derived outputs from the interpolated point vector) and
 * compare it with the reference on a fine grid.  The difference is the error
 * the transcription makes between nodes even if the NLP hit the reference
 * exactly at every node, so it is a floor under the dense-output error of a
 * solve on that mesh: a mesh whose floor is above the accuracy wanted is too
 * coarse for the problem (for the crane: too coarse for the path).
 *
 * Variables compared: x, y, u then the derived outputs (nx + ny + nu + nout,
 * the reference row layout of problem.h); NaN reference entries are skipped.
 * Relative error of variable i: max |dense - ref| / max |ref| over the grid
 * (the absolute error where the reference is identically zero).
 */
#ifndef RADCOL_MESH_CHECK_H
#define RADCOL_MESH_CHECK_H

#include "radcol/errors.h"
#include "radcol/mesh.h"
#include "radcol/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rc_mesh_check {
  int nvar;         /* nx + ny + nu + nout */
  int nelem;        /* mesh elements */
  double *err;      /* nvar: max |dense - ref| over the grid (owned) */
  double *scale;    /* nvar: max |ref| over the grid */
  double *t_err;    /* nvar: where err is attained */
  double *elem_rel; /* nelem x nvar: relative error inside each element */
  double worst_rel; /* max over variables of the relative error */
  int worst_var;    /* its index (0 .. nvar-1), -1 if nothing compared */
  double worst_t;   /* and where */
  int ngrid;        /* grid points compared */
} rc_mesh_check;

/* Runs the check with per_element grid points per element (uniform, element
 * start included, plus tf; per_element <= 0: 8 s_k).  RC_ERR_INPUT when the
 * problem has no reference, the reference fails, or the grid would exceed
 * 2e6 points; RC_ERR_NOMEM. */
rc_err rc_mesh_check_reference(const rc_problem *pb, const rc_mesh *mesh,
                               int per_element, rc_mesh_check *mc,
                               rc_error *err);
/* Name of compared variable i (a variable name or an output name). */
const char *rc_mesh_check_var_name(const rc_problem *pb, int i);
/* Frees the arrays and zeroes the struct (safe on a zeroed struct). */
void rc_mesh_check_free(rc_mesh_check *mc);

#ifdef __cplusplus
}
#endif
#endif
