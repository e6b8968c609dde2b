# Derivative checks (label `derivatives`): the finite-difference checker's own
# unit test on a problem with planted bugs and on steep (exp(-500 h))
# derivatives, one test per (model, formulation) of the built-in registry, run
# by tests/check_all.c, and per (model, formulation) a mutation test
# (check.mutate.*): every Jacobian entry's sign flipped and every Hessian
# entry halved, one at a time, must each make the check fail naming that
# entry (3 points per block instead of 6, to keep the suite short: about
# 10 s of CPU over all formulations, most of it four-bar's).
#
# CMake cannot ask the C registry at configure time, so the cases are listed
# here; the test check.registry asserts that this list and rc_builtin_models()
# agree, so a new formulation without a check test fails.  A listed case whose
# model is not registered (not built yet) is reported as skipped.

radcol_unit_test(test_check ${RADCOL_TEST_DIR}/test_check.c)
set_tests_properties(test_check PROPERTIES LABELS "unit;derivatives")

# The transcription's own check (radcol/nlp_check.h) on an NLP with free
# segment durations: wrong entries planted in the assembled pattern fail it.
radcol_unit_test(test_nlp_check ${RADCOL_TEST_DIR}/test_nlp_check.c)
set_tests_properties(test_nlp_check PROPERTIES LABELS "unit;derivatives")

set(RADCOL_CHECK_CASES
  pendulum:index3 pendulum:ode pendulum:coord pendulum:accel
  pendulum:baumgarte pendulum:ggl pendulum:partition pendulum:angle
  double-pendulum:index3 double-pendulum:index1 double-pendulum:baumgarte
  double-pendulum:angle
  crane:flat crane:track crane:servo crane:reduced crane:mintime
  crane:pathtime crane:cycle
  four-bar:index3 four-bar:ggl four-bar:baumgarte
  double-integrator:mintime bryson-denham:l2
)

set(RADCOL_CHECK_MULTIPHASE crane:cycle)

add_executable(check_all ${RADCOL_TEST_DIR}/check_all.c)
target_link_libraries(check_all PRIVATE radcol_models radcol m)

add_test(NAME check.registry COMMAND check_all --registry ${RADCOL_CHECK_CASES})
set_tests_properties(check.registry PROPERTIES LABELS derivatives)

foreach(case IN LISTS RADCOL_CHECK_CASES)
  string(REPLACE ":" ";" parts "${case}")
  list(GET parts 0 model)
  list(GET parts 1 form)
  add_test(NAME check.${model}.${form} COMMAND check_all ${model} ${form})
  set_tests_properties(check.${model}.${form} PROPERTIES
    LABELS derivatives SKIP_RETURN_CODE 77 TIMEOUT 60)
  # a multiphase formulation's blocks are its phases' formulations' (crane
  # cycle: two mintime phases, mutated in check.mutate.crane.mintime); the
  # planted errors in linkage rows are test_phases'
  if(case IN_LIST RADCOL_CHECK_MULTIPHASE)
    continue()
  endif()
  add_test(NAME check.mutate.${model}.${form}
           COMMAND check_all --mutate ${model} ${form} 3)
  set_tests_properties(check.mutate.${model}.${form} PROPERTIES
    LABELS derivatives SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()
