#!/bin/sh
# test_guess_map.sh - `radcol solve --guess FILE.h5` from another formulation
# of the same problem (issue 15 item 6): variables mapped by name and kind.
#   1. pendulum accel -> index3 and double-pendulum index1 -> index3: the
#      mapped guess is used (stderr says so), the solve converges, and to the
#      same discrete solution as from the formulation's own guess (every
#      variable at every node within 1e-7, read through the HDF5 layout);
#   2. pendulum accel -> ggl (mu has no source) and -> angle (theta, omega)
#      are refused: exit 2, the unmappable variables named, no file written;
#   3. a guess of another problem is still refused.
# usage: test_guess_map.sh RADCOL PYTHON
set -eu
radcol=$1 py=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/radcol-guessmap.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$tmp"

same_solution() { # same_solution A.h5 B.h5: max |a - b| over every variable
  "$py" - "$1" "$2" <<'PY'
import sys, h5py, numpy as np
a, b = (h5py.File(p, "r") for p in sys.argv[1:3])
names = a["/problem/variable_names"].asstr()[()]
d = max(np.max(np.abs(a["/solution/" + n][()] - b["/solution/" + n][()])) for n in names)
print("  max |difference| over %s: %.2e" % (" ".join(names), d))
sys.exit(0 if d < 1e-7 else 1)
PY
}

mapped() { # mapped PROBLEM FROM TO ARGS...
  p=$1 from=$2 to=$3
  shift 3
  "$radcol" solve "$p" -f "$from" "$@" -o from.h5 --quiet >/dev/null || fail "$p/$from"
  "$radcol" solve "$p" -f "$to" "$@" --guess from.h5 -o mapped.h5 --json \
    >mapped.json 2>mapped.err || { cat mapped.err; fail "$p/$to from $p/$from"; }
  grep -q "mapped by name from $p/$from" mapped.err || { cat mapped.err; fail "no mapping note"; }
  grep -q '"status": "converged"' mapped.json || fail "$p/$to from $from not converged"
  "$radcol" solve "$p" -f "$to" "$@" -o own.h5 --quiet >/dev/null 2>&1 || fail "$p/$to own guess"
  echo "$p: $from -> $to: $(grep mapped mapped.err)"
  same_solution mapped.h5 own.h5 || fail "$p/$to: mapped-guess solution differs"
}
mapped pendulum accel index3 -n 20
mapped double-pendulum index1 index3 -n 40 --tf 2

refused() { # refused PATTERN FORMULATION
  set +e
  "$radcol" solve pendulum -f "$2" -n 10 --guess from_p.h5 -o refused.h5 >out.txt 2>err.txt
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || { cat err.txt; fail "accel -> $2 exited $rc, expected 2"; }
  grep -q "$1" err.txt || { cat err.txt; fail "no '$1' in the message"; }
  [ ! -e refused.h5 ] || fail "a refused run wrote refused.h5"
  echo "refused: $(cat err.txt)"
}
"$radcol" solve pendulum -f accel -n 10 -o from_p.h5 --quiet >/dev/null
refused "pendulum/ggl: 1 variable(s) cannot be mapped by name and kind: mu (algebraic); the guess holds x, y, u, v, T" ggl
refused "theta (differential), omega (differential)" angle
set +e
"$radcol" solve double-pendulum -f index3 -n 10 --guess from_p.h5 -o refused.h5 >/dev/null 2>err.txt
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "a guess must come from the same problem" err.txt ||
  { cat err.txt; fail "a guess of another problem was not refused"; }
echo "guess map test: ok"
