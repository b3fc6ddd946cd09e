#!/usr/bin/env python3
"""LSP latency of dsls next to vscode-json-language-server, driven by one harness.

Each server runs `--runs` push sessions and `--runs` pull sessions on the same inputs:
  push: spawn -> initialize reply; didOpen -> first publishDiagnostics (3 KB config);
        1,000 hovers and 1,000 completions (median, p99); didChange -> publishDiagnostics
        on the 3 KB config and on a 5 MB config; peak RSS (VmHWM) at the end.
  pull: didChange -> textDocument/diagnostic reply (what the analysis itself costs,
        without either server's push debounce).
Writes a JSON file of per-session figures and their medians.

Usage: lsp_bench.py --dsls BUILD/lsp/dsls --peer NODE_MODULES/.bin/... --out results.json
"""
import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import LspClient, now, path_uri  # noqa: E402
from render_report import lsp_section  # noqa: E402
from report_sections import write_section  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG_FIXTURE = os.path.join(HERE, "fixtures", "bench_ds_config.json")
BIG_TARGET_BYTES = 5 * 1024 * 1024


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, int(round(p / 100.0 * (len(ordered) - 1)))))
    return ordered[k]


def make_big_config(text):
    """The 3 KB config plus one extra top-level array that takes the file to 5 MB."""
    closing = text.rstrip().rfind("}")
    head = text[:closing].rstrip() + ',\n    "train_data_manifest": [\n'
    rows = []
    size = len(head)
    i = 0
    while size < BIG_TARGET_BYTES - 64:
        row = ('        {"shard": %d, "path": "s3://corpus/tokenized/shard-%06d.bin", '
               '"num_samples": %d, "tokens": %d, "checksum": "%032x"}' % (i, i, 4096 + i % 977, 8388608 + i * 13,
                                                                           (i * 2654435761) % (1 << 128)))
        rows.append(row)
        size += len(row) + 2
        i += 1
    return head + ",\n".join(rows) + "\n    ]\n}\n"


def key_positions(text):
    """(line, character) just inside each key's opening quote: where hovers and completions land."""
    out = []
    for number, line in enumerate(text.split("\n")):
        m = re.match(r'\s*"([A-Za-z0-9_]+)"\s*:', line)
        if m:
            out.append((number, m.start(1)))
    return out


def stage_edit(text, value):
    """A didChange that sets zero_optimization.stage to `value` (a one-character replacement)."""
    for number, line in enumerate(text.split("\n")):
        m = re.match(r'(\s*"stage":\s*)(\d)', line)
        if m:
            return {"range": {"start": {"line": number, "character": m.end(1)},
                              "end": {"line": number, "character": m.end(2)}},
                    "text": str(value)}
    raise ValueError("the config has no stage key")


def capabilities(pull):
    td = {
        "synchronization": {"didSave": False, "dynamicRegistration": False},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        # vscode-json-language-server offers completion only to clients that take snippets.
        "completion": {"completionItem": {"snippetSupport": True, "documentationFormat": ["markdown"]}},
        "publishDiagnostics": {"versionSupport": True},
    }
    if pull:
        td["diagnostic"] = {"dynamicRegistration": False, "relatedDocumentSupport": False}
    return {"textDocument": td, "workspace": {"configuration": False}, "general": {"positionEncodings": ["utf-16"]}}


class Subject:
    """How to start one server and make it see the ds_config schema."""

    def __init__(self, name, argv, schema_path, workdir):
        self.name, self.argv, self.schema_path, self.workdir = name, argv, schema_path, workdir

    def initialization_options(self):
        return {"provideFormatter": False} if self.name == "peer" else {}

    def after_initialized(self, client):
        if self.name != "peer":
            return
        client.notify("workspace/didChangeConfiguration", {"settings": {"json": {"validate": {"enable": True}}}})
        # The params are positional: one argument, the list of associations.
        client.notify("json/schemaAssociations",
                      [[{"fileMatch": ["*ds_config*.json"], "uri": path_uri(self.schema_path)}]])

    def check_schema(self, client, uri):
        """Fails unless the peer validates `uri` against the ds_config schema."""
        if self.name != "peer":
            return
        _, reply = client.request("json/languageStatus", uri)
        if path_uri(self.schema_path) not in reply.get("result", {}).get("schemas", []):
            raise RuntimeError(f"the peer did not associate the schema with {uri}: {reply}")


def start(subject, pull):
    client = LspClient(subject.argv, cwd=subject.workdir)
    start_time = client.spawned_at
    rid = client.request_async("initialize", {
        "processId": os.getpid(), "rootUri": path_uri(subject.workdir), "capabilities": capabilities(pull),
        "initializationOptions": subject.initialization_options(), "workspaceFolders": None})
    stamp, reply = client.wait_response(rid, timeout=60)
    if "result" not in reply:
        raise RuntimeError(f"{subject.name}: initialize failed: {reply}")
    client.notify("initialized", {})
    subject.after_initialized(client)
    return client, stamp - start_time


def diagnostics_for(uri, version=None):
    def match(m):
        if m.get("method") != "textDocument/publishDiagnostics" or m["params"]["uri"] != uri:
            return False
        got = m["params"].get("version")
        return version is None or got is None or got == version
    return match


def open_doc(client, uri, text, version=1):
    """Sends didOpen; returns when the first byte went out (serialising is the harness's cost)."""
    data = client.encode({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                          "params": {"textDocument": {"uri": uri, "languageId": "json", "version": version,
                                                      "text": text}}})
    sent = now()
    client.write_raw(data)
    return sent


def push_session(subject, config_text, big_text, requests):
    client, init_s = start(subject, pull=False)
    figures = {"initialize_ms": init_s * 1e3}
    try:
        uri = path_uri(os.path.join(subject.workdir, "bench_ds_config.json"))
        sent = open_doc(client, uri, config_text)
        stamp, first = client.wait_for(diagnostics_for(uri), timeout=60)
        figures["open_to_diagnostics_ms"] = (stamp - sent) * 1e3
        figures["diagnostics_on_open"] = len(first["params"]["diagnostics"])
        subject.check_schema(client, uri)

        positions = key_positions(config_text)
        for method, key in (("textDocument/hover", "hover"), ("textDocument/completion", "completion")):
            latencies, empty = [], 0
            for i in range(requests):
                line, character = positions[i % len(positions)]
                seconds, reply = client.request(method, {"textDocument": {"uri": uri},
                                                         "position": {"line": line, "character": character}})
                result = reply.get("result")
                items = result.get("items", result) if isinstance(result, dict) and key == "completion" else result
                if not items:
                    empty += 1
                latencies.append(seconds * 1e3)
            figures[f"{key}_median_ms"] = statistics.median(latencies)
            figures[f"{key}_p99_ms"] = percentile(latencies, 99)
            figures[f"{key}_empty_replies"] = empty
        client.drain(0.7)
        client.clear_backlog()

        figures["change_to_diagnostics_ms"] = change_loop(client, uri, config_text, edits=10)

        big_uri = path_uri(os.path.join(subject.workdir, "big_ds_config.json"))
        sent = open_doc(client, big_uri, big_text)
        stamp, _ = client.wait_for(diagnostics_for(big_uri), timeout=300)
        figures["big_open_to_diagnostics_ms"] = (stamp - sent) * 1e3
        client.drain(0.7)
        client.clear_backlog()
        figures["big_change_to_diagnostics_ms"] = change_loop(client, big_uri, big_text, edits=5)
        figures["peak_rss_mib"] = client.peak_rss_kib() / 1024.0
    finally:
        client.shutdown()
    return figures


def change_loop(client, uri, text, edits):
    """Median ms from a didChange to the diagnostics published for it."""
    times = []
    version = 1
    for i in range(edits):
        version += 1
        change = stage_edit(text, 2 if i % 2 == 0 else 3)
        sent = now()
        client.notify("textDocument/didChange",
                      {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        stamp, _ = client.wait_for(diagnostics_for(uri, version), timeout=300)
        times.append((stamp - sent) * 1e3)
        client.drain(0.05)
        client.clear_backlog()
    return statistics.median(times)


def pull_session(subject, config_text, big_text):
    client, _ = start(subject, pull=True)
    figures = {}
    try:
        for key, name, text, edits in (("pull_change_ms", "bench_ds_config.json", config_text, 20),
                                       ("big_pull_change_ms", "big_ds_config.json", big_text, 5)):
            uri = path_uri(os.path.join(subject.workdir, name))
            open_doc(client, uri, text)
            client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=300)
            times = []
            for i in range(edits):
                change = stage_edit(text, 2 if i % 2 == 0 else 3)
                sent = now()
                client.notify("textDocument/didChange",
                              {"textDocument": {"uri": uri, "version": i + 2}, "contentChanges": [change]})
                rid = client.request_async("textDocument/diagnostic", {"textDocument": {"uri": uri}})
                stamp, reply = client.wait_response(rid, timeout=300)
                if "result" not in reply:
                    raise RuntimeError(f"{subject.name}: diagnostic pull failed: {reply}")
                times.append((stamp - sent) * 1e3)
            figures[key] = statistics.median(times)
    finally:
        client.shutdown()
    return figures


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem_kib = 0
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                mem_kib = int(line.split()[1])
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_gib": round(mem_kib / 1048576, 1),
            "kernel": platform.release(), "load_average_at_start": os.getloadavg()[0]}


def versions(args):
    dsls = subprocess.run([args.dsls, "--version"], capture_output=True, text=True).stdout.strip()
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    with open(os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(args.peer_script))), "package.json")) as f:
        peer = "vscode-langservers-extracted " + json.load(f)["version"]
    return {"dsls": dsls, "peer": peer, "node": node}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dsls", required=True)
    ap.add_argument("--peer-script", required=True, help="vscode-json-language-server's bin script")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--out", required=True)
    ap.add_argument("--doc", help="rewrite this report's LSP section alone (tests/bench/run.sh rewrites all)")
    args = ap.parse_args()
    args.dsls = os.path.abspath(args.dsls)  # the servers run in a scratch directory
    args.peer_script = os.path.abspath(args.peer_script)

    with open(CONFIG_FIXTURE) as f:
        config_text = f.read()
    big_text = make_big_config(config_text)
    workdir = tempfile.mkdtemp(prefix="dsls-bench-lsp-")
    schema_path = os.path.join(workdir, "ds_config.schema.json")
    with open(schema_path, "w") as f:
        subprocess.run([args.dsls, "schema"], stdout=f, check=True)

    subjects = [Subject("dsls", [args.dsls, "--log-level", "error"], schema_path, workdir),
                Subject("peer", ["node", args.peer_script, "--stdio"], schema_path, workdir)]
    sessions = {s.name: [] for s in subjects}
    for run in range(args.runs):
        for s in subjects:  # alternate so that drifting machine load hits both alike
            figures = push_session(s, config_text, big_text, args.requests)
            figures.update(pull_session(s, config_text, big_text))
            sessions[s.name].append(figures)
            print(f"run {run + 1}/{args.runs} {s.name}: " +
                  ", ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in figures.items()),
                  file=sys.stderr, flush=True)

    medians = {name: {k: statistics.median(f[k] for f in runs) for k in runs[0]} for name, runs in sessions.items()}
    result = {"date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "machine": machine(), "versions": versions(args),
              "runs": args.runs, "requests": args.requests, "config_bytes": len(config_text.encode()),
              "big_bytes": len(big_text.encode()), "sessions": sessions, "medians": medians}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    if args.doc:
        section = lsp_section(result)
        section.insert(2, f"Date: {result['date']}; load average {result['machine']['load_average_at_start']:.1f} "
                          "when the runs began.")
        section.insert(3, "")
        write_section(args.doc, section[0], "\n".join(section) + "\n")


if __name__ == "__main__":
    main()
