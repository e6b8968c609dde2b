/*
 * plugin_loader.h - the loader that opens plugins (private to radcol: the
 * CLI's --plugin, tests and fuzz/fuzz_plugin.c use it; not an installed
 * header).  What a plugin itself sees is radcol/plugin.h: the entry point,
 * rc_plugin and RC_PROBLEM_ABI_VERSION.
 *
 * Lifetime.  The shared library stays loaded until rc_plugin_close; problems
 * built by its models (and the rc_plugin and rc_model data) must not outlive
 * it.
 */
#ifndef RADCOL_PLUGIN_LOADER_H
#define RADCOL_PLUGIN_LOADER_H

#include "radcol/errors.h"
#include "radcol/plugin.h"
#include "radcol/problem.h"

typedef struct rc_plugin_handle rc_plugin_handle;

/* Open the shared library at path (a name without '/' is taken relative to
 * the current directory, not searched on the library path), call its entry
 * point and validate what it returns: the ABI version, then every model
 * (non-empty names made of letters, digits, '_', '-' and '.', unique within
 * the plugin and different from every model of taken, a NULL-terminated
 * list (NULL: none), e.g. the built-in catalogue; at least one
 * formulation with unique names; a default formulation in range; parameter
 * definitions with unique names; a create function).  Every failure is
 * RC_ERR_INPUT with a message naming the path and what was expected; *out is
 * then NULL.  On success *out is owned by the caller (rc_plugin_close). */
rc_err rc_plugin_open(const char *path, const rc_model *const *taken,
                      rc_plugin_handle **out, rc_error *err);

/* The checks rc_plugin_open applies to what the entry point returned (ABI
 * version, models, names, formulations, parameters and their defaults,
 * create): RC_OK, or RC_ERR_INPUT naming path and the offending entry.
 * Separate for fuzz/fuzz_plugin.c. */
rc_err rc_plugin_validate(const char *path, const rc_plugin *pl,
                          const rc_model *const *taken, rc_error *err);

/* The plugin's description (borrowed from the library). */
const rc_plugin *rc_plugin_info(const rc_plugin_handle *h);

/* The plugin's model called name, or NULL. */
const rc_model *rc_plugin_find_model(const rc_plugin_handle *h,
                                     const char *name);

/* Unload the library, free the handle and set *h = NULL (NULL-safe).  Every
 * problem built by the plugin must have been freed before. */
void rc_plugin_close(rc_plugin_handle **h);

#endif
