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
 *
 * Process-wide policy (docs/robustness.md):
 *   - SIGINT, SIGTERM, SIGHUP: the temporary file of a write in progress is
 *     removed (rc_io_remove_partial_output), then the signal is re-raised
 *     with its default action, so the exit status still says "killed by".
 *   - SIGXFSZ is ignored: a write beyond `ulimit -f` fails with EFBIG and
 *     becomes exit 3 with the temporary file removed, instead of a core
 *     dump that leaves it behind.
 *   - stdout is flushed and closed before exit; a failure (full disk,
 *     /dev/full, a closed descriptor) turns exit 0 or 1 into exit 3.
 *   - --json: exactly one JSON object on stdout for every outcome.  A
 *     command with --json in its usage that ends without printing one
 *     (bad input, a missing file, out of memory) gets the error object
 *     {"command", "status": "error", "exit_status", "error"} here, the
 *     error being the first message printed on stderr (docs/json.md).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/json.h"
#include "radcol/io.h"
#include "radcol/version.h"

extern const rc_cli_command rc_cli_cmd_list;
extern const rc_cli_command rc_cli_cmd_solve;
extern const rc_cli_command rc_cli_cmd_check;
extern const rc_cli_command rc_cli_cmd_info;
extern const rc_cli_command rc_cli_cmd_init;

extern const rc_cli_command rc_cli_cmd_simulate;
extern const rc_cli_command rc_cli_cmd_export;

static const rc_cli_command *const commands[] = {
    &rc_cli_cmd_list,   &rc_cli_cmd_solve,
    &rc_cli_cmd_init,   &rc_cli_cmd_simulate,
    &rc_cli_cmd_check,  &rc_cli_cmd_info,
    &rc_cli_cmd_export, NULL};

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

static void on_signal(int sig) {
  rc_io_remove_partial_output();
  signal(sig, SIG_DFL);
  raise(sig);
}

static void install_signal_handlers(void) {
  const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; ++k) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* Keep an inherited "ignore" (nohup, background jobs). */
    if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
      sigaction(sigs[k], &sa, NULL);
  }
  signal(SIGXFSZ, SIG_IGN);
}

/* Everything printed reached stdout: 0 ok, else the message is printed. */
static int close_stdout(void) {
  const int bad = fflush(stdout) != 0 || ferror(stdout);
  const int e = errno;
  if (fclose(stdout) != 0 || bad) {
    rc_cli_error(NULL, "writing standard output failed: %s",
                 strerror(bad ? e : errno));
    return RC_CLI_IO;
  }
  return RC_CLI_OK;
}

/* A closed standard descriptor would be reused by the next open() (the
 * result's temporary file could become "stdout").  Occupy it: stdin and
 * stdout read-only, so a write to a closed stdout still fails (exit 3);
 * stderr write-only to the null device (messages are dropped). */
static void occupy_std_fds(void) {
  for (int fd = 0; fd <= 2; ++fd)
    if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
      int got = open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY);
      if (got >= 0 && got != fd) {
        dup2(got, fd);
        close(got);
      }
    }
}

static int run_main(int argc, char **argv);

/* The command of argv when it takes --json and --json is given, else
 * NULL. */
static const rc_cli_command *json_command(int argc, char **argv) {
  const rc_cli_command *c = argc > 1 ? find_command(argv[1]) : NULL;
  if (!c || !strstr(c->usage, "--json"))
    return NULL;
  for (int i = 2; i < argc; ++i)
    if (strcmp(argv[i], "--json") == 0)
      return c;
  return NULL;
}

/* The one object of a --json run that printed none (see the header). */
static void json_error(const rc_cli_command *c, int status) {
  rc_json j;
  rc_json_init(&j, stdout);
  rc_json_begin_object(&j, NULL);
  rc_json_string(&j, "command", c->name);
  rc_json_string(&j, "status", "error");
  rc_json_int(&j, "exit_status", status);
  rc_json_string(&j, "error",
                 rc_cli_first_error()[0] ? rc_cli_first_error() : NULL);
  rc_json_end_object(&j);
  rc_json_finish(&j);
}

int main(int argc, char **argv) {
  occupy_std_fds();
  install_signal_handlers();
  int status = run_main(argc, argv);
  const rc_cli_command *jc = json_command(argc, argv);
  if (jc && status != RC_CLI_OK && rc_json_finished() == 0)
    json_error(jc, status);
  if (close_stdout() != RC_CLI_OK &&
      (status == RC_CLI_OK || status == RC_CLI_NOT_CONVERGED))
    status = RC_CLI_IO;
  return status;
}

static int run_main(int argc, char **argv) {
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
