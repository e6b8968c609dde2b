/*
 * numbers.h - radcol's one rule for numbers in text, both ways (private to
 * radcol: the library, the CLI, tests and fuzz harnesses use it; not an
 * installed header).
 *
 * Reading.  Decimal only, for reals and integers alike: the whole string is
 * one decimal number [+-]digits[.digits][(e|E)[+-]digits] (also .5 and 5.)
 * with magnitude <= RC_REAL_MAX_ABS (radcol/limits.h): no blanks, no
 * hexadecimal, no NaN or infinity; a value that underflows to a tiny or zero
 * double is accepted.
 *
 * Writing.  The shortest decimal that reads back (strtod) to exactly the
 * same double, for people and for machines alike:
 *
 *   rc_fmt_shortest(2.2) = "2.2"  (not %.17g's "2.2000000000000002")
 */
#ifndef RADCOL_CORE_NUMBERS_H
#define RADCOL_CORE_NUMBERS_H

#include <stddef.h>

/* A real by the rule above.  Returns 1 on success (and stores *out), 0
 * otherwise (*out untouched). */
int rc_parse_real(const char *s, double *out);

/* The whole string is a decimal integer in [lo, hi] ([+-]digits, no blanks,
 * no hexadecimal).  Returns 1 or 0. */
int rc_parse_int(const char *s, long lo, long hi, long *out);

/* Enough for any double in %.17g plus the terminating NUL. */
#define RC_FMT_LEN 32

/* Writes into buf (RC_FMT_LEN chars) the shortest %.Ng, N = 1..17, that
 * round-trips to v; "nan", "inf", "-inf" for non-finite v.  Returns buf. */
const char *rc_fmt_shortest(double v, char *buf);

#endif
