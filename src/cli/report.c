/*
 * report.c - reference errors and invariant residuals in command output,
 * and the output path, diagnostics, record and write that every command
 * writing a result shares (see report.h).  NaN errors mark entries without
 * a reference and are left out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/report.h"

const char *rc_cli_diag_name(const rc_problem *pb, int i) {
  const int nv = pb->nx + pb->ny + pb->nu;
  if (i < nv)
    return pb->var_names ? pb->var_names[i] : "?";
  return pb->out_names ? pb->out_names[i - nv] : "?";
}

static int has_error(const rc_diagnostics *d, int i) {
  return !(isnan(d->err_nodes[i]) && isnan(d->err_dense[i]));
}

void rc_cli_json_diagnostics(rc_json *j, const rc_problem *pb,
                             const rc_diagnostics *d) {
  if (d && d->has_reference) {
    rc_json_begin_object(j, "max_error");
    for (int i = 0; i < d->nvar; ++i) {
      if (!has_error(d, i))
        continue;
      rc_json_begin_object(j, rc_cli_diag_name(pb, i));
      rc_json_number(j, "nodes", d->err_nodes[i]);
      rc_json_number(j, "dense", d->err_dense[i]);
      rc_json_number(j, "ends", d->err_ends ? d->err_ends[i] : NAN);
      rc_json_end_object(j);
    }
    rc_json_end_object(j);
  }
  rc_json_begin_object(j, "invariants");
  for (int i = 0; d && i < d->ninv; ++i) {
    rc_json_begin_object(j, pb->inv_names ? pb->inv_names[i] : "?");
    rc_json_number(j, "nodes", d->inv_nodes[i]);
    rc_json_number(j, "dense", d->inv_dense[i]);
    rc_json_end_object(j);
  }
  rc_json_end_object(j);
}

void rc_cli_print_diagnostics(const rc_problem *pb, const rc_diagnostics *d,
                              const char *node_label) {
  if (d && d->has_reference) {
    printf("  max error   %-10s %-11s %-11s %s\n", "variable", node_label,
           "dense", "ends");
    for (int i = 0; i < d->nvar; ++i)
      if (has_error(d, i))
        printf("              %-10s %-11.3e %-11.3e %.3e\n",
               rc_cli_diag_name(pb, i), d->err_nodes[i], d->err_dense[i],
               d->err_ends ? d->err_ends[i] : NAN);
  } else {
    printf("  max error   (no reference)\n");
  }
  if (d && d->ninv > 0) {
    printf("  invariants  %-10s %-11s %s\n", "name", node_label, "dense");
    for (int i = 0; i < d->ninv; ++i)
      printf("              %-10s %-11.3e %.3e\n",
             pb->inv_names ? pb->inv_names[i] : "?", d->inv_nodes[i],
             d->inv_dense[i]);
  }
}

void rc_cli_json_dense(rc_json *j, const rc_dense_violation *dv) {
  rc_json_begin_object(j, "dense_violation");
  for (int e = 0; dv && e < dv->n; ++e) {
    rc_json_begin_object(j, dv->name[e]);
    rc_json_string(j, "kind", rc_dense_kind_name(dv->kind[e]));
    rc_json_number(j, "max", dv->max[e]);
    rc_json_number(j, "time", dv->time[e]);
    rc_json_number(j, "relative", dv->relative[e]);
    rc_json_end_object(j);
  }
  rc_json_end_object(j);
  rc_json_number(j, "dense_violation_worst", dv ? dv->worst_relative : NAN);
}

/* The entries of dv (may be NULL) sorted by relative violation, largest
 * first, imposed constraints only (invariants are reported with the
 * diagnostics): a malloc'd array of *m indices, NULL when out of memory. */
static int *sorted_imposed(const rc_dense_violation *dv, int *m) {
  *m = 0;
  int *order = dv ? malloc(sizeof *order * (size_t)(dv->n ? dv->n : 1)) : NULL;
  if (!order)
    return NULL;
  for (int e = 0; e < dv->n; ++e)
    if (dv->kind[e] != RC_DENSE_INVARIANT)
      order[(*m)++] = e;
  for (int a = 1; a < *m; ++a)
    for (int b = a;
         b > 0 && dv->relative[order[b]] > dv->relative[order[b - 1]]; --b) {
      const int tmp = order[b];
      order[b] = order[b - 1];
      order[b - 1] = tmp;
    }
  return order;
}

void rc_cli_print_dense(const rc_dense_violation *dv) {
  int m, shown = 0;
  int *order = sorted_imposed(dv, &m);
  if (!order)
    return;
  for (int a = 0; a < m && shown < 3; ++a) {
    const int e = order[a];
    if (!(dv->relative[e] > RC_CLI_DENSE_WARN))
      break;
    printf("  %-11s %s violated by %.3e (relative %.2e) at t = %.6g\n",
           shown ? "" : "dense grid", dv->name[e], dv->max[e], dv->relative[e],
           dv->time[e]);
    ++shown;
  }
  if (!shown)
    printf("  dense grid  %d constraints hold on %d points within %.0e "
           "relative (worst %.2e)\n",
           m, dv->ndense, RC_CLI_DENSE_WARN, dv->worst_relative);
  free(order);
}

void rc_cli_warn_dense(const char *cmd, const rc_problem *pb,
                       const rc_dense_violation *dv) {
  int m;
  int *order = sorted_imposed(dv, &m);
  if (!order)
    return;
  for (int a = 0; a < m && a < 5; ++a) {
    const int e = order[a];
    if (!(dv->relative[e] > RC_CLI_DENSE_WARN))
      break;
    fprintf(stderr,
            "warning: radcol %s: %s/%s: %s constraint %s is violated on the "
            "dense output by %.3g (%.2g relative to %.3g) at t = %.6g (element "
            "%d)\n",
            cmd, pb->model, pb->formulation, rc_dense_kind_name(dv->kind[e]),
            dv->name[e], dv->max[e], dv->relative[e], dv->scale[e], dv->time[e],
            dv->element[e]);
  }
  free(order);
}

void rc_cli_json_estimate(rc_json *j, const rc_problem *pb,
                          const rc_error_estimate *e) {
  rc_json_begin_object(j, "error_estimate");
  const int have = e && e->kind != RC_ESTIMATE_NONE;
  rc_json_string(j, "kind",
                 rc_estimate_kind_name(have ? e->kind : RC_ESTIMATE_NONE));
  rc_json_number(j, "max", have ? e->max : NAN);
  rc_json_number(j, "local_max", have ? e->local_max : NAN);
  rc_json_string(j, "note", have ? e->note : "no estimate");
  rc_json_string(j, "enriched_status",
                 have && e->kind == RC_ESTIMATE_GLOBAL
                     ? rc_status_name((rc_status)e->enriched_status)
                     : "none");
  rc_json_int(j, "enriched_iterations", have ? e->enriched_iterations : 0);
  rc_json_number(j, "enriched_wall_s", have ? e->enriched_wall_s : NAN);
  rc_json_begin_object(j, "variables");
  for (int i = 0; have && i < e->nvar; ++i) {
    rc_json_begin_object(j, pb->var_names ? pb->var_names[i] : "?");
    rc_json_number(j, "max", e->var[i]);
    rc_json_number(j, "scale", e->scale[i]);
    rc_json_number(j, "relative", e->var[i] / e->scale[i]);
    rc_json_end_object(j);
  }
  rc_json_end_object(j);
  rc_json_begin_array(j, "elements");
  for (int k = 0; have && k < e->nelem; ++k)
    rc_json_number(j, NULL, e->elem_max[k]);
  rc_json_end_array(j);
  if (have && e->nswitch > 0) { /* free breakpoints (docs/switching.md) */
    rc_json_begin_array(j, "switches");
    for (int q = 0; q < e->nswitch; ++q) {
      rc_json_begin_object(j, NULL);
      rc_json_number(j, "t", e->switch_t[q]);
      rc_json_number(j, "error", e->switch_err[q]);
      rc_json_end_object(j);
    }
    rc_json_end_array(j);
  }
  rc_json_end_object(j);
}

void rc_cli_print_estimate(const rc_problem *pb, const rc_error_estimate *e) {
  if (!e || e->kind == RC_ESTIMATE_NONE) {
    printf("  estimate    (none)\n");
    return;
  }
  printf("  estimate    %s, max %.3e relative (local %.3e)\n",
         rc_estimate_kind_name(e->kind), e->max, e->local_max);
  if (e->kind != RC_ESTIMATE_GLOBAL) {
    printf("              %s\n", e->note);
    return;
  }
  printf("              %-10s %-11s %-11s %s\n", "variable", "max", "scale",
         "relative");
  for (int i = 0; i < e->nvar; ++i)
    printf("              %-10s %-11.3e %-11.3e %.3e\n",
           pb->var_names ? pb->var_names[i] : "?", e->var[i], e->scale[i],
           e->var[i] / e->scale[i]);
}

void rc_cli_estimate_above(const rc_problem *pb, const rc_error_estimate *e,
                           double tol, char *buf, size_t size) {
  size_t used = 0;
  if (size > 0)
    buf[0] = '\0';
  for (int i = 0; e && e->kind == RC_ESTIMATE_GLOBAL && i < e->nvar; ++i) {
    const double r = e->var[i] / e->scale[i];
    if (!(r > tol))
      continue;
    int w = snprintf(buf + used, size - used, "%s%s %.2g", used ? ", " : "",
                     pb->var_names ? pb->var_names[i] : "?", r);
    if (w < 0 || (size_t)w >= size - used)
      break;
    used += (size_t)w;
  }
}

const char *rc_cli_verdict_word(int met) {
  return met == 1 ? "met" : met == 0 ? "above" : "not_verified";
}

static const char *solver_status_word(const rc_problem *pb, rc_status s) {
  return s == RC_STATUS_NOT_RUN && pb->sampled_reference ? "converged"
                                                         : rc_status_name(s);
}

void rc_cli_json_accuracy(rc_json *j, const rc_problem *pb,
                          const rc_accuracy *acc) {
  rc_json_begin_object(j, "accuracy");
  rc_json_string(j, "mode", rc_solve_mode_name(acc->mode));
  rc_json_number(j, "tolerance", acc->tol);
  rc_json_bool(j, "binding", acc->binding);
  rc_json_string(j, "verdict", rc_cli_verdict_word(acc->met));
  rc_json_string(j, "estimate",
                 rc_estimate_kind_name((rc_estimate_kind)acc->estimate_kind));
  rc_json_number(j, "estimate_max", acc->estimate_max);
  rc_json_number(j, "dense_worst", acc->dense_worst);
  rc_json_string(j, "solver_status",
                 solver_status_word(pb, acc->solver_status));
  rc_json_end_object(j);
}

void rc_cli_print_accuracy(const rc_accuracy *acc) {
  const char *mode = acc->mode == RC_MODE_FIXED    ? "fixed mesh"
                     : acc->mode == RC_MODE_REFINE ? "--refine"
                                                   : "adaptive";
  /* a missing figure in words, never "nan" (issue 24 item 5) */
  char est[64], dense[64];
  if (isnan(acc->estimate_max))
    snprintf(est, sizeof est, "no estimate");
  else
    snprintf(est, sizeof est, "estimate %.3e (%s)", acc->estimate_max,
             rc_estimate_kind_name((rc_estimate_kind)acc->estimate_kind));
  if (isnan(acc->dense_worst))
    snprintf(dense, sizeof dense, "dense grid not checked");
  else
    snprintf(dense, sizeof dense, "dense grid %.3e", acc->dense_worst);
  printf("  accuracy    %s: %s, %s, tolerance %.3g (%s, %s)\n",
         acc->met == 1   ? "met"
         : acc->met == 0 ? "above the tolerance"
                         : "not verified",
         est, dense, acc->tol, mode,
         acc->binding ? "binding" : "reported, not binding");
}

int rc_cli_output_path(const char *cmd, const char *given, const rc_problem *pb,
                       const char *suffix, char **path) {
  const char *fmt = "results/%s-%s%s.h5";
  const int len =
      given ? (int)strlen(given)
            : snprintf(NULL, 0, fmt, pb->model, pb->formulation, suffix);
  *path = len >= 0 ? malloc((size_t)len + 1) : NULL;
  if (!*path) {
    rc_cli_error(cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  if (given)
    memcpy(*path, given, (size_t)len + 1);
  else
    snprintf(*path, (size_t)len + 1, fmt, pb->model, pb->formulation, suffix);
  return rc_cli_check_output(cmd, *path, given == NULL);
}

void rc_cli_diagnose(const char *cmd, const rc_problem *pb,
                     const rc_solution *sol, int dense_per_element,
                     int check_dense, rc_cli_diag *d) {
  rc_error err = {RC_OK, ""};
  memset(d, 0, sizeof *d);
  if (rc_diagnose(pb, sol, dense_per_element, &d->diag, &err) == RC_OK)
    d->have_diag = 1;
  else
    fprintf(stderr, "warning: radcol %s: diagnostics failed: %s\n", cmd,
            err.message);
  rc_error_clear(&err);
  if (!check_dense)
    return;
  if (rc_dense_check(pb, sol, dense_per_element, &d->dense, &err) == RC_OK)
    d->have_dense = 1;
  else
    fprintf(stderr, "warning: radcol %s: dense-grid check failed: %s\n", cmd,
            err.message);
}

void rc_cli_diag_free(rc_cli_diag *d) {
  if (d->have_diag)
    rc_diagnostics_free(&d->diag);
  if (d->have_dense)
    rc_dense_violation_free(&d->dense);
  d->have_diag = d->have_dense = 0;
}

rc_result_record rc_cli_record(const char *kind, const rc_model *model,
                               const rc_param_values *pv, const rc_problem *pb,
                               const rc_solution *sol,
                               const rc_solve_stats *st) {
  rc_result_record rec;
  memset(&rec, 0, sizeof rec);
  rec.kind = kind;
  rec.model = model;
  rec.params = pv;
  rec.pb = pb;
  rec.sol = sol;
  rec.stats = st;
  return rec;
}

int rc_cli_write(const char *cmd, const char *path, rc_result_record *rec) {
  char fallback[64];
  char *cmdline = rc_cli_command_line();
  snprintf(fallback, sizeof fallback, "radcol %s", cmd);
  rec->command_line = cmdline ? cmdline : fallback;
  rc_error err = {RC_OK, ""};
  int status = RC_CLI_OK;
  if (rc_write_result(path, rec, &err) != RC_OK)
    status = rc_cli_fail(cmd, &err); /* 2, 3 or 4: nothing written */
  rec->command_line = NULL;
  free(cmdline);
  return status;
}

void rc_cli_ipopt_progress(void *ctx, int iter, double objective, double inf_pr,
                           double inf_du) {
  rc_cli_progress *p = ctx;
  const double now = rc_cli_now();
  if (p->printed && iter % 10 != 0 && now - p->last_t < 0.5)
    return;
  fprintf(stderr, "  iter %5d  objective %+.10e  inf_pr %.2e  inf_du %.2e\n",
          iter, objective, inf_pr, inf_du);
  p->last_t = now;
  p->printed = 1;
}
