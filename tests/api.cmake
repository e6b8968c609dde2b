# The public API (issue 17): installed headers are exactly include/radcol,
# each compiles alone, none declares a private function (plugin loader,
# parsers); no file under src/ names a built-in problem.
add_test(NAME api.public_headers
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_api.sh ${PROJECT_BINARY_DIR}
          ${PROJECT_SOURCE_DIR} $<TARGET_FILE:radcol_cli> ${CMAKE_C_COMPILER})
set_tests_properties(api.public_headers PROPERTIES LABELS cli TIMEOUT 120)

# The floors of src/ from the includes (docs/architecture.md): no file
# includes a header of a floor above its own, no circle between modules,
# every header beside the file that implements it.
if(RADCOL_PYTHON)
  add_test(NAME api.layers
    COMMAND ${RADCOL_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/test_layers.py
            ${PROJECT_SOURCE_DIR})
  set_tests_properties(api.layers PROPERTIES LABELS unit TIMEOUT 60)
endif()
