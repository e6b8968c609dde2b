#!/usr/bin/python3
"""Plot a replay (radcol simulate PROBLEM --controls PLAN.h5 -o REPLAY.h5):
the replay on top of the plan it replays.

Crane files: the load path (z downward), the load position error against
time, the cable angle theta (its swing after tf is the residual sway) and the
controls u1, u2 as applied (steps when held).  Any other problem: every state
and control against time.  The dashed vertical line is the plan's tf; after
it the controls are held at their values at tf.

Reads only the documented HDF5 layout (docs/hdf5-layout.md): the replay at
/solution/time and /solution/<name>, the plan at the same times in
/diagnostics/replay/plan (NaN after tf), columns named by
/diagnostics/replay/variables.
"""
import argparse
import os

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def text(v):
    """String attributes are fixed-length: h5py gives bytes."""
    return v.decode() if isinstance(v, bytes) else v


def load(path):
    with h5py.File(path, "r") as f:
        if text(f.attrs.get("format")) != "radcol-result":
            raise SystemExit(f"plot_replay: {path}: not a radcol result file")
        if "diagnostics/replay" not in f:
            raise SystemExit(
                f"plot_replay: {path}: no /diagnostics/replay (expected a "
                "file of radcol simulate --controls)")
        g = f["diagnostics/replay"]
        names = list(g["variables"].asstr()[()])
        plan = g["plan"][()]
        rep = {n: f["solution/" + n][()] for n in names
               if "solution/" + n in f}
        kinds = dict(zip(f["problem/variable_names"].asstr()[()],
                         f["problem/variable_kinds"].asstr()[()]))
        info = {
            "problem": text(f.attrs["problem"]),
            "formulation": text(f.attrs["formulation"]),
            "plan": text(g.attrs["plan"]),
            "hold": float(g.attrs["hold"]),
            "tf": float(g.attrs["tf"]),
            "t": f["solution/time"][()],
            "itf": int(g.attrs["itf"]),
            "end": dict(zip(names, g["end_error"][()])),
            "dev": dict(zip(names, g["max_deviation"][()])),
            "drift": dict(zip(names, g["settle_drift"][()])),
            "kinds": kinds,
        }
    planv = {n: plan[:, i] for i, n in enumerate(names)}
    return rep, planv, info


def draw(ax, t, rep, plan, name, info, steps=False):
    ax.plot(t, plan, "k-", lw=2.5, alpha=0.35, label="plan")
    ax.plot(t, rep, "C0-", lw=1, label="replay",
            drawstyle="steps-post" if steps else "default")
    ax.axvline(info["tf"], color="gray", ls="--", lw=0.8)
    ax.set_xlabel("t")
    ax.set_ylabel(name)
    ax.grid(alpha=0.3)


def plot_crane(rep, plan, info, fig):
    t, itf = info["t"], info["itf"]
    hold = info["hold"] > 0
    axs = fig.subplots(2, 2)
    ax = axs[0, 0]
    ax.plot(plan["x"], plan["z"], "k-", lw=3, alpha=0.35, label="plan")
    ax.plot(rep["x"][:itf + 1], rep["z"][:itf + 1], "C0-", lw=1,
            label="replay to tf")
    ax.plot(rep["x"][itf:], rep["z"][itf:], "C3-", lw=1, label="after tf")
    ax.invert_yaxis()
    ax.set_xlabel("load x [m]")
    ax.set_ylabel("load z [m] (down)")
    ax.set_title("load path: largest deviation %.2g m, at tf %.2g m" %
                 (max(info["dev"]["x"], info["dev"]["z"]),
                  np.hypot(info["end"]["x"], info["end"]["z"])), fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    ax = axs[0, 1]
    ex = rep["x"] - np.where(np.arange(len(t)) <= itf, plan["x"],
                             plan["x"][itf])
    ez = rep["z"] - np.where(np.arange(len(t)) <= itf, plan["z"],
                             plan["z"][itf])
    ax.plot(t, ex, label="x - plan")
    ax.plot(t, ez, label="z - plan")
    ax.axvline(info["tf"], color="gray", ls="--", lw=0.8)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("load error [m] (after tf: to the end point)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    draw(axs[1, 0], t, rep["theta"], plan["theta"], "theta [rad]", info)
    axs[1, 0].set_title("residual sway after tf: %.2g rad" %
                        info["drift"]["theta"], fontsize=9)
    ax = axs[1, 1]
    ax.plot(t, plan["u1"], "k-", lw=2.5, alpha=0.35, label="plan")
    ax.plot(t, rep["u1"], "C0-", lw=1, label="u1 [N] applied",
            drawstyle="steps-post" if hold else "default")
    ax.plot(t, plan["u2"], "k-", lw=2.5, alpha=0.35)
    ax.plot(t, rep["u2"], "C1-", lw=1, label="u2 [N m] applied",
            drawstyle="steps-post" if hold else "default")
    ax.axvline(info["tf"], color="gray", ls="--", lw=0.8)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("controls")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)


def plot_generic(rep, plan, info, fig):
    names = [n for n, k in info["kinds"].items()
             if k in ("differential", "control") and n in rep]
    n = len(names)
    cols = min(3, max(1, n))
    rows = (n + cols - 1) // cols
    axs = np.atleast_1d(fig.subplots(rows, cols)).ravel()
    for ax, name in zip(axs, names):
        draw(ax, info["t"], rep[name], plan[name], name, info,
             steps=info["hold"] > 0 and info["kinds"][name] == "control")
        ax.set_title("max dev %.2g, at tf %.2g" %
                     (info["dev"][name], info["end"][name]), fontsize=9)
    for ax in axs[n:]:
        ax.set_visible(False)
    if n:
        axs[0].legend(fontsize=8)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("replay", help="replay file (radcol simulate PROBLEM "
                    "--controls PLAN.h5 -o REPLAY.h5)")
    ap.add_argument("-o", "--output", default="results/replay.png",
                    help="PNG to write (default: results/replay.png)")
    args = ap.parse_args(argv)
    rep, plan, info = load(args.replay)
    crane = info["problem"] == "crane" and all(
        k in rep for k in ("x", "z", "theta", "u1", "u2"))
    fig = plt.figure(figsize=(11, 8) if crane else (12, 7))
    (plot_crane if crane else plot_generic)(rep, plan, info, fig)
    how = ("controls held every %g s" % info["hold"] if info["hold"] > 0
           else "controls from the dense output")
    fig.suptitle("%s/%s: replay of %s, %s" %
                 (info["problem"], info["formulation"], info["plan"], how),
                 fontsize=10)
    fig.tight_layout()
    d = os.path.dirname(args.output)
    if d:
        os.makedirs(d, exist_ok=True)
    fig.savefig(args.output, dpi=110)
    print(args.output)


if __name__ == "__main__":
    main()
