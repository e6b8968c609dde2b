/*
 * radcol/mesh.h - finite-element meshes on the normalised horizon [0, 1].
 *
 * Breakpoints are stored as fractions 0 = frac[0] < ... < frac[n] = 1 of the
 * horizon, so a mesh survives a change of tf (and is what free-tf problems
 * need): tau_k = t0 + (tf - t0) frac[k].  Element k (0-based) has
 * stages[k] >= 1 Radau IIA stages.
 *
 * Segments (free breakpoints, docs/switching.md).  With nseg >= 1 the
 * horizon is cut at the element boundaries seg_first[1..nseg-1] into nseg
 * segments, segment q holding elements seg_first[q] .. seg_first[q+1] - 1,
 * and the segment durations T_q are decision variables of the NLP:
 *     T_q >= seg_min (tf - t0)    (tf: the problem's, or its guess when free)
 *     T_0 + ... + T_{nseg-1} = tf - t0         (tf fixed or free)
 * Inside segment q every element keeps its length as a fixed fraction of
 * T_q (the fractions the mesh holds), so h_k = T_q phi_k with
 * phi_k = (frac[k+1] - frac[k]) / (frac[seg_first[q+1]] - frac[seg_first[q]]).
 * frac holds the breakpoints of a starting point (and, in a solution's mesh,
 * those the solve found).  nseg = 0 (every constructor's default): no
 * segments, element lengths are fixed fractions of tf - t0 as above.
 *
 * A segment boundary is where the solution may jump: the dense output of
 * the algebraic variables and controls in the first element of a segment
 * (q >= 1) is the degree-(s-1) polynomial through that element's stages
 * only, not through the previous segment's last value (radcol/result.h).
 *
 * Pins (an arc of the switching structure held fixed): pin p holds, on every
 * node of segment pins[p].seg, either the simple bound of point-vector entry
 * index (kind RC_PIN_BOUND; x, y or u; the lower bound when upper = 0, the
 * upper when upper = 1) or path constraint index at its lower or upper bound
 * (kind RC_PIN_PATH) - as bounds of the NLP, nothing else changes.  A state
 * is pinned at the segment's start node too (its arc begins there); y, u
 * and path constraints at the segment's stages.  The free breakpoints then
 * put each boundary where the arcs on its two sides meet.  A pin of kind
 * RC_PIN_CONTINUOUS (segment q >= 1, entry index an algebraic variable or
 * control, upper unused) makes that variable continuous at the start of
 * segment q: its value at the previous segment's last stage equals the
 * extrapolation of the segment's first-element stage polynomial (a kink
 * junction: without it the objective hardly moves with the boundary, which
 * the NLP then places only to about the cube root of its tolerance).
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

enum { RC_PIN_BOUND = 0, RC_PIN_PATH = 1, RC_PIN_CONTINUOUS = 2 };

typedef struct rc_mesh_pin {
  int seg;   /* segment 0..nseg-1 */
  int kind;  /* RC_PIN_BOUND, RC_PIN_PATH or RC_PIN_CONTINUOUS */
  int index; /* point-vector entry (x, y, u) or path constraint */
  int upper; /* 0: at the lower bound, 1: at the upper bound */
} rc_mesh_pin;

typedef struct rc_mesh {
  int n;        /* number of elements */
  double *frac; /* n + 1 breakpoints in [0, 1] (owned) */
  int *stages;  /* n stage counts (owned) */
  /* free breakpoints (see above; appended in radcol 0.3) */
  int nseg;          /* 0: none, else the number of segments (1..n) */
  int *seg_first;    /* nseg + 1 element indices, 0 = first < ... < last = n
                        (owned; NULL when nseg = 0) */
  double seg_min;    /* least segment duration as a fraction of tf - t0, in
                        (0, 1 / nseg) */
  int npin;          /* pinned arcs (see above) */
  rc_mesh_pin *pins; /* npin (owned; NULL when npin = 0) */
} rc_mesh;

/* n equal elements of s stages.  Fails (naming the value) for n < 1 or
 * s outside 1..RC_MAX_STAGES. */
rc_err rc_mesh_uniform(int n, int s, rc_mesh *mesh, rc_error *err);
/* Copies n+1 fractions and n stage counts after validating them. */
rc_err rc_mesh_from_arrays(int n, const double *frac, const int *stages,
                           rc_mesh *mesh, rc_error *err);
/* A copy with its segments. */
rc_err rc_mesh_copy(const rc_mesh *src, rc_mesh *dst, rc_error *err);
/* Strictly increasing fractions from 0 to 1, finite, stages in range; with
 * segments: 1 <= nseg <= n, seg_first strictly increasing from 0 to n,
 * seg_min in (0, 1 / nseg). */
rc_err rc_mesh_validate(const rc_mesh *mesh, rc_error *err);
/* The node times of a valid mesh on [t0, tf] (breakpoints t0 + (tf - t0)
 * frac[k], stages at the Radau points of each element) are strictly
 * increasing doubles: RC_ERR_INPUT when the horizon is too short for that
 * (a subnormal tf - t0, or [1e300, nextafter(1e300)]), naming the node. */
rc_err rc_mesh_check_horizon(const rc_mesh *mesh, double t0, double tf,
                             rc_error *err);
/* Cuts mesh into nseg segments at the element indices first[0..nseg]
 * (copied; 0 = first[0] < ... < first[nseg] = n) with least duration
 * seg_min (fraction of the horizon); nseg = 0 removes the segments.  On
 * failure (naming the bad value) the mesh is unchanged. */
rc_err rc_mesh_set_segments(rc_mesh *mesh, int nseg, const int *first,
                            double seg_min, rc_error *err);
/* Sets the pinned arcs (copied; npin = 0 removes them).  Each pin's segment
 * must exist (>= 1 for RC_PIN_CONTINUOUS), its kind be one of the three,
 * index >= 0 and upper 0 or 1 (the transcription checks the index against
 * the problem and that the bound is finite).
 * Changing the segments (rc_mesh_set_segments) removes the pins. */
rc_err rc_mesh_set_pins(rc_mesh *mesh, int npin, const rc_mesh_pin *pins,
                        rc_error *err);
/* Gives mesh (a mesh built from src's breakpoints: every segment boundary
 * fraction of src appears in mesh->frac exactly, e.g. after splitting or
 * raising elements) src's segments, least duration and pins.  Without
 * segments in src it removes mesh's.  RC_ERR_INPUT naming the boundary when
 * one is missing (mesh unchanged). */
rc_err rc_mesh_carry_segments(const rc_mesh *src, rc_mesh *mesh, rc_error *err);
/* 1 when element k is the first of a segment q >= 1 (a boundary where the
 * solution may jump), else 0. */
int rc_mesh_segment_start(const rc_mesh *mesh, int k);
/* Segment of element k (0 without segments). */
int rc_mesh_segment_of(const rc_mesh *mesh, int k);
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
