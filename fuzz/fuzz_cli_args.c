/*
 * fuzz/fuzz_cli_args.c - libFuzzer harness for the command-line parser:
 * the run() entry points of `radcol list`, `info`, `solve`, `simulate` and
 * `init` (src/cli/), driven as library functions with a fuzzed argv.
 *
 * Input layout: byte 0 picks the command; the rest is split at '\n' into at
 * most 24 arguments.  Commands that write get "-o <missing dir>/out.h5"
 * appended last (the last -o wins), so a fully valid command line stops at
 * the output-path check, exit status 3, before any NLP is solved or any file
 * is written; everything before it (option parsing, --set, model and
 * formulation lookup, problem creation, consistent initial values, mesh and
 * guess files, Ipopt options) runs for real.
 *
 * Contract checked: run() returns one of the documented exit statuses
 * 0..3 (SPEC 7), never crashes, never leaks.  stdout is sent to /dev/null;
 * the CLI's messages go to stderr, which the fuzz script discards
 * (-close_fd_mask=2 keeps libFuzzer's own report on its log).
 * `--plugin` and `check` are left out: the first dlopens arbitrary paths,
 * the second runs finite-difference checks of every formulation (seconds).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "fuzz_util.h"

#define MAX_ARGS 24

extern const rc_cli_command rc_cli_cmd_list;
extern const rc_cli_command rc_cli_cmd_solve;
extern const rc_cli_command rc_cli_cmd_info;
extern const rc_cli_command rc_cli_cmd_init;
extern const rc_cli_command rc_cli_cmd_simulate;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  rc_cli_start(*argc, *argv);
  int fd = open("/dev/null", O_WRONLY);
  if (fd >= 0) {
    dup2(fd, 1);
    close(fd);
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  static const rc_cli_command *const cmds[] = {
      &rc_cli_cmd_solve, &rc_cli_cmd_list, &rc_cli_cmd_info,
      &rc_cli_cmd_simulate, &rc_cli_cmd_init};
  const rc_cli_command *c = cmds[data[0] % (sizeof cmds / sizeof cmds[0])];
  int writes = c == &rc_cli_cmd_solve || c == &rc_cli_cmd_simulate ||
               c == &rc_cli_cmd_init;
  char *buf = malloc(size);
  if (!buf)
    return 0;
  memcpy(buf, data + 1, size - 1);
  buf[size - 1] = '\0';

  char *argv[MAX_ARGS + 4];
  int argc = 0;
  argv[argc++] = (char *)c->name;
  char *p = buf;
  int ok = 1;
  while (size > 1 && argc < MAX_ARGS + 1) {
    char *nl = strchr(p, '\n');
    if (nl)
      *nl = '\0';
    if (strncmp(p, "--plugin", 8) == 0)
      ok = 0;
    argv[argc++] = p;
    if (!nl)
      break;
    p = nl + 1;
  }
  if (ok) {
    if (writes) {
      argv[argc++] = "-o";
      argv[argc++] = "/nonexistent-radcol-fuzz/out.h5";
    }
    argv[argc] = NULL;
    int status = c->run(argc, argv);
    CHECK(status >= 0 && status <= 3);
  }
  free(buf);
  return 0;
}
