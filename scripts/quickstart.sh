#!/usr/bin/env bash
# The main job: install what is missing, build, solve the crane path-following
# demo and plot it.  Writes results/crane.h5 and results/crane.png.
case "${1:-}" in -h|--help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j2
mkdir -p results
./build/radcol solve crane -o results/crane.h5
py="$(sed -n 's/^RADCOL_PYTHON:FILEPATH=//p' build/CMakeCache.txt)"
"${py:-/usr/bin/python3}" scripts/plot_crane.py results/crane.h5 -o results/crane.png
echo "quickstart: wrote results/crane.h5 and results/crane.png"
