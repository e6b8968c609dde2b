#!/usr/bin/python3
"""radcol performance benchmarks (issues 9, 16): scale, evaluation cost, MUMPS
options, the square-system (Newton) path, small-solve latency, and SUNDIALS
IDA side by side.

Sections (all by default; choose with --only):
  scaling  pendulum/accel (auto: the Newton path; and --solver ipopt up to
           10^4) and crane/track, s = 3, n = 10^2 .. --max-elements:
           NLP size, iterations, wall / solver / callback times
           from `radcol solve --json`, CPU time and peak memory from
           /usr/bin/time -v; writes results/bench/scaling.md + scaling.png
  square   the square systems (pendulum accel and coord, double-pendulum
           index1, four-bar baumgarte): --solver newton against --solver
           ipopt on the same mesh, whole process, and the largest node
           difference between the two files; writes results/bench/square.md
  latency  `radcol solve pendulum -f coord -n 30 -s 3 --tf 5`, whole process,
           median of --latency-runs runs (wall and user + sys); writes
           results/bench/latency.md
  mumps    MUMPS option sets (ordering, scaling, permuting scaling, pivot
           tolerance) on one size per problem; writes results/bench/mumps.md
           (summarised in docs/performance.md)
  ida      radcol (s, n) versus IDA (rtol, atol) on pendulum/accel, tf = 5,
           both timed in the same run by the C driver bench/ida_pendulum.c;
           writes results/bench/vs-ida.md + vs-ida.png

The machine may be shared: wall times are noisy, CPU times (user + sys of
the process) less so; ratios are taken within one run.  Reads radcol only
through its documented --json output, the documented HDF5 layout (square:
/solution) and the driver's JSON lines.

--quick runs a reduced set in under a minute (no files written unless
--write): the IDA targets with the settings that reach them, the square rows
on small meshes and 10 latency runs, and prints the ratios.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

PROBLEMS = [("pendulum", "accel"), ("crane", "track")]
# Scaling rows: (problem, formulation, --solver or None, largest n or None).
SCALING = [("pendulum", "accel", None, None),
           ("pendulum", "accel", "ipopt", 10000),
           ("crane", "track", None, None)]
# The square systems of the `square` section (default parameters unless
# set), with the mesh of the comparison.
SQUARE = [("pendulum", "accel", ["--tf", "5"], 30, 3),
          ("pendulum", "accel", ["--tf", "5"], 1000, 3),
          ("pendulum", "coord", ["--tf", "5"], 30, 3),
          ("double-pendulum", "index1", [], 40, 3),
          ("double-pendulum", "index1", [], 400, 3),
          ("four-bar", "baumgarte", [], 40, 3),
          ("four-bar", "baumgarte", [], 400, 3)]
LATENCY_CMD = ["solve", "pendulum", "-f", "coord", "-n", "30", "-s", "3",
               "--tf", "5", "--quiet"]

# MUMPS option sets compared by the `mumps` section: name -> --ipopt list.
# radcol's defaults are set in src/nlp/ipopt_adapter.c; "ipopt-default" undoes
# them to show what Ipopt 3.11 alone would pick.
IPOPT_DEFAULTS = ["mumps_pivot_order=7", "mumps_permuting_scaling=7",
                  "mumps_scaling=77", "mumps_pivtol=1e-6",
                  "mumps_mem_percent=1000"]
MUMPS_SETS = [
    ("ipopt-default (7/7/77)", IPOPT_DEFAULTS),
    ("radcol default", []),
    ("perm_scaling=0", ["mumps_permuting_scaling=0"]),
    ("perm_scaling=4", ["mumps_permuting_scaling=4"]),
    ("scaling=0", ["mumps_scaling=0", "mumps_permuting_scaling=7"]),
    ("order=0 AMD", ["mumps_pivot_order=0"]),
    ("order=5 METIS", ["mumps_pivot_order=5"]),
    ("order=6 QAMD", ["mumps_pivot_order=6"]),
    ("order=7 auto", ["mumps_pivot_order=7"]),
    ("pivtol=1e-4", ["mumps_pivtol=1e-4"]),
    ("mem_percent=100", ["mumps_mem_percent=100"]),
]


def run_solve(radcol, problem, form, n, s, extra, workdir, timeout,
              solver=None, args=(), keep=None):
    """One `radcol solve --json` under /usr/bin/time -v.  Returns a dict
    (the JSON plus cpu_s, rss_mb) or {'status': 'timeout'|'error'}.  keep:
    a file name to write (kept) instead of the scratch file."""
    out = os.path.join(workdir, keep or "b.h5")
    cmd = ["/usr/bin/time", "-v", radcol, "solve", problem, "-f", form,
           "-n", str(n), "-s", str(s), "--json", "--quiet", "-o", out]
    cmd += list(args)
    if solver:
        cmd += ["--solver", solver]
    for kv in extra:
        cmd += ["--ipopt", kv]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "elapsed": time.monotonic() - t0}
    try:
        d = json.loads(p.stdout)
    except ValueError:
        return {"status": "error", "stderr": p.stderr[-400:]}
    def grab(key):
        m = re.search(re.escape(key) + r":\s*([0-9.:]+)", p.stderr)
        return m.group(1) if m else None
    d["cpu_s"] = float(grab("User time (seconds)") or "nan") + \
        float(grab("System time (seconds)") or "nan")
    d["rss_mb"] = float(grab("Maximum resident set size (kbytes)") or "nan") / 1024
    d["elapsed"] = time.monotonic() - t0
    if os.path.exists(out) and not keep:
        os.remove(out)
    return d


def fmt(v, spec=".3g"):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return format(v, spec)


# ---- scaling ------------------------------------------------------------------

def section_scaling(a, workdir):
    sizes = [n for n in (100, 1000, 10000, 100000) if n <= a.max_elements]
    rows = []
    for problem, form, solver, nmax in SCALING:
        for n in sizes:
            if nmax and n > nmax:
                continue
            if problem == "crane" and n > a.crane_max_elements:
                continue
            d = run_solve(a.radcol, problem, form, n, 3, [], workdir, a.timeout,
                          solver=solver)
            d.update(problem=problem, formulation=form, n=n,
                     req_solver=solver or "auto")
            rows.append(d)
            if "variables" in d:
                cb = d["eval_s"] / max(d["eval_s"] + d["ipopt_s"], 1e-300)
                print(f"{problem}/{form} [{d['solver']}] n={n}: {d['variables']} vars, "
                      f"{d['iterations']} it, wall {d['wall_s']:.2f} s, "
                      f"ipopt {d['ipopt_s']:.2f} s, eval {d['eval_s']:.3f} s "
                      f"({100 * cb:.2f}%), cpu {d['cpu_s']:.2f} s, "
                      f"rss {d['rss_mb']:.0f} MB", flush=True)
            else:
                print(f"{problem}/{form} n={n}: {d['status']}", flush=True)
    write_scaling(a, rows)


def write_scaling(a, rows):
    lines = [
        "# Scaling: pendulum/accel and crane/track, s = 3",
        "",
        f"Written by `scripts/bench.py --only scaling --max-elements "
        f"{a.max_elements}` ({time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC). "
        "Each row is one `radcol solve P -f F -n N -s 3 --json` under "
        "`/usr/bin/time -v` with radcol's default options (solver auto: "
        "pendulum/accel is a square system, solved by Newton element by "
        "element; its `--solver ipopt` rows show the NLP path).",
        "",
        "- wall: the CLI's wall_s (setup, solve, reference, diagnostics, HDF5 write);",
        "  solver s: Ipopt + MUMPS inside IpoptSolve, or Newton's own work (LU, solves),",
        "  callbacks excluded; eval: radcol's",
        "  callbacks; cb share = eval / (solver + eval); cpu: user + sys of the process;",
        "  rss: peak resident memory.  The machine is shared: wall times are inflated",
        "  by other jobs, cpu is the steadier figure; us/elem uses cpu.",
        "",
        "| problem | solver | n | variables | constraints | nnz jac | nnz hes | iter | wall s | "
        "solver s | eval s | cb share | cpu s | rss MB | cpu us/elem |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for d in rows:
        if "variables" not in d:
            lines.append(f"| {d['problem']}/{d['formulation']} | - | {d['n']} | "
                         f"{d['status']} |" + " |" * 11)
            continue
        cb = d["eval_s"] / max(d["eval_s"] + d["ipopt_s"], 1e-300)
        lines.append(
            f"| {d['problem']}/{d['formulation']} | {d.get('solver', '-')} | {d['n']} | {d['variables']} | "
            f"{d['constraints']} | {d['nnz_jac']} | {d['nnz_hes']} | {d['iterations']} | "
            f"{d['wall_s']:.3f} | {d['ipopt_s']:.3f} | {d['eval_s']:.4f} | "
            f"{100 * cb:.2f}% | {d['cpu_s']:.2f} | {d['rss_mb']:.0f} | "
            f"{1e6 * d['cpu_s'] / d['n']:.0f} |")
    os.makedirs(a.outdir, exist_ok=True)
    if plot_scaling(rows, os.path.join(a.outdir, "scaling.png")):
        lines += ["", "![scaling](scaling.png)"]
    write_report(a.outdir, "scaling.md", "\n".join(lines) + "\n")


def write_report(outdir, name, text):
    """Writes one results file under outdir (created if missing) and says so."""
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, name)
    with open(path, "w") as f:
        f.write(text)
    print("wrote", path)


def pyplot():
    """matplotlib's pyplot on the Agg backend, or None (a report without a plot)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return None
    return plt


def plot_scaling(rows, png):
    plt = pyplot()
    if plt is None:
        return False
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
    for (problem, form, solver, _), mk in zip(SCALING, "o^s"):
        rs = [d for d in rows if d.get("problem") == problem and "variables" in d
              and d["req_solver"] == (solver or "auto")]
        if not rs:
            continue
        n = [d["n"] for d in rs]
        lab = f"{problem}/{form} [{rs[0].get('solver', '?')}]"
        ax[0].loglog(n, [max(d["cpu_s"], 5e-3) for d in rs], mk + "-",
                     label=lab + " cpu (>= 5 ms: /usr/bin/time resolution)")
        ax[0].loglog(n, [max(d["ipopt_s"], 1e-5) for d in rs], mk + "--", label=lab + " solver (wall)")
        ax[0].loglog(n, [max(d["eval_s"], 1e-5) for d in rs], mk + ":", label=lab + " eval (wall)")
        ax[1].loglog(n, [d["rss_mb"] for d in rs], mk + "-", label=lab)
    ax[0].set_xlabel("elements n (s = 3)")
    ax[0].set_ylabel("seconds")
    ax[0].legend(fontsize=7)
    ax[0].grid(True, which="both", alpha=0.3)
    ax[1].set_xlabel("elements n (s = 3)")
    ax[1].set_ylabel("peak RSS (MB)")
    ax[1].legend(fontsize=7)
    ax[1].grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    return True


# ---- mumps ----------------------------------------------------------------------

def section_mumps(a, workdir):
    sizes = [("pendulum", "accel", a.mumps_elements), ("crane", "track", 1000)]
    lines = ["| options | problem | n | iter | cpu s | ipopt s (wall) | rss MB | status |",
             "|---|---|---|---|---|---|---|---|"]
    for name, extra in MUMPS_SETS:
        for problem, form, n in sizes:
            best = None
            for _ in range(a.mumps_repeat):
                d = run_solve(a.radcol, problem, form, n, 3, extra, workdir,
                              a.mumps_timeout, solver="ipopt")
                if "variables" not in d:
                    best = d
                    break
                if best is None or d["cpu_s"] < best["cpu_s"]:
                    best = d
            d = best
            if "variables" in d:
                row = (f"| {name} | {problem}/{form} | {n} | {d['iterations']} | "
                       f"{d['cpu_s']:.2f} | {d['ipopt_s']:.2f} | {d['rss_mb']:.0f} | "
                       f"{d['status']} |")
            else:
                row = (f"| {name} | {problem}/{form} | {n} | - | > {a.mumps_timeout} s "
                       f"wall | - | - | {d['status']} |")
            lines.append(row)
            print(row, flush=True)
    write_report(
        a.outdir, "mumps.md",
        "# MUMPS options (scripts/bench.py --only mumps)\n\n"
        "Every run uses `--solver ipopt` (pendulum/accel is a square "
        "system that the default solver integrates by Newton).\n\n"
        f"cpu = user + sys of the process, minimum of {a.mumps_repeat} runs; "
        f"wall clock timeout {a.mumps_timeout} s.\n\n" + "\n".join(lines) + "\n")


# ---- ida ------------------------------------------------------------------------

TARGETS = [1e-4, 1e-6, 1e-8, 1e-10]


def section_ida(a, workdir):
    if not os.path.exists(a.bench_ida):
        sys.exit(f"bench.py: {a.bench_ida} not found: configure with "
                 "-DRADCOL_BUILD_BENCH=ON (needs libsundials-dev) and build "
                 "radcol_bench_ida, or pass --bench-ida")
    specs = []
    for k in range(2, 14):  # IDA: rtol 1e-2 .. 1e-13, atol = rtol / 100
        specs.append(f"ida:1e-{k}:1e-{k + 2}")
    radcol = {2: [10, 20, 40, 80, 160, 320, 640, 1280, 2560],
              3: [5, 10, 20, 40, 80, 160, 320, 640, 1280],
              4: [5, 10, 20, 40, 80, 160, 320],
              5: [5, 10, 20, 40, 80, 160],
              6: [5, 10, 20, 30, 40, 80],
              8: [5, 10, 15, 20, 30, 40],
              10: [5, 10, 15, 20]}
    for s, ns in radcol.items():
        specs += [f"radcol:{s}:{n}" for n in ns]
    # the NLP path at the settings it needed before the Newton path existed
    specs += [f"radcol:{s}:{n}:ipopt" for s, n in IPOPT_IDA]
    # the adaptive march (no mesh; radcol/march.h), alone and with its global
    # estimate and the re-marches it asks for (what `radcol solve` does)
    for k in range(3, 12):
        specs += [f"march:1e-{k}", f"march+est:1e-{k}"]
    runs = run_ida_driver(a, specs)
    write_ida(a, runs)


# (s, n) of the fastest Ipopt-path settings per target (results/bench/vs-ida.md
# before the Newton path), rerun with --solver ipopt for comparison.
IPOPT_IDA = [(6, 10), (8, 15), (8, 20), (10, 20)]


def run_ida_driver(a, specs):
    cmd = [a.bench_ida, "--repeat", str(a.repeat)] + specs
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    runs = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    runs = [r for r in runs if r["ok"]]
    for r in runs:
        tag = (f"IDA rtol={r['rtol']:.0e} atol={r['atol']:.0e} ({r['steps']} steps)"
               if r["method"] == "ida" else
               f"{r['method']} rtol={r['rtol']:.0e} ({r['steps']} steps)"
               if r["method"].startswith("march") else
               f"radcol s={r['s']} n={r['n']} {r.get('solver', 'auto')} "
               f"({r['iterations']} it)")
        if not a.quick:
            print(f"{tag:45s} error {r['error']:.2e} time {r['time_s']:.2e} s")
    return runs


def best_per_target(runs, solver="auto", method="radcol"):
    """{target: (radcol run, ida run)}, fastest run reaching each target."""
    out = {}
    for tgt in TARGETS:
        rc = [r for r in runs if r["method"] == method and r["error"] <= tgt
              and r.get("solver", "auto") == solver]
        ida = [r for r in runs if r["method"] == "ida" and r["error"] <= tgt]
        out[tgt] = (min(rc, key=lambda r: r["time_s"]) if rc else None,
                    min(ida, key=lambda r: r["time_s"]) if ida else None)
    return out


def write_ida(a, runs):
    lines = [
        "# radcol versus SUNDIALS IDA: index-1 pendulum (pendulum/accel, tf = 5)",
        "",
        f"Written by `scripts/bench.py --only ida --repeat {a.repeat}` "
        f"({time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC); every figure "
        "below comes from one run of `radcol_bench_ida` (bench/ida_pendulum.c), "
        "which times both solvers in the same process.",
        "",
        "- Error: max over x, y, u, v, T and over the method's own points (IDA: every",
        "  internal step; radcol: every collocation node, interior stages included) of",
        "  |z - z_ref|, z_ref the angle ODE integrated by GSL rk8pd at 1e-13.",
        "- Time: wall clock of the solve only (IDA: create + init + integrate; radcol:",
        "  rc_solve with the default solver auto, which integrates this square",
        "  system by Newton element by element (src/nlp/newton.c); rows marked ipopt",
        "  solve the same equations as one NLP with Ipopt + MUMPS), minimum of "
        f"{a.repeat} repeats.",
        "- IDA: dense direct linear solver, analytic Jacobian, atol = rtol/100, T marked",
        "  algebraic.  radcol: uniform mesh, default options (tol 1e-10).",
        "- march: the adaptive Radau IIA march without a mesh (radcol/march.h) at",
        "  rtol = atol (rc_march_solve); march+est: the march to tolerance with its",
        "  global estimate and any re-march it asks for (rc_march_refined), which",
        "  is what `radcol solve pendulum -f accel` does (the whole command adds",
        "  process start, diagnostics and the HDF5 file: see docs/march.md).",
        "- Fastest setting reaching each target (error <= target):",
        "",
        "| target | radcol (s, n) | radcol error | radcol time s | IDA (rtol) | IDA error | "
        "IDA time s | radcol / IDA | Ipopt path / IDA | march (rtol) / IDA | "
        "march+est (rtol) / IDA |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    best = best_per_target(runs)
    best_ip = best_per_target(runs, "ipopt")
    best_m = best_per_target(runs, method="march")
    best_me = best_per_target(runs, method="march+est")
    for tgt in TARGETS:
        br, bi = best[tgt]
        bp = best_ip[tgt][0]
        bm, bme = best_m[tgt][0], best_me[tgt][0]
        c1 = (f"s={br['s']}, n={br['n']} | {br['error']:.1e} | {br['time_s']:.2e}"
              if br else "not reached | - | -")
        c2 = (f"{bi['rtol']:.0e} | {bi['error']:.1e} | {bi['time_s']:.2e}"
              if bi else "not reached | - | -")
        ratio = f"{br['time_s'] / bi['time_s']:.2f}" if br and bi else "-"
        rip = (f"{bp['time_s'] / bi['time_s']:.1f} (s={bp['s']}, n={bp['n']})"
               if bp and bi else "-")
        rm = (f"{bm['time_s'] / bi['time_s']:.2f} ({bm['rtol']:.0e}, "
              f"{bm['time_s']:.2e} s)" if bm and bi else "-")
        rme = (f"{bme['time_s'] / bi['time_s']:.2f} ({bme['rtol']:.0e}, "
               f"{bme['time_s']:.2e} s)" if bme and bi else "-")
        lines.append(f"| {tgt:.0e} | {c1} | {c2} | {ratio} | {rip} | {rm} | {rme} |")
    lines += ["", "All runs:", "", "| method | setting | error | time s | work |",
              "|---|---|---|---|---|"]
    for r in runs:
        if r["method"] == "ida":
            lines.append(f"| IDA | rtol={r['rtol']:.0e} atol={r['atol']:.0e} | "
                         f"{r['error']:.2e} | {r['time_s']:.2e} | {r['steps']} steps, "
                         f"{r['resevals']} residuals, {r['jacevals']} Jacobians |")
        elif r["method"].startswith("march"):
            lines.append(f"| {r['method']} | rtol={r['rtol']:.0e} | "
                         f"{r['error']:.2e} | {r['time_s']:.2e} | {r['steps']} "
                         f"steps, {r['marches']} march(es), {r['nodes']} nodes |")
        else:
            it = ("Ipopt iterations" if r.get("solver") == "ipopt"
                  else "Newton iterations")
            lines.append(f"| radcol {r.get('solver', 'auto')} | s={r['s']} n={r['n']} | "
                         f"{r['error']:.2e} | {r['time_s']:.2e} | {r['iterations']} "
                         f"{it}, {r['nodes']} nodes |")
    os.makedirs(a.outdir, exist_ok=True)
    if plot_ida(runs, os.path.join(a.outdir, "vs-ida.png")):
        lines += ["", "![work-precision](vs-ida.png)"]
    write_report(a.outdir, "vs-ida.md", "\n".join(lines) + "\n")


def plot_ida(runs, png):
    plt = pyplot()
    if plt is None:
        return False
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    ida = sorted([r for r in runs if r["method"] == "ida"], key=lambda r: r["rtol"])
    ax.loglog([r["error"] for r in ida], [r["time_s"] for r in ida], "k*-",
              label="IDA (rtol 1e-2..1e-13)")
    for s in sorted({r["s"] for r in runs if r["method"] == "radcol"}):
        rs = sorted([r for r in runs if r["method"] == "radcol" and r["s"] == s
                     and r.get("solver", "auto") == "auto"],
                    key=lambda r: r["n"])
        ax.loglog([r["error"] for r in rs], [r["time_s"] for r in rs], "o-",
                  label=f"radcol s={s}", ms=4)
    for m, style in (("march", "s-"), ("march+est", "D-")):
        ms = sorted([r for r in runs if r["method"] == m],
                    key=lambda r: -r["rtol"])
        if ms:
            ax.loglog([r["error"] for r in ms], [r["time_s"] for r in ms], style,
                      label=f"radcol {m} (rtol 1e-3..1e-11)", ms=4, lw=2)
    ip = sorted([r for r in runs if r["method"] == "radcol"
                 and r.get("solver") == "ipopt"], key=lambda r: r["error"])
    if ip:
        ax.loglog([r["error"] for r in ip], [r["time_s"] for r in ip], "kx",
                  label="radcol --solver ipopt", ms=6)
    for t in TARGETS:
        ax.axvline(t, color="grey", lw=0.5, ls=":")
    ax.invert_xaxis()
    ax.set_xlabel("max error vs reference (x, y, u, v, T at the method's points)")
    ax.set_ylabel("solve wall time (s), min of repeats")
    ax.set_title("pendulum/accel, tf = 5: work-precision")
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    return True


# ---- square systems: Newton versus Ipopt -----------------------------------------

def node_difference(f1, f2):
    """max over /solution variables and nodes of |a - b| / (1 + |b|)."""
    try:
        import h5py
        import numpy as np
    except ImportError:
        return float("nan")
    with h5py.File(f1, "r") as a, h5py.File(f2, "r") as b:
        m = 0.0
        for k, v in a["solution"].items():
            if k == "time" or not isinstance(v, h5py.Dataset):
                continue
            x, y = v[()], b["solution"][k][()]
            if x.size:
                m = max(m, float(np.max(np.abs(x - y) / (1.0 + np.abs(y)))))
        return m


def run_square(a, workdir, cases):
    rows = []
    for problem, form, extra, n, s in cases:
        d = {"problem": problem, "formulation": form, "n": n, "s": s,
             "args": " ".join(extra)}
        for solver in ("newton", "ipopt"):
            r = run_solve(a.radcol, problem, form, n, s, [], workdir, a.timeout,
                          solver=solver, args=extra, keep=solver + ".h5")
            d[solver] = r
        ok = all("variables" in d[k] for k in ("newton", "ipopt"))
        d["diff"] = (node_difference(os.path.join(workdir, "newton.h5"),
                                     os.path.join(workdir, "ipopt.h5"))
                     if ok else float("nan"))
        rows.append(d)
        if ok:
            dn, di = d["newton"], d["ipopt"]
            print(f"{problem}/{form} n={n} s={s}: newton wall {dn['wall_s']:.3f} s "
                  f"(solve {dn['ipopt_s'] + dn['eval_s']:.4f} s), ipopt wall "
                  f"{di['wall_s']:.3f} s (solve {di['ipopt_s'] + di['eval_s']:.4f} s), "
                  f"solve ratio ipopt/newton "
                  f"{(di['ipopt_s'] + di['eval_s']) / max(dn['ipopt_s'] + dn['eval_s'], 1e-9):.0f}, "
                  f"node difference {d['diff']:.1e}", flush=True)
        else:
            print(f"{problem}/{form} n={n} s={s}: failed "
                  f"({d['newton'].get('status')}, {d['ipopt'].get('status')})",
                  flush=True)
    return rows


def section_square(a, workdir):
    rows = run_square(a, workdir, SQUARE)
    lines = [
        "# Square systems: Newton element by element versus the Ipopt NLP",
        "",
        f"Written by `scripts/bench.py --only square` "
        f"({time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC), one run.  Each "
        "row solves the same mesh twice, `radcol solve P -f F -n N -s S --solver "
        "newton` and `--solver ipopt`, each under `/usr/bin/time -v`.",
        "",
        "- solve s: the solver's own time plus callbacks (--json ipopt_s + eval_s);",
        "  wall s: the whole command (set-up, solve, reference, diagnostics, HDF5);",
        "  cpu s: user + sys of the process; rss: peak memory.",
        "- node difference: max over every variable and node of |newton - ipopt| /",
        "  (1 + |ipopt|), read from the two result files (/solution).",
        "",
        "| problem | n x s | newton it | newton solve s | newton wall s | newton cpu s | "
        "ipopt it | ipopt solve s | ipopt wall s | ipopt cpu s | solve ratio | "
        "cpu ratio | node difference |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for d in rows:
        dn, di = d["newton"], d["ipopt"]
        if "variables" not in dn or "variables" not in di:
            lines.append(f"| {d['problem']}/{d['formulation']} {d['args']} | "
                         f"{d['n']} x {d['s']} | failed |" + " |" * 10)
            continue
        sn, si = dn["ipopt_s"] + dn["eval_s"], di["ipopt_s"] + di["eval_s"]
        lines.append(
            f"| {d['problem']}/{d['formulation']} {d['args']} | {d['n']} x {d['s']} | "
            f"{dn['iterations']} | {sn:.4f} | {dn['wall_s']:.3f} | {dn['cpu_s']:.2f} | "
            f"{di['iterations']} | {si:.4f} | {di['wall_s']:.3f} | {di['cpu_s']:.2f} | "
            f"{si / max(sn, 1e-9):.0f} | {di['cpu_s'] / max(dn['cpu_s'], 1e-3):.1f} | "
            f"{d['diff']:.1e} |")
    write_report(a.outdir, "square.md", "\n".join(lines) + "\n")


# ---- latency of a small solve ---------------------------------------------------

def run_latency(a, workdir, runs, binary=None, baseline=None):
    """Median wall and user + sys of `radcol LATENCY_CMD` over runs; with a
    baseline binary, the two alternate run by run (same load) and the
    baseline's figures come back under "baseline"."""
    import resource
    out = os.path.join(workdir, "lat.h5")
    bins = [binary or a.radcol] + ([baseline] if baseline else [])
    walls, cpus = [[] for _ in bins], [[] for _ in bins]
    for _ in range(runs):
        for k, b in enumerate(bins):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            p = subprocess.run([b] + LATENCY_CMD + ["-o", out],
                               capture_output=True, text=True, timeout=60)
            walls[k].append(time.perf_counter() - t0)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus[k].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
            if p.returncode != 0:
                sys.exit(f"bench.py: latency run of {b} failed ({p.returncode}): "
                         f"{p.stderr[-300:]}")
    res = []
    for w, c in zip(walls, cpus):
        w.sort()
        c.sort()
        res.append({"runs": runs, "wall_median": w[runs // 2], "wall_min": w[0],
                    "wall_max": w[-1], "cpu_median": c[runs // 2],
                    "load": os.getloadavg()})
    if baseline:
        res[0]["baseline"] = res[1]
    return res[0]


def section_latency(a, workdir):
    d = run_latency(a, workdir, a.latency_runs, baseline=a.baseline)
    cmd = "radcol " + " ".join(LATENCY_CMD) + " -o FILE"
    print(f"latency: {cmd}: median wall {1e3 * d['wall_median']:.1f} ms "
          f"(min {1e3 * d['wall_min']:.1f}, max {1e3 * d['wall_max']:.1f}), median "
          f"cpu {1e3 * d['cpu_median']:.1f} ms, load {d['load'][0]:.1f}")
    if "baseline" in d:
        b = d["baseline"]
        print(f"  baseline {a.baseline}: median wall {1e3 * b['wall_median']:.1f} ms, "
              f"median cpu {1e3 * b['cpu_median']:.1f} ms")
    lines = [
        "# Small-solve latency",
        "",
        f"Written by `scripts/bench.py --only latency"
        f"{' --baseline OLD/radcol' if 'baseline' in d else ''}` "
        f"({time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC): `{cmd}`, "
        f"{d['runs']} runs, whole process (Python's perf_counter around the "
        "child; cpu = user + sys from getrusage).  Load average during the "
        f"run: {d['load'][0]:.1f} / {d['load'][1]:.1f} / {d['load'][2]:.1f} "
        "on 2 cores, so wall is inflated by the other jobs; cpu is what an idle "
        "machine would take, plus the fsync of the result file.",
        "",
        "| binary | runs | median wall ms | min wall ms | max wall ms | median cpu ms |",
        "|---|---|---|---|---|---|",
        f"| --radcol | {d['runs']} | {1e3 * d['wall_median']:.1f} | "
        f"{1e3 * d['wall_min']:.1f} | {1e3 * d['wall_max']:.1f} | "
        f"{1e3 * d['cpu_median']:.1f} |",
    ] + ([
        f"| --baseline (run alternately) | {d['baseline']['runs']} | "
        f"{1e3 * d['baseline']['wall_median']:.1f} | "
        f"{1e3 * d['baseline']['wall_min']:.1f} | {1e3 * d['baseline']['wall_max']:.1f} | "
        f"{1e3 * d['baseline']['cpu_median']:.1f} |"] if "baseline" in d else []) + [
        "",
        "The profile behind these figures is in docs/performance.md.",
    ]
    write_report(a.outdir, "latency.md", "\n".join(lines) + "\n")


# ---- quick ----------------------------------------------------------------------

def quick(a, workdir):
    """Reduced set in under a minute; prints the ratios, writes nothing."""
    t0 = time.monotonic()
    if os.path.exists(a.bench_ida):
        specs = [f"ida:1e-{k}:1e-{k + 2}" for k in range(4, 14)]
        for s, ns in {4: [10, 20, 40], 5: [10, 20, 40, 80], 6: [10, 20, 30, 40],
                      8: [10, 15, 20, 30], 10: [10, 15, 20]}.items():
            specs += [f"radcol:{s}:{n}" for n in ns]
        specs += [f"radcol:{s}:{n}:ipopt" for s, n in IPOPT_IDA]
        runs = run_ida_driver(a, specs)
        best, best_ip = best_per_target(runs), best_per_target(runs, "ipopt")
        for tgt in TARGETS:
            br, bi = best[tgt]
            bp = best_ip[tgt][0]
            if br and bi:
                print(f"vs IDA, target {tgt:.0e}: radcol s={br['s']} n={br['n']} "
                      f"{1e3 * br['time_s']:.3f} ms, IDA rtol {bi['rtol']:.0e} "
                      f"{1e3 * bi['time_s']:.3f} ms, ratio radcol/IDA "
                      f"{br['time_s'] / bi['time_s']:.2f}"
                      + (f" (Ipopt path {bp['time_s'] / bi['time_s']:.1f})" if bp else ""))
            else:
                print(f"vs IDA, target {tgt:.0e}: not reached")
    else:
        print(f"vs IDA: skipped ({a.bench_ida} not built)")
    run_square(a, workdir, [c for c in SQUARE if c[3] <= 40])
    d = run_latency(a, workdir, 10)
    print(f"latency (radcol {' '.join(LATENCY_CMD)}): median wall "
          f"{1e3 * d['wall_median']:.1f} ms, median cpu {1e3 * d['cpu_median']:.1f} ms, "
          f"load {d['load'][0]:.1f}")
    r = run_solve(a.radcol, "pendulum", "accel", 10000, 3, [], workdir, 120)
    if "variables" in r:
        print(f"pendulum accel n=10^4 s=3 [{r['solver']}]: wall {r['wall_s']:.2f} s, "
              f"cpu {r['cpu_s']:.2f} s, rss {r['rss_mb']:.0f} MB")
    print(f"quick: {time.monotonic() - t0:.1f} s")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--radcol", default=os.environ.get("RADCOL", "radcol"),
                    help="radcol executable (default: $RADCOL or radcol on PATH)")
    ap.add_argument("--bench-ida", default=os.environ.get("RADCOL_BENCH_IDA", ""),
                    help="the radcol_bench_ida driver (default: next to --radcol in "
                         "bench/)")
    ap.add_argument("--only", choices=["scaling", "mumps", "ida", "square", "latency"],
                    action="append",
                    help="run only these sections (repeatable; default all)")
    ap.add_argument("--quick", action="store_true",
                    help="reduced set in under a minute that prints the ratios "
                         "(vs IDA, Newton vs Ipopt, latency) and writes no file")
    ap.add_argument("--baseline", metavar="RADCOL",
                    help="latency: another radcol binary (e.g. a build of an older "
                         "commit) run alternately with --radcol under the same load")
    ap.add_argument("--latency-runs", type=int, default=10,
                    help="runs of the latency command (median kept; default 10)")
    ap.add_argument("--max-elements", type=int, default=100000,
                    help="largest n in the scaling section (default 100000)")
    ap.add_argument("--crane-max-elements", type=int, default=100000,
                    help="largest crane/track n in the scaling section (its "
                         "10^5 run takes minutes and about 4 GB; default 100000)")
    ap.add_argument("--mumps-elements", type=int, default=3000,
                    help="pendulum n in the mumps section (default 3000)")
    ap.add_argument("--mumps-timeout", type=float, default=60,
                    help="wall seconds before a mumps run is called pathological")
    ap.add_argument("--mumps-repeat", type=int, default=1,
                    help="repeats per mumps run (min cpu is kept; default 1)")
    ap.add_argument("--timeout", type=float, default=900,
                    help="wall seconds per scaling run (default 900)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="repeats for timing (min is kept; default 3)")
    ap.add_argument("--outdir", default=os.path.join(ROOT, "results", "bench"),
                    help="where the .md and .png files go (default results/bench)")
    a = ap.parse_args()
    if os.sep not in a.radcol:
        from shutil import which
        found = which(a.radcol)
        if not found:
            sys.exit("bench.py: radcol not found: pass --radcol BUILD/radcol")
        a.radcol = found
    a.radcol = os.path.abspath(a.radcol)
    if not a.bench_ida:
        a.bench_ida = os.path.join(os.path.dirname(a.radcol), "bench",
                                   "radcol_bench_ida")
    sections = a.only or ["scaling", "mumps", "ida", "square", "latency"]
    with tempfile.TemporaryDirectory(prefix="radcol-bench-") as workdir:
        if a.quick:
            quick(a, workdir)
            return
        if "latency" in sections:
            section_latency(a, workdir)
        if "square" in sections:
            section_square(a, workdir)
        if "ida" in sections:
            section_ida(a, workdir)
        if "mumps" in sections:
            section_mumps(a, workdir)
        if "scaling" in sections:
            section_scaling(a, workdir)


if __name__ == "__main__":
    main()
