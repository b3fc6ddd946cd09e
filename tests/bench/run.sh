#!/usr/bin/env bash
# The benchmark command: measures dsls next to its peers and rewrites docs/benchmarks.md.
#   tests/bench/run.sh            full run (about 15 minutes on a 2-core machine)
#   tests/bench/run.sh --quick    a short pass that checks the pipeline; writes to the build dir only
# Environment: DSLS_BENCH_BUILD_DIR (default build-bench), DSLS_BENCH_LOG (default /tmp/dsls-bench/train-200m.log),
# DSLS_BENCH_ERROR_LOG (default /tmp/dsls-bench/errors-200m.log).
set -euo pipefail
cd "$(dirname "$0")/../.."
quick=false
[[ ${1:-} == --quick ]] && quick=true
build=${DSLS_BENCH_BUILD_DIR:-build-bench}

for tool in node npm rg grep python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required (scripts/install-deps.sh test)" >&2; exit 1; }
done
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDSLS_BENCH=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target dsls dsls_microbench

# The peer server, pinned by the committed lockfile.
if [[ ! -x tests/bench/node_modules/.bin/vscode-json-language-server ]]; then
  (cd tests/bench && npm ci --no-audit --no-fund --ignore-scripts)
fi
peer=tests/bench/node_modules/vscode-langservers-extracted/bin/vscode-json-language-server

out=$build/bench-results
$quick && out=$build/bench-results-quick
mkdir -p "$out"
if $quick; then
  log=/tmp/dsls-bench/train-64m.log error_log=/tmp/dsls-bench/errors-64m.log mixed_log=/tmp/dsls-bench/mixed-64m.log mib=64
  runs=1 requests=100 log_runs=1 reps=1 big_runs=1
else
  log=${DSLS_BENCH_LOG:-/tmp/dsls-bench/train-200m.log} error_log=${DSLS_BENCH_ERROR_LOG:-/tmp/dsls-bench/errors-200m.log}
  mixed_log=${DSLS_BENCH_MIXED_LOG:-/tmp/dsls-bench/mixed-200m.log}
  mib=200 runs=5 requests=1000 log_runs=3 reps=5 big_runs=3
fi
mkdir -p "$(dirname "$log")" "$(dirname "$error_log")"
echo "bench: generating $log, $error_log and $mixed_log" >&2
python3 tests/bench/gen_log.py "$log" --mib "$mib"
python3 tests/bench/gen_log.py "$error_log" --mib "$mib" --shape error-heavy
python3 tests/bench/gen_log.py "$mixed_log" --mib "$mib" --shape mixed-prefix

echo "bench: LSP latency ($runs sessions per server)" >&2
python3 tests/bench/lsp_bench.py --dsls "$build/lsp/dsls" --peer-script "$peer" --runs "$runs" \
  --requests "$requests" --out "$out/lsp.json"
echo "bench: log throughput" >&2
python3 tests/bench/log_bench.py --dsls "$build/lsp/dsls" --log "$log" --error-log "$error_log" --mixed-log "$mixed_log" --runs "$log_runs" \
  --out "$out/log.json"
echo "bench: micro-benchmarks" >&2
"$build/tests/bench/dsls_microbench" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
  --benchmark_format=json --benchmark_out="$out/micro.json" --benchmark_out_format=json >/dev/null

report=docs/benchmarks.md
$quick && report=$out/benchmarks.md
python3 tests/bench/render_report.py --lsp "$out/lsp.json" --log "$out/log.json" --micro "$out/micro.json" \
  --command "tests/bench/run.sh" --out "$report"
echo "bench: large documents" >&2
python3 tests/bench/bigdoc_bench.py --dsls "$build/lsp/dsls" --workdir "$build/bench-bigdocs" --runs "$big_runs" \
  --microbench "$build/tests/bench/dsls_microbench" --out "$out/bigdocs.json" --doc "$report" \
  --command "tests/bench/run.sh (or tests/bench/bigdoc_bench.py alone)"
echo "bench: run folders (per-rank logs)" >&2
job_ranks=64 job_mib=64 job_runs=3
$quick && job_ranks=8 job_mib=8 job_runs=1
python3 tests/bench/job_bench.py --dsls "$build/lsp/dsls" --folder "/tmp/dsls-bench/jobs-${job_ranks}x${job_mib}m" \
  --ranks "$job_ranks" --mib "$job_mib" --runs "$job_runs" --doc "$report" \
  --command "tests/bench/run.sh (or tests/bench/job_bench.py alone)"
if command -v emacs >/dev/null; then
  echo "bench: the Emacs package on a large file" >&2
  python3 tests/bench/emacs_bench.py --workdir "$build/bench-bigdocs" --runs "$big_runs" --out "$out/emacs.json" \
    --doc "$report" --command "tests/bench/run.sh (or tests/bench/emacs_bench.py alone)"
fi
echo "bench: the static binary" >&2
cmake -S . -B "$build-static" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDSLS_STATIC=ON -DDSLS_BUILD_TESTS=OFF >/dev/null
cmake --build "$build-static" -j"$(nproc)" --target dsls
binary_runs=21
$quick && binary_runs=3
python3 tests/bench/binary_bench.py --static "$build-static/lsp/dsls" --dynamic "$build/lsp/dsls" \
  --workdir "$out/binary" --runs "$binary_runs" --doc "$report" --command "tests/bench/run.sh (or tests/bench/binary_bench.py alone)"
echo "bench: wrote $report" >&2
