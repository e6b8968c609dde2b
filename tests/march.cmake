# The adaptive march (src/nlp/march.c, radcol/march.h): the Radau transform
# tables, the index of every unknown, the march to tolerance against the
# pendulum's reference at 1e-4 .. 1e-10, bad input and failure reports.
radcol_unit_test(test_march ${RADCOL_TEST_DIR}/test_march.c)
set_tests_properties(test_march PROPERTIES LABELS "unit;march" TIMEOUT 120)
add_test(NAME cli_march
         COMMAND sh ${RADCOL_TEST_DIR}/test_cli_march.sh ${RADCOL_EXE})
set_tests_properties(cli_march PROPERTIES LABELS "cli;march" TIMEOUT 120)
