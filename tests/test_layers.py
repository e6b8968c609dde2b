#!/usr/bin/env python3
"""The floors of src/, checked from the includes (docs/architecture.md).

Every file under src/<floor>/ may include headers of its own floor and of the
floors below it, never of a floor above:

    collocation <- core <- measure <- sim <- nlp <- accuracy <- io <- cli

A public header radcol/X.h belongs to the floor of the file that implements
it (src/*/X.c), or to the floor the table HEADER_ONLY gives with its reason.
The test also fails when

  - the include graph between modules (X.c and X.h are one module) has a
    circle, inside a floor too (a floor's files may call each other, but not
    both ways round);
  - a private header src/F/X.h has no src/F/X.c beside it (header-only ones
    are listed with their reason), or a public header has no implementing
    file and no entry in HEADER_ONLY;
  - a built-in model file (problems/) includes a private header of src/.

It prints what it checked, so a pass is not vacuous: the number of includes
mapped and the floors seen.

usage: test_layers.py SOURCE_DIR
"""
import argparse
import os
import re
import sys

FLOORS = ["collocation", "core", "measure", "sim", "nlp", "accuracy", "io",
          "cli"]
RANK = {f: i for i, f in enumerate(FLOORS)}

# Public headers with no src/*/X.c of their own name: floor and reason.
HEADER_ONLY = {
    "kit.h": ("core", "header-only derivative kit for problems and plugins"),
    "plugin.h": ("core", "the plugin entry point's types; the loader is "
                 "core/plugin_loader.c"),
    "version.h": ("core", "generated version numbers"),
    "limits.h": ("core", "constants only"),
    "io.h": ("io", "implemented by io/io_write.c and io/io_read.c"),
    "radcol.h": ("cli", "the umbrella header: only programs include it"),
    "catalogue.h": ("cli", "the built-in models (library radcol_models, "
                    "problems/catalogue.c): the engine never includes it"),
}
# Private headers with no X.c beside them, and why.
PRIVATE_HEADER_ONLY = {
    "core/timing.h": "one static inline clock function",
    "nlp/ipopt_options.inc": "Ipopt's option table, data included by "
                             "nlp/ipopt_adapter.c",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def floor_of_path(rel):
    parts = rel.split("/")
    if parts[0] == "collocation":
        return "collocation"
    if parts[0] == "src" and len(parts) > 2 and parts[1] in RANK:
        return parts[1]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source_dir")
    args = ap.parse_args()
    root = os.path.abspath(args.source_dir)
    failures = []

    # the implementing file of each public header, by name
    impl = {}  # "radcol/X.h" -> "src/F/X"
    sources = []
    for dirpath, _, files in os.walk(os.path.join(root, "src")):
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(dirpath, f), root)
            if f.endswith((".c", ".h", ".inc")):
                sources.append(rel)
                if floor_of_path(rel) is None:
                    failures.append(f"{rel}: not in a floor folder "
                                    f"(expected src/<{'|'.join(FLOORS[1:])}>/)")
    sources.append("collocation/radau.c")
    sources.append("collocation/radau.h")
    for h in sorted(os.listdir(os.path.join(root, "include", "radcol"))):
        if not h.endswith(".h") and not h.endswith(".h.in"):
            continue
        name = h[:-3] if h.endswith(".h.in") else h
        stem = name[:-2]
        hits = [s[:-2] for s in sources if s.endswith("/" + stem + ".c")]
        if len(hits) == 1:
            impl["radcol/" + name] = (hits[0], floor_of_path(hits[0] + ".c"))
        elif name in HEADER_ONLY:
            impl["radcol/" + name] = ("radcol/" + name, HEADER_ONLY[name][0])
        else:
            failures.append(f"include/radcol/{name}: no implementing "
                            f"src/*/{stem}.c and no reason in HEADER_ONLY")

    # private headers beside their implementation
    for rel in sources:
        if rel.startswith("src/") and rel.endswith((".h", ".inc")):
            key = rel[len("src/"):]
            if key in PRIVATE_HEADER_ONLY:
                continue
            if not os.path.exists(os.path.join(root, rel[:-2] + ".c")):
                failures.append(f"{rel}: no {os.path.basename(rel)[:-2]}.c "
                                f"beside it")

    def module(rel):
        return rel.rsplit(".", 1)[0]

    edges = {}
    mapped = 0
    seen_floors = set()
    for rel in sources:
        fl = floor_of_path(rel)
        if fl is None:
            continue
        seen_floors.add(fl)
        text = open(os.path.join(root, rel), encoding="utf-8").read()
        for inc in INCLUDE.findall(text):
            if inc.startswith("radcol/"):
                if inc not in impl:
                    failures.append(f"{rel}: includes unknown {inc}")
                    continue
                target, tfl = impl[inc]
            else:
                tfl = inc.split("/")[0]
                if tfl not in RANK:
                    if fl == "collocation" and inc == "radau.h":
                        continue
                    failures.append(f"{rel}: includes \"{inc}\": expected a "
                                    f"folder-qualified header (core/..., "
                                    f"nlp/...) or radcol/...")
                    continue
                target = ("collocation/" if tfl == "collocation"
                          else "src/") + inc
                target = module(target)
            mapped += 1
            if RANK[tfl] > RANK[fl]:
                failures.append(f"{rel} ({fl}) includes {inc} ({tfl}): a "
                                f"floor above its own")
            src_mod = module(rel)
            if target != src_mod:
                edges.setdefault(src_mod, set()).add(target)

    # no circle between modules
    state = {}

    def visit(n, stack):
        state[n] = 1
        stack.append(n)
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                cyc = stack[stack.index(m):] + [m]
                failures.append("circle: " + " -> ".join(cyc))
            elif state.get(m) is None:
                visit(m, stack)
        stack.pop()
        state[n] = 2

    for n in sorted(edges):
        if state.get(n) is None:
            visit(n, [])

    # built-in models use public headers only
    for dirpath, _, files in os.walk(os.path.join(root, "problems")):
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), root)
            text = open(os.path.join(root, rel), encoding="utf-8").read()
            for inc in INCLUDE.findall(text):
                if inc.split("/")[0] in RANK and not inc.startswith(
                        "collocation/"):
                    failures.append(f"{rel}: includes the private {inc}")

    print(f"layers: {mapped} includes in {len(sources)} files mapped to "
          f"floors {', '.join(f for f in FLOORS if f in seen_floors)}; "
          f"{len(edges)} modules with includes")
    if mapped < 50 or len(seen_floors) < len(FLOORS):
        failures.append("too few includes or floors seen: the check would "
                        "be vacuous")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
