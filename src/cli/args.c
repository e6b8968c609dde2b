/*
 * cli/args.c - shared helpers of the radcol commands (see args.h): messages,
 * exit statuses, strict option values, model lookup, file checks, clock.
 *
 * Every helper that rejects something prints one line naming the command,
 * the option, the offending value and what was expected, and returns the
 * exit status the command should return.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/args.h"
#include "core/numbers.h"
#include "core/plugin_loader.h"
#include "core/utf8.h"
#include "radcol/catalogue.h"
#include "radcol/input.h"
#include "radcol/io.h"
#include "radcol/plugin.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Plugins loaded by --plugin, in command-line order (never unloaded). */
#define RC_CLI_MAX_PLUGINS 16
static rc_plugin_handle *plugins[RC_CLI_MAX_PLUGINS];
static int nplugins;

static double start_time;
static int proc_argc;
static char **proc_argv;

void rc_cli_fputs_escaped(const char *s, FILE *out) {
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    const int n = rc_utf8_len((const char *)p);
    if (n == 0 || *p < 0x20 || *p == 0x7f) {
      fprintf(out, "\\x%02x", *p);
      ++p;
    } else {
      fwrite(p, 1, (size_t)n, out);
      p += n;
    }
  }
}

/* The first error message of the run (for --json's error object). */
static char first_error[4 * RC_MESSAGE_MAX];

const char *rc_cli_first_error(void) {
  return first_error;
}

void rc_cli_error(const char *cmd, const char *fmt, ...) {
  char msg[4 * RC_MESSAGE_MAX];
  va_list ap;
  fprintf(stderr, "radcol%s%s: ", cmd ? " " : "", cmd ? cmd : "");
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!first_error[0])
    snprintf(first_error, sizeof first_error, "%s", msg);
  rc_cli_fputs_escaped(msg, stderr); /* names from files may hold anything */
  fputc('\n', stderr);
}

int rc_cli_status_of(rc_err code) {
  switch (code) {
  case RC_OK:
    return RC_CLI_OK;
  case RC_ERR_INPUT:
  case RC_ERR_EVAL: /* a problem function failed on the given input */
    return RC_CLI_BAD_INPUT;
  case RC_ERR_IO:
    return RC_CLI_IO;
  case RC_ERR_NOMEM:
    return RC_CLI_NO_MEMORY;
  case RC_ERR_SOLVER:
  case RC_ERR_INTERNAL:
    return RC_CLI_INTERNAL;
  }
  return RC_CLI_INTERNAL;
}

int rc_cli_fail(const char *cmd, const rc_error *err) {
  rc_cli_error(cmd, "%s",
               err->message[0] ? err->message : rc_err_message(err->code));
  return rc_cli_status_of(err->code);
}

int rc_cli_is_help(const char *arg) {
  return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

/* Option matching: 1 when argv[*i] is `name` or (long options)
 * `name=VALUE`; *value gets the value (from the same argument or the next
 * one, advancing *i).  A missing value prints an error and sets *status to
 * RC_CLI_BAD_INPUT. */
static int opt_value(const char *cmd, int argc, char **argv, int *i,
                     const char *name, const char **value, int *status) {
  const char *a = argv[*i];
  size_t len = strlen(name);
  if (strncmp(a, name, len) != 0)
    return 0;
  if (a[len] == '=' && name[1] == '-') { /* --name=VALUE (long options) */
    *value = a + len + 1;
    return 1;
  }
  if (a[len] != '\0')
    return 0;
  if (*i + 1 >= argc) {
    rc_cli_error(cmd, "%s: missing value (see radcol %s --help)", name, cmd);
    *status = RC_CLI_BAD_INPUT;
    *value = NULL;
    return 1;
  }
  *value = argv[++*i];
  return 1;
}

int rc_cli_unknown(const char *cmd, const char *arg) {
  if (arg[0] == '-' && arg[1] != '\0')
    rc_cli_error(cmd, "unknown option '%s' (see radcol %s --help)", arg, cmd);
  else
    rc_cli_error(cmd, "unexpected argument '%s' (see radcol %s --help)", arg,
                 cmd);
  return RC_CLI_BAD_INPUT;
}

int rc_cli_int(const char *cmd, const char *opt, const char *s, long lo,
               long hi, const char *what, long *out) {
  if (!rc_parse_int(s, lo, hi, out)) {
    rc_cli_error(cmd, "%s %s: expected %s", opt, s, what);
    return RC_CLI_BAD_INPUT;
  }
  return RC_CLI_OK;
}

int rc_cli_real(const char *cmd, const char *opt, const char *s, int positive,
                double *out) {
  if (!rc_parse_real(s, out) || (positive && !(*out > 0))) {
    rc_cli_error(cmd,
                 "%s %s: expected a finite number%s (decimal, magnitude <= "
                 "%g)",
                 opt, s, positive ? " > 0" : "", RC_REAL_MAX_ABS);
    return RC_CLI_BAD_INPUT;
  }
  return RC_CLI_OK;
}

void rc_cli_list_free(rc_cli_list *l) {
  for (int k = 0; k < l->nowned; ++k)
    free(l->owned[k]);
  free(l->owned);
  free(l->v);
  memset(l, 0, sizeof *l);
}

/* Room for every value argv can hold, in each list of the table. */
static int alloc_lists(const rc_cli_option *o, int argc) {
  for (; o->name; ++o) {
    rc_cli_list *l = o->dest;
    if (o->type != RC_CLI_LIST && o->type != RC_CLI_KEYVAL &&
        o->type != RC_CLI_TF)
      continue;
    if (!l->v && !(l->v = calloc((size_t)argc, sizeof *l->v)))
      return 0;
    if (o->type == RC_CLI_TF && !l->owned &&
        !(l->owned = calloc((size_t)argc, sizeof *l->owned)))
      return 0;
  }
  return 1;
}

/* "expected a, b or c" for the words of a RC_CLI_CHOICE row. */
static int refuse_choice(const char *cmd, const rc_cli_option *o,
                         const char *value) {
  char words[RC_MESSAGE_MAX] = "";
  size_t used = 0;
  for (int k = 0; o->choices[k]; ++k) {
    const char *sep = k == 0 ? "" : o->choices[k + 1] ? ", " : " or ";
    int w =
        snprintf(words + used, sizeof words - used, "%s%s", sep, o->choices[k]);
    if (w < 0 || (size_t)w >= sizeof words - used)
      break;
    used += (size_t)w;
  }
  rc_cli_error(cmd, "%s %s: expected %s", o->name, value, words);
  return RC_CLI_BAD_INPUT;
}

/* --tf T: T must be a number; then it is --set tf=T, in command-line order
 * (a parameter of every problem, rc_cli_make_problem). */
static int take_tf(const char *cmd, const char *value, rc_cli_list *sets) {
  double tf;
  int st = rc_cli_real(cmd, "--tf", value, 0, &tf);
  if (st)
    return st;
  const size_t len = strlen(value) + 4;
  char *s = malloc(len);
  if (!s) {
    rc_cli_error(cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  snprintf(s, len, "tf=%s", value);
  sets->owned[sets->nowned++] = s;
  sets->v[sets->n++] = s;
  return RC_CLI_OK;
}

/* Checks and stores the value of option o. */
static int take_value(const char *cmd, const rc_cli_option *o,
                      const char *value) {
  rc_cli_list *list = o->dest;
  switch (o->type) {
  case RC_CLI_FLAG:
    *(int *)o->dest = 1;
    return RC_CLI_OK;
  case RC_CLI_TEXT:
    *(const char **)o->dest = value;
    return RC_CLI_OK;
  case RC_CLI_KEYVAL:
    if (!strchr(value, '=') || value[0] == '=') {
      rc_cli_error(cmd, "%s %s: expected KEY=VALUE (%s)", o->name, value,
                   o->what);
      return RC_CLI_BAD_INPUT;
    }
    /* fall through */
  case RC_CLI_LIST:
    list->v[list->n++] = value;
    return RC_CLI_OK;
  case RC_CLI_INT:
    return rc_cli_int(cmd, o->name, value, o->lo, o->hi, o->what, o->dest);
  case RC_CLI_POSITIVE:
    return rc_cli_real(cmd, o->name, value, 1, o->dest);
  case RC_CLI_CHOICE:
    for (int k = 0; o->choices[k]; ++k)
      if (strcmp(value, o->choices[k]) == 0) {
        *(int *)o->dest = o->values[k];
        return RC_CLI_OK;
      }
    return refuse_choice(cmd, o, value);
  case RC_CLI_TF:
    return take_tf(cmd, value, list);
  }
  return RC_CLI_INTERNAL;
}

/* The row argv[*i] names (its value taken, *i advanced past it), or NULL;
 * *status is set when the value is missing. */
static const rc_cli_option *match(const char *cmd, int argc, char **argv,
                                  int *i, const rc_cli_option *o,
                                  const char **value, int *status) {
  for (; o->name; ++o) {
    if (o->type == RC_CLI_FLAG) {
      if (strcmp(argv[*i], o->name) == 0 ||
          (o->alias && strcmp(argv[*i], o->alias) == 0))
        return o;
    } else if (opt_value(cmd, argc, argv, i, o->name, value, status) ||
               (o->alias &&
                opt_value(cmd, argc, argv, i, o->alias, value, status))) {
      return o;
    }
  }
  return NULL;
}

int rc_cli_parse(const char *cmd, int argc, char **argv,
                 const rc_cli_syntax *s) {
  if (!alloc_lists(s->options, argc)) {
    rc_cli_error(cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i], *value = NULL;
    int st = RC_CLI_OK;
    if (rc_cli_is_help(arg)) {
      fputs(s->usage, stdout);
      return -1;
    }
    const rc_cli_option *o =
        match(cmd, argc, argv, &i, s->options, &value, &st);
    if (o && !st) {
      if (o->seen)
        *o->seen = 1;
      if (o->text)
        *o->text = value;
      st = take_value(cmd, o, value);
    } else if (!o && arg[0] == '-' && arg[1] != '\0') {
      st = rc_cli_unknown(cmd, arg);
    } else if (!o && s->operand && !*s->operand) {
      *s->operand = arg;
    } else if (!o) {
      st = rc_cli_unknown(cmd, arg);
    }
    if (st)
      return st;
  }
  if (s->operand && !*s->operand) {
    rc_cli_error(cmd, "%s", s->missing);
    return RC_CLI_BAD_INPUT;
  }
  return RC_CLI_OK;
}

int rc_cli_load_plugin(const char *cmd, const char *path) {
  if (nplugins == RC_CLI_MAX_PLUGINS) {
    rc_cli_error(cmd, "--plugin %s: at most %d plugins per command", path,
                 RC_CLI_MAX_PLUGINS);
    return RC_CLI_BAD_INPUT;
  }
  rc_error err = {RC_OK, ""};
  rc_plugin_handle *h = NULL;
  if (rc_plugin_open(path, rc_builtin_models(), &h, &err) != RC_OK) {
    rc_cli_error(cmd, "%s", err.message);
    return RC_CLI_BAD_INPUT;
  }
  const rc_plugin *info = rc_plugin_info(h);
  for (int k = 0; k < info->nmodels; ++k)
    for (int p = 0; p < nplugins; ++p)
      if (rc_plugin_find_model(plugins[p], info->models[k]->name)) {
        rc_cli_error(cmd,
                     "--plugin %s: model '%s' is already defined by plugin "
                     "'%s': expected unique problem names",
                     path, info->models[k]->name,
                     rc_plugin_info(plugins[p])->name);
        rc_plugin_close(&h);
        return RC_CLI_BAD_INPUT;
      }
  plugins[nplugins++] = h;
  return RC_CLI_OK;
}

char **rc_cli_take_plugins(const char *cmd, int argc, char **argv,
                           int *new_argc, int *status) {
  /* A copy: rc_cli_command_line keeps the original arguments, --plugin
   * included (the recorded command line must reproduce the run). */
  static char **kept;
  free(kept);
  kept = calloc((size_t)argc + 1, sizeof *kept);
  *new_argc = 0;
  *status = RC_CLI_OK;
  if (!kept) {
    rc_cli_error(cmd, "out of memory");
    *status = RC_CLI_NO_MEMORY;
    return NULL;
  }
  int out = 0;
  for (int i = 0; i < argc; ++i) {
    const char *v = NULL;
    if (i == 0) {
      kept[out++] = argv[i];
      continue;
    } else if (strcmp(argv[i], "--plugin") == 0) {
      if (i + 1 >= argc) {
        rc_cli_error(cmd, "--plugin: missing value (expected LIB.so)");
        *status = RC_CLI_BAD_INPUT;
        return NULL;
      }
      v = argv[++i];
    } else if (strncmp(argv[i], "--plugin=", 9) == 0) {
      v = argv[i] + 9;
    } else {
      kept[out++] = argv[i];
      continue;
    }
    if ((*status = rc_cli_load_plugin(cmd, v)) != RC_CLI_OK)
      return NULL;
  }
  *new_argc = out;
  return kept;
}

/* Append ", name" entries to known (truncating quietly). */
static void append_names(char *known, size_t size, size_t *used,
                         const char *name) {
  int w =
      snprintf(known + *used, size - *used, "%s%s", *used ? ", " : "", name);
  if (w >= 0 && (size_t)w < size - *used)
    *used += (size_t)w;
}

int rc_cli_find_model(const char *cmd, const char *name,
                      const rc_model **model) {
  for (int p = 0; p < nplugins; ++p)
    if ((*model = rc_plugin_find_model(plugins[p], name)))
      return RC_CLI_OK;
  *model = rc_find_model(name);
  if (*model)
    return RC_CLI_OK;
  const rc_model *const *all = rc_builtin_models();
  char known[RC_MESSAGE_MAX] = "";
  size_t used = 0;
  for (int p = 0; p < nplugins; ++p) {
    const rc_plugin *info = rc_plugin_info(plugins[p]);
    for (int k = 0; k < info->nmodels; ++k)
      append_names(known, sizeof known, &used, info->models[k]->name);
  }
  for (int k = 0; all && all[k]; ++k)
    append_names(known, sizeof known, &used, all[k]->name);
  rc_cli_error(cmd, "unknown problem '%s': expected one of: %s", name,
               used ? known : "(no problems are built in)");
  return RC_CLI_BAD_INPUT;
}

int rc_cli_find_formulation(const char *cmd, const rc_model *model,
                            const char *name, int *formulation) {
  *formulation = rc_model_find_formulation(model, name);
  if (*formulation >= 0)
    return RC_CLI_OK;
  char known[RC_MESSAGE_MAX] = "";
  size_t used = 0;
  for (int k = 0; k < model->nformulations; ++k) {
    int w = snprintf(known + used, sizeof known - used, "%s%s", k ? ", " : "",
                     model->formulations[k].name);
    if (w < 0 || (size_t)w >= sizeof known - used)
      break;
    used += (size_t)w;
  }
  rc_cli_error(cmd, "-f %s: %s has no formulation '%s': expected one of: %s",
               name, model->name, name, known);
  return RC_CLI_BAD_INPUT;
}

/* A refused --set: the library's fact, with the flag and, for an unknown
 * name, where to look. */
static int set_fail(const char *cmd, const rc_model *model,
                    const char *assignment, const rc_error *err) {
  const char *eq = strchr(assignment, '=');
  char name[128] = "";
  if (eq && (size_t)(eq - assignment) < sizeof name) {
    memcpy(name, assignment, (size_t)(eq - assignment));
    name[eq - assignment] = '\0';
  }
  if (err->code == RC_ERR_INPUT && name[0] &&
      rc_model_param_index(model, name) < 0)
    rc_cli_error(cmd, "--set %s (see radcol list --params %s)", err->message,
                 model->name);
  else
    rc_cli_error(cmd, "--set %s", err->message);
  return rc_cli_status_of(err->code);
}

/* The values of "tf=..." among sets (the last wins): for a model without a
 * tf parameter the horizon is the engine's (rc_model_create), so --tf T and
 * --set tf=T work for every problem.  *tf = NAN when none. */
static int engine_tf(const char *cmd, const char *const *sets, int nsets,
                     double *tf) {
  *tf = NAN;
  for (int k = 0; k < nsets; ++k)
    if (strncmp(sets[k], "tf=", 3) == 0 && !rc_parse_real(sets[k] + 3, tf)) {
      rc_cli_error(cmd,
                   "--set %s: expected a finite number for tf (decimal, "
                   "magnitude <= %g)",
                   sets[k], RC_REAL_MAX_ABS);
      return RC_CLI_BAD_INPUT;
    }
  return RC_CLI_OK;
}

int rc_cli_make_problem(const char *cmd, const rc_model *model, int formulation,
                        int nsets, const char *const *sets, const char *files,
                        rc_param_values *pv, rc_problem **pb) {
  rc_error err = {RC_OK, ""};
  *pb = NULL;
  double tf = NAN;
  const int own_tf = rc_model_param_index(model, "tf") >= 0;
  int status = own_tf ? RC_CLI_OK : engine_tf(cmd, sets, nsets, &tf);
  if (status)
    return status;
  if (rc_params_init_defaults(model, pv, &err) != RC_OK)
    return rc_cli_fail(cmd, &err);
  for (int k = 0; k < nsets; ++k) {
    if (!own_tf && strncmp(sets[k], "tf=", 3) == 0)
      continue; /* the engine's horizon */
    if (rc_params_set(model, pv, sets[k], &err) != RC_OK) {
      rc_params_free(pv);
      return set_fail(cmd, model, sets[k], &err);
    }
  }
  /* the input files a result file stores, for the names it records */
  if (files && rc_read_param_files(files, model, pv, &err) != RC_OK) {
    rc_params_free(pv);
    return rc_cli_fail(cmd, &err);
  }
  if (rc_model_create(model, formulation, pv, tf, pb, &err) != RC_OK) {
    rc_params_free(pv);
    if ((err.code == RC_ERR_INPUT || err.code == RC_ERR_EVAL) && nsets > 0) {
      /* the model cannot be built from these values: name them */
      char given[256] = "";
      size_t used = 0;
      for (int k = 0; k < nsets && used + 4 < sizeof given; ++k) {
        const int w = snprintf(given + used, sizeof given - used, "%s%s",
                               k ? ", " : "", sets[k]);
        used = w < 0 ? sizeof given : used + (size_t)w;
      }
      rc_cli_error(cmd, "%s (with --set %s)", err.message, given);
      return rc_cli_status_of(err.code);
    }
    return rc_cli_fail(cmd, &err);
  }
  return RC_CLI_OK;
}

/* HDF5 files start with this signature at offset 0, 512, 1024, 2048, ... */
static int has_hdf5_signature(FILE *f) {
  static const unsigned char sig[8] = {0x89, 'H',  'D',  'F',
                                       '\r', '\n', 0x1a, '\n'};
  for (long off = 0; off <= (1L << 20); off = off ? 2 * off : 512) {
    unsigned char buf[8];
    if (fseek(f, off, SEEK_SET) != 0 || fread(buf, 1, 8, f) != 8)
      return 0;
    if (memcmp(buf, sig, 8) == 0)
      return 1;
  }
  return 0;
}

int rc_cli_check_input(const char *cmd, const char *opt, const char *path) {
  const char *o = opt ? opt : "", *sep = opt ? " " : "";
  rc_error err = {RC_OK, ""};
  FILE *f = rc_input_open(path, opt, &err);
  if (!f) {
    rc_cli_error(cmd, "%s%s", err.message,
                 err.code == RC_ERR_INPUT ? " (a radcol HDF5 result file)"
                                          : "");
    return rc_cli_status_of(err.code);
  }
  int ok = has_hdf5_signature(f);
  fclose(f);
  if (!ok) {
    rc_cli_error(cmd,
                 "%s%s%s: not an HDF5 file (expected a radcol result file "
                 "written by radcol solve)",
                 o, sep, path);
    return RC_CLI_BAD_INPUT;
  }
  return RC_CLI_OK;
}

int rc_cli_check_output(const char *cmd, const char *path, int mkdir_parent) {
  struct stat st;
  if (!*path) {
    rc_cli_error(cmd, "-o '': expected a file name");
    return RC_CLI_BAD_INPUT;
  }
  rc_error err = {RC_OK, ""};
  if (rc_output_check(path, &err) != RC_OK) {
    rc_cli_error(cmd, "-o %s", err.message);
    return rc_cli_status_of(err.code);
  }
  char *dir = strdup(path);
  if (!dir) {
    rc_cli_error(cmd, "out of memory");
    return RC_CLI_NO_MEMORY;
  }
  char *slash = strrchr(dir, '/');
  if (!slash)
    strcpy(dir, ".");
  else if (slash == dir)
    dir[1] = '\0';
  else
    *slash = '\0';
  int status = RC_CLI_OK;
  if (stat(dir, &st) != 0 && mkdir_parent && errno == ENOENT)
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
      rc_cli_error(cmd, "-o %s: cannot create directory %s: %s", path, dir,
                   strerror(errno));
      status = RC_CLI_IO;
    }
  if (status == RC_CLI_OK && stat(dir, &st) != 0) {
    rc_cli_error(cmd, "-o %s: directory %s: %s", path, dir, strerror(errno));
    status = RC_CLI_IO;
  } else if (status == RC_CLI_OK && !S_ISDIR(st.st_mode)) {
    rc_cli_error(cmd, "-o %s: %s is not a directory", path, dir);
    status = RC_CLI_IO;
  } else if (status == RC_CLI_OK && access(dir, W_OK | X_OK) != 0) {
    rc_cli_error(cmd, "-o %s: directory %s is not writable: %s", path, dir,
                 strerror(errno));
    status = RC_CLI_IO;
  }
  free(dir);
  return status;
}

double rc_cli_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void rc_cli_start(int argc, char **argv) {
  start_time = rc_cli_now();
  proc_argc = argc;
  proc_argv = argv;
}

double rc_cli_elapsed(void) {
  return rc_cli_now() - start_time;
}

/* Characters that need no quoting in a POSIX shell word. */
static int shell_safe(const char *s) {
  if (!*s)
    return 0;
  for (; *s; ++s)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                "0123456789_-+=./:,@%^",
                *s))
      return 0;
  return 1;
}

char *rc_cli_command_line(void) {
  size_t len = 1;
  for (int i = 0; i < proc_argc; ++i)
    len += 4 * strlen(proc_argv[i]) + 3;
  char *s = malloc(len), *p = s;
  if (!s)
    return NULL;
  for (int i = 0; i < proc_argc; ++i) {
    const char *a = proc_argv[i];
    if (i)
      *p++ = ' ';
    if (shell_safe(a)) {
      p = stpcpy(p, a);
      continue;
    }
    *p++ = '\'';
    for (; *a; ++a) {
      if (*a == '\'')
        p = stpcpy(p, "'\\''");
      else
        *p++ = *a;
    }
    *p++ = '\'';
  }
  *p = '\0';
  return s;
}

int rc_cli_setup_problem(const char *cmd, const char *problem,
                         const char *formulation, int nsets,
                         const char *const *sets, const rc_model **model,
                         int *f, rc_param_values *pv, rc_problem **pb) {
  return rc_cli_setup_problem_from(cmd, problem, formulation, nsets, sets, NULL,
                                   model, f, pv, pb);
}

int rc_cli_setup_problem_from(const char *cmd, const char *problem,
                              const char *formulation, int nsets,
                              const char *const *sets, const char *files,
                              const rc_model **model, int *f,
                              rc_param_values *pv, rc_problem **pb) {
  int status;
  if ((status = rc_cli_find_model(cmd, problem, model)))
    return status;
  if (formulation) {
    if ((status = rc_cli_find_formulation(cmd, *model, formulation, f)))
      return status;
  } else {
    *f = (*model)->default_formulation;
    if (*f < 0 || *f >= (*model)->nformulations) {
      rc_cli_error(cmd,
                   "%s has no default formulation: give -f (see radcol list)",
                   (*model)->name);
      return RC_CLI_BAD_INPUT;
    }
  }
  return rc_cli_make_problem(cmd, *model, *f, nsets, sets, files, pv, pb);
}

const rc_model *const *rc_cli_models(void) {
  enum { MAX_MODELS = 256 };
  static const rc_model *all[MAX_MODELS + 1];
  int n = 0;
  for (int p = 0; p < nplugins; ++p) {
    const rc_plugin *info = rc_plugin_info(plugins[p]);
    for (int k = 0; k < info->nmodels && n < MAX_MODELS; ++k)
      all[n++] = info->models[k];
  }
  for (const rc_model *const *m = rc_builtin_models(); *m && n < MAX_MODELS;
       ++m)
    all[n++] = *m;
  all[n] = NULL;
  return all;
}
