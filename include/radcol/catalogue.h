/*
 * radcol/catalogue.h - radcol's built-in demo models (pendulum,
 * double-pendulum, crane, four-bar), from the separate library
 * radcol_models (CMake target radcol::models; the CLI links it).  The engine
 * library (radcol::radcol) holds no built-in model: a program that solves its
 * own or a plugin's problems links the engine alone, and looks models up with
 * rc_model_list_find (radcol/problem.h).
 */
#ifndef RADCOL_CATALOGUE_H
#define RADCOL_CATALOGUE_H

#include "radcol/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The built-in models, NULL-terminated. */
const rc_model *const *rc_builtin_models(void);

/* The built-in model called name, or NULL
 * (rc_model_list_find(rc_builtin_models(), name)). */
const rc_model *rc_find_model(const char *name);

#ifdef __cplusplus
}
#endif
#endif
