#!/usr/bin/python3
"""Whole-command start-up cost of radcol (issue 26: process start-up decides
the work-precision comparison with IDA below about 5 digits).

For each command, the radcol under test and (with --baseline) an older
binary run alternately, --repeat times each; per binary: median and minimum
wall time (fork to reaped exit, measured here) and median CPU time (user +
sys of the child, getrusage).  Then, for the radcol under test:

  - shared objects loaded (LD_DEBUG=files: every object the dynamic loader
    maps, at start and by dlopen), and the loader's own start-up time
    (LD_DEBUG=statistics, cycles);
  - one `strace -T` run of the march: time inside fsync(2) and rename(2),
    i.e. the durable, atomic write of the result file.

Commands: `--version`, `list`, `solve pendulum -f accel` (the adaptive
march with the default estimate) and with `--estimate local` (the march
alone), a fixed-mesh
Newton solve, and with --plugin-akzo LIB the Akzo Nobel march at rtol 1e-3
and 1e-7 (the benchmark's plugin, built by scripts/bench_dae.py).

Usage: scripts/bench_startup.py [--radcol BUILD/radcol] [--baseline OLD]
       [--repeat 20] [--plugin-akzo LIB] [--out results/bench/startup.md]
Writes the Markdown report (and prints it).
"""
import argparse
import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def timed(cmd, env=None):
    """(wall s, cpu s, returncode) of one whole command."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         env=env)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    return wall, ru.ru_utime + ru.ru_stime, os.waitstatus_to_exitcode(status)


def commands(work, akzo):
    out = os.path.join(work, "r.h5")
    cmds = [
        ("--version", ["--version"]),
        ("list", ["list"]),
        ("march, default estimate", ["solve", "pendulum", "-f", "accel", "--quiet",
                                     "-o", out]),
        ("march, --estimate local", ["solve", "pendulum", "-f", "accel", "--quiet",
                                   "--estimate", "local", "-o", out]),
        ("fixed mesh Newton -n 40 -s 3", ["solve", "pendulum", "-f", "accel", "-n",
                                          "40", "-s", "3", "--quiet", "-o", out]),
    ]
    if akzo:
        for r in ("1e-3", "1e-7"):
            cmds.append(("akzo march rtol %s" % r,
                         ["solve", "akzo", "--plugin", akzo, "-f", "index1",
                          "--rtol", r, "--atol", r, "--quiet", "-o", out]))
    return cmds


def loaded_objects(radcol, args):
    env = dict(os.environ, LD_DEBUG="files")
    r = subprocess.run([radcol] + args, capture_output=True, text=True, env=env)
    return len(set(re.findall(r"file=(\S+) \[0\];", r.stderr)))


def loader_cycles(radcol, args):
    env = dict(os.environ, LD_DEBUG="statistics")
    r = subprocess.run([radcol] + args, capture_output=True, text=True, env=env)
    m = re.search(r"total startup time in dynamic loader:\s+([0-9,]+)", r.stderr)
    return int(m.group(1).replace(",", "")) if m else None


def write_syscalls(radcol, args):
    """Seconds inside fsync and rename (strace -T), or None without strace."""
    if not shutil.which("strace"):
        return None
    with tempfile.NamedTemporaryFile(suffix=".strace") as t:
        subprocess.run(["strace", "-T", "-e", "trace=fsync,fdatasync,rename,renameat,renameat2",
                        "-o", t.name, radcol] + args,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        s = open(t.name).read()
    return sum(float(x) for x in re.findall(r"<([0-9.]+)>", s))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--radcol", default=os.path.join(ROOT, "build", "radcol"))
    ap.add_argument("--baseline", help="an older radcol to compare with (run alternately)")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--plugin-akzo", help="the Akzo Nobel benchmark plugin "
                    "(BUILD/bench-dae/akzo/libakzo.so after scripts/bench_dae.py --check)")
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "bench", "startup.md"))
    a = ap.parse_args()
    bins = [("radcol", a.radcol)] + ([("baseline", a.baseline)] if a.baseline else [])
    work = tempfile.mkdtemp(prefix="radcol-startup-")
    rows = []
    try:
        for label, args in commands(work, a.plugin_akzo):
            res = {b: ([], []) for b, _ in bins}
            status = {}
            for k in range(a.repeat):
                for b, path in (bins if k % 2 == 0 else bins[::-1]):
                    w, c, rc = timed([path] + args)
                    res[b][0].append(w)
                    res[b][1].append(c)
                    status[b] = rc
            row = {"label": label, "args": args, "status": status}
            for b, _ in bins:
                row[b] = (statistics.median(res[b][0]), min(res[b][0]),
                          statistics.median(res[b][1]))
            row["objects"] = {b: loaded_objects(p, args) for b, p in bins}
            row["loader"] = {b: loader_cycles(p, args) for b, p in bins}
            row["write"] = (write_syscalls(a.radcol, args)
                            if "-o" in args else None)
            rows.append(row)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    load = os.getloadavg()
    L = []
    L.append("# Start-up cost of a whole radcol command\n")
    L.append("Written by `scripts/bench_startup.py%s` (%s UTC), %d runs per binary "
             "and command, run alternately. Load average %.1f / %.1f / %.1f on %d "
             "cores: wall times are inflated by other jobs; the minimum is the "
             "closest to an idle machine.\n" % (
                 " --baseline OLD" if a.baseline else "",
                 datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"),
                 a.repeat, load[0], load[1], load[2], os.cpu_count()))
    hdr = "| command | binary | exit | median wall ms | min wall ms | median cpu ms | shared objects | loader Mcycles | fsync+rename ms |"
    L.append(hdr)
    L.append("|" + "---|" * 9)
    for r in rows:
        for b, _ in bins:
            med, mn, cpu = r[b]
            cyc = r["loader"][b]
            wr = r["write"] if b == "radcol" and r["write"] is not None else None
            L.append("| %s | %s | %s | %.1f | %.1f | %.1f | %s | %s | %s |" % (
                r["label"], b, r["status"][b], med * 1e3, mn * 1e3, cpu * 1e3,
                r["objects"][b], "%.1f" % (cyc / 1e6) if cyc else "-",
                "%.1f" % (wr * 1e3) if wr is not None else "-"))
    if a.baseline:
        L.append("\nRatio radcol / baseline (median wall, min wall, median cpu):\n")
        for r in rows:
            x, y = r["radcol"], r["baseline"]
            L.append("- %s: %.2f / %.2f / %.2f" % (r["label"], x[0] / y[0], x[1] / y[1],
                                                  x[2] / y[2]))
    L.append("\nCommands (`radcol ARGS`, FILE a temporary result file):\n")
    for r in rows:
        L.append("- %s: `radcol %s`" % (r["label"], " ".join(
            "FILE" if x.endswith("r.h5") else ("PLUGIN" if x.endswith(".so") else x)
            for x in r["args"])))
    L.append("\nshared objects: mapped by the dynamic loader (LD_DEBUG=files), at start "
             "and by dlopen (a plugin, Ipopt). fsync+rename: one `strace -T` run of "
             "the radcol under test, time inside fsync(2) and rename(2) of the atomic "
             "result-file write (docs/hdf5-layout.md).")
    text = "\n".join(L) + "\n"
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
