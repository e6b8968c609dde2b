#!/bin/sh
# tests/test_determinism.sh - the same command twice gives bit-identical
# solution datasets (docs/robustness.md).
#
# usage: test_determinism.sh RADCOL PYTHON CASE
#
# Runs `radcol solve` (or simulate/init) for CASE twice in a fresh
# directory, the second time with MALLOC_PERTURB_ set (glibc then fills
# freed and new heap memory with a byte pattern, so a read of uninitialised
# heap memory would change the result), and compares every dataset under
# /solution and /multipliers byte for byte with h5py (NaN payloads
# included: the raw bytes are compared, not the values).  Timings and the
# UTC time are allowed to differ and are not compared.
set -u
RADCOL=$1
PY=$2
CASE=$3
T=$(mktemp -d "${TMPDIR:-/tmp}/radcol-det.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

fail() {
  echo "FAIL [$CASE]: $*" >&2
  [ -f err.txt ] && cat err.txt >&2
  exit 1
}

twice() {
  "$RADCOL" "$@" -o a.h5 > /dev/null 2> err.txt || [ $? -eq 1 ] ||
    fail "radcol $* failed"
  MALLOC_PERTURB_=165 "$RADCOL" "$@" -o b.h5 > /dev/null 2> err.txt ||
    [ $? -eq 1 ] || fail "radcol $* failed (second run)"
  "$PY" - a.h5 b.h5 <<'PYEOF' || fail "radcol $*: the two runs differ"
import sys, h5py
a, b = (h5py.File(p, "r") for p in sys.argv[1:3])
def datasets(f, top):
    out = {}
    if top in f:
        f[top].visititems(lambda n, o: out.__setitem__(top + "/" + n, o)
                          if isinstance(o, h5py.Dataset) else None)
    return out
da = {**datasets(a, "solution"), **datasets(a, "multipliers")}
db = {**datasets(b, "solution"), **datasets(b, "multipliers")}
assert "solution/time" in da, "no /solution/time"
assert sorted(da) == sorted(db), (sorted(da), sorted(db))
bad = [n for n in da
       if da[n].dtype != db[n].dtype or da[n].shape != db[n].shape
       or da[n][()].tobytes() != db[n][()].tobytes()]
for n in bad:
    print("differs: /" + n, file=sys.stderr)
print("%d datasets identical" % (len(da) - len(bad)))
sys.exit(1 if bad else 0)
PYEOF
}

case "$CASE" in
pendulum) twice solve pendulum -f accel -n 20 -s 3 --quiet ;;
pendulum_index3) twice solve pendulum -f index3 -n 20 -s 3 --quiet ;;
crane_track) twice solve crane -f track -n 10 -s 3 --quiet ;;
double_pendulum) twice solve double-pendulum -n 10 -s 3 --tf 1 --quiet ;;
max_iter) twice solve pendulum -n 10 --max-iter 3 --solver ipopt --quiet ;;
simulate) twice simulate pendulum -f ode --method rk4 --step 0.01 ;;
*) fail "unknown case" ;;
esac
exit 0
