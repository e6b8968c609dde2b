/*
 * radcol/io.h - HDF5 result files (layout: docs/hdf5-layout.md).  No HDF5
 * types cross this header.  Writes are atomic: a temporary file in the same
 * directory, renamed over the target only when complete.
 */
#ifndef RADCOL_IO_H
#define RADCOL_IO_H

#include "radcol/dense_check.h"
#include "radcol/errors.h"
#include "radcol/estimate.h"
#include "radcol/mesh.h"
#include "radcol/phases.h"
#include "radcol/problem.h"
#include "radcol/refine.h"
#include "radcol/replay.h"
#include "radcol/result.h"
#include "radcol/solve.h"
#include "radcol/structure.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RC_FORMAT_NAME "radcol-result"
#define RC_FORMAT_VERSION 1

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
  const char *kind;        /* "solve", "init", "simulate", "replay" */
  const rc_replay *replay; /* written as /diagnostics/replay when not NULL */
  const rc_dense_violation *dense; /* /diagnostics/dense_violation, or NULL */
  int nipopt; /* raw Ipopt options of the run, "key=value" (borrowed), */
  const char *const *ipopt_kv;       /* stored as /diagnostics/ipopt_options */
  const rc_error_estimate *estimate; /* /diagnostics/error_estimate, or NULL */
  const rc_structure *structure;     /* /diagnostics/structure, or NULL */
} rc_result_record;

/* Write rec to path atomically and safely (docs/robustness.md): a random,
 * exclusively created temporary file next to path, written through its own
 * descriptor, fsync'd and renamed over path.  An existing path that is not a
 * regular file is refused (RC_ERR_INPUT); a failed write (full disk, file
 * size limit) is RC_ERR_IO with path untouched and no temporary file left. */
rc_err rc_write_result(const char *path, const rc_result_record *rec,
                       rc_error *err);

/* A multiphase result (radcol/phases.h): the whole solve and one record per
 * phase.  Borrowed pointers; refine, command_line and ipopt_kv may be NULL. */
typedef struct rc_phases_record {
  const rc_phases *ph;           /* the phases (names) */
  const rc_phases_solution *res; /* solutions, starts, durations, linkage */
  const rc_result_record *phase; /* nphases: pb, sol, model, params, diag,
                                    dense, estimate, stats of each phase */
  const rc_solve_stats *stats;   /* the one NLP of all phases */
  int nrefine;
  const rc_refine_row *refine;
  const char *command_line;
  int nipopt;
  const char *const *ipopt_kv;
} rc_phases_record;

/* Write a multiphase result (docs/hdf5-layout.md, "Multiphase files"):
 * root kind "phases", /phases/<k> each with the one-phase layout, /linkage,
 * and the whole solve's /diagnostics and /refinement.  Atomic and checked
 * as rc_write_result. */
rc_err rc_write_phases_result(const char *path, const rc_phases_record *rec,
                              rc_error *err);

/* The checks rc_write_result makes before writing, for callers that want
 * them before a long solve: a file name (not a directory), a base name of
 * at most NAME_MAX bytes, a path leaving room for the temporary name, and
 * no existing non-regular file (device, FIFO, symlink, directory) at path.
 * RC_ERR_INPUT naming path and the reason. */
rc_err rc_output_check(const char *path, rc_error *err);

/* Unlink the temporary file of a write in progress, if any.  Async-signal-
 * safe: meant for SIGINT/SIGTERM handlers, which then re-raise the signal.
 * (Temporaries left by SIGKILL are removed by the next write into the same
 * directory once no live writer holds their lock.) */
void rc_io_remove_partial_output(void);

/* Read a result file back.  problem/formulation receive the root attributes
 * (buffers of at least 64 chars, may be NULL). */
rc_err rc_read_mesh(const char *path, rc_mesh *mesh, rc_error *err);
rc_err rc_read_solution(const char *path, rc_solution *sol, char *problem,
                        char *formulation, rc_error *err);

/* Names recorded in a result file: *var gets the nw variable names of
 * /problem/variable_names (the order of w), *out the derived output names of
 * /problem/output_names (out and nout may both be NULL: names of w only).
 * Each array and string is malloc'd (free with rc_free_strings). */
rc_err rc_read_names(const char *path, char ***var, int *nw, char ***out,
                     int *nout, rc_error *err);

/* The model parameters recorded as /problem attributes, as "NAME=VALUE"
 * assignments for rc_params_set: one for each parameter of model whose
 * attribute is present and whose value differs from the model's default
 * (reals written with 17 significant digits, so they read back exactly).  A
 * non-finite recorded value that differs from the default is refused
 * (RC_ERR_INPUT): rc_params_set cannot express it.  *assign is malloc'd
 * (free with rc_free_strings); *n may be 0. */
rc_err rc_read_param_assignments(const char *path, const rc_model *model,
                                 char ***assign, int *n, rc_error *err);

/* The bytes of the input files the result file stores with its file
 * parameters (RC_PARAM_FILE, /problem/files/<name>), attached to pv
 * (rc_params_set_file_data) for every file parameter whose current value
 * is the name the file records: apply the recorded assignments first,
 * then this, then any new ones.  A file written before these were stored
 * holds none: nothing is attached (the model reads the named file). */
rc_err rc_read_param_files(const char *path, const rc_model *model,
                           rc_param_values *pv, rc_error *err);

/* Frees n malloc'd strings and the array holding them (NULL is fine). */
void rc_free_strings(char **s, int n);

/* Per-name values of a result file: names[i] with v[k][i] for column k
 * (NULL when the file lacks that column).  All malloc'd. */
typedef struct rc_result_table {
  long n;
  char **names;
  double *v[3];
} rc_result_table;

#define RC_SUMMARY_STR 1024

/* What `radcol info` shows of a result file.  Strings are the root
 * attributes as stored (possibly empty; bytes are not sanitised: a caller
 * printing them escapes them); numbers are NaN when the file lacks them. */
typedef struct rc_result_summary {
  char problem[RC_SUMMARY_STR], formulation[RC_SUMMARY_STR];
  char kind[RC_SUMMARY_STR], status[RC_SUMMARY_STR];
  char radcol_version[RC_SUMMARY_STR], utc_time[RC_SUMMARY_STR];
  char command_line[4 * RC_SUMMARY_STR];
  long elements, nodes; /* /mesh/stages: n and 1 + sum s_k */
  int stages_min, stages_max;
  double t0, tf;          /* /problem t0, /solution tf */
  double iterations_last; /* the last solve's iterations (/diagnostics) */
  double iterations;      /* total over the /refinement rows' ipopt_iterations,
                             else iterations_last */
  double objective, constraint_violation, wall_s; /* /diagnostics */
  double nvars, ncons;                            /* NLP size (/diagnostics) */
  double error_estimate; /* /diagnostics/error_estimate max (NaN: none) */
  rc_result_table reference_error; /* columns nodes, dense, ends */
  rc_result_table invariants;      /* columns nodes, dense (v[2] NULL) */
  int nphases; /* a multiphase file's phase count (its root summary), or 0 */
} rc_result_summary;

/* Fill *s from the result file path (validated like the other readers).
 * On failure *s holds nothing to free. */
rc_err rc_read_result_summary(const char *path, rc_result_summary *s,
                              rc_error *err);
/* Frees the tables of s (NULL is fine). */
void rc_result_summary_free(rc_result_summary *s);

/* ---- multiphase files (docs/hdf5-layout.md, "Multiphase files") ----
 * The readers above refuse a multiphase file (its root holds no /mesh or
 * /solution); these read phase `phase` (0-based) of one, with the same
 * checks, as if its group were a one-phase file. */
rc_err rc_read_phase_mesh(const char *path, int phase, rc_mesh *mesh,
                          rc_error *err);
rc_err rc_read_phase_solution(const char *path, int phase, rc_solution *sol,
                              char *problem, char *formulation, rc_error *err);
rc_err rc_read_phase_names(const char *path, int phase, char ***var, int *nw,
                           char ***out, int *nout, rc_error *err);
rc_err rc_read_phase_param_assignments(const char *path, int phase,
                                       const rc_model *model, char ***assign,
                                       int *n, rc_error *err);
rc_err rc_read_phase_summary(const char *path, int phase, rc_result_summary *s,
                             rc_error *err);

/* The phases of a result file: n = 0 for a one-phase file; else names,
 * absolute starts, durations, objectives and the linkage rows (all
 * malloc'd; free with rc_phases_info_free). */
typedef struct rc_phases_info {
  int n;
  char **names;
  double *start, *duration, *objective;
  int nlink;
  char **link_names;
  double *link_value, *link_lo, *link_hi, *link_multiplier;
} rc_phases_info;
rc_err rc_read_phases_info(const char *path, rc_phases_info *p, rc_error *err);
void rc_phases_info_free(rc_phases_info *p);

#ifdef __cplusplus
}
#endif
#endif
