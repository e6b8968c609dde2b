#!/usr/bin/env python3
"""Compare two directories of radcol result files, file by file, bit for bit.

usage: compare_results.py DIR_A DIR_B [--ignore REGEX ...] [--no-default-ignores]
                          [--normalize TEXT ...] [--quiet]

The files are paired by name (*.h5 and any other file, e.g. exported CSV;
scripts/harvest_results.sh names them by the command that wrote them).  For
a pair of HDF5 files every group, dataset and attribute of either file is
compared: same set of names, same dtype and shape, the same bytes (NaN
equals NaN only with the same bit pattern; -0.0 differs from 0.0).  Other
files are compared byte for byte.  Left out by default, as they differ from
run to run or name the run's own paths:
  the root attributes utc_time and command_line; every attribute or
  dataset whose name ends in _s (wall-clock timings: wall_s, ipopt_s,
  eval_s, refinement/wall_s, ...); the problem attributes path and curve
  (input file names).
--ignore adds regular expressions matched against "PATH" of a dataset or
"PATH@ATTR" of an attribute (re.search); --normalize TEXT replaces TEXT by
@ in every string (attribute, dataset, other file) before comparing, for
the source trees of two checkouts.  A pair of index.tsv files (the
harvest's) is compared as the list of commands and their exit statuses.

Prints every difference (file, object, what differs, and for numbers the
count of differing entries and the largest absolute difference), then one
line: files compared, datasets, attributes, differences.  Exit status 0 when
there is no difference, 1 when there is one, 2 for bad input (a directory
that does not exist).  Needs numpy and h5py (/usr/bin/python3).
"""
import argparse
import os
import re
import sys

import h5py
import numpy as np

DEFAULT_IGNORES = [r"^/@utc_time$", r"^/@command_line$", r"_s$",
                   r"^/problem@(path|curve)$"]


class Cmp:
    def __init__(self, ignores, normalize, quiet):
        self.ignores = [re.compile(r) for r in ignores]
        self.normalize = [t.encode() for t in normalize if t]
        self.quiet = quiet
        self.files = self.datasets = self.attrs = self.diffs = 0

    def ignored(self, name):
        return any(r.search(name) for r in self.ignores)

    def diff(self, fname, what):
        self.diffs += 1
        if not self.quiet:
            print(f"{fname}: {what}")

    def norm_bytes(self, b):
        for t in self.normalize:
            b = b.replace(t, b"@")
        return b

    def norm_value(self, v):
        """Strings (bytes, str, arrays of them) with the normalised texts."""
        if isinstance(v, bytes):
            return self.norm_bytes(v)
        if isinstance(v, str):
            return self.norm_bytes(v.encode()).decode(errors="replace")
        if isinstance(v, np.ndarray) and v.dtype.kind in "SOU":
            return np.array([self.norm_value(x) for x in v.ravel()],
                            dtype=object).reshape(v.shape)
        return v

    def same_values(self, fname, name, a, b):
        a, b = self.norm_value(a), self.norm_value(b)
        if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            a, b = np.asarray(a), np.asarray(b)
            if a.dtype != b.dtype or a.shape != b.shape:
                if a.dtype.kind == "O" and b.dtype.kind == "O" and \
                        a.shape == b.shape:
                    pass
                else:
                    self.diff(fname, f"{name}: dtype/shape {a.dtype}{a.shape}"
                              f" vs {b.dtype}{b.shape}")
                    return
            if a.dtype.kind == "O":
                bad = [i for i, (x, y) in enumerate(zip(a.ravel(), b.ravel()))
                       if x != y]
                if bad:
                    i = bad[0]
                    self.diff(fname, f"{name}: {len(bad)} of {a.size} strings "
                              f"differ, first [{i}] {a.ravel()[i]!r} vs "
                              f"{b.ravel()[i]!r}")
                return
            ab = np.ascontiguousarray(a).tobytes()
            bb = np.ascontiguousarray(b).tobytes()
            if ab == bb:
                return
            what = f"{name}: bytes differ"
            if a.dtype.kind in "fiu" and a.size:
                fa, fb = a.astype(np.float64).ravel(), b.astype(np.float64).ravel()
                ne = ~((fa == fb) | (np.isnan(fa) & np.isnan(fb)))
                with np.errstate(invalid="ignore"):
                    dmax = np.nanmax(np.abs(fa - fb)) if ne.any() else 0.0
                what = (f"{name}: {int(ne.sum())} of {a.size} entries differ, "
                        f"max |a - b| = {dmax:.3g}")
            self.diff(fname, what)
            return
        if type(a) is not type(b):
            self.diff(fname, f"{name}: type {type(a).__name__} vs "
                      f"{type(b).__name__}")
        elif isinstance(a, (float, np.floating)):
            if np.float64(a).tobytes() != np.float64(b).tobytes():
                self.diff(fname, f"{name}: {a!r} vs {b!r}")
        elif a != b:
            self.diff(fname, f"{name}: {a!r} vs {b!r}")

    def attrs_of(self, fname, path, oa, ob):
        na, nb = set(oa.attrs.keys()), set(ob.attrs.keys())
        for k in sorted(na ^ nb):
            if not self.ignored(f"{path}@{k}"):
                self.diff(fname, f"{path}@{k}: only in "
                          f"{'A' if k in na else 'B'}")
        for k in sorted(na & nb):
            name = f"{path}@{k}"
            if self.ignored(name):
                continue
            self.attrs += 1
            self.same_values(fname, name, oa.attrs[k], ob.attrs[k])

    def h5(self, fname, pa, pb):
        with h5py.File(pa, "r") as fa, h5py.File(pb, "r") as fb:
            self.group(fname, "/", fa, fb)

    def group(self, fname, path, ga, gb):
        self.attrs_of(fname, path, ga, gb)
        ka, kb = set(ga.keys()), set(gb.keys())
        for k in sorted(ka ^ kb):
            sub = path.rstrip("/") + "/" + k
            if not self.ignored(sub):
                self.diff(fname, f"{sub}: only in {'A' if k in ka else 'B'}")
        for k in sorted(ka & kb):
            sub = path.rstrip("/") + "/" + k
            if self.ignored(sub):
                continue
            oa, ob = ga[k], gb[k]
            if isinstance(oa, h5py.Group) != isinstance(ob, h5py.Group):
                self.diff(fname, f"{sub}: group in one file, dataset in "
                          "the other")
            elif isinstance(oa, h5py.Group):
                self.group(fname, sub, oa, ob)
            else:
                self.datasets += 1
                self.same_values(fname, sub, oa[()], ob[()])
                self.attrs_of(fname, sub, oa, ob)

    def index(self, fname, pa, pb):
        def rows(p):
            with open(p, "rb") as f:
                return sorted(self.norm_bytes(line).rstrip(b"\n").split(b"\t")
                              for line in f)
        ra, rb = rows(pa), rows(pb)
        sa = {tuple(r) for r in ra}
        sb = {tuple(r) for r in rb}
        for r in sorted(sa ^ sb):
            self.diff(fname, f"run only in {'A' if r in sa else 'B'}: "
                      + b" ".join(r).decode(errors="replace"))

    def other(self, fname, pa, pb):
        with open(pa, "rb") as f:
            a = self.norm_bytes(f.read())
        with open(pb, "rb") as f:
            b = self.norm_bytes(f.read())
        if a != b:
            la, lb = a.split(b"\n"), b.split(b"\n")
            first = next((i for i, (x, y) in enumerate(zip(la, lb)) if x != y),
                         min(len(la), len(lb)))
            self.diff(fname, f"contents differ (sizes {len(a)} vs {len(b)}, "
                      f"first at line {first + 1})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir_a")
    ap.add_argument("dir_b")
    ap.add_argument("--ignore", action="append", default=[],
                    help="regex on PATH or PATH@ATTR to leave out")
    ap.add_argument("--no-default-ignores", action="store_true",
                    help="compare timings, utc_time, command_line, path too")
    ap.add_argument("--normalize", action="append", default=[],
                    help="text replaced by @ in strings before comparing")
    ap.add_argument("--quiet", action="store_true",
                    help="only the summary line")
    a = ap.parse_args()
    for d in (a.dir_a, a.dir_b):
        if not os.path.isdir(d):
            print(f"compare_results: {d}: not a directory", file=sys.stderr)
            return 2
    ignores = ([] if a.no_default_ignores else DEFAULT_IGNORES) + a.ignore
    c = Cmp(ignores, a.normalize, a.quiet)
    na = {n for n in os.listdir(a.dir_a)
          if os.path.isfile(os.path.join(a.dir_a, n))}
    nb = {n for n in os.listdir(a.dir_b)
          if os.path.isfile(os.path.join(a.dir_b, n))}
    for n in sorted(na ^ nb):
        c.diff(n, f"only in {'A' if n in na else 'B'}")
    for n in sorted(na & nb):
        pa, pb = os.path.join(a.dir_a, n), os.path.join(a.dir_b, n)
        c.files += 1
        try:
            if n == "index.tsv":
                c.index(n, pa, pb)
            elif h5py.is_hdf5(pa) and h5py.is_hdf5(pb):
                c.h5(n, pa, pb)
            else:
                c.other(n, pa, pb)
        except (OSError, ValueError) as e:
            c.diff(n, f"cannot compare: {e}")
    print(f"compare_results: {c.files} files ({len(na)} in A, {len(nb)} in B),"
          f" {c.datasets} datasets, {c.attrs} attributes compared, "
          f"{c.diffs} difference{'s' if c.diffs != 1 else ''}")
    return 1 if c.diffs else 0


if __name__ == "__main__":
    sys.exit(main())
