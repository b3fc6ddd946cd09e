#!/usr/bin/env python3
"""Large documents through the real server: time to first answer, request times, reply sizes, peak RSS.

Generates under --workdir (a build folder):
  - a JSON file that is not a ds_config (shaped like a Hugging Face tokenizer.json: a vocabulary
    object and a merges array), at 9.5 MiB and 48.5 MiB, named tokenizer.json;
  - the same two texts opening with two DeepSpeed keys and named zero_big.json, which the server
    analyses as ds_configs (by name and first keys; over 16 MiB, the JSON checks only);
  - a 50 MiB multi-rank training log (gen_log.py), opened as languageId "log".
Baselines measured in the same run: the server idle after initialize, and the 3 KB config
(tests/bench/fixtures/bench_ds_config.json) through the same requests.

Each session is a fresh server: initialize, didOpen, then documentSymbol, inlayHint (over the whole
document), documentLink and completion, one after another. Per document, the median over --runs
sessions of: didOpen -> first answer (the first publishDiagnostics or documentSymbol reply), each
request's time (sent -> reply) and reply size, and peak RSS (VmHWM from /proc/PID/status).
With --microbench, also the parse time of the 3 KB config (BM_JsonParse_Config3KB).

Writes its figures as JSON (--out) and its section of docs/benchmarks.md (--doc).

Usage: bigdoc_bench.py --dsls BUILD/lsp/dsls --workdir BUILD/bench-bigdocs [--runs 3] [--out F] [--doc F]
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import LspClient, now, path_uri  # noqa: E402
from report_sections import write_section  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG_FIXTURE = os.path.join(HERE, "fixtures", "bench_ds_config.json")
MIB = 1024 * 1024
REQUESTS = ("textDocument/documentSymbol", "textDocument/inlayHint", "textDocument/documentLink",
            "textDocument/completion")
SECTION = "## Large documents"


def tokenizer_json(target_bytes):
    """A tokenizer.json-like text of about `target_bytes`: most of it a vocabulary, the rest merges."""
    parts = ['{\n  "version": "1.0",\n  "truncation": null,\n  "padding": null,\n  "model": {\n'
             '    "type": "BPE",\n    "dropout": null,\n    "vocab": {\n']
    size = len(parts[0])
    vocab_bytes = target_bytes * 3 // 5
    i = 0
    while size < vocab_bytes:
        line = '      "\\u0120tok%x%s": %d,\n' % (i, "ab"[i % 2] * (i % 7), i)
        parts.append(line)
        size += len(line)
        i += 1
    last = '      "<|endoftext|>": %d\n    },\n    "merges": [\n' % i
    parts.append(last)
    size += len(last)
    j = 0
    while size < target_bytes - 32:
        line = '      "\\u0120t ok%x",\n' % j
        parts.append(line)
        size += len(line)
        j += 1
    parts.append('      "e nd"\n    ]\n  }\n}\n')
    return "".join(parts)


def as_ds_config(text):
    """The same text opening with two DeepSpeed keys: a ds_config by its name and its first keys."""
    return '{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 2},' + text[1:]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def make_inputs(workdir):
    """(label, path, languageId) of every document, generated when missing."""
    docs = [("3 KB config (baseline)", CONFIG_FIXTURE, "json")]
    for mib in (9.5, 48.5):
        text = None
        for sub, name, what in (("plain", "tokenizer.json", "JSON, not a ds_config"),
                                ("ds-config", "zero_big.json", "ds_config named zero_big.json")):
            path = os.path.join(workdir, f"{sub}-{mib}m", name)
            if not os.path.exists(path):
                text = text or tokenizer_json(int(mib * MIB))
                write(path, text if sub == "plain" else as_ds_config(text))
            docs.append((f"{mib} MiB {what}", path, "json"))
    log = os.path.join(workdir, "log-50m", "train.log")
    if not os.path.exists(log):
        os.makedirs(os.path.dirname(log), exist_ok=True)
        subprocess.run([sys.executable, os.path.join(HERE, "gen_log.py"), log, "--mib", "50"], check=True,
                       stdout=subprocess.DEVNULL)
    docs.append(("50 MiB training log", log, "log"))
    return docs


def start(dsls, workdir):
    client = LspClient([dsls], cwd=workdir)
    rid = client.request_async("initialize", {
        "processId": os.getpid(), "rootUri": path_uri(workdir), "workspaceFolders": None,
        "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True},
                                          "completion": {"completionItem": {"snippetSupport": True}},
                                          "documentSymbol": {"hierarchicalDocumentSymbolSupport": True}},
                         "workspace": {"configuration": False}, "general": {"positionEncodings": ["utf-16"]}}})
    _, reply = client.wait_response(rid, timeout=60)
    if "result" not in reply:
        raise RuntimeError(f"initialize failed: {reply}")
    client.notify("initialized", {})
    return client


def request_params(method, uri, text):
    doc = {"uri": uri}
    if method == "textDocument/inlayHint":
        lines = text.count("\n")
        return {"textDocument": doc, "range": {"start": {"line": 0, "character": 0},
                                               "end": {"line": lines + 1, "character": 0}}}
    if method == "textDocument/completion":
        # Inside the first key of the document (line 1, just after its opening quote).
        return {"textDocument": doc, "position": {"line": 1, "character": 3}}
    return {"textDocument": doc}


def session(dsls, workdir, label, path, language):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    client = start(dsls, workdir)
    figures = {"document": label, "bytes": len(text.encode("utf-8"))}
    try:
        uri = path_uri(path)
        data = client.encode({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                              "params": {"textDocument": {"uri": uri, "languageId": language, "version": 1,
                                                          "text": text}}})
        sent = now()
        client.write_raw(data)
        first_answer = None
        for method in REQUESTS:
            start_s = now()
            rid = client.request_async(method, request_params(method, uri, text))
            stamp, reply = client.wait_response(rid, timeout=600)
            if "error" in reply:
                raise RuntimeError(f"{label}: {method} failed: {reply['error']}")
            short = method.split("/")[1]
            figures[f"{short}_ms"] = (stamp - start_s) * 1e3
            figures[f"{short}_bytes"] = client.reply_bytes.get(rid, 0)
            if first_answer is None:
                first_answer = stamp
        # The first answer is whichever came first: diagnostics or the outline.
        try:
            diag_stamp, _ = client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                            and m["params"]["uri"] == uri, timeout=5)
            first_answer = min(first_answer, diag_stamp)
        except TimeoutError:
            pass
        figures["first_answer_ms"] = (first_answer - sent) * 1e3
        try:
            client.wait_for(lambda m: m.get("method") == "window/showMessage", timeout=0.2)
            figures["size_notice"] = 1
        except TimeoutError:
            figures["size_notice"] = 0
        figures["peak_rss_mib"] = client.peak_rss_kib() / 1024.0
    finally:
        client.shutdown()
    return figures


def idle_session(dsls, workdir):
    client = start(dsls, workdir)
    try:
        time.sleep(0.2)
        return {"document": "idle server (baseline)", "peak_rss_mib": client.peak_rss_kib() / 1024.0}
    finally:
        client.shutdown()


def medians(rows):
    out = {"document": rows[0]["document"]}
    for key in rows[0]:
        if key != "document":
            out[key] = statistics.median(r[key] for r in rows)
    return out


def microbench_3kb(binary, reps):
    """CPU time per parse of the 3 KB config, in microseconds (the median of `reps` repetitions)."""
    proc = subprocess.run([binary, "--benchmark_filter=BM_JsonParse_Config3KB$", f"--benchmark_repetitions={reps}",
                           "--benchmark_report_aggregates_only=true", "--benchmark_format=json"],
                          check=True, capture_output=True, text=True)
    for b in json.loads(proc.stdout)["benchmarks"]:
        if b.get("aggregate_name") == "median" or (reps == 1 and b["name"] == "BM_JsonParse_Config3KB"):
            scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3}[b["time_unit"]]
            return b["cpu_time"] * scale
    return None


def fmt_ms(v):
    if v is None:
        return ""
    return f"{v / 1000:.2f} s" if v >= 1000 else f"{v:.1f} ms" if v >= 10 else f"{v:.2f} ms"


def fmt_bytes(v):
    if v >= MIB:
        return f"{v / MIB:.1f} MiB"
    if v >= 1024:
        return f"{v / 1024:.1f} KiB"
    return f"{int(v)} B"


def target_mib(row):
    """The peak RSS a document may reach: 4x the file + 20 MB for a ds_config, 2x + 20 MB for a log
    and for JSON that is not a ds_config (classified by a scan, not a tree)."""
    factor = 2 if row["document"].endswith("log") or "not a ds_config" in row["document"] else 4
    return (factor * row["bytes"] + 20e6) / MIB


def render(results, command):
    rows = results["documents"]
    lines = [SECTION, "",
             f"Date: {results['date']}. Machine: {results['machine']}; load average {results['load']:.1f} at the "
             f"start. {results['version']}. Each document opened in a fresh server, {results['runs']} sessions "
             "per document, medians given. A request's time runs from sending it to its reply; the first "
             "request (documentSymbol) is sent right after didOpen, so its time includes the analysis. "
             "Peak RSS is the server's VmHWM at the end of the session. The JSON files are shaped like a "
             "Hugging Face tokenizer.json (a vocabulary object, a merges array); the ds_config rows are the same "
             "text opening with two DeepSpeed keys, named `zero_big.json` (the tokenizer text alone under that "
             "name is not a ds_config by its keys). Target: peak RSS at most 4x the file + 20 MB for a ds_config, "
             "2x + 20 MB for JSON that is not one and for a log.", "",
             "| document | didOpen -> first answer | documentSymbol | inlayHint | documentLink | completion "
             "| peak RSS | peak RSS / file size | target |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        if "bytes" not in r:
            lines.append(f"| {r['document']} | | | | | | {r['peak_rss_mib']:.1f} MiB | |")
            continue
        cells = [f"{fmt_ms(r[m.split('/')[1] + '_ms'])} ({fmt_bytes(r[m.split('/')[1] + '_bytes'])})"
                 for m in REQUESTS]
        # Against a small file the ratio only measures the server's own size.
        ratio = f"{r['peak_rss_mib'] * MIB / r['bytes']:.1f}" if r["bytes"] >= MIB else ""
        notice = ", size notice shown" if r.get("size_notice") else ""
        target = ""
        if r["bytes"] >= MIB:
            limit = target_mib(r)
            target = f"{'within' if r['peak_rss_mib'] <= limit else 'over'} {limit:.0f} MiB"
        lines.append(f"| {r['document']} ({fmt_bytes(r['bytes'])}{notice}) | {fmt_ms(r['first_answer_ms'])} | "
                     + " | ".join(cells) + f" | {r['peak_rss_mib']:.1f} MiB | {ratio} | {target} |")
    lines.append("")
    big = [r for r in rows if r.get("bytes", 0) >= 40 * MIB]
    if big:
        slowest = max((r[m.split("/")[1] + "_ms"], r["document"], m) for r in big for m in REQUESTS[1:])
        lines.append(f"Slowest request after the first analysis on the files over 40 MiB: {slowest[2]} on the "
                     f"{slowest[1]}, {fmt_ms(slowest[0])}.")
    lines.append("Request cells give the time and, in parentheses, the size of the reply's JSON body.")
    if results.get("parse_3kb_us") is not None:
        lines.append(f"Parse of the 3 KB config (BM_JsonParse_Config3KB, CPU time, median): "
                     f"{results['parse_3kb_us']:.1f} µs.")
    lines += ["", f"Rerun: `{command}`.", "", ""]
    return "\n".join(lines)


def render_comparison(before, after):
    """Before/after rows for documents measured in both runs (--before: an earlier run's --out file)."""
    old = {r["document"]: r for r in before["documents"]}
    lines = ["", f"Before and after, against the figures of {before['date']} ({before['version']}, "
             f"{before['runs']} session(s) per document):", "",
             "| document | first answer before | after | documentSymbol before | after | peak RSS before | after |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in after["documents"]:
        b = old.get(r["document"])
        if not b or "bytes" not in r:
            continue
        lines.append(f"| {r['document']} | {fmt_ms(b['first_answer_ms'])} | {fmt_ms(r['first_answer_ms'])} | "
                     f"{fmt_ms(b['documentSymbol_ms'])} ({fmt_bytes(b['documentSymbol_bytes'])}) | "
                     f"{fmt_ms(r['documentSymbol_ms'])} ({fmt_bytes(r['documentSymbol_bytes'])}) | "
                     f"{b['peak_rss_mib']:.1f} MiB | {r['peak_rss_mib']:.1f} MiB |")
    if before.get("parse_3kb_us") is not None and after.get("parse_3kb_us") is not None:
        lines += ["", f"Parse of the 3 KB config: {before['parse_3kb_us']:.1f} µs before, "
                      f"{after['parse_3kb_us']:.1f} µs after."]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dsls", required=True)
    ap.add_argument("--workdir", required=True, help="where the generated documents go (a build folder)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--microbench", help="dsls_microbench binary, for the 3 KB parse time")
    ap.add_argument("--out")
    ap.add_argument("--doc", help="the Markdown report whose section to rewrite")
    ap.add_argument("--command", default="tests/bench/bigdoc_bench.py")
    ap.add_argument("--before", help="an earlier run's --out file, for a before/after table")
    args = ap.parse_args()
    dsls = os.path.abspath(args.dsls)
    workdir = os.path.abspath(args.workdir)
    os.makedirs(workdir, exist_ok=True)
    docs = make_inputs(workdir)
    version = subprocess.run([dsls, "--version"], capture_output=True, text=True).stdout.strip()
    results = {"date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
               "machine": f"{platform.machine()}, {os.cpu_count()} cores, Linux {platform.release()}",
               "load": os.getloadavg()[0], "version": version or "unknown", "runs": args.runs, "documents": []}
    results["documents"].append(medians([idle_session(dsls, workdir) for _ in range(args.runs)]))
    for label, path, language in docs:
        print(f"bigdoc: {label}", file=sys.stderr)
        results["documents"].append(medians([session(dsls, workdir, label, path, language)
                                             for _ in range(args.runs)]))
    if args.microbench:
        results["parse_3kb_us"] = microbench_3kb(args.microbench, max(args.runs, 3))
    section = render(results, args.command)
    if args.before:
        with open(args.before) as f:
            comparison = render_comparison(json.load(f), results)
        section = section.replace("\nRerun: ", comparison + "\nRerun: ", 1)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=2)
    if args.doc:
        write_section(args.doc, SECTION, section)
    print(section)


if __name__ == "__main__":
    main()
