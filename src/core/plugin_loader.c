/*
 * plugin.c - loading user problems from a shared library (radcol/plugin.h).
 *
 * Steps of rc_plugin_open, each refusing with RC_ERR_INPUT and a message that
 * names the path and what was expected:
 *   1. the path names a readable regular file (rc_input_open_fd: no FIFO or
 *      device), so a typo is reported as such rather than as a dlopen
 *      search failure;
 *   2. its ELF headers are read from that descriptor and must describe a
 *      shared object of this machine whose every segment and header table
 *      lies inside the file (dlopen maps segments past the end of a
 *      truncated file, and the first touch of such a page is SIGBUS), then
 *      dlopen(RTLD_NOW | RTLD_LOCAL) of that same descriptor (through
 *      /proc/self/fd/N where it exists: the file checked is the file
 *      loaded): every undefined symbol is resolved now
 *      (against the radcol executable, which exports the library), so a
 *      plugin needing a symbol radcol lacks fails here, not mid-solve;
 *   3. dlsym(RC_PLUGIN_ENTRY) and one call of the entry point;
 *   4. abi_version == RC_PROBLEM_ABI_VERSION, read before any other member
 *      (a plugin built against another header has another layout);
 *   5. the models: names, formulations, parameters (finite defaults of
 *      magnitude <= RC_REAL_MAX_ABS) and create (see validate_model).
 *      Problems built later are checked by rc_problem_validate as for
 *      built-in models.
 * Invariant: a handle exists only for a library that passed all five steps;
 * it owns the dlopen handle and nothing else (the rc_plugin and its models
 * are the plugin's static data).
 */
#include "core/plugin_loader.h"
#include "radcol/params.h"
#include "radcol/plugin.h"

#include "radcol/input.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct rc_plugin_handle {
  void *dl;
  const rc_plugin *info;
};

/* Names of models, formulations and parameters appear in file names and on
 * the command line: letters, digits, '_', '-', '.', not starting with '-'. */
static int valid_name(const char *s) {
  if (!s || !*s || *s == '-')
    return 0;
  for (; *s; ++s)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                "0123456789_-.",
                *s))
      return 0;
  return 1;
}

static rc_err validate_model(const char *path, int k, const rc_model *m,
                             const rc_model *const *taken, rc_error *err) {
  if (!m)
    return rc_error_set(err, RC_ERR_INPUT,
                        "plugin %s: model %d is NULL: expected an rc_model",
                        path, k);
  if (!valid_name(m->name))
    return rc_error_set(err, RC_ERR_INPUT,
                        "plugin %s: model %d name '%s': expected letters, "
                        "digits, '_', '-' or '.'",
                        path, k, m->name ? m->name : "(null)");
  if (rc_model_list_find(taken, m->name))
    return rc_error_set(err, RC_ERR_INPUT,
                        "plugin %s: model '%s' has the name of a built-in "
                        "problem: expected a new name",
                        path, m->name);
  if (m->nformulations < 1 || !m->formulations)
    return rc_error_set(err, RC_ERR_INPUT,
                        "plugin %s: model '%s' has %d formulations: "
                        "expected at least 1",
                        path, m->name, m->nformulations);
  for (int f = 0; f < m->nformulations; ++f) {
    const char *fn = m->formulations[f].name;
    if (!valid_name(fn))
      return rc_error_set(err, RC_ERR_INPUT,
                          "plugin %s: model '%s' formulation %d name '%s': "
                          "expected letters, digits, '_', '-' or '.'",
                          path, m->name, f, fn ? fn : "(null)");
    for (int e = 0; e < f; ++e)
      if (strcmp(m->formulations[e].name, fn) == 0)
        return rc_error_set(err, RC_ERR_INPUT,
                            "plugin %s: model '%s' lists formulation '%s' "
                            "twice: expected unique names",
                            path, m->name, fn);
  }
  if (m->default_formulation < 0 || m->default_formulation >= m->nformulations)
    return rc_error_set(err, RC_ERR_INPUT,
                        "plugin %s: model '%s' default formulation %d: "
                        "expected 0..%d",
                        path, m->name, m->default_formulation,
                        m->nformulations - 1);
  if (m->nparams < 0 || (m->nparams > 0 && !m->params))
    return rc_error_set(err, RC_ERR_INPUT,
                        "plugin %s: model '%s' declares %d parameters "
                        "without definitions",
                        path, m->name, m->nparams);
  for (int i = 0; i < m->nparams; ++i) {
    const rc_param_def *p = &m->params[i];
    if (!valid_name(p->name))
      return rc_error_set(err, RC_ERR_INPUT,
                          "plugin %s: model '%s' parameter %d name '%s': "
                          "expected letters, digits, '_', '-' or '.'",
                          path, m->name, i, p->name ? p->name : "(null)");
    if (p->type != RC_PARAM_REAL && p->type != RC_PARAM_TEXT &&
        p->type != RC_PARAM_FILE)
      return rc_error_set(err, RC_ERR_INPUT,
                          "plugin %s: model '%s' parameter '%s' has type %d: "
                          "expected RC_PARAM_REAL, RC_PARAM_TEXT or "
                          "RC_PARAM_FILE",
                          path, m->name, p->name, (int)p->type);
    if (p->type == RC_PARAM_REAL && !(fabs(p->default_real) <= RC_REAL_MAX_ABS))
      return rc_error_set(err, RC_ERR_INPUT,
                          "plugin %s: model '%s' parameter '%s' has default "
                          "%g: expected a finite number of magnitude <= %g",
                          path, m->name, p->name, p->default_real,
                          RC_REAL_MAX_ABS);
    for (int e = 0; e < i; ++e)
      if (strcmp(m->params[e].name, p->name) == 0)
        return rc_error_set(err, RC_ERR_INPUT,
                            "plugin %s: model '%s' lists parameter '%s' "
                            "twice: expected unique names",
                            path, m->name, p->name);
  }
  if (!m->create)
    return rc_error_set(err, RC_ERR_INPUT,
                        "plugin %s: model '%s' has no create function", path,
                        m->name);
  return RC_OK;
}

rc_err rc_plugin_validate(const char *path, const rc_plugin *pl,
                          const rc_model *const *taken, rc_error *err) {
  if (!pl)
    return rc_error_set(err, RC_ERR_INPUT,
                        "plugin %s: %s() returned NULL: expected a pointer "
                        "to an rc_plugin",
                        path, RC_PLUGIN_ENTRY);
  if (pl->abi_version != RC_PROBLEM_ABI_VERSION)
    return rc_error_set(err, RC_ERR_INPUT,
                        "plugin %s: built for radcol plugin ABI version %d, "
                        "but this radcol has ABI version %d: rebuild the "
                        "plugin against the installed radcol headers",
                        path, pl->abi_version, RC_PROBLEM_ABI_VERSION);
  if (pl->nmodels < 1 || !pl->models)
    return rc_error_set(err, RC_ERR_INPUT,
                        "plugin %s: plugin lists %d models: expected at "
                        "least 1",
                        path, pl->nmodels);
  for (int k = 0; k < pl->nmodels; ++k) {
    rc_err rc = validate_model(path, k, pl->models[k], taken, err);
    if (rc != RC_OK)
      return rc;
    for (int e = 0; e < k; ++e)
      if (strcmp(pl->models[e]->name, pl->models[k]->name) == 0)
        return rc_error_set(err, RC_ERR_INPUT,
                            "plugin %s: model '%s' listed twice: expected "
                            "unique names",
                            path, pl->models[k]->name);
  }
  return RC_OK;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NATIVE_ELF_DATA ELFDATA2MSB
#else
#define NATIVE_ELF_DATA ELFDATA2LSB
#endif

/* The ELF file header and program headers of fd: a shared object (or a
 * position-independent executable) of this machine's class, byte order and
 * architecture, whose header tables and every segment's file bytes lie
 * inside the file.  dlopen would map a segment past the end of a truncated
 * file and die of SIGBUS on its first touch (issue 28 item 12). */
static rc_err check_elf(const char *path, int fd, rc_error *err) {
  struct stat st;
  ElfW(Ehdr) eh;
  const char *why = NULL;
  char buf[160];
  if (fstat(fd, &st) != 0 || pread(fd, &eh, sizeof eh, 0) != sizeof eh ||
      memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
    why = "no ELF header";
  else if (eh.e_ident[EI_CLASS] !=
               (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
           eh.e_ident[EI_DATA] != NATIVE_ELF_DATA)
    why = "an ELF file of another word size or byte order";
  else if (eh.e_type != ET_DYN)
    why = "an ELF file that is not a shared object";
  else if (eh.e_phentsize != sizeof(ElfW(Phdr)) || eh.e_phnum == 0)
    why = "an ELF file without valid program headers";
  if (!why) {
    const unsigned long long size = (unsigned long long)st.st_size;
    const unsigned long long ph_end =
        (unsigned long long)eh.e_phoff +
        (unsigned long long)eh.e_phnum * sizeof(ElfW(Phdr));
    const unsigned long long sh_end =
        (unsigned long long)eh.e_shoff +
        (unsigned long long)eh.e_shnum * eh.e_shentsize;
    if (ph_end > size) {
      snprintf(buf, sizeof buf,
               "truncated: its program headers end at byte %llu of a file of "
               "%llu bytes",
               ph_end, size);
      why = buf;
    }
    for (int i = 0; !why && i < eh.e_phnum; ++i) {
      ElfW(Phdr) ph;
      if (pread(fd, &ph, sizeof ph,
                (off_t)(eh.e_phoff + (ElfW(Off))i * sizeof ph)) != sizeof ph) {
        why = "unreadable program headers";
        break;
      }
      const unsigned long long end =
          (unsigned long long)ph.p_offset + (unsigned long long)ph.p_filesz;
      if (ph.p_filesz > 0 && (end > size || end < ph.p_offset)) {
        snprintf(buf, sizeof buf,
                 "truncated: segment %d ends at byte %llu of a file of %llu "
                 "bytes",
                 i, end, size);
        why = buf;
      }
    }
    if (!why && eh.e_shoff != 0 && sh_end > size) {
      snprintf(buf, sizeof buf,
               "truncated: its section headers end at byte %llu of a file of "
               "%llu bytes",
               sh_end, size);
      why = buf;
    }
  }
  if (why)
    return rc_error_set(err, RC_ERR_INPUT,
                        "plugin %s: not a loadable shared library: %s", path,
                        why);
  return RC_OK;
}

rc_err rc_plugin_open(const char *path, const rc_model *const *taken,
                      rc_plugin_handle **out, rc_error *err) {
  if (!out)
    return rc_error_set(err, RC_ERR_INPUT, "rc_plugin_open: out is NULL");
  *out = NULL;
  if (!path || !*path)
    return rc_error_set(err, RC_ERR_INPUT,
                        "plugin '': expected the path of a shared library");
  rc_error e;
  rc_error_clear(&e);
  const int fd = rc_input_open_fd(path, "plugin", &e);
  if (fd < 0) /* missing or not a regular file: bad input either way */
    return rc_error_set(err, RC_ERR_INPUT, "%s%s", e.message,
                        e.code == RC_ERR_INPUT ? " (a shared library)" : "");
  if (check_elf(path, fd, err) != RC_OK) {
    close(fd);
    return RC_ERR_INPUT;
  }
  /* The descriptor checked is the file loaded: /proc/self/fd/N when it
   * refers to it; else the path (dlopen searches the library path for names
   * without '/', hence "./"). */
  char proc[64];
  struct stat a, b;
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
  const int use_proc = fstat(fd, &a) == 0 && stat(proc, &b) == 0 &&
                       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
  const char *open_path = use_proc ? proc : path;
  char *local = NULL;
  if (!use_proc && !strchr(path, '/')) {
    local = malloc(strlen(path) + 3);
    if (!local) {
      close(fd);
      return rc_error_set(err, RC_ERR_NOMEM, "plugin %s: out of memory", path);
    }
    strcpy(local, "./");
    strcat(local, path);
    open_path = local;
  }
  dlerror();
  void *dl = dlopen(open_path, RTLD_NOW | RTLD_LOCAL);
  free(local);
  close(fd);
  if (!dl) {
    const char *why = dlerror();
    return rc_error_set(err, RC_ERR_INPUT,
                        "plugin %s: not a loadable shared library: %s", path,
                        why ? why : "unknown dlopen error");
  }
  dlerror();
  void *sym = dlsym(dl, RC_PLUGIN_ENTRY);
  if (!sym) {
    dlclose(dl);
    return rc_error_set(err, RC_ERR_INPUT,
                        "plugin %s: no entry point %s(): expected a plugin "
                        "defining `const rc_plugin *%s(void)` (see "
                        "radcol/plugin.h)",
                        path, RC_PLUGIN_ENTRY, RC_PLUGIN_ENTRY);
  }
  /* POSIX guarantees function pointers round-trip through dlsym's void *;
   * memcpy avoids the ISO C object-to-function pointer cast warning. */
  rc_plugin_entry_fn entry;
  memcpy(&entry, &sym, sizeof entry);
  const rc_plugin *info = entry();
  rc_err rc = rc_plugin_validate(path, info, taken, err);
  if (rc != RC_OK) {
    dlclose(dl);
    return rc;
  }
  rc_plugin_handle *h = malloc(sizeof *h);
  if (!h) {
    dlclose(dl);
    return rc_error_set(err, RC_ERR_NOMEM, "plugin %s: out of memory", path);
  }
  h->dl = dl;
  h->info = info;
  *out = h;
  return RC_OK;
}

const rc_plugin *rc_plugin_info(const rc_plugin_handle *h) {
  return h ? h->info : NULL;
}

const rc_model *rc_plugin_find_model(const rc_plugin_handle *h,
                                     const char *name) {
  if (!h || !name)
    return NULL;
  for (int k = 0; k < h->info->nmodels; ++k)
    if (strcmp(h->info->models[k]->name, name) == 0)
      return h->info->models[k];
  return NULL;
}

void rc_plugin_close(rc_plugin_handle **h) {
  if (!h || !*h)
    return;
  dlclose((*h)->dl);
  free(*h);
  *h = NULL;
}
