/*
 * ipopt_load.c - opens Ipopt with dlopen on first use (see ipopt_load.h).
 *
 * Once per process: dlopen with RTLD_NOW, so a library that
 * lacks one of its own dependencies fails here, with dlerror's text, and
 * never in the middle of a solve; RTLD_LOCAL keeps Ipopt's symbols (and
 * its BLAS/LAPACK) out of the global scope that plugins resolve against.
 * The library stays loaded until exit (no dlclose: Ipopt and MUMPS keep
 * static state).  Like Ipopt with the sequential MUMPS it drives, not
 * thread-safe: the first Ipopt solve of a process must not race another.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nlp/ipopt_load.h"

#ifndef RADCOL_IPOPT_SONAME
#define RADCOL_IPOPT_SONAME "libipopt.so"
#endif

static int tried;
static rc_ipopt_api api;
static int loaded; /* 1 ok, 0 failed */
static char failure[RC_MESSAGE_MAX];

static void *open_library(char *why, size_t size) {
  const char *env = getenv("RADCOL_IPOPT_LIBRARY");
  if (env && env[0]) {
    void *h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
    if (!h)
      snprintf(why, size, "RADCOL_IPOPT_LIBRARY=%s: %s", env, dlerror());
    return h;
  }
  void *h = dlopen(RADCOL_IPOPT_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (h)
    return h;
  snprintf(why, size, "%s", dlerror());
#ifdef RADCOL_IPOPT_DIR
  h = dlopen(RADCOL_IPOPT_DIR "/" RADCOL_IPOPT_SONAME, RTLD_NOW | RTLD_LOCAL);
#endif
  return h;
}

static void load(void) {
  char why[RC_MESSAGE_MAX - 96];
  void *h = open_library(why, sizeof why);
  if (!h) {
    snprintf(failure, sizeof failure,
             "the NLP solver Ipopt cannot be loaded: %s (set "
             "RADCOL_IPOPT_LIBRARY to its shared library)",
             why);
    return;
  }
  /* A function pointer from dlsym's void * (POSIX guarantees the sizes). */
#define RC_X_SYM(name)                                                         \
  do {                                                                         \
    void *sym = dlsym(h, #name);                                               \
    if (!sym) {                                                                \
      snprintf(failure, sizeof failure,                                        \
               "the NLP solver Ipopt was loaded but lacks its C function "     \
               "%s: expected Ipopt 3.11 or later",                             \
               #name);                                                         \
      return;                                                                  \
    }                                                                          \
    memcpy(&api.name, &sym, sizeof sym);                                       \
  } while (0);
  RC_IPOPT_FUNCTIONS(RC_X_SYM)
#undef RC_X_SYM
  loaded = 1;
}

const rc_ipopt_api *rc_ipopt_load(rc_error *err) {
  if (!tried) {
    tried = 1;
    load();
  }
  if (!loaded) {
    rc_error_set(err, RC_ERR_SOLVER, "%s", failure);
    return NULL;
  }
  return &api;
}
