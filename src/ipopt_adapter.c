/*
 * ipopt_adapter.c - the Ipopt C interface around an rc_ipopt_nlp.
 *
 * Callbacks translate Ipopt's conventions (Bool returns, values == NULL for
 * structure requests, Index arrays) to the transcription's functions and time
 * themselves, so a solve reports how long radcol's own evaluations took
 * versus Ipopt and MUMPS.  A callback that fails returns FALSE: Ipopt then
 * cuts the step back (recoverable); a fatal (< 0) status also stops the solve
 * from the intermediate callback.  Options: radcol's typed options first, then
 * radcol's measured MUMPS defaults, then the user's raw key=value pairs (which
 * override), typed by trying integer, number, string.
 */
#include <coin/IpStdCInterface.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipopt_adapter.h"
#include "timing.h"

typedef struct adapter_ctx {
  const rc_ipopt_nlp *nlp;
  const rc_options *opt;
  double eval_s;
  int eval_failures;
  int fatal_status;
  int iterations;
  double inf_du; /* Ipopt's (scaled) dual infeasibility, last iteration */
} adapter_ctx;

static Bool finish(adapter_ctx *c, double t_start, int st) {
  c->eval_s += rc_now_s() - t_start;
  if (st != 0) {
    c->eval_failures++;
    if (st < 0 && c->fatal_status == 0)
      c->fatal_status = st;
    return FALSE;
  }
  return TRUE;
}

/* Start timing a callback; tell the NLP first when x is new. */
static double enter(adapter_ctx *c, Bool new_x) {
  const double t = rc_now_s();
  if (new_x && c->nlp->new_point)
    c->nlp->new_point(c->nlp->ctx);
  return t;
}

static Bool cb_f(Index n, Number *x, Bool new_x, Number *f, UserDataPtr u) {
  (void)n;
  adapter_ctx *c = u;
  const double t = enter(c, new_x);
  return finish(c, t, c->nlp->objective(c->nlp->ctx, x, f));
}

static Bool cb_grad(Index n, Number *x, Bool new_x, Number *g, UserDataPtr u) {
  (void)n;
  adapter_ctx *c = u;
  const double t = enter(c, new_x);
  return finish(c, t, c->nlp->gradient(c->nlp->ctx, x, g));
}

static Bool cb_g(Index n, Number *x, Bool new_x, Index m, Number *g,
                 UserDataPtr u) {
  (void)n;
  (void)m;
  adapter_ctx *c = u;
  const double t = enter(c, new_x);
  return finish(c, t, c->nlp->constraints(c->nlp->ctx, x, g));
}

static Bool cb_jac(Index n, Number *x, Bool new_x, Index m, Index nele,
                   Index *irow, Index *jcol, Number *values, UserDataPtr u) {
  (void)n;
  (void)m;
  (void)nele;
  adapter_ctx *c = u;
  if (!values) {
    memcpy(irow, c->nlp->jac_row, sizeof *irow * (size_t)c->nlp->nnz_jac);
    memcpy(jcol, c->nlp->jac_col, sizeof *jcol * (size_t)c->nlp->nnz_jac);
    return TRUE;
  }
  const double t = enter(c, new_x);
  return finish(c, t, c->nlp->jacobian(c->nlp->ctx, x, values));
}

static Bool cb_hes(Index n, Number *x, Bool new_x, Number obj_factor, Index m,
                   Number *lambda, Bool new_lambda, Index nele, Index *irow,
                   Index *jcol, Number *values, UserDataPtr u) {
  (void)n;
  (void)m;
  (void)new_lambda;
  (void)nele;
  adapter_ctx *c = u;
  if (!values) {
    memcpy(irow, c->nlp->hes_row, sizeof *irow * (size_t)c->nlp->nnz_hes);
    memcpy(jcol, c->nlp->hes_col, sizeof *jcol * (size_t)c->nlp->nnz_hes);
    return TRUE;
  }
  const double t = enter(c, new_x);
  return finish(c, t,
                c->nlp->hessian(c->nlp->ctx, x, obj_factor, lambda, values));
}

static Bool cb_iter(Index alg_mod, Index iter, Number obj, Number inf_pr,
                    Number inf_du, Number mu, Number d_norm, Number reg,
                    Number alpha_du, Number alpha_pr, Index ls, UserDataPtr u) {
  (void)alg_mod;
  (void)mu;
  (void)d_norm;
  (void)reg;
  (void)alpha_du;
  (void)alpha_pr;
  (void)ls;
  adapter_ctx *c = u;
  c->iterations = iter;
  c->inf_du = inf_du;
  if (c->opt->progress)
    c->opt->progress(c->opt->progress_ctx, iter, obj, inf_pr, inf_du);
  return c->fatal_status == 0 ? TRUE : FALSE;
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

static const char *app_status_name(int s) {
  switch (s) {
  case Solve_Succeeded:
    return "Solve_Succeeded";
  case Solved_To_Acceptable_Level:
    return "Solved_To_Acceptable_Level";
  case Infeasible_Problem_Detected:
    return "Infeasible_Problem_Detected";
  case Search_Direction_Becomes_Too_Small:
    return "Search_Direction_Becomes_Too_Small";
  case Diverging_Iterates:
    return "Diverging_Iterates";
  case User_Requested_Stop:
    return "User_Requested_Stop";
  case Feasible_Point_Found:
    return "Feasible_Point_Found";
  case Maximum_Iterations_Exceeded:
    return "Maximum_Iterations_Exceeded";
  case Restoration_Failed:
    return "Restoration_Failed";
  case Error_In_Step_Computation:
    return "Error_In_Step_Computation";
  case Maximum_CpuTime_Exceeded:
    return "Maximum_CpuTime_Exceeded";
  case Not_Enough_Degrees_Of_Freedom:
    return "Not_Enough_Degrees_Of_Freedom";
  case Invalid_Problem_Definition:
    return "Invalid_Problem_Definition";
  case Invalid_Option:
    return "Invalid_Option";
  case Invalid_Number_Detected:
    return "Invalid_Number_Detected";
  case Unrecoverable_Exception:
    return "Unrecoverable_Exception";
  case NonIpopt_Exception_Thrown:
    return "NonIpopt_Exception_Thrown";
  case Insufficient_Memory:
    return "Insufficient_Memory";
  default:
    return "Internal_Error";
  }
}

/* A raw KEY=VALUE: integer if it parses fully as one, else a number, else a
 * string.  Ipopt rejects a key or a type it does not know. */
static rc_err add_raw_option(IpoptProblem ip, const char *kv, rc_error *err) {
  char key[128], val[256];
  const char *eq = strchr(kv, '=');
  const size_t klen = (size_t)(eq - kv);
  if (klen >= sizeof key || strlen(eq + 1) >= sizeof val)
    return rc_error_set(err, RC_ERR_INPUT, "Ipopt option '%s': too long", kv);
  memcpy(key, kv, klen);
  key[klen] = '\0';
  strcpy(val, eq + 1);
  char *end;
  errno = 0;
  const long iv = strtol(val, &end, 10);
  if (*end == '\0' && errno == 0 && iv >= -2147483647L && iv <= 2147483647L &&
      AddIpoptIntOption(ip, key, (Int)iv))
    return RC_OK;
  errno = 0;
  const double dv = strtod(val, &end);
  if (*end == '\0' && errno == 0 && isfinite(dv) &&
      AddIpoptNumOption(ip, key, dv))
    return RC_OK;
  if (AddIpoptStrOption(ip, key, val))
    return RC_OK;
  return rc_error_set(err, RC_ERR_INPUT,
                      "--ipopt %s: Ipopt does not accept option '%s' with "
                      "value '%s'",
                      kv, key, val);
}

rc_err rc_ipopt_solve(const rc_ipopt_nlp *nlp, const rc_options *opt, double *x,
                      double *lambda, double *zl, double *zu,
                      rc_ipopt_outcome *out, rc_error *err) {
  memset(out, 0, sizeof *out);
  /* Ipopt copies the bounds; its prototype is not const-correct. */
  IpoptProblem ip = CreateIpoptProblem(
      nlp->n, (Number *)nlp->x_lo, (Number *)nlp->x_hi, nlp->m,
      (Number *)nlp->g_lo, (Number *)nlp->g_hi, nlp->nnz_jac, nlp->nnz_hes, 0,
      cb_f, cb_g, cb_grad, cb_jac, cb_hes);
  if (!ip)
    return rc_error_set(err, RC_ERR_SOLVER,
                        "Ipopt refused the NLP (%d variables, %d constraints)",
                        nlp->n, nlp->m);
  rc_err rc = RC_OK;
  AddIpoptStrOption(ip, "sb", "yes");
  AddIpoptIntOption(ip, "print_level", opt->print_level);
  AddIpoptNumOption(ip, "tol", opt->tol);
  AddIpoptNumOption(ip, "acceptable_tol", opt->acceptable_tol);
  AddIpoptIntOption(ip, "max_iter", opt->max_iter);
  AddIpoptNumOption(ip, "max_cpu_time", opt->max_cpu_s);
  AddIpoptStrOption(ip, "linear_solver", "mumps");
  /* MUMPS defaults chosen by measurement (docs/performance.md): Ipopt 3.11's
   * mumps_permuting_scaling = 7 picks a weighted-matching permutation and
   * scaling (5 or 6) that makes factorizing these collocation KKT matrices
   * (zero Hessian blocks, square Jacobian) blow up from 1000 elements on
   * (minutes, growing memory); 0 keeps MUMPS's own automatic scaling.  AMF
   * ordering was the fastest on the banded time-ordered layout.  The user's
   * --ipopt KEY=VALUE pairs come later and override both. */
  AddIpoptIntOption(ip, "mumps_permuting_scaling", 0);
  AddIpoptIntOption(ip, "mumps_pivot_order", 2);
  AddIpoptStrOption(ip, "hessian_approximation", "exact");
  if (opt->warm_start) {
    AddIpoptStrOption(ip, "warm_start_init_point", "yes");
    AddIpoptNumOption(ip, "warm_start_bound_push", 1e-9);
    AddIpoptNumOption(ip, "warm_start_mult_bound_push", 1e-9);
    AddIpoptNumOption(ip, "mu_init", 1e-6);
  }
  for (int i = 0; i < opt->nipopt && rc == RC_OK; ++i)
    rc = add_raw_option(ip, opt->ipopt_kv[i], err);
  if (rc != RC_OK) {
    FreeIpoptProblem(ip);
    return rc;
  }
  adapter_ctx ctx = {.nlp = nlp, .opt = opt, .inf_du = NAN};
  SetIntermediateCallback(ip, cb_iter);
  double obj = NAN;
  const double t0 = rc_now_s();
  const enum ApplicationReturnStatus s =
      IpoptSolve(ip, x, NULL, &obj, lambda, zl, zu, &ctx);
  out->solve_s = rc_now_s() - t0;
  FreeIpoptProblem(ip);

  out->app_status = (int)s;
  out->status = map_status((int)s);
  out->iterations = ctx.iterations;
  out->dual_infeasibility = ctx.inf_du;
  out->objective = obj;
  out->eval_s = ctx.eval_s;
  out->eval_failures = ctx.eval_failures;
  out->fatal_status = ctx.fatal_status;
  if (s == Invalid_Option)
    return rc_error_set(err, RC_ERR_INPUT,
                        "Ipopt rejected an option value (see --ipopt)");
  if (s == Not_Enough_Degrees_Of_Freedom)
    snprintf(out->message, sizeof out->message,
             "Ipopt: %s: the NLP has more equality constraints than free "
             "variables (over-determined: are too many initial values fixed?)",
             app_status_name(s));
  else if (ctx.fatal_status)
    snprintf(out->message, sizeof out->message,
             "Ipopt: %s: a problem callback failed fatally (status %d)",
             app_status_name(s), ctx.fatal_status);
  else
    snprintf(out->message, sizeof out->message, "Ipopt: %s after %d iterations",
             app_status_name(s), ctx.iterations);
  return RC_OK;
}
