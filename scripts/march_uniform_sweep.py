#!/usr/bin/python3
"""Index-3 forms on uniform meshes (issue 26): pendulum, double-pendulum and
four-bar in index-3 form, s = 3 and 5, n from 10 to 10,000 elements, each
solved at the default tolerance with `radcol solve P -f index3 -n N -s S
--estimate off --json` (the fixed-mesh Newton, its scaled rescue, then
Ipopt).  Writes results/march-uniform.md: per problem and s, how many meshes
converged, which did not (with the solver's message), and the time range.

Meshes: every n from 10 to 60, then 40 values log-spaced from 61 to 10,000
(--all: every n from 10 to 10,000, about 60,000 runs; --quick: a dozen).

usage: march_uniform_sweep.py [--radcol BUILD/radcol] [--out FILE.md]
                              [--quick | --all] [--jobs J]
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PROBLEMS = ["pendulum", "double-pendulum", "four-bar"]


def meshes(mode):
    if mode == "quick":
        return [10, 11, 13, 17, 25, 40, 100, 333, 1000, 10000]
    if mode == "all":
        return list(range(10, 10001))
    ns = list(range(10, 61))
    k = 40
    for i in range(k):
        n = int(round(61 * (10000 / 61) ** (i / (k - 1))))
        if n not in ns:
            ns.append(n)
    return ns


def one(radcol, p, s, n, tmp):
    out = os.path.join(tmp, "%s-%d-%d.h5" % (p, s, n))
    t0 = time.monotonic()
    r = subprocess.run([radcol, "solve", p, "-f", "index3", "-n", str(n), "-s",
                        str(s), "--estimate", "off", "--quiet", "--json", "-o",
                        out], capture_output=True, text=True)
    wall = time.monotonic() - t0
    try:
        os.remove(out)
    except OSError:
        pass
    try:
        d = json.loads(r.stdout)
    except ValueError:
        return dict(p=p, s=s, n=n, rc=r.returncode, status="no output",
                    solver="", message=r.stderr.strip()[-200:], wall=wall)
    return dict(p=p, s=s, n=n, rc=r.returncode, status=d["status"],
                solver=d.get("solver") or "", message=d.get("message") or "",
                wall=wall)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--radcol", default=os.path.join(ROOT, "build", "radcol"))
    ap.add_argument("--out", default=os.path.join(ROOT, "results",
                                                  "march-uniform.md"))
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--quick", action="store_true")
    g.add_argument("--all", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    mode = "quick" if a.quick else "all" if a.all else "default"
    ns = meshes(mode)
    tmp = tempfile.mkdtemp()
    jobs = [(p, s, n) for p in PROBLEMS for s in (3, 5) for n in ns]
    rows = []
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for r in ex.map(lambda j: one(a.radcol, *j, tmp), jobs):
            rows.append(r)
            if r["status"] != "converged":
                print("%s s=%d n=%d: %s (%s) %s" % (r["p"], r["s"], r["n"],
                      r["status"], r["solver"], r["message"][:120]), flush=True)
    now = datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%d %H:%M UTC")
    md = ["# Index-3 forms on uniform meshes (issue 26)", "",
          "Written by `scripts/march_uniform_sweep.py%s` (%s, %.0f s): `radcol "
          "solve P -f index3 -n N -s S --estimate off`, the default Newton "
          "tolerance, n = %s (%d meshes)." % (
              "" if mode == "default" else " --" + mode, now,
              time.monotonic() - t0,
              "every n from 10 to 60 and 40 log-spaced up to 10,000"
              if mode == "default" else
              ("10..10,000" if mode == "all" else ", ".join(map(str, ns))),
              len(ns)), "",
          "| problem | s | converged | not converged (n) | solvers | wall s |",
          "|---|---|---|---|---|---|"]
    for p in PROBLEMS:
        for s in (3, 5):
            rr = [r for r in rows if r["p"] == p and r["s"] == s]
            ok = [r for r in rr if r["status"] == "converged"]
            bad = [r for r in rr if r["status"] != "converged"]
            solvers = sorted({r["solver"].split(" (")[0] + (
                " (scaled)" if "scaled" in r["solver"] else "")
                for r in ok})
            md.append("| %s | %d | %d of %d | %s | %s | %.2f .. %.2f |" % (
                p, s, len(ok), len(rr),
                ", ".join(str(r["n"]) for r in bad) or "none",
                ", ".join(solvers), min(r["wall"] for r in rr),
                max(r["wall"] for r in rr)))
    bad = [r for r in rows if r["status"] != "converged"]
    if bad:
        md += ["", "Not converged, the solver's message:", ""]
        for r in bad:
            md.append("- %s s=%d n=%d: status %s, exit %d, solver %s: %s" % (
                r["p"], r["s"], r["n"], r["status"], r["rc"], r["solver"],
                r["message"][:300]))
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as fh:
        fh.write("\n".join(md) + "\n")
    print("\n".join(md[5:5 + 2 + 2 * len(PROBLEMS)]))
    print("wrote", a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
