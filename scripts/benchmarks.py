#!/usr/bin/python3
"""Published benchmark suite: build, solve, compare with the published values.

For every problem directory benchmarks/<category>/<name>/ (layout:
benchmarks/README.md) this script

  1. builds the plugins: model.py through scripts/radcol-gen (--jobs at a
     time), or plugin.c with its own CMakeLists.txt; all of them as one CMake
     project (add_subdirectory of each, so one configure and a parallel
     build; a plugin that fails there is built again on its own for its
     message) against radcol installed from BUILD into a scratch prefix
     (headers only, as a user's plugin);
  2. runs the problem's work-precision ladder ("runs" in bench.json): each run
     is `radcol solve MODEL --plugin LIB ARGS -o FILE.h5 --json --quiet`;
  3. reads the compared quantity from the --json object or the result file
     (documented keys and HDF5 layout only: docs/json.md,
     docs/hdf5-layout.md) and counts the digits agreeing with the published
     value, -log10(|radcol - published| / |published|) (absolute error where
     the published value is 0), and with the independent value when the
     problem has one;
  4. writes a Markdown report (default results/benchmarks.md: one summary
     row per problem with its best run, then every run of every ladder) and a
     work-precision plot per problem (default results/benchmarks/
     <category>-<name>.png: relative error against wall time, with the
     a-posteriori error estimate beside it).

Exit status: 0 every problem reached its floor_digits on its best run; 1 a
problem fell below its floor, or a build or run failed (the report is still
written and says which); 2 bad arguments or a bad bench.json (nothing run);
3 the report or a plot cannot be written.

Quantities ("quantity" in bench.json, one name or a list of names):
  objective     the objective radcol reports (--json "objective")
  tf            the solved final time (/solution attribute tf)
  X(tf), X(t0)  variable X at the last or first node (/solution/X)
  P             a decision parameter P (/solution/parameters/P)
  -Q            the negative of any of the above (e.g. "-objective" for a
                maximisation written with maximize=True)
A list of quantities compares component by component; the digits are the
smallest over the components.  A published value may also be a dict
{variable: value at tf}.

--quick runs the problems marked "quick": true (their whole ladder) or
"quick": {"args": [...], "min_digits": N} (that one run, against that
floor): the CI subset, ctest benchmarks.quick.  Needs /usr/bin/python3 with sympy, numpy, h5py and
matplotlib (Debian packages), cmake and a C compiler.
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(SRC, "scripts", "radcol-gen")
OK_STATUS = ("converged", "acceptable")
DIGITS_CAP = 16.0  # equal values: as many digits as a double holds
LOAD0 = 0.0  # the 1-minute load average when the run started
REQUIRED = {"name": str, "title": str, "category": str, "source": str,
            "published": dict, "runs": list, "floor_digits": (int, float),
            "quick": (bool, dict)}


class BenchError(Exception):
    """A bad bench.json or argument: exit status 2."""


# ---- reading the suite -------------------------------------------------------

def load_bench(path):
    """bench.json, checked; returns the dict with 'dir' added."""
    where = os.path.relpath(path, SRC)
    try:
        with open(path) as fh:
            b = json.load(fh)
    except OSError as e:
        raise BenchError("%s: cannot read: %s" % (where, e.strerror))
    except ValueError as e:
        raise BenchError("%s: not JSON: %s" % (where, e))
    if not isinstance(b, dict):
        raise BenchError("%s: expected a JSON object" % where)
    for k, typ in REQUIRED.items():
        if k not in b:
            raise BenchError("%s: no \"%s\" (expected keys: %s)"
                             % (where, k, ", ".join(sorted(REQUIRED))))
        if not isinstance(b[k], typ) or (isinstance(b[k], bool) and
                                         typ not in (bool, (bool, dict))):
            raise BenchError("%s: \"%s\" = %r: expected a %s" % (
                where, k, b[k], typ.__name__ if isinstance(typ, type)
                else "number"))
    d = os.path.dirname(path)
    if b["name"] != os.path.basename(d) or \
            b["category"] != os.path.basename(os.path.dirname(d)):
        raise BenchError("%s: name/category %s/%s do not match the directory"
                         % (where, b["category"], b["name"]))
    pub = b["published"]
    for k in ("quantity", "value", "digits", "source"):
        if k not in pub:
            raise BenchError("%s: published has no \"%s\"" % (where, k))
    # The compared quantities b["_q"] and values b["_v"]: one name and
    # number, lists of both, or a dict {variable: value at tf} (then
    # "quantity" is only a description).
    q, v = pub["quantity"], pub["value"]
    if isinstance(v, dict) and v:
        q = [k if "(" in k else k + "(tf)" for k in v]
        keys = list(v)
        v = [v[k] for k in keys]
    else:
        keys = None
        if isinstance(q, list) != isinstance(v, list) or (
                isinstance(q, list) and len(q) != len(v)):
            raise BenchError("%s: published quantity and value must both be "
                             "one item or lists of the same length (or value "
                             "a dict {variable: value at tf})" % where)
    for qq in (q if isinstance(q, list) else [q]):
        if not isinstance(qq, str) or not parse_quantity(qq):
            raise BenchError("%s: published quantity %r: expected objective, "
                             "tf, X(tf), X(t0) or a parameter name, optionally "
                             "with a leading '-'" % (where, qq))
    for vv in (v if isinstance(v, list) else [v]):
        if not isinstance(vv, (int, float)) or isinstance(vv, bool) or \
                not math.isfinite(vv):
            raise BenchError("%s: published value %r: expected a finite "
                             "number" % (where, vv))
    b["_q"], b["_v"] = q, v
    # The independent value, if it has a number (b["_iv"]), and how.
    ind = b.get("independent")
    b["_iv"], b["_ihow"] = None, None
    if ind is not None:
        if not isinstance(ind, dict):
            raise BenchError("%s: independent: expected {\"value\", \"how\"}"
                             % where)
        b["_ihow"] = ind.get("how") or ind.get("method") or ""
        iv = ind.get("value")
        if isinstance(iv, dict) and keys is not None:
            if sorted(iv) != sorted(keys):
                raise BenchError("%s: independent value: expected the keys "
                                 "of the published value" % where)
            iv = [iv[k] for k in keys]
        if iv is not None and (isinstance(iv, list) != isinstance(v, list) or (
                isinstance(iv, list) and len(iv) != len(v))):
            raise BenchError("%s: independent value must match the published "
                             "quantity's shape" % where)
        b["_iv"] = iv
    fi = b.get("floor_digits_independent")
    if fi is not None and (not isinstance(fi, (int, float)) or
                           isinstance(fi, bool) or b["_iv"] is None):
        raise BenchError("%s: floor_digits_independent = %r: expected a "
                         "number, with an independent value" % (where, fi))
    # "quick": true/false, or one run {"args", "min_digits"} for the quick
    # subset instead of the ladder.
    qk = b["quick"]
    b["_quick_run"] = None
    if isinstance(qk, dict):
        if not isinstance(qk.get("args"), list) or not isinstance(
                qk.get("min_digits"), (int, float)):
            raise BenchError("%s: quick: expected true, false or {\"args\": "
                             "[...], \"min_digits\": number}" % where)
        b["_quick_run"] = {"args": qk["args"], "label": "quick"}
    if not b["runs"]:
        raise BenchError("%s: runs is empty" % where)
    for i, r in enumerate(b["runs"]):
        if not isinstance(r, dict) or not isinstance(r.get("args"), list) or \
                not all(isinstance(a, str) for a in r["args"]) or \
                not isinstance(r.get("label"), str):
            raise BenchError("%s: runs[%d]: expected {\"args\": [strings], "
                             "\"label\": string}" % (where, i))
        if "group" in r and "series" not in r:  # the DAE files' name for it
            r["series"] = str(r["group"])
        if not isinstance(r.get("series", ""), str):
            raise BenchError("%s: runs[%d]: series: expected a string"
                             % (where, i))
        bad = [a for a in r["args"] if a in ("-o", "--output", "--json",
                                             "--plugin", "--quiet")]
        if bad:
            raise BenchError("%s: runs[%d]: %s is the runner's own option"
                             % (where, i, bad[0]))
    have_model = os.path.isfile(os.path.join(d, "model.py"))
    have_plugin = os.path.isfile(os.path.join(d, "plugin.c")) and \
        os.path.isfile(os.path.join(d, "CMakeLists.txt"))
    if not have_model and not have_plugin:
        raise BenchError("%s: expected model.py, or plugin.c with "
                         "CMakeLists.txt, beside it" % where)
    b["dir"] = d
    b["kind"] = "model" if have_model else "plugin"
    return b


def tag_of(b):
    return "%s/%s" % (b["category"], b["name"])


def find_benches(root):
    out = []
    for cat in sorted(os.listdir(root)):
        cdir = os.path.join(root, cat)
        if not os.path.isdir(cdir):
            continue
        for name in sorted(os.listdir(cdir)):
            p = os.path.join(cdir, name, "bench.json")
            if os.path.isfile(p):
                out.append(load_bench(p))
    return out


def parse_quantity(q):
    """'-x(tf)' -> (-1, 'var', 'x', 'tf'); None if malformed."""
    sign = 1
    if q.startswith("-"):
        sign, q = -1, q[1:]
    if q in ("objective", "tf"):
        return (sign, q, None, None)
    m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\((t0|tf)\)", q)
    if m:
        return (sign, "var", m.group(1), m.group(2))
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", q):
        return (sign, "param", q, None)
    return None


# ---- building ---------------------------------------------------------------

def log_tail(log, n=4):
    """The last n lines of a log, for a message (the log itself may be in a
    scratch directory that is removed)."""
    try:
        with open(log) as fh:
            lines = [ln.rstrip() for ln in fh if ln.strip()]
    except OSError:
        return ""
    errs = [ln.strip() for ln in lines if "error" in ln.lower() and
            not ln.lstrip().startswith(("gmake", "make", "ninja"))]
    return " | ".join(errs[:2] if errs else lines[-n:])


def run_cmd(cmd, log, cwd=None):
    """Runs cmd, appending its output to log; returns the exit status."""
    with open(log, "a") as fh:
        fh.write("$ %s\n" % " ".join(cmd))
        fh.flush()
        return subprocess.call(cmd, stdout=fh, stderr=subprocess.STDOUT,
                               cwd=cwd)


def install_radcol(build, prefix, log):
    if run_cmd(["cmake", "--install", build, "--prefix", prefix], log) != 0:
        raise RuntimeError("cmake --install %s failed: %s" % (
            build, log_tail(log)))


def generate(b, work, python):
    """radcol-gen for a model.py problem (the plugin.c ones are their own
    source); returns the source directory."""
    os.makedirs(work, exist_ok=True)
    log = os.path.join(work, "build.log")
    open(log, "w").close()
    if b["kind"] != "model":
        return b["dir"]
    src = os.path.join(work, "src")
    lib = "bench_" + re.sub(r"[^A-Za-z0-9_]", "_", b["name"])
    if run_cmd([python, GEN, os.path.join(b["dir"], "model.py"), "-o", src,
                "--name", lib], log) != 0:
        raise RuntimeError("radcol-gen failed: %s" % log_tail(log, 1))
    return src


def find_lib(bdir):
    libs = sorted(f for f in os.listdir(bdir)
                  if f.startswith("lib") and f.endswith(".so")) \
        if os.path.isdir(bdir) else []
    if len(libs) != 1:
        raise RuntimeError("expected one lib*.so in %s, found %s"
                           % (bdir, libs or "none"))
    return os.path.join(bdir, libs[0])


def build_alone(src, work, prefix):
    """Configures and builds one plugin project in work/build."""
    log = os.path.join(work, "build.log")
    bdir = os.path.join(work, "build")
    if run_cmd(["cmake", "-S", src, "-B", bdir,
                "-DCMAKE_PREFIX_PATH=" + prefix,
                "-DCMAKE_BUILD_TYPE=Release"], log) != 0:
        raise RuntimeError("cmake configure failed: %s" % log_tail(log))
    if run_cmd(["cmake", "--build", bdir], log) != 0:
        raise RuntimeError("cmake --build failed: %s" % log_tail(log))
    return find_lib(bdir)


def build_all(items, work, prefix, jobs):
    """Builds every plugin: one CMake project holding them all (one configure,
    a parallel build), and where that fails, each on its own.  items: list
    of (key, source dir, problem work dir); returns {key: library path or
    RuntimeError}."""
    out = {}
    top = os.path.join(work, "plugins")
    os.makedirs(top, exist_ok=True)
    log = os.path.join(top, "build.log")
    open(log, "w").close()
    lines = ["cmake_minimum_required(VERSION 3.18)",
             "project(radcol_benchmark_plugins LANGUAGES C)"]
    for k, (key, src, _) in enumerate(items):
        lines.append('add_subdirectory("%s" "p%03d")' % (
            src.replace("\\", "/"), k))
    with open(os.path.join(top, "CMakeLists.txt"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    bdir = os.path.join(top, "build")
    ok = run_cmd(["cmake", "-S", top, "-B", bdir,
                  "-DCMAKE_PREFIX_PATH=" + prefix,
                  "-DCMAKE_BUILD_TYPE=Release"], log) == 0
    if ok:
        run_cmd(["cmake", "--build", bdir, "--parallel", str(jobs)], log)
    for k, (key, src, pwork) in enumerate(items):
        try:
            out[key] = find_lib(os.path.join(bdir, "p%03d" % k))
        except RuntimeError:
            try:  # on its own, for a message of its own
                out[key] = build_alone(src, pwork, prefix)
            except RuntimeError as e:
                out[key] = e
    return out


def plugin_model(radcol, lib, builtins, b):
    """The model name the plugin adds (or bench.json "model")."""
    if "model" in b:
        return b["model"]
    out = subprocess.run([radcol, "list", "--plugin", lib, "--json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("radcol list --plugin %s: %s" % (
            lib, out.stderr.strip()))
    names = [m["name"] for m in json.loads(out.stdout)["models"]
             if m["name"] not in builtins]
    if len(names) != 1:
        raise RuntimeError("the plugin adds models %s: name one with "
                           "\"model\" in bench.json" % names)
    return names[0]


# ---- running ----------------------------------------------------------------

def read_quantity(q, js, h5path):
    sign, kind, name, when = parse_quantity(q)
    if kind == "objective":
        v = js.get("objective")
        return None if v is None else sign * v
    import h5py
    with h5py.File(h5path, "r") as f:
        sol = f["/solution"]
        if kind == "tf":
            return sign * float(sol.attrs["tf"])
        if kind == "var":
            if name not in sol:
                raise RuntimeError("no /solution/%s in the result (variables: "
                                   "%s)" % (name, ", ".join(
                                       f["/problem/variable_names"].asstr()[()])))
            d = sol[name][()]
            return sign * float(d[-1] if when == "tf" else d[0])
        path = "parameters/" + name
        if path not in sol:
            raise RuntimeError("no /solution/%s in the result" % path)
        return sign * float(sol[path][()])


def digits(a, b):
    """Digits of a agreeing with b: -log10 of the relative error (absolute
    where b = 0), capped at DIGITS_CAP; the minimum over list components."""
    if isinstance(b, list):
        ds = [digits(x, y) for x, y in zip(a, b)]
        return min(ds)
    if a is None or not math.isfinite(a):
        return None
    err = abs(a - b) / (abs(b) if b != 0 else 1.0)
    return DIGITS_CAP if err == 0 else min(DIGITS_CAP, -math.log10(err))


def rel_error(a, b):
    if isinstance(b, list):
        errs = [rel_error(x, y) for x, y in zip(a, b)]
        return None if None in errs else max(errs)
    if a is None or not math.isfinite(a):
        return None
    return abs(a - b) / (abs(b) if b != 0 else 1.0)


def matches_published(a, b, nd):
    """a rounded to nd significant digits equals the published b (b as
    printed with nd digits: |a - b| <= half a unit in its last digit)."""
    if isinstance(b, list):
        return all(matches_published(x, y, nd) for x, y in zip(a, b))
    if a is None:
        return False
    if b == 0:
        return abs(a) <= 0.5 * 10.0 ** (-nd)
    unit = 10.0 ** (math.floor(math.log10(abs(b))) - nd + 1)
    return abs(a - b) <= 0.5 * unit * (1 + 1e-9)


def solve_run(radcol, model, lib, b, run, work, k):
    h5 = os.path.join(work, "run%02d.h5" % k)
    cmd = [radcol, "solve", model, "--plugin", lib] + run["args"] + \
        ["-o", h5, "--json", "--quiet"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    rec = {"label": run["label"], "args": run["args"], "exit": p.returncode,
           "series": run.get("series"),
           "wall_s": wall, "value": None, "status": "error",
           "iterations": None, "variables": None, "estimate": None,
           "message": None}
    with open(os.path.join(work, "run%02d.log" % k), "w") as fh:
        fh.write("$ %s\n%s\n%s" % (" ".join(cmd), p.stdout, p.stderr))
    try:
        js = json.loads(p.stdout)
    except ValueError:
        rec["message"] = (p.stderr.strip().splitlines() or ["no output"])[-1]
        return rec
    rec["status"] = js.get("status")
    rec["iterations"] = js.get("iterations")
    rec["variables"] = js.get("variables")
    rec["wall_s"] = js.get("wall_s", wall)
    rec["estimate"] = (js.get("error_estimate") or {}).get("max")
    rec["elements"] = js.get("elements")
    rec["message"] = js.get("message")
    if not os.path.isfile(h5):
        return rec
    q = b["_q"]
    try:
        if isinstance(q, list):
            rec["value"] = [read_quantity(x, js, h5) for x in q]
        else:
            rec["value"] = read_quantity(q, js, h5)
    except (RuntimeError, KeyError, OSError) as e:
        rec["message"] = "reading %s: %s" % (q, e)
        rec["status"] = "error"
    return rec


# ---- reporting --------------------------------------------------------------

def fmt_num(v, nd=15):
    if v is None:
        return "-"
    if isinstance(v, list):
        return ", ".join(fmt_num(x, nd) for x in v)
    return "%.*g" % (nd, v)


def fmt_dig(d):
    return "-" if d is None else ("%.1f" % d if d < DIGITS_CAP else ">= 16")


def fmt_s(v):
    return "-" if v is None else "%.3g" % v


def series_key(args):
    """The run's arguments without its element count: runs that differ only
    in -n form one line of the plot."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-n", "--elements"):
            skip = True
            continue
        out.append(a)
    return " ".join(out)


def plot(res, path):
    """Relative error against wall time, one line per series of runs (same
    arguments but -n), against the independent value where there is one,
    else the published one; radcol's own error estimate beside it."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    b = res["bench"]
    ind = b["_iv"]
    ekey = "err_ind" if ind is not None else "err_pub"
    tiny = 10.0 ** (-DIGITS_CAP)
    ok = [r for r in res["runs"] if r["status"] in OK_STATUS and
          r.get(ekey) is not None]
    groups = {}
    for r in ok:
        groups.setdefault(r.get("series") or series_key(r["args"]),
                          []).append(r)
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (key, runs) in enumerate(groups.items()):
        col = colors[k % len(colors)]
        ax.loglog([r["wall_s"] for r in runs],
                  [max(r[ekey], tiny) for r in runs], "o-", color=col,
                  label=key or "(defaults)")
        est = [(r["wall_s"], r["estimate"]) for r in runs
               if r.get("estimate") is not None and r["estimate"] > 0]
        if est:
            ax.loglog([e[0] for e in est], [e[1] for e in est], "^:",
                      color=col, alpha=0.6, ms=4)
        for r in runs:
            ax.annotate(r["label"].split(" ")[0] if " " in r["label"] and
                        len(runs) > 1 else r["label"],
                        (r["wall_s"], max(r[ekey], tiny)),
                        textcoords="offset points", xytext=(4, 3),
                        fontsize=6)
    if ind is not None:
        perr = rel_error(b["_v"], ind)
        if perr:
            ax.axhline(perr, color="grey", lw=0.9, ls="--",
                       label="the published value's own error")
    ax.plot([], [], "k^:", alpha=0.6, ms=4,
            label="radcol's error estimate (same colour)")
    ax.set_xlabel("wall time of radcol solve, s")
    q = b["_q"]
    ax.set_ylabel("relative error of %s vs %s" % (
        q if not isinstance(q, list) else "the quantities (max)",
        "independent value" if ind is not None else "published value"))
    ax.set_title("%s/%s: %s" % (b["category"], b["name"], b["title"]),
                 fontsize=9)
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_report(results, path, args, elapsed, build_s):
    L = []
    E = L.append
    E("# radcol on published benchmarks")
    E("")
    E("Written by `scripts/benchmarks.py%s` (%s, %.0f s in all, of which %.0f "
      "s generating and building the plugins; this machine: %s). Each "
      "problem's statement, "
      "source and published value are in "
      "`benchmarks/<category>/<name>/README.md`; the layout and how to add a "
      "problem in `benchmarks/README.md`." % (
          " --quick" if args.quick else "",
          time.strftime("%Y-%m-%d", time.gmtime()), elapsed, build_s,
          machine()))
    E("")
    E("*digits* = -log10(|radcol - published| / |published|): the digits of "
      "the published value radcol reproduces, on the best run of the "
      "problem's ladder (the most accurate run: closest to the independent "
      "value where there is one, else to the published one; every run is "
      "listed below). *all published* = radcol's value rounded to the "
      "published digit count equals the published value (*exact value*: "
      "the published value is a closed form). *vs indep.* = the most digits "
      "any run "
      "agrees with our own independent value (bench.json `independent`, how "
      "in the README), where the published one is short or weak, with its "
      "floor. *estimate* = radcol's own "
      "a-posteriori error estimate (relative, max over variables; --json "
      "error_estimate.max). *floor* = the digits below which the runner "
      "fails.")
    E("")
    E("| problem | quantity | published (digits) | radcol (best run) | run "
      "| digits | all published | vs indep. | floor | status | iterations "
      "| variables | wall s | estimate |")
    E("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for res in results:
        b = res["bench"]
        best = res.get("best")
        pub = b["published"]
        row = ["%s/%s" % (b["category"], b["name"]),
               "`%s`" % (pub["quantity"] if not isinstance(
                   pub["quantity"], list) else ", ".join(pub["quantity"])),
               "%s (%d)" % (fmt_num(b["_v"]), pub["digits"])]
        if best is None:
            row += ["-", "-", "-", "-", "-",
                str(res.get("floor", b["floor_digits"])),
                    res.get("error", "no converged run"), "-", "-", "-", "-"]
        else:
            row += [fmt_num(best["value"]), best["label"],
                    fmt_dig(best["dig_pub"]),
                    "exact value" if pub["digits"] >= DIGITS_CAP else
                    ("yes" if best["match"] else "no"),
                    fmt_dig(res.get("best_ind")) + (
                        " (floor %s)" % b["floor_digits_independent"]
                        if "floor_digits_independent" in b else ""),
                    str(res.get("floor", b["floor_digits"])),
                    best["status"], str(best["iterations"]),
                    str(best["variables"]), fmt_s(best["wall_s"]),
                    fmt_s(best["estimate"])]
        row[-1] += "" if res["pass"] else " **FAIL**"
        E("| " + " | ".join(row) + " |")
    E("")
    fails = [r for r in results if not r["pass"]]
    E("%d problem(s), %d below their floor%s." % (
        len(results), len(fails),
        (": " + ", ".join("%s/%s" % (r["bench"]["category"],
                                      r["bench"]["name"]) for r in fails))
        if fails else ""))
    E("")
    for res in results:
        b = res["bench"]
        E("## %s/%s: %s" % (b["category"], b["name"], b["title"]))
        E("")
        E("Published: %s = %s (%d digits; %s)." % (
            b["published"]["quantity"], fmt_num(b["_v"]),
            b["published"]["digits"], b["published"]["source"]))
        if b.get("independent"):
            E("Independent: %s (%s)." % (fmt_num(b["_iv"]), b["_ihow"]))
        E("Plugin: %s." % ("generated by scripts/radcol-gen from model.py"
                           if b["kind"] == "model" else
                           "plugin.c with its own CMakeLists.txt"))
        if res.get("error"):
            E("")
            E("**%s**" % res["error"])
        E("")
        if res["runs"]:
            E("| run | radcol arguments | status | value | digits | vs "
              "indep. | iterations | variables | wall s | estimate |")
            E("|---|---|---|---|---|---|---|---|---|---|")
            for r in res["runs"]:
                E("| %s | `%s` | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    r["label"], " ".join(r["args"]), r["status"],
                    fmt_num(r["value"]), fmt_dig(r.get("dig_pub")),
                    fmt_dig(r.get("dig_ind")), r["iterations"],
                    r["variables"], fmt_s(r["wall_s"]),
                    fmt_s(r["estimate"])))
            E("")
        if res.get("plot"):
            E("![%s](%s)" % (b["name"], os.path.relpath(
                res["plot"], os.path.dirname(os.path.abspath(path)))))
            E("")
    text = "\n".join(L) + "\n"
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = ", load average %.1f at the start%s" % (
        LOAD0, " (a loaded machine: wall times are indicative only)"
        if LOAD0 > 1.5 else "")
    return "%s, %d cores%s" % (cpu, os.cpu_count() or 0, load)


# ---- main -------------------------------------------------------------------

def evaluate(res):
    """Digits per run, the best run, pass/fail."""
    b = res["bench"]
    pub = b["_v"]
    ind = b["_iv"]
    best = None
    for r in res["runs"]:
        if r["status"] not in OK_STATUS or r["value"] is None:
            continue
        r["dig_pub"] = digits(r["value"], pub)
        r["err_pub"] = rel_error(r["value"], pub)
        if ind is not None:
            r["dig_ind"] = digits(r["value"], ind)
            r["err_ind"] = rel_error(r["value"], ind)
        r["match"] = matches_published(r["value"], pub,
                                       b["published"]["digits"])
        # The best run is the most accurate one: closest to the independent
        # value where there is one (a published value of a few digits would
        # favour a coarse run that happens to land near it), else to the
        # published value.
        key = "dig_ind" if ind is not None else "dig_pub"
        if r[key] is not None and (best is None or r[key] > best[key]):
            best = r
    res["best"] = best
    res["best_ind"] = max((r["dig_ind"] for r in res["runs"]
                           if r.get("dig_ind") is not None), default=None)
    res["pass"] = best is not None and not res.get("error") and \
        best["dig_pub"] >= res.get("floor", b["floor_digits"])
    fi = b.get("floor_digits_independent")
    if fi is not None and (res["best_ind"] is None or res["best_ind"] < fi):
        res["pass"] = False


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(SRC, "build"),
                    help="radcol build tree (holds the radcol executable; "
                         "installed into a scratch prefix); default: build")
    ap.add_argument("--suite", default=os.path.join(SRC, "benchmarks"),
                    help="suite root; default: benchmarks/")
    ap.add_argument("--quick", action="store_true",
                    help="only the problems with \"quick\": true (CI)")
    ap.add_argument("--only", action="append", default=[],
                    metavar="CATEGORY/NAME or NAME",
                    help="only this problem (repeatable)")
    ap.add_argument("--out", help="report; default: results/benchmarks.md "
                                  "(--quick: BUILD/benchmarks-quick.md)")
    ap.add_argument("--plots", help="plot directory; default: "
                                    "results/benchmarks/ (--quick: none)")
    ap.add_argument("--no-plots", action="store_true", help="no plots")
    ap.add_argument("--work", help="scratch directory for the plugins and "
                                   "result files (kept); default: a temporary "
                                   "one, removed at the end")
    ap.add_argument("--python", default=sys.executable,
                    help="Python with sympy to run radcol-gen; default: this "
                         "one")
    ap.add_argument("--jobs", type=int, default=2,
                    help="radcol-gen processes and compile jobs at once "
                         "(the solves run one at a time, so that their wall "
                         "times are comparable); default: 2")
    ap.add_argument("--list", action="store_true",
                    help="list the suite and exit")
    args = ap.parse_args(argv)
    try:
        benches = find_benches(args.suite)
    except (BenchError, OSError) as e:
        print("benchmarks.py: %s" % e, file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("benchmarks.py: --jobs %d: expected >= 1" % args.jobs,
              file=sys.stderr)
        return 2
    if args.list:
        for b in benches:
            print("%-28s %-6s quick=%-5s floor=%-4s %s" % (
                b["category"] + "/" + b["name"], b["kind"],
                "1 run" if b["_quick_run"] else b["quick"],
                b["floor_digits"], b["title"]))
        return 0
    sel = benches
    if args.only:
        want = set(args.only)
        sel = [b for b in benches if b["name"] in want or
               "%s/%s" % (b["category"], b["name"]) in want]
        known = {b["name"] for b in benches} | {
            "%s/%s" % (b["category"], b["name"]) for b in benches}
        unknown = sorted(want - known)
        if unknown:
            print("benchmarks.py: --only %s: no such problem (benchmarks.py "
                  "--list)" % unknown[0], file=sys.stderr)
            return 2
    if args.quick:
        sel = [b for b in sel if b["quick"]]
    if not sel:
        print("benchmarks.py: no problem selected", file=sys.stderr)
        return 2
    radcol = os.path.join(args.build, "radcol")
    if not os.access(radcol, os.X_OK):
        print("benchmarks.py: --build %s: no radcol executable there (build "
              "it first)" % args.build, file=sys.stderr)
        return 2
    out = args.out or (os.path.join(args.build, "benchmarks-quick.md")
                       if args.quick else
                       os.path.join(SRC, "results", "benchmarks.md"))
    plots = None if args.no_plots else (
        args.plots or (None if args.quick else
                       os.path.join(SRC, "results", "benchmarks")))
    work = args.work or tempfile.mkdtemp(prefix="radcol-bench.")
    global LOAD0
    LOAD0 = os.getloadavg()[0]
    t_start = time.monotonic()
    build_s = 0.0
    results = []
    try:
        os.makedirs(work, exist_ok=True)
        prefix = os.path.join(work, "prefix")
        install_radcol(args.build, prefix, os.path.join(work, "install.log"))
        bl = subprocess.run([radcol, "list", "--json"], capture_output=True,
                            text=True, check=True)
        builtins = {m["name"] for m in json.loads(bl.stdout)["models"]}
        # 1. sources (radcol-gen, sympy: the slow part) in parallel,
        # 2. every plugin in one CMake build, 3. the ladders one by one.
        t_build = time.monotonic()
        srcs = {}
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futs = {tag_of(b): pool.submit(
                generate, b, os.path.join(work, b["category"], b["name"]),
                args.python) for b in sel}
            for tag, fu in futs.items():
                try:
                    srcs[tag] = fu.result()
                except RuntimeError as e:
                    srcs[tag] = e
        items = [(tag_of(b), srcs[tag_of(b)],
                  os.path.join(work, b["category"], b["name"]))
                 for b in sel if not isinstance(srcs[tag_of(b)], Exception)]
        libs = build_all(items, work, prefix, args.jobs)
        build_s = time.monotonic() - t_build
        print("benchmarks.py: %d plugin(s) generated and built in %.0f s"
              % (len(items), build_s), file=sys.stderr)
        for b in sel:
            tag = tag_of(b)
            res = {"bench": b, "runs": []}
            results.append(res)
            bwork = os.path.join(work, b["category"], b["name"])
            lib = srcs[tag] if isinstance(srcs[tag], Exception) else \
                libs.get(tag)
            try:
                if isinstance(lib, Exception):
                    raise lib
                model = plugin_model(radcol, lib, builtins, b)
            except RuntimeError as e:
                res["error"] = "build failed: %s" % e
                evaluate(res)
                print("%-28s BUILD FAILED: %s" % (tag, e), file=sys.stderr)
                continue
            runs = b["runs"]
            if args.quick and b["_quick_run"]:
                runs = [b["_quick_run"]]
                res["floor"] = b["quick"]["min_digits"]
            for k, run in enumerate(runs):
                r = solve_run(radcol, model, lib, b, run, bwork, k)
                res["runs"].append(r)
            evaluate(res)
            best = res["best"]
            print("%-28s %s: %s digits (floor %s, %s), %.1f s" % (
                tag, "ok  " if res["pass"] else "FAIL",
                fmt_dig(best["dig_pub"]) if best else "no converged run",
                res.get("floor", b["floor_digits"]),
                best["label"] if best else "-",
                sum(r["wall_s"] or 0 for r in res["runs"])), file=sys.stderr)
            if plots:
                os.makedirs(plots, exist_ok=True)
                res["plot"] = os.path.join(plots, "%s-%s.png" % (
                    b["category"], b["name"]))
                plot(res, res["plot"])
    except (RuntimeError, subprocess.CalledProcessError) as e:
        print("benchmarks.py: %s" % e, file=sys.stderr)
        return 1
    except OSError as e:
        print("benchmarks.py: %s" % e, file=sys.stderr)
        return 3
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    try:
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        write_report(results, out, args, time.monotonic() - t_start,
                     build_s)
    except OSError as e:
        print("benchmarks.py: --out %s: %s" % (out, e), file=sys.stderr)
        return 3
    fails = [r for r in results if not r["pass"]]
    print("benchmarks.py: %d problem(s), %d below floor; report %s (%.0f s)"
          % (len(results), len(fails), out,
             time.monotonic() - t_start), file=sys.stderr)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
