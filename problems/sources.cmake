# One file per physical problem (all its formulations), or one folder for a
# larger one (problems/crane/); their derivatives use the header-only kit
# include/radcol/kit.h.  Add new problems here and to the catalogue in
# problems/catalogue.c (the only list of the built-in models).
set(RADCOL_PROBLEM_SOURCES
  problems/bryson_denham.c
  problems/catalogue.c
  problems/crane/along.c
  problems/crane/create.c
  problems/crane/limits.c
  problems/crane/mesh.c
  problems/crane/mintime.c
  problems/crane/cycle.c
  problems/crane/model.c
  problems/crane/path.c
  problems/crane/path_csv.c
  problems/crane/path_spline.c
  problems/crane/pathtime.c
  problems/crane/reduced.c
  problems/crane/track.c
  problems/double_integrator.c
  problems/double_pendulum.c
  problems/four_bar.c
  problems/origin.c
  problems/pendulum.c
)
