#!/usr/bin/python3
"""Explicit-integrator study for results/simulate-orders.md.

Runs `radcol simulate` and `radcol solve` and prints a Markdown report:
  1. the seed's case (pendulum partition, x0 = 0.9, u0 = 0, tf = 10): max
     errors at the step points against the angle reference for Collatz and
     RK4 at four steps, and the observed orders;
  2. the partition's singularity y -> 0 at larger amplitudes;
  3. the drift |x^2 + y^2 - 1| of pendulum ode from (0, 1, 1, 0, 1 + g) over
     [0, 50] with RK4 at two steps, beside the Radau solve;
  4. Ipopt iterations with the default guess and with --guess simulate:...

Results are read from --json output and from the HDF5 files through the
documented layout (docs/hdf5-layout.md) only.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np


def run(exe, args, check=True):
    """Runs radcol with --json; returns (exit status, parsed JSON or None, stderr)."""
    p = subprocess.run([exe] + args + ["--json"], capture_output=True, text=True)
    data = None
    if p.stdout.strip():
        data = json.loads(p.stdout)
    if check and p.returncode != 0:
        sys.exit("radcol %s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr))
    return p.returncode, data, p.stderr.strip()


def orders(exe, tmp, steps):
    base = ["simulate", "pendulum", "-f", "partition", "--set", "x0=0.9",
            "--set", "u0=0", "--tf", "10"]
    out = ["## 1. The seed's case: pendulum partition, x0 = 0.9, u0 = 0, tf = 10", "",
           "Max error at the step points against the angle reference "
           "(GSL rk8pd, tol 1e-14); order = log2(e(2h)/e(h)).", "",
           "| method | h | steps | x | u | y | v | T | order (x) | order (T) |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for method in ("collatz", "rk4"):
        prev = None
        for h in steps:
            _, d, _ = run(exe, base + ["--method", method, "--step", repr(h),
                                       "-o", os.path.join(tmp, "o.h5")])
            e = {k: v["nodes"] for k, v in d["max_error"].items()}
            ox = ot = ""
            if prev:
                ox = "%.2f" % math.log2(prev["x"] / e["x"])
                ot = "%.2f" % math.log2(prev["T"] / e["T"])
            out.append("| %s | %g | %d | %.2e | %.2e | %.2e | %.2e | %.2e | %s | %s |" % (
                method, h, d["steps"], e["x"], e["u"], e["y"], e["v"], e["T"], ox, ot))
            prev = e
    return out


def singularity(exe, tmp, h):
    out = ["", "## 2. Where the partition's singularity (y -> 0) bites", "",
           "partition, x0 = 0.9, tf = 10, RK4 at h = %g; the pendulum passes the "
           "horizontal (y = 0) when omega0^2 >= 2 (g/L) cos(theta0), i.e. "
           "u0 >= 1.275 here. min y is over the step points." % h, "",
           "| u0 | amplitude (rad) | exit | min y | max error x | max error T | message |",
           "|---|---|---|---|---|---|---|"]
    g = 9.81
    for u0 in (0.0, 1.0, 1.2, 1.25, 1.3, 1.5):
        path = os.path.join(tmp, "s.h5")
        if os.path.exists(path):
            os.remove(path)
        st, d, err = run(exe, ["simulate", "pendulum", "-f", "partition", "--set", "x0=0.9",
                               "--set", "u0=%g" % u0, "--tf", "10", "--method", "rk4",
                               "--step", repr(h), "-o", path], check=False)
        y0 = math.sqrt(1 - 0.81)
        th0, om0 = math.atan2(0.9, y0), u0 / y0
        c = math.cos(th0) - om0 ** 2 / (2 * g)
        amp = math.acos(c) if c > -1 else float("inf")
        if st == 0:
            with h5py.File(path, "r") as f:
                ymin = float(np.min(f["/solution/y"][()]))
            e = {k: v["nodes"] for k, v in d["max_error"].items()}
            out.append("| %g | %.3f | 0 | %.2e | %.2e | %.2e | completed |" % (
                u0, amp, ymin, e["x"], e["T"]))
        else:
            msg = err.replace("|", "/").splitlines()[-1] if err else ""
            out.append("| %g | %.3f | %d | - | - | - | %s |" % (u0, amp, st, msg))
    return out


def drift(exe, tmp, steps, n, s):
    sets = ["--set", "x0=0", "--set", "u0=1", "--tf", "50"]
    out = ["", "## 3. Drift of pendulum ode from (x, y, u, v, T) = (0, 1, 1, 0, 1 + g) over [0, 50]", "",
           "h1 = x^2 + y^2 - 1: max over the nodes (JSON invariants) and at t = 50 "
           "(from /solution); error = max error of x at the nodes.", "",
           "| run | nodes | max abs h1 | abs h1(50) | max error x | wall s |", "|---|---|---|---|---|---|"]
    for h in steps:
        path = os.path.join(tmp, "d.h5")
        _, d, _ = run(exe, ["simulate", "pendulum", "-f", "ode"] + sets +
                      ["--method", "rk4", "--step", repr(h), "-o", path])
        with h5py.File(path, "r") as f:
            x, y = f["/solution/x"][-1], f["/solution/y"][-1]
        out.append("| rk4 h = %g | %d | %.2e | %.2e | %.2e | %.2f |" % (
            h, d["nodes"], d["invariants"]["h1"]["nodes"], abs(x * x + y * y - 1),
            d["max_error"]["x"]["nodes"], d["wall_s"]))
    path = os.path.join(tmp, "r.h5")
    _, d, _ = run(exe, ["solve", "pendulum", "-f", "ode"] + sets +
                  ["-n", str(n), "-s", str(s), "--quiet", "-o", path])
    with h5py.File(path, "r") as f:
        x, y = f["/solution/x"][-1], f["/solution/y"][-1]
    out.append("| Radau %d x %d (%s, %d iterations) | %d | %.2e | %.2e | %.2e | %.2f |" % (
        n, s, d["status"], d["iterations"], d["nodes"], d["invariants"]["h1"]["nodes"],
        abs(x * x + y * y - 1), d["max_error"]["x"]["nodes"], d["wall_s"]))
    return out


def seeding(exe, tmp):
    out = ["", "## 4. Seeding the NLP from a simulation", "",
           "Ipopt iterations (and wall time) with the problem's default guess and "
           "with `--guess simulate:METHOD` (largest step (tf - t0)/1000 unless given).", "",
           "| problem | mesh | guess | status | iterations | wall s | max error (first variable) |",
           "|---|---|---|---|---|---|---|"]
    cases = [("pendulum", "coord", ["--tf", "0.8"], 40),
             ("pendulum", "coord", ["--tf", "2"], 100),
             ("double-pendulum", "index1", [], 40),
             ("double-pendulum", "index1", [], 200)]
    for model, form, extra, n in cases:
        for guess in (None, "simulate:rk4", "simulate:collatz", "simulate:collatz:0.05"):
            args = ["solve", model, "-f", form, "-n", str(n), "--quiet",
                    "-o", os.path.join(tmp, "g.h5")] + extra
            if guess:
                args += ["--guess", guess]
            st, d, _ = run(exe, args, check=False)
            first = next(iter(d["max_error"].items()))
            out.append("| %s/%s %s | %d x 3 | %s | %s | %d | %.2f | %s %.2e |" % (
                model, form, " ".join(extra), n, guess or "default", d["status"],
                d["iterations"], d["wall_s"], first[0], first[1]["nodes"]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--radcol", default="build/radcol", help="radcol executable")
    ap.add_argument("--steps", type=float, nargs=4, default=[0.02, 0.01, 0.005, 0.0025],
                    help="four steps for the order table")
    ap.add_argument("--out", help="write the Markdown here (default: stdout)")
    ap.add_argument("--skip-seeding", action="store_true", help="omit section 4 (slowest)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        lines = orders(a.radcol, tmp, a.steps)
        lines += singularity(a.radcol, tmp, 0.001)
        lines += drift(a.radcol, tmp, [0.01, 0.005], 500, 3)
        if not a.skip_seeding:
            lines += seeding(a.radcol, tmp)
    text = "\n".join(lines) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
