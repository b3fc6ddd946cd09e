#!/usr/bin/env bash
# Runs one libFuzzer target: first its seeds and committed crash inputs once each, then
# fuzzing for a bounded time. A crash leaves its input under WORK/artifacts/ and fails.
# Usage: run_target.sh BINARY SEED_DIR REGRESSION_DIR WORK_DIR SECONDS MAX_LEN [-dict=FILE]
set -euo pipefail
bin=$1 seeds=$2 regressions=$3 work=$4 seconds=$5 max_len=$6
shift 6
mkdir -p "$work/corpus" "$work/artifacts"
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp}
inputs=("$seeds")
[[ -d $regressions ]] && inputs+=("$regressions")

echo "== replaying ${inputs[*]}"
"$bin" -runs=0 -rss_limit_mb=4096 -timeout=30 -artifact_prefix="$work/artifacts/" "${inputs[@]}"

echo "== fuzzing $(basename "$bin") for ${seconds}s"
# Target stderr (server logs) is closed; libFuzzer and sanitizer reports still print.
"$bin" -max_total_time="$seconds" -max_len="$max_len" -timeout=20 -rss_limit_mb=4096 \
  -close_fd_mask=2 -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$@" \
  "$work/corpus" "${inputs[@]}"
