#!/usr/bin/python3
"""Cost and effect of bounds on the dense output (docs/dense-bounds.md).

For `radcol solve crane --set u1max=8` (flat inverse needs ~9.7 N, so the
bound is active) at several uniform meshes, with --dense-bounds on and off:
Ipopt iterations, wall time, NLP constraints, objective, the tracking error
(max |x - p1|, |z - p2| on the dense grid against the path, from the
reference errors of x and z) and the dense-grid bound violation of u1.
The objective difference on - off is the price of the Bernstein condition;
it must shrink as the mesh is refined (the condition's conservatism is
O(h^2)).  Reads radcol only through --json.  Writes results/dense-bounds.md.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def run(radcol, n, mode, out):
    cmd = [radcol, "solve", "crane", "--set", "u1max=8", "--dense-bounds",
           mode, "--json", "--quiet"]
    if n:
        cmd += ["-n", str(n)]
    cmd += ["-o", out]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    d = json.loads(p.stdout)
    d["cmd"] = " ".join(["radcol"] + cmd[1:-2])  # without "-o out"
    return d


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--radcol", default="build/radcol")
    ap.add_argument("--meshes", default="0,60,120,240",
                    help="comma-separated -n values; 0: the default mesh")
    ap.add_argument("--out", default="results/dense-bounds.md")
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(v) for v in a.meshes.split(",")]:
            for mode in ("on", "off"):
                d = run(a.radcol, n, mode, os.path.join(tmp, "r.h5"))
                me = d.get("max_error", {})
                track = max(me["x"]["dense"], me["z"]["dense"])
                dv = d["dense_violation"]["bound_u1"]
                rows.append((d["elements"], mode, d["status"], d["iterations"],
                             d["wall_s"], d["constraints"], d["objective"],
                             track, dv["max"], dv["relative"], d["cmd"]))
                print(rows[-1][:-1], flush=True)
    lines = ["# Bounds on the dense output: crane u1max=8", "",
             "Written by `scripts/dense_bounds_study.py` (docs/dense-bounds.md).",
             "", "| elements | dense bounds | status | iterations | wall s | "
             "constraints | objective | tracking error m | u1 over 8 N on the "
             "dense grid | relative |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]:.2f} | {r[5]} "
                     f"| {r[6]:.9g} | {r[7]:.3e} | {r[8]:.3e} | {r[9]:.2e} |")
    lines += ["", "Price of the condition (objective on - off):", ""]
    for i in range(0, len(rows) - 1, 2):
        lines.append(f"- {rows[i][0]} elements: {rows[i][6] - rows[i + 1][6]:.3e}")
    lines += ["", "Commands:", ""] + [f"    {r[10]}" for r in rows]
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
