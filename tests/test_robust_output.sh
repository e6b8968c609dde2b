#!/bin/sh
# tests/test_robust_output.sh - issue 18 (robustness, second round): output
# files that cannot be redirected, failed writes that exit cleanly, hostile
# HDF5 input, Ipopt options, stdout errors.  docs/robustness.md has the
# table of cases.
#
# usage: test_robust_output.sh RADCOL PYTHON SOURCE_DIR CASE
#
# Each CASE runs in a fresh temporary directory and asserts the exit status,
# the message, and what is (not) left on disk.
set -u
RADCOL=$1
PY=$2
SRC=$3
CASE=$4
T=$(mktemp -d "${TMPDIR:-/tmp}/radcol-robust.XXXXXX") || exit 1
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

# no_temp [DIR]: no temporary file of radcol's naming (or the old one).
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

same() { cmp -s "$1" "$2" || fail "$1 changed"; }

make_good() { # make_good FILE: a small valid result (with a reference)
  "$RADCOL" solve pendulum -f accel -n 20 -s 3 --quiet -o "$1" > /dev/null 2>&1 ||
    fail "could not write the good file $1"
}

hostile() { # hostile KIND OUT: a variant of good.h5 (tests/robust_h5_make.py)
  "$PY" "$SRC/tests/robust_h5_make.py" "$1" good.h5 "$2" ||
    fail "robust_h5_make.py $1 failed"
}

case "$CASE" in
# Item 1: a write beyond `ulimit -f` (SIGXFSZ ignored, by the shell or by
# radcol itself): exit 3, the old file intact, no temporary file, no crash.
write_limit)
  for cmd in "solve pendulum -f accel -n 40 --quiet" \
             "simulate pendulum -f ode --method rk4 --step 0.001" \
             "solve crane -f flat -n 200 --quiet"; do
    make_good e.h5
    cp e.h5 before.h5
    # shellcheck disable=SC2086
    (trap '' XFSZ; ulimit -f 20; exec "$RADCOL" $cmd -o e.h5) \
      > out.txt 2> err.txt
    rc=$?
    [ "$rc" -eq 3 ] || fail "$cmd under ulimit -f 20 exited $rc, expected 3"
    mentions "File too large"
    same e.h5 before.h5
    no_temp
    # radcol ignores SIGXFSZ itself: the same without the shell's trap.
    # shellcheck disable=SC2086
    (ulimit -f 20; exec "$RADCOL" $cmd -o e.h5) > out.txt 2> err.txt
    rc=$?
    [ "$rc" -eq 3 ] || fail "$cmd (no trap) exited $rc, expected 3"
    same e.h5 before.h5
    no_temp
  done
  ;;
# Item 2: symlinks planted at every old-style temporary name of the next
# pids, and a planted file at the target's directory: radcol writes only a
# file it created itself; the victim is untouched and out.h5 is a regular
# file.
planted_symlink)
  printf 'victim\n' > victim.txt
  cp victim.txt victim.orig
  pid=$$
  i=0
  while [ $i -lt 300 ]; do
    ln -s victim.txt ".out.h5.tmp.$((pid + i))"
    i=$((i + 1))
  done
  run 0 solve pendulum -f accel -n 20 -s 3 --quiet -o out.h5
  same victim.txt victim.orig
  [ -f out.h5 ] && [ ! -L out.h5 ] || fail "out.h5 is not a regular file"
  valid out.h5
  ;;
# Item 2: two writers of the same target at once (distinct temporaries):
# both succeed and the target is complete.
concurrent)
  "$RADCOL" solve crane -f flat -n 400 --quiet -o out.h5 > o1 2> e1 &
  p1=$!
  "$RADCOL" solve crane -f flat -n 400 --quiet -o out.h5 > o2 2> e2 &
  p2=$!
  wait $p1 || fail "first writer failed: $(cat e1)"
  wait $p2 || fail "second writer failed: $(cat e2)"
  valid out.h5
  no_temp
  ;;
# Item 3: an existing target that is not a regular file is refused before
# solving (exit 2) and left as it was.
nonregular_target)
  mkfifo fifo
  run 2 solve pendulum -f accel -n 20 -s 3 -o fifo
  mentions "a FIFO"
  [ -p fifo ] || fail "the FIFO was replaced"
  printf 'data\n' > real.txt
  ln -s real.txt link.h5
  run 2 solve pendulum -f accel -n 20 -s 3 -o link.h5
  mentions "a symbolic link"
  [ -L link.h5 ] || fail "the symlink was replaced"
  mkdir dir.h5
  run 2 simulate pendulum -f ode --method rk4 --step 0.01 -o dir.h5
  mentions "a directory"
  # The refusal proven on a device file (never written: refused first).
  run 2 solve pendulum -f accel -n 20 -s 3 -o /dev/null
  mentions "a character device"
  [ -c /dev/null ] || fail "/dev/null is no longer a character device"
  no_temp
  ;;
# Items 4, 5, 8, 11: hostile HDF5 input refused with exit 2 before libhdf5
# reads it or anything is solved (timeout 20 s: a FIFO must not hang it).
hostile_hdf5)
  make_good good.h5
  mkfifo ext.h5.target
  for kind in vlen_names soft_link external_link external_storage bomb \
              nan_guess huge_guess; do
    case $kind in
      vlen_names) why="variable-length strings" ;;
      soft_link) why="is a soft link" ;;
      external_link) why="is an external link" ;;
      external_storage) why="outside the file" ;;
      bomb) why="compressed or filtered" ;;
      nan_guess) why="/solution/x[3] is nan" ;;
      huge_guess) why="/solution/x[3] is 1e+308" ;;
    esac
    f=$kind.h5
    [ "$kind" = external_link ] && f=ext.h5
    hostile "$kind" "$f"
    run 2 solve pendulum -f accel -n 20 -s 3 --guess "$f" -o out.h5
    mentions "$why"
    [ ! -e out.h5 ] || fail "out.h5 written for --guess $kind"
    if [ "$kind" = bomb ]; then
      run 2 solve pendulum -f accel --mesh "$f" -o out.h5
      mentions "$why"
    fi
  done
  no_temp
  ;;
# Item 6: ./ipopt.opt is not read (it would stop Ipopt at once and print on
# stdout); options writing files are refused; accepted raw options are
# recorded in the result file.  Item 13: a real option written as an
# integer is typed by lookup: stdout holds only the JSON object.
ipopt_options)
  printf 'max_iter 0\nprint_level 5\noutput_file planted.log\n' > ipopt.opt
  run 0 solve pendulum -f accel -n 20 -s 3 --json -o out.h5 \
    --ipopt bound_relax_factor=0 --ipopt print_level=3
  [ ! -e planted.log ] || fail "ipopt.opt was read (planted.log written)"
  "$PY" -c "import json,sys; d=json.load(open('out.txt')); \
assert d['status']=='converged', d['status']" ||
    fail "stdout is not one JSON object with status converged"
  grep -q "Tried to set" out.txt && fail "Ipopt's message reached stdout"
  "$PY" -c "import h5py; f=h5py.File('out.h5','r'); \
o=list(f['/diagnostics/ipopt_options'].asstr()[()]); \
assert o==['bound_relax_factor=0','print_level=3'], o" ||
    fail "raw options not recorded in /diagnostics/ipopt_options"
  for bad in output_file=x.log option_file_name=ipopt.opt file_print_level=5 \
             no_such_option=1 max_iter=1.5 max_iter=0x10 tol=nan; do
    run 2 solve pendulum -f accel -n 20 -s 3 --ipopt "$bad" -o bad.h5
    mentions "$bad"
    [ ! -s out.txt ] || fail "--ipopt $bad printed on stdout"
    [ ! -e bad.h5 ] && [ ! -e x.log ] || fail "--ipopt $bad wrote a file"
  done
  ;;
# Item 7: out of memory has its own status (4) and message, nothing written.
out_of_memory)
  # valgrind (scripts/valgrind.sh runs RADCOL through a wrapper script)
  # cannot start inside `ulimit -v`: the check needs the plain executable.
  if [ "$(head -c 2 "$RADCOL")" = "#!" ]; then
    echo "PASS [$CASE] (skipped: RADCOL is a wrapper script)"
    exit 0
  fi
  if ldd "$RADCOL" 2>/dev/null | grep -q libasan; then
    # AddressSanitizer reserves terabytes of shadow memory and cannot start
    # inside `ulimit -v`; its allocator refuses large blocks instead
    # (malloc returns NULL, as it would under the limit).
    (export ASAN_OPTIONS="allocator_may_return_null=1:max_allocation_size_mb=64"
     exec "$RADCOL" solve pendulum -f accel -n 2000000 --quiet -o big.h5) \
      > out.txt 2> err.txt
  else
    (ulimit -v 400000; exec "$RADCOL" solve pendulum -f accel -n 2000000 \
      --quiet -o big.h5) > out.txt 2> err.txt
  fi
  rc=$?
  [ "$rc" -eq 4 ] || fail "out of memory exited $rc, expected 4"
  mentions "out of memory"
  [ ! -e big.h5 ] || fail "big.h5 written"
  no_temp
  ;;
# Item 7: exit 1 promises a file: `init` whose solver fails with nothing
# fixed writes the point reached, marked failed.
init_failed)
  run 1 init pendulum --guess x=1e140 -o init.h5
  mentions "the point reached is in init.h5 (status failed)"
  valid init.h5
  "$PY" -c "import h5py; f=h5py.File('init.h5','r'); \
assert f.attrs['status']==b'failed', f.attrs['status']" ||
    fail "init.h5 does not say failed"
  ;;
# Item 8: a plugin's x0 = NaN is bad input found before solving (exit 2,
# naming the variable and value); --tf 1e308 and --set L=1e308 are refused.
nonfinite_input)
  run 2 solve faults -f nan_x0 --plugin "$FAULTS" -o out.h5
  mentions "initial guess of x at t = 0 is nan"
  run 2 solve pendulum --tf 1e308 -o out.h5
  mentions "--tf 1e308: expected a finite number (decimal, magnitude <= 1e+150)"
  run 2 solve pendulum --set L=1e308 -o out.h5
  mentions "magnitude <= 1e+150"
  run 2 solve pendulum --set g=0x1p3 -o out.h5
  mentions "g=0x1p3"
  [ ! -e out.h5 ] || fail "out.h5 written for non-finite input"
  ;;
# Item 10: an error writing stdout is exit 3.  /dev/full: the proof that a
# full device is refused (the only use of a device file here).
stdout_full)
  make_good good.h5
  "$RADCOL" info good.h5 --json > /dev/full 2> err.txt
  rc=$?
  [ "$rc" -eq 3 ] || fail "info --json > /dev/full exited $rc, expected 3"
  mentions "writing standard output failed"
  "$RADCOL" list > /dev/full 2> err.txt
  rc=$?
  [ "$rc" -eq 3 ] || fail "list > /dev/full exited $rc, expected 3"
  # A closed stdout (skipped when RADCOL is a wrapper script, e.g. under
  # scripts/valgrind.sh: the shell reading the script takes fd 1 first).
  if [ "$(head -c 2 "$RADCOL")" != "#!" ]; then
    "$RADCOL" info good.h5 >&- 2> err.txt
    rc=$?
    [ "$rc" -eq 3 ] || fail "info with stdout closed exited $rc, expected 3"
  fi
  ;;
# Item 11: a 253-byte file name works (the temporary name is shortened);
# a 256-byte one is refused before solving.
name_length)
  n253=$("$PY" -c "print('a' * 250 + '.h5')")
  run 0 solve pendulum -f accel -n 20 -s 3 --quiet -o "$n253"
  valid "$n253"
  n256=$("$PY" -c "print('b' * 253 + '.h5')")
  run 2 solve pendulum -f accel -n 20 -s 3 -o "$n256"
  mentions "file name of 256 bytes"
  no_temp
  ;;
# Item 11: control bytes and invalid UTF-8 from a file are escaped in text,
# messages and --json (valid JSON, no raw ESC byte anywhere).
escape)
  make_good good.h5
  hostile escape esc.h5
  run 0 info esc.h5
  grep -F 'evil\x1b[31m\x07\xff\xfe' out.txt > /dev/null ||
    fail "text output does not show the escaped bytes"
  run 0 info esc.h5 --json
  "$PY" -c "import json; d=json.loads(open('out.txt','rb').read().decode('utf-8')); \
assert d['problem']=='evil\x1b[31m\x07\ufffd\ufffd', repr(d['problem'])" ||
    fail "--json is not valid UTF-8 JSON with the bytes escaped"
  run 2 solve pendulum -f accel -n 20 -s 3 --guess esc.h5 -o out.h5
  mentions 'evil\x1b[31m\x07\xff\xfe'
  for f in out.txt err.txt; do
    "$PY" -c "import sys; b=open(sys.argv[1],'rb').read(); \
sys.exit(1 if b'\x1b' in b or b'\xff' in b else 0)" "$f" ||
      fail "$f holds a raw control or invalid byte"
  done
  ;;
# Item 12: stale temporaries of radcol's naming whose writer is gone are
# removed by the next write into the directory (of any target, issue 28
# item 18); a locked one (live writer), other names and symlinks are kept.
stale_temp)
  printf 'stale\n' > .out.h5.tmp.radcol.abcdefghijkl
  printf 'other\n' > .out.h5.tmp.radcol.short
  printf 'other\n' > .other.h5.tmp.radcol.abcdefghijkl
  ln -s victim .out.h5.tmp.radcol.yzabcdefghij
  # This shell holds a lock on the live writer's file (fd 9, not passed on).
  exec 9> .out.h5.tmp.radcol.mnopqrstuvwx
  flock -n 9 || fail "cannot lock the live writer's file"
  timeout 60 "$RADCOL" solve pendulum -f accel -n 20 -s 3 --quiet -o out.h5 \
    > out.txt 2> err.txt 9>&-
  [ $? -eq 0 ] || fail "the write with stale temporaries failed"
  exec 9>&-
  [ ! -e .out.h5.tmp.radcol.abcdefghijkl ] || fail "stale temporary kept"
  [ -e .out.h5.tmp.radcol.mnopqrstuvwx ] || fail "a live writer's file removed"
  [ -e .out.h5.tmp.radcol.short ] || fail "a file of another pattern removed"
  [ ! -e .other.h5.tmp.radcol.abcdefghijkl ] ||
    fail "another target's stale temporary kept"
  [ -L .out.h5.tmp.radcol.yzabcdefghij ] || fail "a symlink removed"
  valid out.h5
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "PASS [$CASE]"
