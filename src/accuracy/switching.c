/*
 * switching.c - refinement that follows the switching structure
 * (radcol/switching.h, docs/switching.md): the plan of a solution (free
 * breakpoints at its switches, its arcs pinned) and the decision the
 * refinement loop takes after each solve (resolve the switches, plan, or
 * the ordinary hp step).
 *
 * Invariants of a plan: boundaries strictly increasing and at least
 * min_gap (tf - t0) apart and from t0 and tf; every segment has at least
 * min_elements elements; a variable is pinned at most once per segment
 * (a segment inside arcs at both of its bounds pins neither: the structure
 * is ambiguous there); a continuity pin sits on a boundary (segment >= 1).
 * The plan's breakpoint fractions are those of the solution's time scale;
 * the free breakpoints then move them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/switching.h"

void rc_switching_options_default(rc_switching_options *o) {
  if (!o)
    return;
  rc_structure_options_default(&o->detect);
  o->detect.act_tol = 1e-5;
  o->seg_min = 1e-4;
  o->min_gap = 1e-4;
  o->min_elements = 1;
  o->drop_elements = 0.5;
  o->max_resolve = 2;
  o->resolve_split = 4;
  o->max_plans = 4;
}

/* Element of sol holding t, its start and length. */
static double elem_len(const rc_solution *sol, double t) {
  const int k = rc_solution_element(sol, t);
  return sol->t[rc_solution_element_offset(sol, k + 1)] -
         sol->t[rc_solution_element_offset(sol, k)];
}

/* Is arc a planned (pinned, or a boundary source)?  Not a touch; not
 * shorter than drop_elements of its elements or than twice the least
 * segment duration (a pinned segment the NLP shrank to its minimum: the arc
 * vanished); not a state's arc at an end where a boundary condition fixes
 * the state at that bound (it leaves the bound there, e.g. a rest-to-rest
 * start, and has no arc of its own). */
static int arc_kept(const rc_problem *pb, const rc_solution *sol,
                    const rc_arc *a, const rc_switching_options *o) {
  if (a->touch)
    return 0;
  const double len = a->t_exit - a->t_entry,
               mid = 0.5 * (a->t_entry + a->t_exit);
  if (len < o->drop_elements * elem_len(sol, mid) ||
      len <= 2.0 * o->seg_min * (sol->tf - sol->t0))
    return 0;
  if (a->kind == RC_ARC_BOUND && a->index < pb->nx) {
    const double b = a->upper ? pb->w_hi[a->index] : pb->w_lo[a->index];
    if (a->t_entry <= sol->t0 && pb->fix_x0 && pb->fix_x0[a->index] &&
        pb->x0[a->index] == b)
      return 0;
    if (a->t_exit >= sol->tf && pb->fix_xf && pb->fix_xf[a->index] && pb->xf &&
        pb->xf[a->index] == b)
      return 0;
  }
  return 1;
}

static int pin_cmp(const void *pa, const void *pb) {
  const rc_mesh_pin *a = pa, *b = pb;
  if (a->seg != b->seg)
    return a->seg < b->seg ? -1 : 1;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  if (a->index != b->index)
    return a->index < b->index ? -1 : 1;
  return (a->upper > b->upper) - (a->upper < b->upper);
}

typedef struct pin_list {
  int n, cap;
  rc_mesh_pin *p;
} pin_list;

static int pin_push(pin_list *L, rc_mesh_pin p) {
  if (L->n == L->cap) {
    const int cap = L->cap ? 2 * L->cap : 16;
    rc_mesh_pin *q = realloc(L->p, sizeof *q * (size_t)cap);
    if (!q)
      return -1;
    L->p = q;
    L->cap = cap;
  }
  L->p[L->n++] = p;
  return 0;
}

/* Is w entry i pinned at a bound on segment q? (-1: no, else upper) */
static int pinned_side(const pin_list *L, int q, int i) {
  for (int p = 0; p < L->n; ++p)
    if (L->p[p].seg == q && L->p[p].kind == RC_PIN_BOUND && L->p[p].index == i)
      return L->p[p].upper;
  return -1;
}

int rc_switching_plan(const rc_problem *pb, const rc_solution *sol,
                      const rc_structure *st, const rc_switching_options *opt,
                      rc_mesh *out, rc_error *err) {
  rc_switching_options o;
  if (opt)
    o = *opt;
  else
    rc_switching_options_default(&o);
  if (!rc_problem_segments_ok(pb)) /* F depends on t, no dF/dt given */
    return 0;
  const double t0 = sol->t0, tf = sol->tf, T = tf - t0;
  const int ns = st->nswitch;
  double *tb = malloc(sizeof *tb * (size_t)(ns + 2));
  int *sw_of = malloc(sizeof *sw_of * (size_t)(ns + 2));
  int *keep = malloc(sizeof *keep * (size_t)(st->narc + 1));
  pin_list L = {0, 0, NULL};
  double *frac = NULL;
  int *stages = NULL, *first = NULL;
  int result = -1;
  if (!tb || !sw_of || !keep) {
    rc_error_set(err, RC_ERR_NOMEM, "switching plan: out of memory");
    goto done;
  }
  for (int a = 0; a < st->narc; ++a)
    keep[a] = arc_kept(pb, sol, &st->arcs[a], &o);
  /* boundaries: the switches with a kept arc's end */
  int m = 0;
  tb[m] = t0;
  sw_of[m++] = -1;
  for (int s = 0; s < ns; ++s) {
    const rc_switch *sw = &st->switches[s];
    int kept = 0;
    for (int e = sw->first_event; e < sw->first_event + sw->nevents; ++e)
      kept |= keep[st->events[e].arc];
    if (!kept || sw->t - tb[m - 1] < o.min_gap * T ||
        tf - sw->t < o.min_gap * T)
      continue;
    tb[m] = sw->t;
    sw_of[m++] = s;
  }
  tb[m] = tf;
  sw_of[m] = -1;
  const int nseg = m; /* segments [tb[q], tb[q+1]], q = 0..m-1 */
  if (nseg < 2) {
    result = 0;
    goto done;
  }
  /* elements per segment: the solution's elements there */
  const rc_mesh *sm = &sol->mesh;
  int *cnt = calloc((size_t)nseg, sizeof *cnt),
      *smax = calloc((size_t)nseg, sizeof *smax);
  if (!cnt || !smax) {
    free(cnt);
    free(smax);
    rc_error_set(err, RC_ERR_NOMEM, "switching plan: out of memory");
    goto done;
  }
  for (int k = 0, q = 0; k < sm->n; ++k) {
    const double mid = 0.5 * (sol->t[rc_solution_element_offset(sol, k)] +
                              sol->t[rc_solution_element_offset(sol, k + 1)]);
    while (q + 1 < nseg && mid >= tb[q + 1])
      ++q;
    cnt[q]++;
    if (sm->stages[k] > smax[q])
      smax[q] = sm->stages[k];
  }
  int ne = 0;
  for (int q = 0; q < nseg; ++q) {
    if (cnt[q] < o.min_elements)
      cnt[q] = o.min_elements;
    if (smax[q] == 0)
      smax[q] = rc_mesh_max_stages(sm);
    ne += cnt[q];
  }
  frac = malloc(sizeof *frac * (size_t)(ne + 1));
  stages = malloc(sizeof *stages * (size_t)ne);
  first = malloc(sizeof *first * (size_t)(nseg + 1));
  if (!frac || !stages || !first) {
    free(cnt);
    free(smax);
    rc_error_set(err, RC_ERR_NOMEM, "switching plan: out of memory");
    goto done;
  }
  for (int q = 0, k = 0; q < nseg; ++q) {
    first[q] = k;
    for (int j = 0; j < cnt[q]; ++j, ++k) {
      frac[k] = (tb[q] + (tb[q + 1] - tb[q]) * j / cnt[q] - t0) / T;
      stages[k] = smax[q];
    }
  }
  free(cnt);
  free(smax);
  frac[0] = 0.0;
  frac[ne] = 1.0;
  first[nseg] = ne;
  /* pins: every kept bound / path arc over a segment's midpoint */
  for (int a = 0; a < st->narc; ++a) {
    const rc_arc *arc = &st->arcs[a];
    if (!keep[a] || arc->kind == RC_ARC_SINGULAR)
      continue;
    for (int q = 0; q < nseg; ++q) {
      const double mid = 0.5 * (tb[q] + tb[q + 1]);
      if (!(arc->t_entry < mid && mid < arc->t_exit))
        continue;
      const rc_mesh_pin p = {
          q, arc->kind == RC_ARC_PATH ? RC_PIN_PATH : RC_PIN_BOUND, arc->index,
          arc->upper};
      if (pin_push(&L, p) != 0) {
        rc_error_set(err, RC_ERR_NOMEM, "switching plan: out of memory");
        goto done;
      }
    }
  }
  /* both sides of one variable on one segment: ambiguous, pin neither */
  qsort(L.p, (size_t)L.n, sizeof *L.p, pin_cmp);
  int w = 0;
  for (int p = 0; p < L.n; ++p) {
    const int dup_prev = p > 0 && L.p[p - 1].seg == L.p[p].seg &&
                         L.p[p - 1].kind == L.p[p].kind &&
                         L.p[p - 1].index == L.p[p].index;
    const int dup_next = p + 1 < L.n && L.p[p + 1].seg == L.p[p].seg &&
                         L.p[p + 1].kind == L.p[p].kind &&
                         L.p[p + 1].index == L.p[p].index;
    if (!dup_prev && !dup_next)
      L.p[w++] = L.p[p];
  }
  L.n = w;
  /* continuity of a control whose arc begins or ends at a boundary where
   * it does not jump (not pinned on both sides: then it is continuous, or
   * jumps, by the pins) */
  for (int q = 1; q < nseg; ++q) {
    const int s = sw_of[q];
    /* where any algebraic variable or control jumps (by the structure,
     * or pinned to opposite bounds on the two sides), none is held
     * continuous: the variables a jumping control drives jump with it
     * (a minimum time along a path: a force jumps from one bound to the
     * other and the path's fourth derivative with it; a continuity pin of
     * the latter made the plan infeasible), and the jump estimated for a
     * variable that moves with another is less sure than the bound seen */
    int any_jump = 0;
    for (int j = 0; s >= 0 && j < st->nyu; ++j)
      any_jump |= st->jumps[(size_t)s * st->nyu + j] != 0;
    for (int j = 0; j < pb->ny + pb->nu; ++j) { /* pinned to both bounds */
      const int a = pinned_side(&L, q - 1, pb->nx + j),
                b = pinned_side(&L, q, pb->nx + j);
      any_jump |= a >= 0 && b >= 0 && a != b;
    }
    if (any_jump)
      continue;
    for (int j = 0; j < pb->nu; ++j) {
      const int i = pb->nx + pb->ny + j;
      /* another algebraic variable or control whose arc begins or ends
       * here (its pin changes): this one moves with it, held continuous
       * it can make the plan infeasible (a cable going slack, tension 0,
       * where the winch torque then jumps) */
      int other = 0;
      for (int m = pb->nx; m < pb->nx + pb->ny + pb->nu; ++m)
        other |= m != i && pinned_side(&L, q - 1, m) != pinned_side(&L, q, m);
      if (other || s < 0 || st->switches[s].boundary < 0 ||
          st->jumps[(size_t)s * st->nyu + pb->ny + j] ||
          (pinned_side(&L, q - 1, i) >= 0 && pinned_side(&L, q, i) >= 0))
        continue;
      if (pin_push(&L, (rc_mesh_pin){q, RC_PIN_CONTINUOUS, i, 0}) != 0) {
        rc_error_set(err, RC_ERR_NOMEM, "switching plan: out of memory");
        goto done;
      }
    }
  }
  rc_mesh plan;
  if (rc_mesh_from_arrays(ne, frac, stages, &plan, err) != RC_OK)
    goto done;
  if (rc_mesh_set_segments(&plan, nseg, first, o.seg_min, err) != RC_OK ||
      rc_mesh_set_pins(&plan, L.n, L.p, err) != RC_OK) {
    rc_mesh_free(&plan);
    goto done;
  }
  *out = plan;
  result = 1;
done:
  free(tb);
  free(sw_of);
  free(keep);
  free(L.p);
  free(frac);
  free(stages);
  free(first);
  return result;
}

/* ---- the loop's decision ---------------------------------------------------
 */

/* Same segmentation: segment count and, per segment, the same pins. */
static int same_plan(const rc_mesh *a, const rc_mesh *b) {
  if (a->nseg != b->nseg || a->npin != b->npin)
    return 0;
  rc_mesh_pin *pa = malloc(sizeof *pa * (size_t)(a->npin + 1));
  rc_mesh_pin *pb = malloc(sizeof *pb * (size_t)(b->npin + 1));
  int same = pa && pb;
  if (same) {
    memcpy(pa, a->pins, sizeof *pa * (size_t)a->npin);
    memcpy(pb, b->pins, sizeof *pb * (size_t)b->npin);
    qsort(pa, (size_t)a->npin, sizeof *pa, pin_cmp);
    qsort(pb, (size_t)b->npin, sizeof *pb, pin_cmp);
    for (int p = 0; p < a->npin && same; ++p)
      same = pin_cmp(&pa[p], &pb[p]) == 0;
  }
  free(pa);
  free(pb);
  return same;
}

/* A switch whose events come from two or more constraints at different
 * times (not one boundary): the mesh has not told them apart yet. */
static int unresolved(const rc_structure *st, int s) {
  const rc_switch *sw = &st->switches[s];
  if (sw->boundary >= 0 || sw->nevents < 2)
    return 0;
  const rc_arc *a0 = &st->arcs[st->events[sw->first_event].arc];
  for (int e = sw->first_event + 1; e < sw->first_event + sw->nevents; ++e) {
    const rc_arc *a = &st->arcs[st->events[e].arc];
    /* the arcs of one variable (its bounds, its singular arcs) are one */
    if ((a->kind == RC_ARC_PATH) != (a0->kind == RC_ARC_PATH) ||
        a->index != a0->index)
      return 1;
  }
  return 0;
}

/* sol's mesh with every element meeting [t - unc - h, t + unc + h] of an
 * unresolved switch split into `split` equal elements.  Returns the number
 * of elements split (0: none, *out untouched), -1 on error. */
static int resolve_mesh(const rc_solution *sol, const rc_structure *st,
                        int split, rc_mesh *out, rc_error *err) {
  const rc_mesh *m = &sol->mesh;
  int *kids = malloc(sizeof *kids * (size_t)m->n);
  if (!kids) {
    rc_error_set(err, RC_ERR_NOMEM, "switching: out of memory");
    return -1;
  }
  int nsplit = 0, total = 0;
  for (int k = 0; k < m->n; ++k) {
    const double a = sol->t[rc_solution_element_offset(sol, k)],
                 b = sol->t[rc_solution_element_offset(sol, k + 1)];
    kids[k] = 1;
    for (int s = 0; s < st->nswitch && kids[k] == 1; ++s) {
      if (!unresolved(st, s))
        continue;
      const rc_switch *sw = &st->switches[s];
      const double u = (isnan(sw->unc) ? 0.0 : sw->unc) + elem_len(sol, sw->t);
      if (b >= sw->t - u && a <= sw->t + u)
        kids[k] = split;
    }
    nsplit += kids[k] > 1;
    total += kids[k];
  }
  if (nsplit == 0) {
    free(kids);
    return 0;
  }
  double *frac = malloc(sizeof *frac * (size_t)(total + 1));
  int *stages = malloc(sizeof *stages * (size_t)total);
  int result = -1;
  if (frac && stages) {
    int q = 0;
    for (int k = 0; k < m->n; ++k)
      for (int c = 0; c < kids[k]; ++c, ++q) {
        frac[q] = m->frac[k] + (m->frac[k + 1] - m->frac[k]) * c / kids[k];
        stages[q] = m->stages[k];
      }
    frac[0] = 0.0;
    frac[total] = 1.0;
    if (rc_mesh_from_arrays(total, frac, stages, out, err) == RC_OK)
      result = nsplit;
  } else {
    rc_error_set(err, RC_ERR_NOMEM, "switching: out of memory");
  }
  free(kids);
  free(frac);
  free(stages);
  return result;
}

int rc_switching_next_mesh(const rc_problem *pb, const rc_solution *sol,
                           const rc_switching_options *opt, int *nresolve,
                           int *nplan, rc_mesh *next, char *note, size_t len,
                           rc_error *err) {
  rc_switching_options o;
  if (opt)
    o = *opt;
  else
    rc_switching_options_default(&o);
  if (note && len > 0)
    note[0] = '\0';
  /* a problem whose functions depend on t without its time derivatives
   * cannot have free breakpoints (the node times move with the
   * durations): the hp steps only */
  if (!rc_problem_segments_ok(pb))
    return 0;
  rc_structure st;
  if (rc_structure_detect(pb, sol, &o.detect, &st, err) != RC_OK)
    return -1;
  int result = 0;
  if (st.nswitch == 0 || *nplan >= o.max_plans)
    goto done;
  if (sol->mesh.nseg == 0 && *nresolve < o.max_resolve) {
    int nun = 0;
    for (int s = 0; s < st.nswitch; ++s)
      nun += unresolved(&st, s);
    if (nun > 0) {
      const int r = resolve_mesh(sol, &st, o.resolve_split, next, err);
      if (r < 0) {
        result = -1;
        goto done;
      }
      if (r > 0) {
        ++*nresolve;
        if (note)
          snprintf(note, len,
                   "%d switches of %d not resolved by the mesh: %d elements "
                   "around them split in %d",
                   nun, st.nswitch, r, o.resolve_split);
        result = 1;
        goto done;
      }
    }
  }
  rc_mesh plan;
  const int p = rc_switching_plan(pb, sol, &st, &o, &plan, err);
  if (p < 0) {
    result = -1;
    goto done;
  }
  if (p == 0)
    goto done;
  if (sol->mesh.nseg > 0 && same_plan(&sol->mesh, &plan)) {
    rc_mesh_free(&plan);
    goto done;
  }
  if (note)
    snprintf(note, len,
             "%s: %d segments with free breakpoints, %d pins (%d switches, "
             "%d arcs found)",
             sol->mesh.nseg > 0 ? "structure changed" : "switches found",
             plan.nseg, plan.npin, st.nswitch, st.narc);
  *next = plan;
  ++*nplan;
  result = 2;
done:
  rc_structure_free(&st);
  return result;
}
