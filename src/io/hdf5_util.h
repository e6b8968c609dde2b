/*
 * io_hdf5_util.h - private HDF5 helpers shared by the result writer
 * (io_write.c) and the validated readers (io_read.c).  Not installed: it
 * exposes hid_t.  Only io_hdf5_util.c, io_write.c and io_read.c include
 * hdf5.h (through this header).
 *
 * What it holds
 *   rc_h5_silence    : switch off libhdf5's automatic error printing.
 *   rc_h5_reader     : a read context, the first failure recorded in it and
 *                      every later helper call a no-op (the readers read as
 *                      straight sequences).
 *   rc_h5_open_result: open a file and check format = radcol-result and a
 *                      supported format_version.
 *   rc_h5_attr_*, rc_h5_ds_*: attribute and 1-D dataset readers that check
 *                      type, rank, size and storage before reading.
 *
 * Invariants
 *   - Readers trust nothing in the file: every dataset's type, rank and size
 *     is checked before anything is allocated or read (docs/robustness.md).
 *     Missing or unreadable files are RC_ERR_IO; readable HDF5 with the
 *     wrong content is RC_ERR_INPUT.
 *   - Only hard links inside the file are followed (rc_h5_has_link).
 */
#ifndef RADCOL_IO_HDF5_UTIL_H
#define RADCOL_IO_HDF5_UTIL_H

#include <stddef.h>

#include <hdf5.h>

#include "radcol/errors.h"

/* Largest 1-D dataset a reader accepts (guards allocations against corrupt
 * size fields). */
#define RC_IO_MAX_LEN (1L << 27)
#define RC_IO_NAME_MAX 256
/* Widest fixed-length string a reader accepts (bytes per entry). */
#define RC_IO_STR_MAX 4096

void rc_h5_silence(void);

/* Memory libhdf5 1.10 takes besides a file's own bytes (its library state,
 * the metadata cache of an open file, free lists), with a margin. */
#define RC_H5_OVERHEAD ((size_t)4 << 20)

/* Before any libhdf5 work on path: bytes + RC_H5_OVERHEAD of memory must be
 * available (a malloc and free of that size), else RC_ERR_NOMEM naming it;
 * then rc_h5_silence.  libhdf5 1.10 dereferences NULL when one of its own
 * allocations fails (H5AC_create under H5Fcreate, its error stack), so an
 * out-of-memory run must stop before libhdf5 starts. */
rc_err rc_h5_begin(size_t bytes, const char *path, rc_error *err);

/* The /problem attribute that holds model parameter param: param itself,
 * or param_<param> when param is also the name of one of the /problem
 * attributes that are not parameters (nx, ..., t0, tf).  name has size
 * bytes (truncated). */
void rc_h5_param_attr_name(const char *param, char *name, size_t size);

typedef struct rc_h5_reader {
  const char *path;
  rc_error *err;
  rc_err rc;
  hid_t file;
  /* Prepended to every absolute object path the helpers take ("" after
   * rc_h5_open_result): "/phases/2" reads phase 2 of a multiphase file with
   * the one-phase paths ("/" is then the phase's group). */
  char prefix[48];
} rc_h5_reader;

/* Read under prefix (docs/hdf5-layout.md, "Multiphase files"). */
void rc_h5_set_prefix(rc_h5_reader *c, const char *prefix);

/* Record the first failure: "<path>: <fmt with obj, extra>". */
rc_err rc_h5_fail(rc_h5_reader *c, rc_err code, const char *fmt,
                  const char *obj, const char *extra);

/* Open path, check format = radcol-result and a supported format_version;
 * on failure the file is closed again. */
rc_err rc_h5_open_result(rc_h5_reader *c, const char *path, rc_error *err);
void rc_h5_close(rc_h5_reader *c);

/* Does the link gpath exist (every component checked, hard links only)? */
int rc_h5_has_link(rc_h5_reader *c, const char *gpath);

/* Whether attribute name of obj exists: 1 yes; 0 no (an error when
 * required); -1 libhdf5 could not tell. */
int rc_h5_attr_present(rc_h5_reader *c, const char *obj, const char *name,
                       const char *where, int required);
/* A fixed-length string attribute into buf (size bytes, truncated). */
rc_err rc_h5_attr_read_str(rc_h5_reader *c, const char *obj, const char *name,
                           char *buf, size_t size, int required);
/* A numeric scalar attribute as double (left as it was when absent and not
 * required). */
rc_err rc_h5_attr_read_num(rc_h5_reader *c, const char *obj, const char *name,
                           double *val, int required);
/* A required integer attribute in lo..hi. */
rc_err rc_h5_attr_read_int(rc_h5_reader *c, const char *obj, const char *name,
                           int *val, int lo, int hi);

/* Open a 1-D dataset of class cls; *n gets its length (must equal expect
 * when expect >= 0).  Returns the dataset (close with H5Dclose) or -1. */
hid_t rc_h5_ds_open(rc_h5_reader *c, const char *dpath, H5T_class_t cls,
                    long expect, long *n);
/* A 1-D real dataset of length expect into out[i*stride]. */
rc_err rc_h5_ds_read_real(rc_h5_reader *c, const char *dpath, long expect,
                          double *out, int stride);
/* A 1-D integer dataset; if *out is NULL it is malloc'd with the length. */
rc_err rc_h5_ds_read_int(rc_h5_reader *c, const char *dpath, long expect,
                         int **out, long *n);
/* A 1-D string dataset into a malloc'd array of malloc'd strings. */
rc_err rc_h5_ds_read_strs(rc_h5_reader *c, const char *dpath, long expect,
                          char ***out, long *n);
void rc_h5_free_strs(char **s, long n);
/* The names of dataset dpath (n entries) name datasets of their own: each
 * non-empty, shorter than RC_IO_NAME_MAX, without '/', not "." or "..", not
 * one of reserved (NULL-terminated, may be NULL), all distinct; else
 * RC_ERR_INPUT naming the dataset and the entry. */
rc_err rc_h5_check_names(rc_h5_reader *c, const char *dpath, char **names,
                         long n, const char *const *reserved);

#endif
