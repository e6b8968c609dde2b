# The square-system path (src/newton.c): Newton equals Ipopt to 1e-10 on
# pendulum accel, double-pendulum index1 and four-bar baumgarte, the square
# rule, the Ipopt fallback and its report, and the refusal on an OCP.
radcol_unit_test(test_newton ${RADCOL_TEST_DIR}/test_newton.c)
set_tests_properties(test_newton PROPERTIES LABELS "unit;newton" TIMEOUT 120)
add_test(NAME cli_solver_flag
         COMMAND sh ${RADCOL_TEST_DIR}/test_cli_solver.sh ${RADCOL_EXE}
                 "${RADCOL_PYTHON}")
set_tests_properties(cli_solver_flag PROPERTIES LABELS "cli;newton" TIMEOUT 120)
