/*
 * timing.h - monotonic wall clock for solve statistics (internal).
 */
#ifndef RADCOL_TIMING_H
#define RADCOL_TIMING_H

#include <time.h>

static inline double rc_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
