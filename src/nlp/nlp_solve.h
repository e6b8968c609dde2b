/*
 * nlp_solve.h - one solve on one mesh, without the error estimate or the
 * accuracy verdict (internal).
 *
 * rc_nlp_solve is what the public rc_solve (radcol/solve.h, implemented in
 * accuracy/solve.c) was before the accuracy rule moved into the library:
 * validate, transcribe, run Ipopt (or Newton on a square system), map the
 * result back.  stats->status says how the *solver* ended; the estimators
 * (their enriched solve) and the refinement loop (every solve of it) call it
 * directly, so that a solve inside an estimate is never estimated again.
 * stats->accuracy is left zeroed.
 */
#ifndef RADCOL_NLP_SOLVE_H
#define RADCOL_NLP_SOLVE_H

#include <stddef.h>

#include "radcol/errors.h"
#include "radcol/mesh.h"
#include "radcol/options.h"
#include "radcol/problem.h"
#include "radcol/result.h"

/* Solve pb on mesh (see rc_solve in radcol/solve.h for guess, warm start
 * and ownership).  On RC_OK *sol is allocated and stats->status says how
 * the solver ended; otherwise nothing is allocated and err says why. */
rc_err rc_nlp_solve(const rc_problem *pb, const rc_mesh *mesh,
                    const rc_options *opt, const rc_solution *guess,
                    rc_solution *sol, rc_solve_stats *stats, rc_error *err);

/* The vectors of one NLP solve (rc_nlp_solve, the phases' solve): the
 * point, its multipliers, the constraint values and the bounds; nv entries
 * for x, zl, zu, lo, hi and nc for lam, g, glo, ghi, zeroed. */
typedef struct rc_nlp_vectors {
  double *x, *lam, *zl, *zu, *g, *lo, *hi, *glo, *ghi;
} rc_nlp_vectors;

/* 1 when every vector was allocated (then free with rc_nlp_vectors_free),
 * 0 otherwise (what was allocated is still freed by rc_nlp_vectors_free). */
int rc_nlp_vectors_alloc(rc_nlp_vectors *v, size_t nv, size_t nc);
void rc_nlp_vectors_free(rc_nlp_vectors *v);

/* The largest violation of lo <= v <= hi over n entries (a NaN counts as
 * +inf). */
double rc_nlp_max_violation(const double *v, const double *lo, const double *hi,
                            size_t n);

/* Multiplies the constraint (nc) and bound (nv) multipliers by f: from the
 * NLP's objective scale to the problem's and back. */
void rc_nlp_scale_duals(double f, size_t nv, size_t nc, double *lam, double *zl,
                        double *zu);

/* The square-system rule of rc_square_system (radcol/solve.h). */
int rc_nlp_square_system(const rc_problem *pb, char *why, size_t len);

#endif
