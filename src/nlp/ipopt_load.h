/*
 * ipopt_load.h - Ipopt, loaded when an NLP is first handed to it (internal).
 *
 * The engine does not link Ipopt: a square system marched by Newton, a
 * `list`, an `info` never need it, and its chain (MUMPS, BLAS/LAPACK,
 * gfortran, libstdc++) cost every process that linked it its loading and
 * relocation time.  rc_ipopt_load() opens the library once and returns its C
 * interface as a table of function pointers typed from IpStdCInterface.h
 * itself, so a changed prototype is a compile error.
 *
 * The library is RADCOL_IPOPT_LIBRARY from the environment when set (an
 * Ipopt elsewhere, or a test of the failure), else the soname the build
 * found, then the same name in the directory the build found it in.  When
 * none can be opened, or a function is missing: RC_ERR_SOLVER (the CLI's
 * exit status 5) with dlerror's text.  The only other file that includes
 * IpStdCInterface.h is ipopt_adapter.c, the only user of this table.
 */
#ifndef RADCOL_IPOPT_LOAD_H
#define RADCOL_IPOPT_LOAD_H

#include <coin/IpStdCInterface.h>

#include "radcol/errors.h"

/* X(function) for every Ipopt C function radcol calls. */
#define RC_IPOPT_FUNCTIONS(X)                                                  \
  X(CreateIpoptProblem)                                                        \
  X(FreeIpoptProblem)                                                          \
  X(AddIpoptStrOption)                                                         \
  X(AddIpoptNumOption)                                                         \
  X(AddIpoptIntOption)                                                         \
  X(OpenIpoptOutputFile)                                                       \
  X(SetIntermediateCallback)                                                   \
  X(IpoptSolve)

typedef struct rc_ipopt_api {
#define RC_X_FIELD(name) __typeof__(&name) name;
  RC_IPOPT_FUNCTIONS(RC_X_FIELD)
#undef RC_X_FIELD
} rc_ipopt_api;

/* Ipopt's functions, loading the library on the first call; NULL with err
 * set (RC_ERR_SOLVER) when it cannot be loaded.  Later calls repeat the
 * first outcome. */
const rc_ipopt_api *rc_ipopt_load(rc_error *err);

#endif
