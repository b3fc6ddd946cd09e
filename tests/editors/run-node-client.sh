#!/usr/bin/env bash
# CTest entry: an LSP client built on vscode-jsonrpc and
# vscode-languageserver-protocol drives dsls through a full editor session.
# Usage: run-node-client.sh <dsls> <work-dir>
set -euo pipefail
dsls=$1; work=$2
here=$(cd "$(dirname "$0")" && pwd)
[[ -x $dsls ]] || { echo "dsls binary not found at $dsls" >&2; exit 1; }
# The dependencies go under the work dir, so the run leaves the source tree as it was.
deps="$work/node-client"
mkdir -p "$deps"
cp "$here/package.json" "$here/package-lock.json" "$deps/"
bash "$here/lib/npm-ci.sh" "$deps" --ignore-scripts   # exits 77 without node/npm
DSLS_BINARY=$dsls NODE_PATH="$deps/node_modules" timeout 240 node --test --test-reporter=spec "$here/node-client/"
