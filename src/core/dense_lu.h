/*
 * dense_lu.h - small dense LU with partial pivoting (private to the library).
 *
 * One implementation for the small dense systems the engine solves outside
 * the NLP: the element stage systems of the Newton path (newton.c), g_y in
 * the replay's Newton on the algebraic variables (replay.c), and dg/dy in
 * the y(t0) Newton of solve.c.  Row-major, in place:  P A = L U with the
 * unit lower factor L below the diagonal of A and U on and above it;
 * perm[k] is the row swapped with row k at step k.
 */
#ifndef RADCOL_DENSE_LU_H
#define RADCOL_DENSE_LU_H

/* Factors the m x m matrix A in place.  A pivot whose magnitude is not
 * above min_pivot (or is not finite) stops the factorisation.  Returns -1
 * on success, else the column of the failing pivot. */
int rc_lu_factor(int m, double *A, int *perm, double min_pivot);

/* Solves A x = b in place (b becomes x) with the factors of rc_lu_factor. */
void rc_lu_solve(int m, const double *A, const int *perm, double *b);

/* Factor and solve in one call, the pivot threshold relative to max |A|:
 * min_pivot = rel * max |A_ij|.  Returns -1, or the failing column (then b
 * is unchanged in meaning: the system is numerically singular). */
int rc_lu_solve_once(int m, double *A, int *perm, double *b, double rel);

#endif
