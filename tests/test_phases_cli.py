#!/usr/bin/env python3
"""Phases and data at interior times from the command line (docs/phases.md).

Cases (one per ctest test):
  identity   a one-phase job file gives the same NLP (sizes) and the same
             solution, bit for bit (every variable and multiplier at every
             node), as the ordinary command line (crane -f track);
  gasoil     the gas-oil fit (COPS 3.0 problem 21) as a generator model with
             its data file (examples/models/gasoil.py + gasoil.csv, under 30
             lines): the published optimum 5.23659e-3 reproduced, and the
             three rate constants against an independent scipy fit
             (least_squares over solve_ivp DOP853 at rtol 1e-13);
  two_mass   the closed-form two-phase minimum-time problem
             (examples/two-mass.json with the generated two-mass plugin):
             switching time, durations and total time to 1e-9 relative, the
             velocity carried across the switch; radcol info and export
             (one CSV with a phase column) read the multiphase file;
  check      radcol check --job covers the linkage rows and the free
             durations (the assembled NLP entry by entry), and fails on a
             job whose linear row is fine but whose plugin has a planted
             derivative bug;
  bad        bad job files: syntax (line and column), unknown keys, wrong
             values, bad data files: exit 2, the phase, key and value named,
             nothing written.

usage: test_phases_cli.py CASE RADCOL SOURCE_DIR BUILD_DIR
"""
import argparse
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_check import FAILS, check, run, verdict  # noqa: E402

import h5py  # noqa: E402
import numpy as np  # noqa: E402


BUILD = None  # the build directory (its include/ holds radcol/version.h)


def build_plugin(src, work, model, name):
    """radcol-gen MODEL.py, compiled against the source headers."""
    out = os.path.join(work, name)
    subprocess.run([sys.executable, os.path.join(src, "scripts", "radcol-gen"),
                    os.path.join(src, "examples", "models", model), "-o", out],
                   check=True, capture_output=True)
    lib = os.path.join(out, "lib%s.so" % name)
    cc = os.environ.get("CC", "cc")
    inc = [os.path.join(src, "include"), os.path.join(BUILD, "include")]
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-Wall", "-Wextra",
                    "-Werror"] + ["-I" + i for i in inc] +
                   [os.path.join(out, name + ".c"), "-o", lib, "-lm"],
                   check=True)
    return lib


MAPS = ("max_error", "invariants", "error_estimate.variables",
        "dense_violation")


def keys_of(obj, prefix=""):
    out = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(prefix + k)
            out |= keys_of(v, prefix + k + ".")
    elif isinstance(obj, list):
        for v in obj:
            out |= keys_of(v, prefix + "[].")
    return out


def documented(src, cmd, obj):
    """Every key of a --json object is in docs/json.md (per-name maps as
    <name>, also inside phase_list[])."""
    import re
    with open(os.path.join(src, "docs", "json.md")) as fh:
        doc = set(re.findall(r"^\|\s*`([A-Za-z0-9_.\[\]<>]+)`", fh.read(),
                             re.M))
    for k in sorted(keys_of(obj)):
        key = k.replace(".[].", "[].")
        for pre in ("", "phase_list[]."):
            for m in MAPS:
                if key.startswith(pre + m + "."):
                    rest = key[len(pre + m) + 1:].split(".", 1)
                    key = pre + m + ".<name>" + (
                        "." + rest[1] if len(rest) > 1 else "")
        check("%s.%s" % (cmd, key) in doc,
              "docs/json.md lacks %s.%s" % (cmd, key))


def case_identity(radcol, src, work):
    job = os.path.join(work, "one.json")
    with open(job, "w") as fh:
        json.dump({"name": "one", "phases": [
            {"name": "only", "problem": "crane", "formulation": "track"}]}, fh)
    a, b = os.path.join(work, "plain.h5"), os.path.join(work, "job.h5")
    # one solve on the problem's mesh (the command line's adaptive default
    # would refine it; a job file's phases are solved on their meshes)
    pa = run(radcol, "solve", "crane", "-f", "track", "-o", a, "--json",
             "--quiet", "--estimate", "off")
    pb = run(radcol, "solve", "--job", job, "-o", b, "--json", "--quiet")
    ja, jb = json.loads(pa.stdout), json.loads(pb.stdout)
    check(ja["variables"] == jb["variables"] and
          ja["constraints"] == jb["constraints"] and
          ja["nnz_jac"] == jb["nnz_jac"] and ja["nnz_hes"] == jb["nnz_hes"],
          "NLP sizes differ: %s vs %s" % (
              [ja[k] for k in ("variables", "constraints", "nnz_jac",
                               "nnz_hes")],
              [jb[k] for k in ("variables", "constraints", "nnz_jac",
                               "nnz_hes")]))
    check(ja["iterations"] == jb["iterations"] and
          ja["objective"] == jb["objective"],
          "iterations/objective differ: %s %s vs %s %s" % (
              ja["iterations"], ja["objective"], jb["iterations"],
              jb["objective"]))
    with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
        g = fb["/phases/0"]
        names = list(fa["/problem/variable_names"].asstr()[()]) + ["time"]
        nsame = 0
        for n in names:
            x, y = fa["/solution/" + n][()], g["solution/" + n][()]
            ok = x.shape == y.shape and np.array_equal(x, y)
            check(ok, "solution %s differs (max %g)" % (
                n, np.max(np.abs(x - y)) if x.shape == y.shape else -1))
            nsame += ok
        for n in fa["/multipliers"]:
            x, y = fa["/multipliers/" + n][()], g["multipliers/" + n][()]
            ok = np.array_equal(x, y)
            check(ok, "multiplier %s differs" % n)
            nsame += ok
        check(np.array_equal(fa["/mesh/fractions"][()],
                             g["mesh/fractions"][()]), "meshes differ")
    print("identity: %d variables, %d constraints, %d iterations; %d "
          "datasets bit for bit equal" % (jb["variables"], jb["constraints"],
                                          jb["iterations"], nsame))


def scipy_fit(csv):
    from scipy.integrate import solve_ivp
    from scipy.optimize import least_squares
    tz = np.loadtxt(csv, delimiter=",", skiprows=1)
    t, z = tz[:, 0], tz[:, 1:]

    def res(th):
        s = solve_ivp(lambda _t, y: [-(th[0] + th[2]) * y[0] ** 2,
                                     th[0] * y[0] ** 2 - th[1] * y[1]],
                      (0.0, 0.95), [1.0, 0.0], t_eval=t, method="DOP853",
                      rtol=1e-13, atol=1e-14)
        return (s.y.T - z).ravel()
    r = least_squares(res, [10.0, 10.0, 1.0], method="lm", xtol=1e-15,
                      ftol=1e-15, gtol=1e-15)
    return r.x, float(np.sum(r.fun ** 2))


def case_gasoil(radcol, src, work):
    model = os.path.join(src, "examples", "models", "gasoil.py")
    csv = os.path.join(src, "examples", "models", "gasoil.csv")
    nlines = sum(1 for _ in open(model)) + sum(1 for _ in open(csv))
    check(nlines < 30, "model + data file: %d lines, expected under 30" %
          nlines)
    lib = build_plugin(src, work, "gasoil.py", "gasoil")
    out = os.path.join(work, "gasoil.h5")
    p = run(radcol, "solve", "gasoil", "--plugin", lib, "-n", "40", "-s", "5",
            "--tol", "1e-13", "-o", out, "--json", "--quiet")
    j = json.loads(p.stdout)
    obj = j["objective"]
    with h5py.File(out, "r") as f:
        th = np.array([f["/solution/parameters/theta%d" % i][()]
                       for i in (1, 2, 3)])
        tb = f["/mesh/breakpoints"][()]
    tz = np.loadtxt(csv, delimiter=",", skiprows=1)
    on_mesh = all(np.min(np.abs(tb - t)) <= 1e-15 for t in tz[:, 0])
    check(on_mesh, "a measurement time is not a breakpoint of the mesh")
    ref, ref_obj = scipy_fit(csv)
    rel = np.max(np.abs(th - ref) / np.abs(ref))
    print("gasoil: objective %.10e (published 5.23659e-3, scipy %.10e), "
          "theta %s vs scipy %s (max rel %.2e), %d + %d lines, %d elements, "
          "estimate %.2e" % (obj, ref_obj, th, ref, rel, nlines - 22, 22,
                             j["elements"], j["error_estimate"]["max"]))
    # COPS 3.0 prints 5.23659e-3: the digits it gives are ours
    check(5.23659e-3 <= obj < 5.23660e-3, "objective %.10e does not begin "
          "with the published 5.23659e-3" % obj)
    check(abs(obj - ref_obj) <= 1e-9 * ref_obj,
          "objective %.15e vs scipy %.15e" % (obj, ref_obj))
    check(rel < 1e-5, "theta %s vs scipy %s: %.2e relative" % (th, ref, rel))
    # the same data from a CSV at run time (the job file's "data")
    job = os.path.join(work, "gasoil.json")
    with open(job, "w") as fh:
        json.dump({"name": "gasoil-job", "phases": [
            {"name": "fit", "problem": "gasoil", "data": csv,
             "mesh": {"elements": 40, "stages": 5}}],
            "solver": {"tol": 1e-13}}, fh)
    # the plugin's own data would count twice: the job's replaces it
    p2 = run(radcol, "solve", "--job", job, "--plugin", lib, "-o",
             os.path.join(work, "gasoil-job.h5"), "--json", "--quiet",
             "--estimate", "off")
    j2 = json.loads(p2.stdout)
    check(abs(j2["objective"] - obj) <= 1e-12 * obj,
          "job file data: objective %.15e vs %.15e" % (j2["objective"], obj))


def two_mass_exact():
    """light: full force to a; push: full force to vp; brake to rest."""
    m1, m2, F, a, L = 1.0, 2.0, 1.0, 0.5, 2.0
    v1 = math.sqrt(2 * F / m1 * a)
    vp = math.sqrt((v1 * v1 + 2 * F / m2 * (L - a)) / 2)
    return [v1 * m1 / F, (vp - v1) * m2 / F, vp * m2 / F], v1, vp


def case_two_mass(radcol, src, work):
    lib = build_plugin(src, work, "two_mass.py", "two_mass")
    job = os.path.join(src, "examples", "two-mass.json")
    out = os.path.join(work, "two-mass.h5")
    p = run(radcol, "solve", "--job", job, "--plugin", lib, "-o", out,
            "--json", "--quiet")
    j = json.loads(p.stdout)
    documented(src, "job", j)
    T, v1, vp = two_mass_exact()
    d = [ph["duration"] for ph in j["phase_list"]]
    rel = [abs(a - b) / b for a, b in zip(d, T)]
    eT = abs(j["objective"] - sum(T)) / sum(T)
    print("two-mass: durations %s (exact %s), rel %s; T %.15g (exact 2 "
          "sqrt(5) - 1 = %.15g, rel %.1e); %d iterations; estimates %s" % (
              d, T, ["%.1e" % r for r in rel], j["objective"], sum(T), eT,
              j["iterations"],
              [ph["error_estimate"]["max"] for ph in j["phase_list"]]))
    check(j["status"] == "converged", "status %s" % j["status"])
    check(max(rel + [eT]) < 1e-9, "two-mass to 1e-9 relative: %s %.1e" % (
        rel, eT))
    with h5py.File(out, "r") as f:
        check(f.attrs["kind"] == b"phases" and f.attrs["phases"] == 3,
              "root kind/phases")
        va = f["/phases/0/solution/v"][()][-1]
        vb = f["/phases/1/solution/v"][()][0]
        vc = f["/phases/1/solution/v"][()][-1]
        check(abs(va - v1) < 1e-9 and abs(vb - va) < 1e-12 and
              abs(vc - vp) < 1e-9,
              "v at the switches %.15g / %.15g, %.15g: expected %.15g, %.15g"
              % (va, vb, vc, v1, vp))
        names = list(f["/linkage/names"].asstr()[()])
        mult = f["/linkage/multiplier"][()]
        check(names[:4] == ["light->push: x", "light->push: v",
                            "push->brake: x", "push->brake: v"] and
              len(names) == 5, "linkage rows %s" % names)
        check(abs(f["/phases/start"][()][1] - d[0]) < 1e-12,
              "the push phase starts at the switch")
    print("  linkage multipliers %s" % dict(zip(names, mult)))
    # info and export understand the file
    pi = run(radcol, "info", out, "--json")
    ji = json.loads(pi.stdout)
    documented(src, "info", ji)
    check(ji["phases"] == 3 and
          [x["name"] for x in ji["phase_list"]] == ["light", "push", "brake"]
          and ji["linkage_rows"] == 5, "info --json: %s" % pi.stdout[:300])
    pe = run(radcol, "export", out, "--step", "0.5")
    rows = [r.split(",") for r in pe.stdout.strip().split("\n")]
    check(rows[0][:3] == ["time", "phase", "x"], "export header %s" % rows[0])
    ph = [r[1] for r in rows[1:]]
    t = [float(r[0]) for r in rows[1:]]
    check(ph[0] == "light" and ph[-1] == "brake" and
          abs(t[-1] - sum(T)) < 1e-8 and t == sorted(t),
          "export rows: phases %s..%s, last time %s" % (ph[0], ph[-1], t[-1]))
    x_end = float(rows[-1][2])
    check(abs(x_end - 2.0) < 1e-12, "x at the end %.15g" % x_end)
    # the same phases declared in the model file (phases(...) of
    # radcol-gen, rc_model.create_phases): radcol solve two-mass -f job
    pm = run(radcol, "solve", "two-mass", "-f", "job", "--plugin", lib,
             "-o", os.path.join(work, "model-job.h5"), "--json", "--quiet",
             "--tol", "1e-12", "--ipopt", "bound_relax_factor=0")
    jm = json.loads(pm.stdout)
    em = abs(jm["objective"] - sum(T)) / sum(T)
    print("two-mass -f job (the model's phase list): T %.15g, rel %.1e, %d "
          "phases" % (jm["objective"], em, jm["phases"]))
    check(jm["phases"] == 3 and em < 1e-9, "model phases: %s" % pm.stdout[:200])
    # each phase records the parameter values the model built it from
    # (rc_phase.model, .params), as a job file's phases do
    with h5py.File(os.path.join(work, "model-job.h5"), "r") as f:
        got = [[float(f["/phases/%d/problem" % k].attrs[n])
                for n in ("m", "ulo", "uhi")] for k in range(3)]
    check(got == [[1, -1, 1], [2, 0, 1], [2, -1, 0]],
          "per-phase parameters (m, ulo, uhi) in the file: %s" % got)
    pc = run(radcol, "check", "two-mass", "--plugin", lib)
    # 3 formulations (their point blocks, then their transcription) and
    # the 3 phases plus the assembled NLP of the phase list
    check(pc.stdout.count("PASS") == 3 * 2 + 4 and "FAIL" not in pc.stdout,
          "radcol check two-mass: %s" % pc.stdout)


def case_check(radcol, src, work):
    lib = build_plugin(src, work, "two_mass.py", "two_mass")
    job = os.path.join(src, "examples", "two-mass.json")
    p = run(radcol, "check", "--job", job, "--plugin", lib, "--json")
    j = json.loads(p.stdout)
    documented(src, "check", j)
    a = j["assembled"]
    print("check --job: %d entries, %d variables, %d linkage rows (%d link "
          "blocks), %d free durations, max rel err %.2e" % (
              a["entries"], a["variables"], a["linkage_rows"],
              a["link_blocks"], a["free_durations"], a["max_rel_err"]))
    check(j["pass"] and a["pass"], "check --job failed: %s" % p.stdout[:500])
    check(a["linkage_rows"] == 5 and a["free_durations"] == 3 and
          a["link_blocks"] == 1,
          "expected 5 linkage rows, 1 link block, 3 free durations")
    # a planted bug in a phase's derivative (d phi / d tf, the duration
    # column) is caught, naming the phase and the duration
    out = os.path.join(work, "two_mass")
    c = os.path.join(out, "two_mass.c")
    code = open(c).read()
    planted = code.replace("J[0] = 1; /* d phi / d tf */",
                           "J[0] = 1.1; /* d phi / d tf */", 1)
    check(planted != code, "could not plant the bug in %s" % c)
    bad = os.path.join(work, "bad")
    os.makedirs(bad, exist_ok=True)
    open(os.path.join(bad, "two_mass.c"), "w").write(planted)
    blib = os.path.join(bad, "libtwo_mass.so")
    subprocess.run([os.environ.get("CC", "cc"), "-shared", "-fPIC",
                    "-I" + os.path.join(src, "include"),
                    "-I" + os.path.join(BUILD, "include"),
                    os.path.join(bad, "two_mass.c"), "-o", blib, "-lm"],
                   check=True)
    p = run(radcol, "check", "--job", job, "--plugin", blib, want=1)
    check("FAIL phase light" in p.stdout and
          "phase light: duration" in p.stdout,
          "planted bug not named: %s" % p.stdout[-800:])
    print("planted d phi/d tf: %s" % [ln for ln in p.stdout.split("\n")
                                      if "duration" in ln][:1])


def case_bad(radcol, src, work):
    def bad(text, *fragments, want=2):
        job = os.path.join(work, "bad.json")
        with open(job, "w") as fh:
            fh.write(text)
        out = os.path.join(work, "bad.h5")
        if os.path.exists(out):
            os.remove(out)
        p = run(radcol, "solve", "--job", job, "-o", out, "--quiet",
                want=want)
        for f in fragments:
            check(f in p.stderr, "message %r lacks %r" % (p.stderr.strip(), f))
        check(not os.path.exists(out), "a file was written for %s" % text)
        print("refused: %s" % p.stderr.strip())
    bad('{"phases": [\n  {"name": "a", "problem": "crane",, }]}',
        "bad.json:2:")
    bad('{"phases": [{"name": "a", "problem": "crane", "formulation": '
        '"mintme"}]}', "phase 'a'", "key 'formulation'", "'mintme'",
        "mintime")
    bad('{"phases": [{"name": "a", "problem": "crane", "set": {"u1max": '
        '"x"}}]}', "phase 'a'", "key 'set'", "u1max=x")
    bad('{"phases": [{"name": "a", "problem": "crane", "duratoin": 3}]}',
        "key 'duratoin'", "duration")
    bad('{"phases": [{"name": "a", "problem": "crane", "formulation": '
        '"mintime", "set": {"u1max": 10}, "duration": {"min": 5, "max": 2}}]}',
        "phase 'a'",
        "key 'duration'", "min 5")
    bad('{"phases": [{"name": "a", "problem": "crane", "formulation": '
        '"track", "duration": {"min": 1, "max": 8}}]}', "phase 'a'",
        "depends on t")
    bad('{"phases": [{"name": "a", "problem": "nope"}]}', "key 'problem'",
        "'nope'", "crane")
    bad('{"phases": [{"name": "a", "problem": "crane"}, {"name": "a", '
        '"problem": "crane"}]}', "phases[1]", "key 'name'")
    bad('{"phases": [{"name": "a", "problem": "crane"}, {"name": "b", '
        '"problem": "crane"}], "link": {"rows": [{"terms": {"a.q@end": 1}, '
        '"equals": 0}]}}', "link.rows[0]", "a.q@end", "'q'")
    bad('{"phases": [{"name": "a", "problem": "crane", "mesh": {"elements": '
        '0}}]}', "key 'mesh.elements'", "0")
    csv = os.path.join(work, "bad.csv")
    with open(csv, "w") as fh:
        fh.write("t,d\n0,1\n0.5,zz\n")
    bad('{"phases": [{"name": "a", "problem": "crane", "data": "%s"}]}' % csv,
        "phase 'a'", "key 'data'", "bad.csv:3", "zz")
    with open(csv, "w") as fh:
        fh.write("t,nosuch\n0,1\n")
    bad('{"phases": [{"name": "a", "problem": "crane", "data": "%s"}]}' % csv,
        "key 'data'", "nosuch")
    p = run(radcol, "solve", "crane", "--job", "x.json", want=2)
    check("crane" in p.stderr, "PROBLEM with --job: %s" % p.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("case", choices=["identity", "gasoil", "two_mass",
                                     "check", "bad"])
    ap.add_argument("radcol")
    ap.add_argument("source_dir")
    ap.add_argument("build_dir")
    a = ap.parse_args()
    global BUILD
    BUILD = a.build_dir
    work = os.path.join(a.build_dir, "phases_cli", a.case)
    os.makedirs(work, exist_ok=True)
    globals()["case_" + a.case](a.radcol, a.source_dir, work)
    return verdict(a.case)


if __name__ == "__main__":
    sys.exit(main())
