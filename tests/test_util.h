/*
 * test_util.h - the one assertion macro of radcol's C unit tests.
 *
 * EXPECT(cond, fmt, ...) records a failure with file, line and a message that
 * says what was expected; a test's main returns RC_TEST_EXIT(), non-zero when
 * any expectation failed.  Each test is a single translation unit.
 */
#ifndef RADCOL_TEST_UTIL_H
#define RADCOL_TEST_UTIL_H

#include <stdio.h>

static int failures = 0;

#define EXPECT(cond, ...)                                                      \
  do {                                                                         \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                     \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
    }                                                                          \
  } while (0)

#define RC_TEST_EXIT()                                                         \
  (failures ? (fprintf(stderr, "%d failure(s)\n", failures), 1) : 0)

#endif
