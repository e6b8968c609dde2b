/*
 * io_hdf5_util.c - private HDF5 helpers of the result writer and readers
 * (io_hdf5_util.h): libhdf5 error silencing, the read context and the
 * validating attribute and dataset readers.
 *
 * Invariants (every reader): nothing in the file is trusted.  A dataset's
 * class, rank, size, storage (in the file, unfiltered, fully written) and
 * length are checked before anything is allocated or read; only hard links
 * are followed; string data must be fixed-length (libhdf5 1.10's global
 * heap reader crashes on damaged variable-length strings, fuzz/known/).
 * (Damaged HDF5 metadata inside an otherwise valid file can still crash
 * libhdf5 1.10 itself; string datasets are fixed-length to keep that
 * surface small.)
 */
#define _DEFAULT_SOURCE /* flock */

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/hdf5_util.h"
#include "radcol/input.h"
#include "radcol/io.h"

static const char *const problem_attr_names[] = {
    "nx", "ny", "nu", "np", "nc", "nb", "index", "free_tf", "t0", "tf", NULL};

void rc_h5_param_attr_name(const char *param, char *name, size_t size) {
  int clash = 0;
  for (int r = 0; problem_attr_names[r]; ++r)
    clash |= strcmp(param, problem_attr_names[r]) == 0;
  snprintf(name, size, "%s%s", clash ? "param_" : "", param);
}

void rc_h5_silence(void) {
  static int first = 1;
  if (first) {
    /* No exit-time cleanup: after a failed H5Fclose (out of memory) the
     * cleanup libhdf5 1.10 registers with atexit crashed in H5F__close_cb
     * (issue 28 item 2).  Every file is closed explicitly; the library's
     * remaining memory is returned by the exit itself. */
    H5dont_atexit();
    first = 0;
  }
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

rc_err rc_h5_begin(size_t bytes, const char *path, rc_error *err) {
  const size_t need = bytes + RC_H5_OVERHEAD;
  /* Reserve and give back: under an address-space limit (ulimit -v) the
   * memory libhdf5 is about to take is there afterwards.  The pointer is
   * volatile so the compiler keeps the pair. */
  void *volatile probe = malloc(need);
  if (!probe)
    return rc_error_set(err, RC_ERR_NOMEM,
                        "%s: out of memory: libhdf5 would need about %zu MB "
                        "(nothing done: libhdf5 1.10 crashes when its own "
                        "allocations fail, so radcol asks first)",
                        path ? path : "(null)", (need >> 20) + 1);
  free(probe);
  rc_h5_silence();
  return RC_OK;
}

rc_err rc_h5_fail(rc_h5_reader *c, rc_err code, const char *fmt,
                  const char *obj, const char *extra) {
  if (c->rc != RC_OK)
    return c->rc;
  char msg[4 * RC_MESSAGE_MAX];
  snprintf(msg, sizeof msg, fmt, obj, extra ? extra : "");
  if (c->prefix[0])
    c->rc = rc_error_set(c->err, code, "%s (group %s): %s", c->path, c->prefix,
                         msg);
  else
    c->rc = rc_error_set(c->err, code, "%s: %s", c->path, msg);
  return c->rc;
}

/* HDF5 files start with this signature at offset 0, 512, 1024, 2048, ...
 * Read from the descriptor radcol opened (not by name again). */
static int has_hdf5_signature(int fd) {
  static const unsigned char sig[8] = {0x89, 'H',  'D',  'F',
                                       '\r', '\n', 0x1a, '\n'};
  for (off_t off = 0; off <= (1L << 20); off = off ? 2 * off : 512) {
    unsigned char buf[8];
    if (pread(fd, buf, 8, off) != 8)
      return 0;
    if (memcmp(buf, sig, 8) == 0)
      return 1;
  }
  return 0;
}

/* libhdf5 opens files by name.  The name it gets is /proc/self/fd/N of the
 * descriptor radcol opened and checked (rc_input_open_fd) when that refers
 * to the same file, so the file checked is the file read (a name swapped
 * for a FIFO in between cannot block libhdf5's open); else the path. */
static const char *name_for_hdf5(int fd, const char *path, char *buf,
                                 size_t size) {
  struct stat a, b;
  snprintf(buf, size, "/proc/self/fd/%d", fd);
  if (fstat(fd, &a) == 0 && stat(buf, &b) == 0 && a.st_dev == b.st_dev &&
      a.st_ino == b.st_ino)
    return buf;
  return path;
}

/* H5Fopen read-only.  libhdf5 1.10 takes a shared flock on the file and
 * fails when it cannot; radcol replaces files by rename and never writes
 * one in place, so where the file system cannot lock at all (flock fails
 * with ENOLCK, e.g. NFS without a lock manager, ENOSYS, EOPNOTSUPP) the
 * file is opened without HDF5's file locking.  *locked_out is set when
 * another process holds an exclusive lock (an HDF5 writer modifying the
 * file in place). */
static hid_t open_read_only(const char *name, int fd, int *locked_out) {
  *locked_out = 0;
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (fapl >= 0)
    H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG);
  hid_t file = H5Fopen(name, H5F_ACC_RDONLY, fapl);
  if (file < 0 && fapl >= 0) {
    if (flock(fd, LOCK_SH | LOCK_NB) == 0)
      flock(fd,
            LOCK_UN); /* locking works: the open failed for another reason */
    else if (errno == EWOULDBLOCK)
      *locked_out = 1;
    else if (H5Pset_file_locking(fapl, 0, 1) >= 0)
      file = H5Fopen(name, H5F_ACC_RDONLY, fapl);
  }
  if (fapl >= 0)
    H5Pclose(fapl);
  return file;
}

/* Open a result file (a regular file with the HDF5 signature). */
static rc_err rc_h5_open(rc_h5_reader *c, const char *path, rc_error *err) {
  c->path = path ? path : "(null)";
  c->err = err;
  c->rc = RC_OK;
  c->file = -1;
  c->prefix[0] = '\0';
  if (rc_h5_begin(0, c->path, err) != RC_OK)
    return c->rc = RC_ERR_NOMEM;
  rc_error e;
  rc_error_clear(&e);
  const int fd = rc_input_open_fd(path, NULL, &e);
  if (fd < 0)
    return c->rc = rc_error_set(
               err, e.code, "%s%s", e.message,
               e.code == RC_ERR_INPUT ? " (expected an HDF5 result file)" : "");
  if (!has_hdf5_signature(fd)) {
    close(fd);
    return c->rc = rc_error_set(err, RC_ERR_INPUT,
                                "%s: not an HDF5 file (expected a %s file)",
                                path, RC_FORMAT_NAME);
  }
  char proc[64];
  int locked = 0;
  c->file =
      open_read_only(name_for_hdf5(fd, path, proc, sizeof proc), fd, &locked);
  close(fd);
  if (c->file < 0 && locked)
    return c->rc = rc_error_set(err, RC_ERR_IO,
                                "%s: locked by another process (an HDF5 "
                                "program writing it in place?): try again "
                                "when it has closed the file",
                                path);
  if (c->file < 0)
    return c->rc = rc_error_set(err, RC_ERR_IO,
                                "%s: cannot open as HDF5 (truncated or "
                                "corrupt file?)",
                                path);
  return RC_OK;
}

void rc_h5_set_prefix(rc_h5_reader *c, const char *prefix) {
  snprintf(c->prefix, sizeof c->prefix, "%s", prefix ? prefix : "");
}

/* path under the prefix: "/" becomes the prefix itself. */
static const char *full_path(const rc_h5_reader *c, const char *path, char *buf,
                             size_t len) {
  if (!c->prefix[0] || path[0] != '/')
    return path;
  snprintf(buf, len, "%s%s", c->prefix, strcmp(path, "/") == 0 ? "" : path);
  return buf;
}

void rc_h5_close(rc_h5_reader *c) {
  if (c->file >= 0)
    H5Fclose(c->file);
  c->file = -1;
}

/* Does the link gpath exist (every component checked)?  Each component is
 * looked at with H5Lget_info before anything follows it: only hard links
 * inside the file are used; a soft or external link (which could point at
 * another file, a FIFO or a device) records RC_ERR_INPUT and gives 0. */
int rc_h5_has_link(rc_h5_reader *c, const char *gpath) {
  char full[2 * RC_IO_NAME_MAX + 64];
  gpath = full_path(c, gpath, full, sizeof full);
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
        rc_h5_fail(c, RC_ERR_IO, "link %s cannot be read (corrupt file?)%s",
                   buf, NULL);
        return 0;
      }
      if (info.type != H5L_TYPE_HARD) {
        rc_h5_fail(c, RC_ERR_INPUT,
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
int rc_h5_attr_present(rc_h5_reader *c, const char *obj, const char *name,
                       const char *where, int required) {
  if ((strcmp(obj, "/") != 0 || c->prefix[0]) && !rc_h5_has_link(c, obj)) {
    if (required)
      rc_h5_fail(c, RC_ERR_INPUT, "%s is missing (no object)%s", where, NULL);
    return c->rc == RC_OK ? 0 : -1;
  }
  char full[2 * RC_IO_NAME_MAX + 64];
  const htri_t ex = H5Aexists_by_name(
      c->file, full_path(c, obj, full, sizeof full), name, H5P_DEFAULT);
  if (ex < 0) {
    rc_h5_fail(
        c, RC_ERR_IO,
        "%s cannot be read: damaged HDF5 metadata (checksum or structure "
        "error)%s",
        where, NULL);
    return -1;
  }
  if (ex == 0 && required)
    rc_h5_fail(c, RC_ERR_INPUT, "%s is missing%s", where, NULL);
  return ex > 0;
}

/* An open attribute with its type and dataspace (-1: not open). */
typedef struct h5_attr {
  hid_t a, t, sp;
} h5_attr;

/* Open attribute name of obj with its type and space; where (size
 * 2 RC_IO_NAME_MAX) names it for messages.  0 after an earlier failure or
 * when it is absent (a failure if required), else 1 (a, t or sp may be -1:
 * the caller reports it). */
static int attr_open(rc_h5_reader *c, const char *obj, const char *name,
                     int required, char *where, h5_attr *h) {
  snprintf(where, 2 * RC_IO_NAME_MAX, "%s attribute '%s'", obj, name);
  h->a = h->t = h->sp = -1;
  if (c->rc != RC_OK || rc_h5_attr_present(c, obj, name, where, required) <= 0)
    return 0;
  char full[2 * RC_IO_NAME_MAX + 64];
  h->a = H5Aopen_by_name(c->file, full_path(c, obj, full, sizeof full), name,
                         H5P_DEFAULT, H5P_DEFAULT);
  h->t = h->a < 0 ? -1 : H5Aget_type(h->a);
  h->sp = h->a < 0 ? -1 : H5Aget_space(h->a);
  return 1;
}

static void attr_close(h5_attr *h) {
  if (h->sp >= 0)
    H5Sclose(h->sp);
  if (h->t >= 0)
    H5Tclose(h->t);
  if (h->a >= 0)
    H5Aclose(h->a);
}

/* Read a string attribute (fixed or variable length) into buf. */
rc_err rc_h5_attr_read_str(rc_h5_reader *c, const char *obj, const char *name,
                           char *buf, size_t size, int required) {
  char where[2 * RC_IO_NAME_MAX];
  h5_attr h;
  buf[0] = '\0';
  if (!attr_open(c, obj, name, required, where, &h))
    return c->rc;
  const hid_t a = h.a, t = h.t, sp = h.sp;
  int ok = a >= 0 && t >= 0 && sp >= 0 && H5Tget_class(t) == H5T_STRING &&
           H5Sget_simple_extent_npoints(sp) == 1;
  if (!ok) {
    rc_h5_fail(c, a < 0 ? RC_ERR_IO : RC_ERR_INPUT,
               "%s is unreadable or not one string%s", where, NULL);
  } else if (H5Tis_variable_str(t) != 0) {
    /* never written by radcol; see attr_str for why it is not read */
    rc_h5_fail(c, RC_ERR_INPUT,
               "%s is a variable-length string: expected a fixed-length string "
               "(not a file written by this radcol)%s",
               where, NULL);
  } else {
    size_t n = H5Tget_size(t);
    char *v = n > 0 && n < (1u << 20) ? calloc(n + 1, 1) : NULL;
    hid_t mt = H5Tcopy(t);
    if (!v || mt < 0 || H5Aread(a, mt, v) < 0)
      rc_h5_fail(c, RC_ERR_IO, "%s is unreadable%s", where, NULL);
    else
      snprintf(buf, size, "%s", v);
    if (mt >= 0)
      H5Tclose(mt);
    free(v);
  }
  attr_close(&h);
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
rc_err rc_h5_attr_read_num(rc_h5_reader *c, const char *obj, const char *name,
                           double *val, int required) {
  char where[2 * RC_IO_NAME_MAX];
  h5_attr h;
  if (!attr_open(c, obj, name, required, where, &h))
    return c->rc;
  const hid_t a = h.a, t = h.t, sp = h.sp;
  H5T_class_t cl = t < 0 ? H5T_NO_CLASS : H5Tget_class(t);
  if (a < 0 || t < 0 || sp < 0 || (cl != H5T_INTEGER && cl != H5T_FLOAT) ||
      !plain_number_type(t) || H5Sget_simple_extent_npoints(sp) != 1)
    rc_h5_fail(c, RC_ERR_INPUT, "%s is unreadable or not one number%s", where,
               NULL);
  else if (H5Aread(a, H5T_NATIVE_DOUBLE, val) < 0)
    rc_h5_fail(c, RC_ERR_IO, "%s is unreadable%s", where, NULL);
  attr_close(&h);
  return c->rc;
}

rc_err rc_h5_attr_read_int(rc_h5_reader *c, const char *obj, const char *name,
                           int *val, int lo, int hi) {
  double v = 0;
  if (rc_h5_attr_read_num(c, obj, name, &v, 1) != RC_OK)
    return c->rc;
  if (!(v >= lo && v <= hi && v == floor(v))) {
    char where[2 * RC_IO_NAME_MAX], msg[64];
    snprintf(where, sizeof where, "%s attribute '%s'", obj, name);
    snprintf(msg, sizeof msg, " is %g: expected an integer in %d..%d", v, lo,
             hi);
    return rc_h5_fail(c, RC_ERR_INPUT, "%s%s", where, msg);
  }
  *val = (int)v;
  return RC_OK;
}

/* Open a 1-D dataset of the given class; *n gets its length.  If expect >= 0
 * the length must equal it. */
hid_t rc_h5_ds_open(rc_h5_reader *c, const char *dpath, H5T_class_t cls,
                    long expect, long *n) {
  if (c->rc != RC_OK)
    return -1;
  if (!rc_h5_has_link(c, dpath)) {
    rc_h5_fail(c, RC_ERR_INPUT, "dataset %s is missing%s", dpath, NULL);
    return -1;
  }
  /* What the link names: a group or a named datatype where a dataset
   * belongs is wrong content (bad input), not a damaged file. */
  char full[2 * RC_IO_NAME_MAX + 64];
  hid_t d =
      H5Oopen(c->file, full_path(c, dpath, full, sizeof full), H5P_DEFAULT);
  if (d < 0) {
    rc_h5_fail(c, RC_ERR_IO, "dataset %s is unreadable%s", dpath, NULL);
    return -1;
  }
  const H5I_type_t what = H5Iget_type(d);
  if (what != H5I_DATASET) {
    H5Oclose(d);
    rc_h5_fail(c, RC_ERR_INPUT, "%s is %s: expected a dataset", dpath,
               what == H5I_GROUP      ? "a group"
               : what == H5I_DATATYPE ? "a named datatype"
                                      : "not a dataset");
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
  else if (cl == H5T_STRING && (tsize < 1 || tsize > RC_IO_STR_MAX))
    snprintf(msg, sizeof msg, " holds strings of %zu bytes: expected 1..%d",
             tsize, RC_IO_STR_MAX);
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
    rc_h5_fail(c, RC_ERR_INPUT, "dataset %s%s", dpath, msg);
    return -1;
  }
  *n = (long)dims[0];
  return d;
}

/* Read a 1-D real dataset of length expect into out[i*stride]. */
rc_err rc_h5_ds_read_real(rc_h5_reader *c, const char *dpath, long expect,
                          double *out, int stride) {
  long n = 0;
  hid_t d = rc_h5_ds_open(c, dpath, H5T_FLOAT, expect, &n);
  if (d < 0)
    return c->rc;
  double *tmp = stride == 1 ? out : malloc(sizeof *tmp * (size_t)(n ? n : 1));
  if (!tmp)
    rc_h5_fail(c, RC_ERR_NOMEM, "out of memory reading %s%s", dpath, NULL);
  else if (n > 0 && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                            tmp) < 0)
    rc_h5_fail(c, RC_ERR_IO, "dataset %s is unreadable (corrupt file?)%s",
               dpath, NULL);
  else if (stride != 1)
    for (long i = 0; i < n; ++i)
      out[i * stride] = tmp[i];
  if (tmp && tmp != out)
    free(tmp);
  H5Dclose(d);
  return c->rc;
}

/* Read a 1-D integer dataset; if expect < 0 allocate *out with its length. */
rc_err rc_h5_ds_read_int(rc_h5_reader *c, const char *dpath, long expect,
                         int **out, long *n) {
  hid_t d = rc_h5_ds_open(c, dpath, H5T_INTEGER, expect, n);
  if (d < 0)
    return c->rc;
  /* Read as 64-bit (libhdf5 would clip a wider value to INT_MAX), then
   * every value must fit an int. */
  long long *wide = malloc(sizeof *wide * (size_t)(*n ? *n : 1));
  if (!wide ||
      (!*out && !(*out = malloc(sizeof **out * (size_t)(*n ? *n : 1)))))
    rc_h5_fail(c, RC_ERR_NOMEM, "out of memory reading %s%s", dpath, NULL);
  else if (*n > 0 && H5Dread(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                             wide) < 0)
    rc_h5_fail(c, RC_ERR_IO, "dataset %s is unreadable (corrupt file?)%s",
               dpath, NULL);
  for (long i = 0; c->rc == RC_OK && i < *n; ++i) {
    if (wide[i] < INT_MIN || wide[i] > INT_MAX) {
      char msg[96];
      snprintf(msg, sizeof msg, "[%ld] is %lld: expected a 32-bit integer", i,
               wide[i]);
      rc_h5_fail(c, RC_ERR_INPUT, "dataset %s%s", dpath, msg);
    } else {
      (*out)[i] = (int)wide[i];
    }
  }
  free(wide);
  H5Dclose(d);
  return c->rc;
}

void rc_h5_free_strs(char **s, long n) {
  for (long i = 0; s && i < n; ++i)
    free(s[i]);
  free(s);
}

/* Read a 1-D string dataset into a malloc'd array of malloc'd strings. */
rc_err rc_h5_ds_read_strs(rc_h5_reader *c, const char *dpath, long expect,
                          char ***out, long *n) {
  *out = NULL;
  hid_t d = rc_h5_ds_open(c, dpath, H5T_STRING, expect, n);
  if (d < 0)
    return c->rc;
  char **s = calloc((size_t)(*n ? *n : 1), sizeof *s);
  hid_t t = H5Dget_type(d);
  hid_t mt = t < 0 ? -1 : H5Tcopy(t);
  if (!s || mt < 0) {
    rc_h5_fail(c, RC_ERR_NOMEM, "out of memory reading %s%s", dpath, NULL);
  } else if (*n > 0) {
    size_t w = H5Tget_size(t);
    char *v = w > 0 && w <= RC_IO_STR_MAX ? calloc((size_t)*n, w) : NULL;
    if (!v || H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0)
      rc_h5_fail(c, RC_ERR_IO, "dataset %s is unreadable (corrupt file?)%s",
                 dpath, NULL);
    for (long i = 0; i < *n && c->rc == RC_OK; ++i) {
      if (!(s[i] = calloc(w + 1, 1)))
        rc_h5_fail(c, RC_ERR_NOMEM, "out of memory reading %s%s", dpath, NULL);
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
    rc_h5_free_strs(s, *n);
  else
    *out = s;
  return c->rc;
}

/* Open path, check format = radcol-result and a supported format_version. */
rc_err rc_h5_open_result(rc_h5_reader *c, const char *path, rc_error *err) {
  if (rc_h5_open(c, path, err) != RC_OK)
    return c->rc;
  char fmt[64];
  if (H5Aexists_by_name(c->file, "/", "format", H5P_DEFAULT) <= 0)
    c->rc = rc_error_set(err, RC_ERR_INPUT,
                         "%s: root attribute 'format' is missing: expected "
                         "\"%s\" (not a radcol result file)",
                         path, RC_FORMAT_NAME);
  rc_h5_attr_read_str(c, "/", "format", fmt, sizeof fmt, 1);
  if (c->rc == RC_OK && strcmp(fmt, RC_FORMAT_NAME) != 0) {
    c->rc = rc_error_set(err, RC_ERR_INPUT,
                         "%s: root attribute 'format' is \"%s\": expected "
                         "\"%s\" (not a radcol result file)",
                         path, fmt, RC_FORMAT_NAME);
  }
  double ver = 0;
  rc_h5_attr_read_num(c, "/", "format_version", &ver, 1);
  if (c->rc == RC_OK && !(ver >= 1 && ver <= RC_FORMAT_VERSION))
    c->rc = rc_error_set(err, RC_ERR_INPUT,
                         "%s: format_version %g: expected 1..%d (written by a "
                         "newer radcol?)",
                         path, ver, RC_FORMAT_VERSION);
  if (c->rc != RC_OK)
    rc_h5_close(c);
  return c->rc;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

rc_err rc_h5_check_names(rc_h5_reader *c, const char *dpath, char **names,
                         long n, const char *const *reserved) {
  for (long i = 0; c->rc == RC_OK && i < n; ++i) {
    const char *s = names[i];
    const char *why = NULL;
    if (!s[0])
      why = "empty";
    else if (strlen(s) >= RC_IO_NAME_MAX)
      why = "too long";
    else if (strchr(s, '/') || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
      why = "not usable as a dataset name";
    for (int r = 0; !why && reserved && reserved[r]; ++r)
      if (strcmp(s, reserved[r]) == 0)
        why = "a name the result layout reserves";
    if (why) {
      char msg[160 + RC_IO_NAME_MAX];
      snprintf(msg, sizeof msg,
               "[%ld] is \"%.*s\" (%s): expected a non-empty name without "
               "'/', shorter than %d bytes",
               i, RC_IO_NAME_MAX, s, why, RC_IO_NAME_MAX);
      return rc_h5_fail(c, RC_ERR_INPUT, "dataset %s%s", dpath, msg);
    }
  }
  if (c->rc != RC_OK || n < 2)
    return c->rc;
  const char **sorted = malloc(sizeof *sorted * (size_t)n);
  if (!sorted)
    return rc_h5_fail(c, RC_ERR_NOMEM, "out of memory checking %s%s", dpath,
                      NULL);
  memcpy(sorted, names, sizeof *sorted * (size_t)n);
  qsort(sorted, (size_t)n, sizeof *sorted, cmp_str);
  for (long i = 1; i < n; ++i)
    if (strcmp(sorted[i], sorted[i - 1]) == 0) {
      char msg[64 + RC_IO_NAME_MAX];
      snprintf(msg, sizeof msg,
               " names \"%s\" twice: expected distinct names (each is a "
               "dataset of its own)",
               sorted[i]);
      rc_h5_fail(c, RC_ERR_INPUT, "dataset %s%s", dpath, msg);
      break;
    }
  free(sorted);
  return c->rc;
}
