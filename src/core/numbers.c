/*
 * numbers.c - radcol's one rule for numbers in text (numbers.h): strict
 * decimal parsing of reals and integers, and the shortest round-trip decimal
 * form of a double.
 *
 * Writing:
 * %.17g always round-trips (17 significant digits identify every IEEE
 * double) but shows representation noise: 2.2 prints as 2.2000000000000002.
 * Trying N = 1, 2, ..., 17 significant digits and keeping the first that
 * strtod reads back to the same double gives the shortest exact form (the
 * one a reader expects: 2.2, 0.1, 1e-08).  At most 17 snprintf/strtod pairs
 * per number: for printing summaries and JSON, not for bulk output.
 */
#include "core/numbers.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/limits.h"

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

/* [+-]digits[.digits][(e|E)[+-]digits] with at least one mantissa digit. */
static int decimal_syntax(const char *s) {
  const char *p = s + (*s == '+' || *s == '-');
  size_t nd = strspn(p, "0123456789");
  p += nd;
  if (*p == '.') {
    size_t nf = strspn(p + 1, "0123456789");
    nd += nf;
    p += 1 + nf;
  }
  if (nd == 0)
    return 0;
  if (*p == 'e' || *p == 'E') {
    ++p;
    p += *p == '+' || *p == '-';
    size_t ne = strspn(p, "0123456789");
    if (ne == 0)
      return 0;
    p += ne;
  }
  return *p == '\0';
}

int rc_parse_real(const char *s, double *out) {
  /* The syntax check also refuses what strtod would take beyond decimals:
   * blanks, "nan", "inf", "infinity", hexadecimal "0x1p3". */
  if (!s || !decimal_syntax(s))
    return 0;
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end != '\0')
    return 0;
  if (errno == ERANGE && fabs(v) > 1.0)
    return 0; /* overflow; gradual underflow to a tiny value is accepted */
  if (!isfinite(v) || fabs(v) > RC_REAL_MAX_ABS)
    return 0;
  *out = v;
  return 1;
}

int rc_parse_int(const char *s, long lo, long hi, long *out) {
  const char *digits = s ? s + (*s == '+' || *s == '-') : NULL;
  if (!s || !*digits || strspn(digits, "0123456789") != strlen(digits))
    return 0;
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno == ERANGE || v < lo || v > hi)
    return 0;
  *out = v;
  return 1;
}
