#!/usr/bin/python3
"""Mesh-refinement (convergence) study of radcol formulations.

Runs `radcol solve PROBLEM -f F -s S -n N` for every formulation x stage count
x element count (or the cases of a JSON study file), then writes under
OUT/NAME/ (default results/studies/NAME/):

  table.md, table.csv   max reference errors per variable at the element ends
                        and on the dense grid, observed orders
                        log(e1/e2)/log(h1/h2) between consecutive meshes, and
                        the theoretical orders beside them (SPEC section 3)
  timing.csv            wall time and Ipopt iterations per run (not part of
                        the tables, so a re-run gives identical tables)
  err_vs_h_<F>.png      log-log error vs h per variable, one line per s
  err_vs_nvars.png      max error (ends) vs NLP variables
  err_vs_time.png       max error (ends) vs wall time
  jobs.txt              the command list of the study

Results are read only through the documented HDF5 layout
(docs/hdf5-layout.md): root attributes, /problem, /mesh, /diagnostics.

Modes:
  default           run every case (--jobs N in parallel), then collect
  --emit-jobs FILE  write the command list (one shell command a line, for GNU
                    parallel or a Slurm array; the binary is ${RADCOL:-radcol})
                    and exit
  --collect DIR     only gather existing HDF5 files of DIR and write the report

Theory (SPEC section 3; at element ends): index 0 and 1: every variable
2s-1; index 2: differential 2s-1, algebraic s; index 3: positions 2s-1,
velocities s, multipliers s-1.  On the dense grid the dense output caps these
at s+1 for states (degree-s polynomial) and s for algebraic variables and
controls (degree s-1).  Which states are velocities is problem knowledge: the
built-in table VELOCITIES below, or "orders" in a study file.

Study file (JSON):
  {"name": "pendulum", "problem": "pendulum",
   "formulations": ["accel", "index3"], "stages": [1, 2, 3],
   "elements": [20, 40, 80], "set": ["tf=2"], "ipopt": ["KEY=VALUE"],
   "orders": {"index3": {"T": "s-1"}}}
"""
import argparse
import concurrent.futures
import csv
import glob
import json
import math
import os
import re
import shlex
import subprocess
import sys

# Velocity-level states of index-3 formulations (order s at the ends).
VELOCITIES = {
    ("pendulum", "index3"): ["u", "v"],
    ("double-pendulum", "index3"): ["u1", "v1", "u2", "v2"],
}
# Errors below this are rounding, not truncation: no observed order.
ROUNDOFF = 1e-11


def parse_list(text, kind=int):
    """'1-5' or '1,2,4' -> list."""
    out = []
    for part in str(text).split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part and kind is int:
            a, b = part.split("-", 1)
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(kind(part))
    return out


def theory(expr, s):
    """'2s-1', 's', 's+1', 's-3' or '4' -> its value for this s."""
    m = re.fullmatch(r"\s*(\d*)\s*(s?)\s*([+-]\s*\d+)?\s*", expr)
    if not m or not (m.group(1) or m.group(2)):
        raise ValueError("order %r: expected a*s+b, e.g. 2s-1" % expr)
    a = int(m.group(1) or 1) if m.group(2) else 0
    b = int(m.group(3).replace(" ", "")) if m.group(3) else 0
    if not m.group(2):
        b += int(m.group(1))
    return a * s + b


def theory_expr(problem, formulation, index, name, kind, overrides):
    """Theoretical order at the element ends, as an expression in s."""
    o = overrides.get(formulation, {})
    if name in o:
        return o[name]
    if kind == "output":
        # derived outputs (smooth functions of the states): the states'
        # order for index <= 1, unknown otherwise
        return "2s-1" if index <= 1 else None
    if index <= 1:
        return "2s-1"
    if index == 2:
        return "2s-1" if kind == "differential" else "s"
    if index == 3:
        if kind != "differential":
            return "s-1"
        vel = VELOCITIES.get((problem, formulation), [])
        return "s" if name in vel else "2s-1"
    return None


def dense_cap(expr, kind):
    """The dense-output cap: s+1 for states (and outputs of them), s for
    algebraic variables and controls."""
    if expr is None:
        return None
    cap = "s" if kind in ("algebraic", "control") else "s+1"
    return "min(%s,%s)" % (expr, cap)


def eval_order(expr, s):
    if expr is None:
        return None
    if expr.startswith("min("):
        a, b = expr[4:-1].split(",")
        return min(theory(a, s), theory(b, s))
    return theory(expr, s)


def case_path(runs, problem, formulation, s, n):
    return os.path.join(runs, "%s-%s-s%d-n%d.h5" % (problem, formulation, s, n))


def build_jobs(args, study):
    jobs = []
    for f in study["formulations"]:
        for s in study["stages"]:
            for n in study["elements"]:
                out = case_path(args.runs, study["problem"], f, s, n)
                cmd = [args.radcol, "solve", study["problem"], "-f", f,
                       "-s", str(s), "-n", str(n), "--quiet", "-o", out]
                for kv in study.get("set", []):
                    cmd += ["--set", kv]
                for kv in study.get("ipopt", []):
                    cmd += ["--ipopt", kv]
                jobs.append(cmd)
    return jobs


def run_one(cmd, timeout):
    try:
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=timeout, text=True)
        return cmd, r.returncode, r.stderr.strip().splitlines()[-1:] or [""]
    except subprocess.TimeoutExpired:
        return cmd, "timeout", ["timed out after %g s" % timeout]


def text(v):
    """String attributes are fixed-length (docs/hdf5-layout.md): h5py gives bytes."""
    return v.decode() if isinstance(v, bytes) else v


def read_result(path):
    """One run, read through the documented layout."""
    import h5py
    import numpy as np
    with h5py.File(path, "r") as f:
        a = f.attrs
        pr = f["/problem"]
        names = list(pr["variable_names"].asstr()[()])
        kinds = list(pr["variable_kinds"].asstr()[()])
        d = f["/diagnostics"]
        rec = {
            "path": path,
            "problem": text(a["problem"]), "formulation": text(a["formulation"]),
            "index": int(pr.attrs["index"]),
            "t0": float(pr.attrs["t0"]), "tf": float(pr.attrs["tf"]),
            "stages": [int(v) for v in f["/mesh/stages"][()]],
            "breakpoints": f["/mesh/breakpoints"][()],
            "status": text(d.attrs["status"]),
            "iterations": int(d.attrs["iterations"]),
            "nvars": int(d.attrs["nvars"]),
            "wall_s": float(d.attrs["wall_s"]),
            "kinds": dict(zip(names, kinds)),
            "ends": {}, "dense": {},
        }
        if isinstance(rec["status"], bytes):
            rec["status"] = rec["status"].decode()
        if "reference_error" in d:
            re = d["reference_error"]
            vn = list(re["variables"].asstr()[()])
            for i, v in enumerate(vn):
                rec["ends"][v] = float(re["ends"][i])
                rec["dense"][v] = float(re["dense"][i])
        bp = np.asarray(rec["breakpoints"])
        rec["h"] = float(np.max(np.diff(bp)))
        rec["n"] = len(rec["stages"])
        rec["s"] = max(rec["stages"])
    return rec


def fmt(e):
    if e is None or (isinstance(e, float) and math.isnan(e)):
        return "-"
    return "%.2e" % e


def fmt_order(p):
    return "-" if p is None else "%.2f" % p


def observed(e1, e2, h1, h2):
    if None in (e1, e2) or any(map(math.isnan, (e1, e2))):
        return None
    if e1 < ROUNDOFF or e2 < ROUNDOFF or e1 <= 0 or e2 <= 0:
        return None
    return math.log(e1 / e2) / math.log(h1 / h2)


def collect(runs_dir, out_dir, overrides, title):
    import numpy as np  # noqa: F401  (h5py needs it)
    paths = sorted(glob.glob(os.path.join(runs_dir, "*.h5")))
    recs = []
    for p in paths:
        try:
            recs.append(read_result(p))
        except (OSError, KeyError) as exc:
            print("skipping %s: %s" % (p, exc), file=sys.stderr)
    if not recs:
        sys.exit("no readable result files in %s" % runs_dir)
    os.makedirs(out_dir, exist_ok=True)
    groups = {}
    for r in recs:
        groups.setdefault((r["formulation"], r["s"]), []).append(r)
    rows = []
    for (form, s), rs in sorted(groups.items()):
        rs.sort(key=lambda r: -r["h"])
        for i, r in enumerate(rs):
            prev = rs[i - 1] if i > 0 else None
            for v in r["ends"]:
                kind = r["kinds"].get(v, "output")
                te = theory_expr(r["problem"], form, r["index"], v, kind,
                                 overrides)
                td = dense_cap(te, kind)
                row = {
                    "problem": r["problem"], "formulation": form,
                    "index": r["index"], "s": s, "n": r["n"],
                    "h": r["h"], "nvars": r["nvars"],
                    "iterations": r["iterations"], "status": r["status"],
                    "variable": v, "kind": kind,
                    "err_ends": r["ends"][v], "err_dense": r["dense"][v],
                    "order_ends": None, "order_dense": None,
                    "theory_ends": eval_order(te, s),
                    "theory_dense": eval_order(td, s),
                }
                if prev is not None and v in prev["ends"]:
                    row["order_ends"] = observed(prev["ends"][v], r["ends"][v],
                                                 prev["h"], r["h"])
                    row["order_dense"] = observed(prev["dense"][v],
                                                  r["dense"][v], prev["h"],
                                                  r["h"])
                rows.append(row)
    write_tables(rows, recs, out_dir, title)
    write_plots(rows, recs, out_dir)
    return rows


def write_tables(rows, recs, out_dir, title):
    cols = ["problem", "formulation", "index", "s", "n", "h", "nvars",
            "iterations", "status", "variable", "kind", "err_ends",
            "order_ends", "theory_ends", "err_dense", "order_dense",
            "theory_dense"]
    with open(os.path.join(out_dir, "table.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow(["%.6e" % r[c] if isinstance(r[c], float) else
                        ("" if r[c] is None else r[c]) for c in cols])
    with open(os.path.join(out_dir, "timing.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["formulation", "s", "n", "nvars", "iterations", "wall_s",
                    "status"])
        for r in sorted(recs, key=lambda r: (r["formulation"], r["s"], r["n"])):
            w.writerow([r["formulation"], r["s"], r["n"], r["nvars"],
                        r["iterations"], "%.4f" % r["wall_s"], r["status"]])
    lines = ["# %s" % title, "",
             "Max reference error per variable; each cell is `error (observed"
             " order | theory)`. Orders are log(e1/e2)/log(h1/h2) against the"
             " previous (coarser) mesh of the same s; `-` where an error is"
             " below %.0e (rounding) or there is no coarser mesh." % ROUNDOFF,
             ""]
    forms = []
    for r in rows:
        if r["formulation"] not in forms:
            forms.append(r["formulation"])
    for form in forms:
        fr = [r for r in rows if r["formulation"] == form]
        vars_ = []
        for r in fr:
            if r["variable"] not in vars_:
                vars_.append(r["variable"])
        index = fr[0]["index"]
        for grid in ("ends", "dense"):
            lines.append("## %s (index %d), %s" % (
                form, index, "element ends" if grid == "ends" else
                "dense grid"))
            lines.append("")
            lines.append("| s | n | status | " + " | ".join(vars_) + " |")
            lines.append("|---|---|---|" + "---|" * len(vars_))
            keys = sorted({(r["s"], r["n"]) for r in fr})
            for (s, n) in keys:
                cells = []
                st = ""
                for v in vars_:
                    m = [r for r in fr if r["s"] == s and r["n"] == n and
                         r["variable"] == v]
                    if not m:
                        cells.append("")
                        continue
                    r = m[0]
                    st = r["status"]
                    t = r["theory_" + grid]
                    cells.append("%s (%s \\| %s)" % (
                        fmt(r["err_" + grid]), fmt_order(r["order_" + grid]),
                        "-" if t is None else t))
                lines.append("| %d | %d | %s | %s |" % (s, n, st,
                                                        " | ".join(cells)))
            lines.append("")
    with open(os.path.join(out_dir, "table.md"), "w") as f:
        f.write("\n".join(lines))


def write_plots(rows, recs, out_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    forms = sorted({r["formulation"] for r in rows})
    for form in forms:
        fr = [r for r in rows if r["formulation"] == form]
        vars_ = []
        for r in fr:
            if r["variable"] not in vars_:
                vars_.append(r["variable"])
        nc = min(3, len(vars_))
        nr = (len(vars_) + nc - 1) // nc
        fig, axes = plt.subplots(nr, nc, figsize=(4 * nc, 3.2 * nr),
                                 squeeze=False)
        for ax, v in zip(axes.flat, vars_):
            for s in sorted({r["s"] for r in fr}):
                pts = sorted([(r["h"], r["err_ends"], r["err_dense"])
                              for r in fr if r["variable"] == v and
                              r["s"] == s and r["err_ends"] > 0])
                if not pts:
                    continue
                h = [p[0] for p in pts]
                line, = ax.loglog(h, [p[1] for p in pts], "o-",
                                  label="s=%d" % s)
                ax.loglog(h, [p[2] for p in pts], "x--",
                          color=line.get_color())
            ax.set_title("%s: %s (ends o-, dense x--)" % (form, v),
                         fontsize=8)
            ax.set_xlabel("h")
            ax.set_ylabel("max error")
            ax.grid(True, which="both", alpha=0.3)
        for ax in list(axes.flat)[len(vars_):]:
            ax.axis("off")
        axes.flat[0].legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, "err_vs_h_%s.png" % form), dpi=80)
        plt.close(fig)
    for key, label, fname in (("nvars", "NLP variables", "err_vs_nvars.png"),
                              ("wall_s", "wall time (s)", "err_vs_time.png")):
        nc = min(3, len(forms))
        nr = (len(forms) + nc - 1) // nc
        fig, axes = plt.subplots(nr, nc, figsize=(4 * nc, 3.2 * nr),
                                 squeeze=False)
        for ax, form in zip(axes.flat, forms):
            rs = [r for r in recs if r["formulation"] == form]
            for s in sorted({r["s"] for r in rs}):
                pts = sorted((r[key], max(r["ends"].values()) if r["ends"]
                              else float("nan")) for r in rs if r["s"] == s)
                ax.loglog([p[0] for p in pts], [p[1] for p in pts], "o-",
                          label="s=%d" % s)
            ax.set_title("%s: max error at ends" % form, fontsize=8)
            ax.set_xlabel(label)
            ax.grid(True, which="both", alpha=0.3)
        for ax in list(axes.flat)[len(forms):]:
            ax.axis("off")
        axes.flat[0].legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, fname), dpi=80)
        plt.close(fig)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--problem", help="problem name (radcol list)")
    ap.add_argument("--formulations", default="",
                    help="comma-separated formulations (default: all of the "
                    "study file)")
    ap.add_argument("--stages", default="1-5", help="e.g. 1-5 or 2,3 "
                    "(default: 1-5)")
    ap.add_argument("--elements", default="10,20,40,80",
                    help="comma-separated element counts (default: "
                    "10,20,40,80)")
    ap.add_argument("--set", action="append", default=[],
                    help="NAME=VALUE passed as radcol solve --set")
    ap.add_argument("--ipopt", action="append", default=None,
                    help="KEY=VALUE passed as --ipopt (default: "
                    "mumps_permuting_scaling=0, see docs/mesh-refinement.md)")
    ap.add_argument("--study", help="JSON study file (overrides the options "
                    "above where it sets them)")
    ap.add_argument("--name", help="study name (default: the problem)")
    ap.add_argument("--radcol", default="build/radcol",
                    help="path of the radcol binary (default: build/radcol)")
    ap.add_argument("--out", default="results/studies",
                    help="report root (default: results/studies)")
    ap.add_argument("--runs", help="directory of the HDF5 runs (default: "
                    "results/runs/NAME, git-ignored)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="parallel radcol processes (default: 1)")
    ap.add_argument("--timeout", type=float, default=600.0,
                    help="seconds per run (default: 600)")
    ap.add_argument("--emit-jobs", metavar="FILE",
                    help="write the command list to FILE and exit")
    ap.add_argument("--collect", metavar="DIR",
                    help="only gather the HDF5 files of DIR and write the "
                    "report")
    args = ap.parse_args()

    study = {}
    if args.study:
        with open(args.study) as f:
            study = json.load(f)
    if args.problem:
        study.setdefault("problem", args.problem)
    if args.formulations:
        study["formulations"] = args.formulations.split(",")
    study.setdefault("stages", parse_list(args.stages))
    study.setdefault("elements", parse_list(args.elements))
    study.setdefault("set", args.set)
    study.setdefault("ipopt", args.ipopt if args.ipopt is not None else
                     ["mumps_permuting_scaling=0"])
    name = args.name or study.get("name") or study.get("problem")
    if not name:
        ap.error("give --problem, --study or --name")
    args.runs = args.runs or os.path.join("results", "runs", name)
    out_dir = os.path.join(args.out, name)
    title = "Refinement study: %s" % name

    if args.collect:
        collect(args.collect, out_dir, study.get("orders", {}), title)
        print("wrote %s" % out_dir)
        return 0
    if "problem" not in study or not study.get("formulations"):
        ap.error("a run needs --problem and --formulations (or a study file)")
    jobs = build_jobs(args, study)
    # The binary is a placeholder, so committed job files name no build
    # directory of the machine they were made on.
    text = ("# radcol commands of this study, one a line; run from the "
            "repository root with\n# RADCOL=BUILD/radcol (default: radcol on "
            "PATH), e.g. RADCOL=build/radcol sh jobs.txt\n" +
            "\n".join(" ".join(["${RADCOL:-radcol}"] +
                               [shlex.quote(c) for c in j[1:]])
                      for j in jobs) + "\n")
    if args.emit_jobs:
        with open(args.emit_jobs, "w") as f:
            f.write(text)
        print("wrote %d commands to %s" % (len(jobs), args.emit_jobs))
        return 0
    if not os.access(args.radcol, os.X_OK):
        ap.error("--radcol %s: not an executable" % args.radcol)
    os.makedirs(args.runs, exist_ok=True)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "jobs.txt"), "w") as f:
        f.write(text)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        for cmd, rc, msg in ex.map(lambda c: run_one(c, args.timeout), jobs):
            if rc not in (0, 1):
                failed += 1
                print("failed (%s): %s: %s" % (rc, " ".join(cmd), msg[0]),
                      file=sys.stderr)
    collect(args.runs, out_dir, study.get("orders", {}), title)
    print("%d runs (%d failed to write a result); wrote %s" %
          (len(jobs), failed, out_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
