# Index-3 mechanics (problems/double_pendulum.c, problems/four_bar.c): the
# references against independent checks (energy, joint geometry, finite
# differences), every formulation's equations along the references, and the
# finite-difference derivative check (also for the four-bar torque driver).
radcol_unit_test(test_mechanics ${RADCOL_TEST_DIR}/test_mechanics.c)
set_tests_properties(test_mechanics PROPERTIES LABELS "unit;mechanics" TIMEOUT 60)
