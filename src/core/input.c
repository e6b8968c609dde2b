/*
 * input.c - the one way radcol opens a file it reads (radcol/input.h):
 * regular files only, refused without blocking otherwise.
 *
 * Steps: stat(2) the path (a FIFO or device is refused before it is even
 * opened, so opening has no side effect on it), open it with O_RDONLY |
 * O_NONBLOCK | O_NOCTTY | O_CLOEXEC (a FIFO swapped in after the stat does
 * not block the open), fstat(2) the descriptor (what was opened is what is
 * read), then clear O_NONBLOCK.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "radcol/input.h"

static const char *kind_of(mode_t m) {
  return S_ISDIR(m)    ? "a directory"
         : S_ISCHR(m)  ? "a character device"
         : S_ISBLK(m)  ? "a block device"
         : S_ISFIFO(m) ? "a FIFO"
         : S_ISSOCK(m) ? "a socket"
                       : "not a regular file";
}

static int refuse(const char *path, const char *what, mode_t m, rc_error *err) {
  rc_error_set(err, RC_ERR_INPUT, "%s%s%s: is %s: expected a regular file",
               what ? what : "", what ? " " : "", path, kind_of(m));
  return -1;
}

int rc_input_open_fd(const char *path, const char *what, rc_error *err) {
  const char *w = what ? what : "", *sep = what ? " " : "";
  if (!path || !path[0]) {
    rc_error_set(err, RC_ERR_INPUT, "%s%s'': expected the name of a file", w,
                 sep);
    return -1;
  }
  struct stat st;
  if (stat(path, &st) != 0) {
    rc_error_set(err, RC_ERR_IO, "%s%s%s: cannot open: %s", w, sep, path,
                 strerror(errno));
    return -1;
  }
  if (!S_ISREG(st.st_mode))
    return refuse(path, what, st.st_mode, err);
  const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    rc_error_set(err, RC_ERR_IO, "%s%s%s: cannot open: %s", w, sep, path,
                 strerror(errno));
    return -1;
  }
  if (fstat(fd, &st) != 0) {
    rc_error_set(err, RC_ERR_IO, "%s%s%s: cannot open: %s", w, sep, path,
                 strerror(errno));
    close(fd);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return refuse(path, what, st.st_mode, err);
  }
  const int fl = fcntl(fd, F_GETFL);
  if (fl >= 0)
    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  return fd;
}

FILE *rc_input_open(const char *path, const char *what, rc_error *err) {
  const int fd = rc_input_open_fd(path, what, err);
  if (fd < 0)
    return NULL;
  FILE *f = fdopen(fd, "rb");
  if (!f) {
    rc_error_set(err, RC_ERR_NOMEM, "%s%s%s: cannot open: %s", what ? what : "",
                 what ? " " : "", path, strerror(errno));
    close(fd);
  }
  return f;
}
