/*
 * fuzz/fuzz_params.c - libFuzzer harness for the --set parameter parser and
 * the strict number parsers (radcol/params.h).
 *
 * Input layout: byte 0 picks a built-in model (modulo the catalogue size);
 * the remaining bytes, NUL-terminated, are one "NAME=VALUE" assignment, and
 * also the string given to rc_parse_real and rc_parse_int.
 *
 * Properties checked (a violation aborts, so libFuzzer reports it):
 *   - rc_parse_real accepting s stores a finite value and leaves *out
 *     untouched when it refuses;
 *   - rc_parse_int accepting s stores a value inside [lo, hi];
 *   - rc_params_set either succeeds (the named real entry is then finite and
 *     is_set is 1) or fails with RC_ERR_INPUT/RC_ERR_NOMEM, a non-empty
 *     message, and every entry of pv unchanged;
 *   - nothing leaks (AddressSanitizer's leak checker runs at exit).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/numbers.h"
#include "fuzz_util.h"
#include "radcol/catalogue.h"
#include "radcol/params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  const rc_model *const *all = rc_builtin_models();
  int nmodels = 0;
  while (all[nmodels])
    ++nmodels;
  if (nmodels == 0)
    return 0;
  const rc_model *model = all[data[0] % nmodels];
  char *s = malloc(size);
  if (!s)
    return 0;
  memcpy(s, data + 1, size - 1);
  s[size - 1] = '\0';

  double sentinel = 12345.0, v = sentinel;
  if (rc_parse_real(s, &v))
    CHECK(isfinite(v));
  else
    CHECK(v == sentinel);
  long lo = -1000, hi = 1000000, iv = 7;
  if (rc_parse_int(s, lo, hi, &iv))
    CHECK(iv >= lo && iv <= hi);
  else
    CHECK(iv == 7);

  rc_param_values pv;
  rc_error err = {RC_OK, ""};
  if (rc_params_init_defaults(model, &pv, &err) == RC_OK) {
    double *before = malloc(sizeof *before * (size_t)(pv.n ? pv.n : 1));
    if (before) {
      for (int i = 0; i < pv.n; ++i)
        before[i] = pv.real[i];
      rc_err rc = rc_params_set(model, &pv, s, &err);
      if (rc == RC_OK) {
        const char *eq = strchr(s, '=');
        CHECK(eq != NULL);
        char name[128];
        size_t len = (size_t)(eq - s);
        CHECK(len < sizeof name);
        memcpy(name, s, len);
        name[len] = '\0';
        int i = rc_model_param_index(model, name);
        CHECK(i >= 0 && i < pv.n && pv.is_set[i]);
        if (model->params[i].type == RC_PARAM_REAL)
          CHECK(isfinite(pv.real[i]));
      } else {
        CHECK(rc == RC_ERR_INPUT || rc == RC_ERR_NOMEM);
        CHECK(err.message[0] != '\0');
        for (int i = 0; i < pv.n; ++i)
          CHECK(memcmp(&before[i], &pv.real[i], sizeof before[i]) == 0);
      }
      free(before);
    }
    rc_params_free(&pv);
  }
  free(s);
  return 0;
}
