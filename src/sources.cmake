# Sources by floor (docs/architecture.md; tests/test_layers.py checks the
# include order core <- measure <- sim <- nlp <- accuracy <- io <- cli).
#
# The engine library radcol: everything a program needs to transcribe, solve,
# measure, refine and store a problem it brings (its own, or a plugin's).  No
# built-in model and no GSL.
set(RADCOL_CORE_SOURCES
  src/core/errors.c
  src/core/utf8.c
  src/core/input.c
  src/core/numbers.c
  src/core/options.c
  src/core/mesh.c
  src/core/problem.c
  src/core/result.c
  src/core/guess_map.c
  src/core/params.c
  src/core/start.c
  src/core/plugin_loader.c
  src/core/dense_lu.c
  src/core/data.c
)
set(RADCOL_MEASURE_SOURCES
  src/measure/diagnose.c
  src/measure/dense_check.c
  src/measure/mesh_check.c
  src/measure/check.c
  src/measure/structure.c
)
set(RADCOL_NLP_SOURCES
  src/nlp/transcription.c
  src/nlp/ipopt_load.c
  src/nlp/ipopt_adapter.c
  src/nlp/newton.c
  src/nlp/square.c
  src/nlp/var_index.c
  src/nlp/radau_step.c
  src/nlp/march.c
  src/nlp/nlp_solve.c
  src/nlp/init.c
  src/nlp/phases_nlp.c
  src/nlp/phases.c
  src/nlp/phases_solve.c
  src/nlp/phases_check.c
  src/nlp/nlp_check.c
)
set(RADCOL_ACCURACY_SOURCES
  src/accuracy/estimate.c
  src/accuracy/refine.c
  src/accuracy/phases_refine.c
  src/accuracy/march_refine.c
  src/accuracy/switching.c
  src/accuracy/solve.c
)
set(RADCOL_IO_SOURCES
  src/io/hdf5_util.c
  src/io/io_write.c
  src/io/io_read.c
  src/io/outfile.c
)
set(RADCOL_ENGINE_SOURCES
  ${RADCOL_CORE_SOURCES} ${RADCOL_MEASURE_SOURCES} ${RADCOL_NLP_SOURCES}
  ${RADCOL_ACCURACY_SOURCES} ${RADCOL_IO_SOURCES})

# The simulation library radcol_sim: explicit integrators, the replay of a
# plan's controls and the reference integrator (GSL rk8pd), independent of
# the transcription.
set(RADCOL_SIM_SOURCES
  src/sim/simulate.c
  src/sim/replay.c
  src/sim/ode_reference.c
)

set(RADCOL_CLI_SOURCES
  src/cli/main.c
  src/cli/args.c
  src/cli/forms.c
  src/cli/json.c
  src/cli/report.c
  src/cli/structure_report.c
  src/cli/cli_list.c
  src/cli/cli_solve.c
  src/cli/cli_check.c
  src/cli/cli_info.c
  src/cli/cli_simulate.c
  src/cli/cli_init.c
  src/cli/cli_export.c
  src/cli/cli_replay.c
  src/cli/plan_file.c
  src/cli/cli_job.c
)
