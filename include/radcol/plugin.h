/*
 * radcol/plugin.h - user problems in a shared library: the one entry point a
 * plugin exports, and the loader radcol uses to open it.
 *
 * A plugin is a shared library (built against the installed headers, see
 * docs/writing-a-problem.md) that defines
 *
 *     RC_PLUGIN_EXPORT const rc_plugin *radcol_plugin(void);
 *
 * returning a pointer to a static rc_plugin that lists its models
 * (rc_model, radcol/problem.h).  `radcol solve|check|init|simulate
 * --plugin LIB.so PROBLEM` loads LIB.so and looks PROBLEM up among the
 * plugin's models first, then among the built-in ones.
 *
 * Versioning.  abi_version must be RC_PROBLEM_ABI_VERSION as seen by the
 * plugin's compiler (write RC_PROBLEM_ABI_VERSION, never a number).  The
 * version covers the layout of everything a plugin exchanges with radcol:
 * rc_plugin, rc_model, rc_problem, rc_block, rc_param_values and rc_error.
 * The loader reads abi_version first and refuses any other value (older or
 * newer) before it touches another field, so abi_version stays the first
 * member of rc_plugin in every future version.
 *
 * Symbols.  Besides the headers, a plugin may call rc_error_set and the
 * other library functions declared in radcol/problem.h, radcol/errors.h and
 * radcol/ode_reference.h (the derivative kit, radcol/kit.h, is header-only);
 * the radcol executable exports them (it is linked with ENABLE_EXPORTS), so
 * a plugin need not link libradcol.  Linking radcol::radcol also works (the
 * plugin then carries its own copy of the few objects it uses).
 *
 * Lifetime.  The library stays loaded until rc_plugin_close; problems built
 * by its models (and the rc_plugin and rc_model data) must not outlive it.
 */
#ifndef RADCOL_PLUGIN_H
#define RADCOL_PLUGIN_H

#include "radcol/errors.h"
#include "radcol/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Name of the entry point the loader looks up with dlsym. */
#define RC_PLUGIN_ENTRY "radcol_plugin"

/* Marks the entry point visible even under -fvisibility=hidden. */
#if defined(__GNUC__)
#define RC_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define RC_PLUGIN_EXPORT
#endif

/* What radcol_plugin() returns.  All pointers are borrowed from the plugin
 * and must stay valid while it is loaded. */
typedef struct rc_plugin {
  int abi_version;  /* RC_PROBLEM_ABI_VERSION; always the first member */
  const char *name; /* the plugin's name, for messages */
  int nmodels;      /* >= 1 */
  const rc_model *const *models; /* nmodels entries, none NULL */
} rc_plugin;

/* Type of the entry point. */
typedef const rc_plugin *(*rc_plugin_entry_fn)(void);

/* ---- the loader (used by the radcol executable) ------------------------- */

typedef struct rc_plugin_handle rc_plugin_handle;

/* Open the shared library at path (a name without '/' is taken relative to
 * the current directory, not searched on the library path), call its entry
 * point and validate what it returns: the ABI version, then every model
 * (non-empty names made of letters, digits, '_', '-' and '.', unique within
 * the plugin and different from the built-in problems; at least one
 * formulation with unique names; a default formulation in range; parameter
 * definitions with unique names; a create function).  Every failure is
 * RC_ERR_INPUT with a message naming the path and what was expected; *out is
 * then NULL.  On success *out is owned by the caller (rc_plugin_close). */
rc_err rc_plugin_open(const char *path, rc_plugin_handle **out, rc_error *err);

/* The checks rc_plugin_open applies to what the entry point returned (ABI
 * version, models, names, formulations, parameters and their defaults,
 * create): RC_OK, or RC_ERR_INPUT naming path and the offending entry.
 * Exposed for tests and fuzz/fuzz_plugin.c. */
rc_err rc_plugin_validate(const char *path, const rc_plugin *pl, rc_error *err);

/* The plugin's description (borrowed from the library). */
const rc_plugin *rc_plugin_info(const rc_plugin_handle *h);

/* The plugin's model called name, or NULL. */
const rc_model *rc_plugin_find_model(const rc_plugin_handle *h,
                                     const char *name);

/* Unload the library, free the handle and set *h = NULL (NULL-safe).  Every
 * problem built by the plugin must have been freed before. */
void rc_plugin_close(rc_plugin_handle **h);

#ifdef __cplusplus
}
#endif
#endif
