# The adaptive march (src/nlp/march.c, radcol/march.h): the Radau transform
# tables, the index of every unknown, the march to tolerance against the
# pendulum's reference at 1e-4 .. 1e-10, bad input and failure reports.
radcol_unit_test(test_march ${RADCOL_TEST_DIR}/test_march.c)
set_tests_properties(test_march PROPERTIES LABELS "unit;march" TIMEOUT 120)
add_test(NAME cli_march
         COMMAND sh ${RADCOL_TEST_DIR}/test_cli_march.sh ${RADCOL_EXE})
set_tests_properties(cli_march PROPERTIES LABELS "cli;march" TIMEOUT 120)
# Per-variable tolerances on a model whose unknowns span 1e-3 .. 1e6, against
# scipy (needs sympy for radcol-gen, scipy, h5py and a C compiler).
execute_process(COMMAND ${RADCOL_PYTHON} -c "import sympy, scipy, h5py"
                RESULT_VARIABLE _rc_march_py_rc OUTPUT_QUIET ERROR_QUIET)
if(RADCOL_PYTHON AND _rc_march_py_rc EQUAL 0)
  add_test(NAME march.scaled
    COMMAND ${RADCOL_PYTHON} ${RADCOL_TEST_DIR}/test_march_scaled.py
            ${RADCOL_EXE} ${PROJECT_SOURCE_DIR} ${CMAKE_C_COMPILER})
  set_tests_properties(march.scaled PROPERTIES LABELS "march;plugin" TIMEOUT 180)
else()
  message(WARNING "radcol: no Python with sympy, scipy and h5py: the scaled "
                  "march test is skipped")
endif()
# Index-3 forms on a sample of uniform meshes (the sweep: scripts/).
add_test(NAME march.uniform_index3
         COMMAND sh ${RADCOL_TEST_DIR}/test_march_uniform.sh ${RADCOL_EXE})
set_tests_properties(march.uniform_index3 PROPERTIES LABELS "march" TIMEOUT 300)
