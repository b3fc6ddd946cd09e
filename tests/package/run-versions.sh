#!/usr/bin/env bash
# One version everywhere: CMake's project(VERSION) in `dsls --version`, the server's serverInfo,
# the wheel, the .deb and the .vsix.
# Usage: run-versions.sh <dist-dir> <work-dir> <version>
set -euo pipefail
dist=$1; work=$2; version=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
need_dist "$dist"
mkdir -p "$work"
binary=$(one "$dist/dsls-$version-linux-$(uname -m)")
check "dsls --version" bash -c "[[ \$('$binary' --version) == 'dsls $version' ]]"
python3 "$here/lsp_session.py" "$binary" --stdio | tail -1 |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])' > "$work/server-version.txt"
check "serverInfo.version" bash -c "[[ \$(cat '$work/server-version.txt') == '$version' ]]"
wheel=$(one "$dist/dsls-$version-py3-none-manylinux_2_17_$(uname -m).whl")
check "the wheel's METADATA" bash -c "zip_read '$wheel' 'dsls-$version.dist-info/METADATA' | grep -qx 'Version: $version'"
deb=$(one "$dist/dsls_${version}_$(dpkg --print-architecture).deb")
check "the .deb's Version" bash -c "[[ \$(dpkg-deb -f '$deb' Version) == '$version' ]]"
vsix=$(one "$dist/dsls-$version-$(vscode_platform).vsix")
check "the .vsix's package.json" bash -c "zip_read '$vsix' extension/package.json | python3 -c 'import json,sys; sys.exit(json.load(sys.stdin)[\"version\"] != \"$version\")'"
check "the .vsix carries the same binary" bash -c "cmp <(zip_read '$vsix' extension/bin/dsls) '$binary'"
marked_for_its_platform() {  # every .vsix says the platform its name says
  local vsix platform
  for vsix in "$dist"/dsls-"$version"-linux-*.vsix; do
    platform=${vsix##*-$version-}; platform=${platform%.vsix}
    zip_read "$vsix" extension.vsixmanifest | grep -q "TargetPlatform=\"$platform\"" ||
      { echo "$vsix is not marked for $platform"; return 1; }
  done
}
check "each .vsix is marked for the platform it is named after" marked_for_its_platform
finish
