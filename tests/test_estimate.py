#!/usr/bin/python3
"""End-to-end tests of the a-posteriori error estimate (issue 14 items 1-3,
5, 6 and issue 17 item 5), one CTest per case:

  stages20     --refine at 20 stages: the PHR estimate needs 21 stages; the
               mesh must not be split (it was split forever: est = +inf)
  refine_dense pendulum accel --refine 1e-8: every variable's true error at
               the nodes and on the dense output <= 1e-8 (relative to
               max(1, max|v|)); it was 1.07e-7 in T; history has the global
               estimate; iterations totals the refinement solves
  reliability  global estimate within [1/3, 10] of the true error on three
               cases not used to tune it; /diagnostics/error_estimate layout
  error_tol    --error-tol below the estimate: exit 1, status inaccurate in
               JSON and file; above it: exit 0; on a fixed mesh without it
               a warning above the accuracy (default 1e-6), exit 0
  servo        crane servo, 60 elements from a coarse (non-flat) guess: the
               global estimate of this index-5 square system cannot be
               integrated (no Ipopt for square systems), the local one is
               above 1e-3 and --error-tol 1e-3 exits 1, inaccurate
  bangbang     crane pathtime (bang-bang u1): the enriched re-solve needs more
               than 30 iterations and must still give the global estimate,
               large only in the elements holding a switch; pendulum coord
               over a zero of x: the enriched integration (the march's
               Newton, no Ipopt) gives the global estimate in under 1 s
  json_docs    every key printed by solve/init/simulate/check/info/list
               --json is documented in docs/json.md, and every documented
               key of these commands is printed by one of the runs or listed
               in JSON_CONDITIONAL with its condition; stages is an int
  bad_input    --estimate bogus, --error-tol 0, --error-tol with --estimate
               off: exit 2, message naming the value, no file written

usage: test_estimate.py RADCOL SOURCE_DIR CASE
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import h5py
import numpy as np

FAILS = []


def check(cond, msg):
    if not cond:
        FAILS.append(msg)
        print("FAIL:", msg)


def radcol(*args):
    p = subprocess.run([RADCOL] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def truth(path):
    """max over x, y, u of max(nodes, dense) reference error / scale."""
    with h5py.File(path, "r") as f:
        names = list(f["/problem/variable_names"].asstr()[()])
        kinds = list(f["/problem/variable_kinds"].asstr()[()])
        re_ = f["/diagnostics/reference_error"]
        rv = list(re_["variables"].asstr()[()])
        worst, which = 0.0, ""
        for v, k in zip(names, kinds):
            if k == "parameter" or v not in rv:
                continue
            i = rv.index(v)
            e = np.nanmax([re_["nodes"][i], re_["dense"][i]])
            s = max(1.0, float(np.max(np.abs(f["/solution"][v][()]))))
            if np.isfinite(e) and e / s > worst:
                worst, which = e / s, v
        return worst, which


def case_stages20(tmp):
    out = os.path.join(tmp, "s20.h5")
    rc, so, se = radcol("solve", "pendulum", "-f", "accel", "-n", "4", "-s",
                        "20", "--refine", "1e-3", "--quiet", "--json", "-o",
                        out)
    check(rc == 0, "stages20: exit %d: %s" % (rc, se))
    j = json.loads(so)
    check(j["elements"] == 4, "stages20: %d elements, expected the 4 of "
          "the initial mesh (no split)" % j["elements"])
    with h5py.File(out, "r") as f:
        est = f["/refinement/est_error"][()]
    check(len(est) == 1 and np.isfinite(est[0]) and est[0] < 1e-3,
          "stages20: refinement estimates %s, expected one finite < 1e-3"
          % est)


def case_refine_dense(tmp):
    out = os.path.join(tmp, "acc.h5")
    rc, so, se = radcol("solve", "pendulum", "-f", "accel", "-n", "10",
                        "--refine", "1e-8", "--quiet", "--json", "-o", out)
    check(rc == 0, "refine_dense: exit %d: %s" % (rc, se))
    j = json.loads(so)
    w, v = truth(out)
    check(w <= 1e-8, "refine_dense: true error %.3g in %s, expected <= 1e-8 "
          "at the nodes and on the dense grid" % (w, v))
    check(j["max_error"]["T"]["dense"] <= 1e-8,
          "refine_dense: T dense error %.3g (was 1.07e-7)"
          % j["max_error"]["T"]["dense"])
    with h5py.File(out, "r") as f:
        r = f["/refinement"]
        g = r["global_error"][()]
        it = r["ipopt_iterations"][()]
        check(np.isfinite(g[-1]) and g[-1] <= 1e-8,
              "refine_dense: last global estimate %s" % g[-1])
        check(j["iterations"] == int(np.sum(it)) and
              j["iterations_last"] == int(it[-1]) and j["solves"] == len(it),
              "refine_dense: iterations %d / last %d / solves %d vs rows %s"
              % (j["iterations"], j["iterations_last"], j["solves"], it))
        e = f["/diagnostics/error_estimate"]
        check(e.attrs["kind"] in ("global", b"global"),
              "refine_dense: estimate kind %s" % e.attrs["kind"])
        check(abs(e.attrs["max"] - g[-1]) <= 1e-12 * max(1.0, g[-1]) + 1e-30,
              "refine_dense: file estimate %s vs last row %s"
              % (e.attrs["max"], g[-1]))


def case_reliability(tmp):
    # Cases and meshes not used when the estimate was written (the study
    # in results/estimate-reliability.md uses other meshes; double-pendulum
    # index1 30 x 3 now ends inaccurate, dense violation 0.10).
    cases = [("pendulum", "ggl", "15", "3"), ("crane", "reduced", "12", "4"),
             ("double-pendulum", "index1", "60", "3")]
    for prob, form, n, s in cases:
        out = os.path.join(tmp, "%s-%s.h5" % (prob, form))
        rc, so, se = radcol("solve", prob, "-f", form, "-n", n, "-s", s,
                            "--quiet", "-o", out)
        check(rc == 0, "reliability %s/%s: exit %d: %s" % (prob, form, rc, se))
        w, v = truth(out)
        with h5py.File(out, "r") as f:
            e = f["/diagnostics/error_estimate"]
            est = float(e.attrs["max"])
            nel = f["/mesh/stages"].shape[0]
            nv = len(e["variables"][()])
            check(e["element_variable"].shape == (nel, nv) and
                  e["element"].shape == (nel,) and e["local"].shape == (nel,)
                  and e["scale"].shape == (nv,) and e["variable"].shape ==
                  (nv,), "reliability: error_estimate dataset shapes")
            rel = e["variable"][()] / e["scale"][()]
            check(abs(np.max(rel) - est) <= 1e-12 * est,
                  "reliability: max %g != max of variable/scale %g"
                  % (est, np.max(rel)))
        ratio = est / w
        print("%s/%s n=%s s=%s: estimate %.3g, true %.3g (%s), ratio %.2f"
              % (prob, form, n, s, est, w, v, ratio))
        check(1.0 / 3.0 <= ratio <= 10.0,
              "reliability %s/%s: estimate %.3g vs true %.3g: ratio %.2f "
              "outside [1/3, 10]" % (prob, form, est, w, ratio))


def case_error_tol(tmp):
    out = os.path.join(tmp, "et.h5")
    rc, so, se = radcol("solve", "pendulum", "-f", "accel", "-n", "10",
                        "--quiet", "--json", "--error-tol", "1e-4", "-o", out)
    j = json.loads(so)
    check(rc == 1, "error_tol: exit %d, expected 1" % rc)
    check(j["status"] == "inaccurate", "error_tol: status %s" % j["status"])
    check("inaccurate" in se and "--error-tol 0.0001" in se,
          "error_tol: stderr does not say inaccurate / name the tolerance: "
          + se)
    check(os.path.exists(out), "error_tol: file not written")
    with h5py.File(out, "r") as f:
        st = f["/diagnostics"].attrs["status"]
        check(st in ("inaccurate", b"inaccurate"),
              "error_tol: file status %s" % st)
    rc, so, se = radcol("solve", "pendulum", "-f", "accel", "-n", "10",
                        "--quiet", "--json", "--error-tol", "1", "-o", out)
    j = json.loads(so)
    check(rc == 0 and j["status"] == "converged"
          and j["accuracy"]["verdict"] == "met" and j["accuracy"]["binding"],
          "error_tol 1: exit %d, %s" % (rc, j["accuracy"]))
    check("does not meet" not in se, "error_tol 1: warning: " + se)
    # without --error-tol a fixed mesh reports the verdict against the
    # default accuracy 1e-6: a warning, exit 0
    rc, so, se = radcol("solve", "pendulum", "-f", "accel", "-n", "10",
                        "--quiet", "--json", "-o", out)
    j = json.loads(so)
    check(rc == 0 and j["status"] == "converged"
          and j["accuracy"]["verdict"] == "above"
          and not j["accuracy"]["binding"],
          "fixed mesh: exit %d, %s" % (rc, j["accuracy"]))
    check("warning" in se and "does not meet the accuracy 1e-06" in se
          and "not binding" in se,
          "fixed mesh: warning above the default accuracy missing: " + se)
    rc, so, se = radcol("solve", "pendulum", "-f", "accel", "-n", "40",
                        "--accuracy", "1e-3", "--quiet", "-o", out)
    check(rc == 0 and "does not meet" not in se,
          "no warning expected at n = 40 (estimate 7e-5) with --accuracy "
          "1e-3: " + se)


def case_servo(tmp):
    coarse = os.path.join(tmp, "servo10.h5")
    out = os.path.join(tmp, "servo60.h5")
    rc, so, se = radcol("solve", "crane", "-f", "servo", "-n", "10",
                        "--quiet", "--estimate", "off", "-o", coarse)
    check(os.path.exists(coarse), "servo: coarse file missing: " + se)
    rc, so, se = radcol("solve", "crane", "-f", "servo", "-n", "60",
                        "--guess", coarse, "--quiet", "--json",
                        "--error-tol", "1e-3", "-o", out)
    j = json.loads(so)
    check(rc == 1 and j["status"] == "inaccurate",
          "servo: exit %d status %s, expected 1 inaccurate" % (rc, j["status"]))
    # A square system's global estimate never runs Ipopt (radcol/march.h):
    # at index 5 the element-by-element Newton of the enriched integration
    # does not converge (nor does the solve's own: Ipopt solved it), so the
    # estimate is the local one and says why; it is still above 1e-3.
    e = j["error_estimate"]
    check(e["kind"] == "local" and "enriched integration" in e["note"]
          and "failed" in e["note"],
          "servo: expected the local estimate with the enriched "
          "integration's failure in the note: %s" % e["note"])
    check(e["max"] > 1e-3, "servo: local estimate %s not above 1e-3"
          % e["max"])
    # the fallback is said on stderr too (issue 29 item 4)
    check("no global error estimate" in se and
          "the local estimate is reported instead" in se,
          "servo: no warning that the global estimate fell back: %s" % se)
    scale = max(abs(v) for v in h5py.File(out, "r")["/solution/u1"][()])
    err_u1 = j["max_error"]["u1"]["dense"] / max(1.0, scale)
    print("servo n=60 from n=10: local estimate %.3g, true u1 error %.3g "
          "relative" % (e["max"], err_u1))
    check(err_u1 > 1e-3, "servo: u1 is in fact accurate (%g)" % err_u1)


def case_bangbang(tmp):
    out = os.path.join(tmp, "pt.h5")
    rc, so, se = radcol("solve", "crane", "-f", "pathtime", "-n", "40",
                        "--set", "u1max=10", "--set", "u2max=3", "--set",
                        "thetamax=0.2", "--set", "rmin=0.5", "--quiet",
                        "--json", "-o", out)
    e = json.loads(so)["error_estimate"]
    print("pathtime 40 x 5: estimate %s %.3g after %s enriched iterations"
          % (e["kind"], e["max"], e.get("enriched_iterations")))
    check(e["kind"] == "global" and e["enriched_iterations"] > 30,
          "bangbang: expected a global estimate from > 30 enriched "
          "iterations: %s" % {k: v for k, v in e.items() if k != "variables"})
    big = [k for k, v in enumerate(e["elements"]) if v > 1e-2]
    print("elements above 1e-2:", big, "of", len(e["elements"]))
    check(0 < len(big) <= 6, "bangbang: large estimates in elements %s, "
          "expected a few (the switches)" % big)
    # pendulum coord over a zero of x (a square system): the enriched solve
    # with one more stage per element is Newton's and succeeds (the split
    # mesh of radcol 0.1 put a node on the singular point and fell back to
    # Ipopt, which ran 100 iterations to its cap and left the local
    # estimate, 4e-4 against a true 6e-2); the global estimate must match
    # the true error
    out = os.path.join(tmp, "coord.h5")
    rc, so, se = radcol("solve", "pendulum", "-f", "coord", "-n", "30", "-s",
                        "3", "--tf", "5", "--quiet", "--json", "-o", out)
    j = json.loads(so)
    e = j["error_estimate"]
    w, v = truth(out)
    print("coord over a zero of x: %s %.3g (true %.3g in %s): %s"
          % (e["kind"], e["max"], w, v, e["note"]))
    # the enriched integration of a square system (the march's Newton, no
    # Ipopt) passes the zero of x (it capped Ipopt's re-solve at 100
    # iterations before)
    check(e["kind"] == "global" and "integrated element by element"
          in e["note"] and e["enriched_wall_s"] < 1.0,
          "bangbang: coord estimate not from the enriched integration: %s"
          % e["note"])
    check(w / 3.0 <= e["max"] <= 10.0 * w,
          "bangbang: coord: estimate %.3g vs true %.3g outside [1/3, 10]"
          % (e["max"], w))


def doc_keys(src):
    with open(os.path.join(src, "docs", "json.md")) as f:
        text = f.read()
    return set(re.findall(r"^\|\s*`([A-Za-z0-9_.\[\]<>]+)`", text, re.M))


def keys_of(obj, prefix=""):
    """Documented key paths: dicts with <name> for per-variable maps."""
    out = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(prefix + k)
            out |= keys_of(v, prefix + k + ".")
    elif isinstance(obj, list):
        for v in obj:
            out |= keys_of(v, prefix + "[].")
    return out


VARIABLE_MAPS = ("max_error", "invariants", "error_estimate.variables",
                 "dense_violation", "point", "residuals", "final",
                 "structure.switches.[].jumps")


def normalise(path):
    for m in VARIABLE_MAPS:
        if path.startswith(m + "."):
            rest = path[len(m) + 1:].split(".", 1)
            return m + ".<name>" + ("." + rest[1] if len(rest) > 1 else "")
    return path


# Documented keys that the runs of case_json_docs do not emit, each with the
# condition that makes it appear (the test fails on a stale entry).
JSON_CONDITIONAL = {
    'check.assembled': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.constraints': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.data_points': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.entries': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.error': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.failure_list': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.failure_list[].col_name': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.failure_list[].expected': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.failure_list[].got': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.failure_list[].row_name': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.failure_list[].what': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.failures': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.free_durations': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.link_blocks': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.linkage_rows': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.max_rel_err': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.pass': 'radcol check --job FILE (a multiphase job)',
    'check.assembled.variables': 'radcol check --job FILE (a multiphase job)',
    'check.formulations.[].failure_list.[].block': 'a failing check (an entry outside the tolerance)',
    'check.formulations.[].failure_list.[].bound': 'a failing check (an entry outside the tolerance)',
    'check.formulations.[].failure_list.[].col': 'a failing check (an entry outside the tolerance)',
    'check.formulations.[].failure_list.[].col_name': 'a failing check (an entry outside the tolerance)',
    'check.formulations.[].failure_list.[].expected': 'a failing check (an entry outside the tolerance)',
    'check.formulations.[].failure_list.[].got': 'a failing check (an entry outside the tolerance)',
    'check.formulations.[].failure_list.[].kind': 'a failing check (an entry outside the tolerance)',
    'check.formulations.[].failure_list.[].row': 'a failing check (an entry outside the tolerance)',
    'check.formulations.[].failure_list.[].row_name': 'a failing check (an entry outside the tolerance)',
    'check.formulations.[].failure_list.[].t': 'a failing check (an entry outside the tolerance)',
    'check.formulations.[].failure_list.[].unresolved': 'a failing check (an entry outside the tolerance)',
    'check.job': 'radcol check --job FILE (a multiphase job)',
    'check.phase_list': 'radcol check --job FILE (a multiphase job)',
    'check.phase_list[].entries': 'radcol check --job FILE (a multiphase job)',
    'check.phase_list[].failures': 'radcol check --job FILE (a multiphase job)',
    'check.phase_list[].formulation': 'radcol check --job FILE (a multiphase job)',
    'check.phase_list[].name': 'radcol check --job FILE (a multiphase job)',
    'check.phase_list[].pass': 'radcol check --job FILE (a multiphase job)',
    'check.phase_list[].problem': 'radcol check --job FILE (a multiphase job)',
    'info.linkage_rows': 'radcol info on a multiphase file',
    'info.linkage_violation': 'radcol info on a multiphase file',
    'info.phase_list': 'radcol info on a multiphase file',
    'info.phase_list[].duration': 'radcol info on a multiphase file',
    'info.phase_list[].elements': 'radcol info on a multiphase file',
    'info.phase_list[].error_estimate': 'radcol info on a multiphase file',
    'info.phase_list[].formulation': 'radcol info on a multiphase file',
    'info.phase_list[].max_error': 'radcol info on a multiphase file',
    'info.phase_list[].max_error.<name>': 'radcol info on a multiphase file',
    'info.phase_list[].max_error.<name>.dense': 'radcol info on a multiphase file',
    'info.phase_list[].max_error.<name>.ends': 'radcol info on a multiphase file',
    'info.phase_list[].max_error.<name>.nodes': 'radcol info on a multiphase file',
    'info.phase_list[].name': 'radcol info on a multiphase file',
    'info.phase_list[].nodes': 'radcol info on a multiphase file',
    'info.phase_list[].objective': 'radcol info on a multiphase file',
    'info.phase_list[].problem': 'radcol info on a multiphase file',
    'info.phase_list[].stages_max': 'radcol info on a multiphase file',
    'info.phase_list[].stages_min': 'radcol info on a multiphase file',
    'info.phase_list[].start': 'radcol info on a multiphase file',
    'info.phase_list[].t0': 'radcol info on a multiphase file',
    'info.phase_list[].tf': 'radcol info on a multiphase file',
    'solve.structure.arcs.[].path': 'an active arc of a path constraint',
}


def case_json_docs(tmp):
    src = SOURCE
    documented = doc_keys(src)
    h5 = os.path.join(tmp, "j.h5")
    runs = {
        "solve": ["solve", "pendulum", "-f", "accel", "-n", "5", "--quiet",
                  "--json", "--refine", "1e-3", "-o", h5],
        "init": ["init", "pendulum", "-f", "coord", "--fix", "y", "--fix",
                 "v", "--guess", "x=-0.1", "--json", "-o",
                 os.path.join(tmp, "i.h5")],
        "simulate": ["simulate", "pendulum", "-f", "partition", "--method",
                     "rk4", "--step", "0.1", "--json", "-o",
                     os.path.join(tmp, "s.h5")],
        "solve_switching": ["solve", "double-integrator", "-n", "8",
                            "--quiet", "--json", "--refine", "1e-8", "-o",
                            os.path.join(tmp, "di.h5")],
        "check": ["check", "pendulum", "-f", "accel", "--json"],
        "list": ["list", "--json"],
        "list_params": ["list", "--params", "pendulum", "--json"],
        "info": ["info", h5, "--json"],
    }
    emitted = set()
    for name, args in runs.items():
        rc, so, se = radcol(*args)
        check(rc in (0, 1), "json_docs %s: exit %d: %s" % (name, rc, se))
        try:
            j = json.loads(so)
        except ValueError:
            check(False, "json_docs %s: not JSON: %s" % (name, so[:200]))
            continue
        cmd = name.split("_")[0]
        for k in sorted(keys_of(j)):
            key = "%s.%s" % (cmd if name != "list_params" else "list_params",
                             normalise(k))
            check(key in documented,
                  "json_docs: %s --json key %s is not in docs/json.md"
                  % (name, key))
            emitted.add(key)
        if name == "solve":
            check(isinstance(j["stages"], int) and
                  isinstance(j["stages_min"], int),
                  "json_docs: stages %r is not an int" % j["stages"])
        if name == "info":
            check(isinstance(j["iterations"], (int, float)) and
                  "iterations_last" in j, "json_docs: info iterations")
    # the other direction: every documented key of these commands is
    # emitted by one of the runs above, or is listed in JSON_CONDITIONAL with
    # the condition under which it appears
    run_cmds = {"solve", "init", "simulate", "check", "list", "list_params",
                "info"}
    for key in sorted(documented):
        if key.split(".")[0] in run_cmds and key not in emitted and \
                key not in JSON_CONDITIONAL:
            check(False, "json_docs: docs/json.md lists %s, which no run "
                  "emitted (and it is not listed as conditional)" % key)
    for key in sorted(JSON_CONDITIONAL):
        check(key in documented and key not in emitted,
              "json_docs: JSON_CONDITIONAL holds %s, which is %s" % (
                  key, "emitted" if key in emitted else "not documented"))


def case_bad_input(tmp):
    out = os.path.join(tmp, "bad.h5")
    for args, word in ((["--estimate", "bogus"], "bogus"),
                       (["--error-tol", "0"], "0"),
                       (["--error-tol", "1e-3", "--estimate", "off"], "off")):
        rc, so, se = radcol("solve", "pendulum", "-n", "4", "-o", out, *args)
        check(rc == 2 and word in se and not os.path.exists(out),
              "bad_input %s: exit %d, stderr %s" % (args, rc, se))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    RADCOL, SOURCE, case = sys.argv[1], sys.argv[2], sys.argv[3]
    fn = globals().get("case_" + case)
    if not fn:
        sys.exit("unknown case " + case)
    with tempfile.TemporaryDirectory() as tmp:
        fn(tmp)
    if FAILS:
        sys.exit(1)
    print("test_estimate %s: ok" % case)
