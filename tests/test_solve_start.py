#!/usr/bin/env python3
"""`radcol solve` from inconsistent initial values starts from the nearest
consistent point through the library's restart (radcol/start.h), issue 23.

pendulum/index3 with (x0, y0) = (0.5, 0.8) off the circle: the warning names
the moved values; /problem/start holds the consistent point (on the circle,
tangent velocity); the solution starts there and its /mesh, /solution and
/multipliers equal, bit for bit, those of a run given the consistent values
directly (--set of all four start parameters, no restart).  The model's
reference is derived from the consistent start (the reference errors of
both runs are equal and small).

usage: test_solve_start.py RADCOL
"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

# /mesh, /solution and /multipliers of a result file, by dataset name
from test_fixed_mesh import datasets

BASE = ["solve", "pendulum", "-f", "index3", "-n", "20", "-s", "3",
        "--tf", "1"]


def run(radcol, args, out):
    p = subprocess.run([radcol] + BASE + args + ["-o", out],
                       capture_output=True, text=True, timeout=120)
    return p.returncode, p.stderr


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    radcol = sys.argv[1]
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        a = os.path.join(tmp, "moved.h5")
        code, err = run(radcol, ["--set", "x0=0.5", "--set", "y0=0.8"], a)
        if code not in (0, 1) or "nearest consistent point" not in err or \
                "x 0.5 ->" not in err:
            fails.append("inconsistent start: exit %d, stderr %r" % (code, err))
            print("\n".join(fails))
            return 1
        with h5py.File(a, "r") as f:
            start = f["/problem/start"][()]
            x = [f["/solution/" + n][0] for n in ("x", "y", "u", "v")]
        r = np.hypot(start[0], start[1])
        vr = start[0] * start[2] + start[1] * start[3]
        if abs(r - 1.0) > 1e-10 or abs(vr) > 1e-9:
            fails.append("start %s: |(x, y)| = %.15g, x u + y v = %.3g: "
                         "expected a consistent point" % (start, r, vr))
        if not np.array_equal(np.array(x), start):
            fails.append("the solution starts at %s, /problem/start %s"
                         % (x, start))
        b = os.path.join(tmp, "given.h5")
        sets = []
        for n, v in zip(("x0", "y0", "u0", "v0"), start):
            sets += ["--set", "%s=%s" % (n, repr(float(v)))]
        code_b, err_b = run(radcol, sets, b)
        if "consistent point" in err_b:
            fails.append("the consistent values given directly were moved: "
                         "%r" % err_b)
        da, db = datasets(a), datasets(b)
        diff = [k for k in da if k not in db or
                np.asarray(da[k]).tobytes() != np.asarray(db[k]).tobytes()]
        if code_b != code or diff or set(da) != set(db):
            fails.append("restart vs the consistent values given: exit %d/%d, "
                         "datasets differing %s" % (code, code_b, diff))
        with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
            g = "/diagnostics/reference_error/nodes"
            if g not in fa or g not in fb:
                fails.append("no reference errors: the restart dropped the "
                             "model's reference")
            else:
                ea, eb = fa[g][()], fb[g][()]
                if ea.tobytes() != eb.tobytes() or not np.max(ea[:2]) < 1e-5:
                    fails.append("reference errors %s / %s: expected equal "
                                 "and small in x, y" % (ea, eb))
    for f in fails:
        print("FAIL", f)
    print("restart: %d failure(s)" % len(fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
