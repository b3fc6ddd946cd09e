# Sourced by install-code-server.sh and run-code-server.sh: what code-server 4.100.3 and the
# browser need, each missing piece a CTest skip (77) with its reason.
chromium=${CHROMIUM:-/usr/bin/chromium}
skip() { echo "*** SKIPPED: $* ***" >&2; exit 77; }
command -v node >/dev/null && command -v npm >/dev/null || skip "node and npm are needed (scripts/install-deps.sh test)"
[[ -x $chromium ]] || skip "Chromium is not installed at $chromium (Debian package chromium)"
command -v rg >/dev/null || skip "ripgrep is needed to install code-server offline (Debian package ripgrep)"
[[ $(node -p 'process.versions.node.split(".")[0]') == 20 ]] || skip "code-server 4.100.3 needs Node 20, found $(node --version)"
