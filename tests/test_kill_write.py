#!/usr/bin/env python3
"""tests/test_kill_write.py - crash-safe output: SIGKILL `radcol solve` at
random moments and check the output path (docs/robustness.md).

usage: test_kill_write.py RADCOL [--runs N] [--seed S] [--elements N]

The solve is `crane -f flat -n N` (the exact inverse sampled on the mesh: no
NLP, so almost all of its run time is building and writing a file of several
MB; N = 4000 gives about 12 MB).  Its full run time T and the moment W0 the temporary file appears are
measured first; each run is then killed with SIGKILL after a delay drawn
uniformly from [0, 1.2 T] (half the runs) or, for the other half, once
the temporary file has appeared, after a further delay uniform in
[0, 1.2 (T - W0)], so kills land before, during and after the write.

Half the runs start with no file at the output path: afterwards the path
must either not exist or hold a complete file.  The other half start with a
valid older result (-n 10) there: afterwards it must hold a complete file,
either the old one or the new one, never a mixture or a truncated file.
"Complete" means h5py opens it, format is radcol-result, /solution/time has
the node count of one of the two runs and every /solution dataset reads in
full with that length (and every other dataset of the file reads in full).

Temporary files ".<name>.tmp.radcol.<random>" that a kill leaves behind are
counted and left in place: the next radcol run writing into the directory
removes them (no live writer holds their lock, docs/robustness.md).  After
the last run one more complete run must leave no temporary file at all.
Exit status 0 when every run passed.
"""
import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

import h5py


def nodes(n, s=5):
    return 1 + n * s


def check_file(path, allowed):
    """Return the node count of a complete result file, or raise."""
    with h5py.File(path, "r") as f:
        fmt = f.attrs["format"]
        fmt = fmt.decode() if isinstance(fmt, bytes) else str(fmt)
        if fmt != "radcol-result":
            raise ValueError("format attribute is %r" % fmt)
        sol = f["/solution"]
        n = sol["time"].shape[0]
        if n not in allowed:
            raise ValueError("/solution/time has %d nodes, expected one of %s"
                             % (n, sorted(allowed)))
        for name, obj in sol.items():
            if isinstance(obj, h5py.Dataset) and obj[()].shape != (n,):
                raise ValueError("/solution/%s has shape %s" % (name, obj.shape))
        # Every dataset of the file reads in full (a truncated file fails).
        datasets = []
        f.visititems(lambda name, obj: datasets.append(obj)
                     if isinstance(obj, h5py.Dataset) else None)
        for d in datasets:
            d[()]
        return n


def temps(work):
    """Names of temporary files of out.h5 in work."""
    return {n for n in os.listdir(work) if n.startswith(".out.h5.tmp.")}


def run_solve(radcol, out, n):
    return [radcol, "solve", "crane", "-f", "flat", "-n", str(n), "-s", "5",
            "-o", out, "--quiet"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("radcol")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=None,
                    help="random seed (default: from the clock, printed)")
    ap.add_argument("--elements", type=int, default=4000)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int(time.time())
    rng = random.Random(seed)
    print("kill-write: seed %d, %d runs, crane -f flat -n %d" % (seed, a.runs,
                                                               a.elements))
    work = tempfile.mkdtemp(prefix="radcol-kill.")
    out = os.path.join(work, "out.h5")
    old = os.path.join(work, "old.h5")
    new_nodes, old_nodes = nodes(a.elements), nodes(10)

    # Reference runs: the old file, and the full run time T of a new one.
    subprocess.run(run_solve(a.radcol, old, 10), check=True,
                   stdout=subprocess.DEVNULL)
    check_file(old, {old_nodes})
    # Calibration: poll for the temporary file to time the write window
    # [W0, T] (T = the whole run), as Popen + sleep sees it.
    starts, ends = [], []
    for _ in range(3):
        t0 = time.monotonic()
        p = subprocess.Popen(run_solve(a.radcol, out, a.elements),
                             stdout=subprocess.DEVNULL)
        seen = None
        while p.poll() is None:
            if seen is None and temps(work):
                seen = time.monotonic() - t0
            time.sleep(0.001)
        ends.append(time.monotonic() - t0)
        if p.returncode != 0:
            raise SystemExit("FAIL: the reference solve exited %d" % p.returncode)
        if seen is not None:
            starts.append(seen)
    check_file(out, {new_nodes})
    T = sorted(ends)[1]
    W0 = sorted(starts)[len(starts) // 2] if starts else 0.0
    print("kill-write: full run %.3f s, writing from %.3f s, file %.1f MB" %
          (T, W0, os.path.getsize(out) / 1e6))

    failures = []
    outcome = {"absent": 0, "old": 0, "new": 0}
    during = leftovers = finished = 0
    for k in range(a.runs):
        preexisting = k % 2 == 1
        if os.path.exists(out):
            os.remove(out)
        if preexisting:
            with open(old, "rb") as src, open(out, "wb") as dst:
                dst.write(src.read())
        before = temps(work)
        p = subprocess.Popen(run_solve(a.radcol, out, a.elements),
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        t0 = time.monotonic()
        if (k // 2) % 2 == 0:
            # anywhere in the whole run
            delay = rng.uniform(0.0, 1.2 * T)
        else:
            # inside the write: wait for the temporary file, then a random
            # part of the write window
            while (p.poll() is None and not (temps(work) - before)
                   and time.monotonic() - t0 < 10 * T):
                time.sleep(0.0005)
            delay = time.monotonic() - t0 + rng.uniform(0.0, 1.2 * (T - W0))
        time.sleep(max(0.0, t0 + delay - time.monotonic()))
        writing = bool(temps(work) - before)
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
        else:
            finished += 1
        rc = p.wait()
        during += writing
        allowed = {new_nodes, old_nodes} if preexisting else {new_nodes}
        try:
            if os.path.exists(out):
                n = check_file(out, allowed)
                outcome["new" if n == new_nodes else "old"] += 1
            elif preexisting:
                raise ValueError("the pre-existing file was removed")
            else:
                outcome["absent"] += 1
        except Exception as e:  # h5py raises OSError, KeyError, ...
            failures.append("run %d (delay %.3f s, rc %s, %s): %s" %
                            (k, delay, rc, "pre-existing" if preexisting
                             else "no file", e))
        leftovers += len(temps(work) - before)

    print("kill-write: %d runs: %d killed while the temporary file existed, "
          "%d finished before the kill" % (a.runs, during, finished))
    print("kill-write: output afterwards: %d absent, %d old file intact, "
          "%d new complete file" % (outcome["absent"], outcome["old"],
                                    outcome["new"]))
    print("kill-write: %d stale temporary files left by SIGKILL (kept for "
          "radcol's next run to remove)" % leftovers)
    # One complete run removes every stale temporary of out.h5.
    stale = len(temps(work))
    subprocess.run(run_solve(a.radcol, out, 10), check=True,
                   stdout=subprocess.DEVNULL)
    if temps(work):
        failures.append("%d stale temporary files left after a complete "
                        "run (%d before it)" % (len(temps(work)), stale))
    else:
        print("kill-write: the next complete run removed all %d stale "
              "temporary files" % stale)
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    for name in os.listdir(work):
        os.remove(os.path.join(work, name))
    os.rmdir(work)
    if during == 0:
        print("FAIL: no kill landed during the write; the test did not test "
              "anything", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
