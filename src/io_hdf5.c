/*
 * io_hdf5.c - radcol result files in HDF5 (the layout is docs/hdf5-layout.md;
 * this is the only file of radcol that includes hdf5.h).
 *
 * What it holds
 *   rc_write_result : one result record -> one HDF5 file, written atomically.
 *   rc_read_mesh    : /mesh/fractions + /mesh/stages -> rc_mesh (validated).
 *   rc_read_solution: dims, mesh, times, w and duals -> rc_solution.
 *   rc_print_info   : a text or JSON summary for `radcol info`.
 *
 * Invariants
 *   - libhdf5 builds the file in memory (core driver, no backing store) and
 *     never opens a path for writing; the image is written through a
 *     random, exclusively created temporary file in the target's directory
 *     (outfile.c) and only a complete, fsync'd file is renamed over the
 *     target (rename(2) is atomic within one file system).  On any failure
 *     the temporary file is removed and an existing target is untouched;
 *     an existing target that is not a regular file is refused.
 *   - HDF5's automatic error printing is switched off at every entry point;
 *     every failure becomes an rc_error naming the path and the object.
 *   - Readers trust nothing in the file: every dataset's type, rank and size
 *     is checked against what the root and /problem attributes imply before
 *     anything is allocated or read, so truncated, random or foreign files
 *     give an error, not a crash.  (Damaged HDF5 metadata inside an otherwise
 *     valid file can still crash libhdf5 1.10 itself; string datasets are
 *     fixed-length to keep that surface small.)  Missing or unreadable files
 *     are RC_ERR_IO; readable HDF5 with the wrong content (other format,
 *     missing or mis-sized dataset) is RC_ERR_INPUT.
 *
 * Node layout (radcol/result.h): node 0 is t0; node 1 + off_k + j - 1 is stage
 * j (1..s_k) of element k, off_k = s_0 + ... + s_{k-1}.  Breakpoints are
 * tau_k = t0 + (tf - t0) frac_k.  Node-major arrays (w, lam_*, z_*) are split
 * into one 1-D dataset per column, named after the variable.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "numfmt.h"
#include "outfile.h"
#include "radcol/io.h"
#include "radcol/params.h"
#include "radcol/version.h"

/* Largest 1-D dataset a reader accepts (guards allocations against corrupt
 * size fields). */
#define RC_IO_MAX_LEN (1L << 27)
#define RC_IO_NAME_MAX 256

static void silence_hdf5(void) {
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* ====================================================================== */
/* Writing                                                                */
/* ====================================================================== */

/* Write context: the first failure is recorded and every later helper call
 * becomes a no-op, so the writer reads as a straight sequence. */
typedef struct wctx {
  const char *path; /* target (for messages) */
  rc_error *err;
  rc_err rc;
  double *buf;
  size_t nbuf;
} wctx;

static void wfail(wctx *c, const char *gpath, const char *name) {
  if (c->rc != RC_OK)
    return;
  c->rc = rc_error_set(c->err, RC_ERR_IO,
                       "%s: cannot write %s/%s (in the file image, before "
                       "anything is written to disk)",
                       c->path, gpath, name);
}

static void attr_write(wctx *c, hid_t loc, const char *gpath, const char *name,
                       hid_t ftype, hid_t mtype, const void *val) {
  if (c->rc != RC_OK)
    return;
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a =
      sp < 0 ? -1 : H5Acreate2(loc, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT);
  if (a < 0 || H5Awrite(a, mtype, val) < 0)
    wfail(c, gpath, name);
  if (a >= 0)
    H5Aclose(a);
  if (sp >= 0)
    H5Sclose(sp);
}

/* String attributes are fixed-length UTF-8 (h5py returns them as bytes).
 * Variable-length strings live in HDF5's global heap, whose reader in
 * libhdf5 1.10 crashes or hangs on damaged files (fuzz/known/), so radcol
 * neither writes nor reads them. */
static void attr_str(wctx *c, hid_t loc, const char *gpath, const char *name,
                     const char *val) {
  const char *v = val ? val : "";
  const size_t n = strlen(v);
  hid_t t = c->rc == RC_OK ? H5Tcopy(H5T_C_S1) : -1;
  if (c->rc == RC_OK && (t < 0 || H5Tset_size(t, n > 0 ? n : 1) < 0 ||
                         H5Tset_strpad(t, H5T_STR_NULLPAD) < 0 ||
                         H5Tset_cset(t, H5T_CSET_UTF8) < 0))
    wfail(c, gpath, name);
  attr_write(c, loc, gpath, name, t, t, v);
  if (t >= 0)
    H5Tclose(t);
}

static void attr_int(wctx *c, hid_t loc, const char *gpath, const char *name,
                     int val) {
  attr_write(c, loc, gpath, name, H5T_STD_I32LE, H5T_NATIVE_INT, &val);
}

static void attr_real(wctx *c, hid_t loc, const char *gpath, const char *name,
                      double val) {
  attr_write(c, loc, gpath, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &val);
}

/* A dataset of rank 1 (cols == 0) or 2 (rows x cols), or a scalar (rows < 0).
 */
static void ds_write(wctx *c, hid_t loc, const char *gpath, const char *name,
                     hid_t ftype, hid_t mtype, long rows, long cols,
                     const void *data) {
  long count = rows < 0 ? 1 : (cols > 0 ? rows * cols : rows);
  /* A missing optional array (NULL data, non-empty) writes nothing. */
  if (c->rc != RC_OK || (!data && count > 0))
    return;
  hsize_t dims[2] = {(hsize_t)(rows < 0 ? 0 : rows), (hsize_t)cols};
  hid_t sp = rows < 0 ? H5Screate(H5S_SCALAR)
                      : H5Screate_simple(cols > 0 ? 2 : 1, dims, NULL);
  hid_t d = sp < 0 ? -1
                   : H5Dcreate2(loc, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT,
                                H5P_DEFAULT);
  if (d < 0 || (count > 0 &&
                H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0))
    wfail(c, gpath, name);
  if (d >= 0)
    H5Dclose(d);
  if (sp >= 0)
    H5Sclose(sp);
}

static void ds_real(wctx *c, hid_t loc, const char *gpath, const char *name,
                    long n, const double *v) {
  ds_write(c, loc, gpath, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, n, 0, v);
}

static void ds_int(wctx *c, hid_t loc, const char *gpath, const char *name,
                   long n, const int *v) {
  ds_write(c, loc, gpath, name, H5T_STD_I32LE, H5T_NATIVE_INT, n, 0, v);
}

/* String datasets are fixed-length (the longest string + 1, NUL-terminated,
 * UTF-8): their bytes sit inline in the dataset, so a reader never follows
 * global-heap references that a corrupt file could make dangling. */
static void ds_strs(wctx *c, hid_t loc, const char *gpath, const char *name,
                    long n, const char *const *v) {
  if (c->rc != RC_OK)
    return;
  size_t w = 1;
  for (long i = 0; i < n; ++i)
    if (v && v[i] && strlen(v[i]) + 1 > w)
      w = strlen(v[i]) + 1;
  char *packed = calloc((size_t)(n > 0 ? n : 1), w);
  hid_t t = H5Tcopy(H5T_C_S1);
  if (!packed || t < 0 || H5Tset_size(t, w) < 0 ||
      H5Tset_strpad(t, H5T_STR_NULLTERM) < 0 ||
      H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
    wfail(c, gpath, name);
  } else {
    for (long i = 0; i < n; ++i)
      if (v && v[i])
        memcpy(packed + (size_t)i * w, v[i], strlen(v[i]));
    ds_write(c, loc, gpath, name, t, t, n, 0, packed);
  }
  if (t >= 0)
    H5Tclose(t);
  free(packed);
}

/* Column j of an n x stride row-major array, through the work buffer. */
static void ds_column(wctx *c, hid_t loc, const char *gpath, const char *name,
                      long n, const double *a, int stride, int j) {
  if (c->rc != RC_OK)
    return;
  for (long i = 0; i < n; ++i)
    c->buf[i] = a[i * stride + j];
  ds_real(c, loc, gpath, name, n, c->buf);
}

static hid_t grp(wctx *c, hid_t loc, const char *gpath, const char *name) {
  if (c->rc != RC_OK)
    return -1;
  hid_t g = H5Gcreate2(loc, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (g < 0)
    wfail(c, gpath, name);
  return g;
}

static void gclose(hid_t g) {
  if (g >= 0)
    H5Gclose(g);
}

/* A name usable as an HDF5 link and not one of the reserved names of a
 * group (e.g. "time" in /solution). */
static rc_err check_name(const char *path, const char *what, int i,
                         const char *name, const char *const *reserved,
                         rc_error *err) {
  if (!name || !name[0] || strchr(name, '/') || strcmp(name, ".") == 0 ||
      strlen(name) >= RC_IO_NAME_MAX)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: %s %d is named \"%s\": expected a non-empty name "
                        "without '/' and shorter than %d characters",
                        path, what, i, name ? name : "(null)", RC_IO_NAME_MAX);
  for (int r = 0; reserved && reserved[r]; ++r)
    if (strcmp(name, reserved[r]) == 0)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s: %s %d is named \"%s\", which the result layout "
                          "reserves: expected another name",
                          path, what, i, name);
  return RC_OK;
}

/* All variable and output names distinct and usable as dataset names. */
static rc_err check_record(const char *path, const rc_result_record *rec,
                           rc_error *err) {
  const rc_problem *pb = rec->pb;
  const rc_solution *sol = rec->sol;
  const rc_diagnostics *d = rec->diag;
  static const char *const reserved[] = {"time", "dense", "parameters", NULL};
  if (sol->nx != pb->nx || sol->ny != pb->ny || sol->nu != pb->nu ||
      sol->np != pb->np || sol->nc != pb->nc || sol->nb != pb->nb)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: solution dims (nx %d, ny %d, nu %d, np %d, nc %d, "
                        "nb %d) differ from the problem's (%d, %d, %d, %d, %d, "
                        "%d)",
                        path, sol->nx, sol->ny, sol->nu, sol->np, sol->nc,
                        sol->nb, pb->nx, pb->ny, pb->nu, pb->np, pb->nc,
                        pb->nb);
  if (sol->nnodes != rc_mesh_nodes(&sol->mesh) || !sol->t || !sol->w)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: solution has %d nodes but its mesh has %d (or no "
                        "arrays): expected an allocated, consistent solution",
                        path, sol->nnodes, rc_mesh_nodes(&sol->mesh));
  int nw = rc_problem_nw(pb);
  if (!pb->var_names)
    return rc_error_set(err, RC_ERR_INPUT, "%s: problem %s/%s has no names",
                        path, pb->model, pb->formulation);
  int nout = pb->nout > 0 && pb->out_names ? pb->nout : 0;
  for (int i = 0; i < nw + nout; ++i) {
    const char *a = i < nw ? pb->var_names[i] : pb->out_names[i - nw];
    rc_err rc =
        check_name(path, i < nw ? "variable" : "output", i, a, reserved, err);
    if (rc != RC_OK)
      return rc;
    for (int j = 0; j < i; ++j) {
      const char *b = j < nw ? pb->var_names[j] : pb->out_names[j - nw];
      if (strcmp(a, b) == 0)
        return rc_error_set(err, RC_ERR_INPUT,
                            "%s: name \"%s\" is used twice (entries %d and "
                            "%d): expected distinct variable and output names",
                            path, a, j, i);
    }
  }
  for (int i = 0; pb->ninv > 0 && pb->inv_names && i < pb->ninv; ++i) {
    rc_err rc = check_name(path, "invariant", i, pb->inv_names[i], NULL, err);
    if (rc != RC_OK)
      return rc;
  }
  if (d) {
    int nvar = pb->nx + pb->ny + pb->nu + nout;
    if ((d->has_reference || d->err_nodes) && d->nvar != nvar)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s: diagnostics have nvar %d: expected nx + ny + nu "
                          "+ nout = %d",
                          path, d->nvar, nvar);
    if ((d->out_nodes || d->ref_nodes) && d->nnodes != sol->nnodes)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s: diagnostics have %d nodes: expected the "
                          "solution's %d",
                          path, d->nnodes, sol->nnodes);
    if (d->elem_defect && d->nelem != sol->mesh.n)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s: diagnostics have %d elements: expected the "
                          "mesh's %d",
                          path, d->nelem, sol->mesh.n);
    if (d->ndense < 0 || (d->ndense > 0 && !d->t_dense))
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s: diagnostics have ndense %d without t_dense",
                          path, d->ndense);
    if ((d->inv_nodes || d->inv_dense || d->inv_dense_t) &&
        (d->ninv != pb->ninv || (pb->ninv > 0 && !pb->inv_names)))
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s: diagnostics have %d invariants: expected the "
                          "problem's %d (with names)",
                          path, d->ninv, pb->ninv);
  }
  return RC_OK;
}

static const char *kind_name(rc_var_kind k) {
  switch (k) {
  case RC_VAR_DIFFERENTIAL:
    return "differential";
  case RC_VAR_ALGEBRAIC:
    return "algebraic";
  case RC_VAR_CONTROL:
    return "control";
  case RC_VAR_PARAMETER:
    return "parameter";
  }
  return "unknown";
}

static const char *const problem_attr_names[] = {
    "nx", "ny", "nu", "np", "nc", "nb", "index", "free_tf", "t0", "tf", NULL};

static void write_problem(wctx *c, hid_t file, const rc_result_record *rec) {
  const rc_problem *pb = rec->pb;
  const char *gp = "/problem";
  hid_t g = grp(c, file, "", "problem");
  attr_int(c, g, gp, "nx", pb->nx);
  attr_int(c, g, gp, "ny", pb->ny);
  attr_int(c, g, gp, "nu", pb->nu);
  attr_int(c, g, gp, "np", pb->np);
  attr_int(c, g, gp, "nc", pb->nc);
  attr_int(c, g, gp, "nb", pb->nb);
  attr_int(c, g, gp, "index", pb->index);
  attr_int(c, g, gp, "free_tf", pb->free_tf);
  attr_real(c, g, gp, "t0", pb->t0);
  attr_real(c, g, gp, "tf", pb->tf);
  /* Model parameters; a name that clashes with the attributes above (e.g. a
   * parameter "tf") is stored as "param_<name>". */
  const rc_model *m = rec->model;
  const rc_param_values *pv = rec->params;
  if (m && pv && m->params && pv->n == m->nparams) {
    for (int i = 0; i < m->nparams && c->rc == RC_OK; ++i) {
      const rc_param_def *def = &m->params[i];
      if (!def->name || !def->name[0])
        continue;
      char name[RC_IO_NAME_MAX + 8];
      int clash = 0;
      for (int r = 0; problem_attr_names[r]; ++r)
        clash |= strcmp(def->name, problem_attr_names[r]) == 0;
      snprintf(name, sizeof name, "%s%s", clash ? "param_" : "", def->name);
      if (def->type == RC_PARAM_TEXT)
        attr_str(c, g, gp, name, pv->text ? pv->text[i] : def->default_text);
      else
        attr_real(c, g, gp, name, pv->real ? pv->real[i] : def->default_real);
    }
  }
  int nw = rc_problem_nw(pb);
  const char **kinds = malloc(sizeof *kinds * (size_t)(nw > 0 ? nw : 1));
  if (!kinds && c->rc == RC_OK)
    c->rc = rc_error_set(c->err, RC_ERR_NOMEM, "%s: out of memory", c->path);
  for (int i = 0; kinds && i < nw; ++i)
    kinds[i] = kind_name(rc_problem_var_kind(pb, i));
  ds_strs(c, g, gp, "variable_names", nw, (const char *const *)pb->var_names);
  ds_strs(c, g, gp, "variable_kinds", nw, kinds);
  free(kinds);
  int nout = pb->nout > 0 && pb->out_names ? pb->nout : 0;
  int ninv = pb->ninv > 0 && pb->inv_names ? pb->ninv : 0;
  ds_strs(c, g, gp, "output_names", nout, pb->out_names);
  ds_strs(c, g, gp, "invariant_names", ninv, pb->inv_names);
  gclose(g);
}

static void write_mesh(wctx *c, hid_t file, const rc_solution *sol) {
  const rc_mesh *m = &sol->mesh;
  const char *gp = "/mesh";
  int nn = sol->nnodes;
  hid_t g = grp(c, file, "", "mesh");
  /* tau_k = t0 + (tf - t0) frac_k, with the ends exactly t0 and tf. */
  for (int k = 0; k <= m->n; ++k)
    c->buf[k] = sol->t0 + (sol->tf - sol->t0) * m->frac[k];
  c->buf[0] = sol->t0;
  c->buf[m->n] = sol->tf;
  ds_real(c, g, gp, "breakpoints", m->n + 1, c->buf);
  ds_real(c, g, gp, "fractions", m->n + 1, m->frac);
  ds_int(c, g, gp, "stages", m->n, m->stages);
  ds_real(c, g, gp, "node_time", nn, sol->t);
  int *ie = malloc(sizeof *ie * (size_t)nn * 2);
  if (!ie) {
    if (c->rc == RC_OK)
      c->rc = rc_error_set(c->err, RC_ERR_NOMEM, "%s: out of memory", c->path);
  } else {
    int *is = ie + nn, i = 1;
    ie[0] = -1;
    is[0] = 0;
    for (int k = 0; k < m->n; ++k)
      for (int j = 1; j <= m->stages[k]; ++j, ++i) {
        ie[i] = k;
        is[i] = j;
      }
    ds_int(c, g, gp, "node_element", nn, ie);
    ds_int(c, g, gp, "node_stage", nn, is);
    free(ie);
  }
  attr_int(c, g, gp, "elements", m->n);
  attr_int(c, g, gp, "nodes", nn);
  gclose(g);
}

static void write_solution(wctx *c, hid_t file, const rc_result_record *rec) {
  const rc_problem *pb = rec->pb;
  const rc_solution *sol = rec->sol;
  const rc_diagnostics *d = rec->diag;
  int nw = rc_problem_nw(pb), nn = sol->nnodes;
  int nout = pb->nout > 0 && pb->out_names ? pb->nout : 0;
  const char *gp = "/solution";
  hid_t g = grp(c, file, "", "solution");
  attr_real(c, g, gp, "t0", sol->t0);
  attr_real(c, g, gp, "tf", sol->tf);
  ds_real(c, g, gp, "time", nn, sol->t);
  for (int j = 0; j < nw; ++j)
    ds_column(c, g, gp, pb->var_names[j], nn, sol->w, nw, j);
  if (d && d->out_nodes)
    for (int j = 0; j < nout; ++j)
      ds_column(c, g, gp, pb->out_names[j], nn, d->out_nodes, nout, j);
  hid_t gpar = grp(c, g, gp, "parameters");
  for (int j = pb->nx + pb->ny + pb->nu; j < nw; ++j)
    ds_write(c, gpar, "/solution/parameters", pb->var_names[j], H5T_IEEE_F64LE,
             H5T_NATIVE_DOUBLE, -1, 0, &sol->w[j]);
  gclose(gpar);
  if (d && d->ndense > 0 && d->t_dense) {
    const char *gd = "/solution/dense";
    hid_t gde = grp(c, g, gp, "dense");
    ds_real(c, gde, gd, "time", d->ndense, d->t_dense);
    for (int j = 0; d->w_dense && j < nw; ++j)
      ds_column(c, gde, gd, pb->var_names[j], d->ndense, d->w_dense, nw, j);
    for (int j = 0; d->out_dense && j < nout; ++j)
      ds_column(c, gde, gd, pb->out_names[j], d->ndense, d->out_dense, nout, j);
    gclose(gde);
  }
  gclose(g);
}

static const char multiplier_scaling[] =
    "mesh-independent densities (radcol/result.h): costate_<x> is the NLP "
    "dual of the h-scaled collocation row at stage j of element k divided by "
    "b_j (the costate, Ipopt sign convention L = f + lambda^T g); alg_<y> and "
    "path_<k> are the duals of algebraic and path constraints divided by "
    "b_j h_k (b the Radau weights, h_k the element length); row 0 (t0) holds "
    "the raw duals of constraints imposed at t0, or zeros. boundary, "
    "bound_lo_<w> and bound_hi_<w> are raw NLP duals.";

static void write_multipliers(wctx *c, hid_t file,
                              const rc_result_record *rec) {
  const rc_problem *pb = rec->pb;
  const rc_solution *s = rec->sol;
  int nw = rc_problem_nw(pb), nn = s->nnodes;
  const char *gp = "/multipliers";
  char name[RC_IO_NAME_MAX + 16];
  hid_t g = grp(c, file, "", "multipliers");
  attr_str(c, g, gp, "scaling", multiplier_scaling);
  for (int j = 0; s->lam_f && j < pb->nx; ++j) {
    snprintf(name, sizeof name, "costate_%s", pb->var_names[j]);
    ds_column(c, g, gp, name, nn, s->lam_f, pb->nx, j);
  }
  for (int j = 0; s->lam_g && j < pb->ny; ++j) {
    snprintf(name, sizeof name, "alg_%s", pb->var_names[pb->nx + j]);
    ds_column(c, g, gp, name, nn, s->lam_g, pb->ny, j);
  }
  for (int j = 0; s->lam_c && j < pb->nc; ++j) {
    snprintf(name, sizeof name, "path_%d", j);
    ds_column(c, g, gp, name, nn, s->lam_c, pb->nc, j);
  }
  ds_real(c, g, gp, "boundary", pb->nb, s->lam_b);
  for (int j = 0; s->z_lo && j < nw; ++j) {
    snprintf(name, sizeof name, "bound_lo_%s", pb->var_names[j]);
    ds_column(c, g, gp, name, nn, s->z_lo, nw, j);
  }
  for (int j = 0; s->z_hi && j < nw; ++j) {
    snprintf(name, sizeof name, "bound_hi_%s", pb->var_names[j]);
    ds_column(c, g, gp, name, nn, s->z_hi, nw, j);
  }
  gclose(g);
}

/* /diagnostics/replay (radcol/replay.h, docs/hdf5-layout.md): attributes
 * describing the replay, the figures per variable and output, and the plan
 * at the replay's samples (= /solution/time). */
static void write_replay(wctx *c, hid_t diag, const rc_result_record *rec) {
  const rc_problem *pb = rec->pb;
  const rc_replay *r = rec->replay;
  const char *gp = "/diagnostics/replay";
  const int nxyu = pb->nx + pb->ny + pb->nu;
  const int nout = pb->nout > 0 && pb->out_names ? pb->nout : 0;
  if (r->nvar != nxyu + nout || r->nt != rec->sol->nnodes) {
    if (c->rc == RC_OK)
      c->rc =
          rc_error_set(c->err, RC_ERR_INPUT,
                       "%s: replay has %d variables and %d samples: "
                       "expected %d and the solution's %d nodes",
                       c->path, r->nvar, r->nt, nxyu + nout, rec->sol->nnodes);
    return;
  }
  hid_t g = grp(c, diag, "/diagnostics", "replay");
  attr_str(c, g, gp, "plan", r->source);
  attr_str(c, g, gp, "controls", r->hold > 0 ? "hold" : "interpolated");
  attr_real(c, g, gp, "hold", r->hold);
  attr_str(c, g, gp, "after", r->after_rest ? "rest" : "plan");
  attr_real(c, g, gp, "settle", r->settle);
  attr_real(c, g, gp, "t0", r->t0);
  attr_real(c, g, gp, "tf", r->tf);
  attr_real(c, g, gp, "tend", r->tend);
  attr_real(c, g, gp, "tol", r->tol);
  attr_int(c, g, gp, "itf", r->itf);
  attr_int(c, g, gp, "steps", r->steps > INT_MAX ? INT_MAX : (int)r->steps);
  attr_int(c, g, gp, "rhs_evals",
           r->rhs_evals > INT_MAX ? INT_MAX : (int)r->rhs_evals);
  attr_int(c, g, gp, "newton_max", r->newton_max);
  const char **vn = malloc(sizeof *vn * (size_t)(r->nvar > 0 ? r->nvar : 1));
  if (!vn && c->rc == RC_OK)
    c->rc = rc_error_set(c->err, RC_ERR_NOMEM, "%s: out of memory", c->path);
  for (int i = 0; vn && i < r->nvar; ++i)
    vn[i] = i < nxyu ? pb->var_names[i] : pb->out_names[i - nxyu];
  ds_strs(c, g, gp, "variables", r->nvar, vn);
  free(vn);
  ds_real(c, g, gp, "max_deviation", r->nvar, r->max_dev);
  ds_real(c, g, gp, "end_error", r->nvar, r->end_err);
  ds_real(c, g, gp, "settle_drift", r->nvar, r->settle_dev);
  ds_strs(c, g, gp, "control_names", pb->nu,
          (const char *const *)pb->var_names + pb->nx + pb->ny);
  ds_real(c, g, gp, "controls_after_tf", pb->nu, r->u_after);
  ds_real(c, g, gp, "bound_violation", nxyu, r->bound_viol);
  ds_real(c, g, gp, "path_violation", r->nc, r->path_viol);
  ds_write(c, g, gp, "plan", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, r->nt, r->nvar,
           r->plan);
  gclose(g);
}

/* /diagnostics/dense_violation (radcol/dense_check.h). */
static void write_dense_violation(wctx *c, hid_t g,
                                  const rc_dense_violation *dv) {
  const char *gp = "/diagnostics/dense_violation";
  const long n = dv->n;
  const char **names = malloc(sizeof *names * (size_t)(n > 0 ? n : 1));
  const char **kinds = malloc(sizeof *kinds * (size_t)(n > 0 ? n : 1));
  if ((!names || !kinds) && c->rc == RC_OK)
    c->rc = rc_error_set(c->err, RC_ERR_NOMEM, "%s: out of memory", c->path);
  for (long e = 0; names && kinds && e < n; ++e) {
    names[e] = dv->name[e];
    kinds[e] = rc_dense_kind_name(dv->kind[e]);
  }
  hid_t h = grp(c, g, "/diagnostics", "dense_violation");
  attr_int(c, h, gp, "points", dv->ndense);
  attr_real(c, h, gp, "worst_relative", dv->worst_relative);
  if (names && kinds) {
    ds_strs(c, h, gp, "names", n, names);
    ds_strs(c, h, gp, "kind", n, kinds);
  }
  ds_real(c, h, gp, "max", n, dv->max);
  ds_real(c, h, gp, "time", n, dv->time);
  ds_real(c, h, gp, "scale", n, dv->scale);
  ds_real(c, h, gp, "relative", n, dv->relative);
  ds_int(c, h, gp, "element", n, dv->element);
  ds_real(c, h, gp, "element_relative", dv->nelem, dv->elem_relative);
  gclose(h);
  free(names);
  free(kinds);
}

/* /diagnostics/error_estimate (docs/hdf5-layout.md): per element and
 * variable (absolute), per variable, per element (relative), the scales, the
 * local estimate and what was estimated. */
static void write_error_estimate(wctx *c, hid_t g,
                                 const rc_result_record *rec) {
  const rc_error_estimate *e = rec->estimate;
  if (!e || e->kind == RC_ESTIMATE_NONE || !e->elem || e->nelem < 1)
    return;
  const char *ge = "/diagnostics/error_estimate";
  hid_t h = grp(c, g, "/diagnostics", "error_estimate");
  attr_str(c, h, ge, "kind", rc_estimate_kind_name(e->kind));
  attr_str(c, h, ge, "note", e->note);
  attr_real(c, h, ge, "max", e->max);
  attr_real(c, h, ge, "local_max", e->local_max);
  attr_str(c, h, ge, "enriched_status",
           e->kind == RC_ESTIMATE_GLOBAL
               ? rc_status_name((rc_status)e->enriched_status)
               : "none");
  attr_int(c, h, ge, "enriched_iterations", e->enriched_iterations);
  attr_int(c, h, ge, "enriched_nvars", e->enriched_nvars);
  ds_strs(c, h, ge, "variables", e->nvar, rec->pb->var_names);
  ds_real(c, h, ge, "scale", e->nvar, e->scale);
  ds_real(c, h, ge, "variable", e->nvar, e->var);
  ds_real(c, h, ge, "element", e->nelem, e->elem_max);
  ds_real(c, h, ge, "local", e->nelem, e->local);
  if (e->nvar > 0)
    ds_write(c, h, ge, "element_variable", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
             e->nelem, e->nvar, e->elem);
  gclose(h);
}

static void write_diagnostics(wctx *c, hid_t file,
                              const rc_result_record *rec) {
  const rc_problem *pb = rec->pb;
  const rc_solve_stats *st = rec->stats;
  const rc_diagnostics *d = rec->diag;
  const char *gp = "/diagnostics";
  hid_t g = grp(c, file, "", "diagnostics");
  if (st) {
    attr_str(c, g, gp, "status", rc_status_name(st->status));
    attr_int(c, g, gp, "solver_status", st->solver_status);
    attr_int(c, g, gp, "iterations", st->iterations);
    attr_real(c, g, gp, "objective", st->objective);
    attr_real(c, g, gp, "objective_scale", st->objective_scale);
    attr_real(c, g, gp, "constraint_violation", st->constraint_violation);
    attr_real(c, g, gp, "dual_infeasibility", st->dual_infeasibility);
    attr_real(c, g, gp, "wall_s", st->wall_s);
    attr_real(c, g, gp, "ipopt_s", st->ipopt_s);
    attr_real(c, g, gp, "eval_s", st->eval_s);
    attr_int(c, g, gp, "nvars", st->nvars);
    attr_int(c, g, gp, "ncons", st->ncons);
    attr_int(c, g, gp, "nnz_jac", st->nnz_jac);
    attr_int(c, g, gp, "nnz_hes", st->nnz_hes);
    attr_str(c, g, gp, "message", st->message);
    attr_str(c, g, gp, "solver", st->solver[0] ? st->solver : "none");
  } else {
    attr_str(c, g, gp, "status", rc_status_name(RC_STATUS_NOT_RUN));
  }
  if (d) {
    int nxyu = pb->nx + pb->ny + pb->nu;
    int nout = pb->nout > 0 && pb->out_names ? pb->nout : 0;
    int nvar = nxyu + nout;
    const char **vn = malloc(sizeof *vn * (size_t)(nvar > 0 ? nvar : 1));
    if (!vn && c->rc == RC_OK)
      c->rc = rc_error_set(c->err, RC_ERR_NOMEM, "%s: out of memory", c->path);
    for (int i = 0; vn && i < nvar; ++i)
      vn[i] = i < nxyu ? pb->var_names[i] : pb->out_names[i - nxyu];
    if (d->has_reference && d->err_nodes) {
      const char *gr = "/diagnostics/reference_error";
      hid_t h = grp(c, g, gp, "reference_error");
      ds_strs(c, h, gr, "variables", nvar, vn);
      ds_real(c, h, gr, "nodes", nvar, d->err_nodes);
      ds_real(c, h, gr, "dense", nvar, d->err_dense);
      ds_real(c, h, gr, "ends", nvar, d->err_ends);
      gclose(h);
    }
    if (d->has_reference && (d->ref_nodes || d->ref_dense)) {
      const char *gr = "/diagnostics/reference";
      hid_t h = grp(c, g, gp, "reference");
      ds_strs(c, h, gr, "variables", nvar, vn);
      if (d->ref_nodes)
        ds_write(c, h, gr, "ref_nodes", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                 d->nnodes, nvar, d->ref_nodes);
      if (d->ref_dense && d->ndense > 0)
        ds_write(c, h, gr, "ref_dense", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                 d->ndense, nvar, d->ref_dense);
      gclose(h);
    }
    free(vn);
    if (d->ninv > 0 && (d->inv_nodes || d->inv_dense || d->inv_dense_t)) {
      const char *gi = "/diagnostics/invariants";
      hid_t h = grp(c, g, gp, "invariants");
      ds_strs(c, h, gi, "names", d->ninv, pb->inv_names);
      if (d->inv_nodes)
        ds_real(c, h, gi, "nodes", d->ninv, d->inv_nodes);
      if (d->inv_dense)
        ds_real(c, h, gi, "dense", d->ninv, d->inv_dense);
      if (d->inv_dense_t && d->ndense > 0)
        ds_write(c, h, gi, "residual", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                 d->ndense, d->ninv, d->inv_dense_t);
      gclose(h);
    }
    if (d->elem_defect)
      ds_real(c, g, gp, "element_defect", d->nelem, d->elem_defect);
  }
  if (rec->replay)
    write_replay(c, g, rec);
  if (rec->dense)
    write_dense_violation(c, g, rec->dense);
  write_error_estimate(c, g, rec);
  gclose(g);
}

static void write_refinement(wctx *c, hid_t file, int n,
                             const rc_refine_row *r) {
  const char *gp = "/refinement";
  if (!r)
    n = 0;
  hid_t g = grp(c, file, "", "refinement");
  attr_int(c, g, gp, "rows", n);
  int *iv = malloc(sizeof *iv * (size_t)(n > 0 ? n : 1));
  double *dv = malloc(sizeof *dv * (size_t)(n > 0 ? n : 1));
  const char **sv = malloc(sizeof *sv * (size_t)(n > 0 ? n : 1));
  if ((!iv || !dv || !sv) && c->rc == RC_OK)
    c->rc = rc_error_set(c->err, RC_ERR_NOMEM, "%s: out of memory", c->path);
  if (c->rc == RC_OK) {
#define RC_COL_INT(field)                                                      \
  for (int i = 0; i < n; ++i)                                                  \
    iv[i] = r[i].field;                                                        \
  ds_int(c, g, gp, #field, n, iv);
#define RC_COL_REAL(field)                                                     \
  for (int i = 0; i < n; ++i)                                                  \
    dv[i] = r[i].field;                                                        \
  ds_real(c, g, gp, #field, n, dv);
    RC_COL_INT(iteration)
    RC_COL_INT(elements)
    RC_COL_INT(stages_min)
    RC_COL_INT(stages_max)
    RC_COL_INT(nvars)
    RC_COL_REAL(est_error)
    RC_COL_REAL(global_error)
    RC_COL_REAL(ref_error)
    RC_COL_INT(ipopt_iterations)
    RC_COL_REAL(wall_s)
    RC_COL_INT(status)
    RC_COL_REAL(dense_violation)
#undef RC_COL_INT
#undef RC_COL_REAL
    for (int i = 0; i < n; ++i)
      sv[i] = rc_status_name((rc_status)r[i].status);
    ds_strs(c, g, gp, "status_name", n, sv);
  }
  free(iv);
  free(dv);
  free(sv);
  gclose(g);
}

static void write_root(wctx *c, hid_t file, const rc_result_record *rec) {
  const char *gp = "";
  char utc[32] = "";
  time_t now = time(NULL);
  struct tm tmv;
  if (gmtime_r(&now, &tmv))
    strftime(utc, sizeof utc, "%Y-%m-%dT%H:%M:%SZ", &tmv);
  attr_str(c, file, gp, "format", RC_FORMAT_NAME);
  attr_int(c, file, gp, "format_version", RC_FORMAT_VERSION);
  attr_str(c, file, gp, "radcol_version", RADCOL_VERSION_STRING);
  attr_str(c, file, gp, "problem", rec->pb->model);
  attr_str(c, file, gp, "formulation", rec->pb->formulation);
  attr_str(c, file, gp, "kind", rec->kind ? rec->kind : "solve");
  attr_str(c, file, gp, "command_line", rec->command_line);
  attr_str(c, file, gp, "utc_time", utc);
  attr_str(c, file, gp, "status",
           rc_status_name(rec->stats ? rec->stats->status : RC_STATUS_NOT_RUN));
}

/* Raw Ipopt options of the run (docs/hdf5-layout.md). */
static void write_ipopt_options(wctx *c, hid_t file,
                                const rc_result_record *rec) {
  if (c->rc != RC_OK || rec->nipopt <= 0 || !rec->ipopt_kv)
    return;
  hid_t g = H5Gopen2(file, "diagnostics", H5P_DEFAULT);
  if (g < 0) {
    wfail(c, "", "diagnostics");
    return;
  }
  ds_strs(c, g, "/diagnostics", "ipopt_options", rec->nipopt, rec->ipopt_kv);
  gclose(g);
}

/* Jenkins' lookup3 hash (hashlittle, byte-wise), HDF5's metadata checksum. */
static uint32_t lookup3(const unsigned char *k, size_t len) {
#define RC_ROT(x, r) (((x) << (r)) | ((x) >> (32 - (r))))
  uint32_t a, b, c;
  a = b = c = 0xdeadbeefu + (uint32_t)len;
  for (; len > 12; len -= 12, k += 12) {
    a += k[0] | (uint32_t)k[1] << 8 | (uint32_t)k[2] << 16 |
         (uint32_t)k[3] << 24;
    b += k[4] | (uint32_t)k[5] << 8 | (uint32_t)k[6] << 16 |
         (uint32_t)k[7] << 24;
    c += k[8] | (uint32_t)k[9] << 8 | (uint32_t)k[10] << 16 |
         (uint32_t)k[11] << 24;
    a -= c, a ^= RC_ROT(c, 4), c += b;
    b -= a, b ^= RC_ROT(a, 6), a += c;
    c -= b, c ^= RC_ROT(b, 8), b += a;
    a -= c, a ^= RC_ROT(c, 16), c += b;
    b -= a, b ^= RC_ROT(a, 19), a += c;
    c -= b, c ^= RC_ROT(b, 4), b += a;
  }
  if (len == 0)
    return c;
  unsigned char t[12] = {0};
  memcpy(t, k, len);
  a += t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
  b += t[4] | (uint32_t)t[5] << 8 | (uint32_t)t[6] << 16 | (uint32_t)t[7] << 24;
  c += t[8] | (uint32_t)t[9] << 8 | (uint32_t)t[10] << 16 |
       (uint32_t)t[11] << 24;
  c ^= b, c -= RC_ROT(b, 14);
  a ^= c, a -= RC_ROT(c, 11);
  b ^= a, b -= RC_ROT(a, 25);
  c ^= b, c -= RC_ROT(b, 16);
  a ^= c, a -= RC_ROT(c, 4);
  b ^= a, b -= RC_ROT(a, 14);
  c ^= b, c -= RC_ROT(b, 24);
#undef RC_ROT
  return c;
}

/* libhdf5 1.10.8's H5Fget_file_image clears the "open for writing" flags of
 * a version 2/3 superblock in the image but leaves the checksum of the
 * flagged one, so the image would not open (measured: h5py and libhdf5
 * report "incorrect metadata checksum").  Recompute it: the superblock is
 * signature(8) version sizeof_offsets sizeof_lengths flags, four addresses,
 * then the lookup3 checksum of those bytes, little-endian. */
static int fix_superblock_checksum(unsigned char *img, size_t n) {
  if (n < 12 || (img[8] != 2 && img[8] != 3))
    return img[8] < 2; /* version 0/1 superblocks carry no checksum */
  const size_t end = 12 + 4 * (size_t)img[9];
  if (img[9] != 8 || n < end + 4)
    return 0;
  const uint32_t sum = lookup3(img, end);
  for (int i = 0; i < 4; ++i)
    img[end + (size_t)i] = (unsigned char)(sum >> (8 * i));
  return 1;
}

/* Bytes the file will take, roughly (sizes the in-memory image's growth). */
static size_t image_estimate(const rc_result_record *rec) {
  const rc_solution *sol = rec->sol;
  const rc_diagnostics *d = rec->diag;
  const size_t nw = (size_t)rc_problem_nw(rec->pb);
  size_t doubles = (size_t)sol->nnodes * (3 * nw + (size_t)sol->nc + 8);
  if (d)
    doubles += (size_t)d->ndense * (2 * nw + (size_t)d->nvar + 2);
  return 8 * doubles + (1u << 20);
}

rc_err rc_write_result(const char *path, const rc_result_record *rec,
                       rc_error *err) {
  if (!path || !path[0] || !rec || !rec->pb || !rec->sol)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_write_result: expected a path, a problem and a "
                        "solution (got path %s, pb %p, sol %p)",
                        path ? path : "(null)",
                        rec ? (const void *)rec->pb : NULL,
                        rec ? (const void *)rec->sol : NULL);
  rc_err rc = check_record(path, rec, err);
  if (rc != RC_OK)
    return rc;
  silence_hdf5();

  const rc_solution *sol = rec->sol;
  const rc_diagnostics *d = rec->diag;
  wctx c = {path, err, RC_OK, NULL, 0};
  size_t nbuf = (size_t)sol->nnodes + (size_t)sol->mesh.n + 1;
  if (d && (size_t)d->ndense > nbuf)
    nbuf = (size_t)d->ndense;
  c.buf = malloc(sizeof *c.buf * nbuf);
  c.nbuf = nbuf;
  if (!c.buf)
    return rc_error_set(err, RC_ERR_NOMEM, "%s: out of memory", path);
  /* libhdf5 builds the file in memory (the core driver without a backing
   * store: it never opens a path, so it cannot follow a planted link or
   * fail half-way on a full disk); the finished image is then written
   * through the descriptor of a temporary file radcol created exclusively
   * (outfile.c) and renamed over the target.  The 1.10 file format:
   * version-2 object headers, B-trees and heaps carry checksums, so
   * libhdf5 refuses damaged metadata on reading instead of following it
   * (docs/robustness.md); h5py 3 reads it. */
  size_t inc = image_estimate(rec);
  if (inc > ((size_t)1 << 28))
    inc = (size_t)1 << 28;
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (fapl < 0 || H5Pset_fapl_core(fapl, inc, 0) < 0 ||
      H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0 ||
      H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_V110) < 0)
    c.rc = rc_error_set(err, RC_ERR_INTERNAL,
                        "%s: cannot set up libhdf5's in-memory file", path);
  hid_t file = -1;
  if (c.rc == RC_OK) {
    /* The name only labels the in-memory file. */
    file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (file < 0)
      c.rc = rc_error_set(err, RC_ERR_NOMEM,
                          "%s: libhdf5 cannot create the file in memory (out "
                          "of memory?)",
                          path);
  }
  if (c.rc == RC_OK) {
    write_root(&c, file, rec);
    write_problem(&c, file, rec);
    write_mesh(&c, file, sol);
    write_solution(&c, file, rec);
    if (sol->has_duals)
      write_multipliers(&c, file, rec);
    write_diagnostics(&c, file, rec);
    write_ipopt_options(&c, file, rec);
    write_refinement(&c, file, rec->nrefine, rec->refine);
  }
  void *image = NULL;
  ssize_t nimage = 0;
  if (file >= 0) {
    if (c.rc == RC_OK && H5Fflush(file, H5F_SCOPE_GLOBAL) < 0)
      c.rc = rc_error_set(err, RC_ERR_IO, "%s: flushing the file failed", path);
    if (c.rc == RC_OK && (nimage = H5Fget_file_image(file, NULL, 0)) <= 0)
      c.rc = rc_error_set(err, RC_ERR_INTERNAL,
                          "%s: libhdf5 gave no file image", path);
    if (c.rc == RC_OK && !(image = malloc((size_t)nimage)))
      c.rc = rc_error_set(err, RC_ERR_NOMEM,
                          "%s: out of memory for a file of %zd bytes", path,
                          nimage);
    if (c.rc == RC_OK &&
        (H5Fget_file_image(file, image, (size_t)nimage) != nimage ||
         !fix_superblock_checksum(image, (size_t)nimage)))
      c.rc = rc_error_set(err, RC_ERR_INTERNAL,
                          "%s: libhdf5 could not copy the file image", path);
    if (H5Fclose(file) < 0 && c.rc == RC_OK)
      c.rc = rc_error_set(err, RC_ERR_IO, "%s: closing the file failed", path);
  }
  if (fapl >= 0)
    H5Pclose(fapl);
  free(c.buf);
  rc_outfile of;
  memset(&of, 0, sizeof of);
  of.fd = -1;
  if (c.rc == RC_OK)
    c.rc = rc_outfile_open(path, &of, err);
  if (c.rc == RC_OK)
    c.rc = rc_outfile_write(&of, image, (size_t)nimage, err);
  free(image);
  if (c.rc == RC_OK)
    c.rc = rc_outfile_commit(&of, err);
  else
    rc_outfile_abort(&of);
  if (c.rc == RC_OK)
    rc_error_clear(err);
  return c.rc;
}

/* ====================================================================== */
/* Reading                                                                */
/* ====================================================================== */

typedef struct rctx {
  const char *path;
  rc_error *err;
  rc_err rc;
  hid_t file;
} rctx;

static rc_err rfail(rctx *c, rc_err code, const char *fmt, const char *obj,
                    const char *extra) {
  if (c->rc != RC_OK)
    return c->rc;
  char msg[4 * RC_MESSAGE_MAX];
  snprintf(msg, sizeof msg, fmt, obj, extra ? extra : "");
  c->rc = rc_error_set(c->err, code, "%s: %s", c->path, msg);
  return c->rc;
}

/* Open a result file and check its format attributes. */
static rc_err ropen(rctx *c, const char *path, rc_error *err) {
  c->path = path ? path : "(null)";
  c->err = err;
  c->rc = RC_OK;
  c->file = -1;
  silence_hdf5();
  struct stat stv;
  if (!path || stat(path, &stv) != 0)
    return c->rc = rc_error_set(err, RC_ERR_IO, "%s: cannot open: %s", c->path,
                                path ? strerror(errno) : "no path");
  if (!S_ISREG(stv.st_mode))
    return c->rc = rc_error_set(err, RC_ERR_IO,
                                "%s: not a regular file (expected an HDF5 "
                                "result file)",
                                path);
  FILE *probe = fopen(path, "rb");
  if (!probe)
    return c->rc = rc_error_set(err, RC_ERR_IO, "%s: cannot open: %s", path,
                                strerror(errno));
  fclose(probe);
  htri_t is = H5Fis_hdf5(path);
  if (is <= 0)
    return c->rc = rc_error_set(err, RC_ERR_INPUT,
                                "%s: not an HDF5 file (expected a %s file)",
                                path, RC_FORMAT_NAME);
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (fapl >= 0)
    H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG);
  c->file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
  if (fapl >= 0)
    H5Pclose(fapl);
  if (c->file < 0)
    return c->rc = rc_error_set(err, RC_ERR_IO,
                                "%s: cannot open as HDF5 (truncated or "
                                "corrupt file?)",
                                path);
  return RC_OK;
}

static void rclose(rctx *c) {
  if (c->file >= 0)
    H5Fclose(c->file);
  c->file = -1;
}

/* Does the link gpath exist (every component checked)?  Each component is
 * looked at with H5Lget_info before anything follows it: only hard links
 * inside the file are used; a soft or external link (which could point at
 * another file, a FIFO or a device) records RC_ERR_INPUT and gives 0. */
static int has_link(rctx *c, const char *gpath) {
  char buf[2 * RC_IO_NAME_MAX + 64];
  if (c->rc != RC_OK || strlen(gpath) >= sizeof buf)
    return 0;
  strcpy(buf, gpath);
  for (char *p = buf + 1;; ++p) {
    if (*p == '/' || *p == '\0') {
      char saved = *p;
      *p = '\0';
      H5L_info_t info;
      if (H5Lexists(c->file, buf, H5P_DEFAULT) <= 0)
        return 0;
      if (H5Lget_info(c->file, buf, &info, H5P_DEFAULT) < 0) {
        rfail(c, RC_ERR_IO, "link %s cannot be read (corrupt file?)%s", buf,
              NULL);
        return 0;
      }
      if (info.type != H5L_TYPE_HARD) {
        rfail(c, RC_ERR_INPUT,
              "%s is %s link: expected an object stored in the file "
              "(radcol follows no soft or external links)",
              buf,
              info.type == H5L_TYPE_SOFT       ? "a soft"
              : info.type == H5L_TYPE_EXTERNAL ? "an external"
                                               : "a user-defined");
        return 0;
      }
      if (saved == '\0')
        return 1;
      *p = saved;
    }
  }
}

/* Whether attribute name of obj exists: 1 yes; 0 no (an error when
 * required); -1 libhdf5 could not tell (e.g. a metadata checksum mismatch).
 * Failures are recorded in c. */
static int attr_present(rctx *c, const char *obj, const char *name,
                        const char *where, int required) {
  if (strcmp(obj, "/") != 0 && !has_link(c, obj)) {
    if (required)
      rfail(c, RC_ERR_INPUT, "%s is missing (no object)%s", where, NULL);
    return c->rc == RC_OK ? 0 : -1;
  }
  const htri_t ex = H5Aexists_by_name(c->file, obj, name, H5P_DEFAULT);
  if (ex < 0) {
    rfail(c, RC_ERR_IO,
          "%s cannot be read: damaged HDF5 metadata (checksum or structure "
          "error)%s",
          where, NULL);
    return -1;
  }
  if (ex == 0 && required)
    rfail(c, RC_ERR_INPUT, "%s is missing%s", where, NULL);
  return ex > 0;
}

/* Read a string attribute (fixed or variable length) into buf. */
static rc_err attr_read_str(rctx *c, const char *obj, const char *name,
                            char *buf, size_t size, int required) {
  char where[2 * RC_IO_NAME_MAX];
  snprintf(where, sizeof where, "%s attribute '%s'", obj, name);
  buf[0] = '\0';
  if (c->rc != RC_OK)
    return c->rc;
  const int present = attr_present(c, obj, name, where, required);
  if (present <= 0)
    return c->rc;
  hid_t a = H5Aopen_by_name(c->file, obj, name, H5P_DEFAULT, H5P_DEFAULT);
  hid_t t = a < 0 ? -1 : H5Aget_type(a);
  hid_t sp = a < 0 ? -1 : H5Aget_space(a);
  int ok = a >= 0 && t >= 0 && sp >= 0 && H5Tget_class(t) == H5T_STRING &&
           H5Sget_simple_extent_npoints(sp) == 1;
  if (!ok) {
    rfail(c, a < 0 ? RC_ERR_IO : RC_ERR_INPUT,
          "%s is unreadable or not one string%s", where, NULL);
  } else if (H5Tis_variable_str(t) != 0) {
    /* never written by radcol; see attr_str for why it is not read */
    rfail(c, RC_ERR_INPUT,
          "%s is a variable-length string: expected a fixed-length string "
          "(not a file written by this radcol)%s",
          where, NULL);
  } else {
    size_t n = H5Tget_size(t);
    char *v = n > 0 && n < (1u << 20) ? calloc(n + 1, 1) : NULL;
    hid_t mt = H5Tcopy(t);
    if (!v || mt < 0 || H5Aread(a, mt, v) < 0)
      rfail(c, RC_ERR_IO, "%s is unreadable%s", where, NULL);
    else
      snprintf(buf, size, "%s", v);
    if (mt >= 0)
      H5Tclose(mt);
    free(v);
  }
  if (sp >= 0)
    H5Sclose(sp);
  if (t >= 0)
    H5Tclose(t);
  if (a >= 0)
    H5Aclose(a);
  return c->rc;
}

/* One of the standard integer or IEEE float types (a corrupt datatype
 * message with odd sizes or offsets could derail HDF5's conversion code). */
static int plain_number_type(hid_t t) {
  const hid_t ok[] = {H5T_IEEE_F64LE, H5T_IEEE_F64BE, H5T_IEEE_F32LE,
                      H5T_IEEE_F32BE, H5T_STD_I8LE,   H5T_STD_I16LE,
                      H5T_STD_I32LE,  H5T_STD_I64LE,  H5T_STD_I32BE,
                      H5T_STD_I64BE,  H5T_STD_U8LE,   H5T_STD_U16LE,
                      H5T_STD_U32LE,  H5T_STD_U64LE};
  for (size_t i = 0; t >= 0 && i < sizeof ok / sizeof ok[0]; ++i)
    if (H5Tequal(t, ok[i]) > 0)
      return 1;
  return 0;
}

/* Read a numeric scalar attribute (as double). */
static rc_err attr_read_num(rctx *c, const char *obj, const char *name,
                            double *val, int required) {
  char where[2 * RC_IO_NAME_MAX];
  snprintf(where, sizeof where, "%s attribute '%s'", obj, name);
  if (c->rc != RC_OK)
    return c->rc;
  const int present = attr_present(c, obj, name, where, required);
  if (present <= 0)
    return c->rc;
  hid_t a = H5Aopen_by_name(c->file, obj, name, H5P_DEFAULT, H5P_DEFAULT);
  hid_t t = a < 0 ? -1 : H5Aget_type(a);
  hid_t sp = a < 0 ? -1 : H5Aget_space(a);
  H5T_class_t cl = t < 0 ? H5T_NO_CLASS : H5Tget_class(t);
  if (a < 0 || t < 0 || sp < 0 || (cl != H5T_INTEGER && cl != H5T_FLOAT) ||
      !plain_number_type(t) || H5Sget_simple_extent_npoints(sp) != 1)
    rfail(c, RC_ERR_INPUT, "%s is unreadable or not one number%s", where, NULL);
  else if (H5Aread(a, H5T_NATIVE_DOUBLE, val) < 0)
    rfail(c, RC_ERR_IO, "%s is unreadable%s", where, NULL);
  if (sp >= 0)
    H5Sclose(sp);
  if (t >= 0)
    H5Tclose(t);
  if (a >= 0)
    H5Aclose(a);
  return c->rc;
}

static rc_err attr_read_int(rctx *c, const char *obj, const char *name,
                            int *val, int lo, int hi) {
  double v = 0;
  if (attr_read_num(c, obj, name, &v, 1) != RC_OK)
    return c->rc;
  if (!(v >= lo && v <= hi && v == floor(v))) {
    char where[2 * RC_IO_NAME_MAX], msg[64];
    snprintf(where, sizeof where, "%s attribute '%s'", obj, name);
    snprintf(msg, sizeof msg, " is %g: expected an integer in %d..%d", v, lo,
             hi);
    return rfail(c, RC_ERR_INPUT, "%s%s", where, msg);
  }
  *val = (int)v;
  return RC_OK;
}

/* Open a 1-D dataset of the given class; *n gets its length.  If expect >= 0
 * the length must equal it. */
static hid_t ds_open(rctx *c, const char *dpath, H5T_class_t cls, long expect,
                     long *n) {
  if (c->rc != RC_OK)
    return -1;
  if (!has_link(c, dpath)) {
    rfail(c, RC_ERR_INPUT, "dataset %s is missing%s", dpath, NULL);
    return -1;
  }
  hid_t d = H5Dopen2(c->file, dpath, H5P_DEFAULT);
  if (d < 0) {
    rfail(c, RC_ERR_IO, "dataset %s is unreadable%s", dpath, NULL);
    return -1;
  }
  hid_t t = H5Dget_type(d), sp = H5Dget_space(d), dcpl = H5Dget_create_plist(d);
  int rank = sp < 0 ? -1 : H5Sget_simple_extent_ndims(sp);
  hsize_t dims[1] = {0};
  H5T_class_t cl = t < 0 ? H5T_NO_CLASS : H5Tget_class(t);
  int okc = (cl == cls || (cls == H5T_FLOAT && cl == H5T_INTEGER)) &&
            (cl == H5T_STRING || plain_number_type(t));
  const int vlen = cl == H5T_STRING && H5Tis_variable_str(t) != 0;
  const size_t tsize = t < 0 ? 0 : H5Tget_size(t);
  /* Where the data lives: only in this file, unfiltered (a compressed
   * dataset can declare gigabytes in a few kilobytes), fully written. */
  const H5D_layout_t layout = dcpl < 0 ? H5D_LAYOUT_ERROR : H5Pget_layout(dcpl);
  const int nfilters = dcpl < 0 ? -1 : H5Pget_nfilters(dcpl);
  const int nexternal = dcpl < 0 ? -1 : H5Pget_external_count(dcpl);
  const hsize_t stored = H5Dget_storage_size(d);
  hsize_t fsize = 0;
  if (H5Fget_filesize(c->file, &fsize) < 0)
    fsize = 0;
  if (rank == 1)
    H5Sget_simple_extent_dims(sp, dims, NULL);
  if (dcpl >= 0)
    H5Pclose(dcpl);
  if (t >= 0)
    H5Tclose(t);
  if (sp >= 0)
    H5Sclose(sp);
  const double declared = (double)dims[0] * (double)tsize;
  char msg[160] = "";
  if (rank != 1 || !okc)
    snprintf(msg, sizeof msg, " is not a 1-D %s dataset",
             cls == H5T_STRING    ? "string"
             : cls == H5T_INTEGER ? "integer"
                                  : "real");
  else if (vlen)
    snprintf(msg, sizeof msg,
             " holds variable-length strings: expected fixed-length strings "
             "(not a file written by this radcol)");
  else if (cl == H5T_STRING && (tsize < 1 || tsize > 4096))
    snprintf(msg, sizeof msg, " holds strings of %zu bytes: expected 1..4096",
             tsize);
  else if (nexternal != 0 || (layout != H5D_CONTIGUOUS &&
                              layout != H5D_COMPACT && layout != H5D_CHUNKED))
    snprintf(msg, sizeof msg,
             " keeps its data outside the file (external or virtual "
             "storage): expected data stored in the file");
  else if (nfilters != 0)
    snprintf(msg, sizeof msg,
             " is compressed or filtered: expected a plain dataset (radcol "
             "writes no filters)");
  else if (dims[0] > (hsize_t)RC_IO_MAX_LEN)
    snprintf(msg, sizeof msg, " has %llu entries: too many",
             (unsigned long long)dims[0]);
  else if (declared > (double)fsize || (double)stored < declared)
    snprintf(msg, sizeof msg,
             " declares %.0f bytes but stores %llu in a file of %llu bytes: "
             "expected a fully written dataset",
             declared, (unsigned long long)stored, (unsigned long long)fsize);
  else if (expect >= 0 && (long)dims[0] != expect)
    snprintf(msg, sizeof msg, " has %llu entries: expected %ld",
             (unsigned long long)dims[0], expect);
  if (msg[0]) {
    H5Dclose(d);
    rfail(c, RC_ERR_INPUT, "dataset %s%s", dpath, msg);
    return -1;
  }
  *n = (long)dims[0];
  return d;
}

/* Read a 1-D real dataset of length expect into out[i*stride]. */
static rc_err ds_read_real(rctx *c, const char *dpath, long expect, double *out,
                           int stride) {
  long n = 0;
  hid_t d = ds_open(c, dpath, H5T_FLOAT, expect, &n);
  if (d < 0)
    return c->rc;
  double *tmp = stride == 1 ? out : malloc(sizeof *tmp * (size_t)(n ? n : 1));
  if (!tmp)
    rfail(c, RC_ERR_NOMEM, "out of memory reading %s%s", dpath, NULL);
  else if (n > 0 && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                            tmp) < 0)
    rfail(c, RC_ERR_IO, "dataset %s is unreadable (corrupt file?)%s", dpath,
          NULL);
  else if (stride != 1)
    for (long i = 0; i < n; ++i)
      out[i * stride] = tmp[i];
  if (tmp && tmp != out)
    free(tmp);
  H5Dclose(d);
  return c->rc;
}

/* Read a 1-D integer dataset; if expect < 0 allocate *out with its length. */
static rc_err ds_read_int(rctx *c, const char *dpath, long expect, int **out,
                          long *n) {
  hid_t d = ds_open(c, dpath, H5T_INTEGER, expect, n);
  if (d < 0)
    return c->rc;
  if (!*out && !(*out = malloc(sizeof **out * (size_t)(*n ? *n : 1))))
    rfail(c, RC_ERR_NOMEM, "out of memory reading %s%s", dpath, NULL);
  else if (*n > 0 &&
           H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, *out) < 0)
    rfail(c, RC_ERR_IO, "dataset %s is unreadable (corrupt file?)%s", dpath,
          NULL);
  H5Dclose(d);
  return c->rc;
}

static void free_strs(char **s, long n) {
  for (long i = 0; s && i < n; ++i)
    free(s[i]);
  free(s);
}

/* Read a 1-D string dataset into a malloc'd array of malloc'd strings. */
static rc_err ds_read_strs(rctx *c, const char *dpath, long expect, char ***out,
                           long *n) {
  *out = NULL;
  hid_t d = ds_open(c, dpath, H5T_STRING, expect, n);
  if (d < 0)
    return c->rc;
  char **s = calloc((size_t)(*n ? *n : 1), sizeof *s);
  hid_t t = H5Dget_type(d);
  hid_t mt = t < 0 ? -1 : H5Tcopy(t);
  if (!s || mt < 0) {
    rfail(c, RC_ERR_NOMEM, "out of memory reading %s%s", dpath, NULL);
  } else if (*n > 0) {
    size_t w = H5Tget_size(t);
    char *v = w > 0 && w < 4096 ? calloc((size_t)*n, w) : NULL;
    if (!v || H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0)
      rfail(c, RC_ERR_IO, "dataset %s is unreadable (corrupt file?)%s", dpath,
            NULL);
    for (long i = 0; i < *n && c->rc == RC_OK; ++i) {
      if (!(s[i] = calloc(w + 1, 1)))
        rfail(c, RC_ERR_NOMEM, "out of memory reading %s%s", dpath, NULL);
      else
        memcpy(s[i], v + (size_t)i * w, w);
    }
    free(v);
  }
  if (mt >= 0)
    H5Tclose(mt);
  if (t >= 0)
    H5Tclose(t);
  H5Dclose(d);
  if (c->rc != RC_OK)
    free_strs(s, *n);
  else
    *out = s;
  return c->rc;
}

/* Open path, check format = radcol-result and a supported format_version. */
static rc_err ropen_result(rctx *c, const char *path, rc_error *err) {
  if (ropen(c, path, err) != RC_OK)
    return c->rc;
  char fmt[64];
  if (H5Aexists_by_name(c->file, "/", "format", H5P_DEFAULT) <= 0)
    c->rc = rc_error_set(err, RC_ERR_INPUT,
                         "%s: root attribute 'format' is missing: expected "
                         "\"%s\" (not a radcol result file)",
                         path, RC_FORMAT_NAME);
  attr_read_str(c, "/", "format", fmt, sizeof fmt, 1);
  if (c->rc == RC_OK && strcmp(fmt, RC_FORMAT_NAME) != 0) {
    c->rc = rc_error_set(err, RC_ERR_INPUT,
                         "%s: root attribute 'format' is \"%s\": expected "
                         "\"%s\" (not a radcol result file)",
                         path, fmt, RC_FORMAT_NAME);
  }
  double ver = 0;
  attr_read_num(c, "/", "format_version", &ver, 1);
  if (c->rc == RC_OK && !(ver >= 1 && ver <= RC_FORMAT_VERSION))
    c->rc = rc_error_set(err, RC_ERR_INPUT,
                         "%s: format_version %g: expected 1..%d (written by a "
                         "newer radcol?)",
                         path, ver, RC_FORMAT_VERSION);
  if (c->rc != RC_OK)
    rclose(c);
  return c->rc;
}

/* /mesh -> mesh (the file must be open). */
static rc_err read_mesh_open(rctx *c, rc_mesh *mesh) {
  long nf = 0, ns = 0;
  hid_t d = ds_open(c, "/mesh/fractions", H5T_FLOAT, -1, &nf);
  if (d >= 0)
    H5Dclose(d);
  if (c->rc == RC_OK && nf < 2)
    return rfail(c, RC_ERR_INPUT,
                 "dataset %s has fewer than 2 entries (one element)%s",
                 "/mesh/fractions", NULL);
  int *stages = NULL;
  double *frac = c->rc == RC_OK ? malloc(sizeof *frac * (size_t)nf) : NULL;
  if (c->rc == RC_OK && !frac)
    rfail(c, RC_ERR_NOMEM, "out of memory reading %s%s", "/mesh/fractions",
          NULL);
  ds_read_real(c, "/mesh/fractions", nf, frac, 1);
  ds_read_int(c, "/mesh/stages", nf - 1, &stages, &ns);
  if (c->rc == RC_OK) {
    rc_error e2;
    rc_error_clear(&e2);
    if (rc_mesh_from_arrays((int)(nf - 1), frac, stages, mesh, &e2) != RC_OK) {
      c->rc = rc_error_set(c->err, RC_ERR_INPUT, "%s: /mesh: %s", c->path,
                           e2.message);
      memset(mesh, 0, sizeof *mesh);
    }
  }
  free(frac);
  free(stages);
  return c->rc;
}

rc_err rc_read_mesh(const char *path, rc_mesh *mesh, rc_error *err) {
  if (!mesh)
    return rc_error_set(err, RC_ERR_INPUT, "rc_read_mesh: mesh is NULL");
  memset(mesh, 0, sizeof *mesh);
  rctx c;
  if (ropen_result(&c, path, err) != RC_OK)
    return c.rc;
  read_mesh_open(&c, mesh);
  rclose(&c);
  if (c.rc == RC_OK)
    rc_error_clear(err);
  return c.rc;
}

/* Read column j of a node-major n x stride array from gpath/<prefix><name>. */
static rc_err read_column(rctx *c, const char *gpath, const char *prefix,
                          const char *name, long n, double *a, int stride,
                          int j) {
  char dp[3 * RC_IO_NAME_MAX];
  snprintf(dp, sizeof dp, "%s/%s%s", gpath, prefix, name);
  return ds_read_real(c, dp, n, a + j, stride);
}

/* Every value finite and of magnitude <= RC_REAL_MAX_ABS (a guess must not
 * carry NaN, inf or 1e308 into the solver); names the dataset, the entry
 * and the value. */
static rc_err check_reals(rctx *c, const char *gpath, const char *prefix,
                          const char *name, long n, const double *a,
                          int stride) {
  for (long i = 0; c->rc == RC_OK && i < n; ++i) {
    const double v = a[i * stride];
    if (!(fabs(v) <= RC_REAL_MAX_ABS)) {
      char dp[3 * RC_IO_NAME_MAX], msg[96];
      snprintf(dp, sizeof dp, "%s/%s%s", gpath, prefix, name);
      snprintf(msg, sizeof msg,
               "[%ld] is %g: expected a finite number of "
               "magnitude <= %g",
               i, v, RC_REAL_MAX_ABS);
      rfail(c, RC_ERR_INPUT, "dataset %s%s", dp, msg);
    }
  }
  return c->rc;
}

rc_err rc_read_solution(const char *path, rc_solution *sol, char *problem,
                        char *formulation, rc_error *err) {
  if (!sol)
    return rc_error_set(err, RC_ERR_INPUT, "rc_read_solution: sol is NULL");
  memset(sol, 0, sizeof *sol);
  if (problem)
    problem[0] = '\0';
  if (formulation)
    formulation[0] = '\0';
  rctx c;
  if (ropen_result(&c, path, err) != RC_OK)
    return c.rc;
  char buf[64];
  attr_read_str(&c, "/", "problem", buf, sizeof buf, 1);
  if (problem && c.rc == RC_OK)
    snprintf(problem, 64, "%s", buf);
  attr_read_str(&c, "/", "formulation", buf, sizeof buf, 1);
  if (formulation && c.rc == RC_OK)
    snprintf(formulation, 64, "%s", buf);

  /* Dims from /problem: a fake problem carries them to rc_solution_alloc. */
  rc_problem fake;
  memset(&fake, 0, sizeof fake);
  const int big = 1 << 20;
  attr_read_int(&c, "/problem", "nx", &fake.nx, 0, big);
  attr_read_int(&c, "/problem", "ny", &fake.ny, 0, big);
  attr_read_int(&c, "/problem", "nu", &fake.nu, 0, big);
  attr_read_int(&c, "/problem", "np", &fake.np, 0, big);
  attr_read_int(&c, "/problem", "nc", &fake.nc, 0, big);
  attr_read_int(&c, "/problem", "nb", &fake.nb, 0, big);
  double t0 = 0, tf = 0;
  attr_read_num(&c, "/problem", "t0", &t0, 1);
  attr_read_num(&c, "/solution", "tf", &tf, 1);
  const int horizon_ok =
      fabs(t0) <= RC_REAL_MAX_ABS && fabs(tf) <= RC_REAL_MAX_ABS && tf > t0;
  if (c.rc == RC_OK && !horizon_ok)
    c.rc = rc_error_set(err, RC_ERR_INPUT,
                        "%s: horizon t0 = %g, tf = %g: expected finite t0 < tf "
                        "of magnitude <= %g",
                        path, t0, tf, RC_REAL_MAX_ABS);
  rc_mesh mesh = {0, NULL, NULL};
  read_mesh_open(&c, &mesh);
  int nw = fake.nx + fake.ny + fake.nu + fake.np;
  long nn = c.rc == RC_OK ? rc_mesh_nodes(&mesh) : 0;
  long width = nw > fake.nc ? nw : fake.nc;
  if (c.rc == RC_OK && (double)nn * (width + 1) > (double)RC_IO_MAX_LEN)
    rfail(&c, RC_ERR_INPUT, "%s has too many nodes x variables%s", "/mesh",
          NULL);
  int has_duals = c.rc == RC_OK && has_link(&c, "/multipliers");
  char **names = NULL;
  long nnames = 0;
  ds_read_strs(&c, "/problem/variable_names", nw, &names, &nnames);
  if (c.rc == RC_OK) {
    rc_error e2;
    rc_error_clear(&e2);
    if (rc_solution_alloc(&fake, &mesh, t0, tf, has_duals, sol, &e2) != RC_OK)
      c.rc = rc_error_set(err, e2.code, "%s: %s", c.path, e2.message);
  }
  rc_mesh_free(&mesh);
  if (c.rc == RC_OK) {
    sol->t0 = t0;
    sol->tf = tf;
    ds_read_real(&c, "/solution/time", nn, sol->t, 1);
    check_reals(&c, "/solution", "", "time", nn, sol->t, 1);
    for (int j = 0; j < nw; ++j) {
      read_column(&c, "/solution", "", names[j], nn, sol->w, nw, j);
      check_reals(&c, "/solution", "", names[j], nn, sol->w + j, nw);
    }
  }
  if (c.rc == RC_OK && has_duals) {
    sol->has_duals = 1;
    for (int j = 0; j < fake.nx; ++j) {
      read_column(&c, "/multipliers", "costate_", names[j], nn, sol->lam_f,
                  fake.nx, j);
      check_reals(&c, "/multipliers", "costate_", names[j], nn, sol->lam_f + j,
                  fake.nx);
    }
    for (int j = 0; j < fake.ny; ++j)
      read_column(&c, "/multipliers", "alg_", names[fake.nx + j], nn,
                  sol->lam_g, fake.ny, j);
    for (int j = 0; j < fake.nc; ++j) {
      char k[16];
      snprintf(k, sizeof k, "%d", j);
      read_column(&c, "/multipliers", "path_", k, nn, sol->lam_c, fake.nc, j);
    }
    ds_read_real(&c, "/multipliers/boundary", fake.nb, sol->lam_b, 1);
    for (int j = 0; j < nw; ++j) {
      read_column(&c, "/multipliers", "bound_lo_", names[j], nn, sol->z_lo, nw,
                  j);
      read_column(&c, "/multipliers", "bound_hi_", names[j], nn, sol->z_hi, nw,
                  j);
      check_reals(&c, "/multipliers", "bound_lo_", names[j], nn, sol->z_lo + j,
                  nw);
      check_reals(&c, "/multipliers", "bound_hi_", names[j], nn, sol->z_hi + j,
                  nw);
    }
  }
  free_strs(names, nnames);
  rclose(&c);
  if (c.rc != RC_OK) {
    rc_solution_free(sol);
    memset(sol, 0, sizeof *sol);
  } else {
    rc_error_clear(err);
  }
  return c.rc;
}

void rc_free_strings(char **s, int n) {
  free_strs(s, n);
}

rc_err rc_read_names(const char *path, char ***var, int *nw, char ***out,
                     int *nout, rc_error *err) {
  if (!var || !nw || (!out) != (!nout))
    return rc_error_set(err, RC_ERR_INPUT, "rc_read_names: NULL argument");
  *var = NULL;
  *nw = 0;
  if (out)
    *out = NULL, *nout = 0;
  rctx c;
  if (ropen_result(&c, path, err) != RC_OK)
    return c.rc;
  int nx = 0, ny = 0, nu = 0, np = 0;
  const int big = 1 << 20;
  attr_read_int(&c, "/problem", "nx", &nx, 0, big);
  attr_read_int(&c, "/problem", "ny", &ny, 0, big);
  attr_read_int(&c, "/problem", "nu", &nu, 0, big);
  attr_read_int(&c, "/problem", "np", &np, 0, big);
  long n1 = 0, n2 = 0;
  char **v = NULL, **o = NULL;
  ds_read_strs(&c, "/problem/variable_names", (long)nx + ny + nu + np, &v, &n1);
  if (out)
    ds_read_strs(&c, "/problem/output_names", -1, &o, &n2);
  rclose(&c);
  if (c.rc != RC_OK) {
    free_strs(v, n1);
    free_strs(o, n2);
    return c.rc;
  }
  *var = v;
  *nw = (int)n1;
  if (out)
    *out = o, *nout = (int)n2;
  rc_error_clear(err);
  return RC_OK;
}

rc_err rc_read_param_assignments(const char *path, const rc_model *model,
                                 char ***assign, int *n, rc_error *err) {
  if (!model || !assign || !n)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_read_param_assignments: NULL argument");
  *assign = NULL;
  *n = 0;
  rctx c;
  if (ropen_result(&c, path, err) != RC_OK)
    return c.rc;
  char **a =
      calloc((size_t)(model->nparams > 0 ? model->nparams : 1), sizeof *a);
  int m = 0;
  if (!a)
    rfail(&c, RC_ERR_NOMEM, "out of memory reading %s%s", "/problem", NULL);
  for (int i = 0; i < model->nparams && c.rc == RC_OK; ++i) {
    const rc_param_def *def = &model->params[i];
    if (!def->name || !def->name[0])
      continue;
    char name[RC_IO_NAME_MAX + 8];
    int clash = 0;
    for (int r = 0; problem_attr_names[r]; ++r)
      clash |= strcmp(def->name, problem_attr_names[r]) == 0;
    snprintf(name, sizeof name, "%s%s", clash ? "param_" : "", def->name);
    char where[2 * RC_IO_NAME_MAX];
    snprintf(where, sizeof where, "/problem attribute '%s'", name);
    if (attr_present(&c, "/problem", name, where, 0) <= 0)
      continue;
    char text[RC_IO_NAME_MAX * 4];
    if (def->type == RC_PARAM_TEXT) {
      attr_read_str(&c, "/problem", name, text, sizeof text, 1);
      const char *dflt = def->default_text ? def->default_text : "";
      if (c.rc != RC_OK || strcmp(text, dflt) == 0)
        continue;
    } else {
      double v = 0;
      attr_read_num(&c, "/problem", name, &v, 1);
      const double d = def->default_real;
      if (c.rc != RC_OK || v == d || (isnan(v) && isnan(d)))
        continue;
      if (!isfinite(v)) {
        snprintf(text, sizeof text,
                 " is %g, not the default %g: expected a "
                 "finite value",
                 v, d);
        rfail(&c, RC_ERR_INPUT, "%s%s", where, text);
        continue;
      }
      snprintf(text, sizeof text, "%.17g", v);
    }
    const size_t len = strlen(def->name) + strlen(text) + 2;
    if (!(a[m] = malloc(len))) {
      rfail(&c, RC_ERR_NOMEM, "out of memory reading %s%s", "/problem", NULL);
      break;
    }
    snprintf(a[m++], len, "%s=%s", def->name, text);
  }
  rclose(&c);
  if (c.rc != RC_OK) {
    free_strs(a, m);
    return c.rc;
  }
  *assign = a;
  *n = m;
  rc_error_clear(err);
  return RC_OK;
}

/* ====================================================================== */
/* rc_print_info                                                          */
/* ====================================================================== */

/* JSON string: control bytes as \u00XX, bytes that are not valid UTF-8 as
 * U+FFFD (a file may carry anything; JSON must be UTF-8). */
static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
    const int n = rc_utf8_len((const char *)p);
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(f, "\\u%04x", *p);
    else if (n == 0)
      fputs("\\ufffd", f);
    else {
      fwrite(p, 1, (size_t)n, f);
      p += n - 1; /* the loop's ++p steps over the last byte */
    }
  }
  fputc('"', f);
}

/* Text: control bytes and bytes that are not valid UTF-8 as \xNN, so a
 * file cannot send terminal escape sequences.  Returns buf. */
static const char *text_esc(const char *s, char *buf, size_t size) {
  size_t o = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p && o + 5 < size;) {
    const int n = rc_utf8_len((const char *)p);
    if (n == 0 || *p < 0x20 || *p == 0x7f) {
      o += (size_t)snprintf(buf + o, size - o, "\\x%02x", *p);
      ++p;
    } else if (o + (size_t)n < size) {
      memcpy(buf + o, p, (size_t)n);
      o += (size_t)n, p += n;
    } else {
      break;
    }
  }
  buf[o] = '\0';
  return buf;
}

static void json_num(FILE *f, double v) {
  char num[RC_FMT_LEN];
  if (isfinite(v))
    fputs(rc_fmt_shortest(v, num), f);
  else
    fputs("null", f);
}

/* Optional per-name value table: names (n) and up to 3 value arrays. */
typedef struct info_table {
  long n;
  char **names;
  double *v[3];
} info_table;

static void table_free(info_table *t) {
  free_strs(t->names, t->n);
  for (int i = 0; i < 3; ++i)
    free(t->v[i]);
  memset(t, 0, sizeof *t);
}

/* Read gpath/<namesds> and up to 3 value datasets, if the group exists. */
static rc_err table_read(rctx *c, const char *gpath, const char *namesds,
                         const char *const *vals, int nvals, info_table *t) {
  memset(t, 0, sizeof *t);
  if (c->rc != RC_OK || !has_link(c, gpath))
    return c->rc;
  char dp[2 * RC_IO_NAME_MAX];
  snprintf(dp, sizeof dp, "%s/%s", gpath, namesds);
  if (ds_read_strs(c, dp, -1, &t->names, &t->n) != RC_OK)
    return c->rc;
  for (int i = 0; i < nvals && c->rc == RC_OK; ++i) {
    snprintf(dp, sizeof dp, "%s/%s", gpath, vals[i]);
    if (!has_link(c, dp))
      continue;
    t->v[i] = malloc(sizeof *t->v[i] * (size_t)(t->n ? t->n : 1));
    if (!t->v[i])
      rfail(c, RC_ERR_NOMEM, "out of memory reading %s%s", dp, NULL);
    ds_read_real(c, dp, t->n, t->v[i], 1);
  }
  if (c->rc != RC_OK)
    table_free(t);
  return c->rc;
}

rc_err rc_print_info(const char *path, void *out_FILE, int json,
                     rc_error *err) {
  FILE *f = out_FILE;
  if (!f)
    return rc_error_set(err, RC_ERR_INPUT, "rc_print_info: no output stream");
  rctx c;
  if (ropen_result(&c, path, err) != RC_OK)
    return c.rc;
  enum { S = 1024 };
  char problem[S], form[S], kind[S], status[S], ver[S], utc[S], cmd[4 * S];
  attr_read_str(&c, "/", "problem", problem, S, 0);
  attr_read_str(&c, "/", "formulation", form, S, 0);
  attr_read_str(&c, "/", "kind", kind, S, 0);
  attr_read_str(&c, "/", "status", status, S, 0);
  attr_read_str(&c, "/", "radcol_version", ver, S, 0);
  attr_read_str(&c, "/", "utc_time", utc, S, 0);
  attr_read_str(&c, "/", "command_line", cmd, sizeof cmd, 0);
  int *stages = NULL;
  long n = 0;
  ds_read_int(&c, "/mesh/stages", -1, &stages, &n);
  long nodes = 1;
  int smin = 0, smax = 0;
  for (long k = 0; c.rc == RC_OK && k < n; ++k) {
    nodes += stages[k];
    smin = k == 0 || stages[k] < smin ? stages[k] : smin;
    smax = k == 0 || stages[k] > smax ? stages[k] : smax;
  }
  free(stages);
  double t0 = NAN, tf = NAN, iters = NAN, obj = NAN, viol = NAN, wall = NAN,
         nvars = NAN, ncons = NAN;
  attr_read_num(&c, "/problem", "t0", &t0, 0);
  attr_read_num(&c, "/solution", "tf", &tf, 0);
  attr_read_num(&c, "/diagnostics", "iterations", &iters, 0);
  attr_read_num(&c, "/diagnostics", "objective", &obj, 0);
  attr_read_num(&c, "/diagnostics", "constraint_violation", &viol, 0);
  attr_read_num(&c, "/diagnostics", "wall_s", &wall, 0);
  attr_read_num(&c, "/diagnostics", "nvars", &nvars, 0);
  attr_read_num(&c, "/diagnostics", "ncons", &ncons, 0);
  /* iterations: the total over the refinement solves (iterations_last: the
   * last solve's); the global error estimate's max (docs/json.md). */
  double iters_total = iters, est_max = NAN;
  if (c.rc == RC_OK &&
      H5Lexists(c.file, "/diagnostics/error_estimate", H5P_DEFAULT) > 0)
    attr_read_num(&c, "/diagnostics/error_estimate", "max", &est_max, 0);
  if (c.rc == RC_OK && H5Lexists(c.file, "/refinement", H5P_DEFAULT) > 0 &&
      H5Lexists(c.file, "/refinement/ipopt_iterations", H5P_DEFAULT) > 0) {
    int *ri = NULL;
    long nr = 0;
    ds_read_int(&c, "/refinement/ipopt_iterations", -1, &ri, &nr);
    if (c.rc == RC_OK && nr > 0) {
      iters_total = 0.0;
      for (long k = 0; k < nr; ++k)
        iters_total += ri[k];
    }
    free(ri);
  }
  static const char *const ev[] = {"nodes", "dense", "ends"};
  info_table re, inv;
  table_read(&c, "/diagnostics/reference_error", "variables", ev, 3, &re);
  table_read(&c, "/diagnostics/invariants", "names", ev, 2, &inv);
  rclose(&c);
  if (c.rc != RC_OK) {
    table_free(&re);
    table_free(&inv);
    return c.rc;
  }
  if (json) {
    fputs("{\"file\": ", f);
    json_str(f, path);
    const char *keys[] = {"problem",     "formulation",    "kind",
                          "status",      "radcol_version", "utc_time",
                          "command_line"};
    const char *vals[] = {problem, form, kind, status, ver, utc, cmd};
    for (int i = 0; i < 7; ++i) {
      fprintf(f, ", \"%s\": ", keys[i]);
      json_str(f, vals[i]);
    }
    fprintf(f,
            ", \"elements\": %ld, \"stages_min\": %d, \"stages_max\": %d, "
            "\"nodes\": %ld",
            n, smin, smax, nodes);
    const char *nk[] = {"t0",          "tf",
                        "iterations",  "iterations_last",
                        "objective",   "constraint_violation",
                        "wall_s",      "variables",
                        "constraints", "error_estimate"};
    double nv[] = {t0,   tf,   iters_total, iters, obj,
                   viol, wall, nvars,       ncons, est_max};
    for (int i = 0; i < 10; ++i) {
      fprintf(f, ", \"%s\": ", nk[i]);
      json_num(f, nv[i]);
    }
    fputs(", \"max_error\": {", f);
    for (long i = 0; i < re.n; ++i) {
      fputs(i ? ", " : "", f);
      json_str(f, re.names[i]);
      fputs(": {", f);
      for (int k = 0; k < 3; ++k) {
        fprintf(f, "%s\"%s\": ", k ? ", " : "", ev[k]);
        json_num(f, re.v[k] ? re.v[k][i] : NAN);
      }
      fputs("}", f);
    }
    fputs("}, \"invariants\": {", f);
    for (long i = 0; i < inv.n; ++i) {
      fputs(i ? ", " : "", f);
      json_str(f, inv.names[i]);
      fputs(": {", f);
      for (int k = 0; k < 2; ++k) {
        fprintf(f, "%s\"%s\": ", k ? ", " : "", ev[k]);
        json_num(f, inv.v[k] ? inv.v[k][i] : NAN);
      }
      fputs("}", f);
    }
    fputs("}}\n", f);
  } else {
    enum { E = 4 * S };
    char e1[E], e2[E], e3[E];
    fprintf(f, "file         %s\n", text_esc(path, e1, E));
    fprintf(f, "problem      %s / %s (%s)\n", text_esc(problem, e1, E),
            text_esc(form, e2, E), text_esc(kind, e3, E));
    fprintf(f, "status       %s\n", text_esc(status, e1, E));
    fprintf(f, "written      radcol %s, %s\n", text_esc(ver, e1, E),
            text_esc(utc, e2, E));
    fprintf(f, "command      %s\n", text_esc(cmd, e1, E));
    fprintf(f, "mesh         %ld elements, %d..%d stages, %ld nodes\n", n, smin,
            smax, nodes);
    char n0[RC_FMT_LEN], n1[RC_FMT_LEN];
    fprintf(f, "horizon      t0 = %s, tf = %s\n", rc_fmt_shortest(t0, n0),
            rc_fmt_shortest(tf, n1));
    if (!isnan(iters))
      fprintf(f,
              "solver       %.0f iterations, objective %.10g, "
              "violation %.3g, wall %.3g s\n",
              iters, obj, viol, wall);
    if (re.n > 0) {
      fprintf(f, "max error vs reference   %12s %12s %12s\n", "nodes", "dense",
              "ends");
      for (long i = 0; i < re.n; ++i)
        fprintf(f, "  %-22s %12.3e %12.3e %12.3e\n",
                text_esc(re.names[i], e1, E), re.v[0] ? re.v[0][i] : NAN,
                re.v[1] ? re.v[1][i] : NAN, re.v[2] ? re.v[2][i] : NAN);
    }
    if (inv.n > 0) {
      fprintf(f, "invariants max |h|       %12s %12s\n", "nodes", "dense");
      for (long i = 0; i < inv.n; ++i)
        fprintf(f, "  %-22s %12.3e %12.3e\n", text_esc(inv.names[i], e1, E),
                inv.v[0] ? inv.v[0][i] : NAN, inv.v[1] ? inv.v[1][i] : NAN);
    }
  }
  table_free(&re);
  table_free(&inv);
  rc_error_clear(err);
  return ferror(f) ? rc_error_set(err, RC_ERR_IO,
                                  "%s: writing the summary failed", path)
                   : RC_OK;
}
