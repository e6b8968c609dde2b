#!/bin/sh
# Regression for the libhdf5 1.10 global-heap faults (docs/robustness.md):
# the damaged files in fuzz/known/ crashed (SIGSEGV) or hung `radcol info`
# while radcol wrote and read variable-length string attributes.  radcol now
# writes fixed-length strings only and refuses variable-length ones before
# libhdf5 reads them: each file must give exit 2 with a message, within 20 s.
# Usage: test_known_hdf5.sh RADCOL KNOWN_DIR
set -u
radcol="$1"
dir="$2"
n=0
for f in "$dir"/*.h5; do
  n=$((n + 1))
  msg=$(timeout 20 "$radcol" info "$f" 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -ne 2 ]; then
    echo "FAIL: radcol info $f: exit $rc, expected 2 (124 = hang, 139 = crash)"
    exit 1
  fi
  case "$msg" in
    *"variable-length string"*) ;;
    *) echo "FAIL: radcol info $f: message '$msg' does not say why"; exit 1 ;;
  esac
done
[ "$n" -gt 0 ] || { echo "FAIL: no files in $dir"; exit 1; }
echo "known libhdf5 fault files: $n refused cleanly"
