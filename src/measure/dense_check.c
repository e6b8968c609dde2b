/*
 * dense_check.c - every constraint of a problem on the dense grid of a
 * solution (radcol/dense_check.h states the constraints, names and scales).
 *
 * One pass over the grid: at each point q (time t_q, element e_q) the dense
 * output w~(t_q) gives the simple-bound excesses directly, and one call of
 * the point block F = [f; g; c; L] gives g and c; the invariants block gives
 * h.  Per constraint the largest violation and its point are kept; per
 * element the largest relative violation of an imposed constraint (bounds, g,
 * c).  Scales need the grid maxima, so the relative values are formed after
 * the pass: the pass stores every point's violations (ndense x n), which is
 * the size of the dense output the file holds anyway.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/dense_check.h"

/* Bounds beyond this are "none" (the transcription's convention). */
#define RC_DENSE_INF 1e20

static int finite_bound(double v) {
  return isfinite(v) && fabs(v) < RC_DENSE_INF;
}

int rc_dense_grid_size(const rc_solution *sol, int dense_per_element) {
  return sol->mesh.n * dense_per_element + 1;
}

void rc_dense_grid(const rc_solution *sol, int dense_per_element, double *t,
                   int *elem) {
  const int ne = sol->mesh.n, nd = ne * dense_per_element + 1;
  for (int k = 0, q = 0; k < ne; ++k)
    for (int i = 0; i < dense_per_element; ++i, ++q) {
      const double a =
          sol->mesh.frac[k] +
          (sol->mesh.frac[k + 1] - sol->mesh.frac[k]) * i / dense_per_element;
      t[q] = sol->t0 + (sol->tf - sol->t0) * a;
    }
  t[nd - 1] = sol->tf;
  /* the element whose polynomial gives the value there (ties go left, so a
   * breakpoint belongs to the element it ends) */
  for (int q = 0; elem && q < nd; ++q)
    elem[q] = rc_solution_element(sol, t[q]);
}

const char *rc_dense_kind_name(rc_dense_kind kind) {
  switch (kind) {
  case RC_DENSE_BOUND:
    return "bound";
  case RC_DENSE_ALGEBRAIC:
    return "algebraic";
  case RC_DENSE_PATH:
    return "path";
  case RC_DENSE_INVARIANT:
    return "invariant";
  }
  return "unknown";
}

void rc_dense_violation_free(rc_dense_violation *dv) {
  if (!dv)
    return;
  free(dv->name);
  free(dv->kind);
  free(dv->index);
  free(dv->max);
  free(dv->time);
  free(dv->scale);
  free(dv->relative);
  free(dv->element);
  free(dv->elem_relative);
  free(dv->elem_node_relative);
  memset(dv, 0, sizeof *dv);
}

static void *zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

/* Excess of v over [lo, hi] (0 inside, +inf for NaN). */
static double excess(double v, double lo, double hi) {
  if (isnan(v))
    return INFINITY;
  double e = 0.0;
  if (finite_bound(lo) && v < lo)
    e = lo - v;
  if (finite_bound(hi) && v > hi)
    e = v - hi;
  return e;
}

/* The checked constraints in order (bounds, algebraic equations, path
 * constraints, invariants): kind, index, name, and the scale from the
 * bounds (1 + max |finite bound|, at least 1). */
static void list_constraints(const rc_problem *pb, rc_dense_violation *dv) {
  const int nw = rc_problem_nw(pb), nx = pb->nx;
  int c = 0;
  for (int i = 0; i < nw; ++i)
    if (finite_bound(pb->w_lo[i]) || finite_bound(pb->w_hi[i])) {
      dv->kind[c] = RC_DENSE_BOUND;
      dv->index[c] = i;
      snprintf(dv->name[c++], RC_DENSE_NAME_MAX, "bound_%s",
               pb->var_names ? pb->var_names[i] : "?");
    }
  for (int k = 0; k < pb->ny; ++k) {
    dv->kind[c] = RC_DENSE_ALGEBRAIC;
    dv->index[c] = k;
    snprintf(dv->name[c++], RC_DENSE_NAME_MAX, "alg_%s",
             pb->var_names ? pb->var_names[nx + k] : "?");
  }
  for (int k = 0; k < pb->nc; ++k) {
    dv->kind[c] = RC_DENSE_PATH;
    dv->index[c] = k;
    snprintf(dv->name[c++], RC_DENSE_NAME_MAX, "path_%d", k);
  }
  for (int k = 0; k < pb->ninv; ++k) {
    dv->kind[c] = RC_DENSE_INVARIANT;
    dv->index[c] = k;
    snprintf(dv->name[c++], RC_DENSE_NAME_MAX, "inv_%s",
             pb->inv_names ? pb->inv_names[k] : "?");
  }
  for (int e = 0; e < dv->n; ++e) {
    double s = 1.0;
    if (dv->kind[e] == RC_DENSE_BOUND) {
      const int i = dv->index[e];
      if (finite_bound(pb->w_lo[i]))
        s = fmax(s, fabs(pb->w_lo[i]));
      if (finite_bound(pb->w_hi[i]))
        s = fmax(s, fabs(pb->w_hi[i]));
    } else if (dv->kind[e] == RC_DENSE_PATH) {
      const int k = dv->index[e];
      if (finite_bound(pb->c_lo[k]))
        s = fmax(s, fabs(pb->c_lo[k]));
      if (finite_bound(pb->c_hi[k]))
        s = fmax(s, fabs(pb->c_hi[k]));
    }
    dv->scale[e] = s;
  }
}

/* One pass over the nd dense points t[]: the violation of every constraint
 * into viol (nd x n), the magnitudes into the scales (algebraic rows: 1 +
 * max |y|).  work: nw + nF + ninv. */
static rc_err sample_violations(const rc_problem *pb, const rc_solution *sol,
                                const double *t, int nd, double *viol,
                                double *work, rc_dense_violation *dv,
                                rc_error *err) {
  const int nw = rc_problem_nw(pb), nx = pb->nx, ny = pb->ny, nc = pb->nc;
  const int nF = rc_problem_nF(pb), ninv = pb->ninv, n = dv->n;
  double *w = work, *F = work + nw, *h = work + nw + nF;
  double ymax = 0.0;
  rc_err rc;
  for (int q = 0; q < nd; ++q) {
    double *vq = viol + (size_t)q * n;
    if ((rc = rc_solution_eval(sol, t[q], w, err)) != RC_OK)
      return rc;
    for (int i = 0; i < ny; ++i)
      ymax = fmax(ymax, fabs(w[nx + i]));
    const int fok = ny + nc == 0 || pb->point.eval(pb, t[q], w, F) == 0;
    const int hok = ninv == 0 || pb->invariants.eval(pb, t[q], w, h) == 0;
    for (int e = 0; e < n; ++e) {
      const int k = dv->index[e];
      switch (dv->kind[e]) {
      case RC_DENSE_BOUND:
        vq[e] = excess(w[k], pb->w_lo[k], pb->w_hi[k]);
        dv->scale[e] = fmax(dv->scale[e], fabs(w[k]));
        break;
      case RC_DENSE_ALGEBRAIC:
        vq[e] = fok && !isnan(F[nx + k]) ? fabs(F[nx + k]) : INFINITY;
        break;
      case RC_DENSE_PATH:
        vq[e] =
            fok ? excess(F[nx + ny + k], pb->c_lo[k], pb->c_hi[k]) : INFINITY;
        if (fok && isfinite(F[nx + ny + k]))
          dv->scale[e] = fmax(dv->scale[e], fabs(F[nx + ny + k]));
        break;
      case RC_DENSE_INVARIANT:
        vq[e] = hok && !isnan(h[k]) ? fabs(h[k]) : INFINITY;
        break;
      }
    }
  }
  for (int e = 0; e < n; ++e)
    if (dv->kind[e] == RC_DENSE_ALGEBRAIC)
      dv->scale[e] = fmax(1.0, ymax);
  return RC_OK;
}

/* Maxima over the grid with their times and elements, the per-element
 * relative maxima, and the worst imposed constraint. */
static void grid_maxima(const double *t, const int *elem, int nd,
                        const double *viol, rc_dense_violation *dv) {
  const int n = dv->n;
  for (int e = 0; e < n; ++e) {
    dv->max[e] = 0.0;
    dv->time[e] = NAN;
    dv->element[e] = -1;
  }
  for (int q = 0; q < nd; ++q) {
    const double *vq = viol + (size_t)q * n;
    for (int e = 0; e < n; ++e) {
      if (!(vq[e] > dv->max[e]))
        continue;
      dv->max[e] = vq[e];
      dv->time[e] = t[q];
      dv->element[e] = elem[q];
    }
    for (int e = 0; e < n; ++e)
      if (dv->kind[e] != RC_DENSE_INVARIANT) {
        const double r = vq[e] / dv->scale[e];
        if (r > dv->elem_relative[elem[q]])
          dv->elem_relative[elem[q]] = r;
      }
  }
  for (int e = 0; e < n; ++e) {
    dv->relative[e] = dv->max[e] / dv->scale[e];
    if (dv->kind[e] != RC_DENSE_INVARIANT &&
        dv->relative[e] > dv->worst_relative) {
      dv->worst_relative = dv->relative[e];
      dv->worst = e;
    }
  }
}

/* The per-element relative maxima at the stage nodes, with the same scales,
 * and the worst excess of the grid over the nodes.  F: nF scratch. */
static void node_maxima(const rc_problem *pb, const rc_solution *sol, double *F,
                        rc_dense_violation *dv) {
  const int nw = rc_problem_nw(pb), nx = pb->nx, ny = pb->ny, nc = pb->nc;
  for (int k = 0; k < dv->nelem; ++k) {
    const int off = rc_solution_element_offset(sol, k);
    for (int j = 1; j <= sol->mesh.stages[k]; ++j) {
      const double tn = sol->t[off + j];
      const double *wn = sol->w + (size_t)(off + j) * nw;
      const int fok = ny + nc == 0 || pb->point.eval(pb, tn, wn, F) == 0;
      for (int e = 0; e < dv->n; ++e) {
        const int i = dv->index[e];
        double v = 0.0;
        if (dv->kind[e] == RC_DENSE_BOUND)
          v = excess(wn[i], pb->w_lo[i], pb->w_hi[i]);
        else if (dv->kind[e] == RC_DENSE_ALGEBRAIC)
          v = fok && !isnan(F[nx + i]) ? fabs(F[nx + i]) : INFINITY;
        else if (dv->kind[e] == RC_DENSE_PATH)
          v = fok ? excess(F[nx + ny + i], pb->c_lo[i], pb->c_hi[i]) : INFINITY;
        else
          continue; /* invariants: reported, not imposed */
        const double r = v / dv->scale[e];
        if (r > dv->elem_node_relative[k])
          dv->elem_node_relative[k] = r;
      }
    }
    const double between = dv->elem_relative[k] - dv->elem_node_relative[k];
    if (between > dv->worst_between)
      dv->worst_between = between;
  }
}

rc_err rc_dense_check(const rc_problem *pb, const rc_solution *sol,
                      int dense_per_element, rc_dense_violation *dv,
                      rc_error *err) {
  memset(dv, 0, sizeof *dv);
  if (!pb || !sol || sol->mesh.n < 1 || dense_per_element < 1)
    return rc_error_set(err, RC_ERR_INPUT,
                        "dense check: expected a problem, a solution on a "
                        "mesh and dense points per element >= 1 (got %d)",
                        dense_per_element);
  const int nw = rc_problem_nw(pb), nF = rc_problem_nF(pb), ninv = pb->ninv;
  const int ne = sol->mesh.n;
  const int nd = rc_dense_grid_size(sol, dense_per_element);
  int nb = 0;
  for (int i = 0; i < nw; ++i)
    if (finite_bound(pb->w_lo[i]) || finite_bound(pb->w_hi[i]))
      ++nb;
  const int n = nb + pb->ny + pb->nc + ninv;
  dv->n = n;
  dv->nelem = ne;
  dv->ndense = nd;
  dv->worst = -1;
  dv->name = zalloc((size_t)n, sizeof *dv->name);
  dv->kind = zalloc((size_t)n, sizeof *dv->kind);
  dv->index = zalloc((size_t)n, sizeof *dv->index);
  dv->max = zalloc((size_t)n, sizeof *dv->max);
  dv->time = zalloc((size_t)n, sizeof *dv->time);
  dv->scale = zalloc((size_t)n, sizeof *dv->scale);
  dv->relative = zalloc((size_t)n, sizeof *dv->relative);
  dv->element = zalloc((size_t)n, sizeof *dv->element);
  dv->elem_relative = zalloc((size_t)ne, sizeof *dv->elem_relative);
  dv->elem_node_relative = zalloc((size_t)ne, sizeof *dv->elem_node_relative);
  double *t = zalloc((size_t)nd, sizeof *t);
  int *elem = zalloc((size_t)nd, sizeof *elem);
  double *viol = zalloc((size_t)nd * (size_t)n, sizeof *viol);
  double *work = zalloc((size_t)(nw + nF + ninv), sizeof *work);
  rc_err rc = RC_OK;
  if (!dv->name || !dv->kind || !dv->index || !dv->max || !dv->time ||
      !dv->scale || !dv->relative || !dv->element || !dv->elem_relative ||
      !dv->elem_node_relative || !t || !elem || !viol || !work) {
    rc = rc_error_set(err, RC_ERR_NOMEM,
                      "out of memory checking %d constraints on %d dense "
                      "points",
                      n, nd);
  } else {
    list_constraints(pb, dv);
    rc_dense_grid(sol, dense_per_element, t, elem);
    rc = sample_violations(pb, sol, t, nd, viol, work, dv, err);
  }
  if (rc == RC_OK) {
    grid_maxima(t, elem, nd, viol, dv);
    node_maxima(pb, sol, work + nw, dv);
  }
  free(t), free(elem), free(viol), free(work);
  if (rc != RC_OK) {
    rc_dense_violation_free(dv);
    return rc;
  }
  rc_error_clear(err);
  return RC_OK;
}
