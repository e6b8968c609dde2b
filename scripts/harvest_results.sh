#!/usr/bin/env bash
# Collect every file the radcol CLI writes during a CTest run, for comparing
# two builds (scripts/compare_results.py).
# Usage: scripts/harvest_results.sh BUILD_DIR OUT_DIR [CTEST_ARGS...]
#   Runs `ctest --test-dir BUILD_DIR CTEST_ARGS` with the CLI
#   BUILD_DIR/radcol replaced for the run by a wrapper (restored afterwards,
#   also on error or interrupt).  The wrapper runs the real CLI and then
#   copies the file named by -o/--output, if the run wrote it, into OUT_DIR
#   under a key made from the command: working directory and arguments with
#   the source tree written @SRC, the build tree @BUILD and every temporary
#   directory ($TMPDIR or /tmp, first component) @TMP, so that the same test
#   command gets the same key in any build and any run.  A key seen again
#   gets the next number (KEY.0, KEY.1, ...).  OUT_DIR/index.tsv lists
#   key, number, exit status and the normalised command, one row a run.
#   Default CTEST_ARGS: -j1 (the runs of one key come in the same order
#   every time) and -E leaving out the tests whose files differ from run to
#   run or that need the real executable: robust.kill_write,
#   robust.signals and robust.output.write_limit (timing), test_simulate_cli
#   (process ids in file names), gen and plugin (plugins resolve symbols
#   from the executable).  Two harvests of one build then compare equal.
#   The script exits 0 whatever the tests did: the files are the point.
# Then: scripts/compare_results.py OUT_A OUT_B.
case "${1:-}" in -h|--help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -euo pipefail
build="${1:?usage: scripts/harvest_results.sh BUILD_DIR OUT_DIR [CTEST_ARGS...]}"
out="${2:?usage: scripts/harvest_results.sh BUILD_DIR OUT_DIR [CTEST_ARGS...]}"
shift 2
[ $# -gt 0 ] || set -- -j1 -E '^(robust\.kill_write|robust\.signals|robust\.output\.write_limit|test_simulate_cli|gen|plugin)$'
build=$(cd "$build" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
[ -n "$src" ] || { echo "harvest_results.sh: $build is not a CMake build dir" >&2; exit 2; }
[ -x "$build/radcol" ] || { echo "harvest_results.sh: no $build/radcol" >&2; exit 2; }
real="$build/radcol.harvest-real"
[ ! -e "$real" ] || { echo "harvest_results.sh: $real exists (an earlier run interrupted?): move it back to $build/radcol" >&2; exit 2; }
tmp="${TMPDIR:-/tmp}"
tmp="${tmp%/}"
mv "$build/radcol" "$real"
restore() { rm -f "$build/radcol"; mv "$real" "$build/radcol"; }
trap restore EXIT
: > "$out/index.tsv"
{
  echo '#!/usr/bin/env bash'
  printf 'real=%q out=%q src=%q build=%q tmp=%q\n' "$real" "$out" "$src" "$build" "$tmp"
  cat << 'EOF'
cmd=$(printf '%q' "$PWD"; printf ' %q' "$@")
norm() { sed -e "s#$build#@BUILD#g" -e "s#$src#@SRC#g" -e "s#$tmp/[^/ ]*#@TMP#g"; }
key=$(printf '%s' "$cmd" | norm | sha1sum | cut -c1-16)
ofile=
prev=
for a in "$@"; do
  case "$prev" in -o|--output) ofile=$a ;; esac
  prev=$a
done
case "$ofile" in ""|/*) ;; *) ofile="$PWD/$ofile" ;; esac
before=
[ -z "$ofile" ] || before=$(stat -c %Y.%s.%i "$ofile" 2> /dev/null || true)
"$real" "$@" &
child=$!
trap 'kill -TERM $child 2> /dev/null' TERM
trap 'kill -INT $child 2> /dev/null' INT
while :; do
  wait $child && rc=0 || rc=$?
  kill -0 $child 2> /dev/null || break
done
n=0
while ! mkdir "$out/$key.$n.d" 2> /dev/null; do n=$((n + 1)); done
if [ -n "$ofile" ] && [ -f "$ofile" ] && [ "$(stat -c %Y.%s.%i "$ofile")" != "$before" ]; then
  ext=${ofile##*.}
  cp "$ofile" "$out/$key.$n.$ext"
fi
printf '%s\t%d\t%d\t%s\n' "$key" "$n" "$rc" "$(printf '%s' "$cmd" | norm)" >> "$out/index.tsv"
exit $rc
EOF
} > "$build/radcol"
chmod +x "$build/radcol"
ctest --test-dir "$build" "$@" || true
rmdir "$out"/*.d 2> /dev/null || true
echo "harvest_results: $(wc -l < "$out/index.tsv") runs, $(find "$out" -maxdepth 1 -type f ! -name index.tsv | wc -l) files in $out"
