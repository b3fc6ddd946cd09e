#!/usr/bin/env bash
# The server under ThreadSanitizer:
#   tests/robustness/tsan.sh
# Builds dsls in build-tsan (-DDSLS_TSAN=ON) and runs the transcript suite, the client
# vanish cases (5 s limit: TSan slows the server) and a shortened load test against it
# (no memory check: TSan's allocator keeps freed memory). A data race report fails the run
# (halt_on_error makes the server die on its first report, and the logs are searched).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${DSLS_TSAN_BUILD_DIR:-build-tsan}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" -DDSLS_TSAN=ON -DDSLS_WERROR=ON \
  ${CCACHE_DIR:+-DCMAKE_CXX_COMPILER_LAUNCHER=ccache} >/dev/null
cmake --build "$build" -j"$(nproc)" --target dsls

logs=$(mktemp -d)
# log_path gives each process its own report file, so a race in a server whose stderr a
# test swallows is still found.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 history_size=4 log_path=$logs/tsan"
status=0
(cd "$build" && ctest --output-on-failure -L transcript -j2) || status=1
python3 tests/robustness/client_vanish_test.py "$build/lsp/dsls" --limit 5 || status=1
python3 tests/robustness/load_test.py "$build/lsp/dsls" --documents 100 --requests 2000 --no-memory-check || status=1

if compgen -G "$logs/tsan*" >/dev/null; then
  echo "ThreadSanitizer reports:" >&2
  cat "$logs"/tsan* >&2
  status=1
fi
rm -rf "$logs"
[[ $status == 0 ]] && echo "tsan: no data race reported"
exit $status
