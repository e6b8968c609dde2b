/*
 * check_all.c - CTest driver of the finite-difference derivative check
 * (rc_check_problem) over the built-in registry (rc_builtin_models()).
 *
 *   check_all MODEL FORMULATION     check one formulation built with the
 *                                   model's default parameters; exit 0 pass,
 *                                   1 fail, 2 the problem could not be built,
 *                                   77 (CTest skip) MODEL is not registered
 *   check_all --registry M:F ...    assert that the (model, formulation)
 *                                   pairs listed in tests/check.cmake cover
 *                                   the registry exactly: a registered
 *                                   formulation without a listed test, or a
 *                                   listed formulation that a registered
 *                                   model lacks, fails; listed models that
 *                                   are not registered are reported
 *   check_all --all                 check every registered formulation
 *   check_all --mutate MODEL FORMULATION [NPOINTS]
 *                                   mutation test of the checker on one
 *                                   formulation: for every block (point,
 *                                   boundary, invariants) and every entry of
 *                                   its patterns, one check with that
 *                                   Jacobian entry's sign flipped and one with
 *                                   that Hessian entry halved; each must fail
 *                                   naming the entry (kind, block, row, col)
 *                                   whenever the mutation is visible at the
 *                                   checked points (see below); exit 0 all
 *                                   caught, 1 one escaped, 2, 77 as above;
 *                                   NPOINTS points per block (default 6, the
 *                                   check's own default)
 *
 * Visible mutations.  A wrapper around the block's callback changes entry e
 * and records the largest |v_e| / max(1, |v_e|) over the calls the check
 * makes.  A flipped sign changes the entry by 2 |v_e|, a halved entry by
 * |v_e| / 2, against the check's tolerance rel_tol max(1, |fd|, |got|) plus
 * the difference's error estimate (credited up to RC_CHECK_MAX_CREDIT of the
 * scale); a mutation whose change is above 100 rel_tol + RC_CHECK_MAX_CREDIT
 * of the scale at some call is visible and must be caught.  An entry that is
 * (nearly) zero at every checked point cannot be caught by any difference
 * check there; those are counted and listed, not failed.
 *
 * Every failure is printed with its block, entry names, time, the
 * finite-difference value and the hand-coded one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radcol/catalogue.h"
#include "radcol/check.h"
#include "radcol/nlp_check.h"
#include "radcol/params.h"
#include "radcol/phases.h"
#include "radcol/phases_check.h"

#define SKIP_CODE 77

static int count_models(void) {
  int n = 0;
  for (const rc_model *const *m = rc_builtin_models(); *m; ++m)
    ++n;
  return n;
}

static const char *kind_name(rc_check_kind k) {
  switch (k) {
  case RC_CHECK_JAC_VALUE:
    return "jacobian value";
  case RC_CHECK_JAC_MISSING:
    return "jacobian entry missing from pattern";
  case RC_CHECK_HES_VALUE:
    return "hessian value";
  case RC_CHECK_HES_MISSING:
    return "hessian entry missing from pattern";
  case RC_CHECK_EVAL:
    return "evaluation failed";
  }
  return "?";
}

/* Formulations that cannot be built from the defaults alone: the
 * parameter they need (crane minimum time: without a trolley force limit no
 * minimum exists, docs/crane-mintime.md) and the value checked with. */
static const char *const NEEDS[][3] = {
    {"crane", "mintime", "u1max=10"},
    {"crane", "pathtime", "u1max=10"},
};

/* Formulation f of model m with default parameters (and what NEEDS names),
 * or NULL after printing why not. */
static rc_problem *build(const rc_model *m, int f) {
  rc_param_values pv;
  memset(&pv, 0, sizeof pv);
  rc_problem *pb = NULL;
  rc_error err;
  rc_error_clear(&err);
  rc_err rc = rc_params_init_defaults(m, &pv, &err);
  for (size_t k = 0; rc == RC_OK && k < sizeof NEEDS / sizeof *NEEDS; ++k)
    if (strcmp(NEEDS[k][0], m->name) == 0 &&
        strcmp(NEEDS[k][1], m->formulations[f].name) == 0) {
      printf("note %s:%s: built with %s (it needs the parameter)\n", m->name,
             m->formulations[f].name, NEEDS[k][2]);
      rc = rc_params_set(m, &pv, NEEDS[k][2], &err);
    }
  if (rc == RC_OK)
    rc = m->create(m, f, &pv, &pb, &err);
  rc_params_free(&pv);
  if (rc != RC_OK || !pb) {
    printf("FAIL %s:%s: could not build the problem: %s (%s)\n", m->name,
           m->formulations[f].name, err.message, rc_err_name(rc));
    rc_problem_free(&pb);
    return NULL;
  }
  return pb;
}

/* Checks the problem pb of formulation f of model m (its blocks and its
 * transcription).  Returns 0 pass, 1 fail, 2 check error. */
static int check_problem(const rc_model *m, int f, const rc_problem *pb) {
  rc_error err;
  rc_err rc;
  rc_check_options o;
  rc_check_options_default(&o);
  rc_check_report r;
  rc = rc_check_problem(pb, &o, &r, &err);
  int status;
  if (rc != RC_OK) {
    printf("FAIL %s:%s: check did not run: %s (%s)\n", m->name,
           m->formulations[f].name, err.message, rc_err_name(rc));
    status = 2;
  } else {
    printf("%s %s:%s: %d entries compared at %d points per block, %d "
           "failure(s), max relative error jacobian %.2e hessian %.2e\n",
           r.nfailures ? "FAIL" : "PASS", m->name, m->formulations[f].name,
           r.nentries, o.npoints, r.nfailures, r.max_rel_err_jac,
           r.max_rel_err_hes);
    int nk = r.nfailures < RC_CHECK_MAX_FAILURES ? r.nfailures
                                                 : RC_CHECK_MAX_FAILURES;
    for (int k = 0; k < nk; ++k) {
      const rc_check_failure *x = &r.failures[k];
      if (x->kind == RC_CHECK_EVAL)
        printf("  %s block: %s: callback %s returned %g at t = %g\n", x->block,
               kind_name(x->kind), x->row_name, x->got, x->t);
      else if (x->kind == RC_CHECK_HES_VALUE || x->kind == RC_CHECK_HES_MISSING)
        printf("  %s block: %s: d2 %s / d %s d %s (row %d, col %d) "
               "at t = %g: finite difference %.10g, hand-coded %.10g\n",
               x->block, kind_name(x->kind),
               x->out_row >= 0 ? x->out_name : "(sum mu F)", x->row_name,
               x->col_name, x->row, x->col, x->t, x->expected, x->got);
      else
        printf("  %s block: %s: d %s / d %s (row %d, col %d) at t = %g: "
               "finite difference %.10g, hand-coded %.10g\n",
               x->block, kind_name(x->kind), x->row_name, x->col_name, x->row,
               x->col, x->t, x->expected, x->got);
    }
    if (r.nfailures > nk)
      printf("  ... and %d more\n", r.nfailures - nk);
    status = r.nfailures ? 1 : 0;
  }
  /* the transcription's own terms (radcol/nlp_check.h): free segment
   * durations and pins when the problem is autonomous, free tf, Bernstein
   * rows */
  rc_nlp_check_info info;
  rc = rc_check_nlp(pb, &o, &r, &info, &err);
  if (rc != RC_OK) {
    printf("FAIL %s:%s: transcription check did not run: %s (%s)\n", m->name,
           m->formulations[f].name, err.message, rc_err_name(rc));
    status = 2;
  } else {
    printf("%s %s:%s transcription (%d free segments, %d pins, tf %s): %d "
           "entries, %d failure(s), max relative error jacobian %.2e hessian "
           "%.2e\n",
           r.nfailures ? "FAIL" : "PASS", m->name, m->formulations[f].name,
           info.nseg, info.npin, info.free_tf ? "free" : "fixed", r.nentries,
           r.nfailures, r.max_rel_err_jac, r.max_rel_err_hes);
    int nk = r.nfailures < RC_CHECK_MAX_FAILURES ? r.nfailures
                                                 : RC_CHECK_MAX_FAILURES;
    for (int k = 0; k < nk; ++k)
      printf("  %s: d %s / d %s: finite difference %.10g, hand-coded %.10g\n",
             kind_name(r.failures[k].kind), r.failures[k].row_name,
             r.failures[k].col_name, r.failures[k].expected, r.failures[k].got);
    if (r.nfailures && status == 0)
      status = 1;
  }
  return status;
}

/* A multiphase formulation (rc_model.create_phases) with default
 * parameters: every phase as one problem (check_problem), then the
 * assembled NLP of all phases (radcol/phases_check.h: every entry, the
 * linkage rows and the free durations included).  Returns -1 when f is a
 * one-phase formulation, else 0 pass, 1 fail, 2 build or check error. */
static int check_phases(const rc_model *m, int f) {
  if (!m->create_phases)
    return -1;
  rc_param_values pv;
  memset(&pv, 0, sizeof pv);
  rc_error err;
  rc_error_clear(&err);
  rc_phases *ph = NULL;
  rc_err rc = rc_params_init_defaults(m, &pv, &err);
  if (rc == RC_OK)
    rc = m->create_phases(m, f, &pv, &ph, &err);
  if (rc != RC_OK || !ph) {
    rc_params_free(&pv);
    if (rc == RC_OK)
      return -1;
    printf("FAIL %s:%s: could not build the phases: %s (%s)\n", m->name,
           m->formulations[f].name, err.message, rc_err_name(rc));
    return 2;
  }
  int status = 0;
  for (int k = 0; k < ph->nphases; ++k) {
    printf("phase %s:\n", ph->phase[k].name);
    const int s = check_problem(m, f, ph->phase[k].pb);
    status = s > status ? s : status;
  }
  rc_check_options o;
  rc_check_options_default(&o);
  rc_phases_check_report rep;
  rc = rc_phases_check(ph, NULL, &o, &rep, &err);
  if (rc != RC_OK) {
    printf("FAIL %s:%s: the phases' check did not run: %s (%s)\n", m->name,
           m->formulations[f].name, err.message, rc_err_name(rc));
    status = 2;
  } else {
    printf("%s %s:%s assembled NLP (%d phases, %d variables, %d linkage rows, "
           "%d free durations): %d entries, %d failure(s), max relative error "
           "%.2e\n",
           rep.nfailures ? "FAIL" : "PASS", m->name, m->formulations[f].name,
           ph->nphases, rep.nvars, rep.nlink_rows, rep.nfree_durations,
           rep.nentries, rep.nfailures, rep.max_rel_err);
    const int nk = rep.nfailures < RC_CHECK_MAX_FAILURES
                       ? rep.nfailures
                       : RC_CHECK_MAX_FAILURES;
    for (int k = 0; k < nk; ++k)
      printf("  %s: %s / %s: finite difference %.10g, assembled %.10g\n",
             rep.failures[k].what, rep.failures[k].row_name,
             rep.failures[k].col_name, rep.failures[k].expected,
             rep.failures[k].got);
    if (rep.nfailures && status == 0)
      status = 1;
  }
  rc_phases_free(&ph);
  rc_params_free(&pv); /* after the phases: they may record it */
  return status;
}

/* Builds formulation f of model m with default parameters and checks it.
 * Returns 0 pass, 1 fail, 2 build or check error. */
static int check_one(const rc_model *m, int f) {
  const int ps = check_phases(m, f);
  if (ps >= 0)
    return ps;
  rc_problem *pb = build(m, f);
  if (!pb)
    return 2;
  const int status = check_problem(m, f, pb);
  rc_problem_free(&pb);
  return status;
}

/* ---- mutation test ------------------------------------------------------ */

enum { MUT_FLIP_JAC, MUT_HALVE_HES };
static struct {
  int kind;      /* MUT_FLIP_JAC or MUT_HALVE_HES */
  int block;     /* 0 point, 1 boundary, 2 invariants */
  int entry;     /* pattern entry mutated */
  rc_jac_fn jac; /* the block's own callbacks */
  rc_hes_fn hes;
  double seen; /* largest |v_e| / max(1, |v_e|) over the calls */
} g_mut;
static int g_npoints = 6; /* points per block of a mutated check */

static void mut_seen(double v) {
  double r = fabs(v) / fmax(1.0, fabs(v));
  if (r > g_mut.seen)
    g_mut.seen = r;
}

static int mut_jac(const rc_problem *pb, double t, const double *w,
                   double *vals) {
  int st = g_mut.jac(pb, t, w, vals);
  if (st == 0) {
    mut_seen(vals[g_mut.entry]);
    vals[g_mut.entry] = -vals[g_mut.entry];
  }
  return st;
}

static int mut_hes(const rc_problem *pb, double t, const double *w,
                   const double *mu, double *vals) {
  int st = g_mut.hes(pb, t, w, mu, vals);
  if (st == 0) {
    mut_seen(vals[g_mut.entry]);
    vals[g_mut.entry] *= 0.5;
  }
  return st;
}

static rc_block *block_of(rc_problem *pb, int b) {
  return b == 0 ? &pb->point : b == 1 ? &pb->boundary : &pb->invariants;
}

static const char *const block_names[] = {"point", "boundary", "invariants"};

/* One mutated check: 0 caught (or invisible, *invisible incremented), 1
 * escaped, 2 the check did not run. */
static int mutate_one(const rc_problem *pb, const char *label, int block,
                      int kind, int e, int *invisible) {
  rc_problem mp = *pb; /* same user data: the callbacks see pb->user */
  rc_block *b = block_of(&mp, block);
  const rc_pattern *pat = kind == MUT_FLIP_JAC ? &b->jac : &b->hes;
  g_mut.kind = kind;
  g_mut.block = block;
  g_mut.entry = e;
  g_mut.jac = b->jacobian;
  g_mut.hes = b->hessian;
  g_mut.seen = 0.0;
  if (kind == MUT_FLIP_JAC)
    b->jacobian = mut_jac;
  else
    b->hessian = mut_hes;
  rc_check_options o;
  rc_check_options_default(&o);
  o.npoints = g_npoints;
  rc_check_report r;
  rc_error err;
  rc_err rc = rc_check_problem(&mp, &o, &r, &err);
  if (rc != RC_OK) {
    printf("FAIL %s: check did not run: %s\n", label, err.message);
    return 2;
  }
  const rc_check_kind want =
      kind == MUT_FLIP_JAC ? RC_CHECK_JAC_VALUE : RC_CHECK_HES_VALUE;
  const int nk =
      r.nfailures < RC_CHECK_MAX_FAILURES ? r.nfailures : RC_CHECK_MAX_FAILURES;
  int named = 0;
  for (int k = 0; k < nk; ++k) {
    const rc_check_failure *x = &r.failures[k];
    named |= x->kind == want && strcmp(x->block, block_names[block]) == 0 &&
             x->row == pat->row[e] && x->col == pat->col[e];
  }
  /* the change: 2 |v| (flip) or |v| / 2 (halve), relative to max(1, |v|) */
  const double change = (kind == MUT_FLIP_JAC ? 2.0 : 0.5) * g_mut.seen;
  const int visible = change > 100.0 * o.rel_tol + RC_CHECK_MAX_CREDIT;
  if (named)
    return 0;
  if (!visible) {
    ++*invisible;
    printf("  note %s: (nearly) zero at every checked point (largest "
           "|v| / max(1, |v|) = %.2e), %d failure(s): not visible\n",
           label, g_mut.seen, r.nfailures);
    return 0;
  }
  printf("FAIL %s: |v| / max(1, |v|) up to %.2e, but the check reported %d "
         "failure(s), none of them this entry\n",
         label, g_mut.seen, r.nfailures);
  return 1;
}

static int run_mutate(const char *model, const char *form) {
  const rc_model *m = rc_find_model(model);
  if (!m) {
    printf("SKIP %s:%s: model '%s' is not in the registry\n", model, form,
           model);
    return SKIP_CODE;
  }
  int f = rc_model_find_formulation(m, form);
  if (f < 0) {
    printf("FAIL %s:%s: no such formulation (fix tests/check.cmake)\n", model,
           form);
    return 1;
  }
  rc_problem *pb = build(m, f);
  if (!pb)
    return 2;
  int worst = 0, n = 0, invisible = 0;
  for (int blk = 0; blk < 3; ++blk) {
    if (blk == 2 && pb->ninv == 0)
      continue;
    const rc_block *b = block_of(pb, blk);
    for (int kind = MUT_FLIP_JAC; kind <= MUT_HALVE_HES; ++kind) {
      const rc_pattern *pat = kind == MUT_FLIP_JAC ? &b->jac : &b->hes;
      for (int e = 0; e < pat->nnz; ++e) {
        char label[160];
        snprintf(label, sizeof label, "%s:%s %s %s entry %d (%d, %d)", model,
                 form, block_names[blk],
                 kind == MUT_FLIP_JAC ? "jacobian sign flipped"
                                      : "hessian halved",
                 e, pat->row[e], pat->col[e]);
        int s = mutate_one(pb, label, blk, kind, e, &invisible);
        worst = s > worst ? s : worst;
        ++n;
      }
    }
  }
  rc_problem_free(&pb);
  printf("%s %s:%s: %d mutations (every Jacobian entry's sign flipped, every "
         "Hessian entry halved, one at a time), %d caught and named, %d not "
         "visible at the checked points\n",
         worst ? "FAIL" : "PASS", model, form, n, n - invisible, invisible);
  return worst;
}

static int run_pair(const char *model, const char *form) {
  if (count_models() == 0) {
    printf("SKIP %s:%s: the model registry is empty (no model built yet); "
           "nothing to check\n",
           model, form);
    return SKIP_CODE;
  }
  const rc_model *m = rc_find_model(model);
  if (!m) {
    printf("SKIP %s:%s: model '%s' is not in the registry (not built yet)\n",
           model, form, model);
    return SKIP_CODE;
  }
  int f = rc_model_find_formulation(m, form);
  if (f < 0) {
    printf("FAIL %s:%s: model '%s' has no formulation '%s'; expected one of",
           model, form, model, form);
    for (int k = 0; k < m->nformulations; ++k)
      printf(" %s", m->formulations[k].name);
    printf(" (fix tests/check.cmake)\n");
    return 1;
  }
  return check_one(m, f);
}

/* Is "model:form" among the listed pairs? */
static int listed(int n, char **pairs, const char *model, const char *form) {
  size_t lm = strlen(model);
  for (int k = 0; k < n; ++k)
    if (strncmp(pairs[k], model, lm) == 0 && pairs[k][lm] == ':' &&
        strcmp(pairs[k] + lm + 1, form) == 0)
      return 1;
  return 0;
}

static int run_registry(int n, char **pairs) {
  int bad = 0, nreg = 0;
  for (const rc_model *const *mp = rc_builtin_models(); *mp; ++mp)
    for (int f = 0; f < (*mp)->nformulations; ++f) {
      ++nreg;
      if (!listed(n, pairs, (*mp)->name, (*mp)->formulations[f].name)) {
        printf("FAIL %s:%s is registered but has no derivative-check test: "
               "add it to RADCOL_CHECK_CASES in tests/check.cmake\n",
               (*mp)->name, (*mp)->formulations[f].name);
        ++bad;
      }
    }
  for (int k = 0; k < n; ++k) {
    const char *colon = strchr(pairs[k], ':');
    if (!colon) {
      printf("FAIL listed case '%s': expected MODEL:FORMULATION\n", pairs[k]);
      ++bad;
      continue;
    }
    char model[128];
    size_t lm = (size_t)(colon - pairs[k]);
    if (lm >= sizeof model)
      lm = sizeof model - 1;
    memcpy(model, pairs[k], lm);
    model[lm] = '\0';
    const rc_model *m = rc_find_model(model);
    if (!m)
      printf("note: %s is listed but model '%s' is not registered (not "
             "built yet); its test is skipped\n",
             pairs[k], model);
    else if (rc_model_find_formulation(m, colon + 1) < 0) {
      printf("FAIL %s is listed but model '%s' has no formulation '%s'\n",
             pairs[k], model, colon + 1);
      ++bad;
    }
  }
  if (nreg == 0)
    printf("note: the model registry is empty: no formulation to check yet "
           "(%d listed)\n",
           n);
  printf("%s: %d registered formulation(s), %d listed, %d mismatch(es)\n",
         bad ? "FAIL" : "PASS", nreg, n, bad);
  return bad ? 1 : 0;
}

static int run_all(void) {
  int worst = 0, n = 0;
  for (const rc_model *const *mp = rc_builtin_models(); *mp; ++mp)
    for (int f = 0; f < (*mp)->nformulations; ++f) {
      int s = check_one(*mp, f);
      if (s > worst)
        worst = s;
      ++n;
    }
  if (n == 0) {
    printf("SKIP: the model registry is empty; nothing to check\n");
    return SKIP_CODE;
  }
  return worst;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--registry") == 0)
    return run_registry(argc - 2, argv + 2);
  if (argc == 2 && strcmp(argv[1], "--all") == 0)
    return run_all();
  if ((argc == 4 || argc == 5) && strcmp(argv[1], "--mutate") == 0) {
    if (argc == 5 && (g_npoints = atoi(argv[4])) < 1) {
      fprintf(stderr,
              "check_all: --mutate NPOINTS '%s': expected an integer "
              ">= 1\n",
              argv[4]);
      return 2;
    }
    return run_mutate(argv[2], argv[3]);
  }
  if (argc == 3 && argv[1][0] != '-')
    return run_pair(argv[1], argv[2]);
  fprintf(stderr, "usage: check_all MODEL FORMULATION | --registry "
                  "MODEL:FORMULATION... | --all | --mutate MODEL "
                  "FORMULATION [NPOINTS]\n");
  return 2;
}
