#!/usr/bin/env python3
"""J against the number of NLP variables with and without free breakpoints
(docs/switching.md), on problems with closed-form optima; writes
results/switching-table.md and prints it.

usage: scripts/switching_table.py RADCOL [OUT.md] [--only NAME] [--timeout S]

Per problem: uniform meshes of N elements x 3 stages (no refinement), then
`--refine TOL --switching off` and `--refine TOL` (switching on) from -n 20,
for TOL = 1e-6 and 1e-8: the NLP variables of the result, J's relative error
against the closed form, solves, status, wall time.  The observed order is
log2 of the error ratio between N and 2N (of J: Radau IIA with s = 3 stages
is superconvergent at 2s - 1 = 5 on a smooth solution).
"""
import json
import math
import os
import subprocess
import sys
import tempfile

PROBLEMS = [
    # name, --set assignments, closed-form J, what
    ("bryson-denham", [], 4.0, "Bryson-Denham, x <= 1/9: J* = 4"),
    ("double-integrator", ["x0=1", "v0=1", "umax=2"],
     (1 + 2 * math.sqrt(2.5)) / 2,
     "min-time double integrator, x0 = 1, v0 = 1, umax = 2: "
     "tf* = (1 + 2 sqrt(2.5)) / 2"),
]


TIMEOUT = 120.0


def solve(radcol, tmp, name, sets, *extra):
    """The --json object and exit status of one solve; ({}, "timeout") when
    it runs longer than TIMEOUT seconds."""
    args = [radcol, "solve", name]
    for s in sets:
        args += ["--set", s]
    args += list(extra) + ["-o", os.path.join(tmp, "s.h5"), "--quiet",
                           "--json"]
    try:
        p = subprocess.run(args, capture_output=True, text=True,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"status": "stopped after %g s" % TIMEOUT}, -1
    try:
        return json.loads(p.stdout), p.returncode
    except ValueError:
        return {}, p.returncode


def main():
    global TIMEOUT
    argv = sys.argv[1:]
    only = None
    if "--only" in argv:
        i = argv.index("--only")
        only = argv[i + 1]
        del argv[i:i + 2]
    if "--timeout" in argv:
        i = argv.index("--timeout")
        TIMEOUT = float(argv[i + 1])
        del argv[i:i + 2]
    radcol = argv[0]
    out = argv[1] if len(argv) > 1 else "results/switching-table.md"
    lines = ["# J against NLP variables, with and without free breakpoints",
             "", "Written by `scripts/switching_table.py RADCOL` "
             "(docs/switching.md). 3 stages per element on the uniform "
             "meshes; the refinement runs start from -n 20 x 3.", ""]
    with tempfile.TemporaryDirectory() as tmp:
        for name, sets, J_ref, what in PROBLEMS:
            if only and name != only:
                continue
            lines += ["## %s" % what, "",
                      "| run | variables | J | relative error | order | "
                      "solves | status | wall s |", "|---|---|---|---|---|---|"
                      "---|---|"]
            prev = None
            for n in (10, 20, 40, 80, 160):
                d, _ = solve(radcol, tmp, name, sets, "-n", str(n), "-s", "3",
                             "--estimate", "local")
                J = d.get("objective", float("nan"))
                e = abs(J - J_ref) / abs(J_ref)
                order = ("%.2f" % math.log2(prev / e)
                         if prev and e > 0 else "")
                prev = e
                lines.append("| uniform %d x 3 | %s | %.15g | %.2e | %s | 1 | "
                             "%s | %.2f |" % (n, d.get("variables"), J, e,
                                              order, d.get("status"),
                                              d.get("wall_s", float("nan"))))
            for tol in ("1e-6", "1e-8"):
                for sw in ("off", "on"):
                    d, rc = solve(radcol, tmp, name, sets, "-n", "20", "-s",
                                  "3", "--refine", tol, "--switching", sw)
                    J = d.get("objective", float("nan"))
                    e = abs(J - J_ref) / abs(J_ref)
                    lines.append(
                        "| --refine %s --switching %s | %s | %.15g | %.2e |  "
                        "| %s | %s (exit %d) | %.2f |" %
                        (tol, sw, d.get("variables"), J, e, d.get("solves"),
                         d.get("status"), rc, d.get("wall_s", float("nan"))))
            lines.append("")
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
