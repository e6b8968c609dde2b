# Minimum-time crane moves (crane -f mintime, docs/crane-mintime.md): the
# issue-19 job from the built-in guess, tf* on two meshes, the u1max sweep
# with replays of every plan, a stack that forces a lift, refused input.
# The solves compared by mintime.mesh and mintime.sweep_order are fixtures
# writing into the build tree.
if(RADCOL_PYTHON)
  set(_mt_dir ${CMAKE_CURRENT_BINARY_DIR}/mintime)
  set(_mt_cmd ${RADCOL_PYTHON} ${RADCOL_TEST_DIR}/test_mintime.py
              $<TARGET_FILE:radcol_cli>)
  add_test(NAME mintime.accept COMMAND ${_mt_cmd} accept ${_mt_dir})
  add_test(NAME mintime.mesh200 COMMAND ${_mt_cmd} mesh200 ${_mt_dir})
  set_tests_properties(mintime.accept mintime.mesh200 PROPERTIES
                       FIXTURES_SETUP mintime_mesh)
  add_test(NAME mintime.mesh COMMAND ${_mt_cmd} mesh ${_mt_dir})
  add_test(NAME mintime.replay COMMAND ${_mt_cmd} replay ${_mt_dir})
  set_tests_properties(mintime.mesh mintime.replay PROPERTIES
                       FIXTURES_REQUIRED mintime_mesh)
  foreach(u 5 10 20 40)
    add_test(NAME mintime.sweep_${u} COMMAND ${_mt_cmd} sweep_${u} ${_mt_dir})
    set_tests_properties(mintime.sweep_${u} PROPERTIES
                         FIXTURES_SETUP mintime_sweep)
  endforeach()
  add_test(NAME mintime.sweep_order COMMAND ${_mt_cmd} sweep_order ${_mt_dir})
  set_tests_properties(mintime.sweep_order PROPERTIES
                       FIXTURES_REQUIRED mintime_sweep)
  add_test(NAME mintime.stack COMMAND ${_mt_cmd} stack)
  add_test(NAME mintime.bad COMMAND ${_mt_cmd} bad)
  set_tests_properties(mintime.accept mintime.mesh200 mintime.mesh
                       mintime.sweep_5 mintime.sweep_10 mintime.sweep_20
                       mintime.sweep_40 mintime.sweep_order mintime.stack
                       mintime.bad mintime.replay
                       PROPERTIES LABELS "mintime;cli"
                       TIMEOUT 180)
  # crane -f pathtime (tests/test_pathtime.py): the line case compares
  # with mintime's tf* (mt150.h5) and writes the plan the replay case reads
  set(_pt_cmd ${RADCOL_PYTHON} ${RADCOL_TEST_DIR}/test_pathtime.py
              $<TARGET_FILE:radcol_cli>)
  set(_pt_dir ${CMAKE_CURRENT_BINARY_DIR}/pathtime)
  foreach(c line refine reverse replay curve bad)
    add_test(NAME pathtime.${c} COMMAND ${_pt_cmd} ${c} ${_pt_dir} ${_mt_dir})
    set_tests_properties(pathtime.${c} PROPERTIES LABELS "mintime;pathtime;cli"
                         TIMEOUT 180)
  endforeach()
  set_tests_properties(pathtime.line pathtime.curve PROPERTIES
                       FIXTURES_REQUIRED mintime_mesh)
  set_tests_properties(pathtime.line PROPERTIES FIXTURES_SETUP pathtime_line)
  set_tests_properties(pathtime.replay PROPERTIES
                       FIXTURES_REQUIRED pathtime_line)
endif()
# The stack rows and the regularisation row exist only when set: the
# registry's default-parameter check (check.crane.mintime) does not see
# them, so they get their own finite-difference check.
add_test(NAME check.crane.mintime_stack_reg
         COMMAND $<TARGET_FILE:radcol_cli> check crane -f mintime
                 "--set" "stack=1.5:2.5:0.7;0.5:1:1.5" --set ureg=1e-3
                 --set u1max=10)
set_tests_properties(check.crane.mintime_stack_reg PROPERTIES
                     LABELS "derivatives;mintime" TIMEOUT 60)
# pathtime along a curve: the registry's check runs the straight line; the
# curve's chain-rule terms (P'' .. P'''''') get their own check.
add_test(NAME check.crane.pathtime_curve
         COMMAND $<TARGET_FILE:radcol_cli> check crane -f pathtime
                 --set curve=${RADCOL_TEST_DIR}/data/crane_curve_bow.csv
                 --set u1max=10)
set_tests_properties(check.crane.pathtime_curve PROPERTIES
                     LABELS "derivatives;pathtime" TIMEOUT 60)
