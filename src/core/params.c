/*
 * params.c - model parameter values: defaults, "NAME=VALUE" assignments and
 * strict number parsing (radcol/params.h).
 *
 * Storage: rc_param_values exposes const views; this file owns the arrays
 * behind them (real[n], text[n] with heap copies for text parameters,
 * is_set[n], file_data[n] and file_size[n] for the bytes of file
 * parameters) and is the only place that writes or frees them.
 * Invariant: every real entry of an initialised rc_param_values is finite
 * unless the model's own default is not; text entries are NULL or a heap
 * copy owned by pv.
 */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/numbers.h"
#include "radcol/input.h"
#include "radcol/params.h"

/* Mutable views of the arrays this file owns (the struct shows them const). */
static double *real_of(rc_param_values *pv) {
  return (double *)pv->real;
}
static char **text_of(rc_param_values *pv) {
  return (char **)pv->text;
}
static int *set_of(rc_param_values *pv) {
  return (int *)pv->is_set;
}
static char **data_of(rc_param_values *pv) {
  return (char **)pv->file_data;
}
static size_t *size_of(rc_param_values *pv) {
  return (size_t *)pv->file_size;
}

/* Drop the bytes attached to file parameter i. */
static void drop_file_data(rc_param_values *pv, int i) {
  if (pv->file_data) {
    free(data_of(pv)[i]);
    data_of(pv)[i] = NULL;
    size_of(pv)[i] = 0;
  }
}

static char *dup_text(const char *s) {
  size_t len = strlen(s) + 1;
  char *c = malloc(len);
  if (c)
    memcpy(c, s, len);
  return c;
}

void rc_params_free(rc_param_values *pv) {
  if (!pv)
    return;
  if (pv->text)
    for (int i = 0; i < pv->n; ++i)
      free(text_of(pv)[i]);
  for (int i = 0; pv->file_data && i < pv->n; ++i)
    free(data_of(pv)[i]);
  free(real_of(pv));
  free(text_of(pv));
  free(set_of(pv));
  free(data_of(pv));
  free(size_of(pv));
  memset(pv, 0, sizeof *pv);
}

rc_err rc_params_init_defaults(const rc_model *model, rc_param_values *pv,
                               rc_error *err) {
  memset(pv, 0, sizeof *pv);
  if (!model || model->nparams < 0 || (model->nparams > 0 && !model->params))
    return rc_error_set(err, RC_ERR_INPUT,
                        "parameters: expected a model with a parameter list");
  int n = model->nparams;
  size_t m = (size_t)(n > 0 ? n : 1);
  double *real = calloc(m, sizeof *real);
  char **text = calloc(m, sizeof *text);
  int *is_set = calloc(m, sizeof *is_set);
  char **data = calloc(m, sizeof *data);
  size_t *size = calloc(m, sizeof *size);
  pv->n = n;
  pv->real = real;
  pv->text = (const char *const *)text;
  pv->is_set = is_set;
  pv->file_data = (const char *const *)data;
  pv->file_size = size;
  if (!real || !text || !is_set || !data || !size) {
    rc_params_free(pv);
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory for %d parameters of %s", n,
                        model->name);
  }
  for (int i = 0; i < n; ++i) {
    const rc_param_def *d = &model->params[i];
    if (d->type == RC_PARAM_REAL) {
      real[i] = d->default_real;
    } else if (d->default_text) {
      text[i] = dup_text(d->default_text);
      if (!text[i]) {
        rc_params_free(pv);
        return rc_error_set(err, RC_ERR_NOMEM,
                            "out of memory for parameter %s of %s", d->name,
                            model->name);
      }
    }
  }
  return RC_OK;
}

rc_err rc_params_copy(const rc_model *model, const rc_param_values *src,
                      rc_param_values *dst, rc_error *err) {
  memset(dst, 0, sizeof *dst);
  if (!src || !model || src->n != model->nparams)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_params_copy: expected values of the model's %d "
                        "parameters",
                        model ? model->nparams : 0);
  rc_err rc = rc_params_init_defaults(model, dst, err);
  for (int i = 0; rc == RC_OK && i < src->n; ++i) {
    real_of(dst)[i] = src->real[i];
    set_of(dst)[i] = src->is_set[i];
    if (src->text && src->text[i]) {
      free(text_of(dst)[i]);
      if (!(text_of(dst)[i] = dup_text(src->text[i])))
        rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory for parameter %s",
                          model->params[i].name);
    }
    if (rc == RC_OK && src->file_data && src->file_data[i])
      rc = rc_params_set_file_data(model, dst, i, src->file_data[i],
                                   src->file_size[i], err);
  }
  if (rc != RC_OK)
    rc_params_free(dst);
  return rc;
}

rc_err rc_params_set(const rc_model *model, rc_param_values *pv,
                     const char *assignment, rc_error *err) {
  if (!assignment)
    return rc_error_set(err, RC_ERR_INPUT,
                        "NULL parameter assignment: expected NAME=VALUE");
  const char *eq = strchr(assignment, '=');
  if (!eq || eq == assignment)
    return rc_error_set(err, RC_ERR_INPUT, "%s: expected NAME=VALUE",
                        assignment);
  char name[128];
  size_t len = (size_t)(eq - assignment);
  if (len >= sizeof name)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%.40s...: parameter name longer than %d "
                        "characters",
                        assignment, (int)sizeof name - 1);
  memcpy(name, assignment, len);
  name[len] = '\0';
  const char *value = eq + 1;
  int i = rc_model_param_index(model, name);
  if (i < 0)
    return rc_error_set(err, RC_ERR_INPUT, "%s: %s has no parameter '%s'",
                        assignment, model->name, name);
  if (i >= pv->n)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: parameter values hold %d entries, "
                        "expected %d for %s",
                        assignment, pv->n, model->nparams, model->name);
  if (model->params[i].type == RC_PARAM_REAL) {
    double v;
    if (!rc_parse_real(value, &v))
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s: expected a finite number for %s "
                          "(decimal, magnitude <= %g)",
                          assignment, name, RC_REAL_MAX_ABS);
    real_of(pv)[i] = v;
  } else {
    char *c = dup_text(value);
    if (!c)
      return rc_error_set(err, RC_ERR_NOMEM, "%s: out of memory", assignment);
    free(text_of(pv)[i]);
    text_of(pv)[i] = c;
    drop_file_data(pv, i); /* a name given anew is read anew */
  }
  set_of(pv)[i] = 1;
  return RC_OK;
}

/* Index checks shared by the file-parameter functions. */
static rc_err file_param(const rc_model *model, const rc_param_values *pv,
                         int index, rc_error *err) {
  if (!model || !pv || index < 0 || index >= model->nparams || index >= pv->n)
    return rc_error_set(err, RC_ERR_INPUT,
                        "file parameter index %d: expected 0 <= index < %d",
                        index, model ? model->nparams : 0);
  if (model->params[index].type != RC_PARAM_FILE)
    return rc_error_set(err, RC_ERR_INPUT,
                        "parameter %s of %s: expected a file parameter",
                        model->params[index].name, model->name);
  return RC_OK;
}

rc_err rc_params_set_file_data(const rc_model *model, rc_param_values *pv,
                               int index, const void *data, size_t size,
                               rc_error *err) {
  rc_err rc = file_param(model, pv, index, err);
  if (rc != RC_OK)
    return rc;
  if (!pv->file_data || (!data && size > 0) || size > RC_FILE_PARAM_MAX)
    return rc_error_set(err, RC_ERR_INPUT,
                        "parameter %s: %zu bytes of file data: expected at "
                        "most %zu (and parameter values from "
                        "rc_params_init_defaults)",
                        model->params[index].name, size, RC_FILE_PARAM_MAX);
  char *copy = malloc(size > 0 ? size : 1);
  if (!copy)
    return rc_error_set(err, RC_ERR_NOMEM,
                        "parameter %s: out of memory for %zu bytes",
                        model->params[index].name, size);
  if (size > 0)
    memcpy(copy, data, size);
  drop_file_data(pv, index);
  data_of(pv)[index] = copy;
  size_of(pv)[index] = size;
  return RC_OK;
}

FILE *rc_param_open_file(const rc_model *model, const rc_param_values *pv,
                         int index, const char *what, rc_error *err) {
  if (file_param(model, pv, index, err) != RC_OK)
    return NULL;
  const char *name = pv->text ? pv->text[index] : NULL;
  if (pv->file_data && pv->file_data[index]) {
    /* An empty file reads as one blank line (fmemopen needs a byte). */
    static char blank[] = "\n";
    FILE *f = pv->file_size[index] > 0 ? fmemopen((void *)pv->file_data[index],
                                                  pv->file_size[index], "r")
                                       : fmemopen(blank, 1, "r");
    if (!f)
      rc_error_set(err, RC_ERR_NOMEM, "%s%s%s: out of memory", what ? what : "",
                   what ? " " : "", name ? name : "");
    return f;
  }
  return rc_input_open(name, what, err);
}

rc_err rc_params_set_real(const rc_model *model, rc_param_values *pv, int index,
                          double value, rc_error *err) {
  if (!model || !pv || index < 0 || index >= model->nparams || index >= pv->n)
    return rc_error_set(
        err, RC_ERR_INPUT, "parameter index %d: expected 0 <= index < %d",
        index,
        model && pv ? (model->nparams < pv->n ? model->nparams : pv->n) : 0);
  const char *name = model->params[index].name;
  if (model->params[index].type != RC_PARAM_REAL)
    return rc_error_set(err, RC_ERR_INPUT,
                        "parameter %s of %s: expected a real parameter", name,
                        model->name);
  if (!isfinite(value) || fabs(value) > RC_REAL_MAX_ABS)
    return rc_error_set(err, RC_ERR_INPUT,
                        "parameter %s = %g: expected a finite number "
                        "(magnitude <= %g)",
                        name, value, RC_REAL_MAX_ABS);
  real_of(pv)[index] = value;
  set_of(pv)[index] = 1;
  return RC_OK;
}

rc_err rc_model_create(const rc_model *model, int formulation,
                       const rc_param_values *pv, double tf, rc_problem **pb,
                       rc_error *err) {
  *pb = NULL;
  if (!model || !pv)
    return rc_error_set(err, RC_ERR_INPUT, "rc_model_create: NULL %s",
                        model ? "parameter values" : "model");
  if (formulation < 0 || formulation >= model->nformulations)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: formulation %d: expected 0 <= formulation < %d",
                        model->name, formulation, model->nformulations);
  if (!model->create)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: the model has no create function", model->name);
  const int own_tf = rc_model_param_index(model, "tf") >= 0;
  if (!isnan(tf) && !own_tf && !isfinite(tf))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: final time %g: expected a finite number",
                        model->name, tf);
  rc_err rc = model->create(model, formulation, pv, pb, err);
  if (rc == RC_OK && !*pb)
    rc = rc_error_set(err, RC_ERR_INTERNAL, "%s/%s: create returned no problem",
                      model->name, model->formulations[formulation].name);
  if (rc == RC_OK && !isnan(tf) && !own_tf) {
    /* The engine owns the horizon of a model without a tf parameter. */
    if (!(tf > (*pb)->t0))
      rc = rc_error_set(
          err, RC_ERR_INPUT, "%s/%s: final time %g: expected tf > t0 = %g",
          model->name, model->formulations[formulation].name, tf, (*pb)->t0);
    else
      (*pb)->tf = tf;
  }
  if (rc == RC_OK)
    rc = rc_problem_validate(*pb, err);
  if (rc != RC_OK)
    rc_problem_free(pb);
  return rc;
}
