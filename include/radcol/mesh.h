/*
 * radcol/mesh.h - finite-element meshes on the normalised horizon [0, 1].
 *
 * Breakpoints are stored as fractions 0 = frac[0] < ... < frac[n] = 1 of the
 * horizon, so a mesh survives a change of tf (and is what free-tf problems
 * need): tau_k = t0 + (tf - t0) frac[k].  Element k (0-based) has
 * stages[k] >= 1 Radau IIA stages.
 */
#ifndef RADCOL_MESH_H
#define RADCOL_MESH_H

#include "radcol/errors.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RC_MAX_STAGES 20
/* The largest number of elements of a mesh. */
#define RC_MESH_MAX_ELEMENTS 10000000

typedef struct rc_mesh {
  int n;        /* number of elements */
  double *frac; /* n + 1 breakpoints in [0, 1] (owned) */
  int *stages;  /* n stage counts (owned) */
} rc_mesh;

/* n equal elements of s stages.  Fails (naming the value) for n < 1 or
 * s outside 1..RC_MAX_STAGES. */
rc_err rc_mesh_uniform(int n, int s, rc_mesh *mesh, rc_error *err);
/* Copies n+1 fractions and n stage counts after validating them. */
rc_err rc_mesh_from_arrays(int n, const double *frac, const int *stages,
                           rc_mesh *mesh, rc_error *err);
rc_err rc_mesh_copy(const rc_mesh *src, rc_mesh *dst, rc_error *err);
/* Strictly increasing fractions from 0 to 1, finite, stages in range. */
rc_err rc_mesh_validate(const rc_mesh *mesh, rc_error *err);
/* The node times of a valid mesh on [t0, tf] (breakpoints t0 + (tf - t0)
 * frac[k], stages at the Radau points of each element) are strictly
 * increasing doubles: RC_ERR_INPUT when the horizon is too short for that
 * (a subnormal tf - t0, or [1e300, nextafter(1e300)]), naming the node. */
rc_err rc_mesh_check_horizon(const rc_mesh *mesh, double t0, double tf,
                             rc_error *err);
/* Frees the arrays and zeroes the struct (safe on a zeroed mesh). */
void rc_mesh_free(rc_mesh *mesh);
/* 1 + sum of stages: node 0 is t0, then every element's stages in order. */
int rc_mesh_nodes(const rc_mesh *mesh);
int rc_mesh_min_stages(const rc_mesh *mesh);
int rc_mesh_max_stages(const rc_mesh *mesh);

#ifdef __cplusplus
}
#endif
#endif
