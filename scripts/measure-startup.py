#!/usr/bin/env python3
"""Start-to-initialize-reply time and idle memory of the dsls server.

Usage: scripts/measure-startup.py [DSLS_BINARY] [RUNS]   (default build/lsp/dsls, 21 runs)
Spawns the server RUNS times, sends initialize, times the reply, then reads the idle
process's peak RSS (VmHWM). Prints medians; the machines are noisy, so use the median.
"""
import json
import statistics
import subprocess
import sys
import time

binary = sys.argv[1] if len(sys.argv) > 1 else "build/lsp/dsls"
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 21
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}).encode()
times, peaks = [], []
for _ in range(runs):
    start = time.perf_counter()
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()
    proc.stdout.read(16)  # the reply's header has arrived
    times.append((time.perf_counter() - start) * 1000)
    time.sleep(0.2)
    with open(f"/proc/{proc.pid}/status") as f:
        peaks.append(next(int(l.split()[1]) for l in f if l.startswith("VmHWM")))
    proc.kill()
    proc.wait()
print(f"spawn -> initialize reply: median {statistics.median(times):.1f} ms "
      f"(min {min(times):.1f}, max {max(times):.1f}, {runs} runs)")
print(f"idle peak RSS: median {statistics.median(peaks) / 1024:.1f} MiB")
