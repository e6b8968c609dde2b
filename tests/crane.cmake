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
