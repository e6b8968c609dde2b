/*
 * cli/cli_list.c - `radcol list`: the built-in models with their
 * formulations, or one model's parameters (--params PROBLEM), as text or
 * one JSON object.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/json.h"
#include "core/numbers.h"

static const char usage[] =
    "usage: radcol list [--params PROBLEM] [--json]\n\n"
    "List the built-in problems and their formulations (the default one is\n"
    "marked *), or with --params the parameters of one problem.\n\n"
    "Options:\n"
    "  --params PROBLEM  list PROBLEM's parameters: name, default, meaning\n"
    "                    (every one can be set with radcol solve --set);\n"
    "                    default: list problems\n"
    "  --json            print one JSON object on stdout instead of text;\n"
    "                    default: text\n"
    "  -h, --help        print this help\n\n" RC_CLI_EXIT_HELP;

static void list_models_text(const rc_model *const *all) {
  if (!all || !all[0]) {
    printf("(no problems are built in)\n");
    return;
  }
  for (int k = 0; all[k]; ++k) {
    const rc_model *m = all[k];
    printf("%s%s%s\n", m->name, m->summary ? " - " : "",
           m->summary ? m->summary : "");
    for (int f = 0; f < m->nformulations; ++f)
      printf("  %c %-12s %s\n", f == m->default_formulation ? '*' : ' ',
             m->formulations[f].name,
             m->formulations[f].summary ? m->formulations[f].summary : "");
  }
}

static void list_models_json(const rc_model *const *all) {
  rc_json j;
  rc_json_init(&j, stdout);
  rc_json_begin_object(&j, NULL);
  rc_json_begin_array(&j, "models");
  for (int k = 0; all && all[k]; ++k) {
    const rc_model *m = all[k];
    rc_json_begin_object(&j, NULL);
    rc_json_string(&j, "name", m->name);
    rc_json_string(&j, "summary", m->summary);
    rc_json_string(&j, "default_formulation",
                   m->default_formulation >= 0 &&
                           m->default_formulation < m->nformulations
                       ? m->formulations[m->default_formulation].name
                       : NULL);
    rc_json_begin_array(&j, "formulations");
    for (int f = 0; f < m->nformulations; ++f) {
      rc_json_begin_object(&j, NULL);
      rc_json_string(&j, "name", m->formulations[f].name);
      rc_json_string(&j, "summary", m->formulations[f].summary);
      rc_json_end_object(&j);
    }
    rc_json_end_array(&j);
    rc_json_int(&j, "nparams", m->nparams);
    rc_json_end_object(&j);
  }
  rc_json_end_array(&j);
  rc_json_end_object(&j);
  rc_json_finish(&j);
}

static void list_params_text(const rc_model *m) {
  printf("%s parameters (set with radcol solve %s --set NAME=VALUE):\n",
         m->name, m->name);
  for (int i = 0; i < m->nparams; ++i) {
    const rc_param_def *d = &m->params[i];
    char def[64];
    if (d->type == RC_PARAM_REAL) {
      rc_fmt_shortest(d->default_real, def); /* round-trips exactly */
    } else
      snprintf(def, sizeof def, "%s",
               d->default_text ? d->default_text : "(none)");
    printf("  %-10s %-22s %s\n", d->name, def, d->doc ? d->doc : "");
  }
}

static void list_params_json(const rc_model *m) {
  rc_json j;
  rc_json_init(&j, stdout);
  rc_json_begin_object(&j, NULL);
  rc_json_string(&j, "problem", m->name);
  rc_json_begin_array(&j, "params");
  for (int i = 0; i < m->nparams; ++i) {
    const rc_param_def *d = &m->params[i];
    rc_json_begin_object(&j, NULL);
    rc_json_string(&j, "name", d->name);
    rc_json_string(&j, "type",
                   d->type == RC_PARAM_REAL   ? "real"
                   : d->type == RC_PARAM_FILE ? "file"
                                              : "text");
    /* One type per field (docs/json.md): default is a number (null for
     * text parameters), default_text a string (null for real ones). */
    if (d->type == RC_PARAM_REAL)
      rc_json_number(&j, "default", d->default_real);
    else
      rc_json_null(&j, "default");
    rc_json_string(&j, "default_text",
                   d->type != RC_PARAM_REAL ? d->default_text : NULL);
    rc_json_string(&j, "doc", d->doc);
    rc_json_end_object(&j);
  }
  rc_json_end_array(&j);
  rc_json_end_object(&j);
  rc_json_finish(&j);
}

static int run_list(int argc, char **argv) {
  const char *cmd = "list", *problem = NULL;
  int json = 0;
  const rc_cli_option opts[] = {
      {"--json", NULL, RC_CLI_FLAG, .dest = &json},
      {"--params", NULL, RC_CLI_TEXT, .dest = &problem},
      {NULL}};
  const rc_cli_syntax syntax = {usage, opts, NULL, NULL};
  int status = rc_cli_parse(cmd, argc, argv, &syntax);
  if (status)
    return status < 0 ? RC_CLI_OK : status;
  if (problem) {
    const rc_model *m;
    if ((status = rc_cli_find_model(cmd, problem, &m)))
      return status;
    (json ? list_params_json : list_params_text)(m);
  } else {
    (json ? list_models_json : list_models_text)(rc_cli_models());
  }
  return RC_CLI_OK;
}

const rc_cli_command rc_cli_cmd_list = {
    "list", "list problems and formulations, or a problem's parameters", usage,
    run_list};
