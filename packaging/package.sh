#!/usr/bin/env bash
# Writes the release artifacts of a static build into one folder, with their SHA-256 sums:
#   dsls-<version>-linux-<arch>                 the static binary, stripped
#   dsls_<version>_<debarch>.deb                /usr/bin/dsls, man page, rule docs (CPack)
#   dsls-<version>-py3-none-manylinux_2_17_<arch>.whl   the binary as a Python script
#   dsls-<version>-<platform>.vsix              the VS Code extension carrying the binary
#   dsls-pre-commit/                            the pre-commit mirror (language: python hooks)
#   SHA256SUMS                                  (of the files above, not of the mirror)
# Usage: packaging/package.sh <build-dir> <out-dir>
# The build dir must be configured with -DDSLS_STATIC=ON and built (./build.sh package does both);
# a cross build (packaging/aarch64-linux-gnu.cmake) adds its artifacts beside the native ones.
# Each binary is first run on the bundled example (through qemu-user for another machine).
set -euo pipefail
build=$(realpath "$1"); out=$(realpath -m "$2")
repo=$(cd "$(dirname "$0")/.." && pwd)
cache=$build/CMakeCache.txt
binary=$build/lsp/dsls

fail() { echo "package: $*" >&2; exit 2; }
[[ -f $cache && -x $binary ]] || fail "$build holds no built dsls"
grep -q '^DSLS_STATIC:BOOL=ON$' "$cache" || fail "$build is not a static build (configure it with -DDSLS_STATIC=ON)"
ldd "$binary" >/dev/null 2>&1 && fail "$binary is dynamically linked"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$cache")
[[ -n $version ]] || fail "no project version in $cache"

case $(readelf -h "$binary" | sed -n 's/^ *Machine: *//p') in
  *X86-64*) arch=x86_64 debarch=amd64 platform=linux-x64 strip=strip ;;
  *AArch64*) arch=aarch64 debarch=arm64 platform=linux-arm64 strip=aarch64-linux-gnu-strip ;;
  *) fail "no package layout for the machine of $binary" ;;
esac

# The extension's manifest has to spell the version itself (npm needs it there).
ext_version=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' \
  "$repo/editors/vscode/package.json")
[[ $ext_version == "$version" ]] ||
  fail "editors/vscode/package.json says $ext_version, CMake's project(VERSION) says $version"

run=()
if [[ $arch != "$(uname -m)" ]]; then
  command -v "qemu-$arch-static" >/dev/null || fail "qemu-$arch-static is needed to try the $arch binary (Debian package qemu-user-static)"
  run=("qemu-$arch-static")
fi

mkdir -p "$out"
rm -f "$out"/dsls-"$version"-linux-"$arch" "$out"/dsls_"$version"_"$debarch".deb \
  "$out"/dsls-"$version"-*_"$arch".whl "$out"/dsls-"$version"-"$platform".vsix
echo "== binary ($arch)"
asset=$out/dsls-$version-linux-$arch
install -m 755 "$binary" "$asset"
"$strip" "$asset"
[[ $("${run[@]}" "$asset" --version) == "dsls $version" ]] || fail "$asset --version does not say dsls $version"
set +e
"${run[@]}" "$asset" check --isolated --format json --no-log-report "$repo/examples" > "$build/package-smoke.json"
status=$?
set -e
[[ $status == 1 ]] && grep -q '"code": "overlap-comm-race"' "$build/package-smoke.json" ||
  fail "$asset check examples/ did not report the race (exit $status; $build/package-smoke.json)"

echo "== .deb"
rm -rf "$build/packages"
(cd "$build" && cpack -G DEB >/dev/null)
cp "$build/packages/dsls_${version}_$debarch.deb" "$out/"

echo "== wheel"
python3 "$repo/packaging/make_wheel.py" --binary "$asset" --version "$version" --arch "$arch" \
  --readme "$repo/README.md" \
  --license "$repo/LICENSE" "$out" >/dev/null

echo "== .vsix"
if bash "$repo/tests/editors/lib/npm-ci.sh" "$repo/editors/vscode" --ignore-scripts; then
  "$repo/editors/vscode/scripts/package-vsix.sh" "$asset" "$out/dsls-$version-$platform.vsix" "$platform" \
    >"$build/package-vsix.log" 2>&1 || { cat "$build/package-vsix.log" >&2; exit 1; }
else
  echo "package: no node/npm, so no .vsix (scripts/install-deps.sh package installs them)" >&2
fi

echo "== pre-commit mirror"
# The hooks are dsls's own, installed from the wheel instead of taken from PATH.
mirror=$out/dsls-pre-commit
mkdir -p "$mirror"
sed 's/^\(  language:\) system$/\1 python/' "$repo/.pre-commit-hooks.yaml" > "$mirror/.pre-commit-hooks.yaml"
grep -q '^  language: python$' "$mirror/.pre-commit-hooks.yaml" || fail "no hook of .pre-commit-hooks.yaml became language: python"
for template in setup.py README.md; do
  sed "s/@VERSION@/$version/g" "$repo/packaging/pre-commit/$template.in" > "$mirror/$template"
done

(cd "$out" && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%P\n' | sort | xargs sha256sum -- > SHA256SUMS)
ls -l "$out" | tail -n +2
