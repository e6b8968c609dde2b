/*
 * errors.c - names and messages of rc_err and rc_status, generated from the
 * X-macro lists in radcol/errors.h, and the rc_error filler.
 */
#include <stdarg.h>
#include <stdio.h>

#include "radcol/errors.h"

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
