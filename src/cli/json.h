/*
 * cli/json.h - a tiny streaming JSON writer for --json output.
 *
 * Invariant: the writer tracks nesting so commas and keys are always right;
 * inside an object every value call takes a key, inside an array key must be
 * NULL.  Numbers are printed with the shortest form that
 * round-trips (numfmt.h: 2.2, not 2.2000000000000002); NaN and
 * infinities become null.  Strings are escaped per RFC 8259.
 */
#ifndef RADCOL_CLI_JSON_H
#define RADCOL_CLI_JSON_H

#include <stdio.h>

#define RC_JSON_MAX_DEPTH 16

typedef struct rc_json {
  FILE *out;
  int depth;
  int count[RC_JSON_MAX_DEPTH]; /* values written at each level */
} rc_json;

void rc_json_init(rc_json *j, FILE *out);
void rc_json_begin_object(rc_json *j, const char *key);
void rc_json_end_object(rc_json *j);
void rc_json_begin_array(rc_json *j, const char *key);
void rc_json_end_array(rc_json *j);
void rc_json_number(rc_json *j, const char *key, double v);
void rc_json_int(rc_json *j, const char *key, long v);
void rc_json_bool(rc_json *j, const char *key, int v);
void rc_json_null(rc_json *j, const char *key);
/* NULL s writes null. */
void rc_json_string(rc_json *j, const char *key, const char *s);
/* Ends the top-level value with a newline and flushes. */
void rc_json_finish(rc_json *j);
/* How many top-level values rc_json_finish ended in this process (main
 * prints an error object when a --json command ends without one). */
int rc_json_finished(void);

#endif
