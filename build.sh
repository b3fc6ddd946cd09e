#!/usr/bin/env bash
# The two commands a new machine needs (see README.md):
#   ./build.sh demo   install what is missing, build, and analyse the bundled example config and log
#   ./build.sh test   install what is missing, build, and run the whole test suite
#   ./build.sh package   build the static binary, wheel, .deb and .vsix into dist/ (docs/install.md)
# Other verbs: build (just build), asan (the suite under ASan+UBSan), tsan (the server under
# ThreadSanitizer), fuzz [SECONDS] (the libFuzzer targets), bench (benchmarks, rewrites docs/benchmarks.md).
set -euo pipefail
cd "$(dirname "$0")"

verb=${1:-demo}
jobs=$(nproc 2>/dev/null || echo 2)

# ccache (when installed) makes a rebuild of an unchanged tree nearly free; its cache stays
# under the build folders.
launcher=()
use_ccache() {
  command -v ccache >/dev/null || return 0
  export CCACHE_DIR=${CCACHE_DIR:-$PWD/build-ccache} CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
  export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
}

# The release build is the static binary that ships (docs/install.md); the tests run against it.
release_build() {  # extra cmake args...
  configure_and_build build -DDSLS_STATIC=ON "$@"
}

configure_and_build() {  # dir, extra cmake args...
  local dir=$1; shift
  use_ccache
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >/dev/null
  cmake --build "$dir" -j"$jobs"
}

# One sanitizer build serves the ASan+UBSan suite and the fuzzers: clang++ with the whole
# project instrumented for libFuzzer (the coverage hooks are inert outside a fuzz target).
# -O1 -g1 keeps it quick to compile and its reports readable.
sanitizer_build() {  # extra cmake args...
  # A build-asan configured with another compiler (g++) is started afresh.
  if [[ -f build-asan/CMakeCache.txt ]] && ! grep -q '^CMAKE_CXX_COMPILER:.*clang' build-asan/CMakeCache.txt; then
    rm -rf build-asan
  fi
  configure_and_build build-asan -DCMAKE_CXX_COMPILER=clang++ -DDSLS_SANITIZE=ON -DDSLS_FUZZ=ON \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" "$@"
}

# Each phase of `test` is timed; the table is printed at the end, also when a phase fails.
phase_names=(); phase_seconds=(); phase_status=()
phase() {  # name, command...
  local name=$1; shift
  local start=$SECONDS status
  echo "==== $name" >&2
  # A subshell keeps `set -e` in force inside the phase (it is ignored in a `||` context).
  set +e
  (set -e; "$@")
  status=$?
  set -e
  phase_names+=("$name"); phase_seconds+=($((SECONDS - start))); phase_status+=("$status")
  return "$status"
}
print_phases() {
  local i total=0
  echo "==== phases" >&2
  for i in "${!phase_names[@]}"; do
    local s=${phase_seconds[$i]}; total=$((total + s))
    printf '  %-32s %4dm%02ds  %s\n' "${phase_names[$i]}" $((s / 60)) $((s % 60)) \
      "$([[ ${phase_status[$i]} == 0 ]] && echo ok || echo "FAILED (${phase_status[$i]})")" >&2
  done
  printf '  %-32s %4dm%02ds\n' total $((total / 60)) $((total % 60)) >&2
}

release_tests() { (cd build && ctest --output-on-failure -j"$jobs"); }
sanitizer_tests() { (cd build-asan && ctest --output-on-failure -j"$jobs" -L 'unit|transcript|corpus|cli'); }
fuzz_tests() { (cd build-asan && ctest --output-on-failure -j"$jobs" -L fuzz); }

case $verb in
  build)
    scripts/install-deps.sh build
    release_build
    ;;
  demo)
    scripts/install-deps.sh build
    release_build
    build/lsp/dsls --version
    # Findings make `dsls check` exit 1; for the demo that is the expected outcome.
    build/lsp/dsls check examples/ || [[ $? == 1 ]]
    ;;
  test)
    trap print_phases EXIT
    phase "install packages" scripts/install-deps.sh test
    use_ccache
    # Warnings are errors here: a clean build is part of the gate.
    phase "release build" release_build -DDSLS_WERROR=ON
    phase "release tests" release_tests
    phase "sanitizer build (clang)" sanitizer_build -DDSLS_WERROR=ON \
      -DDSLS_FUZZ_SECONDS="${DSLS_FUZZ_SECONDS:-10}"
    phase "ASan+UBSan tests" sanitizer_tests
    phase "fuzzing" fuzz_tests
    phase "ThreadSanitizer" tests/robustness/tsan.sh
    ;;
  tsan)
    scripts/install-deps.sh test
    tests/robustness/tsan.sh
    ;;
  fuzz)
    scripts/install-deps.sh test
    sanitizer_build -DDSLS_FUZZ_SECONDS="${2:-30}"
    fuzz_tests
    ;;
  package)
    scripts/install-deps.sh package
    release_build
    rm -rf dist
    packaging/package.sh build dist
    # The aarch64 artifacts too, where the cross toolchain is installed (install-deps.sh aarch64).
    if command -v aarch64-linux-gnu-g++ >/dev/null && [[ -f /usr/lib/aarch64-linux-gnu/libre2.a ]]; then
      configure_and_build build-aarch64 -DCMAKE_TOOLCHAIN_FILE=packaging/aarch64-linux-gnu.cmake \
        -DDSLS_STATIC=ON -DDSLS_BUILD_TESTS=OFF
      packaging/package.sh build-aarch64 dist
    else
      echo "package: no aarch64 cross toolchain, so x86-64 only (scripts/install-deps.sh aarch64 adds it)" >&2
    fi
    ;;
  bench)
    scripts/install-deps.sh test
    tests/bench/run.sh "${@:2}"
    ;;
  asan)
    scripts/install-deps.sh test
    sanitizer_build
    (cd build-asan && ctest --output-on-failure -j"$jobs")
    ;;
  *)
    echo "usage: $0 [demo|test|build|package|asan|tsan|fuzz|bench]" >&2
    exit 2
    ;;
esac
