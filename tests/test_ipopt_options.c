/*
 * test_ipopt_options.c - the adapter's table of Ipopt option types
 * (src/ipopt_options.inc, issue 18 item 13) against the linked Ipopt.
 *
 * Ipopt's C interface returns FALSE when an option is set with a type other
 * than its registered one.  For every row: setting the key with each of the
 * two other types must fail (so the row's type is the registered one, or
 * the key is unknown), and for real and integer rows one of a few ordinary
 * values set with the row's type must succeed (so the key exists).  Also:
 * rc_ipopt_option_type finds rows and refuses unknown keys.  Ipopt prints
 * its refusals on stdout; this test's stdout is only a log.
 */
#include <coin/IpStdCInterface.h>
#include <stdio.h>
#include <string.h>

#include "nlp/ipopt_adapter.h"

enum { T_N, T_I, T_S };
static const struct {
  const char *name;
  int type;
} rows[] = {
#define X(name, type) {name, T_##type},
#include "nlp/ipopt_options.inc"
#undef X
};

static Bool f(Index n, Number *x, Bool nx, Number *o, UserDataPtr u) {
  (void)n, (void)nx, (void)u;
  *o = x[0] * x[0];
  return TRUE;
}
static Bool gr(Index n, Number *x, Bool nx, Number *g, UserDataPtr u) {
  (void)n, (void)nx, (void)u;
  g[0] = 2 * x[0];
  return TRUE;
}

int main(void) {
  Number lo[1] = {-1}, hi[1] = {1};
  IpoptProblem ip = CreateIpoptProblem(1, lo, hi, 0, NULL, NULL, 0, 0, 0, f,
                                       NULL, gr, NULL, NULL);
  int failures = 0, n = (int)(sizeof rows / sizeof rows[0]);
  if (!ip || n < 100) {
    fprintf(stderr, "FAIL: no Ipopt problem or only %d rows\n", n);
    return 1;
  }
  static const double reals[] = {1e-8, 1,    0,     0.5, 10,
                                 1e3,  1e19, -1e19, -1,  1.5};
  static const int ints[] = {0, 1, 3000, 5, 10, 100, -1, 2, 50000, 4};
  _Static_assert(sizeof reals / sizeof reals[0] == sizeof ints / sizeof ints[0],
                 "one value list length");
  for (int k = 0; k < n; ++k) {
    const char *key = rows[k].name;
    const int t = rows[k].type;
    int wrong = (t != T_N && AddIpoptNumOption(ip, (char *)key, 1.0)) ||
                (t != T_I && AddIpoptIntOption(ip, (char *)key, 1)) ||
                (t != T_S && AddIpoptStrOption(ip, (char *)key, "yes"));
    int exists = t == T_S;
    for (size_t v = 0; !exists && v < sizeof reals / sizeof reals[0]; ++v)
      exists = t == T_N ? AddIpoptNumOption(ip, (char *)key, reals[v])
                        : AddIpoptIntOption(ip, (char *)key, ints[v]);
    if (wrong || !exists) {
      fprintf(stderr, "FAIL: option %s: table type %c is %s\n", key, "NIS"[t],
              wrong ? "not the registered one" : "never accepted");
      ++failures;
    }
    if (rc_ipopt_option_type(key) != t) {
      fprintf(stderr, "FAIL: rc_ipopt_option_type(%s) != %d\n", key, t);
      ++failures;
    }
  }
  if (rc_ipopt_option_type("no_such_option") != -1 ||
      rc_ipopt_option_type("bound_relax_factor") != T_N ||
      rc_ipopt_option_type("max_iter") != T_I ||
      rc_ipopt_option_type("mu_strategy") != T_S) {
    fprintf(stderr, "FAIL: rc_ipopt_option_type lookups\n");
    ++failures;
  }
  FreeIpoptProblem(ip);
  fprintf(stderr, "test_ipopt_options: %d options checked, %d failures\n", n,
          failures);
  return failures ? 1 : 0;
}
