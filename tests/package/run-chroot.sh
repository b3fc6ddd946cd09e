#!/usr/bin/env bash
# The static binary in an empty chroot that holds nothing but it and the example: no libc, no
# /proc, no /etc. It checks the example and serves one LSP session.
# Usage: run-chroot.sh <dist-dir> <work-dir> <examples-dir>
set -euo pipefail
dist=$1; work=$2; examples=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
need_dist "$dist"
if [[ $(id -u) != 0 ]] || ! command -v chroot >/dev/null; then
  echo "*** SKIPPED: chroot needs root ***" >&2
  exit 77
fi
binary=$(one "$dist/dsls-*-linux-$(uname -m)")
check "ldd calls it not a dynamic executable" bash -c "ldd '$binary' 2>&1 | grep -q 'not a dynamic executable'"
root=$work/root
rm -rf "$root" && mkdir -p "$root"
cp "$binary" "$root/dsls"
cp -r "$examples" "$root/examples"
check_example "overlap-comm-race log-cuda-oom" chroot "$root" /dsls /examples
python3 "$here/lsp_session.py" chroot "$root" /dsls --stdio > "$work/session.txt"
check "the server answers initialize and exits 0 on exit" bash -c "head -1 '$work/session.txt' | grep -qx 0 && tail -1 '$work/session.txt' | grep -q '\"name\": \"dsls\"'"
finish
