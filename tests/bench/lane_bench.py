#!/usr/bin/env python3
"""Hover latency alone and while folder diagnoses run, in the same server session.

  lane_bench.py DSLS_BINARY [--workdir DIR] [--hovers 15] [--files 8] [--lines 140000] [--jobs 3]

Writes a run folder of --files DeepSpeed rank files (gen_log.py lines, about 48 MB for the
defaults) under --workdir (a build folder), opens a ds_config and hovers it --hovers times
(the baseline); then starts --jobs dsls.diagnoseFolder requests on that folder and, while they
run, reopens the config (a fresh analysis) and hovers it again each time. Prints the first,
the median and the slowest of each, in milliseconds: didOpen -> hover answered. The first hover
after the jobs start is the one a shared pool made wait for them.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(__file__))
from lsp_client import LspClient, now, path_uri  # noqa: E402

CONFIG = '{"train_batch_size": 8, "zero_optimization": {"stage": 2}}'


def write_folder(folder, files, lines):
    os.makedirs(folder, exist_ok=True)
    text = "".join(f"[rank{i % 8}]: step {i} loss 2.{i % 97:02d} grad_norm 1.{i % 89:02d}\n" for i in range(lines))
    for r in range(files):
        with open(os.path.join(folder, f"20241206140012_rank{r}.log"), "w") as f:
            f.write(text)
    return len(text) * files


def open_and_hover(client, version):
    uri = "file:///bench/ds_config.json"
    start = now()
    if version > 1:
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": version, "text": CONFIG}})
    rid = client.request_async("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 3}})
    stamp, _ = client.wait_response(rid)
    return (stamp - start) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--workdir", default="bench-work")
    ap.add_argument("--hovers", type=int, default=15)
    ap.add_argument("--files", type=int, default=8)
    ap.add_argument("--lines", type=int, default=140000)
    ap.add_argument("--jobs", type=int, default=3)
    a = ap.parse_args()
    folder = os.path.abspath(os.path.join(a.workdir, "lane-bench-run"))
    size = write_folder(folder, a.files, a.lines)
    client = LspClient([a.binary])
    client.request("initialize", {"capabilities": {}})
    client.notify("initialized", {})
    alone = [open_and_hover(client, v) for v in range(1, a.hovers + 1)]
    start = now()
    jobs = [client.request_async("workspace/executeCommand", {"command": "dsls.diagnoseFolder", "arguments": [{"uri": path_uri(folder)}]})
            for _ in range(a.jobs)]
    during = [open_and_hover(client, v) for v in range(a.hovers + 1, 2 * a.hovers + 1)]
    for rid in jobs:
        client.wait_response(rid, timeout=600)
    jobs_s = now() - start
    client.shutdown()
    print(f"folder: {a.files} rank files, {size / 1e6:.0f} MB; {a.jobs} folder diagnoses took {jobs_s:.2f} s")
    for name, times in (("alone", alone), ("during the folder diagnoses", during)):
        print(f"hover {name}: first {times[0]:.2f} ms, median {statistics.median(times):.2f} ms, "
              f"max {max(times):.2f} ms ({len(times)} hovers)")


if __name__ == "__main__":
    main()
