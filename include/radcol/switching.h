/*
 * radcol/switching.h - refinement that follows the switching structure
 * (docs/switching.md): from a solution whose controls jump or whose
 * constraints become active, a mesh with free breakpoints at the switches
 * and the arcs between them pinned, so that the solution is smooth inside
 * every element and the method converges at its full order.
 *
 * The plan (rc_switching_plan).  From the structure of a solution
 * (radcol/structure.h), after dropping touch points, arcs shorter than
 * drop_elements of their elements (a blip of the solver) or than twice the
 * least segment duration (a pinned arc the NLP shrank away: it vanished),
 * and arcs of a state at t0 (tf) where a boundary condition fixes it at
 * that bound (it leaves the bound there: a rest-to-rest start):
 *   - every switch becomes a segment boundary, a free breakpoint (switches
 *     closer than min_gap (tf - t0) merge);
 *   - every segment lying inside an arc of a bound or path constraint pins
 *     that constraint there (radcol/mesh.h: RC_PIN_BOUND / RC_PIN_PATH),
 *     so that the two arcs on either side of a boundary differ and the
 *     boundary is where the NLP's optimum puts the switch;
 *   - on a solution that has free breakpoints already, a control that does
 *     not jump at a boundary (the structure's jump test, there between the
 *     exact one-sided limits) and is not pinned on both sides gets a
 *     continuity pin (RC_PIN_CONTINUOUS): a kink, whose position the
 *     objective alone determines only to about the square root of the
 *     NLP's tolerance (the first plan, from a solution that smears its
 *     jumps, lets every control jump: a jump taken for a kink would be
 *     forced continuous);
 *   - each segment gets as many elements as the solution's mesh has there
 *     (at least min_elements), of the largest stage count among them, equal
 *     in length; least duration seg_min (tf - t0).
 * A structure without switches gives no plan: such a problem never gets
 * free breakpoints; nor does a problem that is not autonomous (its
 * functions depend on t, and free breakpoints move every node's time):
 * its refinement takes the hp steps only.
 *
 * Resolution first (rc_switching_next_mesh).  A switch made of the ends of
 * arcs of different constraints within an element or two (a control jump
 * moves every constraint it drives) cannot tell whether they coincide on
 * this mesh; before the first plan, the elements around such switches are
 * split (up to max_resolve times), so that distinct switches are not
 * merged into one boundary.
 */
#ifndef RADCOL_SWITCHING_H
#define RADCOL_SWITCHING_H

#include <stddef.h>

#include "radcol/errors.h"
#include "radcol/mesh.h"
#include "radcol/problem.h"
#include "radcol/result.h"
#include "radcol/structure.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ipopt tolerance of the solves on a mesh with free breakpoints (the
 * refinement's and the enriched estimate's): a switch at a kink, where the
 * control is continuous, moves the objective only to second order, so its
 * time comes out to about the square root of the tolerance (Bryson-Denham:
 * 1e-10 leaves the junctions 1e-5 off, 1e-14 1e-10). */
#define RC_SWITCHING_TOL 1e-14

typedef struct rc_switching_options {
  rc_structure_options detect; /* act_tol 1e-5 here */
  double seg_min;              /* least segment duration (fraction); 1e-4 */
  double min_gap;              /* switches closer (fraction) merge; 1e-4 */
  int min_elements;            /* elements per segment at least; 1 */
  double drop_elements;        /* arcs shorter than this many of their
                                  elements are not planned; 0.5 */
  int max_resolve;             /* local splits before the first plan; 2 */
  int resolve_split;           /* children per split element; 4 */
  int max_plans;               /* plans per run (the first and structure
                                  changes); 4 */
} rc_switching_options;

void rc_switching_options_default(rc_switching_options *o);

/* The plan of sol (a solution of pb) with structure st: *out a mesh with
 * segments and pins (allocated) and 1, or 0 (out untouched) when st has no
 * switch to plan or pb is not autonomous. */
int rc_switching_plan(const rc_problem *pb, const rc_solution *sol,
                      const rc_structure *st, const rc_switching_options *o,
                      rc_mesh *out, rc_error *err);

/* What the refinement does next with a solution (called after a converged
 * solve that missed the tolerance): detect the structure, and
 *   return 1 and *next = a mesh that splits the elements around switches
 *     that the mesh does not resolve yet (at most o->max_resolve times per
 *     run: *nresolve counts them), or
 *   return 2 and *next = the plan, when sol's mesh has no segments or its
 *     segments and pins differ from the plan (the structure changed), at
 *     most o->max_plans times per run (*nplan counts them), or
 *   return 0 (*next untouched): the ordinary hp step applies (no switches,
 *     pb not autonomous, or the plan is sol's own segmentation), or
 *   return -1 on an error (err set).
 * note (len bytes) says what was found and done, for the progress line. */
int rc_switching_next_mesh(const rc_problem *pb, const rc_solution *sol,
                           const rc_switching_options *o, int *nresolve,
                           int *nplan, rc_mesh *next, char *note, size_t len,
                           rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
