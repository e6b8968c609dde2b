#!/usr/bin/python3
"""radcol performance benchmarks (issue 9): scale, evaluation cost, MUMPS
options, and SUNDIALS IDA side by side.

Sections (all by default; choose with --only):
  scaling  pendulum/accel and crane/track, s = 3, n = 10^2 .. --max-elements:
           NLP size, Ipopt iterations, wall / Ipopt+MUMPS / callback times
           from `radcol solve --json`, CPU time and peak memory from
           /usr/bin/time -v; writes results/bench/scaling.md + scaling.png
  mumps    MUMPS option sets (ordering, scaling, permuting scaling, pivot
           tolerance) on one size per problem; writes results/bench/mumps.md
           (summarised in docs/performance.md)
  ida      radcol (s, n) versus IDA (rtol, atol) on pendulum/accel, tf = 5,
           both timed in the same run by the C driver bench/ida_pendulum.c;
           writes results/bench/vs-ida.md + vs-ida.png

The machine may be shared: wall times are noisy, CPU times (user + sys of
the process) less so; ratios are taken within one run.  Reads radcol only
through its documented --json output and the driver's JSON lines.
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

# MUMPS option sets compared by the `mumps` section: name -> --ipopt list.
# radcol's defaults are set in src/ipopt_adapter.c; "ipopt-default" undoes
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


def run_solve(radcol, problem, form, n, s, extra, workdir, timeout):
    """One `radcol solve --json` under /usr/bin/time -v.  Returns a dict
    (the JSON plus cpu_s, rss_mb) or {'status': 'timeout'|'error'}."""
    out = os.path.join(workdir, "b.h5")
    cmd = ["/usr/bin/time", "-v", radcol, "solve", problem, "-f", form,
           "-n", str(n), "-s", str(s), "--json", "--quiet", "-o", out]
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
    if os.path.exists(out):
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
    for problem, form in PROBLEMS:
        for n in sizes:
            d = run_solve(a.radcol, problem, form, n, 3, [], workdir, a.timeout)
            d.update(problem=problem, formulation=form, n=n)
            rows.append(d)
            if "variables" in d:
                cb = d["eval_s"] / max(d["eval_s"] + d["ipopt_s"], 1e-300)
                print(f"{problem}/{form} n={n}: {d['variables']} vars, "
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
        "`/usr/bin/time -v` with radcol's default Ipopt/MUMPS options.",
        "",
        "- wall: the CLI's wall_s (setup, solve, reference, diagnostics, HDF5 write);",
        "  ipopt: Ipopt + MUMPS inside IpoptSolve (callbacks excluded); eval: radcol's",
        "  callbacks; cb share = eval / (ipopt + eval); cpu: user + sys of the process;",
        "  rss: peak resident memory.  The machine is shared: wall times are inflated",
        "  by other jobs, cpu is the steadier figure; us/elem uses cpu.",
        "",
        "| problem | n | variables | constraints | nnz jac | nnz hes | iter | wall s | "
        "ipopt s | eval s | cb share | cpu s | rss MB | cpu us/elem |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for d in rows:
        if "variables" not in d:
            lines.append(f"| {d['problem']}/{d['formulation']} | {d['n']} | "
                         f"{d['status']} |" + " |" * 11)
            continue
        cb = d["eval_s"] / max(d["eval_s"] + d["ipopt_s"], 1e-300)
        lines.append(
            f"| {d['problem']}/{d['formulation']} | {d['n']} | {d['variables']} | "
            f"{d['constraints']} | {d['nnz_jac']} | {d['nnz_hes']} | {d['iterations']} | "
            f"{d['wall_s']:.3f} | {d['ipopt_s']:.3f} | {d['eval_s']:.4f} | "
            f"{100 * cb:.2f}% | {d['cpu_s']:.2f} | {d['rss_mb']:.0f} | "
            f"{1e6 * d['cpu_s'] / d['n']:.0f} |")
    os.makedirs(a.outdir, exist_ok=True)
    png = os.path.join(a.outdir, "scaling.png")
    if plot_scaling(rows, png):
        lines += ["", "![scaling](scaling.png)"]
    path = os.path.join(a.outdir, "scaling.md")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", path)


def plot_scaling(rows, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return False
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
    for (problem, form), mk in zip(PROBLEMS, "os"):
        rs = [d for d in rows if d.get("problem") == problem and "variables" in d]
        if not rs:
            continue
        n = [d["n"] for d in rs]
        lab = f"{problem}/{form}"
        ax[0].loglog(n, [d["cpu_s"] for d in rs], mk + "-", label=lab + " cpu")
        ax[0].loglog(n, [d["ipopt_s"] for d in rs], mk + "--", label=lab + " ipopt (wall)")
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
                              a.mumps_timeout)
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
    os.makedirs(a.outdir, exist_ok=True)
    path = os.path.join(a.outdir, "mumps.md")
    with open(path, "w") as f:
        f.write("# MUMPS options (scripts/bench.py --only mumps)\n\n"
                f"cpu = user + sys of the process, minimum of {a.mumps_repeat} runs; "
                "wall clock timeout " + str(a.mumps_timeout) + " s.\n\n"
                + "\n".join(lines) + "\n")
    print("wrote", path)


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
    cmd = [a.bench_ida, "--repeat", str(a.repeat)] + specs
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    runs = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    runs = [r for r in runs if r["ok"]]
    for r in runs:
        tag = (f"IDA rtol={r['rtol']:.0e} atol={r['atol']:.0e} ({r['steps']} steps)"
               if r["method"] == "ida" else
               f"radcol s={r['s']} n={r['n']} ({r['iterations']} it)")
        print(f"{tag:45s} error {r['error']:.2e} time {r['time_s']:.2e} s")
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
        "  rc_solve = transcription setup + Ipopt + MUMPS), minimum of "
        f"{a.repeat} repeats.",
        "- IDA: dense direct linear solver, analytic Jacobian, atol = rtol/100, T marked",
        "  algebraic.  radcol: uniform mesh, default options (tol 1e-10).",
        "- Fastest setting reaching each target (error <= target):",
        "",
        "| target | radcol (s, n) | radcol error | radcol time s | IDA (rtol) | IDA error | "
        "IDA time s | radcol / IDA |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for tgt in TARGETS:
        rc = [r for r in runs if r["method"] == "radcol" and r["error"] <= tgt]
        ida = [r for r in runs if r["method"] == "ida" and r["error"] <= tgt]
        br = min(rc, key=lambda r: r["time_s"]) if rc else None
        bi = min(ida, key=lambda r: r["time_s"]) if ida else None
        c1 = (f"s={br['s']}, n={br['n']} | {br['error']:.1e} | {br['time_s']:.2e}"
              if br else "not reached | - | -")
        c2 = (f"{bi['rtol']:.0e} | {bi['error']:.1e} | {bi['time_s']:.2e}"
              if bi else "not reached | - | -")
        ratio = f"{br['time_s'] / bi['time_s']:.0f}" if br and bi else "-"
        lines.append(f"| {tgt:.0e} | {c1} | {c2} | {ratio} |")
    lines += ["", "All runs:", "", "| method | setting | error | time s | work |",
              "|---|---|---|---|---|"]
    for r in runs:
        if r["method"] == "ida":
            lines.append(f"| IDA | rtol={r['rtol']:.0e} atol={r['atol']:.0e} | "
                         f"{r['error']:.2e} | {r['time_s']:.2e} | {r['steps']} steps, "
                         f"{r['resevals']} residuals, {r['jacevals']} Jacobians |")
        else:
            lines.append(f"| radcol | s={r['s']} n={r['n']} | {r['error']:.2e} | "
                         f"{r['time_s']:.2e} | {r['iterations']} Ipopt iterations, "
                         f"{r['nodes']} nodes |")
    os.makedirs(a.outdir, exist_ok=True)
    if plot_ida(runs, os.path.join(a.outdir, "vs-ida.png")):
        lines += ["", "![work-precision](vs-ida.png)"]
    path = os.path.join(a.outdir, "vs-ida.md")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", path)


def plot_ida(runs, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return False
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    ida = sorted([r for r in runs if r["method"] == "ida"], key=lambda r: r["rtol"])
    ax.loglog([r["error"] for r in ida], [r["time_s"] for r in ida], "k*-",
              label="IDA (rtol 1e-2..1e-13)")
    for s in sorted({r["s"] for r in runs if r["method"] == "radcol"}):
        rs = sorted([r for r in runs if r["method"] == "radcol" and r["s"] == s],
                    key=lambda r: r["n"])
        ax.loglog([r["error"] for r in rs], [r["time_s"] for r in rs], "o-",
                  label=f"radcol s={s}", ms=4)
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


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--radcol", default=os.environ.get("RADCOL", "radcol"),
                    help="radcol executable (default: $RADCOL or radcol on PATH)")
    ap.add_argument("--bench-ida", default=os.environ.get("RADCOL_BENCH_IDA", ""),
                    help="the radcol_bench_ida driver (default: next to --radcol in "
                         "bench/)")
    ap.add_argument("--only", choices=["scaling", "mumps", "ida"], action="append",
                    help="run only these sections (repeatable; default all)")
    ap.add_argument("--max-elements", type=int, default=100000,
                    help="largest n in the scaling section (default 100000)")
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
    sections = a.only or ["scaling", "mumps", "ida"]
    with tempfile.TemporaryDirectory(prefix="radcol-bench-") as workdir:
        if "ida" in sections:
            section_ida(a, workdir)
        if "mumps" in sections:
            section_mumps(a, workdir)
        if "scaling" in sections:
            section_scaling(a, workdir)


if __name__ == "__main__":
    main()
