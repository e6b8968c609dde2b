# Robustness (issue 10, docs/robustness.md), label `robustness`:
#   solver failures -> documented status, exit 1, a valid file marked with the
#   status (tests/test_solver_failures.sh, with the fault-injecting test
#   plugin tests/plugins/robust_faults.c);
#   determinism: the same command twice, bit-identical /solution datasets
#   (tests/test_determinism.sh);
#   crash-safe output: 100 SIGKILLs during `radcol solve` (tests/
#   test_kill_write.py, about 30-60 s, label `robustness;slow`).
# The fuzz harnesses (fuzz/, scripts/fuzz.sh) and the valgrind pass
# (scripts/valgrind.sh) run outside CTest.
add_library(rc_test_plugin_faults MODULE plugins/robust_faults.c)
target_include_directories(rc_test_plugin_faults PRIVATE
                           ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include)
if(RADCOL_PYTHON)
  foreach(case infeasible max_iter nan fatal domain)
    add_test(NAME robust.fail.${case}
             COMMAND sh ${RADCOL_TEST_DIR}/test_solver_failures.sh
                     $<TARGET_FILE:radcol_cli> $<TARGET_FILE:rc_test_plugin_faults>
                     ${RADCOL_PYTHON} ${case})
    set_tests_properties(robust.fail.${case} PROPERTIES LABELS robustness
                         TIMEOUT 120)
  endforeach()
  foreach(case pendulum pendulum_index3 crane_track double_pendulum max_iter
               simulate)
    add_test(NAME robust.determinism.${case}
             COMMAND sh ${RADCOL_TEST_DIR}/test_determinism.sh
                     $<TARGET_FILE:radcol_cli> ${RADCOL_PYTHON} ${case})
    set_tests_properties(robust.determinism.${case} PROPERTIES
                         LABELS robustness TIMEOUT 120)
  endforeach()
  add_test(NAME robust.kill_write
           COMMAND ${RADCOL_PYTHON} ${RADCOL_TEST_DIR}/test_kill_write.py
                   $<TARGET_FILE:radcol_cli> --runs 100)
  set_tests_properties(robust.kill_write PROPERTIES LABELS "robustness;slow"
                       TIMEOUT 300 RUN_SERIAL ON)
endif()
add_test(NAME robust.known_hdf5_faults
         COMMAND sh ${RADCOL_TEST_DIR}/test_known_hdf5.sh
                 $<TARGET_FILE:radcol_cli> ${PROJECT_SOURCE_DIR}/fuzz/known)
set_tests_properties(robust.known_hdf5_faults PROPERTIES LABELS robustness
                     TIMEOUT 60)
# `radcol list --plugin LIB` shows the plugin's models before the built-ins.
add_test(NAME cli.list_plugin
         COMMAND sh -c "\"$1\" list --plugin \"$2\" | head -1 | grep -q '^faults '"
                 sh $<TARGET_FILE:radcol_cli> $<TARGET_FILE:rc_test_plugin_faults>)
set_tests_properties(cli.list_plugin PROPERTIES LABELS cli TIMEOUT 30)
# The adapter's table of Ipopt option types against the linked Ipopt
# (issue 18 item 13: --ipopt values are typed by lookup, not by guessing).
radcol_unit_test(test_ipopt_options ${RADCOL_TEST_DIR}/test_ipopt_options.c)
target_link_libraries(test_ipopt_options PRIVATE PkgConfig::IPOPT)
set_tests_properties(test_ipopt_options PROPERTIES LABELS "unit;robustness")
# Issue 18 (robustness, second round): failed writes, planted temporaries,
# non-regular targets, hostile HDF5, Ipopt options, stdout errors, stale
# temporaries (tests/test_robust_output.sh, one CTest per case).
if(RADCOL_PYTHON)
  foreach(case write_limit planted_symlink concurrent nonregular_target
               hostile_hdf5 ipopt_options out_of_memory init_failed
               nonfinite_input
               stdout_full name_length escape stale_temp)
    add_test(NAME robust.output.${case}
             COMMAND sh ${RADCOL_TEST_DIR}/test_robust_output.sh
                     $<TARGET_FILE:radcol_cli> ${RADCOL_PYTHON}
                     ${PROJECT_SOURCE_DIR} ${case})
    set_tests_properties(robust.output.${case} PROPERTIES
                         LABELS "robustness;cli" TIMEOUT 120
                         ENVIRONMENT
                         "FAULTS=$<TARGET_FILE:rc_test_plugin_faults>")
  endforeach()
  # SIGINT and SIGTERM while the temporary file exists remove it.
  add_test(NAME robust.signals
           COMMAND ${RADCOL_PYTHON} ${RADCOL_TEST_DIR}/test_signals.py
                   $<TARGET_FILE:radcol_cli> --rounds 3)
  set_tests_properties(robust.signals PROPERTIES LABELS robustness
                       TIMEOUT 120 RUN_SERIAL ON)
endif()
# Issue 28 (robustness, third round: a hostile probe): one CTest per case
# (tests/test_robust_probe.sh); the LD_PRELOAD shim tests/shim/fs_shim.c
# makes flock fail (ENOLCK) or holds a writer right after its rename.
add_library(rc_test_fs_shim MODULE shim/fs_shim.c)
target_link_libraries(rc_test_fs_shim PRIVATE ${CMAKE_DL_LIBS})
if(RADCOL_PYTHON)
  foreach(case plugin_truncated write_race lock_unsupported temp_name
               sweep_directory hostile_content info_validates guess_content
               short_horizon check_inf problem_dims null_model
               nonfinite_result hdf5_memory mumps_memory simulate_steps
               export_outputs model_reference json_failure stdout_contract
               fifo_input path_stored curve_checks
               csv_magnitude)
    add_test(NAME robust.probe.${case}
             COMMAND sh ${RADCOL_TEST_DIR}/test_robust_probe.sh
                     $<TARGET_FILE:radcol_cli> ${RADCOL_PYTHON}
                     ${PROJECT_SOURCE_DIR} ${case})
    set_tests_properties(robust.probe.${case} PROPERTIES
                         LABELS "robustness;cli" TIMEOUT 120
                         ENVIRONMENT
                         "FAULTS=$<TARGET_FILE:rc_test_plugin_faults>;SHIM=$<TARGET_FILE:rc_test_fs_shim>")
  endforeach()
endif()
