#!/usr/bin/env python3
"""Published problems with switches solved by `--refine` with free
breakpoints (docs/switching.md), against their closed-form optima; one
CASE per CTest.

usage: test_switching.py RADCOL CASE

Cases (each `radcol solve ... --refine 1e-8 --json`: status converged, exit
0, the objective within 1e-9 relative of the closed form, every switch time
listed within 1e-8 of the closed form's):
  bd_ninth     Bryson-Denham, x <= l = 1/9: J* = 4 / (9 l) = 4, boundary arc
               [3 l, 1 - 3 l] (Bryson and Ho 1975, sec. 3.11)
  bd_tenth     the same with l = 0.1: J* = 40/9, arc [0.3, 0.7]
  bd_uniform   the contrast: Bryson-Denham on uniform meshes of 20, 40 and 80
               elements of 3 stages without refinement (the junctions 1/3,
               2/3 inside elements): J's error stays above 1e-7 (the orders
               observed are printed: erratic, 2 to 4, where Radau IIA's
               superconvergence 2s - 1 = 5 would hold on a smooth solution),
               while the free-breakpoint run is within 1e-9 and below 1e-3
               times the best uniform error
  di_rest      minimum-time double integrator from rest at x0 = 1, umax = 1:
               tf* = 2 sqrt(x0 / umax) = 2, one switch at tf*/2
  di_moving    x0 = 1, v0 = 1, umax = 2 (above the switching curve):
               v_s = -sqrt(umax x0 + v0^2/2), t1 = (v0 - v_s) / umax,
               tf* = (v0 - 2 v_s) / umax
  di_mirror    x0 = -1, v0 = 0.5, umax = 1 (below the curve: the mirror)
  pt_refine    `radcol solve crane -f pathtime` (the issue-19 limits, the
               straight line) `--refine 1e-8` from the default mesh and from
               -n 40: both converged, exit 0, tf agreeing to 1e-9 relative,
               the three u1 switches at free breakpoints (before: a
               continuity pin of sigma4 where u1 jumps made the plan
               infeasible, and the run stopped at the refinement cap)
  bd_default   `radcol solve bryson-denham` with no option (the adaptive
               default to 1e-6): converged, exit 0, free breakpoints at the
               junctions, and u (the dense output, `radcol export`) within
               1e-6 of the closed form u = -2/(3l) (1 - t/(3l)) on [0, 3l],
               0 on the arc, mirrored on [1 - 3l, 1] (before: the loop
               stopped on an estimate of 7.2e-7 with u 1.7e-5 off at the
               kinks)
  di_default   `radcol solve double-integrator` with no option: converged,
               tf within 1e-9 of 2, one switch at 1 within 1e-8
"""
import json
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_check import check, run, verdict  # noqa: E402


def solve(radcol, tmp, model, sets, *extra):
    out = os.path.join(tmp, "s.h5")
    args = ["solve", model]
    for s in sets:
        args += ["--set", s]
    p = run(radcol, *args, *extra, "-o", out, "--quiet", "--json")
    return json.loads(p.stdout) if p.stdout.strip() else {}


def switch_times(d):
    return sorted(s["t"] for s in d.get("structure", {}).get("switches", []))


def expect(radcol, tmp, model, sets, J_ref, t_ref, what):
    d = solve(radcol, tmp, model, sets, "--refine", "1e-8")
    J = d.get("objective", float("nan"))
    rel = abs(J - J_ref) / abs(J_ref)
    ts = switch_times(d)
    print("%s: status %s, %s solves, %.2f s, J %.15g (closed form %.15g, "
          "relative error %.2e), switches %s (closed form %s), segments %s" %
          (what, d.get("status"), d.get("solves"), d.get("wall_s", -1), J,
           J_ref, rel, ["%.12f" % t for t in ts],
           ["%.12f" % t for t in t_ref],
           d.get("structure", {}).get("segments")))
    check(d.get("status") == "converged",
          "%s: status %s, expected converged" % (what, d.get("status")))
    check(rel <= 1e-9, "%s: J %.15g, closed form %.15g: relative error "
          "%.2e, expected <= 1e-9" % (what, J, J_ref, rel))
    check(len(ts) == len(t_ref), "%s: %d switches listed, expected %d" %
          (what, len(ts), len(t_ref)))
    for t, r in zip(ts, t_ref):
        check(abs(t - r) <= 1e-8, "%s: switch at %.12f, closed form %.12f: "
              "expected within 1e-8" % (what, t, r))
    check(d.get("structure", {}).get("segments", 0) == len(t_ref) + 1,
          "%s: %s segments, expected free breakpoints at the %d switches" %
          (what, d.get("structure", {}).get("segments"), len(t_ref)))
    return d


def di_closed_form(x0, v0, umax):
    """tf* and the switch time of the minimum-time double integrator."""
    s = 1.0
    if not x0 > -v0 * abs(v0) / (2 * umax):  # below the curve: mirror
        x0, v0, s = -x0, -v0, -1.0
    vs = -math.sqrt(umax * x0 + v0 * v0 / 2)
    return (v0 - 2 * vs) / umax, (v0 - vs) / umax, s


def main():
    radcol, case = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        if case in ("bd_ninth", "bd_tenth"):
            l = 1.0 / 9.0 if case == "bd_ninth" else 0.1
            expect(radcol, tmp, "bryson-denham", ["l=%.17g" % l],
                   4.0 / (9.0 * l), [3 * l, 1 - 3 * l], case)
        elif case == "bd_uniform":
            errs = []
            for n in (20, 40, 80):
                d = solve(radcol, tmp, "bryson-denham", [], "-n", str(n),
                          "--estimate", "local")
                errs.append(abs(d.get("objective", float("nan")) - 4.0) / 4)
                print("uniform %d x 3 without refinement: J %.15g, relative "
                      "error %.2e" % (n, d.get("objective", float("nan")),
                                      errs[-1]))
            orders = [math.log(errs[i] / errs[i + 1], 2) for i in range(2)]
            print("observed orders %.2f %.2f" % tuple(orders))
            check(min(errs) > 1e-7, "uniform meshes: J errors %s, expected "
                  "all > 1e-7 (kinks inside elements)" % errs)
            d = expect(radcol, tmp, "bryson-denham", [], 4.0,
                       [1 / 3.0, 2 / 3.0], "free breakpoints")
            e = abs(d.get("objective", float("nan")) - 4.0) / 4
            check(e < 1e-3 * min(errs), "free breakpoints: J error %.2e, "
                  "expected below 1e-3 x the best uniform mesh's %.2e" %
                  (e, min(errs)))
        elif case == "bd_default":
            l = 1.0 / 9.0
            out = os.path.join(tmp, "s.h5")
            p = run(radcol, "solve", "bryson-denham", "-o", out, "--quiet",
                    "--json")
            d = json.loads(p.stdout) if p.stdout.strip() else {}
            check(p.returncode == 0, "exit %d, expected 0" % p.returncode)
            check(d.get("status") == "converged",
                  "status %s, expected converged" % d.get("status"))
            check(d.get("structure", {}).get("segments", 0) == 3,
                  "%s segments, expected free breakpoints at the 2 "
                  "junctions" % d.get("structure", {}).get("segments"))
            csv = os.path.join(tmp, "u.csv")
            run(radcol, "export", out, "--vars", "u", "--step", "0.001",
                "-o", csv)
            worst, at = 0.0, 0.0
            with open(csv) as f:
                next(f)
                for line in f:
                    t, u = (float(v) for v in line.split(","))
                    tau = min(t, 1.0 - t)
                    ref = -2 / (3 * l) * (1 - tau / (3 * l)) \
                        if tau < 3 * l else 0.0
                    if abs(u - ref) > worst:
                        worst, at = abs(u - ref), t
            scale = 2 / (3 * l)
            print("bd_default: status %s, %s solves, %.2f s, %s elements, "
                  "J %.15g, max |u - closed form| %.2e at t = %.3f (scale "
                  "%g: %.2e relative)" %
                  (d.get("status"), d.get("solves"), d.get("wall_s", -1),
                   d.get("elements"), d.get("objective", float("nan")),
                   worst, at, scale, worst / scale))
            check(worst / scale <= 1e-6, "u %.2e off the closed form "
                  "(relative %.2e), expected <= 1e-6" % (worst,
                                                         worst / scale))
        elif case == "pt_refine":
            lim = ["u1max=10", "u2max=3", "taumin=0", "thetamax=0.2",
                   "rmin=0.5"]
            tfs = []
            for extra in ([], ["-n", "40"]):
                d = solve(radcol, tmp, "crane", lim, "-f", "pathtime",
                          "--refine", "1e-8", *extra)
                ts = [s["t"] for s in d.get("structure", {}).get(
                    "switches", []) if s.get("boundary", -1) >= 0]
                tfs.append(d.get("tf", float("nan")))
                print("pathtime --refine 1e-8 %s: status %s, %s solves, "
                      "%.2f s, tf %.15g, switches at free breakpoints %s" %
                      (" ".join(extra) or "(default mesh)", d.get("status"),
                       d.get("solves"), d.get("wall_s", -1), tfs[-1],
                       ["%.12f" % t for t in ts]))
                check(d.get("status") == "converged", "pathtime %s: status "
                      "%s, expected converged" % (extra, d.get("status")))
                check(len(ts) == 3, "pathtime %s: %d switches at free "
                      "breakpoints, expected 3" % (extra, len(ts)))
            rel = abs(tfs[0] - tfs[1]) / tfs[1]
            print("tf from the two meshes: relative difference %.2e" % rel)
            check(rel <= 1e-9, "tf %.15g and %.15g: relative difference "
                  "%.2e, expected <= 1e-9" % (tfs[0], tfs[1], rel))
        elif case == "di_default":
            d = solve(radcol, tmp, "double-integrator", [])
            tf, ts = d.get("tf", float("nan")), switch_times(d)
            print("di_default: status %s, %s solves, tf %.15g, switches %s" %
                  (d.get("status"), d.get("solves"), tf, ts))
            check(d.get("status") == "converged",
                  "status %s, expected converged" % d.get("status"))
            check(abs(tf - 2.0) <= 2e-9, "tf %.15g, expected 2 within 1e-9 "
                  "relative" % tf)
            check(len(ts) == 1 and abs(ts[0] - 1.0) <= 1e-8,
                  "switches %s, expected one at 1 within 1e-8" % ts)
        elif case.startswith("di_"):
            x0, v0, umax = {"di_rest": (1.0, 0.0, 1.0),
                            "di_moving": (1.0, 1.0, 2.0),
                            "di_mirror": (-1.0, 0.5, 1.0)}[case]
            tf, t1, _ = di_closed_form(x0, v0, umax)
            expect(radcol, tmp, "double-integrator",
                   ["x0=%g" % x0, "v0=%g" % v0, "umax=%g" % umax], tf, [t1],
                   case)
        else:
            print("unknown case %s" % case, file=sys.stderr)
            return 2
    return verdict(case)


if __name__ == "__main__":
    sys.exit(main())
