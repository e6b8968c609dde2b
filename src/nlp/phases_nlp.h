/*
 * phases_nlp.h - the NLP of several phases: a composition of one-phase NLPs
 * (transcription.h) plus linkage rows and data terms (internal; the maths
 * and the public side are in radcol/phases.h).
 *
 * Layout.  Phase k's variables are x[voff[k] .. voff[k+1]), its constraints
 * g[coff[k] .. coff[k+1]), each in the order of its own rc_nlp; the linkage
 * rows follow all phases: first the continuity (and parameter equality) rows
 * boundary by boundary, then each user link block's rows in list order.
 *
 * Patterns.  The Jacobian is the concatenation of the phases' patterns
 * (block diagonal, shifted) and the linkage entries (new rows, distinct
 * columns: no duplicate is possible).  The Hessian entries of the phases,
 * of the link blocks and of the data terms are sorted and merged once into
 * one duplicate-free lower triangle; each contribution keeps its slot.  With
 * one phase and nothing else both patterns are the phase's own, entry for
 * entry.
 */
#ifndef RADCOL_NLP_PHASES_NLP_H
#define RADCOL_NLP_PHASES_NLP_H

#include "nlp/transcription.h"
#include "radcol/phases.h"

/* One linkage row's source. */
typedef struct rc_pnlp_row {
  int boundary;
  int link;           /* index into ph->links, or -1: continuity/equality row */
  int out;            /* the link block's output row */
  int va, vb;         /* continuity: NLP variables, row = x[vb] - x[va] */
  const char *name_b; /* continuity: the variable's name */
} rc_pnlp_row;

typedef struct rc_pnlp {
  const rc_phases *ph; /* borrowed */
  int nph;
  const rc_problem *pb; /* nph local problems (borrowed) */
  rc_mesh *mesh;        /* nph meshes (borrowed) */
  rc_nlp **nlp;         /* nph phase NLPs (owned) */
  int *voff, *coff;     /* nph + 1 */
  int nvar, ncon;
  int link_off, nlrow; /* first linkage row, number of linkage rows */
  rc_pnlp_row *row;    /* nlrow */
  /* link blocks: event vector of link l at lk_eoff[l]: NLP variable (or -1
   * for a constant) and the shift / constant: e_j = x[ev] + es, or es */
  int *lk_row0; /* nlinks: first linkage row of link l */
  int *lk_eoff; /* nlinks + 1 */
  int *ev;
  double *es;
  /* data terms: NLP variable, value, weight, phase */
  int nd;
  int *d_var, *d_phase;
  double *d_val, *d_w;
  /* patterns */
  int nnz_jac, nnz_hes;
  int *jac_row, *jac_col, *hes_row, *hes_col;
  int *jac_off;     /* nph + 1: phase k's entries in the Jacobian */
  int *hes_map;     /* phase entries -> Hessian slot (phases in order) */
  int *hes_mapoff;  /* nph + 1 */
  int *lk_jac_slot; /* per link Jacobian entry (links in order), or -1 */
  int *lk_jacoff;   /* nlinks + 1 */
  int *lk_hes_slot; /* per link Hessian entry, or -1 */
  int *lk_hesoff;   /* nlinks + 1 */
  int *d_slot;      /* nd */
  /* workspace */
  double *hbuf;                         /* max phase nnz_hes */
  double *e, *lout, *ljac, *lhes, *lmu; /* max over links */
} rc_pnlp;

/* Sizes of the composed NLP (the one count: create allocates from it). */
rc_err rc_pnlp_count(const rc_phases *ph, const rc_problem *pb,
                     const rc_mesh *mesh, int dense_bounds, rc_phases_counts *c,
                     rc_error *err);

/* pb: nph local problems (rc_phases_local_problem), mesh: their meshes with
 * a breakpoint at every data time.  Borrowed for the NLP's life. */
rc_err rc_pnlp_create(const rc_phases *ph, const rc_problem *pb, rc_mesh *mesh,
                      int dense_bounds, rc_pnlp **out, rc_error *err);
void rc_pnlp_free(rc_pnlp **p);

void rc_pnlp_set_caching(rc_pnlp *p, int on);
void rc_pnlp_new_point(rc_pnlp *p);
void rc_pnlp_bounds(const rc_pnlp *p, double *x_lo, double *x_hi, double *g_lo,
                    double *g_hi);
int rc_pnlp_objective(rc_pnlp *p, const double *x, double *f);
int rc_pnlp_gradient(rc_pnlp *p, const double *x, double *grad);
int rc_pnlp_constraints(rc_pnlp *p, const double *x, double *g);
int rc_pnlp_jacobian(rc_pnlp *p, const double *x, double *vals);
int rc_pnlp_hessian(rc_pnlp *p, const double *x, double obj_factor,
                    const double *lambda, double *vals);

/* Phase k's part of the objective at x (phi + integral L + data); *data
 * gets the data part (may be NULL). */
int rc_pnlp_phase_objective(rc_pnlp *p, int k, const double *x, double *f,
                            double *data);
/* The link objective terms at x. */
int rc_pnlp_link_objective(rc_pnlp *p, const double *x, double *f);

/* Starting point: each phase from guesses[k] (when not NULL and it has
 * nodes) by dense output, else its default guess; duals when lambda is not
 * NULL. */
rc_err rc_pnlp_guess(const rc_pnlp *p, const rc_solution *guesses, double *x,
                     double *lambda, double *zl, double *zu, rc_error *err);

/* Name of linkage row r ("a->b: x" ...) into buf. */
void rc_pnlp_row_name(const rc_pnlp *p, int r, char *buf, size_t len);

#endif
