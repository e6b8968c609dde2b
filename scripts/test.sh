#!/usr/bin/env bash
# Build radcol and run the whole CTest suite.
# Usage: scripts/test.sh [BUILD_TYPE]   (Release by default; Sanitize = ASan+UBSan)
# Runs scripts/install-deps.sh first, which calls apt only when a package is
# missing (a dpkg query otherwise), so it works on a fresh machine too.
case "${1:-}" in -h|--help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -euo pipefail
cd "$(dirname "$0")/.."
type="${1:-Release}"
dir="build"
[ "$type" = "Release" ] || dir="build-$(echo "$type" | tr '[:upper:]' '[:lower:]')"
scripts/install-deps.sh
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DRADCOL_WERROR=ON
cmake --build "$dir" -j2
ctest --test-dir "$dir" --output-on-failure -j2
