/*
 * radcol/params.h - model parameter values with owned storage, parsed from
 * "NAME=VALUE" assignments (the CLI's --set) against a model's rc_param_def
 * list.
 *
 * Lifetime: rc_params_init_defaults allocates the arrays behind an
 * rc_param_values (real, text copies, is_set flags) and fills them with the
 * model's defaults; rc_params_set overwrites one entry; rc_params_free frees
 * everything and zeroes the struct.  A value set twice keeps the last one.
 * Real values are always finite: NaN, infinities, empty strings, trailing
 * characters and out-of-range numbers are refused with a message that names
 * the assignment and what was expected.
 */
#ifndef RADCOL_PARAMS_H
#define RADCOL_PARAMS_H

#include <stddef.h>
#include <stdio.h>

#include "radcol/errors.h"
#include "radcol/limits.h" /* RC_REAL_MAX_ABS, here since 0.1 */
#include "radcol/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Allocate pv for model's parameters, filled with defaults (is_set all 0). */
rc_err rc_params_init_defaults(const rc_model *model, rc_param_values *pv,
                               rc_error *err);

/* Apply one "NAME=VALUE" assignment (copied).  Errors (RC_ERR_INPUT), e.g.
 *   foo=1: pendulum has no parameter 'foo'
 *   g=abc: expected a finite number for g ...
 * leave pv unchanged. */
rc_err rc_params_set(const rc_model *model, rc_param_values *pv,
                     const char *assignment, rc_error *err);

/* Set real parameter number index (0 <= index < model->nparams) to a finite
 * value with |value| <= RC_REAL_MAX_ABS and mark it set.  Errors leave pv
 * unchanged. */
rc_err rc_params_set_real(const rc_model *model, rc_param_values *pv, int index,
                          double value, rc_error *err);

/* Attach the bytes of file parameter number index (an RC_PARAM_FILE of
 * model, at most RC_FILE_PARAM_MAX bytes, copied): a problem built from pv
 * then reads them instead of the named file (a result file's copy,
 * rc_read_param_files).  rc_params_set of that parameter drops them. */
rc_err rc_params_set_file_data(const rc_model *model, rc_param_values *pv,
                               int index, const void *data, size_t size,
                               rc_error *err);

/* Open file parameter number index of pv for reading: its attached bytes
 * when there are any, else the named file through rc_input_open (a regular
 * file only: a FIFO or device is refused without blocking, radcol/input.h).
 * what names the file in messages ("crane: path file").  NULL with err
 * filled on failure (also an empty name); close with fclose. */
FILE *rc_param_open_file(const rc_model *model, const rc_param_values *pv,
                         int index, const char *what, rc_error *err);

/* Build formulation `formulation` of model with pv and validate it
 * (rc_problem_validate).  The final time: tf = NAN leaves it to the model.
 * Otherwise the engine owns the horizon when the model has no parameter
 * named "tf": it sets pb->tf = tf after create (tf > t0 expected; with a
 * free final time this is the starting value and must lie in [tf_lo,
 * tf_hi]), so such a model must read the horizon from pb->tf in its
 * callbacks, not from a copy made at create.  A model with a parameter
 * named "tf" receives the horizon as that parameter (set it in pv; tf is
 * then ignored here), so data it derives from tf at create stays right.
 * On failure *pb is NULL and err names the bad value. */
rc_err rc_model_create(const rc_model *model, int formulation,
                       const rc_param_values *pv, double tf, rc_problem **pb,
                       rc_error *err);

/* A deep copy of src (values, set flags, text and file bytes) for model into
 * *dst (free with rc_params_free).  On failure *dst is zeroed. */
rc_err rc_params_copy(const rc_model *model, const rc_param_values *src,
                      rc_param_values *dst, rc_error *err);

/* Free what rc_params_init_defaults allocated; zeroes pv (safe on zeroed). */
void rc_params_free(rc_param_values *pv);

#ifdef __cplusplus
}
#endif
#endif
