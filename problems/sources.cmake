# One file per physical problem (all its formulations), plus dense_block.c,
# the dense-derivative kit of the mechanics problems.  Add new problems here
# and to the catalogue in src/registry.c.
set(RADCOL_PROBLEM_SOURCES
  problems/dense_block.c
  problems/crane.c
  problems/crane_path.c
  problems/double_pendulum.c
  problems/four_bar.c
  problems/pendulum.c
)
