/*
 * crane/path.h - the crane's prescribed load path and its exact inverse by
 * flatness (internal to the crane problem and its tests; implemented by
 * path.c, the spline by path_spline.c, the CSV readers by path_csv.c).
 *
 * A path is a list of waypoints P_k = (x_k, z_k) at times t_k, k = 0..n-1,
 * strictly increasing t, h_k = t_{k+1} - t_k, a = (t - t_k) / h_k, in one of
 * two modes.
 *
 * stop: consecutive waypoints joined by the rest-to-rest segment
 *
 *     p(t) = P_k + (P_{k+1} - P_k) s(a),
 *     s(a) = 126a^5 - 420a^6 + 540a^7 - 315a^8 + 70a^9,
 *     s'(a) = 630 a^4 (1 - a)^4,
 *
 * so p is C^4 with p' = ... = p'''' = 0 at every waypoint.
 *
 * smooth: the complete spline of degree 9 through every waypoint: on each
 * segment a polynomial of degree 9, p in C^8 at the interior waypoints and
 * p' = ... = p'''' = 0 at t_0 and t_{n-1}.  Each segment is the degree-9
 * Hermite polynomial of its end values and end derivatives 1..4 (local
 * variable a, derivatives scaled by h_k^j); the unknown derivatives 1..4 at
 * the n-2 interior waypoints follow from continuity of derivatives 5..8
 * there: a square banded system of size 4(n-2), solved once by Gaussian
 * elimination with partial pivoting, unknowns scaled by H_k^j with H_k the
 * mean of the two adjacent segment lengths.  Existence and uniqueness: the
 * complete spline of odd degree 2m-1 (m = 5) interpolating values with
 * clamped derivatives 1..m-1 at the ends is unique and minimises
 * int (p^(5))^2 among all C^4 interpolants with those end conditions
 * (complete spline interpolation: Schoenberg 1964; de Boor, A Practical
 * Guide to Splines).  With two
 * waypoints it is the stop segment; waypoints sampled from any polynomial
 * of degree <= 9 at rest at both ends are reproduced exactly.
 *
 * Both modes rest at their end points outside [t_0, t_{n-1}].
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
#ifndef RADCOL_PROBLEMS_CRANE_PATH_H
#define RADCOL_PROBLEMS_CRANE_PATH_H

#include <stdio.h>

#include "radcol/errors.h"

typedef struct rc_crane_params {
  double M1, M2, m, J, C1, C2, C3, g;
} rc_crane_params;

typedef enum rc_crane_path_mode {
  RC_CRANE_PATH_STOP = 0,   /* rest-to-rest between waypoints */
  RC_CRANE_PATH_SMOOTH = 1, /* one degree-9 spline through all waypoints */
  RC_CRANE_PATH_CURVE = 2   /* a geometric curve in sigma (pathtime) */
} rc_crane_path_mode;

typedef struct rc_crane_path {
  int n;     /* waypoints (>= 2) */
  double *t; /* n strictly increasing times (owned) */
  double *x; /* n horizontal positions [m] */
  double *z; /* n depths below the rail [m] (z > 0) */
  rc_crane_path_mode mode;
  /* smooth: per segment k the coefficients of x and z in the local variable
   * a, x(t_k + a h_k) = sum_i cx[10 k + i] a^i (owned, n-1 segments) */
  double *cx, *cz;
} rc_crane_path;

/* Where the smooth path leaves the range of its two neighbouring waypoints
 * (per coordinate; 0 for a stop path, which never does). */
typedef struct rc_crane_overshoot {
  double dx, tx; /* max over segments of how far x leaves [min, max] of the
                    segment's end waypoints' x [m], at time tx */
  double dz, tz; /* the same for z */
} rc_crane_overshoot;

/* Everything the flat inverse gives at one time t. */
typedef struct rc_crane_flat {
  double x, z, vx, vz;               /* load position and velocity */
  double d, r, theta, vd, vr, omega; /* the index-1 model's states */
  double tau, u1, u2;                /* tension and controls */
  double ad, ar, alpha;              /* vd', vr', omega' (exact) */
} rc_crane_flat;

/* Paths are built in stop mode; rc_crane_path_smooth switches to smooth. */

/* Two waypoints (0, x_start, z_start), (tf, x_end, z_end). */
rc_err rc_crane_path_default(rc_crane_path *path, double tf, double x_start,
                             double z_start, double x_end, double z_end,
                             rc_error *err);
/* Reads waypoints "t,x,z" from a CSV file (fields separated by ',' or ';',
 * or by blanks when the line has neither): lines of any length; blank lines
 * and lines starting with '#' skipped; one optional header line before the
 * first waypoint, recognised as a row of non-empty fields none of which is a
 * number (a row with an empty field is refused, naming the line).  The horizon
 * starts at t0 = 0: a first t < 0 puts t0 inside the first segment, so the load
 * is already moving at t0 (the initial state is the flat inverse there).
 * Refuses (RC_ERR_INPUT, naming file, line and value) a missing column, a
 * non-finite value, non-increasing t, fewer than 2 rows or a first t > 0;
 * RC_ERR_IO if unreadable. */
rc_err rc_crane_path_read_csv(rc_crane_path *path, const char *file,
                              rc_error *err);
/* rc_crane_path_read_csv of an open stream fp (closed here; file names it
 * in messages); fp NULL opens file through rc_input_open (radcol/input.h:
 * a FIFO or device is refused, RC_ERR_INPUT, without blocking), as
 * rc_crane_path_read_csv does. */
rc_err rc_crane_path_read_fp(rc_crane_path *path, FILE *fp, const char *file,
                             rc_error *err);
void rc_crane_path_free(rc_crane_path *path);

/* Switches the path to smooth mode (computes the spline).  RC_ERR_NOMEM, or
 * RC_ERR_INPUT if the spline system is numerically singular (waypoint times
 * spaced so unevenly that the interpolant cannot be computed; names the
 * times). */
rc_err rc_crane_path_smooth(rc_crane_path *path, rc_error *err);

/* Overshoot of the path between waypoints (exact: at the roots of p'). */
void rc_crane_path_overshoot(const rc_crane_path *path,
                             rc_crane_overshoot *out);

/* p1[j], p2[j] = j-th derivative of the path at t, j = 0..4. */
void rc_crane_path_eval(const rc_crane_path *path, double t, double p1[5],
                        double p2[5]);
/* The same for j = 0..n-1 (1 <= n <= 10; the path pieces are of degree 9). */
void rc_crane_path_eval_n(const rc_crane_path *path, double t, int n,
                          double *p1, double *p2);

/* Flatness conditions for every t in [t_0, t_{n-1}]: p2 > 0 and
 * b = m g - M2 p2'' > 0.  stop: p2 at the waypoints (p2 is monotone between
 * them) and the exact minimum of b on each segment, at a = (1 -+ 1/sqrt 7)/2
 * where s'' has its extrema.  smooth: p2 at the waypoints first, then on
 * each segment the minimum of p2 and the maximum of p2'' over the segment's
 * ends and the real parts of all roots of p2' and p2''' (degree 8 and 6,
 * GSL's companion-matrix solver), plus 64 uniform samples per segment.  The
 * message names the time and the violated condition. */
rc_err rc_crane_path_check_flat(const rc_crane_path *path,
                                const rc_crane_params *par, rc_error *err);

/* The exact flat inverse at t.  Returns 0, or 1 when b <= 0 or p2 <= 0 at t. */
int rc_crane_flat_eval(const rc_crane_params *par, const rc_crane_path *path,
                       double t, rc_crane_flat *out);
/* The flat inverse's controls and their first two time derivatives at t:
 * u1[j], u2[j] = d^j u / dt^j, j = 0..2, exact (Taylor arithmetic on the
 * path's derivatives up to order 6).  Returns 0, or 1 where
 * rc_crane_flat_eval fails. */
int rc_crane_flat_u_derivs(const rc_crane_params *par,
                           const rc_crane_path *path, double t, double u1[3],
                           double u2[3]);

/* ---- geometric curves (crane -f pathtime) --------------------------------
 * A curve P(sigma), sigma in [0, 1], through rows (x_k, z_k) of a CSV file
 * (no t): sigma_k = cumulative chord length / total.  The complete spline
 * of degree 9 of the smooth mode is put through the rows with t := sigma,
 * except that the derivatives 1..4 at the two ends are not 0 but those of
 * the polynomial of degree min(n, 5) - 1 through the first (last) min(n, 5)
 * rows (Newton's divided differences).  On [0, 1] the curve is a C^8
 * piecewise polynomial of degree 9 through every row; a curve that is a
 * polynomial of degree <= 4 in sigma (e.g. collinear rows: the straight
 * line, whatever their spacing) is reproduced exactly, so the end
 * conditions add no wiggle (the zero end derivatives of the time paths
 * would make P' = 0 at the ends and, for rows spaced unevenly, oscillate
 * by metres).  The path struct holds the rows in t (= sigma), x, z and
 * mode RC_CRANE_PATH_CURVE. */

/* Reads rows "x,z" (separators, header and comments as
 * rc_crane_path_read_csv) and builds the curve.  Refuses (RC_ERR_INPUT,
 * naming file and line) a row without exactly two finite numbers, fewer
 * than 2 rows, two consecutive equal rows (zero chord); RC_ERR_IO if
 * unreadable. */
rc_err rc_crane_curve_read_csv(rc_crane_path *curve, const char *file,
                               rc_error *err);
/* rc_crane_curve_read_csv of an open stream (as rc_crane_path_read_fp). */
rc_err rc_crane_curve_read_fp(rc_crane_path *curve, FILE *fp, const char *file,
                              rc_error *err);

/* P[k][0], P[k][1] = k-th derivative of x and z in sigma at sigma, k = 0..6
 * (the polynomial of the segment holding sigma; the first or last segment's
 * continued outside [0, 1]). */
void rc_crane_curve_eval(const rc_crane_path *curve, double sigma,
                         double P[7][2]);

/* The curve's length int_0^1 |P'| d sigma (Gauss-Legendre, 8 points per
 * segment). */
double rc_crane_curve_length(const rc_crane_path *curve);

/* ---- shared by the path files and the crane's formulations ----------------
 */

/* 8-point Gauss-Legendre on [-1, 1]: nodes +-rc_crane_gl8_x[i], weights
 * rc_crane_gl8_w[i] (the weights sum to 1 over i, to 2 over the 8 points). */
extern const double rc_crane_gl8_x[4], rc_crane_gl8_w[4];

/* j-th derivative (j = 0..4) of the rest-to-rest step s(a) of the stop mode
 * at a (Horner on the differentiated coefficients; exact integers). */
double rc_crane_smooth_step(int j, double a);

/* i! / (i - m)! (0 for i < m). */
double rc_crane_falling(int i, int m);

/* The curve through the n >= 2 rows (x[k], z[k]) (no two consecutive
 * equal): chord-length sigma, end derivatives and the spline, as described
 * above.  Takes ownership of x and z (freed on failure). */
rc_err rc_crane_curve_build(rc_crane_path *curve, int n, double *x, double *z,
                            rc_error *err);

#endif
