/*
 * io_write.c - rc_write_result: one result record -> one HDF5 file, written
 * atomically (the layout is docs/hdf5-layout.md; the readers are io_read.c,
 * the HDF5 helpers both share io_hdf5_util.[ch]).
 *
 * Invariants
 *   - libhdf5 builds the file in memory (core driver, no backing store) and
 *     never opens a path for writing; the image is written through a
 *     random, exclusively created temporary file in the target's directory
 *     (outfile.c) and only a complete, fsync'd file is renamed over the
 *     target (rename(2) is atomic within one file system).  On any failure
 *     the temporary file is removed and an existing target is untouched;
 *     an existing target that is not a regular file is refused.
 *   - HDF5's automatic error printing is switched off at the entry point;
 *     every failure becomes an rc_error naming the path and the object.
 *   - Strings are written fixed-length (see attr_str).
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

#include "io/hdf5_util.h"
#include "io/outfile.h"
#include "radcol/io.h"
#include "radcol/params.h"
#include "radcol/version.h"

/* Write context: the first failure is recorded and every later helper call
 * becomes a no-op, so the writer reads as a straight sequence. */
typedef struct wctx {
  const char *path; /* target (for messages) */
  rc_error *err;
  rc_err rc;
  double *buf;
  size_t nbuf;
} wctx;

/* Did libhdf5's error stack record a failed allocation? */
static herr_t find_nomem(unsigned n, const H5E_error2_t *e, void *data) {
  (void)n;
  if (e->maj_num == H5E_RESOURCE &&
      (e->min_num == H5E_NOSPACE || e->min_num == H5E_CANTALLOC))
    *(int *)data = 1;
  return 0;
}

/* A failure inside libhdf5 while it builds the image in memory (nothing
 * has touched the disk): out of memory when libhdf5's error stack says an
 * allocation failed, else an I/O error naming the object. */
static void wfail(wctx *c, const char *gpath, const char *name) {
  if (c->rc != RC_OK)
    return;
  int nomem = 0;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, find_nomem, &nomem);
  if (nomem)
    c->rc = rc_error_set(c->err, RC_ERR_NOMEM,
                         "%s: out of memory writing %s/%s into the file image "
                         "(nothing written)",
                         c->path, gpath, name);
  else
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

/* The bytes of file parameter i (RC_PARAM_FILE) as /problem/files/<name>
 * (1-D unsigned bytes): those attached to pv (a problem rebuilt from a
 * result file) or else the named file's, read now (at most
 * RC_FILE_PARAM_MAX bytes).  A parameter without a name stores nothing. */
static void write_file_param(wctx *c, hid_t g, const rc_model *m,
                             const rc_param_values *pv, int i,
                             const char *name) {
  if (c->rc != RC_OK || !pv->text || !pv->text[i] || !pv->text[i][0])
    return;
  const char *data = pv->file_data ? pv->file_data[i] : NULL;
  size_t size = data ? pv->file_size[i] : 0;
  char *own = NULL;
  if (!data) {
    rc_error e;
    rc_error_clear(&e);
    FILE *f = rc_param_open_file(m, pv, i, m->params[i].name, &e);
    size_t cap = 0;
    while (f && e.code == RC_OK) {
      if (size == cap) {
        cap = cap ? 2 * cap : 4096;
        char *grown = cap <= RC_FILE_PARAM_MAX + 1 ? realloc(own, cap) : NULL;
        if (!grown) {
          rc_error_set(
              &e, cap > RC_FILE_PARAM_MAX + 1 ? RC_ERR_INPUT : RC_ERR_NOMEM,
              "%s %s: %s", m->params[i].name, pv->text[i],
              cap > RC_FILE_PARAM_MAX + 1
                  ? "larger than the 64 MiB a result file stores"
                  : "out of memory");
          break;
        }
        own = grown;
      }
      const size_t got = fread(own + size, 1, cap - size, f);
      size += got;
      if (got == 0) {
        if (ferror(f))
          rc_error_set(&e, RC_ERR_IO, "%s %s: read error", m->params[i].name,
                       pv->text[i]);
        break;
      }
    }
    if (f)
      fclose(f);
    if (e.code != RC_OK) {
      free(own);
      c->rc = rc_error_set(c->err, e.code,
                           "%s: cannot store the file of parameter %s: %s",
                           c->path, m->params[i].name, e.message);
      return;
    }
    data = own;
  }
  hid_t files = H5Lexists(g, "files", H5P_DEFAULT) > 0
                    ? H5Gopen2(g, "files", H5P_DEFAULT)
                    : grp(c, g, "/problem", "files");
  if (files < 0)
    wfail(c, "/problem", "files");
  else
    ds_write(c, files, "/problem/files", name, H5T_STD_U8LE, H5T_NATIVE_UCHAR,
             (long)size, 0, data);
  gclose(files);
  free(own);
}

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
      rc_h5_param_attr_name(def->name, name, sizeof name);
      if (def->type == RC_PARAM_REAL)
        attr_real(c, g, gp, name, pv->real ? pv->real[i] : def->default_real);
      else
        attr_str(c, g, gp, name, pv->text ? pv->text[i] : def->default_text);
      if (def->type == RC_PARAM_FILE)
        write_file_param(c, g, m, pv, i, name);
    }
  }
  int nw = rc_problem_nw(pb);
  const char **kinds = malloc(sizeof *kinds * (size_t)(nw > 0 ? nw : 1));
  if (!kinds && c->rc == RC_OK)
    c->rc = rc_error_set(c->err, RC_ERR_NOMEM, "%s: out of memory", c->path);
  for (int i = 0; kinds && i < nw; ++i)
    kinds[i] = rc_var_kind_name(rc_problem_var_kind(pb, i));
  ds_strs(c, g, gp, "variable_names", nw, (const char *const *)pb->var_names);
  ds_strs(c, g, gp, "variable_kinds", nw, kinds);
  free(kinds);
  int nout = pb->nout > 0 && pb->out_names ? pb->nout : 0;
  int ninv = pb->ninv > 0 && pb->inv_names ? pb->ninv : 0;
  ds_strs(c, g, gp, "output_names", nout, pb->out_names);
  ds_strs(c, g, gp, "invariant_names", ninv, pb->inv_names);
  /* the start the run fixed: differs from the start parameters after a
   * restart (the consistent start of `radcol solve`, rc_options.x0) */
  if (pb->x0)
    ds_real(c, g, gp, "start", pb->nx, pb->x0);
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
  if (m->nseg > 0) { /* free breakpoints (radcol/mesh.h) */
    attr_int(c, g, gp, "segments", m->nseg);
    attr_real(c, g, gp, "segment_min", m->seg_min);
    ds_int(c, g, gp, "segment_first", m->nseg + 1, m->seg_first);
    int *pv = malloc(sizeof *pv * (size_t)(4 * m->npin + 1));
    if (!pv) {
      if (c->rc == RC_OK)
        c->rc =
            rc_error_set(c->err, RC_ERR_NOMEM, "%s: out of memory", c->path);
    } else {
      for (int p = 0; p < m->npin; ++p) {
        pv[4 * p] = m->pins[p].seg;
        pv[4 * p + 1] = m->pins[p].kind;
        pv[4 * p + 2] = m->pins[p].index;
        pv[4 * p + 3] = m->pins[p].upper;
      }
      ds_int(c, g, gp, "pins", 4L * m->npin, pv); /* seg, kind, index, upper */
      free(pv);
    }
  }
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

/* /diagnostics/structure (radcol/structure.h, docs/hdf5-layout.md): the
 * arcs, the switches with their uncertainty and the jumps of y and u. */
static void write_structure(wctx *c, hid_t g, const rc_result_record *rec) {
  const rc_structure *st = rec->structure;
  const rc_problem *pb = rec->pb;
  const char *gs = "/diagnostics/structure";
  const long na = st->narc, ns = st->nswitch;
  hid_t h = grp(c, g, "/diagnostics", "structure");
  attr_int(c, h, gs, "arcs", st->narc);
  attr_int(c, h, gs, "switches", st->nswitch);
  attr_int(c, h, gs, "singular_arcs", st->nsingular);
  attr_int(c, h, gs, "segments", rec->sol->mesh.nseg);
  char(*names)[96] = malloc(sizeof *names * (size_t)(na > 0 ? na : 1));
  const char **np = malloc(sizeof *np * (size_t)(na > 0 ? na : 1));
  const char **kp = malloc(sizeof *kp * (size_t)(na > 0 ? na : 1));
  double *dv = malloc(sizeof *dv * (size_t)(na + ns + 1) * 4);
  int *iv = malloc(sizeof *iv * (size_t)(na + ns + 1) * 2);
  if (!names || !np || !kp || !dv || !iv) {
    if (c->rc == RC_OK)
      c->rc = rc_error_set(c->err, RC_ERR_NOMEM, "%s: out of memory", c->path);
  } else {
    for (long a = 0; a < na; ++a) {
      rc_arc_describe(pb, &st->arcs[a], names[a], sizeof names[a]);
      np[a] = names[a];
      kp[a] = rc_arc_kind_name(st->arcs[a].kind);
    }
    ds_strs(c, h, gs, "arc_name", na, np);
    ds_strs(c, h, gs, "arc_kind", na, kp);
#define ST_COL(name, expr, buf, writer)                                        \
  for (long a = 0; a < na; ++a)                                                \
    buf[a] = st->arcs[a].expr;                                                 \
  writer(c, h, gs, name, na, buf)
    ST_COL("arc_index", index, iv, ds_int);
    ST_COL("arc_upper", upper, iv, ds_int);
    ST_COL("arc_touch", touch, iv, ds_int);
    ST_COL("arc_t_entry", t_entry, dv, ds_real);
    ST_COL("arc_t_exit", t_exit, dv, ds_real);
    ST_COL("arc_unc_entry", unc_entry, dv, ds_real);
    ST_COL("arc_unc_exit", unc_exit, dv, ds_real);
#undef ST_COL
    for (long s = 0; s < ns; ++s)
      dv[s] = st->switches[s].t;
    ds_real(c, h, gs, "switch_t", ns, dv);
    for (long s = 0; s < ns; ++s)
      dv[s] = st->switches[s].unc;
    ds_real(c, h, gs, "switch_unc", ns, dv);
    for (long s = 0; s < ns; ++s)
      iv[s] = st->switches[s].boundary;
    ds_int(c, h, gs, "switch_boundary", ns, iv);
    ds_strs(c, h, gs, "jump_variables", st->nyu,
            (const char *const *)pb->var_names + pb->nx);
    if (st->nyu > 0)
      ds_write(c, h, gs, "jump", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, ns, st->nyu,
               st->jump);
  }
  free(names);
  free(np);
  free(kp);
  free(dv);
  free(iv);
  gclose(h);
}

/* /diagnostics/accuracy (docs/hdf5-layout.md): the accuracy verdict of a
 * solve (docs/accuracy.md), for files of kind "solve". */
static void write_accuracy(wctx *c, hid_t g, const rc_result_record *rec) {
  const rc_solve_stats *st = rec->stats;
  if (!st || !rec->kind || strcmp(rec->kind, "solve") != 0)
    return;
  const rc_accuracy *a = &st->accuracy;
  const char *ga = "/diagnostics/accuracy";
  hid_t h = grp(c, g, "/diagnostics", "accuracy");
  const char *mode = rc_solve_mode_name(a->mode);
  attr_str(c, h, ga, "mode", mode ? mode : "fixed");
  attr_real(c, h, ga, "tolerance", a->tol);
  attr_int(c, h, ga, "binding", a->binding);
  attr_str(c, h, ga, "verdict",
           a->met == 1   ? "met"
           : a->met == 0 ? "above"
                         : "not_verified");
  attr_str(c, h, ga, "estimate",
           rc_estimate_kind_name((rc_estimate_kind)a->estimate_kind));
  attr_real(c, h, ga, "estimate_max", a->estimate_max);
  attr_real(c, h, ga, "dense_worst", a->dense_worst);
  attr_str(c, h, ga, "solver_status",
           a->solver_status == RC_STATUS_NOT_RUN && rec->pb &&
                   rec->pb->sampled_reference
               ? "converged"
               : rc_status_name(a->solver_status));
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
    attr_str(c, g, gp, "objective_sense", pb->maximize ? "max" : "min");
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
  if (rec->structure)
    write_structure(c, g, rec);
  write_accuracy(c, g, rec);
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
static void write_ipopt_options(wctx *c, hid_t loc,
                                const rc_result_record *rec) {
  if (c->rc != RC_OK || rec->nipopt <= 0 || !rec->ipopt_kv)
    return;
  hid_t g = H5Gopen2(loc, "diagnostics", H5P_DEFAULT);
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
  size_t files = 0; /* the bytes of file parameters (write_file_param) */
  const rc_model *m = rec->model;
  const rc_param_values *pv = rec->params;
  for (int i = 0; m && pv && pv->text && i < m->nparams && i < pv->n; ++i) {
    struct stat st;
    if (m->params[i].type != RC_PARAM_FILE || !pv->text[i])
      continue;
    if (pv->file_data && pv->file_data[i])
      files += pv->file_size[i];
    else if (stat(pv->text[i], &st) == 0 && st.st_size > 0)
      files += (size_t)st.st_size < RC_FILE_PARAM_MAX ? (size_t)st.st_size
                                                      : RC_FILE_PARAM_MAX;
  }
  return 8 * doubles + files + (1u << 16);
}

/* libhdf5 builds the file in memory (the core driver without a backing
 * store: it never opens a path, so it cannot follow a planted link or fail
 * half-way on a full disk); the finished image is then written through the
 * descriptor of a temporary file radcol created exclusively (outfile.c) and
 * renamed over the target.  The 1.10 file format: version-2 object headers,
 * B-trees and heaps carry checksums, so libhdf5 refuses damaged metadata on
 * reading instead of following it (docs/robustness.md); h5py 3 reads it.
 * Returns the file (or -1 with c->rc set); *fapl for the caller to close. */
static hid_t create_memory_file(wctx *c, size_t bytes, hid_t *fapl) {
  size_t inc = bytes;
  if (inc > ((size_t)1 << 28))
    inc = (size_t)1 << 28;
  *fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (*fapl < 0 || H5Pset_fapl_core(*fapl, inc, 0) < 0 ||
      H5Pset_fclose_degree(*fapl, H5F_CLOSE_STRONG) < 0 ||
      H5Pset_libver_bounds(*fapl, H5F_LIBVER_V110, H5F_LIBVER_V110) < 0) {
    c->rc = rc_error_set(c->err, RC_ERR_INTERNAL,
                         "%s: cannot set up libhdf5's in-memory file", c->path);
    return -1;
  }
  /* The name only labels the in-memory file. */
  hid_t file = H5Fcreate(c->path, H5F_ACC_TRUNC, H5P_DEFAULT, *fapl);
  if (file < 0)
    c->rc = rc_error_set(c->err, RC_ERR_NOMEM,
                         "%s: libhdf5 cannot create the file in memory (out "
                         "of memory?)",
                         c->path);
  return file;
}

/* The finished in-memory file as an image (malloc'ed, its superblock
 * checksum fixed; NULL after a failure), and the file closed. */
static void *take_image(wctx *c, hid_t file, ssize_t *nimage) {
  void *image = NULL;
  const char *path = c->path;
  if (c->rc == RC_OK && H5Fflush(file, H5F_SCOPE_GLOBAL) < 0)
    c->rc =
        rc_error_set(c->err, RC_ERR_IO, "%s: flushing the file failed", path);
  if (c->rc == RC_OK && (*nimage = H5Fget_file_image(file, NULL, 0)) <= 0)
    c->rc = rc_error_set(c->err, RC_ERR_INTERNAL,
                         "%s: libhdf5 gave no file image", path);
  if (c->rc == RC_OK && !(image = malloc((size_t)*nimage)))
    c->rc = rc_error_set(c->err, RC_ERR_NOMEM,
                         "%s: out of memory for a file of %zd bytes", path,
                         *nimage);
  if (c->rc == RC_OK &&
      (H5Fget_file_image(file, image, (size_t)*nimage) != *nimage ||
       !fix_superblock_checksum(image, (size_t)*nimage)))
    c->rc = rc_error_set(c->err, RC_ERR_INTERNAL,
                         "%s: libhdf5 could not copy the file image", path);
  if (H5Fclose(file) < 0 && c->rc == RC_OK)
    c->rc =
        rc_error_set(c->err, RC_ERR_IO, "%s: closing the file failed", path);
  return image;
}

/* The groups of one record under loc: the file, or a phase's group of a
 * multiphase file (the same layout either way). */
static void write_record_groups(wctx *c, hid_t loc,
                                const rc_result_record *rec) {
  write_problem(c, loc, rec);
  write_mesh(c, loc, rec->sol);
  write_solution(c, loc, rec);
  if (rec->sol->has_duals)
    write_multipliers(c, loc, rec);
  write_diagnostics(c, loc, rec);
  write_ipopt_options(c, loc, rec);
  write_refinement(c, loc, rec->nrefine, rec->refine);
}

/* The buffer every writer shares: one value per node, breakpoint or dense
 * point of the largest record. */
static size_t record_nbuf(const rc_result_record *rec) {
  size_t nbuf = (size_t)rec->sol->nnodes + (size_t)rec->sol->mesh.n + 1;
  if (rec->diag && (size_t)rec->diag->ndense > nbuf)
    nbuf = (size_t)rec->diag->ndense;
  return nbuf;
}

typedef void (*fill_fn)(wctx *c, hid_t file, const void *ctx);

/* Build the file in memory with fill, then write it atomically to path. */
static rc_err write_image(const char *path, size_t nbuf, size_t bytes,
                          fill_fn fill, const void *ctx, rc_error *err) {
  /* libhdf5's core buffer (up to twice the image: it grows by whole
   * increments), the copy of the image, the work buffer. */
  const rc_err rc = rc_h5_begin(3 * bytes, path, err);
  if (rc != RC_OK)
    return rc;
  wctx c = {path, err, RC_OK, NULL, 0};
  c.buf = malloc(sizeof *c.buf * (nbuf ? nbuf : 1));
  c.nbuf = nbuf;
  if (!c.buf)
    return rc_error_set(err, RC_ERR_NOMEM, "%s: out of memory", path);
  hid_t fapl = -1;
  hid_t file = create_memory_file(&c, bytes, &fapl);
  if (c.rc == RC_OK)
    fill(&c, file, ctx);
  ssize_t nimage = 0;
  void *image = file >= 0 ? take_image(&c, file, &nimage) : NULL;
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

static void fill_one(wctx *c, hid_t file, const void *ctx) {
  const rc_result_record *rec = ctx;
  write_root(c, file, rec);
  write_record_groups(c, file, rec);
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
  return write_image(path, record_nbuf(rec), image_estimate(rec), fill_one, rec,
                     err);
}

/* ---- multiphase files (docs/hdf5-layout.md, "Multiphase files") ---------- */

static void fill_phases(wctx *c, hid_t file, const void *ctx) {
  const rc_phases_record *rec = ctx;
  const rc_phases_solution *res = rec->res;
  const int n = res->nphases;
  char utc[32] = "";
  time_t now = time(NULL);
  struct tm tmv;
  if (gmtime_r(&now, &tmv))
    strftime(utc, sizeof utc, "%Y-%m-%dT%H:%M:%SZ", &tmv);
  const rc_status st = rec->stats ? rec->stats->status : RC_STATUS_NOT_RUN;
  attr_str(c, file, "", "format", RC_FORMAT_NAME);
  attr_int(c, file, "", "format_version", RC_FORMAT_VERSION);
  attr_str(c, file, "", "radcol_version", RADCOL_VERSION_STRING);
  attr_str(c, file, "", "problem", rec->ph->name ? rec->ph->name : "phases");
  attr_str(c, file, "", "formulation", "phases");
  attr_str(c, file, "", "kind", "phases");
  attr_str(c, file, "", "command_line", rec->command_line);
  attr_str(c, file, "", "utc_time", utc);
  attr_str(c, file, "", "status", rc_status_name(st));
  attr_int(c, file, "", "phases", n);
  hid_t g = grp(c, file, "", "phases");
  const char **names = malloc(sizeof *names * (size_t)n);
  if (!names && c->rc == RC_OK)
    c->rc = rc_error_set(c->err, RC_ERR_NOMEM, "%s: out of memory", c->path);
  for (int k = 0; names && k < n; ++k)
    names[k] = rec->ph->phase[k].name;
  ds_strs(c, g, "/phases", "names", n, names);
  free(names);
  ds_real(c, g, "/phases", "start", n, res->start);
  ds_real(c, g, "/phases", "duration", n, res->duration);
  ds_real(c, g, "/phases", "objective", n, res->objective);
  ds_real(c, g, "/phases", "data_objective", n, res->data_objective);
  attr_int(c, g, "/phases", "count", n);
  if (res->path_backoff) {
    attr_real(c, g, "/phases", "path_tol", rec->ph->path_tol);
    attr_int(c, g, "/phases", "backoff_solves", res->backoff_solves);
  }
  for (int k = 0; k < n && c->rc == RC_OK; ++k) {
    char gname[32], gpath[48];
    snprintf(gname, sizeof gname, "%d", k);
    snprintf(gpath, sizeof gpath, "/phases/%d", k);
    const rc_result_record *pr = &rec->phase[k];
    hid_t h = grp(c, g, "/phases", gname);
    attr_str(c, h, gpath, "name", rec->ph->phase[k].name);
    attr_str(c, h, gpath, "problem", pr->pb->model);
    attr_str(c, h, gpath, "formulation", pr->pb->formulation);
    attr_str(c, h, gpath, "kind", pr->kind ? pr->kind : "solve");
    attr_str(c, h, gpath, "status", rc_status_name(st));
    attr_real(c, h, gpath, "start", res->start[k]);
    attr_real(c, h, gpath, "duration", res->duration[k]);
    attr_real(c, h, gpath, "objective", res->objective[k]);
    attr_real(c, h, gpath, "data_objective", res->data_objective[k]);
    if (res->path_backoff) { /* rc_phases.path_tol: the back-off */
      attr_real(c, h, gpath, "path_backoff", res->path_backoff[k]);
      attr_real(c, h, gpath, "path_violation", res->path_violation[k]);
    }
    write_record_groups(c, h, pr);
    gclose(h);
  }
  gclose(g);
  hid_t l = grp(c, file, "", "linkage");
  attr_int(c, l, "/linkage", "rows", res->nlink);
  attr_real(c, l, "/linkage", "link_objective", res->link_objective);
  ds_strs(c, l, "/linkage", "names", res->nlink,
          (const char *const *)res->link_name);
  ds_int(c, l, "/linkage", "boundary", res->nlink, res->link_boundary);
  ds_real(c, l, "/linkage", "value", res->nlink, res->link_value);
  ds_real(c, l, "/linkage", "lo", res->nlink, res->link_lo);
  ds_real(c, l, "/linkage", "hi", res->nlink, res->link_hi);
  ds_real(c, l, "/linkage", "multiplier", res->nlink, res->link_dual);
  gclose(l);
  /* the whole solve: /diagnostics (stats of the one NLP) and /refinement */
  rc_result_record top;
  memset(&top, 0, sizeof top);
  top.pb = rec->phase[0].pb;
  top.sol = rec->phase[0].sol;
  top.stats = rec->stats;
  top.nipopt = rec->nipopt;
  top.ipopt_kv = rec->ipopt_kv;
  write_diagnostics(c, file, &top);
  write_ipopt_options(c, file, &top);
  write_refinement(c, file, rec->nrefine, rec->refine);
}

rc_err rc_write_phases_result(const char *path, const rc_phases_record *rec,
                              rc_error *err) {
  if (!path || !path[0] || !rec || !rec->ph || !rec->res || !rec->phase ||
      rec->res->nphases < 1 || rec->res->nphases != rec->ph->nphases)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_write_phases_result: expected a path, the phases, "
                        "their solution and one record per phase");
  size_t nbuf = 1, bytes = 1u << 20;
  for (int k = 0; k < rec->res->nphases; ++k) {
    const rc_result_record *pr = &rec->phase[k];
    if (!pr->pb || !pr->sol)
      return rc_error_set(err, RC_ERR_INPUT,
                          "%s: phase %d has no problem or solution", path, k);
    rc_err rc = check_record(path, pr, err);
    if (rc != RC_OK)
      return rc;
    const size_t nb = record_nbuf(pr);
    nbuf = nb > nbuf ? nb : nbuf;
    bytes += image_estimate(pr);
  }
  if (rec->res->nlink > 0 &&
      (!rec->res->link_name || !rec->res->link_value || !rec->res->link_dual))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: %d linkage rows without their arrays", path,
                        rec->res->nlink);
  return write_image(path, nbuf, bytes, fill_phases, rec, err);
}
