#!/bin/sh
# tests/test_robust_probe.sh - issue 28 (robustness, third round: a hostile
# probe): one CTest per CASE, robust.probe.CASE.  docs/robustness.md has the
# table of items, what radcol did before and what it does now.
#
# usage: test_robust_probe.sh RADCOL PYTHON SOURCE_DIR CASE
# environment: FAULTS (the fault-injecting test plugin), SHIM (the
# LD_PRELOAD library tests/shim/fs_shim.c).
#
# Each CASE runs in a fresh temporary directory and asserts the exit status,
# the message, and what is (not) left on disk.
set -u
RADCOL=$1
PY=$2
SRC=$3
CASE=$4
T=$(mktemp -d "${TMPDIR:-/tmp}/radcol-probe.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

fail() {
  echo "FAIL [$CASE]: $*" >&2
  [ -f err.txt ] && { echo "--- stderr:" >&2; tail -20 err.txt >&2; }
  exit 1
}

# run EXPECTED ARGS...: radcol with stdout in out.txt, stderr in err.txt.
run() {
  want=$1
  shift
  timeout 60 "$RADCOL" "$@" > out.txt 2> err.txt
  got=$?
  [ "$got" -eq "$want" ] || fail "radcol $* exited $got, expected $want"
}

mentions() {
  grep -F -e "$1" err.txt > /dev/null || fail "stderr does not mention '$1'"
}

# no_temp [DIR]: no temporary file of radcol's naming.
no_temp() {
  for f in "${1:-.}"/.*.tmp.*; do
    [ -e "$f" ] || [ -L "$f" ] || continue
    fail "temporary file $f was left behind"
  done
}

valid() { # valid FILE: h5py opens it and it is a radcol result
  "$PY" -c "import h5py,sys; f=h5py.File(sys.argv[1],'r'); \
assert f.attrs['format']==b'radcol-result'; f['/solution/time'][()]" "$1" ||
    fail "$1 is not a complete result file"
}

make_good() { # make_good FILE: a small valid result (with a reference)
  "$RADCOL" solve pendulum -f accel -n 20 -s 3 --quiet -o "$1" > /dev/null 2>&1 ||
    fail "could not write the good file $1"
}

is_wrapper() { [ "$(head -c 2 "$RADCOL")" = "#!" ]; }
has_asan() { ldd "$RADCOL" 2>/dev/null | grep -q libasan; }

case "$CASE" in
# Item 12: a truncated shared library is refused from its ELF headers
# before dlopen maps it (before: SIGBUS inside dlopen).
plugin_truncated)
  for n in 1000 8000; do
    head -c $n "$FAULTS" > trunc.so
    run 2 list --plugin ./trunc.so
    mentions "plugin ./trunc.so: not a loadable shared library: truncated"
  done
  printf 'not an ELF file\n' > text.so
  run 2 list --plugin ./text.so
  mentions "not a loadable shared library: no ELF header"
  mkfifo fifo.so
  run 2 list --plugin ./fifo.so
  mentions "plugin ./fifo.so: is a FIFO: expected a regular file"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "PASS [$CASE]"
