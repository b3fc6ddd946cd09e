#!/usr/bin/env bash
# Packages the extension as a platform .vsix that carries the given dsls binary.
# Usage: package-vsix.sh <dsls> <out.vsix> [<target>]
#   target: a VS Code platform (linux-x64, linux-arm64); the default is this machine's.
# The extension's npm dependencies must be installed first (npm ci --ignore-scripts).
set -euo pipefail
dsls=$(realpath "$1"); out=$(realpath -m "$2"); target=${3:-}
if [[ -z $target ]]; then
  case $(uname -m) in
    x86_64) target=linux-x64 ;;
    aarch64) target=linux-arm64 ;;
    *) echo "package-vsix: no VS Code platform for $(uname -m); pass one" >&2; exit 2 ;;
  esac
fi
cd "$(dirname "$0")/.."
node scripts/bundle-server.js "$dsls"
cp ../../LICENSE LICENSE  # the project's licence, which vsce puts in the package
mkdir -p "$(dirname "$out")"
rm -f "$out"
npx --no-install vsce package --target "$target" --allow-missing-repository --out "$out"
