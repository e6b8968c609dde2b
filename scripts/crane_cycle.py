#!/usr/bin/python3
"""The container crane's work cycle (examples/crane-cycle.json, docs/phases.md
section 6): solve the two-phase job (loaded traverse, empty return) in one
NLP, check every limit on the dense output of every phase, replay each
phase's plan through the simulation (radcol simulate crane -f track
--controls, rk8pd) and plot the cycle: the load path coloured by phase, the
controls with the phase boundary marked.

Prints the cycle time, each phase's duration, the largest limit violations
on the dense grid and the replays' end errors; with --check exits 1 when the
solve did not converge, a limit is violated by more than --limit-tol
(relative to the limit; the stack by more than --stack-tol metres) or a
replay ends more than 1e-3 m from the plan's end point.

  scripts/crane_cycle.py --radcol build/radcol -o results/crane-cycle.h5 \\
      --plot results/crane-cycle.png
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np


def text(v):
    return v.decode() if isinstance(v, bytes) else v


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit("crane_cycle: %s failed (%d): %s" % (" ".join(cmd),
                                                       p.returncode, p.stderr))
    return p


def split_phase(src, k, dst):
    """Phase k of a multiphase file as a one-phase result file (the phase
    group holds the one-phase layout, docs/hdf5-layout.md)."""
    with h5py.File(src, "r") as f, h5py.File(dst, "w") as o:
        g = f["phases/%d" % k]
        for a, v in f.attrs.items():
            if a != "phases":
                o.attrs[a] = v
        for a in ("problem", "formulation", "kind", "status"):
            o.attrs[a] = g.attrs[a]
        for name in g:
            f.copy(g[name], o, name)


def limits(attrs):
    def num(name, default):
        try:
            return float(text(attrs[name]))
        except (KeyError, TypeError, ValueError):
            return default
    inf = np.inf
    return {
        "u1": (-num("u1max", inf), num("u1max", inf)),
        "u2": (-num("u2max", inf), num("u2max", inf)),
        "r": (num("rmin", 0.0) or -inf, num("rmax", inf)),
        "tau": (num("taumin", 0.0), inf),
        "theta": (-num("thetamax", inf), num("thetamax", inf)),
        "vd": (-num("vdmax", inf), num("vdmax", inf)),
        "vr": (-num("vrmax", inf), num("vrmax", inf)),
    }


def stacks(attrs):
    out = []
    for part in (text(attrs.get("stack")) or "").split(";"):
        if part.strip():
            out.append(tuple(float(s) for s in part.split(":")))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--radcol", default="radcol", help="the radcol binary")
    ap.add_argument("--job", default=os.path.join(here, "..", "examples",
                                                  "crane-cycle.json"))
    ap.add_argument("-o", "--output", default="results/crane-cycle.h5")
    ap.add_argument("--plot", help="PNG of the cycle (needs matplotlib)")
    ap.add_argument("--step", type=float, default=1e-3,
                    help="dense grid step of the limit check [s]")
    ap.add_argument("--limit-tol", type=float, default=1e-6)
    ap.add_argument("--stack-tol", type=float, default=0.01)
    ap.add_argument("--report", help="also write the figures to this "
                    "Markdown file (e.g. results/crane-cycle.md)")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)

    lines = []

    def out(*a):
        lines.append(" ".join(str(x) for x in a))
        print(*a)

    t0 = time.monotonic()
    p = run([args.radcol, "solve", "--job", args.job, "-o", args.output,
             "--json", "--quiet", "--estimate", "off"])
    wall = time.monotonic() - t0
    j = json.loads(p.stdout.split("\n")[0])
    ok = j["status"] == "converged"
    durations = [(ph["name"], ph["duration"]) for ph in j["phase_list"]]
    out("crane cycle: %s, %d iterations, cycle time %.9f s (%s), "
          "%.1f s wall for the solve" % (
              j["status"], j["iterations"], j["objective"],
              ", ".join("%s %.9f s" % d for d in durations), wall))

    # every limit on the dense output of every phase (radcol export)
    e = run([args.radcol, "export", args.output, "--step", str(args.step)])
    rows = e.stdout.strip().split("\n")
    head = rows[0].split(",")
    col = {n: i for i, n in enumerate(head)}
    data = [r.split(",") for r in rows[1:]]
    with h5py.File(args.output, "r") as f:
        attrs = [dict(f["phases/%d/problem" % k].attrs)
                 for k in range(int(f.attrs["phases"]))]
        names = [text(f["phases/%d" % k].attrs["name"])
                 for k in range(len(attrs))]
    for k, name in enumerate(names):
        sel = np.array([[float(r[col[c]]) for c in head[2:]]
                        for r in data if r[1] == name])
        v = {c: sel[:, i] for i, c in enumerate(head[2:])}
        worst = []
        for var, (lo, hi) in limits(attrs[k]).items():
            x = v[var]
            over = max(float(np.max(lo - x)) if np.isfinite(lo) else 0.0,
                       float(np.max(x - hi)) if np.isfinite(hi) else 0.0, 0.0)
            scale = max(abs(lo) if np.isfinite(lo) else 0.0,
                        abs(hi) if np.isfinite(hi) else 0.0, 1.0)
            worst.append((over / scale, var, over))
            ok &= over <= args.limit_tol * scale
        rel, var, over = max(worst)
        deep = 0.0
        for x0, x1, zmin in stacks(attrs[k]):
            over_stack = (v["x"] >= x0) & (v["x"] <= x1)
            if np.any(over_stack):
                deep = max(deep, float(np.max(v["z"][over_stack] - zmin)))
        ok &= deep <= args.stack_tol
        out("  %s: %d dense points; largest limit violation %s by %.3g "
              "(%.2g relative); load below the stack's top by %.4f m" % (
                  name, len(sel), var, over, rel, max(deep, 0.0)))

    # each phase's plan replayed through the simulation
    reps = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, name in enumerate(names):
            one, rep = (os.path.join(tmp, "phase%d%s.h5" % (k, s))
                        for s in ("", "-replay"))
            split_phase(args.output, k, one)
            r = json.loads(run([args.radcol, "simulate", "crane", "-f",
                                "track", "--controls", one, "-o", rep,
                                "--json"]).stdout)
            ex, ez = r["end_error"]["x"], r["end_error"]["z"]
            ok &= ex < 1e-3 and ez < 1e-3
            out("  %s replayed (rk8pd): end error x %.2e z %.2e m, "
                  "largest deviation from the plan x %.2e z %.2e m" % (
                      name, ex, ez, r["max_deviation"]["x"],
                      r["max_deviation"]["z"]))
            with h5py.File(rep, "r") as f:  # the plan's horizon only
                keep = f["solution/time"][()] <= r["tf"]
                reps.append({c: f["solution/" + c][()][keep]
                             for c in ("time", "x", "z")})
    if args.plot:
        plot(args.plot, head, data, names, attrs, reps, durations)
    out("crane cycle:", "PASS" if ok else "FAIL")
    if args.report:
        with open(args.report, "w") as fh:
            fh.write("# Crane work cycle (examples/crane-cycle.json)\n\n"
                     "Written by `scripts/crane_cycle.py --report` "
                     "(docs/phases.md, section 6); this run:\n\n```\n" +
                     "\n".join(lines) + "\n```\n")
    return 0 if ok or not args.check else 1


def plot(path, head, data, names, attrs, reps, durations):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    col = {n: i for i, n in enumerate(head)}
    fig, ax = plt.subplots(2, 2, figsize=(13, 8))
    a = ax[0, 0]
    for x0, x1, zmin in stacks(attrs[0]):
        a.fill_between([x0, x1], [zmin, zmin], [27, 27], color="0.8",
                       label="stack")
    start = 0.0
    for k, name in enumerate(names):
        rows = [r for r in data if r[1] == name]
        x = [float(r[col["x"]]) for r in rows]
        z = [float(r[col["z"]]) for r in rows]
        a.plot(x, z, "C%d" % k, lw=1.5, label="%s (%.2f s)" % (
            name, durations[k][1]))
        a.plot(reps[k]["x"], reps[k]["z"], "k:", lw=0.8,
               label="replay" if k == 0 else None)
        t = np.array([float(r[0]) for r in rows])
        for c, unit, axis in (("u1", "kN", ax[0, 1]), ("u2", "kN m",
                                                        ax[1, 0]),
                              ("theta", "rad", ax[1, 1])):
            axis.plot(t, [float(r[col[c]]) for r in rows], "C%d" % k,
                      label=name)
            axis.set_title("%s [%s]" % (c, unit))
            if k:
                axis.axvline(start, color="0.3", ls="--", lw=0.8)
        start += durations[k][1]
    for axis, c in ((ax[0, 1], "u1"), (ax[1, 0], "u2"), (ax[1, 1], "theta")):
        lo, hi = limits(attrs[0])[c]
        for v in (lo, hi):
            axis.axhline(v, color="C3", ls=":", lw=0.8)
        axis.set_xlabel("t [s] (phase boundary dashed)")
        axis.legend(fontsize=8)
    a.invert_yaxis()
    a.set_xlabel("x [m]")
    a.set_ylabel("z [m] (down from the rail)")
    a.set_title("load path: cycle %.2f s" % sum(d for _, d in durations))
    a.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    print("wrote", path)


if __name__ == "__main__":
    sys.exit(main())
