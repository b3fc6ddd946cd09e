#!/usr/bin/env python3
"""Precision and recall of `dsls check .` on the hand-labelled real-repository corpus.

Each folder of tests/fixtures/repos holds the files that matter of one public training
repository (SOURCE.json lists them). The folder is copied to a temporary git repository with
exactly those files tracked, `dsls check --format json --no-progress .` runs there, and every
finding, keyed "path:line:code", is looked up in tests/fixtures/repos/labels.json.

  python3 tests/corpus/repos_score.py --dsls build/lsp/dsls [--split tuned|holdout]
                                      [--json OUT] [--check]

--check exits 1 when a split falls below the floors of tests/corpus/repos_floors.json.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "repos")
LABELS = os.path.join(FIXTURES, "labels.json")
FLOORS = os.path.join(HERE, "repos_floors.json")
SHOWN = ("error", "warning")  # what `dsls check` shows and fails on by default
KINDS = ("true", "noise", "false", "unlabelled")
# Top-level keys that make a tracked JSON file a ds_config whatever dsls thinks of it.
CONFIG_MARKERS = ('"zero_optimization"', '"train_micro_batch_size_per_gpu"')
GIT_ENV = {"GIT_AUTHOR_NAME": "corpus", "GIT_AUTHOR_EMAIL": "corpus@localhost",
           "GIT_COMMITTER_NAME": "corpus", "GIT_COMMITTER_EMAIL": "corpus@localhost",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}


def git(cwd, *args):
    env = dict(os.environ, **GIT_ENV)
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def stored_name(rel):
    """Where a file is kept in the fixture: a repository's .gitignore is kept as _gitignore, so
    that it does not apply to this repository's own files."""
    head, name = os.path.split(rel)
    return os.path.join(head, "_gitignore") if name == ".gitignore" else rel


def make_checkout(src_dir, files, tmp):
    """A git repository in tmp with exactly the listed files tracked and committed."""
    for rel in files:
        os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
        shutil.copyfile(os.path.join(src_dir, stored_name(rel)), os.path.join(tmp, rel))
    git(tmp, "init", "-q")
    for start in range(0, len(files), 200):
        git(tmp, "add", "-f", "--", *files[start:start + 200])
    git(tmp, "commit", "-q", "--no-gpg-sign", "-m", "snapshot")


def run_dsls(dsls, cwd):
    # Every level: the figures at warning and error are computed from it.
    proc = subprocess.run([dsls, "check", "--format", "json", "--no-progress", "--min-severity", "hint", "."], cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"dsls exited {proc.returncode} in {cwd}: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def finding_keys(report):
    """{"path:line:code": severity}; a repeated key gets a "#2", "#3" suffix."""
    keys = {}
    for entry in report["files"]:
        for f in entry["findings"]:
            base = f"{entry['path']}:{f['range']['start']['line']}:{f['code']}"
            key, n = base, 1
            while key in keys:
                n += 1
                key = f"{base}#{n}"
            keys[key] = f["severity"]
    return keys


def tracked_configs(src_dir, files, not_configs):
    out = []
    for rel in files:
        if not rel.endswith((".json", ".jsonc")) or rel in not_configs:
            continue
        with open(os.path.join(src_dir, rel), encoding="utf-8", errors="replace") as fh:
            text = fh.read(65536)
        if any(m in text for m in CONFIG_MARKERS):
            out.append(rel)
    return out


def tally(found, labels, missed):
    counts = {k: 0 for k in KINDS}
    for key in found:
        counts[labels.get(key, {}).get("label", "unlabelled")] += 1
    shown = len(found)
    precision = counts["true"] / shown if shown else 1.0
    denom = counts["true"] + missed
    recall = counts["true"] / denom if denom else 1.0
    return {"shown": shown, **counts, "missed": missed,
            "precision": round(precision, 4), "recall": round(recall, 4)}


def score_repo(dsls, name, entry):
    src_dir = os.path.join(FIXTURES, name)
    with open(os.path.join(src_dir, "SOURCE.json"), encoding="utf-8") as fh:
        files = json.load(fh)["files"]
    with tempfile.TemporaryDirectory(prefix="dsls-repo-") as tmp:
        make_checkout(src_dir, files, tmp)
        report = run_dsls(dsls, tmp)
    found = finding_keys(report)
    checked = {e["path"] for e in report["files"]}
    configs = tracked_configs(src_dir, files, set(entry.get("not_configs", [])))
    skipped = sorted(c for c in configs if c not in checked)
    labels = entry.get("findings", {})
    # A true label whose finding is gone is a problem no longer reported: it counts as missed.
    lost = sorted(k for k, v in labels.items() if k not in found and v.get("label") == "true")
    lost_shown = [k for k in lost if labels[k].get("severity") in SHOWN]
    missed = len(entry.get("missed", []))
    shown = {k: s for k, s in found.items() if s in SHOWN}
    return {"split": entry.get("split", "tuned"), "configs": len(configs),
            "checked": len(checked), "skipped_tracked_configs": skipped,
            "shown_level": tally(shown, labels, missed + len(lost_shown)),
            "all_levels": tally(found, labels, missed + len(lost)),
            "findings": found,
            "unlabelled": sorted(k for k in found if k not in labels), "lost_true": lost,
            "stale_labels": sorted(k for k in labels if k not in found and k not in lost),
            "level_changed": sorted(k for k in labels if k in found and labels[k].get("severity", found[k]) != found[k])}


def sum_split(results):
    out = {"repos": len(results),
           "skipped_tracked_configs": sum(len(r["skipped_tracked_configs"]) for r in results)}
    for level in ("shown_level", "all_levels"):
        agg = {k: sum(r[level][k] for r in results) for k in ("shown", *KINDS, "missed")}
        agg["precision"] = round(agg["true"] / agg["shown"], 4) if agg["shown"] else 1.0
        denom = agg["true"] + agg["missed"]
        agg["recall"] = round(agg["true"] / denom, 4) if denom else 1.0
        out[level] = agg
    return out


def line(name, r, skipped):
    s, a = r["shown_level"], r["all_levels"]
    return (f"{name:46} {s['shown']:5} {s['true']:4} {s['noise']:5} {s['false']:5} "
            f"{s['unlabelled']:5} {s['precision']:6.2f} {s['recall']:6.2f} {s['missed']:4} {skipped:5} | "
            f"{a['shown']:5} {a['true']:4} {a['noise']:5} {a['false']:5} {a['unlabelled']:5} "
            f"{a['precision']:6.2f} {a['recall']:6.2f}")


HEADER = (f"{'':46} {'shown':>5} {'true':>4} {'noise':>5} {'false':>5} {'unlab':>5} "
          f"{'prec':>6} {'recall':>6} {'miss':>4} {'skip':>5} | {'all':>5} {'true':>4} {'noise':>5} "
          f"{'false':>5} {'unlab':>5} {'prec':>6} {'recall':>6}")


def below_floors(splits, floors):
    problems = []
    for split, floor in floors.items():
        got = splits.get(split)
        if got is None:
            continue
        for level in ("shown_level", "all_levels"):
            for metric in ("precision", "recall"):
                want = floor.get(level, {}).get(metric)
                if want is not None and got[level][metric] + 1e-9 < want:
                    problems.append(f"{split} {level} {metric} {got[level][metric]:.4f} < {want:.4f}")
            most = floor.get(level, {}).get("unlabelled")
            if most is not None and got[level]["unlabelled"] > most:
                problems.append(f"{split} {level} unlabelled {got[level]['unlabelled']} > {most}")
        most = floor.get("skipped_tracked_configs")
        if most is not None and got["skipped_tracked_configs"] > most:
            problems.append(f"{split} skipped tracked configs {got['skipped_tracked_configs']} > {most}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dsls", default=os.path.join(ROOT, "build", "lsp", "dsls"))
    ap.add_argument("--split", choices=("tuned", "holdout"))
    ap.add_argument("--json", metavar="OUT", help="write every figure and finding key to OUT")
    ap.add_argument("--check", action="store_true", help="exit 1 below the floors")
    args = ap.parse_args()
    args.dsls = os.path.abspath(args.dsls)
    if not shutil.which("git"):
        print("git is not installed: the repositories cannot be checked out as git would", file=sys.stderr)
        return 77
    if not os.access(args.dsls, os.X_OK):
        print(f"no dsls binary at {args.dsls}", file=sys.stderr)
        return 2
    with open(LABELS, encoding="utf-8") as fh:
        labels = json.load(fh)
    names = sorted(d for d in os.listdir(FIXTURES) if os.path.isfile(os.path.join(FIXTURES, d, "SOURCE.json")))
    unknown = [n for n in names if n not in labels]
    if unknown:
        print("repositories missing from labels.json: " + ", ".join(unknown), file=sys.stderr)
        return 2
    if args.split:
        names = [n for n in names if labels[n]["split"] == args.split]
    results = {n: score_repo(args.dsls, n, labels[n]) for n in names}
    splits = {}
    for split in ("tuned", "holdout"):
        members = [r for r in results.values() if r["split"] == split]
        if members:
            splits[split] = sum_split(members)
    print("shown = findings at warning or error (what `dsls check` shows and fails on); all = every level;")
    print("miss = labelled problems not reported; skip = tracked configs dsls did not check")
    print(HEADER)
    for split in splits:
        for n in names:
            if results[n]["split"] == split:
                print(line(n, results[n], len(results[n]["skipped_tracked_configs"])))
        total = splits[split]
        print(line(f"== {split} ({total['repos']} repos)", total, total["skipped_tracked_configs"]))
    for n in names:
        for key in results[n]["unlabelled"]:
            print(f"unlabelled: {n} {key} ({results[n]['findings'][key]})")
        for key in results[n]["lost_true"]:
            print(f"true finding no longer reported (counted as missed): {n} {key}")
        for key in results[n]["level_changed"]:
            print(f"labelled at {labels[n]['findings'][key]['severity']}, now {results[n]['findings'][key]}: {n} {key}")
        for key in results[n]["stale_labels"]:
            print(f"label with no finding: {n} {key}")
        for path in results[n]["skipped_tracked_configs"]:
            print(f"tracked config not checked: {n} {path}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"repos": results, "splits": splits}, fh, indent=2, sort_keys=True)
    if args.check:
        with open(FLOORS, encoding="utf-8") as fh:
            problems = below_floors(splits, json.load(fh))
        for p in problems:
            print(f"below floor: {p}", file=sys.stderr)
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
