/*
 * errors.c - names and messages of rc_err and rc_status, generated from the
 * X-macro lists in radcol/errors.h, and the rc_error filler.
 */
#include <stdarg.h>
#include <stdio.h>

#include "radcol/errors.h"
#include "utf8.h"

/* One table per list, generated from the X-macros. */
typedef struct rc_code_entry {
  int code;
  const char *name, *message;
} rc_code_entry;

#define RC_X_ENTRY(c, v, name, msg) {c, name, msg},
static const rc_code_entry err_table[] = {RC_ERR_LIST(RC_X_ENTRY)};
static const rc_code_entry status_table[] = {RC_STATUS_LIST(RC_X_ENTRY)};
#undef RC_X_ENTRY

static const rc_code_entry *lookup(const rc_code_entry *t, size_t n, int code) {
  for (size_t i = 0; i < n; ++i)
    if (t[i].code == code)
      return &t[i];
  return NULL;
}

#define RC_LOOKUP(table, code)                                                 \
  lookup(table, sizeof table / sizeof table[0], (int)(code))

const char *rc_err_name(rc_err code) {
  const rc_code_entry *e = RC_LOOKUP(err_table, code);
  return e ? e->name : "unknown";
}

const char *rc_err_message(rc_err code) {
  const rc_code_entry *e = RC_LOOKUP(err_table, code);
  return e ? e->message : "unknown error";
}

const char *rc_status_name(rc_status status) {
  const rc_code_entry *e = RC_LOOKUP(status_table, status);
  return e ? e->name : "unknown";
}

const char *rc_status_message(rc_status status) {
  const rc_code_entry *e = RC_LOOKUP(status_table, status);
  return e ? e->message : "unknown status";
}

rc_err rc_error_set(rc_error *err, rc_err code, const char *fmt, ...) {
  if (err) {
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return code;
}

void rc_error_clear(rc_error *err) {
  if (err) {
    err->code = RC_OK;
    err->message[0] = '\0';
  }
}

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
