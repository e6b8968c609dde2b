/*
 * cli/main.c - the radcol executable: global options (--help, --version),
 * `radcol help COMMAND`, and dispatch through the command table.
 *
 * Adding a command: write src/cli/cli_<name>.c defining
 * `const rc_cli_command rc_cli_cmd_<name>` (name, summary, usage, run), add
 * it to RADCOL_CLI_SOURCES, and put `&rc_cli_cmd_<name>` in the table below
 * (replacing its placeholder if it has one).
 *
 * `--plugin LIB.so` (repeatable) is taken out of every command's arguments
 * before dispatch and loaded (rc_cli_take_plugins), so each command finds
 * the plugin's problems through rc_cli_find_model without parsing it.
 */
#include <stdio.h>
#include <string.h>

#include "cli/args.h"
#include "radcol/version.h"

extern const rc_cli_command rc_cli_cmd_list;
extern const rc_cli_command rc_cli_cmd_solve;
extern const rc_cli_command rc_cli_cmd_check;
extern const rc_cli_command rc_cli_cmd_info;
extern const rc_cli_command rc_cli_cmd_init;

extern const rc_cli_command rc_cli_cmd_simulate;

static const rc_cli_command *const commands[] = {&rc_cli_cmd_list,
                                                 &rc_cli_cmd_solve,
                                                 &rc_cli_cmd_init,
                                                 &rc_cli_cmd_simulate,
                                                 &rc_cli_cmd_check,
                                                 &rc_cli_cmd_info,
                                                 NULL};

static const rc_cli_command *find_command(const char *name) {
  for (int k = 0; commands[k]; ++k)
    if (strcmp(commands[k]->name, name) == 0)
      return commands[k];
  return NULL;
}

static void print_usage(FILE *out) {
  fprintf(out,
          "usage: radcol COMMAND [OPTIONS]\n"
          "       radcol --help | --version | help COMMAND\n\n"
          "Radau IIA direct transcription of DAE optimal-control problems,\n"
          "solved by Ipopt; results in HDF5.\n\n"
          "Commands:\n");
  for (int k = 0; commands[k]; ++k)
    fprintf(out, "  %-10s %s\n", commands[k]->name, commands[k]->summary);
  fprintf(out, "\nRun `radcol COMMAND --help` for a command's "
               "options.\n\n" RC_CLI_EXIT_HELP);
}

static int unknown_command(const char *name) {
  rc_cli_error(NULL, "unknown command '%s' (see radcol --help)", name);
  return RC_CLI_BAD_INPUT;
}

int main(int argc, char **argv) {
  rc_cli_start(argc, argv);
  if (argc < 2) {
    print_usage(stderr);
    return RC_CLI_BAD_INPUT;
  }
  const char *a = argv[1];
  if (rc_cli_is_help(a)) {
    print_usage(stdout);
    return RC_CLI_OK;
  }
  if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
    printf("radcol %s\n", RADCOL_VERSION_STRING);
    return RC_CLI_OK;
  }
  if (strcmp(a, "help") == 0) {
    if (argc == 2) {
      print_usage(stdout);
      return RC_CLI_OK;
    }
    if (argc > 3)
      return rc_cli_unknown("help", argv[3]);
    const rc_cli_command *c = find_command(argv[2]);
    if (!c)
      return unknown_command(argv[2]);
    fputs(c->usage, stdout);
    return RC_CLI_OK;
  }
  if (a[0] == '-') {
    rc_cli_error(NULL, "unknown option '%s' (see radcol --help)", a);
    return RC_CLI_BAD_INPUT;
  }
  const rc_cli_command *c = find_command(a);
  if (!c)
    return unknown_command(a);
  if (!c->run) {
    for (int i = 2; i < argc; ++i)
      if (rc_cli_is_help(argv[i])) {
        fputs(c->usage, stdout);
        return RC_CLI_OK;
      }
    rc_cli_error(c->name, "not implemented yet");
    return RC_CLI_BAD_INPUT;
  }
  /* --plugin LIB.so is accepted by every command: loaded and removed here. */
  int status, n;
  char **args = rc_cli_take_plugins(c->name, argc - 1, argv + 1, &n, &status);
  if (!args)
    return status;
  return c->run(n, args);
}
