# Crane problem: forward simulation against the flat inverse, reference
# residuals of every formulation, finite-difference derivative checks, and
# refused bad paths (CSV files in tests/data).
radcol_unit_test(test_crane test_crane.c)
target_compile_definitions(test_crane PRIVATE
  CRANE_TEST_DATA="${CMAKE_CURRENT_SOURCE_DIR}/data")
# Crane jobs through the CLI: refused limits (exit 2), an end state proved
# unreachable (exit 1 within seconds), the JSON objective against a quadrature
# of the file's dense output (docs/crane-jobs.md).
if(RADCOL_PYTHON)
  add_test(NAME crane.jobs_cli
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_crane_cli.sh
                   $<TARGET_FILE:radcol_cli> ${RADCOL_PYTHON})
  set_tests_properties(crane.jobs_cli PROPERTIES LABELS "cli" TIMEOUT 120)
endif()
# Crane jobs with waypoint paths end to end (issue 13): smooth and stop
# modes, the 60 s job, the default mesh and its coarse-mesh warning, CSV
# refusals (tests/test_crane_jobs.py).
if(RADCOL_PYTHON)
  add_test(NAME crane_jobs
           COMMAND ${RADCOL_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/test_crane_jobs.py
                   $<TARGET_FILE:radcol_cli> ${CMAKE_CURRENT_SOURCE_DIR}/data
                   ${CMAKE_CURRENT_BINARY_DIR}/crane_jobs)
  set_tests_properties(crane_jobs PROPERTIES LABELS "unit;cli" TIMEOUT 300)
endif()
# reduced without projection (project=0) writes other rows than the
# registry's default-parameter check (check.crane.reduced) sees.
add_test(NAME check.crane.reduced_plain
         COMMAND $<TARGET_FILE:radcol_cli> check crane -f reduced
                 --set project=0)
set_tests_properties(check.crane.reduced_plain PROPERTIES
                     LABELS "derivatives" TIMEOUT 60)
