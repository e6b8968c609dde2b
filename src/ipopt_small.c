/*
 * ipopt_small.c - Ipopt's C interface around a small generic NLP
 * (rc_small_nlp, see ipopt_small.h), used by consistent initialisation.
 *
 * A documented exception to "only ipopt_adapter.c includes
 * IpStdCInterface.h": this file is the second and last one, kept separate so
 * that the transcription adapter stays untouched.  It translates Ipopt's
 * conventions (Bool returns, values == NULL for structure requests) to the
 * rc_small_nlp callbacks; options: tol, max_iter, MUMPS, exact Hessian, no
 * output, no banner.
 */
#include <coin/IpStdCInterface.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipopt_small.h"
#include "timing.h"

typedef struct small_ctx {
  const rc_small_nlp *nlp;
  double eval_s;
  int failures;
  int iterations;
} small_ctx;

static Bool done(small_ctx *c, double t, int st) {
  c->eval_s += rc_now_s() - t;
  if (st != 0) {
    c->failures++;
    return FALSE;
  }
  return TRUE;
}

static Bool s_f(Index n, Number *x, Bool nx, Number *f, UserDataPtr u) {
  (void)n, (void)nx;
  small_ctx *c = u;
  const double t = rc_now_s();
  return done(c, t, c->nlp->objective(c->nlp->ctx, x, f));
}

static Bool s_grad(Index n, Number *x, Bool nx, Number *g, UserDataPtr u) {
  (void)n, (void)nx;
  small_ctx *c = u;
  const double t = rc_now_s();
  return done(c, t, c->nlp->gradient(c->nlp->ctx, x, g));
}

static Bool s_g(Index n, Number *x, Bool nx, Index m, Number *g,
                UserDataPtr u) {
  (void)n, (void)nx, (void)m;
  small_ctx *c = u;
  const double t = rc_now_s();
  return done(c, t, c->nlp->constraints(c->nlp->ctx, x, g));
}

static Bool s_jac(Index n, Number *x, Bool nx, Index m, Index nele, Index *irow,
                  Index *jcol, Number *values, UserDataPtr u) {
  (void)n, (void)nx, (void)m, (void)nele;
  small_ctx *c = u;
  if (!values) {
    for (int e = 0; e < c->nlp->nnz_jac; ++e)
      irow[e] = c->nlp->jac_row[e], jcol[e] = c->nlp->jac_col[e];
    return TRUE;
  }
  const double t = rc_now_s();
  return done(c, t, c->nlp->jacobian(c->nlp->ctx, x, values));
}

static Bool s_hes(Index n, Number *x, Bool nx, Number obj_factor, Index m,
                  Number *lambda, Bool nl, Index nele, Index *irow, Index *jcol,
                  Number *values, UserDataPtr u) {
  (void)n, (void)nx, (void)m, (void)nl, (void)nele;
  small_ctx *c = u;
  if (!values) {
    for (int e = 0; e < c->nlp->nnz_hes; ++e)
      irow[e] = c->nlp->hes_row[e], jcol[e] = c->nlp->hes_col[e];
    return TRUE;
  }
  const double t = rc_now_s();
  return done(c, t,
              c->nlp->hessian(c->nlp->ctx, x, obj_factor, lambda, values));
}

static Bool s_iter(Index alg_mod, Index iter, Number obj, Number inf_pr,
                   Number inf_du, Number mu, Number d_norm, Number reg,
                   Number alpha_du, Number alpha_pr, Index ls, UserDataPtr u) {
  (void)alg_mod, (void)obj, (void)inf_pr, (void)inf_du, (void)mu, (void)d_norm;
  (void)reg, (void)alpha_du, (void)alpha_pr, (void)ls;
  ((small_ctx *)u)->iterations = iter;
  return TRUE;
}

static rc_status map_status(int s) {
  switch (s) {
  case Solve_Succeeded:
  case Feasible_Point_Found:
    return RC_STATUS_CONVERGED;
  case Solved_To_Acceptable_Level:
    return RC_STATUS_ACCEPTABLE;
  case Infeasible_Problem_Detected:
    return RC_STATUS_INFEASIBLE;
  case Maximum_Iterations_Exceeded:
  case Maximum_CpuTime_Exceeded:
    return RC_STATUS_MAX_ITER;
  default:
    return RC_STATUS_FAILED;
  }
}

rc_err rc_ipopt_small_solve(const rc_small_nlp *nlp, double tol, int max_iter,
                            double *x, double *lambda, rc_ipopt_outcome *out,
                            rc_error *err) {
  memset(out, 0, sizeof *out);
  IpoptProblem ip = CreateIpoptProblem(
      nlp->n, (Number *)nlp->x_lo, (Number *)nlp->x_hi, nlp->m,
      (Number *)nlp->g_lo, (Number *)nlp->g_hi, nlp->nnz_jac, nlp->nnz_hes, 0,
      s_f, s_g, s_grad, s_jac, s_hes);
  if (!ip)
    return rc_error_set(err, RC_ERR_SOLVER,
                        "Ipopt refused the small NLP (%d variables, %d "
                        "constraints)",
                        nlp->n, nlp->m);
  AddIpoptStrOption(ip, "sb", "yes");
  AddIpoptIntOption(ip, "print_level", 0);
  AddIpoptNumOption(ip, "tol", tol);
  AddIpoptIntOption(ip, "max_iter", max_iter);
  AddIpoptStrOption(ip, "linear_solver", "mumps");
  AddIpoptStrOption(ip, "hessian_approximation", "exact");
  SetIntermediateCallback(ip, s_iter);
  small_ctx ctx = {.nlp = nlp};
  double obj = NAN;
  const double t0 = rc_now_s();
  const enum ApplicationReturnStatus s =
      IpoptSolve(ip, x, NULL, &obj, lambda, NULL, NULL, &ctx);
  out->solve_s = rc_now_s() - t0;
  FreeIpoptProblem(ip);
  out->app_status = (int)s;
  out->status = map_status((int)s);
  out->iterations = ctx.iterations;
  out->objective = obj;
  out->eval_s = ctx.eval_s;
  out->eval_failures = ctx.failures;
  snprintf(out->message, sizeof out->message,
           "Ipopt status %d after %d iterations", (int)s, ctx.iterations);
  return RC_OK;
}
