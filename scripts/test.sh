#!/usr/bin/env bash
# Build radcol and run the whole CTest suite.
# Usage: scripts/test.sh [BUILD_TYPE]   (Release by default; Sanitize = ASan+UBSan)
# Installs nothing: run scripts/install-deps.sh once first (the set-up step).
case "${1:-}" in -h|--help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -euo pipefail
cd "$(dirname "$0")/.."
type="${1:-Release}"
dir="build"
[ "$type" = "Release" ] || dir="build-$(echo "$type" | tr '[:upper:]' '[:lower:]')"
for tool in cmake pkg-config; do
  command -v "$tool" > /dev/null ||
    { echo "test.sh: $tool is missing; run scripts/install-deps.sh first" >&2; exit 1; }
done
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DRADCOL_WERROR=ON
cmake --build "$dir" -j2
ctest --test-dir "$dir" --output-on-failure -j2
