#!/usr/bin/env python3
"""Command-line contract of `radcol export` and `radcol simulate --controls`
(docs/export-replay.md), one CASE per CTest.

usage: test_export_replay.py RADCOL CASE

Every case works in a fresh temporary directory (its working directory too,
so a stray default results/ is seen).  The plans are the default crane solve
(crane/track, 30 x 5, tf = 6, rest to rest from (0, 2) to (4, 1)) and the
default pendulum accel solve, made by the case itself.

Cases
  export_contract  CSV read by numpy.loadtxt equals /solution/dense (values
                   and times) to 1e-12; default grid; --vars order; a step
                   that does not divide the horizon; stdout == -o file
  export_pendulum  a model without derived outputs; --vars with a parameter
  export_bad       missing/corrupt files, unknown names, bad steps, unsafe
                   -o targets: exit status, message, nothing written
  replay_crane     replay of the crane plan: end position error, load
                   deviation and residual sway; the file's /diagnostics/replay
                   agrees with --json; --hold 0.01 reports the same figures,
                   larger
  replay_params    a plan solved with --set M2=3 replays with M2 = 3 from the
                   file (tiny deviation); --set M2=2 on top makes it larger
  replay_pendulum  pendulum accel (no controls): the replay is a plain
                   simulation from the plan's x(t0) and matches the file's
                   independent reference (rk8pd on the angle ODE)
  replay_flat      the exact inverse's controls on the track model follow
                   the analytic path (independent of any solver)
  replay_limits    bound violations along the replay (recomputed here)
  replay_bad       index > 1, bad --hold/--settle, missing/corrupt plans,
                   option clashes, a plan lacking the states, -o = the plan
"""
import argparse
import json
import os
import sys
import tempfile

import h5py
import numpy as np

from cli_check import FAILS, check  # noqa: E402
from cli_check import run as _run  # noqa: E402


def run(radcol, *args, want=0):
    return _run(radcol, *args, want=want, timeout=120)



def bad(radcol, status, text, *args, target="out.csv"):
    p = run(radcol, *args, want=status)
    check(text in p.stderr, "radcol %s: message %r does not name %r" %
          (" ".join(args), p.stderr.strip(), text))
    check(not os.path.exists(target) or os.path.islink(target),
          "radcol %s wrote %s for bad input" % (" ".join(args), target))
    check(not os.path.exists("results"),
          "radcol %s created results/ for bad input" % " ".join(args))
    left = [f for f in os.listdir(".") if ".tmp." in f]
    check(not left, "temporary files left behind: %s" % left)
    return p


def solve(radcol, out, *args):
    run(radcol, "solve", *args, "-o", out, "--quiet")


def load_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return header, data


def case_export_contract(radcol):
    solve(radcol, "crane.h5", "crane")
    with h5py.File("crane.h5", "r") as f:
        names = list(f["/problem/variable_names"].asstr()[()])
        kinds = list(f["/problem/variable_kinds"].asstr()[()])
        outs = list(f["/problem/output_names"].asstr()[()])
        td = f["/solution/dense/time"][()]
        dense = {n: f["/solution/dense/" + n][()] for n in names + outs}
        t0, tf = f["/solution"].attrs["t0"], f["/solution"].attrs["tf"]
    step = td[1] - td[0]
    check(np.allclose(np.diff(td), step, rtol=1e-9, atol=0),
          "the default crane mesh is uniform, so is its dense grid")
    run(radcol, "export", "crane.h5", "--step", repr(step), "-o", "dense.csv")
    header, d = load_csv("dense.csv")
    want = ["time"] + [n for n, k in zip(names, kinds) if k != "parameter"] \
        + outs
    check(header == want, "header %s, expected %s" % (header, want))
    check(d.shape == (len(td), len(want)),
          "shape %s, expected %s" % (d.shape, (len(td), len(want))))
    if d.shape == (len(td), len(want)):
        check(np.max(abs(d[:, 0] - td)) <= 1e-12,
              "times differ from /solution/dense/time by %.3e" %
              np.max(abs(d[:, 0] - td)))
        for j, n in enumerate(header[1:], 1):
            e = np.max(abs(d[:, j] - dense[n]))
            check(e <= 1e-12, "column %s differs from /solution/dense/%s by "
                  "%.3e" % (n, n, e))
    # default grid: 1001 rows from t0 to tf; stdout == -o
    run(radcol, "export", "crane.h5", "-o", "default.csv")
    header, d = load_csv("default.csv")
    check(d.shape[0] == 1001 and d[0, 0] == t0 and d[-1, 0] == tf,
          "default grid: %d rows from %g to %g, expected 1001 from %g to %g" %
          (d.shape[0], d[0, 0], d[-1, 0], t0, tf))
    p = run(radcol, "export", "crane.h5")
    with open("default.csv") as f:
        check(p.stdout == f.read(), "stdout differs from the -o file")
    # --vars: order kept, outputs and controls
    run(radcol, "export", "crane.h5", "--vars", "z,x,u1", "--step", "0.7",
        "-o", "sel.csv")
    header, d = load_csv("sel.csv")
    check(header == ["time", "z", "x", "u1"], "--vars header %s" % header)
    want_t = np.append(np.arange(9) * 0.7, 6.0)
    check(d.shape[0] == 10 and np.max(abs(d[:, 0] - want_t)) < 1e-12,
          "step 0.7 on [0, 6]: rows at %s, expected %s" % (d[:, 0], want_t))
    # the load ends at (4, 1), at rest: the plan's end state
    check(abs(d[-1, 2] - 4) < 1e-6 and abs(d[-1, 1] - 1) < 1e-6,
          "load at tf (%.9g, %.9g), expected (4, 1)" % (d[-1, 2], d[-1, 1]))
    os.chmod("sel.csv", 0o644)


def case_export_pendulum(radcol):
    solve(radcol, "pend.h5", "pendulum", "-f", "accel")
    run(radcol, "export", "pend.h5", "--step", "0.5", "-o", "p.csv")
    header, d = load_csv("p.csv")
    check(header == ["time", "x", "y", "u", "v", "T"], "header %s" % header)
    check(d.shape == (11, 6), "shape %s, expected (11, 6)" % (d.shape,))
    with h5py.File("pend.h5", "r") as f:
        x0 = f["/solution/x"][0]
    check(d[0, 1] == x0, "x(t0) %r, expected the node value %r" %
          (d[0, 1], x0))
    # the pendulum stays on its circle: x^2 + y^2 = L^2 = 1 (plan accuracy)
    r = np.max(abs(d[:, 1] ** 2 + d[:, 2] ** 2 - 1))
    check(r < 1e-3, "x^2 + y^2 - 1 up to %.3e" % r)


def case_export_bad(radcol):
    solve(radcol, "crane.h5", "crane")
    with open("notes.txt", "w") as f:
        f.write("not an HDF5 file\n")
    bad(radcol, 3, "missing.h5", "export", "missing.h5", "-o", "out.csv")
    bad(radcol, 2, "notes.txt", "export", "notes.txt", "-o", "out.csv")
    with open("crane.h5", "rb") as f:
        head = f.read(4096)
    with open("truncated.h5", "wb") as f:
        f.write(head)
    p = run(radcol, "export", "truncated.h5", "-o", "out.csv", want=3)
    check("truncated.h5" in p.stderr, "truncated file not named")
    check(not os.path.exists("out.csv"), "out.csv written for a bad file")
    p = bad(radcol, 2, "'foo'", "export", "crane.h5", "--vars", "x,foo",
            "-o", "out.csv")
    check("theta" in p.stderr and "vz" in p.stderr,
          "unknown name: the valid names are not listed: " + p.stderr)
    bad(radcol, 2, "empty name", "export", "crane.h5", "--vars", "x,,z",
        "-o", "out.csv")
    for step in ("0", "-1", "nan", "abc", "inf"):
        bad(radcol, 2, step, "export", "crane.h5", "--step", step, "-o",
            "out.csv")
    bad(radcol, 2, "1e-12", "export", "crane.h5", "--step", "1e-12", "-o",
        "out.csv")
    bad(radcol, 2, "--bogus", "export", "crane.h5", "--bogus")
    bad(radcol, 2, "missing FILE", "export")
    bad(radcol, 2, "input file", "export", "crane.h5", "-o", "crane.h5",
        target="nothing")
    check(h5py.is_hdf5("crane.h5"), "the input was overwritten")
    # unsafe targets: a planted symbolic link, a directory, a missing dir
    with open("victim.txt", "w") as f:
        f.write("precious\n")
    os.symlink("victim.txt", "link.csv")
    bad(radcol, 2, "symbolic link", "export", "crane.h5", "-o", "link.csv",
        target="nothing")
    with open("victim.txt") as f:
        check(f.read() == "precious\n", "the symlink's target was written")
    check(os.path.islink("link.csv"), "the symlink was replaced")
    os.mkdir("adir")
    bad(radcol, 2, "adir", "export", "crane.h5", "-o", "adir",
        target="nothing")
    bad(radcol, 3, "nodir", "export", "crane.h5", "-o", "nodir/out.csv",
        target="nodir")


def replay_json(radcol, *args, want=0):
    p = run(radcol, "simulate", *args, "--json", want=want)
    try:
        return json.loads(p.stdout)
    except ValueError:
        check(False, "radcol simulate %s: stdout is not JSON: %r" %
              (" ".join(args), p.stdout[:300]))
        return None


def case_replay_crane(radcol):
    solve(radcol, "crane.h5", "crane")
    j = replay_json(radcol, "crane", "--controls", "crane.h5", "--settle",
                    "6", "-o", "rep.h5")
    if not j:
        return
    end, dev, drift = j["end_error"], j["max_deviation"], j["settle_drift"]
    print("interpolated: end error x %.3e z %.3e, load deviation x %.3e "
          "z %.3e, residual sway %.3e rad" %
          (end["x"], end["z"], dev["x"], dev["z"], drift["theta"]))
    # the plan (30 x 5, reference error ~1e-7) and rk8pd (tol 1e-10): the
    # replay follows the plan far inside 1e-3 m
    check(max(end["x"], end["z"]) < 1e-6,
          "end position error (%.3e, %.3e) m, expected < 1e-6" %
          (end["x"], end["z"]))
    check(max(dev["x"], dev["z"]) < 1e-6, "load deviation (%.3e, %.3e) m" %
          (dev["x"], dev["z"]))
    check(drift["theta"] < 1e-3, "residual sway %.3e rad" % drift["theta"])
    check(j["controls"] == "interpolated" and j["hold"] is None,
          "controls %s hold %s" % (j["controls"], j["hold"]))
    check(abs(j["controls_after_tf"]["u2"] - 2 * 9.81 * 0.1) < 1e-3,
          "u2 after tf %.6g, expected the holding torque m g C3 = 1.962" %
          j["controls_after_tf"]["u2"])
    with h5py.File("rep.h5", "r") as f:
        check(f.attrs["kind"] == b"replay", "kind %r" % f.attrs["kind"])
        g = f["/diagnostics/replay"]
        names = list(g["variables"].asstr()[()])
        for key, ds in (("end_error", "end_error"),
                        ("max_deviation", "max_deviation"),
                        ("settle_drift", "settle_drift")):
            v = dict(zip(names, g[ds][()]))
            check(all(v[n] == j[key][n] for n in names),
                  "/diagnostics/replay/%s differs from --json" % ds)
        t = f["/solution/time"][()]
        itf = int(g.attrs["itf"])
        check(t[0] == 0 and t[itf] == 6 and t[-1] == 12,
              "samples %g..%g..%g, expected 0..6..12" % (t[0], t[itf], t[-1]))
        plan = g["plan"][()]
        check(plan.shape == (len(t), len(names)), "plan shape %s" %
              (plan.shape,))
        check(np.all(np.isnan(plan[itf + 1:])) and
              not np.any(np.isnan(plan[:itf + 1])),
              "plan rows: values up to tf, NaN after")
        # independent of the plan: the load ends at the target (4, 1)
        x, z = f["/solution/x"][()], f["/solution/z"][()]
        check(abs(x[itf] - 4) < 1e-6 and abs(z[itf] - 1) < 1e-6,
              "replayed load at tf (%.9g, %.9g), expected (4, 1)" %
              (x[itf], z[itf]))
        th = np.max(abs(f["/solution/theta"][()][itf:]))
        check(abs(th - drift["theta"]) <= 1e-12,
              "residual sway %.6e is max |theta| after tf %.6e (plan ends "
              "at theta = 0)" % (drift["theta"], th))
    h = replay_json(radcol, "crane", "--controls", "crane.h5", "--hold",
                    "0.01", "--settle", "6", "-o", "reph.h5")
    if not h:
        return
    he, hd, hs = h["end_error"], h["max_deviation"], h["settle_drift"]
    print("hold 0.01: end error x %.3e z %.3e, load deviation x %.3e z %.3e, "
          "residual sway %.3e rad" %
          (he["x"], he["z"], hd["x"], hd["z"], hs["theta"]))
    check(h["controls"] == "hold" and h["hold"] == 0.01, "hold reported")
    check(max(he["x"], he["z"]) < 1e-3, "hold: end position error (%.3e, "
          "%.3e) m, expected < 1e-3" % (he["x"], he["z"]))
    check(hs["theta"] < 1e-2, "hold: residual sway %.3e rad" % hs["theta"])
    check(he["x"] > end["x"] and hd["x"] > dev["x"] and
          hd["u1"] > dev["u1"],
          "holding the controls for 0.01 s moves the load further from the "
          "plan than the interpolated controls")


def case_replay_params(radcol):
    solve(radcol, "heavy.h5", "crane", "--set", "M2=3", "--set", "m=3")
    j = replay_json(radcol, "crane", "--controls", "heavy.h5", "--settle",
                    "0", "-o", "a.h5")
    k = replay_json(radcol, "crane", "--controls", "heavy.h5", "--settle",
                    "0", "--set", "M2=2", "--set", "m=2", "-o", "b.h5")
    if not j or not k:
        return
    print("mass from the file: end error x %.3e; with M2 = m = 2: %.3e" %
          (j["end_error"]["x"], k["end_error"]["x"]))
    check(j["end_error"]["x"] < 1e-6,
          "replay with the file's masses: end error %.3e" %
          j["end_error"]["x"])
    check(k["end_error"]["x"] > 1e-3,
          "replay with a lighter load: end error %.3e, expected > 1e-3" %
          k["end_error"]["x"])
    check(j["settle_drift"]["theta"] is None, "settle 0: no drift figure")
    with h5py.File("a.h5", "r") as f:
        check(f["/problem"].attrs["M2"] == 3.0, "replay file records M2 = 3")


def case_replay_pendulum(radcol):
    solve(radcol, "pend.h5", "pendulum", "-f", "accel")
    j = replay_json(radcol, "pendulum", "--controls", "pend.h5", "-o",
                    "rep.h5")
    if not j:
        return
    with h5py.File("pend.h5", "r") as f:
        vn = list(f["/diagnostics/reference/variables"].asstr()[()])
        ref = f["/diagnostics/reference/ref_dense"][()]
        td = f["/solution/dense/time"][()]
        plan_err = dict(zip(f["/diagnostics/reference_error/variables"]
                            .asstr()[()],
                            f["/diagnostics/reference_error/dense"][()]))
    with h5py.File("rep.h5", "r") as f:
        t = f["/solution/time"][()]
        rep = {n: f["/solution/" + n][()] for n in vn}
    common = np.isin(td, t)
    idx = np.searchsorted(t, td[common])
    e = max(np.max(abs(rep[n][idx] - ref[common, k]))
            for k, n in enumerate(vn))
    print("pendulum accel: replay vs reference %.3e at %d times; plan "
          "deviation x %.3e (plan's reference error %.3e)" %
          (e, common.sum(), j["max_deviation"]["x"], plan_err["x"]))
    check(common.sum() >= 20, "too few common sample times")
    check(e < 1e-9, "replay vs the independent reference: %.3e" % e)
    check(j["max_deviation"]["x"] < 1e-3, "deviation from the Radau plan "
          "%.3e" % j["max_deviation"]["x"])
    check(j["controls_after_tf"] == {}, "no controls: %s" %
          j["controls_after_tf"])


def case_replay_flat(radcol):
    """The exact inverse (crane/flat, sampled on the 30 x 5 mesh) replayed on
    the index-1 track model: the load follows the analytic default path
    p(t) = (0, 2) + ((4, 1) - (0, 2)) s(t/6),
    s(a) = 126a^5 - 420a^6 + 540a^7 - 315a^8 + 70a^9 (SPEC 4.3)."""
    solve(radcol, "flat.h5", "crane", "-f", "flat")
    j = replay_json(radcol, "crane", "-f", "track", "--controls", "flat.h5",
                    "--settle", "0", "-o", "rep.h5")
    if not j:
        return
    check(j["plan_formulation"] == "flat" and j["formulation"] == "track",
          "flat plan replayed on track: %s/%s" %
          (j["plan_formulation"], j["formulation"]))
    with h5py.File("rep.h5", "r") as f:
        t = f["/solution/time"][()]
        x, z = f["/solution/x"][()], f["/solution/z"][()]
    a = t / 6.0
    s = a ** 5 * (126 - 420 * a + 540 * a ** 2 - 315 * a ** 3 + 70 * a ** 4)
    e = max(np.max(abs(x - 4 * s)), np.max(abs(z - (2 - s))))
    print("flat controls on the track model: load vs the analytic path "
          "%.3e m" % e)
    # the only error is the dense output of the sampled controls
    check(e < 1e-8, "load vs the analytic path: %.3e m" % e)


def case_replay_limits(radcol):
    """Bound and path-constraint violations along the replay: the figure the
    replay reports is recomputed here from the replayed trajectory."""
    solve(radcol, "b.h5", "crane", "--set", "u1max=8", "-n", "30", "-s", "5")
    j = replay_json(radcol, "crane", "--controls", "b.h5", "--settle", "0",
                    "-o", "rep.h5")
    if not j:
        return
    bv = j["bound_violation"]
    # u1 by u1max, tau by the default taumin = 0 (a cable cannot push)
    check(set(bv) == {"u1", "tau"}, "bounded variables %s, expected u1 and "
          "tau only" % sorted(bv))
    check(j["path_violation"] == [], "crane/track has no path constraints")
    with h5py.File("rep.h5", "r") as f:
        u1 = f["/solution/u1"][()]
        g = f["/diagnostics/replay"]
        names = list(g["variables"].asstr()[()])
        hv = dict(zip(names, g["bound_violation"][()]))
    want = max(0.0, np.max(abs(u1)) - 8)
    print("u1max = 8: replayed |u1| up to %.4g, violation %.4g" %
          (np.max(abs(u1)), bv.get("u1", float("nan"))))
    check(abs(bv.get("u1", -1) - want) < 1e-12,
          "u1 violation %s, expected max |u1| - 8 = %.6g" % (bv.get("u1"),
                                                              want))
    check(hv["u1"] == bv.get("u1") and np.isnan(hv["d"]),
          "/diagnostics/replay/bound_violation agrees with --json (NaN for "
          "unbounded d)")


def case_replay_bad(radcol):
    solve(radcol, "crane.h5", "crane")
    with open("notes.txt", "w") as f:
        f.write("not an HDF5 file\n")
    o = ("-o", "out.h5")
    bad(radcol, 2, "index 5", "simulate", "crane", "-f", "servo",
        "--controls", "crane.h5", *o, target="out.h5")
    for v in ("0", "-1", "nan"):
        bad(radcol, 2, v, "simulate", "crane", "--controls", "crane.h5",
            "--hold", v, *o, target="out.h5")
    for v in ("-1", "nan", "x"):
        bad(radcol, 2, v, "simulate", "crane", "--controls", "crane.h5",
            "--settle", v, *o, target="out.h5")
    bad(radcol, 2, "samples", "simulate", "crane", "--controls", "crane.h5",
        "--settle", "1e9", *o, target="out.h5")
    bad(radcol, 2, "hold", "simulate", "crane", "--controls", "crane.h5",
        "--hold", "1e-9", *o, target="out.h5")
    bad(radcol, 3, "missing.h5", "simulate", "crane", "--controls",
        "missing.h5", *o, target="out.h5")
    bad(radcol, 2, "notes.txt", "simulate", "crane", "--controls",
        "notes.txt", *o, target="out.h5")
    bad(radcol, 2, "--method", "simulate", "crane", "--controls", "crane.h5",
        "--method", "rk4", *o, target="out.h5")
    bad(radcol, 2, "--hold", "simulate", "pendulum", "--method", "rk4",
        "--step", "0.1", "--hold", "0.1", *o, target="out.h5")
    bad(radcol, 2, "state", "simulate", "pendulum", "-f", "accel",
        "--controls", "crane.h5", *o, target="out.h5")
    bad(radcol, 2, "--controls file", "simulate", "crane", "--controls",
        "crane.h5", "-o", "crane.h5", target="nothing")
    check(h5py.File("crane.h5", "r").attrs["kind"] == b"solve",
          "the plan was overwritten")
    bad(radcol, 2, "unknown problem", "simulate", "nosuch", "--controls",
        "crane.h5", *o, target="out.h5")


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("radcol", help="the radcol executable")
    ap.add_argument("case", choices=sorted(CASES))
    a = ap.parse_args()
    radcol = os.path.abspath(a.radcol)
    with tempfile.TemporaryDirectory(prefix="radcol-er.") as d:
        os.chdir(d)
        CASES[a.case](radcol)
    if FAILS:
        print("%d failure(s) in %s" % (len(FAILS), a.case), file=sys.stderr)
        return 1
    print("ok:", a.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
