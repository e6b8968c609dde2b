# Simple bounds on the dense output (Bernstein rows, src/transcription.c),
# the dense-grid constraint check (src/dense_check.c), its refinement
# criterion and the node-0 rule of the nodal errors (docs/dense-bounds.md).
radcol_unit_test(test_dense_check ${RADCOL_TEST_DIR}/test_dense_check.c)
set_tests_properties(test_dense_check PROPERTIES LABELS "unit;refine"
                     TIMEOUT 120)
if(RADCOL_PYTHON)
  add_test(NAME test_dense_crane
           COMMAND ${RADCOL_PYTHON} ${RADCOL_TEST_DIR}/test_dense_crane.py
                   $<TARGET_FILE:radcol_cli>
                   ${CMAKE_CURRENT_BINARY_DIR}/dense_crane)
  set_tests_properties(test_dense_crane PROPERTIES LABELS "cli;crane"
                       TIMEOUT 120)
endif()
