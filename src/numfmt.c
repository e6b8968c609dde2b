/*
 * numfmt.c - the shortest round-trip decimal form of a double (numfmt.h).
 *
 * %.17g always round-trips (17 significant digits identify every IEEE
 * double) but shows representation noise: 2.2 prints as 2.2000000000000002.
 * Trying N = 1, 2, ..., 17 significant digits and keeping the first that
 * strtod reads back to the same double gives the shortest exact form (the
 * one a reader expects: 2.2, 0.1, 1e-08).  At most 17 snprintf/strtod pairs
 * per number: for printing summaries and JSON, not for bulk output.
 */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const char *rc_fmt_shortest(double v, char *buf) {
  if (!isfinite(v)) {
    snprintf(buf, RC_FMT_LEN, "%s",
             isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
    return buf;
  }
  for (int p = 1; p <= 17; ++p) {
    snprintf(buf, RC_FMT_LEN, "%.*g", p, v);
    if (strtod(buf, NULL) == v)
      return buf;
  }
  return buf; /* %.17g: always exact */
}
