#!/usr/bin/env bash
# CTest fixture: packaging/package.sh on this build, into <dist-dir>.
# Usage: run-package.sh <build-dir> <dist-dir>
set -euo pipefail
build=$1; dist=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dist"
if ! grep -q '^DSLS_STATIC:BOOL=ON$' "$build/CMakeCache.txt"; then
  echo "*** SKIPPED: not a static build (./build.sh test configures one with -DDSLS_STATIC=ON) ***" >&2
  exit 77
fi
"$repo/packaging/package.sh" "$build" "$dist"
