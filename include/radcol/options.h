/*
 * radcol/options.h - solver settings: a typed struct, a defaults function and
 * one validation function.  Raw Ipopt options pass through as "key=value"
 * strings that only the Ipopt adapter reads.
 */
#ifndef RADCOL_OPTIONS_H
#define RADCOL_OPTIONS_H

#include "radcol/errors.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*rc_progress_fn)(void *ctx, int iter, double objective,
                               double inf_pr, double inf_du);

typedef struct rc_options {
  double tol;            /* Ipopt tol; default 1e-10 */
  double acceptable_tol; /* default 1e-6 */
  int max_iter;          /* default 3000 */
  double max_cpu_s;      /* default 1e6 */
  int print_level;       /* Ipopt print_level; default 0 */
  int warm_start; /* use the guess's multipliers (warm_start_init_point) */
  int dense_per_element; /* dense-grid points per element for diagnostics; 8 */
  int nipopt;            /* raw Ipopt options ... */
  const char *const *ipopt_kv; /* ... as "key=value" (borrowed) */
  rc_progress_fn progress;     /* called once per Ipopt iteration, or NULL */
  void *progress_ctx;
} rc_options;

void rc_options_default(rc_options *opt);
rc_err rc_options_validate(const rc_options *opt, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
