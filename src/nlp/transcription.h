/*
 * transcription.h - problem + mesh -> one sparse NLP (internal).
 *
 * Radau IIA collocation on finite elements (SPEC section 3).  Element k has
 * length h_k = (tf - t0) sigma_k, s_k stages at c_1 < ... < c_s = 1.  With
 * X_k0 the state at the element start and X_kj at stage j:
 *
 *   collocation  sum_{l=0..s} D_jl X_kl - h_k f(t_kj, W_kj) = 0   (nx rows)
 *   algebraic    g(t_kj, W_kj) = 0                               (ny rows)
 *   path         c_lo <= c(t_kj, W_kj) <= c_hi                   (nc rows)
 *   boundary     b_lo <= b(X(t0), X(tf), p, tf) <= b_hi          (nb rows)
 *   objective    phi(X(t0), X(tf), p, tf) + sum_k h_k sum_j b_j L(t_kj, W_kj)
 *
 * Variable order is by time, node by node (the node layout of result.h):
 *   node 0:  X (nx) [, Y U (ny + nu) if t0_algebraic]
 *   node n:  X (nx), Y U (ny + nu)        n = 1 .. nnodes-1
 *   then p (np), then the segment durations T (nseg, with free breakpoints),
 *   then tf (if free).
 * Constraint order follows the variables: [g, c at t0 if t0_algebraic], then
 * per stage node (collocation, g, c), after the last stage of each element
 * that element's dense-bound rows (below), then b, then (with free
 * breakpoints) the duration row.  The KKT matrix is therefore banded apart
 * from the p, T and tf columns (an arrow).
 *
 * Free breakpoints (mesh->nseg >= 1, radcol/mesh.h, docs/switching.md).
 * Element k of segment q has h_k = T_q phi_k and its stage j is at
 *     t_kj = t0 + T_0 + ... + T_{q-1} + T_q (alpha_k + c_j phi_k)
 * (alpha_k, phi_k: the element's start and length as fractions of its
 * segment, fixed).  The durations are NLP variables with
 *     T_q >= seg_min (tf_nominal - t0),
 *     duration row  sum_q T_q - tf = -t0  (free tf)  or  sum_q T_q = tf - t0,
 * which keeps the segments ordered and the horizon right.  Every term that
 * a free tf scales through h_k = (tf - t0) sigma_k is scaled by T_q through
 * h_k = T_q phi_k instead (transcription.c, "Derivatives"); tf itself then
 * enters only the boundary block and the duration row.  The node times
 * depend on every T_r, r <= q, so a problem with free breakpoints must be
 * autonomous (rc_nlp_create refuses others: F's derivative in t is not
 * supplied).  Without segments (nseg = 0) the NLP is exactly the classic
 * one: h_k = (tf - t0) sigma_k, no T, no duration row.
 *
 * Pins (radcol/mesh.h) are bounds: on the pinned segment the variable or
 * path row is held at its bound.  A pinned state x_i whose dynamics f_i
 * depend on states and parameters only (a state constraint of order >= 2:
 * x_i'' or later sees the controls) must also enter its arc tangentially,
 * x_i' = f_i = 0 at the arc's start, which the collocation rows (at the
 * stages only) do not impose: one tangency row f_i(W_n) = 0 at the
 * segment's start node n (segments q >= 1; at t0 the arc does not begin at
 * a junction) closes that gap, which an NLP would otherwise use to arrive at
 * the bound with a velocity hidden inside the arc's first element.  These
 * rows follow the duration row.  A continuity pin of y_i or u_i at the start
 * of segment q (first element k, s stages) is the linear row
 *     W_i(last stage of segment q-1) - sum_j l_j(0) W_i(stage j of k) = 0
 * (l_j the Lagrange basis of the stages c_1..c_s: the extrapolation of the
 * stage polynomial, which is the dense output there); these rows follow the
 * tangency rows.
 *
 * Dense bounds (dense_bounds on; docs/dense-bounds.md).  A simple bound
 * lo_i <= w_i <= hi_i (x, y or u, at least one side finite, lo_i < hi_i)
 * holds on the whole of element k when the Bernstein coefficients of the
 * element's dense-output polynomial do (convex hull property).  The
 * coefficients are linear in the node values:
 *   state  x~ of degree s through {X_k0, X_k1..X_ks} at {0, c_1..c_s}:
 *          beta = Mx (X_k0..X_ks),  Mx = inverse of [B^s_m(theta_l)]_{l,m};
 *          beta_0 = X_k0 and beta_s = X_ks are bounded already, so the rows
 *          are beta_1..beta_{s-1};
 *   y, u   the same degree-s polynomial through the element start (the
 *          previous element's last stage, or node 0) and the stages, so the
 *          same rows with Mx, in every element except element 0 without
 *          t0 variables (node 0 has no y, u there): there the degree-(s-1)
 *          polynomial through the stage values, beta = Mu (W_k1..W_ks),
 *          Mu = inverse of [B^{s-1}_m(c_j)]_{j,m}, rows beta_0..beta_{s-2}
 *          (beta_{s-1} = W_ks); exact for the stage extrapolation that node
 *          0 then holds (docs/dense-bounds.md section 1a).
 * Either way s - 1 rows lo_i <= beta_m <= hi_i per bounded entry and element
 * (none for s = 1), with a constant Jacobian (Mx or Mu) and no Hessian.
 *
 * Every derivative is assembled from the problem's pointwise blocks.  At setup
 * the transcription enumerates every contribution (row, column) of the NLP
 * Jacobian and of the lower-triangular Lagrangian Hessian in a fixed order,
 * sorts and merges them into a duplicate-free pattern, and keeps for each
 * contribution the slot it adds into.  Evaluation walks the same order and
 * scatters, so the assembled values are exact sums and nothing is allocated
 * after rc_nlp_create.
 */
#ifndef RADCOL_TRANSCRIPTION_H
#define RADCOL_TRANSCRIPTION_H

#include "collocation/radau.h"
#include "radcol/mesh.h"
#include "radcol/problem.h"
#include "radcol/result.h"

typedef struct rc_nlp {
  const rc_problem *pb; /* borrowed */
  const rc_mesh *mesh;  /* borrowed */
  int nx, ny, nu, np, nw, nF, nB, nz;
  int t0_alg; /* node 0 carries Y, U and g, c */
  int free_tf;

  int nnodes; /* 1 + sum of stages */
  int nvar, ncon;
  int p_off, tf_off; /* offsets of p and tf (tf_off -1 when fixed) */
  /* free breakpoints (nseg >= 1) */
  int nseg;           /* segments with free durations (0: none) */
  int dur_off;        /* offset of T_0 .. T_{nseg-1} (-1: none) */
  int dur_row;        /* the duration row (-1: none) */
  double dur_min;     /* least duration, time units */
  int *elem_seg;      /* mesh->n: segment of element k (NULL: none) */
  double *elem_phi;   /* mesh->n: h_k / T_q */
  double *elem_alpha; /* mesh->n + 1: start of element k in its segment, as a
                         fraction of T_q (1 at the end of the segment) */
  /* free breakpoints on a problem that depends on t (rc_problem.time_derivs):
   * node n's time moves with T_0..T_q */
  int timed;
  int *trow_of; /* nF: index into pb->time_rows of output i, or -1 */
  double *Ft;   /* n_time_rows */
  double *Ftw;  /* n_time_cols */
  double Ftt;
  /* tangency rows of pinned state arcs (below) */
  int ntan;      /* rows */
  int tan_off;   /* first row (-1: none) */
  int *tan_pin;  /* ntan: the pin of each row */
  int *tan_node; /* ntan: the node where it holds (the segment's start) */
  /* continuity rows of RC_PIN_CONTINUOUS pins (below) */
  int ncont, cont_off; /* rows, first row (-1: none) */
  int *cont_pin;       /* ncont: the pin of each row */
  int *x_off;          /* nnodes: offset of X at node n */
  int *yu_off;         /* nnodes: offset of (Y, U) at node n, -1 if none */
  int *con_off;        /* nnodes: first constraint row at node n, -1 if none */
  int b_off;           /* first boundary row */
  int *node_elem;      /* nnodes: element of node n (-1 for node 0) */
  int *node_stage;     /* nnodes: stage 1..s (0 for node 0) */
  int *elem_first;     /* n: node index of stage 1 of element k */
  rc_radau *radau;     /* RC_MAX_STAGES + 1 tables, [s] valid if used */

  /* dense bounds: Bernstein rows (see above) */
  int dense_bounds;
  int nbnd;       /* bounded entries of (x, y, u) */
  int *bnd_idx;   /* nbnd point-vector indices, ascending (states first) */
  int *dense_off; /* mesh->n: first Bernstein row of element k */
  double *bern_x; /* per s: (s - 1) x (s + 1) rows 1..s-1 of Mx, at
                     bern_at[s] */
  double *bern_u; /* per s: (s - 1) x s rows 0..s-2 of Mu, at bern_at[s] */
  int *bern_at;   /* RC_MAX_STAGES + 1 offsets into bern_x / bern_u */

  /* assembled patterns and contribution -> slot maps */
  int nnz_jac, nnz_hes;
  int *jac_row, *jac_col, *hes_row, *hes_col;
  int *jac_slot; /* one per Jacobian contribution, in walk order */
  int *hes_slot; /* one per Hessian contribution, in walk order */

  /* workspace, sized once */
  double *w;       /* nw: point vector */
  double *z;       /* nz: boundary inputs */
  double *F;       /* nF */
  double *B;       /* nB */
  double *jF, *hF; /* point Jacobian / Hessian values */
  double *jB, *hB; /* boundary Jacobian / Hessian values */
  double *mu;      /* max(nF, nB) weights */

  /* Per-node caches of F and its Jacobian, valid for the current point
   * while caching is on: Ipopt evaluates f, g, grad f and the Jacobian at the
   * same x and announces a new x (rc_nlp_new_point), so each node's blocks
   * are evaluated once per point instead of up to three times. */
  int caching;
  unsigned gen;            /* generation of the current point */
  unsigned *F_gen, *J_gen; /* nnodes: generation each cache entry holds */
  double *F_cache;         /* nnodes x nF */
  double *J_cache;         /* nnodes x point.jac.nnz */

} rc_nlp;

/* Sizes of the NLP of pb on mesh (dense_bounds: with the Bernstein rows).
 * The one place the NLP is counted: nvars and ncons are exact, and nnz_jac
 * and nnz_hes are the exact numbers of derivative contributions the walks
 * make (before duplicates merge, so upper bounds of the pattern sizes);
 * rc_nlp_create allocates from them and fails (internal) when the layout or
 * a walk disagrees.  The memory a solve needs is the refinement's estimate
 * (rc_refine_nlp_size, radcol/refine.h), computed from these counts. */
typedef struct rc_nlp_counts {
  long nvars, ncons, nnz_jac, nnz_hes;
} rc_nlp_counts;
void rc_nlp_count(const rc_problem *pb, const rc_mesh *mesh, int dense_bounds,
                  rc_nlp_counts *size);

/* Does entry i of (x, y, u) get dense-bound rows? (a finite bound, lo < hi) */
int rc_nlp_dense_bounded(const rc_problem *pb, int i);

/* Bernstein coefficients of the degree-deg polynomial through values at the
 * deg + 1 distinct nodes theta[] in [0, 1]: beta = M V, M row-major
 * (deg + 1)^2.  Returns 0, or -1 for a singular conversion. */
int rc_bernstein_inverse(int deg, const double *theta, double *M);

rc_err rc_nlp_create(const rc_problem *pb, const rc_mesh *mesh,
                     int dense_bounds, rc_nlp **out, rc_error *err);
void rc_nlp_free(rc_nlp **nlp);

/* Caching of point evaluations (off after rc_nlp_create).  With caching on,
 * the caller must call rc_nlp_new_point before evaluating at a new x. */
void rc_nlp_set_caching(rc_nlp *nlp, int on);
void rc_nlp_new_point(rc_nlp *nlp);

/* Final time at the NLP point x. */
double rc_nlp_tf(const rc_nlp *nlp, const double *x);
/* Time of node n for final time tf with the mesh's own breakpoints (the
 * starting durations when the breakpoints are free). */
double rc_nlp_node_time(const rc_nlp *nlp, int n, double tf);
/* Time of node n at the NLP point x (with free breakpoints: from the
 * durations in x). */
double rc_nlp_node_time_x(const rc_nlp *nlp, int n, const double *x);
/* Length of element k at the NLP point x. */
double rc_nlp_elem_h(const rc_nlp *nlp, int k, const double *x);

void rc_nlp_bounds(const rc_nlp *nlp, double *x_lo, double *x_hi, double *g_lo,
                   double *g_hi);
/* Callbacks: return 0 on success, the problem's nonzero status otherwise. */
int rc_nlp_objective(rc_nlp *nlp, const double *x, double *f);
int rc_nlp_gradient(rc_nlp *nlp, const double *x, double *grad);
int rc_nlp_constraints(rc_nlp *nlp, const double *x, double *g);
int rc_nlp_jacobian(rc_nlp *nlp, const double *x, double *vals);
int rc_nlp_hessian(rc_nlp *nlp, const double *x, double obj_factor,
                   const double *lambda, double *vals);

/* NLP point <-> trajectory.  to_solution also maps duals when sol has them
 * (lambda, z_lo, z_hi may be NULL); with free breakpoints it moves the
 * breakpoints of sol->mesh to those of x first (sol's mesh must be a copy of
 * the NLP's). */
void rc_nlp_to_solution(const rc_nlp *nlp, const double *x,
                        const double *lambda, const double *zl,
                        const double *zu, rc_solution *sol);
/* Initial point from a trajectory by dense output (and duals when lambda is
 * not NULL and the trajectory has them). */
rc_err rc_nlp_from_solution(const rc_nlp *nlp, const rc_solution *guess,
                            double *x, double *lambda, double *zl, double *zu,
                            rc_error *err);
/* Initial point from the problem's guess function (or x0 and zeros). */
rc_err rc_nlp_default_guess(const rc_nlp *nlp, double *x, rc_error *err);

/* y and u at t0 of a solution mapped by rc_nlp_to_solution, as rc_solve
 * fills them (Newton on g at t0 for index-1 forms; solve.c). */
void rc_nlp_fill_t0_values(const rc_problem *pb, rc_solution *sol,
                           int dense_bounds);

#endif
