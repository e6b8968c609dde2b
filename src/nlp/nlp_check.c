/*
 * nlp/nlp_check.c - finite-difference check of the assembled NLP
 * (radcol/nlp_check.h): objective gradient, constraint Jacobian and
 * Lagrangian Hessian of the transcription against central differences.
 *
 * For each variable v (step h = 2e-5 (1 + |x_v|)), central differences
 * D(h) = (F(x + h e_v) - F(x - h e_v)) / 2h extrapolated,
 * D = (4 D(h/2) - D(h)) / 3 (error O(h^4): stiff blocks with large third
 * derivatives do not fail on truncation), of
 *   F = g            (J_fd[:, v]),
 *   F = grad L       (H_fd[:, v]),
 * with grad L = sigma grad f + J^T lambda from the hand-coded gradient and
 * Jacobian (so H_fd checks the Hessian against the first derivatives, which
 * the Jacobian comparison checks against the values).  As in
 * measure/check.c, a declared entry fails when
 *     |fd - got| > rel_tol max(1, |fd|, |got|) + noise,
 * an undeclared one (Hessian: lower triangle) when |fd| > abs_tol + noise,
 * noise = 300 eps (1 + max |values at x +- h e_v|) / h (the extrapolation
 * triples the rounding floor).  Dense: n_con x
 * n_var and n_var^2 doubles, hence the size cap.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nlp/transcription.h"
#include "radcol/nlp_check.h"

#define NLPCHK_MAX_VARS 4000

/* xorshift64*: uniform in [-1, 1] */
static double rnd(unsigned long long *s) {
  *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
  const unsigned long long r = *s * 2685821657736338717ULL;
  return (double)(r >> 11) / 4503599627370496.0 - 1.0;
}

static const char *entry_name(const rc_nlp *nlp, int i) {
  const char *const *nm = nlp->pb->var_names;
  return nm && nm[i] ? nm[i] : "?";
}

/* "T[q]", "tf", "p[i]" or "w[node n].NAME" */
static void var_name(const rc_nlp *nlp, int v, char *buf, size_t len) {
  if (nlp->dur_off >= 0 && v >= nlp->dur_off && v < nlp->dur_off + nlp->nseg) {
    snprintf(buf, len, "T[%d] (segment duration)", v - nlp->dur_off);
    return;
  }
  if (v == nlp->tf_off) {
    snprintf(buf, len, "tf");
    return;
  }
  if (nlp->np > 0 && v >= nlp->p_off && v < nlp->p_off + nlp->np) {
    snprintf(buf, len, "p[%d]", v - nlp->p_off);
    return;
  }
  for (int n = nlp->nnodes - 1; n >= 0; --n) {
    if (v >= nlp->x_off[n] && v < nlp->x_off[n] + nlp->nx) {
      snprintf(buf, len, "w[node %d].%s", n,
               entry_name(nlp, v - nlp->x_off[n]));
      return;
    }
    if (nlp->yu_off[n] >= 0 && v >= nlp->yu_off[n] &&
        v < nlp->yu_off[n] + nlp->ny + nlp->nu) {
      snprintf(buf, len, "w[node %d].%s", n,
               entry_name(nlp, nlp->nx + v - nlp->yu_off[n]));
      return;
    }
  }
  snprintf(buf, len, "var %d", v);
}

/* The row's kind and node: "duration row", "tangency row t", "continuity
 * row c", "boundary row b", "Bernstein row of element k", "row r (node n)" */
static void con_name(const rc_nlp *nlp, int r, char *buf, size_t len) {
  if (r == nlp->dur_row) {
    snprintf(buf, len, "duration row");
  } else if (nlp->tan_off >= 0 && r >= nlp->tan_off &&
             r < nlp->tan_off + nlp->ntan) {
    snprintf(buf, len, "tangency row %d", r - nlp->tan_off);
  } else if (nlp->cont_off >= 0 && r >= nlp->cont_off &&
             r < nlp->cont_off + nlp->ncont) {
    snprintf(buf, len, "continuity row %d", r - nlp->cont_off);
  } else if (r >= nlp->b_off && r < nlp->b_off + nlp->pb->nb) {
    snprintf(buf, len, "boundary row %d", r - nlp->b_off);
  } else {
    for (int k = 0; k < nlp->mesh->n; ++k) {
      const int d0 = nlp->dense_off[k];
      if (r >= d0 && r < d0 + (nlp->mesh->stages[k] - 1) * nlp->nbnd) {
        snprintf(buf, len, "Bernstein row %d of element %d", r - d0, k);
        return;
      }
    }
    int node = -1;
    for (int n = 0; n < nlp->nnodes; ++n)
      if (nlp->con_off[n] >= 0 && nlp->con_off[n] <= r)
        node = n;
    snprintf(buf, len, "row %d (node %d, entry %d)", r, node,
             node >= 0 ? r - nlp->con_off[node] : r);
  }
}

static void add_failure(const rc_nlp *nlp, rc_check_report *rep,
                        rc_check_kind kind, int row, int col, int row_is_var,
                        double fd, double got) {
  if (rep->nfailures < RC_CHECK_MAX_FAILURES) {
    rc_check_failure *f = &rep->failures[rep->nfailures];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->block = "nlp";
    f->row = row;
    f->col = col;
    f->out_row = -1;
    if (row_is_var)
      var_name(nlp, row, f->row_name, sizeof f->row_name);
    else if (row >= 0)
      con_name(nlp, row, f->row_name, sizeof f->row_name);
    else
      snprintf(f->row_name, sizeof f->row_name, "objective");
    var_name(nlp, col, f->col_name, sizeof f->col_name);
    f->t = NAN;
    f->expected = fd;
    f->got = got;
  }
  rep->nfailures++;
}

/* grad L = sigma grad f + J^T lambda at x (jw: nnz_jac, out: nvar) */
static int lag_grad(rc_nlp *nlp, const double *x, double sigma,
                    const double *lam, double *jw, double *out) {
  if (rc_nlp_gradient(nlp, x, out) != 0 || rc_nlp_jacobian(nlp, x, jw) != 0)
    return -1;
  for (int v = 0; v < nlp->nvar; ++v)
    out[v] *= sigma;
  for (int e = 0; e < nlp->nnz_jac; ++e)
    out[nlp->jac_col[e]] += jw[e] * lam[nlp->jac_row[e]];
  return 0;
}

static int bad_entry(int declared, double fd, double got, double noise,
                     const rc_check_options *o) {
  if (!isfinite(fd) || !isfinite(got))
    return 1;
  if (declared)
    return fabs(fd - got) >
           o->rel_tol * fmax(1.0, fmax(fabs(fd), fabs(got))) + noise;
  return fabs(fd) > o->abs_tol + noise;
}

/* Evaluates f, g and grad L at xp + d e_v (xp[v] restored after). */
static int eval_at(rc_nlp *nlp, double *xp, int v, double d, double sigma,
                   const double *lam, double *jw, double *f, double *g,
                   double *l) {
  const double xv = xp[v];
  xp[v] = xv + d;
  const int bad = rc_nlp_objective(nlp, xp, f) != 0 ||
                  rc_nlp_constraints(nlp, xp, g) != 0 ||
                  lag_grad(nlp, xp, sigma, lam, jw, l) != 0;
  xp[v] = xv;
  return bad;
}

/* Richardson-extrapolated central differences along e_v (steps h, h/2):
 * D = (4 D(h/2) - D(h)) / 3, error O(h^4), so that stiff blocks (large
 * third derivatives) do not fail on truncation.  Out: *df and dg (nc),
 * dl (nv) the differences; *sf, sg (nc), sl (nv) the largest magnitudes of
 * the values (for the rounding floor).  g2, l2: scratch of 2 nc, 2 nv. */
static int differences(rc_nlp *nlp, double *xp, int v, double h, double sigma,
                       const double *lam, double *jw, double *df, double *sf,
                       double *dg, double *sg, double *dl, double *sl,
                       double *g2, double *l2) {
  const int nc = nlp->ncon, nv = nlp->nvar;
  double D[2], f[2];
  for (int pass = 0; pass < 2; ++pass) {
    const double d = pass ? 0.5 * h : h;
    if (eval_at(nlp, xp, v, d, sigma, lam, jw, &f[0], g2, l2) != 0 ||
        eval_at(nlp, xp, v, -d, sigma, lam, jw, &f[1], g2 + nc, l2 + nv) != 0)
      return -1;
    D[pass] = (f[0] - f[1]) / (2.0 * d);
    if (pass == 0)
      *sf = fmax(fabs(f[0]), fabs(f[1]));
    for (int r = 0; r < nc; ++r) {
      const double q = (g2[r] - g2[nc + r]) / (2.0 * d);
      if (pass == 0) {
        dg[r] = q;
        sg[r] = fmax(fabs(g2[r]), fabs(g2[nc + r]));
      } else {
        dg[r] = (4.0 * q - dg[r]) / 3.0;
      }
    }
    for (int r = 0; r < nv; ++r) {
      const double q = (l2[r] - l2[nv + r]) / (2.0 * d);
      if (pass == 0) {
        dl[r] = q;
        sl[r] = fmax(fabs(l2[r]), fabs(l2[nv + r]));
      } else {
        dl[r] = (4.0 * q - dl[r]) / 3.0;
      }
    }
  }
  *df = (4.0 * D[1] - D[0]) / 3.0;
  return 0;
}

void rc_check_nlp_at(rc_nlp *nlp, const double *x, const double *lam,
                     double sigma, const rc_check_options *o,
                     rc_check_report *rep, rc_nlp_check_info *info) {
  const int nv = nlp->nvar, nc = nlp->ncon;
  const size_t sv = (size_t)nv, sc = (size_t)nc;
  info->nvar = nv, info->ncon = nc;
  info->nnz_jac = nlp->nnz_jac, info->nnz_hes = nlp->nnz_hes;
  info->nseg = nlp->nseg, info->npin = nlp->mesh->npin;
  info->free_tf = nlp->free_tf, info->dense = nlp->dense_bounds;
  double *J = calloc(sc * sv, sizeof *J), *H = calloc(sv * sv, sizeof *H);
  char *Jd = calloc(sc * sv, 1), *Hd = calloc(sv * sv, 1);
  double *xp = malloc(sv * sizeof *xp), *dg = malloc(sc * sizeof *dg),
         *sg = malloc(sc * sizeof *sg), *dl = malloc(sv * sizeof *dl),
         *sl = malloc(sv * sizeof *sl), *gr = malloc(sv * sizeof *gr);
  double *jw = malloc((size_t)nlp->nnz_jac * sizeof *jw),
         *hw = malloc((size_t)nlp->nnz_hes * sizeof *hw);
  double *g2 = malloc(2 * sc * sizeof *g2), *l2 = malloc(2 * sv * sizeof *l2);
  if (!J || !H || !Jd || !Hd || !xp || !dg || !sg || !dl || !sl || !gr || !jw ||
      !hw || !g2 || !l2) {
    add_failure(nlp, rep, RC_CHECK_EVAL, -1, 0, 0, NAN, NAN);
    goto done;
  }
  if (rc_nlp_jacobian(nlp, x, jw) != 0 ||
      rc_nlp_hessian(nlp, x, sigma, lam, hw) != 0 ||
      rc_nlp_gradient(nlp, x, gr) != 0) {
    add_failure(nlp, rep, RC_CHECK_EVAL, -1, 0, 0, NAN, NAN);
    goto done;
  }
  for (int e = 0; e < nlp->nnz_jac; ++e) {
    const size_t at = (size_t)nlp->jac_row[e] * sv + (size_t)nlp->jac_col[e];
    J[at] += jw[e];
    Jd[at] = 1;
  }
  for (int e = 0; e < nlp->nnz_hes; ++e) {
    const size_t at = (size_t)nlp->hes_row[e] * sv + (size_t)nlp->hes_col[e];
    H[at] += hw[e];
    Hd[at] = 1;
  }
  memcpy(xp, x, sv * sizeof *xp);
  for (int v = 0; v < nv; ++v) {
    volatile double xh = x[v] + 2e-5 * (1.0 + fabs(x[v]));
    const double h = xh - x[v];
    double df, sf;
    if (differences(nlp, xp, v, h, sigma, lam, jw, &df, &sf, dg, sg, dl, sl, g2,
                    l2) != 0) {
      add_failure(nlp, rep, RC_CHECK_EVAL, -1, v, 0, NAN, NAN);
      continue;
    }
    /* objective gradient */
    {
      const double fd = df;
      const double noise = 300.0 * DBL_EPSILON * (1.0 + sf) / h;
      rep->nentries++;
      const double rel = fabs(fd - gr[v]) / fmax(1.0, fabs(fd));
      info->max_rel_err_grad = fmax(info->max_rel_err_grad, rel);
      if (bad_entry(1, fd, gr[v], noise, o))
        add_failure(nlp, rep, RC_CHECK_JAC_VALUE, -1, v, 0, fd, gr[v]);
    }
    for (int r = 0; r < nc; ++r) {
      const double fd = dg[r];
      const double gnoise = 300.0 * DBL_EPSILON * (1.0 + sg[r]) / h;
      const size_t at = (size_t)r * sv + (size_t)v;
      rep->nentries++;
      if (Jd[at])
        rep->max_rel_err_jac =
            fmax(rep->max_rel_err_jac, fabs(fd - J[at]) / fmax(1.0, fabs(fd)));
      if (bad_entry(Jd[at], fd, J[at], gnoise, o))
        add_failure(nlp, rep,
                    Jd[at] ? RC_CHECK_JAC_VALUE : RC_CHECK_JAC_MISSING, r, v, 0,
                    fd, J[at]);
    }
    for (int r = v; r < nv; ++r) { /* lower triangle: (r, v), r >= v */
      const double fd = dl[r];
      const double lnoise = 300.0 * DBL_EPSILON * (1.0 + sl[r]) / h;
      const size_t at = (size_t)r * sv + (size_t)v;
      rep->nentries++;
      if (Hd[at])
        rep->max_rel_err_hes =
            fmax(rep->max_rel_err_hes, fabs(fd - H[at]) / fmax(1.0, fabs(fd)));
      if (bad_entry(Hd[at], fd, H[at], lnoise, o))
        add_failure(nlp, rep,
                    Hd[at] ? RC_CHECK_HES_VALUE : RC_CHECK_HES_MISSING, r, v, 1,
                    fd, H[at]);
    }
  }
done:
  free(J), free(H), free(Jd), free(Hd), free(xp), free(dg), free(sg);
  free(dl), free(sl), free(gr), free(jw), free(hw), free(g2), free(l2);
}

/* Do f, g and the derivatives evaluate at x (and at x +- 2e-5 (1 + |x_v|)
 * e_v, the differences' widest steps)?  lam: ncon scratch. */
static int evaluates(rc_nlp *nlp, double *x, double *lam) {
  double f;
  double *g = lam; /* scratch, overwritten by the caller */
  for (int r = 0; r < nlp->ncon; ++r)
    lam[r] = 0.0;
  if (rc_nlp_objective(nlp, x, &f) != 0 || rc_nlp_constraints(nlp, x, g) != 0 ||
      !isfinite(f))
    return 0;
  for (int r = 0; r < nlp->ncon; ++r)
    if (!isfinite(g[r]))
      return 0;
  for (int v = 0; v < nlp->nvar; ++v) {
    const double xv = x[v], h = 2e-5 * (1.0 + fabs(xv));
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      x[v] = xv + sgn * h;
      const int bad = rc_nlp_constraints(nlp, x, g) != 0;
      x[v] = xv;
      if (bad)
        return 0;
    }
  }
  return 1;
}

rc_err rc_check_nlp_mesh(const rc_problem *pb, const rc_mesh *mesh,
                         int dense_bounds, const rc_check_options *o,
                         rc_check_report *rep, rc_nlp_check_info *info,
                         rc_error *err) {
  rc_check_options def;
  if (!o) {
    rc_check_options_default(&def);
    o = &def;
  }
  memset(rep, 0, sizeof *rep);
  memset(info, 0, sizeof *info);
  if (o->npoints < 1)
    return rc_error_set(err, RC_ERR_INPUT,
                        "check: npoints = %d, expected at least 1", o->npoints);
  rc_nlp_counts sz;
  rc_nlp_count(pb, mesh, dense_bounds, &sz);
  if (sz.nvars > NLPCHK_MAX_VARS)
    return rc_error_set(err, RC_ERR_INPUT,
                        "NLP check: %ld variables on this mesh: expected at "
                        "most %d (dense finite differences)",
                        sz.nvars, NLPCHK_MAX_VARS);
  rc_nlp *nlp = NULL;
  rc_err rc = rc_nlp_create(pb, mesh, dense_bounds, &nlp, err);
  if (rc != RC_OK)
    return rc;
  const size_t nv = (size_t)nlp->nvar, nc = (size_t)nlp->ncon;
  double *x0 = malloc((nv ? nv : 1) * sizeof *x0),
         *x = malloc((nv ? nv : 1) * sizeof *x),
         *lam = malloc((nc ? nc : 1) * sizeof *lam);
  if (!x0 || !x || !lam) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "NLP check: out of memory");
    goto done;
  }
  if ((rc = rc_nlp_default_guess(nlp, x0, err)) != RC_OK)
    goto done;
  unsigned long long s = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)o->seed;
  if (s == 0)
    s = 1;
  const int npoints = o->npoints < 3 ? o->npoints : 3;
  for (int pt = 0; pt < npoints; ++pt) {
    /* a point where the problem evaluates: the spread shrinks (by 4, at
     * most 4 times, then none) where a block leaves its domain (a square
     * root of a chart, say) */
    double spread = o->spread;
    int ok = 0;
    for (int tries = 0; tries < 6 && !ok; ++tries) {
      for (size_t v = 0; v < nv; ++v)
        x[v] = x0[v] + spread * (1.0 + fabs(x0[v])) * rnd(&s);
      /* durations stay positive */
      for (int q = 0; q < nlp->nseg; ++q)
        x[nlp->dur_off + q] = fabs(x[nlp->dur_off + q]);
      ok = evaluates(nlp, x, lam);
      spread = tries < 4 ? 0.25 * spread : 0.0;
    }
    if (!ok) { /* the point blocks were checked where they evaluate */
      info->skipped = 1;
      snprintf(info->why, sizeof info->why,
               "the NLP does not evaluate to finite values at its guess on "
               "this mesh (%d pins), nor near it",
               mesh->npin);
      goto done;
    }
    for (size_t r = 0; r < nc; ++r)
      lam[r] = rnd(&s);
    rc_check_nlp_at(nlp, x, lam, 0.7, o, rep, info);
  }
done:
  free(x0), free(x), free(lam);
  rc_nlp_free(&nlp);
  return rc;
}

rc_err rc_check_nlp_default_mesh(const rc_problem *pb, rc_mesh *mesh,
                                 int *segmented, rc_error *err) {
  static const double frac[] = {0.0, 0.12, 0.3, 0.47, 0.61, 0.83, 1.0};
  static const int stages[] = {3, 2, 3, 4, 2, 3};
  static const int first[] = {0, 2, 4, 6};
  *segmented = 0;
  rc_err rc = rc_mesh_from_arrays(6, frac, stages, mesh, err);
  if (rc != RC_OK || !rc_problem_segments_ok(pb))
    return rc;
  if ((rc = rc_mesh_set_segments(mesh, 3, first, 0.05, err)) != RC_OK) {
    rc_mesh_free(mesh);
    return rc;
  }
  *segmented = 1;
  rc_mesh_pin pins[2];
  int npin = 0;
  if (pb->ny + pb->nu > 0)
    pins[npin++] = (rc_mesh_pin){
        .seg = 1, .kind = RC_PIN_CONTINUOUS, .index = pb->nx, .upper = 0};
  for (int i = 0; i < pb->nx; ++i) {
    const int up = isfinite(pb->w_hi[i]), lo = isfinite(pb->w_lo[i]);
    if (up || lo) {
      pins[npin++] = (rc_mesh_pin){
          .seg = 2, .kind = RC_PIN_BOUND, .index = i, .upper = up};
      break;
    }
  }
  if (npin > 0 && (rc = rc_mesh_set_pins(mesh, npin, pins, err)) != RC_OK)
    rc_mesh_free(mesh);
  return rc;
}

rc_err rc_check_nlp(const rc_problem *pb, const rc_check_options *o,
                    rc_check_report *rep, rc_nlp_check_info *info,
                    rc_error *err) {
  rc_mesh mesh;
  int segmented = 0;
  rc_err rc = rc_check_nlp_default_mesh(pb, &mesh, &segmented, err);
  if (rc != RC_OK)
    return rc;
  /* pins the NLP refuses for this problem, or where it does not evaluate
   * (a state held at a bound where a chart is singular), are dropped; the
   * segments stay */
  for (int attempt = 0; attempt < 2; ++attempt) {
    rc = rc_check_nlp_mesh(pb, &mesh, 1, o, rep, info, err);
    if (rc != RC_ERR_INPUT || mesh.npin == 0)
      break;
    if (rc_mesh_set_pins(&mesh, 0, NULL, err) != RC_OK)
      break;
  }
  rc_mesh_free(&mesh);
  return rc;
}
