/*
 * radcol/structure.h - the switching structure of a solution: where its
 * constraints are active, where the controls jump or bend, where a control
 * that enters linearly sits strictly inside its bounds (a singular arc), and
 * the switch times between them with their uncertainty (docs/switching.md).
 * Found from the node values, the dense output and the bound multipliers;
 * never solves.  The library states facts; the CLI words them.
 *
 * Arcs.  For every simple bound of x, y, u (each finite side with lo < hi)
 * and every path constraint side (c_lo < c_hi), a node is active when
 *     distance to the bound <= act_tol * scale,
 *     scale = max(1, |bound|, max over the nodes of |value|)
 * (y, u and path values at t0 only where the problem imposes g at t0: node
 * 0 holds an extrapolation otherwise).  An arc is a maximal run of
 * consecutive active nodes (a gap of at most 2 nodes within 100 times the
 * threshold is bridged: solver noise).  A run of one node is a touch point
 * (touch = 1), and so is a run whose 3/4 quantile of the distance exceeds
 * 0.1 times the threshold: it approaches the bound without sitting on it (a
 * state that leaves a bound it is fixed at by a boundary condition like t^k, a
 * near miss); touch points are reported, never pinned. Its entry lies between
 * the last inactive node before it (t_a) and its first node (t_b), located on
 * the dense output by bisection for the first time within act_tol of the bound;
 * unc_entry is the half-width of the interval [t_a, t_b] around that time that
 * the mesh leaves open, unc = max(t - t_a, t_b - t); exits likewise.  An arc
 * that starts at t0 (ends at tf) has t_entry = t0 (t_exit = tf) and no
 * uncertainty.  With free breakpoints (radcol/mesh.h) an arc end that falls on
 * a segment boundary is that boundary's time, an NLP variable, and its
 * uncertainty is the caller's estimate of the boundary's error (boundary_unc;
 * NaN when not given).
 *
 * Singular arcs.  A control u_i enters linearly when the problem's Hessian
 * pattern has no (u_i, u_i) entry (F affine in u_i).  A maximal run of at
 * least min_singular_nodes consecutive stage nodes (default 2 s_max + 2)
 * where such a control is inactive on every bound (strictly inside,
 * distance > act_tol * scale) is a singular arc (kind RC_ARC_SINGULAR,
 * upper -1); shorter runs are the transition of a jump between bounds,
 * which a collocation solution smears over one or two elements.
 *
 * Switches.  Every arc end strictly inside (t0, tf) is an event (a touch
 * point is one event).  Sorted by time, an event joins the switch of the
 * event before it when both fall on the same segment boundary, or when they
 * are at most one element apart (the longer of the two elements holding
 * them, plus merge_tol; three between two arcs of one variable) and are not
 * the two ends of one arc: a collocation solution smears a jump over one or
 * two elements, moving every constraint the control drives there, and the
 * mesh cannot order those ends.  A switch is at its
 * segment boundary's time, else at the mean of its events' times; unc is
 * the largest of their uncertainties and their spread.
 * For every switch and every algebraic variable and control, jump holds the
 * estimated jump (right - left): across a segment boundary the previous
 * segment's last stage value and the extrapolation of the next segment's
 * stage polynomial; elsewhere the change across the window [t_a, t_b] beyond
 * what the slopes on its two sides explain (zero when they explain it).
 * jumps[s][i] = 1 when |jump| > jump_tol * scale_i: a jump; otherwise the
 * variable is continuous there (a kink where its own arc begins or ends).
 */
#ifndef RADCOL_STRUCTURE_H
#define RADCOL_STRUCTURE_H

#include <stddef.h>

#include "radcol/errors.h"
#include "radcol/problem.h"
#include "radcol/result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum rc_arc_kind {
  RC_ARC_BOUND = 0,   /* a simple bound of x, y or u is active */
  RC_ARC_PATH = 1,    /* a path constraint is at a bound */
  RC_ARC_SINGULAR = 2 /* a control entering linearly strictly inside */
} rc_arc_kind;

/* "bound", "path", "singular". */
const char *rc_arc_kind_name(rc_arc_kind kind);

typedef struct rc_arc {
  rc_arc_kind kind;
  int index; /* w entry (bound, singular) or path constraint (path) */
  int upper; /* 1: at the upper bound, 0: the lower; -1 for singular */
  double t_entry, t_exit;
  double unc_entry, unc_exit;        /* half-widths (above); 0 at t0 and tf */
  int entry_boundary, exit_boundary; /* segment boundary (1..nseg-1) the end
                                        falls on, or -1 */
  int first_node, last_node;         /* the run of nodes */
  int touch;                         /* 1: a single node */
} rc_arc;

typedef struct rc_switch {
  double t, unc;
  int boundary;    /* segment boundary at this time (free breakpoint), or -1 */
  int nevents;     /* arc ends that make this switch ... */
  int first_event; /* ... events[first_event .. first_event + nevents - 1] */
} rc_switch;

typedef struct rc_switch_event {
  int arc;   /* index into arcs */
  int entry; /* 1: the arc's entry, 0: its exit */
} rc_switch_event;

typedef struct rc_structure {
  int narc;
  rc_arc *arcs; /* sorted by kind, index, side, then time */
  int nswitch;
  rc_switch *switches; /* sorted by time */
  int nevent;
  rc_switch_event *events; /* grouped by switch, sorted by time */
  int nyu;                 /* ny + nu: columns of jump and jumps */
  double *jump;            /* nswitch x nyu: estimated jump (right - left) */
  int *jumps;              /* nswitch x nyu: 1 jump, 0 continuous */
  double *yu_scale;        /* nyu: max(1, max over the nodes |v|) */
  int *linear;             /* nu: 1 when control i enters linearly */
  int nsingular;           /* singular arcs among the arcs */
} rc_structure;

typedef struct rc_structure_options {
  double act_tol;         /* activity tolerance (relative); 1e-6 */
  double jump_tol;        /* a jump is larger than jump_tol * scale; 1e-3 */
  double merge_tol;       /* events closer than this (time) merge; 0 */
  int min_singular_nodes; /* stage nodes of a singular arc; 0: 2 s + 2 */
  /* With free breakpoints: the estimated error of each segment boundary's
   * time (mesh.nseg + 1 values, entries 1..nseg-1 used), or NULL. */
  const double *boundary_unc;
} rc_structure_options;

void rc_structure_options_default(rc_structure_options *o);

/* Detect the switching structure of sol, a solution of pb.  On RC_OK *st is
 * allocated (free with rc_structure_free); otherwise nothing is. */
rc_err rc_structure_detect(const rc_problem *pb, const rc_solution *sol,
                           const rc_structure_options *o, rc_structure *st,
                           rc_error *err);
void rc_structure_free(rc_structure *st);

/* Name of arc a of pb, e.g. "u1 = 10 (upper)", "path_0 >= ...": written
 * into buf (len bytes). */
void rc_arc_describe(const rc_problem *pb, const rc_arc *a, char *buf,
                     size_t len);

#ifdef __cplusplus
}
#endif
#endif
