#!/usr/bin/python3
"""The container crane's work cycle (docs/phases.md section 6): solve the
crane's multiphase formulation cycle (radcol solve crane -f cycle: the loaded
traverse and the empty return in one NLP; or a job file with --job, e.g.
examples/crane-cycle.json), check every limit on the dense output of every
phase (the stacks as the rounded path constraint of crane/mintime), replay
the plan through the simulation phase by phase (radcol simulate crane -f
track --controls FILE: each phase from the end of the previous replay,
rk8pd) and plot the cycle: the load path coloured by phase, the controls
with the phase boundary marked.

Prints the cycle time, each phase's duration, the largest limit violations
on the dense grid and the replays' end errors; with --check exits 1 when the
solve did not converge, a limit is violated by more than --limit-tol
(relative to the limit; a stack by more than --stack-tol metres) or a
replay ends more than 1e-3 m from the plan's end point (the release point,
then the pick point).

  scripts/crane_cycle.py --radcol build/radcol -o results/crane-cycle.h5 \\
      --plot results/crane-cycle.png --report results/crane-cycle.md
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


def stack_excess(attrs, x, z):
    """Largest value of the stack rows c = z - ZMIN - (max(0, X0 - x)^3 +
    max(0, x - X1)^3) / ell^2 (crane/mintime, <= 0 required) over the
    points, or -inf without stacks."""
    try:
        ell = float(text(attrs["stack_edge"]))
    except (KeyError, TypeError, ValueError):
        ell = 0.1
    worst = -np.inf
    for x0, x1, zmin in stacks(attrs):
        bump = (np.maximum(0.0, x0 - x) ** 3 +
                np.maximum(0.0, x - x1) ** 3) / ell ** 2
        worst = max(worst, float(np.max(z - zmin - bump)))
    return worst


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--radcol", default="radcol", help="the radcol binary")
    ap.add_argument("--job", help="a job file instead of crane -f cycle "
                    "(e.g. examples/crane-cycle.json)")
    ap.add_argument("-o", "--output", default="results/crane-cycle.h5")
    ap.add_argument("--plot", help="PNG of the cycle (needs matplotlib)")
    ap.add_argument("--step", type=float, default=1e-3,
                    help="dense grid step of the limit check [s]")
    ap.add_argument("--limit-tol", type=float, default=1e-6)
    ap.add_argument("--stack-tol", type=float, default=1e-6,
                    help="the stacks on the dense grid [m] (crane -f cycle "
                    "holds them to 1e-6 m by its back-off)")
    ap.add_argument("--report", help="also write the figures to this "
                    "Markdown file (e.g. results/crane-cycle.md)")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)

    lines = []

    def out(*a):
        lines.append(" ".join(str(x) for x in a))
        print(*a)

    t0 = time.monotonic()
    what = ["--job", args.job] if args.job else ["crane", "-f", "cycle"]
    p = run([args.radcol, "solve"] + what + ["-o", args.output, "--json",
                                             "--quiet", "--estimate", "off"])
    wall = time.monotonic() - t0
    j = json.loads(p.stdout.split("\n")[0])
    ok = j["status"] == "converged"
    durations = [(ph["name"], ph["duration"]) for ph in j["phase_list"]]
    out("crane cycle (radcol solve %s): %s, %d iterations, cycle time "
        "%.9f s (%s), %.1f s wall for the solve" % (
            " ".join(what), j["status"], j["iterations"], j["objective"],
            ", ".join("%s %.9f s" % d for d in durations), wall))
    for ph in j["phase_list"]:
        if "path_backoff" in ph:
            out("  %s: stack bounds backed off by %.4g m (the collocation "
                "points), dense-grid excess left by the solve %.3g m" % (
                    ph["name"], ph["path_backoff"], ph["path_violation"]))

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
        deep = stack_excess(attrs[k], v["x"], v["z"])
        ok &= deep <= args.stack_tol
        out("  %s: %d dense points (every %g s); largest limit violation %s "
            "by %.3g (%.2g relative); stacks %s: largest c = %.3g m "
            "(<= 0 holds them)" % (
                name, len(sel), args.step, var, over, rel,
                text(attrs[k].get("stack")), deep))

    # the plan replayed through the simulation, phase by phase (radcol
    # simulate --controls reads the multiphase file)
    reps = []
    with tempfile.TemporaryDirectory() as tmp:
        rep = os.path.join(tmp, "replay.h5")
        r = json.loads(run([args.radcol, "simulate", "crane", "-f", "track",
                            "--controls", args.output, "-o", rep,
                            "--json"]).stdout)
        for k, ph in enumerate(r["phase_list"]):
            ex, ez = ph["end_error"]["x"], ph["end_error"]["z"]
            ok &= ex < 1e-3 and ez < 1e-3
            out("  %s replayed (rk8pd, %d states from the previous replay): "
                "end error x %.2e z %.2e m, largest deviation from the plan "
                "x %.2e z %.2e m" % (
                    ph["name"], ph["carried_states"], ex, ez,
                    ph["max_deviation"]["x"], ph["max_deviation"]["z"]))
            with h5py.File(rep, "r") as f:  # the plan's horizon only
                g = f["phases/%d/solution" % k]
                keep = g["time"][()] <= ph["tf"]
                reps.append({c: g[c][()][keep] for c in ("time", "x", "z")})
    if args.plot:
        plot(args.plot, head, data, names, attrs, reps, durations)
    out("crane cycle:", "PASS" if ok else "FAIL")
    if args.report:
        with open(args.report, "w") as fh:
            fh.write("# Crane work cycle (radcol solve %s)\n\n" % " ".join(what) +
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
    for k, name in enumerate(names):
        for x0, x1, zmin in stacks(attrs[k]):
            a.plot([x0, x0, x1, x1], [27, zmin, zmin, 27], "C%d--" % k,
                   lw=0.8, label="stack limit (%s)" % name)
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
