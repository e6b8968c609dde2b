# Adaptive hp mesh refinement (src/refine.c): options, the Patterson-Hager-Rao
# estimator's order, the hp mesh update formulas, refine-to-1e-8 against the
# smallest uniform mesh on a boundary-layer ODE with an exact solution and on
# the pendulum (accel), warm start against a cold solve, runaway caps.
radcol_unit_test(test_refine ${RADCOL_TEST_DIR}/test_refine.c)
set_tests_properties(test_refine PROPERTIES LABELS "unit;refine" TIMEOUT 120)

