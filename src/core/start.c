/*
 * start.c - a different start as a library operation (radcol/start.h).
 *
 * The model's own restart when it has one; else a view: a copy of the
 * problem struct whose x0 points at the view's own array, the reference
 * dropped (it belongs to the old start), everything else borrowed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/start.h"

typedef struct start_view {
  rc_problem pb; /* first: the view is freed through its rc_problem */
  double x0[];   /* nx: the new start */
} start_view;

static void view_destroy(rc_problem *pb) {
  free((start_view *)pb);
}

rc_err rc_problem_view(const rc_problem *pb, const double *x0, rc_problem **out,
                       rc_error *err) {
  if (pb->sampled_reference)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: a sampled-reference formulation (its solution "
                        "is the model's reference from its own start) cannot "
                        "start elsewhere without the model's restart",
                        pb->model, pb->formulation);
  start_view *v = malloc(sizeof *v + sizeof(double) * (size_t)pb->nx);
  if (!v)
    return rc_error_set(err, RC_ERR_NOMEM, "%s/%s: out of memory for a start",
                        pb->model, pb->formulation);
  v->pb = *pb;
  memcpy(v->x0, x0, sizeof(double) * (size_t)pb->nx);
  v->pb.x0 = v->x0;
  v->pb.reference = NULL;
  v->pb.destroy = view_destroy;
  v->pb.restart = NULL; /* a view of a view borrows the same data */
  *out = &v->pb;
  return RC_OK;
}

rc_err rc_problem_restart(const rc_problem *pb, const double *x0,
                          rc_problem **out, rc_error *err) {
  if (out)
    *out = NULL;
  if (!pb || !x0 || !out)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_problem_restart: NULL argument: expected a "
                        "problem, a start and a place for the result");
  for (int i = 0; i < pb->nx; ++i)
    if (!isfinite(x0[i]))
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: start %s = %g: expected a finite number",
                          pb->model, pb->formulation, pb->var_names[i], x0[i]);
  rc_err rc = pb->restart ? pb->restart(pb, x0, out, err)
                          : rc_problem_view(pb, x0, out, err);
  if (rc == RC_OK && !*out)
    rc =
        rc_error_set(err, RC_ERR_INTERNAL, "%s/%s: restart returned no problem",
                     pb->model, pb->formulation);
  if (rc == RC_OK && (*out)->nx != pb->nx)
    rc = rc_error_set(err, RC_ERR_INTERNAL,
                      "%s/%s: restart returned %d states, expected %d",
                      pb->model, pb->formulation, (*out)->nx, pb->nx);
  if (rc == RC_OK)
    rc = rc_problem_validate(*out, err);
  if (rc != RC_OK)
    rc_problem_free(out);
  return rc;
}
