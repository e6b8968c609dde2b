/*
 * test_params.c - unit test of src/params.c: defaults, NAME=VALUE
 * assignments in order, strict number parsing (NaN, infinities, trailing
 * characters, overflow, hexadecimal, magnitudes above RC_REAL_MAX_ABS and
 * empty values refused, for reals and integers alike), text parameters, and
 * that a refused assignment leaves the values unchanged.
 */
#define _POSIX_C_SOURCE 200809L /* mkfifo */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/numbers.h"
#include "radcol/params.h"
#include "test_util.h"

static const rc_param_def defs[] = {
    {"g", RC_PARAM_REAL, 9.81, NULL, "gravity (m/s^2)"},
    {"tf", RC_PARAM_REAL, 5.0, NULL, "final time (s)"},
    {"path", RC_PARAM_TEXT, 0.0, "default.csv", "waypoints"},
    {"label", RC_PARAM_TEXT, 0.0, NULL, "free text"},
};
static const rc_formulation_def forms[] = {{"only", "the one formulation"}};
static const rc_model model = {"toy", "a toy model", 1,    forms, 0,
                               4,     defs,          NULL, NULL};

static void refused(rc_param_values *pv, const char *assignment,
                    const char *fragment) {
  rc_error err = {RC_OK, ""};
  double before = pv->real[0];
  EXPECT(
      rc_params_set(&model, pv, assignment, &err) == RC_ERR_INPUT,
      "expected rc_params_set(&model, pv, assignment, &err) == RC_ERR_INPUT");
  EXPECT(err.code == RC_ERR_INPUT, "expected err.code == RC_ERR_INPUT");
  if (!strstr(err.message, fragment)) {
    fprintf(stderr, "message for '%s' is '%s', expected it to contain '%s'\n",
            assignment, err.message, fragment);
    ++failures;
  }
  EXPECT(pv->real[0] == before, "expected pv->real[0] == before");
  EXPECT(pv->is_set[0] == 0, "expected pv->is_set[0] == 0");
}

/* A file parameter (RC_PARAM_FILE): opened through rc_input_open (a FIFO is
 * refused without blocking, issue 28 item 1), bytes attached by
 * rc_params_set_file_data read instead of the named file, and dropped when
 * the name is set anew. */
static const rc_param_def fdefs[] = {
    {"wp", RC_PARAM_FILE, 0.0, NULL, "waypoints"},
};
static const rc_model fmodel = {
    "ftoy", "a toy with a file", 1, forms, 0, 1, fdefs, NULL, NULL};

static void read_all(FILE *f, char *buf, size_t cap) {
  size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
  buf[n] = 0;
  if (f)
    fclose(f);
}

static void test_file_params(void) {
  rc_param_values pv;
  rc_error err = {RC_OK, ""};
  char buf[64], set[128];
  const char *file = "test_params_wp.csv", *fifo = "test_params_wp.fifo";
  FILE *w = fopen(file, "w");
  EXPECT(w && fputs("on disk\n", w) >= 0 && fclose(w) == 0,
         "expected the test file written");
  EXPECT(rc_params_init_defaults(&fmodel, &pv, &err) == RC_OK,
         "expected the defaults of a model with a file parameter");
  EXPECT(pv.file_data && pv.file_size && pv.file_data[0] == NULL,
         "expected no bytes attached by default");
  /* no name: refused with a message, not a crash */
  EXPECT(rc_param_open_file(&fmodel, &pv, 0, "waypoints", &err) == NULL &&
             err.code != RC_OK && err.message[0],
         "expected an empty file name refused");
  snprintf(set, sizeof set, "wp=%s", file);
  EXPECT(rc_params_set(&fmodel, &pv, set, &err) == RC_OK, "expected wp set");
  read_all(rc_param_open_file(&fmodel, &pv, 0, "waypoints", &err), buf,
           sizeof buf);
  EXPECT(strcmp(buf, "on disk\n") == 0, "expected the named file read");
  EXPECT(rc_params_set_file_data(&fmodel, &pv, 0, "stored\n", 7, &err) == RC_OK,
         "expected bytes attached");
  read_all(rc_param_open_file(&fmodel, &pv, 0, "waypoints", &err), buf,
           sizeof buf);
  EXPECT(strcmp(buf, "stored\n") == 0, "expected the attached bytes read");
  EXPECT(rc_params_set_file_data(&model, &pv, 0, "x", 1, &err) ==
                 RC_ERR_INPUT &&
             strstr(err.message, "expected a file parameter"),
         "expected bytes refused for a real parameter");
  EXPECT(rc_params_set(&fmodel, &pv, set, &err) == RC_OK &&
             pv.file_data[0] == NULL,
         "expected the bytes dropped when the name is set anew");
  /* a FIFO is refused at once (before: fopen blocked for a writer) */
  unlink(fifo);
  EXPECT(mkfifo(fifo, 0600) == 0, "expected a FIFO made");
  snprintf(set, sizeof set, "wp=%s", fifo);
  EXPECT(rc_params_set(&fmodel, &pv, set, &err) == RC_OK, "expected wp set");
  EXPECT(rc_param_open_file(&fmodel, &pv, 0, "waypoints", &err) == NULL &&
             err.code == RC_ERR_INPUT &&
             strstr(err.message, "expected a regular file"),
         "expected a FIFO refused as not a regular file");
  if (!strstr(err.message, "expected a regular file"))
    fprintf(stderr, "FIFO message: %s\n", err.message);
  unlink(fifo);
  unlink(file);
  rc_params_free(&pv);
}

int main(void) {
  test_file_params();
  rc_param_values pv;
  rc_error err = {RC_OK, ""};
  EXPECT(rc_params_init_defaults(&model, &pv, &err) == RC_OK,
         "expected rc_params_init_defaults(&model, &pv, &err) == RC_OK");
  EXPECT(pv.n == 4, "expected pv.n == 4");
  EXPECT(pv.real[0] == 9.81 && pv.real[1] == 5.0,
         "expected pv.real[0] == 9.81 && pv.real[1] == 5.0");
  EXPECT(pv.text[2] && strcmp(pv.text[2], "default.csv") == 0,
         "expected pv.text[2] && strcmp(pv.text[2], \"default.csv\") == 0");
  EXPECT(pv.text[2] != defs[2].default_text,
         "expected pv.text[2] != defs[2].default_text"); /* an owned copy */
  EXPECT(pv.text[3] == NULL, "expected pv.text[3] == NULL");
  for (int i = 0; i < 4; ++i)
    EXPECT(pv.is_set[i] == 0, "expected pv.is_set[i] == 0");

  /* Refusals name the assignment and what was expected. */
  refused(&pv, "g=nan", "g=nan: expected a finite number for g");
  refused(&pv, "g=NaN", "finite number");
  refused(&pv, "g=inf", "finite number");
  refused(&pv, "g=-Infinity", "finite number");
  refused(&pv, "g=1e999", "finite number");
  refused(&pv, "g=9.81x", "g=9.81x");
  refused(&pv, "g= 9.81", "finite number");
  refused(&pv, "g=", "finite number");
  /* One rule for reals and integers (issue 18): decimal only, and no
   * magnitude beyond RC_REAL_MAX_ABS (its square must stay finite). */
  refused(&pv, "g=0x1p3", "decimal, magnitude <= 1e+150");
  refused(&pv, "g=0x10", "finite number");
  refused(&pv, "g=1e151", "finite number");
  refused(&pv, "g=-1e308", "finite number");
  refused(&pv, "g=1e", "finite number");
  refused(&pv, "g=e5", "finite number");
  refused(&pv, "g=.", "finite number");
  refused(&pv, "g=-", "finite number");
  refused(&pv, "g=1.5 ", "finite number");
  refused(&pv, "g", "expected NAME=VALUE");
  refused(&pv, "=3", "expected NAME=VALUE");
  refused(&pv, "foo=1", "foo=1: toy has no parameter 'foo'");

  /* Accepted values, applied in order (the last one wins). */
  EXPECT(rc_params_set(&model, &pv, "g=1.5", &err) == RC_OK,
         "expected rc_params_set(&model, &pv, \"g=1.5\", &err) == RC_OK");
  EXPECT(rc_params_set(&model, &pv, "g=-2.5e-3", &err) == RC_OK,
         "expected rc_params_set(&model, &pv, \"g=-2.5e-3\", &err) == RC_OK");
  EXPECT(pv.real[0] == -2.5e-3 && pv.is_set[0] == 1 && pv.is_set[1] == 0,
         "expected pv.real[0] == -2.5e-3 && pv.is_set[0] == 1 && pv.is_set[1] "
         "== 0");
  EXPECT(rc_params_set(&model, &pv, "tf=8.", &err) == RC_OK,
         "expected rc_params_set(&model, &pv, \"tf=8.\", &err) == RC_OK");
  EXPECT(pv.real[1] == 8.0, "expected pv.real[1] == 8.0");
  EXPECT(rc_params_set(&model, &pv, "tf=1e150", &err) == RC_OK,
         "expected rc_params_set(&model, &pv, \"tf=1e150\", &err) == RC_OK");
  EXPECT(pv.real[1] == 1e150, "expected pv.real[1] == 1e150");
  EXPECT(rc_params_set(&model, &pv, "tf=.5", &err) == RC_OK,
         "expected rc_params_set(&model, &pv, \"tf=.5\", &err) == RC_OK");
  EXPECT(pv.real[1] == 0.5, "expected pv.real[1] == 0.5");
  EXPECT(
      rc_params_set(&model, &pv, "path=a=b.csv", &err) == RC_OK,
      "expected rc_params_set(&model, &pv, \"path=a=b.csv\", &err) == RC_OK");
  EXPECT(strcmp(pv.text[2], "a=b.csv") == 0 && pv.is_set[2] == 1,
         "expected strcmp(pv.text[2], \"a=b.csv\") == 0 && pv.is_set[2] == 1");
  EXPECT(rc_params_set(&model, &pv, "label=", &err) == RC_OK,
         "expected rc_params_set(&model, &pv, \"label=\", &err) == RC_OK");
  EXPECT(pv.text[3] && pv.text[3][0] == '\0',
         "expected pv.text[3] && pv.text[3][0] == '\\0'");

  /* Strict integers. */
  long v = 0;
  EXPECT(rc_parse_int("40", 1, 20, &v) == 0,
         "expected rc_parse_int(\"40\", 1, 20, &v) == 0");
  EXPECT(rc_parse_int("0", 1, 20, &v) == 0,
         "expected rc_parse_int(\"0\", 1, 20, &v) == 0");
  EXPECT(rc_parse_int("3x", 1, 20, &v) == 0,
         "expected rc_parse_int(\"3x\", 1, 20, &v) == 0");
  EXPECT(rc_parse_int("99999999999999999999999", 1, 1L << 30, &v) == 0,
         "expected rc_parse_int(\"99999999999999999999999\", 1, 1L << 30, &v) "
         "== 0");
  EXPECT(rc_parse_int("", 1, 20, &v) == 0,
         "expected rc_parse_int(\"\", 1, 20, &v) == 0");
  EXPECT(rc_parse_int("20", 1, 20, &v) == 1 && v == 20,
         "expected rc_parse_int(\"20\", 1, 20, &v) == 1 && v == 20");
  EXPECT(rc_parse_int("0x10", 1, 20, &v) == 0,
         "expected rc_parse_int(\"0x10\", 1, 20, &v) == 0");
  EXPECT(rc_parse_int(" 5", 1, 20, &v) == 0,
         "expected rc_parse_int(\" 5\", 1, 20, &v) == 0");
  EXPECT(rc_parse_int("+5", 1, 20, &v) == 1 && v == 5,
         "expected rc_parse_int(\"+5\", 1, 20, &v) == 1 && v == 5");
  EXPECT(rc_parse_int("-", -5, 20, &v) == 0,
         "expected rc_parse_int(\"-\", -5, 20, &v) == 0");
  double r = 0;
  EXPECT(rc_parse_real("0x10", &r) == 0 && r == 0,
         "expected rc_parse_real(\"0x10\", &r) == 0 && r == 0");
  EXPECT(
      rc_parse_real("1e-400", &r) == 1 && r == 0,
      "expected rc_parse_real(\"1e-400\", &r) == 1 && r == 0"); /* underflow
                                                                   accepted */

  rc_params_free(&pv);
  EXPECT(pv.n == 0 && pv.real == NULL && pv.text == NULL,
         "expected pv.n == 0 && pv.real == NULL && pv.text == NULL");
  rc_params_free(&pv); /* safe twice */
  if (failures)
    fprintf(stderr, "test_params: %d failures\n", failures);
  return failures ? 1 : 0;
}
