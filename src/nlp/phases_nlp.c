/*
 * phases_nlp.c - the NLP of several phases as a composition of one-phase
 * NLPs (the layout and the pattern rules are in phases_nlp.h, the maths in
 * radcol/phases.h).
 *
 * Derivatives of what this file adds to the phases' own NLPs:
 *   continuity row   r = x[vb] - x[va]:        dr/dx[vb] = 1, dr/dx[va] = -1,
 *                                               no Hessian;
 *   link block row   r_i(e), e_j = x[ev_j] + es_j (or the constant es_j):
 *                    dr_i/dx[ev_j] = dr_i/de_j (the block's Jacobian), and
 *                    the Lagrangian's Hessian gets sum_i mu_i d2r_i/de de at
 *                    (ev_a, ev_b) with mu_i = lambda_i for the rows and
 *                    obj_factor for the objective output;
 *   data term        D = sum w (x[v] - d)^2:   dD/dx[v] = 2 w (x[v] - d),
 *                    Hessian obj_factor 2 w at (v, v).
 * A free duration T = tf - t0 is the phase's free final time tf (dT/dtf = 1,
 * es = -t0); a fixed one is the constant tf - t0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nlp/phases_nlp.h"

static void *xcalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

static const rc_data_fit *phase_data(const rc_problem *pb) {
  return pb->data;
}

/* States (names) of phase b that phase a has too: their count, and with
 * ia / ib the index pairs. */
static int shared_names(const rc_problem *a, int a_off, int na,
                        const rc_problem *b, int b_off, int nb, int *ia,
                        int *ib) {
  int n = 0;
  for (int i = 0; i < nb; ++i)
    for (int j = 0; j < na; ++j)
      if (strcmp(b->var_names[b_off + i], a->var_names[a_off + j]) == 0) {
        if (ia)
          ia[n] = j, ib[n] = i;
        ++n;
        break;
      }
  return n;
}

static int n_equal_rows(const rc_phases *ph, const rc_problem *pb, int k) {
  const rc_problem *a = &pb[k], *b = &pb[k + 1];
  int n = 0;
  if (ph->continuity == RC_CONTINUITY_SHARED)
    n += shared_names(a, 0, a->nx, b, 0, b->nx, NULL, NULL);
  if (ph->link_parameters) {
    const int pa = a->nx + a->ny + a->nu, pbo = b->nx + b->ny + b->nu;
    n += shared_names(a, pa, a->np, b, pbo, b->np, NULL, NULL);
  }
  return n;
}

/* Data points (values not NaN) of a phase. */
static long n_data(const rc_problem *pb) {
  const rc_data_fit *d = phase_data(pb);
  long n = 0;
  if (!d)
    return 0;
  for (long q = 0; q < (long)d->nt * d->nvar; ++q)
    n += !isnan(d->value[q]);
  return n;
}

rc_err rc_pnlp_count(const rc_phases *ph, const rc_problem *pb,
                     const rc_mesh *mesh, int dense_bounds, rc_phases_counts *c,
                     rc_error *err) {
  memset(c, 0, sizeof *c);
  for (int k = 0; k < ph->nphases; ++k) {
    rc_nlp_counts s;
    rc_nlp_count(&pb[k], &mesh[k], dense_bounds, &s);
    c->nvars += s.nvars;
    c->ncons += s.ncons;
    c->nnz_jac += s.nnz_jac;
    c->nnz_hes += s.nnz_hes;
    const long nd = n_data(&pb[k]);
    c->nnz_hes += nd;
    if (k + 1 < ph->nphases) {
      const long ne = n_equal_rows(ph, pb, k);
      c->nlink += ne;
      c->nnz_jac += 2 * ne;
    }
  }
  for (int l = 0; l < ph->nlinks; ++l) {
    const rc_link *L = &ph->links[l];
    c->nlink += L->nrows;
    c->nnz_jac += L->jac.nnz; /* upper bound: constant columns drop */
    c->nnz_hes += L->hes.nnz;
  }
  c->ncons += c->nlink;
  if (c->nvars > 1000000000L || c->ncons > 1000000000L)
    return rc_error_set(err, RC_ERR_INPUT,
                        "NLP too large: %ld variables, %ld constraints, "
                        "expected at most 1e9 each",
                        c->nvars, c->ncons);
  return RC_OK;
}

void rc_pnlp_free(rc_pnlp **pp) {
  if (!pp || !*pp)
    return;
  rc_pnlp *p = *pp;
  for (int k = 0; p->nlp && k < p->nph; ++k)
    rc_nlp_free(&p->nlp[k]);
  free(p->nlp);
  free(p->voff);
  free(p->coff);
  free(p->row);
  free(p->lk_row0);
  free(p->lk_eoff);
  free(p->ev);
  free(p->es);
  free(p->d_var);
  free(p->d_phase);
  free(p->d_val);
  free(p->d_w);
  free(p->jac_row);
  free(p->jac_col);
  free(p->hes_row);
  free(p->hes_col);
  free(p->jac_off);
  free(p->hes_map);
  free(p->hes_mapoff);
  free(p->lk_jac_slot);
  free(p->lk_jacoff);
  free(p->lk_hes_slot);
  free(p->lk_hesoff);
  free(p->d_slot);
  free(p->hbuf);
  free(p->e);
  free(p->lout);
  free(p->ljac);
  free(p->lhes);
  free(p->lmu);
  free(p);
  *pp = NULL;
}

/* NLP variable of x_i at the end (end = 1) or start of phase k. */
static int state_var(const rc_pnlp *p, int k, int i, int end) {
  const rc_nlp *n = p->nlp[k];
  return p->voff[k] + n->x_off[end ? n->nnodes - 1 : 0] + i;
}

/* The event vector of link l: variables and shifts (phases_nlp.h). */
static void event_map(const rc_pnlp *p, int l) {
  const rc_link *L = &p->ph->links[l];
  int *ev = p->ev + p->lk_eoff[l];
  double *es = p->es + p->lk_eoff[l];
  int j = 0;
  for (int side = 0; side < 2; ++side) {
    const int k = L->boundary + side;
    const rc_problem *pb = &p->pb[k];
    const rc_nlp *n = p->nlp[k];
    for (int i = 0; i < pb->nx; ++i, ++j) {
      ev[j] = state_var(p, k, i, side == 0);
      es[j] = 0.0;
    }
    for (int i = 0; i < pb->np; ++i, ++j) {
      ev[j] = p->voff[k] + n->p_off + i;
      es[j] = 0.0;
    }
    if (n->free_tf) {
      ev[j] = p->voff[k] + n->tf_off;
      es[j] = -pb->t0;
    } else {
      ev[j] = -1;
      es[j] = pb->tf - pb->t0;
    }
    ++j;
  }
}

/* Equality rows (continuity, parameters) of every boundary, in order: for
 * each state (then decision parameter) of phase b, in b's order, the one of
 * phase a with the same name (the loops of shared_names). */
static void equal_rows(rc_pnlp *p) {
  int r = 0;
  for (int k = 0; k + 1 < p->nph; ++k) {
    const rc_problem *a = &p->pb[k], *b = &p->pb[k + 1];
    for (int kind = 0; kind < 2; ++kind) {
      if (kind == 0 ? p->ph->continuity != RC_CONTINUITY_SHARED
                    : !p->ph->link_parameters)
        continue;
      const int off_a = kind ? a->nx + a->ny + a->nu : 0;
      const int off_b = kind ? b->nx + b->ny + b->nu : 0;
      const int na = kind ? a->np : a->nx, nb = kind ? b->np : b->nx;
      for (int i = 0; i < nb; ++i)
        for (int j = 0; j < na; ++j) {
          if (strcmp(b->var_names[off_b + i], a->var_names[off_a + j]) != 0)
            continue;
          rc_pnlp_row *row = &p->row[r++];
          row->boundary = k;
          row->link = -1;
          row->out = 0;
          if (kind == 0) {
            row->va = state_var(p, k, j, 1);
            row->vb = state_var(p, k + 1, i, 0);
          } else {
            row->va = p->voff[k] + p->nlp[k]->p_off + j;
            row->vb = p->voff[k + 1] + p->nlp[k + 1]->p_off + i;
          }
          row->name_b = b->var_names[off_b + i];
          break;
        }
    }
  }
}

/* The data points of every phase: NLP variable at the breakpoint of each
 * data time (the mesh must have it: rc_data_mesh). */
static rc_err data_terms(rc_pnlp *p, rc_error *err) {
  int q = 0;
  for (int k = 0; k < p->nph; ++k) {
    const rc_problem *pb = &p->pb[k];
    const rc_data_fit *d = phase_data(pb);
    const rc_nlp *n = p->nlp[k];
    if (!d)
      continue;
    for (int m = 0; m < d->nt; ++m) {
      const int kb =
          rc_data_breakpoint(&p->mesh[k], rc_data_fraction(pb, d->t[m]));
      if (kb < 0)
        return rc_error_set(err, RC_ERR_INTERNAL,
                            "internal: phase %d (%s/%s): no breakpoint at the "
                            "data time %.17g",
                            k, pb->model, pb->formulation, d->t[m]);
      const int node =
          kb == 0 ? 0 : n->elem_first[kb - 1] + p->mesh[k].stages[kb - 1] - 1;
      for (int i = 0; i < d->nvar; ++i) {
        const double v = d->value[(size_t)m * d->nvar + i];
        if (isnan(v))
          continue;
        const int iw = d->var[i];
        int var;
        if (iw < pb->nx)
          var = n->x_off[node] + iw;
        else if (n->yu_off[node] >= 0)
          var = n->yu_off[node] + (iw - pb->nx);
        else
          return rc_error_set(err, RC_ERR_INPUT,
                              "%s/%s: data measures %s at t = %.17g, where "
                              "the NLP has no value of it",
                              pb->model, pb->formulation, pb->var_names[iw],
                              d->t[m]);
        p->d_var[q] = p->voff[k] + var;
        p->d_phase[q] = k;
        p->d_val[q] = v;
        p->d_w[q] = d->weight ? d->weight[i] : 1.0;
        ++q;
      }
    }
  }
  p->nd = q;
  return RC_OK;
}

typedef struct hkey {
  long long key;
  int idx;
} hkey;

static int cmp_hkey(const void *a, const void *b) {
  const hkey *x = a, *y = b;
  if (x->key != y->key)
    return (x->key > y->key) - (x->key < y->key);
  return (x->idx > y->idx) - (x->idx < y->idx);
}

static void hes_key(hkey *h, int *n, long long nvar, int a, int b) {
  if (a < b) {
    const int t = a;
    a = b, b = t;
  }
  h[*n].key = (long long)a * nvar + b;
  h[*n].idx = *n;
  ++*n;
}

/* The Jacobian (concatenated) and the merged Hessian pattern. */
static rc_err patterns(rc_pnlp *p, const rc_phases_counts *c, rc_error *err) {
  const rc_phases *ph = p->ph;
  /* Jacobian */
  long nj = 0;
  for (int k = 0; k < p->nph; ++k)
    nj += p->nlp[k]->nnz_jac;
  for (int r = 0; r < p->nlrow; ++r)
    nj += p->row[r].link < 0 ? 2 : 0;
  for (int l = 0; l < ph->nlinks; ++l)
    nj += ph->links[l].jac.nnz;
  if (nj > c->nnz_jac)
    return rc_error_set(err, RC_ERR_INTERNAL,
                        "internal: %ld Jacobian entries, counted %ld", nj,
                        c->nnz_jac);
  p->jac_row = xcalloc((size_t)nj, sizeof(int));
  p->jac_col = xcalloc((size_t)nj, sizeof(int));
  p->jac_off = xcalloc((size_t)p->nph + 1, sizeof(int));
  p->lk_jacoff = xcalloc((size_t)ph->nlinks + 1, sizeof(int));
  p->lk_hesoff = xcalloc((size_t)ph->nlinks + 1, sizeof(int));
  long njl = 0, nhl = 0;
  for (int l = 0; l < ph->nlinks; ++l) {
    p->lk_jacoff[l + 1] = p->lk_jacoff[l] + ph->links[l].jac.nnz;
    p->lk_hesoff[l + 1] = p->lk_hesoff[l] + ph->links[l].hes.nnz;
    njl += ph->links[l].jac.nnz;
    nhl += ph->links[l].hes.nnz;
  }
  p->lk_jac_slot = xcalloc((size_t)njl, sizeof(int));
  p->lk_hes_slot = xcalloc((size_t)nhl, sizeof(int));
  if (!p->jac_row || !p->jac_col || !p->jac_off || !p->lk_jacoff ||
      !p->lk_hesoff || !p->lk_jac_slot || !p->lk_hes_slot)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for the NLP pattern");
  int e = 0;
  for (int k = 0; k < p->nph; ++k) {
    const rc_nlp *n = p->nlp[k];
    p->jac_off[k] = e;
    for (int q = 0; q < n->nnz_jac; ++q, ++e) {
      p->jac_row[e] = n->jac_row[q] + p->coff[k];
      p->jac_col[e] = n->jac_col[q] + p->voff[k];
    }
  }
  p->jac_off[p->nph] = e;
  for (int r = 0; r < p->nlrow; ++r) {
    const rc_pnlp_row *row = &p->row[r];
    if (row->link >= 0)
      continue;
    p->jac_row[e] = p->link_off + r, p->jac_col[e++] = row->va;
    p->jac_row[e] = p->link_off + r, p->jac_col[e++] = row->vb;
  }
  for (int l = 0; l < ph->nlinks; ++l) {
    const rc_link *L = &ph->links[l];
    const int *ev = p->ev + p->lk_eoff[l];
    for (int q = 0; q < L->jac.nnz; ++q) {
      const int r = L->jac.row[q], col = ev[L->jac.col[q]];
      int *slot = &p->lk_jac_slot[p->lk_jacoff[l] + q];
      *slot = -1;
      if (r >= L->nrows || col < 0)
        continue; /* the objective output, or a constant input */
      *slot = e;
      p->jac_row[e] = p->link_off + p->lk_row0[l] + r;
      p->jac_col[e++] = col;
    }
  }
  p->nnz_jac = e;
  /* Hessian: every contribution, sorted and merged */
  long nh = 0;
  for (int k = 0; k < p->nph; ++k)
    nh += p->nlp[k]->nnz_hes;
  nh += nhl + p->nd;
  if (nh > c->nnz_hes || nh > 2000000000L)
    return rc_error_set(err, RC_ERR_INTERNAL,
                        "internal: %ld Hessian entries, counted %ld", nh,
                        c->nnz_hes);
  hkey *h = xcalloc((size_t)nh, sizeof *h);
  int *src_slot = xcalloc((size_t)nh, sizeof(int));
  p->hes_map = xcalloc((size_t)(nh - nhl - p->nd), sizeof(int));
  p->hes_mapoff = xcalloc((size_t)p->nph + 1, sizeof(int));
  p->d_slot = xcalloc((size_t)p->nd, sizeof(int));
  if (!h || !src_slot || !p->hes_map || !p->hes_mapoff || !p->d_slot) {
    free(h);
    free(src_slot);
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for the NLP pattern");
  }
  int n = 0;
  const long long nv = p->nvar;
  for (int k = 0; k < p->nph; ++k) {
    const rc_nlp *np = p->nlp[k];
    p->hes_mapoff[k] = n;
    for (int q = 0; q < np->nnz_hes; ++q)
      hes_key(h, &n, nv, np->hes_row[q] + p->voff[k],
              np->hes_col[q] + p->voff[k]);
  }
  p->hes_mapoff[p->nph] = n;
  const int n_ph = n;
  /* link entries with a constant input take no slot: their key is -1 */
  for (int l = 0; l < ph->nlinks; ++l) {
    const rc_link *L = &ph->links[l];
    const int *ev = p->ev + p->lk_eoff[l];
    for (int q = 0; q < L->hes.nnz; ++q) {
      const int a = ev[L->hes.row[q]], b = ev[L->hes.col[q]];
      if (a < 0 || b < 0) {
        h[n].key = -1;
        h[n].idx = n;
        ++n;
      } else {
        hes_key(h, &n, nv, a, b);
      }
    }
  }
  for (int q = 0; q < p->nd; ++q)
    hes_key(h, &n, nv, p->d_var[q], p->d_var[q]);
  qsort(h, (size_t)n, sizeof *h, cmp_hkey);
  int m = 0;
  long long last = -2;
  for (int q = 0; q < n; ++q) {
    if (h[q].key < 0) {
      src_slot[h[q].idx] = -1;
      continue;
    }
    if (h[q].key != last) {
      last = h[q].key;
      h[m++].key = last; /* m <= q: compacts in place */
    }
    src_slot[h[q].idx] = m - 1;
  }
  p->nnz_hes = m;
  p->hes_row = xcalloc((size_t)m, sizeof(int));
  p->hes_col = xcalloc((size_t)m, sizeof(int));
  if (!p->hes_row || !p->hes_col) {
    free(h);
    free(src_slot);
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for the NLP pattern");
  }
  for (int q = 0; q < m; ++q) {
    p->hes_row[q] = (int)(h[q].key / nv);
    p->hes_col[q] = (int)(h[q].key % nv);
  }
  memcpy(p->hes_map, src_slot, sizeof(int) * (size_t)n_ph);
  memcpy(p->lk_hes_slot, src_slot + n_ph, sizeof(int) * (size_t)nhl);
  memcpy(p->d_slot, src_slot + n_ph + nhl, sizeof(int) * (size_t)p->nd);
  free(h);
  free(src_slot);
  return RC_OK;
}

rc_err rc_pnlp_create(const rc_phases *ph, const rc_problem *pb, rc_mesh *mesh,
                      int dense_bounds, rc_pnlp **out, rc_error *err) {
  *out = NULL;
  rc_phases_counts c;
  rc_err rc = rc_pnlp_count(ph, pb, mesh, dense_bounds, &c, err);
  if (rc != RC_OK)
    return rc;
  rc_pnlp *p = calloc(1, sizeof *p);
  if (!p)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for the NLP");
  p->ph = ph;
  p->nph = ph->nphases;
  p->pb = pb;
  p->mesh = mesh;
  p->nlp = xcalloc((size_t)p->nph, sizeof *p->nlp);
  p->voff = xcalloc((size_t)p->nph + 1, sizeof(int));
  p->coff = xcalloc((size_t)p->nph + 1, sizeof(int));
  p->nlrow = (int)c.nlink;
  p->row = xcalloc((size_t)p->nlrow, sizeof *p->row);
  p->lk_row0 = xcalloc((size_t)ph->nlinks, sizeof(int));
  p->lk_eoff = xcalloc((size_t)ph->nlinks + 1, sizeof(int));
  long nd = 0;
  size_t hmax = 1, emax = 1, omax = 1, jmax = 1, lhmax = 1;
  for (int k = 0; k < p->nph; ++k)
    nd += n_data(&pb[k]);
  p->d_var = xcalloc((size_t)nd, sizeof(int));
  p->d_phase = xcalloc((size_t)nd, sizeof(int));
  p->d_val = xcalloc((size_t)nd, sizeof(double));
  p->d_w = xcalloc((size_t)nd, sizeof(double));
  if (!p->nlp || !p->voff || !p->coff || !p->row || !p->lk_row0 ||
      !p->lk_eoff || !p->d_var || !p->d_phase || !p->d_val || !p->d_w) {
    rc_pnlp_free(&p);
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for the NLP");
  }
  for (int k = 0; k < p->nph && rc == RC_OK; ++k) {
    rc = rc_nlp_create(&pb[k], &mesh[k], dense_bounds, &p->nlp[k], err);
    if (rc != RC_OK)
      break;
    p->voff[k + 1] = p->voff[k] + p->nlp[k]->nvar;
    p->coff[k + 1] = p->coff[k] + p->nlp[k]->ncon;
    if ((size_t)p->nlp[k]->nnz_hes > hmax)
      hmax = (size_t)p->nlp[k]->nnz_hes;
  }
  if (rc != RC_OK) {
    rc_pnlp_free(&p);
    return rc;
  }
  p->nvar = p->voff[p->nph];
  p->link_off = p->coff[p->nph];
  p->ncon = p->link_off + p->nlrow;
  if (p->nvar != c.nvars || p->ncon != c.ncons) {
    rc_pnlp_free(&p);
    return rc_error_set(err, RC_ERR_INTERNAL,
                        "internal: multiphase NLP has %d variables and %d "
                        "constraints, counted %ld and %ld",
                        p->nvar, p->ncon, c.nvars, c.ncons);
  }
  equal_rows(p);
  int r = 0;
  for (int q = 0; q < p->nlrow; ++q)
    r += p->row[q].link < 0;
  for (int l = 0; l < ph->nlinks; ++l) {
    const rc_link *L = &ph->links[l];
    p->lk_row0[l] = r;
    for (int i = 0; i < L->nrows; ++i, ++r) {
      p->row[r].boundary = L->boundary;
      p->row[r].link = l;
      p->row[r].out = i;
      p->row[r].va = p->row[r].vb = -1;
    }
    const size_t ne =
        (size_t)rc_link_ne(&pb[L->boundary], &pb[L->boundary + 1]);
    p->lk_eoff[l + 1] = p->lk_eoff[l] + (int)ne;
    const size_t no = (size_t)(L->nrows + (L->has_objective ? 1 : 0));
    emax = ne > emax ? ne : emax;
    omax = no > omax ? no : omax;
    jmax = (size_t)L->jac.nnz > jmax ? (size_t)L->jac.nnz : jmax;
    lhmax = (size_t)L->hes.nnz > lhmax ? (size_t)L->hes.nnz : lhmax;
  }
  p->ev = xcalloc((size_t)p->lk_eoff[ph->nlinks], sizeof(int));
  p->es = xcalloc((size_t)p->lk_eoff[ph->nlinks], sizeof(double));
  p->hbuf = xcalloc(hmax, sizeof(double));
  p->e = xcalloc(emax, sizeof(double));
  p->lout = xcalloc(omax, sizeof(double));
  p->lmu = xcalloc(omax, sizeof(double));
  p->ljac = xcalloc(jmax, sizeof(double));
  p->lhes = xcalloc(lhmax, sizeof(double));
  if (!p->ev || !p->es || !p->hbuf || !p->e || !p->lout || !p->lmu ||
      !p->ljac || !p->lhes) {
    rc_pnlp_free(&p);
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for the NLP");
  }
  for (int l = 0; l < ph->nlinks; ++l)
    event_map(p, l);
  if ((rc = data_terms(p, err)) != RC_OK ||
      (rc = patterns(p, &c, err)) != RC_OK) {
    rc_pnlp_free(&p);
    return rc;
  }
  *out = p;
  return RC_OK;
}

void rc_pnlp_set_caching(rc_pnlp *p, int on) {
  for (int k = 0; k < p->nph; ++k)
    rc_nlp_set_caching(p->nlp[k], on);
}

void rc_pnlp_new_point(rc_pnlp *p) {
  for (int k = 0; k < p->nph; ++k)
    rc_nlp_new_point(p->nlp[k]);
}

void rc_pnlp_bounds(const rc_pnlp *p, double *x_lo, double *x_hi, double *g_lo,
                    double *g_hi) {
  for (int k = 0; k < p->nph; ++k)
    rc_nlp_bounds(p->nlp[k], x_lo + p->voff[k], x_hi + p->voff[k],
                  g_lo + p->coff[k], g_hi + p->coff[k]);
  for (int r = 0; r < p->nlrow; ++r) {
    const rc_pnlp_row *row = &p->row[r];
    double lo = 0.0, hi = 0.0;
    if (row->link >= 0) {
      const rc_link *L = &p->ph->links[row->link];
      lo = fmax(L->lo[row->out], -1e20);
      hi = fmin(L->hi[row->out], 1e20);
    }
    g_lo[p->link_off + r] = lo;
    g_hi[p->link_off + r] = hi;
  }
}

static void gather_e(const rc_pnlp *p, int l, const double *x) {
  const int n = p->lk_eoff[l + 1] - p->lk_eoff[l];
  const int *ev = p->ev + p->lk_eoff[l];
  const double *es = p->es + p->lk_eoff[l];
  for (int j = 0; j < n; ++j)
    p->e[j] = ev[j] >= 0 ? x[ev[j]] + es[j] : es[j];
}

int rc_pnlp_link_objective(rc_pnlp *p, const double *x, double *f) {
  double sum = 0.0;
  for (int l = 0; l < p->ph->nlinks; ++l) {
    const rc_link *L = &p->ph->links[l];
    if (!L->has_objective)
      continue;
    gather_e(p, l, x);
    const int st = L->eval(p->ph, L, p->e, p->lout);
    if (st != 0)
      return st;
    sum += p->lout[L->nrows];
  }
  *f = sum;
  return 0;
}

int rc_pnlp_phase_objective(rc_pnlp *p, int k, const double *x, double *f,
                            double *data) {
  double v = 0.0, dsum = 0.0;
  const int st = rc_nlp_objective(p->nlp[k], x + p->voff[k], &v);
  if (st != 0)
    return st;
  for (int q = 0; q < p->nd; ++q)
    if (p->d_phase[q] == k) {
      const double r = x[p->d_var[q]] - p->d_val[q];
      dsum += p->d_w[q] * r * r;
    }
  *f = v + dsum;
  if (data)
    *data = dsum;
  return 0;
}

int rc_pnlp_objective(rc_pnlp *p, const double *x, double *f) {
  double sum = 0.0;
  int st;
  for (int k = 0; k < p->nph; ++k) {
    double v;
    if ((st = rc_nlp_objective(p->nlp[k], x + p->voff[k], &v)) != 0)
      return st;
    sum += v;
  }
  for (int q = 0; q < p->nd; ++q) {
    const double r = x[p->d_var[q]] - p->d_val[q];
    sum += p->d_w[q] * r * r;
  }
  if (p->ph->nlinks > 0) {
    double lf;
    if ((st = rc_pnlp_link_objective(p, x, &lf)) != 0)
      return st;
    sum += lf;
  }
  *f = sum;
  return 0;
}

int rc_pnlp_gradient(rc_pnlp *p, const double *x, double *grad) {
  int st;
  for (int k = 0; k < p->nph; ++k)
    if ((st = rc_nlp_gradient(p->nlp[k], x + p->voff[k], grad + p->voff[k])) !=
        0)
      return st;
  for (int q = 0; q < p->nd; ++q)
    grad[p->d_var[q]] += 2.0 * p->d_w[q] * (x[p->d_var[q]] - p->d_val[q]);
  for (int l = 0; l < p->ph->nlinks; ++l) {
    const rc_link *L = &p->ph->links[l];
    if (!L->has_objective)
      continue;
    gather_e(p, l, x);
    if ((st = L->jacobian(p->ph, L, p->e, p->ljac)) != 0)
      return st;
    const int *ev = p->ev + p->lk_eoff[l];
    for (int q = 0; q < L->jac.nnz; ++q)
      if (L->jac.row[q] == L->nrows && ev[L->jac.col[q]] >= 0)
        grad[ev[L->jac.col[q]]] += p->ljac[q];
  }
  return 0;
}

int rc_pnlp_constraints(rc_pnlp *p, const double *x, double *g) {
  int st;
  for (int k = 0; k < p->nph; ++k)
    if ((st = rc_nlp_constraints(p->nlp[k], x + p->voff[k], g + p->coff[k])) !=
        0)
      return st;
  for (int r = 0; r < p->nlrow; ++r)
    if (p->row[r].link < 0)
      g[p->link_off + r] = x[p->row[r].vb] - x[p->row[r].va];
  for (int l = 0; l < p->ph->nlinks; ++l) {
    const rc_link *L = &p->ph->links[l];
    if (L->nrows == 0)
      continue;
    gather_e(p, l, x);
    if ((st = L->eval(p->ph, L, p->e, p->lout)) != 0)
      return st;
    memcpy(g + p->link_off + p->lk_row0[l], p->lout,
           sizeof *g * (size_t)L->nrows);
  }
  return 0;
}

int rc_pnlp_jacobian(rc_pnlp *p, const double *x, double *vals) {
  int st;
  for (int k = 0; k < p->nph; ++k)
    if ((st = rc_nlp_jacobian(p->nlp[k], x + p->voff[k],
                              vals + p->jac_off[k])) != 0)
      return st;
  int e = p->jac_off[p->nph];
  for (int r = 0; r < p->nlrow; ++r)
    if (p->row[r].link < 0) {
      vals[e++] = -1.0;
      vals[e++] = 1.0;
    }
  for (int l = 0; l < p->ph->nlinks; ++l) {
    const rc_link *L = &p->ph->links[l];
    if (L->nrows == 0)
      continue;
    gather_e(p, l, x);
    if ((st = L->jacobian(p->ph, L, p->e, p->ljac)) != 0)
      return st;
    const int *slot = p->lk_jac_slot + p->lk_jacoff[l];
    for (int q = 0; q < L->jac.nnz; ++q)
      if (slot[q] >= 0)
        vals[slot[q]] = p->ljac[q];
  }
  return 0;
}

int rc_pnlp_hessian(rc_pnlp *p, const double *x, double obj_factor,
                    const double *lambda, double *vals) {
  int st;
  memset(vals, 0, sizeof *vals * (size_t)p->nnz_hes);
  for (int k = 0; k < p->nph; ++k) {
    const rc_nlp *n = p->nlp[k];
    if ((st = rc_nlp_hessian(p->nlp[k], x + p->voff[k], obj_factor,
                             lambda + p->coff[k], p->hbuf)) != 0)
      return st;
    const int *map = p->hes_map + p->hes_mapoff[k];
    for (int q = 0; q < n->nnz_hes; ++q)
      vals[map[q]] += p->hbuf[q];
  }
  for (int l = 0; l < p->ph->nlinks; ++l) {
    const rc_link *L = &p->ph->links[l];
    if (L->hes.nnz == 0)
      continue;
    gather_e(p, l, x);
    for (int i = 0; i < L->nrows; ++i)
      p->lmu[i] = lambda[p->link_off + p->lk_row0[l] + i];
    if (L->has_objective)
      p->lmu[L->nrows] = obj_factor;
    if ((st = L->hessian(p->ph, L, p->e, p->lmu, p->lhes)) != 0)
      return st;
    const int *slot = p->lk_hes_slot + p->lk_hesoff[l];
    for (int q = 0; q < L->hes.nnz; ++q)
      if (slot[q] >= 0)
        vals[slot[q]] += p->lhes[q];
  }
  for (int q = 0; q < p->nd; ++q)
    vals[p->d_slot[q]] += obj_factor * 2.0 * p->d_w[q];
  return 0;
}

rc_err rc_pnlp_guess(const rc_pnlp *p, const rc_solution *guesses, double *x,
                     double *lambda, double *zl, double *zu, rc_error *err) {
  for (int k = 0; k < p->nph; ++k) {
    const rc_solution *g =
        guesses && guesses[k].nnodes > 0 ? &guesses[k] : NULL;
    const int o = p->voff[k];
    rc_err rc =
        g ? rc_nlp_from_solution(p->nlp[k], g, x + o,
                                 lambda ? lambda + p->coff[k] : NULL,
                                 zl ? zl + o : NULL, zu ? zu + o : NULL, err)
          : rc_nlp_default_guess(p->nlp[k], x + o, err);
    if (rc != RC_OK) {
      if (p->nph > 1 && p->ph->phase[k].name) {
        char msg[RC_MESSAGE_MAX];
        snprintf(msg, sizeof msg, "%s", err ? err->message : "");
        return rc_error_set(err, rc, "phase %s: %s", p->ph->phase[k].name, msg);
      }
      return rc;
    }
  }
  if (lambda)
    for (int r = 0; r < p->nlrow; ++r)
      lambda[p->link_off + r] = 0.0;
  return RC_OK;
}

void rc_pnlp_row_name(const rc_pnlp *p, int r, char *buf, size_t len) {
  const rc_pnlp_row *row = &p->row[r];
  const char *a = p->ph->phase[row->boundary].name,
             *b = p->ph->phase[row->boundary + 1].name;
  if (row->link < 0) {
    snprintf(buf, len, "%s->%s: %s", a ? a : "?", b ? b : "?", row->name_b);
    return;
  }
  const rc_link *L = &p->ph->links[row->link];
  if (L->row_names && L->row_names[row->out])
    snprintf(buf, len, "%s->%s: %s", a ? a : "?", b ? b : "?",
             L->row_names[row->out]);
  else
    snprintf(buf, len, "%s->%s: link %d row %d", a ? a : "?", b ? b : "?",
             row->link, row->out);
}
