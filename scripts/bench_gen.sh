#!/bin/sh
# bench_gen.sh - callback time of radcol-gen's code against the hand-coded
# built-in (issue 15): the pendulum twin (examples/models/pendulum_twin.py)
# is generated, built against the installed package like any plugin
# (Release), and `gen_twin --bench` times the point-block value, Jacobian
# and Hessian of both at the same 1024 random points (2e6 calls, best of 7
# repetitions, both through the rc_block function pointers).  Writes the
# table to results/bench/gen.md.  A benchmark, not a test: nothing fails.
#
# usage: scripts/bench_gen.sh [BUILD_DIR]   (default: build; a Release build
#        tree with the tests, i.e. build/tests/gen_twin)
#        scripts/bench_gen.sh --help
set -eu
case "${1:-}" in -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0;; esac
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
twin=$build/tests/gen_twin
[ -x "$twin" ] || { echo "bench_gen: $twin not found: build $build first" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/radcol-bench-gen.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
/usr/bin/python3 "$src/scripts/radcol-gen" "$src/examples/models/pendulum_twin.py" -o "$tmp/p" >/dev/null
cmake -S "$tmp/p" -B "$tmp/p/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/p/build" >/dev/null
out=$src/results/bench/gen.md
mkdir -p "$(dirname "$out")"
{
  echo "# Generated vs hand-coded callbacks (pendulum)"
  echo
  echo "scripts/bench_gen.sh, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(uname -m),"
  echo "$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(cc --version | head -n 1)."
  echo "Hand-coded: problems/pendulum.c in libradcol.a ($(grep -m1 CMAKE_BUILD_TYPE: "$build/CMakeCache.txt" | sed 's/.*=//') build);"
  echo "generated: radcol-gen on examples/models/pendulum_twin.py, built as a plugin"
  echo "(Release). Point block, ns per call, best of 7 x 2e6 calls; a shared"
  echo "machine, so expect +-20 % between runs."
  echo
  "$twin" --bench "$tmp/p/build/libpendulum_gen.so" | grep '^|'
} >"$out"
cat "$out"
