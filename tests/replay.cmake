# Replay of a plan's controls (src/replay.c, radcol simulate --controls) and
# radcol export (src/cli/cli_export.c); docs/export-replay.md.
# test_replay: the library against closed-form solutions (dense-output and
# held controls, settle, refusals).  export_replay.*: the command-line
# contract with the default crane and pendulum solves (Python: numpy, h5py).
radcol_unit_test(test_replay ${RADCOL_TEST_DIR}/test_replay.c)
set_tests_properties(test_replay PROPERTIES LABELS "unit;replay" TIMEOUT 60)
if(RADCOL_PYTHON)
  foreach(case export_contract export_pendulum export_bad replay_crane
          replay_params replay_pendulum replay_flat
          replay_limits replay_bad)
    add_test(NAME export_replay.${case}
             COMMAND ${RADCOL_PYTHON} ${RADCOL_TEST_DIR}/test_export_replay.py
                     $<TARGET_FILE:radcol_cli> ${case})
    set_tests_properties(export_replay.${case} PROPERTIES
                         LABELS "replay;cli" TIMEOUT 120)
  endforeach()
endif()
