/*
 * report.c - reference errors and invariant residuals in command output
 * (see report.h).  NaN errors mark entries without a reference and are left
 * out.
 */
#include <math.h>
#include <stdio.h>

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
