#!/usr/bin/env bash
# The .deb unpacked into a temporary root (dpkg-deb -x): its files, its control fields, the binary
# finding its rule pages under share/doc/dsls, and lintian's verdict compared with the expected one.
# Usage: run-deb.sh <dist-dir> <work-dir> <expected-lintian-tags> <version>
set -euo pipefail
dist=$1; work=$2; expected_tags=$3; version=$4
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
need_dist "$dist"
deb=$(one "$dist/dsls_*_$(dpkg --print-architecture).deb")
rm -rf "$work" && mkdir -p "$work"
root=$work/root
dpkg-deb -x "$deb" "$root"
for path in usr/bin/dsls usr/share/man/man1/dsls.1.gz usr/share/doc/dsls/copyright \
            usr/share/doc/dsls/changelog.gz usr/share/doc/dsls/rules/overlap-comm-race.md \
            usr/share/doc/dsls/logs/README.md usr/share/lintian/overrides/dsls; do
  check "it installs /$path" test -f "$root/$path"
done
check "Package, Version and Architecture" bash -c "
  [[ \$(dpkg-deb -f '$deb' Package) == dsls && \$(dpkg-deb -f '$deb' Version) == '$version' &&
     \$(dpkg-deb -f '$deb' Architecture) == \$(dpkg --print-architecture) ]]"
# roff spells a hyphen \-
check "the man page documents dsls check" bash -c "zcat '$root/usr/share/man/man1/dsls.1.gz' | grep -qF 'fail\\-on'"
set +e
"$root/usr/bin/dsls" check --format sarif "$here/../../examples/ds_config_zero2.json" > "$work/check.sarif"
set -e
check "findings link to the rule pages the package installs" \
  grep -q "file://$root/usr/share/doc/dsls/rules/overlap-comm-race.md" "$work/check.sarif"
if command -v lintian >/dev/null; then
  # Errors and warnings only: informational tags vary with the lintian release, and notes
  # such as "running with root privileges" are not tags.
  lintian --display-info "$deb" 2>/dev/null | grep -E '^[EW]: ' | sort > "$work/lintian.txt" || true
  check "lintian reports exactly the expected tags" diff -u "$expected_tags" "$work/lintian.txt"
else
  echo "note: lintian is not installed; its verdict is not checked (Debian package lintian)"
fi
finish
