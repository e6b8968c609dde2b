# Simple bounds on the dense output (Bernstein rows, src/transcription.c),
# the dense-grid constraint check (src/dense_check.c), its refinement
# criterion and the node-0 rule of the nodal errors (docs/dense-bounds.md).
radcol_unit_test(test_dense_check ${RADCOL_TEST_DIR}/test_dense_check.c)
set_tests_properties(test_dense_check PROPERTIES LABELS "unit;refine"
                     TIMEOUT 120)
