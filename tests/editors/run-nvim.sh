#!/usr/bin/env bash
# CTest entry: headless Neovim (Debian's 0.7.2 or newer) with editors/nvim against dsls.
# Usage: run-nvim.sh <dsls> <work-dir>
set -euo pipefail
dsls=$1; work=$2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
if ! command -v nvim >/dev/null; then
  echo "*** SKIPPED: nvim is not installed; run scripts/install-deps.sh test (Debian package neovim) ***" >&2
  exit 77
fi
[[ -x $dsls ]] || { echo "dsls binary not found at $dsls" >&2; exit 1; }
scratch="$work/nvim"
rm -rf "$scratch" && mkdir -p "$scratch"
nvim --version | head -1
# A private XDG tree keeps the user's config, state and logs out of the run; temporary
# files (the saved report timelines) stay under the work dir too.
mkdir -p "$scratch/tmp"
export XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_STATE_HOME="$scratch/state" XDG_CACHE_HOME="$scratch/cache"
export TMPDIR="$scratch/tmp"
export DSLS_BINARY=$dsls DSLS_WORK=$scratch DSLS_FIXTURES="$here/fixtures"
timeout 180 nvim --headless --clean -u NONE -i NONE -n \
  --cmd "set runtimepath^=$repo/editors/nvim" \
  -c "luafile $here/nvim/session_test.lua"
