/*
 * problem.c - generic services on an rc_problem: variable kinds, freeing, and
 * validation of what a model or plugin built (dims, pattern ranges, lower
 * triangles, duplicates, bounds).  Validation runs once per problem, before
 * any transcription, so the engine may trust the patterns afterwards.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/limits.h"
#include "radcol/mesh.h"
#include "radcol/problem.h"

rc_var_kind rc_problem_var_kind(const rc_problem *pb, int i) {
  if (i < pb->nx)
    return RC_VAR_DIFFERENTIAL;
  if (i < pb->nx + pb->ny)
    return RC_VAR_ALGEBRAIC;
  if (i < pb->nx + pb->ny + pb->nu)
    return RC_VAR_CONTROL;
  return RC_VAR_PARAMETER;
}

const char *rc_var_kind_name(rc_var_kind kind) {
  switch (kind) {
  case RC_VAR_DIFFERENTIAL:
    return "differential";
  case RC_VAR_ALGEBRAIC:
    return "algebraic";
  case RC_VAR_CONTROL:
    return "control";
  case RC_VAR_PARAMETER:
    return "parameter";
  }
  return "?";
}

void rc_problem_free(rc_problem **pb) {
  if (!pb || !*pb)
    return;
  if ((*pb)->destroy)
    (*pb)->destroy(*pb);
  *pb = NULL;
}

static int cmp_pair(const void *a, const void *b) {
  const long long *x = a, *y = b;
  return (*x > *y) - (*x < *y);
}

/* Ranges, optional lower triangle, and no duplicate (row, col). */
static rc_err validate_pattern(const rc_problem *pb, const char *what,
                               const rc_pattern *p, int nrow, int ncol,
                               int lower, rc_error *err) {
  if (p->nnz < 0 || (p->nnz > 0 && (!p->row || !p->col)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: %s pattern has nnz %d without arrays",
                        pb->model, pb->formulation, what, p->nnz);
  if (p->nnz == 0)
    return RC_OK;
  long long *key = malloc(sizeof *key * (size_t)p->nnz);
  if (!key)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory checking %s", what);
  rc_err rc = RC_OK;
  for (int e = 0; e < p->nnz && rc == RC_OK; ++e) {
    int r = p->row[e], c = p->col[e];
    if (r < 0 || r >= nrow || c < 0 || c >= ncol)
      rc = rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: %s pattern entry %d is (%d, %d): expected row "
                        "in 0..%d and column in 0..%d",
                        pb->model, pb->formulation, what, e, r, c, nrow - 1,
                        ncol - 1);
    else if (lower && r < c)
      rc = rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: %s pattern entry %d is (%d, %d): expected the "
                        "lower triangle (row >= col)",
                        pb->model, pb->formulation, what, e, r, c);
    key[e] = (long long)r * ncol + c;
  }
  if (rc == RC_OK) {
    qsort(key, (size_t)p->nnz, sizeof *key, cmp_pair);
    for (int e = 1; e < p->nnz; ++e)
      if (key[e] == key[e - 1]) {
        rc = rc_error_set(
            err, RC_ERR_INPUT, "%s/%s: %s pattern repeats entry (%lld, %lld)",
            pb->model, pb->formulation, what, key[e] / ncol, key[e] % ncol);
        break;
      }
  }
  free(key);
  return rc;
}

static rc_err validate_block(const rc_problem *pb, const char *what,
                             const rc_block *b, int nout, int nin,
                             int need_hessian, rc_error *err) {
  char name[64];
  if (b->n_out != nout)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: %s block has %d outputs, expected %d",
                        pb->model, pb->formulation, what, b->n_out, nout);
  if (nout == 0 && (b->jac.nnz != 0 || b->hes.nnz != 0))
    /* found by fuzz/fuzz_plugin.c: the engine walks these patterns even
     * for a block without outputs (an out-of-bounds read) */
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: %s block has no outputs but %d Jacobian and "
                        "%d Hessian pattern entries: expected none",
                        pb->model, pb->formulation, what, b->jac.nnz,
                        b->hes.nnz);
  if (nout == 0)
    return RC_OK;
  if (!b->eval || !b->jacobian || (need_hessian && !b->hessian))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: %s block lacks its %s function (a block with "
                        "outputs needs value, Jacobian and Hessian)",
                        pb->model, pb->formulation, what,
                        !b->eval       ? "value"
                        : !b->jacobian ? "Jacobian"
                                       : "Hessian");
  snprintf(name, sizeof name, "%s Jacobian", what);
  rc_err rc = validate_pattern(pb, name, &b->jac, nout, nin, 0, err);
  if (rc != RC_OK)
    return rc;
  snprintf(name, sizeof name, "%s Hessian", what);
  return validate_pattern(pb, name, &b->hes, nin, nin, 1, err);
}

static rc_err validate_bounds(const rc_problem *pb, const char *what, int n,
                              const double *lo, const double *hi,
                              rc_error *err) {
  if (n == 0)
    return RC_OK;
  if (!lo || !hi)
    return rc_error_set(err, RC_ERR_INPUT, "%s/%s: %s bounds missing",
                        pb->model, pb->formulation, what);
  for (int i = 0; i < n; ++i)
    if (isnan(lo[i]) || isnan(hi[i]) || lo[i] > hi[i])
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: %s bound %d is [%g, %g]: expected lo <= hi",
                          pb->model, pb->formulation, what, i, lo[i], hi[i]);
  return RC_OK;
}

/* A non-empty name (model, formulation, variable, output, invariant). */
static int named(const char *s) {
  return s && s[0];
}

/* Every entry of a list of n names non-NULL and non-empty: -1, or the first
 * bad index. */
static int first_unnamed(const char *const *names, int n) {
  for (int i = 0; i < n; ++i)
    if (!named(names[i]))
      return i;
  return -1;
}

rc_err rc_problem_validate(const rc_problem *pb, rc_error *err) {
  if (!pb)
    return rc_error_set(err, RC_ERR_INPUT, "problem is NULL");
  /* Names first: every later message names the problem by them. */
  if (!named(pb->model) || !named(pb->formulation))
    return rc_error_set(err, RC_ERR_INPUT,
                        "problem %s/%s: its %s name (rc_problem.%s) is NULL "
                        "or empty: expected a name",
                        named(pb->model) ? pb->model : "?",
                        named(pb->formulation) ? pb->formulation : "?",
                        named(pb->model) ? "formulation" : "model",
                        named(pb->model) ? "formulation" : "model");
  /* Each dimension bounded before any is summed (rc_problem_nw & co.). */
  const struct {
    const char *name;
    int v;
  } dims[] = {{"nx", pb->nx},     {"ny", pb->ny},    {"nu", pb->nu},
              {"np", pb->np},     {"nc", pb->nc},    {"nb", pb->nb},
              {"ninv", pb->ninv}, {"nout", pb->nout}};
  for (size_t i = 0; i < sizeof dims / sizeof dims[0]; ++i)
    if (dims[i].v < 0 || dims[i].v > RC_DIM_MAX)
      return rc_error_set(err, RC_ERR_INPUT, "%s/%s: %s = %d: expected 0..%d",
                          pb->model, pb->formulation, dims[i].name, dims[i].v,
                          RC_DIM_MAX);
  const int nw = rc_problem_nw(pb);
  if (nw == 0) /* found by fuzz/fuzz_plugin.c: nothing to transcribe */
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: no variables (nx = ny = nu = np = 0): "
                        "expected at least one",
                        pb->model, pb->formulation);
  if (!pb->var_names)
    return rc_error_set(err, RC_ERR_INPUT, "%s/%s: no variable names",
                        pb->model, pb->formulation);
  int bad = first_unnamed(pb->var_names, nw);
  if (bad >= 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: variable %d has no name (NULL or empty): "
                        "expected a name",
                        pb->model, pb->formulation, bad);
  if (!(isfinite(pb->t0) && isfinite(pb->tf) && pb->tf > pb->t0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: horizon [%g, %g]: expected finite t0 < tf",
                        pb->model, pb->formulation, pb->t0, pb->tf);
  if (pb->free_tf && !pb->autonomous)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: free final time needs an autonomous problem",
                        pb->model, pb->formulation);
  if (pb->free_tf && !(pb->tf_lo > pb->t0 && pb->tf_lo <= pb->tf_hi))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: final-time bounds [%g, %g]: expected t0 < lo "
                        "<= hi",
                        pb->model, pb->formulation, pb->tf_lo, pb->tf_hi);
  if (!pb->x0 && pb->nx > 0)
    return rc_error_set(err, RC_ERR_INPUT, "%s/%s: no initial state x0",
                        pb->model, pb->formulation);
  if (pb->fix_xf && !pb->xf)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: fix_xf given without xf values", pb->model,
                        pb->formulation);
  if (pb->maximize != 0 && pb->maximize != 1)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: maximize = %d: expected 0 (minimise) or 1 "
                        "(maximise)",
                        pb->model, pb->formulation, pb->maximize);
  if (pb->maximize && !pb->has_lagrange && !pb->has_mayer)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: maximize = 1 but the problem has no objective "
                        "(has_lagrange = has_mayer = 0): expected phi, L or "
                        "both",
                        pb->model, pb->formulation);
  if (pb->sampled_reference && !pb->reference)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: sampled formulation without a reference",
                        pb->model, pb->formulation);
  rc_err rc;
  if ((rc = validate_bounds(pb, "variable", nw, pb->w_lo, pb->w_hi, err)) ||
      (rc = validate_bounds(pb, "path constraint", pb->nc, pb->c_lo, pb->c_hi,
                            err)) ||
      (rc = validate_bounds(pb, "boundary constraint", pb->nb, pb->b_lo,
                            pb->b_hi, err)))
    return rc;
  if ((rc = validate_block(pb, "point", &pb->point, rc_problem_nF(pb), nw, 1,
                           err)) ||
      (rc = validate_block(pb, "boundary", &pb->boundary, rc_problem_nB(pb),
                           rc_problem_nz(pb), 1, err)))
    return rc;
  if (pb->ninv > 0) {
    if (!pb->inv_names || first_unnamed(pb->inv_names, pb->ninv) >= 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: invariants without names (NULL or empty)",
                          pb->model, pb->formulation);
    /* The Hessian too: consistent initialisation (init.c) solves on the
     * invariants, and check must not pass a block it cannot check. */
    if ((rc = validate_block(pb, "invariants", &pb->invariants, pb->ninv, nw, 1,
                             err)))
      return rc;
  }
  if (pb->nout > 0 && (!pb->outputs || !pb->out_names ||
                       first_unnamed(pb->out_names, pb->nout) >= 0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: outputs without a function or names", pb->model,
                        pb->formulation);
  if (pb->default_mesh_n != 0 || pb->default_mesh_frac ||
      pb->default_mesh_stages) { /* a suggested mesh (ABI 2) */
    rc_mesh m;
    memset(&m, 0, sizeof m);
    rc_error e2;
    rc_error_clear(&e2);
    if (rc_mesh_suggested(pb, 0, 1, &m, &e2) != RC_OK)
      return rc_error_set(err, RC_ERR_INPUT, "%s/%s: suggested mesh: %s",
                          pb->model, pb->formulation, e2.message);
    rc_mesh_free(&m);
  }
  if (pb->time_derivs) { /* ascending indices in range (ABI 3) */
    const int nF = rc_problem_nF(pb);
    for (int r = 0; r < pb->n_time_rows; ++r)
      if (!pb->time_rows || pb->time_rows[r] < 0 || pb->time_rows[r] >= nF ||
          (r > 0 && pb->time_rows[r] <= pb->time_rows[r - 1]))
        return rc_error_set(err, RC_ERR_INPUT,
                            "%s/%s: time_rows[%d]: expected ascending "
                            "outputs of F in 0..%d",
                            pb->model, pb->formulation, r, nF - 1);
    for (int c = 0; c < pb->n_time_cols; ++c)
      if (!pb->time_cols || pb->time_cols[c] < 0 || pb->time_cols[c] >= nw ||
          (c > 0 && pb->time_cols[c] <= pb->time_cols[c - 1]))
        return rc_error_set(err, RC_ERR_INPUT,
                            "%s/%s: time_cols[%d]: expected ascending "
                            "entries of w in 0..%d",
                            pb->model, pb->formulation, c, nw - 1);
    if (pb->n_time_rows < 0 || pb->n_time_cols < 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: n_time_rows %d, n_time_cols %d: expected "
                          ">= 0",
                          pb->model, pb->formulation, pb->n_time_rows,
                          pb->n_time_cols);
  }
  return RC_OK;
}

/* ---- the problem's suggested mesh ---- */

rc_err rc_mesh_suggested(const rc_problem *pb, int stages, int fallback_stages,
                         rc_mesh *mesh, rc_error *err) {
  const int n = pb->default_mesh_n;
  if (n < 1 || !pb->default_mesh_frac)
    return rc_error_set(err, RC_ERR_INPUT,
                        "suggested mesh of %d elements%s: expected at least 1 "
                        "element and its breakpoints",
                        n, pb->default_mesh_frac ? "" : " without breakpoints");
  if (n > RC_MESH_MAX_ELEMENTS)
    return rc_error_set(err, RC_ERR_INPUT,
                        "suggested mesh of %d elements: expected at most %d", n,
                        RC_MESH_MAX_ELEMENTS);
  int *st = malloc(sizeof *st * (size_t)n);
  if (!st)
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory for a mesh of %d elements", n);
  const int s_all = stages > 0               ? stages
                    : pb->default_stages > 0 ? pb->default_stages
                                             : fallback_stages;
  for (int k = 0; k < n; ++k)
    st[k] = stages > 0 || !pb->default_mesh_stages ? s_all
                                                   : pb->default_mesh_stages[k];
  rc_err rc = rc_mesh_from_arrays(n, pb->default_mesh_frac, st, mesh, err);
  free(st);
  return rc;
}

/* ---- looking models, formulations and parameters up by name ---- */

const rc_model *rc_model_list_find(const rc_model *const *models,
                                   const char *name) {
  if (!models || !name)
    return NULL;
  for (const rc_model *const *m = models; *m; ++m)
    if (strcmp((*m)->name, name) == 0)
      return *m;
  return NULL;
}

int rc_model_find_formulation(const rc_model *model, const char *name) {
  if (!model || !name)
    return -1;
  for (int i = 0; i < model->nformulations; ++i)
    if (strcmp(model->formulations[i].name, name) == 0)
      return i;
  return -1;
}

int rc_model_param_index(const rc_model *model, const char *name) {
  if (!model || !name)
    return -1;
  for (int i = 0; i < model->nparams; ++i)
    if (strcmp(model->params[i].name, name) == 0)
      return i;
  return -1;
}
