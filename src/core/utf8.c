/*
 * utf8.c - well-formed UTF-8 (utf8.h): the length of one character by the
 * rules of RFC 3629 (no overlong forms, no surrogates, nothing above
 * U+10FFFF).
 */
#include "core/utf8.h"

int rc_utf8_len(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  if (p[0] == 0)
    return 0;
  if (p[0] < 0x80)
    return 1;
  int n;
  unsigned int cp;
  if (p[0] >= 0xC2 && p[0] <= 0xDF)
    n = 2, cp = p[0] & 0x1Fu;
  else if (p[0] >= 0xE0 && p[0] <= 0xEF)
    n = 3, cp = p[0] & 0x0Fu;
  else if (p[0] >= 0xF0 && p[0] <= 0xF4)
    n = 4, cp = p[0] & 0x07u;
  else
    return 0; /* continuation byte, C0/C1 (overlong) or F5..FF */
  for (int i = 1; i < n; ++i) {
    if ((p[i] & 0xC0) != 0x80)
      return 0; /* also stops at the NUL of a truncated sequence */
    cp = cp << 6 | (p[i] & 0x3Fu);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}
