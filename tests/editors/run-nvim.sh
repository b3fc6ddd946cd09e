#!/usr/bin/env bash
# CTest entry: headless Neovim (Debian's 0.7.2 or newer) with editors/nvim against dsls.
# Usage: run-nvim.sh <dsls> <work-dir> [<test>]   test: a file of tests/editors/nvim (default session_test.lua)
set -euo pipefail
dsls=$1; work=$2; test=${3:-session_test.lua}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
if ! command -v nvim >/dev/null; then
  echo "*** SKIPPED: nvim is not installed; run scripts/install-deps.sh test (Debian package neovim) ***" >&2
  exit 77
fi
[[ -x $dsls ]] || { echo "dsls binary not found at $dsls" >&2; exit 1; }
scratch="$work/nvim"
[[ $test == session_test.lua ]] || scratch="$work/nvim-${test%.lua}"
rm -rf "$scratch" && mkdir -p "$scratch"
nvim --version | head -1
# A private XDG tree keeps the user's config, state and logs out of the run; temporary
# files (the saved report timelines) stay under the work dir too.
mkdir -p "$scratch/tmp"
export XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_STATE_HOME="$scratch/state" XDG_CACHE_HOME="$scratch/cache"
export TMPDIR="$scratch/tmp"
export DSLS_BINARY=$dsls DSLS_WORK=$scratch DSLS_FIXTURES="$here/fixtures"
export DSLS_LSP_CONFIG="$repo/editors/nvim/lsp/dsls.lua"
timeout 180 nvim --headless --clean -u NONE -i NONE -n \
  --cmd "set runtimepath^=$repo/editors/nvim" --cmd "set runtimepath^=$here/nvim" \
  -c "luafile $here/nvim/$test"
