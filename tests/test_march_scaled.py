#!/usr/bin/python3
"""Per-variable tolerances of the march (issue 26) on a model whose unknowns
span 1e-3 .. 1e6 (tests/data/scaled_pendulum.py: a 3 m pendulum in km, m,
mm/s, m/s and a scaled force), against an independent integration.

- The model is generated (scripts/radcol-gen) and compiled (cc) into a
  plugin in a temporary directory.
- Default tolerance (no mesh, rtol = atol = 1e-6): exit 0, converged, the
  adaptive march ("march").
- rtol 1e-8 and atol_i = 1e-8 size_i per variable (--atol NAME=V, size_i
  the component's largest value): every component meets its own tolerance,
  max_t |v_i - ref_i| <= atol_i + rtol max_t |ref_i|, on the dense output
  (radcol export, 2001 points) and at the nodes.  The reference is the
  angle ODE theta'' = -(g/L) sin theta integrated by scipy's Radau at rtol
  1e-13, atol 1e-14 (and checked against DOP853 at the same tolerances),
  mapped to x = L sin, y = L cos, u = L omega cos, v = -L omega sin,
  T = omega^2 + (g/L) cos, then to the model's units.  Nothing of radcol is
  used to compute it.

usage: test_march_scaled.py RADCOL SOURCE_DIR CC
"""
import csv
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np
from scipy.integrate import solve_ivp

G, L, TF, X0, U0 = 9.81, 3.0, 5.0, 0.3, 3.0
SX, SU, SP = 1e-3, 1e3, 2.5e5


def reference(t):
    y0 = np.sqrt(L**2 - X0**2)
    v0 = -X0 * U0 / y0
    th0 = np.arctan2(X0, y0)
    om0 = (y0 * U0 - X0 * v0) / L**2

    def rhs(_, z):
        return [z[1], -G / L * np.sin(z[0])]

    sols = [solve_ivp(rhs, (0.0, TF), [th0, om0], method=m, rtol=1e-13,
                      atol=1e-14, dense_output=True) for m in ("Radau", "DOP853")]
    z = [s.sol(t) for s in sols]
    agree = np.max(np.abs(z[0] - z[1]))
    th, om = z[0]
    x, y = L * np.sin(th), L * np.cos(th)
    u, v = L * om * np.cos(th), -L * om * np.sin(th)
    T = om**2 + G / L * np.cos(th)
    return {"X": SX * x, "Y": y, "U": SU * u, "V": v, "P": SP * T}, agree


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def main():
    radcol, src, cc = sys.argv[1:4]
    fails = []
    tmp = tempfile.mkdtemp()
    rc, so, se = run([sys.executable, os.path.join(src, "scripts", "radcol-gen"),
                      os.path.join(src, "tests", "data", "scaled_pendulum.py"),
                      "-o", tmp])
    if rc:
        print("FAIL: radcol-gen:", se)
        return 1
    lib = os.path.join(tmp, "libscaled.so")
    rc, so, se = run([cc, "-std=c11", "-O2", "-shared", "-fPIC",
                      "-fvisibility=hidden", "-I" + os.path.join(src, "include"),
                      os.path.join(tmp, "scaled_pendulum.c"), "-o", lib, "-lm"])
    if rc:
        print("FAIL: cc:", se)
        return 1
    base = [radcol, "solve", "scaled-pendulum", "--plugin", lib, "--quiet"]

    out = os.path.join(tmp, "default.h5")
    rc, so, se = run(base + ["-o", out, "--json"])
    if rc != 0 or '"solver": "march"' not in so or '"converged"' not in so:
        fails.append("default tolerance: exit %d, %s %s" % (rc, so[:300], se))
    else:
        print("default tolerance: converged by the march")

    t = np.linspace(0.0, TF, 2001)
    ref, agree = reference(t)
    print("reference: scipy Radau and DOP853 agree to %.1e in theta, omega"
          % agree)
    if agree > 1e-10:
        fails.append("the two scipy integrations disagree by %g" % agree)
    rtol = 1e-8
    size = {k: float(np.max(np.abs(v))) for k, v in ref.items()}
    atol = {k: rtol * size[k] for k in ref}
    out = os.path.join(tmp, "tight.h5")
    cmd = base + ["-o", out, "--rtol", repr(rtol)]
    for k in ref:
        cmd += ["--atol", "%s=%r" % (k, atol[k])]
    rc, so, se = run(cmd)
    if rc != 0:
        fails.append("rtol 1e-8: exit %d: %s" % (rc, se))
    csvf = os.path.join(tmp, "tight.csv")
    rc2, so2, se2 = run([radcol, "export", out, "--plugin", lib, "--step",
                         repr(TF / 2000), "-o", csvf])
    if rc or rc2:
        fails.append("export: exit %d: %s" % (rc2, se2))
    else:
        with open(csvf) as fh:
            rows = list(csv.reader(fh))
        head = rows[0]
        data = np.array([[float(v) for v in r] for r in rows[1:]])
        tt = data[:, head.index("time")]
        if np.max(np.abs(tt - t)) > 1e-12:
            fails.append("export grid differs from the reference grid")
        with h5py.File(out, "r") as f:
            tn = f["/solution/time"][()]
            nodes = {k: f["/solution/" + k][()] for k in ref}
        refn, _ = reference(tn)
        for k in ref:
            tol = atol[k] + rtol * size[k]
            e_dense = float(np.max(np.abs(data[:, head.index(k)] - ref[k])))
            e_nodes = float(np.max(np.abs(nodes[k] - refn[k])))
            print("%s: size %.2e, tolerance %.2e, error dense %.2e (%.2f "
                  "tol), nodes %.2e (%.2f tol)"
                  % (k, size[k], tol, e_dense, e_dense / tol, e_nodes,
                     e_nodes / tol))
            if not (e_dense <= tol and e_nodes <= tol):
                fails.append("%s misses its tolerance %.3g: dense %.3g, "
                             "nodes %.3g" % (k, tol, e_dense, e_nodes))
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
