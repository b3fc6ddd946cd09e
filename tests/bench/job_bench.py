#!/usr/bin/env python3
"""Per-rank log files as one job: `dsls check DIR` on N generated rank files of M MiB each
(gen_log.py --rank-files), timed and with its peak RSS from GNU time; writes the section
"## Run folders (per-rank logs)" of docs/benchmarks.md.

Usage: job_bench.py --dsls BIN --folder DIR [--ranks 64] [--mib 64] [--runs 3] --doc docs/benchmarks.md
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from report_sections import write_section  # noqa: E402

TITLE = "## Run folders (per-rank logs)"


def run_once(dsls, folder):
    cmd = ["/usr/bin/time", "-v", dsls, "check", "--isolated", "--format", "json", folder]
    return measure(cmd, job=True)


def measure(cmd, job):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"job_bench: dsls failed ({p.returncode}): {p.stderr[-2000:]}")
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1))
    clock = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", p.stderr).group(1)
    parts = [float(x) for x in clock.split(":")]
    seconds = sum(v * 60 ** i for i, v in enumerate(reversed(parts)))
    if not job:
        return {"seconds": seconds, "rss_mib": rss_kb / 1024}
    doc = json.loads(p.stdout)
    job = doc["jobs"][0]
    root = next(f for f in job["report"]["findings"] if f["initiating"])
    return {"seconds": seconds, "rss_mib": rss_kb / 1024, "initiating": root["id"], "rank": root["initiatingRank"],
            "files": len(job["files"]), "bytes": job["report"]["bytesRead"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dsls", required=True)
    ap.add_argument("--folder", required=True)
    ap.add_argument("--ranks", type=int, default=64)
    ap.add_argument("--mib", type=int, default=64)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--doc", required=True)
    ap.add_argument("--command", default="tests/bench/run.sh (or tests/bench/job_bench.py alone)")
    args = ap.parse_args()
    subprocess.run([sys.executable, os.path.join(HERE, "gen_log.py"), args.folder, "--mib", str(args.mib),
                    "--rank-files", str(args.ranks)], check=True)
    runs = [run_once(args.dsls, args.folder) for _ in range(args.runs)]
    first = runs[0]
    if first["files"] != args.ranks or (first["initiating"], first["rank"]) != ("cuda-oom", 5 if args.ranks > 5 else args.ranks - 1):
        sys.exit(f"job_bench: wrong diagnosis: {first}")
    # One rank file alone, as a single log: the analyser's own rate on these lines.
    one = os.path.join(args.folder, "20240501000000_rank0.log")
    alone = [measure(["/usr/bin/time", "-v", args.dsls, "check", "--isolated", "--format", "json", one], job=False)
             for _ in range(args.runs)]
    alone_seconds = statistics.median(r["seconds"] for r in alone)
    alone_mib = os.path.getsize(one) / 2**20
    seconds = statistics.median(r["seconds"] for r in runs)
    rss = max(r["rss_mib"] for r in runs)
    total_mib = first["bytes"] / 2**20
    section = (
        f"{TITLE}\n\n"
        f"`dsls check DIR` on {args.ranks} rank files of {args.mib} MiB each ({total_mib:,.0f} MiB in all, "
        "DeepSpeed's `--enable_each_rank_log` layout written by `tests/bench/gen_log.py --rank-files`): the files are "
        "read in parallel and merged by their timestamps into one analysis. The diagnosis is checked on every run "
        f"(`cuda-oom` on rank {first['rank']}, the other ranks' timeouts as collateral).\n\n"
        "| files | total | wall time (median of {runs}) | throughput | peak RSS (max) |\n"
        "|---|---|---|---|---|\n"
        f"| {args.ranks} × {args.mib} MiB | {total_mib:,.0f} MiB | {seconds:.1f} s | {total_mib / seconds:,.0f} MiB/s | "
        f"{rss:.0f} MiB |\n"
        f"| 1 × {args.mib} MiB (rank 0's file alone, as one log) | {alone_mib:,.0f} MiB | {alone_seconds:.1f} s | "
        f"{alone_mib / alone_seconds:,.0f} MiB/s | {max(r['rss_mib'] for r in alone):.0f} MiB |\n\n"
        f"The job's rate is {(total_mib / seconds) / (alone_mib / alone_seconds):.2f} times that of one rank file "
        "analysed alone: one analyser reads the merged lines, so the time goes to the per-line analysis, and reading, "
        "splitting and timestamp parsing run on the reader threads beside it.\n\n"
        "Peak RSS is GNU time's maximum resident set size of the whole process; memory is bounded by two line "
        "batches of 128 KiB queued per file and the analyser's capped state, not by the size of the files.\n\n"
        f"Command: `{args.command}`.\n\n"
    ).replace("{runs}", str(args.runs))
    write_section(args.doc, TITLE, section)
    print(json.dumps({"seconds": seconds, "rss_mib": rss, "mib": total_mib}))


if __name__ == "__main__":
    main()
