/*
 * radcol/plugin.h - user problems in a shared library: the one entry point a
 * plugin exports.  (The loader that opens plugins is private to radcol:
 * src/plugin_loader.h.)
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
 * Lifetime.  radcol keeps the library loaded until it has freed every
 * problem built by its models; the rc_plugin and rc_model data must stay
 * valid while it is loaded.
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

#ifdef __cplusplus
}
#endif
#endif
