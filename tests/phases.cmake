# Multiphase problems and data at interior times (radcol/phases.h,
# radcol/data.h; docs/phases.md): one phase is today's NLP bit for bit, the
# finite-difference check of linkage rows, free durations and data terms
# (and planted bugs it must catch), a closed-form two-phase optimum to 1e-9,
# a fit to exact data.
radcol_unit_test(test_phases test_phases.c)
set_tests_properties(test_phases PROPERTIES LABELS "unit;derivatives")

# The command line: a one-phase job file against the plain command line bit
# for bit, the gas-oil fit as a generated model with its data file against
# scipy, the closed-form two-mass job, radcol check --job, bad job files.
execute_process(COMMAND ${RADCOL_PYTHON} -c "import sympy, scipy, h5py"
                RESULT_VARIABLE _rc_ph_py OUTPUT_QUIET ERROR_QUIET)
if(RADCOL_PYTHON AND _rc_ph_py EQUAL 0)
  foreach(case identity gasoil two_mass check bad)
    add_test(NAME phases.${case}
      COMMAND ${RADCOL_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/test_phases_cli.py
              ${case} $<TARGET_FILE:radcol_cli> ${PROJECT_SOURCE_DIR}
              ${PROJECT_BINARY_DIR})
    set_tests_properties(phases.${case} PROPERTIES LABELS "cli;phases"
                         TIMEOUT 300)
  endforeach()
endif()

# The container crane's work cycle (radcol solve crane -f cycle: the
# crane's multiphase formulation, loaded and empty mintime phases in one
# NLP): converged; every limit held on a 1 ms dense grid of each phase, the
# stacks (path constraints, held between the nodes by the back-off of
# rc_phases.path_tol) to 1e-6 m; the plan replayed through the simulation
# phase by phase (radcol simulate --controls on the multiphase file, each
# phase from the end of the previous replay) to within 1e-3 m of the release
# point and back at the pick point (scripts/crane_cycle.py).
if(RADCOL_PYTHON AND _rc_ph_py EQUAL 0)
  add_test(NAME phases.crane_cycle
    COMMAND ${RADCOL_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/crane_cycle.py
            --radcol $<TARGET_FILE:radcol_cli>
            -o ${PROJECT_BINARY_DIR}/tests/crane-cycle.h5 --check
            --stack-tol 1e-6)
  set_tests_properties(phases.crane_cycle PROPERTIES LABELS "cli;phases"
                       TIMEOUT 300)
endif()
