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

hostile() { # hostile KIND GOOD OUT: a variant (tests/robust_h5_make.py)
  "$PY" "$SRC/tests/robust_h5_make.py" "$1" "$2" "$3" ||
    fail "robust_h5_make.py $1 failed"
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
# Item 5: a reader in the moment right after a writer renamed its
# temporary file over the target (the shim holds the writer there, still
# holding its lock): every reader sees a complete file (before: the writer's
# exclusive lock made libhdf5's shared lock fail, "truncated or corrupt
# file?", exit 3).
write_race)
  is_wrapper && { echo "PASS [$CASE] (skipped: RADCOL is a wrapper script)"; exit 0; }
  make_good out.h5
  # whatever happens, let the writer go on (it waits at most 30 s anyway)
  trap 'touch "$T/renamed.go"; wait; rm -rf "$T"' EXIT
  (export LD_PRELOAD="$SHIM" RC_SHIM_RENAME_PAUSE="$T/renamed"
   export ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"
   exec "$RADCOL" solve crane -f flat -n 400 --quiet -o out.h5) \
    > w.out 2> w.err &
  writer=$!
  i=0
  while [ ! -e renamed ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
  [ -e renamed ] || { kill $writer; fail "the writer never renamed"; }
  run 0 info out.h5
  grep -q "crane / flat" out.txt || fail "info does not show the new file"
  run 0 export out.h5 --step 1
  "$PY" -c "import h5py; h5py.File('out.h5','r')['/solution/time'][()]" ||
    fail "h5py cannot open the file right after the rename"
  touch renamed.go
  wait $writer || fail "the writer failed: $(cat w.err)"
  valid out.h5
  no_temp
  ;;
# Item 10: flock fails.  ENOLCK (a file system without locks): the write
# goes ahead unlocked and the file is read without HDF5 file locking.  Any
# other lock error: exit 3 naming it, the temporary file removed (before:
# 100 empty temporaries, "100 random names taken", then "corrupt" reading).
lock_unsupported)
  is_wrapper && { echo "PASS [$CASE] (skipped: RADCOL is a wrapper script)"; exit 0; }
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"
  LD_PRELOAD="$SHIM" RC_SHIM_FLOCK_ERRNO=37 \
    run 0 solve pendulum -f accel -n 20 -s 3 --quiet -o out.h5
  no_temp
  valid out.h5
  LD_PRELOAD="$SHIM" RC_SHIM_FLOCK_ERRNO=37 run 0 info out.h5
  LD_PRELOAD="$SHIM" RC_SHIM_FLOCK_ERRNO=37 \
    run 0 solve pendulum -f accel -n 20 -s 3 --guess out.h5 --quiet -o out2.h5
  cp out.h5 before.h5
  LD_PRELOAD="$SHIM" RC_SHIM_FLOCK_ERRNO=5 \
    run 3 solve pendulum -f accel -n 20 -s 3 --quiet -o out.h5
  mentions "cannot lock the temporary file next to it: Input/output error"
  cmp -s out.h5 before.h5 || fail "out.h5 changed by the failed write"
  no_temp
  ;;
# Item 13: an output name of the temporary-file pattern is refused (before:
# written, then removed by the next write as a stale temporary).
temp_name)
  run 2 solve pendulum -f accel -n 20 -s 3 -o .x.h5.tmp.radcol.abcdefghijkl
  mentions "a name of the pattern of radcol's temporary files"
  [ ! -e .x.h5.tmp.radcol.abcdefghijkl ] || fail "the file was written"
  run 2 simulate pendulum -f ode --method rk4 --step 0.01 \
    -o sub/.y.tmp.radcol.000000000000
  run 0 solve pendulum -f accel -n 20 -s 3 --quiet -o .x.h5.tmp.radcol.short
  valid .x.h5.tmp.radcol.short
  ;;
# Item 18: a stale temporary (unlocked, of radcol's naming) of any target in
# the directory is removed by the next write there, as README says (before:
# only a write to the same target removed it).
sweep_directory)
  printf 'stale\n' > .other.h5.tmp.radcol.abcdefghijkl
  printf 'stale\n' > .x.tmp.radcol.zyxwvutsrqpo
  run 0 solve pendulum -f accel -n 20 -s 3 --quiet -o out.h5
  no_temp
  ;;
# Item 14: malformed content is bad input (exit 2 naming it), not an
# unreadable file (before: exit 3 "unreadable (corrupt file?)"); a
# 4096-byte string type, which the reader accepts, is read.
hostile_content)
  make_good good.h5
  hostile empty_name good.h5 empty_name.h5
  hostile group_dataset good.h5 group_dataset.h5
  hostile str4096 good.h5 str4096.h5
  run 2 solve pendulum -f accel -n 20 -s 3 --guess empty_name.h5 -o out.h5
  mentions 'dataset /problem/variable_names[0] is "" (empty)'
  run 2 export empty_name.h5
  mentions 'dataset /problem/variable_names[0] is "" (empty)'
  run 2 solve pendulum -f accel -n 20 -s 3 --guess group_dataset.h5 -o out.h5
  mentions "/solution/x is a group: expected a dataset"
  run 2 export group_dataset.h5
  mentions "/solution/x is a group: expected a dataset"
  run 0 solve pendulum -f accel -n 20 -s 3 --guess str4096.h5 --quiet -o out.h5
  [ -e out.h5 ] || fail "out.h5 not written"
  ;;
# Item 15: info validates what it summarises, as every other reader does
# (before: exit 0 showing "3..2147483647 stages, 2147483705 nodes",
# "-3..3 stages", and a file without /solution).
info_validates)
  make_good good.h5
  for k in stages_huge stages_negative no_solution; do
    hostile $k good.h5 $k.h5
    run 2 info $k.h5
    run 2 info $k.h5 --json
  done
  run 2 info stages_huge.h5
  mentions "dataset /mesh/stages[0] is 1099511627776: expected a 32-bit integer"
  run 2 info stages_negative.h5
  mentions "/mesh: stages -3 in element 0: expected 1..20"
  run 2 info no_solution.h5
  mentions "dataset /solution/time is missing"
  ;;
# Item 21: --guess refuses duplicate variable names and NaN in every
# multiplier dataset (before: accepted, y read from another variable's
# data; NaN passed to Ipopt).
guess_content)
  make_good good.h5
  hostile dup_names good.h5 dup_names.h5
  run 2 solve pendulum -f accel -n 20 -s 3 --guess dup_names.h5 -o out.h5
  mentions 'dataset /problem/variable_names names "x" twice'
  "$RADCOL" solve faults -f constrained --plugin "$FAULTS" --quiet \
    -o fc.h5 > /dev/null 2>&1 || fail "cannot solve faults/constrained"
  for k in nan_alg nan_path nan_boundary; do
    hostile $k fc.h5 $k.h5
    run 2 solve faults -f constrained --plugin "$FAULTS" --guess $k.h5 -o out.h5
    case $k in
      nan_alg) mentions "dataset /multipliers/alg_y[3] is nan" ;;
      nan_path) mentions "dataset /multipliers/path_0[3] is nan" ;;
      nan_boundary) mentions "dataset /multipliers/boundary[0] is nan" ;;
    esac
  done
  [ ! -e out.h5 ] || fail "out.h5 written"
  ;;
# Item 7: a horizon too short for distinct node times is bad input (before:
# every node time 0 or equal, "converged", exit 0, /mesh/breakpoints not
# increasing).
short_horizon)
  run 2 solve pendulum --tf 4.9e-324 -o out.h5
  mentions "is too short for distinct node times"
  run 2 solve faults -f tiny_horizon --plugin "$FAULTS" -o out.h5
  mentions "horizon [1, 1.0000000000000002] (length 2.22045e-16) is too short"
  [ ! -e out.h5 ] || fail "out.h5 written"
  ;;
# Item 9: an infinite Hessian or Jacobian entry fails the derivative check
# (before: inf <= tol * inf held, PASS, exit 0).
check_inf)
  run 1 check faults -f inf_hess --plugin "$FAULTS"
  grep -F "hes_value d2 L[1] / d u[1] d u[1]" out.txt > /dev/null ||
    fail "check does not report the Hessian entry"
  grep -F "got inf" out.txt > /dev/null || fail "check does not show inf"
  run 1 check faults -f inf_jac --plugin "$FAULTS"
  run 0 check faults -f nan --plugin "$FAULTS"
  ;;
# Item 11: every dimension is bounded before any is summed (before: signed
# overflow in rc_problem_nw, UBSan abort; Release reported a pattern entry).
problem_dims)
  run 2 check faults -f huge_np --plugin "$FAULTS"
  mentions "faults/huge_np: np = 2147483646: expected 0..1048576"
  run 2 solve faults -f huge_np --plugin "$FAULTS" -o out.h5
  mentions "np = 2147483646"
  ;;
# Item 20: a problem without a model name is refused at validation (before:
# written with problem "", and that file given to --guess crashed on
# strcmp(NULL)).
null_model)
  run 2 solve faults -f null_model --plugin "$FAULTS" -o out.h5
  mentions "its model name (rc_problem.model) is NULL or empty"
  [ ! -e out.h5 ] || fail "out.h5 written"
  run 2 check faults -f null_model --plugin "$FAULTS"
  ;;
# Item 3 (the engine's part): a non-finite result is never "converged"; a
# sampled reference giving NaN is bad input found late (before: NaN written,
# status converged, exit 0, and export refused the file radcol wrote).
nonfinite_result)
  run 2 solve faults -f nan_reference --plugin "$FAULTS" -o out.h5
  mentions "faults/nan_reference: its reference gives x = nan at t = 0.5"
  run 2 solve crane -f flat --set x_end=1e140 -o out.h5
  mentions "crane/flat: its reference gives"
  [ ! -e out.h5 ] || fail "out.h5 written"
  no_temp
  ;;
# Item 2: under an address-space limit (ulimit -v) every level from the
# lowest at which radcol's main runs to 8 MB above it ends with exit 0 or 4,
# never a signal (before: SIGSEGV inside libhdf5, H5AC_create under
# H5Fcreate or its exit-time cleanup, at levels about 1-3 MB above that).
# Below that lowest level the dynamic loader (exit 127) or library
# constructors (libgnutls: SIGSEGV; libgfortran: exit 1 "Memory allocation
# failed") fail before main: outside radcol.
hdf5_memory)
  is_wrapper && { echo "PASS [$CASE] (skipped: RADCOL is a wrapper script)"; exit 0; }
  has_asan && { echo "PASS [$CASE] (skipped: AddressSanitizer cannot start inside ulimit -v)"; exit 0; }
  make_good good.h5
  lo=1000 # radcol starts in a few MB since it stopped linking Ipopt and shared HDF5
  hi=200000
  while [ $((hi - lo)) -gt 50 ]; do # the lowest level where main runs
    mid=$(((lo + hi) / 2))
    if (ulimit -v $mid; exec "$RADCOL" --version) > /dev/null 2>&1; then
      hi=$mid
    else
      lo=$mid
    fi
  done
  start=$((hi + 200))
  echo "main runs from ulimit -v $hi KB; sweeping $start..$((start + 8000)) KB"
  n0=0
  n4=0
  v=$start
  while [ $v -le $((start + 8000)) ]; do
    for cmd in solve info; do
      rm -f out.h5
      if [ $cmd = solve ]; then
        (ulimit -v $v; exec "$RADCOL" solve pendulum -f accel -n 20 -s 3 \
          --quiet -o out.h5) > out.txt 2> err.txt
      else
        (ulimit -v $v; exec "$RADCOL" info good.h5) > out.txt 2> err.txt
      fi
      rc=$?
      case $rc in
        0) n0=$((n0 + 1)) ;;
        4) n4=$((n4 + 1)); mentions "out of memory"
           [ ! -e out.h5 ] || fail "$cmd at ulimit -v $v: exit 4 wrote out.h5" ;;
        *) fail "$cmd at ulimit -v $v KB exited $rc, expected 0 or 4" ;;
      esac
      no_temp
    done
    v=$((v + 100))
  done
  echo "exit 0: $n0 runs, exit 4: $n4 runs"
  [ $n0 -gt 0 ] && [ $n4 -gt 0 ] || fail "the sweep did not cover both outcomes"
  ;;
# Item 4: MUMPS out of memory (INFO(1) = -13) is exit 4 with the message,
# nothing written (before: status failed, Restoration_Failed, exit 1, the
# file written, memory never mentioned).
mumps_memory)
  is_wrapper && { echo "PASS [$CASE] (skipped: RADCOL is a wrapper script)"; exit 0; }
  if has_asan; then
    # AddressSanitizer cannot start inside ulimit -v; its allocator refuses
    # blocks above 40 MB instead (MUMPS asks for 51 MB here).
    (export ASAN_OPTIONS="${ASAN_OPTIONS:-}:allocator_may_return_null=1:max_allocation_size_mb=40"
     exec "$RADCOL" solve pendulum -f accel -n 3000 -s 3 --solver ipopt \
       --estimate off --quiet -o big.h5) > out.txt 2> err.txt
  else
    (ulimit -v 250000; exec "$RADCOL" solve pendulum -f accel -n 3000 -s 3 \
       --solver ipopt --estimate off --quiet -o big.h5) > out.txt 2> err.txt
  fi
  rc=$?
  [ "$rc" -eq 4 ] || fail "MUMPS out of memory exited $rc, expected 4"
  mentions "out of memory in the NLP solver"
  mentions "MUMPS returned INFO(1) =-13"
  [ ! -e big.h5 ] || fail "big.h5 written"
  no_temp
  ;;
# Item 19: simulate's help and its limit agree on the number of steps (the
# result mesh holds one element per step, at most 1e7; before: the help said
# 1e8 and the refusal spoke of "number of elements").
simulate_steps)
  run 0 simulate --help
  grep -F "at most 1e7 steps" out.txt > /dev/null || fail "help does not say 1e7"
  run 2 simulate pendulum -f ode --method rk4 --step 1e-7 -o out.h5
  mentions "needs 5e+07 steps: expected at most 10000000"
  [ ! -e out.h5 ] || fail "out.h5 written"
  ;;
# Item 8: export when a derived-output function fails on the file's values:
# exit 2, nothing on stdout, no -o file (before: exit 1 and half the CSV on
# stdout).
export_outputs)
  "$RADCOL" solve faults -f outputs_fail --plugin "$FAULTS" --quiet -o of.h5 \
    > /dev/null 2>&1 || fail "cannot solve faults/outputs_fail"
  run 2 export of.h5 --plugin "$FAULTS"
  mentions "the derived outputs of faults/outputs_fail failed at t = 0.501"
  [ ! -s out.txt ] || fail "a partial table on stdout ($(wc -l < out.txt) lines)"
  run 2 export of.h5 --plugin "$FAULTS" -o of.csv
  [ ! -e of.csv ] || fail "of.csv written"
  run 0 export of.h5 --plugin "$FAULTS" --vars x,u
  [ "$(wc -l < out.txt)" -eq 1002 ] || fail "the table without xo is incomplete"
  no_temp
  ;;
# Item 6: a model whose reference integrator gives up on the parameters
# given is bad input naming them (before: exit 5 "internal error" from
# rc_ode_reference, every command, check included).  m1=1e-10 gives the
# same after 13 s per formulation: left out to keep the suite fast.
model_reference)
  run 2 check double-pendulum -f index1 --set theta1=1e150
  mentions "double-pendulum: no motion for these parameters"
  mentions "(with --set theta1=1e150)"
  run 2 solve double-pendulum --set m2=1e150 -o out.h5
  mentions "(with --set m2=1e150)"
  run 2 init double-pendulum --set theta2=-1e150
  [ ! -e out.h5 ] || fail "out.h5 written"
  ;;
# Item 16: --json prints exactly one JSON object for every outcome (before:
# stdout empty on exit 2/3 of solve, simulate, info and list --params).
json_failure)
  make_good good.h5
  printf 'not hdf5\n' > text.h5
  i=0
  for args in "solve nosuch --json" "solve pendulum -n 0 --json" \
              "solve pendulum --guess missing.h5 --json -o o.h5" \
              "simulate pendulum --json" "info missing.h5 --json" \
              "info text.h5 --json" "list --params nosuch --json" \
              "init nosuch --json" "check nosuch --json" \
              "solve pendulum --json --plugin ./missing.so"; do
    # shellcheck disable=SC2086
    timeout 60 "$RADCOL" $args > out.txt 2> err.txt
    rc=$?
    [ $rc -ge 2 ] || fail "radcol $args exited $rc, expected >= 2"
    "$PY" - "$rc" "${args%% *}" <<'PYEOF' || fail "radcol $args: stdout is not one error object: $(cat out.txt)"
import json, sys
text = open("out.txt").read()
obj = json.loads(text)           # exactly one value, nothing else
assert text.count("\n") == 1, text
assert set(obj) == {"command", "status", "exit_status", "error"}, obj
assert obj["command"] == sys.argv[2], obj
assert obj["status"] == "error" and obj["exit_status"] == int(sys.argv[1])
err = open("err.txt").read()
assert obj["error"] and obj["error"] in err, (obj["error"], err)
PYEOF
    i=$((i + 1))
  done
  # a run that prints its own object prints no second one
  run 0 info good.h5 --json
  "$PY" -c "import json; json.loads(open('out.txt').read())" ||
    fail "info --json is not one object"
  run 3 export missing.h5
  [ ! -s out.txt ] || fail "export (no --json) printed on stdout"
  ;;
# Item 17: one documented contract for exit 3: a failed write of the result
# file leaves an existing file untouched; a failure writing stdout is found
# last, after the result file was written (before: the help promised an
# untouched file for every exit 3).  /dev/full: the proof that a full
# device is refused (the only use of a device file here).
stdout_contract)
  run 0 solve --help
  tr -s ' \n' '  ' < out.txt | grep -F "a failure writing stdout is found last, after the result file was written" > /dev/null ||
    fail "solve --help does not state the stdout contract"
  make_good out.h5
  "$RADCOL" solve pendulum -f accel -n 30 -s 3 --quiet --json -o out.h5 \
    > /dev/full 2> err.txt
  rc=$?
  [ "$rc" -eq 3 ] || fail "solve --json > /dev/full exited $rc, expected 3"
  mentions "writing standard output failed"
  "$PY" -c "import h5py; f=h5py.File('out.h5','r'); \
assert f['/mesh/stages'].shape[0] == 30, f['/mesh/stages'].shape" ||
    fail "out.h5 is not the new complete result"
  no_temp
  ;;
# Item 1: a CSV input that is a FIFO is refused without blocking, from
# the command line (--set path=, curve=) and from a result file whose
# /problem attribute names one (simulate --controls exit 2; export leaves
# the derived outputs out with a warning); before: fopen waited for a
# writer forever.
fifo_input)
  mkfifo ff
  run 2 solve crane -f flat --set path=ff --quiet -o a.h5
  mentions "crane: path file ff: is a FIFO: expected a regular file"
  run 2 solve crane -f pathtime --set u1max=10 --set curve=ff --quiet -o a.h5
  mentions "crane: curve file ff: is a FIFO: expected a regular file"
  [ ! -e a.h5 ] || fail "a.h5 written"
  printf 't,x,z\n0,0,2\n3,2,1.5\n6,4,1\n' > p.csv
  run 0 solve crane -f flat --set path=p.csv --quiet -o r.h5
  # the file as written before issue 28 (no stored bytes), its path a FIFO
  "$PY" -c "import h5py,numpy as np; f=h5py.File('r.h5','r+'); \
del f['/problem/files']; f['/problem'].attrs['path']=np.bytes_('ff')" ||
    fail "could not make the hostile file"
  # export keeps its rule for a problem it cannot rebuild (docs/
  # export-replay.md): the stored columns, the derived outputs left out
  # with a warning naming why
  run 0 export r.h5
  mentions "derived outputs (x, ...) left out: crane/flat cannot be rebuilt from the file: crane: path file ff: is a FIFO: expected a regular file"
  head -1 out.txt | grep -q ',u2$' || fail "export header: $(head -1 out.txt)"
  run 2 simulate crane -f flat --controls r.h5 -o s.h5
  mentions "is a FIFO: expected a regular file"
  [ ! -e s.h5 ] || fail "s.h5 written"
  no_temp
  ;;
# Also noticed: a result file stored the path CSV by the name given, so
# export from another directory dropped the derived outputs and the replay
# exited 3.  Now the file stores the CSV's bytes (/problem/files/path) and
# both rebuild the problem from them, even after the CSV is gone.
path_stored)
  mkdir sub
  printf 't,x,z\n0,0,2\n3,2,1.5\n6,4,1\n' > p.csv
  run 0 solve crane -f flat --set path=p.csv --quiet -o r.h5
  "$PY" -c "import h5py; f=h5py.File('r.h5','r'); \
assert bytes(f['/problem/files/path'][()]) == open('p.csv','rb').read()" ||
    fail "r.h5 does not store the bytes of p.csv"
  rm p.csv
  cd sub || fail "no sub"
  run 0 export ../r.h5
  head -1 out.txt | grep -q ',x,z,vx,vz$' ||
    fail "export from another directory lacks the derived outputs: $(head -1 out.txt)"
  run 0 simulate crane -f flat --controls ../r.h5 -o s.h5
  valid s.h5
  # a CSV given anew under the recorded name is read anew
  printf 't,x,z\n0,0,2\n6,4,1\n' > p.csv
  run 0 solve crane -f flat --set path=p.csv --quiet -o r2.h5
  "$PY" -c "import h5py; f=h5py.File('r2.h5','r'); \
assert bytes(f['/problem/files/path'][()]) == open('p.csv','rb').read()" ||
    fail "r2.h5 does not store the new p.csv"
  cd .. || fail "no .."
  no_temp
  no_temp sub
  ;;
# Also noticed: a pathtime curve 1e-300 m long was accepted and Ipopt ran
# to its cap; --set curve= was silently ignored by the other formulations.
curve_checks)
  printf '0,2\n1e-300,2\n' > tiny.csv
  run 2 solve crane -f pathtime --set u1max=10 --set curve=tiny.csv --quiet -o a.h5
  mentions "crane: curve 'tiny.csv' has length 1e-300 m: expected at least 2e-06 m"
  run 2 solve crane -f pathtime --set u1max=10 --set x_start=0 --set x_end=1e-300 \
    --set z_end=2 --quiet -o a.h5
  mentions "crane: the straight line x_start, z_start -> x_end, z_end has length 1e-300 m"
  printf '0,2\n2,1.5\n4,1\n' > c.csv
  for f in flat track servo reduced mintime; do
    run 2 solve crane -f $f --set curve=c.csv --quiet -o a.h5
    mentions "crane: curve = 'c.csv' with formulation $f: expected no curve"
  done
  [ ! -e a.h5 ] || fail "a.h5 written"
  no_temp
  ;;
# Item 3, the CSV part: values in a path or curve CSV get the command
# line's magnitude limit (1e150); before, 1e300 ran on and NaN was written
# into the result as converged.  At the limit the reference check of the
# engine refuses the NaN it gives (exit 2, nothing written).
csv_magnitude)
  printf 't,x,z\n0,0,2\n3,1e300,1.5\n6,4,1\n' > p.csv
  run 2 solve crane -f flat --set path=p.csv --quiet -o a.h5
  mentions "crane: path file 'p.csv' line 3: x = 1e+300, expected a finite number of magnitude <= 1e+150"
  printf 't,x,z\n0,0,2\n3,1e150,1.5\n6,4,1\n' > p.csv
  run 2 solve crane -f flat --set path=p.csv --quiet -o a.h5
  mentions "crane/flat: its reference gives"
  printf '0,2\n1e200,1\n' > c.csv
  run 2 solve crane -f pathtime --set curve=c.csv --set u1max=5 --quiet -o a.h5
  mentions "crane: curve file 'c.csv' line 2: expected two finite numbers x,z (no t) of magnitude <= 1e+150, got '1e200,1'"
  [ ! -e a.h5 ] || fail "a.h5 written"
  no_temp
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "PASS [$CASE]"
