#!/usr/bin/python3
"""Plot a crane result file: the load path against the prescribed path, the
trolley and cable, and theta, tau, the controls against the flat reference.

Reads only the documented HDF5 layout (docs/hdf5-layout.md):
/solution/dense/<name> for the dense-output trajectory and
/diagnostics/reference/ref_dense with /diagnostics/reference/variables for the
reference on the same grid.
"""
import argparse
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def text(v):
    """String attributes are fixed-length (docs/hdf5-layout.md): h5py gives bytes."""
    return v.decode() if isinstance(v, bytes) else v


def load(path):
    with h5py.File(path, "r") as f:
        if text(f.attrs.get("format")) != "radcol-result":
            raise SystemExit(f"plot_crane: {path}: not a radcol result file")
        if text(f.attrs.get("problem")) != "crane":
            raise SystemExit(
                f"plot_crane: {path}: problem is {text(f.attrs.get('problem'))!r}, "
                "expected 'crane'")
        dense = {k: f["solution/dense"][k][()] for k in f["solution/dense"]}
        ref = {}
        if "diagnostics/reference/ref_dense" in f:
            names = [n.decode() if isinstance(n, bytes) else n
                     for n in f["diagnostics/reference/variables"][()]]
            table = f["diagnostics/reference/ref_dense"][()]
            ref = {n: table[:, i] for i, n in enumerate(names)}
        info = {
            "formulation": text(f.attrs["formulation"]),
            "status": text(f.attrs["status"]),
            "elements": int(f["mesh"].attrs["elements"]),
            "stages": f["mesh/stages"][()],
        }
    return dense, ref, info


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("result", help="crane result file (radcol solve crane -o FILE.h5)")
    ap.add_argument("-o", "--output", default="results/crane.png", help="PNG to write")
    args = ap.parse_args(argv)

    dense, ref, info = load(args.result)
    t = dense["time"]
    has_ref = all(k in ref for k in ("x", "z"))

    fig, ax = plt.subplots(2, 3, figsize=(15, 8.5))
    # 1. load path, trolley and cable
    a = ax[0, 0]
    if has_ref:
        a.plot(ref["x"], ref["z"], "k--", lw=1, label="prescribed path p")
    a.plot(dense["x"], dense["z"], "C0", lw=1.5, label="load (x, z)")
    for i in np.linspace(0, len(t) - 1, 9).astype(int):
        a.plot([dense["d"][i], dense["x"][i]], [0, dense["z"][i]], color="0.6", lw=0.8)
        a.plot(dense["d"][i], 0, "s", color="C3", ms=5)
    a.plot([], [], "s", color="C3", label="trolley d (cable in grey)")
    a.set_xlabel("x [m]")
    a.set_ylabel("z [m] (down)")
    a.invert_yaxis()
    a.set_title("load path, trolley and cable")
    a.legend(fontsize=8)

    def versus_ref(a, name, label):
        a.plot(t, dense[name], "C0", label="radcol")
        if name in ref and np.any(np.isfinite(ref[name])):
            a.plot(t, ref[name], "k--", lw=1, label="flat reference")
        a.set_xlabel("t [s]")
        a.set_ylabel(label)
        a.legend(fontsize=8)

    versus_ref(ax[0, 1], "theta", "theta [rad]")
    ax[0, 1].set_title("cable angle")
    versus_ref(ax[0, 2], "tau", "tau [N]")
    ax[0, 2].set_title("cable tension")
    versus_ref(ax[1, 0], "u1", "u1 [N]")
    ax[1, 0].set_title("trolley force")
    versus_ref(ax[1, 1], "u2", "u2 [N m]")
    ax[1, 1].set_title("winch torque")

    a = ax[1, 2]
    if has_ref:
        err = np.hypot(dense["x"] - ref["x"], dense["z"] - ref["z"])
        a.semilogy(t, np.maximum(err, 1e-16), "C0", label="|(x,z) - p|")
        for name, c in (("u1", "C1"), ("u2", "C2")):
            if name in ref:
                scale = max(np.nanmax(np.abs(ref[name])), 1e-300)
                a.semilogy(t, np.maximum(np.abs(dense[name] - ref[name]) / scale, 1e-16),
                           c, lw=0.8, label=f"|{name} - flat| / max|{name}|")
        a.set_title(f"tracking error (max {np.max(err):.2e} m)")
        a.legend(fontsize=8)
    a.set_xlabel("t [s]")

    st = info["stages"]
    stages = str(st[0]) if np.all(st == st[0]) else f"{st.min()}..{st.max()}"
    fig.suptitle(f"radcol crane/{info['formulation']}: {info['status']}, "
                 f"{info['elements']} elements x {stages} stages")
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print(f"plot_crane: wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
