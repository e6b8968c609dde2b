/*
 * io_read.c - reading radcol result files back (the layout is
 * docs/hdf5-layout.md; the writer is io_write.c, the validating HDF5
 * helpers io_hdf5_util.[ch]).
 *
 * What it holds
 *   rc_read_mesh    : /mesh/fractions + /mesh/stages -> rc_mesh (validated).
 *   rc_read_solution: dims, mesh, times, w and duals -> rc_solution.
 *   rc_read_names, rc_read_param_assignments: names and parameters.
 *   rc_read_result_summary: what `radcol info` shows (root attributes,
 *                     sizes, status, errors); the CLI formats it.
 *
 * Invariants
 *   - Readers trust nothing in the file: every dataset's type, rank and size
 *     is checked against what the root and /problem attributes imply before
 *     anything is allocated or read, so truncated, random or foreign files
 *     give an error, not a crash.  Missing or unreadable files are
 *     RC_ERR_IO; readable HDF5 with the wrong content (other format,
 *     missing or mis-sized dataset) is RC_ERR_INPUT.
 *   - A solution is allocated from the dims the file records
 *     (rc_solution_alloc_dims), after they and the mesh are checked.
 *
 * Node layout (radcol/result.h): node 0 is t0; node 1 + off_k + j - 1 is stage
 * j (1..s_k) of element k, off_k = s_0 + ... + s_{k-1}.  Node-major arrays
 * (w, lam_*, z_*) are stored as one 1-D dataset per column, named after the
 * variable.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/hdf5_util.h"
#include "radcol/io.h"
#include "radcol/params.h"

/* Open path for phase `phase` of a multiphase file (its group becomes the
 * reader's root), or, with phase < 0, a one-phase file (a multiphase file
 * is refused: its root holds no /mesh or /solution). */
static rc_err open_at(rc_h5_reader *c, const char *path, int phase,
                      rc_error *err) {
  if (rc_h5_open_result(c, path, err) != RC_OK)
    return c->rc;
  int n = 0;
  double v = 0;
  if (rc_h5_attr_present(c, "/", "phases", "root attribute 'phases'", 0) > 0 &&
      rc_h5_attr_read_num(c, "/", "phases", &v, 1) == RC_OK)
    n = v >= 1 && v <= 100000 && v == floor(v) ? (int)v : -1;
  if (c->rc != RC_OK)
    return c->rc;
  if (n < 0) {
    rc_h5_close(c);
    return c->rc = rc_error_set(err, RC_ERR_INPUT,
                                "%s: root attribute 'phases' is %g: expected "
                                "an integer in 1..100000",
                                path, v);
  }
  if (phase < 0 && n > 0) {
    rc_h5_close(c);
    return c->rc = rc_error_set(err, RC_ERR_INPUT,
                                "%s: a multiphase result (%d phases): "
                                "expected a one-phase result file here",
                                path, n);
  }
  if (phase >= 0 && phase >= n) {
    rc_h5_close(c);
    return c->rc = rc_error_set(err, RC_ERR_INPUT,
                                "%s: phase %d: the file holds %d phase%s "
                                "(0..%d)",
                                path, phase, n, n == 1 ? "" : "s", n - 1);
  }
  if (phase >= 0) {
    char pre[32];
    snprintf(pre, sizeof pre, "/phases/%d", phase);
    rc_h5_set_prefix(c, pre);
  }
  return RC_OK;
}

/* /mesh -> mesh (the file must be open). */
/* Free breakpoints of /mesh (radcol/mesh.h): segment_first, the
 * segment_min attribute and the pins (4 integers each), validated by the
 * mesh functions; on failure the mesh is freed. */
static void read_segments(rc_h5_reader *c, rc_mesh *mesh) {
  int *first = NULL, *pv = NULL;
  long nfirst = 0, npv = 0;
  double seg_min = 0.0;
  rc_h5_ds_read_int(c, "/mesh/segment_first", -1, &first, &nfirst);
  rc_h5_attr_read_num(c, "/mesh", "segment_min", &seg_min, 1);
  if (c->rc == RC_OK && rc_h5_has_link(c, "/mesh/pins"))
    rc_h5_ds_read_int(c, "/mesh/pins", -1, &pv, &npv);
  if (c->rc == RC_OK && (nfirst < 2 || nfirst - 1 > mesh->n || npv % 4 != 0))
    rc_h5_fail(c, RC_ERR_INPUT,
               "%s: expected 2 .. elements + 1 segment starts and pins of 4 "
               "integers each (%s)",
               "/mesh/segment_first", "/mesh/pins");
  if (c->rc == RC_OK) {
    rc_error e2;
    rc_error_clear(&e2);
    const int npin = (int)(npv / 4);
    rc_mesh_pin *pins = malloc(sizeof *pins * (size_t)(npin + 1));
    for (int p = 0; pins && p < npin; ++p)
      pins[p] =
          (rc_mesh_pin){pv[4 * p], pv[4 * p + 1], pv[4 * p + 2], pv[4 * p + 3]};
    if (!pins)
      rc_h5_fail(c, RC_ERR_NOMEM, "out of memory reading %s%s", "/mesh/pins",
                 NULL);
    else if (rc_mesh_set_segments(mesh, (int)(nfirst - 1), first, seg_min,
                                  &e2) != RC_OK ||
             rc_mesh_set_pins(mesh, npin, pins, &e2) != RC_OK)
      c->rc = rc_error_set(c->err, RC_ERR_INPUT, "%s: /mesh: %s", c->path,
                           e2.message);
    free(pins);
  }
  free(first);
  free(pv);
  if (c->rc != RC_OK)
    rc_mesh_free(mesh);
}

static rc_err read_mesh_open(rc_h5_reader *c, rc_mesh *mesh) {
  long nf = 0, ns = 0;
  hid_t d = rc_h5_ds_open(c, "/mesh/fractions", H5T_FLOAT, -1, &nf);
  if (d >= 0)
    H5Dclose(d);
  if (c->rc == RC_OK && nf < 2)
    return rc_h5_fail(c, RC_ERR_INPUT,
                      "dataset %s has fewer than 2 entries (one element)%s",
                      "/mesh/fractions", NULL);
  int *stages = NULL;
  double *frac = c->rc == RC_OK ? malloc(sizeof *frac * (size_t)nf) : NULL;
  if (c->rc == RC_OK && !frac)
    rc_h5_fail(c, RC_ERR_NOMEM, "out of memory reading %s%s", "/mesh/fractions",
               NULL);
  rc_h5_ds_read_real(c, "/mesh/fractions", nf, frac, 1);
  rc_h5_ds_read_int(c, "/mesh/stages", nf - 1, &stages, &ns);
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
  if (c->rc == RC_OK && rc_h5_has_link(c, "/mesh/segment_first"))
    read_segments(c, mesh);
  return c->rc;
}

static rc_err read_mesh_at(const char *path, int phase, rc_mesh *mesh,
                           rc_error *err) {
  if (!mesh)
    return rc_error_set(err, RC_ERR_INPUT, "rc_read_mesh: mesh is NULL");
  memset(mesh, 0, sizeof *mesh);
  rc_h5_reader c;
  if (open_at(&c, path, phase, err) != RC_OK)
    return c.rc;
  read_mesh_open(&c, mesh);
  rc_h5_close(&c);
  if (c.rc == RC_OK)
    rc_error_clear(err);
  return c.rc;
}

/* Read column j of a node-major n x stride array from gpath/<prefix><name>. */
static rc_err read_column(rc_h5_reader *c, const char *gpath,
                          const char *prefix, const char *name, long n,
                          double *a, int stride, int j) {
  char dp[3 * RC_IO_NAME_MAX];
  snprintf(dp, sizeof dp, "%s/%s%s", gpath, prefix, name);
  return rc_h5_ds_read_real(c, dp, n, a + j, stride);
}

/* Every value finite and of magnitude <= RC_REAL_MAX_ABS (a guess must not
 * carry NaN, inf or 1e308 into the solver); names the dataset, the entry
 * and the value. */
static rc_err check_reals(rc_h5_reader *c, const char *gpath,
                          const char *prefix, const char *name, long n,
                          const double *a, int stride) {
  for (long i = 0; c->rc == RC_OK && i < n; ++i) {
    const double v = a[i * stride];
    if (!(fabs(v) <= RC_REAL_MAX_ABS)) {
      char dp[3 * RC_IO_NAME_MAX], msg[96];
      snprintf(dp, sizeof dp, "%s/%s%s", gpath, prefix, name);
      snprintf(msg, sizeof msg,
               "[%ld] is %g: expected a finite number of "
               "magnitude <= %g",
               i, v, RC_REAL_MAX_ABS);
      rc_h5_fail(c, RC_ERR_INPUT, "dataset %s%s", dp, msg);
    }
  }
  return c->rc;
}

/* Column j of gpath/<prefix><name>, every value checked (check_reals). */
static rc_err read_reals(rc_h5_reader *c, const char *gpath, const char *prefix,
                         const char *name, long n, double *a, int stride,
                         int j) {
  read_column(c, gpath, prefix, name, n, a, stride, j);
  return check_reals(c, gpath, prefix, name, n, a + j, stride);
}

/* Names the result layout keeps for itself in /solution (io_write.c). */
static const char *const reserved_names[] = {"time", "dense", "parameters",
                                             NULL};

/* The dimensions from /problem and the horizon (t0 from /problem, tf from
 * /solution: finite, t0 < tf). */
static void read_dims(rc_h5_reader *c, rc_solution_dims *dims, double *t0,
                      double *tf) {
  const int big = RC_DIM_MAX;
  rc_h5_attr_read_int(c, "/problem", "nx", &dims->nx, 0, big);
  rc_h5_attr_read_int(c, "/problem", "ny", &dims->ny, 0, big);
  rc_h5_attr_read_int(c, "/problem", "nu", &dims->nu, 0, big);
  rc_h5_attr_read_int(c, "/problem", "np", &dims->np, 0, big);
  rc_h5_attr_read_int(c, "/problem", "nc", &dims->nc, 0, big);
  rc_h5_attr_read_int(c, "/problem", "nb", &dims->nb, 0, big);
  rc_h5_attr_read_num(c, "/problem", "t0", t0, 1);
  rc_h5_attr_read_num(c, "/solution", "tf", tf, 1);
  const int horizon_ok =
      fabs(*t0) <= RC_REAL_MAX_ABS && fabs(*tf) <= RC_REAL_MAX_ABS && *tf > *t0;
  if (c->rc == RC_OK && !horizon_ok)
    c->rc = rc_error_set(c->err, RC_ERR_INPUT,
                         "%s: horizon t0 = %g, tf = %g: expected finite t0 < "
                         "tf of magnitude <= %g",
                         c->path, *t0, *tf, RC_REAL_MAX_ABS);
}

/* The multipliers of /multipliers at the nn nodes into sol (named after
 * the variables). */
static void read_multipliers(rc_h5_reader *c, const rc_solution_dims *dims,
                             const char *const *names, long nn,
                             rc_solution *sol) {
  const int nw = dims->nx + dims->ny + dims->nu + dims->np;
  sol->has_duals = 1;
  for (int j = 0; j < dims->nx; ++j)
    read_reals(c, "/multipliers", "costate_", names[j], nn, sol->lam_f,
               dims->nx, j);
  for (int j = 0; j < dims->ny; ++j)
    read_reals(c, "/multipliers", "alg_", names[dims->nx + j], nn, sol->lam_g,
               dims->ny, j);
  for (int j = 0; j < dims->nc; ++j) {
    char k[16];
    snprintf(k, sizeof k, "%d", j);
    read_reals(c, "/multipliers", "path_", k, nn, sol->lam_c, dims->nc, j);
  }
  rc_h5_ds_read_real(c, "/multipliers/boundary", dims->nb, sol->lam_b, 1);
  check_reals(c, "/multipliers", "", "boundary", dims->nb, sol->lam_b, 1);
  for (int j = 0; j < nw; ++j) {
    read_reals(c, "/multipliers", "bound_lo_", names[j], nn, sol->z_lo, nw, j);
    read_reals(c, "/multipliers", "bound_hi_", names[j], nn, sol->z_hi, nw, j);
  }
}

rc_err rc_read_mesh(const char *path, rc_mesh *mesh, rc_error *err) {
  return read_mesh_at(path, -1, mesh, err);
}

rc_err rc_read_phase_mesh(const char *path, int phase, rc_mesh *mesh,
                          rc_error *err) {
  return read_mesh_at(path, phase < 0 ? 0 : phase, mesh, err);
}

static rc_err read_solution_at(const char *path, int phase, rc_solution *sol,
                               char *problem, char *formulation,
                               rc_error *err) {
  if (!sol)
    return rc_error_set(err, RC_ERR_INPUT, "rc_read_solution: sol is NULL");
  memset(sol, 0, sizeof *sol);
  if (problem)
    problem[0] = '\0';
  if (formulation)
    formulation[0] = '\0';
  rc_h5_reader c;
  if (open_at(&c, path, phase, err) != RC_OK)
    return c.rc;
  char buf[64];
  rc_h5_attr_read_str(&c, "/", "problem", buf, sizeof buf, 1);
  if (problem && c.rc == RC_OK)
    snprintf(problem, 64, "%s", buf);
  rc_h5_attr_read_str(&c, "/", "formulation", buf, sizeof buf, 1);
  if (formulation && c.rc == RC_OK)
    snprintf(formulation, 64, "%s", buf);

  rc_solution_dims dims = {0, 0, 0, 0, 0, 0};
  double t0 = 0, tf = 0;
  read_dims(&c, &dims, &t0, &tf);
  rc_mesh mesh = {0};
  read_mesh_open(&c, &mesh);
  int nw = dims.nx + dims.ny + dims.nu + dims.np;
  long nn = c.rc == RC_OK ? rc_mesh_nodes(&mesh) : 0;
  long width = nw > dims.nc ? nw : dims.nc;
  if (c.rc == RC_OK && (double)nn * (width + 1) > (double)RC_IO_MAX_LEN)
    rc_h5_fail(&c, RC_ERR_INPUT, "%s has too many nodes x variables%s", "/mesh",
               NULL);
  int has_duals = c.rc == RC_OK && rc_h5_has_link(&c, "/multipliers");
  char **names = NULL;
  long nnames = 0;
  rc_h5_ds_read_strs(&c, "/problem/variable_names", nw, &names, &nnames);
  if (c.rc == RC_OK)
    rc_h5_check_names(&c, "/problem/variable_names", names, nnames,
                      reserved_names);
  if (c.rc == RC_OK) {
    rc_error e2;
    rc_error_clear(&e2);
    if (rc_solution_alloc_dims(&dims, &mesh, t0, tf, has_duals, sol, &e2) !=
        RC_OK)
      c.rc = rc_error_set(err, e2.code, "%s: %s", c.path, e2.message);
  }
  rc_mesh_free(&mesh);
  if (c.rc == RC_OK) {
    sol->t0 = t0;
    sol->tf = tf;
    rc_h5_ds_read_real(&c, "/solution/time", nn, sol->t, 1);
    check_reals(&c, "/solution", "", "time", nn, sol->t, 1);
    for (int j = 0; j < nw; ++j)
      read_reals(&c, "/solution", "", names[j], nn, sol->w, nw, j);
  }
  if (c.rc == RC_OK && has_duals)
    read_multipliers(&c, &dims, (const char *const *)names, nn, sol);
  rc_h5_free_strs(names, nnames);
  rc_h5_close(&c);
  if (c.rc != RC_OK) {
    rc_solution_free(sol);
    memset(sol, 0, sizeof *sol);
  } else {
    rc_error_clear(err);
  }
  return c.rc;
}

rc_err rc_read_solution(const char *path, rc_solution *sol, char *problem,
                        char *formulation, rc_error *err) {
  return read_solution_at(path, -1, sol, problem, formulation, err);
}

rc_err rc_read_phase_solution(const char *path, int phase, rc_solution *sol,
                              char *problem, char *formulation, rc_error *err) {
  return read_solution_at(path, phase < 0 ? 0 : phase, sol, problem,
                          formulation, err);
}

void rc_free_strings(char **s, int n) {
  rc_h5_free_strs(s, n);
}

static rc_err read_names_at(const char *path, int phase, char ***var, int *nw,
                            char ***out, int *nout, rc_error *err) {
  if (!var || !nw || (!out) != (!nout))
    return rc_error_set(err, RC_ERR_INPUT, "rc_read_names: NULL argument");
  *var = NULL;
  *nw = 0;
  if (out)
    *out = NULL, *nout = 0;
  rc_h5_reader c;
  if (open_at(&c, path, phase, err) != RC_OK)
    return c.rc;
  int nx = 0, ny = 0, nu = 0, np = 0;
  const int big = RC_DIM_MAX;
  rc_h5_attr_read_int(&c, "/problem", "nx", &nx, 0, big);
  rc_h5_attr_read_int(&c, "/problem", "ny", &ny, 0, big);
  rc_h5_attr_read_int(&c, "/problem", "nu", &nu, 0, big);
  rc_h5_attr_read_int(&c, "/problem", "np", &np, 0, big);
  long n1 = 0, n2 = 0;
  char **v = NULL, **o = NULL;
  rc_h5_ds_read_strs(&c, "/problem/variable_names", (long)nx + ny + nu + np, &v,
                     &n1);
  rc_h5_check_names(&c, "/problem/variable_names", v, n1, reserved_names);
  if (out)
    rc_h5_ds_read_strs(&c, "/problem/output_names", -1, &o, &n2);
  rc_h5_check_names(&c, "/problem/output_names", o, n2, reserved_names);
  rc_h5_close(&c);
  if (c.rc != RC_OK) {
    rc_h5_free_strs(v, n1);
    rc_h5_free_strs(o, n2);
    return c.rc;
  }
  *var = v;
  *nw = (int)n1;
  if (out)
    *out = o, *nout = (int)n2;
  rc_error_clear(err);
  return RC_OK;
}

rc_err rc_read_names(const char *path, char ***var, int *nw, char ***out,
                     int *nout, rc_error *err) {
  return read_names_at(path, -1, var, nw, out, nout, err);
}

rc_err rc_read_phase_names(const char *path, int phase, char ***var, int *nw,
                           char ***out, int *nout, rc_error *err) {
  return read_names_at(path, phase < 0 ? 0 : phase, var, nw, out, nout, err);
}

static rc_err read_params_at(const char *path, int phase, const rc_model *model,
                             char ***assign, int *n, rc_error *err) {
  if (!model || !assign || !n)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_read_param_assignments: NULL argument");
  *assign = NULL;
  *n = 0;
  rc_h5_reader c;
  if (open_at(&c, path, phase, err) != RC_OK)
    return c.rc;
  char **a =
      calloc((size_t)(model->nparams > 0 ? model->nparams : 1), sizeof *a);
  int m = 0;
  if (!a)
    rc_h5_fail(&c, RC_ERR_NOMEM, "out of memory reading %s%s", "/problem",
               NULL);
  for (int i = 0; i < model->nparams && c.rc == RC_OK; ++i) {
    const rc_param_def *def = &model->params[i];
    if (!def->name || !def->name[0])
      continue;
    char name[RC_IO_NAME_MAX + 8];
    rc_h5_param_attr_name(def->name, name, sizeof name);
    char where[2 * RC_IO_NAME_MAX];
    snprintf(where, sizeof where, "/problem attribute '%s'", name);
    if (rc_h5_attr_present(&c, "/problem", name, where, 0) <= 0)
      continue;
    char text[RC_IO_NAME_MAX * 4];
    if (def->type != RC_PARAM_REAL) {
      rc_h5_attr_read_str(&c, "/problem", name, text, sizeof text, 1);
      const char *dflt = def->default_text ? def->default_text : "";
      if (c.rc != RC_OK || strcmp(text, dflt) == 0)
        continue;
    } else {
      double v = 0;
      rc_h5_attr_read_num(&c, "/problem", name, &v, 1);
      const double d = def->default_real;
      if (c.rc != RC_OK || v == d || (isnan(v) && isnan(d)))
        continue;
      if (!isfinite(v)) {
        snprintf(text, sizeof text,
                 " is %g, not the default %g: expected a "
                 "finite value",
                 v, d);
        rc_h5_fail(&c, RC_ERR_INPUT, "%s%s", where, text);
        continue;
      }
      snprintf(text, sizeof text, "%.17g", v);
    }
    const size_t len = strlen(def->name) + strlen(text) + 2;
    if (!(a[m] = malloc(len))) {
      rc_h5_fail(&c, RC_ERR_NOMEM, "out of memory reading %s%s", "/problem",
                 NULL);
      break;
    }
    snprintf(a[m++], len, "%s=%s", def->name, text);
  }
  rc_h5_close(&c);
  if (c.rc != RC_OK) {
    rc_h5_free_strs(a, m);
    return c.rc;
  }
  *assign = a;
  *n = m;
  rc_error_clear(err);
  return RC_OK;
}

rc_err rc_read_param_assignments(const char *path, const rc_model *model,
                                 char ***assign, int *n, rc_error *err) {
  return read_params_at(path, -1, model, assign, n, err);
}

rc_err rc_read_phase_param_assignments(const char *path, int phase,
                                       const rc_model *model, char ***assign,
                                       int *n, rc_error *err) {
  return read_params_at(path, phase < 0 ? 0 : phase, model, assign, n, err);
}

rc_err rc_read_param_files(const char *path, const rc_model *model,
                           rc_param_values *pv, rc_error *err) {
  if (!model || !pv)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_read_param_files: NULL argument");
  int any = 0;
  for (int i = 0; i < model->nparams && i < pv->n; ++i)
    any |= model->params[i].type == RC_PARAM_FILE;
  if (!any)
    return RC_OK;
  rc_h5_reader c;
  if (rc_h5_open_result(&c, path, err) != RC_OK)
    return c.rc;
  for (int i = 0; i < model->nparams && i < pv->n && c.rc == RC_OK; ++i) {
    const rc_param_def *def = &model->params[i];
    const char *now = pv->text ? pv->text[i] : NULL;
    if (def->type != RC_PARAM_FILE || !now || !now[0])
      continue;
    char name[RC_IO_NAME_MAX + 8], where[2 * RC_IO_NAME_MAX];
    char recorded[RC_IO_NAME_MAX * 4], dp[2 * RC_IO_NAME_MAX];
    rc_h5_param_attr_name(def->name, name, sizeof name);
    snprintf(where, sizeof where, "/problem attribute '%s'", name);
    snprintf(dp, sizeof dp, "/problem/files/%s", name);
    /* Only for the name the file records (a name set anew is read anew),
     * and only when the file holds the bytes (written since issue 28). */
    if (rc_h5_attr_present(&c, "/problem", name, where, 0) <= 0)
      continue;
    rc_h5_attr_read_str(&c, "/problem", name, recorded, sizeof recorded, 1);
    if (c.rc != RC_OK || strcmp(recorded, now) != 0 ||
        !rc_h5_has_link(&c, "/problem/files") || !rc_h5_has_link(&c, dp))
      continue;
    long n = 0;
    hid_t d = rc_h5_ds_open(&c, dp, H5T_INTEGER, -1, &n);
    if (d < 0)
      break;
    hid_t t = H5Dget_type(d);
    const int bytes = t >= 0 && H5Tget_size(t) == 1;
    if (t >= 0)
      H5Tclose(t);
    unsigned char *buf = NULL;
    if (!bytes || (size_t)n > RC_FILE_PARAM_MAX)
      rc_h5_fail(&c, RC_ERR_INPUT,
                 "dataset %s is not the bytes of a file of at most 64 MiB%s",
                 dp, NULL);
    else if (!(buf = malloc(n > 0 ? (size_t)n : 1)))
      rc_h5_fail(&c, RC_ERR_NOMEM, "out of memory reading %s%s", dp, NULL);
    else if (n > 0 && H5Dread(d, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL,
                              H5P_DEFAULT, buf) < 0)
      rc_h5_fail(&c, RC_ERR_IO, "dataset %s is unreadable (corrupt file?)%s",
                 dp, NULL);
    H5Dclose(d);
    if (c.rc == RC_OK) {
      rc_error e2;
      rc_error_clear(&e2);
      if (rc_params_set_file_data(model, pv, i, buf, (size_t)n, &e2) != RC_OK)
        c.rc = rc_error_set(err, e2.code, "%s: %s", path, e2.message);
    }
    free(buf);
  }
  rc_h5_close(&c);
  if (c.rc == RC_OK)
    rc_error_clear(err);
  return c.rc;
}

/* ====================================================================== */
/* rc_read_result_summary                                                 */
/* ====================================================================== */

void rc_result_summary_free(rc_result_summary *s) {
  if (!s)
    return;
  rc_result_table *t[2] = {&s->reference_error, &s->invariants};
  for (int k = 0; k < 2; ++k) {
    rc_h5_free_strs(t[k]->names, t[k]->n);
    for (int i = 0; i < 3; ++i)
      free(t[k]->v[i]);
    memset(t[k], 0, sizeof *t[k]);
  }
}

/* Read gpath/<namesds> and up to 3 value datasets, if the group exists. */
static rc_err table_read(rc_h5_reader *c, const char *gpath,
                         const char *namesds, const char *const *vals,
                         int nvals, rc_result_table *t) {
  memset(t, 0, sizeof *t);
  if (c->rc != RC_OK || !rc_h5_has_link(c, gpath))
    return c->rc;
  char dp[2 * RC_IO_NAME_MAX];
  snprintf(dp, sizeof dp, "%s/%s", gpath, namesds);
  if (rc_h5_ds_read_strs(c, dp, -1, &t->names, &t->n) != RC_OK)
    return c->rc;
  for (int i = 0; i < nvals && c->rc == RC_OK; ++i) {
    snprintf(dp, sizeof dp, "%s/%s", gpath, vals[i]);
    if (!rc_h5_has_link(c, dp))
      continue;
    t->v[i] = malloc(sizeof *t->v[i] * (size_t)(t->n ? t->n : 1));
    if (!t->v[i])
      rc_h5_fail(c, RC_ERR_NOMEM, "out of memory reading %s%s", dp, NULL);
    rc_h5_ds_read_real(c, dp, t->n, t->v[i], 1);
  }
  return c->rc;
}

static rc_err summary_at(const char *path, int phase, rc_result_summary *s,
                         rc_error *err) {
  if (!s)
    return rc_error_set(err, RC_ERR_INPUT,
                        "rc_read_result_summary: summary is NULL");
  memset(s, 0, sizeof *s);
  rc_h5_reader c;
  if (phase >= 0 ? open_at(&c, path, phase, err) != RC_OK
                 : rc_h5_open_result(&c, path, err) != RC_OK)
    return c.rc;
  enum { S = RC_SUMMARY_STR };
  /* the root of a multiphase file: no /mesh, /solution of its own */
  double nph = 0;
  if (phase < 0 &&
      rc_h5_attr_present(&c, "/", "phases", "root attribute 'phases'", 0) > 0)
    rc_h5_attr_read_num(&c, "/", "phases", &nph, 1);
  s->nphases = nph >= 1 && nph <= 100000 ? (int)nph : 0;
  rc_h5_attr_read_str(&c, "/", "problem", s->problem, S, 0);
  rc_h5_attr_read_str(&c, "/", "formulation", s->formulation, S, 0);
  rc_h5_attr_read_str(&c, "/", "kind", s->kind, S, 0);
  rc_h5_attr_read_str(&c, "/", "status", s->status, S, 0);
  rc_h5_attr_read_str(&c, "/", "radcol_version", s->radcol_version, S, 0);
  rc_h5_attr_read_str(&c, "/", "utc_time", s->utc_time, S, 0);
  rc_h5_attr_read_str(&c, "/", "command_line", s->command_line,
                      sizeof s->command_line, 0);
  /* What it summarises is validated as every other reader does: the mesh
   * (rc_mesh_from_arrays) and a /solution/time of one entry per node. */
  rc_mesh mesh;
  memset(&mesh, 0, sizeof mesh);
  if (s->nphases == 0) /* the root of a multiphase file has no mesh */
    read_mesh_open(&c, &mesh);
  const long nodes = c.rc == RC_OK ? rc_mesh_nodes(&mesh) : 0;
  if (c.rc == RC_OK && s->nphases == 0) {
    long nt = 0;
    hid_t d = rc_h5_ds_open(&c, "/solution/time", H5T_FLOAT, nodes, &nt);
    if (d >= 0)
      H5Dclose(d);
  }
  s->elements = c.rc == RC_OK ? mesh.n : 0;
  s->nodes = nodes;
  s->stages_min = c.rc == RC_OK ? rc_mesh_min_stages(&mesh) : 0;
  s->stages_max = c.rc == RC_OK ? rc_mesh_max_stages(&mesh) : 0;
  rc_mesh_free(&mesh);
  s->t0 = s->tf = s->iterations = s->iterations_last = s->objective = NAN;
  s->constraint_violation = s->wall_s = s->nvars = s->ncons = NAN;
  s->error_estimate = NAN;
  rc_h5_attr_read_num(&c, "/problem", "t0", &s->t0, 0);
  rc_h5_attr_read_num(&c, "/solution", "tf", &s->tf, 0);
  rc_h5_attr_read_num(&c, "/diagnostics", "iterations", &s->iterations_last, 0);
  rc_h5_attr_read_num(&c, "/diagnostics", "objective", &s->objective, 0);
  rc_h5_attr_read_num(&c, "/diagnostics", "constraint_violation",
                      &s->constraint_violation, 0);
  rc_h5_attr_read_num(&c, "/diagnostics", "wall_s", &s->wall_s, 0);
  rc_h5_attr_read_num(&c, "/diagnostics", "nvars", &s->nvars, 0);
  rc_h5_attr_read_num(&c, "/diagnostics", "ncons", &s->ncons, 0);
  /* iterations: the total over the refinement solves (iterations_last: the
   * last solve's); the global error estimate's max (docs/json.md). */
  s->iterations = s->iterations_last;
  if (c.rc == RC_OK && rc_h5_has_link(&c, "/diagnostics/error_estimate"))
    rc_h5_attr_read_num(&c, "/diagnostics/error_estimate", "max",
                        &s->error_estimate, 0);
  if (c.rc == RC_OK && rc_h5_has_link(&c, "/refinement") &&
      rc_h5_has_link(&c, "/refinement/ipopt_iterations")) {
    int *ri = NULL;
    long nr = 0;
    rc_h5_ds_read_int(&c, "/refinement/ipopt_iterations", -1, &ri, &nr);
    if (c.rc == RC_OK && nr > 0) {
      s->iterations = 0.0;
      for (long k = 0; k < nr; ++k)
        s->iterations += ri[k];
    }
    free(ri);
  }
  static const char *const ev[] = {"nodes", "dense", "ends"};
  table_read(&c, "/diagnostics/reference_error", "variables", ev, 3,
             &s->reference_error);
  table_read(&c, "/diagnostics/invariants", "names", ev, 2, &s->invariants);
  rc_h5_close(&c);
  if (c.rc != RC_OK) {
    rc_result_summary_free(s);
    return c.rc;
  }
  rc_error_clear(err);
  return RC_OK;
}

rc_err rc_read_result_summary(const char *path, rc_result_summary *s,
                              rc_error *err) {
  return summary_at(path, -1, s, err);
}

rc_err rc_read_phase_summary(const char *path, int phase, rc_result_summary *s,
                             rc_error *err) {
  return summary_at(path, phase < 0 ? 0 : phase, s, err);
}

void rc_phases_info_free(rc_phases_info *p) {
  if (!p)
    return;
  rc_h5_free_strs(p->names, p->n);
  free(p->start);
  free(p->duration);
  free(p->objective);
  rc_h5_free_strs(p->link_names, p->nlink);
  free(p->link_value);
  free(p->link_lo);
  free(p->link_hi);
  free(p->link_multiplier);
  memset(p, 0, sizeof *p);
}

rc_err rc_read_phases_info(const char *path, rc_phases_info *p, rc_error *err) {
  if (!p)
    return rc_error_set(err, RC_ERR_INPUT, "rc_read_phases_info: NULL");
  memset(p, 0, sizeof *p);
  rc_h5_reader c;
  if (rc_h5_open_result(&c, path, err) != RC_OK)
    return c.rc;
  double nph = 0;
  if (rc_h5_attr_present(&c, "/", "phases", "root attribute 'phases'", 0) > 0)
    rc_h5_attr_read_num(&c, "/", "phases", &nph, 1);
  if (c.rc == RC_OK && nph != 0 &&
      !(nph >= 1 && nph <= 100000 && nph == floor(nph)))
    rc_h5_fail(&c, RC_ERR_INPUT,
               "root attribute 'phases'%s: expected an integer in 1..100000",
               "", NULL);
  const long n = c.rc == RC_OK ? (long)nph : 0;
  if (c.rc == RC_OK && n > 0) {
    long got = 0;
    p->start = malloc(sizeof(double) * (size_t)n);
    p->duration = malloc(sizeof(double) * (size_t)n);
    p->objective = malloc(sizeof(double) * (size_t)n);
    if (!p->start || !p->duration || !p->objective)
      rc_h5_fail(&c, RC_ERR_NOMEM, "out of memory reading %s%s", "/phases",
                 NULL);
    rc_h5_ds_read_strs(&c, "/phases/names", n, &p->names, &got);
    p->n = (int)got;
    rc_h5_ds_read_real(&c, "/phases/start", n, p->start, 1);
    rc_h5_ds_read_real(&c, "/phases/duration", n, p->duration, 1);
    rc_h5_ds_read_real(&c, "/phases/objective", n, p->objective, 1);
    long nl = 0;
    if (c.rc == RC_OK && rc_h5_has_link(&c, "/linkage/names")) {
      rc_h5_ds_read_strs(&c, "/linkage/names", -1, &p->link_names, &nl);
      p->nlink = (int)nl;
      const size_t m = (size_t)(nl ? nl : 1);
      p->link_value = malloc(sizeof(double) * m);
      p->link_lo = malloc(sizeof(double) * m);
      p->link_hi = malloc(sizeof(double) * m);
      p->link_multiplier = malloc(sizeof(double) * m);
      if (!p->link_value || !p->link_lo || !p->link_hi || !p->link_multiplier)
        rc_h5_fail(&c, RC_ERR_NOMEM, "out of memory reading %s%s", "/linkage",
                   NULL);
      rc_h5_ds_read_real(&c, "/linkage/value", nl, p->link_value, 1);
      rc_h5_ds_read_real(&c, "/linkage/lo", nl, p->link_lo, 1);
      rc_h5_ds_read_real(&c, "/linkage/hi", nl, p->link_hi, 1);
      rc_h5_ds_read_real(&c, "/linkage/multiplier", nl, p->link_multiplier, 1);
    }
    for (long k = 0; c.rc == RC_OK && k < n; ++k)
      if (!(isfinite(p->start[k]) && p->duration[k] > 0 &&
            isfinite(p->duration[k]))) {
        char msg[96];
        snprintf(msg, sizeof msg, " [%ld]: start %g, duration %g", k,
                 p->start[k], p->duration[k]);
        rc_h5_fail(&c, RC_ERR_INPUT,
                   "%s%s: expected a finite start and a duration > 0",
                   "/phases", msg);
      }
  }
  rc_h5_close(&c);
  if (c.rc != RC_OK) {
    rc_phases_info_free(p);
    return c.rc;
  }
  rc_error_clear(err);
  return RC_OK;
}
