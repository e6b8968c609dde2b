#!/usr/bin/env bash
# Install the Debian packages radcol needs, only those that are missing.
# Usage: scripts/install-deps.sh   (as root, or with sudo available)
case "${1:-}" in -h|--help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -euo pipefail
pkgs=(build-essential cmake pkg-config coinor-libipopt-dev libhdf5-dev libgsl-dev
      libjansson-dev  # job files of radcol solve --job (src/cli/cli_job.c)
      python3-numpy python3-h5py python3-scipy python3-matplotlib
      python3-sympy)  # sympy: scripts/radcol-gen (plugins from model files)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#pkgs[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
