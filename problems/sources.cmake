# One file per physical problem (all its formulations); their derivatives use
# the header-only kit include/radcol/kit.h.  Add new problems here and to the
# catalogue in problems/catalogue.c (the only list of the built-in models).
set(RADCOL_PROBLEM_SOURCES
  problems/bryson_denham.c
  problems/catalogue.c
  problems/crane.c
  problems/crane_path.c
  problems/double_integrator.c
  problems/double_pendulum.c
  problems/four_bar.c
  problems/pendulum.c
)
