/*
 * guess_map.c - an initial guess from a solution of another formulation of
 * the same problem: variables matched by name and kind (radcol/result.h,
 * rc_solution_map).
 *
 * Rule.  Target variable i (name n_i, kind k_i) takes the column of the
 * source variable with the same name, at every node of the source mesh,
 * when the kinds are compatible: a trajectory (differential, algebraic or
 * control: one value per node) maps to a trajectory of any of these kinds,
 * since which variables are states is what differs between formulations
 * (a multiplier is a state in one, algebraic in another); a decision parameter
 * maps only to a decision parameter.  Source variables the target lacks are
 * ignored.  A target variable with no source of its name, or only one of an
 * incompatible kind, cannot be mapped: the call fails naming every such
 * variable (and what the source holds), and nothing is allocated.
 *
 * The result lives on a copy of the source mesh and times (rc_solve
 * interpolates it onto the solve's mesh at the same horizon fraction) and
 * carries no multipliers: the duals of another formulation's constraints
 * mean nothing here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/result.h"

static rc_var_kind src_kind(const rc_solution *s, int j) {
  if (j < s->nx)
    return RC_VAR_DIFFERENTIAL;
  if (j < s->nx + s->ny)
    return RC_VAR_ALGEBRAIC;
  if (j < s->nx + s->ny + s->nu)
    return RC_VAR_CONTROL;
  return RC_VAR_PARAMETER;
}

/* Appends "text" to buf (size n), separated by ", ". */
static void append(char *buf, size_t n, const char *text) {
  const size_t used = strlen(buf);
  if (used + 1 < n)
    snprintf(buf + used, n - used, "%s%s", used ? ", " : "", text);
}

rc_err rc_solution_map(const rc_problem *pb, const rc_solution *src,
                       const char *const *src_names, int *nmapped,
                       rc_solution *out, rc_error *err) {
  if (!pb || !src || !src_names || !out)
    return rc_error_set(err, RC_ERR_INPUT, "rc_solution_map: NULL argument");
  memset(out, 0, sizeof *out);
  const int nw = rc_problem_nw(pb);
  const int ns = src->nx + src->ny + src->nu + src->np;
  int *from = malloc(sizeof *from * (size_t)(nw ? nw : 1));
  if (!from)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory mapping a guess");
  char missing[RC_MESSAGE_MAX / 2] = "", have[RC_MESSAGE_MAX / 4] = "";
  int nbad = 0;
  for (int i = 0; i < nw; ++i) {
    const rc_var_kind ki = rc_problem_var_kind(pb, i);
    from[i] = -1;
    int same_name = -1;
    for (int j = 0; j < ns && from[i] < 0; ++j) {
      if (strcmp(pb->var_names[i], src_names[j]) != 0)
        continue;
      same_name = j;
      if ((ki == RC_VAR_PARAMETER) == (src_kind(src, j) == RC_VAR_PARAMETER))
        from[i] = j;
    }
    if (from[i] >= 0)
      continue;
    char item[128];
    if (same_name >= 0)
      snprintf(item, sizeof item, "%s (%s here, %s in the guess)",
               pb->var_names[i], rc_var_kind_name(ki),
               rc_var_kind_name(src_kind(src, same_name)));
    else
      snprintf(item, sizeof item, "%s (%s)", pb->var_names[i],
               rc_var_kind_name(ki));
    append(missing, sizeof missing, item);
    ++nbad;
  }
  if (nbad > 0) {
    for (int j = 0; j < ns; ++j)
      append(have, sizeof have, src_names[j]);
    free(from);
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: %d variable(s) cannot be mapped by name and "
                        "kind: %s; the guess holds %s",
                        pb->model, pb->formulation, nbad, missing,
                        ns ? have : "no variables");
  }
  rc_err rc = rc_solution_alloc(pb, &src->mesh, src->t0, src->tf, 0, out, err);
  if (rc != RC_OK) {
    free(from);
    return rc;
  }
  for (int n = 0; n < src->nnodes; ++n) {
    out->t[n] = src->t[n];
    const double *ws = src->w + (size_t)n * (size_t)ns;
    double *wt = out->w + (size_t)n * (size_t)nw;
    for (int i = 0; i < nw; ++i)
      wt[i] = ws[from[i]];
  }
  free(from);
  if (nmapped)
    *nmapped = nw;
  return RC_OK;
}
