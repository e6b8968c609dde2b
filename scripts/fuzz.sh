#!/usr/bin/env bash
# Build radcol's libFuzzer harnesses (fuzz/) with clang and run each one for a
# bounded time on a copy of its seed corpus (fuzz/corpus/<harness>/).
# Usage: scripts/fuzz.sh [SECONDS_PER_HARNESS] [BUILD_DIR]
#   defaults: 20 s, build-fuzz.  Needs clang and libclang-rt-14-dev (libFuzzer).
# Exit status: 0 when no harness found a crash, leak, timeout or failed check
# in radcol code; 1 otherwise (the reproducer is kept under BUILD_DIR/fuzz-artifacts/).
# New corpus entries stay in BUILD_DIR/fuzz-corpus/ (not committed).
case "${1:-}" in -h|--help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-20}"
dir="${2:-build-fuzz}"
case "$secs" in ''|*[!0-9]*) echo "fuzz.sh: SECONDS $secs: expected a whole number" >&2; exit 2;; esac
cmake -S . -B "$dir" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DRADCOL_BUILD_FUZZ=ON -DRADCOL_BUILD_TESTS=OFF > "$dir.cmake.log" 2>&1 ||
  { cat "$dir.cmake.log" >&2; exit 1; }
harnesses=(fuzz_params fuzz_csv fuzz_hdf5 fuzz_cli_args fuzz_plugin)
cmake --build "$dir" -j2 --target "${harnesses[@]}"
# libhdf5 1.10 leaks its metadata cache when H5Fopen fails on a corrupt file
# (inside the library, not radcol): fuzz/lsan.supp suppresses only that.
# A crash or timeout whose first frame is inside libhdf5 (fuzz_hdf5 only) is
# reported as KNOWN and does not fail the run unless RADCOL_FUZZ_STRICT=1.
export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
mkdir -p "$dir/fuzz-artifacts"
failed=0
for h in "${harnesses[@]}"; do
  corpus="$dir/fuzz-corpus/$h"
  mkdir -p "$corpus"
  log="$dir/fuzz-artifacts/$h.log"
  # -close_fd_mask=2: the CLI harness's own messages are noise; libFuzzer and
  # the sanitizers still report to the log.
  if "$dir/fuzz/$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
       -close_fd_mask=2 -print_final_stats=1 \
       -artifact_prefix="$dir/fuzz-artifacts/$h-" \
       "$corpus" "fuzz/corpus/$h" > "$log" 2>&1; then
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo '?')
    echo "fuzz: $h: ${runs} executions in ${secs} s, no failure"
  else
    # The first stack frame outside the harness binary (sanitizer
    # interceptors and libFuzzer show as "(.../fuzz_xxx+0x...)") and libc
    # (the timeout's signal handler) says where the crash or hang is.
    frame=$(grep -E '^ +#[0-9]+ 0x' "$log" | grep -Ev '\(/[^ ]*/fuzz_[a-z0-9_]+\+0x|/libc\.so' | head -1 || true)
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo '?')
    if [ "$h" = fuzz_hdf5 ] && echo "$frame" | grep -q 'libhdf5' && [ "${RADCOL_FUZZ_STRICT:-0}" != 1 ]; then
      # Known libhdf5 1.10 defect (docs/robustness.md, fuzz/known/): damaged
      # metadata crashes the library itself.  Reported, not failed, unless
      # RADCOL_FUZZ_STRICT=1.
      echo "fuzz: $h: KNOWN libhdf5 fault after ${runs} executions (not radcol code):"
      echo "      $frame"
      grep -E 'Test unit written' "$log" || true
    else
      echo "fuzz: $h FAILED after ${runs} executions (log $log):" >&2
      grep -E 'ERROR|SUMMARY|Test unit written|abort' "$log" | head -10 >&2 || tail -20 "$log" >&2
      [ -n "$frame" ] && echo "      first frame: $frame" >&2
      failed=1
    fi
  fi
done
exit "$failed"
