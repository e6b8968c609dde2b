/*
 * fs_shim.c - an LD_PRELOAD library for the robustness tests
 * (tests/test_robust_probe.sh, issue 28): file-system behaviour that is
 * hard to get on demand, switched on per process by the environment.
 *
 *   RC_SHIM_FLOCK_ERRNO=N   flock(2) fails with errno N: 37 (ENOLCK, "No
 *                           locks available", as on NFS without a lock
 *                           manager) or any other error (5, EIO);
 *   RC_SHIM_RENAME_PAUSE=F  after every successful rename(2) the process
 *                           creates the file F and waits (up to 30 s) until
 *                           F.go exists: the moment right after a writer
 *                           renamed its temporary file over the target,
 *                           held open for a reader to try.
 *
 * Not linked with radcol; no radcol header.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int flock(int fd, int op) {
  static int (*real)(int, int);
  const char *e = getenv("RC_SHIM_FLOCK_ERRNO");
  if (e && atoi(e) > 0) {
    errno = atoi(e);
    return -1;
  }
  if (!real)
    *(void **)&real = dlsym(RTLD_NEXT, "flock");
  return real ? real(fd, op) : (errno = ENOSYS, -1);
}

int rename(const char *from, const char *to) {
  static int (*real)(const char *, const char *);
  if (!real)
    *(void **)&real = dlsym(RTLD_NEXT, "rename");
  if (!real) {
    errno = ENOSYS;
    return -1;
  }
  const int r = real(from, to);
  const char *mark = getenv("RC_SHIM_RENAME_PAUSE");
  if (r == 0 && mark && mark[0]) {
    const int saved = errno;
    int fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0)
      close(fd);
    char go[4096];
    snprintf(go, sizeof go, "%s.go", mark);
    const struct timespec tick = {0, 20000000};
    for (int i = 0; i < 1500 && access(go, F_OK) != 0; ++i)
      nanosleep(&tick, NULL);
    errno = saved;
  }
  return r;
}
