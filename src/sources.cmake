# Library sources, by layer (see README "Architecture").
set(RADCOL_LIB_SOURCES
  src/errors.c
  src/options.c
  src/mesh.c
  src/solution.c
  src/problem.c
  src/registry.c
  src/check.c
)
set(RADCOL_CLI_SOURCES
  src/cli/main.c
)
