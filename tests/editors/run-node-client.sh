#!/usr/bin/env bash
# CTest entry: an LSP client built on vscode-jsonrpc and
# vscode-languageserver-protocol drives dsls through a full editor session.
# Usage: run-node-client.sh <dsls> <work-dir>
set -euo pipefail
dsls=$1
here=$(cd "$(dirname "$0")" && pwd)
[[ -x $dsls ]] || { echo "dsls binary not found at $dsls" >&2; exit 1; }
bash "$here/lib/npm-ci.sh" "$here" --ignore-scripts   # exits 77 without node/npm
DSLS_BINARY=$dsls timeout 240 node --test --test-reporter=spec "$here/node-client/"
