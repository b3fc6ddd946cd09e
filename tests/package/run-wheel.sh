#!/usr/bin/env bash
# The wheel installed into a fresh venv, offline, as `pip install dsls` would: dsls lands on the
# venv's PATH, runs, checks the example, and uninstalls cleanly.
# Usage: run-wheel.sh <dist-dir> <work-dir> <examples-dir>
set -euo pipefail
dist=$1; work=$2; examples=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
need_dist "$dist"
python3 -c 'import venv, ensurepip' 2>/dev/null || {
  echo "*** SKIPPED: python3 venv is missing (Debian package python3-venv) ***" >&2; exit 77; }
wheel=$(one "$dist/dsls-*_$(uname -m).whl")
rm -rf "$work" && mkdir -p "$work"
venv=$work/venv
python3 -m venv "$venv"
# No index, no cache, no user config: only the wheel file is used.
export PIP_CONFIG_FILE=/dev/null PIP_NO_INDEX=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
check "pip installs the wheel offline" "$venv/bin/pip" install -q "$wheel"
check "dsls is on the venv's PATH" bash -c "PATH='$venv/bin:/usr/bin:/bin' command -v dsls | grep -qx '$venv/bin/dsls'"
check "dsls --version runs" bash -c "'$venv/bin/dsls' --version | grep -q '^dsls [0-9]'"
check_example overlap-comm-race "$venv/bin/dsls" "$examples"
check "pip uninstalls it" "$venv/bin/pip" uninstall -q -y dsls
check "nothing is left on the venv's PATH" test ! -e "$venv/bin/dsls"
finish
