#!/usr/bin/env python3
"""The static binary that ships next to a dynamically linked build of the same sources: file
size (both stripped), spawn -> initialize reply, and peak RSS of the idle server.

Usage: binary_bench.py --static BIN --dynamic BIN --workdir DIR [--runs N] [--doc docs/benchmarks.md]
The two are started alternately, so machine noise falls on both; medians are reported.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_sections import write_section  # noqa: E402

SECTION = "## The static binary"
INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}).encode()


def start_once(binary):
    """Milliseconds from spawn to the first bytes of the initialize reply, and the idle VmHWM (KiB)."""
    start = time.perf_counter()
    proc = subprocess.Popen([binary, "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(INITIALIZE) + INITIALIZE)
    proc.stdin.flush()
    proc.stdout.read(16)
    elapsed = (time.perf_counter() - start) * 1000
    time.sleep(0.1)
    with open(f"/proc/{proc.pid}/status") as f:
        peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM"))
    proc.kill()
    proc.wait()
    return elapsed, peak


def shared_libraries(binary):
    done = subprocess.run(["ldd", binary], capture_output=True, text=True)
    return [line.split()[0] for line in done.stdout.splitlines() if "=>" in line]


def measure(binaries, runs):
    samples = {name: ([], []) for name in binaries}
    for _ in range(runs):
        for name, path in binaries.items():
            ms, kib = start_once(path)
            samples[name][0].append(ms)
            samples[name][1].append(kib)
    return {name: {"size": os.path.getsize(path), "libs": shared_libraries(path),
                   "start_ms": statistics.median(ms), "rss_mib": statistics.median(kib) / 1024}
            for name, (ms, kib), path in ((n, samples[n], binaries[n]) for n in binaries)}


def render(r, runs, command):
    s, d = r["static"], r["dynamic"]
    libs = ", ".join(os.path.basename(lib) for lib in d["libs"])
    return "\n".join([
        SECTION, "",
        "The shipped binary (`-DDSLS_STATIC=ON`) next to a dynamically linked build of the same sources, "
        f"both stripped; medians of {runs} alternate starts.", "",
        "| binary | file size | shared libraries | spawn -> initialize reply | idle peak RSS |",
        "|---|---:|---|---:|---:|",
        f"| static | {s['size'] / 1e6:.1f} MB | none | {s['start_ms']:.1f} ms | {s['rss_mib']:.1f} MiB |",
        f"| dynamic (baseline) | {d['size'] / 1e6:.1f} MB | {libs} | {d['start_ms']:.1f} ms | {d['rss_mib']:.1f} MiB |",
        f"| static / dynamic | {s['size'] / d['size']:.2f} | | {s['start_ms'] / d['start_ms']:.2f} | "
        f"{s['rss_mib'] / d['rss_mib']:.2f} |", "",
        f"Rerun: `{command}`", ""])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--static", required=True)
    ap.add_argument("--dynamic", required=True)
    ap.add_argument("--workdir", required=True, help="where the stripped copies go (a build folder)")
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--doc")
    ap.add_argument("--command", default="tests/bench/binary_bench.py --static S --dynamic D --workdir W")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    binaries = {}
    for name, path in (("static", args.static), ("dynamic", args.dynamic)):
        copy = os.path.join(args.workdir, f"dsls-{name}")
        shutil.copyfile(path, copy)
        os.chmod(copy, 0o755)
        subprocess.run(["strip", copy], check=True)
        binaries[name] = copy
    if shared_libraries(binaries["static"]):
        sys.exit(f"binary_bench: {args.static} is not statically linked")
    section = render(measure(binaries, args.runs), args.runs, args.command)
    if args.doc:
        write_section(args.doc, SECTION, section)
    print(section)


if __name__ == "__main__":
    main()
