/*
 * ode_reference.c - reference integrator for explicit ODEs (see
 * ode_reference.h): GSL odeiv2 driver with the rk8pd stepper (explicit
 * Runge-Kutta Prince-Dormand 8(9), embedded error estimate) and the standard
 * "y" step-size control, |err_i| <= tol + tol |y_i|.
 *
 * The driver is applied from one output time to the next, so the outputs are
 * the integrator's own states, not interpolants.  The driver (and its step
 * history) is allocated once per call; the rhs failure flag lets a failing
 * user function be told apart from GSL refusing to continue.  Nothing here
 * depends on radcol's transcription, so a reference built on it is an
 * independent check of the collocation.
 */
#include "radcol/ode_reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

/* At most this many steps between two consecutive output times. */
#define RC_ODE_MAX_STEPS 10000000

typedef struct ode_ctx {
  rc_ode_rhs_fn rhs;
  void *user;
  int failed; /* rhs returned nonzero */
  double t_failed;
} ode_ctx;

static int gsl_rhs(double t, const double y[], double dydt[], void *params) {
  ode_ctx *c = params;
  if (c->rhs(t, y, dydt, c->user) != 0) {
    c->failed = 1;
    c->t_failed = t;
    return GSL_EBADFUNC;
  }
  return GSL_SUCCESS;
}

rc_err rc_ode_reference(int n, rc_ode_rhs_fn rhs, void *ctx, double t0,
                        const double *y0, int nt, const double *t, double *out,
                        double tol, rc_error *err) {
  if (n <= 0 || !rhs || !y0 || nt < 0 || (nt > 0 && (!t || !out)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_ode_reference: dimension %d, %d output times: "
                        "expected n > 0, nt >= 0 and non-NULL rhs, y0, t, out",
                        n, nt);
  if (!(tol > 0.0 && isfinite(tol)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_ode_reference: tolerance %g: expected a finite "
                        "positive number",
                        tol);
  if (!isfinite(t0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_ode_reference: t0 = %g: expected a finite time",
                        t0);
  for (int i = 0; i < nt; ++i)
    if (!isfinite(t[i]) || t[i] < (i ? t[i - 1] : t0))
      return rc_error_set(err, RC_ERR_INPUT,
                          "rc_ode_reference: output time t[%d] = %.17g: "
                          "expected finite, >= t0 = %.17g and ascending",
                          i, t[i], t0);
  for (int j = 0; j < n; ++j)
    if (!isfinite(y0[j]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "rc_ode_reference: y0[%d] = %g: expected finite", j,
                          y0[j]);
  if (nt == 0)
    return RC_OK;

  double *y = malloc(sizeof *y * (size_t)n);
  if (!y)
    return rc_error_set(err, RC_ERR_NOMEM,
                        "rc_ode_reference: out of memory for %d states", n);
  memcpy(y, y0, sizeof *y * (size_t)n);

  ode_ctx c = {rhs, ctx, 0, 0.0};
  gsl_odeiv2_system sys = {gsl_rhs, NULL, (size_t)n, &c};
  const double span = t[nt - 1] - t0;
  const double hstart = span > 0.0 ? fmin(1e-3, 1e-3 * span) : 1e-6;

  gsl_error_handler_t *old_handler = gsl_set_error_handler_off();
  rc_err rc = RC_OK;
  gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(
      &sys, gsl_odeiv2_step_rk8pd, hstart, tol, tol);
  if (!d) {
    rc = rc_error_set(err, RC_ERR_NOMEM,
                      "rc_ode_reference: GSL could not allocate the rk8pd "
                      "driver for %d states",
                      n);
  } else {
    gsl_odeiv2_driver_set_nmax(d, RC_ODE_MAX_STEPS);
    double tc = t0;
    for (int i = 0; i < nt && rc == RC_OK; ++i) {
      if (t[i] > tc) {
        int status = gsl_odeiv2_driver_apply(d, &tc, t[i], y);
        if (c.failed)
          rc = rc_error_set(err, RC_ERR_EVAL,
                            "rc_ode_reference: the right-hand side failed at "
                            "t = %.17g",
                            c.t_failed);
        else if (status != GSL_SUCCESS) /* the ODE as given, not radcol */
          rc = rc_error_set(err, RC_ERR_INPUT,
                            "the ODE cannot be integrated to tolerance %g "
                            "(its data make it too stiff or too fast): GSL "
                            "rk8pd stopped at t = %.17g before reaching t = "
                            "%.17g: %s",
                            tol, tc, t[i], gsl_strerror(status));
        tc = t[i];
      }
      memcpy(out + (size_t)i * (size_t)n, y, sizeof *y * (size_t)n);
    }
    gsl_odeiv2_driver_free(d);
  }
  gsl_set_error_handler(old_handler);
  free(y);
  return rc;
}
