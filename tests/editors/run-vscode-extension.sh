#!/usr/bin/env bash
# CTest entry: the VS Code extension type-checks, its unit tests pass, and
# `vsce package` makes a .vsix that bundles the given dsls binary.
# Usage: run-vscode-extension.sh <dsls> <work-dir>
# Leaves <work-dir>/dsls.vsix for the code-server end-to-end test.
set -euo pipefail
dsls=$1; work=$2
here=$(cd "$(dirname "$0")" && pwd)
ext=$(cd "$here/../../editors/vscode" && pwd)
[[ -x $dsls ]] || { echo "dsls binary not found at $dsls" >&2; exit 1; }
# No install scripts are needed to build and package (they only serve publishing).
bash "$here/lib/npm-ci.sh" "$ext" --ignore-scripts   # exits 77 without node/npm
mkdir -p "$work"
cd "$ext"
echo "== type-check"
npx --no-install tsc -p . --noEmit
echo "== unit tests"
npm test --silent
echo "== package"
# The .vsix for this machine's platform (linux-x64 on x86-64), made as ./build.sh package makes it.
scripts/package-vsix.sh "$dsls" "$work/dsls.vsix" >"$work/vsce.log" 2>&1 || { cat "$work/vsce.log"; exit 1; }
tail -1 "$work/vsce.log"
python3 - "$work/dsls.vsix" <<'PY'
import json, os, sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
need = ["extension/package.json", "extension/out/src/extension.js", "extension/bin/dsls",
        "extension/node_modules/vscode-languageclient/package.json", "extension/node_modules/jsonc-parser/package.json"]
missing = [n for n in need if n not in names]
leaked = sorted(n for n in names if n.startswith(("extension/src/", "extension/test/", "extension/out/test/")) or n.endswith(".ts") and not n.endswith(".d.ts"))
manifest = json.loads(zipfile.ZipFile(sys.argv[1]).read("extension/package.json"))
vsix_manifest = zipfile.ZipFile(sys.argv[1]).read("extension.vsixmanifest").decode()
commands = {c["command"] for c in manifest["contributes"]["commands"]}
problems = []
if missing: problems.append(f"missing from the .vsix: {missing}")
if leaked: problems.append(f"sources packaged: {leaked[:5]}")
for c in ("dsls.diagnoseTerminalSelection", "dsls.diagnoseSelection", "dsls.diagnoseRunFolder"):
    if c not in commands: problems.append(f"command {c} not contributed")
platform = {"x86_64": "linux-x64", "aarch64": "linux-arm64"}.get(os.uname().machine)
if platform and f'TargetPlatform="{platform}"' not in vsix_manifest:
    problems.append(f"the .vsix is not marked for {platform}")
if problems:
    print("\n".join(problems)); sys.exit(1)
print(f"vsix ok: {len(names)} files, bundles bin/dsls")
PY
