# The accuracy rule (issue 24, docs/accuracy.md): the library forms the
# verdict and the CLI prints the library's status.  accuracy.rule runs
# rc_solve / rc_solve_refined / rc_solve_adaptive (test_accuracy_rule.c) and
# `radcol solve --json` on the same cases and compares them.
add_executable(test_accuracy_rule ${RADCOL_TEST_DIR}/test_accuracy_rule.c)
target_include_directories(test_accuracy_rule PRIVATE ${PROJECT_SOURCE_DIR}/src
                           ${PROJECT_SOURCE_DIR})
target_link_libraries(test_accuracy_rule PRIVATE radcol_models radcol_sim
                      radcol radcol_collocation m)
if(RADCOL_PYTHON)
  add_test(NAME accuracy.rule
           COMMAND ${RADCOL_PYTHON} ${RADCOL_TEST_DIR}/test_accuracy_rule.py
                   $<TARGET_FILE:radcol_cli> $<TARGET_FILE:test_accuracy_rule>)
  set_tests_properties(accuracy.rule PROPERTIES LABELS "accuracy" TIMEOUT 300)
else()
  add_test(NAME accuracy.rule COMMAND test_accuracy_rule)
  set_tests_properties(accuracy.rule PROPERTIES LABELS "accuracy" TIMEOUT 300)
endif()
