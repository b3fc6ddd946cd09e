#!/usr/bin/env bash
# The .vsix packaged from a clean clone: nothing compiled beforehand, so packaging must build the
# extension itself (vscode:prepublish). The npm packages are the source tree's, installed as the
# editor tests install them, and linked into the clone file by file (npm list rejects a linked folder).
# Usage: run-clean-clone-vsix.sh <source tree> <dsls binary> <work folder>
set -euo pipefail
src=$1 dsls=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
git clone --quiet --no-hardlinks "$src" "$work/clone"
ext="$work/clone/editors/vscode"
bash "$src/tests/editors/lib/npm-ci.sh" "$src/editors/vscode" --ignore-scripts
cp -al "$src/editors/vscode/node_modules" "$ext/node_modules" 2>/dev/null ||
  cp -a "$src/editors/vscode/node_modules" "$ext/node_modules"
if [[ -e $ext/out/src/extension.js ]]; then
  echo "FAIL: the clean clone already has out/src/extension.js" >&2; exit 1
fi
bash "$ext/scripts/package-vsix.sh" "$dsls" "$work/dsls.vsix" >"$work/package-vsix.log" 2>&1 || {
  cat "$work/package-vsix.log" >&2; echo "FAIL: the .vsix cannot be packaged from a clean clone" >&2; exit 1; }
listing=$(unzip -l "$work/dsls.vsix")
for entry in extension/out/src/extension.js extension/LICENSE.txt; do
  if ! grep -q " $entry\$" <<<"$listing"; then
    echo "FAIL: $entry is not in the .vsix" >&2; exit 1
  fi
done
echo "ok: the .vsix packaged from a clean clone holds the compiled extension and the licence"
