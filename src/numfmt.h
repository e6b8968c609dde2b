/*
 * numfmt.h - printing reals for people and for machines alike: the shortest
 * decimal that reads back (strtod) to exactly the same double.
 *
 *   rc_fmt_shortest(2.2) = "2.2"  (not %.17g's "2.2000000000000002")
 *
 * Private to radcol (library and CLI); not an installed header.
 */
#ifndef RADCOL_NUMFMT_H
#define RADCOL_NUMFMT_H

#include <stddef.h>

/* Enough for any double in %.17g plus the terminating NUL. */
#define RC_FMT_LEN 32

/* Writes into buf (RC_FMT_LEN chars) the shortest %.Ng, N = 1..17, that
 * round-trips to v; "nan", "inf", "-inf" for non-finite v.  Returns buf. */
const char *rc_fmt_shortest(double v, char *buf);

#endif
