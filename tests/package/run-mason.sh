#!/usr/bin/env bash
# packaging/mason/package.yaml names the assets packaging/package.sh writes, for the version
# CMake declares. (Mason itself is not run here; its schema is not available offline.)
# Usage: run-mason.sh <dist-dir> <work-dir> <package.yaml> <version>
set -euo pipefail
dist=$1; yaml=$3; version=$4
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
need_dist "$dist"
check "the source id is release v$version" grep -qx "  id: pkg:github/dsls/dsls@v$version" "$yaml"
arch=$(uname -m)
names=$(sed -n 's/^ *file: //p' "$yaml" | sed "s/{{ version | strip_prefix \"v\" }}/$version/")
check "it names an asset for every supported machine" bash -c "grep -qx 'dsls-$version-linux-x86_64' <<<'$names' && grep -qx 'dsls-$version-linux-aarch64' <<<'$names'"
check "the asset for this machine ($arch) is in dist" test -f "$dist/dsls-$version-linux-$arch"
finish
