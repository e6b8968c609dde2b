/*
 * structure.c - the switching structure of a solution (radcol/structure.h,
 * docs/switching.md): active arcs of every bound and path constraint,
 * singular arcs of controls that enter linearly, the switch times between
 * them with their uncertainty, and which algebraic variables and controls
 * jump at each switch.
 *
 * Invariants.  Nodes are visited in time order (result.h's node layout);
 * a constraint's values at the nodes it does not constrain (y, u and path
 * values at t0 without t0_algebraic) are skipped, not counted inactive.
 * Every time is inside [t0, tf] and every uncertainty is >= 0 or NaN (a
 * free breakpoint whose error the caller did not estimate).
 *
 * Locating an end on the dense output.  Between the last inactive node t_a
 * and the first active node t_b the distance to the bound d(t) crosses
 * act_tol * scale; bisection on the dense output (rc_solution_eval) finds
 * the first such time (50 halvings, to rounding).  The dense output of a
 * control that jumps inside an element is a polynomial through values on
 * both sides, so the time found is only known to lie in [t_a, t_b]: the
 * uncertainty is the larger distance to the ends.  With free breakpoints
 * the ends fall on segment boundaries and take their (NLP variable) times.
 *
 * Jumps at a switch with window [t_lo, t_hi] (a segment boundary: the two
 * one-sided limits, exactly).  Left value at the last node a <= t_lo, right
 * value at the first node b >= t_hi; the one-sided slopes s_l (nodes a-1,
 * a) and s_r (b, b+1) explain a change of max(|s_l|, |s_r|) (t_b - t_a);
 * the jump is the change when it exceeds twice that, else 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collocation/radau.h"
#include "radcol/structure.h"

#define RC_STRUCT_BISECT 50
#define RC_STRUCT_GAP 2           /* nodes bridged inside an arc ... */
#define RC_STRUCT_GAP_FACTOR 100. /* ... within this times the threshold */
#define RC_STRUCT_FLAT 0.1 /* an arc's 3/4 quantile distance / threshold */

void rc_structure_options_default(rc_structure_options *o) {
  if (!o)
    return;
  o->act_tol = 1e-6;
  o->jump_tol = 1e-3;
  o->merge_tol = 0.0;
  o->min_singular_nodes = 0; /* 0: one more than the largest stage count */
  o->boundary_unc = NULL;
}

const char *rc_arc_kind_name(rc_arc_kind kind) {
  switch (kind) {
  case RC_ARC_BOUND:
    return "bound";
  case RC_ARC_PATH:
    return "path";
  case RC_ARC_SINGULAR:
    return "singular";
  }
  return "?";
}

void rc_structure_free(rc_structure *st) {
  if (!st)
    return;
  free(st->arcs);
  free(st->switches);
  free(st->events);
  free(st->jump);
  free(st->jumps);
  free(st->yu_scale);
  free(st->linear);
  memset(st, 0, sizeof *st);
}

void rc_arc_describe(const rc_problem *pb, const rc_arc *a, char *buf,
                     size_t len) {
  const char *name =
      a->kind != RC_ARC_PATH && pb->var_names ? pb->var_names[a->index] : NULL;
  if (a->kind == RC_ARC_SINGULAR) {
    snprintf(buf, len, "%s singular", name ? name : "?");
  } else if (a->kind == RC_ARC_BOUND) {
    const double b = a->upper ? pb->w_hi[a->index] : pb->w_lo[a->index];
    snprintf(buf, len, "%s %s %.10g", name ? name : "?",
             a->upper ? "<=" : ">=", b);
  } else {
    const double b = a->upper ? pb->c_hi[a->index] : pb->c_lo[a->index];
    snprintf(buf, len, "path_%d %s %.10g", a->index, a->upper ? "<=" : ">=", b);
  }
}

/* ---- the working context -------------------------------------------------
 */

typedef struct st_ctx {
  const rc_problem *pb;
  const rc_solution *sol;
  const rc_structure_options *o;
  int nw, nF, nnodes;
  int t0_yu;     /* node 0 holds y, u, c values the NLP imposed */
  double *w, *F; /* nw, nF workspace */
  double *bnd_t; /* nseg + 1 boundary times (NULL without segments) */
  int *bnd_node; /* nseg + 1 boundary nodes */
  double *cval;  /* nnodes x nc: path values at the nodes */
  rc_error *err;
} st_ctx;

/* Value of constraint (kind, index) at the nodes (path from cval). */
static double node_value(const st_ctx *c, rc_arc_kind kind, int index, int n) {
  if (kind == RC_ARC_PATH)
    return c->cval[(size_t)n * c->pb->nc + index];
  return c->sol->w[(size_t)n * c->nw + index];
}

/* Is node n constrained by (kind, index)? (states everywhere, the rest not
 * at node 0 without t0 values) */
static int node_counts(const st_ctx *c, rc_arc_kind kind, int index, int n) {
  if (n > 0 || c->t0_yu)
    return 1;
  return kind != RC_ARC_PATH && index < c->pb->nx;
}

static double bound_of(const rc_problem *pb, rc_arc_kind kind, int index,
                       int upper) {
  if (kind == RC_ARC_PATH)
    return upper ? pb->c_hi[index] : pb->c_lo[index];
  return upper ? pb->w_hi[index] : pb->w_lo[index];
}

/* Distance to the bound (>= 0 inside, < 0 beyond it). */
static double distance(double v, double b, int upper) {
  return upper ? b - v : v - b;
}

/* Distance of (kind, index, upper) at time t on the dense output; +inf
 * when the problem fails to evaluate there. */
static double dense_distance(st_ctx *c, rc_arc_kind kind, int index, int upper,
                             double t) {
  if (rc_solution_eval(c->sol, t, c->w, NULL) != RC_OK)
    return INFINITY;
  double v;
  if (kind == RC_ARC_PATH) {
    if (c->pb->point.eval(c->pb, t, c->w, c->F) != 0)
      return INFINITY;
    v = c->F[c->pb->nx + c->pb->ny + index];
  } else {
    v = c->w[index];
  }
  return distance(v, bound_of(c->pb, kind, index, upper), upper);
}

/* Segment boundary whose node is n, or -1. */
static int boundary_at_node(const st_ctx *c, int n) {
  const rc_mesh *m = &c->sol->mesh;
  for (int q = 1; c->bnd_node && q < m->nseg; ++q)
    if (c->bnd_node[q] == n)
      return q;
  return -1;
}

static double boundary_unc(const st_ctx *c, int q) {
  return c->o->boundary_unc ? c->o->boundary_unc[q] : NAN;
}

/* Half-width of the element holding t around t: a control that jumps
 * inside an element pollutes every stage value of it, so the mesh resolves
 * an end only to its element. */
static double element_unc(const st_ctx *c, double t) {
  const int k = rc_solution_element(c->sol, t);
  const double a = c->sol->t[rc_solution_element_offset(c->sol, k)],
               b = c->sol->t[rc_solution_element_offset(c->sol, k + 1)];
  return fmax(t - a, b - t);
}

/* The first time in [t_a, t_b] where the distance is within thr (the
 * entry; entry = 1) or the last one (the exit): bisection on the dense
 * output.  Returns the time; *unc the half-width left open. */
static double locate_end(st_ctx *c, rc_arc_kind kind, int index, int upper,
                         double thr, double t_a, double t_b, int entry,
                         double *unc) {
  double lo = t_a, hi = t_b; /* entry: d(lo) > thr >= d(hi); exit: reverse */
  for (int it = 0; it < RC_STRUCT_BISECT && hi - lo > 0; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi)
      break;
    const int in = dense_distance(c, kind, index, upper, mid) <= thr;
    if (in == entry)
      hi = mid;
    else
      lo = mid;
  }
  const double t = entry ? hi : lo;
  *unc = element_unc(c, t);
  return t;
}

/* ---- arcs of one constraint ----------------------------------------------
 */

typedef struct arc_list {
  int n, cap;
  rc_arc *a;
} arc_list;

static int arc_push(arc_list *L, const rc_arc *a) {
  if (L->n == L->cap) {
    const int cap = L->cap ? 2 * L->cap : 16;
    rc_arc *p = realloc(L->a, sizeof *p * (size_t)cap);
    if (!p)
      return -1;
    L->a = p;
    L->cap = cap;
  }
  L->a[L->n++] = *a;
  return 0;
}

/* An end located at mesh resolution (t +- unc) with a segment boundary
 * inside its window is that boundary: a state leaves its bound slowly (a
 * second-order constraint by a cubic), so its last node within act_tol of
 * the bound can lie an element past the free breakpoint where it left. */
static void snap_to_boundary(const st_ctx *c, double *t, double *unc,
                             int *bnd) {
  if (*bnd > 0 || !c->bnd_t)
    return;
  int best = -1;
  for (int q = 1; q < c->sol->mesh.nseg; ++q)
    if (fabs(c->bnd_t[q] - *t) <= *unc &&
        (best < 0 || fabs(c->bnd_t[q] - *t) < fabs(c->bnd_t[best] - *t)))
      best = q;
  if (best > 0) {
    *t = c->bnd_t[best];
    *unc = boundary_unc(c, best);
    *bnd = best;
  }
}

/* The ends of a run of nodes [n0, n1] (all active for an arc, all interior
 * for a singular arc) of (kind, index, upper): times, uncertainty and the
 * segment boundaries they fall on.  prev / next: the neighbouring counted
 * nodes (-1 when the run starts at the first counted node or ends at the
 * last).  in_thr: "inside the run" is distance <= thr (arcs) or > thr
 * (singular: then upper is the side whose distance is measured, and sides
 * are handled by the caller). */
static void run_ends(st_ctx *c, rc_arc *a, int prev, int n0, int n1, int next,
                     double thr) {
  const double *t = c->sol->t;
  const int state = a->kind != RC_ARC_PATH && a->index < c->pb->nx;
  a->entry_boundary = a->exit_boundary = -1;
  if (prev < 0) {
    a->t_entry = c->sol->t0;
    a->unc_entry = 0.0;
  } else {
    /* a free breakpoint: a state's arc starts at the boundary node, the
     * rest at the first stage after it */
    const int q = state ? boundary_at_node(c, n0) : boundary_at_node(c, prev);
    if (q > 0) {
      a->t_entry = c->bnd_t[q];
      a->unc_entry = boundary_unc(c, q);
      a->entry_boundary = q;
    } else if (a->kind == RC_ARC_SINGULAR) {
      a->t_entry = 0.5 * (t[prev] + t[n0]);
      a->unc_entry = element_unc(c, a->t_entry);
    } else {
      a->t_entry = locate_end(c, a->kind, a->index, a->upper, thr, t[prev],
                              t[n0], 1, &a->unc_entry);
    }
    snap_to_boundary(c, &a->t_entry, &a->unc_entry, &a->entry_boundary);
  }
  if (next < 0) {
    a->t_exit = c->sol->tf;
    a->unc_exit = 0.0;
  } else {
    const int q = boundary_at_node(c, n1);
    if (q > 0) {
      a->t_exit = c->bnd_t[q];
      a->unc_exit = boundary_unc(c, q);
      a->exit_boundary = q;
    } else if (a->kind == RC_ARC_SINGULAR) {
      a->t_exit = 0.5 * (t[n1] + t[next]);
      a->unc_exit = element_unc(c, a->t_exit);
    } else {
      a->t_exit = locate_end(c, a->kind, a->index, a->upper, thr, t[n1],
                             t[next], 0, &a->unc_exit);
    }
    snap_to_boundary(c, &a->t_exit, &a->unc_exit, &a->exit_boundary);
  }
}

/* Scale of (kind, index): max(1, |bound|, max over the nodes |value|). */
static double value_scale(const st_ctx *c, rc_arc_kind kind, int index,
                          double b) {
  double s = fmax(1.0, fabs(b));
  for (int n = 0; n < c->nnodes; ++n)
    if (node_counts(c, kind, index, n))
      s = fmax(s, fabs(node_value(c, kind, index, n)));
  return s;
}

/* Segment of node n (a boundary node belongs to the segment it ends). */
static int node_segment(const st_ctx *c, int n) {
  if (n == 0)
    return 0;
  return rc_mesh_segment_of(&c->sol->mesh,
                            rc_solution_element(c->sol, c->sol->t[n]));
}

/* Is constraint (kind, index, upper) pinned on segment q? */
static int pinned_on(const st_ctx *c, const rc_arc *a, int q) {
  const rc_mesh *m = &c->sol->mesh;
  const int kind = a->kind == RC_ARC_PATH ? RC_PIN_PATH : RC_PIN_BOUND;
  for (int p = 0; p < m->npin; ++p)
    if (m->pins[p].seg == q && m->pins[p].kind == kind &&
        m->pins[p].index == a->index && m->pins[p].upper == a->upper)
      return 1;
  return 0;
}

/* With pins: an arc over pinned segments of its constraint is those
 * segments (grown over pinned neighbours), ends at their boundaries.  A
 * state leaves or meets its bound tangentially, so nodes within act_tol of
 * it past a free breakpoint are the tangency, not a longer arc: were the
 * arc longer, the NLP would have moved the breakpoint.  Returns 1 when a
 * snapped. */
static int pin_snap(const st_ctx *c, rc_arc *a) {
  const rc_mesh *m = &c->sol->mesh;
  if (m->nseg < 2 || m->npin == 0 || a->kind == RC_ARC_SINGULAR)
    return 0;
  const int q0 = node_segment(c, a->first_node),
            q1 = node_segment(c, a->last_node);
  int lo = -1, hi = -1;
  for (int q = q0; q <= q1 + 1 && q < m->nseg; ++q)
    if (pinned_on(c, a, q)) {
      if (lo < 0)
        lo = q;
      hi = q;
    }
  if (lo < 0 || (hi == q1 + 1 && lo == hi &&
                 !(a->kind != RC_ARC_PATH && a->index < c->pb->nx)))
    return 0; /* q1 + 1 counts only for a state (its start node) */
  while (lo > 0 && pinned_on(c, a, lo - 1))
    --lo;
  while (hi + 1 < m->nseg && pinned_on(c, a, hi + 1))
    ++hi;
  a->touch = 0;
  if (lo == 0) {
    a->t_entry = c->sol->t0, a->unc_entry = 0.0, a->entry_boundary = -1;
  } else {
    a->t_entry = c->bnd_t[lo];
    a->unc_entry = boundary_unc(c, lo);
    a->entry_boundary = lo;
  }
  if (hi == m->nseg - 1) {
    a->t_exit = c->sol->tf, a->unc_exit = 0.0, a->exit_boundary = -1;
  } else {
    a->t_exit = c->bnd_t[hi + 1];
    a->unc_exit = boundary_unc(c, hi + 1);
    a->exit_boundary = hi + 1;
  }
  return 1;
}

static int dist_cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Does the run [n0, n1] sit on the bound (three quarters of its nodes
 * within RC_STRUCT_FLAT thr: the tangency at both ends of an arc is short),
 * or only approach it within thr (a state that leaves a bound it is fixed
 * at by a boundary condition like t^k, a near miss)? */
static int flat_run(const st_ctx *c, rc_arc_kind kind, int index, int upper,
                    double b, double thr, int n0, int n1) {
  double d[64];
  const int stride = (n1 - n0) / 64 + 1;
  int m = 0;
  for (int n = n0; n <= n1 && m < 64; n += stride)
    if (node_counts(c, kind, index, n))
      d[m++] = fabs(distance(node_value(c, kind, index, n), b, upper));
  if (m == 0)
    return 0;
  qsort(d, (size_t)m, sizeof *d, dist_cmp);
  return d[(3 * m) / 4] <= RC_STRUCT_FLAT * thr;
}

static int constraint_arcs(st_ctx *c, rc_arc_kind kind, int index, int upper,
                           arc_list *L) {
  const double b = bound_of(c->pb, kind, index, upper);
  const double thr = c->o->act_tol * value_scale(c, kind, index, b);
  int prev = -1, n = 0;
  while (n < c->nnodes) {
    if (!node_counts(c, kind, index, n)) {
      ++n;
      continue;
    }
    if (distance(node_value(c, kind, index, n), b, upper) > thr) {
      prev = n++;
      continue;
    }
    const int n0 = n;
    int n1 = n, next = -1;
    for (n = n0 + 1; n < c->nnodes; ++n) {
      if (distance(node_value(c, kind, index, n), b, upper) > thr) {
        /* a gap of at most RC_STRUCT_GAP nodes within gap_factor thr
         * before the next active node is noise of the solve, not a new
         * arc */
        int m = n, bridged = 0;
        for (; m < c->nnodes && m <= n + RC_STRUCT_GAP; ++m) {
          const double d = distance(node_value(c, kind, index, m), b, upper);
          if (d > RC_STRUCT_GAP_FACTOR * thr)
            break;
          if (d <= thr) {
            bridged = 1;
            break;
          }
        }
        if (!bridged) {
          next = n;
          break;
        }
        n = m;
      }
      n1 = n;
    }
    rc_arc a = {.kind = kind,
                .index = index,
                .upper = upper,
                .first_node = n0,
                .last_node = n1,
                .touch = n1 == n0 ||
                         !flat_run(c, kind, index, upper, b, thr, n0, n1)};
    run_ends(c, &a, prev, n0, n1, next, thr);
    rc_arc *last = L->n > 0 ? &L->a[L->n - 1] : NULL;
    if (pin_snap(c, &a) && last && last->kind == kind && last->index == index &&
        last->upper == upper && last->t_entry == a.t_entry &&
        last->t_exit == a.t_exit) {
      last->last_node = n1; /* a second run of the same pinned arc */
    } else if (arc_push(L, &a) != 0) {
      return -1;
    }
    prev = n1;
  }
  return 0;
}

/* Does control i (w entry) enter linearly: no (i, i) Hessian entry? */
static int enters_linearly(const rc_problem *pb, int i) {
  const rc_pattern *H = &pb->point.hes;
  for (int e = 0; e < H->nnz; ++e)
    if (H->row[e] == i && H->col[e] == i)
      return 0;
  return 1;
}

/* Singular arcs of control entry i: runs of >= min_nodes stage nodes
 * strictly inside every finite bound. */
static int singular_arcs(st_ctx *c, int i, int min_nodes, arc_list *L) {
  const rc_problem *pb = c->pb;
  const double lo = pb->w_lo[i], hi = pb->w_hi[i];
  const int has_lo = isfinite(lo) && lo > -1e20 && lo < hi;
  const int has_hi = isfinite(hi) && hi < 1e20 && lo < hi;
  const double thr_lo =
      has_lo ? c->o->act_tol * value_scale(c, RC_ARC_BOUND, i, lo) : 0.0;
  const double thr_hi =
      has_hi ? c->o->act_tol * value_scale(c, RC_ARC_BOUND, i, hi) : 0.0;
  int prev = -1, n = 0;
  while (n < c->nnodes) {
    if (!node_counts(c, RC_ARC_BOUND, i, n)) {
      ++n;
      continue;
    }
#define INSIDE(m)                                                              \
  ((!has_lo || distance(c->sol->w[(size_t)(m)*c->nw + i], lo, 0) > thr_lo) &&  \
   (!has_hi || distance(c->sol->w[(size_t)(m)*c->nw + i], hi, 1) > thr_hi))
    if (!INSIDE(n)) {
      prev = n++;
      continue;
    }
    const int n0 = n;
    int n1 = n, next = -1;
    for (n = n0 + 1; n < c->nnodes; ++n) {
      if (!INSIDE(n)) {
        next = n;
        break;
      }
      n1 = n;
    }
#undef INSIDE
    if (n1 - n0 + 1 >= min_nodes) {
      rc_arc a = {.kind = RC_ARC_SINGULAR,
                  .index = i,
                  .upper = -1,
                  .first_node = n0,
                  .last_node = n1};
      run_ends(c, &a, prev, n0, n1, next, 0.0);
      if (arc_push(L, &a) != 0)
        return -1;
    }
    prev = n1;
  }
  return 0;
}

/* ---- switches ------------------------------------------------------------
 */

typedef struct event {
  double t, unc;
  int boundary, arc, entry;
} event;

static int event_cmp(const void *a, const void *b) {
  const event *x = a, *y = b;
  if (x->t != y->t)
    return (x->t > y->t) - (x->t < y->t);
  return (x->arc > y->arc) - (x->arc < y->arc);
}

static double unc_or0(double u) {
  return isnan(u) ? 0.0 : u;
}

/* Length of the element holding t. */
static double element_length(const st_ctx *c, double t) {
  const int k = rc_solution_element(c->sol, t);
  return c->sol->t[rc_solution_element_offset(c->sol, k + 1)] -
         c->sol->t[rc_solution_element_offset(c->sol, k)];
}

/* Switches from the arc ends inside (t0, tf): sorted and grouped
 * (radcol/structure.h, "Switches"). */
static int build_switches(st_ctx *c, rc_structure *st) {
  const double t0 = c->sol->t0, tf = c->sol->tf;
  event *ev = malloc(sizeof *ev * (size_t)(2 * st->narc + 1));
  if (!ev)
    return -1;
  int ne = 0;
  for (int k = 0; k < st->narc; ++k) {
    const rc_arc *a = &st->arcs[k];
    if (a->t_entry > t0)
      ev[ne++] = (event){a->t_entry, a->unc_entry, a->entry_boundary, k, 1};
    if (a->t_exit < tf && !(a->touch && a->t_entry > t0))
      ev[ne++] = (event){a->t_exit, a->unc_exit, a->exit_boundary, k, 0};
  }
  qsort(ev, (size_t)ne, sizeof *ev, event_cmp);
  st->switches = malloc(sizeof *st->switches * (size_t)(ne ? ne : 1));
  st->events = malloc(sizeof *st->events * (size_t)(ne ? ne : 1));
  if (!st->switches || !st->events) {
    free(ev);
    return -1;
  }
  int ns = 0;
  for (int e = 0; e < ne;) {
    int f = e + 1, boundary = ev[e].boundary;
    for (; f < ne; ++f) {
      const event *p = &ev[f - 1], *x = &ev[f];
      /* x is the other end of an arc of this switch, or an end of another
       * arc of the same constraint (an excursion off the bound and back is
       * two switches, however short) */
      int own = 0;
      for (int g = e; g < f; ++g) {
        const rc_arc *ag = &st->arcs[ev[g].arc], *axx = &st->arcs[x->arc];
        own |= ev[g].arc == x->arc ||
               (ag->kind == axx->kind && ag->index == axx->index &&
                ag->upper == axx->upper);
      }
      const int same_bnd = x->boundary >= 0 && x->boundary == boundary;
      /* a jump is smeared over up to two elements (three between the
       * bounds of one variable) */
      const rc_arc *ap = &st->arcs[p->arc], *ax = &st->arcs[x->arc];
      const int same_var = ap->kind != RC_ARC_PATH && ax->kind != RC_ARC_PATH &&
                           ap->index == ax->index;
      const double gap = (same_var ? 3.0 : 2.0) *
                         fmax(element_length(c, p->t), element_length(c, x->t));
      const int near = x->t - p->t <= gap + c->o->merge_tol &&
                       (x->boundary < 0 || boundary < 0 || same_bnd);
      if (!same_bnd && (own || !near))
        break;
      if (x->boundary >= 0)
        boundary = x->boundary;
    }
    double sum = 0.0, unc = 0.0;
    int nan_unc = 0;
    for (int g = e; g < f; ++g) {
      sum += ev[g].t;
      unc = fmax(unc, unc_or0(ev[g].unc));
      nan_unc |= isnan(ev[g].unc);
      st->events[g] = (rc_switch_event){ev[g].arc, ev[g].entry};
    }
    rc_switch *sw = &st->switches[ns++];
    sw->boundary = boundary;
    sw->t = boundary >= 0 ? c->bnd_t[boundary] : sum / (f - e);
    unc = fmax(unc, fmax(sw->t - ev[e].t, ev[f - 1].t - sw->t));
    sw->unc = nan_unc && unc == 0.0 ? NAN : unc;
    sw->nevents = f - e;
    sw->first_event = e;
    e = f;
  }
  st->nswitch = ns;
  st->nevent = ne;
  free(ev);
  return 0;
}

/* Extrapolation to the start of element k of the stage polynomial of w
 * entry i (the right limit at a segment boundary). */
static double stage_extrapolation(const st_ctx *c, int k, int i) {
  const rc_solution *sol = c->sol;
  const int off = rc_solution_element_offset(sol, k), s = sol->mesh.stages[k];
  const double *tn = sol->t + off;
  const double h = tn[s] - tn[0];
  double theta[RC_RADAU_MAX_STAGES], bw[RC_RADAU_MAX_STAGES],
      l[RC_RADAU_MAX_STAGES];
  for (int j = 0; j < s; ++j)
    theta[j] = (tn[j + 1] - tn[0]) / h;
  rc_bary_weights(s, theta, bw);
  rc_lagrange_basis(s, theta, bw, 0.0, l);
  double v = 0.0;
  for (int j = 0; j < s; ++j)
    v += l[j] * sol->w[(size_t)(off + 1 + j) * c->nw + i];
  return v;
}

/* Last counted node with time <= t (>= 1 for y, u without t0 values). */
static int node_at_or_before(const st_ctx *c, double t, int i) {
  int lo = 0, hi = c->nnodes - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (c->sol->t[mid] <= t)
      lo = mid;
    else
      hi = mid - 1;
  }
  if (lo == 0 && !node_counts(c, RC_ARC_BOUND, i, 0))
    lo = 1;
  return lo;
}

static int node_at_or_after(const st_ctx *c, double t) {
  int lo = 0, hi = c->nnodes - 1;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (c->sol->t[mid] >= t)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

static void switch_jumps(st_ctx *c, rc_structure *st) {
  const rc_problem *pb = c->pb;
  const double *t = c->sol->t;
  for (int s = 0; s < st->nswitch; ++s) {
    const rc_switch *sw = &st->switches[s];
    for (int j = 0; j < st->nyu; ++j) {
      const int i = pb->nx + j;
      double jump;
      if (sw->boundary > 0) {
        const int n = c->bnd_node[sw->boundary];
        const int k = c->sol->mesh.seg_first[sw->boundary];
        jump = stage_extrapolation(c, k, i) - c->sol->w[(size_t)n * c->nw + i];
      } else {
        const double u = unc_or0(sw->unc);
        const int a = node_at_or_before(c, sw->t - u, i);
        int b = node_at_or_after(c, sw->t + u);
        if (b <= a)
          b = a + 1 < c->nnodes ? a + 1 : a;
        const double va = c->sol->w[(size_t)a * c->nw + i],
                     vb = c->sol->w[(size_t)b * c->nw + i];
        double slope = 0.0;
        if (a > 0 && node_counts(c, RC_ARC_BOUND, i, a - 1) && t[a] > t[a - 1])
          slope = fabs(va - c->sol->w[(size_t)(a - 1) * c->nw + i]) /
                  (t[a] - t[a - 1]);
        if (b + 1 < c->nnodes && t[b + 1] > t[b])
          slope =
              fmax(slope, fabs(c->sol->w[(size_t)(b + 1) * c->nw + i] - vb) /
                              (t[b + 1] - t[b]));
        const double change = vb - va, explained = slope * (t[b] - t[a]);
        jump = fabs(change) > 2.0 * explained ? change : 0.0;
      }
      st->jump[(size_t)s * st->nyu + j] = jump;
      st->jumps[(size_t)s * st->nyu + j] =
          fabs(jump) > c->o->jump_tol * st->yu_scale[j];
    }
  }
}

/* ---- detect ---------------------------------------------------------------
 */

static int arc_cmp(const void *pa, const void *pb) {
  const rc_arc *a = pa, *b = pb;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  if (a->index != b->index)
    return a->index < b->index ? -1 : 1;
  if (a->upper != b->upper)
    return a->upper < b->upper ? -1 : 1;
  return (a->t_entry > b->t_entry) - (a->t_entry < b->t_entry);
}

static int finite_bound(double v) {
  return isfinite(v) && fabs(v) < 1e20;
}

rc_err rc_structure_detect(const rc_problem *pb, const rc_solution *sol,
                           const rc_structure_options *opt, rc_structure *st,
                           rc_error *err) {
  memset(st, 0, sizeof *st);
  rc_structure_options o;
  if (opt)
    o = *opt;
  else
    rc_structure_options_default(&o);
  if (!pb || !sol || !sol->t || !sol->w || sol->nnodes < 2)
    return rc_error_set(err, RC_ERR_INPUT,
                        "structure: expected a problem and an allocated "
                        "solution with at least 2 nodes");
  if (sol->nx != pb->nx || sol->ny != pb->ny || sol->nu != pb->nu ||
      sol->nc != pb->nc)
    return rc_error_set(err, RC_ERR_INPUT,
                        "structure: the solution has dims nx=%d ny=%d nu=%d "
                        "nc=%d: expected those of %s/%s (%d %d %d %d)",
                        sol->nx, sol->ny, sol->nu, sol->nc, pb->model,
                        pb->formulation, pb->nx, pb->ny, pb->nu, pb->nc);
  if (!(o.act_tol > 0.0) || !(o.jump_tol > 0.0) || !(o.merge_tol >= 0.0))
    return rc_error_set(err, RC_ERR_INPUT,
                        "structure: act_tol %g, jump_tol %g, merge_tol %g: "
                        "expected act_tol > 0, jump_tol > 0, merge_tol >= 0",
                        o.act_tol, o.jump_tol, o.merge_tol);
  st_ctx c = {.pb = pb,
              .sol = sol,
              .o = &o,
              .nw = rc_problem_nw(pb),
              .nF = rc_problem_nF(pb),
              .nnodes = sol->nnodes,
              .t0_yu = pb->t0_algebraic,
              .err = err};
  const rc_mesh *m = &sol->mesh;
  const int nseg = m->nseg;
  c.w = malloc(sizeof *c.w * (size_t)(c.nw + 1));
  c.F = malloc(sizeof *c.F * (size_t)(c.nF + 1));
  c.cval = malloc(sizeof *c.cval * (size_t)c.nnodes * (size_t)(pb->nc + 1));
  if (nseg > 1) {
    c.bnd_t = malloc(sizeof *c.bnd_t * (size_t)(nseg + 1));
    c.bnd_node = malloc(sizeof *c.bnd_node * (size_t)(nseg + 1));
  }
  st->nyu = pb->ny + pb->nu;
  st->yu_scale = malloc(sizeof *st->yu_scale * (size_t)(st->nyu + 1));
  st->linear = calloc((size_t)(pb->nu + 1), sizeof *st->linear);
  arc_list L = {0, 0, NULL};
  rc_err rc = RC_OK;
  if (!c.w || !c.F || !c.cval || !st->yu_scale || !st->linear ||
      (nseg > 1 && (!c.bnd_t || !c.bnd_node))) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "structure: out of memory");
    goto done;
  }
  for (int q = 1; nseg > 1 && q < nseg; ++q) {
    c.bnd_node[q] = rc_solution_element_offset(sol, m->seg_first[q]);
    c.bnd_t[q] = sol->t[c.bnd_node[q]];
  }
  for (int n = 0; pb->nc > 0 && n < c.nnodes; ++n) {
    const int st_ev =
        pb->point.eval(pb, sol->t[n], sol->w + (size_t)n * c.nw, c.F);
    for (int k = 0; k < pb->nc; ++k)
      c.cval[(size_t)n * pb->nc + k] =
          st_ev == 0 ? c.F[pb->nx + pb->ny + k] : NAN;
  }
  for (int j = 0; j < st->nyu; ++j)
    st->yu_scale[j] = value_scale(&c, RC_ARC_BOUND, pb->nx + j, 0.0);
  const int nxyu = pb->nx + pb->ny + pb->nu;
  int fail = 0;
  for (int i = 0; i < nxyu && !fail; ++i) {
    const double lo = pb->w_lo[i], hi = pb->w_hi[i];
    if (!(lo < hi))
      continue;
    if (finite_bound(lo))
      fail |= constraint_arcs(&c, RC_ARC_BOUND, i, 0, &L);
    if (finite_bound(hi))
      fail |= constraint_arcs(&c, RC_ARC_BOUND, i, 1, &L);
  }
  for (int k = 0; k < pb->nc && !fail; ++k) {
    if (!(pb->c_lo[k] < pb->c_hi[k]))
      continue;
    if (finite_bound(pb->c_lo[k]))
      fail |= constraint_arcs(&c, RC_ARC_PATH, k, 0, &L);
    if (finite_bound(pb->c_hi[k]))
      fail |= constraint_arcs(&c, RC_ARC_PATH, k, 1, &L);
  }
  const int min_sing = o.min_singular_nodes > 0
                           ? o.min_singular_nodes
                           : 2 * rc_mesh_max_stages(&sol->mesh) + 2;
  for (int j = 0; j < pb->nu && !fail; ++j) {
    const int i = pb->nx + pb->ny + j;
    st->linear[j] = enters_linearly(pb, i);
    if (st->linear[j]) {
      const int before = L.n;
      fail |= singular_arcs(&c, i, min_sing, &L);
      st->nsingular += L.n - before;
    }
  }
  if (fail) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "structure: out of memory");
    goto done;
  }
  if (L.n > 1)
    qsort(L.a, (size_t)L.n, sizeof *L.a, arc_cmp);
  st->narc = L.n;
  st->arcs = L.a;
  L.a = NULL;
  if (build_switches(&c, st) != 0) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "structure: out of memory");
    goto done;
  }
  const size_t nj = (size_t)st->nswitch * (size_t)st->nyu;
  st->jump = calloc(nj ? nj : 1, sizeof *st->jump);
  st->jumps = calloc(nj ? nj : 1, sizeof *st->jumps);
  if (!st->jump || !st->jumps) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "structure: out of memory");
    goto done;
  }
  switch_jumps(&c, st);
done:
  free(L.a);
  free(c.w);
  free(c.F);
  free(c.cval);
  free(c.bnd_t);
  free(c.bnd_node);
  if (rc != RC_OK)
    rc_structure_free(st);
  else
    rc_error_clear(err);
  return rc;
}
