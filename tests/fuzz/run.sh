#!/usr/bin/env bash
# The fuzzing command: tests/fuzz/run.sh [SECONDS_PER_TARGET] (default 30).
# The fuzz targets live in the shared sanitizer build (build-asan); see `./build.sh fuzz`.
exec "$(dirname "$0")/../../build.sh" fuzz "${1:-30}"
