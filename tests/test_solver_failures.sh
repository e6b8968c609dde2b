#!/bin/sh
# tests/test_solver_failures.sh - solver failures map to documented statuses
# and exit codes, and each still writes a valid result file marked with the
# status (SPEC 7; docs/robustness.md).
#
# usage: test_solver_failures.sh RADCOL FAULTS_PLUGIN.so PYTHON CASE
#
# CASE         command                                        status      exit
# infeasible   solve faults -f infeasible (x' = u, |u| <= 1,   infeasible  1
#              x(0) = 0, x(1) = 2)
# max_iter     solve pendulum --max-iter 2                      max_iter    1
# nan          solve faults -f nan (callback returns NaN)        failed      1
# fatal        solve faults -f fatal (callback returns -1)       failed      1
# domain       solve faults -f domain (callback returns +1)      failed      1
#
# For each: the exit status, the --json "status", `radcol info --json` on
# the written file (same status, exit 0), h5py opening the file with a
# /solution group holding time and every variable, no temporary file left.
set -u
RADCOL=$1
PLUGIN=$2
PY=$3
CASE=$4
T=$(mktemp -d "${TMPDIR:-/tmp}/radcol-fail.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

fail() {
  echo "FAIL [$CASE]: $*" >&2
  for f in err.txt out.txt info.txt; do
    [ -f $f ] && { echo "--- $f:" >&2; cat $f >&2; }
  done
  exit 1
}

# expect STATUS EXIT ARGS... : run radcol solve ARGS -o out.h5 --json --quiet
expect() {
  want_status=$1
  want_exit=$2
  shift 2
  "$RADCOL" solve "$@" -o out.h5 --json --quiet > out.txt 2> err.txt
  got=$?
  [ "$got" -eq "$want_exit" ] || fail "radcol solve $* exited $got, expected $want_exit"
  grep -q "\"status\": \"$want_status\"" out.txt ||
    fail "--json does not say status $want_status"
  grep -q "did not converge: $want_status" err.txt ||
    fail "stderr does not name the status $want_status"
  [ -f out.h5 ] || fail "no result file written for a failed solve"
  "$RADCOL" info out.h5 --json > info.txt 2>&1 || fail "radcol info failed on the file"
  grep -q "\"status\": \"$want_status\"" info.txt ||
    fail "radcol info --json does not show status $want_status"
  "$PY" - out.h5 "$want_status" <<'PYEOF' || fail "h5py check of the file failed"
import sys, h5py
path, status = sys.argv[1], sys.argv[2]
with h5py.File(path, "r") as f:
    assert f.attrs["format"] in ("radcol-result", b"radcol-result"), f.attrs["format"]
    sol = f["/solution"]
    names = f["/problem/variable_names"].asstr()[()]
    n = sol["time"].shape[0]
    assert n >= 2, n
    for v in names:
        assert sol[v].shape == (n,), (v, sol[v].shape)
    d = f["/diagnostics"]
    text = " ".join(str(d.attrs[k]) for k in d.attrs)
    assert status in text, (status, dict(d.attrs))
PYEOF
  for f in .out.h5.tmp.*; do
    [ -e "$f" ] && fail "temporary file $f left behind"
  done
  return 0
}

case "$CASE" in
infeasible) expect infeasible 1 faults --plugin "$PLUGIN" -f infeasible -n 8 ;;
max_iter) expect max_iter 1 pendulum -n 10 --max-iter 2 --solver ipopt ;;
nan) expect failed 1 faults --plugin "$PLUGIN" -f nan -n 8 ;;
fatal)
  expect failed 1 faults --plugin "$PLUGIN" -f fatal -n 8
  grep -q "failed fatally" out.txt || fail "message does not say the callback failed fatally"
  ;;
domain) expect failed 1 faults --plugin "$PLUGIN" -f domain -n 8 ;;
*) fail "unknown case" ;;
esac
exit 0
