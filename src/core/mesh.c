/*
 * mesh.c - finite-element meshes on the normalised horizon [0, 1].
 *
 * Invariants of a valid rc_mesh (checked by rc_mesh_validate, established by
 * every constructor here):
 *   1 <= n <= RC_MESH_MAX_ELEMENTS (10^7; more cannot be transcribed anyway),
 *   frac[0] = 0 < frac[1] < ... < frac[n] = 1, all finite,
 *   1 <= stages[k] <= RC_MAX_STAGES (= RC_RADAU_MAX_STAGES = 20).
 * The arrays are owned by the mesh; rc_mesh_free releases them and zeroes the
 * struct.  Constructors leave *mesh untouched when they fail.
 *
 * Segments (radcol/mesh.h): nseg = 0 and seg_first = NULL unless
 * rc_mesh_set_segments cut the mesh; then 1 <= nseg <= n, seg_first[0] = 0 <
 * ... < seg_first[nseg] = n and 0 < seg_min < 1 / nseg (so that nseg
 * minimal segments fit in the horizon).
 *
 * Node count: 1 + sum_k stages[k] (node 0 is t0, then each element's stages;
 * c_s = 1 makes an element's last stage the next element's first node).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collocation/radau.h"
#include "radcol/mesh.h"

static rc_err check_count(int n, rc_error *err) {
  if (n < 1)
    return rc_error_set(err, RC_ERR_INPUT,
                        "number of elements %d: expected an integer >= 1", n);
  if (n > RC_MESH_MAX_ELEMENTS)
    return rc_error_set(err, RC_ERR_INPUT,
                        "number of elements %d: expected at most %d", n,
                        RC_MESH_MAX_ELEMENTS);
  return RC_OK;
}

static rc_err check_stages(int s, int k, rc_error *err) {
  if (s < 1 || s > RC_MAX_STAGES)
    return rc_error_set(err, RC_ERR_INPUT,
                        "stages %d in element %d: expected 1..%d", s, k,
                        RC_MAX_STAGES);
  return RC_OK;
}

static rc_err validate_arrays(int n, const double *frac, const int *stages,
                              rc_error *err) {
  rc_err rc = check_count(n, err);
  if (rc)
    return rc;
  if (!frac || !stages)
    return rc_error_set(err, RC_ERR_INPUT,
                        "mesh with %d elements has no %s array: expected %d "
                        "values",
                        n, frac ? "stages" : "breakpoint", frac ? n : n + 1);
  for (int k = 0; k <= n; ++k)
    if (!isfinite(frac[k]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "breakpoint fraction %d is %g: expected a finite "
                          "number in [0, 1]",
                          k, frac[k]);
  if (frac[0] != 0.0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "first breakpoint fraction %.17g: expected 0", frac[0]);
  if (frac[n] != 1.0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "last breakpoint fraction (index %d) %.17g: expected 1",
                        n, frac[n]);
  for (int k = 0; k < n; ++k)
    if (!(frac[k + 1] > frac[k]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "breakpoint fractions %d and %d are %.17g and "
                          "%.17g: expected strictly increasing values",
                          k, k + 1, frac[k], frac[k + 1]);
  for (int k = 0; k < n; ++k) {
    rc = check_stages(stages[k], k, err);
    if (rc)
      return rc;
  }
  return RC_OK;
}

/* Allocates the arrays of a mesh with n elements (n already checked). */
static rc_err alloc_arrays(int n, double **frac, int **stages, rc_error *err) {
  *frac = malloc((size_t)(n + 1) * sizeof **frac);
  *stages = malloc((size_t)n * sizeof **stages);
  if (!*frac || !*stages) {
    free(*frac);
    free(*stages);
    *frac = NULL;
    *stages = NULL;
    return rc_error_set(err, RC_ERR_NOMEM,
                        "cannot allocate a mesh of %d elements", n);
  }
  return RC_OK;
}

rc_err rc_mesh_uniform(int n, int s, rc_mesh *mesh, rc_error *err) {
  rc_err rc = check_count(n, err);
  if (rc)
    return rc;
  rc = check_stages(s, 0, err);
  if (rc)
    return rc;
  if (!mesh)
    return rc_error_set(err, RC_ERR_INPUT, "mesh pointer is NULL");
  double *frac;
  int *stages;
  rc = alloc_arrays(n, &frac, &stages, err);
  if (rc)
    return rc;
  for (int k = 0; k <= n; ++k)
    frac[k] = (double)k / (double)n; /* exact 0 and 1 at the ends */
  for (int k = 0; k < n; ++k)
    stages[k] = s;
  memset(mesh, 0, sizeof *mesh);
  mesh->n = n;
  mesh->frac = frac;
  mesh->stages = stages;
  rc_error_clear(err);
  return RC_OK;
}

rc_err rc_mesh_from_arrays(int n, const double *frac, const int *stages,
                           rc_mesh *mesh, rc_error *err) {
  rc_err rc = validate_arrays(n, frac, stages, err);
  if (rc)
    return rc;
  if (!mesh)
    return rc_error_set(err, RC_ERR_INPUT, "mesh pointer is NULL");
  double *f;
  int *s;
  rc = alloc_arrays(n, &f, &s, err);
  if (rc)
    return rc;
  memcpy(f, frac, (size_t)(n + 1) * sizeof *f);
  memcpy(s, stages, (size_t)n * sizeof *s);
  memset(mesh, 0, sizeof *mesh);
  mesh->n = n;
  mesh->frac = f;
  mesh->stages = s;
  rc_error_clear(err);
  return RC_OK;
}

static rc_err validate_segments(int n, int nseg, const int *first,
                                double seg_min, rc_error *err) {
  if (nseg == 0)
    return RC_OK;
  if (nseg < 0 || nseg > n)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%d segments on a mesh of %d elements: expected "
                        "0..%d",
                        nseg, n, n);
  if (!first)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%d segments without their first elements: expected "
                        "%d element indices",
                        nseg, nseg + 1);
  if (first[0] != 0 || first[nseg] != n)
    return rc_error_set(err, RC_ERR_INPUT,
                        "segments start at element %d and end at %d: "
                        "expected 0 and %d",
                        first[0], first[nseg], n);
  for (int q = 0; q < nseg; ++q)
    if (!(first[q + 1] > first[q]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "segment %d starts at element %d and ends before "
                          "%d: expected at least one element",
                          q, first[q], first[q + 1]);
  if (!(seg_min > 0.0 && seg_min * nseg < 1.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "least segment duration %g (fraction of the horizon) "
                        "with %d segments: expected a number in (0, %g)",
                        seg_min, nseg, 1.0 / nseg);
  return RC_OK;
}

static rc_err validate_pins(int nseg, int npin, const rc_mesh_pin *pins,
                            rc_error *err) {
  if (npin == 0)
    return RC_OK;
  if (npin < 0 || !pins)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%d pinned arcs without their array: expected npin "
                        ">= 0 and the pins",
                        npin);
  for (int p = 0; p < npin; ++p) {
    const rc_mesh_pin *a = &pins[p];
    if (a->seg < 0 || a->seg >= nseg)
      return rc_error_set(err, RC_ERR_INPUT,
                          "pin %d on segment %d: expected a segment 0..%d", p,
                          a->seg, nseg - 1);
    if ((a->kind != RC_PIN_BOUND && a->kind != RC_PIN_PATH &&
         a->kind != RC_PIN_CONTINUOUS) ||
        a->index < 0 || (a->upper != 0 && a->upper != 1))
      return rc_error_set(err, RC_ERR_INPUT,
                          "pin %d: kind %d, index %d, upper %d: expected kind "
                          "%d (bound), %d (path) or %d (continuous), index "
                          ">= 0, upper 0 or 1",
                          p, a->kind, a->index, a->upper, RC_PIN_BOUND,
                          RC_PIN_PATH, RC_PIN_CONTINUOUS);
    if (a->kind == RC_PIN_CONTINUOUS && a->seg < 1)
      return rc_error_set(err, RC_ERR_INPUT,
                          "pin %d: continuity at the start of segment %d: "
                          "expected a segment 1..%d (a boundary)",
                          p, a->seg, nseg - 1);
  }
  return RC_OK;
}

rc_err rc_mesh_set_pins(rc_mesh *mesh, int npin, const rc_mesh_pin *pins,
                        rc_error *err) {
  if (!mesh)
    return rc_error_set(err, RC_ERR_INPUT, "mesh pointer is NULL");
  rc_err rc = validate_pins(mesh->nseg, npin, pins, err);
  if (rc)
    return rc;
  rc_mesh_pin *p = NULL;
  if (npin > 0) {
    p = malloc(sizeof *p * (size_t)npin);
    if (!p)
      return rc_error_set(err, RC_ERR_NOMEM, "cannot allocate %d pins", npin);
    memcpy(p, pins, sizeof *p * (size_t)npin);
  }
  free(mesh->pins);
  mesh->pins = p;
  mesh->npin = npin;
  rc_error_clear(err);
  return RC_OK;
}

rc_err rc_mesh_carry_segments(const rc_mesh *src, rc_mesh *mesh,
                              rc_error *err) {
  if (!src || !mesh)
    return rc_error_set(err, RC_ERR_INPUT, "mesh pointer is NULL");
  if (src->nseg < 1)
    return rc_mesh_set_segments(mesh, 0, NULL, 0.0, err);
  int *first = malloc(sizeof *first * (size_t)(src->nseg + 1));
  if (!first)
    return rc_error_set(err, RC_ERR_NOMEM, "cannot allocate %d segments",
                        src->nseg);
  first[0] = 0;
  int k = 0;
  for (int q = 1; q < src->nseg; ++q) {
    const double f = src->frac[src->seg_first[q]];
    while (k < mesh->n && mesh->frac[k] < f)
      ++k;
    if (k >= mesh->n || mesh->frac[k] != f) {
      free(first);
      return rc_error_set(err, RC_ERR_INPUT,
                          "segment %d starts at breakpoint fraction %.17g, "
                          "which the new mesh of %d elements does not hold",
                          q, f, mesh->n);
    }
    first[q] = k;
  }
  first[src->nseg] = mesh->n;
  rc_mesh m = *mesh; /* on failure mesh keeps its own segments */
  m.seg_first = NULL, m.nseg = 0, m.pins = NULL, m.npin = 0;
  rc_err rc = rc_mesh_set_segments(&m, src->nseg, first, src->seg_min, err);
  free(first);
  if (rc == RC_OK && (rc = rc_mesh_set_pins(&m, src->npin, src->pins, err))) {
    free(m.seg_first);
    free(m.pins);
  }
  if (rc != RC_OK)
    return rc;
  free(mesh->seg_first);
  free(mesh->pins);
  *mesh = m;
  return RC_OK;
}

int rc_mesh_segment_start(const rc_mesh *mesh, int k) {
  if (!mesh || mesh->nseg < 2 || !mesh->seg_first || k <= 0)
    return 0;
  const int q = rc_mesh_segment_of(mesh, k);
  return mesh->seg_first[q] == k;
}

rc_err rc_mesh_set_segments(rc_mesh *mesh, int nseg, const int *first,
                            double seg_min, rc_error *err) {
  if (!mesh)
    return rc_error_set(err, RC_ERR_INPUT, "mesh pointer is NULL");
  rc_err rc = validate_segments(mesh->n, nseg, first, seg_min, err);
  if (rc)
    return rc;
  int *f = NULL;
  if (nseg > 0) {
    f = malloc(sizeof *f * (size_t)(nseg + 1));
    if (!f)
      return rc_error_set(err, RC_ERR_NOMEM, "cannot allocate %d segments",
                          nseg);
    memcpy(f, first, sizeof *f * (size_t)(nseg + 1));
  }
  free(mesh->seg_first);
  mesh->seg_first = f;
  mesh->nseg = nseg;
  mesh->seg_min = nseg > 0 ? seg_min : 0.0;
  free(mesh->pins);
  mesh->pins = NULL;
  mesh->npin = 0;
  rc_error_clear(err);
  return RC_OK;
}

int rc_mesh_segment_of(const rc_mesh *mesh, int k) {
  if (!mesh || mesh->nseg < 1 || !mesh->seg_first)
    return 0;
  int lo = 0, hi = mesh->nseg - 1; /* seg_first[lo] <= k < seg_first[hi+1] */
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (mesh->seg_first[mid] <= k)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

rc_err rc_mesh_copy(const rc_mesh *src, rc_mesh *dst, rc_error *err) {
  if (!src)
    return rc_error_set(err, RC_ERR_INPUT, "source mesh pointer is NULL");
  rc_err rc =
      validate_segments(src->n, src->nseg, src->seg_first, src->seg_min, err);
  if (rc || (rc = validate_pins(src->nseg, src->npin, src->pins, err)))
    return rc;
  rc_mesh m;
  if ((rc = rc_mesh_from_arrays(src->n, src->frac, src->stages, &m, err)))
    return rc;
  if ((rc = rc_mesh_set_segments(&m, src->nseg, src->seg_first, src->seg_min,
                                 err)) ||
      (rc = rc_mesh_set_pins(&m, src->npin, src->pins, err))) {
    rc_mesh_free(&m);
    return rc;
  }
  *dst = m;
  return RC_OK;
}

rc_err rc_mesh_validate(const rc_mesh *mesh, rc_error *err) {
  if (!mesh)
    return rc_error_set(err, RC_ERR_INPUT, "mesh pointer is NULL");
  rc_err rc = validate_arrays(mesh->n, mesh->frac, mesh->stages, err);
  if (rc)
    return rc;
  rc = validate_segments(mesh->n, mesh->nseg, mesh->seg_first, mesh->seg_min,
                         err);
  if (rc)
    return rc;
  rc = validate_pins(mesh->nseg, mesh->npin, mesh->pins, err);
  if (rc)
    return rc;
  rc_error_clear(err);
  return RC_OK;
}

rc_err rc_mesh_check_horizon(const rc_mesh *mesh, double t0, double tf,
                             rc_error *err) {
  rc_radau r;
  r.s = 0;
  double prev = t0;
  int node = 0;
  for (int k = 0; k < mesh->n; ++k) {
    const double a = k == 0 ? t0 : t0 + (tf - t0) * mesh->frac[k];
    const double b = k == mesh->n - 1 ? tf : t0 + (tf - t0) * mesh->frac[k + 1];
    const int s = mesh->stages[k];
    if (s != r.s && rc_radau_init(s, &r) != 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "stages %d in element %d: expected 1..%d", s, k,
                          RC_MAX_STAGES);
    for (int j = 0; j < s; ++j) {
      const double t = j == s - 1 ? b : a + r.c[j] * (b - a);
      ++node;
      if (!(t > prev))
        return rc_error_set(
            err, RC_ERR_INPUT,
            "horizon [%.17g, %.17g] (length %g) is too short for distinct "
            "node times on %d elements: node %d (element %d, stage %d) is at "
            "t = %.17g, not after the node before it: expected a longer "
            "horizon or fewer nodes",
            t0, tf, tf - t0, mesh->n, node, k, j + 1, t);
      prev = t;
    }
  }
  return RC_OK;
}

void rc_mesh_free(rc_mesh *mesh) {
  if (!mesh)
    return;
  free(mesh->frac);
  free(mesh->stages);
  free(mesh->seg_first);
  free(mesh->pins);
  memset(mesh, 0, sizeof *mesh);
}

int rc_mesh_nodes(const rc_mesh *mesh) {
  if (!mesh || !mesh->stages || mesh->n < 1)
    return 0;
  long long total = 1;
  for (int k = 0; k < mesh->n; ++k)
    total += mesh->stages[k];
  return total > 2147483647LL ? 0 : (int)total;
}

int rc_mesh_min_stages(const rc_mesh *mesh) {
  if (!mesh || !mesh->stages || mesh->n < 1)
    return 0;
  int m = mesh->stages[0];
  for (int k = 1; k < mesh->n; ++k)
    if (mesh->stages[k] < m)
      m = mesh->stages[k];
  return m;
}

int rc_mesh_max_stages(const rc_mesh *mesh) {
  if (!mesh || !mesh->stages)
    return 0;
  int m = 0;
  for (int k = 0; k < mesh->n; ++k)
    if (mesh->stages[k] > m)
      m = mesh->stages[k];
  return m;
}
