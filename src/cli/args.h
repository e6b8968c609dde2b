/*
 * cli/args.h - what every radcol command shares: the command table entry,
 * exit statuses, strict option-value parsing that prints its own message,
 * input-file checks, and small process helpers (wall clock, command line).
 *
 * Conventions: a command's run() gets argv with argv[0] = the command name.
 * Every parse helper prints "radcol CMD: OPTION VALUE: expected ..." to stderr
 * and returns RC_CLI_BAD_INPUT on failure, RC_CLI_OK on success, so callers
 * write `if ((rc = helper(...))) return rc;`.
 */
#ifndef RADCOL_CLI_ARGS_H
#define RADCOL_CLI_ARGS_H

#include <stdio.h>

#include "radcol/errors.h"
#include "radcol/params.h"
#include "radcol/problem.h"

/* Exit statuses of the radcol executable (SPEC section 7). */
enum {
  RC_CLI_OK = 0,            /* success */
  RC_CLI_NOT_CONVERGED = 1, /* solver did not converge / check failed */
  RC_CLI_BAD_INPUT = 2,     /* bad input, also found late: nothing written */
  RC_CLI_IO = 3,            /* input/output failure (stdout included) */
  RC_CLI_NO_MEMORY = 4,     /* out of memory: nothing written */
  RC_CLI_INTERNAL = 5 /* internal error (please report): nothing written */
};

/* One row of the command table (main.c).  run == NULL: not implemented. */
typedef struct rc_cli_command {
  const char *name;
  const char *summary; /* one line for `radcol --help` */
  const char *usage;   /* full text for `radcol CMD --help` */
  int (*run)(int argc, char **argv);
} rc_cli_command;

/* The exit-status paragraph every --help ends with. */
#define RC_CLI_EXIT_HELP                                                       \
  "Exit status: 0 ok; 1 solver did not converge (file still written);\n"       \
  "             2 bad input (nothing written); 3 input/output failure: a\n"    \
  "             failed write of the result file leaves an existing file\n"     \
  "             untouched, while a failure writing stdout is found last,\n"    \
  "             after the result file was written; 4 out of memory\n"          \
  "             (nothing written); 5 internal error, or Ipopt cannot be\n"     \
  "             loaded for an NLP (nothing written).\n"                        \
  "Output: a random temporary file next to -o, renamed over it when\n"         \
  "complete; an existing -o that is not a regular file (device, FIFO,\n"       \
  "symlink, directory) is refused; no Ipopt option file is read.\n"

/* Print "radcol CMD: message\n" to stderr. */
void rc_cli_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The message of the first rc_cli_error of this process ("" if none). */
const char *rc_cli_first_error(void);
/* Write s with control bytes and bytes that are not valid UTF-8 shown as
 * \xNN (text output of values taken from input files). */
void rc_cli_fputs_escaped(const char *s, FILE *out);
/* Exit status for a library error code: input and evaluation failures 2
 * (bad input found late: nothing was written), I/O 3, out of memory 4,
 * solver set-up and internal errors 5.  Never 1: exit 1 promises a file. */
int rc_cli_status_of(rc_err code);
/* Print err's message for cmd and return rc_cli_status_of(err->code). */
int rc_cli_fail(const char *cmd, const rc_error *err);

/* 1 when arg is -h or --help. */
int rc_cli_is_help(const char *arg);
/* Complain about an unknown option or extra argument (returns 2). */
int rc_cli_unknown(const char *cmd, const char *arg);

/* ---- The option loop every command shares (rc_cli_parse) ----
 *
 * A command describes its options in a table, one row per option, and
 * rc_cli_parse walks argv once: -h/--help prints the usage, each option is
 * matched (exactly, or --long=VALUE) and its value checked and stored, one
 * operand (PROBLEM or FILE.h5) is taken, anything else is refused.  The
 * first refusal is printed and ends the walk. */

/* A repeatable option's values in command-line order (--set, --ipopt). */
typedef struct rc_cli_list {
  int n;
  const char **v; /* argc entries, allocated by rc_cli_parse */
  char **owned;   /* values the parser built (--tf's "tf=T") */
  int nowned;
} rc_cli_list;
void rc_cli_list_free(rc_cli_list *l);

typedef enum rc_cli_opt_type {
  RC_CLI_FLAG,     /* no value: *(int *)dest = 1 */
  RC_CLI_TEXT,     /* *(const char **)dest = the value, checked later */
  RC_CLI_LIST,     /* the value appended to *(rc_cli_list *)dest */
  RC_CLI_KEYVAL,   /* as RC_CLI_LIST, the value must be KEY=VALUE */
  RC_CLI_INT,      /* *(long *)dest, in lo..hi (`what` words the range) */
  RC_CLI_POSITIVE, /* *(double *)dest, a finite number > 0 */
  RC_CLI_CHOICE,   /* *(int *)dest = values[k] for the word choices[k] */
  RC_CLI_TF        /* --tf T: "tf=T" appended to the --set list at dest */
} rc_cli_opt_type;

typedef struct rc_cli_option {
  const char *name;  /* "-n"; messages about the value name it */
  const char *alias; /* "--elements", or NULL */
  rc_cli_opt_type type;
  void *dest;
  int *seen;         /* set to 1 when the option is given, or NULL */
  const char **text; /* the value as given, or NULL */
  long lo, hi;       /* RC_CLI_INT */
  const char *what;  /* RC_CLI_INT: "an integer >= 1"; RC_CLI_KEYVAL: what
                        KEY=VALUE is ("an Ipopt option") */
  const char *const *choices; /* RC_CLI_CHOICE: NULL-terminated */
  const int *values;          /* RC_CLI_CHOICE: one per word */
} rc_cli_option;

/* A command's whole command line: usage (printed for -h/--help), the
 * options (ended by a row whose name is NULL), the one operand (NULL: the
 * command takes none) and the message when it is missing. */
typedef struct rc_cli_syntax {
  const char *usage;
  const rc_cli_option *options;
  const char **operand;
  const char *missing;
} rc_cli_syntax;

/* Walks argv[1..argc-1] (argv[0] = the command name) against s.  Returns 0,
 * -1 after printing the usage (--help: the command exits 0), or the exit
 * status after printing why (2 bad input, 4 out of memory).  The lists of
 * the table are allocated here, also on failure: free them with
 * rc_cli_list_free. */
int rc_cli_parse(const char *cmd, int argc, char **argv,
                 const rc_cli_syntax *s);

/* Strict parsing (see radcol/params.h); `what` describes the range, e.g.
 * "an integer >= 1" or "an integer in 1..20". */
int rc_cli_int(const char *cmd, const char *opt, const char *s, long lo,
               long hi, const char *what, long *out);
int rc_cli_real(const char *cmd, const char *opt, const char *s, int positive,
                double *out);

/* Load the plugin at path (--plugin, radcol/plugin.h); its models are then
 * found by rc_cli_find_model before the built-in ones.  Plugins stay loaded
 * until the process exits.  Prints the loader's message and returns 2 on
 * failure (missing file, no entry point, ABI mismatch, invalid models). */
int rc_cli_load_plugin(const char *cmd, const char *path);
/* The arguments argv[0..argc-1] (argv[0] = the command name) without every
 * `--plugin LIB` / `--plugin=LIB`, each of which is loaded; returns a new
 * NULL-terminated array (valid until the next call) and its length in
 * *new_argc, or NULL after printing, with *status set to 2 (3 when out of
 * memory).  argv itself is not modified.  main() runs it for every command,
 * so all commands taking a PROBLEM accept --plugin. */
char **rc_cli_take_plugins(const char *cmd, int argc, char **argv,
                           int *new_argc, int *status);

/* Model and formulation lookup with messages listing what exists (plugin
 * models first, see rc_cli_load_plugin). */
/* Every model the command can use, NULL-terminated: the loaded plugins'
 * first, then the built-in catalogue (the array lives until exit). */
const rc_model *const *rc_cli_models(void);

int rc_cli_find_model(const char *cmd, const char *name,
                      const rc_model **model);
int rc_cli_find_formulation(const char *cmd, const rc_model *model,
                            const char *name, int *formulation);

/* Parameter values (defaults, then each "NAME=VALUE" of sets in order), then
 * rc_model_create (create and rc_problem_validate).  "tf=T" sets the horizon
 * of any model: its tf parameter, or for a model without one the engine's
 * (rc_model_create; the last "tf=" wins).  files (or NULL): a result file
 * whose stored input files (a path CSV, rc_read_param_files) replace the
 * named ones wherever the value is the name it records.  On success *pb and
 * *pv are owned by the caller (rc_problem_free, rc_params_free); on failure
 * both are freed and the message printed. */
int rc_cli_make_problem(const char *cmd, const rc_model *model, int formulation,
                        int nsets, const char *const *sets, const char *files,
                        rc_param_values *pv, rc_problem **pb);

/* The whole setup shared by solve, simulate and init: the model (built-in or
 * plugin), the formulation (NULL: the model's default), then
 * rc_cli_make_problem (--tf T is among sets as "tf=T", RC_CLI_TF).
 * Messages printed. */
int rc_cli_setup_problem(const char *cmd, const char *problem,
                         const char *formulation, int nsets,
                         const char *const *sets, const rc_model **model,
                         int *f, rc_param_values *pv, rc_problem **pb);
/* rc_cli_setup_problem with the input files stored in the result file files
 * (see rc_cli_make_problem; the replay of a plan). */
int rc_cli_setup_problem_from(const char *cmd, const char *problem,
                              const char *formulation, int nsets,
                              const char *const *sets, const char *files,
                              const rc_model **model, int *f,
                              rc_param_values *pv, rc_problem **pb);

/* An input file (--mesh, --guess, info): missing or unreadable -> 3, not a
 * regular file or no HDF5 signature -> 2, else 0.  Messages name opt and
 * path (opt may be NULL). */
int rc_cli_check_input(const char *cmd, const char *opt, const char *path);
/* The output path, checked before any solve: rc_output_check (a file name
 * of at most NAME_MAX bytes; an existing path must be a regular file, not a
 * device, FIFO, symlink or directory -> 2), then its directory must exist and
 * be writable (-> 3).  mkdir_parent creates a missing last directory level
 * (for the default results/). */
int rc_cli_check_output(const char *cmd, const char *path, int mkdir_parent);

/* main() calls rc_cli_start first: it starts the wall clock and remembers
 * the process arguments. */
void rc_cli_start(int argc, char **argv);
/* Seconds since rc_cli_start; rc_cli_now is a monotonic clock in seconds. */
double rc_cli_elapsed(void);
double rc_cli_now(void);
/* The whole command line, shell-quoted where needed; caller frees (NULL when
 * out of memory). */
char *rc_cli_command_line(void);

#endif
