#!/usr/bin/env bash
# Check that every tracked C source and header is clang-format clean (the
# repository's .clang-format).  Prints the files that are not.
# Usage: scripts/check_format.sh   (needs clang-format; CI installs it)
# Exit status: 0 when every file is clean, 1 otherwise, 2 without clang-format.
case "${1:-}" in -h|--help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format > /dev/null || { echo "check_format.sh: clang-format is not installed" >&2; exit 2; }
bad=0
while IFS= read -r -d '' f; do
  clang-format --dry-run -Werror "$f" > /dev/null 2>&1 || { echo "not formatted: $f"; bad=$((bad + 1)); }
done < <(git ls-files -z '*.c' '*.h')
echo "check_format: $bad file(s) not clang-format clean"
[ "$bad" -eq 0 ]
