/*
 * test_lq.h - the scalar LQ optimal-control problem's point block, shared by
 * test_transcription.c and test_dense_check.c (each test is one translation
 * unit; the callers set bounds, horizon and x0):
 *     x' = u,   L = (x^2 + u^2) / 2,   w = (x, u).
 * F = (u, L); Jacobian entries (0,u) = 1, (1,x) = x, (1,u) = u; Hessian of
 * mu . F: (x,x) = (u,u) = mu_1.
 */
#ifndef RADCOL_TEST_LQ_H
#define RADCOL_TEST_LQ_H

#include "radcol/problem.h"

static const char *const lq_names[] = {"x", "u"};
static const int lq_jr[] = {0, 1, 1}, lq_jc[] = {1, 0, 1};
static const int lq_hr[] = {0, 1}, lq_hc[] = {0, 1};
static int lq_F(const rc_problem *pb, double t, const double *w, double *F) {
  (void)pb, (void)t;
  F[0] = w[1];
  F[1] = 0.5 * (w[0] * w[0] + w[1] * w[1]);
  return 0;
}
static int lq_J(const rc_problem *pb, double t, const double *w, double *v) {
  (void)pb, (void)t;
  v[0] = 1, v[1] = w[0], v[2] = w[1];
  return 0;
}
static int lq_H(const rc_problem *pb, double t, const double *w,
                const double *mu, double *v) {
  (void)pb, (void)t, (void)w;
  v[0] = mu[1], v[1] = mu[1];
  return 0;
}
/* The point block of the LQ problem (nF = 2: f and the Lagrange term). */
static rc_block lq_block(void) {
  return (rc_block){2, {3, lq_jr, lq_jc}, {2, lq_hr, lq_hc}, lq_F, lq_J, lq_H};
}

#endif
