# Problems with switches against closed-form optima (docs/switching.md):
# Bryson-Denham (state-constrained) and the minimum-time double integrator
# (bang-bang) solved by --refine with free breakpoints: J to 1e-9 relative,
# switch times to 1e-8; and Bryson-Denham on uniform meshes as the contrast.
if(RADCOL_PYTHON)
  foreach(case bd_ninth bd_tenth bd_uniform di_rest di_moving di_mirror
               bd_default di_default pt_refine)
    add_test(NAME switching.${case}
             COMMAND ${RADCOL_PYTHON} ${RADCOL_TEST_DIR}/test_switching.py
                     $<TARGET_FILE:radcol_cli> ${case})
    set_tests_properties(switching.${case} PROPERTIES LABELS "switching;cli"
                         TIMEOUT 120)
  endforeach()
  # two crane pathtime runs of 14-18 s each on an idle machine; several
  # minutes when the suite shares 2 cores with other work
  set_tests_properties(switching.pt_refine PROPERTIES TIMEOUT 400)
endif()

# The refinement's switching step: an autonomous problem with a switch gets
# one, a non-autonomous problem never gets free breakpoints.
radcol_unit_test(test_switching_step ${RADCOL_TEST_DIR}/test_switching_step.c)
set_tests_properties(test_switching_step PROPERTIES LABELS "unit;switching")
