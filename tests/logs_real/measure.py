#!/usr/bin/env python3
"""Measures the log analysis of `dsls check` on the real-log corpus against its hand-made labels.

Each tests/fixtures/logs/real/NAME.log has a label NAME.label.json (format in that folder's
README.md). The figures, and what each one counts:

  fingerprint recall   label failures that dsls reports / label failures that dsls has an id for
  unmodelled failures  label failures with no dsls id yet (not in the recall)
  rank accuracy        logs whose label names one initiating rank: dsls's initiating finding names it
  every-rank accuracy  logs labelled "all" (a deterministic failure): the finding says rankScope "all"
  no-single-initiator  logs labelled "unknown": the finding says rankScope "unknown" and names no rank
  false ranks          logs labelled null (the text cannot tell) where dsls names a rank anyway
  near-miss alarms     logs labelled with no failure where dsls reports an error
  not read as a log    logs with a labelled failure that `dsls check` did not take for a training log

Usage:
  measure.py --dsls build/lsp/dsls                 print the table
  measure.py --dsls ... --check                    exit 1 when a figure is worse than its floor
                                                   (thresholds.json next to this script)
  measure.py --dsls ... --write docs/logs/accuracy.md   also write the figures into that doc
  measure.py --dsls ... --raise-floors             set the floors to today's figures where better
  measure.py --dsls ... --corpus DIR               measure another labelled folder (a holdout set)

--write keeps the doc's hand-written sections "## Holdout (logs never used while developing)" and
"## Formats and failures found in the wild and not handled".

Exit status: 0 good, 1 a figure below its floor or a label/corpus problem, 2 usage or dsls
failure, 77 when the dsls binary is missing (ctest reports Skipped).
"""

import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(REPO, "tests", "fixtures", "logs", "real")
THRESHOLDS = os.path.join(HERE, "thresholds.json")
RERUN = "python3 tests/logs_real/measure.py --dsls build/lsp/dsls --write docs/logs/accuracy.md"

LABEL_KEYS = {"source", "failures", "initiatingRank", "collateralRanks", "why"}
SOURCE_RE = re.compile(r"^https://github\.com/[\w.-]+/[\w.-]+/(issues|pull)/\d+$")
ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

# Figure keys, in table order: (key, title, kind). "ratio" figures have a floor ("min"),
# "count" figures a ceiling ("max").
FIGURES = [
    ("fingerprintRecall", "fingerprint recall", "ratio"),
    ("rankAccuracy", "initiating rank right (text shows it)", "ratio"),
    ("everyRankAccuracy", "\"every rank\" right (deterministic failures)", "ratio"),
    ("noSingleInitiatorAccuracy", "\"no single initiator\" right", "ratio"),
    ("falseRanks", "rank named although the text cannot tell", "count"),
    ("nearMissAlarms", "near-miss logs with an error reported", "count"),
    ("notReadAsLog", "failing logs not read as a training log", "count"),
]


class CorpusError(Exception):
    pass


def load_label(path):
    try:
        with open(path, encoding="utf-8") as f:
            label = json.load(f)
    except (OSError, ValueError) as e:
        raise CorpusError(f"{path}: not readable JSON ({e})")
    problems = []
    if not isinstance(label, dict):
        raise CorpusError(f"{path}: a label is a JSON object")
    if set(label) != LABEL_KEYS:
        problems.append(f"keys must be exactly {sorted(LABEL_KEYS)}, found {sorted(label)}")
    if not isinstance(label.get("source"), str) or not SOURCE_RE.match(label.get("source", "")):
        problems.append("source must be a GitHub issue or pull request URL")
    fails = label.get("failures")
    if not isinstance(fails, list) or not all(isinstance(x, str) and ID_RE.match(x) for x in fails):
        problems.append("failures must be a list of kebab-case ids")
    elif len(set(fails)) != len(fails):
        problems.append("failures lists an id twice")
    rank = label.get("initiatingRank", "missing")
    if not (rank is None or rank in ("all", "unknown") or (type(rank) is int and rank >= 0)):
        problems.append("initiatingRank must be a rank (int >= 0), \"all\", \"unknown\" or null")
    coll = label.get("collateralRanks")
    if not isinstance(coll, list) or not all(type(x) is int and x >= 0 for x in coll):
        problems.append("collateralRanks must be a list of ranks")
    if not isinstance(label.get("why"), str) or len(label.get("why", "").strip()) < 10:
        problems.append("why must say in a sentence what the text shows")
    if isinstance(fails, list) and not fails and rank not in (None, "missing"):
        problems.append("a log with no failure has no initiating rank (null)")
    if problems:
        raise CorpusError(f"{path}: " + "; ".join(problems))
    return label


def load_corpus(corpus):
    """Returns {name: label}; every log needs a label, every label a log, every thread once."""
    entries = sorted(os.listdir(corpus))
    logs = {e[:-4] for e in entries if e.endswith(".log")}
    labels = {e[: -len(".label.json")] for e in entries if e.endswith(".label.json")}
    errors = [f"{n}.log has no label {n}.label.json" for n in sorted(logs - labels)]
    errors += [f"{n}.label.json has no log {n}.log" for n in sorted(labels - logs)]
    result, sources = {}, {}
    for name in sorted(logs & labels):
        try:
            result[name] = load_label(os.path.join(corpus, name + ".label.json"))
        except CorpusError as e:
            errors.append(str(e))
            continue
        src = result[name]["source"]
        if src in sources:
            errors.append(f"{name} and {sources[src]} quote the same thread {src}")
        sources[src] = name
    readme = os.path.join(corpus, "README.md")
    listed = open(readme, encoding="utf-8").read() if os.path.exists(readme) else ""
    errors += [f"README.md does not list {n}.log" for n in sorted(logs) if f"`{n}.log`" not in listed]
    if errors:
        raise CorpusError("\n".join(errors))
    if not result:
        raise CorpusError(f"{corpus}: no labelled logs")
    return result


def run_dsls(dsls, args):
    proc = subprocess.run([dsls] + args, capture_output=True, text=True, timeout=600)
    if proc.returncode not in (0, 1):
        raise CorpusError(f"dsls {' '.join(args[:3])} ... exited {proc.returncode}: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def modelled_ids(dsls):
    rules = run_dsls(dsls, ["rules", "--format", "json"])
    return {r["code"][len("log-"):] for r in rules if r.get("kind") == "log"}


def analyse(dsls, corpus, names):
    """Returns {name: {'found': set of ids, 'initiating': finding or None}} or None per log not read."""
    paths = [os.path.join(corpus, n + ".log") for n in names]
    report = run_dsls(dsls, ["check", "--isolated", "--format", "json", "--fail-on", "error"] + paths)
    by_path = {os.path.abspath(f["path"]): f for f in report["files"]}
    out = {}
    for name, path in zip(names, paths):
        entry = by_path.get(os.path.abspath(path))
        if entry is None or entry.get("kind") != "log" or "log" not in entry:
            out[name] = None
            continue
        findings = entry["log"]["findings"]
        initiating = next((f for f in findings if f.get("initiating")), None)
        out[name] = {"found": {f["id"] for f in findings}, "initiating": initiating,
                     "errors": {f["id"] for f in findings if f.get("severity") == "error"}}
    return out


def named_rank(initiating):
    """What dsls says about the initiating rank: an int, "all", "unknown" or None."""
    if initiating is None:
        return None
    scope = initiating.get("rankScope")
    if scope in ("all", "unknown"):
        return scope
    return initiating.get("initiatingRank")


def rank_figure(truth):
    """The figure a label's initiatingRank counts in; None for null (where naming a rank is false)."""
    if type(truth) is int:
        return "rankAccuracy"
    return {"all": "everyRankAccuracy", "unknown": "noSingleInitiatorAccuracy"}.get(truth)


def score(labels, results, modelled):
    rows, tally = [], {k: [0, 0] for k, _, kind in FIGURES if kind == "ratio"}
    counts = {k: 0 for k, _, kind in FIGURES if kind == "count"}
    unmodelled = {}
    for name, label in labels.items():
        res = results[name]
        found = res["found"] if res else set()
        want = [f for f in label["failures"] if f in modelled]
        for f in label["failures"]:
            if f not in modelled:
                unmodelled[f] = unmodelled.get(f, 0) + 1
        hit = [f for f in want if f in found]
        tally["fingerprintRecall"][0] += len(hit)
        tally["fingerprintRecall"][1] += len(want)
        truth, said = label["initiatingRank"], named_rank(res["initiating"] if res else None)
        key, rank_ok = rank_figure(truth), None
        if key:
            rank_ok = said == truth
            tally[key][0] += int(rank_ok)
            tally[key][1] += 1
        elif type(said) is int:
            counts["falseRanks"] += 1
            rank_ok = False
        if not label["failures"] and res and res["errors"]:
            counts["nearMissAlarms"] += 1
        if res is None and label["failures"]:
            counts["notReadAsLog"] += 1
        rows.append({"name": name, "label": label, "found": sorted(found), "want": want, "hit": hit,
                     "said": said, "rankOk": rank_ok, "read": res is not None})
    figures = {k: (v[0], v[1]) for k, v in tally.items()}
    figures.update({k: v for k, v in counts.items()})
    return figures, rows, unmodelled


def fmt(key, figures):
    value = figures[key]
    if isinstance(value, tuple):
        hit, total = value
        return f"{100.0 * hit / total:.1f}% ({hit}/{total})" if total else "n/a (0 logs)"
    return str(value)


def percent(value):
    hit, total = value
    return 100.0 * hit / total if total else None


def check_floors(figures, thresholds):
    failures = []
    for key, title, kind in FIGURES:
        limit = thresholds.get(key)
        if limit is None:
            failures.append(f"thresholds.json has no entry for {key}")
            continue
        if kind == "ratio":
            value = percent(figures[key])
            if value is not None and value + 1e-9 < limit["min"]:
                failures.append(f"{title}: {value:.1f}% is below the floor {limit['min']}%")
        elif figures[key] > limit["max"]:
            failures.append(f"{title}: {figures[key]} is above the ceiling {limit['max']}")
    return failures


def raised_floors(figures, thresholds):
    new = json.loads(json.dumps(thresholds))
    for key, _, kind in FIGURES:
        if kind == "ratio":
            value = percent(figures[key])
            if value is not None:
                floor = int(value * 10) / 10.0  # rounded down, so today's figure passes
                new.setdefault(key, {"min": 0.0})["min"] = max(new.get(key, {}).get("min", 0.0), floor)
        else:
            new.setdefault(key, {"max": figures[key]})["max"] = min(new[key]["max"], figures[key])
    return new


def write_thresholds(path, thresholds):
    """One figure a line, in table order, so a raised floor is a one-line diff."""
    lines = [f'  "about": {json.dumps(thresholds.get("about", ""))}']
    lines += [f'  "{key}": {json.dumps(thresholds[key])}' for key, _, _ in FIGURES if key in thresholds]
    with open(path, "w", encoding="utf-8") as f:
        f.write("{\n" + ",\n".join(lines) + "\n}\n")


def rank_text(value):
    return "null" if value is None else str(value)


def table(figures, unmodelled, logs):
    lines = [f"{'figure':<48} value", f"{'-' * 48} {'-' * 20}"]
    for key, title, _ in FIGURES:
        lines.append(f"{title:<48} {fmt(key, figures)}")
    total = sum(unmodelled.values())
    lines.append(f"{'label failures with no dsls id yet':<48} {total} "
                 f"({', '.join(f'{k} x{v}' for k, v in sorted(unmodelled.items())) or 'none'})")
    lines.append(f"{'logs':<48} {logs}")
    return "\n".join(lines)


def per_log_rows(rows):
    out = ["| log | label failures | missed (dsls has the id) | dsls found | label rank | dsls rank |",
           "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        missed = [f for f in r["want"] if f not in r["hit"]]
        found = ", ".join(r["found"]) if r["read"] else "(not read as a log)"
        rank = rank_text(r["said"]) + ("" if r["rankOk"] in (None, True) else " (wrong)")
        out.append(f"| `{r['name']}.log` | {', '.join(r['label']['failures']) or '(none)'} | "
                   f"{', '.join(missed) or '-'} | {found or '-'} | {rank_text(r['label']['initiatingRank'])} | {rank} |")
    return "\n".join(out)


HOLDOUT_HEADING = "## Holdout (logs never used while developing)"
NOT_HANDLED_HEADING = "## Formats and failures found in the wild and not handled"


def kept_section(path, heading):
    """A hand-written section of an existing doc (its heading to the next heading), or []."""
    try:
        with open(path, encoding="utf-8") as f:
            old = f.read().split("\n")
    except OSError:
        return []
    if heading not in old:
        return []
    start = old.index(heading)
    end = next((i for i in range(start + 1, len(old)) if old[i].startswith("## ")), len(old))
    section = old[start:end]
    while section and not section[-1].strip():
        section.pop()
    return section + [""]


def write_doc(path, figures, rows, unmodelled, thresholds):
    holdout = kept_section(path, HOLDOUT_HEADING)
    not_handled = kept_section(path, NOT_HANDLED_HEADING)
    lines = [
        "# Log diagnosis accuracy on real logs",
        "",
        "<!-- Generated by tests/logs_real/measure.py; do not edit by hand, except the sections \"Holdout\" and \"not handled\", which --write keeps. -->",
        "",
        f"Measured with `dsls check --format json` on the {len(rows)} excerpts of real training logs in",
        "`tests/fixtures/logs/real/` (machine output pasted into public GitHub issues and pull requests,",
        "labelled by hand from the text; the label format is in that folder's README.md). Rerun with:",
        "",
        "```sh",
        RERUN,
        "```",
        "",
        "The test `logs.real.accuracy` (ctest label `corpus`) fails when a figure falls below its floor",
        "in `tests/logs_real/thresholds.json`; `measure.py --raise-floors` raises the floors to the",
        "current figures.",
        "",
        "| figure | value | floor |",
        "| --- | --- | --- |",
    ]
    for key, title, kind in FIGURES:
        limit = thresholds.get(key, {})
        bound = f"{limit.get('min')}%" if kind == "ratio" else f"at most {limit.get('max')}"
        lines.append(f"| {title} | {fmt(key, figures)} | {bound} |")
    lines += [
        "",
        "Fingerprint recall counts only the failures that dsls has an id for. Label failures with no",
        f"dsls id yet: {sum(unmodelled.values())} "
        f"({', '.join(f'`{k}` x{v}' for k, v in sorted(unmodelled.items())) or 'none'}).",
        "Rank accuracy counts the logs whose text shows the initiating rank; \"every rank\" the logs of a",
        "deterministic failure (config validation, batch size, checkpoint mismatch), which the finding",
        "should mark `rankScope: \"all\"`; \"no single initiator\" the logs where several ranks show the",
        "same primary error with nothing to order them (`rankScope: \"unknown\"`). A false rank is a rank",
        "named on a log whose label says the text cannot tell.",
        "",
    ] + holdout + not_handled + [
        "## Per log",
        "",
        per_log_rows(rows),
        "",
    ]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dsls", required=True, help="the built dsls binary")
    ap.add_argument("--corpus", default=CORPUS, help="the folder of NAME.log + NAME.label.json (and a README.md listing them)")
    ap.add_argument("--thresholds", default=THRESHOLDS)
    ap.add_argument("--check", action="store_true", help="fail when a figure is worse than its floor")
    ap.add_argument("--write", metavar="DOC", help="write the figures into DOC (docs/logs/accuracy.md)")
    ap.add_argument("--raise-floors", action="store_true", help="raise the floors to today's figures")
    ap.add_argument("--verbose", action="store_true", help="print the per-log table too")
    args = ap.parse_args()
    if not os.access(args.dsls, os.X_OK):
        print(f"dsls binary not found: {args.dsls}", file=sys.stderr)
        return 77
    try:
        labels = load_corpus(args.corpus)
        with open(args.thresholds, encoding="utf-8") as f:
            thresholds = json.load(f)
        modelled = modelled_ids(args.dsls)
        results = analyse(args.dsls, args.corpus, list(labels))
    except CorpusError as e:
        print(f"corpus problem:\n{e}", file=sys.stderr)
        return 1
    except (OSError, ValueError, subprocess.SubprocessError) as e:
        print(f"cannot measure: {e}", file=sys.stderr)
        return 2
    figures, rows, unmodelled = score(labels, results, modelled)
    print(table(figures, unmodelled, len(rows)))
    if args.verbose:
        print()
        print(per_log_rows(rows))
    if args.raise_floors:
        thresholds = raised_floors(figures, thresholds)
        write_thresholds(args.thresholds, thresholds)
        print(f"floors written to {args.thresholds}")
    if args.write:
        write_doc(args.write, figures, rows, unmodelled, thresholds)
        print(f"figures written to {args.write}")
    if args.check:
        problems = check_floors(figures, thresholds)
        for p in problems:
            print(f"FAIL: {p}", file=sys.stderr)
        if problems:
            return 1
        print("every figure is at or above its floor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
