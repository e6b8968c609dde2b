#!/usr/bin/python3
"""What the default error estimate costs (issue 24 item 3).

Whole `radcol solve` processes, timed from outside (wall clock, and the
child's user + system CPU time from getrusage), in one run of this script:

  crane track -n 1000 and -n 10000 (5 stages):
      radcol solve crane -n N --estimate off     (no estimate)
      radcol solve crane -n N                    (the default global estimate)
    interleaved, --repeat times each (-n 10000: --repeat-big times); the
    overhead of the estimate is median(default) / median(off) - 1, for the
    wall time and for the CPU time (the CPU time is the steadier figure on a
    shared machine).  Also the estimate's enriched solve from --json: its
    Ipopt iterations and the estimate itself.
  pendulum coord -n 30 -s 3 --tf 5 (a square system, Newton):
      radcol solve pendulum -f coord -n 30 -s 3 --tf 5       (default)
      ... --estimate off
    --repeat-small times each, interleaved; target: the default's median
    whole-process wall time under 30 ms.

Writes OUT (default results/bench/estimate-cost.md); the HDF5 files go to a
temporary directory.  Prints each run as it goes.

Examples:
  /usr/bin/python3 scripts/bench_estimate.py --radcol build/radcol
  /usr/bin/python3 scripts/bench_estimate.py --radcol build/radcol \\
      --skip-big --out cost.md
"""
import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def run(cmd):
    """One process: (exit, wall s, cpu s, parsed --json or None)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        j = None
    return p.returncode, wall, cpu, j


def load():
    try:
        return "%.2f" % os.getloadavg()[0]
    except OSError:
        return "?"


def pair(a, args, reps, tmp, label, rows):
    """Interleaved off/default runs of radcol solve ARGS; returns medians."""
    out = os.path.join(tmp, "b.h5")
    base = [a.radcol, "solve"] + args + ["-o", out, "--quiet", "--json"]
    res = {"off": [], "default": []}
    info = {}
    enriched = []
    for r in range(reps):
        for kind in ("off", "default"):
            cmd = base + (["--estimate", "off"] if kind == "off" else [])
            rc, wall, cpu, j = run(cmd)
            res[kind].append((wall, cpu))
            e = (j or {}).get("error_estimate") or {}
            line = ("%s %s run %d: exit %d, wall %.3f s, cpu %.3f s"
                    % (label, kind, r + 1, rc, wall, cpu))
            if kind == "default" and j:
                if isinstance(e.get("enriched_wall_s"), (int, float)):
                    enriched.append(e["enriched_wall_s"])
                info = {"kind": e.get("kind"), "max": e.get("max"),
                        "enriched": e.get("enriched_iterations"),
                        "iterations": j.get("iterations"),
                        "status": j.get("status"),
                        "variables": j.get("variables")}
                line += (", estimate %s %s after %s enriched iterations "
                         "(solve: %s iterations)"
                         % (e.get("kind"), e.get("max"),
                            e.get("enriched_iterations"), j.get("iterations")))
            print(line, flush=True)
            rows.append("| %s | %s | %d | %d | %.3f | %.3f |"
                        % (label, kind, r + 1, rc, wall, cpu))
    med = {k: (statistics.median(w for w, _ in v),
               statistics.median(c for _, c in v)) for k, v in res.items()}
    info["enriched_wall"] = statistics.median(enriched) if enriched else None
    info["runs"] = res
    return med, info


def share(info, med):
    """The enriched solve's median wall time and its share of the default
    run's median wall time (the part of the estimate that is a solve)."""
    w = info.get("enriched_wall")
    if w is None:
        return "-"
    return "%.4g s (%.0f %%)" % (w, 100 * w / med["default"][0])


def command_line():
    """The command that reproduces a report, without this machine's paths:
    the executable as build/radcol, the report at its default place."""
    out, skip = ["--radcol", "build/radcol"], False
    for k, x in enumerate(sys.argv[1:]):
        if skip:
            skip = False
        elif x in ("--radcol", "--out"):
            skip = True
        elif not x.startswith(("--radcol=", "--out=")):
            out.append(x)
    return " ".join(out)


def main():
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--radcol", default="build/radcol", help="radcol executable")
    p.add_argument("--repeat", type=int, default=5,
                   help="runs of each kind, crane -n 1000 (default 5)")
    p.add_argument("--repeat-big", type=int, default=2,
                   help="runs of each kind, crane -n 10000 (default 2)")
    p.add_argument("--repeat-small", type=int, default=31,
                   help="runs of each kind, pendulum coord (default 31)")
    p.add_argument("--skip-big", action="store_true",
                   help="leave out crane -n 10000 (minutes per run)")
    p.add_argument("--out", default="results/bench/estimate-cost.md",
                   help="report (markdown)")
    a = p.parse_args()
    lines = ["# What the default error estimate costs (issue 24)", "",
             "Generated by `scripts/bench_estimate.py %s`: whole `radcol "
             "solve` processes timed from outside, wall clock and the "
             "child's user + system CPU time, the kinds interleaved in one "
             "run of the script; medians." % command_line(), "",
             "Machine: %s, %s, %d cores; load average %s at the start."
             % (platform.node() and "shared", platform.machine(),
                os.cpu_count() or 0, load()), ""]
    rows = ["| case | estimate | run | exit | wall s | cpu s |",
            "|---|---|---|---|---|---|"]
    summary = ["| case | NLP variables | solve iterations | estimate "
               "(kind, max) | enriched iterations | enriched solve wall (share) "
               "| wall off / default (s) "
               "| overhead wall | cpu off / default (s) | overhead cpu |",
               "|---|---|---|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        crane = [(1000, a.repeat)]
        if not a.skip_big:
            crane.append((10000, a.repeat_big))
        for n, reps in crane:
            label = "crane -n %d" % n
            med, info = pair(a, ["crane", "-n", str(n)], reps, tmp, label, rows)
            ow = med["default"][0] / med["off"][0] - 1
            oc = med["default"][1] / med["off"][1] - 1
            summary.append(
                "| `radcol solve crane -n %d` | %s | %s | %s %s | %s | %s | "
                "%.2f / %.2f | %+.0f %% | %.2f / %.2f | %+.0f %% |"
                % (n, info.get("variables"), info.get("iterations"),
                   info.get("kind"), "%.2e" % info["max"]
                   if isinstance(info.get("max"), float) else "-",
                   info.get("enriched"), share(info, med), med["off"][0],
                   med["default"][0],
                   100 * ow, med["off"][1], med["default"][1], 100 * oc))
        label = "pendulum coord"
        med, info = pair(a, ["pendulum", "-f", "coord", "-n", "30", "-s",
                             "3", "--tf", "5"], a.repeat_small, tmp, label,
                         rows)
        summary.append(
            "| `radcol solve pendulum -f coord -n 30 -s 3 --tf 5` | %s | %s "
            "| %s %s | %s | %s | %.4f / %.4f | %+.0f %% | %.4f / %.4f | "
            "%+.0f %% |"
            % (info.get("variables"), info.get("iterations"),
               info.get("kind"), "%.2e" % info["max"]
               if isinstance(info.get("max"), float) else "-",
               info.get("enriched"), share(info, med), med["off"][0],
               med["default"][0],
               100 * (med["default"][0] / med["off"][0] - 1), med["off"][1],
               med["default"][1],
               100 * (med["default"][1] / med["off"][1] - 1)))
        coord_ms = 1000 * med["default"][0]
        coord_off_ms = 1000 * med["off"][0]
        coord_min = {k: 1000 * min(w for w, _ in v) for k, v in
                     info["runs"].items()}
    lines += summary + ["",
                        "pendulum coord -n 30 -s 3 --tf 5 with the default "
                        "estimate: median whole-process wall time %.1f ms "
                        "(target: under 30 ms; with `--estimate off` %.1f "
                        "ms; fastest runs %.1f / %.1f ms off / default). The "
                        "estimate's own part is the difference and the "
                        "enriched integration's wall time above; the rest is "
                        "the process (start-up: shared libraries, issue 26)."
                        % (coord_ms, coord_off_ms, coord_min["off"],
                           coord_min["default"]), "",
                        "Load average %s at the end." % load(), "",
                        "## Every run", ""] + rows
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", a.out)


if __name__ == "__main__":
    main()
