/*
 * crane/mesh.c - the default mesh of a crane problem with a waypoint path
 * (set by create.c when the path comes from a file).
 *
 * Breakpoints at the waypoint times inside the horizon; in each segment m_j
 * equal elements of default_stages stages, m_j chosen by an a-priori
 * interpolation test of the flat inverse (radcol/mesh_check.h): the
 * reference sampled at the nodes and interpolated by the dense output,
 * compared with the reference inside every element.  With E_v the largest
 * interpolation error of v in an element, a segment passes when in each of
 * its elements
 *     MESH_K_U1 E_d <= MESH_TOL_U max|u1|     (trolley force, see below)
 *     E_u2 <= MESH_TOL_U max|u2|,  E_x, E_z <= MESH_TOL_POS.
 * The first line is calibrated, not derived: a track solve's u1 error is
 * global (spread over the horizon, from the states' discretisation error
 * amplified through the index-5 chain) and is not predicted by the
 * interpolation error of u1 itself (ratios 150-3400 measured), but it is by
 * that of the trolley position d: u1 error / E_d = 1.1e5 .. 3.8e5 N/m over
 * lateral moves of 8 m in 8, 16 and 32 s at depths 0.5 and 2 m and h = 0.2,
 * 0.4, 0.8 s (default masses; docs/crane-jobs.md, "Default mesh").
 * Segments that miss get m_j <- ceil(m_j * clamp(1.1 e_j^(1/6), 1.25, 4)),
 * e_j the worst ratio (E_d is O(h^6)), for at most MESH_ITER rounds and
 * MESH_MAX_ELEMENTS elements.
 *
 * The exception of docs/architecture.md ("Exceptions, stated"): besides
 * the headers made for writing problems, this file calls the engine's
 * public mesh check (radcol/mesh_check.h, floor measure), which samples the
 * problem's reference at the nodes of a candidate mesh, interpolates it
 * with the dense output of a solution and compares.  The heuristic above is
 * calibrated on exactly that interpolation error, so it uses the engine's
 * own dense output rather than a copy of the Radau nodes and the Lagrange
 * interpolation; the dependency points downward (a built-in model is a
 * client of the engine's public API, as a plugin could be), and the check
 * calls back only into this problem's reference.
 */
#include <math.h>
#include <stdlib.h>

#include "crane.h"
#include "radcol/mesh.h"
#include "radcol/mesh_check.h"

#define MESH_ITER 30
#define MESH_MAX_ELEMENTS 20000
#define MESH_K_U1 4e5     /* N/m: upper end of the measured u1 error / E_d */
#define MESH_TOL_U 3e-4   /* relative to max |u_i| */
#define MESH_TOL_POS 1e-7 /* m */

rc_err rc_crane_default_mesh(crane_model *cm, rc_error *err) {
  rc_problem *pb = &cm->pb;
  const rc_crane_path *P = &cm->path;
  const double t0 = pb->t0, tf = pb->tf, T = tf - t0;
  const int s = pb->default_stages;
  double *tb = malloc(sizeof(double) * (size_t)(P->n + 2));
  int *m = malloc(sizeof(int) * (size_t)(P->n + 1));
  double *frac = NULL;
  int *stages = NULL;
  rc_err rc = RC_OK;
  if (!tb || !m) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "crane: out of memory for a mesh");
    goto done;
  }
  int nseg = 0;
  tb[0] = t0;
  for (int k = 0; k < P->n; ++k)
    if (P->t[k] > t0 + 1e-9 * T && P->t[k] < tf - 1e-9 * T)
      tb[++nseg] = P->t[k];
  tb[++nseg] = tf;
  for (int j = 0; j < nseg; ++j)
    m[j] = 1;
  for (int iter = 0; iter < MESH_ITER; ++iter) {
    int ne = 0;
    for (int j = 0; j < nseg; ++j)
      ne += m[j];
    free(frac);
    free(stages);
    frac = malloc(sizeof(double) * (size_t)(ne + 1));
    stages = malloc(sizeof(int) * (size_t)ne);
    if (!frac || !stages) {
      rc = rc_error_set(err, RC_ERR_NOMEM,
                        "crane: out of memory for a mesh of %d elements", ne);
      goto done;
    }
    int e = 0;
    for (int j = 0; j < nseg; ++j)
      for (int q = 0; q < m[j]; ++q) {
        frac[e] = (tb[j] + (tb[j + 1] - tb[j]) * q / m[j] - t0) / T;
        stages[e++] = s;
      }
    frac[0] = 0.0;
    frac[ne] = 1.0;
    if (iter == MESH_ITER - 1 || ne >= MESH_MAX_ELEMENTS)
      break;
    rc_mesh mesh = {ne, frac, stages};
    rc_mesh_check mc;
    rc = rc_mesh_check_reference(pb, &mesh, 0, &mc, err);
    if (rc != RC_OK)
      goto done;
    int again = 0;
    for (int j = 0, e0 = 0, e1 = 0; j < nseg; e0 = e1, ++j) {
      e1 = e0 + m[j];
      double worst = 0.0;
      for (int k = e0; k < e1; ++k) {
        const double *er = mc.elem_rel + (size_t)k * (size_t)mc.nvar;
        const double Ed = er[ID] * (mc.scale[ID] > 0 ? mc.scale[ID] : 1.0);
        worst = fmax(worst, MESH_K_U1 * Ed / (MESH_TOL_U * mc.scale[IU1]));
        worst = fmax(worst, er[IU2] / MESH_TOL_U);
        for (int i = NW; i < NW + 2; ++i) /* x, z: absolute */
          worst = fmax(worst, er[i] * (mc.scale[i] > 0 ? mc.scale[i] : 1.0) /
                                  MESH_TOL_POS);
      }
      if (worst > 1.0) {
        double f = 1.1 * pow(worst, 1.0 / 6.0);
        f = fmin(4.0, fmax(1.25, f));
        m[j] = (int)ceil(m[j] * f);
        again = 1;
      }
    }
    rc_mesh_check_free(&mc);
    if (!again)
      break;
  }
  {
    int ne = 0;
    for (int j = 0; j < nseg; ++j)
      ne += m[j];
    cm->mesh_frac = frac;
    frac = NULL;
    pb->default_mesh_n = ne;
    pb->default_mesh_frac = cm->mesh_frac;
    pb->default_mesh_stages = NULL; /* default_stages everywhere */
  }
done:
  free(tb);
  free(m);
  free(frac);
  free(stages);
  return rc;
}
