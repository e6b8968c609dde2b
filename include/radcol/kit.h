/*
 * radcol/kit.h - the derivative kit: the one way radcol's hand-written
 * problems (and plugins) code a block's values, Jacobian and Hessian, so
 * that the sparsity pattern and the values cannot drift apart.
 *
 * A problem writes ONE function per block (point F on w, boundary B on z,
 * invariants on w),
 *
 *     int fn(const rc_problem *pb, double t, const double *w, rc_kit *k);
 *
 * that states each row's value together with its derivative entries:
 *
 *     rc_kit_row(k, i, v)        F_i += v, and i becomes the current row
 *     rc_kit_d(k, a, v)          dF_i / dw_a += v              (current row i)
 *     rc_kit_d2(k, a, b, v)      d2F_i / dw_a dw_b += v        (current row i;
 *                                a, b in either order, each unordered pair
 *                                once per term: it is both (a,b) and (b,a))
 *
 * Writes add up, so a row may be built from several terms (Baumgarte's
 * acc + 2 eta w vel + w^2 pos writes the same entries three times).
 * fn returns 0, > 0 (recoverable: outside the domain) or < 0 (fatal), as
 * every radcol callback does.
 *
 * rc_kit_attach() runs each fn once when the problem is created (the
 * recording pass, at a record point): the entries written become the block's
 * declared patterns - row-major, Hessian in the lower triangle (row >= col),
 * no duplicates - and the kit fills pb->point, pb->boundary and
 * pb->invariants with those patterns and its own eval / jacobian / hessian
 * callbacks.  A callback zeroes its output (n_out values, or the nnz pattern
 * entries), calls fn, and adds each write into its recorded slot: the values
 * in eval, dF_i/dw_a in jacobian, mu_i d2F_i/dw_a dw_b in hessian; the calls
 * a pass does not use cost one branch.  Nothing is allocated after attach:
 * the slot maps (n_out n_in + n_in (n_in + 1) / 2 ints per block) are sized
 * there, and the per-call state lives on the callback's stack (reentrant).
 *
 * Drift.  The pattern is what fn writes, not what is nonzero: an entry written
 * with the value 0 is declared.  So fn must write the same entries at every
 * point - branch on the problem's data (formulation, parameters), never on w
 * or t.  A later pass that writes an entry the recording pass did not (or a
 * row or column out of range) changes no value outside the pattern and makes
 * the callback return RC_KIT_UNRECORDED (fatal); `radcol check` reports it.
 * Attach refuses, with a message naming the entry, a write out of range, a
 * derivative before any rc_kit_row, and a row that fn never writes.
 *
 * Wiring.  pb->user points at the problem's own struct, whose FIRST member is
 * an rc_kit_blocks (the kit's callbacks find their blocks there; attach
 * checks it); destroy calls rc_kit_release on it.  pb->user stays the one
 * way to the problem's data:
 *
 *     typedef struct my { rc_kit_blocks kit; rc_problem pb; double g; } my;
 *     ...  m->pb = (rc_problem){ ... dims, bounds, .user = m, ... };
 *     rc_kit_spec ks = {.point = my_point, .invariants = my_inv};
 *     rc_err rc = rc_kit_attach(&m->pb, &m->kit, &ks, err);
 *
 * A block without outputs (no boundary constraints and no Mayer term, or
 * ninv = 0) takes no function and is left empty.
 *
 * Header only: every function is static inline and compiles into the problem
 * or plugin that uses it, so the kit adds nothing to radcol's plugin ABI and
 * a plugin using it links nothing (rc_error_set, for attach's messages, is
 * resolved from the radcol executable as for every plugin).
 */
#ifndef RADCOL_KIT_H
#define RADCOL_KIT_H

#include <stddef.h>
#include <stdlib.h>

#include "radcol/errors.h"
#include "radcol/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status of a callback whose fn wrote an entry the recording pass did not. */
#define RC_KIT_UNRECORDED (-86)

/* Passes (rc_kit_order tells fn which derivatives the pass uses). */
enum {
  RC_KIT_PASS_VALUES = 0,
  RC_KIT_PASS_JACOBIAN = 1,
  RC_KIT_PASS_HESSIAN = 2,
  RC_KIT_PASS_RECORD = 3
};

typedef struct rc_kit rc_kit;

/* A block's one function: writes every row of the block at (t, w) through k
 * (w is z for the boundary block; t is then unused). */
typedef int (*rc_kit_fn)(const rc_problem *pb, double t, const double *w,
                         rc_kit *k);

/* One recorded block (owned arrays, built by rc_kit_attach). */
typedef struct rc_kit_block {
  rc_kit_fn fn;
  int n_in, n_out;
  int njac, nhes;
  int *jac_row, *jac_col; /* the declared Jacobian pattern, row-major */
  int *hes_row, *hes_col; /* the declared Hessian pattern, row >= col */
  int *jslot;             /* n_out x n_in: pattern index of (i, a), or -1 */
  int *hslot; /* (a, b), a >= b, at a (a + 1) / 2 + b: index, or -1 */
} rc_kit_block;

#define RC_KIT_MAGIC 0x6b697431 /* "kit1" */

/* The kit's part of a problem: the first member of *pb->user. */
typedef struct rc_kit_blocks {
  int magic; /* RC_KIT_MAGIC once attached */
  rc_kit_block point, boundary, invariants;
} rc_kit_blocks;

/* What rc_kit_attach records.  Designated initialisers: fields not named are
 * zero. */
typedef struct rc_kit_spec {
  rc_kit_fn point;      /* required (the point block always has outputs) */
  rc_kit_fn boundary;   /* iff nb + has_mayer > 0 */
  rc_kit_fn invariants; /* iff ninv > 0 */
  /* Where the recording pass evaluates (borrowed, read during attach only):
   * nw values for point and invariants, nz for the boundary, at t = t0; NULL
   * means v_i = 0.3 + 0.1 i.  Give a point inside fn's domain if fn can
   * fail (e.g. a square root). */
  const double *w_record;
  const double *z_record;
} rc_kit_spec;

/* Per-call state, on the stack of a kit callback; read it only through the
 * functions below. */
struct rc_kit {
  int pass, row, n_in, n_out;
  double *out;      /* values or pattern entries of this pass */
  const double *mu; /* Hessian weights (hessian pass) */
  double mu_row;    /* mu[row] */
  const int *jslot; /* block's slot maps */
  const int *hslot;
  const int *jrow;    /* jslot of the current row (jacobian pass) */
  int *rec_j, *rec_h; /* recording pass: marks (jslot, hslot layout) */
  unsigned char *rec_rows;
  int status;                /* 0 or RC_KIT_UNRECORDED */
  int bad_row, bad_a, bad_b; /* the first unrecorded write */
};

/* ---- what fn calls ---------------------------------------------------- */

static inline void rc_kit_unrecorded_(rc_kit *k, int row, int a, int b) {
  if (k->status == 0) {
    k->status = RC_KIT_UNRECORDED;
    k->bad_row = row, k->bad_a = a, k->bad_b = b;
  }
}

/* F_i += v; i becomes the current row of the rc_kit_d / rc_kit_d2 calls
 * that follow. */
static inline void rc_kit_row(rc_kit *k, int i, double v) {
  if ((unsigned)i >= (unsigned)k->n_out) {
    k->row = -1, k->jrow = NULL;
    rc_kit_unrecorded_(k, i, -1, -1);
    return;
  }
  k->row = i;
  switch (k->pass) {
  case RC_KIT_PASS_VALUES:
    k->out[i] += v;
    break;
  case RC_KIT_PASS_JACOBIAN:
    k->jrow = k->jslot + (size_t)i * (size_t)k->n_in;
    break;
  case RC_KIT_PASS_HESSIAN:
    k->mu_row = k->mu[i];
    break;
  default:
    k->rec_rows[i] = 1;
    break;
  }
}

/* dF_i / dw_a += v for the current row i. */
static inline void rc_kit_d(rc_kit *k, int a, double v) {
  if (k->pass == RC_KIT_PASS_JACOBIAN) {
    const int s =
        (k->jrow && (unsigned)a < (unsigned)k->n_in) ? k->jrow[a] : -1;
    if (s >= 0)
      k->out[s] += v;
    else
      rc_kit_unrecorded_(k, k->row, a, -1);
  } else if (k->pass == RC_KIT_PASS_RECORD) {
    if (k->row >= 0 && (unsigned)a < (unsigned)k->n_in)
      k->rec_j[(size_t)k->row * (size_t)k->n_in + (size_t)a] = 1;
    else
      rc_kit_unrecorded_(k, k->row, a, -1);
  }
}

/* d2F_i / dw_a dw_b += v for the current row i (a, b in either order). */
static inline void rc_kit_d2(rc_kit *k, int a, int b, double v) {
  if (k->pass != RC_KIT_PASS_HESSIAN && k->pass != RC_KIT_PASS_RECORD)
    return;
  if (a < b) {
    const int c = a;
    a = b, b = c;
  }
  if (k->row < 0 || b < 0 || a >= k->n_in) {
    rc_kit_unrecorded_(k, k->row, a, b);
    return;
  }
  const size_t e = (size_t)a * (size_t)(a + 1) / 2 + (size_t)b;
  if (k->pass == RC_KIT_PASS_RECORD) {
    k->rec_h[e] = 1;
    return;
  }
  const int s = k->hslot[e];
  if (s >= 0)
    k->out[s] += k->mu_row * v;
  else
    rc_kit_unrecorded_(k, k->row, a, b);
}

/* The highest derivative order this pass uses: 0 values, 1 Jacobian,
 * 2 Hessian (and the recording pass).  fn may skip computing derivatives of
 * higher order; every call stays legal in every pass. */
static inline int rc_kit_order(const rc_kit *k) {
  return k->pass == RC_KIT_PASS_RECORD ? 2 : k->pass;
}

/* ---- the callbacks the kit installs ----------------------------------- */

static inline int rc_kit_run_(const rc_kit_block *b, const rc_problem *pb,
                              double t, const double *w, int pass, double *out,
                              const double *mu) {
  const int n = pass == RC_KIT_PASS_VALUES
                    ? b->n_out
                    : (pass == RC_KIT_PASS_JACOBIAN ? b->njac : b->nhes);
  for (int i = 0; i < n; ++i)
    out[i] = 0.0;
  rc_kit k; /* the fields this pass reads (mu_row and jrow are set by
               rc_kit_row, bad_* with status, rec_* only when recording) */
  k.pass = pass, k.row = -1, k.n_in = b->n_in, k.n_out = b->n_out;
  k.out = out, k.mu = mu, k.mu_row = 0.0;
  k.jslot = b->jslot, k.hslot = b->hslot, k.jrow = NULL;
  k.status = 0;
  const int st = b->fn(pb, t, w, &k);
  return st != 0 ? st : k.status;
}

static inline const rc_kit_blocks *rc_kit_blocks_of_(const rc_problem *pb) {
  const rc_kit_blocks *kb = (const rc_kit_blocks *)pb->user;
  return kb && kb->magic == RC_KIT_MAGIC ? kb : NULL;
}

static inline int rc_kit_point_eval_(const rc_problem *pb, double t,
                                     const double *w, double *out) {
  const rc_kit_blocks *kb = rc_kit_blocks_of_(pb);
  return kb ? rc_kit_run_(&kb->point, pb, t, w, RC_KIT_PASS_VALUES, out, NULL)
            : -1;
}
static inline int rc_kit_point_jac_(const rc_problem *pb, double t,
                                    const double *w, double *vals) {
  const rc_kit_blocks *kb = rc_kit_blocks_of_(pb);
  return kb ? rc_kit_run_(&kb->point, pb, t, w, RC_KIT_PASS_JACOBIAN, vals,
                          NULL)
            : -1;
}
static inline int rc_kit_point_hes_(const rc_problem *pb, double t,
                                    const double *w, const double *mu,
                                    double *vals) {
  const rc_kit_blocks *kb = rc_kit_blocks_of_(pb);
  return kb ? rc_kit_run_(&kb->point, pb, t, w, RC_KIT_PASS_HESSIAN, vals, mu)
            : -1;
}
static inline int rc_kit_boundary_eval_(const rc_problem *pb, double t,
                                        const double *z, double *out) {
  const rc_kit_blocks *kb = rc_kit_blocks_of_(pb);
  return kb ? rc_kit_run_(&kb->boundary, pb, t, z, RC_KIT_PASS_VALUES, out,
                          NULL)
            : -1;
}
static inline int rc_kit_boundary_jac_(const rc_problem *pb, double t,
                                       const double *z, double *vals) {
  const rc_kit_blocks *kb = rc_kit_blocks_of_(pb);
  return kb ? rc_kit_run_(&kb->boundary, pb, t, z, RC_KIT_PASS_JACOBIAN, vals,
                          NULL)
            : -1;
}
static inline int rc_kit_boundary_hes_(const rc_problem *pb, double t,
                                       const double *z, const double *mu,
                                       double *vals) {
  const rc_kit_blocks *kb = rc_kit_blocks_of_(pb);
  return kb ? rc_kit_run_(&kb->boundary, pb, t, z, RC_KIT_PASS_HESSIAN, vals,
                          mu)
            : -1;
}
static inline int rc_kit_inv_eval_(const rc_problem *pb, double t,
                                   const double *w, double *out) {
  const rc_kit_blocks *kb = rc_kit_blocks_of_(pb);
  return kb ? rc_kit_run_(&kb->invariants, pb, t, w, RC_KIT_PASS_VALUES, out,
                          NULL)
            : -1;
}
static inline int rc_kit_inv_jac_(const rc_problem *pb, double t,
                                  const double *w, double *vals) {
  const rc_kit_blocks *kb = rc_kit_blocks_of_(pb);
  return kb ? rc_kit_run_(&kb->invariants, pb, t, w, RC_KIT_PASS_JACOBIAN, vals,
                          NULL)
            : -1;
}
static inline int rc_kit_inv_hes_(const rc_problem *pb, double t,
                                  const double *w, const double *mu,
                                  double *vals) {
  const rc_kit_blocks *kb = rc_kit_blocks_of_(pb);
  return kb ? rc_kit_run_(&kb->invariants, pb, t, w, RC_KIT_PASS_HESSIAN, vals,
                          mu)
            : -1;
}

/* ---- create and release ----------------------------------------------- */

static inline void rc_kit_block_free_(rc_kit_block *b) {
  free(b->jac_row), free(b->jac_col), free(b->hes_row), free(b->hes_col);
  free(b->jslot), free(b->hslot);
  b->jac_row = b->jac_col = b->hes_row = b->hes_col = NULL;
  b->jslot = b->hslot = NULL;
  b->njac = b->nhes = 0;
}

/* Frees what rc_kit_attach allocated (NULL-safe; the blocks become empty). */
static inline void rc_kit_release(rc_kit_blocks *kit) {
  if (!kit)
    return;
  rc_kit_block_free_(&kit->point);
  rc_kit_block_free_(&kit->boundary);
  rc_kit_block_free_(&kit->invariants);
  kit->magic = 0;
}

/* The recording pass of one block and its slot maps and patterns. */
static inline rc_err rc_kit_record_(const rc_problem *pb, rc_kit_block *b,
                                    rc_kit_fn fn, int n_out, int n_in,
                                    const double *rec, const char *which,
                                    rc_error *err) {
  const char *mo = pb->model ? pb->model : "?";
  const char *fo = pb->formulation ? pb->formulation : "?";
  b->fn = fn, b->n_in = n_in, b->n_out = n_out;
  if (n_out == 0) {
    if (fn)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: kit: the %s block has no outputs, but a "
                          "function was given for it",
                          mo, fo, which);
    return RC_OK;
  }
  if (!fn)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: kit: the %s block has %d outputs: expected a "
                        "function for it",
                        mo, fo, which, n_out);
  const size_t nj = (size_t)n_out * (size_t)n_in;
  const size_t nh = (size_t)n_in * (size_t)(n_in + 1) / 2;
  b->jslot = (int *)calloc(nj + 1, sizeof(int));
  b->hslot = (int *)calloc(nh + 1, sizeof(int));
  unsigned char *rows = (unsigned char *)calloc((size_t)n_out, 1);
  double *wdef =
      rec ? NULL : (double *)malloc(sizeof(double) * (size_t)(n_in + 1));
  if (!b->jslot || !b->hslot || !rows || (!rec && !wdef)) {
    free(rows), free(wdef);
    return rc_error_set(err, RC_ERR_NOMEM, "%s/%s: kit: out of memory", mo, fo);
  }
  if (!rec) {
    for (int i = 0; i < n_in; ++i)
      wdef[i] = 0.3 + 0.1 * i;
    rec = wdef;
  }
  rc_kit k;
  k.pass = RC_KIT_PASS_RECORD, k.row = -1, k.n_in = n_in, k.n_out = n_out;
  k.out = NULL, k.mu = NULL, k.mu_row = 0.0;
  k.jslot = NULL, k.hslot = NULL, k.jrow = NULL;
  k.rec_j = b->jslot, k.rec_h = b->hslot, k.rec_rows = rows;
  k.status = 0, k.bad_row = k.bad_a = k.bad_b = -1;
  const int st = fn(pb, pb->t0, rec, &k);
  free(wdef);
  int missing = -1;
  for (int i = n_out - 1; i >= 0; --i)
    if (!rows[i])
      missing = i;
  free(rows);
  if (st != 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: kit: the %s block's function returned %d in "
                        "the recording pass: expected 0 at the record point "
                        "(give rc_kit_spec a point inside its domain)",
                        mo, fo, which, st);
  if (k.status != 0) {
    if (k.bad_a < 0 && k.bad_b < 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: kit: %s block: rc_kit_row(%d): expected a "
                          "row in 0..%d",
                          mo, fo, which, k.bad_row, n_out - 1);
    if (k.bad_row < 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: kit: %s block: a derivative (column %d) "
                          "before any rc_kit_row: expected its row first",
                          mo, fo, which, k.bad_a);
    if (k.bad_b < 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s/%s: kit: %s block: rc_kit_d on row %d, column "
                          "%d: expected a column in 0..%d",
                          mo, fo, which, k.bad_row, k.bad_a, n_in - 1);
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: kit: %s block: rc_kit_d2 on row %d, columns "
                        "(%d, %d): expected columns in 0..%d",
                        mo, fo, which, k.bad_row, k.bad_a, k.bad_b, n_in - 1);
  }
  if (missing >= 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: kit: %s block: row %d of 0..%d is never "
                        "written: expected rc_kit_row for every row",
                        mo, fo, which, missing, n_out - 1);
  int njac = 0, nhes = 0;
  for (size_t e = 0; e < nj; ++e)
    njac += b->jslot[e];
  for (size_t e = 0; e < nh; ++e)
    nhes += b->hslot[e];
  b->jac_row = (int *)malloc(sizeof(int) * (size_t)(njac + 1));
  b->jac_col = (int *)malloc(sizeof(int) * (size_t)(njac + 1));
  b->hes_row = (int *)malloc(sizeof(int) * (size_t)(nhes + 1));
  b->hes_col = (int *)malloc(sizeof(int) * (size_t)(nhes + 1));
  if (!b->jac_row || !b->jac_col || !b->hes_row || !b->hes_col)
    return rc_error_set(err, RC_ERR_NOMEM, "%s/%s: kit: out of memory", mo, fo);
  for (int i = 0; i < n_out; ++i)
    for (int a = 0; a < n_in; ++a) {
      int *s = &b->jslot[(size_t)i * (size_t)n_in + (size_t)a];
      if (*s) {
        b->jac_row[b->njac] = i, b->jac_col[b->njac] = a;
        *s = b->njac++;
      } else {
        *s = -1;
      }
    }
  for (int a = 0; a < n_in; ++a)
    for (int c = 0; c <= a; ++c) {
      int *s = &b->hslot[(size_t)a * (size_t)(a + 1) / 2 + (size_t)c];
      if (*s) {
        b->hes_row[b->nhes] = a, b->hes_col[b->nhes] = c;
        *s = b->nhes++;
      } else {
        *s = -1;
      }
    }
  return RC_OK;
}

static inline void rc_kit_fill_block_(rc_block *blk, const rc_kit_block *b,
                                      rc_eval_fn ev, rc_jac_fn jac,
                                      rc_hes_fn hes) {
  blk->n_out = b->n_out;
  blk->jac.nnz = b->njac, blk->jac.row = b->jac_row, blk->jac.col = b->jac_col;
  blk->hes.nnz = b->nhes, blk->hes.row = b->hes_row, blk->hes.col = b->hes_col;
  blk->eval = b->n_out ? ev : NULL;
  blk->jacobian = b->n_out ? jac : NULL;
  blk->hessian = b->n_out ? hes : NULL;
}

/* Records spec's functions (the sizes come from pb's dims: point
 * rc_problem_nF outputs, boundary rc_problem_nB, invariants ninv; inputs nw,
 * nz, nw) and sets pb->point, pb->boundary and pb->invariants: the recorded
 * patterns (owned by kit) and the kit's callbacks.  kit must be the first
 * member of the struct pb->user points at.  On failure returns an rc_err
 * naming the problem, block and entry, with kit released. */
static inline rc_err rc_kit_attach(rc_problem *pb, rc_kit_blocks *kit,
                                   const rc_kit_spec *spec, rc_error *err) {
  if (!pb || !kit || !spec)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_kit_attach: expected non-NULL pb, kit and spec");
  const char *mo = pb->model ? pb->model : "?";
  const char *fo = pb->formulation ? pb->formulation : "?";
  if (pb->user != (void *)kit)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s/%s: kit: pb->user must point at the struct whose "
                        "first member is the rc_kit_blocks",
                        mo, fo);
  rc_kit_blocks zero;
  zero.magic = 0;
  zero.point.fn = NULL, zero.point.n_in = zero.point.n_out = 0;
  zero.point.njac = zero.point.nhes = 0;
  zero.point.jac_row = zero.point.jac_col = NULL;
  zero.point.hes_row = zero.point.hes_col = NULL;
  zero.point.jslot = zero.point.hslot = NULL;
  zero.boundary = zero.invariants = zero.point;
  *kit = zero;
  const int nw = rc_problem_nw(pb), nz = rc_problem_nz(pb);
  rc_err rc = rc_kit_record_(pb, &kit->point, spec->point, rc_problem_nF(pb),
                             nw, spec->w_record, "point", err);
  if (rc == RC_OK)
    rc = rc_kit_record_(pb, &kit->boundary, spec->boundary, rc_problem_nB(pb),
                        nz, spec->z_record, "boundary", err);
  if (rc == RC_OK)
    rc = rc_kit_record_(pb, &kit->invariants, spec->invariants, pb->ninv, nw,
                        spec->w_record, "invariants", err);
  if (rc != RC_OK) {
    rc_kit_release(kit);
    return rc;
  }
  kit->magic = RC_KIT_MAGIC;
  rc_kit_fill_block_(&pb->point, &kit->point, rc_kit_point_eval_,
                     rc_kit_point_jac_, rc_kit_point_hes_);
  rc_kit_fill_block_(&pb->boundary, &kit->boundary, rc_kit_boundary_eval_,
                     rc_kit_boundary_jac_, rc_kit_boundary_hes_);
  rc_kit_fill_block_(&pb->invariants, &kit->invariants, rc_kit_inv_eval_,
                     rc_kit_inv_jac_, rc_kit_inv_hes_);
  return RC_OK;
}

#ifdef __cplusplus
}
#endif
#endif
