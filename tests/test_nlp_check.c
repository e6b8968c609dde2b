/*
 * test_nlp_check.c - the transcription's finite-difference check
 * (radcol/nlp_check.h, run by `radcol check`) finds wrong entries in the
 * terms free breakpoints add: the chain rule through the segment durations
 * T_q in the collocation rows (Jacobian) and their cross terms (Hessian),
 * the duration row and a tangency row of a pinned state arc.
 *
 * The problem is bryson-denham/l2 (autonomous, a state bound x <= l): on
 * the check's default mesh (3 free segments, a continuity pin of u and a
 * bound pin of x with its tangency row) the assembled NLP passes.  Then one
 * entry of the assembled pattern at a time is moved to another column (or
 * row) — what a transcription that writes a duration term into the wrong
 * slot, or forgets it, amounts to — and the check must fail naming the
 * duration (or the row); restored, it passes again.
 *
 * Free breakpoints on a problem that depends on t (rc_problem.time_derivs):
 * bryson-denham with each output scaled by g_i(t) = 1 + c_i sin(w_i t),
 * F_i(t, w) = g_i(t) F_i^BD(w) (same patterns, not autonomous), and its
 * exact time derivatives.  The check passes on the segmented mesh; with a
 * planted error in dF/dt, in d2F/(dt dw) or in d2F/dt2 (each a factor 1.01
 * on one term) it fails naming a duration T[q].
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nlp/transcription.h"
#include "radcol/catalogue.h"
#include "radcol/nlp_check.h"
#include "radcol/params.h"
#include "test_util.h"

static rc_problem *make(const char *name, const char *form) {
  const rc_model *m = rc_find_model(name);
  EXPECT(m != NULL, "model %s not registered", name);
  if (!m)
    return NULL;
  rc_param_values pv;
  rc_error err;
  rc_problem *pb = NULL;
  EXPECT(rc_params_init_defaults(m, &pv, &err) == RC_OK, "params: %s",
         err.message);
  const int f = rc_model_find_formulation(m, form);
  EXPECT(f >= 0, "%s has no formulation %s", name, form);
  EXPECT(rc_model_create(m, f, &pv, NAN, &pb, &err) == RC_OK, "create: %s",
         err.message);
  rc_params_free(&pv);
  return pb;
}

static int mentions(const rc_check_report *rep, const char *what) {
  const int kept = rep->nfailures < RC_CHECK_MAX_FAILURES
                       ? rep->nfailures
                       : RC_CHECK_MAX_FAILURES;
  for (int k = 0; k < kept; ++k)
    if (strstr(rep->failures[k].row_name, what) ||
        strstr(rep->failures[k].col_name, what))
      return 1;
  return 0;
}

static int run(rc_nlp *nlp, const double *x, const double *lam,
               rc_check_report *rep) {
  rc_check_options o;
  rc_check_options_default(&o);
  rc_nlp_check_info info;
  memset(rep, 0, sizeof *rep);
  memset(&info, 0, sizeof info);
  rc_check_nlp_at(nlp, x, lam, 0.7, &o, rep, &info);
  return rep->nfailures;
}

/* Moves entry e of the Jacobian to column col (or row row when col < 0),
 * runs the check, restores; returns the report. */
static void tamper_jac(rc_nlp *nlp, const double *x, const double *lam, int e,
                       int row, int col, rc_check_report *rep) {
  const int r0 = nlp->jac_row[e], c0 = nlp->jac_col[e];
  if (col >= 0)
    nlp->jac_col[e] = col;
  else
    nlp->jac_row[e] = row;
  run(nlp, x, lam, rep);
  nlp->jac_row[e] = r0, nlp->jac_col[e] = c0;
}

/* ---- bryson-denham made time-dependent --------------------------------- */

static const rc_problem *bd; /* the original */
static int plant;            /* 0 none, 1 Ft, 2 Ftw, 3 Ftt: 1.01 on one term */
static const double gc[3] = {0.3, -0.2, 0.25}, gw[3] = {2.0, 3.0, 1.5};

static double g_of(int i, double t, int d) { /* g_i and its derivatives */
  const double a = gc[i % 3], b = gw[i % 3];
  return d == 0   ? 1.0 + a * sin(b * t)
         : d == 1 ? a * b * cos(b * t)
                  : -a * b * b * sin(b * t);
}

static int td_eval(const rc_problem *pb, double t, const double *w,
                   double *out) {
  (void)pb;
  const int st = bd->point.eval(bd, t, w, out);
  for (int i = 0; st == 0 && i < rc_problem_nF(bd); ++i)
    out[i] *= g_of(i, t, 0);
  return st;
}

static int td_jac(const rc_problem *pb, double t, const double *w,
                  double *vals) {
  (void)pb;
  const int st = bd->point.jacobian(bd, t, w, vals);
  for (int e = 0; st == 0 && e < bd->point.jac.nnz; ++e)
    vals[e] *= g_of(bd->point.jac.row[e], t, 0);
  return st;
}

static int td_hes(const rc_problem *pb, double t, const double *w,
                  const double *mu, double *vals) {
  (void)pb;
  double m[8];
  for (int i = 0; i < rc_problem_nF(bd); ++i)
    m[i] = mu[i] * g_of(i, t, 0);
  return bd->point.hessian(bd, t, w, m, vals);
}

static int td_time(const rc_problem *pb, double t, const double *w,
                   const double *mu, double *Ft, double *Ftw, double *Ftt) {
  (void)pb;
  double F[8], J[64];
  int st = bd->point.eval(bd, t, w, F);
  if (st == 0)
    st = bd->point.jacobian(bd, t, w, J);
  if (st)
    return st;
  const int nF = rc_problem_nF(bd), nw = rc_problem_nw(bd);
  for (int i = 0; i < nF; ++i)
    Ft[i] = g_of(i, t, 1) * F[i] * (plant == 1 && i == 1 ? 1.01 : 1.0);
  if (!mu)
    return 0;
  for (int c = 0; c < nw; ++c)
    Ftw[c] = 0.0;
  *Ftt = 0.0;
  for (int e = 0; e < bd->point.jac.nnz; ++e) {
    const int i = bd->point.jac.row[e];
    Ftw[bd->point.jac.col[e]] +=
        mu[i] * g_of(i, t, 1) * J[e] * (plant == 2 && e == 0 ? 1.01 : 1.0);
  }
  for (int i = 0; i < nF; ++i)
    *Ftt += mu[i] * g_of(i, t, 2) * F[i] * (plant == 3 && i == 2 ? 1.01 : 1.0);
  return 0;
}

static void time_dependent(rc_problem *bdp) {
  bd = bdp;
  static int rows[8], cols[8];
  static rc_problem tp;
  tp = *bdp;
  tp.autonomous = 0;
  tp.point.eval = td_eval;
  tp.point.jacobian = td_jac;
  tp.point.hessian = td_hes;
  tp.n_time_rows = rc_problem_nF(bdp);
  tp.n_time_cols = rc_problem_nw(bdp);
  for (int i = 0; i < tp.n_time_rows; ++i)
    rows[i] = i;
  for (int c = 0; c < tp.n_time_cols; ++c)
    cols[c] = c;
  tp.time_rows = rows;
  tp.time_cols = cols;
  tp.time_derivs = td_time;
  rc_error err;
  EXPECT(rc_problem_validate(&tp, &err) == RC_OK, "time-dependent: %s",
         err.message);
  rc_check_report rep;
  rc_nlp_check_info info;
  static const char *what[] = {"exact", "dF/dt", "d2F/(dt dw)", "d2F/dt2"};
  for (plant = 0; plant <= 3; ++plant) {
    EXPECT(rc_check_nlp(&tp, NULL, &rep, &info, &err) == RC_OK, "check: %s",
           err.message);
    printf("time-dependent bryson-denham, %s: %d segments, %d pins, %d "
           "entries, %d failures%s%s%s\n",
           what[plant], info.nseg, info.npin, rep.nentries, rep.nfailures,
           rep.nfailures ? " (first: " : "",
           rep.nfailures ? rep.failures[0].col_name : "",
           rep.nfailures ? ")" : "");
    EXPECT(info.nseg == 3, "%s: %d segments, expected 3", what[plant],
           info.nseg);
    if (plant == 0)
      EXPECT(rep.nfailures == 0, "exact time derivatives: %d failures",
             rep.nfailures);
    else
      EXPECT(rep.nfailures > 0 && mentions(&rep, "T["),
             "planted error in %s: %d failures, naming a duration %d",
             what[plant], rep.nfailures, mentions(&rep, "T["));
  }
  plant = 0;
}

int main(void) {
  rc_problem *pb = make("bryson-denham", "l2");
  if (!pb)
    return RC_TEST_EXIT();
  rc_error err;
  rc_mesh mesh;
  int segmented = 0;
  EXPECT(rc_check_nlp_default_mesh(pb, &mesh, &segmented, &err) == RC_OK,
         "mesh: %s", err.message);
  EXPECT(segmented && mesh.nseg == 3 && mesh.npin == 2,
         "default mesh: %d segments, %d pins (expected 3 and 2)", mesh.nseg,
         mesh.npin);
  /* the whole check through the public entry points */
  rc_check_report rep;
  rc_nlp_check_info info;
  EXPECT(rc_check_nlp(pb, NULL, &rep, &info, &err) == RC_OK, "check: %s",
         err.message);
  EXPECT(rep.nfailures == 0 && info.nseg == 3 && info.npin == 2 &&
             rep.nentries > 1000,
         "untouched NLP: %d failures, %d segments, %d pins, %d entries",
         rep.nfailures, info.nseg, info.npin, rep.nentries);
  printf("bryson-denham/l2 NLP check: %d entries, max rel err jac %.2e hes "
         "%.2e grad %.2e\n",
         rep.nentries, rep.max_rel_err_jac, rep.max_rel_err_hes,
         info.max_rel_err_grad);

  rc_nlp *nlp = NULL;
  EXPECT(rc_nlp_create(pb, &mesh, 1, &nlp, &err) == RC_OK, "nlp: %s",
         err.message);
  if (!nlp)
    return RC_TEST_EXIT();
  EXPECT(nlp->ntan == 1 && nlp->ncont == 1 && nlp->dur_row >= 0,
         "expected a tangency row, a continuity row and the duration row "
         "(got %d, %d, %d)",
         nlp->ntan, nlp->ncont, nlp->dur_row);
  double x[4000], lam[8000];
  EXPECT(nlp->nvar <= 4000 && nlp->ncon <= 8000, "NLP too big for the test");
  rc_nlp_default_guess(nlp, x, &err);
  for (int v = 0; v < nlp->nvar; ++v)
    x[v] += 0.03 * sin(1.0 + 7.0 * v);
  for (int r = 0; r < nlp->ncon; ++r)
    lam[r] = cos(2.0 + 3.0 * r);
  EXPECT(run(nlp, x, lam, &rep) == 0, "at the test point: %d failures",
         rep.nfailures);

  /* Jacobian: a collocation row's entry in the column of T[1], moved to
   * T[0] (the chain rule into the wrong duration) */
  const int T0 = nlp->dur_off, T1 = nlp->dur_off + 1;
  int moved = 0;
  for (int e = 0; e < nlp->nnz_jac && !moved; ++e)
    if (nlp->jac_col[e] == T1 && nlp->jac_row[e] < nlp->b_off) {
      tamper_jac(nlp, x, lam, e, -1, T0, &rep);
      EXPECT(rep.nfailures > 0 && mentions(&rep, "T[1]") &&
                 mentions(&rep, "T[0]"),
             "collocation d/dT[1] moved to T[0]: %d failures, naming T[1] "
             "%d, T[0] %d",
             rep.nfailures, mentions(&rep, "T[1]"), mentions(&rep, "T[0]"));
      printf("collocation entry d/dT[1] moved to T[0]: %d failures, first: "
             "%s / %s fd %.6g got %.6g\n",
             rep.nfailures, rep.failures[0].row_name, rep.failures[0].col_name,
             rep.failures[0].expected, rep.failures[0].got);
      moved = 1;
    }
  EXPECT(moved, "no collocation entry in the column of T[1]");

  /* the duration row's entry of T[2] moved to another row */
  moved = 0;
  for (int e = 0; e < nlp->nnz_jac && !moved; ++e)
    if (nlp->jac_row[e] == nlp->dur_row && nlp->jac_col[e] == T0 + 2) {
      tamper_jac(nlp, x, lam, e, nlp->dur_row - 1, -1, &rep);
      EXPECT(rep.nfailures > 0 && mentions(&rep, "duration row"),
             "duration row entry moved: %d failures", rep.nfailures);
      moved = 1;
    }
  EXPECT(moved, "no duration row entry of T[2]");

  /* a tangency row's entry moved to a column it does not depend on */
  moved = 0;
  for (int e = 0; e < nlp->nnz_jac && !moved; ++e)
    if (nlp->jac_row[e] == nlp->tan_off && nlp->jac_col[e] != T0) {
      tamper_jac(nlp, x, lam, e, -1, T0, &rep);
      EXPECT(rep.nfailures > 0 && mentions(&rep, "tangency row 0"),
             "tangency row entry moved: %d failures", rep.nfailures);
      moved = 1;
    }
  EXPECT(moved, "no tangency row entry");

  /* Hessian: a cross term (T[1], w) moved to (T[0], w) */
  moved = 0;
  for (int e = 0; e < nlp->nnz_hes && !moved; ++e)
    if (nlp->hes_row[e] == T1 && nlp->hes_col[e] < T0) {
      const int r0 = nlp->hes_row[e];
      nlp->hes_row[e] = T0;
      run(nlp, x, lam, &rep);
      nlp->hes_row[e] = r0;
      EXPECT(rep.nfailures > 0 && mentions(&rep, "T[1]"),
             "Hessian cross term of T[1] moved: %d failures", rep.nfailures);
      printf("Hessian cross term (T[1], w) moved to T[0]: %d failures, "
             "first: %s / %s fd %.6g got %.6g\n",
             rep.nfailures, rep.failures[0].row_name, rep.failures[0].col_name,
             rep.failures[0].expected, rep.failures[0].got);
      moved = 1;
    }
  EXPECT(moved, "no Hessian cross term of T[1]");

  /* restored: passes again */
  EXPECT(run(nlp, x, lam, &rep) == 0, "restored NLP: %d failures",
         rep.nfailures);
  rc_nlp_free(&nlp);
  rc_mesh_free(&mesh);
  time_dependent(pb);
  rc_problem_free(&pb);
  return RC_TEST_EXIT();
}
