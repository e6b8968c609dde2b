# The DAE benchmark models (benchmarks/dae/, issue 26): each model.py goes
# through scripts/radcol-gen, is compiled against include/ with the C
# compiler and solves its quick run (bench.json "quick") to at least its
# min_digits against the independent reference trajectory
# (scripts/bench_dae.py --check).  Needs Python with numpy and sympy.
execute_process(COMMAND ${RADCOL_PYTHON} -c "import numpy, sympy"
                RESULT_VARIABLE _rc_bench_py_rc OUTPUT_QUIET ERROR_QUIET)
if(RADCOL_PYTHON AND _rc_bench_py_rc EQUAL 0)
  add_test(NAME bench.dae_models
    COMMAND ${RADCOL_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/bench_dae.py --check
            --radcol ${RADCOL_EXE} --plugins ${PROJECT_BINARY_DIR}/bench-dae
            --cc ${CMAKE_C_COMPILER})
  set_tests_properties(bench.dae_models PROPERTIES LABELS plugin TIMEOUT 120)
else()
  message(WARNING "radcol: no Python with numpy and sympy: the DAE benchmark "
                  "model check is skipped")
endif()
