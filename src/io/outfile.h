/*
 * outfile.h - safe creation of one output file (private to radcol; the
 * result writer in io_write.c and, through rc_write_file, the CLI's CSV
 * export are its users).
 *
 * An rc_outfile is a temporary file next to the target, created exclusively
 * under a random name that radcol alone uses
 *     <dir>/.<base>.tmp.radcol.<12 random characters>
 * (<base> shortened on a UTF-8 boundary so the name fits NAME_MAX), opened
 * with O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, and locked (flock LOCK_SH,
 * see outfile.c) for as long as it is being written: a temporary of radcol's
 * naming that nobody holds a lock on belongs to a writer that is gone (SIGKILL,
 * power loss) and is removed by the next rc_outfile_open in the same directory.
 * Commit: fsync, check the name still refers to our inode, rename(2) over
 * the target, fsync the directory.  Abort: unlink the temporary if the name
 * still refers to our inode.
 *
 * Signals: the temporary path of the open rc_outfile is also kept in a
 * static buffer so rc_io_remove_partial_output (radcol/io.h) can unlink it
 * from a signal handler.  One output file is open at a time per process.
 */
#ifndef RADCOL_OUTFILE_H
#define RADCOL_OUTFILE_H

#include <stddef.h>
#include <sys/types.h>

#include "radcol/errors.h"

typedef struct rc_outfile {
  char *path; /* the target (copy) */
  char *tmp;  /* the temporary file's path */
  int fd;     /* open for writing on tmp, flock held; -1 when closed */
  dev_t dev;  /* identity of the temporary file's inode */
  ino_t ino;
} rc_outfile;

/* Remove stale temporaries, create and lock a new one for path.  On
 * failure nothing is left behind and o->fd is -1. */
rc_err rc_outfile_open(const char *path, rc_outfile *o, rc_error *err);

/* Append n bytes (all of them, or RC_ERR_IO naming errno: ENOSPC, EFBIG). */
rc_err rc_outfile_write(rc_outfile *o, const void *buf, size_t n,
                        rc_error *err);

/* fsync, rename over the target, fsync the directory, close.  On failure
 * the temporary file is removed (rc_outfile_abort). */
rc_err rc_outfile_commit(rc_outfile *o, rc_error *err);

/* Remove the temporary file (if it is still ours) and free o.  Safe to call
 * on a closed or zeroed rc_outfile. */
void rc_outfile_abort(rc_outfile *o);

/* Writes n bytes as the whole file path, as safely as result files are
 * written (rc_output_check, then a random exclusively created temporary
 * file that never follows a link, fsync, rename over path): path is either
 * left as it was or replaced whole.  For other formats (radcol export's
 * CSV).  RC_ERR_INPUT for a refused path, RC_ERR_IO for a failed write. */
rc_err rc_write_file(const char *path, const void *data, size_t n,
                     rc_error *err);

#endif
