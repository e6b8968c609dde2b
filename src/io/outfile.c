/*
 * outfile.c - output files that cannot be redirected and are never left
 * half-written (outfile.h; policy in docs/robustness.md).
 *
 * Threats and answers
 *   - A name planted in the target's directory (a symlink at a predictable
 *     temporary name, another writer with the same pid in another PID
 *     namespace): the temporary name carries 72 random bits (getrandom) and
 *     is created with O_CREAT | O_EXCL | O_NOFOLLOW, so radcol only ever
 *     writes to an inode it has just created itself; the bytes are written
 *     through that file descriptor (libhdf5 never opens the path, see
 *     rc_write_result).
 *   - The target exists but is not a regular file (a device, a FIFO, a
 *     symlink, a directory): refused with RC_ERR_INPUT before anything is
 *     created (rc_output_check) and again just before the rename.
 *   - A failed write (ENOSPC, EFBIG under ulimit -f): RC_ERR_IO, the
 *     temporary file is removed, the target is untouched.
 *   - SIGINT/SIGTERM during the write: the CLI's handler calls
 *     rc_io_remove_partial_output, which unlinks the precomputed temporary
 *     path (async-signal-safe).
 *   - SIGKILL: the temporary file stays; it is unlocked once its writer is
 *     gone, so the next open in that directory (for any target) removes it
 *     (only names of radcol's exact pattern, regular files owned by the
 *     caller's uid, on which flock(LOCK_EX | LOCK_NB) succeeds; the lock is
 *     held while unlinking, and a new writer re-checks after locking that
 *     its name was not removed in between, so a live writer's file is never
 *     taken).  An output name of that pattern is refused (rc_output_check):
 *     a finished file there would be swept as stale.
 *   - The writer holds a *shared* lock (LOCK_SH): it keeps the sweep's
 *     exclusive lock out just as well, and libhdf5 1.10, which takes a
 *     shared lock when it opens a file for reading, can open the new file
 *     at once after the rename (with LOCK_EX a reader in the moment
 *     between rename and close got "truncated or corrupt file?").
 *   - A file system that cannot lock (flock fails with ENOLCK, e.g. NFS
 *     without a lock manager; ENOSYS; EOPNOTSUPP): the temporary file is
 *     written unlocked; the sweep cannot lock there either, so it removes
 *     nothing (a stale temporary stays).  Any other lock failure removes
 *     the temporary file and names the error.
 */
#define _GNU_SOURCE /* O_NOFOLLOW, O_CLOEXEC, O_DIRECTORY, getrandom */

#include "io/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "radcol/io.h"

#define TMP_TAG ".tmp.radcol."
#define TMP_RANDOM 12 /* characters of [a-z0-9], 6 bits each taken */
/* "." + base + TMP_TAG + random: what a temporary adds to the base name */
#define TMP_EXTRA (1 + (int)(sizeof TMP_TAG - 1) + TMP_RANDOM)
#ifndef NAME_MAX
#define NAME_MAX 255
#endif

static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";

/* The temporary path of the open output file, for the signal handler. */
static char sig_tmp[PATH_MAX];
static volatile sig_atomic_t sig_armed;

void rc_io_remove_partial_output(void) {
  if (sig_armed)
    unlink(sig_tmp); /* async-signal-safe */
}

/* Split path into its directory ("." when none) and base name. */
static const char *base_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  size_t n = slash ? (size_t)(slash - path) : 0;
  if (slash && n == 0)
    n = 1; /* "/name" */
  char *d = malloc(n + 2);
  if (!d)
    return NULL;
  if (slash)
    memcpy(d, path, n);
  else
    d[n++] = '.';
  d[n] = '\0';
  return d;
}

/* Length of the base name's part used in temporary names: at most
 * NAME_MAX - TMP_EXTRA bytes, cut before a UTF-8 continuation byte. */
static size_t tmp_base_len(const char *base) {
  size_t n = strlen(base);
  const size_t max = NAME_MAX - TMP_EXTRA;
  if (n <= max)
    return n;
  n = max;
  while (n > 0 && ((unsigned char)base[n] & 0xC0) == 0x80)
    --n;
  return n;
}

/* Is name ".<base>.tmp.radcol.<12 of alphabet>" for some non-empty base? */
static int is_temp_name(const char *name) {
  const size_t n = strlen(name), tag = sizeof TMP_TAG - 1;
  if (name[0] != '.' || n < 2 + tag + TMP_RANDOM)
    return 0;
  const char *rnd = name + n - TMP_RANDOM;
  return strncmp(rnd - tag, TMP_TAG, tag) == 0 &&
         strspn(rnd, alphabet) == TMP_RANDOM;
}

rc_err rc_output_check(const char *path, rc_error *err) {
  if (!path || !path[0])
    return rc_error_set(err, RC_ERR_INPUT,
                        "output path is empty: expected "
                        "a file name");
  const char *base = base_of(path);
  if (!base[0] || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: expected a file name, not a directory", path);
  if (strlen(base) > NAME_MAX)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%.64s...: file name of %zu bytes: expected at most %d",
                        path, strlen(base), NAME_MAX);
  if (strlen(path) + TMP_EXTRA >= PATH_MAX)
    return rc_error_set(err, RC_ERR_INPUT,
                        "%.64s...: path of %zu bytes: expected at most %d "
                        "(room for the temporary file)",
                        path, strlen(path), PATH_MAX - 1 - TMP_EXTRA);
  if (is_temp_name(base))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: a name of the pattern of radcol's temporary "
                        "files (.NAME%sXXXXXXXXXXXX), which a later write "
                        "would remove as stale: expected another name",
                        path, TMP_TAG);
  struct stat st;
  if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return rc_error_set(err, RC_ERR_INPUT,
                        "%s: exists and is %s: expected a regular file or a "
                        "new name (radcol replaces only regular files)",
                        path,
                        S_ISDIR(st.st_mode)    ? "a directory"
                        : S_ISLNK(st.st_mode)  ? "a symbolic link"
                        : S_ISCHR(st.st_mode)  ? "a character device"
                        : S_ISBLK(st.st_mode)  ? "a block device"
                        : S_ISFIFO(st.st_mode) ? "a FIFO"
                        : S_ISSOCK(st.st_mode) ? "a socket"
                                               : "not a regular file");
  return RC_OK;
}

/* 12 random characters; getrandom, else a clock/pid/counter mix (still
 * unique in practice: O_EXCL retries on a clash). */
static void random_name(char *out) {
  unsigned char r[TMP_RANDOM];
  static unsigned long counter;
  if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long long x = (unsigned long long)ts.tv_nsec ^
                           ((unsigned long long)ts.tv_sec << 20) ^
                           ((unsigned long long)getpid() << 40) ^ ++counter;
    for (int i = 0; i < TMP_RANDOM; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      r[i] = (unsigned char)x;
    }
  }
  for (int i = 0; i < TMP_RANDOM; ++i)
    out[i] = alphabet[r[i] % (sizeof alphabet - 1)];
  out[TMP_RANDOM] = '\0';
}

/* Remove the temporaries in dir whose writer is gone (no lock), of any
 * target. */
static void remove_stale(const char *dir) {
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return;
  DIR *d = fdopendir(dfd);
  if (!d) {
    close(dfd);
    return;
  }
  const uid_t me = geteuid();
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!is_temp_name(e->d_name))
      continue;
    struct stat st, fst;
    if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(st.st_mode) || st.st_uid != me)
      continue;
    int fd = openat(dfd, e->d_name,
                    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
      continue;
    if (fstat(fd, &fst) == 0 && fst.st_dev == st.st_dev &&
        fst.st_ino == st.st_ino && flock(fd, LOCK_EX | LOCK_NB) == 0) {
      /* Unlocked: its writer is gone.  Unlink while holding the lock, and
       * only if the name still refers to the inode we locked. */
      struct stat again;
      if (fstatat(dfd, e->d_name, &again, AT_SYMLINK_NOFOLLOW) == 0 &&
          again.st_dev == fst.st_dev && again.st_ino == fst.st_ino)
        unlinkat(dfd, e->d_name, 0);
    }
    close(fd);
  }
  closedir(d);
}

/* flock errors that mean "this file system cannot lock" (not "someone
 * holds a lock"): the temporary file is then written unlocked. */
static int cannot_lock_here(int e) {
  return e == ENOLCK || e == ENOSYS || e == EOPNOTSUPP || e == EINVAL;
}

rc_err rc_outfile_open(const char *path, rc_outfile *o, rc_error *err) {
  memset(o, 0, sizeof *o);
  o->fd = -1;
  rc_err rc = rc_output_check(path, err);
  if (rc != RC_OK)
    return rc;
  const char *base = base_of(path);
  const size_t tlen = tmp_base_len(base);
  const size_t dirlen = (size_t)(base - path);
  char *dir = dir_of(path);
  o->path = malloc(strlen(path) + 1);
  o->tmp = malloc(dirlen + TMP_EXTRA + tlen + 1);
  if (!dir || !o->path || !o->tmp) {
    free(dir);
    rc_outfile_abort(o);
    return rc_error_set(err, RC_ERR_NOMEM, "%s: out of memory", path);
  }
  strcpy(o->path, path);
  remove_stale(dir);
  free(dir);
  for (int attempt = 0; attempt < 100; ++attempt) {
    char rnd[TMP_RANDOM + 1];
    random_name(rnd);
    snprintf(o->tmp, dirlen + TMP_EXTRA + tlen + 1, "%.*s.%.*s%s%s",
             (int)dirlen, path, (int)tlen, base, TMP_TAG, rnd);
    /* SIGINT/SIGTERM/SIGHUP wait until the new name is armed for
     * rc_io_remove_partial_output (else a signal right after open() would
     * leave the file). */
    sigset_t block, saved;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &saved);
    int fd = open(
        o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
        0666);
    const int open_errno = errno;
    if (fd >= 0 && strlen(o->tmp) < sizeof sig_tmp) {
      memcpy(sig_tmp, o->tmp, strlen(o->tmp) + 1);
      sig_armed = 1;
    }
    sigprocmask(SIG_SETMASK, &saved, NULL);
    if (fd < 0 && open_errno == EEXIST)
      continue;
    if (fd < 0) {
      const int e = open_errno;
      rc_outfile_abort(o);
      return rc_error_set(err, RC_ERR_IO,
                          "%s: cannot create a temporary "
                          "file next to it: %s",
                          path, strerror(e));
    }
    /* Lock (shared, see the header), then make sure a stale-file sweep of
     * another radcol did not remove the name between our open and our
     * lock. */
    int lk;
    while ((lk = flock(fd, LOCK_SH)) != 0 && errno == EINTR)
      ;
    const int lock_errno = lk != 0 ? errno : 0;
    struct stat st, lst;
    if ((lk != 0 && !cannot_lock_here(lock_errno)) || fstat(fd, &st) != 0) {
      const int e = lk != 0 ? lock_errno : errno;
      unlink(o->tmp); /* created by this open (O_EXCL), not yet swept */
      sig_armed = 0;
      close(fd);
      rc_outfile_abort(o);
      return rc_error_set(err, RC_ERR_IO,
                          "%s: cannot %s the temporary file next to it: %s "
                          "(nothing written)",
                          path, lk != 0 ? "lock" : "inspect", strerror(e));
    }
    if (lstat(o->tmp, &lst) != 0 || lst.st_dev != st.st_dev ||
        lst.st_ino != st.st_ino) {
      sig_armed = 0; /* swept in between: the name is not ours any more */
      close(fd);
      continue;
    }
    o->fd = fd;
    o->dev = st.st_dev;
    o->ino = st.st_ino;
    return RC_OK;
  }
  rc_outfile_abort(o);
  return rc_error_set(err, RC_ERR_IO,
                      "%s: cannot create a temporary file next to it (100 "
                      "random names taken or removed by another radcol at "
                      "once)",
                      path);
}

rc_err rc_outfile_write(rc_outfile *o, const void *buf, size_t n,
                        rc_error *err) {
  const char *p = buf;
  while (n > 0) {
    ssize_t w = write(o->fd, p, n > (1u << 30) ? (1u << 30) : n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return rc_error_set(err, RC_ERR_IO, "%s: writing %s failed: %s", o->path,
                          o->tmp, w < 0 ? strerror(errno) : "no progress");
    p += w;
    n -= (size_t)w;
  }
  return RC_OK;
}

/* Does name still refer to our inode? */
static int still_ours(const rc_outfile *o) {
  struct stat st;
  return lstat(o->tmp, &st) == 0 && st.st_dev == o->dev && st.st_ino == o->ino;
}

rc_err rc_outfile_commit(rc_outfile *o, rc_error *err) {
  rc_err rc = RC_OK;
  struct stat st;
  if (fsync(o->fd) != 0)
    rc = rc_error_set(err, RC_ERR_IO, "%s: fsync of %s failed: %s", o->path,
                      o->tmp, strerror(errno));
  else if (!still_ours(o))
    rc = rc_error_set(err, RC_ERR_IO,
                      "%s: the temporary file %s was replaced or removed "
                      "while radcol wrote it: nothing written",
                      o->path, o->tmp);
  else if (lstat(o->path, &st) == 0 && !S_ISREG(st.st_mode))
    rc = rc_error_set(err, RC_ERR_INPUT,
                      "%s: became a non-regular file during the run: "
                      "expected a regular file or a new name",
                      o->path);
  else if (rename(o->tmp, o->path) != 0)
    rc = rc_error_set(err, RC_ERR_IO, "%s: cannot rename %s over it: %s",
                      o->path, o->tmp, strerror(errno));
  if (rc != RC_OK) {
    rc_outfile_abort(o);
    return rc;
  }
  sig_armed = 0;
  /* The rename is durable once the directory is synced (some file systems
   * refuse fsync on a directory: EINVAL, not an error here). */
  char *dir = dir_of(o->path);
  int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
  if (dfd >= 0) {
    if (fsync(dfd) != 0 && errno == EIO)
      rc = rc_error_set(err, RC_ERR_IO, "%s: fsync of directory %s failed: %s",
                        o->path, dir, strerror(errno));
    close(dfd);
  }
  free(dir);
  close(o->fd); /* releases the lock */
  o->fd = -1;
  free(o->tmp);
  free(o->path);
  o->tmp = o->path = NULL;
  return rc;
}

void rc_outfile_abort(rc_outfile *o) {
  if (o->fd >= 0) {
    if (still_ours(o))
      unlink(o->tmp);
    sig_armed = 0;
    close(o->fd);
  }
  o->fd = -1;
  free(o->tmp);
  free(o->path);
  o->tmp = o->path = NULL;
}

rc_err rc_write_file(const char *path, const void *data, size_t n,
                     rc_error *err) {
  rc_err rc = rc_output_check(path, err);
  if (rc != RC_OK)
    return rc;
  rc_outfile o;
  if ((rc = rc_outfile_open(path, &o, err)) != RC_OK)
    return rc;
  if ((rc = rc_outfile_write(&o, data, n, err)) != RC_OK) {
    rc_outfile_abort(&o);
    return rc;
  }
  return rc_outfile_commit(&o, err);
}
