#!/usr/bin/env python3
"""Compare two radcol executables invocation by invocation.

Runs every invocation of a list (built in, or --list FILE with one command
line per line, the executable written as `radcol`) with both executables, each
in a fresh empty directory holding the same input files, and compares

  - the exit status,
  - stdout and stderr, after blanking what legitimately differs between runs
    (wall-clock times: JSON keys ending in _s, "0.12 s" in text; the random
    part of temporary names; the executable's own path; the Ipopt progress
    lines, printed every 10th iteration or after 0.5 s),
  - every file the invocation wrote: HDF5 files dataset by dataset and
    attribute by attribute (bit for bit; the UTC time, the command line and
    timing attributes excepted), other files byte for byte.

Prints one line per differing invocation and a summary; exit 0 when every
invocation behaved the same, 1 otherwise, 2 on bad usage.

usage: compare_cli.py OLD_RADCOL NEW_RADCOL [--list FILE] [--data DIR]
                      [--show N] [--jobs J]
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

TIMING_KEY = re.compile(r'("[a-z_]*_s"\s*:\s*)(-?[0-9.eE+-]+|null)')
TIMING_TEXT = re.compile(r"\b[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)? ?(s|ms)\b")
TMPNAME = re.compile(r"\.tmp\.radcol\.[A-Za-z0-9]+")
# Progress lines are printed every 10th iteration or after 0.5 s: which
# iterations appear depends on the machine's speed.
PROGRESS = re.compile(r"^  iter +[0-9]+  objective .*\n", re.M)
IGNORED_ATTRS = {"utc_time", "command_line", "radcol_version", "wall_s",
                 "ipopt_s", "eval_s", "enriched_wall_s", "created"}
IGNORED_DATASET_SUFFIX = ("wall_s", "ipopt_s", "eval_s")


def default_invocations(data):
    """About 250 invocations: every command, problem and formulation, the
    common options, files passed back, and bad input."""
    inv = ["radcol", "radcol --help", "radcol --version", "radcol list",
           "radcol list --json", "radcol nosuchcommand"]
    forms = {
        "pendulum": ["index3", "ode", "coord", "accel", "baumgarte", "ggl",
                     "partition", "angle"],
        "double-pendulum": ["index3", "index1", "baumgarte", "angle"],
        "four-bar": ["index3", "ggl", "baumgarte"],
        "crane": ["flat", "track", "servo", "reduced", "mintime", "pathtime"],
    }
    for cmd in ["solve", "init", "simulate", "check", "info", "export",
                "list"]:
        inv.append(f"radcol {cmd} --help")
    for p, fs in forms.items():
        inv.append(f"radcol list --params {p}")
        inv.append(f"radcol list --params {p} --json")
        for f in fs:
            inv.append(f"radcol check {p} -f {f}")
            inv.append(f"radcol check {p} -f {f} --json")
    cheap = {
        "pendulum": ["index3", "ode", "accel", "baumgarte", "ggl",
                     "partition", "angle"],
        "double-pendulum": ["index3", "index1", "baumgarte", "angle"],
        "four-bar": ["index3", "ggl", "baumgarte"],
        "crane": ["flat", "track", "reduced"],
    }
    for p, fs in cheap.items():
        for f in fs:
            for mesh in ["-n 10 -s 3", "-n 20 -s 5"]:
                inv.append(f"radcol solve {p} -f {f} {mesh} --estimate off "
                           f"-o out.h5 --json")
            inv.append(f"radcol solve {p} -f {f} -n 12 -s 3 -o out.h5 --quiet")
            inv.append(f"radcol init {p} -f {f} --json")
    inv += [
        "radcol solve pendulum -f coord -n 30 -s 3 --tf 5 -o out.h5 --json",
        "radcol solve pendulum -f accel -n 10 --refine 1e-8 -o out.h5 --json",
        "radcol solve pendulum -f accel -n 10 --refine 1e-6 --estimate local -o out.h5",
        "radcol solve pendulum -f ggl -n 8 -s 3 --refine 1e-7 -o out.h5 --json",
        "radcol solve crane -o out.h5 --json",
        "radcol solve crane --set u1max=8 -o out.h5 --json",
        "radcol solve crane -f track --set u1max=8 --refine 1e-5 -o out.h5 --json",
        "radcol solve crane -f servo -n 60 --error-tol 1e-3 -o out.h5 --json",
        "radcol solve crane --set u1max=3 -o out.h5 --json",
        "radcol solve crane -f mintime --set u1max=10 --set u2max=3 --set taumin=0 "
        "--set thetamax=0.2 --set rmin=0.5 -n 40 -s 5 -o out.h5 --json",
        "radcol solve crane -f pathtime --set u1max=10 --set u2max=3 --set thetamax=0.2 "
        "--set rmin=0.5 -n 20 -s 4 -o out.h5 --json",
        "radcol solve pendulum -f accel -n 40 -s 3 --solver ipopt -o out.h5 --json",
        "radcol solve pendulum -f accel -n 40 -s 3 --solver newton -o out.h5 --json",
        "radcol solve pendulum -f coord --guess simulate:rk4 -o out.h5 --json",
        "radcol solve pendulum -f accel -n 10 -s 3 --ipopt max_iter=3 -o out.h5 --json",
        "radcol simulate pendulum -f partition --method rk4 --step 0.01 --set x0=0.9 "
        "--set u0=0 --tf 10 -o sim.h5 --json",
        "radcol simulate pendulum -f partition --method collatz --step 0.01 -o sim.h5",
        "radcol simulate pendulum -f ode --method rk4 --step 0.005 -o sim.h5 --json",
        "radcol simulate double-pendulum -f angle --method rk4 --step 0.001 -o sim.h5",
        "radcol init pendulum -f coord --fix y --fix v --guess x=-0.1 --json",
        "radcol init pendulum -f accel --fix x=0.2 --json",
        "radcol init double-pendulum -f index1 --json",
        "radcol init pendulum -f accel --fix x=2 --fix y=2 --json",
    ]
    # files passed back: mesh, guess, info, export, replay
    inv += [
        "radcol solve pendulum -f accel -n 10 -s 3 -o a.h5 --quiet && "
        "radcol solve pendulum -f accel --mesh a.h5 -o b.h5 --json",
        "radcol solve pendulum -f accel -n 10 -s 3 -o a.h5 --quiet && "
        "radcol solve pendulum -f accel -n 20 -s 3 --guess a.h5 --warm-start -o b.h5 --json",
        "radcol solve pendulum -f accel -n 10 -s 3 -o a.h5 --quiet && radcol info a.h5",
        "radcol solve pendulum -f accel -n 10 -s 3 -o a.h5 --quiet && radcol info a.h5 --json",
        "radcol solve pendulum -f accel -n 10 -s 3 -o a.h5 --quiet && "
        "radcol export a.h5 --step 0.01 -o a.csv",
        "radcol solve crane -o c.h5 --quiet && radcol export c.h5 --step 0.05 -o c.csv",
        "radcol solve crane -o c.h5 --quiet && radcol simulate crane --controls c.h5 "
        "--hold 0.01 --settle 6 -o r.h5 --json",
        "radcol solve crane -f mintime --set u1max=10 --set u2max=3 --set taumin=0 "
        "--set thetamax=0.2 --set rmin=0.5 -n 20 -s 4 -o m.h5 --quiet && "
        "radcol simulate crane -f track --controls m.h5 --after rest -o r.h5 --json",
        "radcol solve pendulum -f accel -n 10 -s 3 -o a.h5 --quiet && "
        "radcol solve pendulum -f ggl --guess a.h5 -o b.h5 --json",
    ]
    # bad input
    bad = [
        "radcol solve nosuch", "radcol solve pendulum -f nosuch",
        "radcol solve pendulum -n 0", "radcol solve pendulum -n x",
        "radcol solve pendulum -s 99", "radcol solve pendulum --tf -1",
        "radcol solve pendulum --tf nan", "radcol solve pendulum --tf 0x10",
        "radcol solve pendulum --set nosuch=1", "radcol solve pendulum --set g=abc",
        "radcol solve pendulum --set g", "radcol solve pendulum --set g=1e200",
        "radcol solve pendulum --refine 0", "radcol solve pendulum --refine -1",
        "radcol solve pendulum --ipopt nosuch=1", "radcol solve pendulum --ipopt tol=x",
        "radcol solve pendulum --ipopt option_file_name=x",
        "radcol solve pendulum --mesh missing.h5", "radcol solve pendulum --guess missing.h5",
        "radcol solve pendulum --plugin missing.so", "radcol solve pendulum -o /nonexistent/x.h5",
        "radcol solve pendulum --unknown", "radcol solve", "radcol init nosuch",
        "radcol init pendulum --fix nosuch=1", "radcol init pendulum --fix x=abc",
        "radcol simulate pendulum -f partition --method euler --step 0.1",
        "radcol simulate pendulum -f partition --method rk4 --step 0",
        "radcol simulate pendulum -f partition --method rk4",
        "radcol check nosuch", "radcol info missing.h5", "radcol info",
        "radcol export missing.h5", "radcol list --params nosuch",
        "radcol solve crane --set path=missing.csv", "radcol solve crane --set end=nowhere",
        "radcol solve crane -f mintime", "radcol solve crane -f pathtime",
        "radcol solve pendulum -n 10 -s 3 --json --quiet --estimate nope",
        "radcol solve pendulum -f accel --solver nope",
        "radcol solve pendulum --error-tol 0",
        "radcol solve pendulum -n 20000000",
    ]
    inv += [b + " --json" for b in bad] + bad
    if data:
        for f in sorted(os.listdir(data)):
            if f.endswith(".csv") and f.startswith("crane_"):
                inv.append(f"radcol solve crane --set path={f} -o out.h5 --json")
    return inv


def normalize(text, exe):
    text = text.replace(exe, "radcol")
    text = TIMING_KEY.sub(r"\1T", text)
    text = TIMING_TEXT.sub("T", text)
    text = TMPNAME.sub(".tmp.radcol.X", text)
    text = PROGRESS.sub("", text)
    return text


def same(v1, v2):
    """Bit-for-bit equal values (NaN equal to NaN)."""
    a1, a2 = np.asarray(v1), np.asarray(v2)
    if a1.shape != a2.shape or a1.dtype != a2.dtype:
        return False
    if a1.dtype.kind in "fc":
        return np.array_equal(a1, a2, equal_nan=True)
    if a1.dtype.names:
        return all(same(a1[f], a2[f]) for f in a1.dtype.names)
    return np.array_equal(a1, a2)


def h5_diff(a, b):
    """List of differences between two HDF5 files."""
    out = []
    with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
        def attrs(o1, o2, name):
            k1, k2 = set(o1.attrs), set(o2.attrs)
            for k in sorted(k1 ^ k2):
                out.append(f"{name}@{k}: only in one file")
            for k in sorted(k1 & k2):
                if k in IGNORED_ATTRS or k.endswith("_s"):
                    continue
                v1, v2 = o1.attrs[k], o2.attrs[k]
                if not same(v1, v2):
                    out.append(f"{name}@{k}: {v1!r} != {v2!r}")

        def walk(g1, g2, name):
            attrs(g1, g2, name or "/")
            n1, n2 = set(g1), set(g2)
            for k in sorted(n1 ^ n2):
                out.append(f"{name}/{k}: only in one file")
            for k in sorted(n1 & n2):
                o1, o2 = g1[k], g2[k]
                path = f"{name}/{k}"
                if isinstance(o1, h5py.Group) and isinstance(o2, h5py.Group):
                    walk(o1, o2, path)
                elif isinstance(o1, h5py.Dataset) and isinstance(
                        o2, h5py.Dataset):
                    attrs(o1, o2, path)
                    if path.endswith(IGNORED_DATASET_SUFFIX):
                        continue
                    d1, d2 = o1[()], o2[()]
                    if o1.dtype.names and "wall_s" in o1.dtype.names:
                        d1 = d1.copy()
                        d2 = d2.copy()
                        for f in o1.dtype.names:
                            if f.endswith("_s"):
                                d1[f] = 0
                                d2[f] = 0
                    if not same(d1, d2):
                        out.append(f"{path}: values differ")
                else:
                    out.append(f"{path}: kinds differ")
        walk(fa, fb, "")
    return out


def written(workdir, data):
    """Files under workdir (relative paths) that were not copied in."""
    out = []
    for dirpath, _, files in os.walk(workdir):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), workdir)
            if not (data and os.path.exists(os.path.join(data, rel))):
                out.append(rel)
    return sorted(out)


def run_one(exe, line, workdir, data):
    os.makedirs(workdir)
    if data:
        for f in os.listdir(data):
            src = os.path.join(data, f)
            if os.path.isfile(src):
                shutil.copy(src, workdir)
    cmd = line.replace("radcol ", shlex.quote(exe) + " ").replace(
        "&& radcol", "&& " + shlex.quote(exe))
    p = subprocess.run(["bash", "-c", cmd], cwd=workdir, capture_output=True,
                       text=True, errors="replace", timeout=900)
    return p.returncode, normalize(p.stdout, exe), normalize(p.stderr, exe)


def compare(args, k, line, root):
    wa = os.path.join(root, f"{k}.old")
    wb = os.path.join(root, f"{k}.new")
    ra = run_one(args.old, line, wa, args.data)
    rb = run_one(args.new, line, wb, args.data)
    diffs = []
    if ra[0] != rb[0]:
        diffs.append(f"exit {ra[0]} != {rb[0]}")
    if ra[1] != rb[1]:
        diffs.append("stdout differs")
    if ra[2] != rb[2]:
        diffs.append("stderr differs")
    fa, fb = written(wa, args.data), written(wb, args.data)
    if fa != fb:
        diffs.append(f"files {fa} != {fb}")
    nfiles = 0
    for f in set(fa) & set(fb):
        pa, pb = os.path.join(wa, f), os.path.join(wb, f)
        nfiles += 1
        if f.endswith(".h5"):
            try:
                d = h5_diff(pa, pb)
            except OSError as e:
                d = [f"unreadable: {e}"]
            diffs += [f"{f}{x}" for x in d[:args.show]]
        elif open(pa, "rb").read() != open(pb, "rb").read():
            diffs.append(f"{f}: bytes differ")
    detail = ""
    if diffs and args.show:
        if ra[1] != rb[1] or ra[2] != rb[2]:
            import difflib
            for name, x, y in (("stdout", ra[1], rb[1]),
                               ("stderr", ra[2], rb[2])):
                dl = list(difflib.unified_diff(x.splitlines(), y.splitlines(),
                                               name + ".old", name + ".new",
                                               lineterm="", n=0))
                detail += "\n".join(dl[:2 + 2 * args.show]) + "\n"
    shutil.rmtree(wa, ignore_errors=True)
    shutil.rmtree(wb, ignore_errors=True)
    return k, line, ra[0], diffs, nfiles, detail


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--list", help="file of invocations, one per line")
    ap.add_argument("--data", help="directory of input files copied into "
                    "every working directory (e.g. tests/data)")
    ap.add_argument("--show", type=int, default=3,
                    help="differences shown per invocation (default 3)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    args.old, args.new = os.path.abspath(args.old), os.path.abspath(args.new)
    if args.data:
        args.data = os.path.abspath(args.data)
    if args.list:
        lines = [l.strip() for l in open(args.list) if l.strip() and
                 not l.startswith("#")]
    else:
        lines = default_invocations(args.data)
    root = tempfile.mkdtemp(prefix="radcol-compare.")
    ndiff = nfiles = 0
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futs = [pool.submit(compare, args, k, l, root)
                    for k, l in enumerate(lines)]
            for fut in concurrent.futures.as_completed(futs):
                k, line, rc, diffs, nf, detail = fut.result()
                nfiles += nf
                if diffs:
                    ndiff += 1
                    print(f"DIFF [{k}] {line}: {'; '.join(diffs)}")
                    if detail:
                        print(detail, end="")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"compare_cli: {len(lines)} invocations, {nfiles} output files "
          f"compared, {ndiff} differ")
    return 1 if ndiff else 0


if __name__ == "__main__":
    sys.exit(main())
