#!/bin/sh
# tests/test_march_uniform.sh - index-3 forms on uniform meshes at the default
# tolerance (issue 26; the full sweep from 10 to 10,000 elements is
# scripts/march_uniform_sweep.py, results/march-uniform.md).
#
# usage: test_march_uniform.sh RADCOL
#
# - pendulum and four-bar index3, s = 3 and 5, n = 10, 13, 100 (pendulum also
#   1000): converged.
# - double-pendulum index3, s = 3 and 5, n = 40 and 100: converged.
# - double-pendulum index3, n = 10, s = 3, where the collocation equations have
#   no solution near the motion (docs/march.md): exit 1, status failed (never
#   infeasible), the message names the element and its time interval.
set -u
RADCOL=$1
T=$(mktemp -d "${TMPDIR:-/tmp}/radcol-uniform.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

fail() {
  echo "FAIL: $*" >&2
  [ -f out.txt ] && { echo "--- out.txt:" >&2; head -c 2000 out.txt >&2; }
  exit 1
}

solve() { # PROBLEM N S -> out.txt, $got
  "$RADCOL" solve "$1" -f index3 -n "$2" -s "$3" --estimate off --json \
    --quiet -o r.h5 >out.txt 2>err.txt
  got=$?
}

for case in "pendulum 10 13 100 1000" "four-bar 10 13 100" \
            "double-pendulum 40 100"; do
  set -- $case
  p=$1
  shift
  for n in "$@"; do
    for s in 3 5; do
      solve "$p" "$n" "$s"
      [ "$got" -eq 0 ] && grep -q '"status": *"converged"' out.txt ||
        fail "$p index3 -n $n -s $s: exit $got, not converged"
    done
  done
done

solve double-pendulum 10 3
[ "$got" -eq 1 ] || fail "double-pendulum -n 10 -s 3: exit $got, expected 1"
grep -q '"status": *"failed"' out.txt ||
  fail "double-pendulum -n 10 -s 3: status not failed"
grep -q 'infeasible' out.txt &&
  fail "double-pendulum -n 10 -s 3: an initial-value problem called infeasible"
grep -q 'element [0-9]* (t in \[' out.txt ||
  fail "double-pendulum -n 10 -s 3: the message does not name the element and time"
echo "test_march_uniform: ok"
