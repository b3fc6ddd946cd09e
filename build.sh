#!/usr/bin/env bash
# The two commands a new machine needs (see README.md):
#   ./build.sh demo   install what is missing, build, and analyse the bundled example config and log
#   ./build.sh test   install what is missing, build, and run the whole test suite
# Other verbs: build (just build), asan (the suite under ASan+UBSan), tsan (the server under
# ThreadSanitizer), fuzz [SECONDS] (the libFuzzer targets), bench (benchmarks, rewrites docs/benchmarks.md).
set -euo pipefail
cd "$(dirname "$0")"

verb=${1:-demo}
jobs=$(nproc 2>/dev/null || echo 2)

configure_and_build() {  # dir, extra cmake args...
  local dir=$1; shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j"$jobs"
}

case $verb in
  build)
    scripts/install-deps.sh build
    configure_and_build build
    ;;
  demo)
    scripts/install-deps.sh build
    configure_and_build build
    build/lsp/dsls --version
    # Findings make `dsls check` exit 1; for the demo that is the expected outcome.
    build/lsp/dsls check examples/ || [[ $? == 1 ]]
    ;;
  test)
    scripts/install-deps.sh test
    configure_and_build build -DDSLS_WERROR=ON
    (cd build && ctest --output-on-failure -j"$jobs")
    # The same units, transcripts, corpus and command-line tests under ASan+UBSan.
    # -O1 -g1 keeps the sanitizer build quick to compile and its reports readable.
    configure_and_build build-asan -DDSLS_SANITIZE=ON -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" -DDSLS_WERROR=ON
    (cd build-asan && ctest --output-on-failure -j"$jobs" -L 'unit|transcript|corpus|cli')
    tests/robustness/tsan.sh
    tests/fuzz/run.sh "${DSLS_FUZZ_SECONDS:-10}"
    ;;
  tsan)
    scripts/install-deps.sh test
    tests/robustness/tsan.sh
    ;;
  fuzz)
    scripts/install-deps.sh test
    tests/fuzz/run.sh "${2:-30}"
    ;;
  bench)
    scripts/install-deps.sh test
    tests/bench/run.sh "${@:2}"
    ;;
  asan)
    scripts/install-deps.sh test
    configure_and_build build-asan -DDSLS_SANITIZE=ON -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1"
    (cd build-asan && ctest --output-on-failure -j"$jobs")
    ;;
  *)
    echo "usage: $0 [demo|test|build|asan|tsan|fuzz|bench]" >&2
    exit 2
    ;;
esac
