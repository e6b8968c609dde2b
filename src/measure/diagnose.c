/*
 * diagnose.c - what a solution is worth: errors against the problem's
 * reference, hidden-constraint residuals, and a per-element defect estimate.
 *
 * Grids.  "nodes" are all the mesh nodes of result.h, node 0 included;
 * "ends" the element ends tau_1..tau_n (every element's last stage; t0 is
 * not an element end here); the dense grid has dense_per_element uniformly
 * spaced points per element (left end included) plus tf (rc_dense_grid,
 * radcol/dense_check.h), evaluated by the dense output of rc_solution_eval.
 *
 * Errors are max |solution - reference| per variable and per derived output,
 * skipping NaN reference entries.  Node 0 counts for every variable: where
 * the formulation does not impose g at t0, y and u at t0 are the element-0
 * polynomial extrapolated (result.h), which is the value the file holds and
 * a user reads, so its error is part of "nodes" (and of "dense", whose first
 * point is t0).  "ends" leaves t0 out for every variable, so it measures the
 * superconvergent element-end values only.  Invariants likewise count node 0.
 *
 * Element defect (Betts and Huffman 1998; Betts, Practical Methods, sec. 4.7):
 * with the dense output x~, y~, u~ on element k,
 *     e_k = max_i  int_{element} |x~_i' - f_i(t, w~)| dt / (1 + max |x_i|)
 * and likewise for |g_i(t, w~)| / (1 + max |y|) (algebraic residual between
 * nodes), by Gauss-Legendre quadrature with s + 3 points.  x~' is the exact
 * derivative of the barycentric interpolant:
 *     p'(t) = sum_i a_i (p(t) - X_i) / (t - t_i) / sum_i a_i,
 *     a_i = w_i / (t - t_i).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collocation/radau.h"
#include "radcol/dense_check.h"
#include "radcol/diagnose.h"

void rc_diagnostics_free(rc_diagnostics *d) {
  if (!d)
    return;
  free(d->err_nodes);
  free(d->err_dense);
  free(d->err_ends);
  free(d->inv_nodes);
  free(d->inv_dense);
  free(d->out_nodes);
  free(d->ref_nodes);
  free(d->t_dense);
  free(d->w_dense);
  free(d->out_dense);
  free(d->ref_dense);
  free(d->inv_dense_t);
  free(d->elem_defect);
  memset(d, 0, sizeof *d);
}

static void *zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

/* Values (nvar) of variables and outputs at one point, for comparison. */
static void point_values(const rc_problem *pb, const double *w,
                         const double *out, double *v) {
  const int nv = pb->nx + pb->ny + pb->nu;
  memcpy(v, w, sizeof *v * (size_t)nv);
  if (pb->nout > 0)
    memcpy(v + nv, out, sizeof *v * (size_t)pb->nout);
}

static void track_max(double *m, double e) {
  if (isnan(*m) || e > *m)
    *m = e;
}

/* Betts defect of element k; gx, gw the s + 3 Gauss-Legendre nodes and
 * weights on [0, 1]. */
static int element_defect(const rc_problem *pb, const rc_solution *sol, int k,
                          const double *xscale, double yscale, double *work,
                          const double *gx, const double *gw, double *out) {
  const int nx = pb->nx, nw = rc_problem_nw(pb), nF = rc_problem_nF(pb);
  const int s = sol->mesh.stages[k];
  /* node indices of the element's s + 1 state nodes */
  const int off = rc_solution_element_offset(sol, k) + 1;
  const int n0 = k == 0 ? 0 : off - 1;
  const double ta = sol->t[n0], tb = sol->t[off + s - 1];
  double tn[RC_RADAU_MAX_STAGES + 1];
  tn[0] = ta;
  for (int j = 0; j < s; ++j)
    tn[j + 1] = sol->t[off + j];
  double bw[RC_RADAU_MAX_STAGES + 1];
  rc_bary_weights(s + 1, tn, bw);
  const int m = s + 3;
  double *w = work, *F = work + nw, *dx = work + nw + nF;
  double *acc = dx + nx; /* nx + ny accumulators */
  memset(acc, 0, sizeof *acc * (size_t)(nx + pb->ny));
  for (int q = 0; q < m; ++q) {
    const double t = ta + gx[q] * (tb - ta);
    if (rc_solution_eval(sol, t, w, NULL) != RC_OK)
      return 1;
    const int st = pb->point.eval(pb, t, w, F);
    if (st != 0)
      return st;
    /* derivative of the state interpolant */
    double A = 0.0;
    for (int i = 0; i < nx; ++i)
      dx[i] = 0.0;
    for (int l = 0; l <= s; ++l) {
      const double a = bw[l] / (t - tn[l]);
      A += a;
      const double *Xl = sol->w + (size_t)(l == 0 ? n0 : off + l - 1) * nw;
      for (int i = 0; i < nx; ++i)
        dx[i] += a * (w[i] - Xl[i]) / (t - tn[l]);
    }
    for (int i = 0; i < nx; ++i)
      acc[i] += gw[q] * (tb - ta) * fabs(dx[i] / A - F[i]);
    for (int i = 0; i < pb->ny; ++i)
      acc[nx + i] += gw[q] * (tb - ta) * fabs(F[nx + i]);
  }
  double e = 0.0;
  for (int i = 0; i < nx; ++i)
    e = fmax(e, acc[i] / xscale[i]);
  for (int i = 0; i < pb->ny; ++i)
    e = fmax(e, acc[nx + i] / yscale);
  *out = e;
  return 0;
}

/* The arrays of d for nn nodes and nd dense points. */
static int diag_alloc(const rc_problem *pb, rc_diagnostics *d) {
  const int nw = rc_problem_nw(pb), nvar = d->nvar, ninv = d->ninv;
  const int nout = pb->nout, nn = d->nnodes, nd = d->ndense, ne = d->nelem;
  d->err_nodes = zalloc((size_t)nvar, sizeof(double));
  d->err_dense = zalloc((size_t)nvar, sizeof(double));
  d->err_ends = zalloc((size_t)nvar, sizeof(double));
  d->inv_nodes = zalloc((size_t)ninv, sizeof(double));
  d->inv_dense = zalloc((size_t)ninv, sizeof(double));
  d->out_nodes = zalloc((size_t)nn * (size_t)nout, sizeof(double));
  d->t_dense = zalloc((size_t)nd, sizeof(double));
  d->w_dense = zalloc((size_t)nd * (size_t)nw, sizeof(double));
  d->out_dense = zalloc((size_t)nd * (size_t)nout, sizeof(double));
  d->inv_dense_t = zalloc((size_t)nd * (size_t)ninv, sizeof(double));
  d->elem_defect = zalloc((size_t)ne, sizeof(double));
  if (d->has_reference) {
    d->ref_nodes = zalloc((size_t)nn * (size_t)nvar, sizeof(double));
    d->ref_dense = zalloc((size_t)nd * (size_t)nvar, sizeof(double));
  }
  return d->err_nodes && d->err_dense && d->err_ends && d->inv_nodes &&
         d->inv_dense && d->out_nodes && d->t_dense && d->w_dense &&
         d->out_dense && d->inv_dense_t && d->elem_defect &&
         (!d->has_reference || (d->ref_nodes && d->ref_dense));
}

/* The dense grid, the solution on it, and the derived outputs at the nodes
 * and on the grid. */
static rc_err dense_and_outputs(const rc_problem *pb, const rc_solution *sol,
                                int dense_per_element, rc_diagnostics *d,
                                rc_error *err) {
  const int nw = rc_problem_nw(pb), nout = pb->nout;
  const int nn = d->nnodes, nd = d->ndense;
  rc_err rc = RC_OK;
  rc_dense_grid(sol, dense_per_element, d->t_dense, NULL);
  for (int q = 0; q < nd && rc == RC_OK; ++q)
    rc = rc_solution_eval(sol, d->t_dense[q], d->w_dense + (size_t)q * nw, err);
  if (rc != RC_OK)
    return rc;
  for (int n = 0; n < nn && nout > 0; ++n)
    if (pb->outputs(pb, sol->t[n], sol->w + (size_t)n * nw,
                    d->out_nodes + (size_t)n * nout) != 0)
      return rc_error_set(err, RC_ERR_EVAL, "%s/%s: outputs failed at t = %g",
                          pb->model, pb->formulation, sol->t[n]);
  for (int q = 0; q < nd && nout > 0; ++q)
    if (pb->outputs(pb, d->t_dense[q], d->w_dense + (size_t)q * nw,
                    d->out_dense + (size_t)q * nout) != 0)
      return rc_error_set(err, RC_ERR_EVAL, "%s/%s: outputs failed at t = %g",
                          pb->model, pb->formulation, d->t_dense[q]);
  return RC_OK;
}

/* Largest errors against the problem's reference at the nodes, at the
 * element ends and on the dense grid (NaN without a reference).  v: nvar
 * scratch. */
static rc_err reference_errors(const rc_problem *pb, const rc_solution *sol,
                               rc_diagnostics *d, double *v, rc_error *err) {
  const int nw = rc_problem_nw(pb), nout = pb->nout, nvar = d->nvar;
  const int nn = d->nnodes, nd = d->ndense;
  int st;
  for (int i = 0; i < nvar; ++i)
    d->err_nodes[i] = d->err_dense[i] = d->err_ends[i] = NAN;
  if (!d->has_reference)
    return RC_OK;
  if ((st = pb->reference(pb, nn, sol->t, d->ref_nodes)) != 0 ||
      (st = pb->reference(pb, nd, d->t_dense, d->ref_dense)) != 0)
    return rc_error_set(err, RC_ERR_EVAL,
                        "%s/%s: the reference failed (status %d)", pb->model,
                        pb->formulation, st);
  int node_in_elem = 0, elem = -1;
  for (int n = 0; n < nn; ++n) {
    /* is node n an element end? */
    int is_end;
    if (n == 0) {
      is_end = 0; /* t0: a node, not an element end */
    } else {
      if (node_in_elem == 0)
        ++elem;
      ++node_in_elem;
      is_end = node_in_elem == sol->mesh.stages[elem];
      if (is_end)
        node_in_elem = 0;
    }
    point_values(pb, sol->w + (size_t)n * nw, d->out_nodes + (size_t)n * nout,
                 v);
    const double *r = d->ref_nodes + (size_t)n * nvar;
    for (int i = 0; i < nvar; ++i) {
      if (isnan(r[i]))
        continue;
      const double e = fabs(v[i] - r[i]);
      track_max(&d->err_nodes[i], e);
      if (is_end)
        track_max(&d->err_ends[i], e);
    }
  }
  for (int q = 0; q < nd; ++q) {
    point_values(pb, d->w_dense + (size_t)q * nw,
                 d->out_dense + (size_t)q * nout, v);
    const double *r = d->ref_dense + (size_t)q * nvar;
    for (int i = 0; i < nvar; ++i)
      if (!isnan(r[i]))
        track_max(&d->err_dense[i], fabs(v[i] - r[i]));
  }
  return RC_OK;
}

/* Largest |h| of the hidden constraints at the nodes and on the dense grid
 * (a failed evaluation is skipped; on the grid it records NaN).  h: ninv
 * scratch. */
static void hidden_constraints(const rc_problem *pb, const rc_solution *sol,
                               rc_diagnostics *d, double *h) {
  const int nw = rc_problem_nw(pb), ninv = d->ninv;
  if (ninv == 0)
    return;
  for (int i = 0; i < ninv; ++i)
    d->inv_nodes[i] = d->inv_dense[i] = 0.0;
  for (int n = 0; n < d->nnodes; ++n) {
    if (pb->invariants.eval(pb, sol->t[n], sol->w + (size_t)n * nw, h) != 0)
      continue;
    for (int i = 0; i < ninv; ++i)
      track_max(&d->inv_nodes[i], fabs(h[i]));
  }
  for (int q = 0; q < d->ndense; ++q) {
    double *hq = d->inv_dense_t + (size_t)q * ninv;
    if (pb->invariants.eval(pb, d->t_dense[q], d->w_dense + (size_t)q * nw,
                            hq) != 0) {
      for (int i = 0; i < ninv; ++i)
        hq[i] = NAN;
      continue;
    }
    for (int i = 0; i < ninv; ++i)
      track_max(&d->inv_dense[i], fabs(hq[i]));
  }
}

/* The defect of every element (element_defect), scaled by 1 + max |x_i|
 * per state and 1 + max |y|.  xscale: nx scratch. */
static rc_err element_defects(const rc_problem *pb, const rc_solution *sol,
                              rc_diagnostics *d, double *xscale,
                              rc_error *err) {
  const int nw = rc_problem_nw(pb), nF = rc_problem_nF(pb);
  double ymax = 0.0;
  for (int i = 0; i < pb->nx; ++i)
    xscale[i] = 0.0;
  for (int n = 0; n < d->nnodes; ++n) {
    const double *w = sol->w + (size_t)n * nw;
    for (int i = 0; i < pb->nx; ++i)
      xscale[i] = fmax(xscale[i], fabs(w[i]));
    for (int i = 0; i < pb->ny; ++i)
      ymax = fmax(ymax, fabs(w[pb->nx + i]));
  }
  for (int i = 0; i < pb->nx; ++i)
    xscale[i] += 1.0;
  double *ework =
      malloc(sizeof *ework * (size_t)(nw + nF + 2 * (pb->nx + pb->ny) + 1));
  if (!ework)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for defects");
  /* nodes per stage count, computed once (not per element) */
  double gx[64], gw[64];
  int gl_m = 0;
  for (int k = 0; k < d->nelem; ++k) {
    const int m = sol->mesh.stages[k] + 3;
    if (m != gl_m) {
      rc_gauss_legendre(m, gx, gw);
      gl_m = m;
    }
    if (element_defect(pb, sol, k, xscale, 1.0 + ymax, ework, gx, gw,
                       &d->elem_defect[k]) != 0)
      d->elem_defect[k] = NAN;
  }
  free(ework);
  return RC_OK;
}

rc_err rc_diagnose(const rc_problem *pb, const rc_solution *sol,
                   int dense_per_element, rc_diagnostics *d, rc_error *err) {
  memset(d, 0, sizeof *d);
  if (dense_per_element < 1)
    return rc_error_set(err, RC_ERR_INPUT,
                        "dense points per element %d: expected >= 1",
                        dense_per_element);
  const int nw = rc_problem_nw(pb), nxyu = pb->nx + pb->ny + pb->nu;
  const int nvar = nxyu + pb->nout, ninv = pb->ninv;
  d->nvar = nvar;
  d->ninv = ninv;
  d->nnodes = sol->nnodes;
  d->nelem = sol->mesh.n;
  d->ndense = d->nelem * dense_per_element + 1;
  d->has_reference = pb->reference != NULL;
  const int nF = rc_problem_nF(pb);
  const size_t nwork =
      (size_t)(nw + nF + 2 * (pb->nx + pb->ny) + nvar + ninv + 8);
  double *work = zalloc(nwork, sizeof(double));
  rc_err rc;
  if (!diag_alloc(pb, d) || !work)
    rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory for diagnostics");
  else if ((rc = dense_and_outputs(pb, sol, dense_per_element, d, err)) ==
               RC_OK &&
           (rc = reference_errors(pb, sol, d, work, err)) == RC_OK) {
    hidden_constraints(pb, sol, d, work);
    rc = element_defects(pb, sol, d, work + nw + nF + 2 * (pb->nx + pb->ny),
                         err);
  }
  free(work);
  if (rc != RC_OK)
    rc_diagnostics_free(d);
  return rc;
}
