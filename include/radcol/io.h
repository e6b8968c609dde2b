/*
 * radcol/io.h - HDF5 result files (layout: docs/hdf5-layout.md).  No HDF5
 * types cross this header.  Writes are atomic: a temporary file in the same
 * directory, renamed over the target only when complete.
 */
#ifndef RADCOL_IO_H
#define RADCOL_IO_H

#include "radcol/errors.h"
#include "radcol/estimate.h"
#include "radcol/mesh.h"
#include "radcol/problem.h"
#include "radcol/result.h"
#include "radcol/solve.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RC_FORMAT_NAME "radcol-result"
#define RC_FORMAT_VERSION 1

/* One row of /refinement. */
typedef struct rc_refine_row {
  int iteration;
  int elements;
  int stages_min, stages_max;
  int nvars;
  double est_error; /* estimator's max over elements */
  double ref_error; /* max reference error over variables (NaN: none) */
  int ipopt_iterations;
  double wall_s;
  int status;          /* rc_status of that solve */
  double global_error; /* global estimate's max (radcol/estimate.h), NaN:
                          not computed for this solve */
} rc_refine_row;

/* Everything a result file records. Borrowed pointers; any may be NULL except
 * path, pb and sol. */
typedef struct rc_result_record {
  const rc_model *model;
  const rc_param_values *params;
  const rc_problem *pb;
  const rc_solution *sol;
  const rc_solve_stats *stats;
  const rc_diagnostics *diag;
  int nrefine;
  const rc_refine_row *refine;
  const char *command_line;
  const char *kind;                  /* "solve", "init", "simulate" */
  const rc_error_estimate *estimate; /* /diagnostics/error_estimate, or NULL */
} rc_result_record;

rc_err rc_write_result(const char *path, const rc_result_record *rec,
                       rc_error *err);

/* Read a result file back.  problem/formulation receive the root attributes
 * (buffers of at least 64 chars, may be NULL). */
rc_err rc_read_mesh(const char *path, rc_mesh *mesh, rc_error *err);
rc_err rc_read_solution(const char *path, rc_solution *sol, char *problem,
                        char *formulation, rc_error *err);

/* Print a summary of a result file (root attributes, sizes, status, errors)
 * to out, as text or as one JSON object.  For `radcol info`. */
rc_err rc_print_info(const char *path, void *out_FILE, int json, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
