#!/usr/bin/env python3
"""tests/robust_h5_make.py - hostile variants of a valid radcol result file
(issue 18, docs/robustness.md), for tests/test_robust_output.sh and the
fuzz_hdf5 corpus.

usage: robust_h5_make.py KIND GOOD.h5 OUT.h5

KIND:
  vlen_names      /problem/variable_names rewritten as variable-length strings
  soft_link       /solution/x replaced by a soft link to /solution/time
  external_link   /solution/x replaced by an external link to OUT.h5.target
                  (a FIFO the caller made) :/x
  external_storage /solution/x keeps its data in an external raw file
                  OUT.h5.raw (created here)
  bomb            /mesh/fractions replaced by 2**22 zeros, gzip-compressed
  nan_guess       /solution/x[3] = NaN
  huge_guess      /solution/x[3] = 1e308
  escape          root attributes problem/command_line and a
                  reference-error name carry ESC, BEL and invalid UTF-8

Issue 28 (tests/test_robust_probe.sh):
  empty_name      /problem/variable_names[0] = ""
  str4096         /problem/variable_names as 4096-byte fixed strings
  group_dataset   /solution/x replaced by a group
  dup_names       /problem/variable_names[1] = variable_names[0]
  nan_alg         the first /multipliers/alg_*[3] = NaN
  nan_path        /multipliers/path_0[3] = NaN
  nan_boundary    /multipliers/boundary[0] = NaN
  stages_huge     /mesh/stages[0] = 2**40 (64-bit integers)
  stages_negative /mesh/stages[0] = -3
  no_solution     /solution removed
"""
import argparse
import shutil

import h5py
import numpy as np


def fixed(strings):
    b = [s if isinstance(s, bytes) else s.encode() for s in strings]
    w = max([len(x) for x in b] + [1]) + 1
    return np.array(b, dtype="S%d" % w)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kind")
    ap.add_argument("good")
    ap.add_argument("out")
    a = ap.parse_args()
    shutil.copyfile(a.good, a.out)
    with h5py.File(a.out, "r+") as f:
        k = a.kind
        if k == "vlen_names":
            names = f["/problem/variable_names"].asstr()[()]
            del f["/problem/variable_names"]
            f.create_dataset("/problem/variable_names", data=list(names),
                             dtype=h5py.string_dtype())
        elif k == "soft_link":
            del f["/solution/x"]
            f["/solution/x"] = h5py.SoftLink("/solution/time")
        elif k == "external_link":
            del f["/solution/x"]
            f["/solution/x"] = h5py.ExternalLink(a.out + ".target", "/x")
        elif k == "external_storage":
            x = f["/solution/x"][()]
            del f["/solution/x"]
            x.astype("<f8").tofile(a.out + ".raw")
            f.create_dataset("/solution/x", shape=x.shape, dtype="<f8",
                             external=[(a.out + ".raw", 0, x.nbytes)])
        elif k == "bomb":
            del f["/mesh/fractions"]
            f.create_dataset("/mesh/fractions", shape=(1 << 22,),
                             dtype="<f8", compression="gzip", chunks=(1 << 16,),
                             fillvalue=0.0)
            f["/mesh/fractions"][:] = 0.0
        elif k in ("nan_guess", "huge_guess"):
            x = f["/solution/x"][()]
            x[3] = np.nan if k == "nan_guess" else 1e308
            f["/solution/x"][...] = x
        elif k == "escape":
            bad = b"evil\x1b[31m\x07\xff\xfe"
            for name in ("problem", "command_line"):
                del f.attrs[name]
                f.attrs.create(name, np.array(bad, dtype="S%d" % len(bad)))
            if "/diagnostics/reference_error/variables" in f:
                v = list(f["/diagnostics/reference_error/variables"][()])
                v[0] = bad
                del f["/diagnostics/reference_error/variables"]
                f["/diagnostics/reference_error/variables"] = fixed(v)
        elif k in ("empty_name", "str4096", "dup_names"):
            v = list(f["/problem/variable_names"][()])
            if k == "empty_name":
                v[0] = b""
            elif k == "dup_names":
                v[1] = v[0]
            del f["/problem/variable_names"]
            if k == "str4096":
                f["/problem/variable_names"] = np.array(v, dtype="S4096")
            else:
                f["/problem/variable_names"] = fixed(v)
        elif k == "group_dataset":
            del f["/solution/x"]
            f.create_group("/solution/x")
        elif k in ("nan_alg", "nan_path", "nan_boundary"):
            g = f["/multipliers"]
            name = {"nan_alg": sorted(n for n in g if n.startswith("alg_"))[0],
                    "nan_path": "path_0", "nan_boundary": "boundary"}[k]
            v = g[name][()]
            v[3 if k != "nan_boundary" else 0] = np.nan
            g[name][...] = v
        elif k in ("stages_huge", "stages_negative"):
            st = f["/mesh/stages"][()].astype("<i8")
            st[0] = 1 << 40 if k == "stages_huge" else -3
            del f["/mesh/stages"]
            f["/mesh/stages"] = st
        elif k == "no_solution":
            del f["/solution"]
        else:
            raise SystemExit("unknown kind " + k)


if __name__ == "__main__":
    main()
