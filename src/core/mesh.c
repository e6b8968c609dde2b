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
  mesh->n = n;
  mesh->frac = f;
  mesh->stages = s;
  rc_error_clear(err);
  return RC_OK;
}

rc_err rc_mesh_copy(const rc_mesh *src, rc_mesh *dst, rc_error *err) {
  if (!src)
    return rc_error_set(err, RC_ERR_INPUT, "source mesh pointer is NULL");
  return rc_mesh_from_arrays(src->n, src->frac, src->stages, dst, err);
}

rc_err rc_mesh_validate(const rc_mesh *mesh, rc_error *err) {
  if (!mesh)
    return rc_error_set(err, RC_ERR_INPUT, "mesh pointer is NULL");
  rc_err rc = validate_arrays(mesh->n, mesh->frac, mesh->stages, err);
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
