# Explicit integrators (src/simulate.c) and `radcol simulate`: RK4 and Collatz
# orders against the pendulum reference, a Collatz step by hand from the
# seed's formulas, step planning and refusals, simulated guesses (test
# test_simulate, library only), and with the executable as argument the CLI's
# bad-input contract: exit 2, value named, nothing written (test_simulate_cli).
radcol_unit_test(test_simulate ${RADCOL_TEST_DIR}/test_simulate.c
                 ${PROJECT_SOURCE_DIR}/src/cli/forms.c)
add_dependencies(test_simulate radcol_cli)
set_tests_properties(test_simulate PROPERTIES LABELS "unit;simulate" TIMEOUT 60)
add_test(NAME test_simulate_cli COMMAND test_simulate $<TARGET_FILE:radcol_cli>)
set_tests_properties(test_simulate_cli PROPERTIES LABELS "simulate;cli"
                     TIMEOUT 60)
