#!/usr/bin/env bash
# The fuzzing command (CI calls it too):
#   tests/fuzz/run.sh [SECONDS_PER_TARGET]      (default 30; six targets, two at a time)
# Configures build-fuzz with clang++ and DSLS_FUZZ=ON, builds the targets, builds the
# seed corpus, and runs `ctest -L fuzz`: each target replays its seeds and the committed
# crash inputs (tests/fuzz/regressions/<target>/), then fuzzes for SECONDS_PER_TARGET.
# A crash input is kept under build-fuzz/tests/fuzz/work/<target>/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-30}
build=${DSLS_FUZZ_BUILD_DIR:-build-fuzz}
targets=(fuzz_framing fuzz_json fuzz_logs fuzz_positions fuzz_config fuzz_server)

command -v clang++ >/dev/null || { echo "fuzz: clang++ is required (scripts/install-deps.sh test)" >&2; exit 1; }
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDSLS_FUZZ=ON \
  -DDSLS_FUZZ_SECONDS="$seconds" >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"
cd "$build"
ctest --output-on-failure -L fuzz -j2
