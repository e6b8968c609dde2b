/*
 * radcol/data.h - data at interior times: least-squares terms of the
 * objective evaluated at given times (a fit to measurements), without
 * splitting the horizon by hand.
 *
 * A problem (rc_problem.data, ABI 3) or a phase of a multiphase problem
 * (radcol/phases.h) may carry one rc_data_fit: nt times t_m in [t0, tf] and,
 * for nvar measured entries var[i] of w (states, algebraic variables or
 * controls), the values d_mi.  The objective gains
 *
 *     D = sum_m sum_i weight_i (w_var[i](t_m) - d_mi)^2      (NaN d_mi:
 * skipped)
 *
 * The mesh gets a breakpoint at every t_m (rc_data_mesh), so w(t_m) is an NLP
 * variable (the state at the breakpoint, and y, u at the last stage of the
 * element ending there, c_s = 1) and D has an exact, constant Hessian
 * 2 weight_i on the diagonal.  At t_m = t0 only states may be measured unless
 * the formulation holds y(t0), u(t0) (t0_algebraic).  The times are fixed
 * (in the problem's own time frame), so a problem with data has a fixed
 * final time.
 *
 * CSV files (rc_data_read_csv): a header row "t,NAME,NAME,..." naming
 * variables of the problem, then one row per time (ascending); an empty cell
 * or "nan" is a value not measured.  Optional: a row "weight,W,W,..." right
 * after the header.  Lines starting with '#' are comments.
 */
#ifndef RADCOL_DATA_H
#define RADCOL_DATA_H

#include "radcol/errors.h"
#include "radcol/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rc_problem;

typedef struct rc_data_fit {
  int nt;               /* measurement times (>= 1) */
  const double *t;      /* nt strictly increasing times in [t0, tf] */
  int nvar;             /* measured entries (>= 1) */
  const int *var;       /* nvar distinct indices into w: x, y or u */
  const double *value;  /* nt x nvar, row-major; NaN: not measured */
  const double *weight; /* nvar finite weights >= 0, or NULL: all 1 */
} rc_data_fit;

/* Checks d against pb (sizes, times inside [t0, tf] and increasing, fixed
 * final time, variable indices, y/u at t0, finite weights, values finite or
 * NaN).  RC_ERR_INPUT naming the bad value. */
rc_err rc_data_validate(const struct rc_problem *pb, const rc_data_fit *d,
                        rc_error *err);

/* The fraction of the horizon of time t: (t - t0) / (tf - t0), the one
 * formula both the mesh and the transcription use (so a data time and its
 * breakpoint compare equal). */
double rc_data_fraction(const struct rc_problem *pb, double t);

/* *out = in with a breakpoint at every data time of d (an element that
 * contains one is split there, both parts keeping its stage count; a
 * breakpoint within 1e-12 of one is moved onto it).  RC_ERR_INPUT when d
 * does not fit pb. */
rc_err rc_data_mesh(const struct rc_problem *pb, const rc_data_fit *d,
                    const rc_mesh *in, rc_mesh *out, rc_error *err);

/* Index k of the breakpoint frac[k] == f (exactly), or -1. */
int rc_data_breakpoint(const rc_mesh *mesh, double f);

/* The value of D for the trajectory w(t_m) given by fn (a callback that
 * writes nw values at time t), for reports; NaN when fn fails. */
typedef int (*rc_data_eval_fn)(void *ctx, double t, double *w);
double rc_data_objective(const struct rc_problem *pb, const rc_data_fit *d,
                         rc_data_eval_fn fn, void *ctx);

/* A data table read from a CSV file (owned storage behind fit). */
typedef struct rc_data_table {
  rc_data_fit fit;
  double *t, *value, *weight;
  int *var;
} rc_data_table;

/* Reads path (format above) for problem pb: the column names must be
 * variables (x, y or u) of pb.  Errors name the file, line and column.
 * RC_ERR_IO when the file cannot be read, RC_ERR_INPUT for its content. */
rc_err rc_data_read_csv(const char *path, const struct rc_problem *pb,
                        rc_data_table *table, rc_error *err);
void rc_data_table_free(rc_data_table *table);

#ifdef __cplusplus
}
#endif
#endif
