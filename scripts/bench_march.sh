#!/usr/bin/env bash
# Does -O3 -march=native help radcol?  Builds a second tree with those flags,
# then runs pendulum/accel and crane/track (n = 10^4, s = 3) alternately with
# the Release build and the native build, REPEAT times, and writes the
# callback time (eval_s), Ipopt time and process CPU of every run to
# results/bench/march.md (and stdout).
# Usage: scripts/bench_march.sh [RELEASE_BUILD_DIR] [REPEAT]
case "${1:-}" in -h|--help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -euo pipefail
cd "$(dirname "$0")/.."
rel="${1:-build}"
rep="${2:-3}"
py=/usr/bin/python3
native="$rel-native"
cmake -S . -B "$native" -DCMAKE_BUILD_TYPE=Release -DRADCOL_BUILD_TESTS=OFF \
      -DCMAKE_C_FLAGS_RELEASE="-O3 -march=native -DNDEBUG" > /dev/null
cmake --build "$native" -j2 --target radcol_cli > /dev/null
cmake --build "$rel" -j2 --target radcol_cli > /dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=results/bench/march.md
mkdir -p results/bench
{
  echo "# -O3 -march=native versus Release (-O3)"
  echo
  echo "Written by \`scripts/bench_march.sh $rel $rep\` ($(date -u +%Y-%m-%dT%H:%MZ)). n = 10^4, s = 3;"
  echo "eval: radcol's callbacks, ipopt: Ipopt + MUMPS (prebuilt Debian libraries, the"
  echo "same in both), cpu: user + sys of the whole process."
  echo
  echo "| run | build | problem | eval s | ipopt s | cpu s |"
  echo "|---|---|---|---|---|---|"
} > "$out"
for r in $(seq 1 "$rep"); do
  for b in "$rel" "$native"; do
    for p in "pendulum -f accel" "crane -f track"; do
      cpu=$( { /usr/bin/time -f "%U %S" "$b/radcol" solve $p -n 10000 -s 3 --json --quiet \
               -o "$tmp/m.h5" > "$tmp/m.json"; } 2>&1 | tail -1 | awk '{print $1 + $2}')
      row=$("$py" -c "import json,sys; r=json.load(open(sys.argv[1])); print('%.4f | %.3f' % (r['eval_s'], r['ipopt_s']))" "$tmp/m.json")
      echo "| $r | $( [ "$b" = "$rel" ] && echo release || echo native ) | ${p%% *} | $row | $cpu |" | tee -a "$out"
    done
  done
done
echo "bench_march: wrote $out"
