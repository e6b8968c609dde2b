# radcol-gen and packaging (issue 15): the example model files through
# scripts/radcol-gen, each plugin built out of tree against the INSTALLED
# package (headers only) and passing radcol check and a solve; the generated
# pendulum twin against the hand-coded built-in (gen_twin); programs linking
# the installed library through CMake and pkg-config; the dynamic symbol
# table of the plugins.  Needs /usr/bin/python3 with sympy.
add_executable(gen_twin gen_twin.c)
target_include_directories(gen_twin PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(gen_twin PRIVATE radcol_models radcol radcol_collocation m)
# The plugin resolves rc_error_set from the executable, as from radcol's.
set_target_properties(gen_twin PROPERTIES ENABLE_EXPORTS ON)

execute_process(COMMAND ${RADCOL_PYTHON} -c "import sympy"
                RESULT_VARIABLE _rc_sympy_rc OUTPUT_QUIET ERROR_QUIET)
if(RADCOL_PYTHON AND _rc_sympy_rc EQUAL 0)
  add_test(NAME gen
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_gen.sh
            ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${RADCOL_PYTHON}
            $<TARGET_FILE:gen_twin>)
  set_tests_properties(gen PROPERTIES LABELS plugin TIMEOUT 300)
else()
  message(WARNING "radcol: no Python with sympy: the radcol-gen test is "
                  "skipped (apt-get install python3-sympy)")
endif()

# --guess FILE.h5 from another formulation (variables mapped by name and kind)
if(RADCOL_PYTHON)
  add_test(NAME cli.guess_map
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_guess_map.sh ${RADCOL_EXE}
            ${RADCOL_PYTHON})
  set_tests_properties(cli.guess_map PROPERTIES LABELS cli TIMEOUT 120)
endif()
