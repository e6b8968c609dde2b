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

#endif
