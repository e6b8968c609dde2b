/*
 * mesh_check.c - the pre-solve check of radcol/mesh_check.h: the reference
 * sampled at the mesh nodes and interpolated by the dense output, compared
 * with the reference on a fine grid.
 *
 * Grid: in element k with stages s_k, P_k = per_element (or 8 s_k) points
 * tau_{k-1} + (q / P_k) h_k, q = 0..P_k-1, then tf.  A point on an element
 * boundary belongs to the element on its right (the grid's own element k),
 * although rc_solution_eval takes the left one there; both polynomials pass
 * through the same node value for x, and y, u are compared where they are
 * evaluated.
 *
 * Nothing here depends on a particular problem; the point vector's
 * parameters p (constant decision variables) have no reference and are set
 * to 0 for the derived outputs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/mesh_check.h"
#include "radcol/result.h"

/* Largest grid checked (memory: points x (nx+ny+nu+nout) doubles). */
#define RC_MESH_CHECK_MAX_POINTS 2000000

void rc_mesh_check_free(rc_mesh_check *mc) {
  if (!mc)
    return;
  free(mc->err);
  free(mc->scale);
  free(mc->t_err);
  free(mc->elem_rel);
  memset(mc, 0, sizeof *mc);
}

const char *rc_mesh_check_var_name(const rc_problem *pb, int i) {
  const int nv = pb->nx + pb->ny + pb->nu;
  if (i >= 0 && i < nv)
    return pb->var_names[i];
  if (i >= nv && i < nv + pb->nout)
    return pb->out_names[i - nv];
  return "?";
}

/* The check grid: per_element (or 8 s_k) equidistant points in each
 * element from its start, then tf; eg[] the element of each point. */
static void check_grid(const rc_problem *pb, const rc_mesh *mesh,
                       int per_element, double *tg, int *eg) {
  const double T = pb->tf - pb->t0;
  int g = 0;
  for (int k = 0; k < mesh->n; ++k) {
    const int P = per_element > 0 ? per_element : 8 * mesh->stages[k];
    const double a = mesh->frac[k], b = mesh->frac[k + 1];
    for (int q = 0; q < P; ++q) {
      tg[g] = pb->t0 + T * (a + (b - a) * q / P);
      eg[g++] = k;
    }
  }
  tg[g] = pb->tf;
  eg[g] = mesh->n - 1;
}

/* The interpolant's error against the reference ref (ngrid x nvar) at every
 * grid point: the largest per variable with its time, and per element into
 * elem_err (ne x nvar).  w: nw, out: nout scratch. */
static rc_err grid_errors(const rc_problem *pb, const rc_solution *sol,
                          const double *tg, const int *eg, const double *ref,
                          double *w, double *out, double *elem_err,
                          rc_mesh_check *mc, rc_error *err) {
  const int nv = pb->nx + pb->ny + pb->nu, nvar = mc->nvar;
  for (int q = 0; q < mc->ngrid; ++q) {
    rc_err rc = rc_solution_eval(sol, tg[q], w, err);
    if (rc != RC_OK)
      return rc;
    if (pb->nout > 0 && pb->outputs(pb, tg[q], w, out) != 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: derived outputs failed at t = %g", pb->model,
                          pb->formulation, tg[q]);
    const double *rq = ref + (size_t)q * (size_t)nvar;
    for (int i = 0; i < nvar; ++i) {
      if (!isfinite(rq[i]))
        continue;
      const double v = i < nv ? w[i] : out[i - nv];
      const double e = isfinite(v) ? fabs(v - rq[i]) : HUGE_VAL;
      if (e > mc->err[i]) {
        mc->err[i] = e;
        mc->t_err[i] = tg[q];
      }
      double *ee = &elem_err[(size_t)eg[q] * (size_t)nvar + (size_t)i];
      if (e > *ee)
        *ee = e;
    }
  }
  return RC_OK;
}

/* Errors relative to each variable's scale (max |reference|, 1 if zero):
 * per element, and the worst variable with its time. */
static void worst_relative(const rc_problem *pb, const double *elem_err,
                           rc_mesh_check *mc) {
  const int nvar = mc->nvar;
  mc->worst_rel = 0.0;
  mc->worst_var = -1;
  mc->worst_t = pb->t0;
  for (int i = 0; i < nvar; ++i) {
    const double sc = mc->scale[i] > 0.0 ? mc->scale[i] : 1.0;
    const double r = mc->err[i] / sc;
    if (mc->worst_var < 0 || r > mc->worst_rel) {
      mc->worst_rel = r;
      mc->worst_var = i;
      mc->worst_t = mc->t_err[i];
    }
    for (int k = 0; k < mc->nelem; ++k)
      mc->elem_rel[(size_t)k * (size_t)nvar + (size_t)i] =
          elem_err[(size_t)k * (size_t)nvar + (size_t)i] / sc;
  }
}

rc_err rc_mesh_check_reference(const rc_problem *pb, const rc_mesh *mesh,
                               int per_element, rc_mesh_check *mc,
                               rc_error *err) {
  memset(mc, 0, sizeof *mc);
  if (!pb->reference)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s has no reference to check a mesh against",
                        pb->model, pb->formulation);
  rc_err rc = rc_mesh_validate(mesh, err);
  if (rc != RC_OK)
    return rc;
  const int nw = rc_problem_nw(pb), nv = pb->nx + pb->ny + pb->nu;
  const int nvar = nv + pb->nout, ne = mesh->n;
  long long ng = 1;
  for (int k = 0; k < ne; ++k)
    ng += per_element > 0 ? per_element : 8 * mesh->stages[k];
  if (ng > RC_MESH_CHECK_MAX_POINTS)
    return rc_error_set(err, RC_ERR_INPUT,
                        "mesh of %d elements: %lld check points, expected at "
                        "most %d (the check is meant for meshes a solve can "
                        "use)",
                        ne, ng, RC_MESH_CHECK_MAX_POINTS);
  const int ngrid = (int)ng;
  rc_solution sol;
  memset(&sol, 0, sizeof sol);
  rc = rc_solution_alloc(pb, mesh, pb->t0, pb->tf, 0, &sol, err);
  if (rc != RC_OK)
    return rc;
  rc_solution_set_times(&sol);
  const int nmax = ngrid > sol.nnodes ? ngrid : sol.nnodes;
  double *ref = malloc(sizeof(double) * (size_t)nmax * (size_t)nvar);
  double *tg = malloc(sizeof(double) * (size_t)ngrid);
  int *eg = malloc(sizeof(int) * (size_t)ngrid);
  double *w = malloc(sizeof(double) * (size_t)(nw > 0 ? nw : 1));
  double *out = malloc(sizeof(double) * (size_t)(pb->nout > 0 ? pb->nout : 1));
  mc->err = calloc((size_t)nvar + 1, sizeof(double));
  mc->scale = calloc((size_t)nvar + 1, sizeof(double));
  mc->t_err = calloc((size_t)nvar + 1, sizeof(double));
  mc->elem_rel = calloc((size_t)ne * (size_t)nvar + 1, sizeof(double));
  double *elem_err = calloc((size_t)ne * (size_t)nvar + 1, sizeof(double));
  if (!ref || !tg || !eg || !w || !out || !mc->err || !mc->scale ||
      !mc->t_err || !mc->elem_rel || !elem_err) {
    rc = rc_error_set(err, RC_ERR_NOMEM,
                      "out of memory checking a mesh of %d elements", ne);
    goto done;
  }
  mc->nvar = nvar;
  mc->nelem = ne;
  mc->ngrid = ngrid;
  /* reference at the nodes -> the dense output's data */
  if (pb->reference(pb, sol.nnodes, sol.t, ref) != 0) {
    rc = rc_error_set(err, RC_ERR_INPUT,
                      "%s/%s: the reference failed at the mesh nodes",
                      pb->model, pb->formulation);
    goto done;
  }
  for (int i = 0; i < sol.nnodes; ++i) {
    double *wi = sol.w + (size_t)i * (size_t)nw;
    memcpy(wi, ref + (size_t)i * (size_t)nvar, sizeof(double) * (size_t)nv);
    for (int c = nv; c < nw; ++c)
      wi[c] = 0.0;
  }
  check_grid(pb, mesh, per_element, tg, eg);
  if (pb->reference(pb, ngrid, tg, ref) != 0) {
    rc = rc_error_set(err, RC_ERR_INPUT,
                      "%s/%s: the reference failed on the check grid",
                      pb->model, pb->formulation);
    goto done;
  }
  for (int q = 0; q < ngrid; ++q) {
    const double *rq = ref + (size_t)q * (size_t)nvar;
    for (int i = 0; i < nvar; ++i)
      if (isfinite(rq[i]))
        mc->scale[i] = fmax(mc->scale[i], fabs(rq[i]));
  }
  if ((rc = grid_errors(pb, &sol, tg, eg, ref, w, out, elem_err, mc, err)) !=
      RC_OK)
    goto done;
  worst_relative(pb, elem_err, mc);
done:
  free(ref);
  free(tg);
  free(eg);
  free(w);
  free(out);
  free(elem_err);
  rc_solution_free(&sol);
  if (rc != RC_OK)
    rc_mesh_check_free(mc);
  return rc;
}
