# Crane problem: forward simulation against the flat inverse, reference
# residuals of every formulation, finite-difference derivative checks, and
# refused bad paths (CSV files in tests/data).
radcol_unit_test(test_crane test_crane.c)
target_compile_definitions(test_crane PRIVATE
  CRANE_TEST_DATA="${CMAKE_CURRENT_SOURCE_DIR}/data")
