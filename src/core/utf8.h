/*
 * utf8.h - well-formed UTF-8, for the writers of text and JSON that escape
 * what input files may carry (private to radcol; not an installed header).
 */
#ifndef RADCOL_UTF8_H
#define RADCOL_UTF8_H

/* Length (1..4) of the well-formed UTF-8 character at s, 0 when the bytes
 * at s are not one (stray continuation byte, overlong form, surrogate,
 * above U+10FFFF, truncated) or s is at its terminating NUL. */
int rc_utf8_len(const char *s);

#endif
