# Consistent initialisation (radcol init, rc_init_solve, rc_make_consistent):
# outcomes asserted against closed-form consistent points.
radcol_unit_test(test_init test_init.c)
set_tests_properties(test_init PROPERTIES LABELS "unit;init")
add_test(NAME init_cli COMMAND sh ${RADCOL_TEST_DIR}/test_init_cli.sh ${RADCOL_EXE})
set_tests_properties(init_cli PROPERTIES LABELS "cli;init")
target_compile_definitions(test_init PRIVATE
  INIT_TEST_DATA="${CMAKE_CURRENT_SOURCE_DIR}/data")
# A different start as a library operation (radcol/start.h, rc_options.x0).
radcol_unit_test(test_start test_start.c)
set_tests_properties(test_start PROPERTIES LABELS "unit;init")
if(RADCOL_PYTHON)
  add_test(NAME init.solve_start
           COMMAND ${RADCOL_PYTHON} ${RADCOL_TEST_DIR}/test_solve_start.py
                   $<TARGET_FILE:radcol_cli>)
  set_tests_properties(init.solve_start PROPERTIES LABELS "cli;init" TIMEOUT 120)
endif()
