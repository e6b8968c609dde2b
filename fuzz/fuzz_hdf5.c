/*
 * fuzz/fuzz_hdf5.c - libFuzzer harness for the result-file readers
 * (radcol/io.h: rc_read_mesh, rc_read_solution, rc_read_result_summary), which
 * `radcol solve --mesh/--guess` and `radcol info` run on user files.
 *
 * The input bytes are written to a private temporary file (one per process,
 * rewritten for every input) and handed to each reader.  Contract checked:
 * every reader returns RC_OK or an error with a message (RC_ERR_INPUT for
 * readable HDF5 with the wrong content, RC_ERR_IO for unreadable input),
 * never crashes, never leaks; a mesh read back is validated (n >= 1,
 * increasing fractions from 0 to 1, stages >= 1).  The seeds in
 * fuzz/corpus/fuzz_hdf5/ are small real result files, so mutations reach
 * the dataset checks rather than stopping at the HDF5 signature.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "radcol/io.h"

static void check_failure(rc_err rc, const rc_error *err) {
  CHECK(rc == RC_ERR_INPUT || rc == RC_ERR_IO || rc == RC_ERR_NOMEM);
  CHECK(err->message[0] != '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *file = fuzz_write_input(data, size, "hdf5", "h5");
  if (!file)
    return 0;

  rc_error err = {RC_OK, ""};
  rc_mesh mesh;
  memset(&mesh, 0, sizeof mesh);
  rc_err rc = rc_read_mesh(file, &mesh, &err);
  if (rc == RC_OK) {
    CHECK(mesh.n >= 1);
    rc_error verr = {RC_OK, ""};
    CHECK(rc_mesh_validate(&mesh, &verr) == RC_OK);
    rc_mesh_free(&mesh);
  } else {
    check_failure(rc, &err);
  }

  rc_error_clear(&err);
  rc_solution sol;
  memset(&sol, 0, sizeof sol);
  char problem[64], formulation[64];
  rc = rc_read_solution(file, &sol, problem, formulation, &err);
  if (rc == RC_OK) {
    CHECK(memchr(problem, '\0', sizeof problem) != NULL);
    CHECK(memchr(formulation, '\0', sizeof formulation) != NULL);
    rc_solution_free(&sol);
  } else {
    check_failure(rc, &err);
  }

  rc_error_clear(&err);
  rc_result_summary sum;
  rc = rc_read_result_summary(file, &sum, &err);
  if (rc == RC_OK) {
    CHECK(sum.elements >= 0 && sum.nodes >= 1);
    CHECK(memchr(sum.problem, '\0', sizeof sum.problem) != NULL);
    rc_result_summary_free(&sum);
  } else {
    check_failure(rc, &err);
  }
  return 0;
}
