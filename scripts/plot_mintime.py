#!/usr/bin/python3
"""Plot a minimum-time crane result (radcol solve crane -f mintime): the load
path with the stacks, and d, r, theta, tau, vd, vr, u1, u2 against time with
the physical limits drawn as lines; optionally the replay of its controls
(radcol simulate crane -f track --controls FILE.h5 -o REPLAY.h5) on top.

Reads only the documented HDF5 layout (docs/hdf5-layout.md): /solution/dense
(the replay file: its /solution samples), the limits from the /problem attributes (u1max, u2max, rmin,
rmax, taumin, thetamax, vdmax, vrmax, stack, stack_edge) and tf from
/mesh/breakpoints.
"""
import argparse

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def text(v):
    return v.decode() if isinstance(v, bytes) else v


def load(path, want_kind=None):
    with h5py.File(path, "r") as f:
        if text(f.attrs.get("format")) != "radcol-result":
            raise SystemExit(f"plot_mintime: {path}: not a radcol result file")
        if text(f.attrs.get("problem")) != "crane":
            raise SystemExit(f"plot_mintime: {path}: not a crane result")
        g = f["solution/dense"] if "solution/dense" in f else f["solution"]
        dense = {k: g[k][()] for k in g if isinstance(g[k], h5py.Dataset)}
        attrs = {k: text(v) for k, v in f["problem"].attrs.items()}
        info = {"formulation": text(f.attrs["formulation"]),
                "status": text(f.attrs["status"]),
                "kind": text(f.attrs.get("kind")),
                "tf": float(f["mesh/breakpoints"][-1]) if "mesh/breakpoints" in f
                else float(dense["time"][-1])}
    return dense, attrs, info


def num(attrs, name, default):
    try:
        v = float(attrs[name])
    except (KeyError, TypeError, ValueError):
        return default
    return v


def stacks(attrs):
    out = []
    for part in (attrs.get("stack") or "").split(";"):
        if part.strip():
            x0, x1, zmin = (float(s) for s in part.split(":"))
            out.append((x0, x1, zmin))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("result", help="mintime result file")
    ap.add_argument("--replay", help="replay file of its controls (optional)")
    ap.add_argument("-o", "--output", default="results/crane-mintime.png",
                    help="PNG to write")
    args = ap.parse_args(argv)

    dense, attrs, info = load(args.result)
    rep = load(args.replay)[0] if args.replay else None
    t = dense["time"]
    lim = {
        "u1": (-num(attrs, "u1max", np.inf), num(attrs, "u1max", np.inf)),
        "u2": (-num(attrs, "u2max", np.inf), num(attrs, "u2max", np.inf)),
        "r": (num(attrs, "rmin", 0.0) or -np.inf, num(attrs, "rmax", np.inf)),
        "tau": (num(attrs, "taumin", 0.0), np.inf),
        "theta": (-num(attrs, "thetamax", np.inf),
                  num(attrs, "thetamax", np.inf)),
        "vd": (-num(attrs, "vdmax", np.inf), num(attrs, "vdmax", np.inf)),
        "vr": (-num(attrs, "vrmax", np.inf), num(attrs, "vrmax", np.inf)),
    }
    units = {"u1": "N", "u2": "N m", "r": "m", "tau": "N", "theta": "rad",
             "vd": "m/s", "vr": "m/s", "d": "m"}

    fig, ax = plt.subplots(3, 3, figsize=(15, 11))
    a = ax[0, 0]
    for x0, x1, zmin in stacks(attrs):
        zb = max(float(np.max(dense["z"])), zmin) + 0.3
        a.fill_between([x0, x1], [zmin, zmin], [zb, zb], color="0.8",
                       label="stack")
    a.plot(dense["x"], dense["z"], "C0", lw=1.5, label="load (x, z)")
    if rep is not None:
        a.plot(rep["x"], rep["z"], "C1--", lw=1, label="replay")
    for i in np.linspace(0, len(t) - 1, 9).astype(int):
        a.plot([dense["d"][i], dense["x"][i]], [0, dense["z"][i]],
               color="0.6", lw=0.8)
        a.plot(dense["d"][i], 0, "s", color="C3", ms=5)
    a.set_xlabel("x [m]")
    a.set_ylabel("z [m] (down)")
    a.invert_yaxis()
    a.set_title("crane/%s: tf* = %.6f s (%s)" % (info["formulation"],
                                                  info["tf"], info["status"]))
    a.legend(fontsize=8)

    for a, name in zip(ax.flat[1:], ["u1", "u2", "tau", "theta", "r", "vd",
                                     "vr", "d"]):
        a.plot(t, dense[name], "C0", lw=1.2, label="plan (dense output)")
        if rep is not None and name in rep:
            a.plot(rep["time"], rep[name], "C1--", lw=1, label="replay")
        lo, hi = lim.get(name, (-np.inf, np.inf))
        for v in (lo, hi):
            if np.isfinite(v):
                a.axhline(v, color="C3", lw=0.8, ls=":", label="limit")
        a.axvline(info["tf"], color="0.5", lw=0.6)
        a.set_title("%s [%s]" % (name, units.get(name, "")))
        a.set_xlabel("t [s]")
        a.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(args.output, dpi=90)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
