# HDF5 result files (src/io_write.c, src/io_read.c, docs/hdf5-layout.md).
radcol_unit_test(test_io test_io.c)
# test_io also leaves a sample file (RADCOL_IO_SAMPLE.h5) for the h5py
# reading check, which also checks `radcol info --json` on it.
set_tests_properties(test_io PROPERTIES
  ENVIRONMENT "RADCOL_IO_SAMPLE=${CMAKE_CURRENT_BINARY_DIR}/io_sample"
  FIXTURES_SETUP io_sample)
if(RADCOL_PYTHON)
  add_test(NAME test_io_h5py
           COMMAND ${RADCOL_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/test_io_read.py
                   ${CMAKE_CURRENT_BINARY_DIR}/io_sample
                   --radcol $<TARGET_FILE:radcol_cli>)
  set_tests_properties(test_io_h5py PROPERTIES
    FIXTURES_REQUIRED io_sample LABELS unit)
endif()
