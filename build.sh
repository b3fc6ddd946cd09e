#!/usr/bin/env bash
# The two commands a new machine needs (see README.md):
#   ./build.sh demo   install what is missing, build, and analyse the bundled example config and log
#   ./build.sh test   install what is missing, build, and run the whole test suite
# Other verbs: build (just build), asan (build and test with ASan+UBSan), bench (benchmarks).
set -euo pipefail
cd "$(dirname "$0")"

verb=${1:-demo}
jobs=$(nproc 2>/dev/null || echo 2)

configure_and_build() {  # dir, extra cmake args...
  local dir=$1; shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
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
    build/lsp/dsls check examples/ || true
    ;;
  test)
    scripts/install-deps.sh test
    configure_and_build build
    (cd build && ctest --output-on-failure -j"$jobs")
    configure_and_build build-asan -DDSLS_SANITIZE=ON
    (cd build-asan && ctest --output-on-failure -j"$jobs" -L 'unit|transcript')
    ;;
  asan)
    scripts/install-deps.sh test
    configure_and_build build-asan -DDSLS_SANITIZE=ON
    (cd build-asan && ctest --output-on-failure -j"$jobs")
    ;;
  *)
    echo "usage: $0 [demo|test|build|asan]" >&2
    exit 2
    ;;
esac
