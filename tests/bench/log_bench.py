#!/usr/bin/env python3
"""Log analysis throughput: `dsls check` on a generated multi-rank log, next to
`grep -c -E` and `rg -c` searching the same file for the same fingerprints.

The fingerprints are read from analysis/logs/fingerprint_table.inc (its RE2 patterns), so the
comparison follows the analyser as it changes. rg takes them as written; grep gets them
translated to POSIX ERE (\\d -> [0-9], (?: and (?P<name> -> (, lazy quantifiers made greedy, which
changes what a group captures but not which lines match). grep runs with LC_ALL=C, as
the analyser matches bytes. Each tool runs `--runs` times on a warm page cache; the
median wall time and the peak RSS (from wait4) are reported.

Usage: log_bench.py --dsls BUILD/lsp/dsls --log /tmp/x.log --out results.json
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FINGERPRINTS = os.path.join(ROOT, "analysis", "logs", "fingerprint_table.inc")


def fingerprint_patterns():
    with open(FINGERPRINTS, encoding="utf-8") as f:
        source = f.read()
    # Every raw string R"(...)" in the table is one pattern.
    patterns = re.findall(r'R"\((.*?)\)"', source, flags=re.S)
    if len(patterns) < 20:
        raise SystemExit(f"found only {len(patterns)} patterns in {FINGERPRINTS}; has its layout changed?")
    return patterns


CLASS_INSIDE = {"d": "0-9", "w": "[:alnum:]_", "s": "[:space:]"}
CLASS_OUTSIDE = {"d": "[0-9]", "w": "[[:alnum:]_]", "s": "[[:space:]]", "S": "[^[:space:]]", "W": "[^[:alnum:]_]"}


def to_ere(pattern):
    """RE2 syntax -> POSIX ERE for GNU grep (the subset the fingerprints use)."""
    out = []
    i = 0
    in_bracket = False
    while i < len(pattern):
        c = pattern[i]
        if in_bracket:
            if c == "\\" and i + 1 < len(pattern):
                n = pattern[i + 1]
                if n in CLASS_INSIDE:
                    out.append(CLASS_INSIDE[n])
                elif n == "]":
                    out.insert(bracket_start + 1, "]")  # a literal ] must come first in a POSIX bracket
                else:
                    out.append(n)
                i += 2
                continue
            if c == "]" and i > bracket_open_end:
                in_bracket = False
            out.append(c)
            i += 1
            continue
        if c == "[":
            in_bracket = True
            bracket_start = len(out)
            out.append(c)
            i += 1
            if i < len(pattern) and pattern[i] == "^":
                out.append("^")
                i += 1
            bracket_open_end = i  # a ] right here would be literal
            continue
        if pattern.startswith("(?:", i):
            out.append("(")
            i += 3
            continue
        named = re.match(r"\(\?P<\w+>", pattern[i:])
        if named:  # a named group is a plain group in ERE
            out.append("(")
            i += named.end()
            continue
        if c == "\\" and i + 1 < len(pattern):
            n = pattern[i + 1]
            out.append(CLASS_OUTSIDE.get(n, "\\" + n))
            i += 2
            continue
        if c == "?" and out and out[-1] in ("*", "+", "?", "}"):
            i += 1  # lazy -> greedy
            continue
        out.append(c)
        i += 1
    return "".join(out)


def run_measured(argv, env=None):
    """(wall seconds, peak RSS MiB, exit code, stdout) of one run.

    The peak RSS comes from GNU time: a child forked from this Python process would
    report Python's own size as its peak (the kernel keeps the pre-exec high-water mark),
    while GNU time's is a megabyte or two.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        start = time.perf_counter()
        proc = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name] + argv, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=env)
        wall = time.perf_counter() - start
        lines = [line for line in rss.read().splitlines() if line.strip().isdigit()]
    peak_kib = int(lines[-1]) if lines else 0
    return wall, peak_kib / 1024.0, proc.returncode, proc.stdout


def warm(path):
    with open(path, "rb") as f:
        while f.read(1 << 24):
            pass


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dsls", required=True)
    ap.add_argument("--log", required=True, help="the generated log (gen_log.py)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    if not os.path.exists("/usr/bin/time"):
        raise SystemExit("log_bench: GNU time (/usr/bin/time, Debian package time) is required")

    size = os.path.getsize(args.log)
    patterns = fingerprint_patterns()
    work = tempfile.mkdtemp(prefix="dsls-bench-log-")
    rg_file = os.path.join(work, "fingerprints.rg")
    ere_file = os.path.join(work, "fingerprints.ere")
    with open(rg_file, "w") as f:
        f.write("\n".join(patterns) + "\n")
    with open(ere_file, "w") as f:
        f.write("\n".join(to_ere(p) for p in patterns) + "\n")

    c_env = dict(os.environ, LC_ALL="C")
    tools = {
        "dsls": [args.dsls, "check", "--isolated", "--format", "json", args.log],
        "grep": ["grep", "-c", "-E", "-f", ere_file, args.log],
        "rg": [shutil.which("rg") or "rg", "--no-config", "-c", "-f", rg_file, args.log],
    }
    warm(args.log)
    results = {}
    for name, argv in tools.items():
        runs = []
        for _ in range(args.runs):
            wall, rss, code, out = run_measured(argv, env=c_env if name == "grep" else None)
            if name != "dsls" and code not in (0, 1):
                raise SystemExit(f"{name} failed with exit code {code}: {' '.join(argv)}")
            if name == "dsls" and code not in (0, 1):
                raise SystemExit(f"dsls check failed with exit code {code}")
            runs.append({"seconds": wall, "peak_rss_mib": rss, "exit": code,
                         "output": out.decode("utf-8", "replace").strip()[:200] if name != "dsls" else ""})
            print(f"{name}: {wall:.2f}s, {size / wall / 1e6:.0f} MB/s, peak RSS {rss:.1f} MiB", file=sys.stderr)
        seconds = statistics.median(r["seconds"] for r in runs)
        results[name] = {"runs": runs, "median_seconds": seconds, "mb_per_s": size / seconds / 1e6,
                         "peak_rss_mib": statistics.median(r["peak_rss_mib"] for r in runs),
                         "command": " ".join(os.path.basename(a) if a.startswith(work) or a == argv[0]
                                             else a for a in argv)}
    if results["grep"]["runs"][0]["output"] != results["rg"]["runs"][0]["output"]:
        print("note: grep and rg count different numbers of matching lines: "
              f"{results['grep']['runs'][0]['output']} vs {results['rg']['runs'][0]['output']}", file=sys.stderr)
    result = {"date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "log_bytes": size, "patterns": len(patterns),
              "runs": args.runs, "tools": results,
              "matching_lines": {"grep": results["grep"]["runs"][0]["output"],
                                 "rg": results["rg"]["runs"][0]["output"]}}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
