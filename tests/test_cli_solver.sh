#!/bin/sh
# tests/test_cli_solver.sh - `radcol solve --solver auto|ipopt|newton`.
#
# usage: test_cli_solver.sh RADCOL [PYTHON]
#
# - pendulum accel: auto and newton report solver "newton" in --json and in
#   /diagnostics of the file (with PYTHON: h5py), ipopt reports "ipopt".
# - pendulum accel -n 2 -s 2 --tf 5 (two 2.5 s elements, more than a swing
#   each): Newton fails from every predictor (the scaled Newton of the
#   march gets past element 0 and fails in element 1) while Ipopt's line
#   search reaches the discrete solution; auto falls back to Ipopt and says
#   so on stderr and in --json ("ipopt (newton fallback at element K)").
#   That discrete solution is 100 % off on the dense output (two elements),
#   so with --error-tol 1e-2 (the accuracy verdict binding on a fixed mesh)
#   the run ends inaccurate, exit 1, file written (no accurate mesh was
#   found on which Newton fails: every one tried was solved by Newton).
# - --solver newton on crane track (an optimal control problem) and
#   --solver bogus are bad input: exit 2, the reason on stderr, no file.
set -u
RADCOL=$1
PY=${2:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/radcol-solver.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

fail() {
  echo "FAIL: $*" >&2
  for f in err.txt out.txt; do
    [ -f $f ] && { echo "--- $f:" >&2; cat $f >&2; }
  done
  exit 1
}

# run EXIT ARGS...: radcol solve ARGS --json --quiet, expect exit EXIT
run() {
  want=$1
  shift
  "$RADCOL" solve "$@" --json --quiet >out.txt 2>err.txt
  got=$?
  [ "$got" -eq "$want" ] || fail "radcol solve $*: exit $got, expected $want"
}

for s in auto newton ipopt; do
  kind=$s
  [ $s = auto ] && kind=newton
  run 0 pendulum -f accel -n 20 -s 3 --tf 5 --solver $s -o $s.h5
  grep -q "\"solver\": *\"$kind\"" out.txt ||
    fail "--solver $s: expected \"solver\": \"$kind\" in --json"
  if [ -n "$PY" ]; then
    "$PY" -c "
import sys, h5py
v = h5py.File('$s.h5', 'r')['diagnostics'].attrs['solver']
v = v.decode() if isinstance(v, bytes) else str(v)
sys.exit(0 if v == '$kind' else 'solver attribute %r, expected $kind' % v)
" || fail "--solver $s: /diagnostics solver attribute"
  fi
done

run 1 pendulum -f accel -n 2 -s 2 --tf 5 --error-tol 1e-2 -o fallback.h5
[ -f fallback.h5 ] || fail "huge steps: the inaccurate result was not written"
grep -qE '"solver": *"ipopt \(newton fallback at element [0-9]+\)"' out.txt ||
  fail "huge steps: expected an Ipopt fallback in --json"
grep -qE "Newton did not converge at element [0-9]+; solved by Ipopt" err.txt ||
  fail "huge steps: expected the fallback named on stderr"
grep -q '"message": *"Ipopt: Solve_Succeeded' out.txt ||
  fail "huge steps: expected Ipopt to converge"
grep -q '"status": *"inaccurate"' out.txt ||
  fail "huge steps: expected status inaccurate (dense-output violation)"

run 2 crane -f track -n 10 --solver newton -o ocp.h5
grep -q "not a square system" err.txt && grep -q "Lagrange" err.txt ||
  fail "newton on crane track: expected the reason on stderr"
[ ! -e ocp.h5 ] || fail "newton on crane track wrote a file"

run 2 pendulum --solver bogus -o bogus.h5
grep -q -- "--solver bogus: expected auto, ipopt or newton" err.txt ||
  fail "--solver bogus: expected the message naming the value"
[ ! -e bogus.h5 ] || fail "--solver bogus wrote a file"
echo "ok"
