/*
 * structure_report.c - the switching structure in `radcol solve` output
 * (cli/structure_report.h): every arc with its entry and exit times and
 * their uncertainty, every switch with the variables that jump there.
 */
#include <math.h>
#include <stdio.h>

#include "cli/structure_report.h"

static const char *side_name(const rc_arc *a) {
  return a->upper < 0 ? "interior" : a->upper ? "upper" : "lower";
}

void rc_cli_json_structure(rc_json *j, const rc_problem *pb,
                           const rc_solution *sol, const rc_structure *st) {
  if (!st) {
    rc_json_null(j, "structure");
    return;
  }
  rc_json_begin_object(j, "structure");
  rc_json_int(j, "segments", sol->mesh.nseg);
  rc_json_int(j, "singular_arcs", st->nsingular);
  rc_json_begin_array(j, "arcs");
  for (int a = 0; a < st->narc; ++a) {
    const rc_arc *arc = &st->arcs[a];
    char name[96];
    rc_arc_describe(pb, arc, name, sizeof name);
    rc_json_begin_object(j, NULL);
    rc_json_string(j, "kind", rc_arc_kind_name(arc->kind));
    rc_json_string(j, "name", name);
    if (arc->kind == RC_ARC_PATH)
      rc_json_int(j, "path", arc->index);
    else
      rc_json_string(j, "variable", pb->var_names[arc->index]);
    rc_json_string(j, "side", side_name(arc));
    rc_json_number(j, "t_entry", arc->t_entry);
    rc_json_number(j, "t_exit", arc->t_exit);
    rc_json_number(j, "unc_entry", arc->unc_entry);
    rc_json_number(j, "unc_exit", arc->unc_exit);
    rc_json_bool(j, "touch", arc->touch);
    rc_json_end_object(j);
  }
  rc_json_end_array(j);
  rc_json_begin_array(j, "switches");
  for (int s = 0; s < st->nswitch; ++s) {
    const rc_switch *sw = &st->switches[s];
    rc_json_begin_object(j, NULL);
    rc_json_number(j, "t", sw->t);
    rc_json_number(j, "unc", sw->unc);
    rc_json_int(j, "boundary", sw->boundary);
    rc_json_begin_object(j, "jumps");
    for (int v = 0; v < st->nyu; ++v)
      if (st->jumps[(size_t)s * st->nyu + v])
        rc_json_number(j, pb->var_names[pb->nx + v],
                       st->jump[(size_t)s * st->nyu + v]);
    rc_json_end_object(j);
    rc_json_end_object(j);
  }
  rc_json_end_array(j);
  rc_json_end_object(j);
}

void rc_cli_print_structure(const rc_problem *pb, const rc_solution *sol,
                            const rc_structure *st) {
  if (!st || st->narc == 0)
    return;
  if (sol->mesh.nseg > 0)
    printf("  structure   %d arcs, %d switches; free breakpoints: %d "
           "segments, %d pins\n",
           st->narc, st->nswitch, sol->mesh.nseg, sol->mesh.npin);
  else
    printf("  structure   %d arcs, %d switches (at the mesh's resolution)\n",
           st->narc, st->nswitch);
  for (int a = 0; a < st->narc && a < RC_CLI_STRUCTURE_LINES; ++a) {
    const rc_arc *arc = &st->arcs[a];
    char name[96];
    rc_arc_describe(pb, arc, name, sizeof name);
    if (arc->touch)
      printf("              %-26s touch at %.10g (+- %.2g)\n", name,
             arc->t_entry, arc->unc_entry);
    else
      printf("              %-26s [%.10g (+- %.2g), %.10g (+- %.2g)]\n", name,
             arc->t_entry, arc->unc_entry, arc->t_exit, arc->unc_exit);
  }
  if (st->narc > RC_CLI_STRUCTURE_LINES)
    printf("              (%d more arcs)\n", st->narc - RC_CLI_STRUCTURE_LINES);
  for (int s = 0; s < st->nswitch && s < RC_CLI_STRUCTURE_LINES; ++s) {
    const rc_switch *sw = &st->switches[s];
    char jumps[256] = "";
    size_t len = 0;
    for (int v = 0; v < st->nyu && len < sizeof jumps - 40; ++v)
      if (st->jumps[(size_t)s * st->nyu + v])
        len += (size_t)snprintf(jumps + len, sizeof jumps - len, " %s %+.4g",
                                pb->var_names[pb->nx + v],
                                st->jump[(size_t)s * st->nyu + v]);
    printf("              switch at %.12g (+- %.2g)%s: %s\n", sw->t, sw->unc,
           sw->boundary >= 0 ? " free breakpoint" : "",
           len ? jumps + 1 : "no jump (continuous)");
  }
  if (st->nswitch > RC_CLI_STRUCTURE_LINES)
    printf("              (%d more switches)\n",
           st->nswitch - RC_CLI_STRUCTURE_LINES);
}
