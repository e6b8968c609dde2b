/*
 * phases_check.c - finite-difference check of a multiphase problem
 * (radcol/phases_check.h).
 *
 * Link blocks.  At npoints event vectors e (the default guess's, perturbed
 * by spread relative), every entry of the dense Jacobian d out_i / d e_j
 * (declared or not) against central differences of eval with step
 * h_j = 1e-6 (1 + |e_j|), and every entry of the lower triangle of the
 * Hessian of sum_i mu_i out_i (mu random in [-1, 1]) against central
 * differences of the declared Jacobian contracted with mu.
 *
 * The assembled NLP.  At min(npoints, 2) points x (the default guess
 * perturbed, free durations kept positive) with random multipliers, the
 * dense constraint Jacobian, the dense lower triangle of the Lagrangian's
 * Hessian sigma f + lambda^T g (sigma = 0.7) and the objective's gradient
 * against central differences of the constraints, of the Lagrangian's
 * gradient and of the objective.  An entry fails when
 * |fd - got| > abs_tol + rel_tol |fd| (rc_check_options).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nlp/phases_nlp.h"
#include "radcol/phases_check.h"

#define RC_PCHECK_MAX_DENSE 20000000.0

typedef struct pcheck {
  const rc_check_options *o;
  rc_phases_check_report *rep;
  unsigned long long seed;
} pcheck;

static double urand(pcheck *c) { /* [-1, 1] */
  c->seed ^= c->seed << 13;
  c->seed ^= c->seed >> 7;
  c->seed ^= c->seed << 17;
  return (double)(c->seed % 2000001ULL) / 1000000.0 - 1.0;
}

static void record(pcheck *c, const char *what, int row, int col,
                   const char *rname, const char *cname, double fd,
                   double got) {
  rc_phases_check_report *r = c->rep;
  r->nentries++;
  const double diff = fabs(fd - got);
  const double rel = diff / (1.0 + fabs(fd));
  if (rel > r->max_rel_err || isnan(rel))
    r->max_rel_err = isnan(rel) ? INFINITY : rel;
  if (diff <= c->o->abs_tol + c->o->rel_tol * fabs(fd))
    return;
  if (r->nfailures < RC_CHECK_MAX_FAILURES) {
    rc_phases_check_failure *f = &r->failures[r->nfailures];
    snprintf(f->what, sizeof f->what, "%s", what);
    f->row = row;
    f->col = col;
    snprintf(f->row_name, sizeof f->row_name, "%s", rname);
    snprintf(f->col_name, sizeof f->col_name, "%s", cname);
    f->expected = fd;
    f->got = got;
  }
  r->nfailures++;
}

/* What NLP variable v is: "phase A: x at node 3", "phase A: duration". */
static void var_name(const rc_pnlp *p, int v, char *buf, size_t len) {
  int k = 0;
  while (k + 1 < p->nph && v >= p->voff[k + 1])
    ++k;
  const rc_nlp *n = p->nlp[k];
  const rc_problem *pb = &p->pb[k];
  const char *ph = p->ph->phase[k].name;
  const int lv = v - p->voff[k];
  if (lv == n->tf_off) {
    snprintf(buf, len, "phase %s: duration (free final time)", ph);
    return;
  }
  if (lv >= n->p_off && lv < n->p_off + n->np) {
    snprintf(buf, len, "phase %s: %s", ph,
             pb->var_names[pb->nx + pb->ny + pb->nu + lv - n->p_off]);
    return;
  }
  for (int q = 0; q < n->nnodes; ++q) {
    if (lv >= n->x_off[q] && lv < n->x_off[q] + n->nx) {
      snprintf(buf, len, "phase %s: %s at node %d", ph,
               pb->var_names[lv - n->x_off[q]], q);
      return;
    }
    if (n->yu_off[q] >= 0 && lv >= n->yu_off[q] &&
        lv < n->yu_off[q] + n->ny + n->nu) {
      snprintf(buf, len, "phase %s: %s at node %d", ph,
               pb->var_names[n->nx + lv - n->yu_off[q]], q);
      return;
    }
  }
  snprintf(buf, len, "phase %s: variable %d", ph, lv);
}

static void row_name(const rc_pnlp *p, int r, char *buf, size_t len) {
  if (r >= p->link_off) {
    if (len > 9) {
      memcpy(buf, "linkage ", 8);
      rc_pnlp_row_name(p, r - p->link_off, buf + 8, len - 8);
    } else if (len > 0) {
      buf[0] = '\0';
    }
    return;
  }
  int k = 0;
  while (k + 1 < p->nph && r >= p->coff[k + 1])
    ++k;
  snprintf(buf, len, "phase %s: row %d", p->ph->phase[k].name, r - p->coff[k]);
}

static void link_in_name(const rc_pnlp *p, int l, int j, char *buf,
                         size_t len) {
  const rc_link *L = &p->ph->links[l];
  for (int side = 0; side < 2; ++side) {
    const int k = L->boundary + side;
    const rc_problem *pb = &p->pb[k];
    const char *nm = p->ph->phase[k].name;
    if (j < pb->nx) {
      snprintf(buf, len, "%s(%s of %s)", pb->var_names[j],
               side ? "start" : "end", nm);
      return;
    }
    j -= pb->nx;
    if (j < pb->np) {
      snprintf(buf, len, "%s of %s",
               pb->var_names[pb->nx + pb->ny + pb->nu + j], nm);
      return;
    }
    j -= pb->np;
    if (j == 0) {
      snprintf(buf, len, "duration of %s", nm);
      return;
    }
    j -= 1;
  }
  snprintf(buf, len, "?");
}

static void link_out_name(const rc_link *L, int i, char *buf, size_t len) {
  if (i >= L->nrows)
    snprintf(buf, len, "objective term");
  else if (L->row_names && L->row_names[i])
    snprintf(buf, len, "%s", L->row_names[i]);
  else
    snprintf(buf, len, "row %d", i);
}

/* One link block at e (ne inputs, nout outputs). */
static rc_err check_link(pcheck *c, rc_pnlp *p, int l, const double *e0,
                         rc_error *err) {
  const rc_link *L = &p->ph->links[l];
  const int ne = p->lk_eoff[l + 1] - p->lk_eoff[l];
  const int nout = L->nrows + (L->has_objective ? 1 : 0);
  const size_t nd = (size_t)nout * ne;
  double *e = malloc(sizeof(double) * (size_t)ne);
  double *op = malloc(sizeof(double) * (size_t)nout);
  double *om = malloc(sizeof(double) * (size_t)nout);
  double *J = calloc(nd, sizeof(double));
  double *jv = malloc(sizeof(double) * (size_t)(L->jac.nnz ? L->jac.nnz : 1));
  double *hv = malloc(sizeof(double) * (size_t)(L->hes.nnz ? L->hes.nnz : 1));
  double *H = calloc((size_t)ne * ne, sizeof(double));
  double *mu = malloc(sizeof(double) * (size_t)nout);
  double *gp = malloc(sizeof(double) * (size_t)ne);
  double *gm = malloc(sizeof(double) * (size_t)ne);
  rc_err rc = RC_OK;
  if (!e || !op || !om || !J || !jv || !hv || !H || !mu || !gp || !gm) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory checking link %d", l);
    goto done;
  }
  memcpy(e, e0, sizeof(double) * (size_t)ne);
  for (int i = 0; i < nout; ++i)
    mu[i] = urand(c);
  char rn[128], cn[128], an[128];
  if (L->jacobian(p->ph, L, e, jv) != 0 ||
      L->hessian(p->ph, L, e, mu, hv) != 0) {
    record(c, "link evaluation", -1, -1, "the link's callbacks", "failed", 0,
           NAN);
    goto done;
  }
  for (int q = 0; q < L->jac.nnz; ++q)
    J[(size_t)L->jac.row[q] * ne + L->jac.col[q]] = jv[q];
  for (int q = 0; q < L->hes.nnz; ++q)
    H[(size_t)L->hes.row[q] * ne + L->hes.col[q]] = hv[q];
  for (int j = 0; j < ne; ++j) {
    const double h = 1e-6 * (1.0 + fabs(e0[j]));
    e[j] = e0[j] + h;
    int st = L->eval(p->ph, L, e, op);
    /* gradient of sum mu_i out_i from the declared Jacobian */
    st |= L->jacobian(p->ph, L, e, jv);
    for (int a = 0; a < ne; ++a)
      gp[a] = 0.0;
    for (int q = 0; q < L->jac.nnz; ++q)
      gp[L->jac.col[q]] += mu[L->jac.row[q]] * jv[q];
    e[j] = e0[j] - h;
    st |= L->eval(p->ph, L, e, om);
    st |= L->jacobian(p->ph, L, e, jv);
    for (int a = 0; a < ne; ++a)
      gm[a] = 0.0;
    for (int q = 0; q < L->jac.nnz; ++q)
      gm[L->jac.col[q]] += mu[L->jac.row[q]] * jv[q];
    e[j] = e0[j];
    link_in_name(p, l, j, cn, sizeof cn);
    if (st != 0) {
      record(c, "link evaluation", -1, j, "the link's callbacks", cn, 0, NAN);
      continue;
    }
    for (int i = 0; i < nout; ++i) {
      link_out_name(L, i, rn, sizeof rn);
      record(c, "link Jacobian", i, j, rn, cn, (op[i] - om[i]) / (2 * h),
             J[(size_t)i * ne + j]);
    }
    for (int a = j; a < ne; ++a) {
      link_in_name(p, l, a, an, sizeof an);
      record(c, "link Hessian", a, j, an, cn, (gp[a] - gm[a]) / (2 * h),
             H[(size_t)a * ne + j]);
    }
  }
done:
  free(e);
  free(op);
  free(om);
  free(J);
  free(jv);
  free(hv);
  free(H);
  free(mu);
  free(gp);
  free(gm);
  return rc;
}

/* Lagrangian gradient sigma grad f + J^T lambda at x. */
static int lag_grad(rc_pnlp *p, const double *x, double sigma,
                    const double *lam, double *out, double *jv) {
  int st = rc_pnlp_gradient(p, x, out);
  for (int i = 0; i < p->nvar; ++i)
    out[i] *= sigma;
  st |= rc_pnlp_jacobian(p, x, jv);
  for (int e = 0; e < p->nnz_jac; ++e)
    out[p->jac_col[e]] += jv[e] * lam[p->jac_row[e]];
  return st;
}

static rc_err check_nlp(pcheck *c, rc_pnlp *p, const double *x0,
                        rc_error *err) {
  const int nv = p->nvar, nc = p->ncon;
  const double sig = 0.7;
  double *x = malloc(sizeof(double) * (size_t)nv);
  double *gp = malloc(sizeof(double) * (size_t)(nc ? nc : 1));
  double *gm = malloc(sizeof(double) * (size_t)(nc ? nc : 1));
  double *lam = malloc(sizeof(double) * (size_t)(nc ? nc : 1));
  double *jv = malloc(sizeof(double) * (size_t)(p->nnz_jac ? p->nnz_jac : 1));
  double *hv = malloc(sizeof(double) * (size_t)(p->nnz_hes ? p->nnz_hes : 1));
  double *Jd = calloc((size_t)nv * (size_t)(nc ? nc : 1), sizeof(double));
  double *Hd = calloc((size_t)nv * (size_t)nv, sizeof(double));
  double *lp = malloc(sizeof(double) * (size_t)nv);
  double *lm = malloc(sizeof(double) * (size_t)nv);
  double *grad = malloc(sizeof(double) * (size_t)nv);
  rc_err rc = RC_OK;
  if (!x || !gp || !gm || !lam || !jv || !hv || !Jd || !Hd || !lp || !lm ||
      !grad) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory for the dense check");
    goto done;
  }
  memcpy(x, x0, sizeof(double) * (size_t)nv);
  for (int i = 0; i < nc; ++i)
    lam[i] = urand(c);
  if (rc_pnlp_jacobian(p, x, jv) != 0 ||
      rc_pnlp_hessian(p, x, sig, lam, hv) != 0 ||
      rc_pnlp_gradient(p, x, grad) != 0) {
    record(c, "NLP evaluation", -1, -1, "the NLP at the test point", "failed",
           0, NAN);
    goto done;
  }
  for (int e = 0; e < p->nnz_jac; ++e)
    Jd[(size_t)p->jac_row[e] * nv + p->jac_col[e]] += jv[e];
  for (int e = 0; e < p->nnz_hes; ++e)
    Hd[(size_t)p->hes_row[e] * nv + p->hes_col[e]] += hv[e];
  char rn[160], cn[160];
  for (int v = 0; v < nv; ++v) {
    const double h = 1e-6 * (1.0 + fabs(x0[v]));
    double fp, fm;
    x[v] = x0[v] + h;
    int st = rc_pnlp_constraints(p, x, gp);
    st |= lag_grad(p, x, sig, lam, lp, jv);
    st |= rc_pnlp_objective(p, x, &fp);
    x[v] = x0[v] - h;
    st |= rc_pnlp_constraints(p, x, gm);
    st |= lag_grad(p, x, sig, lam, lm, jv);
    st |= rc_pnlp_objective(p, x, &fm);
    x[v] = x0[v];
    var_name(p, v, cn, sizeof cn);
    if (st != 0) {
      record(c, "NLP evaluation", -1, v, "the NLP", cn, 0, NAN);
      continue;
    }
    for (int r = 0; r < nc; ++r) {
      const double fd = (gp[r] - gm[r]) / (2 * h);
      const double got = Jd[(size_t)r * nv + v];
      if (fd == 0.0 && got == 0.0) {
        c->rep->nentries++;
        continue;
      }
      row_name(p, r, rn, sizeof rn);
      record(c, "NLP Jacobian", r, v, rn, cn, fd, got);
    }
    for (int r = v; r < nv; ++r) {
      const double fd = (lp[r] - lm[r]) / (2 * h);
      const double got = Hd[(size_t)r * nv + v];
      if (fd == 0.0 && got == 0.0) {
        c->rep->nentries++;
        continue;
      }
      var_name(p, r, rn, sizeof rn);
      record(c, "NLP Hessian", r, v, rn, cn, fd, got);
    }
    record(c, "NLP gradient", v, v, "objective", cn, (fp - fm) / (2 * h),
           grad[v]);
  }
done:
  free(x);
  free(gp);
  free(gm);
  free(lam);
  free(jv);
  free(hv);
  free(Jd);
  free(Hd);
  free(lp);
  free(lm);
  free(grad);
  return rc;
}

rc_err rc_phases_check(const rc_phases *ph, const rc_mesh *meshes,
                       const rc_check_options *o, rc_phases_check_report *rep,
                       rc_error *err) {
  memset(rep, 0, sizeof *rep);
  rc_check_options def;
  if (!o) {
    rc_check_options_default(&def);
    o = &def;
  }
  rc_err rc = rc_phases_validate(ph, err);
  if (rc != RC_OK)
    return rc;
  const int nph = ph->nphases;
  rc_problem *pb = calloc((size_t)nph, sizeof *pb);
  rc_mesh *mesh = calloc((size_t)nph, sizeof *mesh);
  rc_pnlp *p = NULL;
  double *x0 = NULL, *x = NULL, *lo = NULL, *hi = NULL, *glo = NULL,
         *ghi = NULL;
  if (!pb || !mesh) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory");
    goto done;
  }
  for (int k = 0; k < nph && rc == RC_OK; ++k) {
    rc_mesh m;
    memset(&m, 0, sizeof m);
    if ((rc = rc_phases_local_problem(ph, k, &pb[k], NULL, err)) != RC_OK)
      break;
    if (!meshes && (rc = rc_mesh_uniform(2, 3, &m, err)) != RC_OK)
      break;
    const rc_mesh *src = meshes ? &meshes[k] : &m;
    rc = pb[k].data ? rc_data_mesh(&pb[k], pb[k].data, src, &mesh[k], err)
                    : rc_mesh_copy(src, &mesh[k], err);
    rc_mesh_free(&m);
  }
  if (rc != RC_OK || (rc = rc_pnlp_create(ph, pb, mesh, 1, &p, err)) != RC_OK)
    goto done;
  if ((double)p->nvar * (double)(p->ncon + p->nvar) > RC_PCHECK_MAX_DENSE) {
    rc = rc_error_set(err, RC_ERR_INPUT,
                      "the NLP has %d variables and %d constraints: too large "
                      "for the dense check (at most about 2e7 entries); "
                      "expected smaller meshes",
                      p->nvar, p->ncon);
    goto done;
  }
  rep->nvars = p->nvar;
  rep->ncons = p->ncon;
  rep->nlink_rows = p->nlrow;
  rep->nlink_blocks = ph->nlinks;
  rep->ndata = p->nd;
  for (int k = 0; k < nph; ++k)
    rep->nfree_durations += p->nlp[k]->free_tf;
  const size_t nv = (size_t)p->nvar, nc = (size_t)(p->ncon ? p->ncon : 1);
  x0 = malloc(sizeof(double) * nv);
  x = malloc(sizeof(double) * nv);
  lo = malloc(sizeof(double) * nv);
  hi = malloc(sizeof(double) * nv);
  glo = malloc(sizeof(double) * nc);
  ghi = malloc(sizeof(double) * nc);
  if (!x0 || !x || !lo || !hi || !glo || !ghi) {
    rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory");
    goto done;
  }
  if ((rc = rc_pnlp_guess(p, NULL, x0, NULL, NULL, NULL, err)) != RC_OK)
    goto done;
  rc_pnlp_bounds(p, lo, hi, glo, ghi);
  pcheck c = {o, rep, 0x9E3779B97F4A7C15ULL ^ (unsigned long long)o->seed};
  const int npts = o->npoints > 0 ? o->npoints : 1;
  for (int pt = 0; pt < npts && rc == RC_OK; ++pt) {
    for (size_t v = 0; v < nv; ++v)
      x[v] = x0[v] + o->spread * (1.0 + fabs(x0[v])) * urand(&c);
    for (int k = 0; k < nph; ++k) /* durations stay positive */
      if (p->nlp[k]->free_tf) {
        const int v = p->voff[k] + p->nlp[k]->tf_off;
        x[v] = fmax(x[v], pb[k].t0 + 0.5 * (x0[v] - pb[k].t0));
      }
    for (int l = 0; l < ph->nlinks && rc == RC_OK; ++l) {
      const int ne = p->lk_eoff[l + 1] - p->lk_eoff[l];
      for (int j = 0; j < ne; ++j) {
        const int ev = p->ev[p->lk_eoff[l] + j];
        p->e[j] = ev >= 0 ? x[ev] + p->es[p->lk_eoff[l] + j]
                          : p->es[p->lk_eoff[l] + j];
      }
      double *e = malloc(sizeof(double) * (size_t)(ne ? ne : 1));
      if (!e) {
        rc = rc_error_set(err, RC_ERR_NOMEM, "out of memory");
        break;
      }
      memcpy(e, p->e, sizeof(double) * (size_t)ne);
      rc = check_link(&c, p, l, e, err);
      free(e);
    }
    if (rc == RC_OK && pt < 2)
      rc = check_nlp(&c, p, x, err);
  }
done:
  free(x0);
  free(x);
  free(lo);
  free(hi);
  free(glo);
  free(ghi);
  rc_pnlp_free(&p);
  for (int k = 0; mesh && k < nph; ++k)
    rc_mesh_free(&mesh[k]);
  free(mesh);
  free(pb);
  return rc;
}
