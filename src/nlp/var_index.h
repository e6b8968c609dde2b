/*
 * var_index.h - the index of every unknown of a square system's stage, for
 * the error weighting and row scaling of an implicit Radau IIA integrator
 * (Hairer and Wanner, Solving ODEs II, VII.4 and IV.8: RADAU5 asks its user
 * for the count of index-1, -2 and -3 variables; here it is found from the
 * problem).  Private to the library.
 *
 * The stage unknowns are q = (x, a), a = (y, u) the algebraic ones (na =
 * ny + nu), closed by the rows (g; c - c_lo) (na rows, square).  With Ga =
 * d(g; c)/da at the given point (numerically; the structural pattern with
 * unit values when the point fails to evaluate):
 *   - a_j is of index 1 when it is determined by (g; c) for fixed x, i.e.
 *     e_j lies in the row space of Ga (e_j orthogonal to null(Ga)), checked
 *     by a QR with column pivoting of Ga^T: sum_{i < rank} Q_ji^2 >= 1 - 1e-8;
 *   - the other a_j (a multiplier that appears only in f, the accelerations
 *     coupled to it through the mass matrix, ...) are of index kh = 3 when
 *     the problem declares index >= 3, else 2;
 *   - with kh = 3, x_i is of index 2 when f_i depends on one of them (a
 *     velocity), else 1 (a position);
 *   - with kh = 3, a row of (g; c) whose pattern holds no algebraic unknown
 *     and no index-2 x is a position-level constraint (row_hi = 1).
 * This is the Hessenberg structure of every index-2 and index-3
 * formulation of a mechanism in index-3 (positions, velocities, multipliers)
 * or GGL index-2 form, and of a projected index-1 form; an index above 3 is
 * weighted
 * as 3.
 */
#ifndef RADCOL_NLP_VAR_INDEX_H
#define RADCOL_NLP_VAR_INDEX_H

#include "radcol/errors.h"
#include "radcol/problem.h"

typedef struct rc_var_index {
  int nq, na;
  int kmax;    /* largest index found (1..3) */
  int *k;      /* nq: the index of each unknown (x, y, u) */
  int *row_hi; /* na: 1 for a position-level constraint row of (g; c) */
  int *row_x;  /* na: 1 for a row whose pattern has no algebraic unknown
                  (a constraint on x only; with nhigh > 0 the rows a start
                  must satisfy for the high-index unknowns to be bounded) */
  int nhigh;   /* algebraic unknowns of index > 1 */
} rc_var_index;

/* The classification at the point (t, w) (nw values; (y, u) a guess is
 * enough).  On RC_OK *vi is allocated (free with rc_var_index_free). */
rc_err rc_var_index_compute(const rc_problem *pb, double t, const double *w,
                            rc_var_index *vi, rc_error *err);
void rc_var_index_free(rc_var_index *vi);

#endif
