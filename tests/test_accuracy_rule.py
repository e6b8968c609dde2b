#!/usr/bin/env python3
"""The library's accuracy verdict is the CLI's (issue 24 item 1).

Runs tests/test_accuracy_rule.c (rc_solve, rc_solve_refined and
rc_solve_adaptive on built-in models, no CLI) and `radcol solve --json` on
the same cases, and fails unless every case has the same status, verdict,
binding, estimate max and worst dense-grid violation in both.  The cases
include those the CLI calls inaccurate: --error-tol below the estimate, a
dense-grid violation above --error-tol with the estimate below it, and a
--refine loop stopped by its cap.

usage: test_accuracy_rule.py RADCOL RULE_PROGRAM
"""
import json
import math
import os
import subprocess
import sys
import tempfile

CLI = {
    "errtol": ["pendulum", "-f", "accel", "-n", "10", "-s", "3",
               "--error-tol", "1e-4"],
    "reported": ["pendulum", "-f", "accel", "-n", "10", "-s", "3"],
    "dense": ["four-bar", "-f", "baumgarte", "-n", "40", "-s", "3",
              "--error-tol", "1e-2"],
    "refcap": ["pendulum", "-f", "index3", "-n", "10", "-s", "3",
               "--refine", "1e-6", "--max-refinements", "2"],
    "adaptive": ["pendulum", "-f", "accel"],
}


def close(a, b):
    if a is None or b is None or (isinstance(a, float) and math.isnan(a)):
        return (a is None or math.isnan(a)) and (b is None or math.isnan(b))
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    radcol, prog = sys.argv[1], sys.argv[2]
    p = subprocess.run([prog], capture_output=True, text=True, timeout=300)
    print(p.stdout, end="")
    fails = [] if p.returncode == 0 else ["library program: " + p.stderr]
    lib = {}
    for line in p.stdout.splitlines():
        name, status, verdict, binding, est, dense = line.split()
        lib[name] = (status, verdict, binding == "1", float(est),
                     float(dense))
    if set(lib) != set(CLI):
        fails.append("cases %s, expected %s" % (sorted(lib), sorted(CLI)))
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in CLI.items():
            out = os.path.join(tmp, name + ".h5")
            q = subprocess.run([radcol, "solve"] + args +
                               ["--json", "--quiet", "-o", out],
                               capture_output=True, text=True, timeout=300)
            j = json.loads(q.stdout)
            a = j["accuracy"]
            cli = (j["status"], a["verdict"], a["binding"],
                   a["estimate_max"], a["dense_worst"])
            print("cli %s: exit %d %s" % (name, q.returncode, cli))
            want_exit = 1 if j["status"] == "inaccurate" else 0
            if q.returncode != want_exit:
                fails.append("%s: exit %d with status %s" % (
                    name, q.returncode, j["status"]))
            if name not in lib:
                continue
            L = lib[name]
            if L[:3] != cli[:3] or not close(L[3], cli[3]) or \
                    not close(L[4], cli[4]):
                fails.append("%s: library %s, CLI %s" % (name, L, cli))
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
