# One file per physical problem (all its formulations); their derivatives use
# the header-only kit include/radcol/kit.h.  Add new problems here and to the
# catalogue in src/registry.c.
set(RADCOL_PROBLEM_SOURCES
  problems/crane.c
  problems/crane_path.c
  problems/double_pendulum.c
  problems/four_bar.c
  problems/pendulum.c
)
