/*
 * errors.c - names and messages of rc_err and rc_status, generated from the
 * X-macro lists in radcol/errors.h, and the rc_error filler.
 */
#include <stdarg.h>
#include <stdio.h>

#include "radcol/errors.h"

const char *rc_err_name(rc_err code) {
  switch (code) {
#define RC_X_CASE(c, v, name, msg)                                             \
  case c:                                                                      \
    return name;
    RC_ERR_LIST(RC_X_CASE)
#undef RC_X_CASE
  }
  return "unknown";
}

const char *rc_err_message(rc_err code) {
  switch (code) {
#define RC_X_CASE(c, v, name, msg)                                             \
  case c:                                                                      \
    return msg;
    RC_ERR_LIST(RC_X_CASE)
#undef RC_X_CASE
  }
  return "unknown error";
}

const char *rc_status_name(rc_status status) {
  switch (status) {
#define RC_X_CASE(c, v, name, msg)                                             \
  case c:                                                                      \
    return name;
    RC_STATUS_LIST(RC_X_CASE)
#undef RC_X_CASE
  }
  return "unknown";
}

const char *rc_status_message(rc_status status) {
  switch (status) {
#define RC_X_CASE(c, v, name, msg)                                             \
  case c:                                                                      \
    return msg;
    RC_STATUS_LIST(RC_X_CASE)
#undef RC_X_CASE
  }
  return "unknown status";
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
