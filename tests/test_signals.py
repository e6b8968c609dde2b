#!/usr/bin/env python3
"""tests/test_signals.py - SIGINT and SIGTERM during the write remove the
temporary file (issue 18 item 12, docs/robustness.md).

usage: test_signals.py RADCOL [--rounds N]

Each round starts `radcol solve crane -f flat -n 4000` (a 12 MB file, no
NLP) over an existing older result, waits for the temporary file to appear,
stops the process (SIGSTOP) so the temporary file certainly exists, sends
the signal and continues it.  Expected: radcol dies of that signal (its
handler removes the temporary file and re-raises), no temporary file is
left, and the older result is byte-for-byte intact.  A round in which the
write finished before the temporary file was seen is counted and retried.
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time


def temps(work):
    return [n for n in os.listdir(work) if n.startswith(".out.h5.tmp.")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("radcol")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    with open(a.radcol, "rb") as f:
        if f.read(2) == b"#!":
            # scripts/valgrind.sh's wrapper: the timing of the write under
            # valgrind is not what this test is about.
            print("signals: skipped (RADCOL is a wrapper script)")
            return 0
    work = tempfile.mkdtemp(prefix="radcol-signals.")
    out = os.path.join(work, "out.h5")
    subprocess.run([a.radcol, "solve", "crane", "-f", "flat", "-n", "10",
                    "--quiet", "-o", out], check=True,
                   stdout=subprocess.DEVNULL)
    old = open(out, "rb").read()
    cmd = [a.radcol, "solve", "crane", "-f", "flat", "-n", "4000", "-s", "5",
           "--quiet", "-o", out]
    failures, caught, missed = [], 0, 0
    for sig in (signal.SIGTERM, signal.SIGINT):
        done = 0
        while done < a.rounds and missed < 60:
            p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
            t0 = time.monotonic()
            while p.poll() is None and not temps(work) \
                    and time.monotonic() - t0 < 30:
                pass
            if p.poll() is not None:  # the write finished first: retry
                missed += 1
                with open(out, "wb") as f:
                    f.write(old)
                continue
            p.send_signal(signal.SIGSTOP)
            seen = temps(work)
            p.send_signal(sig)
            p.send_signal(signal.SIGCONT)
            rc = p.wait()
            if not seen:
                missed += 1
                with open(out, "wb") as f:
                    f.write(old)
                continue
            caught += 1
            done += 1
            name = signal.Signals(sig).name
            if rc != -sig:
                failures.append("%s: exit %s, expected death by the signal"
                                % (name, rc))
            if temps(work):
                failures.append("%s: temporary file %s left" %
                                (name, temps(work)))
            if open(out, "rb").read() != old:
                failures.append("%s: the older result changed" % name)
    print("signals: %d signals landed while the temporary file existed, %d "
          "rounds retried (write finished first)" % (caught, missed))
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    for n in os.listdir(work):
        os.remove(os.path.join(work, n))
    os.rmdir(work)
    if caught < 2 * a.rounds:
        print("FAIL: only %d signals landed during the write" % caught,
              file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
