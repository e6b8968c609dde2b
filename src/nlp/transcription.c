/*
 * transcription.c - Radau IIA collocation of an rc_problem on an rc_mesh (the
 * equations and the variable/constraint order are in transcription.h).
 *
 * Derivatives.  With h_k = (tf - t0) sigma_k, the collocation row (k, j, i)
 *     R = sum_l D_jl X_kl,i - h_k f_i(W_kj)
 * has  dR/dX_kl,i = D_jl,  dR/dW_kj = -h_k df_i/dw,  and, for free tf and an
 * autonomous problem, dR/dtf = -sigma_k f_i.  The objective term
 * h_k b_j L(W_kj) gives h_k b_j dL/dw and sigma_k b_j L.  The Lagrangian
 * Hessian at a stage point is the problem's Hessian of sum_i mu_i F_i with
 *     mu_f = -h_k lambda_coll,  mu_g = lambda_g,  mu_c = lambda_c,
 *     mu_L = obj_factor h_k b_j,
 * plus, for free tf, the cross terms d2/(dtf dw) = -sigma_k lambda_coll_i
 * df_i/dw + obj_factor sigma_k b_j dL/dw (the terms are linear in tf, so
 * d2/dtf2 = 0).  The boundary block enters with its own multipliers and
 * obj_factor on phi.
 *
 * Free breakpoints (transcription.h): h_k = T_q phi_k, so every tf term
 * above holds with tf replaced by T_q (the duration of the element's
 * segment) and sigma_k by phi_k = dh_k / dT_q: dR/dT_q = -phi_k f_i, the
 * objective term gives phi_k b_j L, the Hessian cross terms are
 * d2/(dT_q dw) = -phi_k lambda_coll_i df_i/dw + obj_factor phi_k b_j dL/dw,
 * and d2/dT_q2 = 0 (linear in T_q).  tf then scales nothing: it enters the
 * boundary block and the duration row sum_q T_q - tf only.  One helper,
 * elem_hvar, names the variable that scales h_k (T_q, tf, or none) and its
 * coefficient, so the classic free tf and the segments share every line.
 *
 * Dense-bound rows (transcription.h): row (k, b, m) is sum_l M_ml V_l with V
 * the element's node values of entry i = bnd_idx[b] and M the Bernstein
 * conversion matrix; its Jacobian is M itself, its Hessian zero.
 *
 * Assembly.  jac_walk and hes_walk enumerate every contribution in one fixed
 * order; in RECORD mode they store (row, col) keys, which rc_nlp_create sorts
 * and merges into the NLP pattern, remembering each contribution's slot; in
 * VALUES mode the same walk evaluates the problem and scatters into the
 * slots.  One walk for both modes means the pattern and the values cannot
 * disagree.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nlp/transcription.h"

#define RC_INF_BOUND 1e20

static double clip_inf(double v) {
  if (v <= -RC_INF_BOUND)
    return -RC_INF_BOUND;
  if (v >= RC_INF_BOUND)
    return RC_INF_BOUND;
  return v;
}

enum walk_mode { WALK_RECORD, WALK_VALUES };

typedef struct walk_sink {
  enum walk_mode mode;
  long long nvar;
  long long *keys; /* RECORD: cap entries (rc_nlp_count's count) */
  long long cap;   /* RECORD */
  const int *slot; /* VALUES */
  double *vals;    /* VALUES */
  long long k;     /* contributions so far */
} walk_sink;

static inline void sink_add(walk_sink *s, int row, int col, double v) {
  if (s->mode == WALK_RECORD) {
    if (s->k < s->cap)
      s->keys[s->k] = (long long)row * s->nvar + col;
  } else if (s->mode == WALK_VALUES)
    s->vals[s->slot[s->k]] += v;
  s->k++;
}

/* ---- layout helpers ------------------------------------------------------ */

double rc_nlp_tf(const rc_nlp *nlp, const double *x) {
  return nlp->free_tf ? x[nlp->tf_off] : nlp->pb->tf;
}

static inline double elem_sigma(const rc_nlp *nlp, int k) {
  return nlp->mesh->frac[k + 1] - nlp->mesh->frac[k];
}

/* The NLP variable that scales h_k (the segment's duration T_q, or a free
 * tf, or -1 when h_k is fixed) and dh_k / d(that variable) in *coef. */
static inline int elem_hvar(const rc_nlp *nlp, int k, double *coef) {
  if (nlp->nseg > 0) {
    *coef = nlp->elem_phi[k];
    return nlp->dur_off + nlp->elem_seg[k];
  }
  *coef = nlp->free_tf ? elem_sigma(nlp, k) : 0.0;
  return nlp->free_tf ? nlp->tf_off : -1;
}

/* h_k at the point x (tf: rc_nlp_tf(x), or pb->tf when x is NULL, the
 * pattern walks); 0 for free breakpoints without x. */
static inline double elem_h(const rc_nlp *nlp, int k, const double *x,
                            double tf) {
  if (nlp->nseg > 0)
    return x ? x[nlp->dur_off + nlp->elem_seg[k]] * nlp->elem_phi[k] : 0.0;
  return (tf - nlp->pb->t0) * elem_sigma(nlp, k);
}

double rc_nlp_elem_h(const rc_nlp *nlp, int k, const double *x) {
  return elem_h(nlp, k, x, rc_nlp_tf(nlp, x));
}

/* End of element k within its segment, as a fraction of T_q. */
static inline double elem_end(const rc_nlp *nlp, int k) {
  const int q = nlp->elem_seg[k];
  return k + 1 == nlp->mesh->seg_first[q + 1] ? 1.0 : nlp->elem_alpha[k + 1];
}

double rc_nlp_node_time_x(const rc_nlp *nlp, int n, const double *x) {
  if (nlp->nseg == 0 || !x)
    return rc_nlp_node_time(nlp, n, x ? rc_nlp_tf(nlp, x) : nlp->pb->tf);
  if (n == 0)
    return nlp->pb->t0;
  const int k = nlp->node_elem[n], j = nlp->node_stage[n];
  const int s = nlp->mesh->stages[k], q = nlp->elem_seg[k];
  double start = nlp->pb->t0;
  for (int r = 0; r < q; ++r)
    start += x[nlp->dur_off + r];
  const double a =
      j == s ? elem_end(nlp, k)
             : nlp->elem_alpha[k] + nlp->radau[s].c[j - 1] * nlp->elem_phi[k];
  return start + x[nlp->dur_off + q] * a;
}

/* The time at which node n's blocks are evaluated. */
static inline double eval_time(const rc_nlp *nlp, int n, const double *x,
                               double tf) {
  return nlp->nseg > 0 ? rc_nlp_node_time_x(nlp, n, x)
                       : rc_nlp_node_time(nlp, n, tf);
}

/* Free breakpoints on a problem that depends on t: node n (n >= 1) lies in
 * segment q at t_n = t0 + T_0 + ... + T_{q-1} + a T_q, so dt_n/dT_r is 1
 * for r < q and a for r = q.  Returns q, a in *a. */
static inline int node_tseg(const rc_nlp *nlp, int n, double *a) {
  const int k = nlp->node_elem[n], j = nlp->node_stage[n];
  const int s = nlp->mesh->stages[k];
  *a = j == s ? elem_end(nlp, k)
              : nlp->elem_alpha[k] + nlp->radau[s].c[j - 1] * nlp->elem_phi[k];
  return nlp->elem_seg[k];
}

double rc_nlp_node_time(const rc_nlp *nlp, int n, double tf) {
  const double t0 = nlp->pb->t0;
  if (n == 0)
    return t0;
  const int k = nlp->node_elem[n], j = nlp->node_stage[n];
  const int s = nlp->mesh->stages[k];
  if (j == s)
    return t0 + (tf - t0) * nlp->mesh->frac[k + 1];
  const double a =
      nlp->mesh->frac[k] + nlp->radau[s].c[j - 1] * elem_sigma(nlp, k);
  return t0 + (tf - t0) * a;
}

/* Node holding X_kl (l = 0 is the element start). */
static inline int state_node(const rc_nlp *nlp, int k, int l) {
  return l == 0 ? (k == 0 ? 0 : nlp->elem_first[k] - 1)
                : nlp->elem_first[k] + l - 1;
}

/* NLP variable of point-vector entry i at node n, or -1 if absent. */
static inline int var_of(const rc_nlp *nlp, int n, int i) {
  if (i < nlp->nx)
    return nlp->x_off[n] + i;
  if (i < nlp->nx + nlp->ny + nlp->nu)
    return nlp->yu_off[n] < 0 ? -1 : nlp->yu_off[n] + (i - nlp->nx);
  return nlp->p_off + (i - nlp->nx - nlp->ny - nlp->nu);
}

/* NLP variable of boundary input c of z = (x(t0), x(tf), p, tf), or -1. */
static inline int zvar_of(const rc_nlp *nlp, int c) {
  const int nx = nlp->nx;
  if (c < nx)
    return nlp->x_off[0] + c;
  if (c < 2 * nx)
    return nlp->x_off[nlp->nnodes - 1] + (c - nx);
  if (c < 2 * nx + nlp->np)
    return nlp->p_off + (c - 2 * nx);
  return nlp->tf_off; /* -1 when tf is fixed */
}

/* Does element k give y, u the stage-only dense output (element 0 without
 * t0 variables, and the first element of a segment q >= 1)? */
static inline int stage_only_yu(const rc_nlp *nlp, int k) {
  return k == 0 ? nlp->yu_off[0] < 0 : rc_mesh_segment_start(nlp->mesh, k);
}

/* Row m of the dense-bound block of entry i in element k: its nv
 * (variable, coefficient) pairs.  States, and y, u wherever their dense
 * output is the degree-s polynomial through the element start and the
 * stages (every element but 0 and the segment starts, and element 0 when
 * the t0 values are NLP variables), use Mx over the s + 1 element nodes; y,
 * u in element 0 without t0 variables and in the first element of a segment
 * use Mu over the s stages (the start value there is set after the solve,
 * or belongs to the previous segment; docs/dense-bounds.md). */
static int bern_row(const rc_nlp *nlp, int k, int i, int m, int *var,
                    const double **coef) {
  const int s = nlp->mesh->stages[k];
  if (i < nlp->nx || !stage_only_yu(nlp, k)) {
    *coef = nlp->bern_x + nlp->bern_at[s] + m * (s + 1);
    for (int l = 0; l <= s; ++l)
      var[l] = var_of(nlp, state_node(nlp, k, l), i);
    return s + 1;
  }
  *coef = nlp->bern_u + nlp->bern_at[s] + m * s;
  for (int j = 1; j <= s; ++j)
    var[j - 1] = var_of(nlp, nlp->elem_first[k] + j - 1, i);
  return s;
}

/* The continuity row of pin p (kind RC_PIN_CONTINUOUS): its nv (variable,
 * coefficient) pairs (transcription.h); var and coef hold RC_MAX_STAGES + 1
 * entries. */
static int cont_row(const rc_nlp *nlp, int p, int *var, double *coef) {
  const rc_mesh_pin *a = &nlp->mesh->pins[p];
  const int k = nlp->mesh->seg_first[a->seg], s = nlp->mesh->stages[k];
  const double *c = nlp->radau[s].c;
  var[0] = var_of(nlp, state_node(nlp, k, 0), a->index);
  coef[0] = 1.0;
  for (int j = 0; j < s; ++j) {
    double l = 1.0; /* l_j(0) = prod_{m != j} (0 - c_m) / (c_j - c_m) */
    for (int m = 0; m < s; ++m)
      if (m != j)
        l *= -c[m] / (c[j] - c[m]);
    var[1 + j] = var_of(nlp, nlp->elem_first[k] + j, a->index);
    coef[1 + j] = -l;
  }
  return s + 1;
}

static void gather_w(const rc_nlp *nlp, int n, const double *x, double *w) {
  for (int i = 0; i < nlp->nw; ++i) {
    const int v = var_of(nlp, n, i);
    w[i] = v >= 0 ? x[v] : 0.0;
  }
}

static void gather_z(const rc_nlp *nlp, const double *x, double *z) {
  for (int c = 0; c < nlp->nz - 1; ++c)
    z[c] = x[zvar_of(nlp, c)];
  z[nlp->nz - 1] = rc_nlp_tf(nlp, x);
}

/* F(t_n, W_n) and its Jacobian values at node n for the point x: from the
 * cache when caching is on and this point was evaluated there already,
 * otherwise evaluated (into the cache, or into the workspace). */
static int node_F(rc_nlp *nlp, int n, const double *x, double tf,
                  const double **F) {
  double *out = nlp->caching ? nlp->F_cache + (size_t)n * nlp->nF : nlp->F;
  *F = out;
  if (nlp->caching && nlp->F_gen[n] == nlp->gen)
    return 0;
  gather_w(nlp, n, x, nlp->w);
  const int st =
      nlp->pb->point.eval(nlp->pb, eval_time(nlp, n, x, tf), nlp->w, out);
  if (st == 0 && nlp->caching)
    nlp->F_gen[n] = nlp->gen;
  return st;
}

static int node_J(rc_nlp *nlp, int n, const double *x, double tf,
                  const double **J) {
  const size_t nnz = (size_t)nlp->pb->point.jac.nnz;
  double *out = nlp->caching ? nlp->J_cache + (size_t)n * nnz : nlp->jF;
  *J = out;
  if (nlp->caching && nlp->J_gen[n] == nlp->gen)
    return 0;
  gather_w(nlp, n, x, nlp->w);
  const int st =
      nlp->pb->point.jacobian(nlp->pb, eval_time(nlp, n, x, tf), nlp->w, out);
  if (st == 0 && nlp->caching)
    nlp->J_gen[n] = nlp->gen;
  return st;
}

/* The problem's time derivatives at node n (rc_problem.time_derivs) into
 * nlp->Ft, and with weights mu into nlp->Ftw, nlp->Ftt. */
static int node_time(rc_nlp *nlp, int n, const double *x, double tf,
                     const double *mu) {
  gather_w(nlp, n, x, nlp->w);
  return nlp->pb->time_derivs(nlp->pb, eval_time(nlp, n, x, tf), nlp->w, mu,
                              nlp->Ft, nlp->Ftw, &nlp->Ftt);
}

void rc_nlp_set_caching(rc_nlp *nlp, int on) {
  nlp->caching = on && nlp->F_cache && nlp->J_cache;
  rc_nlp_new_point(nlp);
}

void rc_nlp_new_point(rc_nlp *nlp) {
  if (++nlp->gen == 0) { /* wrapped: no entry may look current */
    memset(nlp->F_gen, 0, sizeof *nlp->F_gen * (size_t)nlp->nnodes);
    memset(nlp->J_gen, 0, sizeof *nlp->J_gen * (size_t)nlp->nnodes);
    nlp->gen = 1;
  }
}

/* Does node n carry constraint rows? */
static inline int node_active(const rc_nlp *nlp, int n) {
  return n > 0 || nlp->t0_alg;
}

/* ---- the walks ------------------------------------------------------------
 */

static int jac_walk(rc_nlp *nlp, const double *x, walk_sink *sk) {
  const rc_problem *pb = nlp->pb;
  const int nx = nlp->nx, ny = nlp->ny, nc = pb->nc;
  const rc_pattern *P = &pb->point.jac;
  const int values = sk->mode == WALK_VALUES;
  const double tf = values ? rc_nlp_tf(nlp, x) : pb->tf;
  int st;
  for (int n = 0; n < nlp->nnodes; ++n) {
    if (!node_active(nlp, n))
      continue;
    const int row0 = nlp->con_off[n];
    const int k = nlp->node_elem[n], j = nlp->node_stage[n];
    double h = 0, dh = 0;
    int hv = -1; /* the variable scaling h_k (T_q or tf), dh = dh_k / d it */
    if (n > 0) {
      const int s = nlp->mesh->stages[k];
      const double *D = nlp->radau[s].D + (j - 1) * (s + 1);
      hv = elem_hvar(nlp, k, &dh);
      h = elem_h(nlp, k, x, tf);
      for (int i = 0; i < nx; ++i)
        for (int l = 0; l <= s; ++l)
          sink_add(sk, row0 + i, nlp->x_off[state_node(nlp, k, l)] + i, D[l]);
    }
    const double *jv = NULL, *Fv = NULL;
    if (values) {
      if ((st = node_J(nlp, n, x, tf, &jv)) != 0)
        return st;
      if (hv >= 0 && (st = node_F(nlp, n, x, tf, &Fv)) != 0)
        return st;
    }
    for (int e = 0; e < P->nnz; ++e) {
      const int r = P->row[e];
      int R;
      double scale;
      if (r < nx) {
        if (n == 0)
          continue;
        R = row0 + r;
        scale = -h;
      } else if (r < nx + ny + nc) {
        R = n == 0 ? row0 + (r - nx) : row0 + r;
        scale = 1.0;
      } else {
        continue; /* the Lagrange row goes to the gradient */
      }
      const int V = var_of(nlp, n, P->col[e]);
      if (V >= 0)
        sink_add(sk, R, V, values ? scale * jv[e] : 0.0);
    }
    if (hv >= 0)
      for (int i = 0; i < nx; ++i)
        sink_add(sk, row0 + i, hv, values ? -dh * Fv[i] : 0.0);
    if (nlp->timed && n > 0) { /* d/dT_r through t_n: dF/dt dt_n/dT_r */
      double a = 0.0;
      const int q = nlp->elem_seg[k];
      if (values) {
        node_tseg(nlp, n, &a);
        if ((st = node_time(nlp, n, x, tf, NULL)) != 0)
          return st;
      }
      for (int r = 0; r <= q; ++r)
        for (int e = 0; e < pb->n_time_rows; ++e) {
          const int i = pb->time_rows[e];
          if (i >= nx + ny + nc)
            continue; /* the Lagrange row goes to the gradient */
          const double d = r < q ? 1.0 : a;
          sink_add(sk, row0 + i, nlp->dur_off + r,
                   values ? (i < nx ? -h : 1.0) * nlp->Ft[e] * d : 0.0);
        }
    }
  }
  for (int k = 0; k < nlp->mesh->n && nlp->nbnd > 0; ++k) {
    const int s = nlp->mesh->stages[k];
    for (int b = 0; b < nlp->nbnd; ++b) {
      const int i = nlp->bnd_idx[b], r0 = nlp->dense_off[k] + b * (s - 1);
      for (int m = 0; m < s - 1; ++m) {
        int var[RC_MAX_STAGES + 1];
        const double *M;
        const int nv = bern_row(nlp, k, i, m, var, &M);
        for (int l = 0; l < nv; ++l)
          sink_add(sk, r0 + m, var[l], M[l]);
      }
    }
  }
  if (pb->nb > 0) {
    const rc_pattern *Q = &pb->boundary.jac;
    if (values) {
      gather_z(nlp, x, nlp->z);
      if ((st = pb->boundary.jacobian(pb, pb->t0, nlp->z, nlp->jB)) != 0)
        return st;
    }
    for (int e = 0; e < Q->nnz; ++e) {
      if (Q->row[e] >= pb->nb)
        continue; /* phi goes to the gradient */
      const int V = zvar_of(nlp, Q->col[e]);
      if (V >= 0)
        sink_add(sk, nlp->b_off + Q->row[e], V, values ? nlp->jB[e] : 0.0);
    }
  }
  if (nlp->nseg > 0) { /* the duration row sum_q T_q [- tf] */
    for (int q = 0; q < nlp->nseg; ++q)
      sink_add(sk, nlp->dur_row, nlp->dur_off + q, 1.0);
    if (nlp->free_tf)
      sink_add(sk, nlp->dur_row, nlp->tf_off, -1.0);
  }
  for (int r = 0; r < nlp->ntan; ++r) { /* tangency rows f_i(W_n) = 0 */
    const int n = nlp->tan_node[r], i = nlp->mesh->pins[nlp->tan_pin[r]].index;
    const double *jv = NULL;
    if (values && (st = node_J(nlp, n, x, tf, &jv)) != 0)
      return st;
    for (int e = 0; e < P->nnz; ++e)
      if (P->row[e] == i)
        sink_add(sk, nlp->tan_off + r, var_of(nlp, n, P->col[e]),
                 values ? jv[e] : 0.0);
    if (nlp->timed && nlp->trow_of[i] >= 0) {
      double a = 0.0;
      const int q = nlp->elem_seg[nlp->node_elem[n]];
      if (values) {
        node_tseg(nlp, n, &a);
        if ((st = node_time(nlp, n, x, tf, NULL)) != 0)
          return st;
      }
      for (int rr = 0; rr <= q; ++rr)
        sink_add(sk, nlp->tan_off + r, nlp->dur_off + rr,
                 values ? nlp->Ft[nlp->trow_of[i]] * (rr < q ? 1.0 : a) : 0.0);
    }
  }
  for (int r = 0; r < nlp->ncont; ++r) { /* continuity rows (linear) */
    int var[RC_MAX_STAGES + 1];
    double coef[RC_MAX_STAGES + 1];
    const int nv = cont_row(nlp, nlp->cont_pin[r], var, coef);
    for (int l = 0; l < nv; ++l)
      sink_add(sk, nlp->cont_off + r, var[l], coef[l]);
  }
  return 0;
}

static inline void hes_add(walk_sink *sk, int a, int b, double v) {
  if (a >= b)
    sink_add(sk, a, b, v);
  else
    sink_add(sk, b, a, v);
}

/* The Hessian terms of mu . F(t_n, W_n) through the node time t_n of
 * segment q (dt_n/dT_r = d_r: 1 for r < q, a for r = q), with nlp->Ftw,
 * nlp->Ftt from node_time at the weights mu and mFt = sum_i (dmu_i/dT_q)
 * dF_i/dt (mu_f = -h lambda and mu_L = obj_factor h b_j are linear in T_q):
 *   d2/(dT_r dw_j)  = d_r sum_i mu_i d2F_i/(dt dw_j),
 *   d2/(dT_r dT_s)  = d_r d_s sum_i mu_i d2F_i/dt2
 *                     + [s = q] d_r mFt + [r = q] d_s mFt.
 * (The terms of dmu/dT_q times dF/dw are the classic cross terms.) */
static void time_hessian(rc_nlp *nlp, walk_sink *sk, int n, int q, double a,
                         double mFt, int values) {
  const rc_problem *pb = nlp->pb;
  for (int r = 0; r <= q; ++r) {
    const double dr = r < q ? 1.0 : a;
    for (int c = 0; c < pb->n_time_cols; ++c)
      hes_add(sk, nlp->dur_off + r, var_of(nlp, n, pb->time_cols[c]),
              values ? nlp->Ftw[c] * dr : 0.0);
    for (int s = 0; s <= r; ++s) {
      const double ds = s < q ? 1.0 : a;
      const double v = nlp->Ftt * dr * ds + (s == q ? dr * mFt : 0.0) +
                       (r == q ? ds * mFt : 0.0);
      hes_add(sk, nlp->dur_off + r, nlp->dur_off + s, values ? v : 0.0);
    }
  }
}

static int hes_walk(rc_nlp *nlp, const double *x, double obj_factor,
                    const double *lambda, walk_sink *sk) {
  const rc_problem *pb = nlp->pb;
  const int nx = nlp->nx, ny = nlp->ny, nc = pb->nc, nF = nlp->nF;
  const rc_pattern *H = &pb->point.hes, *P = &pb->point.jac;
  const int values = sk->mode == WALK_VALUES;
  const double tf = values ? rc_nlp_tf(nlp, x) : pb->tf;
  int st;
  for (int n = 0; n < nlp->nnodes; ++n) {
    if (!node_active(nlp, n))
      continue;
    const int row0 = nlp->con_off[n];
    const int k = nlp->node_elem[n], j = nlp->node_stage[n];
    double h = 0, dh = 0, bj = 0;
    int hv = -1; /* as in jac_walk */
    const double *jv = NULL;
    if (n > 0) {
      const int s = nlp->mesh->stages[k];
      hv = elem_hvar(nlp, k, &dh);
      h = elem_h(nlp, k, x, tf);
      bj = nlp->radau[s].b[j - 1];
    }
    if (values) {
      double *mu = nlp->mu;
      for (int i = 0; i < nx; ++i)
        mu[i] = n > 0 ? -h * lambda[row0 + i] : 0.0;
      for (int i = nx; i < nx + ny + nc; ++i)
        mu[i] = lambda[n == 0 ? row0 + (i - nx) : row0 + i];
      if (pb->has_lagrange)
        mu[nF - 1] = n > 0 ? obj_factor * h * bj : 0.0;
      const double t = eval_time(nlp, n, x, tf);
      gather_w(nlp, n, x, nlp->w);
      if ((st = pb->point.hessian(pb, t, nlp->w, mu, nlp->hF)) != 0)
        return st;
      if (hv >= 0 && (st = node_J(nlp, n, x, tf, &jv)) != 0)
        return st;
    }
    for (int e = 0; e < H->nnz; ++e) {
      const int Va = var_of(nlp, n, H->row[e]), Vb = var_of(nlp, n, H->col[e]);
      if (Va >= 0 && Vb >= 0)
        hes_add(sk, Va, Vb, values ? nlp->hF[e] : 0.0);
    }
    if (hv >= 0) {
      for (int e = 0; e < P->nnz; ++e) {
        const int r = P->row[e];
        double coef;
        if (r < nx)
          coef = values ? -dh * lambda[row0 + r] : 0.0;
        else if (pb->has_lagrange && r == nF - 1)
          coef = obj_factor * dh * bj;
        else
          continue;
        const int V = var_of(nlp, n, P->col[e]);
        if (V >= 0)
          hes_add(sk, hv, V, values ? coef * jv[e] : 0.0);
      }
    }
    if (nlp->timed && n > 0) {   /* through t_n (docs/switching.md) */
      double a = 0.0, mFt = 0.0; /* mFt = sum_i (dmu_i/dT_q) dF_i/dt */
      const int q = nlp->elem_seg[k];
      if (values) {
        node_tseg(nlp, n, &a);
        if ((st = node_time(nlp, n, x, tf, nlp->mu)) != 0)
          return st;
        for (int e = 0; e < pb->n_time_rows; ++e) {
          const int i = pb->time_rows[e];
          if (i < nx)
            mFt += -dh * lambda[row0 + i] * nlp->Ft[e];
          else if (pb->has_lagrange && i == nF - 1)
            mFt += obj_factor * dh * bj * nlp->Ft[e];
        }
      }
      time_hessian(nlp, sk, n, q, a, mFt, values);
    }
  }
  if (nlp->nB > 0) {
    const rc_pattern *Q = &pb->boundary.hes;
    if (values) {
      for (int r = 0; r < pb->nb; ++r)
        nlp->mu[r] = lambda[nlp->b_off + r];
      if (pb->has_mayer)
        nlp->mu[pb->nb] = obj_factor;
      gather_z(nlp, x, nlp->z);
      if ((st = pb->boundary.hessian(pb, pb->t0, nlp->z, nlp->mu, nlp->hB)) !=
          0)
        return st;
    }
    for (int e = 0; e < Q->nnz; ++e) {
      const int Va = zvar_of(nlp, Q->row[e]), Vb = zvar_of(nlp, Q->col[e]);
      if (Va >= 0 && Vb >= 0)
        hes_add(sk, Va, Vb, values ? nlp->hB[e] : 0.0);
    }
  }
  for (int r = 0; r < nlp->ntan; ++r) { /* lambda_r d2 f_i at node n */
    const int n = nlp->tan_node[r], i = nlp->mesh->pins[nlp->tan_pin[r]].index;
    if (values) {
      memset(nlp->mu, 0, sizeof *nlp->mu * (size_t)nF);
      nlp->mu[i] = lambda[nlp->tan_off + r];
      gather_w(nlp, n, x, nlp->w);
      if ((st = pb->point.hessian(pb, eval_time(nlp, n, x, tf), nlp->w, nlp->mu,
                                  nlp->hF)) != 0)
        return st;
    }
    for (int e = 0; e < H->nnz; ++e) /* every input is a variable at n */
      hes_add(sk, var_of(nlp, n, H->row[e]), var_of(nlp, n, H->col[e]),
              values ? nlp->hF[e] : 0.0);
    if (nlp->timed && nlp->trow_of[i] >= 0) {
      double a = 0.0;
      if (values) {
        node_tseg(nlp, n, &a);
        if ((st = node_time(nlp, n, x, tf, nlp->mu)) != 0)
          return st;
      }
      time_hessian(nlp, sk, n, nlp->elem_seg[nlp->node_elem[n]], a, 0.0,
                   values);
    }
  }
  return 0;
}

/* ---- setup ------------------------------------------------------------------
 */

/* Sorts the n non-negative keys ascending and carries idx along: LSD radix
 * sort on 11-bit digits (stable; as many passes as the largest key needs),
 * tk and ti scratch of n entries.  Replaces qsort plus a binary search per
 * contribution, which took about 10% of a 10^4-element tracking-OCP solve. */
static void radix_sort(long long n, long long *key, int *idx, long long *tk,
                       int *ti) {
  long long maxk = 0;
  for (long long e = 0; e < n; ++e)
    if (key[e] > maxk)
      maxk = key[e];
  long long *k0 = key, *k1 = tk;
  int *i0 = idx, *i1 = ti;
  for (int shift = 0; shift < 63 && (maxk >> shift) > 0; shift += 11) {
    long long cnt[2049] = {0};
    for (long long e = 0; e < n; ++e)
      cnt[((k0[e] >> shift) & 2047) + 1]++;
    for (int d = 0; d < 2048; ++d)
      cnt[d + 1] += cnt[d];
    for (long long e = 0; e < n; ++e) {
      const long long p = cnt[(k0[e] >> shift) & 2047]++;
      k1[p] = k0[e];
      i1[p] = i0[e];
    }
    long long *kt = k0;
    k0 = k1, k1 = kt;
    int *it = i0;
    i0 = i1, i1 = it;
  }
  if (k0 != key) {
    memcpy(key, k0, sizeof *key * (size_t)n);
    memcpy(idx, i0, sizeof *idx * (size_t)n);
  }
}

/* Record the ncontrib contributions of one walk (rc_nlp_count's count),
 * sort and merge them into a duplicate-free pattern plus a slot per
 * contribution.  A walk that does not make exactly ncontrib contributions is
 * an internal error (the count and the walk disagree), never an overrun. */
typedef int (*walk_fn)(rc_nlp *nlp, walk_sink *sk);

static int jac_walk_struct(rc_nlp *nlp, walk_sink *sk) {
  return jac_walk(nlp, NULL, sk);
}
static int hes_walk_struct(rc_nlp *nlp, walk_sink *sk) {
  return hes_walk(nlp, NULL, 0.0, NULL, sk);
}

static rc_err build_pattern(rc_nlp *nlp, walk_fn walk, long long ncontrib,
                            int *nnz, int **row, int **col, int **slot,
                            rc_error *err) {
  if (ncontrib > 2000000000LL)
    return rc_error_set(err, RC_ERR_INPUT,
                        "NLP too large: %lld derivative entries (limit 2e9)",
                        ncontrib);
  const size_t nalloc = (size_t)(ncontrib ? ncontrib : 1);
  long long *keys = malloc(sizeof *keys * nalloc);
  long long *tk = malloc(sizeof *tk * nalloc);
  int *idx = malloc(sizeof *idx * nalloc), *ti = malloc(sizeof *ti * nalloc);
  *slot = malloc(sizeof **slot * nalloc);
  if (!keys || !tk || !idx || !ti || !*slot) {
    free(keys);
    free(tk);
    free(idx);
    free(ti);
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory for %lld derivative entries", ncontrib);
  }
  walk_sink sk = {
      .mode = WALK_RECORD, .nvar = nlp->nvar, .keys = keys, .cap = ncontrib};
  walk(nlp, &sk);
  if (sk.k != ncontrib) {
    free(keys);
    free(tk);
    free(idx);
    free(ti);
    return rc_error_set(err, RC_ERR_INTERNAL,
                        "internal: the NLP walk made %lld derivative "
                        "contributions, rc_nlp_count %lld",
                        sk.k, ncontrib);
  }
  /* sort (key, contribution) pairs; equal keys merge into one slot */
  for (long long e = 0; e < ncontrib; ++e)
    idx[e] = (int)e;
  radix_sort(ncontrib, keys, idx, tk, ti);
  free(tk);
  free(ti);
  long long m = 0;
  for (long long e = 0; e < ncontrib; ++e) {
    if (m == 0 || keys[e] != keys[m - 1])
      keys[m++] = keys[e];
    (*slot)[idx[e]] = (int)(m - 1);
  }
  free(idx);
  *nnz = (int)m;
  *row = malloc(sizeof **row * (size_t)(m ? m : 1));
  *col = malloc(sizeof **col * (size_t)(m ? m : 1));
  if (!*row || !*col) {
    free(keys);
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for the NLP pattern");
  }
  for (long long e = 0; e < m; ++e) {
    (*row)[e] = (int)(keys[e] / nlp->nvar);
    (*col)[e] = (int)(keys[e] % nlp->nvar);
  }
  free(keys);
  return RC_OK;
}

void rc_nlp_free(rc_nlp **pnlp) {
  if (!pnlp || !*pnlp)
    return;
  rc_nlp *nlp = *pnlp;
  free(nlp->x_off);
  free(nlp->yu_off);
  free(nlp->con_off);
  free(nlp->node_elem);
  free(nlp->node_stage);
  free(nlp->elem_first);
  free(nlp->elem_seg);
  free(nlp->elem_phi);
  free(nlp->elem_alpha);
  free(nlp->tan_pin);
  free(nlp->tan_node);
  free(nlp->cont_pin);
  free(nlp->radau);
  free(nlp->bnd_idx);
  free(nlp->dense_off);
  free(nlp->bern_x);
  free(nlp->bern_u);
  free(nlp->bern_at);
  free(nlp->jac_row);
  free(nlp->jac_col);
  free(nlp->hes_row);
  free(nlp->hes_col);
  free(nlp->jac_slot);
  free(nlp->hes_slot);
  free(nlp->w);
  free(nlp->z);
  free(nlp->F);
  free(nlp->B);
  free(nlp->jF);
  free(nlp->hF);
  free(nlp->jB);
  free(nlp->hB);
  free(nlp->mu);
  free(nlp->trow_of);
  free(nlp->Ft);
  free(nlp->Ftw);
  free(nlp->F_gen);
  free(nlp->J_gen);
  free(nlp->F_cache);
  free(nlp->J_cache);
  free(nlp);
  *pnlp = NULL;
}

static void *xcalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

/* ---- sizes and dense-bound tables ------------------------------------------
 */

int rc_nlp_dense_bounded(const rc_problem *pb, int i) {
  if (i < 0 || i >= pb->nx + pb->ny + pb->nu)
    return 0;
  const double lo = pb->w_lo[i], hi = pb->w_hi[i];
  return (lo > -RC_INF_BOUND || hi < RC_INF_BOUND) && lo < hi;
}

/* Entries of pattern P in rows lo..hi-1. */
static long rows_in(const rc_pattern *P, int lo, int hi) {
  long n = 0;
  for (int e = 0; e < P->nnz; ++e)
    n += P->row[e] >= lo && P->row[e] < hi;
  return n;
}

/* Entries of the boundary pattern Q (rows below nrow) whose inputs are NLP
 * variables: the tf input z[2 nx + np] is one only for a free final time. */
static long boundary_entries(const rc_problem *pb, const rc_pattern *Q,
                             int nrow, int hessian) {
  const int tf_in = 2 * pb->nx + pb->np;
  long n = 0;
  for (int e = 0; e < Q->nnz; ++e)
    n += Q->row[e] < nrow &&
         (pb->free_tf ||
          (Q->col[e] != tf_in && !(hessian && Q->row[e] == tf_in)));
  return n;
}

/* Does pin p of mesh get a tangency row (transcription.h): a state pinned
 * on a segment q >= 1 whose f row has no algebraic or control column? */
static int tangent_pin(const rc_problem *pb, const rc_mesh *mesh, int p) {
  const rc_mesh_pin *a = &mesh->pins[p];
  if (a->kind != RC_PIN_BOUND || a->index >= pb->nx || a->seg < 1 ||
      a->seg >= mesh->nseg)
    return 0;
  const rc_pattern *P = &pb->point.jac;
  const int lo = pb->nx, hi = pb->nx + pb->ny + pb->nu;
  for (int e = 0; e < P->nnz; ++e)
    if (P->row[e] == a->index && P->col[e] >= lo && P->col[e] < hi)
      return 0;
  return 1;
}

/* Is output i of F one of the problem's time_rows? */
static int time_row(const rc_problem *pb, int i) {
  for (int e = 0; e < pb->n_time_rows; ++e)
    if (pb->time_rows[e] == i)
      return 1;
  return 0;
}

void rc_nlp_count(const rc_problem *pb, const rc_mesh *mesh, int dense_bounds,
                  rc_nlp_counts *size) {
  const long nx = pb->nx, nyu = pb->ny + pb->nu, nF = rc_problem_nF(pb);
  const long nstage = rc_mesh_nodes(mesh) - 1;
  const long t0 = pb->t0_algebraic && (nyu > 0 || pb->nc > 0) ? 1 : 0;
  long nbx = 0, nbyu = 0;
  for (int i = 0; dense_bounds && i < pb->nx + pb->ny + pb->nu; ++i)
    if (rc_nlp_dense_bounded(pb, i)) {
      if (i < pb->nx)
        ++nbx;
      else
        ++nbyu;
    }
  long nnz_d = 0, nbern = 0, nnz_bern = 0;
  for (int k = 0; k < mesh->n; ++k) {
    const long s = mesh->stages[k];
    nnz_d += nx * (s + 1) * s; /* collocation rows: nx (s + 1) per stage */
    nbern += (s - 1) * (nbx + nbyu);
    /* y, u: element 0 without t0 variables and segment starts are
     * stage-only (bern_row) */
    const long yu_entries =
        (k == 0 && !t0) || rc_mesh_segment_start(mesh, k) ? s : s + 1;
    nnz_bern += (s - 1) * (nbx * (s + 1) + nbyu * yu_entries);
  }
  /* the walks' contributions, entry for entry (jac_walk, hes_walk) */
  const rc_pattern *P = &pb->point.jac, *H = &pb->point.hes;
  const int nrow = pb->nx + pb->ny + pb->nc; /* F rows with NLP rows */
  const long jac_stage = rows_in(P, 0, nrow), jac_t0 = rows_in(P, pb->nx, nrow);
  const long tf_cross =
      rows_in(P, 0, pb->nx) +
      (pb->has_lagrange ? rows_in(P, (int)nF - 1, (int)nF) : 0);
  /* h_k scaled by a variable (T_q or tf); the duration row */
  const long nseg = mesh->nseg > 0 ? mesh->nseg : 0;
  const int scaled = pb->free_tf || nseg > 0;
  size->nvars = (nstage + 1) * nx + (nstage + t0) * nyu + pb->np + nseg +
                (pb->free_tf ? 1 : 0);
  size->ncons = (nstage + t0) * (pb->ny + pb->nc) + nstage * nx + nbern +
                pb->nb + (nseg > 0 ? 1 : 0);
  size->nnz_jac = nnz_d + nstage * jac_stage + t0 * jac_t0 + nnz_bern +
                  boundary_entries(pb, &pb->boundary.jac, pb->nb, 0) +
                  (scaled ? nstage * nx : 0) +
                  (nseg > 0 ? nseg + (pb->free_tf ? 1 : 0) : 0);
  size->nnz_hes =
      (nstage + t0) * (long)H->nnz + (scaled ? nstage * tf_cross : 0) +
      (rc_problem_nB(pb) > 0
           ? boundary_entries(pb, &pb->boundary.hes, rc_problem_nz(pb), 1)
           : 0);
  for (int p = 0; nseg > 0 && p < mesh->npin; ++p)
    if (tangent_pin(pb, mesh, p)) { /* f_i at the segment's start node */
      const int i = mesh->pins[p].index;
      size->ncons += 1;
      size->nnz_jac += rows_in(P, i, i + 1);
      size->nnz_hes += H->nnz;
    }
  if (nseg > 0 && !pb->autonomous && pb->time_derivs) { /* through t_n */
    long ntr = 0;
    for (int e = 0; e < pb->n_time_rows; ++e)
      ntr += pb->time_rows[e] < nrow;
    const long nc = pb->n_time_cols;
    for (int q = 0; q < mesh->nseg; ++q)
      for (int k = mesh->seg_first[q]; k < mesh->seg_first[q + 1]; ++k) {
        const long s = mesh->stages[k];
        size->nnz_jac += s * (q + 1) * ntr;
        size->nnz_hes += s * ((q + 1) * nc + (long)(q + 1) * (q + 2) / 2);
      }
    for (int p = 0; p < mesh->npin; ++p) /* the node ends segment seg - 1 */
      if (tangent_pin(pb, mesh, p) && time_row(pb, mesh->pins[p].index)) {
        const long q1 = mesh->pins[p].seg;
        size->nnz_jac += q1;
        size->nnz_hes += q1 * nc + q1 * (q1 + 1) / 2;
      }
  }
  for (int p = 0; nseg > 0 && p < mesh->npin; ++p)
    if (mesh->pins[p].kind == RC_PIN_CONTINUOUS) { /* 1 + s entries */
      size->ncons += 1;
      size->nnz_jac += 1 + mesh->stages[mesh->seg_first[mesh->pins[p].seg]];
    }
}

/* Bernstein coefficients of the degree-deg polynomial through the values V_l
 * at the deg + 1 distinct nodes theta_l in [0, 1]: beta = M V with M the
 * inverse of A[l][m] = binom(deg, m) theta_l^m (1 - theta_l)^(deg - m)
 * (Gauss-Jordan with partial pivoting in long double).  Returns 0, or -1 for
 * a singular A (impossible for distinct nodes). */
int rc_bernstein_inverse(int deg, const double *theta, double *M) {
  enum { NMAX = RC_MAX_STAGES + 1 };
  const int n = deg + 1;
  long double A[NMAX][2 * NMAX];
  for (int l = 0; l < n; ++l) {
    long double binom = 1.0L;
    for (int m = 0; m < n; ++m) {
      A[l][m] = binom * powl(theta[l], m) * powl(1.0L - theta[l], deg - m);
      A[l][n + m] = l == m ? 1.0L : 0.0L;
      binom = binom * (deg - m) / (m + 1);
    }
  }
  for (int c = 0; c < n; ++c) {
    int piv = c;
    for (int r = c + 1; r < n; ++r)
      if (fabsl(A[r][c]) > fabsl(A[piv][c]))
        piv = r;
    if (A[piv][c] == 0.0L)
      return -1;
    if (piv != c)
      for (int q = 0; q < 2 * n; ++q) {
        const long double tmp = A[c][q];
        A[c][q] = A[piv][q];
        A[piv][q] = tmp;
      }
    const long double d = A[c][c];
    for (int q = 0; q < 2 * n; ++q)
      A[c][q] /= d;
    for (int r = 0; r < n; ++r)
      if (r != c && A[r][c] != 0.0L) {
        const long double f = A[r][c];
        for (int q = 0; q < 2 * n; ++q)
          A[r][q] -= f * A[c][q];
      }
  }
  for (int m = 0; m < n; ++m)
    for (int l = 0; l < n; ++l)
      M[m * n + l] = (double)A[m][n + l];
  return 0;
}

/* Bounded entries and the Bernstein rows of every stage count in the mesh. */
static rc_err dense_bound_setup(rc_nlp *nlp, rc_error *err) {
  const rc_problem *pb = nlp->pb;
  const rc_mesh *mesh = nlp->mesh;
  const int nxyu = nlp->nx + nlp->ny + nlp->nu;
  nlp->bnd_idx = xcalloc((size_t)nxyu, sizeof(int));
  nlp->dense_off = xcalloc((size_t)mesh->n, sizeof(int));
  nlp->bern_at = xcalloc(RC_MAX_STAGES + 1, sizeof(int));
  if (!nlp->bnd_idx || !nlp->dense_off || !nlp->bern_at)
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory for the dense-bound rows");
  nlp->nbnd = 0;
  for (int i = 0; nlp->dense_bounds && i < nxyu; ++i)
    if (rc_nlp_dense_bounded(pb, i))
      nlp->bnd_idx[nlp->nbnd++] = i;
  if (nlp->nbnd == 0)
    return RC_OK;
  int used[RC_MAX_STAGES + 1] = {0};
  size_t total = 0;
  for (int k = 0; k < mesh->n; ++k)
    used[mesh->stages[k]] = 1;
  for (int s = 2; s <= RC_MAX_STAGES; ++s)
    if (used[s]) {
      nlp->bern_at[s] = (int)total;
      total += (size_t)(s - 1) * (size_t)(s + 1);
    }
  nlp->bern_x = xcalloc(total, sizeof(double));
  nlp->bern_u = xcalloc(total, sizeof(double));
  if (!nlp->bern_x || !nlp->bern_u)
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory for the dense-bound rows");
  double M[(RC_MAX_STAGES + 1) * (RC_MAX_STAGES + 1)];
  for (int s = 2; s <= RC_MAX_STAGES; ++s) {
    if (!used[s])
      continue;
    const rc_radau *R = &nlp->radau[s];
    if (rc_bernstein_inverse(s, R->tau, M) != 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "Bernstein conversion for %d stages is singular", s);
    double *Mx = nlp->bern_x + nlp->bern_at[s];
    for (int m = 1; m < s; ++m) /* interior coefficients 1..s-1 */
      for (int l = 0; l <= s; ++l)
        Mx[(m - 1) * (s + 1) + l] = M[m * (s + 1) + l];
    if (rc_bernstein_inverse(s - 1, R->c, M) != 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "Bernstein conversion for %d stages is singular", s);
    double *Mu = nlp->bern_u + nlp->bern_at[s];
    for (int m = 0; m < s - 1; ++m) /* all but the last (= the last stage) */
      for (int j = 0; j < s; ++j)
        Mu[m * s + j] = M[m * s + j];
  }
  return RC_OK;
}

/* The per-node index arrays, the Radau tables and the evaluation workspace
 * (sizes from pb and the node count); the caches are optional. */
static rc_err nlp_alloc(rc_nlp *nlp, rc_error *err) {
  const rc_problem *pb = nlp->pb;
  const size_t nn = (size_t)nlp->nnodes;
  nlp->x_off = xcalloc(nn, sizeof(int));
  nlp->yu_off = xcalloc(nn, sizeof(int));
  nlp->con_off = xcalloc(nn, sizeof(int));
  nlp->node_elem = xcalloc(nn, sizeof(int));
  nlp->node_stage = xcalloc(nn, sizeof(int));
  nlp->elem_first = xcalloc((size_t)nlp->mesh->n, sizeof(int));
  nlp->radau = xcalloc(RC_MAX_STAGES + 1, sizeof(rc_radau));
  const size_t nwork = (size_t)(nlp->nF > nlp->nB ? nlp->nF : nlp->nB);
  nlp->w = xcalloc((size_t)nlp->nw, sizeof(double));
  nlp->z = xcalloc((size_t)nlp->nz, sizeof(double));
  nlp->F = xcalloc((size_t)nlp->nF, sizeof(double));
  nlp->B = xcalloc((size_t)nlp->nB, sizeof(double));
  nlp->jF = xcalloc((size_t)pb->point.jac.nnz, sizeof(double));
  nlp->hF = xcalloc((size_t)pb->point.hes.nnz, sizeof(double));
  nlp->jB = xcalloc((size_t)pb->boundary.jac.nnz, sizeof(double));
  nlp->hB = xcalloc((size_t)pb->boundary.hes.nnz, sizeof(double));
  nlp->mu = xcalloc(nwork, sizeof(double));
  if (!nlp->x_off || !nlp->yu_off || !nlp->con_off || !nlp->node_elem ||
      !nlp->node_stage || !nlp->elem_first || !nlp->radau || !nlp->w ||
      !nlp->z || !nlp->F || !nlp->B || !nlp->jF || !nlp->hF || !nlp->jB ||
      !nlp->hB || !nlp->mu)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for %d nodes",
                        (int)nn);
  /* Caches are optional: without the memory, evaluation just repeats. */
  nlp->F_gen = calloc(nn, sizeof *nlp->F_gen);
  nlp->J_gen = calloc(nn, sizeof *nlp->J_gen);
  nlp->F_cache = malloc(sizeof(double) * nn * (size_t)(nlp->nF ? nlp->nF : 1));
  nlp->J_cache = malloc(sizeof(double) * nn *
                        (size_t)(pb->point.jac.nnz ? pb->point.jac.nnz : 1));
  if (!nlp->F_gen || !nlp->J_gen) {
    free(nlp->F_cache), free(nlp->J_cache);
    nlp->F_cache = nlp->J_cache = NULL;
  }
  nlp->gen = 1;
  return RC_OK;
}

/* Variable and constraint offsets, node by node (the order of
 * transcription.h); the totals must be rc_nlp_count's. */
static rc_err nlp_layout(rc_nlp *nlp, const rc_nlp_counts *sz, rc_error *err) {
  const rc_problem *pb = nlp->pb;
  const rc_mesh *mesh = nlp->mesh;
  const int nyu = nlp->ny + nlp->nu;
  long long v = 0, c = 0;
  nlp->x_off[0] = 0;
  v = nlp->nx;
  nlp->yu_off[0] = -1;
  nlp->con_off[0] = -1;
  if (nlp->t0_alg) {
    nlp->yu_off[0] = nyu > 0 ? (int)v : -1;
    v += nyu;
    nlp->con_off[0] = 0;
    c += nlp->ny + pb->nc;
  }
  nlp->node_elem[0] = -1;
  nlp->node_stage[0] = 0;
  int node = 1;
  for (int k = 0; k < mesh->n; ++k) {
    nlp->elem_first[k] = node;
    for (int j = 1; j <= mesh->stages[k]; ++j, ++node) {
      nlp->node_elem[node] = k;
      nlp->node_stage[node] = j;
      nlp->x_off[node] = (int)v;
      v += nlp->nx;
      nlp->yu_off[node] = nyu > 0 ? (int)v : -1;
      v += nyu;
      nlp->con_off[node] = (int)c;
      c += nlp->nx + nlp->ny + pb->nc;
    }
    nlp->dense_off[k] = (int)c;
    c += (long long)(mesh->stages[k] - 1) * nlp->nbnd;
  }
  nlp->p_off = (int)v;
  v += nlp->np;
  nlp->dur_off = nlp->nseg > 0 ? (int)v : -1;
  v += nlp->nseg;
  nlp->tf_off = nlp->free_tf ? (int)v : -1;
  v += nlp->free_tf ? 1 : 0;
  nlp->b_off = (int)c;
  c += pb->nb;
  nlp->dur_row = nlp->nseg > 0 ? (int)c : -1;
  c += nlp->nseg > 0 ? 1 : 0;
  nlp->tan_off = nlp->ntan > 0 ? (int)c : -1;
  c += nlp->ntan;
  for (int r = 0; r < nlp->ntan; ++r) /* the first node of the segment */
    nlp->tan_node[r] =
        state_node(nlp, mesh->seg_first[mesh->pins[nlp->tan_pin[r]].seg], 0);
  nlp->cont_off = nlp->ncont > 0 ? (int)c : -1;
  c += nlp->ncont;
  if (sz->nvars != v || sz->ncons != c)
    return rc_error_set(err, RC_ERR_INTERNAL,
                        "internal: NLP layout has %lld variables and %lld "
                        "constraints, rc_nlp_count %ld and %ld",
                        v, c, sz->nvars, sz->ncons);
  nlp->nvar = (int)v;
  nlp->ncon = (int)c;
  return RC_OK;
}

/* Free breakpoints: every element's segment, length phi_k and start
 * alpha_k as fractions of its segment, and the least duration.  Refuses a
 * problem whose F depends on t (the node times move with the durations and
 * F's t-derivative is not supplied). */
static rc_err segment_setup(rc_nlp *nlp, rc_error *err) {
  const rc_problem *pb = nlp->pb;
  const rc_mesh *mesh = nlp->mesh;
  nlp->nseg = mesh->nseg > 0 ? mesh->nseg : 0;
  if (nlp->nseg == 0)
    return RC_OK;
  if (!rc_problem_segments_ok(pb))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: free breakpoints (%d segments) need an "
                        "autonomous problem or its time derivatives "
                        "(rc_problem.time_derivs): its functions depend on t "
                        "and every node's time moves with the segment "
                        "durations",
                        pb->model, pb->formulation, nlp->nseg);
  nlp->timed = !pb->autonomous;
  if (nlp->timed) {
    nlp->trow_of = xcalloc((size_t)nlp->nF, sizeof(int));
    nlp->Ft = xcalloc((size_t)pb->n_time_rows + 1, sizeof(double));
    nlp->Ftw = xcalloc((size_t)pb->n_time_cols + 1, sizeof(double));
    if (!nlp->trow_of || !nlp->Ft || !nlp->Ftw)
      return rc_error_set(err, RC_ERR_NOMEM,
                          "out of memory for the time derivatives");
    for (int i = 0; i < nlp->nF; ++i)
      nlp->trow_of[i] = -1;
    for (int e = 0; e < pb->n_time_rows; ++e)
      nlp->trow_of[pb->time_rows[e]] = e;
  }
  const size_t n = (size_t)mesh->n;
  nlp->elem_seg = xcalloc(n, sizeof(int));
  nlp->elem_phi = xcalloc(n, sizeof(double));
  nlp->elem_alpha = xcalloc(n + 1, sizeof(double));
  if (!nlp->elem_seg || !nlp->elem_phi || !nlp->elem_alpha)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for %d segments",
                        nlp->nseg);
  for (int q = 0; q < nlp->nseg; ++q) {
    const int a = mesh->seg_first[q], b = mesh->seg_first[q + 1];
    const double F0 = mesh->frac[a], len = mesh->frac[b] - F0;
    for (int k = a; k < b; ++k) {
      nlp->elem_seg[k] = q;
      nlp->elem_alpha[k] = (mesh->frac[k] - F0) / len;
      nlp->elem_phi[k] = (mesh->frac[k + 1] - mesh->frac[k]) / len;
    }
  }
  nlp->elem_alpha[n] = 1.0;
  nlp->dur_min = mesh->seg_min * (pb->tf - pb->t0);
  for (int p = 0; p < mesh->npin; ++p) {
    const rc_mesh_pin *a = &mesh->pins[p];
    if (a->kind == RC_PIN_CONTINUOUS) {
      if (a->index < nlp->nx || a->index >= nlp->nx + nlp->ny + nlp->nu)
        return rc_error_set(err, RC_ERR_INPUT,
                            "%s/%s: pin %d makes entry %d continuous: "
                            "expected an algebraic variable or control "
                            "(%d..%d; states are continuous anyway)",
                            pb->model, pb->formulation, p, a->index, nlp->nx,
                            nlp->nx + nlp->ny + nlp->nu - 1);
      continue;
    }
    const int var = a->kind == RC_PIN_BOUND;
    const int n_of = var ? nlp->nx + nlp->ny + nlp->nu : pb->nc;
    if (a->index >= n_of)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: pin %d on %s %d: expected an index below "
                          "%d",
                          pb->model, pb->formulation, p,
                          var ? "variable" : "path constraint", a->index, n_of);
    const double b = var ? (a->upper ? pb->w_hi : pb->w_lo)[a->index]
                         : (a->upper ? pb->c_hi : pb->c_lo)[a->index];
    if (!(fabs(b) < RC_INF_BOUND))
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: pin %d holds %s %s at its %s bound, which "
                          "is %g: expected a finite bound",
                          pb->model, pb->formulation, p,
                          var ? "variable" : "path constraint",
                          var && pb->var_names ? pb->var_names[a->index] : "",
                          a->upper ? "upper" : "lower", b);
  }
  nlp->tan_pin = xcalloc((size_t)mesh->npin, sizeof(int));
  nlp->tan_node = xcalloc((size_t)mesh->npin, sizeof(int));
  if (!nlp->tan_pin || !nlp->tan_node)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for %d pins",
                        mesh->npin);
  nlp->cont_pin = xcalloc((size_t)mesh->npin, sizeof(int));
  if (!nlp->cont_pin)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for %d pins",
                        mesh->npin);
  for (int p = 0; p < mesh->npin; ++p) {
    if (tangent_pin(pb, mesh, p))
      nlp->tan_pin[nlp->ntan++] = p;
    if (mesh->pins[p].kind == RC_PIN_CONTINUOUS)
      nlp->cont_pin[nlp->ncont++] = p;
  }
  return RC_OK;
}

/* Pinned arcs as bounds (radcol/mesh.h): on the nodes of the pin's
 * segment the variable (a state also at the segment's start node) or the
 * path rows are held at the bound; the variable's Bernstein rows there are
 * freed where every node of its polynomial is pinned (the polynomial is the
 * constant bound: the rows would only repeat the fixed node values), i.e.
 * everywhere but y, u in element 0 with t0 values (node 0 is not pinned). */
static void pin_bounds(const rc_nlp *nlp, double *x_lo, double *x_hi,
                       double *g_lo, double *g_hi) {
  const rc_problem *pb = nlp->pb;
  const rc_mesh *mesh = nlp->mesh;
  for (int p = 0; p < mesh->npin; ++p) {
    const rc_mesh_pin *a = &mesh->pins[p];
    const int e0 = mesh->seg_first[a->seg], e1 = mesh->seg_first[a->seg + 1];
    if (a->kind == RC_PIN_BOUND) {
      const int i = a->index;
      const double b = clip_inf(a->upper ? pb->w_hi[i] : pb->w_lo[i]);
      if (i < nlp->nx) {
        const int v = var_of(nlp, state_node(nlp, e0, 0), i);
        x_lo[v] = x_hi[v] = b;
      }
      for (int k = e0; k < e1; ++k) {
        const int s = nlp->mesh->stages[k];
        for (int j = 0; j < s; ++j) {
          const int v = var_of(nlp, nlp->elem_first[k] + j, i);
          if (v >= 0)
            x_lo[v] = x_hi[v] = b;
        }
        /* element 0 with t0 values: y, u's polynomial goes through the
         * unpinned node 0, so its rows stay */
        const int through_t0 = k == 0 && i >= nlp->nx && nlp->yu_off[0] >= 0;
        for (int bb = 0; bb < nlp->nbnd && !through_t0; ++bb)
          if (nlp->bnd_idx[bb] == i)
            for (int m = 0; m < s - 1; ++m) {
              g_lo[nlp->dense_off[k] + bb * (s - 1) + m] = -RC_INF_BOUND;
              g_hi[nlp->dense_off[k] + bb * (s - 1) + m] = RC_INF_BOUND;
            }
      }
    } else if (a->kind == RC_PIN_PATH) {
      const int c = a->index;
      const double b = clip_inf(a->upper ? pb->c_hi[c] : pb->c_lo[c]);
      for (int k = e0; k < e1; ++k)
        for (int j = 0; j < nlp->mesh->stages[k]; ++j) {
          const int r =
              nlp->con_off[nlp->elem_first[k] + j] + nlp->nx + nlp->ny + c;
          g_lo[r] = g_hi[r] = b;
        }
    }
  }
}

/* T_q of the mesh's own breakpoints on the horizon [t0, tf] into x. */
static void start_durations(const rc_nlp *nlp, double tf, double *x) {
  const rc_mesh *mesh = nlp->mesh;
  for (int q = 0; q < nlp->nseg; ++q)
    x[nlp->dur_off + q] =
        (tf - nlp->pb->t0) *
        (mesh->frac[mesh->seg_first[q + 1]] - mesh->frac[mesh->seg_first[q]]);
}

/* The Radau tables of every stage count in the mesh. */
static rc_err nlp_radau_tables(rc_nlp *nlp, rc_error *err) {
  const rc_mesh *mesh = nlp->mesh;
  for (int k = 0; k < mesh->n; ++k) {
    const int s = mesh->stages[k];
    if (nlp->radau[s].s == 0 && rc_radau_init(s, &nlp->radau[s]) != 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "stages %d in element %d: expected 1..%d", s, k,
                          RC_MAX_STAGES);
  }
  return RC_OK;
}

/* Sizes come once from rc_nlp_count: the limits are checked on them before
 * anything is allocated, the layout must reproduce nvars and ncons, and the
 * derivative patterns are recorded into arrays of exactly nnz_jac and
 * nnz_hes contributions (as HPIPM's memsize and create share one dims). */
rc_err rc_nlp_create(const rc_problem *pb, const rc_mesh *mesh,
                     int dense_bounds, rc_nlp **out, rc_error *err) {
  *out = NULL;
  rc_err rc = rc_mesh_validate(mesh, err);
  if (rc != RC_OK)
    return rc;
  rc_nlp_counts sz;
  rc_nlp_count(pb, mesh, dense_bounds != 0, &sz);
  if (sz.nvars > 1000000000L || sz.ncons > 1000000000L)
    return rc_error_set(err, RC_ERR_INPUT,
                        "NLP too large: %ld variables, %ld constraints, "
                        "expected at most 1e9 each",
                        sz.nvars, sz.ncons);
  rc_nlp *nlp = calloc(1, sizeof *nlp);
  if (!nlp)
    return rc_error_set(err, RC_ERR_NOMEM, "out of memory for the NLP");
  nlp->pb = pb;
  nlp->mesh = mesh;
  nlp->nx = pb->nx;
  nlp->ny = pb->ny;
  nlp->nu = pb->nu;
  nlp->np = pb->np;
  nlp->nw = rc_problem_nw(pb);
  nlp->nF = rc_problem_nF(pb);
  nlp->nB = rc_problem_nB(pb);
  nlp->nz = rc_problem_nz(pb);
  nlp->t0_alg = pb->t0_algebraic && (pb->ny + pb->nu > 0 || pb->nc > 0);
  nlp->free_tf = pb->free_tf;
  nlp->dense_bounds = dense_bounds != 0;
  nlp->nnodes = rc_mesh_nodes(mesh);
  if ((rc = nlp_alloc(nlp, err)) != RC_OK ||
      (rc = segment_setup(nlp, err)) != RC_OK ||
      (rc = nlp_radau_tables(nlp, err)) != RC_OK ||
      (rc = dense_bound_setup(nlp, err)) != RC_OK ||
      (rc = nlp_layout(nlp, &sz, err)) != RC_OK ||
      (rc = build_pattern(nlp, jac_walk_struct, sz.nnz_jac, &nlp->nnz_jac,
                          &nlp->jac_row, &nlp->jac_col, &nlp->jac_slot, err)) !=
          RC_OK ||
      (rc = build_pattern(nlp, hes_walk_struct, sz.nnz_hes, &nlp->nnz_hes,
                          &nlp->hes_row, &nlp->hes_col, &nlp->hes_slot, err)) !=
          RC_OK) {
    rc_nlp_free(&nlp);
    return rc;
  }
  *out = nlp;
  return RC_OK;
}

/* ---- bounds and values
 * -------------------------------------------------------- */

void rc_nlp_bounds(const rc_nlp *nlp, double *x_lo, double *x_hi, double *g_lo,
                   double *g_hi) {
  const rc_problem *pb = nlp->pb;
  for (int n = 0; n < nlp->nnodes; ++n)
    for (int i = 0; i < nlp->nx + nlp->ny + nlp->nu; ++i) {
      const int v = var_of(nlp, n, i);
      if (v < 0)
        continue;
      x_lo[v] = clip_inf(pb->w_lo[i]);
      x_hi[v] = clip_inf(pb->w_hi[i]);
    }
  for (int i = 0; i < nlp->np; ++i) {
    const int iw = nlp->nx + nlp->ny + nlp->nu + i;
    x_lo[nlp->p_off + i] = clip_inf(pb->w_lo[iw]);
    x_hi[nlp->p_off + i] = clip_inf(pb->w_hi[iw]);
  }
  if (pb->fix_x0)
    for (int i = 0; i < nlp->nx; ++i)
      if (pb->fix_x0[i])
        x_lo[i] = x_hi[i] = pb->x0[i];
  if (pb->fix_xf) {
    const int off = nlp->x_off[nlp->nnodes - 1];
    for (int i = 0; i < nlp->nx; ++i)
      if (pb->fix_xf[i])
        x_lo[off + i] = x_hi[off + i] = pb->xf[i];
  }
  if (nlp->free_tf) {
    x_lo[nlp->tf_off] = pb->tf_lo;
    x_hi[nlp->tf_off] = pb->tf_hi;
  }
  for (int q = 0; q < nlp->nseg; ++q) {
    x_lo[nlp->dur_off + q] = nlp->dur_min;
    x_hi[nlp->dur_off + q] =
        clip_inf((nlp->free_tf ? pb->tf_hi : pb->tf) - pb->t0);
  }
  for (int n = 0; n < nlp->nnodes; ++n) {
    if (!node_active(nlp, n))
      continue;
    int r = nlp->con_off[n];
    if (n > 0)
      for (int i = 0; i < nlp->nx; ++i, ++r)
        g_lo[r] = g_hi[r] = 0.0;
    for (int i = 0; i < nlp->ny; ++i, ++r)
      g_lo[r] = g_hi[r] = 0.0;
    for (int i = 0; i < pb->nc; ++i, ++r) {
      g_lo[r] = clip_inf(pb->c_lo[i]);
      g_hi[r] = clip_inf(pb->c_hi[i]);
    }
  }
  for (int k = 0; k < nlp->mesh->n && nlp->nbnd > 0; ++k) {
    const int s = nlp->mesh->stages[k];
    for (int b = 0; b < nlp->nbnd; ++b) {
      const int i = nlp->bnd_idx[b], r0 = nlp->dense_off[k] + b * (s - 1);
      for (int m = 0; m < s - 1; ++m) {
        g_lo[r0 + m] = clip_inf(pb->w_lo[i]);
        g_hi[r0 + m] = clip_inf(pb->w_hi[i]);
      }
    }
  }
  for (int i = 0; i < pb->nb; ++i) {
    g_lo[nlp->b_off + i] = clip_inf(pb->b_lo[i]);
    g_hi[nlp->b_off + i] = clip_inf(pb->b_hi[i]);
  }
  if (nlp->nseg > 0) /* sum_q T_q - tf = -t0, or sum_q T_q = tf - t0 */
    g_lo[nlp->dur_row] = g_hi[nlp->dur_row] =
        nlp->free_tf ? -pb->t0 : pb->tf - pb->t0;
  for (int r = 0; r < nlp->ntan; ++r)
    g_lo[nlp->tan_off + r] = g_hi[nlp->tan_off + r] = 0.0;
  for (int r = 0; r < nlp->ncont; ++r)
    g_lo[nlp->cont_off + r] = g_hi[nlp->cont_off + r] = 0.0;
  pin_bounds(nlp, x_lo, x_hi, g_lo, g_hi);
}

int rc_nlp_objective(rc_nlp *nlp, const double *x, double *f) {
  const rc_problem *pb = nlp->pb;
  const double tf = rc_nlp_tf(nlp, x);
  double sum = 0.0;
  int st;
  if (pb->has_lagrange) {
    for (int n = 1; n < nlp->nnodes; ++n) {
      const int k = nlp->node_elem[n], j = nlp->node_stage[n];
      const double h = elem_h(nlp, k, x, tf);
      const double *F;
      if ((st = node_F(nlp, n, x, tf, &F)) != 0)
        return st;
      sum += h * nlp->radau[nlp->mesh->stages[k]].b[j - 1] * F[nlp->nF - 1];
    }
  }
  if (pb->has_mayer) {
    gather_z(nlp, x, nlp->z);
    if ((st = pb->boundary.eval(pb, pb->t0, nlp->z, nlp->B)) != 0)
      return st;
    sum += nlp->B[pb->nb];
  }
  *f = sum;
  return 0;
}

int rc_nlp_gradient(rc_nlp *nlp, const double *x, double *grad) {
  const rc_problem *pb = nlp->pb;
  const double tf = rc_nlp_tf(nlp, x);
  const rc_pattern *P = &pb->point.jac;
  int st;
  memset(grad, 0, sizeof *grad * (size_t)nlp->nvar);
  if (pb->has_lagrange) {
    const int rL = nlp->nF - 1;
    for (int n = 1; n < nlp->nnodes; ++n) {
      const int k = nlp->node_elem[n], j = nlp->node_stage[n];
      double dh;
      const int hv = elem_hvar(nlp, k, &dh);
      const double bj = nlp->radau[nlp->mesh->stages[k]].b[j - 1];
      const double w = elem_h(nlp, k, x, tf) * bj;
      const double *J, *F;
      if ((st = node_J(nlp, n, x, tf, &J)) != 0)
        return st;
      for (int e = 0; e < P->nnz; ++e)
        if (P->row[e] == rL) {
          const int V = var_of(nlp, n, P->col[e]);
          if (V >= 0)
            grad[V] += w * J[e];
        }
      if (hv >= 0) {
        if ((st = node_F(nlp, n, x, tf, &F)) != 0)
          return st;
        grad[hv] += dh * bj * F[rL];
      }
      if (nlp->timed && nlp->trow_of[rL] >= 0) { /* through t_n */
        double a;
        const int q = node_tseg(nlp, n, &a);
        if ((st = node_time(nlp, n, x, tf, NULL)) != 0)
          return st;
        for (int r = 0; r <= q; ++r)
          grad[nlp->dur_off + r] +=
              w * nlp->Ft[nlp->trow_of[rL]] * (r < q ? 1.0 : a);
      }
    }
  }
  if (pb->has_mayer) {
    const rc_pattern *Q = &pb->boundary.jac;
    gather_z(nlp, x, nlp->z);
    if ((st = pb->boundary.jacobian(pb, pb->t0, nlp->z, nlp->jB)) != 0)
      return st;
    for (int e = 0; e < Q->nnz; ++e)
      if (Q->row[e] == pb->nb) {
        const int V = zvar_of(nlp, Q->col[e]);
        if (V >= 0)
          grad[V] += nlp->jB[e];
      }
  }
  return 0;
}

int rc_nlp_constraints(rc_nlp *nlp, const double *x, double *g) {
  const rc_problem *pb = nlp->pb;
  const double tf = rc_nlp_tf(nlp, x);
  const int nx = nlp->nx, ny = nlp->ny, nc = pb->nc;
  int st;
  for (int n = 0; n < nlp->nnodes; ++n) {
    if (!node_active(nlp, n))
      continue;
    const double *F;
    if ((st = node_F(nlp, n, x, tf, &F)) != 0)
      return st;
    double *row = g + nlp->con_off[n];
    if (n > 0) {
      const int k = nlp->node_elem[n], j = nlp->node_stage[n];
      const int s = nlp->mesh->stages[k];
      const double *D = nlp->radau[s].D + (j - 1) * (s + 1);
      const double h = elem_h(nlp, k, x, tf);
      for (int i = 0; i < nx; ++i) {
        double acc = -h * F[i];
        for (int l = 0; l <= s; ++l)
          acc += D[l] * x[nlp->x_off[state_node(nlp, k, l)] + i];
        row[i] = acc;
      }
      row += nx;
    }
    memcpy(row, F + nx, sizeof *row * (size_t)(ny + nc));
  }
  for (int k = 0; k < nlp->mesh->n && nlp->nbnd > 0; ++k) {
    const int s = nlp->mesh->stages[k];
    for (int b = 0; b < nlp->nbnd; ++b) {
      const int i = nlp->bnd_idx[b];
      double *row = g + nlp->dense_off[k] + b * (s - 1);
      for (int m = 0; m < s - 1; ++m) {
        int var[RC_MAX_STAGES + 1];
        const double *M;
        const int nv = bern_row(nlp, k, i, m, var, &M);
        double acc = 0.0;
        for (int l = 0; l < nv; ++l)
          acc += M[l] * x[var[l]];
        row[m] = acc;
      }
    }
  }
  if (pb->nb > 0) {
    gather_z(nlp, x, nlp->z);
    if ((st = pb->boundary.eval(pb, pb->t0, nlp->z, nlp->B)) != 0)
      return st;
    memcpy(g + nlp->b_off, nlp->B, sizeof *g * (size_t)pb->nb);
  }
  if (nlp->nseg > 0) {
    double sum = 0.0;
    for (int q = 0; q < nlp->nseg; ++q)
      sum += x[nlp->dur_off + q];
    g[nlp->dur_row] = sum - (nlp->free_tf ? x[nlp->tf_off] : 0.0);
  }
  for (int r = 0; r < nlp->ntan; ++r) {
    const double *F;
    if ((st = node_F(nlp, nlp->tan_node[r], x, tf, &F)) != 0)
      return st;
    g[nlp->tan_off + r] = F[nlp->mesh->pins[nlp->tan_pin[r]].index];
  }
  for (int r = 0; r < nlp->ncont; ++r) {
    int var[RC_MAX_STAGES + 1];
    double coef[RC_MAX_STAGES + 1], acc = 0.0;
    const int nv = cont_row(nlp, nlp->cont_pin[r], var, coef);
    for (int l = 0; l < nv; ++l)
      acc += coef[l] * x[var[l]];
    g[nlp->cont_off + r] = acc;
  }
  return 0;
}

int rc_nlp_jacobian(rc_nlp *nlp, const double *x, double *vals) {
  memset(vals, 0, sizeof *vals * (size_t)nlp->nnz_jac);
  walk_sink sk = {.mode = WALK_VALUES,
                  .nvar = nlp->nvar,
                  .slot = nlp->jac_slot,
                  .vals = vals};
  return jac_walk(nlp, x, &sk);
}

int rc_nlp_hessian(rc_nlp *nlp, const double *x, double obj_factor,
                   const double *lambda, double *vals) {
  memset(vals, 0, sizeof *vals * (size_t)nlp->nnz_hes);
  walk_sink sk = {.mode = WALK_VALUES,
                  .nvar = nlp->nvar,
                  .slot = nlp->hes_slot,
                  .vals = vals};
  return hes_walk(nlp, x, obj_factor, lambda, &sk);
}

/* ---- NLP point <-> trajectory ----------------------------------------------
 */

/* b_j h_k of the stage at node n (1 at node 0) at the point x. */
static double node_quad_weight(const rc_nlp *nlp, int n, const double *x,
                               double tf) {
  if (n == 0)
    return 1.0;
  const int k = nlp->node_elem[n];
  return elem_h(nlp, k, x, tf) *
         nlp->radau[nlp->mesh->stages[k]].b[nlp->node_stage[n] - 1];
}

/* With free breakpoints: the breakpoints of x as fractions of the horizon
 * sum_q T_q, written into m (a copy of the NLP's mesh); strictly increasing
 * because every T_q > 0. */
static void move_breakpoints(const rc_nlp *nlp, const double *x, rc_mesh *m) {
  double total = 0.0;
  for (int q = 0; q < nlp->nseg; ++q)
    total += x[nlp->dur_off + q];
  double start = 0.0;
  for (int q = 0; q < nlp->nseg; ++q) {
    const double T = x[nlp->dur_off + q];
    for (int k = m->seg_first[q]; k < m->seg_first[q + 1]; ++k)
      m->frac[k] = (start + T * nlp->elem_alpha[k]) / total;
    start += T;
  }
  m->frac[0] = 0.0;
  m->frac[m->n] = 1.0;
}

/* b_j of the stage at node n (1 at node 0): the h-scaled collocation rows
 * carry h_k already, so their duals are b_j times the costate. */
static double node_bj(const rc_nlp *nlp, int n) {
  if (n == 0)
    return 1.0;
  return nlp->radau[nlp->mesh->stages[nlp->node_elem[n]]]
      .b[nlp->node_stage[n] - 1];
}

void rc_nlp_to_solution(const rc_nlp *nlp, const double *x,
                        const double *lambda, const double *zl,
                        const double *zu, rc_solution *sol) {
  const int nw = nlp->nw, nx = nlp->nx, ny = nlp->ny, nc = nlp->pb->nc;
  const double tf = rc_nlp_tf(nlp, x);
  if (nlp->nseg > 0 && sol->mesh.n == nlp->mesh->n)
    move_breakpoints(nlp, x, &sol->mesh);
  sol->t0 = nlp->pb->t0;
  sol->tf = tf;
  rc_solution_set_times(sol);
  for (int n = 0; n < nlp->nnodes; ++n)
    gather_w(nlp, n, x, sol->w + (size_t)n * nw);
  if (!nlp->t0_alg && ny + nlp->nu > 0) {
    /* y, u at t0: element-0 dense output (extrapolated from its stages) */
    double *w0 = nlp->w;
    if (rc_solution_eval_stages(sol, sol->t0, w0, NULL) == RC_OK)
      memcpy(sol->w + nx, w0 + nx, sizeof *w0 * (size_t)(ny + nlp->nu));
  }
  if (!sol->has_duals || !lambda)
    return;
  for (int n = 0; n < nlp->nnodes; ++n) {
    double *lf = sol->lam_f + (size_t)n * nx, *lg = sol->lam_g + (size_t)n * ny,
           *lc = sol->lam_c + (size_t)n * nc;
    if (!node_active(nlp, n)) {
      memset(lf, 0, sizeof *lf * (size_t)nx);
      memset(lg, 0, sizeof *lg * (size_t)ny);
      memset(lc, 0, sizeof *lc * (size_t)nc);
      continue;
    }
    const double q = node_quad_weight(nlp, n, x, tf), qf = node_bj(nlp, n);
    int r = nlp->con_off[n];
    for (int i = 0; i < nx; ++i)
      lf[i] = n > 0 ? lambda[r++] / qf : 0.0;
    for (int i = 0; i < ny; ++i)
      lg[i] = lambda[r++] / q;
    for (int i = 0; i < nc; ++i)
      lc[i] = lambda[r++] / q;
  }
  for (int i = 0; i < nlp->pb->nb; ++i)
    sol->lam_b[i] = lambda[nlp->b_off + i];
  for (int n = 0; n < nlp->nnodes; ++n)
    for (int i = 0; i < nw; ++i) {
      const int v = var_of(nlp, n, i);
      sol->z_lo[(size_t)n * nw + i] = v >= 0 && zl ? zl[v] : 0.0;
      sol->z_hi[(size_t)n * nw + i] = v >= 0 && zu ? zu[v] : 0.0;
    }
}

static void scatter_w(const rc_nlp *nlp, int n, const double *w, double *x) {
  for (int i = 0; i < nlp->nw; ++i) {
    const int v = var_of(nlp, n, i);
    if (v >= 0)
      x[v] = w[i];
  }
}

static void clip_to_bounds(const rc_nlp *nlp, double *x) {
  const size_t nv = (size_t)nlp->nvar, nc = (size_t)nlp->ncon;
  double *lo = malloc(sizeof *lo * (nv ? nv : 1)),
         *hi = malloc(sizeof *hi * (nv ? nv : 1));
  double *glo = malloc(sizeof *glo * (nc ? nc : 1)),
         *ghi = malloc(sizeof *ghi * (nc ? nc : 1));
  if (lo && hi && glo && ghi) {
    rc_nlp_bounds(nlp, lo, hi, glo, ghi);
    for (size_t v = 0; v < nv; ++v) {
      if (x[v] < lo[v])
        x[v] = lo[v];
      if (x[v] > hi[v])
        x[v] = hi[v];
    }
  }
  free(lo);
  free(hi);
  free(glo);
  free(ghi);
}

static int nearest_node(const rc_solution *sol, double t) {
  int lo = 0, hi = sol->nnodes - 1;
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (sol->t[mid] <= t)
      lo = mid;
    else
      hi = mid;
  }
  return fabs(sol->t[hi] - t) < fabs(sol->t[lo] - t) ? hi : lo;
}

rc_err rc_nlp_from_solution(const rc_nlp *nlp, const rc_solution *g, double *x,
                            double *lambda, double *zl, double *zu,
                            rc_error *err) {
  const rc_problem *pb = nlp->pb;
  if (g->nx != pb->nx || g->ny != pb->ny || g->nu != pb->nu || g->np != pb->np)
    return rc_error_set(err, RC_ERR_INPUT,
                        "guess has dims nx=%d ny=%d nu=%d np=%d: expected "
                        "nx=%d ny=%d nu=%d np=%d (%s/%s)",
                        g->nx, g->ny, g->nu, g->np, pb->nx, pb->ny, pb->nu,
                        pb->np, pb->model, pb->formulation);
  const double tf = nlp->free_tf ? g->tf : pb->tf;
  const int nw = nlp->nw, nx = nlp->nx, ny = nlp->ny, nc = pb->nc;
  if (nlp->free_tf)
    x[nlp->tf_off] = g->tf;
  start_durations(nlp, tf, x);
  const int with_duals =
      lambda && g->has_duals && g->nc == nc && g->nb == pb->nb;
  rc_err rc;
  for (int n = 0; n < nlp->nnodes; ++n) {
    /* Evaluate at the same horizon fraction in the guess's time frame. */
    const double a = (rc_nlp_node_time(nlp, n, tf) - pb->t0) / (tf - pb->t0);
    double tg = g->t0 + a * (g->tf - g->t0);
    if (tg > g->tf)
      tg = g->tf;
    if ((rc = rc_solution_eval(g, tg, nlp->w, err)) != RC_OK)
      return rc;
    scatter_w(nlp, n, nlp->w, x);
    if (!with_duals)
      continue;
    const int nearest = nearest_node(g, tg);
    for (int i = 0; i < nw; ++i) {
      const int v = var_of(nlp, n, i);
      if (v >= 0) {
        zl[v] = g->z_lo[(size_t)nearest * nw + i];
        zu[v] = g->z_hi[(size_t)nearest * nw + i];
      }
    }
    if (!node_active(nlp, n))
      continue;
    int r = nlp->con_off[n];
    if (n == 0) {
      for (int i = 0; i < ny; ++i)
        lambda[r++] = g->lam_g[i];
      for (int i = 0; i < nc; ++i)
        lambda[r++] = g->lam_c[i];
      continue;
    }
    double *dens = nlp->mu; /* nx + ny + nc <= nF */
    if ((rc = rc_solution_eval_duals(g, tg, dens, err)) != RC_OK)
      return rc;
    const double q = node_quad_weight(nlp, n, x, tf), qf = node_bj(nlp, n);
    for (int i = 0; i < nx + ny + nc; ++i)
      lambda[r++] = dens[i] * (i < nx ? qf : q);
  }
  if (with_duals)
    for (int i = 0; i < pb->nb; ++i)
      lambda[nlp->b_off + i] = g->lam_b[i];
  clip_to_bounds(nlp, x);
  return RC_OK;
}

rc_err rc_nlp_default_guess(const rc_nlp *nlp, double *x, rc_error *err) {
  const rc_problem *pb = nlp->pb;
  memset(x, 0, sizeof *x * (size_t)nlp->nvar);
  if (nlp->free_tf)
    x[nlp->tf_off] = pb->tf;
  const double tf = pb->tf;
  start_durations(nlp, tf, x);
  for (int n = 0; n < nlp->nnodes; ++n) {
    double *w = nlp->w;
    memset(w, 0, sizeof *w * (size_t)nlp->nw);
    if (pb->guess) {
      const double t = rc_nlp_node_time(nlp, n, tf);
      const int st = pb->guess(pb, t, w);
      if (st != 0)
        return rc_error_set(err, RC_ERR_EVAL,
                            "%s/%s: the guess function failed at t = %g "
                            "(status %d)",
                            pb->model, pb->formulation, t, st);
    } else {
      for (int i = 0; i < nlp->nx; ++i)
        w[i] = pb->x0[i];
    }
    /* NaN or inf from x0 or a guess function (a plugin's x0, a parameter
     * that overflows a derived value) is bad input, found before solving. */
    for (int i = 0; i < nlp->nw; ++i)
      if (!isfinite(w[i]))
        return rc_error_set(err, RC_ERR_INPUT,
                            "%s/%s: the initial guess of %s at t = %g is %g "
                            "(from %s): expected a finite value (check the "
                            "parameters)",
                            pb->model, pb->formulation,
                            pb->var_names ? pb->var_names[i] : "?",
                            rc_nlp_node_time(nlp, n, tf), w[i],
                            pb->guess ? "the guess function" : "x0");
    scatter_w(nlp, n, w, x);
  }
  clip_to_bounds(nlp, x);
  return RC_OK;
}
