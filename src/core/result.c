/*
 * solution.c - a discrete trajectory on a mesh: allocation, node times,
 * element lookup and dense output (radcol/result.h).
 *
 * Layout (result.h): node 0 is t0; node off_k + j (j = 1..s_k) is stage j of
 * element k, off_k = s_0 + ... + s_{k-1}; node off_k is element k's first
 * node (t0 for k = 0, else element k-1's last stage).  w is node-major with
 * nw = nx + ny + nu + np values per node; lam_f, lam_g, lam_c likewise with
 * nx, ny, nc values; z_lo, z_hi with nw.
 *
 * Invariants after rc_solution_alloc: every array is allocated (at least one
 * entry even when its size is zero, so memcpy on it is always defined) and
 * zeroed, except t, which rc_solution_alloc already fills with
 * rc_solution_set_times.  The mesh is a private copy.
 *
 * Maths.
 *  - Breakpoints tau_k = t0 + (tf - t0) frac[k], with tau_0 = t0 and
 *    tau_n = tf exactly; h_k = tau_{k+1} - tau_k.
 *  - Node times: stage j of element k at tau_k + c_j h_k for j < s_k; the last
 *    stage (c_s = 1) is set to tau_{k+1} itself, so it equals the next
 *    element's first node bit for bit.
 *  - Dense output in element k, local coordinate
 *        theta = (t - t[off_k]) / (t[off_k + s] - t[off_k]):
 *    x(t) = sum_{l=0..s} X_l L_l(theta), L_l the degree-s Lagrange basis on
 *    the s+1 element nodes {theta_0 = 0, theta_1..theta_s}; y and u use the
 *    same degree-s basis through the element's first node (the previous
 *    element's last stage, or node 0) and its s stages, so they interpolate
 *    on the whole element and are continuous at breakpoints; the multiplier
 *    densities use the degree-(s-1) basis on the s stage nodes only
 *    (extrapolated on [tau_k, first stage)); p is node 0's value.
 *    Why y, u use the element start: the degree-(s-1) stage polynomial is
 *    extrapolated on (tau_k, tau_k + c_1 h) and its error there is of order
 *    s with a large constant (an index-1 multiplier: 1e-7 where the nodes
 *    are good to 1e-11); the degree-s interpolant through s + 1 values that are
 *    each accurate to O(h^(s+1)) is accurate to O(h^(s+1)) between them.
 *    Node 0 holds, for y and u not imposed at t0, the value the solver set
 *    there (solve.c: y from g(t0, x0, y, u0) = 0 by Newton where dg/dy is
 *    nonsingular, otherwise the stage extrapolation of
 *    rc_solution_eval_stages, which makes element 0 the old polynomial).
 *    The local node coordinates are taken from the stored node times
 *    (theta_j = (t[off_k+j] - t[off_k]) / h), which after set_times equal c_j
 *    to rounding, so dense output interpolates exactly the stored nodes and
 *    needs no Radau tables.  Interpolation is the barycentric formula
 *    (collocation/radau.h).
 *  - Cost per evaluation: O(log n) to find the element, O(1) for off_k from
 *    elem_off (O(min(k, n-k)) for a hand-built solution without it), O(s^2)
 *    for the barycentric weights and O(s nw) for the sums.  Nothing is
 *    allocated and nothing is cached, so concurrent calls are safe.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collocation/radau.h"
#include "radcol/result.h"

/* Breakpoint k of sol's mesh as a time. */
static double breakpoint(const rc_solution *sol, int k) {
  if (k <= 0)
    return sol->t0;
  if (k >= sol->mesh.n)
    return sol->tf;
  return sol->t0 + (sol->tf - sol->t0) * sol->mesh.frac[k];
}

static double *zalloc(size_t n) {
  return calloc(n ? n : 1, sizeof(double));
}

rc_err rc_solution_alloc(const rc_problem *pb, const rc_mesh *mesh, double t0,
                         double tf, int with_duals, rc_solution *sol,
                         rc_error *err) {
  if (!pb || !sol)
    return rc_error_set(err, RC_ERR_INPUT, "%s pointer is NULL",
                        pb ? "solution" : "problem");
  const rc_solution_dims d = {pb->nx, pb->ny, pb->nu, pb->np, pb->nc, pb->nb};
  return rc_solution_alloc_dims(&d, mesh, t0, tf, with_duals, sol, err);
}

rc_err rc_solution_alloc_dims(const rc_solution_dims *d, const rc_mesh *mesh,
                              double t0, double tf, int with_duals,
                              rc_solution *sol, rc_error *err) {
  if (!d || !sol)
    return rc_error_set(err, RC_ERR_INPUT, "%s pointer is NULL",
                        d ? "solution" : "dims");
  const int dims[6] = {d->nx, d->ny, d->nu, d->np, d->nc, d->nb};
  const char *names[6] = {"nx", "ny", "nu", "np", "nc", "nb"};
  for (int i = 0; i < 6; ++i)
    if (dims[i] < 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "problem dimension %s = %d: expected >= 0", names[i],
                          dims[i]);
  if (!isfinite(t0) || !isfinite(tf) || !(tf > t0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "horizon [t0, tf] = [%g, %g]: expected finite values "
                        "with tf > t0",
                        t0, tf);
  rc_solution s;
  memset(&s, 0, sizeof s);
  rc_err rc = rc_mesh_copy(mesh, &s.mesh, err);
  if (rc)
    return rc;
  s.nx = d->nx;
  s.ny = d->ny;
  s.nu = d->nu;
  s.np = d->np;
  s.nc = d->nc;
  s.nb = d->nb;
  s.t0 = t0;
  s.tf = tf;
  s.nnodes = rc_mesh_nodes(&s.mesh);
  size_t nn = (size_t)s.nnodes;
  size_t nw = (size_t)s.nx + s.ny + s.nu + s.np;
  s.t = zalloc(nn);
  s.w = zalloc(nn * nw);
  s.elem_off = malloc(sizeof *s.elem_off * (size_t)(s.mesh.n + 1));
  int ok = s.t && s.w && s.elem_off;
  if (ok) {
    s.elem_off[0] = 0;
    for (int k = 0; k < s.mesh.n; ++k)
      s.elem_off[k + 1] = s.elem_off[k] + s.mesh.stages[k];
  }
  if (ok && with_duals) {
    s.has_duals = 1;
    s.lam_f = zalloc(nn * (size_t)s.nx);
    s.lam_g = zalloc(nn * (size_t)s.ny);
    s.lam_c = zalloc(nn * (size_t)s.nc);
    s.lam_b = zalloc((size_t)s.nb);
    s.z_lo = zalloc(nn * nw);
    s.z_hi = zalloc(nn * nw);
    ok = s.lam_f && s.lam_g && s.lam_c && s.lam_b && s.z_lo && s.z_hi;
  }
  if (!ok) {
    rc_solution_free(&s);
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory for a solution of %zu nodes x %zu "
                        "values",
                        nn, nw);
  }
  rc_solution_set_times(&s);
  *sol = s;
  rc_error_clear(err);
  return RC_OK;
}

void rc_solution_free(rc_solution *sol) {
  if (!sol)
    return;
  rc_mesh_free(&sol->mesh);
  free(sol->t);
  free(sol->w);
  free(sol->lam_f);
  free(sol->lam_g);
  free(sol->lam_c);
  free(sol->lam_b);
  free(sol->z_lo);
  free(sol->z_hi);
  free(sol->elem_off);
  memset(sol, 0, sizeof *sol);
}

void rc_solution_set_times(rc_solution *sol) {
  if (!sol || !sol->t || !sol->mesh.frac || !sol->mesh.stages)
    return;
  rc_radau r;
  r.s = 0;
  int node = 0;
  sol->t[node++] = sol->t0;
  for (int k = 0; k < sol->mesh.n; ++k) {
    int s = sol->mesh.stages[k];
    if (s != r.s && rc_radau_init(s, &r) != 0)
      return; /* impossible for a validated mesh */
    double tau = breakpoint(sol, k), next = breakpoint(sol, k + 1);
    double h = next - tau;
    for (int j = 0; j < s - 1; ++j)
      sol->t[node++] = tau + r.c[j] * h;
    sol->t[node++] = next;
  }
}

int rc_solution_element(const rc_solution *sol, double t) {
  if (!sol || sol->mesh.n < 1)
    return -1;
  /* Smallest k with t <= tau_{k+1}: element k is (tau_k, tau_{k+1}], element
   * 0 also holds t0 and anything before it, element n-1 anything after tf. */
  int lo = 0, hi = sol->mesh.n - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (t <= breakpoint(sol, mid + 1))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

/* Index of element k's first node: from the offset table, or (for a
 * hand-built solution without one) the sum of the stages before k, summed
 * from whichever end of the mesh is nearer. */
static int element_offset(const rc_solution *sol, int k) {
  if (sol->elem_off)
    return sol->elem_off[k];
  const rc_mesh *m = &sol->mesh;
  int off = 0;
  if (k <= m->n / 2) {
    for (int i = 0; i < k; ++i)
      off += m->stages[i];
    return off;
  }
  for (int i = k; i < m->n; ++i)
    off += m->stages[i];
  return sol->nnodes - 1 - off;
}

/* Element of t, its first node, its stage count, and the two Lagrange bases
 * at t: lx (s+1 values, state basis) and ls (s values, stage basis). */
static rc_err locate(const rc_solution *sol, double t, const char *what,
                     int *elem, int *off, int *s, double *lx, double *ls,
                     rc_error *err) {
  if (!sol || !sol->t || !sol->w || sol->mesh.n < 1 || !sol->mesh.stages)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: solution is not allocated (call "
                        "rc_solution_alloc)",
                        what);
  double span = sol->tf - sol->t0;
  double slack = 1e-12 * fmax(span, fmax(fabs(sol->t0), fabs(sol->tf)));
  if (!isfinite(t) || t < sol->t0 - slack || t > sol->tf + slack)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s at time %.17g: expected a time in [t0, tf] = "
                        "[%.17g, %.17g]",
                        what, t, sol->t0, sol->tf);
  int k = rc_solution_element(sol, t);
  int sk = sol->mesh.stages[k];
  if (sk < 1 || sk > RC_RADAU_MAX_STAGES)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: stages %d in element %d: expected 1..%d", what, sk,
                        k, RC_RADAU_MAX_STAGES);
  int o = element_offset(sol, k);
  const double *tn = sol->t + o;
  double h = tn[sk] - tn[0];
  if (!(h > 0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: element %d spans node times %.17g..%.17g: "
                        "expected increasing times (call "
                        "rc_solution_set_times)",
                        what, k, tn[0], tn[sk]);
  double theta[RC_RADAU_MAX_STAGES + 1], bw[RC_RADAU_MAX_STAGES + 1];
  for (int l = 0; l <= sk; ++l)
    theta[l] = (tn[l] - tn[0]) / h;
  theta[sk] = 1.0;
  double x = (t - tn[0]) / h;
  rc_bary_weights(sk + 1, theta, bw);
  rc_lagrange_basis(sk + 1, theta, bw, x, lx);
  rc_bary_weights(sk, theta + 1, bw);
  rc_lagrange_basis(sk, theta + 1, bw, x, ls);
  *elem = k;
  *off = o;
  *s = sk;
  return RC_OK;
}

/* out[i] = sum_j basis[j] v[(first + j) * stride + col + i], i < count. */
static void combine(int count, int nb, const double *basis, const double *v,
                    int first, int stride, int col, double *out) {
  for (int i = 0; i < count; ++i) {
    double acc = 0.0;
    for (int j = 0; j < nb; ++j)
      acc += basis[j] * v[(size_t)(first + j) * stride + col + i];
    out[i] = acc;
  }
}

/* The point at t: states from the degree-s polynomial through the element
 * start and its stages; y, u the same way, or (stage_yu, and in the first
 * element of a segment, where they may jump: radcol/mesh.h) from the degree
 * s - 1 polynomial through the stages only; parameters as stored. */
static rc_err eval_point(const rc_solution *sol, double t, double *w,
                         int stage_yu, const char *what, rc_error *err) {
  double lx[RC_RADAU_MAX_STAGES + 1], ls[RC_RADAU_MAX_STAGES];
  int k, off, s;
  if (!w)
    return rc_error_set(err, RC_ERR_INPUT, "%s: w is NULL", what);
  rc_err rc = locate(sol, t, what, &k, &off, &s, lx, ls, err);
  if (rc)
    return rc;
  stage_yu = stage_yu || rc_mesh_segment_start(&sol->mesh, k);
  int nw = sol->nx + sol->ny + sol->nu + sol->np;
  int nyu = sol->ny + sol->nu;
  if (stage_yu) {
    combine(sol->nx, s + 1, lx, sol->w, off, nw, 0, w);
    combine(nyu, s, ls, sol->w, off + 1, nw, sol->nx, w + sol->nx);
  } else {
    combine(sol->nx + nyu, s + 1, lx, sol->w, off, nw, 0, w);
  }
  for (int i = 0; i < sol->np; ++i)
    w[sol->nx + nyu + i] = sol->w[sol->nx + nyu + i];
  rc_error_clear(err);
  return RC_OK;
}

rc_err rc_solution_eval(const rc_solution *sol, double t, double *w,
                        rc_error *err) {
  return eval_point(sol, t, w, 0, "dense output", err);
}

rc_err rc_solution_eval_stages(const rc_solution *sol, double t, double *w,
                               rc_error *err) {
  return eval_point(sol, t, w, 1, "stage extrapolation", err);
}

rc_err rc_solution_eval_duals(const rc_solution *sol, double t, double *out,
                              rc_error *err) {
  double lx[RC_RADAU_MAX_STAGES + 1], ls[RC_RADAU_MAX_STAGES];
  int k, off, s;
  if (!out)
    return rc_error_set(err, RC_ERR_INPUT, "dual dense output: out is NULL");
  if (sol && (!sol->has_duals || !sol->lam_f || !sol->lam_g || !sol->lam_c))
    return rc_error_set(err, RC_ERR_INPUT,
                        "dual dense output: the solution holds no "
                        "multipliers (expected one allocated with_duals)");
  rc_err rc = locate(sol, t, "dual dense output", &k, &off, &s, lx, ls, err);
  if (rc)
    return rc;
  combine(sol->nx, s, ls, sol->lam_f, off + 1, sol->nx, 0, out);
  combine(sol->ny, s, ls, sol->lam_g, off + 1, sol->ny, 0, out + sol->nx);
  combine(sol->nc, s, ls, sol->lam_c, off + 1, sol->nc, 0,
          out + sol->nx + sol->ny);
  rc_error_clear(err);
  return RC_OK;
}

int rc_solution_element_offset(const rc_solution *sol, int k) {
  return element_offset(sol, k);
}

const char *rc_solve_mode_name(rc_solve_mode mode) {
  switch (mode) {
  case RC_MODE_FIXED:
    return "fixed";
  case RC_MODE_REFINE:
    return "refine";
  case RC_MODE_ADAPTIVE:
    return "adaptive";
  }
  return NULL;
}

void rc_solve_stats_begin(rc_solve_stats *stats) {
  memset(stats, 0, sizeof *stats);
  stats->status = RC_STATUS_FAILED;
  stats->newton_fallback_element = -1;
  stats->objective_scale = 1.0;
}
