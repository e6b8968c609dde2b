/*
 * cli/cli_info.c - `radcol info FILE.h5`: summary of a result file (root
 * attributes, sizes, status, errors) as text or one JSON object, printed by
 * the library's rc_print_info.
 *
 * Exit status: a missing or unreadable file is an I/O failure (3, the path
 * is named); an existing file that is not HDF5 (checked by its signature) is
 * bad input (2); an HDF5 file that is not a radcol result gives whatever the
 * reader reports (2 for a wrong format, 3 for a read failure).
 */
#include <stdio.h>
#include <string.h>

#include "cli/args.h"
#include "radcol/io.h"

static const char usage[] =
    "usage: radcol info FILE.h5 [--json]\n\n"
    "Summarise a radcol result file: problem, formulation, command line,\n"
    "mesh and NLP size, solver status, reference errors and invariants.\n\n"
    "Options:\n"
    "  --json      print one JSON object on stdout; default: text\n"
    "  -h, --help  print this help\n\n" RC_CLI_EXIT_HELP
    "A missing file gives 3; a file that is not HDF5 gives 2.\n";

static int run_info(int argc, char **argv) {
  const char *cmd = "info", *path = NULL;
  int json = 0;
  for (int i = 1; i < argc; ++i) {
    if (rc_cli_is_help(argv[i])) {
      fputs(usage, stdout);
      return RC_CLI_OK;
    } else if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return rc_cli_unknown(cmd, argv[i]);
    } else if (!path) {
      path = argv[i];
    } else {
      return rc_cli_unknown(cmd, argv[i]);
    }
  }
  if (!path) {
    rc_cli_error(cmd, "missing FILE.h5 (see radcol info --help)");
    return RC_CLI_BAD_INPUT;
  }
  int status = rc_cli_check_input(cmd, NULL, path);
  if (status)
    return status;
  rc_error err = {RC_OK, ""};
  if (rc_print_info(path, stdout, json, &err) != RC_OK)
    return rc_cli_fail(cmd, &err);
  fflush(stdout);
  return RC_CLI_OK;
}

const rc_cli_command rc_cli_cmd_info = {"info", "summarise a result file",
                                        usage, run_info};
