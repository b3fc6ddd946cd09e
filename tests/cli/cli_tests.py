#!/usr/bin/env python3
"""End-to-end tests of `dsls check`, `rules`, `explain` and `schema`, driving the real binary.

Usage: cli_tests.py SUITE [unittest options]   (SUITE is one TestCase class below)
Environment: DSLS_BIN (the dsls binary), DSLS_CORPUS_DIR (real ds_configs; CorpusGolden is
skipped loudly without it), DSLS_NPM_CI (installs the node validators), DSLS_UPDATE_GOLDEN=1
to rewrite the golden files instead of comparing with them. Exit 77 means skipped.
"""
import json
import os
import re
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
GOLDEN = HERE / "golden"
DSLS = os.environ.get("DSLS_BIN", "")
CORPUS = Path(os.environ.get("DSLS_CORPUS_DIR", str(HERE.parents[2] / "shared" / "corpus" / "configs")))
UPDATE = os.environ.get("DSLS_UPDATE_GOLDEN") == "1"
SKIP = 77

FORMATS = {"text": "txt", "json": "json", "sarif": "sarif", "github": "github.txt"}
# Goldens must not depend on the machine: no pyproject.toml or pins, no colour, fixed docs URL.
STABLE = ["--isolated", "--color", "never", "--rule-docs-url", "https://dsls.invalid/rules/"]


def run(args, cwd=None, stdin=None, env=None):
    """Runs `dsls check ARGS`, or `dsls ARGS` when ARGS start with another command."""
    full_env = dict(os.environ)
    full_env.pop("NO_COLOR", None)
    full_env.update(env or {})
    if not args or args[0] not in ("check", "rules", "explain", "schema", "--version"):
        args = ["check"] + args
    return subprocess.run([DSLS] + args, cwd=cwd, input=stdin, capture_output=True, env=full_env, timeout=600)


def version():
    return run(["--version"]).stdout.decode().split()[-1]


def normalise(text):
    """The dsls version is the only thing in an output that changes without a behaviour change."""
    return text.replace(f'"{version()}"', '"<dsls-version>"')


def compare_golden(case, name, actual):
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    case.assertTrue(path.exists(), f"no golden file {path}; run with DSLS_UPDATE_GOLDEN=1 to create it")
    expected = path.read_text(encoding="utf-8")
    if expected != actual:
        import difflib
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                            f"golden/{name}", "actual", n=2))
        case.fail(f"output differs from golden/{name} (DSLS_UPDATE_GOLDEN=1 rewrites it):\n{diff[:6000]}")


def copy_tree(src, dst):
    shutil.copytree(src, dst)
    for p in Path(dst).rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)


def tree_bytes(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(Path(root).rglob("*")) if p.is_file()}


def split_lines(text):
    """Lines with their terminators, split at "\n" only (as diff does; str.splitlines also splits at "\r")."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def apply_unified_diff(files, diff):
    """Applies `diff` (as dsls check --diff prints it) to {path: text}; checks every context line."""
    lines = split_lines(diff)
    i = 0
    out = dict(files)
    while i < len(lines):
        assert lines[i].startswith("--- a/"), lines[i]
        name = lines[i][6:].rstrip("\n")
        assert lines[i + 1].startswith("+++ b/" + name)
        i += 2
        src = split_lines(files[name])
        result, at = [], 0
        while i < len(lines) and lines[i].startswith("@@"):
            m = re.match(r"@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@", lines[i])
            start, count, new_count = int(m.group(1)), int(m.group(2) or 1), int(m.group(3) or 1)
            first = start if count == 0 else start - 1
            result += src[at:first]
            at = first
            i += 1
            last = " "
            # A hunk holds exactly `count` old and `new_count` new lines (plus "\ No newline" markers).
            while count or new_count or (i < len(lines) and lines[i].startswith("\\")):
                line = lines[i]
                if line.startswith("\\"):
                    if last != "-" and result and result[-1].endswith("\n"):
                        result[-1] = result[-1][:-1]
                elif line[0] in " -":
                    assert src[at].rstrip("\n") == line[1:].rstrip("\n"), (src[at], line)
                    if line[0] == " ":
                        result.append(src[at])
                        new_count -= 1
                    count -= 1
                    at += 1
                else:
                    assert line[0] == "+", line
                    result.append(line[1:])
                    new_count -= 1
                last = line[0]
                i += 1
        result += src[at:]
        out[name] = "".join(result)
    return out


class CliTest(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="dsls-cli-"))

    def tearDown(self):
        for p in self.tmp.rglob("*"):
            try:
                p.chmod(0o700 if p.is_dir() else 0o600)
            except OSError:
                pass
        shutil.rmtree(self.tmp, ignore_errors=True)

    def check_json(self, args, cwd=None, stdin=None):
        r = run(args + ["--format", "json"], cwd=cwd, stdin=stdin)
        return r, json.loads(r.stdout)


class Golden(CliTest):
    """Each format on each fixture, byte for byte."""

    def test_fixture_goldens(self):
        files = sorted(str(p.relative_to(FIXTURES)) for p in FIXTURES.rglob("*") if p.is_file())
        self.assertGreaterEqual(len(files), 4)
        for rel in files:
            for fmt, ext in FORMATS.items():
                with self.subTest(file=rel, format=fmt):
                    # Every finding, notes and hints included; the default is tested below.
                    r = run(STABLE + ["--format", fmt, "--min-severity", "hint", rel], cwd=FIXTURES)
                    self.assertIn(r.returncode, (0, 1), r.stderr.decode())
                    compare_golden(self, f"fixtures/{rel}.{ext}", normalise(r.stdout.decode()))

    def test_default_output_shows_errors_and_warnings_only(self):
        rel = "logs/train_oom_rank3.log"  # one error, and collateral failures as information
        _, everything = self.check_json(STABLE + ["--min-severity", "hint", rel], cwd=FIXTURES)
        levels = {x["severity"] for f in everything["files"] for x in f["findings"]}
        self.assertEqual(levels, {"error", "information"})
        _, default = self.check_json(STABLE + [rel], cwd=FIXTURES)
        self.assertEqual({x["severity"] for f in default["files"] for x in f["findings"]}, {"error"})
        sarif = json.loads(run(STABLE + ["--format", "sarif", rel], cwd=FIXTURES).stdout)
        self.assertEqual({x["level"] for x in sarif["runs"][0]["results"]}, {"error"})
        github = run(STABLE + ["--format", "github", rel], cwd=FIXTURES).stdout.decode()
        self.assertNotIn("::notice", github)
        self.assertIn("::error", github)
        text = run(STABLE + [rel], cwd=FIXTURES).stdout.decode()
        self.assertIn("4 information and hint findings not shown (--min-severity hint shows them).", text)
        # --fail-on information shows what it fails on.
        r, failing = self.check_json(STABLE + ["--fail-on", "information", rel], cwd=FIXTURES)
        self.assertIn("information", {x["severity"] for f in failing["files"] for x in f["findings"]})

    def test_columns_count_code_points(self):
        r, doc = self.check_json(STABLE + ["configs/ds_config_zero2.json"], cwd=FIXTURES)
        lines = (FIXTURES / "configs/ds_config_zero2.json").read_text(encoding="utf-8").split("\n")
        found = [f for f in doc["files"][0]["findings"] if "gradient_clipping" in f["message"] and
                 f["code"] == "invalid-value"]
        self.assertEqual(len(found), 1)
        start = found[0]["range"]["start"]
        line = lines[start["line"] - 1]
        self.assertEqual(line[start["column"] - 1:start["column"] + 4], '"yes"')
        self.assertNotEqual(start["column"], len(line.encode()[:start["offset"]]) + 1)  # bytes would differ

    def test_text_shows_source_caret_and_fix(self):
        r = run(STABLE + ["configs/ds_config_zero2.json"], cwd=FIXTURES)
        text = r.stdout.decode()
        self.assertRegex(text, r"configs/ds_config_zero2\.json:12:28: warning \[json-comment-or-trailing-comma\]")
        self.assertIn('  "bf16": {"enabled": true},\n', text)
        self.assertRegex(text, r"\n +\| +\^\n")
        self.assertIn("= fix: Remove the trailing comma (--fix applies it)", text)
        self.assertNotIn("\x1b[", text)

    def test_colour_only_when_asked_or_on_a_terminal(self):
        args = ["--isolated", "configs/ds_config_zero2.json"]
        self.assertIn("\x1b[", run(args + ["--color", "always"], cwd=FIXTURES).stdout.decode())
        self.assertNotIn("\x1b[", run(args, cwd=FIXTURES).stdout.decode())  # a pipe is no terminal
        if shutil.which("script"):
            cmd = " ".join([DSLS, "check"] + args)
            tty = subprocess.run(["script", "-qec", cmd, "/dev/null"], cwd=FIXTURES, capture_output=True,
                                 env={**os.environ, "NO_COLOR": ""})
            self.assertIn("\x1b[", tty.stdout.decode(errors="replace"))
            no = subprocess.run(["script", "-qec", cmd, "/dev/null"], cwd=FIXTURES, capture_output=True,
                                env={**os.environ, "NO_COLOR": "1"})
            self.assertNotIn("\x1b[1;", no.stdout.decode(errors="replace"))

    def test_github_annotations_are_escaped(self):
        r = run(STABLE + ["--format", "github", "configs/ds_config_zero2.json"], cwd=FIXTURES)
        lines = r.stdout.decode().splitlines()
        self.assertTrue(lines)
        for line in lines:
            m = re.fullmatch(r"::(error|warning|notice) file=([^,]+),line=(\d+),col=(\d+),endLine=(\d+),"
                             r"endColumn=(\d+),title=([^:,]+)::(.*)", line)
            self.assertIsNotNone(m, line)
            self.assertNotIn("\n", m.group(8))

    def test_log_report_in_text_and_json(self):
        r = run(STABLE + ["logs/train_oom_rank3.log"], cwd=FIXTURES)
        text = r.stdout.decode()
        self.assertEqual(r.returncode, 1)
        self.assertIn("[log-cuda-oom]", text)
        self.assertIn("Log report for logs/train_oom_rank3.log", text)
        self.assertNotIn("<svg", text)
        r, doc = self.check_json(STABLE + ["logs/train_oom_rank3.log"], cwd=FIXTURES)
        f = doc["files"][0]
        self.assertEqual(f["kind"], "log")
        self.assertIn("log", f)
        self.assertTrue(any(x["code"] == "log-cuda-oom" and x["severity"] == "error" for x in f["findings"]))
        self.assertNotIn("log", self.check_json(STABLE + ["--no-log-report", "logs/train_oom_rank3.log"],
                                                cwd=FIXTURES)[1]["files"][0])

    def test_json_document_shape(self):
        r, doc = self.check_json(STABLE + ["."], cwd=FIXTURES)
        self.assertEqual(doc["version"], 1)
        self.assertEqual(list(doc), ["version", "tool", "files", "skipped", "errors", "summary"])
        s = doc["summary"]
        self.assertEqual(s["findings"], sum(len(f["findings"]) for f in doc["files"]))
        self.assertEqual(s["findings"], sum(s["bySeverity"].values()))
        self.assertEqual(s["filesChecked"], len(doc["files"]))
        for f in doc["files"]:
            for x in f["findings"]:
                self.assertEqual(set(x), {"code", "severity", "message", "range", "tags", "related", "fixes"})
                self.assertGreaterEqual(x["range"]["start"]["line"], 1)
                self.assertGreaterEqual(x["range"]["start"]["column"], 1)
                for fix in x["fixes"]:
                    self.assertEqual(set(fix), {"title", "preferred", "safe", "edits"})


class RunFolders(CliTest):
    """`dsls check DIR` on per-rank logs: one job per run folder, findings at each file's lines."""

    JOBS = HERE.parent / "fixtures" / "logs" / "jobs"

    def test_job_goldens(self):
        for folder in ("each-rank-log", "torchrun-log-dir"):
            for fmt in ("text", "json", "github"):
                with self.subTest(folder=folder, format=fmt):
                    r = run(STABLE + ["--format", fmt, "--min-severity", "hint", folder], cwd=self.JOBS)
                    self.assertEqual(r.returncode, 1, r.stderr.decode())
                    compare_golden(self, f"jobs/{folder}.{FORMATS[fmt]}", normalise(r.stdout.decode()))

    def initiating(self, folder):
        r, doc = self.check_json(STABLE + [folder], cwd=self.JOBS)
        self.assertEqual(len(doc["jobs"]), 1)
        job = doc["jobs"][0]
        roots = [f for f in job["report"]["findings"] if f["initiating"]]
        self.assertEqual(len(roots), 1)
        return doc, job, roots[0]

    def test_each_rank_log_job(self):
        doc, job, root = self.initiating("each-rank-log")
        self.assertEqual(job["layout"], "deepspeed-each-rank-log")
        self.assertEqual(job["ranks"], [0, 1, 2, 3])
        self.assertEqual([f["rank"] for f in job["files"]], [0, 1, 2, 3])
        self.assertEqual((root["id"], root["initiatingRank"]), ("cuda-oom", 2))
        self.assertEqual(root["collateralRanks"], [0, 1, 3])
        self.assertEqual(root["evidence"][0]["file"], "each-rank-log/20241206140012_rank2.log")
        self.assertEqual(root["evidence"][0]["line"], 13)
        self.assertEqual(job["report"]["timelineAxis"], "wall-clock")
        # The finding sits on rank 2's own line 13; the job's files are all checked.
        errors = [(f["path"], x["range"]["start"]["line"]) for f in doc["files"] for x in f["findings"]
                  if x["severity"] == "error"]
        self.assertEqual(errors, [("each-rank-log/20241206140012_rank2.log", 13)])
        self.assertEqual(doc["summary"]["filesChecked"], 4)

    def test_torchrun_log_dir_job(self):
        doc, job, root = self.initiating("torchrun-log-dir")
        self.assertEqual(job["layout"], "torchrun-log-dir")
        self.assertTrue(job["localRanks"])
        self.assertEqual((root["id"], root["initiatingRank"]), ("python-exception", 1))
        self.assertIn("local rank", root["rankReason"])
        recorded = [f for f in job["files"] if "recordedError" in f]
        self.assertEqual([(f["rank"], f["recordedError"]["timestamp"]) for f in recorded], [(1, 1733476365)])

    def test_sarif_names_the_job(self):
        r = run(STABLE + ["--format", "sarif", "each-rank-log"], cwd=self.JOBS)
        doc = json.loads(r.stdout)
        jobs = doc["runs"][0]["properties"]["jobs"]
        self.assertEqual([(j["name"], j["layout"], j["ranks"]) for j in jobs],
                         [("20241206140012", "deepspeed-each-rank-log", [0, 1, 2, 3])])
        errors = [(x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                   x["locations"][0]["physicalLocation"]["region"]["startLine"])
                  for x in doc["runs"][0]["results"] if x["level"] == "error"]
        self.assertEqual(errors, [("each-rank-log/20241206140012_rank2.log", 13)])

    def test_named_rank_files_are_one_job(self):
        files = sorted(str(p.relative_to(self.JOBS)) for p in (self.JOBS / "each-rank-log").glob("*_rank*.log"))
        self.assertEqual(len(files), 4)
        r, doc = self.check_json(STABLE + files, cwd=self.JOBS)
        self.assertEqual([(j["layout"], j["ranks"]) for j in doc["jobs"]], [("deepspeed-each-rank-log", [0, 1, 2, 3])])
        root = [f for f in doc["jobs"][0]["report"]["findings"] if f["initiating"]]
        self.assertEqual([(f["id"], f["initiatingRank"]) for f in root], [("cuda-oom", 2)])
        self.assertEqual(doc["summary"]["filesChecked"], 4)
        # One rank's files named alone are logs of their own, not a job: a rank file of either layout.
        rank1 = sorted(str(p.relative_to(self.JOBS)) for p in self.JOBS.glob("torchrun-log-dir/*/attempt_0/1/*.log"))
        self.assertEqual(len(rank1), 2)
        for alone in ([files[2]], rank1):
            with self.subTest(files=alone):
                r, doc = self.check_json(STABLE + alone, cwd=self.JOBS)
                self.assertNotIn("jobs", doc)
                self.assertIn(alone[0], [f["path"] for f in doc["files"]])
        # All of a torchrun run's files named: one job, as the folder is.
        named = sorted(str(p.relative_to(self.JOBS)) for p in self.JOBS.glob("torchrun-log-dir/*/attempt_0/*/*"))
        r, doc = self.check_json(STABLE + named, cwd=self.JOBS)
        self.assertEqual([(j["layout"], j["ranks"]) for j in doc["jobs"]], [("torchrun-log-dir", [0, 1, 2, 3])])

    def test_unrelated_logs_are_no_job(self):
        r, doc = self.check_json(STABLE + ["not-a-job"], cwd=self.JOBS)
        self.assertNotIn("jobs", doc)
        self.assertEqual(doc["summary"]["filesChecked"], 4)


class CorpusGolden(CliTest):
    """Text and json goldens for every real config of the corpus; sarif and github for all at once."""

    def test_corpus_goldens(self):
        files = sorted(p.name for p in CORPUS.iterdir() if p.is_file())
        self.assertGreater(len(files), 10)
        for name in files:
            for fmt in ("text", "json"):
                with self.subTest(file=name, format=fmt):
                    r = run(STABLE + ["--format", fmt, name], cwd=CORPUS)
                    self.assertIn(r.returncode, (0, 1), r.stderr.decode())
                    self.assertEqual(r.stderr.decode(), "")
                    compare_golden(self, f"corpus/{name}.{FORMATS[fmt]}", normalise(r.stdout.decode()))
        for fmt in ("sarif", "github"):
            r = run(STABLE + ["--format", fmt, "."], cwd=CORPUS)
            compare_golden(self, f"corpus/all.{FORMATS[fmt]}", normalise(r.stdout.decode()))
        # A folder run reports every corpus file: none is mistaken for something else.
        doc = json.loads(run(STABLE + ["--format", "json", "."], cwd=CORPUS).stdout)
        self.assertEqual(sorted(f["path"] for f in doc["files"]), files)


def npm_ci():
    script = os.environ.get("DSLS_NPM_CI", str(HERE.parents[1] / "tests" / "editors" / "lib" / "npm-ci.sh"))
    if not shutil.which("node") or not Path(script).exists():
        return "node or the npm-ci helper is missing"
    r = subprocess.run(["bash", script, str(HERE)], capture_output=True, timeout=600)
    if r.returncode == SKIP:
        return r.stderr.decode().strip()
    if r.returncode != 0:
        raise RuntimeError("npm ci failed: " + r.stderr.decode()[-2000:])
    return None


def validate(*args):
    return subprocess.run(["node", str(HERE / "validate.cjs")] + [str(a) for a in args], capture_output=True,
                          timeout=300)


class Sarif(CliTest):
    """SARIF output against the SARIF 2.1.0 schema, and what GitHub code scanning needs besides."""

    def setUp(self):
        super().setUp()
        why = npm_ci()
        if why:
            self.skipTest(why)

    def sarif_of(self, args, cwd, codes=(0, 1)):
        r = run(["--format", "sarif"] + args, cwd=cwd)
        self.assertIn(r.returncode, codes, r.stderr.decode())
        out = self.tmp / f"out{len(list(self.tmp.iterdir()))}.sarif"
        out.write_bytes(r.stdout)
        v = validate("sarif", out)
        self.assertEqual(v.returncode, 0, v.stderr.decode() + v.stdout.decode())
        return json.loads(r.stdout)

    def test_fixtures_and_corpus_validate(self):
        docs = [self.sarif_of(STABLE + ["."], FIXTURES), self.sarif_of(["--isolated", "."], FIXTURES)]
        if CORPUS.is_dir():
            docs.append(self.sarif_of(STABLE + ["."], CORPUS))
        for doc in docs:
            run_ = doc["runs"][0]
            rules = run_["tool"]["driver"]["rules"]
            ids = [r["id"] for r in rules]
            self.assertEqual(len(ids), len(set(ids)))
            for rule in rules:
                self.assertTrue(rule["shortDescription"]["text"])
                self.assertRegex(rule["helpUri"], r"^(https|file)://")
            self.assertTrue(run_["results"])
            for res in run_["results"]:
                self.assertEqual(ids[res["ruleIndex"]], res["ruleId"])
                loc = res["locations"][0]["physicalLocation"]
                self.assertFalse(loc["artifactLocation"]["uri"].startswith("/"))
                self.assertGreaterEqual(loc["region"]["startLine"], 1)
                self.assertGreaterEqual(loc["region"]["startColumn"], 1)
                self.assertIn(res["level"], ("error", "warning", "note"))

    def test_rules_come_from_the_registry(self):
        doc = self.sarif_of(STABLE + ["configs/zero1_clean_ds_config.json"], FIXTURES)
        listed = [r["id"] for r in doc["runs"][0]["tool"]["driver"]["rules"]]
        registry = [r["code"] for r in json.loads(run(["rules", "--format", "json"]).stdout)]
        self.assertEqual(listed, registry)

    def test_io_errors_become_notifications(self):
        doc = self.sarif_of(["--isolated", "missing.json", "configs"], FIXTURES, codes=(2,))
        inv = doc["runs"][0]["invocations"][0]
        self.assertFalse(inv["executionSuccessful"])
        self.assertEqual(len(inv["toolExecutionNotifications"]), 1)


class Schema(CliTest):
    """dsls schema compiles as a strict draft 2020-12 schema and judges configs as DeepSpeed would."""

    def test_schema(self):
        r = run(["schema"])
        self.assertEqual(r.returncode, 0)
        schema = json.loads(r.stdout)
        self.assertEqual(schema["$schema"], "https://json-schema.org/draft/2020-12/schema")
        zero = schema["properties"]["zero_optimization"]
        self.assertFalse(zero["additionalProperties"])
        self.assertIn("overlap_comm", zero["properties"])
        self.assertTrue(any(p.get("deprecated") for p in zero["properties"].values()))
        why = npm_ci()
        if why:
            self.skipTest(why)
        (self.tmp / "schema.json").write_bytes(r.stdout)
        good = self.tmp / "good.json"
        good.write_text(json.dumps({"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": 4,
                                    "zero_optimization": {"stage": 3, "overlap_comm": True,
                                                          "offload_optimizer": {"device": "cpu"}},
                                    "bf16": {"enabled": "auto"}}))
        typo = self.tmp / "typo.json"
        typo.write_text(json.dumps({"zero_optimization": {"stage": 2, "comm_overlap": True}}))
        bad_stage = self.tmp / "bad_stage.json"
        bad_stage.write_text(json.dumps({"zero_optimization": {"stage": 4}}))
        clean = FIXTURES / "configs" / "zero1_clean_ds_config.json"
        v = validate("schema", self.tmp / "schema.json", good, clean, "!" + str(typo), "!" + str(bad_stage))
        self.assertEqual(v.returncode, 0, v.stderr.decode() + v.stdout.decode())


class Fix(CliTest):
    """--fix rewrites only what it fixes, keeps modes, is idempotent; --diff writes nothing."""

    def test_fix_idempotent_and_minimal(self):
        work = self.tmp / "w"
        copy_tree(FIXTURES, work)
        target = work / "configs" / "ds_config_zero2.json"
        target.chmod(0o640)
        before = tree_bytes(work)
        # The race fix is safe only on a release known to have the race.
        r = run(["--isolated", "--deepspeed-version", "0.14.2", "--fix", "."], cwd=work)
        self.assertEqual(r.returncode, 1, r.stderr.decode())  # errors without a safe fix remain
        after = tree_bytes(work)
        changed = {k for k in before if before[k] != after[k]}
        self.assertEqual(changed, {"configs/ds_config_zero2.json"})
        self.assertEqual(set(after), set(before))  # no temporary file left behind
        self.assertEqual(stat.S_IMODE(target.stat().st_mode), 0o640)
        text = after["configs/ds_config_zero2.json"].decode()
        self.assertIn('"overlap_comm": false', text)
        self.assertIn('"offload_optimizer"', text)
        self.assertNotIn("},\n}", text)
        self.assertIn("Fixed 3 findings in 1 file.", r.stdout.decode())
        mtime = target.stat().st_mtime_ns
        time.sleep(0.01)
        r2 = run(["--isolated", "--deepspeed-version", "0.14.2", "--fix", "."], cwd=work)
        self.assertEqual(tree_bytes(work), after)
        self.assertEqual(target.stat().st_mtime_ns, mtime)  # not even rewritten
        self.assertNotIn("Fixed", r2.stdout.decode())
        _, doc = self.check_json(["--isolated", "--deepspeed-version", "0.14.2", "."], cwd=work)
        self.assertEqual(doc["summary"]["fixable"], 0)

    def test_race_fix_left_alone_when_the_version_is_unknown(self):
        work = self.tmp / "w"
        copy_tree(FIXTURES, work)
        target = work / "configs" / "ds_config_zero2.json"
        r = run(["--isolated", "--fix", "configs/ds_config_zero2.json"], cwd=work)
        self.assertIn('"overlap_comm": true', target.read_text())
        out = r.stdout.decode()
        self.assertIn("Set overlap_comm to false", out)  # offered ...
        self.assertNotIn("Set overlap_comm to false (--fix applies it)", out)  # ... not applied
        self.assertIn("set the release (--deepspeed-version or deepspeed-version in [tool.dsls])", out)  # its own flag
        self.assertNotIn("dsls.deepspeedVersion", out)
        # A release that is fixed: no race finding at all; one that has the race: applied.
        run(["--isolated", "--deepspeed-version", "0.14.2", "--fix", "configs/ds_config_zero2.json"], cwd=work)
        self.assertIn('"overlap_comm": false', target.read_text())

    def test_diff_matches_fix_and_writes_nothing(self):
        work = self.tmp / "w"
        copy_tree(FIXTURES, work)
        if CORPUS.is_dir():
            copy_tree(CORPUS, work / "corpus")
        before = tree_bytes(work)
        d = run(["--isolated", "--diff", "."], cwd=work)
        self.assertEqual(d.returncode, 1, d.stderr.decode())
        self.assertEqual(tree_bytes(work), before)
        self.assertIn("would be fixed", d.stderr.decode())
        texts = {k: v.decode() for k, v in before.items() if k.endswith(".json")}
        patched = apply_unified_diff(texts, d.stdout.decode())
        f = run(["--isolated", "--fix", "."], cwd=work)
        self.assertIn(f.returncode, (0, 1))
        fixed = {k: v.decode() for k, v in tree_bytes(work).items() if k.endswith(".json")}
        self.assertEqual(patched, fixed)
        again = run(["--isolated", "--diff", "."], cwd=work)
        self.assertEqual(again.returncode, 0)
        self.assertEqual(again.stdout, b"")

    def test_symlinked_config_is_fixed_through_the_link(self):
        real = self.tmp / "real_ds_config.json"
        real.write_text('{"zero_optimization": {"stage": 1},}\n')
        link = self.tmp / "ds_config.json"
        link.symlink_to(real.name)
        run(["--isolated", "--fix", "ds_config.json"], cwd=self.tmp)
        self.assertTrue(link.is_symlink())
        self.assertEqual(real.read_text(), '{"zero_optimization": {"stage": 1}}\n')


class ExitCodes(CliTest):
    def test_exit_codes(self):
        clean = ["--isolated", "configs/zero1_clean_ds_config.json"]
        warn_only = self.tmp / "ds_config.json"
        warn_only.write_text('{"zero_optimization": {"stage": 1},}\n')
        cases = [
            (clean, FIXTURES, 0),
            (["--isolated", "configs/ds_config_zero2.json"], FIXTURES, 1),
            (["--isolated", "ds_config.json"], self.tmp, 1),
            (["--isolated", "--fail-on", "error", "ds_config.json"], self.tmp, 0),
            (["--isolated", "--ignore", "json-comment-or-trailing-comma", "ds_config.json"], self.tmp, 0),
            (["--isolated", "--select", "unknown-key", "ds_config.json"], self.tmp, 0),
            (["--isolated", "--select", "json-*", "ds_config.json"], self.tmp, 1),
            (["--isolated", "no-such-file.json"], FIXTURES, 2),
            (clean + ["no-such-file.json"], FIXTURES, 2),
            (["--isolated", "--format", "xml", "."], FIXTURES, 2),
            (["--isolated"], FIXTURES, 2),
            (["--isolated", "--unknown-flag", "."], FIXTURES, 2),
            (["--isolated", "other"], FIXTURES, 0),
        ]
        for args, cwd, code in cases:
            with self.subTest(args=args):
                r = run(args, cwd=cwd)
                self.assertEqual(r.returncode, code, r.stdout.decode() + r.stderr.decode())
        r = run(["--isolated", "--fail-on", "hint", "configs/zero1_clean_ds_config.json"], cwd=FIXTURES)
        _, doc = self.check_json(["--isolated", "configs/zero1_clean_ds_config.json"], cwd=FIXTURES)
        self.assertEqual(r.returncode, 1 if doc["summary"]["findings"] else 0)

    def test_usage_errors_name_the_problem(self):
        r = run(["check", "--world-size", "zero", "x"])
        self.assertEqual(r.returncode, 2)
        self.assertIn("--world-size", r.stderr.decode())
        self.assertEqual(r.stdout, b"")

    def test_help(self):
        r = run(["check", "--help"])
        self.assertEqual(r.returncode, 0)
        self.assertIn("--fail-on", r.stdout.decode())


class Stdin(CliTest):
    def test_named_stdin_config(self):
        text = (FIXTURES / "configs" / "ds_config_zero2.json").read_bytes()
        r = run(STABLE + ["--stdin-filename", "configs/ds_config_zero2.json", "-"], stdin=text, cwd=FIXTURES)
        direct = run(STABLE + ["configs/ds_config_zero2.json"], cwd=FIXTURES)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, direct.stdout)

    def test_stdin_leaves_no_file_behind(self):
        tmpdir = self.tmp / "t"
        tmpdir.mkdir()
        log = (FIXTURES / "logs" / "train_oom_rank3.log").read_bytes()
        r = run(["--isolated", "--stdin-filename", "train.log", "-"], stdin=log, env={"TMPDIR": str(tmpdir)})
        self.assertEqual(r.returncode, 1, r.stderr.decode())
        self.assertIn("train.log:13:1: error [log-cuda-oom]", r.stdout.decode())
        self.assertEqual(list(tmpdir.iterdir()), [])

    def test_unnamed_stdin_is_detected_by_content(self):
        r, doc = self.check_json(["--isolated", "-"], stdin=b'{"train_batch_size": 8, "zero_optimization": {"stage": 9}}')
        self.assertEqual(doc["files"][0]["path"], "-")
        self.assertEqual(doc["files"][0]["kind"], "ds_config")
        log = (FIXTURES / "logs" / "train_oom_rank3.log").read_bytes()
        r, doc = self.check_json(["--isolated", "-"], stdin=log)
        self.assertEqual(doc["files"][0]["kind"], "log")
        r, doc = self.check_json(["--isolated", "-"], stdin=b"hello\n")
        self.assertEqual(doc["files"], [])

    def test_stdin_diff_and_fix(self):
        src = b'{"zero_optimization": {"stage": 1},}\n'
        r = run(["--isolated", "--diff", "--stdin-filename", "ds_config.json", "-"], stdin=src, cwd=self.tmp)
        self.assertEqual(r.returncode, 1)
        self.assertIn("+++ b/ds_config.json", r.stdout.decode())
        self.assertEqual(list(self.tmp.iterdir()), [])
        r = run(["--isolated", "--fix", "-"], stdin=src)
        self.assertEqual(r.returncode, 2)


class Inputs(CliTest):
    """Folder walking, filters, binary, huge and unreadable files."""

    def make_tree(self):
        root = self.tmp / "repo"
        cfg = '{"zero_optimization": {"stage": 1},}\n'
        for rel in ["a/ds_config.json", "b/zero2.json", ".git/ds_config.json", "node_modules/x/ds_config.json",
                    "build/ds_config.json", "build-asan/ds_config.json", "venv/ds_config.json"]:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(cfg)
        (root / "a" / "package.json").write_text('{"name": "x"}\n')
        (root / "a" / "notes.txt").write_text("just notes\n")
        (root / "runs").mkdir()
        shutil.copy(FIXTURES / "logs" / "train_oom_rank3.log", root / "runs" / "train.txt")
        return root

    def paths(self, args, cwd):
        r, doc = self.check_json(["--isolated"] + args, cwd=cwd)
        return sorted(f["path"] for f in doc["files"]), r

    def test_walk_skips_vcs_dependency_and_build_folders(self):
        root = self.make_tree()
        found, r = self.paths(["."], root)
        self.assertEqual(found, ["a/ds_config.json", "b/zero2.json", "runs/train.txt"])
        self.assertEqual(r.stderr, b"")
        named, _ = self.paths(["build/ds_config.json"], root)  # named files are checked wherever they are
        self.assertEqual(named, ["build/ds_config.json"])

    def test_include_and_exclude(self):
        root = self.make_tree()
        self.assertEqual(self.paths(["--include", "*.json", "."], root)[0], ["a/ds_config.json", "b/zero2.json"])
        self.assertEqual(self.paths(["--exclude", "a", "."], root)[0], ["b/zero2.json", "runs/train.txt"])
        self.assertEqual(self.paths(["--exclude", "**/zero*.json", "--exclude", "runs/*", "."], root)[0],
                         ["a/ds_config.json"])
        self.assertEqual(self.paths(["--exclude", "a/ds_config.json", "a/ds_config.json"], root)[0], [])

    def test_duplicates_are_reported_once(self):
        root = self.make_tree()
        self.assertEqual(self.paths(["a", "a/ds_config.json", "./a/ds_config.json"], root)[0], ["a/ds_config.json"])

    def test_binary_file_is_skipped_with_a_message(self):
        (self.tmp / "ds_config.json").write_bytes(b'{"zero_optimization": \x00\x01\x02}')
        r = run(["--isolated", "ds_config.json"], cwd=self.tmp)
        self.assertEqual(r.returncode, 0)
        self.assertIn("ds_config.json: skipped: binary file", r.stderr.decode())
        _, doc = self.check_json(["--isolated", "ds_config.json"], cwd=self.tmp)
        self.assertEqual(doc["skipped"][0]["path"], "ds_config.json")

    def test_huge_config_is_skipped_with_a_message(self):
        big = self.tmp / "ds_config.json"
        with big.open("w") as f:
            f.write('{"train_batch_size": 8, "pad": "')
            f.write("x" * (17 << 20))
            f.write('"}\n')
        r = run(["--isolated", "ds_config.json"], cwd=self.tmp)
        self.assertEqual(r.returncode, 0)
        self.assertIn("larger than 16 MiB", r.stderr.decode())

    def test_unreadable_file_is_an_io_error(self):
        if os.geteuid() == 0:
            # Permissions do not stop root; a file whose every read fails does.
            (self.tmp / "ds_config.json").symlink_to("/proc/self/mem")
        else:
            (self.tmp / "ds_config.json").write_text("{}")
            (self.tmp / "ds_config.json").chmod(0)
        r = run(["--isolated", "ds_config.json", str(FIXTURES / "configs")], cwd=self.tmp)
        self.assertEqual(r.returncode, 2)
        self.assertIn("ds_config.json:", r.stderr.decode())
        self.assertIn("Found", r.stdout.decode())  # the other files were still checked

    def test_fifo_is_refused_without_blocking(self):
        os.mkfifo(self.tmp / "ds_config.json")
        r = run(["--isolated", "ds_config.json"], cwd=self.tmp)
        self.assertEqual(r.returncode, 2)
        self.assertIn("not a regular file", r.stderr.decode())
        self.assertEqual(run(["--isolated", "."], cwd=self.tmp).returncode, 0)  # in a folder it is passed over

    def test_terminal_control_characters_are_not_printed(self):
        (self.tmp / "train.log").write_bytes(
            b"\x1b[31m[rank1]: Traceback (most recent call last):\x1b[0m\n"
            b"\x1b[31m[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\x1b]0;x\x07\n")
        r = run(["--isolated", "--color", "never", "train.log"], cwd=self.tmp)
        self.assertIn(b"OutOfMemoryError", r.stdout)
        self.assertNotIn(b"\x1b", r.stdout)
        self.assertNotIn(b"\x07", r.stdout)

    def test_empty_and_odd_files_do_not_crash(self):
        odd = {"empty_ds_config.json": b"", "ds_config_array.json": b"[1, 2", "ds_config_deep.json": b"[" * 100000,
               "ds_config_bad_utf8.json": b'{"train_batch_size": "\xff\xfe", "x": 1}',
               "crlf.log": b"[rank0]: Traceback (most recent call last):\r\n[rank0]: ValueError: bad\r\n"}
        for name, data in odd.items():
            (self.tmp / name).write_bytes(data)
        for fmt in FORMATS:
            r = run(["--isolated", "--format", fmt, "."], cwd=self.tmp)
            self.assertIn(r.returncode, (0, 1), f"{fmt}: {r.stderr.decode()}")
            if fmt in ("json", "sarif"):
                json.loads(r.stdout)


class ProjectSettings(CliTest):
    """[tool.dsls] in pyproject.toml, version pins, and flags that win over both."""

    config = '{"zero_optimization": {"stage": 2, "overlap_comm": true, "comm_overlap": 1}}\n'

    def codes(self, args, cwd):
        r, doc = self.check_json(args, cwd=cwd)
        return sorted({x["code"] for f in doc["files"] for x in f["findings"]}), r, doc

    def project(self, toml):
        root = self.tmp / "proj"
        (root / ".git").mkdir(parents=True)
        (root / "configs").mkdir()
        (root / "configs" / "ds_config.json").write_text(self.config)
        if toml is not None:
            (root / "pyproject.toml").write_text(toml)
        return root

    def race_message(self, doc):
        return next(x["message"] for f in doc["files"] for x in f["findings"] if x["code"] == "overlap-comm-race")

    def test_pyproject_settings_apply_and_flags_win(self):
        root = self.project('[project]\nname = "t"\n\n[tool.dsls]\ndeepspeed-version = "0.14.0"\n'
                            'ignore = ["unknown-key"]\nrules = { overlap-comm-race = "error" }\n')
        codes, r, doc = self.codes(["configs"], root)
        self.assertNotIn("unknown-key", codes)
        race = [x for f in doc["files"] for x in f["findings"] if x["code"] == "overlap-comm-race"]
        self.assertEqual(race[0]["severity"], "error")
        self.assertIn("0.14.0", race[0]["message"])
        codes, r, doc = self.codes(["--deepspeed-version", "0.13.1", "--select", "unknown-key,overlap-comm-race",
                                    "configs"], root)
        self.assertIn("unknown-key", codes)  # an explicit --select wins over the project's ignore
        self.assertIn("0.13.1", self.race_message(doc))

    def test_ignore_from_flags_adds_to_pyproject(self):
        root = self.project('[tool.dsls]\nignore = ["unknown-key"]\n')
        codes, _, _ = self.codes(["--ignore", "overlap-comm-race", "configs"], root)
        self.assertNotIn("unknown-key", codes)
        self.assertNotIn("overlap-comm-race", codes)

    def test_isolated_ignores_pyproject(self):
        root = self.project('[tool.dsls]\nignore = ["unknown-key"]\n')
        codes, _, _ = self.codes(["--isolated", "configs"], root)
        self.assertIn("unknown-key", codes)

    def test_version_pin_is_used(self):
        root = self.project(None)
        (root / "requirements.txt").write_text("deepspeed==0.14.0\ntorch==2.3.1\n")
        _, _, doc = self.codes(["configs"], root)
        self.assertIn("0.14.0", self.race_message(doc))
        self.assertIn("requirements.txt", self.race_message(doc))

    def test_declared_range_gives_a_definite_race_and_its_fix(self):
        root = self.project('[project]\nname = "t"\n\n[project.optional-dependencies]\n'
                            'train = ["deepspeed>=0.18.6,<0.19.0"]\n')
        _, r, doc = self.codes(["configs"], root)
        race = [x for f in doc["files"] for x in f["findings"] if x["code"] == "overlap-comm-race"]
        self.assertEqual(len(race), 1, doc)
        self.assertEqual(race[0]["severity"], "warning")
        self.assertIn("every release `>=0.18.6,<0.19.0` (from pyproject.toml) allows (0.18.6 to 0.18.9) has a known "
                      "race", race[0]["message"])
        self.assertIn("allocator-reuse on 0.18.6 to 0.18.9 (fixed in 0.19.0)", race[0]["message"])
        self.assertEqual(r.stderr.decode(), "")
        fixed = run(["--fix", "configs"], cwd=root)
        self.assertIn(fixed.returncode, (0, 1), fixed.stderr)
        self.assertIn('"overlap_comm": false', (root / "configs" / "ds_config.json").read_text())

    def test_declared_range_after_the_last_fix_is_quiet(self):
        root = self.project(None)
        (root / "requirements").mkdir()
        (root / "requirements.txt").write_text("-r requirements/train.txt\n")
        (root / "requirements" / "train.txt").write_text("deepspeed>=0.19.3\n")
        codes, _, _ = self.codes(["configs"], root)
        self.assertNotIn("overlap-comm-race", codes)

    def test_conflicting_pins_are_reported_and_not_resolved(self):
        root = self.project('[project]\nname = "t"\ndependencies = ["deepspeed==0.15.1"]\n')
        (root / "requirements.txt").write_text("deepspeed==0.14.0\n")
        _, r, doc = self.codes(["configs"], root)
        err = r.stderr.decode()
        self.assertIn("deepspeed is declared `==0.14.0` (requirements.txt:1) and `==0.15.1` (pyproject.toml:3), "
                      "which conflict", err)
        self.assertEqual(err.count("which conflict"), 1, err)
        # Neither pin is taken: the version stays unknown.
        self.assertIn("The DeepSpeed version is unknown", self.race_message(doc))

    def test_config_globs_mark_files(self):
        root = self.project('[tool.dsls]\nconfig-globs = ["training-setup*.json"]\n')
        (root / "configs" / "training-setup-big.json").write_text('{"zero_optimization": {"stage": 7}}\n')
        _, _, doc = self.codes(["configs"], root)
        self.assertIn("configs/training-setup-big.json", [f["path"] for f in doc["files"]])

    def test_broken_pyproject_is_reported_once(self):
        root = self.project('[tool.dsls]\nworld-size = "many"\nlauncher = \n')
        (root / "configs" / "zero_2.json").write_text(self.config)
        r = run(["configs"], cwd=root)
        err = r.stderr.decode()
        self.assertEqual(err.count("not valid TOML"), 1, err)
        self.assertIn(r.returncode, (0, 1))


class Commands(CliTest):
    def test_rules_lists_the_registry(self):
        text = run(["rules"]).stdout.decode()
        rules = json.loads(run(["rules", "--format", "json"]).stdout)
        self.assertGreater(len(rules), 4)
        for r in rules:
            self.assertIn(r["code"], text)
            self.assertIn(r["severity"], ("error", "warning", "information", "hint"))
            self.assertTrue(r["summary"])
        self.assertTrue(any(r["kind"] == "log" for r in rules))
        self.assertEqual(run(["rules", "--bogus"]).returncode, 2)

    def test_explain_every_rule(self):
        docs = HERE.parents[1] / "docs" / "rules"
        for r in json.loads(run(["rules", "--format", "json"]).stdout):
            with self.subTest(code=r["code"]):
                out = run(["explain", r["code"]])
                self.assertEqual(out.returncode, 0)
                page = docs / f"{r['code']}.md"
                if page.exists():
                    self.assertEqual(out.stdout, page.read_bytes() if page.read_bytes().endswith(b"\n")
                                     else page.read_bytes() + b"\n")
                    self.assertTrue(r["documented"])
                else:
                    self.assertIn(r["summary"], out.stdout.decode())
        bad = run(["explain", "no-such-rule"])
        self.assertEqual(bad.returncode, 2)
        self.assertIn("dsls rules", bad.stderr.decode())
        self.assertEqual(run(["explain"]).returncode, 2)

    def test_explain_works_without_the_source_tree(self):
        # The pages are inside the binary: a copy elsewhere explains the same.
        exe = self.tmp / "dsls"
        shutil.copy(DSLS, exe)
        rules = json.loads(run(["rules", "--format", "json"]).stdout)
        documented = [r["code"] for r in rules if r["documented"]]
        if not documented:
            self.skipTest("no docs/rules pages yet")
        a = subprocess.run([str(exe), "explain", documented[0]], capture_output=True, cwd=self.tmp)
        self.assertEqual(a.stdout, run(["explain", documented[0]]).stdout)

    def test_schema_is_stable_json(self):
        a, b = run(["schema"]), run(["schema"])
        self.assertEqual(a.stdout, b.stdout)
        json.loads(a.stdout)
        self.assertEqual(run(["schema", "extra"]).returncode, 2)


class Precommit(CliTest):
    """.pre-commit-hooks.yaml runs `dsls check` on exactly the names dsls itself takes for configs."""

    def hooks(self):
        text = (HERE.parents[1] / ".pre-commit-hooks.yaml").read_text()
        hooks = {}
        for block in re.split(r"(?m)^- ", text)[1:]:
            fields = dict(re.findall(r"(?m)^\s*(\w+): (.*)$", block))
            hooks[fields["id"]] = fields
        return hooks

    def test_hooks(self):
        hooks = self.hooks()
        self.assertEqual(set(hooks), {"dsls", "dsls-fix"})
        self.assertEqual(hooks["dsls"]["entry"], "dsls check")
        self.assertEqual(hooks["dsls-fix"]["entry"], "dsls check --fix")
        pattern = re.compile(hooks["dsls"]["files"].strip("'"))
        names = ["ds_config.json", "configs/DS_Config_zero3.json", "my-ds-config.json", "ds_config.jsonc",
                 "deepspeed_z3.json", "zero2.json", "Zero_Stage3_offload.json", "llama_zero3.json",
                 "x/ds_z3_config.json", "package.json", "config.json", "azero.json", "zero.txt",
                 "my-ds-config.jsonc", "ds_config.json.bak", "deepspeed/config.json"]
        for name in names:
            (self.tmp / name).parent.mkdir(parents=True, exist_ok=True)
            (self.tmp / name).write_text("{}")
        _, doc = self.check_json(["--isolated", "."], cwd=self.tmp)
        detected = sorted(f["path"] for f in doc["files"])
        self.assertEqual(sorted(n for n in names if pattern.search(n)), detected)


class LargeLog(CliTest):
    """A log far larger than the memory dsls uses for it is streamed, not read whole."""

    def test_streamed_in_bounded_memory(self):
        size_mb = int(os.environ.get("DSLS_LARGE_LOG_MB", "300"))
        log = self.tmp / "train.log"
        fixture = (FIXTURES / "logs" / "train_oom_rank3.log").read_bytes()
        head, tail = fixture.split(b"[rank3]: Traceback", 1)
        filler = b"".join(b"{'loss': %d.%04d, 'grad_norm': 1.25, 'learning_rate': 2e-05, 'epoch': 0.5}\n" % (2, i)
                          for i in range(10000))
        with log.open("wb") as f:
            f.write(head)
            while f.tell() < size_mb << 20:
                f.write(filler)
            f.write(b"[rank3]: Traceback" + tail)
        start = time.monotonic()
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        r = subprocess.run([DSLS, "check", "--isolated", "--format", "json", str(log)], capture_output=True,
                           timeout=1200)
        seconds = time.monotonic() - start
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        self.assertEqual(r.returncode, 1, r.stderr.decode()[-2000:])
        doc = json.loads(r.stdout)
        oom = [x for x in doc["files"][0]["findings"] if x["code"] == "log-cuda-oom"]
        self.assertTrue(oom)
        data = log.read_bytes()
        self.assertEqual(oom[0]["range"]["start"]["line"], data[:data.index(b"[rank3]: torch.OutOfMemoryError")].count(b"\n") + 1)
        self.assertEqual(oom[0]["range"]["start"]["offset"], data.index(b"[rank3]: torch.OutOfMemoryError"))
        print(f"\n{size_mb} MiB log: {seconds:.1f} s, peak RSS {peak_mb:.0f} MiB (before: {before / 1024:.0f} MiB)",
              file=sys.stderr)
        self.assertLess(peak_mb, 100)  # reading the log whole would need more than the file size


PROJECT = HERE.parent / "fixtures" / "projects" / "hf_trainer"


class Python(CliTest):
    """Config dicts in Python sources (tests/fixtures/python): found in a folder walk, near misses left alone."""

    def setUp(self):
        super().setUp()
        self.work = self.tmp / "python"
        copy_tree(HERE.parent / "fixtures" / "python", self.work)

    def test_folder_golden(self):
        r = run(["--color", "never", "--min-severity", "hint", "."], cwd=self.work)
        compare_golden(self, "python/folder.txt", normalise(r.stdout.decode()))
        self.assertEqual(r.returncode, 1, r.stderr.decode())  # the race in scripts/pretrain_zero2.py
        r, doc = self.check_json(["."], cwd=self.work)
        checked = sorted(f["path"] for f in doc["files"])
        # The near misses (HF training arguments, a dict with one DeepSpeed-like key) are no configs.
        self.assertEqual(checked, ["deepspeed_chat/ds_utils.py", "scripts/pretrain_zero2.py"])
        self.assertEqual({f["kind"] for f in doc["files"]}, {"python_config"})
        race = [x for f in doc["files"] for x in f["findings"] if x["code"] == "overlap-comm-race"]
        self.assertEqual(len(race), 1)

    def test_named_file_without_a_config_is_skipped_with_the_reason(self):
        r = run(["--color", "never", "near_miss/one_key.py"], cwd=self.work)
        self.assertIn("no DeepSpeed config written in it", r.stdout.decode() + r.stderr.decode())


class Shell(CliTest):
    """Shell scripts that write ds_configs (tests/fixtures/shell): found in a folder walk, near misses left alone."""

    def setUp(self):
        super().setUp()
        self.work = self.tmp / "shell"
        copy_tree(HERE.parent / "fixtures" / "shell", self.work)

    def test_folder_golden(self):
        r = run(["--color", "never", "--min-severity", "hint", "."], cwd=self.work)
        compare_golden(self, "shell/folder.txt", normalise(r.stdout.decode()))
        self.assertEqual(r.returncode, 1, r.stderr.decode())  # the ZeRO-1 race in fengshenbang/run_predict.sh
        r, doc = self.check_json(["."], cwd=self.work)
        checked = sorted(f["path"] for f in doc["files"])
        # The near miss (a tokenizer's JSON, a run description) writes no config.
        self.assertEqual(checked, ["bigscience/tr11e-350M-ml.slurm", "fengshenbang/run_predict.sh"])
        self.assertEqual({f["kind"] for f in doc["files"]}, {"shell_config"})
        race = [x for f in doc["files"] for x in f["findings"] if x["code"] == "overlap-comm-race"]
        self.assertEqual([(x["range"]["start"]["line"], x["range"]["start"]["column"]) for x in race], [(40, 5)])
        # Shown, never applied: --fix writes JSON files only.
        self.assertFalse(any(fix["safe"] for x in race for fix in x["fixes"]))


class Accelerate(CliTest):
    """Accelerate config files (tests/fixtures/accelerate): the inline ZeRO settings read as the ds_config Accelerate builds."""

    def setUp(self):
        super().setUp()
        self.work = self.tmp / "accelerate"
        copy_tree(HERE.parent / "fixtures" / "accelerate", self.work)

    def test_folder_golden(self):
        r = run(["--color", "never", "--min-severity", "hint", "--deepspeed-version", "0.18.0", "."], cwd=self.work)
        compare_golden(self, "accelerate/folder.txt", normalise(r.stdout.decode()))
        self.assertEqual(r.returncode, 0, r.stderr.decode())  # information only
        r, doc = self.check_json(["."], cwd=self.work)
        checked = sorted(f["path"] for f in doc["files"])
        # MULTI_GPU, and a block that names its JSON file, build no config of their own.
        self.assertEqual(checked, ["alignment_handbook/deepspeed_zero3.yaml", "trl/deepspeed_zero2.yaml"])
        self.assertEqual({f["kind"] for f in doc["files"]}, {"accelerate_config"})


class Project(CliTest):
    """A Hugging Face Trainer project, copied where no .git is above it (as rsynced to a cluster)."""

    def setUp(self):
        super().setUp()
        self.work = self.tmp / "hf_trainer"
        copy_tree(PROJECT, self.work)

    def test_folder_golden(self):
        r = run(["--color", "never", "."], cwd=self.work)
        compare_golden(self, "projects/hf_trainer.txt", normalise(r.stdout.decode()))
        self.assertEqual(r.returncode, 1, r.stderr.decode())  # the race on DeepSpeed 0.14.0 and the BOM
        r, doc = self.check_json(["."], cwd=self.work)
        compare_golden(self, "projects/hf_trainer.json", normalise(r.stdout.decode()))
        checked = sorted(f["path"] for f in doc["files"])
        # Only the real configs: no checkpoint, result or .gitignored file, no requirements.txt as a log.
        self.assertEqual(checked, ["configs/ds_config_zero2.json", "configs/ds_zero3_bom.json", "train_cfg.json"])
        codes = {f["path"]: sorted({x["code"] for x in f["findings"]}) for f in doc["files"]}
        self.assertIn("overlap-comm-race", codes["configs/ds_config_zero2.json"])
        self.assertIn("json-syntax", codes["configs/ds_zero3_bom.json"])
        race = [x for f in doc["files"] for x in f["findings"] if x["code"] == "overlap-comm-race"][0]
        self.assertIn("DeepSpeed 0.14.0 (from requirements.txt)", race["message"])  # the pin one folder up

    def test_launcher_read_from_the_projects_scripts(self):
        repo = self.tmp / "repo"
        (repo / ".git").mkdir(parents=True)
        config = '{"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",\n' \
                 ' "zero_optimization": {"stage": 2}}\n'
        for name in ("plain.json", "hf.json"):
            (repo / "configs").mkdir(exist_ok=True)
            (repo / "configs" / name).write_text(config)
        (repo / "train.sh").write_text("deepspeed pretrain.py --deepspeed --deepspeed_config configs/plain.json\n"
                                       "torchrun sft.py --deepspeed configs/hf.json\n")
        r, doc = self.check_json(["--min-severity", "hint", "configs"], cwd=repo)
        found = {f["path"]: [x for x in f["findings"] if x["code"] == "auto-outside-hf"] for f in doc["files"]}
        # Plain DeepSpeed reads plain.json: each "auto" batch key is an error that says where that was seen.
        self.assertEqual(len(found["configs/plain.json"]), 2)
        self.assertTrue(all(x["severity"] == "error" for x in found["configs/plain.json"]))
        self.assertIn("launched with plain DeepSpeed (train.sh:1 passes it with --deepspeed_config)",
                      found["configs/plain.json"][0]["message"])
        # HF Trainer reads hf.json and fills them: nothing to say, not even a hint.
        self.assertEqual(found["configs/hf.json"], [])
        # A setting wins over the scripts.
        _, doc = self.check_json(["--launcher", "hf", "configs/plain.json"], cwd=repo)
        self.assertEqual([x for f in doc["files"] for x in f["findings"] if x["code"] == "auto-outside-hf"], [])

    def test_no_false_alarm_outside_the_configs(self):
        r = run(["--exclude", "configs", "--exclude", "train_cfg.json", "."], cwd=self.work)
        self.assertEqual(r.returncode, 0, r.stdout.decode() + r.stderr.decode())
        self.assertEqual(r.stdout.decode(), "No ds_config or training log found.\n")

    def test_gitignored_folder_is_not_walked_but_named_files_are(self):
        ignored = "wandb/run-20240601_101500-abc123/files/ds_config.json"
        _, doc = self.check_json(["."], cwd=self.work)
        self.assertNotIn(ignored, [f["path"] for f in doc["files"]])
        (self.work / ".gitignore").write_text("# nothing ignored\n")
        _, doc = self.check_json(["."], cwd=self.work)
        self.assertIn(ignored, [f["path"] for f in doc["files"]])
        (self.work / ".gitignore").write_text("wandb/\n")
        # Named on the command line, a file or folder is checked even when ignored.
        for named in ([ignored], ["wandb"]):
            _, doc = self.check_json(named, cwd=self.work)
            self.assertEqual([f["path"] for f in doc["files"]], [ignored])

    def test_tracked_files_are_checked_whatever_gitignore_says(self):
        if not shutil.which("git"):
            self.skipTest("git is not installed")
        repo = self.tmp / "tracked"
        (repo / "scripts").mkdir(parents=True)
        (repo / "scripts" / "zero2.json").write_text('{"zero_optimization": {"stage": 2, "overlap_comm": true}}\n')
        (repo / "ignored_ds_config.json").write_text('{"train_batch_size": 8}\n')
        (repo / "out").mkdir()
        (repo / "out" / "ds_config.json").write_text('{"train_batch_size": 8}\n')
        (repo / ".gitignore").write_text("*.json\nout/\n")
        git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false"]
        for step in (["init", "-q"], ["add", "-f", "scripts/zero2.json", ".gitignore"], ["commit", "-qm", "x"]):
            subprocess.run(git + step, cwd=repo, check=True)
        for version in ("2", "4"):  # the index format git writes by default, and the compressed one
            subprocess.run(git + ["update-index", "--index-version", version], cwd=repo, check=True)
            with self.subTest(index_version=version):
                r = run(["--color", "never", "."], cwd=repo)
                out = r.stdout.decode()
                self.assertIn("scripts/zero2.json:1:36: warning [overlap-comm-race]", out)
                self.assertNotIn("ignored_ds_config.json", out)
                self.assertIn("1 untracked .json, .log or .txt file that .gitignore excludes was not looked at "
                              "(--no-gitignore looks at them; tracked files always are).", out)
        _, doc = self.check_json(["--no-gitignore", "."], cwd=repo)
        self.assertEqual(sorted(f["path"] for f in doc["files"]),
                         ["ignored_ds_config.json", "out/ds_config.json", "scripts/zero2.json"])
        self.assertEqual(doc["summary"]["gitignored"], 0)
        # A linked work tree: .git is a file naming the git directory.
        linked = self.tmp / "linked"
        subprocess.run(git + ["worktree", "add", "-q", str(linked)], cwd=repo, check=True)
        _, doc = self.check_json(["."], cwd=linked)
        self.assertEqual([f["path"] for f in doc["files"]], ["scripts/zero2.json"])

    def test_named_files(self):
        r, doc = self.check_json(["train_cfg.json", "requirements.txt", "results/zero_shot_results.json"], cwd=self.work)
        self.assertEqual(sorted(f["path"] for f in doc["files"]), ["results/zero_shot_results.json", "train_cfg.json"])
        self.assertEqual(doc["skipped"], [{"path": "requirements.txt", "reason": "a dependency list, not a training log"}])
        r = run(["--config-glob", "train_*.json", "--format", "json", "."], cwd=self.work)
        self.assertIn("train_cfg.json", r.stdout.decode())

    def test_fix_leaves_overlap_comm_when_the_version_is_unknown(self):
        (self.work / "requirements.txt").write_text("transformers==4.44.2\n")
        run(["--fix", "configs/ds_config_zero2.json"], cwd=self.work)
        self.assertIn('"overlap_comm": true', (self.work / "configs" / "ds_config_zero2.json").read_text())
        run(["--fix", "--deepspeed-version", "0.14.0", "configs/ds_config_zero2.json"], cwd=self.work)
        self.assertIn('"overlap_comm": false', (self.work / "configs" / "ds_config_zero2.json").read_text())

    def test_min_severity_and_brief_folder_output(self):
        r = run(["--color", "never", "--min-severity", "error", "."], cwd=self.work)
        out = r.stdout.decode()
        self.assertIn("[json-syntax]", out)
        self.assertNotIn("[overlap-comm-race]", out)
        r = run(["--color", "never", "."], cwd=self.work)
        self.assertNotIn("information [", r.stdout.decode())
        self.assertIn("information and hint findings not shown", r.stdout.decode())
        (self.work / "pyproject.toml").write_text('[tool.dsls]\noutput-severity = "error"\n')
        self.assertNotIn("[overlap-comm-race]", run(["--color", "never", "."], cwd=self.work).stdout.decode())

    def test_invalid_values_exit_2(self):
        cases = [
            ["--deepspeed-version", "banana", "."],
            ["--torch-version", "two", "."],
            ["--select", "no-such-rule", "."],
            ["--ignore", "overlap-comm-rase", "."],
            ["--min-severity", "loud", "."],
        ]
        for args in cases:
            with self.subTest(args=args):
                r = run(args, cwd=self.work)
                self.assertEqual(r.returncode, 2, r.stdout.decode() + r.stderr.decode())
        r = run(["--ignore", "overlap-comm-rase", "."], cwd=self.work)
        self.assertIn("the nearest is 'overlap-comm-race'", r.stderr.decode())
        for table in ['ignore = ["overlap-comm-rase"]', 'rules = { no-such-rule = "off" }', 'deepspeed-version = "x"']:
            with self.subTest(table=table):
                (self.work / "pyproject.toml").write_text("[tool.dsls]\n" + table + "\n")
                r = run(["."], cwd=self.work)
                self.assertEqual(r.returncode, 2, r.stdout.decode() + r.stderr.decode())
                self.assertIn("[tool.dsls]", r.stderr.decode())

    def test_no_raw_control_bytes(self):
        (self.work / "noise.json").write_bytes(b"{" + bytes(range(0x80, 0x100)) + b"\x1b[31m\x9b2J" * 20)
        r = run(["--color", "never", "noise.json"], cwd=self.work)
        out = r.stdout
        self.assertNotIn(b"\x1b", out)
        self.assertNotIn(b"\x9b", out)
        self.assertEqual(out.decode().count("[json-syntax]"), 1)

    def test_bom_columns(self):
        bom = (self.work / "configs" / "ds_zero3_bom.json").read_bytes()
        plain = self.work / "configs" / "ds_zero3_plain.json"
        plain.write_bytes(bom[3:])
        _, a = self.check_json(["configs/ds_zero3_bom.json"], cwd=self.work)
        _, b = self.check_json(["configs/ds_zero3_plain.json"], cwd=self.work)
        def pos(doc, code):  # lines and columns; byte offsets differ by the mark's 3 bytes
            return [{k: {"line": v["line"], "column": v["column"]} for k, v in x["range"].items()}
                    for x in doc["files"][0]["findings"] if x["code"] == code]
        self.assertEqual(pos(a, "auto-outside-hf"), pos(b, "auto-outside-hf"))
        self.assertEqual(pos(a, "json-syntax")[0]["start"], {"line": 1, "column": 1})
        run(["--fix", "configs/ds_zero3_bom.json"], cwd=self.work)
        self.assertEqual((self.work / "configs" / "ds_zero3_bom.json").read_bytes(), bom[3:])


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    suite = sys.argv[1]
    if not DSLS or not Path(DSLS).exists():
        print("SKIPPED: DSLS_BIN does not name the dsls binary", file=sys.stderr)
        return SKIP
    if suite == "CorpusGolden" and not CORPUS.is_dir():
        print(f"\n*** SKIPPED: the ds_config corpus is not at {CORPUS}; corpus goldens were NOT checked ***\n",
              file=sys.stderr)
        return SKIP
    tests = unittest.defaultTestLoader.loadTestsFromName(suite, sys.modules[__name__])
    result = unittest.TextTestRunner(verbosity=2).run(tests)
    if result.wasSuccessful() and result.testsRun == len(result.skipped):
        return SKIP
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
