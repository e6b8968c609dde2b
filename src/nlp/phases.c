/*
 * phases.c - multiphase problems (radcol/phases.h): validation and each
 * phase's problem in its time frame (the composed NLP is phases_nlp.c, the
 * solve phases_solve.c).
 *
 * Time frames (radcol/phases.h).  S_0 = t0 of phase 0; S_{k+1} = S_k + T_k
 * is fixed while every duration up to k is.  The local problem of phase k
 * is a struct copy of its problem (callbacks and user data shared, destroy
 * NULL) with
 *     t0 = the problem's t0 (autonomous), or S_k (not autonomous: absolute
 *          time, S_k must be fixed and T_k too),
 *     tf = t0 + T_k, free_tf and [tf_lo, tf_hi] = t0 + [T_lo, T_hi] from
 *          the duration,
 *     data = the phase's data, else the problem's.

 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/phases.h"

#define RC_PHASES_MAX 100000

void rc_phases_free(rc_phases **ph) {
  if (!ph || !*ph)
    return;
  if ((*ph)->destroy)
    (*ph)->destroy(*ph);
  *ph = NULL;
}

static const char *phase_name(const rc_phases *ph, int k) {
  const char *n = ph->phase[k].name;
  return n && n[0] ? n : "?";
}

/* Is the duration of phase k fixed (not an NLP variable)? */
static int fixed_duration(const rc_phase *P) {
  return P->duration == RC_DURATION_FIXED ||
         (P->duration == RC_DURATION_PROBLEM && !P->pb->free_tf);
}

static double phase_T(const rc_phase *P) {
  return P->duration == RC_DURATION_PROBLEM ? P->pb->tf - P->pb->t0 : P->T;
}

/* S_k when every duration before k is fixed, else NaN. */
static double fixed_start(const rc_phases *ph, int k) {
  double S = ph->phase[0].pb->t0;
  for (int j = 0; j < k; ++j) {
    if (!fixed_duration(&ph->phase[j]))
      return NAN;
    S += phase_T(&ph->phase[j]);
  }
  return S;
}

rc_err rc_phases_local_problem(const rc_phases *ph, int k, rc_problem *out,
                               double *start, rc_error *err) {
  const rc_phase *P = &ph->phase[k];
  const rc_problem *pb = P->pb;
  const double S = fixed_start(ph, k);
  if (start)
    *start = S;
  *out = *pb;
  out->destroy = NULL;
  if (P->data)
    out->data = P->data;
  if (!pb->autonomous && k > 0 && isnan(S)) {
    int j = 0;
    while (j < k && fixed_duration(&ph->phase[j]))
      ++j;
    return rc_error_set(err, RC_ERR_INPUT,
                        "phase %s (%s/%s) is not autonomous (its functions "
                        "depend on t), so it needs a fixed absolute start "
                        "time, but phase %s before it has a free duration: "
                        "expected fixed durations for every phase before a "
                        "phase that depends on t",
                        phase_name(ph, k), pb->model, pb->formulation,
                        phase_name(ph, j));
  }
  const double t0 = pb->autonomous || k == 0 ? pb->t0 : S;
  switch (P->duration) {
  case RC_DURATION_PROBLEM:
    out->t0 = t0;
    out->tf = t0 + (pb->tf - pb->t0);
    out->tf_lo = t0 + (pb->tf_lo - pb->t0);
    out->tf_hi = t0 + (pb->tf_hi - pb->t0);
    break;
  case RC_DURATION_FIXED:
    if (!(isfinite(P->T) && P->T > 0))
      return rc_error_set(err, RC_ERR_INPUT,
                          "phase %s: duration %g: expected a finite number > 0",
                          phase_name(ph, k), P->T);
    out->t0 = t0;
    out->tf = t0 + P->T;
    out->free_tf = 0;
    break;
  case RC_DURATION_FREE:
    if (!(isfinite(P->T_lo) && isfinite(P->T_hi) && isfinite(P->T) &&
          P->T_lo > 0 && P->T_lo <= P->T && P->T <= P->T_hi))
      return rc_error_set(err, RC_ERR_INPUT,
                          "phase %s: free duration %g in [%g, %g]: expected "
                          "finite 0 < min <= guess <= max",
                          phase_name(ph, k), P->T, P->T_lo, P->T_hi);
    if (!pb->autonomous)
      return rc_error_set(err, RC_ERR_INPUT,
                          "phase %s (%s/%s): a free duration needs an "
                          "autonomous problem (its functions depend on t)",
                          phase_name(ph, k), pb->model, pb->formulation);
    out->t0 = t0;
    out->tf = t0 + P->T;
    out->free_tf = 1;
    out->tf_lo = t0 + P->T_lo;
    out->tf_hi = t0 + P->T_hi;
    break;
  default:
    return rc_error_set(err, RC_ERR_INPUT,
                        "phase %s: duration kind %d: expected "
                        "RC_DURATION_PROBLEM, _FIXED or _FREE",
                        phase_name(ph, k), (int)P->duration);
  }
  return RC_OK;
}

static int valid_name(const char *s) {
  if (!s || !s[0] || strlen(s) > 64)
    return 0;
  for (; *s; ++s)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' || *s == '.'))
      return 0;
  return 1;
}

static rc_err check_link_pattern(const rc_phases *ph, int l,
                                 const rc_pattern *P, const char *what,
                                 int nrow, int ncol, int lower, rc_error *err) {
  if (P->nnz < 0 || (P->nnz > 0 && (!P->row || !P->col)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: link %d: %s pattern with nnz %d without arrays",
                        ph->name ? ph->name : "phases", l, what, P->nnz);
  for (int e = 0; e < P->nnz; ++e) {
    const int r = P->row[e], c = P->col[e];
    if (r < 0 || r >= nrow || c < 0 || c >= ncol || (lower && r < c))
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s: link %d: %s pattern entry %d is (%d, %d): "
                          "expected row 0..%d, column 0..%d%s",
                          ph->name ? ph->name : "phases", l, what, e, r, c,
                          nrow - 1, ncol - 1,
                          lower ? ", row >= col (lower triangle)" : "");
    for (int q = 0; q < e; ++q)
      if (P->row[q] == r && P->col[q] == c)
        return rc_error_set(err, RC_ERR_INPUT,
                            "%s: link %d: %s pattern entries %d and %d are "
                            "both (%d, %d): expected no duplicates",
                            ph->name ? ph->name : "phases", l, what, q, e, r,
                            c);
  }
  return RC_OK;
}

static rc_err validate_links(const rc_phases *ph, rc_error *err) {
  const char *nm = ph->name ? ph->name : "phases";
  if (ph->nlinks < 0 || (ph->nlinks > 0 && !ph->links))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: %d links without an array: expected nlinks >= 0",
                        nm, ph->nlinks);
  for (int l = 0; l < ph->nlinks; ++l) {
    const rc_link *L = &ph->links[l];
    if (L->boundary < 0 || L->boundary + 1 >= ph->nphases)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s: link %d at boundary %d: expected 0..%d (the "
                          "boundary between phases k and k+1)",
                          nm, l, L->boundary, ph->nphases - 2);
    const int nout = L->nrows + (L->has_objective ? 1 : 0);
    if (L->nrows < 0 || (L->has_objective != 0 && L->has_objective != 1) ||
        nout < 1)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s: link %d has %d rows and has_objective %d: "
                          "expected rows >= 0, has_objective 0 or 1, and at "
                          "least one output",
                          nm, l, L->nrows, L->has_objective);
    if (!L->eval || !L->jacobian || !L->hessian)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s: link %d: expected eval, jacobian and hessian "
                          "functions",
                          nm, l);
    if (L->nrows > 0 && (!L->lo || !L->hi))
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s: link %d: %d rows without bounds", nm, l,
                          L->nrows);
    for (int i = 0; i < L->nrows; ++i)
      if (isnan(L->lo[i]) || isnan(L->hi[i]) || L->lo[i] > L->hi[i])
        return rc_error_set(
            err, RC_ERR_INPUT,
            "%s: link %d row %d (%s): bounds [%g, %g]: "
            "expected lo <= hi",
            nm, l, i, L->row_names && L->row_names[i] ? L->row_names[i] : "?",
            L->lo[i], L->hi[i]);
    const int ne =
        rc_link_ne(ph->phase[L->boundary].pb, ph->phase[L->boundary + 1].pb);
    rc_err rc;
    if ((rc = check_link_pattern(ph, l, &L->jac, "Jacobian", nout, ne, 0,
                                 err)) != RC_OK ||
        (rc = check_link_pattern(ph, l, &L->hes, "Hessian", ne, ne, 1, err)) !=
            RC_OK)
      return rc;
  }
  return RC_OK;
}

rc_err rc_phases_validate(const rc_phases *ph, rc_error *err) {
  if (!ph || ph->nphases < 1 || ph->nphases > RC_PHASES_MAX || !ph->phase)
    return rc_error_set(err, RC_ERR_INPUT,
                        "multiphase problem with %d phases: expected 1..%d "
                        "phases and their array",
                        ph ? ph->nphases : 0, RC_PHASES_MAX);
  if (ph->continuity != RC_CONTINUITY_SHARED &&
      ph->continuity != RC_CONTINUITY_NONE)
    return rc_error_set(err, RC_ERR_INPUT,
                        "continuity %d: expected RC_CONTINUITY_SHARED (0) or "
                        "RC_CONTINUITY_NONE (1)",
                        (int)ph->continuity);
  if (!(ph->objective_scale >= 0 && isfinite(ph->objective_scale)))
    return rc_error_set(err, RC_ERR_INPUT,
                        "objective scale %g: expected a finite number >= 0 "
                        "(0: the phases' own)",
                        ph->objective_scale);
  for (int k = 0; k < ph->nphases; ++k) {
    const rc_phase *P = &ph->phase[k];
    if (!valid_name(P->name))
      return rc_error_set(err, RC_ERR_INPUT,
                          "phase %d: name '%s': expected 1..64 letters, "
                          "digits, '_', '-' or '.'",
                          k, P->name ? P->name : "(none)");
    for (int j = 0; j < k; ++j)
      if (strcmp(ph->phase[j].name, P->name) == 0)
        return rc_error_set(err, RC_ERR_INPUT,
                            "phases %d and %d are both called '%s': expected "
                            "distinct names",
                            j, k, P->name);
    if (!P->pb)
      return rc_error_set(err, RC_ERR_INPUT, "phase %s: no problem", P->name);
    rc_error e2 = {RC_OK, ""};
    rc_err rc = rc_problem_validate(P->pb, &e2);
    if (rc != RC_OK)
      return rc_error_set(err, rc, "phase %s: %s", P->name, e2.message);
    if (P->pb->sampled_reference)
      return rc_error_set(err, RC_ERR_INPUT,
                          "phase %s: %s/%s is solved by sampling its "
                          "reference, not by an NLP: expected a formulation "
                          "that is transcribed",
                          P->name, P->pb->model, P->pb->formulation);
    /* one sense for the whole problem: every phase maximises (the sum is
     * maximised) or none does; data terms are least squares (minimised) */
    if (P->pb->maximize != ph->phase[0].pb->maximize)
      return rc_error_set(
          err, RC_ERR_INPUT,
          "phase %s: %s/%s %s its objective but phase %s %s its own: "
          "phases %s the sum of the phase objectives, so expected every "
          "phase to %s (maximize = %d)",
          P->name, P->pb->model, P->pb->formulation,
          P->pb->maximize ? "maximises" : "minimises", ph->phase[0].name,
          ph->phase[0].pb->maximize ? "maximises" : "minimises",
          ph->phase[0].pb->maximize ? "maximise" : "minimise",
          ph->phase[0].pb->maximize ? "maximise" : "minimise",
          ph->phase[0].pb->maximize);
    if (P->pb->maximize && (P->data || P->pb->data))
      return rc_error_set(err, RC_ERR_INPUT,
                          "phase %s: %s/%s maximises its objective and has "
                          "data at interior times (least-squares terms, "
                          "minimised): expected maximize = 0 with data",
                          P->name, P->pb->model, P->pb->formulation);
    rc_problem local;
    if ((rc = rc_phases_local_problem(ph, k, &local, NULL, err)) != RC_OK)
      return rc;
    if ((rc = rc_problem_validate(&local, &e2)) != RC_OK)
      return rc_error_set(err, rc, "phase %s: %s", P->name, e2.message);
    if (local.data && (rc = rc_data_validate(&local, local.data, &e2)) != RC_OK)
      return rc_error_set(err, rc, "phase %s: %s", P->name, e2.message);
  }
  return validate_links(ph, err);
}

void rc_phases_solution_free(rc_phases_solution *s) {
  if (!s)
    return;
  for (int k = 0; s->sol && k < s->nphases; ++k)
    rc_solution_free(&s->sol[k]);
  for (int r = 0; s->link_name && r < s->nlink; ++r)
    free(s->link_name[r]);
  free(s->pb);
  free(s->sol);
  free(s->start);
  free(s->duration);
  free(s->objective);
  free(s->data_objective);
  free(s->link_name);
  free(s->link_boundary);
  free(s->link_value);
  free(s->link_lo);
  free(s->link_hi);
  free(s->link_dual);
  free(s->path_backoff);
  free(s->path_violation);
  for (int k = 0; k < s->nphases; ++k) {
    if (s->path_lo)
      free(s->path_lo[k]);
    if (s->path_hi)
      free(s->path_hi[k]);
  }
  free(s->path_lo);
  free(s->path_hi);
  memset(s, 0, sizeof *s);
}
