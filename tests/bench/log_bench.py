#!/usr/bin/env python3
"""Log analysis throughput: `dsls check` on generated multi-rank logs, next to `grep -c -E` and
`rg -c` searching the same file for the same fingerprints, measured in the same run.

Logs (tests/bench/gen_log.py): the typical one (--log); with --error-log, the error-heavy one
(--shape error-heavy: every third line the same watchdog timeout); with --mixed-log, the
mixed-prefix one (--shape mixed-prefix: every third line a watchdog timeout from 8 ranks under
three line prefixes), on which grep also runs with eleven plain literals of the fingerprints
(GREP_LITERALS, each checked to occur in the fingerprint table): the floor a line filter sets.

The fingerprints are read from analysis/logs/fingerprints/fingerprint_table.inc (its RE2 patterns), so the
comparison follows the analyser as it changes. rg takes them as written (named groups made
plain: rg joins the patterns into one regex, where a name may occur once); grep gets them
translated to POSIX ERE (\\d -> [0-9], (?: and (?P<name> -> (, lazy quantifiers made greedy, which
changes what a group captures but not which lines match). grep runs with LC_ALL=C, as
the analyser matches bytes. Each tool runs `--runs` times on a warm page cache; the
median wall time, the median CPU time (user + system) and the peak RSS are reported.
With --doc, the section "## Log analysis throughput" of that Markdown file is rewritten.

Usage: log_bench.py --dsls BUILD/lsp/dsls --log /tmp/x.log [--error-log /tmp/e.log] --out results.json [--doc F]
                    [--baseline OTHER/dsls --baseline-name COMMIT]
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
sys.path.insert(0, HERE)
from report_sections import write_section  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
FINGERPRINTS = os.path.join(ROOT, "analysis", "logs", "fingerprints", "fingerprint_table.inc")


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
    """(wall seconds, CPU seconds, peak RSS MiB, exit code, stdout) of one run.

    CPU time and peak RSS come from GNU time: a child forked from this Python process would
    report Python's own size as its peak (the kernel keeps the pre-exec high-water mark),
    while GNU time's is a megabyte or two.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        start = time.perf_counter()
        proc = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", rss.name] + argv, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=env)
        wall = time.perf_counter() - start
        fields = [line.split() for line in rss.read().splitlines()]
        fields = [f for f in fields if len(f) == 3]
    user, system, peak_kib = (float(fields[-1][0]), float(fields[-1][1]), int(fields[-1][2])) if fields else (0, 0, 0)
    return wall, user + system, peak_kib / 1024.0, proc.returncode, proc.stdout


def warm(path):
    with open(path, "rb") as f:
        while f.read(1 << 24):
            pass


def literal_file(work):
    """GREP_LITERALS as an ERE pattern file, after checking each is in the fingerprint table."""
    with open(FINGERPRINTS, encoding="utf-8") as f:
        table = f.read()
    for literal in GREP_LITERALS:
        if literal not in table:
            raise SystemExit(f"log_bench: {literal!r} is no longer in {FINGERPRINTS}")
    path = os.path.join(work, "literals.ere")
    with open(path, "w") as f:
        f.write("\n".join(GREP_LITERALS) + "\n")
    return path


def measure_log(dsls, log, runs, ere_file, rg_file, work, baseline=None, literals=None):
    """Runs the tools on one log, alternating them run by run so drifting load hits all alike.

    With `baseline` (another dsls binary), it runs in the same alternation as "dsls-baseline".
    """
    size = os.path.getsize(log)
    c_env = dict(os.environ, LC_ALL="C")
    tools = {"dsls": [dsls, "check", "--isolated", "--format", "json", log]}
    if baseline:
        tools["dsls-baseline"] = [baseline, "check", "--isolated", "--format", "json", log]
    tools.update({
        "grep": ["grep", "-c", "-E", "-f", ere_file, log],
        "rg": [shutil.which("rg") or "rg", "--no-config", "-c", "-f", rg_file, log],
    })
    if literals:
        tools["grep-literals"] = ["grep", "-c", "-E", "-f", literals, log]
    warm(log)
    runs_of = {name: [] for name in tools}
    for _ in range(runs):
        for name, argv in tools.items():
            wall, cpu, rss, code, out = run_measured(argv, env=c_env if name.startswith("grep") else None)
            if code not in (0, 1):
                raise SystemExit(f"{name} failed with exit code {code}: {' '.join(argv)}")
            runs_of[name].append({"seconds": wall, "cpu_seconds": cpu, "peak_rss_mib": rss, "exit": code,
                                  "output": out.decode("utf-8", "replace").strip()[:200] if name in ("grep", "rg") else ""})
            print(f"{os.path.basename(log)} {name}: {wall:.2f}s wall, {cpu:.2f}s CPU, {size / wall / 1e6:.0f} MB/s, "
                  f"peak RSS {rss:.1f} MiB", file=sys.stderr)
    results = {}
    for name, argv in tools.items():
        runs_ = runs_of[name]
        seconds = statistics.median(r["seconds"] for r in runs_)
        cpu = statistics.median(r["cpu_seconds"] for r in runs_)
        results[name] = {"runs": runs_, "median_seconds": seconds, "mb_per_s": size / seconds / 1e6,
                         "median_cpu_seconds": cpu, "cpu_mb_per_s": size / cpu / 1e6 if cpu else 0,
                         "peak_rss_mib": max(r["peak_rss_mib"] for r in runs_),
                         "command": " ".join(os.path.basename(a) if a.startswith(work) or a == argv[0]
                                             else a for a in argv)}
    matching = {"grep": results["grep"]["runs"][0]["output"], "rg": results["rg"]["runs"][0]["output"]}
    if matching["grep"] != matching["rg"]:
        print(f"note: grep and rg count different numbers of matching lines: {matching}", file=sys.stderr)
    return {"log": os.path.basename(log), "log_bytes": size, "tools": results, "matching_lines": matching}


def ratio(a, b):
    return f"{a / b:.2f}" if b else "n/a"


# Eleven literal words of the fingerprints, for the cheapest filter a user could write.
GREP_LITERALS = ("out of memory", "OutOfMemoryError", "Watchdog caught collective operation timeout",
                 "illegal memory access", "device-side assert", "ChildFailedError", "exits with return code",
                 "NCCL error", "OVERFLOW!", "Current loss scale already at minimum", "Address already in use")

SHAPES = {
    "mixed-prefix": "the mixed-prefix log (8 ranks, lines under `[rankN]:`, `[defaultN]:` and `worker-N: ` in turn, "
                    "every third line a watchdog timeout)",
    "typical": "the typical log (16 ranks on 2 hosts, pdsh and [rankN]: prefixes, per-step metrics, fp16 "
               "overflows, a watchdog timeout at the end)",
    "error-heavy": "the error-heavy log (the same, but every third line is the same NCCL watchdog timeout, "
                   "printed again and again by each rank)",
}


def log_section(result):
    """The Markdown section "## Log analysis throughput" for a result of this script."""
    out = ["## Log analysis throughput", "",
           f"Date: {result['date']}. Inputs: logs written by tests/bench/gen_log.py to /tmp and read from a warm "
           f"page cache. grep and rg search for the same {result['patterns']} fingerprints the analyser matches "
           f"(read from analysis/logs/fingerprints/fingerprint_table.inc; grep gets them translated to POSIX ERE and runs with "
           f"LC_ALL=C). Each tool ran {result['runs']} times per log, the tools alternating run by run; medians "
           f"are given. Wall time is what a user waits; CPU time (user + system) is less disturbed by the other "
           f"work on this shared machine. The last columns divide grep's time by dsls's: 1 or more means dsls "
           f"is as fast as grep or faster.", ""]
    load = result.get("load")
    if load:
        out += [f"Load average of the machine (1, 5, 15 min; 2 cores, shared): {load['before']} before the runs, "
                f"{load['after']} after.", ""]
    baseline = result.get("baseline")
    if baseline:
        out += [f"`dsls at {baseline}` is the build of commit {baseline}, measured in the same alternation as the "
                f"current build, as a named baseline.", ""]
    for entry in result["logs"]:
        tools = entry["tools"]
        g = tools["grep"]
        out += [f"{entry['shape'].capitalize()}: {SHAPES[entry['shape']]}, {entry['log_bytes'] / 1e6:.0f} MB.", "",
                "| tool | command | wall time | MB/s | CPU time | MB/s of CPU | peak RSS | grep / tool (wall) | "
                "grep / tool (CPU) |", "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
        for name in [n for n in ("dsls", "dsls-baseline", "grep", "grep-literals", "rg") if n in tools]:
            t = tools[name]
            cmd = t["command"].replace(" " + t["command"].split()[-1], " LOG")
            label = {"dsls-baseline": f"dsls at {baseline}", "grep-literals": "grep, 11 literals"}.get(name, name)
            out.append(f"| {label} | `{cmd}` | {t['median_seconds']:.2f} s | {t['mb_per_s']:.0f} | "
                       f"{t['median_cpu_seconds']:.2f} s | {t['cpu_mb_per_s']:.0f} | {t['peak_rss_mib']:.1f} MiB | "
                       f"{ratio(g['median_seconds'], t['median_seconds'])} | "
                       f"{ratio(g['median_cpu_seconds'], t['median_cpu_seconds'])} |")
        out += ["", f"Lines matching any fingerprint: grep {entry['matching_lines']['grep']}, "
                    f"rg {entry['matching_lines']['rg']}.", ""]
        if "grep-literals" in tools:
            lit, d = tools["grep-literals"], tools["dsls"]
            out += [f"grep with the 11 literals / dsls: {ratio(lit['median_seconds'], d['median_seconds'])} in wall "
                    f"time ({len(GREP_LITERALS)} literals: {', '.join(f'`{x}`' for x in GREP_LITERALS)}).", ""]
        if "dsls-baseline" in tools:
            b, d = tools["dsls-baseline"], tools["dsls"]
            out += [f"dsls at {baseline} / dsls: {ratio(b['median_cpu_seconds'], d['median_cpu_seconds'])} in CPU "
                    f"time, {ratio(b['median_seconds'], d['median_seconds'])} in wall time.", ""]
    out += ["grep and rg only count lines; `dsls check` also splits ranks and hosts, keeps a timeline, extracts "
            "metrics, attributes the first failure and writes a JSON report, in bounded memory. rg maps the "
            "file into memory, so its peak RSS counts the page-cache pages of the log it has touched; grep and "
            "dsls read it in chunks. Peak RSS comes from GNU time (`%M`), the largest of the runs.", ""]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dsls", required=True)
    ap.add_argument("--log", required=True, help="the typical log (gen_log.py)")
    ap.add_argument("--error-log", help="the error-heavy log (gen_log.py --shape error-heavy)")
    ap.add_argument("--mixed-log", help="the mixed-prefix log (gen_log.py --shape mixed-prefix)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", required=True)
    ap.add_argument("--doc", help="the Markdown report whose section to rewrite")
    ap.add_argument("--baseline", help="another dsls binary to measure in the same alternation")
    ap.add_argument("--baseline-name", default="baseline", help="what the report calls it (a commit)")
    args = ap.parse_args()
    if not os.path.exists("/usr/bin/time"):
        raise SystemExit("log_bench: GNU time (/usr/bin/time, Debian package time) is required")

    patterns = fingerprint_patterns()
    work = tempfile.mkdtemp(prefix="dsls-bench-log-")
    rg_file = os.path.join(work, "fingerprints.rg")
    ere_file = os.path.join(work, "fingerprints.ere")
    with open(rg_file, "w") as f:
        # rg joins the patterns into one regex, where a group name may occur only once: plain groups.
        f.write("\n".join(re.sub(r"\(\?P<\w+>", "(", p) for p in patterns) + "\n")
    with open(ere_file, "w") as f:
        f.write("\n".join(to_ere(p) for p in patterns) + "\n")

    logs = [("typical", args.log)] + ([("error-heavy", args.error_log)] if args.error_log else []) + \
        ([("mixed-prefix", args.mixed_log)] if args.mixed_log else [])
    entries = []
    load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    for shape, path in logs:
        literals = literal_file(work) if shape == "mixed-prefix" else None
        entry = measure_log(args.dsls, path, args.runs, ere_file, rg_file, work, args.baseline, literals)
        entry["shape"] = shape
        entries.append(entry)
    result = {"date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "patterns": len(patterns), "runs": args.runs,
              "logs": entries, "load": {"before": load_before, "after": " ".join(f"{x:.2f}" for x in os.getloadavg())}}
    if args.baseline:
        result["baseline"] = args.baseline_name
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    if args.doc:
        write_section(args.doc, "## Log analysis throughput", "\n".join(log_section(result)) + "\n")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
