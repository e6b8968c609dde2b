/*
 * test_kit.c - unit tests of the problem kit (include/radcol/kit.h):
 *
 *   1. recording: the declared patterns are the entries written, row-major,
 *      Hessian in the lower triangle (d2(a, b) with a < b lands on (b, a)),
 *      no duplicates when an entry is written twice;
 *   2. values: eval, jacobian and hessian (mu-weighted) against the formulas,
 *      repeated writes summed, entries not written in a pass are zero;
 *   3. drift: a branch on w that writes an entry the recording pass did not
 *      makes jacobian / hessian return RC_KIT_UNRECORDED, without touching
 *      anything outside the pattern;
 *   4. attach refuses: a row never written, a derivative before any row, a
 *      column out of range, pb->user not at the kit, a function for a block
 *      without outputs, a missing point function, a failing recording pass.
 */
#include <math.h>
#include <string.h>

#include "radcol/kit.h"
#include "test_util.h"

typedef struct toy {
  rc_kit_blocks kit;
  rc_problem pb;
  int variant; /* 0 ok, 1 drift, 2 missing row, 3 d before row, 4 bad col,
                  5 recording fails */
} toy;

static const char *const names[] = {"a", "b", "c"};

/* F = [w0 w1, w2^2 + 3 w0 (two terms), w0 (+ w0 w1 if w0 > 0, drift)] */
static int toy_fn(const rc_problem *pb, double t, const double *w, rc_kit *k) {
  (void)t;
  const int v = ((const toy *)pb->user)->variant;
  if (v == 5)
    return 1;
  if (v == 3)
    rc_kit_d(k, 0, 1.0);
  rc_kit_row(k, 0, w[0] * w[1]);
  rc_kit_d(k, 0, w[1]);
  rc_kit_d(k, v == 4 ? 3 : 1, w[0]);
  rc_kit_d2(k, 0, 1, 1.0); /* upper-triangle order on purpose */
  rc_kit_row(k, 1, w[2] * w[2]);
  rc_kit_d(k, 2, 2.0 * w[2]);
  rc_kit_d2(k, 2, 2, 2.0);
  rc_kit_row(k, 1, 3.0 * w[0]);
  rc_kit_d(k, 0, 3.0);
  rc_kit_d(k, 2, 0.0); /* a second write of (1, 2) */
  if (v == 2)
    return 0;
  rc_kit_row(k, 2, w[0]);
  rc_kit_d(k, 0, 1.0);
  if (v == 1 && w[0] > 0.0) {
    rc_kit_d(k, 1, 7.0);
    rc_kit_d2(k, 2, 1, 7.0);
  }
  return 0;
}

static rc_err make(toy *T, int variant, const rc_kit_spec *ks, rc_error *err) {
  static const double lo[3] = {-1e20, -1e20, -1e20}, hi[3] = {1e20, 1e20, 1e20};
  static const double x0[3] = {0.0, 0.0, 0.0};
  memset(T, 0, sizeof *T);
  T->variant = variant;
  T->pb = (rc_problem){.model = "toy",
                       .formulation = "f",
                       .nx = 3,
                       .var_names = names,
                       .w_lo = lo,
                       .w_hi = hi,
                       .t0 = 0.0,
                       .tf = 1.0,
                       .x0 = x0,
                       .user = T};
  return rc_kit_attach(&T->pb, &T->kit, ks, err);
}

static void test_patterns_and_values(void) {
  toy T;
  rc_error err;
  const rc_kit_spec ks = {.point = toy_fn};
  EXPECT(make(&T, 0, &ks, &err) == RC_OK, "attach: %s", err.message);
  const rc_block *b = &T.pb.point;
  const int jr[] = {0, 0, 1, 1, 2}, jc[] = {0, 1, 0, 2, 0};
  const int hr[] = {1, 2}, hc[] = {0, 2};
  EXPECT(b->n_out == 3, "n_out %d, expected 3", b->n_out);
  EXPECT(b->jac.nnz == 5, "Jacobian nnz %d, expected 5", b->jac.nnz);
  for (int e = 0; e < 5 && e < b->jac.nnz; ++e)
    EXPECT(b->jac.row[e] == jr[e] && b->jac.col[e] == jc[e],
           "Jacobian entry %d is (%d, %d), expected (%d, %d)", e, b->jac.row[e],
           b->jac.col[e], jr[e], jc[e]);
  EXPECT(b->hes.nnz == 2, "Hessian nnz %d, expected 2", b->hes.nnz);
  for (int e = 0; e < 2 && e < b->hes.nnz; ++e)
    EXPECT(b->hes.row[e] == hr[e] && b->hes.col[e] == hc[e],
           "Hessian entry %d is (%d, %d), expected (%d, %d)", e, b->hes.row[e],
           b->hes.col[e], hr[e], hc[e]);
  EXPECT(T.pb.boundary.n_out == 0 && !T.pb.boundary.eval,
         "the boundary block should stay empty");
  EXPECT(rc_problem_validate(&T.pb, &err) == RC_OK, "validate: %s",
         err.message);

  const double w[3] = {2.0, -3.0, 0.5}, mu[3] = {0.7, -1.1, 5.0};
  double F[3] = {9, 9, 9}, J[5] = {9, 9, 9, 9, 9}, H[2] = {9, 9};
  EXPECT(b->eval(&T.pb, 0.0, w, F) == 0, "eval failed");
  const double Fx[3] = {-6.0, 0.25 + 6.0, 2.0};
  for (int i = 0; i < 3; ++i)
    EXPECT(F[i] == Fx[i], "F[%d] = %g, expected %g", i, F[i], Fx[i]);
  EXPECT(b->jacobian(&T.pb, 0.0, w, J) == 0, "jacobian failed");
  const double Jx[5] = {-3.0, 2.0, 3.0, 1.0, 1.0};
  for (int e = 0; e < 5; ++e)
    EXPECT(J[e] == Jx[e], "J[%d] = %g, expected %g", e, J[e], Jx[e]);
  EXPECT(b->hessian(&T.pb, 0.0, w, mu, H) == 0, "hessian failed");
  EXPECT(H[0] == mu[0] * 1.0, "H(b, a) = %g, expected mu0 = %g", H[0], mu[0]);
  EXPECT(H[1] == mu[1] * 2.0, "H(c, c) = %g, expected 2 mu1 = %g", H[1],
         2.0 * mu[1]);
  rc_kit_release(&T.kit);
  rc_kit_release(&T.kit); /* twice: NULL-safe */
  EXPECT(T.kit.point.jac_row == NULL, "release leaves no pointer");
}

static void test_drift(void) {
  toy T;
  rc_error err;
  const double w_rec[3] = {-1.0, 1.0, 1.0};
  const rc_kit_spec ks = {.point = toy_fn, .w_record = w_rec};
  EXPECT(make(&T, 1, &ks, &err) == RC_OK, "attach: %s", err.message);
  const rc_block *b = &T.pb.point;
  double J[6] = {0, 0, 0, 0, 0, 42.0}, H[3] = {0, 0, 42.0}, F[3];
  const double mu[3] = {1, 1, 1};
  const double wneg[3] = {-2.0, 1.0, 1.0}, wpos[3] = {2.0, 1.0, 1.0};
  EXPECT(b->jacobian(&T.pb, 0.0, wneg, J) == 0, "drift-free point failed");
  EXPECT(b->jacobian(&T.pb, 0.0, wpos, J) == RC_KIT_UNRECORDED,
         "an unrecorded Jacobian entry must return RC_KIT_UNRECORDED");
  EXPECT(J[5] == 42.0 && J[4] == 1.0, "drift wrote outside the pattern");
  EXPECT(b->hessian(&T.pb, 0.0, wpos, mu, H) == RC_KIT_UNRECORDED,
         "an unrecorded Hessian entry must return RC_KIT_UNRECORDED");
  EXPECT(H[2] == 42.0, "drift wrote outside the Hessian pattern");
  EXPECT(b->eval(&T.pb, 0.0, wpos, F) == 0,
         "values alone cannot drift (eval returned nonzero)");
  rc_kit_release(&T.kit);
}

static void refused(int variant, const rc_kit_spec *ks, const char *want) {
  toy T;
  rc_error err;
  rc_error_clear(&err);
  const rc_err rc = make(&T, variant, ks, &err);
  EXPECT(rc == RC_ERR_INPUT,
         "variant %d: attach returned %d, expected "
         "RC_ERR_INPUT",
         variant, (int)rc);
  EXPECT(strstr(err.message, want) != NULL,
         "variant %d: message '%s' lacks '%s'", variant, err.message, want);
  EXPECT(T.kit.point.jslot == NULL && T.kit.magic == 0,
         "variant %d: a refused attach must release the kit", variant);
  rc_kit_release(&T.kit);
}

static rc_err attach_elsewhere(rc_error *err) {
  toy T;
  memset(&T, 0, sizeof T);
  T.pb = (rc_problem){.model = "toy", .formulation = "f", .nx = 3};
  T.pb.user = &T.pb; /* not the kit */
  const rc_kit_spec ks = {.point = toy_fn};
  return rc_kit_attach(&T.pb, &T.kit, &ks, err);
}

static void test_refusals(void) {
  const rc_kit_spec ks = {.point = toy_fn};
  refused(2, &ks, "row 2 of 0..2 is never written");
  refused(3, &ks, "a derivative (column 0) before any rc_kit_row");
  refused(4, &ks, "rc_kit_d on row 0, column 3: expected a column in 0..2");
  refused(5, &ks, "returned 1 in the recording pass");
  const rc_kit_spec extra = {.point = toy_fn, .boundary = toy_fn};
  refused(0, &extra, "the boundary block has no outputs");
  const rc_kit_spec none = {.point = NULL};
  refused(0, &none, "the point block has 3 outputs: expected a function");
  rc_error err;
  EXPECT(attach_elsewhere(&err) == RC_ERR_INPUT &&
             strstr(err.message, "first member") != NULL,
         "pb->user elsewhere: '%s'", err.message);
}

int main(void) {
  test_patterns_and_values();
  test_drift();
  test_refusals();
  return RC_TEST_EXIT();
}
