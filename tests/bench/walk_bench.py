#!/usr/bin/env python3
"""`dsls check .` on a real repository tree: the whole walk, which reads Python sources, shell
scripts and YAML files for configs written inside them, next to the JSON-only walk of the same
tree (the same files without its .py, .sh, .bash, .slurm, .sbatch, .yaml and .yml files), with the
same binary in the same run.

Usage: walk_bench.py --dsls BIN --tree DIR --name NAME [--tree DIR --name NAME ...] --workdir DIR
                     [--runs N] [--doc docs/benchmarks.md]
The tree is hard-linked twice under --workdir (a folder of the build), each copy made a git
repository with its files tracked; the two walks run
alternately, so machine noise falls on both; medians are reported.
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

SECTION = "## Folder walk with configs in Python, shell and YAML"
HOST_EXTENSIONS = (".py", ".sh", ".bash", ".slurm", ".sbatch", ".yaml", ".yml")


def prepare(tree, workdir):
    full, json_only = os.path.join(workdir, "full"), os.path.join(workdir, "json_only")
    for d in (full, json_only):
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(tree, d, copy_function=os.link, symlinks=True)
    removed = 0
    for root, _, files in os.walk(json_only):
        for f in files:
            if f.lower().endswith(HOST_EXTENSIONS):
                os.remove(os.path.join(root, f))
                removed += 1
    # Each a repository of its own, its files tracked, as a checkout is (and not ignored as part
    # of the build folder it sits in).
    for d in (full, json_only):
        subprocess.run(["git", "init", "-q", d], check=True)
        subprocess.run(["git", "-C", d, "add", "-A"], check=True)
    return full, json_only, removed


def walk_once(dsls, folder):
    start = time.perf_counter()
    r = subprocess.run([dsls, "check", "--isolated", "--format", "json", "--no-progress", "."], cwd=folder,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    elapsed = (time.perf_counter() - start) * 1000
    doc = json.loads(r.stdout or b"{}")
    return elapsed, doc.get("files", [])


def measure(dsls, tree, workdir, runs):
    full, json_only, removed = prepare(tree, workdir)
    times = {"full": [], "json_only": []}
    files = {}
    walk_once(dsls, full), walk_once(dsls, json_only)  # warm the page cache
    for _ in range(runs):
        for key, folder in (("full", full), ("json_only", json_only)):
            ms, checked = walk_once(dsls, folder)
            times[key].append(ms)
            files[key] = checked
    med = {k: statistics.median(v) for k, v in times.items()}
    kinds = {}
    for f in files["full"]:
        kinds[f.get("kind", "?")] = kinds.get(f.get("kind", "?"), 0) + 1
    return med, files, kinds, removed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dsls", required=True)
    ap.add_argument("--tree", action="append", required=True)
    ap.add_argument("--name", action="append", required=True, help="what the tree is (owner/name@commit)")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--doc")
    args = ap.parse_args()
    dsls = os.path.abspath(args.dsls)
    rows = []
    for tree, name in zip(args.tree, args.name):
        med, files, kinds, removed = measure(dsls, tree, args.workdir, args.runs)
        found = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "none"
        rows.append(f"| {name} | {removed} | {med['json_only']:.0f} ({len(files['json_only'])} files) | "
                    f"{med['full']:.0f} ({found}) | {med['full'] / med['json_only']:.2f} |")
    section = (f"{SECTION}\n\n`tests/bench/walk_bench.py`: `dsls check --isolated --format json .` on real repository "
               f"trees, {args.runs} runs of each walk, alternately, medians in ms. The baseline, the JSON-only walk, is "
               "the same tree without its Python, shell and YAML files: what the walk cost before it read them.\n\n"
               "| tree | Python, shell, YAML files | JSON-only walk | whole walk (configs checked) | ratio |\n"
               "|---|---|---|---|---|\n" + "\n".join(rows) + "\n")
    print(section)
    if args.doc:
        write_section(args.doc, SECTION, section)


if __name__ == "__main__":
    main()
