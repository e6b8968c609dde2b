#!/usr/bin/env python3
"""Run the CTest tests listed in OUT/tests.json under valgrind memcheck.

Called by scripts/valgrind.sh, which writes the test list (ctest --show-only=json-v1)
and the wrapper OUT/radcol that execs valgrind on the radcol CLI.  A test whose
command is a built executable is prefixed with valgrind; an argument naming the
radcol CLI is replaced by the wrapper, so script tests check the CLI too.
Exit status: 0 when every test passed and no wrapper log has errors, 1 otherwise.
"""
import argparse
import json, os, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("out", help="directory holding tests.json and the radcol wrapper")
ap.add_argument("radcol", help="the radcol CLI the tests name")
ap.add_argument("jobs", type=int, help="tests run in parallel")
ap.add_argument("valgrind", nargs=argparse.REMAINDER, help="the valgrind command line")
args = ap.parse_args()
out, radcol, jobs, vg = args.out, args.radcol, args.jobs, args.valgrind
tests = json.load(open(os.path.join(out, "tests.json")))["tests"]
def is_elf(p):
    try:
        with open(p, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False
def run(t):
    cmd = list(t["command"])
    props = {p["name"]: p["value"] for p in t.get("properties", [])}
    env = dict(os.environ)
    for kv in props.get("ENVIRONMENT", []):
        k, _, v = kv.partition("=")
        env[k] = v
    log = os.path.join(out, t["name"] + ".log")
    build = os.path.dirname(os.path.realpath(radcol))
    if (is_elf(cmd[0]) and os.path.realpath(cmd[0]).startswith(build + os.sep)
            and os.path.realpath(cmd[0]) != os.path.realpath(radcol)):
        cmd = vg + ["--log-file=" + log] + cmd
    cmd = [os.path.join(out, "radcol") if os.path.realpath(c) == os.path.realpath(radcol)
           else c for c in cmd]
    wd = props.get("WORKING_DIRECTORY")
    t0 = time.monotonic()
    timeout = 20 * float(props.get("TIMEOUT", 60))
    try:
        r = subprocess.run(cmd, env=env, cwd=wd, capture_output=True, text=True,
                           timeout=timeout)
        rc, text = r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        rc, text = "timeout", ""
    skip = str(props.get("SKIP_RETURN_CODE", "")) == str(rc)
    return t["name"], rc, time.monotonic() - t0, text, skip
failed = []
with ThreadPoolExecutor(jobs) as ex:
    for name, rc, dt, text, skip in ex.map(run, tests):
        state = ("skipped" if skip else "ok" if rc == 0 else
                 "MEMCHECK (99)" if rc == 99 else "FAILED (%s)" % rc)
        print("valgrind: %-40s %-14s %6.1f s" % (name, state, dt), flush=True)
        if rc != 0 and not skip:
            failed.append(name)
            print(text[-3000:], file=sys.stderr)
# Logs of the wrapped CLI: any log with errors is a failure.
bad_logs = []
for f in sorted(os.listdir(out)):
    if f.endswith(".log"):
        s = open(os.path.join(out, f), errors="replace").read()
        if "ERROR SUMMARY: 0 errors" not in s and "ERROR SUMMARY" in s:
            bad_logs.append(f)
for f in bad_logs:
    print("valgrind: errors in %s" % os.path.join(out, f), file=sys.stderr)
print("valgrind: %d tests, %d failed, %d logs with errors" % (len(tests), len(failed), len(bad_logs)))
sys.exit(1 if failed or bad_logs else 0)
