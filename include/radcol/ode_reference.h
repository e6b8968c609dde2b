/*
 * radcol/ode_reference.h - part of the problem-side kit (with radcol/kit.h):
 * high-accuracy reference integration of an explicit ODE y' = F(t, y) by GSL
 * odeiv2 (rk8pd, Prince-Dormand 8(9)), for problems to build reference
 * solutions independent of radcol's transcription (SPEC 4: references at
 * tolerance <= 1e-13).
 *
 * Public: built-in problems and plugins call it alike.  The function lives in
 * the radcol library; a plugin (compiled against the headers only, linking
 * nothing) resolves it from the radcol executable when it is loaded, as it
 * resolves rc_error_set (radcol/plugin.h).  No GSL type appears here.
 */
#ifndef RADCOL_ODE_REFERENCE_H
#define RADCOL_ODE_REFERENCE_H

#include "radcol/errors.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Right-hand side dy = F(t, y) of an n-dimensional system: returns 0 on
 * success, nonzero when F cannot be evaluated at (t, y). */
typedef int (*rc_ode_rhs_fn)(double t, const double *y, double *dy, void *ctx);

/* Integrates y' = rhs(t, y), y(t0) = y0 (n values, copied) and writes the
 * state at the ascending times t[0..nt-1] (each >= t0; equal times allowed)
 * row-major into out (nt x n).  Step-size control: |local error of y_i| <=
 * tol + tol |y_i| (gsl_odeiv2_driver_alloc_y_new with epsabs = epsrel = tol).
 * Returns RC_OK, or RC_ERR_INPUT (bad arguments, or GSL gave up: the ODE
 * with its data cannot be integrated to tol within 10^7 steps per output
 * interval, e.g. a mass of 1e-10 or an angle of 1e150), RC_ERR_NOMEM or
 * RC_ERR_EVAL (rhs failed) with err filled; out is then
 * only partly written.  GSL's error handler is switched off for the duration
 * of the call and restored afterwards (not thread-safe). */
rc_err rc_ode_reference(int n, rc_ode_rhs_fn rhs, void *ctx, double t0,
                        const double *y0, int nt, const double *t, double *out,
                        double tol, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
