/*
 * cli/json.c - streaming JSON writer (see json.h).  Compact output: one
 * line per document, ", " and ": " separators.
 */
#include "cli/json.h"
#include "core/numbers.h"
#include "core/utf8.h"

#include <math.h>

#include "radcol/errors.h"

void rc_json_init(rc_json *j, FILE *out) {
  j->out = out;
  j->depth = 0;
  j->count[0] = 0;
}

static void write_string(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
    switch (*p) {
    case '"':
      fputs("\\\"", out);
      break;
    case '\\':
      fputs("\\\\", out);
      break;
    case '\n':
      fputs("\\n", out);
      break;
    case '\r':
      fputs("\\r", out);
      break;
    case '\t':
      fputs("\\t", out);
      break;
    default:
      if (*p < 0x20 || *p == 0x7f) {
        fprintf(out, "\\u%04x", *p);
      } else if (*p < 0x80) {
        fputc(*p, out);
      } else {
        /* Valid UTF-8 passes; any other byte becomes U+FFFD (input files
         * may carry anything, JSON must be UTF-8). */
        const int n = rc_utf8_len((const char *)p);
        if (n > 0) {
          fwrite(p, 1, (size_t)n, out);
          p += n - 1; /* the loop's ++p steps over the last byte */
        } else {
          fputs("\\ufffd", out);
        }
      }
    }
  }
  fputc('"', out);
}

/* Separator and key before a value at the current level. */
static void prefix(rc_json *j, const char *key) {
  if (j->count[j->depth]++ > 0)
    fputs(", ", j->out);
  if (key) {
    write_string(j->out, key);
    fputs(": ", j->out);
  }
}

static void open_level(rc_json *j, const char *key, char c) {
  prefix(j, key);
  fputc(c, j->out);
  if (j->depth + 1 < RC_JSON_MAX_DEPTH)
    j->count[++j->depth] = 0;
}

static void close_level(rc_json *j, char c) {
  fputc(c, j->out);
  if (j->depth > 0)
    --j->depth;
}

void rc_json_begin_object(rc_json *j, const char *key) {
  open_level(j, key, '{');
}
void rc_json_end_object(rc_json *j) {
  close_level(j, '}');
}
void rc_json_begin_array(rc_json *j, const char *key) {
  open_level(j, key, '[');
}
void rc_json_end_array(rc_json *j) {
  close_level(j, ']');
}

void rc_json_number(rc_json *j, const char *key, double v) {
  char num[RC_FMT_LEN];
  prefix(j, key);
  if (isfinite(v))
    fputs(rc_fmt_shortest(v, num), j->out);
  else
    fputs("null", j->out);
}

void rc_json_int(rc_json *j, const char *key, long v) {
  prefix(j, key);
  fprintf(j->out, "%ld", v);
}

void rc_json_bool(rc_json *j, const char *key, int v) {
  prefix(j, key);
  fputs(v ? "true" : "false", j->out);
}

void rc_json_null(rc_json *j, const char *key) {
  prefix(j, key);
  fputs("null", j->out);
}

void rc_json_string(rc_json *j, const char *key, const char *s) {
  prefix(j, key);
  if (s)
    write_string(j->out, s);
  else
    fputs("null", j->out);
}

static int finished; /* top-level values finished on any stream */

void rc_json_finish(rc_json *j) {
  fputc('\n', j->out);
  fflush(j->out);
  ++finished;
}

int rc_json_finished(void) {
  return finished;
}
