# Plugins (issue 6): the template built out of tree against an installed
# radcol, its check and solve against the analytic brachistochrone, and the
# loader's refusals.  The refused plugins are built here with the public
# headers only; the bad-derivative plugin and the template are built by the
# test itself against the installed prefix (pkg-config and CMake package).
set(_rc_plugin_inc ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include)
add_library(rc_test_plugin_no_entry MODULE plugins/no_entry.c)
add_library(rc_test_plugin_abi_old MODULE plugins/wrong_abi.c)
add_library(rc_test_plugin_abi_new MODULE plugins/wrong_abi.c)
target_compile_definitions(rc_test_plugin_abi_old PRIVATE TEST_ABI_VERSION=0)
target_compile_definitions(rc_test_plugin_abi_new PRIVATE
                           "TEST_ABI_VERSION=(RC_PROBLEM_ABI_VERSION + 1)")
foreach(_t rc_test_plugin_no_entry rc_test_plugin_abi_old rc_test_plugin_abi_new)
  target_include_directories(${_t} PRIVATE ${_rc_plugin_inc})
endforeach()

add_test(NAME plugin
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_plugin.sh
          ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
          $<TARGET_FILE:rc_test_plugin_no_entry>
          $<TARGET_FILE:rc_test_plugin_abi_old>
          $<TARGET_FILE:rc_test_plugin_abi_new>
          "${RADCOL_PYTHON}")
set_tests_properties(plugin PROPERTIES LABELS plugin TIMEOUT 180)

# The problem kit from a plugin (radcol/kit.h header only, rc_ode_reference
# resolved from the executable): check, solve, drift and a refused entry.
add_library(rc_test_plugin_kit MODULE plugins/kit_plugin.c)
target_include_directories(rc_test_plugin_kit PRIVATE ${_rc_plugin_inc})
set_target_properties(rc_test_plugin_kit PROPERTIES C_VISIBILITY_PRESET hidden)
add_test(NAME plugin.kit
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_kit_plugin.sh
          $<TARGET_FILE:radcol_cli> $<TARGET_FILE:rc_test_plugin_kit>)
set_tests_properties(plugin.kit PROPERTIES LABELS plugin TIMEOUT 120)
