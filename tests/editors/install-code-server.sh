#!/usr/bin/env bash
# CTest fixture of the code-server test: installs code-server 4.100.3 and playwright-core
# from their lock files (about 2.5 minutes the first time: native modules are built), so
# that this runs while the extension is being built and packaged.
# Usage: install-code-server.sh <dsls> <work-dir>
set -euo pipefail
work=$2
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib/code-server-requirements.sh"
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
# Native modules compile against Debian's Node headers (nodejs ships /usr/include/node), so
# node-gyp does not try to download them.
[[ -f /usr/include/node/node_api.h ]] && export npm_config_nodedir=/usr
TMPDIR="$scratch/tmp" npm_config_unsafe_perm=true npm_config_yes=true \
  npm_config_dangerously_allow_all_scripts=true \
  bash "$here/lib/npm-ci.sh" "$here/code-server"
