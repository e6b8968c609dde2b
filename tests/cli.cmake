# Command-line contract (label `cli`): --help/--version, every bad input of
# the foundation issue (exit status, message naming the value, no file
# written), a good solve's --json shape, exit 1 with the file still written,
# and the parameter parser's unit test.  One CTest per case of
# tests/test_cli_bad_input.sh.
set(RADCOL_CLI_CASES
  help unknown_command no_command unknown_problem
  unknown_formulation unknown_option missing_value elements_zero
  elements_garbage elements_overflow stages_zero stages_40 tf_negative tf_nan
  set_unknown set_nan set_inf set_garbage set_no_equals tol_zero
  ipopt_no_equals refine_zero dense_bounds_bad plugin_missing mesh_missing
  mesh_not_hdf5 guess_missing guess_not_hdf5 fourbar_unassemblable info_missing
  info_not_hdf5
  hdf5_not_radcol output_dir_missing check_bad list_params_unknown
  guess_mismatch solve_json solve_default_output solve_not_converged ipopt_missing
  multiphase_newton multiphase_accuracy
)
foreach(case IN LISTS RADCOL_CLI_CASES)
  add_test(NAME cli.${case}
           COMMAND sh ${RADCOL_TEST_DIR}/test_cli_bad_input.sh
                   $<TARGET_FILE:radcol_cli> ${case})
  set_tests_properties(cli.${case} PROPERTIES LABELS cli TIMEOUT 60
                       SKIP_RETURN_CODE 77)
endforeach()
# the crane cycle solved in full (20 s idle)
set_tests_properties(cli.multiphase_accuracy PROPERTIES TIMEOUT 300)

radcol_unit_test(test_params ${RADCOL_TEST_DIR}/test_params.c)
set_tests_properties(test_params PROPERTIES LABELS "unit;cli")
