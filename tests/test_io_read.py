#!/usr/bin/env python3
"""Read the sample result file written by test_io with h5py alone, following
docs/hdf5-layout.md, and check every documented group, dataset and attribute.

The values are recomputed here independently of the C writer: the test
solution is w_j(t) = sin((j+1) t) + j for x, y, u and p = 1.75, the mesh has
fractions (0, 0.25, 0.6, 1) and stages (3, 2, 1) on [0.5, 2.5], and node
times are Radau IIA points (roots of P_{s-1}^{(1,0)} plus 1, from numpy).

Usage: test_io_read.py BASE --radcol RADCOL
    (reads BASE.h5, and BASE.h5 through `RADCOL info --json`)
"""
import argparse
import json
import subprocess
import sys

import h5py
import numpy as np


def radau_nodes(s):
    """Radau IIA nodes c_1 < ... < c_s = 1: the roots of
    P_s(x) - P_{s-1}(x), x = 2c - 1 (Hairer and Wanner II, IV.5)."""
    coef = np.zeros(s + 1)
    coef[s - 1] = -1.0
    coef[s] = 1.0
    x = np.sort(np.real(np.polynomial.legendre.legroots(coef)))
    return (x + 1) / 2


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("base", help="path without extension (BASE.h5)")
    ap.add_argument("--radcol", required=True,
                    help="the radcol executable (for radcol info --json)")
    a = ap.parse_args()
    fails = []

    def check(cond, what):
        if not cond:
            fails.append(what)

    with h5py.File(a.base + ".h5", "r") as f:
        def txt(v):
            """String attributes are fixed-length: h5py gives bytes."""
            check(isinstance(v, bytes), "fixed-length string attribute")
            return v.decode() if isinstance(v, bytes) else v

        r = {k: txt(v) if isinstance(v, (bytes, str)) else v
             for k, v in f.attrs.items()}
        check(r["format"] == "radcol-result", "format")
        check(int(r["format_version"]) == 1, "format_version")
        for k in ("radcol_version", "problem", "formulation", "kind",
                  "command_line", "utc_time", "status"):
            check(isinstance(r[k], str), "root attribute " + k)
        check(r["utc_time"].endswith("Z") and "T" in r["utc_time"], "utc")
        check(r["status"] == "acceptable", "status")

        p = {k: txt(v) if isinstance(v, (bytes, str)) else v
             for k, v in f["/problem"].attrs.items()}
        nx, ny, nu, np_ = (int(p[k]) for k in ("nx", "ny", "nu", "np"))
        nw = nx + ny + nu + np_
        check((nx, ny, nu, np_, int(p["nc"]), int(p["nb"])) == (2, 1, 1, 1, 2, 3),
              "dims")
        check(p["g"] == 9.80665 and p["mode"] == "slow" and p["L"] == 1.25,
              "parameters")
        check(p["param_tf"] == 2.5 and p["tf"] == 2.5, "clashing parameter")
        names = list(f["/problem/variable_names"].asstr()[()])
        kinds = list(f["/problem/variable_kinds"].asstr()[()])
        outs = list(f["/problem/output_names"].asstr()[()])
        invs = list(f["/problem/invariant_names"].asstr()[()])
        check(len(names) == nw, "variable_names")
        check(kinds == ["differential"] * nx + ["algebraic"] * ny +
              ["control"] * nu + ["parameter"] * np_, "variable_kinds")
        check(outs == ["pos"] and invs == ["h1", "h2"], "outputs/invariants")

        m = f["/mesh"]
        frac = m["fractions"][()]
        stages = m["stages"][()]
        t0, tf = p["t0"], f["/solution"].attrs["tf"]
        check(np.array_equal(frac, [0, 0.25, 0.6, 1]), "fractions")
        check(np.array_equal(stages, [3, 2, 1]), "stages")
        bp = m["breakpoints"][()]
        check(np.allclose(bp, t0 + (tf - t0) * frac, rtol=0, atol=1e-15),
              "breakpoints")
        nn = 1 + int(stages.sum())
        # Node layout rebuilt from the stage counts and Radau nodes.
        el, st, tt = [-1], [0], [t0]
        for k, s in enumerate(stages):
            c = radau_nodes(int(s))
            for j in range(s):
                el.append(k)
                st.append(j + 1)
                tt.append(bp[k] + c[j] * (bp[k + 1] - bp[k]))
        check(np.array_equal(m["node_element"][()], el), "node_element")
        check(np.array_equal(m["node_stage"][()], st), "node_stage")
        t = f["/solution/time"][()]
        check(np.array_equal(t, m["node_time"][()]), "node_time")
        check(np.allclose(t, tt, rtol=0, atol=1e-14), "node times vs Radau")

        sol = f["/solution"]
        for j, name in enumerate(names):
            v = sol[name][()]
            check(v.shape == (nn,), "shape " + name)
            want = np.sin((j + 1) * t) + j if j < nx + ny + nu else 1.75
            check(np.allclose(v, want, rtol=0, atol=1e-14), "values " + name)
        check(float(sol["parameters/L"][()]) == 1.75, "scalar parameter")
        check(np.allclose(sol["pos"][()], 2 * t, rtol=0, atol=0), "output")
        td = sol["dense/time"][()]
        check(np.allclose(td, np.linspace(0.5, 2.5, 7), atol=1e-15), "dense t")
        for j, name in enumerate(names[: nx + ny + nu]):
            check(np.allclose(sol["dense/" + name][()],
                              np.sin((j + 1) * td) + j, atol=1e-14),
                  "dense " + name)

        mu = f["/multipliers"]
        check("densities" in txt(mu.attrs["scaling"]), "scaling")
        for j, name in enumerate(names[:nx]):
            check(np.allclose(mu["costate_" + name][()], np.cos((j + 1) * t),
                              atol=1e-14), "costate " + name)
        check(np.allclose(mu["alg_T"][()], np.exp(-t), atol=1e-14), "alg")
        for k in range(2):
            check(np.allclose(mu["path_%d" % k][()], (k + 1) * t * t,
                              atol=1e-14), "path")
        check(mu["boundary"].shape == (3,), "boundary")
        for name in names:
            check(mu["bound_lo_" + name].shape == (nn,), "bound_lo")
            check(mu["bound_hi_" + name].shape == (nn,), "bound_hi")

        d = f["/diagnostics"]
        for k in ("status", "solver_status", "iterations", "objective",
                  "constraint_violation", "dual_infeasibility", "wall_s",
                  "ipopt_s", "eval_s", "nvars", "ncons", "nnz_jac", "nnz_hes"):
            check(k in d.attrs, "diagnostics attribute " + k)
        check(int(d.attrs["iterations"]) == 17, "iterations")
        re_ = d["reference_error"]
        rv = list(re_["variables"].asstr()[()])
        check(rv == names[: nx + ny + nu] + outs, "reference_error/variables")
        for k in ("nodes", "dense", "ends"):
            check(re_[k].shape == (len(rv),), "reference_error " + k)
        check(np.isnan(re_["dense"][2]), "NaN where undefined")
        inv = d["invariants"]
        check(list(inv["names"].asstr()[()]) == invs, "invariant names")
        check(inv["residual"].shape == (7, 2), "invariant residual")
        check(d["element_defect"].shape == (3,), "element_defect")
        ref = d["reference"]
        check(ref["ref_nodes"].shape == (nn, len(rv)), "ref_nodes")
        check(ref["ref_dense"].shape == (7, len(rv)), "ref_dense")

        rf = f["/refinement"]
        cols = ("iteration", "elements", "stages_min", "stages_max", "nvars",
                "est_error", "global_error", "ref_error", "ipopt_iterations", "wall_s",
                "status", "status_name")
        for k in cols:
            check(rf[k].shape == (2,), "refinement " + k)
        check(list(rf["status_name"].asstr()[()]) == ["converged", "max_iter"],
              "refinement status_name")

    run = subprocess.run([a.radcol, "info", "--json", a.base + ".h5"],
                         capture_output=True, text=True, check=False)
    check(run.returncode == 0, "radcol info --json exit status")
    info = json.loads(run.stdout) if run.returncode == 0 else {}
    if not info:
        fails.append("radcol info --json: " + run.stderr.strip())
        print("test_io_read: FAILED: " + ", ".join(fails))
        return 1
    check(info["problem"] == "io_test_model" and info["elements"] == 3,
          "json problem/elements")
    check(info["nodes"] == nn and info["iterations"] == 19 and
          info["iterations_last"] == 17, "json nodes, iterations (total 12 + 7)")
    check(info["max_error"]["T"]["dense"] is None, "json NaN -> null")
    check(set(info["invariants"]) == {"h1", "h2"}, "json invariants")
    check('--set "g"=9.80665' in info["command_line"],
          "json command_line with quotes")

    if fails:
        print("test_io_read: FAILED: " + ", ".join(fails))
        return 1
    print("test_io_read: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
