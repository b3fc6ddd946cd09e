#!/usr/bin/env bash
# CTest fixture of the code-server test: installs code-server 4.100.3 and playwright-core
# from their lock files (about 2.5 minutes the first time: native modules are built), so
# that this runs while the extension is being built and packaged.
# Usage: install-code-server.sh <dsls> <work-dir>
set -euo pipefail
work=$2
here=$(cd "$(dirname "$0")" && pwd)
chromium=${CHROMIUM:-/usr/bin/chromium}
skip() { echo "*** SKIPPED: $* ***" >&2; exit 77; }
command -v node >/dev/null && command -v npm >/dev/null || skip "node and npm are needed (scripts/install-deps.sh test)"
[[ -x $chromium ]] || skip "Chromium is not installed at $chromium (Debian package chromium)"
command -v rg >/dev/null || skip "ripgrep is needed to install code-server offline (Debian package ripgrep)"
[[ $(node -p 'process.versions.node.split(".")[0]') == 20 ]] || skip "code-server 4.100.3 needs Node 20, found $(node --version)"
bash "$here/lib/npm-ci.sh" "$here" --ignore-scripts

# code-server's install: native modules are built (build-essential, libkrb5-dev,
# libxkbfile-dev, libsecret-1-dev, libx11-dev); its ripgrep download is served from
# the cache it checks first, filled with Debian's rg.
scratch="$work/code-server"
mkdir -p "$scratch/tmp"
rgcache="$scratch/tmp/vscode-ripgrep-cache-1.15.11"
if [[ ! -f $rgcache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz ]]; then
  mkdir -p "$rgcache" "$scratch/rg" && cp "$(command -v rg)" "$scratch/rg/rg"
  tar -czf "$rgcache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$scratch/rg" rg
fi
TMPDIR="$scratch/tmp" npm_config_unsafe_perm=true npm_config_yes=true \
  npm_config_dangerously_allow_all_scripts=true \
  bash "$here/lib/npm-ci.sh" "$here/code-server"
