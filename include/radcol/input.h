/*
 * radcol/input.h - opening an input file safely: every file radcol reads
 * (result files, CSV files of models, plugins before dlopen) is opened
 * here, so the "regular file" check is one rule.
 *
 * A FIFO, a device, a socket or a directory is refused without blocking
 * (a FIFO opened for reading waits for a writer forever; a device may be
 * endless or have side effects): the path is looked at with stat(2)
 * before it is opened, opened with O_NONBLOCK | O_NOCTTY | O_CLOEXEC, and
 * the open descriptor is checked again with fstat(2) (the name may have
 * been swapped in between).  Symbolic links to regular files are followed.
 */
#ifndef RADCOL_INPUT_H
#define RADCOL_INPUT_H

#include <stdio.h>

#include "radcol/errors.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opens path for reading when it is a regular file and returns the open
 * descriptor (blocking mode, close-on-exec).  On failure returns -1 and
 * fills err: RC_ERR_IO when the file cannot be opened (missing,
 * permission), RC_ERR_INPUT when it is not a regular file ("<what> <path>:
 * is a FIFO: expected a regular file").  what names the file in messages
 * ("path file", "plugin"; NULL: nothing). */
int rc_input_open_fd(const char *path, const char *what, rc_error *err);

/* rc_input_open_fd as a stdio stream ("rb"); NULL on failure. */
FILE *rc_input_open(const char *path, const char *what, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
