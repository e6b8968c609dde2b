#!/usr/bin/python3
"""Reliability of radcol's a-posteriori error estimate, and --refine TOL
against the true error (issue 14).

Part 1 (reliability): for every case at three uniform meshes, run
  radcol solve PROBLEM -f F -n N -s S -o RUN.h5 --quiet
and put the global error estimate (/diagnostics/error_estimate, attribute
max) next to the true error measured against the problem's independent
reference (/diagnostics/reference_error, nodes and dense):
  truth = max over the variables x, y, u of max(err_nodes, err_dense) / scale
with scale = max(1, max over the nodes of |v|) read from /solution (the
estimate's own definition, docs/mesh-refinement.md).  Target: estimate /
truth in [1/3, 10].

Part 2 (--refine): for TOL in --tols, run
  radcol solve PROBLEM -f F -n N0 -s S --refine TOL
and report the true error of the result, its NLP variables, and the smallest
uniform mesh of S stages (N0 doubled until the truth is <= TOL, at most
--max-uniform elements) with its variables.

Results are read only through the documented HDF5 layout
(docs/hdf5-layout.md).  Writes OUT (default results/estimate-reliability.md);
HDF5 runs go to --runs (default results/runs/estimate, git-ignored).

Examples:
  /usr/bin/python3 scripts/estimate_study.py --radcol build/radcol
  /usr/bin/python3 scripts/estimate_study.py --radcol build/radcol \\
      --cases pendulum-accel --tols 1e-8 --out OUT.md
"""
import argparse
import os
import shlex
import subprocess
import sys
import time

import h5py
import numpy as np

# name: (problem, formulation, stages, meshes (part 1), N0 (part 2), extra
# arguments, note).  brachistochrone needs --plugin (built by --plugin-lib).
CASES = {
    "pendulum-accel": ("pendulum", "accel", 3, [10, 20, 40], 10, [], ""),
    "pendulum-ggl": ("pendulum", "ggl", 3, [10, 20, 40], 10, [], ""),
    "pendulum-index3": ("pendulum", "index3", 3, [10, 20, 40], 10, [], ""),
    "double-pendulum-index1": ("double-pendulum", "index1", 3, [20, 40, 80],
                               20, [], ""),
    "crane-track": ("crane", "track", 5, [10, 20, 40], 10, [], ""),
    "crane-reduced": ("crane", "reduced", 5, [10, 20, 40], 10, [], ""),
    "four-bar-ggl": ("four-bar", "ggl", 3, [10, 20, 40], 10, [], ""),
    "brachistochrone-ode": ("brachistochrone", "ode", 3, [5, 10, 20], 5,
                            ["PLUGIN"], ""),
}


# (case, TOL) pairs of part 2 that are not run, and why.
SKIP = {
    ("pendulum-index3", 1e-10):
        "index 3: T converges at order s-1 and the conditioning of the "
        "index-3 NLP grows like h^-3; --refine 1e-6 and 1e-8 already stall "
        "(rows above) and 1e-10 runs for minutes growing the mesh",
}


# Accounts of the cases that miss a target, from the runs of this script
# (docs/mesh-refinement.md, "Error estimate").
NOTES = [
    "## Where the targets are missed, and why", "",
    "- crane-track (40 elements; every --refine TOL): the true error "
    "stays at 3.4e-4 in u1 (relative to 9.8 N) while the estimate falls "
    "to 3e-6 and below. The tracking OCP with the regularisation "
    "eps = 1e-11 has an optimum that is not the flat inverse the "
    "reference is, and near eps = 0 the OCP is nearly singular in u1, so "
    "u1 is limited by the OCP and the NLP tolerance, not by the mesh. The "
    "estimate measures the discretisation error of the NLP's answer; it "
    "cannot see a modelling gap (crane-reduced, the same physics without "
    "it, meets every target).",
    "- pendulum-index3 (--refine): T converges at order s - 1 and the "
    "index-3 NLP's conditioning grows like h^-3: the loop stalls at the "
    "refinement cap (exit 1) with true errors 9e-3 and 2e-4 for TOL 1e-6 "
    "and 1e-8, and the global estimate in the output says so (7e-3, "
    "1.9e-4). Use the accel or ggl formulation.",
    "- brachistochrone-ode (--refine 1e-8 and 1e-10): the direction of "
    "motion (ux, uy) is not determined at t0 where v = 0 (the dynamics do "
    "not depend on it there); after the global estimate asked for a "
    "tighter local target, refinement near t0 lets the controls wander "
    "(true error 4e-6 -> 1.5e-4 over the loop). The loop ends at the "
    "refinement cap with exit 1; the loop returns the solve with the "
    "smallest verified global estimate (measured: solve 2, true error "
    "3.8e-6, estimate 3.78e-6; the last solve had 1.47e-4).",
    "- four-bar-ggl (--refine): slow on the shared 2-core machine (each "
    "refined solve of 12k-70k variables with its reference evaluation "
    "takes 10-20 s there); run it with --timeout 900. The local estimate "
    "met 1e-6 at a true error of 5e-4, so the global check is what drives "
    "the loop there.",
    "",
]


def run(cmd, log, timeout):
    t = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=timeout)
        rc, err = p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        rc, err = "timeout", "timed out after %g s" % timeout
    with open(log, "a") as f:
        f.write("$ " + " ".join(shlex.quote(c) for c in cmd) + "\n")
        f.write(err[-2000:] + "\n")
    return rc, time.time() - t


def read_run(path):
    """Truth, estimate and sizes of one result file (HDF5 only)."""
    r = {"status": "missing", "truth": np.nan, "est": np.nan,
         "kind": "none", "nvars": 0, "worst": "", "local": np.nan,
         "elements": 0}
    if not os.path.exists(path):
        return r
    with h5py.File(path, "r") as f:
        d = f["/diagnostics"]
        r["status"] = d.attrs["status"].decode() if isinstance(
            d.attrs["status"], bytes) else str(d.attrs["status"])
        r["nvars"] = int(d.attrs.get("nvars", 0))
        r["elements"] = int(f["/mesh/stages"].shape[0])
        prob = f["/problem"]
        names = [n.decode() if isinstance(n, bytes) else str(n)
                 for n in prob["variable_names"][()]]
        kinds = [n.decode() if isinstance(n, bytes) else str(n)
                 for n in prob["variable_kinds"][()]]
        xyu = [n for n, k in zip(names, kinds) if k != "parameter"]
        if "reference_error" in d:
            re_ = d["reference_error"]
            rv = [n.decode() if isinstance(n, bytes) else str(n)
                  for n in re_["variables"][()]]
            worst = -1.0
            for v in xyu:
                if v not in rv:
                    continue
                i = rv.index(v)
                e = np.nanmax([re_["nodes"][i], re_["dense"][i]])
                if not np.isfinite(e):
                    continue
                scale = max(1.0, float(np.max(np.abs(f["/solution"][v][()]))))
                if e / scale > worst:
                    worst, r["worst"] = e / scale, v
            r["truth"] = worst if worst >= 0 else np.nan
        if "error_estimate" in d:
            e = d["error_estimate"]
            r["est"] = float(e.attrs["max"])
            r["local"] = float(e.attrs["local_max"])
            k = e.attrs["kind"]
            r["kind"] = k.decode() if isinstance(k, bytes) else str(k)
    return r


def solve_cmd(a, case, n, extra, out):
    prob, form, s, _, _, args, _ = CASES[case]
    cmd = [a.radcol, "solve", prob, "-f", form, "-n", str(n), "-s", str(s),
           "-o", out, "--quiet"]
    if "PLUGIN" in args:
        cmd += ["--plugin", a.plugin_lib]
    return cmd + extra


def fmt(x):
    return "-" if not np.isfinite(x) else "%.2e" % x


def part1(a, cases, lines, log):
    lines += ["## 1. Estimate against the true error", "",
              "Global estimate (enriched re-solve, one more stage per "
              "element) next to the true error, both max over x, y, u of the "
              "error at the nodes and on the dense grid relative to "
              "max(1, max |v|). Target: ratio in [1/3, 10].", "",
              "| case | elements x stages | status | estimate | local "
              "(PHR) | true error (worst variable) | ratio | in target |",
              "|---|---|---|---|---|---|---|---|"]
    summary = []
    for c in cases:
        for n in CASES[c][3]:
            out = os.path.join(a.runs, "%s-n%d.h5" % (c, n))
            run(solve_cmd(a, c, n, [], out), log, a.timeout)
            r = read_run(out)
            ratio = r["est"] / r["truth"] if r["truth"] > 0 else np.nan
            ok = 1.0 / 3.0 <= ratio <= 10.0
            summary.append((c, n, ok))
            lines.append("| %s | %d x %d | %s | %s | %s | %s (%s) | %s | %s |"
                         % (c, n, CASES[c][2], r["status"], fmt(r["est"]),
                            fmt(r["local"]), fmt(r["truth"]), r["worst"],
                            "-" if not np.isfinite(ratio) else "%.2f" % ratio,
                            "yes" if ok else "**no**"))
            print(lines[-1], flush=True)
    lines.append("")
    bad = [(c, n) for c, n, ok in summary if not ok]
    lines.append("In target: %d of %d runs%s." % (
        len(summary) - len(bad), len(summary),
        "" if not bad else "; outside: " + ", ".join(
            "%s n=%d" % b for b in bad)))
    lines.append("")


def part2(a, cases, lines, log):
    lines += ["## 2. --refine TOL against the true error", "",
              "True error of the refined result (as in part 1) and its NLP "
              "variables, against the smallest uniform mesh of the same "
              "stages (start elements doubled until the true error is "
              "<= TOL, at most %d elements; uniform runs with --estimate "
              "off)." % a.max_uniform, "",
              "| case | TOL | exit | refined: elements, variables | true "
              "error (worst) | global estimate | <= TOL | uniform: elements, "
              "variables, true error |",
              "|---|---|---|---|---|---|---|---|"]
    for c in cases:
        for tol in a.tols:
            if (c, tol) in SKIP:
                lines.append("| %s | %g | skipped | - | - | - | - | %s |"
                             % (c, tol, SKIP[(c, tol)]))
                continue
            out = os.path.join(a.runs, "%s-refine%g.h5" % (c, tol))
            if os.path.exists(out):
                os.remove(out)
            rc, wall = run(solve_cmd(a, c, CASES[c][4],
                                     ["--refine", "%g" % tol,
                                      "--max-refinements", "20"], out), log,
                                 a.timeout)
            r = read_run(out)
            n, best = CASES[c][4], None
            while n <= a.max_uniform:
                uo = os.path.join(a.runs, "%s-uniform-n%d.h5" % (c, n))
                if not os.path.exists(uo):
                    run(solve_cmd(a, c, n, ["--estimate", "off"], uo), log,
                        a.timeout)
                u = read_run(uo)
                if u["truth"] <= tol:
                    best = (n, u["nvars"], u["truth"])
                    break
                n *= 2
            lines.append("| %s | %g | %s | %d, %d | %s (%s) | %s | %s | %s |"
                         % (c, tol, rc, r["elements"], r["nvars"],
                            fmt(r["truth"]), r["worst"], fmt(r["est"]),
                            "yes" if r["truth"] <= tol else "**no**",
                            "none <= %d elements" % a.max_uniform
                            if best is None else "%d, %d, %s" % (
                                best[0], best[1], fmt(best[2]))))
            print(lines[-1], flush=True)
    lines.append("")


def main():
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--radcol", default="build/radcol", help="radcol executable")
    p.add_argument("--plugin-lib", default="",
                   help="libtemplate.so of examples/plugin-template (built "
                   "as tests/test_plugin.sh does); without it the "
                   "brachistochrone case is skipped")
    p.add_argument("--cases", default=",".join(CASES),
                   help="comma-separated subset of: " + ", ".join(CASES))
    p.add_argument("--tols", default="1e-6,1e-8,1e-10",
                   help="--refine tolerances of part 2")
    p.add_argument("--parts", default="1,2", help="1, 2 or 1,2")
    p.add_argument("--max-uniform", type=int, default=1280,
                   help="largest uniform mesh tried in part 2")
    p.add_argument("--timeout", type=float, default=120.0,
                   help="seconds per radcol run")
    p.add_argument("--runs", default="results/runs/estimate",
                   help="directory of the HDF5 runs")
    p.add_argument("--out", default="results/estimate-reliability.md",
                   help="report (markdown)")
    a = p.parse_args()
    a.tols = [float(t) for t in a.tols.split(",")]
    cases = [c for c in a.cases.split(",") if c]
    for c in cases:
        if c not in CASES:
            p.error("unknown case %r (expected one of %s)" % (c, ", ".join(CASES)))
    if not a.plugin_lib:
        cases = [c for c in cases if "PLUGIN" not in CASES[c][5]]
    os.makedirs(a.runs, exist_ok=True)
    log = os.path.join(a.runs, "log.txt")
    lines = ["# Error estimate reliability and --refine TOL (issue 14)", "",
             "Generated by `scripts/estimate_study.py %s` (reads only the "
             "HDF5 files)." % " ".join(
                 shlex.quote(x) for x in sys.argv[1:] if "/" not in x), ""]
    parts = a.parts.split(",")
    if "1" in parts:
        part1(a, cases, lines, log)
    if "2" in parts:
        part2(a, cases, lines, log)
    lines += NOTES
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", a.out)


if __name__ == "__main__":
    main()
