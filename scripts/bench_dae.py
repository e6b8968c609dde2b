#!/usr/bin/python3
"""DAE work-precision study: radcol against SUNDIALS IDA on published DAE
benchmarks (benchmarks/dae/<name>/: Andrews' squeezing mechanism, the car
axis, the chemical Akzo Nobel problem, the transistor amplifier; Test Set for
IVP Solvers 2.4).  Issue 26, item 5: the baseline the adaptive march will be
judged by.

Modes (one per run):
  (default)    the study: for each problem, IDA over a tolerance ladder
               (bench/ida_dae.c on the problem's index-1 form) and radcol
               over its ladder of uniform meshes (bench.json "runs": s = 3
               and 5, --estimate off, several formulations, the default
               Newton tolerance and --tol 1e-8), then radcol with the
               default estimate on the fastest meshes reaching 3/5/7/9
               digits.  Every run is a whole command (process start to
               exit, result file written) timed from here, repeated
               (--repeat, median); digits against the independent
               reference (reference.csv) on its grid and at tf.  Writes
               results/bench/dae-workprecision.md and .png.
  --reference  recompute every reference.csv (scipy, two methods) and the
               "independent" block of each bench.json; prints agreement with
               the published values.
  --failures   the reproducers of today's failures (issue 26): commands and
               outputs into results/bench/dae-failures.md.
  --march      IDA's ladder against the adaptive march (issue 26): `radcol
               solve` with no mesh option, rtol 1e-3 .. 1e-11, the default
               estimate included; writes results/bench/
               dae-workprecision-march.md, .json and .png.
  --check      the quick ctest check: each model generates, builds and
               solves its "quick" run to at least its "min_digits".

Digits (as bench/ida_dae.c computes them for IDA, recomputed here for both):
  digits_end  = -log10 max_i |z_i(tf) - ref_i(tf)| / |ref_i(tf)|   (the test
                set's significant correct digits, scd, over the compared
                components: positions for the mechanisms, all for the rest)
  digits_grid = -log10 max_{k,i} |z_i(t_k) - ref_i(t_k)| / max_k |ref_i|
                (radcol: its dense output; IDA: its interpolant)
  digits      = min(digits_end, digits_grid), capped at the reference's own
                floor (bench.json reference_floor_digits).

Needs: a build with -DRADCOL_BUILD_BENCH=ON (radcol, bench/
radcol_bench_ida_dae), /usr/bin/python3 with numpy, scipy, sympy, h5py and
matplotlib, a C compiler (cc) for the generated plugins.  Reads radcol only
through `radcol solve --json` and `radcol export`.
"""
import argparse
import concurrent.futures
import datetime
import importlib.util
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BENCH = os.path.join(ROOT, "benchmarks", "dae")
PROBLEMS = ["andrews", "caraxis", "akzo", "transistor"]
TARGETS = [3, 5, 7, 9]
IDA_LADDER = [10.0 ** (-k / 2) for k in range(4, 27)]   # 1e-2 .. 1e-13
IDA_MODES = ["scaled", "scalar"]     # atol_i = rtol max|ref_i|; atol = rtol


# ---- problems ---------------------------------------------------------------

class Problem:
    def __init__(self, name):
        self.name = name
        self.dir = os.path.join(BENCH, name)
        with open(os.path.join(self.dir, "bench.json")) as fh:
            self.spec = json.load(fh)
        spec = importlib.util.spec_from_file_location(
            "ref_" + name, os.path.join(self.dir, "reference.py"))
        self.ref = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.ref)
        self.compare = list(self.ref.COMPARE)
        self.csv = os.path.join(self.dir, "reference.csv")
        self.lib = None

    def grid(self):
        n = int(self.spec["grid"])
        tf = self.ref.T_END
        h = tf / n
        return [k * h for k in range(n)] + [tf]

    def load_reference(self):
        return read_csv(self.csv)


def read_csv(path):
    with open(path) as fh:
        head = fh.readline().strip().split(",")
        rows = [[float(v) for v in line.split(",")] for line in fh if line.strip()]
    cols = {name: [r[j] for r in rows] for j, name in enumerate(head)}
    return head, cols


def digits(ref, sol, names):
    """(digits_end, digits_grid, worst name) of sol against ref (dicts of
    columns on the same grid)."""
    e_end, e_grid, worst = 0.0, 0.0, ""
    for n in names:
        r, z = ref[n], sol[n]
        scale = max(abs(v) for v in r)
        emax = 0.0
        for a, b in zip(z, r):
            e = abs(a - b)
            if not e <= emax:
                emax = e
        el = abs(z[-1] - r[-1])
        rel_end = el / abs(r[-1]) if r[-1] != 0 else el
        rel_grid = emax / scale if scale > 0 else emax
        if not rel_end <= e_end:
            e_end = rel_end
        if not rel_grid <= e_grid:
            e_grid, worst = rel_grid, n

    def dg(e):
        return -math.inf if math.isnan(e) else -math.log10(max(e, 1e-300))
    return dg(e_end), dg(e_grid), worst


# ---- building the plugins -----------------------------------------------------

def build_plugin(p, workdir, cc="cc"):
    """radcol-gen model.py (or plugin.c as is) -> workdir/<name>/lib<name>.so"""
    out = os.path.join(workdir, p.name)
    os.makedirs(out, exist_ok=True)
    lib = os.path.join(out, "lib%s.so" % p.name)
    model = os.path.join(p.dir, "model.py")
    if os.path.exists(model):
        src = os.path.join(out, "%s.c" % p.name)
        deps = [model, os.path.join(HERE, "radcol-gen")]
        if not os.path.exists(src) or any(os.path.getmtime(d) > os.path.getmtime(src)
                                          for d in deps):
            r = subprocess.run([sys.executable, os.path.join(HERE, "radcol-gen"),
                                model, "-o", out, "--name", p.name],
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise SystemExit("radcol-gen %s: %s" % (model, r.stderr.strip()))
    else:
        src = os.path.join(p.dir, "plugin.c")
    if not os.path.exists(lib) or os.path.getmtime(src) > os.path.getmtime(lib):
        r = subprocess.run([cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror",
                            "-shared", "-fPIC", "-fvisibility=hidden",
                            "-I" + os.path.join(ROOT, "include"), src, "-o", lib,
                            "-lm"], capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit("cc %s: %s" % (src, r.stderr.strip()))
    p.lib = lib
    return lib


# ---- timing a whole command -------------------------------------------------------

def timed(cmd, timeout):
    """Runs cmd; returns (wall s, rusage maxrss MB, returncode, stdout,
    stderr).  Wall time from fork to reaped exit, measured here."""
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        p = subprocess.Popen(cmd, stdout=fo, stderr=fe)
        deadline = t0 + timeout
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                pid, status, ru = os.wait4(p.pid, 0)
                p.returncode = -9
                fo.seek(0)
                return math.inf, ru.ru_maxrss / 1024, "timeout", "", ""
            time.sleep(0.0005)
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        fe.seek(0)
        return (wall, ru.ru_maxrss / 1024, p.returncode,
                fo.read().decode(errors="replace"), fe.read().decode(errors="replace"))


# ---- radcol ---------------------------------------------------------------------------

def radcol_run(a, p, args, ref, repeat, timeout, work):
    """One radcol configuration: whole command `repeat` times (median), the
    dense output on the reference grid, digits."""
    h5 = os.path.join(work, "r.h5")
    csv = os.path.join(work, "r.csv")
    cmd = [a.radcol, "solve", p.name, "--plugin", p.lib] + args + \
        ["-o", h5, "--json", "--quiet"]
    walls, inside, res = [], [], {"args": args}
    for k in range(repeat):
        if os.path.exists(h5):
            os.remove(h5)
        wall, rss, rc, out, err = timed(cmd, timeout)
        walls.append(wall)
        res["rss_mb"] = max(res.get("rss_mb", 0), rss)
        if rc == "timeout":
            res.update(status="timeout", ok=False)
            break
        try:
            d = json.loads(out)
        except ValueError:
            res.update(status="error rc=%s" % rc, ok=False, stderr=err[-300:])
            break
        res.update(status=d.get("status"), message=d.get("message", ""),
                   iterations=d.get("iterations"), solver=d.get("solver"), exit=rc)
        inside.append(d.get("wall_s") or math.nan)
        est = d.get("estimate") or {}
        res["estimate"] = est.get("kind") if isinstance(est, dict) else None
        ee = d.get("error_estimate") or {}
        res.update(solve_s=d.get("ipopt_s"), enriched_s=ee.get("enriched_wall_s"),
                   estimate_kind=ee.get("kind"), elements=d.get("elements"),
                   stages=d.get("stages"))
        res["ok"] = rc == 0 or (rc == 1 and d.get("status") == "inaccurate")
        if not res["ok"]:
            break
        if wall > 60 and k + 1 < repeat:   # long runs (default estimate): once
            break
    res["time_s"] = statistics.median(walls)
    res["times"] = walls
    res["inside_s"] = statistics.median(inside) if inside else None
    res["digits_end"] = res["digits_grid"] = res["digits"] = None
    if res.get("ok"):
        h = p.ref.T_END / int(p.spec["grid"])
        r = subprocess.run([a.radcol, "export", h5, "--step", repr(h), "--vars",
                            ",".join(p.compare), "--plugin", p.lib, "-o", csv],
                           capture_output=True, text=True)
        if r.returncode != 0:
            res.update(ok=False, status="export failed: " + r.stderr.strip()[-200:])
            return res
        head, sol = read_csv(csv)
        if len(sol["time"]) != len(ref["t"]) or any(
                abs(x - y) > 1e-9 * p.ref.T_END for x, y in zip(sol["time"], ref["t"])):
            res.update(ok=False, status="export grid differs from the reference grid")
            return res
        de, dg, worst = digits(ref, sol, p.compare)
        res.update(digits_end=de, digits_grid=dg, worst=worst,
                   digits=min(de, dg, float(p.spec["reference_floor_digits"])))
    return res


# ---- IDA --------------------------------------------------------------------------

def ida_run(a, p, rtol, mode, ref, repeat, timeout, work):
    """IDA at rtol; mode "scaled": atol_i = rtol max|ref_i|, "scalar": atol =
    rtol (the test set's runs)."""
    out = os.path.join(work, "ida.csv")
    ida = p.spec["ida"]
    cmd = [a.ida, "--plugin", p.lib, p.name, "-f", ida["formulation"], "--ref", p.csv,
           "--compare", ",".join(p.compare), "--repeat", "1", "--out", out]
    if ida.get("suppress_alg"):
        cmd.append("--suppress-alg")
    if mode == "scalar":
        cmd += ["--atol", repr(rtol)]
    cmd.append(repr(rtol))
    walls, inside, res = [], [], {"rtol": rtol, "mode": mode}
    for _ in range(repeat):
        if os.path.exists(out):
            os.remove(out)
        wall, rss, rc, so, se = timed(cmd, timeout)
        walls.append(wall)
        if rc != 0:
            res.update(ok=False, status="exit %s %s" % (rc, se.strip()[-200:]))
            break
        d = json.loads(so.strip().splitlines()[-1])
        inside.append(d.pop("time_s"))
        d.pop("time_median_s", None)
        res.update(d)
        if not d["ok"]:
            res["status"] = "IDA flag %d" % d["flag"]
            break
    res["time_s"] = statistics.median(walls)
    res["times"] = walls
    res["inside_s"] = statistics.median(inside) if inside else None
    if res.get("ok"):
        head, sol = read_csv(out)
        de, dg, worst = digits(ref, sol, p.compare)
        # the driver computed the same figures in C: they must agree
        if abs(de - res["digits_end"]) > 0.01 or abs(dg - res["digits_grid"]) > 0.01:
            raise SystemExit("%s: IDA digits differ between the driver (%.3f, %.3f) "
                             "and this script (%.3f, %.3f)"
                             % (p.name, res["digits_end"], res["digits_grid"], de, dg))
        res["digits"] = min(de, dg, float(p.spec["reference_floor_digits"]))
    else:
        res["digits"] = None
    return res


# ---- the study ------------------------------------------------------------------

def best(rows, target):
    ok = [r for r in rows if r.get("ok") and r.get("digits") is not None
          and r["digits"] >= target]
    return min(ok, key=lambda r: r["time_s"]) if ok else None


def label(args):
    out, i = [], 0
    while i < len(args):
        k = args[i]
        v = args[i + 1] if i + 1 < len(args) else ""
        if k == "-f":
            out.append(v)
        elif k == "-s":
            out.append("s=" + v)
        elif k == "-n":
            out.append("n=" + v)
        elif k == "--tol":
            out.append("tol " + v)
        elif k == "--estimate":
            out.append("est " + v)
        elif k == "--solver":
            out.append(v)
        i += 2
    return " ".join(out)


def default_args(args):
    """The same run with radcol's defaults for the estimate and the solver
    (global estimate, solver auto)."""
    out, i = [], 0
    while i < len(args):
        if args[i] in ("--estimate", "--solver"):
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out


def floors(a, n=11):
    """Median whole-command times of doing nothing: radcol --version and the
    IDA driver's usage message (process start-up and library loading)."""
    out = {"n": n}
    for key, cmd in (("radcol", [a.radcol, "--version"]), ("ida", [a.ida])):
        out[key] = statistics.median(timed(cmd, 60)[0] for _ in range(n))
    r = subprocess.run(["ldd", a.radcol], capture_output=True, text=True)
    out["libs"] = len([l for l in r.stdout.splitlines() if "=>" in l])
    return out


def ida_ladder(a, p, ref, work):
    """IDA over its rtol ladder, both atol modes; a ladder stops at the
    reference's floor or after a run slower than --ida-max-s."""
    ida_rows = []
    for mode in IDA_MODES:
        for rtol in IDA_LADDER:
            r = ida_run(a, p, rtol, mode, ref, a.repeat, a.timeout, work)
            ida_rows.append(r)
            print("  ida %s rtol=%-8.1e %s digits %s time %.4f s" % (
                mode, rtol, "ok " if r.get("ok") else "FAIL",
                fmt(r.get("digits")), r["time_s"]), flush=True)
            if r.get("ok") and r["digits"] >= float(p.spec["reference_floor_digits"]):
                break
            if r["time_s"] > a.ida_max_s:
                print("  ida %s: %.1f s > --ida-max-s %g: the rest of the ladder "
                      "is left out" % (mode, r["time_s"], a.ida_max_s), flush=True)
                r["note"] = "slower than --ida-max-s: smaller rtol left out"
                break
    return ida_rows


def study(a, probs, work):
    report = {"_floors": floors(a)}
    print("process floors: %s" % report["_floors"], flush=True)
    for p in probs:
        ref_head, ref = p.load_reference()
        print("== %s" % p.name, flush=True)
        ida_rows = ida_ladder(a, p, ref, work)
        rad_rows = []
        for run in p.spec["runs"][:a.max_runs]:
            args = run["args"]
            r = radcol_run(a, p, args, ref, a.repeat, a.timeout, work)
            r["label"] = run.get("label") or label(args)
            r["group"] = run.get("group", "")
            rad_rows.append(r)
            print("  radcol %-34s %-10s digits %s time %.4f s" % (
                r["label"], r["status"] if not r.get("ok") else "ok",
                fmt(r.get("digits")), r["time_s"]), flush=True)
        # the default estimate on the fastest mesh of each target
        est_rows = []
        seen = set()
        for tgt in TARGETS:
            b = best([r for r in rad_rows if r["group"] == "off"], tgt)
            if not b:
                continue
            args = default_args(b["args"])
            key = tuple(args)
            if key in seen:
                continue
            seen.add(key)
            r = radcol_run(a, p, args, ref, a.repeat, a.estimate_timeout, work)
            r["label"] = label(args) + " est global"
            r["group"] = "default"
            r["target"] = tgt
            r["march_s"] = b["time_s"]
            est_rows.append(r)
            print("  radcol %-34s %-10s digits %s time %.4f s rss %.0f MB" % (
                r["label"], r["status"] if not r.get("ok") else "ok",
                fmt(r.get("digits")), r["time_s"], r.get("rss_mb", 0)), flush=True)
        report[p.name] = {"ida": ida_rows, "radcol": rad_rows, "estimate": est_rows}
    return report


def fmt(v, spec=".2f"):
    if v is None or (isinstance(v, float) and (math.isnan(v) or math.isinf(v))):
        return "-"
    return format(v, spec)


def ftime(v):
    if v is None or v == math.inf:
        return "-"
    return "%.3g" % v


def write_report(a, probs, report, cmdline):
    md = []
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    md.append("# DAE work-precision: radcol versus SUNDIALS IDA (issue 26)\n")
    md.append("Written by `%s` (%s, commit %s); every figure below comes from that one "
              "run. Machine: 2 cores shared with other jobs (wall times are noisy; "
              "ratios are within this run).\n" % (cmdline, now, git_rev()))
    md.append("""- Problems: benchmarks/dae/<name>/ (README.md there: equations, source,
  published values). Reference: reference.csv, an independent integration of a
  state-space ODE written from the test set's Fortran (scipy, see each bench.json
  `independent`), on a grid of the whole trajectory.
- Digits: min(digits_end, digits_grid), where digits_end = -log10 max_i
  |z_i(tf) - ref_i(tf)| / |ref_i(tf)| (the test set's scd) and digits_grid =
  -log10 max over the grid and i of |z_i - ref_i| / max|ref_i|, over the
  compared components (positions for the mechanisms, all components
  otherwise), capped at the reference's floor (bench.json `reference_floor_digits`).
- Time: the whole command, process start to exit, measured by the script
  (radcol: `radcol solve ... -o FILE.h5 --json --quiet`, result file written;
  IDA: `radcol_bench_ida_dae ... RTOL` (bench/ida_dae.c), which loads the same
  generated plugin, integrates and writes its grid values), median of %d
  repeats (runs over 60 s: once).
- IDA: IDA 6.4, dense direct linear solver with the problem's exact Jacobian
  (from the same plugin), on the index-1 form, rtol ladder 1e-2 .. 1e-13 in
  half decades, twice: atol_i = rtol * max|ref_i| (scaled) and atol = rtol
  (scalar, the test set's runs); best of both per target. A ladder stops at
  the first run slower than %g s (smaller rtol only get slower).
- radcol: uniform meshes (`-n`, `-s` 3 and 5), `--estimate off`, the default
  Newton tolerance (`--tol` 1e-10) and `--tol 1e-8` (the workaround of issue
  26), formulations as listed; then the default (global) estimate on the
  fastest mesh of each target. Best in hindsight: the fastest converged run
  reaching the target.
""" % (a.repeat, a.ida_max_s))
    md.append("## Time to reach 3 / 5 / 7 / 9 digits\n")
    md.append("Ratio radcol / IDA of the whole commands (< 1: radcol faster), then "
              "the times (radcol / IDA, s). `-`: never reached in the ladder.\n")
    md.append("| problem | radcol runs | 3 | 5 | 7 | 9 |")
    md.append("|---|---|---|---|---|---|")
    summary = {}
    inside_rows = []
    for p in probs:
        rep = report[p.name]
        groups = {}
        for r in rep["radcol"]:
            form = r["args"][r["args"].index("-f") + 1]
            groups.setdefault("%s, est off" % form, []).append(r)
        groups["default estimate (fastest est-off mesh)"] = rep["estimate"]
        for gname, rows in groups.items():
            cells, icells = [], []
            for tgt in TARGETS:
                bi, br = best(rep["ida"], tgt), best(rows, tgt)
                if bi and br:
                    ratio = br["time_s"] / bi["time_s"]
                    cells.append("**%.2f** (%s / %s)" % (ratio, ftime(br["time_s"]),
                                                        ftime(bi["time_s"])))
                    summary.setdefault(p.name, {}).setdefault(gname, {})[tgt] = ratio
                    ri, ii = br.get("inside_s"), bi.get("inside_s")
                    icells.append("%.2f (%s / %s)" % (ri / ii, ftime(ri), ftime(ii))
                                  if ri and ii else "-")
                elif bi:
                    cells.append("- (IDA %s)" % ftime(bi["time_s"]))
                    icells.append("-")
                elif br:
                    cells.append("- (IDA never; radcol %s)" % ftime(br["time_s"]))
                    icells.append("-")
                else:
                    cells.append("-")
                    icells.append("-")
            md.append("| %s | %s | %s |" % (p.name, gname, " | ".join(cells)))
            inside_rows.append("| %s | %s | %s |" % (p.name, gname, " | ".join(icells)))
    md.append("")
    fl = report.get("_floors", {})
    md.append("The same runs timed inside the processes (radcol: `wall_s` of its "
              "--json, from main() to exit, result file included; IDA: the "
              "integration alone, as the driver reports it), ratio radcol / IDA "
              "(radcol s / IDA s). The difference to the table above is the cost "
              "of starting the process: `radcol --version` takes %s s (median of "
              "%d; it loads Ipopt, MUMPS, HDF5, GSL, BLAS and their %d shared "
              "libraries), the IDA driver's usage message %s s.\n"
              % (ftime(fl.get("radcol")), fl.get("n", 0), fl.get("libs", 0),
                 ftime(fl.get("ida"))))
    md.append("| problem | radcol runs | 3 | 5 | 7 | 9 |")
    md.append("|---|---|---|---|---|---|")
    md.extend(inside_rows)
    md.append("")
    md.append("Fastest settings per target:\n")
    md.append("| problem | target | IDA rtol, atol | IDA digits | IDA s | radcol (est off) "
              "| digits | s | radcol, default estimate | digits | s | RSS MB |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for p in probs:
        rep = report[p.name]
        for tgt in TARGETS:
            bi = best(rep["ida"], tgt)
            br = best([r for r in rep["radcol"] if r["group"] == "off"], tgt)
            be = next((r for r in rep["estimate"] if r.get("target") == tgt), None)
            if be is None and br is not None:
                # the same mesh may serve a lower target
                key = default_args(br["args"])
                be = next((r for r in rep["estimate"] if r["args"] == key), None)
            md.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                p.name, tgt,
                "%.0e, %s" % (bi["rtol"], bi["mode"]) if bi else "-", fmt(bi["digits"]) if bi else "-",
                ftime(bi["time_s"]) if bi else "-",
                br["label"] if br else "-", fmt(br["digits"]) if br else "-",
                ftime(br["time_s"]) if br else "-",
                (be["status"] if not be.get("ok") else "ok") if be else "-",
                fmt(be.get("digits")) if be else "-",
                ftime(be["time_s"]) if be else "-",
                "%.0f" % be.get("rss_mb", 0) if be else "-"))
    md.append("")
    for p in probs:
        rep = report[p.name]
        md.append("## %s: every run\n" % p.name)
        md.append("| solver | setting | status | digits | end | grid (worst) | time s "
                  "| inside s | work |")
        md.append("|---|---|---|---|---|---|---|---|---|")
        for r in rep["ida"]:
            md.append("| IDA | rtol %.0e, atol %s | %s | %s | %s | %s (%s) | %s | %s | %s steps, %s "
                      "residuals, %s Jacobians |" % (
                          r["rtol"], r["mode"],
                          "ok" if r.get("ok") else r.get("status", "failed"),
                          fmt(r.get("digits")), fmt(r.get("digits_end")),
                          fmt(r.get("digits_grid")), r.get("worst", ""),
                          ftime(r["time_s"]), ftime(r.get("inside_s")), r.get("steps", "-"),
                          r.get("resevals", "-"), r.get("jacevals", "-")))
        for r in rep["radcol"] + rep["estimate"]:
            status = r.get("status")
            if r.get("ok") and status != "converged":
                status = "%s (exit %s)" % (status, r.get("exit"))
            md.append("| radcol | %s | %s | %s | %s | %s (%s) | %s | %s | %s %s iterations%s |"
                      % (r["label"], status if r.get("ok") else
                         "**%s**" % (status or "failed"),
                         fmt(r.get("digits")), fmt(r.get("digits_end")),
                         fmt(r.get("digits_grid")), r.get("worst", ""),
                         ftime(r["time_s"]), ftime(r.get("inside_s")), r.get("solver", ""),
                         r.get("iterations", "-"),
                         ", %.0f MB" % r["rss_mb"] if r["group"] == "default" else ""))
        md.append("")
    md.append("![work-precision](dae-workprecision.png)\n")
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as fh:
        fh.write("\n".join(md))
    with open(os.path.splitext(a.out)[0] + ".json", "w") as fh:
        json.dump({"summary": summary, "report": report}, fh, indent=1,
                  default=lambda v: None)
    plot(a, probs, report)
    print("wrote %s" % a.out)


def plot(a, probs, report):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(probs), figsize=(4.2 * len(probs), 4.2),
                             squeeze=False)
    for ax, p in zip(axes[0], probs):
        rep = report[p.name]
        for mode, st in (("scaled", "k-o"), ("scalar", "k--.")):
            ida = [r for r in rep["ida"] if r.get("ok") and r["mode"] == mode]
            ax.plot([r["digits"] for r in ida], [r["time_s"] for r in ida], st,
                    ms=3, label="IDA index 1, atol %s" % mode)
        styles = {}
        for r in rep["radcol"]:
            if not r.get("ok"):
                continue
            form = r["args"][r["args"].index("-f") + 1]
            s = r["args"][r["args"].index("-s") + 1]
            styles.setdefault((form, s), []).append(r)
        marks = {"3": "^", "5": "s"}
        for (form, s), rows in sorted(styles.items()):
            ax.plot([r["digits"] for r in rows], [r["time_s"] for r in rows],
                    marks.get(s, "o"), ms=4, alpha=0.7,
                    label="radcol %s s=%s" % (form, s))
        est = [r for r in rep["estimate"] if r.get("ok")]
        if est:
            ax.plot([r["digits"] for r in est], [r["time_s"] for r in est], "r*",
                    ms=9, label="radcol, default estimate")
        ax.set_yscale("log")
        ax.set_xlabel("significant digits (min of tf and grid)")
        ax.set_ylabel("whole command, s")
        ax.set_title(p.name)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(os.path.splitext(a.out)[0] + ".png", dpi=110)


def git_rev():
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


# ---- the adaptive march (issue 26) --------------------------------------------------

MARCH_LADDER = [10.0 ** -k for k in range(3, 12)]   # 1e-3 .. 1e-11
# the "off" runs are `--estimate local` (the march alone, see march_study)
MODE_LABEL = {"off": "est local"}


def march_forms(p):
    """The problem's formulations, in the order of bench.json's runs."""
    out = []
    for run in p.spec["runs"]:
        f = run["args"][run["args"].index("-f") + 1]
        if f not in out:
            out.append(f)
    return out


def scaled_atol_args(a, p, form, rtol, ref, work):
    """--atol NAME=rtol*max|ref_NAME| for every reference component that is a
    variable of the formulation (the names radcol refuses are left out)."""
    names = [n for n in ref if n != "t"]
    key = (p.name, form)
    known = a.march_names.get(key)
    if known is None:
        cmd = [a.radcol, "solve", p.name, "--plugin", p.lib, "-f", form,
               "--atol", "radcol-bench-no-such-name=1", "-o",
               os.path.join(work, "probe.h5")]
        r = subprocess.run(cmd, capture_output=True, text=True)
        tail = r.stderr.split("expected one of ", 1)
        known = ([n.strip(" )\n") for n in tail[1].split(",")]
                 if len(tail) == 2 else [])
        a.march_names[key] = known
    out = []
    for n in names:
        if n in known:
            scale = max(abs(v) for v in ref[n])
            out += ["--atol", "%s=%.3g" % (n, rtol * scale if scale > 0 else rtol)]
    return out


def march_study(a, probs, work):
    """IDA's ladder against `radcol solve P -f F --rtol R` with no mesh option
    (the adaptive march, its global estimate and any re-march: the default),
    atol = rtol (scalar) and per variable (scaled), and the same march with
    --estimate local (the march alone: the cost of the estimate)."""
    report = {"_floors": floors(a)}
    a.march_names = {}
    print("process floors: %s" % report["_floors"], flush=True)
    for p in probs:
        ref_head, ref = p.load_reference()
        print("== %s" % p.name, flush=True)
        ida_rows = ida_ladder(a, p, ref, work)
        rows = []
        for form in march_forms(p):
            for mode in ("scalar", "scaled", "off"):
                for rtol in MARCH_LADDER:
                    args = ["-f", form, "--rtol", "%.0e" % rtol]
                    if mode == "scaled":
                        args += scaled_atol_args(a, p, form, rtol, ref, work)
                    else:
                        args += ["--atol", "%.0e" % rtol]
                    if mode == "off":
                        # the march alone: `--estimate off` without a mesh
                        # option now solves on the problem's suggested mesh
                        # (docs/accuracy.md), `local` keeps the march and
                        # skips the enriched integration and any re-march
                        args += ["--estimate", "local"]
                    r = radcol_run(a, p, args, ref, a.repeat, a.timeout, work)
                    r.update(form=form, mode=mode, rtol=rtol)
                    rows.append(r)
                    print("  march %-7s %-6s rtol=%-6.0e %-10s digits %s time %.4f s"
                          " (solve %s, estimate %s)" % (
                              form, mode, rtol,
                              r["status"] if not r.get("ok") else "ok",
                              fmt(r.get("digits")), r["time_s"],
                              ftime(r.get("solve_s")), ftime(r.get("enriched_s"))),
                          flush=True)
        report[p.name] = {"ida": ida_rows, "march": rows}
    return report


def write_march_report(a, probs, report, cmdline):
    out = os.path.splitext(a.out)[0] + "-march.md"
    meta = report.setdefault("_meta", {})
    if not meta:
        try:
            load = "%.1f" % os.getloadavg()[0]
        except OSError:
            load = "?"
        meta.update(cmdline=cmdline, commit=git_rev(), load=load,
                    time=datetime.datetime.now(datetime.timezone.utc).strftime(
                        "%Y-%m-%d %H:%M UTC"))
    cmdline, now, load = meta["cmdline"], meta["time"], meta["load"]
    fl = report.get("_floors", {})
    md = ["# DAE work-precision: radcol's adaptive march versus SUNDIALS IDA "
          "(issue 26)\n",
          "Written by `%s` (%s, commit %s); every figure below comes from that one "
          "run. Machine: 2 cores shared with other jobs (load average %s at the "
          "end; wall times are noisy, ratios are within this run).\n"
          % (cmdline, now, meta["commit"], load),
          """- Problems, reference and digits as in dae-workprecision.md (min of the
  digits at tf and on the reference grid, over the compared components, capped
  at the reference's floor).
- radcol: `radcol solve P --plugin LIB -f F --rtol R --atol ... -o FILE.h5
  --json --quiet`, no mesh option: the adaptive Radau IIA march, its global
  estimate (the default) and the re-marches the estimate asks for (at most 3
  marches), dense diagnostics and the HDF5 file: the whole command, process
  start to exit, median of %d repeats. rtol 1e-3 .. 1e-11 in decades, every
  formulation of the problem; atol = rtol (scalar) or atol_i = rtol max|ref_i|
  per variable (scaled, as IDA's scaled mode); `estimate local`: the same
  march with `--estimate local` (atol = rtol; one march, its local estimate
  only: no enriched integration, no re-march), for the estimate's cost.
- IDA: as in dae-workprecision.md (index-1 form, exact Jacobian, rtol ladder
  1e-2 .. 1e-13 in half decades, atol scaled and scalar, whole command).
- Fastest run reaching each target, in hindsight for both (neither knows in
  advance which tolerance gives the digits).
- Process start-up: `radcol --version` %s s, the IDA driver's usage message %s s
  (median of %d).
""" % (a.repeat, ftime(fl.get("radcol")), ftime(fl.get("ida")), fl.get("n", 0))]
    md.append("## Time to reach 3 / 5 / 7 / 9 digits, default estimate included\n")
    md.append("Ratio radcol / IDA of the whole commands (< 1: radcol faster; "
              "bold: radcol slower), then (radcol s / IDA s, radcol's setting). "
              "`-`: not reached.\n")
    md.append("| problem | radcol | 3 | 5 | 7 | 9 |")
    md.append("|---|---|---|---|---|---|")
    summary = {}
    for p in probs:
        rep = report[p.name]
        rows = [r for r in rep["march"] if r["mode"] != "off"]
        groups = [("march, any form", rows)]
        for form in march_forms(p):
            groups.append(("march %s" % form, [r for r in rows if r["form"] == form]))
        groups.append(("march, estimate local (any form)",
                       [r for r in rep["march"] if r["mode"] == "off"]))
        for gname, rr in groups:
            cells = []
            for tgt in TARGETS:
                bi, br = best(rep["ida"], tgt), best(rr, tgt)
                if bi and br:
                    ratio = br["time_s"] / bi["time_s"]
                    cells.append("%s (%s / %s, %s %s %.0e)" % (
                        ("**%.2f**" if ratio > 1 else "%.2f") % ratio,
                        ftime(br["time_s"]), ftime(bi["time_s"]), br["form"],
                        MODE_LABEL.get(br["mode"], br["mode"]), br["rtol"]))
                    summary.setdefault(p.name, {}).setdefault(gname, {})[tgt] = ratio
                elif bi:
                    cells.append("- (IDA %s)" % ftime(bi["time_s"]))
                elif br:
                    cells.append("- (IDA never; radcol %s)" % ftime(br["time_s"]))
                else:
                    cells.append("-")
            md.append("| %s | %s | %s |" % (p.name, gname, " | ".join(cells)))
    md.append("")
    md.append("The same best runs timed inside the processes (radcol: `wall_s` of "
              "its --json, main() to exit, result file included; IDA: the "
              "integration alone, as its driver reports it), ratio radcol / IDA "
              "(radcol s / IDA s): what remains without the process start-up.\n")
    md.append("| problem | radcol | 3 | 5 | 7 | 9 |")
    md.append("|---|---|---|---|---|---|")
    for p in probs:
        rep = report[p.name]
        rows = [r for r in rep["march"] if r["mode"] != "off"]
        cells = []
        for tgt in TARGETS:
            bi, br = best(rep["ida"], tgt), best(rows, tgt)
            ri = br.get("inside_s") if br else None
            ii = bi.get("inside_s") if bi else None
            cells.append("%s (%s / %s)" % (
                ("**%.2f**" if ri / ii > 1 else "%.2f") % (ri / ii), ftime(ri),
                ftime(ii)) if ri and ii else "-")
        md.append("| %s | march, any form | %s |" % (p.name, " | ".join(cells)))
    md.append("")
    md.append("## The estimate's cost\n")
    md.append("Per problem and formulation, median over the rtol ladder (scalar "
              "atol, runs converged with and without the estimate): the enriched "
              "integration's own time (`error_estimate.enriched_wall_s`) over the "
              "march's (`ipopt_s`, the solve), and the whole command with the "
              "default estimate over the whole command with `--estimate local` "
              "(includes the re-marches the estimate asks for); marches: how "
              "many the default needed (1 = the first met the tolerance).\n")
    md.append("| problem | form | enriched / solve | whole default / whole local "
              "| max | marches per rtol (1e-3 .. 1e-11) |")
    md.append("|---|---|---|---|---|---|")
    for p in probs:
        rep = report[p.name]
        for form in march_forms(p):
            en, wh, nm = [], [], []
            for rtol in MARCH_LADDER:
                d = next((r for r in rep["march"] if r["form"] == form and
                          r["mode"] == "scalar" and r["rtol"] == rtol), None)
                o = next((r for r in rep["march"] if r["form"] == form and
                          r["mode"] == "off" and r["rtol"] == rtol), None)
                m = None
                if d and d.get("ok"):
                    g = re.search(r"(\d+) march", d.get("message") or "")
                    m = g.group(1) if g else "?"
                nm.append(m or "-")
                if d and o and d.get("ok") and o.get("ok"):
                    if d.get("enriched_s") and d.get("solve_s"):
                        en.append(d["enriched_s"] / d["solve_s"])
                    wh.append(d["time_s"] / o["time_s"])
            md.append("| %s | %s | %s | %s | %s | %s |" % (
                p.name, form, fmt(statistics.median(en)) if en else "-",
                fmt(statistics.median(wh)) if wh else "-",
                fmt(max(wh)) if wh else "-", " ".join(nm)))
    md.append("")
    for p in probs:
        rep = report[p.name]
        md.append("## %s: every run\n" % p.name)
        md.append("| solver | setting | status | digits | end | grid (worst) | time s "
                  "| inside s | work |")
        md.append("|---|---|---|---|---|---|---|---|---|")
        for r in rep["ida"]:
            md.append("| IDA | rtol %.0e, atol %s | %s | %s | %s | %s (%s) | %s | %s | "
                      "%s steps |" % (
                          r["rtol"], r["mode"],
                          "ok" if r.get("ok") else r.get("status", "failed"),
                          fmt(r.get("digits")), fmt(r.get("digits_end")),
                          fmt(r.get("digits_grid")), r.get("worst", ""),
                          ftime(r["time_s"]), ftime(r.get("inside_s")),
                          r.get("steps", "-")))
        for r in rep["march"]:
            st = r.get("status")
            md.append("| radcol | %s %s rtol %.0e | %s | %s | %s | %s (%s) | %s | %s | "
                      "%s steps of %s stages; %s |" % (
                          r["form"], MODE_LABEL.get(r["mode"], r["mode"]), r["rtol"],
                          st if r.get("ok") else "**%s**" % (st or "failed"),
                          fmt(r.get("digits")), fmt(r.get("digits_end")),
                          fmt(r.get("digits_grid")), r.get("worst", ""),
                          ftime(r["time_s"]), ftime(r.get("inside_s")),
                          r.get("elements", "-"), r.get("stages", "-"),
                          (r.get("message") or "").replace("|", "/")[:160]))
        md.append("")
    png = os.path.splitext(out)[0] + ".png"
    md.append("![work-precision](%s)\n" % os.path.basename(png))
    with open(out, "w") as fh:
        fh.write("\n".join(md))
    with open(os.path.splitext(out)[0] + ".json", "w") as fh:
        json.dump({"summary": summary, "report": report}, fh, indent=1,
                  default=lambda v: None)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(probs), figsize=(4.2 * len(probs), 4.2),
                             squeeze=False)
    for ax, p in zip(axes[0], probs):
        rep = report[p.name]
        for mode, st in (("scaled", "k-o"), ("scalar", "k--.")):
            ida = [r for r in rep["ida"] if r.get("ok") and r["mode"] == mode]
            ax.plot([r["digits"] for r in ida], [r["time_s"] for r in ida], st,
                    ms=3, label="IDA index 1, atol %s" % mode)
        for form in march_forms(p):
            for mode, mk in (("scalar", "-^"), ("scaled", "-s"), ("off", ":x")):
                rr = [r for r in rep["march"] if r.get("ok") and r["form"] == form
                      and r["mode"] == mode]
                if rr:
                    ax.plot([r["digits"] for r in rr], [r["time_s"] for r in rr], mk,
                            ms=3, alpha=0.8, label="radcol march %s, %s" % (
                                form, "est local" if mode == "off" else "atol " + mode))
        ax.set_yscale("log")
        ax.set_xlabel("significant digits (min of tf and grid)")
        ax.set_ylabel("whole command, s")
        ax.set_title(p.name)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=5)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print("wrote %s" % out)


# ---- references -------------------------------------------------------------------

def integrate_grid(R, grid, method, rtol, atol):
    """The reference ODE from grid point to grid point (no interpolation:
    each row is the integrator's own endpoint)."""
    from scipy.integrate import solve_ivp
    import numpy as np
    y = R.y0()
    rows = [R.full(grid[0], y)]
    drift = R.drift(grid[0], y)
    nfev = 0
    for t0, t1 in zip(grid[:-1], grid[1:]):
        s = solve_ivp(R.rhs, (t0, t1), y, method=method, rtol=rtol, atol=atol)
        if not s.success:
            raise SystemExit("%s: %s failed at t = %g: %s" % (R.__name__, method,
                                                               t0, s.message))
        nfev += s.nfev
        y = s.y[:, -1]
        rows.append(R.full(t1, y))
        drift = max(drift, R.drift(t1, y))
    return np.array(rows), drift, nfev


def make_reference(p):
    import numpy as np
    R = p.ref
    grid = p.grid()
    out = []
    for method, rtol, atol in R.METHODS:
        t0 = time.monotonic()
        rows, drift, nfev = integrate_grid(R, grid, method, rtol, atol)
        out.append((rows, drift, nfev, time.monotonic() - t0))
        print("  %s rtol %g atol %g: %d evaluations, %.1f s, constraint drift %.1e"
              % (method, rtol, atol, nfev, out[-1][3], drift), flush=True)
    m0, m1 = ("%s %g" % m[:2] for m in R.METHODS[:2])
    a, b = out[0][0], out[1][0]
    names = list(R.NAMES)
    cols_a = {n: list(a[:, j]) for j, n in enumerate(names)}
    cols_b = {n: list(b[:, j]) for j, n in enumerate(names)}
    de, dg, worst = digits(cols_a, cols_b, p.compare)
    de_all, dg_all, worst_all = digits(cols_a, cols_b, names)
    pub = np.array(R.PUBLISHED)
    rel = np.abs(a[-1] - pub) / np.abs(pub)
    pub_cmp = -math.log10(max(rel[names.index(n)] for n in p.compare))
    pub_all = -math.log10(rel.max())
    print("  %s vs %s: compared components %.2f digits at tf, %.2f on the grid "
          "(%s); all components %.2f / %.2f" % (m0, m1, de, dg, worst, de_all, dg_all))
    print("  %s vs the published y(tf): compared %.2f digits, all %.2f (per "
          "component: %s)" % (m0, pub_cmp, pub_all,
                              " ".join("%s %.1f" % (n, -math.log10(max(r, 1e-18)))
                                       for n, r in zip(names, rel))))
    with open(p.csv, "w") as fh:
        fh.write(",".join(["t"] + names) + "\n")
        for t, row in zip(grid, a):
            fh.write(",".join(repr(float(v)) for v in [t] + list(row)) + "\n")
    p.spec["independent"] = {
        "quantity": "every component on %d + 1 grid points of [0, %g] "
                    "(reference.csv)" % (len(grid) - 1, R.T_END),
        "method": "scipy %s solve_ivp %s, rtol %g, atol %g, from grid point to grid "
                  "point, on %s (reference.py)" % (
                      __import__("scipy").__version__, R.METHODS[0][0], R.METHODS[0][1],
                      R.METHODS[0][2], R.FORM),
        "check": "scipy solve_ivp %s, rtol %g, atol %g" % R.METHODS[1],
        "agreement_digits": {"compared_end": round(de, 2), "compared_grid": round(dg, 2),
                             "all_end": round(de_all, 2), "all_grid": round(dg_all, 2)},
        "vs_published_digits": {"compared": round(pub_cmp, 2), "all": round(pub_all, 2),
                                "per_component": {n: round(-math.log10(max(r, 1e-18)), 1)
                                                  for n, r in zip(names, rel)}},
        "constraint_drift": float("%.2g" % out[0][1]),
    }
    with open(os.path.join(p.dir, "bench.json"), "w") as fh:
        json.dump(p.spec, fh, indent=1)
        fh.write("\n")


# ---- failures (issue 26) ---------------------------------------------------------

def export_digits(a, p, h5, ref, work):
    """digits of a result file against the reference (None if export fails)."""
    csv = os.path.join(work, "d.csv")
    h = p.ref.T_END / int(p.spec["grid"])
    r = subprocess.run([a.radcol, "export", h5, "--step", repr(h), "--vars",
                        ",".join(p.compare), "--plugin", p.lib, "-o", csv],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None
    _, sol = read_csv(csv)
    if len(sol["time"]) != len(ref["t"]):
        return None
    return digits(ref, sol, p.compare)


def failures(a, probs, work):
    """Reproducers of today's failures, with their outputs."""
    byname = {p.name: p for p in probs}
    off = ["--estimate", "off", "--solver", "newton"]
    cases = [
        ("Newton at the default tolerance, mechanism index 3 (uniform meshes)",
         "andrews", [["-f", "index3", "-n", str(n), "-s", "3"] + off
                     for n in (100, 200, 400, 800)] +
         [["-f", "index3", "-n", "400", "-s", "3"] + off + ["--tol", "1e-8"]]),
        ("Newton at the default tolerance, mechanism index 1: a random-looking "
         "subset of meshes (the scan of benchmarks/dae/andrews/README.md failed at "
         "s = 3 for n = 10 15 25 30 240 of 10, 15, ..., 400, at s = 5 for n = 10 "
         "15 20 25 30 100 175 245 290 295 of 10, 15, ..., 300)",
         "andrews", [["-f", "index1", "-n", str(n), "-s", s] + off
                     for s, ns in (("3", (239, 240, 241)), ("5", (99, 100, 101)))
                     for n in ns]),
        ("coarse meshes, index 2 and 3: element 0, even at --tol 1e-8", "andrews",
         [["-f", f, "-n", str(n), "-s", "3"] + off + ["--tol", "1e-8"]
          for f in ("index2", "index3") for n in (50, 100)]),
        ("coarse meshes, car axis index 3", "caraxis",
         [["-f", "index3", "-n", str(n), "-s", s] + off
          for n in (10, 20) for s in ("3", "5")]),
        ("Akzo (components 1e-4 .. 0.4): uniform meshes fail in element 0 "
         "(the first Newton step takes y2 below 0: sqrt)", "akzo",
         [["-f", "index1", "-n", str(n), "-s", "3"] + off for n in (100, 500, 1000)]),
        ("--refine on the axle (p-refinement too timid) against a uniform mesh",
         "caraxis",
         [["-f", "index3", "-n", "20", "-s", "3", "--refine", "1e-6"],
          ["-f", "index1", "-n", "20", "-s", "3", "--refine", "1e-10"],
          ["-f", "index1", "-n", "240", "-s", "7", "--estimate", "off"],
          ["-f", "index3", "-n", "240", "-s", "7", "--estimate", "off"]]),
        ("the Ipopt fallback on the mechanism (--solver auto, the default)",
         "andrews", [["-f", "index3", "-n", "100", "-s", "3", "--estimate", "off"]]),
        ("the default global estimate on the mechanism: the enriched re-solve "
         "through Ipopt (the march alone: about 0.2 s)", "andrews",
         [["-f", "index3", "-n", "400", "-s", "3", "--tol", "1e-8"],
          ["-f", "index1", "-n", "400", "-s", "3"]]),
    ]
    md = ["# Failures of radcol on the DAE benchmarks, measured (issue 26)\n",
          "Written by `%s` (%s, commit %s). PLUGIN is the benchmark's plugin as "
          "scripts/bench_dae.py builds it (build/bench-dae/NAME/libNAME.so). Output: "
          "the report lines (warnings, Ipopt iterations, invariants and the "
          "constraint listing left out), the exit status, the whole command's wall "
          "time and peak memory, and for a solve that ended converged or "
          "inaccurate its digits against the independent reference (min of tf "
          "and grid, as in dae-workprecision.md).\n"
          % (" ".join(["scripts/bench_dae.py"] + sys.argv[1:]),
             datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
             git_rev())]
    for title, name, runs in cases:
        p = byname.get(name)
        if not p:
            continue
        _, ref = p.load_reference()
        md.append("## %s\n" % title)
        for args in runs:
            h5 = os.path.join(work, "f.h5")
            if os.path.exists(h5):
                os.remove(h5)
            cmd = [a.radcol, "solve", name, "--plugin", p.lib] + args + ["-o", h5]
            wall, rss, rc, out, err = timed(cmd, a.failure_timeout)
            shown = "radcol solve %s --plugin PLUGIN %s -o f.h5" % (name, " ".join(args))
            text = (err + out).replace(work + "/", "").replace(p.lib, "PLUGIN")
            lines = [l for l in text.splitlines()
                     if l.strip() and not l.startswith("warning:")
                     and not l.lstrip().startswith("iter ")
                     and "invariants" not in l and not l.startswith("              ")
                     and not l.startswith("  dense grid")]
            dig = ""
            done = rc == 0 or (rc == 1 and "inaccurate" in text)
            if done and os.path.exists(h5):
                d = export_digits(a, p, h5, ref, work)
                if d:
                    dig = ", digits %.2f (tf %.2f, grid %.2f)" % (min(d[0], d[1]), d[0],
                                                                 d[1])
            tail = lines if len(lines) <= 16 else lines[:3] + ["..."] + lines[-12:]
            if rc == "timeout":
                status = "killed after %.0f s" % a.failure_timeout
            else:
                status = "exit %s, %.2f s" % (rc, wall)
            print("  %s: %s%s" % (shown, status, dig), flush=True)
            md.append("```\n$ %s\n%s\n[%s, %.0f MB%s]\n```\n" % (
                shown, "\n".join(tail), status, rss, dig))
    with open(os.path.join(os.path.dirname(a.out), "dae-failures.md"), "w") as fh:
        fh.write("\n".join(md))
    print("wrote %s" % os.path.join(os.path.dirname(a.out), "dae-failures.md"))


# ---- the quick check (ctest) ---------------------------------------------------------

def check(a, probs, work):
    bad = 0
    for p in probs:
        ref_head, ref = p.load_reference()
        q = p.spec["quick"]
        r = radcol_run(a, p, q["args"], ref, 1, 60, work)
        ok = r.get("ok") and r["digits"] is not None and r["digits"] >= q["min_digits"]
        print("%s %s: %s %s, digits %s (end %s, grid %s), need >= %s, %.2f s" % (
            "PASS" if ok else "FAIL", p.name, " ".join(q["args"]), r.get("status"),
            fmt(r.get("digits")), fmt(r.get("digits_end")), fmt(r.get("digits_grid")),
            q["min_digits"], r["time_s"]), flush=True)
        bad += not ok
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build directory (radcol, bench/radcol_bench_ida_dae)")
    ap.add_argument("--radcol", help="radcol executable (default BUILD/radcol)")
    ap.add_argument("--ida", help="IDA driver (default BUILD/bench/radcol_bench_ida_dae)")
    ap.add_argument("--plugins", help="where the plugins are built "
                    "(default BUILD/bench-dae)")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--only", help="comma-separated problems (default: all)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max-runs", type=int, default=None,
                    help="only the first N radcol runs of each problem (a trial)")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--estimate-timeout", type=float, default=300.0)
    ap.add_argument("--ida-max-s", type=float, default=5.0,
                    help="stop an IDA ladder after a run slower than this (s)")
    ap.add_argument("--failure-timeout", type=float, default=300.0)
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "bench",
                                                  "dae-workprecision.md"))
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--reference", action="store_true")
    mode.add_argument("--failures", action="store_true")
    mode.add_argument("--check", action="store_true")
    ap.add_argument("--from-json", metavar="FILE",
                    help="with --march: rewrite the report from a run's .json "
                    "(no solving)")
    mode.add_argument("--march", action="store_true",
                      help="IDA against the adaptive march (no mesh option, the "
                      "default estimate): results/bench/dae-workprecision-march.*")
    a = ap.parse_args()
    a.radcol = a.radcol or os.path.join(a.build, "radcol")
    a.ida = a.ida or os.path.join(a.build, "bench", "radcol_bench_ida_dae")
    a.plugins = a.plugins or os.path.join(a.build, "bench-dae")
    names = a.only.split(",") if a.only else PROBLEMS
    for n in names:
        if n not in PROBLEMS:
            ap.error("--only: no problem '%s' (expected %s)" % (n, ", ".join(PROBLEMS)))
    probs = [Problem(n) for n in names]
    if a.reference:
        for p in probs:
            print("== %s" % p.name, flush=True)
            make_reference(p)
        return 0
    # two at a time (the machine's cores): sympy dominates, ~9 s of CPU in all
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda p: build_plugin(p, a.plugins, a.cc), probs))
    with tempfile.TemporaryDirectory(prefix="bench-dae.") as work:
        if a.check:
            return check(a, probs, work)
        if a.failures:
            failures(a, probs, work)
            return 0
        if not os.path.exists(a.ida):
            ap.error("no IDA driver %s: configure with -DRADCOL_BUILD_BENCH=ON" % a.ida)
        if a.march:
            if a.from_json:
                with open(a.from_json) as fh:
                    report = json.load(fh)["report"]
                for r in (r for p in probs for r in report[p.name]["march"]):
                    r["time_s"] = r["time_s"] if r["time_s"] is not None else math.inf
            else:
                report = march_study(a, probs, work)
            write_march_report(a, probs, report,
                               " ".join(["scripts/bench_dae.py"] + sys.argv[1:]))
            return 0
        report = study(a, probs, work)
        write_report(a, probs, report, " ".join(["scripts/bench_dae.py"] + sys.argv[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
