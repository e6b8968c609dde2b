/*
 * no_entry.c - a test plugin that is a valid shared library but defines no
 * radcol_plugin() entry point (it names its function differently): loading
 * it must fail with exit status 2 and a message naming the entry point.
 */
#include <stddef.h>

#include "radcol/plugin.h"

static const rc_plugin plugin = {RC_PROBLEM_ABI_VERSION, "no-entry", 0, NULL};

RC_PLUGIN_EXPORT const rc_plugin *radcol_plugin_misspelt(void) {
  return &plugin;
}
