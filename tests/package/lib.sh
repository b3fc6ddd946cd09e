# Shared by the package tests: the artifacts folder written by package.artifacts.
need_dist() {  # dist-dir
  if [[ ! -f $1/SHA256SUMS ]]; then
    echo "*** SKIPPED: $1 has no artifacts (package.artifacts makes them in a static build) ***" >&2
    exit 77
  fi
  (cd "$1" && sha256sum --quiet -c SHA256SUMS) || { echo "the artifacts do not match SHA256SUMS" >&2; exit 1; }
}
one() {  # glob: the single file matching it
  local matches=($1)
  [[ ${#matches[@]} == 1 && -e ${matches[0]} ]] || { echo "expected one file matching $1, found: ${matches[*]}" >&2; exit 1; }
  echo "${matches[0]}"
}
failures=0
check() {  # name, command...
  local name=$1; shift
  if "$@"; then echo "ok     $name"; else echo "FAILED $name"; failures=$((failures + 1)); fi
}
finish() { echo "$failures failed"; ((failures == 0)); }
zip_read() {  # archive, member: the member's bytes on stdout (no unzip needed)
  python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' "$1" "$2"
}
export -f zip_read  # the checks run it in child shells
vscode_platform() {  # VS Code's name for this machine's platform
  case $(uname -m) in x86_64) echo linux-x64 ;; aarch64) echo linux-arm64 ;; *) uname -m ;; esac
}
# Runs `CMD... check --format json --no-log-report EXAMPLES` and checks the exit status (1:
# findings) and that the report holds every code given. Usage: check_example "code ..." CMD... EXAMPLES
check_example() {
  local want=$1; shift
  local report=$work/check.json status codes code
  set +e
  "${@:1:$#-1}" check --format json --no-log-report "${@: -1}" > "$report"
  status=$?
  set -e
  check "dsls check exits 1 on the example's findings" test "$status" = 1
  codes=" $(python3 "$here/finding_codes.py" "$report") "
  echo "codes:$codes"
  for code in $want; do
    check "it reports $code" test "${codes/ $code /}" != "$codes"
  done
}
