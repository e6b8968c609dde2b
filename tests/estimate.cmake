# A-posteriori error estimate (src/estimate.c, issue 14): --refine meets its
# tolerance on the dense output, estimate reliability on cases it was not
# tuned on, --error-tol and status inaccurate, crane servo from a coarse
# guess, every --json key documented in docs/json.md, bad input; and the
# 20-stage refinement (issue 17 item 5).  One CTest per case of
# tests/test_estimate.py.
radcol_unit_test(test_estimate_unit ${RADCOL_TEST_DIR}/test_estimate_unit.c)
set_tests_properties(test_estimate_unit PROPERTIES LABELS "unit;estimate")
if(RADCOL_PYTHON)
  foreach(case IN ITEMS stages20 refine_dense reliability error_tol servo
                        bangbang json_docs bad_input)
    add_test(NAME estimate.${case}
             COMMAND ${RADCOL_PYTHON} ${RADCOL_TEST_DIR}/test_estimate.py
                     $<TARGET_FILE:radcol_cli> ${PROJECT_SOURCE_DIR} ${case})
    set_tests_properties(estimate.${case} PROPERTIES LABELS "estimate"
                         TIMEOUT 120)
  endforeach()
  # The study script (results/estimate-reliability.md) answers --help.
  add_test(NAME estimate.study_help
           COMMAND ${RADCOL_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/estimate_study.py
                   --help)
  set_tests_properties(estimate.study_help PROPERTIES LABELS "estimate"
                       PASS_REGULAR_EXPRESSION "--refine TOL")
endif()
