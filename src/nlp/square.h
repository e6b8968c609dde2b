/*
 * square.h - the square-system test behind rc_square_system (radcol/solve.h),
 * for the modules of src/nlp that integrate such systems.  Private.
 */
#ifndef RADCOL_NLP_SQUARE_H
#define RADCOL_NLP_SQUARE_H

#include <stddef.h>

#include "radcol/problem.h"

/* rc_square_system's rule: 1, or 0 with the first reason in why. */
int rc_square_check(const rc_problem *pb, char *why, size_t len);

#endif
