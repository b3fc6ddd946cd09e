#!/usr/bin/env bash
# CTest entry: Emacs --batch with editors/emacs/dsls.el against dsls, through
# Eglot (Debian elpa-eglot on Emacs 28, built in from Emacs 29) or lsp-mode
# (Debian elpa-lsp-mode).
# Usage: run-emacs.sh <dsls> <work-dir> [eglot|lsp-mode|byte-compile]
set -euo pipefail
dsls=$1; work=$2; client=${3:-eglot}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
if ! command -v emacs >/dev/null; then
  echo "*** SKIPPED: emacs is not installed; run scripts/install-deps.sh test (Debian packages emacs-nox elpa-eglot) ***" >&2
  exit 77
fi
if [[ $client != byte-compile ]] && ! emacs --batch --eval "(kill-emacs (if (locate-library \"$client\") 0 1))" 2>/dev/null; then
  echo "*** SKIPPED: $client is not available to Emacs; install the Debian package elpa-$client ***" >&2
  exit 77
fi
[[ -x $dsls ]] || { echo "dsls binary not found at $dsls" >&2; exit 1; }
scratch="$work/emacs-$client"
rm -rf "$scratch" && mkdir -p "$scratch/home" "$scratch/tmp"
emacs --version | head -1
# --batch reads no init file; HOME points away from the user's ~/.emacs.d too, and
# temporary files (the saved report timelines) stay under the work dir.
script="$here/emacs/$client-test.el"
[[ $client == byte-compile ]] && script="$here/emacs/byte-compile.el"
HOME="$scratch/home" TMPDIR="$scratch/tmp" DSLS_BINARY=$dsls DSLS_WORK=$scratch DSLS_FIXTURES="$here/fixtures" \
  DSLS_EMACS_PACKAGE="$repo/editors/emacs" \
  timeout 180 emacs --batch -L "$repo/editors/emacs" -L "$here/emacs" -l "$script"
