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
set +e
chroot "$root" /dsls check --format json --no-log-report /examples > "$work/check.json"
status=$?
set -e
check "dsls check exits 1 on the example's findings" test "$status" = 1
reports_race_and_oom() {
  local codes
  codes=$(python3 "$here/finding_codes.py" "$1")
  echo "codes: $codes"
  [[ " $codes " == *" overlap-comm-race "* && " $codes " == *" log-cuda-oom "* ]]
}
check "it reports the race and the OOM" reports_race_and_oom "$work/check.json"
python3 - "$root" > "$work/session.txt" <<'PY'
import json, subprocess, sys
def frame(obj):
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
session = (frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}})
           + frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
           + frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
           + frame({"jsonrpc": "2.0", "method": "exit"}))
done = subprocess.run(["chroot", sys.argv[1], "/dsls", "--stdio"], input=session, capture_output=True, timeout=30)
print(done.returncode)
print(done.stdout.decode(errors="replace"))
PY
check "the server answers initialize and exits 0 on exit" bash -c "head -1 '$work/session.txt' | grep -qx 0 && grep -q '\"serverInfo\"' '$work/session.txt'"
finish
