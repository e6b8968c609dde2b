/*
 * test_params.c - unit test of src/params.c: defaults, NAME=VALUE
 * assignments in order, strict number parsing (NaN, infinities, trailing
 * characters, overflow, hexadecimal, magnitudes above RC_REAL_MAX_ABS and
 * empty values refused, for reals and integers alike), text parameters, and
 * that a refused assignment leaves the values unchanged.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

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

int main(void) {
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
