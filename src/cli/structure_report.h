/*
 * cli/structure_report.h - the switching structure of a result
 * (radcol/structure.h) in `radcol solve` output: text lines and the JSON
 * member "structure" (docs/json.md).  The library finds the facts; these
 * functions word them.
 */
#ifndef RADCOL_CLI_STRUCTURE_REPORT_H
#define RADCOL_CLI_STRUCTURE_REPORT_H

#include "cli/json.h"
#include "radcol/structure.h"

/* "structure": {"segments", "arcs": [...], "switches": [...]}: every arc
 * (kind, name, variable or path index, side, t_entry, t_exit, unc_entry,
 * unc_exit, touch) and every switch (t, unc, boundary, "jumps": {"<y or u>":
 * jump} for those that jump).  st may be NULL (then null). */
void rc_cli_json_structure(rc_json *j, const rc_problem *pb,
                           const rc_solution *sol, const rc_structure *st);

/* The text lines "structure ...": one per arc and per switch (at most
 * RC_CLI_STRUCTURE_LINES of each, then how many more), nothing when st has
 * no arc. */
void rc_cli_print_structure(const rc_problem *pb, const rc_solution *sol,
                            const rc_structure *st);

#define RC_CLI_STRUCTURE_LINES 24

#endif
