/*
 * crane_path.h - the crane's prescribed load path and its exact inverse by
 * flatness (internal to the crane problem and its tests).
 *
 * A path is a list of waypoints (t_k, x_k, z_k), k = 0..n-1, strictly
 * increasing t, joined by the rest-to-rest segment
 *
 *     p(t) = P_k + (P_{k+1} - P_k) s(a),  a = (t - t_k) / (t_{k+1} - t_k),
 *     s(a) = 126a^5 - 420a^6 + 540a^7 - 315a^8 + 70a^9,
 *     s'(a) = 630 a^4 (1 - a)^4,
 *
 * so p is C^4 with p' = ... = p'''' = 0 at every waypoint.  Outside
 * [t_0, t_{n-1}] the path rests at its end points.
 *
 * Flat inverse (z positive downward, SPEC 4.3), valid while
 * b = m g - M2 p2'' > 0 and p2 > 0:
 *     a = -M2 p1'', theta = atan2(a, b), tau = sqrt(a^2 + b^2),
 *     r = p2 tau / b, d = p1 - p2 a / b,
 *     u1 = M1 d'' + C1 d' - tau sin theta,
 *     u2 = (C3^2 tau - C2 r' - J r'') / C3.
 * theta, r, d are carried as second-order jets (value, d/dt, d2/dt2) built
 * from p .. p'''' by the exact product, quotient, sqrt and atan2 rules.
 */
#ifndef RADCOL_CRANE_PATH_H
#define RADCOL_CRANE_PATH_H

#include "radcol/errors.h"

typedef struct rc_crane_params {
  double M1, M2, m, J, C1, C2, C3, g;
} rc_crane_params;

typedef struct rc_crane_path {
  int n;     /* waypoints (>= 2) */
  double *t; /* n strictly increasing times (owned) */
  double *x; /* n horizontal positions [m] */
  double *z; /* n depths below the rail [m] (z > 0) */
} rc_crane_path;

/* Everything the flat inverse gives at one time t. */
typedef struct rc_crane_flat {
  double x, z, vx, vz;               /* load position and velocity */
  double d, r, theta, vd, vr, omega; /* the index-1 model's states */
  double tau, u1, u2;                /* tension and controls */
  double ad, ar, alpha;              /* vd', vr', omega' (exact) */
} rc_crane_flat;

/* Two waypoints (0, x_start, z_start), (tf, x_end, z_end). */
rc_err rc_crane_path_default(rc_crane_path *path, double tf, double x_start,
                             double z_start, double x_end, double z_end,
                             rc_error *err);
/* Reads waypoints "t,x,z" from a CSV file: one optional header line, blank
 * lines and lines starting with '#' skipped.  The horizon starts at t0 = 0: a
 * first t < 0 puts t0 inside the first segment, so the load is already
 * moving at t0 (the initial state is the flat inverse there).  Refuses
 * (RC_ERR_INPUT, naming file, line and value) a missing column, a non-finite
 * value, non-increasing t, fewer than 2 rows or a first t > 0; RC_ERR_IO if
 * unreadable. */
rc_err rc_crane_path_read_csv(rc_crane_path *path, const char *file,
                              rc_error *err);
void rc_crane_path_free(rc_crane_path *path);

/* p1[j], p2[j] = j-th derivative of the path at t, j = 0..4. */
void rc_crane_path_eval(const rc_crane_path *path, double t, double p1[5],
                        double p2[5]);

/* Flatness conditions for every t in [t_0, t_{n-1}]: p2 > 0 (checked at the
 * waypoints, p2 is monotone between them) and b = m g - M2 p2'' > 0 (its
 * exact minimum on each segment, at a = (1 -+ 1/sqrt 7)/2 where s'' has its
 * extrema).  The message names the time and the violated condition. */
rc_err rc_crane_path_check_flat(const rc_crane_path *path,
                                const rc_crane_params *par, rc_error *err);

/* The exact flat inverse at t.  Returns 0, or 1 when b <= 0 or p2 <= 0 at t. */
int rc_crane_flat_eval(const rc_crane_params *par, const rc_crane_path *path,
                       double t, rc_crane_flat *out);

#endif
