/*
 * radcol/nlp_check.h - finite-difference check of the transcription's own
 * derivatives: the NLP's objective gradient, constraint Jacobian and
 * Lagrangian Hessian (sigma f + lambda^T g) on a mesh, entry by entry
 * against central differences, with the completeness of the assembled
 * sparsity (a nonzero difference quotient where the pattern has no entry is
 * a failure).
 *
 * rc_check_problem (radcol/check.h) checks the problem's blocks; what the
 * transcription adds on top is checked here: the chain rule through the
 * element lengths h_k = T_q phi_k of free segment durations T_q (free
 * breakpoints, radcol/mesh.h) and through a free tf, the duration row
 * sum_q T_q = tf - t0, the tangency rows of pinned state arcs and the
 * continuity rows of continuity pins, the Bernstein bound rows, and the
 * assembly of the blocks' entries into the NLP.
 *
 * The point: the transcription's default guess, each variable moved by
 * spread (1 + |x_v|) times a uniform number in [-1, 1] (seeded), the
 * constraint weights lambda uniform in [-1, 1], sigma = 0.7.  A declared
 * entry fails when |fd - got| > rel_tol max(1, |fd|, |got|) + noise, an
 * undeclared one when |fd| > abs_tol + noise (the rounding floor, as in
 * radcol/check.h); the failures name the NLP row and column (a duration
 * "T[q]", "tf", "p[i]", "w[node n].NAME" of the point vector; the row's
 * kind and node).
 */
#ifndef RADCOL_NLP_CHECK_H
#define RADCOL_NLP_CHECK_H

#include "radcol/check.h"
#include "radcol/errors.h"
#include "radcol/mesh.h"
#include "radcol/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rc_nlp;

/* What rc_check_nlp_mesh checked besides the report. */
typedef struct rc_nlp_check_info {
  int nvar, ncon, nnz_jac, nnz_hes;
  int nseg;    /* free segment durations (0: none) */
  int npin;    /* pins (tangency and continuity rows come from them) */
  int free_tf; /* tf is a variable */
  int dense;   /* Bernstein bound rows */
  double max_rel_err_grad;
  int skipped;   /* 1: not checked, why says why (no failure) */
  char why[160]; /* when skipped */
} rc_nlp_check_info;

/* Checks the NLP of pb on mesh (dense_bounds: with the Bernstein rows) at
 * npoints points (at most 3; each costs a Jacobian and a Lagrangian
 * gradient per variable).  The failures have block "nlp".  RC_OK when the
 * check ran (report->nfailures says whether it passed); an error when the
 * NLP cannot be built (err names why) or is too large for dense differences
 * (more than 4000 variables) or does not evaluate near its guess. */
rc_err rc_check_nlp_mesh(const rc_problem *pb, const rc_mesh *mesh,
                         int dense_bounds, const rc_check_options *o,
                         rc_check_report *report, rc_nlp_check_info *info,
                         rc_error *err);

/* The mesh rc_check_nlp uses for pb: 6 elements of 3, 2, 3, 4, 2 and 3
 * stages at uneven breakpoints; when pb is autonomous, cut into 3 free
 * segments of 2 elements, with a continuity pin of the first algebraic or
 * control entry at the start of segment 1 and a bound pin of the first
 * state with a finite bound on segment 2 (a tangency row when its f row has
 * no algebraic or control column).  *segmented says whether it has
 * segments (a non-autonomous problem cannot have free breakpoints). */
rc_err rc_check_nlp_default_mesh(const rc_problem *pb, rc_mesh *mesh,
                                 int *segmented, rc_error *err);

/* rc_check_nlp_mesh on rc_check_nlp_default_mesh.  Pins the NLP refuses
 * for pb, or where it does not evaluate (a state held at a bound where a
 * chart is singular), are dropped and the check runs without them (info
 * says how many were checked). */
rc_err rc_check_nlp(const rc_problem *pb, const rc_check_options *o,
                    rc_check_report *report, rc_nlp_check_info *info,
                    rc_error *err);

/* The check at one point of an NLP that exists (the caller's x, lambda):
 * the entries of the NLP's assembled pattern and the implicit zeros.  For
 * tests that alter an assembled NLP to show a wrong entry is caught. */
void rc_check_nlp_at(struct rc_nlp *nlp, const double *x, const double *lambda,
                     double sigma, const rc_check_options *o,
                     rc_check_report *report, rc_nlp_check_info *info);

#ifdef __cplusplus
}
#endif
#endif
