#!/usr/bin/env python3
"""The Emacs package on a large JSON file: Emacs opening it with and without editors/emacs/dsls.el.

Each run is `emacs --batch -Q` (no init file) visiting one file with `find-file` and exiting;
with the package, dsls.el is loaded first, so its mode choice (the file-name globs, the scan of
the first 64 KiB for DeepSpeed keys) runs in the editor process. The server is not started:
the figure is the editor's own cost. Wall time and peak RSS (GNU time %M) of the Emacs process,
medians over --runs runs, alternating with and without the package.

The inputs are those of bigdoc_bench.py (generated there when missing): the 48.5 MiB
tokenizer.json-shaped text, named tokenizer.json and zero_big.json.

Usage: emacs_bench.py --workdir BUILD/bench-bigdocs [--runs 5] [--out F] [--doc F]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bigdoc_bench import make_inputs  # noqa: E402
from report_sections import write_section  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "editors", "emacs"))
SECTION = "## The Emacs package on a large file"
MIB = 1024 * 1024


def visit(path, with_package, home):
    """(seconds, peak KiB, major mode) of one Emacs visiting `path`."""
    load = ["-L", PACKAGE_DIR, "-l", "dsls"] if with_package else []
    # Without the threshold Emacs asks whether to open a large file, which --batch reads from stdin.
    script = (f'(progn (setq large-file-warning-threshold nil) (find-file {json.dumps(path)}) '
              f'(princ (format "%s\\n" major-mode)) (kill-emacs 0))')
    with tempfile.NamedTemporaryFile("r", suffix=".time") as timing:
        start = time.monotonic()
        run = subprocess.run(["/usr/bin/time", "-o", timing.name, "-f", "%M", "emacs", "--batch", "-Q", *load,
                              "--eval", script], capture_output=True, text=True, env={**os.environ, "HOME": home}, stdin=subprocess.DEVNULL,
                             timeout=300)
        seconds = time.monotonic() - start
        if run.returncode != 0:
            raise SystemExit(f"emacs failed on {path}: {run.stderr[-2000:]}")
        peak_kib = int(timing.read().strip().splitlines()[-1])
    return seconds, peak_kib, run.stdout.strip().splitlines()[-1]


def measure(path, runs, home):
    rows = {False: [], True: []}
    for _ in range(runs):
        for with_package in (False, True):
            rows[with_package].append(visit(path, with_package, home))
    out = {}
    for with_package, samples in rows.items():
        out["with" if with_package else "without"] = {
            "seconds": statistics.median(s for s, _, _ in samples),
            "peak_mib": statistics.median(k for _, k, _ in samples) / 1024,
            "mode": samples[-1][2],
        }
    return out


def render(results, command):
    lines = [SECTION, "",
             f"Date: {results['date']}. {results['emacs']}; load average {results['load']:.1f} at the start. "
             f"Each figure is the median of {results['runs']} runs of `emacs --batch -Q` visiting the file (the "
             "large-file question turned off) and exiting, alternating without and with editors/emacs/dsls.el loaded (the server is not started: "
             "this is the editor process alone). Peak RSS from GNU time (`%M`).", "",
             "| file | without the package | with it | peak RSS without | with | mode chosen with it |",
             "|---|---:|---:|---:|---:|---|"]
    for f in results["files"]:
        a, b = f["without"], f["with"]
        lines.append(f"| {f['label']} ({f['mib']:.1f} MiB) | {a['seconds']:.2f} s | {b['seconds']:.2f} s | "
                     f"{a['peak_mib']:.1f} MiB | {b['peak_mib']:.1f} MiB | `{b['mode']}` |")
    lines += ["", f"Rerun: `{command}`.", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workdir", required=True, help="bigdoc_bench.py's folder of generated documents")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out")
    ap.add_argument("--doc", help="the Markdown report whose section to rewrite")
    ap.add_argument("--command", default="tests/bench/emacs_bench.py --workdir build/bench-bigdocs")
    args = ap.parse_args()
    try:
        version = subprocess.run(["emacs", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        print("emacs_bench: emacs is not installed; skipped", file=sys.stderr)
        return 77
    workdir = os.path.abspath(args.workdir)
    files = [(label, path) for label, path, _ in make_inputs(workdir) if label.startswith("48.5 MiB")]
    results = {"date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "emacs": version,
               "load": os.getloadavg()[0], "runs": args.runs, "files": []}
    with tempfile.TemporaryDirectory() as home:
        for label, path in files:
            print(f"emacs_bench: {label}", file=sys.stderr)
            row = measure(path, args.runs, home)
            row.update(label=label, mib=os.path.getsize(path) / MIB)
            results["files"].append(row)
    section = render(results, args.command)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=2)
    if args.doc:
        write_section(args.doc, SECTION, section)
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
