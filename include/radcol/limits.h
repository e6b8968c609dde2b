/*
 * radcol/limits.h - the limits radcol puts on numbers from its input.
 */
#ifndef RADCOL_LIMITS_H
#define RADCOL_LIMITS_H

/* Largest magnitude of a real radcol accepts from its input (--set, --tf,
 * --tol, numbers in --guess files, CSV files, plugin defaults): squares and
 * products of two such values stay finite, so no input can overflow to inf
 * before the solver runs. */
#define RC_REAL_MAX_ABS 1e150

/* Largest dimension of a problem (each of nx, ny, nu, np, nc, nb, ninv and
 * nout, checked one by one by rc_problem_validate before any is summed), and
 * of one read from a result file: sums of a few stay far inside int. */
#define RC_DIM_MAX 1048576

/* Largest input file (an RC_PARAM_FILE parameter's, e.g. a CSV path) that
 * a result file stores with the parameter: 64 MiB. */
#define RC_FILE_PARAM_MAX ((size_t)64 << 20)

#endif
