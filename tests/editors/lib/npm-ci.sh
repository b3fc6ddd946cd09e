#!/usr/bin/env bash
# Installs a folder's npm dependencies exactly as its package-lock.json says
# (`npm ci`), skipping the work when node_modules already matches the lock.
# Usage: npm-ci.sh <folder> [extra npm ci args...]
# Exit 77 (CTest skip) when node or npm is missing.
set -euo pipefail
dir=$1; shift
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "*** SKIPPED: node and npm are needed (scripts/install-deps.sh test installs them) ***" >&2
  exit 77
fi
cd "$dir"
# Tests that share a folder may start together; one installs, the others wait.
exec 9>"${TMPDIR:-/tmp}/dsls-npm-ci-$(pwd | sha1sum | cut -c1-12).lock"
flock 9
stamp=node_modules/.dsls-lock-sha256
want="$(sha256sum package-lock.json | cut -d' ' -f1) $(node --version)"
if [[ -f $stamp && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi
echo "npm ci in $dir" >&2
npm ci --no-audit --no-fund "$@" >&2
echo "$want" > "$stamp"
