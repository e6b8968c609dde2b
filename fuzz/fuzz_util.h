/*
 * fuzz/fuzz_util.h - what every libFuzzer harness shares: the contract
 * check that aborts (so libFuzzer reports it), the entry point's
 * declaration, and the private temporary file that file-reading harnesses
 * rewrite for every input.
 */
#ifndef RADCOL_FUZZ_UTIL_H
#define RADCOL_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond))                                                               \
      abort();                                                                 \
  } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline char *fuzz_path_buf(void) {
  static char buf[256];
  return buf;
}

static inline void fuzz_remove_temp(void) {
  remove(fuzz_path_buf());
}

/* Writes the input to this process's temporary file
 * "radcol-fuzz-TAG.PID.EXT" (RAM-backed /dev/shm when there is one, else
 * $RADCOL_FUZZ_TMPDIR, $TMPDIR or /tmp), removed at exit.  Returns its name,
 * or NULL if it could not be written (the harness then skips the input). */
static inline const char *fuzz_write_input(const uint8_t *data, size_t size,
                                           const char *tag, const char *ext) {
  char *path = fuzz_path_buf();
  if (!path[0]) {
    atexit(fuzz_remove_temp);
    const char *dir = getenv("RADCOL_FUZZ_TMPDIR");
    if (!dir || !*dir)
      dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
    snprintf(path, 256, "%s/radcol-fuzz-%s.%ld.%s", dir && *dir ? dir : "/tmp",
             tag, (long)getpid(), ext);
  }
  FILE *f = fopen(path, "wb");
  if (!f)
    return NULL;
  const int ok = !size || fwrite(data, 1, size, f) == size;
  return fclose(f) == 0 && ok ? path : NULL;
}

#endif
