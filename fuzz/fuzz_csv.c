/*
 * fuzz/fuzz_csv.c - libFuzzer harness for the crane waypoint CSV reader
 * (problems/crane/path.h, rc_crane_path_read_csv).
 *
 * The input bytes are written to a private temporary file (one per process,
 * rewritten for every input) and read back as a waypoint file.  On success
 * the reader's contract is checked: n >= 2, t_0 = 0, strictly increasing and
 * finite t, finite x and z; then the path is evaluated across its span and
 * its flatness check runs (it must return, never crash); then the smooth
 * spline is built (finite coefficients that interpolate the waypoints, or a
 * message), evaluated, its overshoot and flatness computed.  On failure the
 * error must be RC_ERR_INPUT or RC_ERR_IO with a message, and the path must
 * hold no storage.  A violation aborts, so libFuzzer reports it.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crane/path.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *file = fuzz_write_input(data, size, "csv", "csv");
  if (!file)
    return 0;

  rc_crane_path path;
  memset(&path, 0, sizeof path);
  rc_error err = {RC_OK, ""};
  rc_err rc = rc_crane_path_read_csv(&path, file, &err);
  if (rc == RC_OK) {
    CHECK(path.n >= 2 && path.t && path.x && path.z);
    CHECK(path.t[0] <=
          0.0); /* the horizon starts at t0 = 0, possibly in motion */
    for (int k = 0; k < path.n; ++k) {
      CHECK(isfinite(path.t[k]) && isfinite(path.x[k]) && isfinite(path.z[k]));
      if (k > 0)
        CHECK(path.t[k] > path.t[k - 1]);
    }
    double p1[5], p2[5];
    const double lo = path.t[0], span = path.t[path.n - 1] - lo;
    for (int j = -1; j <= 9; ++j) {
      rc_crane_path_eval(&path, lo + span * j / 8.0, p1, p2);
      /* inside the span the path interpolates finite data: finite values */
      if (j >= 0 && j <= 8 && isfinite(span))
        CHECK(isfinite(p1[0]) || !isfinite(path.x[0]));
    }
    rc_crane_params par = {10, 2, 2, 0.01, 1, 0.005, 0.1, 9.81};
    rc_error ferr = {RC_OK, ""};
    (void)rc_crane_path_check_flat(&path, &par, &ferr);
    /* smooth mode: the spline either builds with finite coefficients that
     * interpolate the waypoints, or fails with a message */
    rc_error serr = {RC_OK, ""};
    if (rc_crane_path_smooth(&path, &serr) == RC_OK) {
      CHECK(path.mode == RC_CRANE_PATH_SMOOTH && path.cx && path.cz);
      for (int i = 0; i < 10 * (path.n - 1); ++i)
        CHECK(isfinite(path.cx[i]) && isfinite(path.cz[i]));
      for (int k = 0; k + 1 < path.n; ++k)
        CHECK(path.cx[10 * k] == path.x[k] && path.cz[10 * k] == path.z[k]);
      for (int j = 0; j <= 8; ++j)
        rc_crane_path_eval(&path, lo + span * j / 8.0, p1, p2);
      rc_crane_overshoot os;
      rc_crane_path_overshoot(&path, &os);
      CHECK(os.dx >= 0.0 && os.dz >= 0.0);
      (void)rc_crane_path_check_flat(&path, &par, &ferr);
    } else {
      CHECK(serr.message[0] != '\0');
    }
    rc_crane_path_free(&path);
  } else {
    CHECK(rc == RC_ERR_INPUT || rc == RC_ERR_IO || rc == RC_ERR_NOMEM);
    CHECK(err.message[0] != '\0');
    rc_crane_path_free(&path); /* must be safe after a failed read */
  }
  return 0;
}
