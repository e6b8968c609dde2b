/*
 * square.c - is a problem a square system, an initial-value DAE that the
 * engine integrates element by element (newton.c, march.c) instead of
 * solving an NLP?  The rule (radcol/solve.h, rc_square_system): no Lagrange
 * or Mayer term, no boundary constraint, every x(t0) fixed and no x(tf)
 * fixed, tf not free, every parameter fixed by equal finite bounds, every
 * path constraint an equality and as many of them as controls, and not a
 * sampled-reference formulation.  Its own module so that solve.c and
 * march.c can both use it without calling each other both ways.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "nlp/square.h"

/* Writes the reason into why (when given) and returns 0. */
static int why_not(char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int why_not(char *why, size_t len, const char *fmt, ...) {
  if (why && len > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
  }
  return 0;
}

int rc_square_check(const rc_problem *pb, char *why, size_t len) {
  if (why && len > 0)
    why[0] = '\0';
  if (pb->sampled_reference)
    return why_not(why, len, "it is solved by sampling its reference");
  if (pb->has_lagrange || pb->has_mayer)
    return why_not(why, len, "it has an objective (a %s term)",
                   pb->has_lagrange ? "Lagrange" : "Mayer");
  if (pb->data)
    return why_not(why, len, "it has data terms at interior times");
  if (pb->nb > 0)
    return why_not(why, len, "it has %d boundary constraints", pb->nb);
  if (pb->free_tf)
    return why_not(why, len, "the final time is free");
  for (int i = 0; i < pb->nx; ++i) {
    if (!pb->fix_x0 || !pb->fix_x0[i])
      return why_not(why, len, "the initial value of %s is free",
                     pb->var_names[i]);
    if (pb->fix_xf && pb->fix_xf[i])
      return why_not(why, len, "the final value of %s is fixed",
                     pb->var_names[i]);
  }
  const int nq = pb->nx + pb->ny + pb->nu;
  for (int i = nq; i < rc_problem_nw(pb); ++i)
    if (!(pb->w_lo[i] == pb->w_hi[i] && isfinite(pb->w_lo[i])))
      return why_not(why, len, "parameter %s is free", pb->var_names[i]);
  for (int i = 0; i < pb->nc; ++i)
    if (!(pb->c_lo[i] == pb->c_hi[i] && isfinite(pb->c_lo[i])))
      return why_not(why, len, "path constraint %d is an inequality", i);
  if (pb->nu != pb->nc)
    return why_not(why, len,
                   "its %d controls are not matched by as many path "
                   "equalities (%d)",
                   pb->nu, pb->nc);
  return 1;
}
