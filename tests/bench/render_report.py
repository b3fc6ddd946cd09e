#!/usr/bin/env python3
"""Writes docs/benchmarks.md from the JSON results of lsp_bench.py, log_bench.py and
the Google Benchmark micro-benchmarks (--benchmark_format=json with repetitions)."""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from log_bench import log_section  # noqa: E402
from report_sections import write_section  # noqa: E402


def fmt_ms(v):
    return f"{v:.2f} ms" if v < 10 else f"{v:.0f} ms"


def fmt_duration(value, unit):
    ns = value * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[unit]
    for scale, name in ((1e9, "s"), (1e6, "ms"), (1e3, "µs")):
        if ns >= scale:
            return f"{ns / scale:.3g} {name}"
    return f"{ns:.3g} ns"


def ratio(a, b):
    if not b:
        return "n/a"
    r = a / b
    return f"{r:.2f}" if r < 10 else f"{r:.0f}"


LSP_ROWS = [
    ("initialize_ms", "spawn -> initialize reply", fmt_ms),
    ("open_to_diagnostics_ms", "didOpen (3 KB config) -> first publishDiagnostics", fmt_ms),
    ("hover_median_ms", "hover, median of 1,000", fmt_ms),
    ("hover_p99_ms", "hover, p99 of 1,000", fmt_ms),
    ("completion_median_ms", "completion, median of 1,000", fmt_ms),
    ("completion_p99_ms", "completion, p99 of 1,000", fmt_ms),
    ("change_to_diagnostics_ms", "didChange (3 KB) -> publishDiagnostics", fmt_ms),
    ("big_open_to_diagnostics_ms", "didOpen (5 MB) -> first publishDiagnostics", fmt_ms),
    ("big_change_to_diagnostics_ms", "didChange (5 MB) -> publishDiagnostics", fmt_ms),
    ("pull_change_ms", "didChange (3 KB) -> textDocument/diagnostic reply", fmt_ms),
    ("big_pull_change_ms", "didChange (5 MB) -> textDocument/diagnostic reply", fmt_ms),
    ("peak_rss_mib", "peak RSS (VmHWM) at the end of the push session", lambda v: f"{v:.1f} MiB"),
]


def lsp_section(lsp):
    d, p = lsp["medians"]["dsls"], lsp["medians"]["peer"]
    out = ["## LSP latency: dsls next to vscode-json-language-server", "",
           f"Servers: {lsp['versions']['dsls']}; {lsp['versions']['peer']} on node {lsp['versions']['node']}, "
           f"given the ds_config JSON Schema that `dsls schema` prints (through `json/schemaAssociations`, "
           f"file match `*ds_config*.json`).",
           f"Inputs: a {lsp['config_bytes']:,}-byte ZeRO-3 config (tests/bench/fixtures/bench_ds_config.json) and a "
           f"{lsp['big_bytes'] / 1048576:.1f} MiB config (the same plus one large array under an extra top-level "
           f"key, generated at run time). Each figure is the median over {lsp['runs']} sessions per server "
           f"(fresh process each); hover and completion take the median and p99 of "
           f"{lsp['requests']:,} sequential requests within a session, at the config's key positions.", "",
           "| measure | dsls | vscode-json-language-server | dsls / peer |", "|---|---:|---:|---:|"]
    for key, label, f in LSP_ROWS:
        if key in d and key in p:
            out.append(f"| {label} | {f(d[key])} | {f(p[key])} | {ratio(d[key], p[key])} |")
    if d.get("peak_rss_mib") and d.get("big_pull_change_ms"):
        out += ["", f"On the {lsp['big_bytes'] / 1048576:.1f} MiB config: peak RSS "
                f"{p['peak_rss_mib'] / d['peak_rss_mib']:.1f} times smaller than the peer's (the aim is 5 or more), "
                f"edit -> diagnostics {p['big_pull_change_ms'] / d['big_pull_change_ms']:.1f} times faster than "
                "the peer's undebounced pull (the aim is 10 or more)."]
    out += ["",
            "What the rows mean:",
            "- Push rows include each server's own wait before it validates a changed document: dsls waits "
            "50 ms after the last change, vscode-json-language-server 500 ms (its `validationDelayMs`), also on "
            "didOpen. The pull rows (client advertises `textDocument.diagnostic`, request sent right after the "
            "change) show the analysis itself without either delay.",
            f"- Empty replies (a hover or completion with nothing to say) per session: dsls hover "
            f"{d.get('hover_empty_replies', 0):.0f}, completion {d.get('completion_empty_replies', 0):.0f}; peer "
            f"hover {p.get('hover_empty_replies', 0):.0f}, completion {p.get('completion_empty_replies', 0):.0f}.",
            f"- Diagnostics on the 3 KB config at open: dsls {d.get('diagnostics_on_open', 0):.0f}, peer "
            f"{p.get('diagnostics_on_open', 0):.0f}. The two report different things: dsls checks DeepSpeed "
            "semantics (stage-dependent keys, deprecations, cross-key rules), the peer checks the schema only.",
            ""]
    return out


def micro_section(micro):
    rows = {}
    repetitions = max((b.get("repetitions", 1) for b in micro["benchmarks"]), default=1)
    for b in micro["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        rows[b["run_name"]] = b
    context = micro.get("context", {})
    when = f"Date: {context['date']}; load average {context['load_avg'][0]:.1f} at the start. " \
        if context.get("date") and context.get("load_avg") else ""
    out = ["## Micro-benchmarks (Google Benchmark)", "",
           f"{when}`dsls_microbench`, medians of {repetitions} repetitions. "
           "Inputs are built in memory (tests/bench/micro/bench_inputs.cpp). Times are CPU time of the "
           "benchmark thread, which other processes on the box disturb less than wall time; throughput is "
           "computed from it. (Debian's libbenchmark prints a warning that it was built as debug: that is the "
           "library's own bookkeeping, the code measured is built with -O2.)", "",
           "| benchmark | CPU time per iteration | throughput |", "|---|---:|---:|"]
    for name, b in rows.items():
        per = fmt_duration(b["cpu_time"], b.get("time_unit", "ns"))
        tput = ""
        if "bytes_per_second" in b:
            tput = f"{b['bytes_per_second'] / 1e6:.0f} MB/s"
        label = f" ({b['label']})" if b.get("label") else ""
        out.append(f"| {name}{label} | {per} | {tput} |")
    out.append("")
    small, big = rows.get("BM_JsonParse_Config3KB"), rows.get("BM_JsonParse_Config5MB")
    if small and big and small.get("bytes_per_second") and big.get("bytes_per_second"):
        out += [f"The JSON parser reads the 5 MB config at {big['bytes_per_second'] / small['bytes_per_second']:.2f} "
                "times the speed per byte of the 3 KB one (\"Large documents: where the time and memory go\" "
                "says where a large document's time goes).", ""]
    return out


REPRODUCING = (
    "`tests/bench/run.sh` builds dsls and `dsls_microbench` with `-DDSLS_BENCH=ON` (RelWithDebInfo, as "
    "`build.sh` ships it) in `build-bench/`, installs the peer server from tests/bench/package-lock.json "
    "with `npm ci`, generates the two logs (200 MiB, typical and error-heavy) in /tmp (reused when present), "
    "runs the three harnesses, then tests/bench/bigdoc_bench.py (large documents: it generates them under "
    "the build folder), tests/bench/job_bench.py (run folders of per-rank logs) and tests/bench/emacs_bench.py "
    "(Emacs on the largest JSON file, when emacs is installed); each rewrites only its own section of this "
    "file. `tests/bench/run.sh --quick` does a short pass (1 session, 100 requests, 64 MiB logs) that checks "
    "the pipeline without producing figures worth keeping. The micro-benchmarks alone: "
    "`build-bench/tests/bench/dsls_microbench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true "
    "--benchmark_out=micro.json --benchmark_out_format=json`, then `tests/bench/render_report.py --micro "
    "micro.json --doc docs/benchmarks.md` rewrites their section; with `-DDSLS_BENCH=ON`, `ctest -L bench` "
    "runs each once as a smoke test.")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lsp")
    ap.add_argument("--log")
    ap.add_argument("--micro", required=True)
    ap.add_argument("--command", help="the command the whole report names (with --out)")
    ap.add_argument("--out", help="write the whole report (needs --lsp and --log)")
    ap.add_argument("--doc", help="rewrite only the micro-benchmark section of this report")
    args = ap.parse_args()
    micro = json.load(open(args.micro))
    if args.doc:
        write_section(args.doc, "## Micro-benchmarks (Google Benchmark)", "\n".join(micro_section(micro)) + "\n")
        return
    if not (args.lsp and args.log and args.out and args.command):
        ap.error("--out needs --lsp, --log and --command (or give --doc to rewrite the micro-benchmark section alone)")
    lsp = json.load(open(args.lsp))
    log = json.load(open(args.log))
    m = lsp["machine"]
    lines = ["# Benchmarks", "",
             "Measured figures, regenerated by one command:", "", f"    {args.command}", "",
             f"Date: {lsp['date']}. Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, Linux "
             f"{m['kernel']}; load average {m['load_average_at_start']:.1f} when the LSP runs began. This is a "
             "shared 2-core box: other work ran at the same time, so single figures move by tens of percent "
             "between runs. Medians of repeated runs are given, and the two LSP servers alternate run by run so "
             "that drifting load hits both alike. Ratios below 1 mean dsls is faster or smaller.", ""]
    lines += lsp_section(lsp)
    lines += log_section(log)
    lines += micro_section(micro)
    lines += ["## Reproducing", "", REPRODUCING, ""]
    with open(args.out, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
