/*
 * var_index.c - the index of every stage unknown of a square system and its
 * position-level constraint rows (var_index.h has the rules).
 *
 * The rank test: Householder QR with column pivoting of B = Ga^T (na x na;
 * column r of B is row r of Ga), rank = the diagonal entries of R above
 * 1e-10 times the largest; Q's first rank columns span the row space of Ga,
 * so e_j lies in it exactly when the squared norm of row j of those columns
 * is 1.  Sizes are those of one stage (na up to a few hundred): O(na^3) once
 * per march.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nlp/var_index.h"

void rc_var_index_free(rc_var_index *vi) {
  if (!vi)
    return;
  free(vi->k);
  free(vi->row_hi);
  free(vi->row_x);
  memset(vi, 0, sizeof *vi);
}

/* Ga from the pattern: values jv, or 1 for every entry when jv is NULL. */
static void fill_ga(const rc_problem *pb, const double *jv, int na,
                    double *Ga) {
  const rc_pattern *P = &pb->point.jac;
  const int nx = pb->nx, nq = nx + na;
  memset(Ga, 0, sizeof *Ga * (size_t)na * (size_t)na);
  for (int e = 0; e < P->nnz; ++e) {
    const int r = P->row[e] - nx, c = P->col[e];
    if (r < 0 || r >= na || c < nx || c >= nq)
      continue;
    Ga[(size_t)r * na + (c - nx)] += jv ? jv[e] : 1.0;
  }
}

/* inrow[j] = sum_{i < rank} Q_ji^2 for B = Ga^T (B_jr = Ga_rj). */
static void row_space_weight(int n, const double *Ga, double *inrow) {
  double *B = malloc(sizeof *B * (size_t)n * (size_t)n);
  double *V = malloc(sizeof *V * (size_t)n * (size_t)n); /* reflectors */
  double *beta = malloc(sizeof *beta * (size_t)n);
  if (!B || !V || !beta) {
    for (int j = 0; j < n; ++j)
      inrow[j] = 1.0; /* no memory: call everything index 1 */
    free(B);
    free(V);
    free(beta);
    return;
  }
  for (int j = 0; j < n; ++j)
    for (int r = 0; r < n; ++r)
      B[(size_t)j * n + r] = Ga[(size_t)r * n + j];
  int rank = 0;
  double r00 = 0.0;
  for (int k = 0; k < n; ++k) {
    /* pivot: the remaining column of largest norm below row k */
    int p = -1;
    double best = 0.0;
    for (int c = k; c < n; ++c) {
      double s = 0.0;
      for (int i = k; i < n; ++i)
        s += B[(size_t)i * n + c] * B[(size_t)i * n + c];
      if (s > best) {
        best = s;
        p = c;
      }
    }
    const double nrm = sqrt(best);
    if (p < 0 || !(nrm > 1e-10 * r00) || !isfinite(nrm))
      break;
    if (k == 0)
      r00 = nrm;
    if (p != k)
      for (int i = 0; i < n; ++i) {
        const double t = B[(size_t)i * n + k];
        B[(size_t)i * n + k] = B[(size_t)i * n + p];
        B[(size_t)i * n + p] = t;
      }
    /* reflector v = x - alpha e_k, alpha = -sign(x_k) |x| */
    double *v = V + (size_t)k * n;
    const double xk = B[(size_t)k * n + k];
    const double alpha = xk > 0 ? -nrm : nrm;
    for (int i = 0; i < n; ++i)
      v[i] = i < k ? 0.0 : B[(size_t)i * n + k];
    v[k] -= alpha;
    double vv = 0.0;
    for (int i = k; i < n; ++i)
      vv += v[i] * v[i];
    beta[k] = vv > 0 ? 2.0 / vv : 0.0;
    for (int c = k; c < n; ++c) {
      double d = 0.0;
      for (int i = k; i < n; ++i)
        d += v[i] * B[(size_t)i * n + c];
      d *= beta[k];
      for (int i = k; i < n; ++i)
        B[(size_t)i * n + c] -= d * v[i];
    }
    rank = k + 1;
  }
  /* Q e_i = H_0 ... H_{rank-1} e_i for i < rank; weight of row j */
  for (int j = 0; j < n; ++j)
    inrow[j] = 0.0;
  double *q = malloc(sizeof *q * (size_t)n); /* a column of Q */
  if (!q) {
    for (int j = 0; j < n; ++j)
      inrow[j] = 1.0;
  } else {
    for (int i = 0; i < rank; ++i) {
      for (int j = 0; j < n; ++j)
        q[j] = j == i ? 1.0 : 0.0;
      for (int k = rank - 1; k >= 0; --k) {
        const double *v = V + (size_t)k * n;
        double d = 0.0;
        for (int j = k; j < n; ++j)
          d += v[j] * q[j];
        d *= beta[k];
        for (int j = k; j < n; ++j)
          q[j] -= d * v[j];
      }
      for (int j = 0; j < n; ++j)
        inrow[j] += q[j] * q[j];
    }
    free(q);
  }
  free(B);
  free(V);
  free(beta);
}

rc_err rc_var_index_compute(const rc_problem *pb, double t, const double *w,
                            rc_var_index *vi, rc_error *err) {
  memset(vi, 0, sizeof *vi);
  const int nx = pb->nx, na = pb->ny + pb->nu, nq = nx + na;
  const rc_pattern *P = &pb->point.jac;
  vi->nq = nq;
  vi->na = na;
  vi->kmax = 1;
  vi->k = malloc(sizeof *vi->k * (size_t)(nq > 0 ? nq : 1));
  vi->row_hi = calloc((size_t)(na > 0 ? na : 1), sizeof *vi->row_hi);
  vi->row_x = calloc((size_t)(na > 0 ? na : 1), sizeof *vi->row_x);
  double *Ga = malloc(sizeof *Ga * (size_t)(na > 0 ? na * na : 1));
  double *inrow = malloc(sizeof *inrow * (size_t)(na > 0 ? na : 1));
  double *jv = malloc(sizeof *jv * (size_t)(P->nnz > 0 ? P->nnz : 1));
  if (!vi->k || !vi->row_hi || !vi->row_x || !Ga || !inrow || !jv) {
    free(Ga);
    free(inrow);
    free(jv);
    rc_var_index_free(vi);
    return rc_error_set(err, RC_ERR_NOMEM,
                        "out of memory classifying %d algebraic unknowns", na);
  }
  for (int i = 0; i < nq; ++i)
    vi->k[i] = 1;
  for (int r = 0; r < na; ++r)
    vi->row_x[r] = 1;
  for (int e = 0; e < P->nnz; ++e) {
    const int r = P->row[e] - nx, c = P->col[e];
    if (r >= 0 && r < na && c >= nx && c < nq)
      vi->row_x[r] = 0;
  }
  if (na > 0) {
    const int ok = pb->point.jacobian(pb, t, w, jv) == 0;
    fill_ga(pb, ok ? jv : NULL, na, Ga);
    row_space_weight(na, Ga, inrow);
    const int kh = pb->index >= 3 ? 3 : 2;
    for (int j = 0; j < na; ++j)
      if (!(inrow[j] >= 1.0 - 1e-8)) {
        vi->k[nx + j] = kh;
        vi->nhigh++;
      }
    if (vi->nhigh > 0)
      vi->kmax = kh;
    if (kh == 3 && vi->nhigh > 0) {
      for (int e = 0; e < P->nnz; ++e) {
        const int r = P->row[e], c = P->col[e];
        if (r < nx && c >= nx && c < nq && vi->k[c] == 3)
          vi->k[r] = 2; /* x_r' = f_r depends on an index-3 unknown */
      }
      for (int r = 0; r < na; ++r)
        vi->row_hi[r] = 1;
      for (int e = 0; e < P->nnz; ++e) {
        const int r = P->row[e] - nx, c = P->col[e];
        if (r >= 0 && r < na && c < nq && (c >= nx || vi->k[c] == 2))
          vi->row_hi[r] = 0;
      }
    }
  }
  free(Ga);
  free(inrow);
  free(jv);
  return RC_OK;
}
