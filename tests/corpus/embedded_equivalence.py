#!/usr/bin/env python3
"""Configs written inside code get the findings their equivalent JSON file gets.

For each real file of tests/fixtures/{shell,python,accelerate} (and any FILE given), the
equivalent ds_config JSON is made without dsls: a shell script's heredoc by bash itself (the
script's top-level assignments, then the heredoc; a variable left unset written as ${NAME}); a
Python file's config dicts by Python's ast (literals evaluated, a name assigned a dict in the
same function read in place, anything else ${...}); an Accelerate YAML by PyYAML and the rules
of Accelerate's DeepSpeedPlugin (accelerate/utils/dataclasses.py). Both are checked with the same
release; the multisets of (rule, severity) must match, config-template aside (a host never gets
it) and the differences docs/detection.md names (Accelerate's own keys).

  python3 tests/corpus/embedded_equivalence.py --dsls build/lsp/dsls [FILE...]
Exits 1 on a difference, 77 when bash or PyYAML is missing.
"""
import argparse
import ast
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEYS = ("zero_optimization", "train_micro_batch_size_per_gpu", "train_batch_size", "steps_per_print", "gradient_clipping")
RELEASE = "0.14.2"
HEREDOC = re.compile(r"cat\s*<<-?\s*['\"]?(\w+)['\"]?[^\n]*\n(.*?)\n\1\n", re.S)


def shell_equivalents(path):
    text = open(path, encoding="utf-8").read()
    # One-line assignments whose quotes close on the line (a multi-line string is left out).
    assigns = [l for l in text.splitlines() if re.match(r"^[A-Za-z_]\w*=", l) and "$(" not in l and "`" not in l
               and l.count('"') % 2 == 0 and l.count("'") % 2 == 0]
    out = []
    for m in HEREDOC.finditer(text):
        body = m.group(2)
        unset = sorted(set(re.findall(r"\$\{?([A-Za-z_]\w*)", body)) - {a.split("=", 1)[0] for a in assigns})
        script = "\n".join(assigns + [f"{v}='${{{v}}}'" for v in unset] + [f"cat <<__EQ__\n{body}\n__EQ__"])
        out.append(subprocess.run(["bash", "-c", script], capture_output=True, text=True).stdout)
    return out


def python_equivalents(path):
    tree = ast.parse(open(path, encoding="utf-8").read())
    owner = {}
    for scope in [n for n in ast.walk(tree) if isinstance(n, (ast.Module, ast.FunctionDef))]:
        names = {}
        for n in ast.walk(scope):
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Dict) and len(n.targets) == 1 \
                    and isinstance(n.targets[0], ast.Name):
                names[n.targets[0].id] = n.value
        for n in ast.walk(scope):
            if isinstance(n, ast.Dict) and (n not in owner or isinstance(scope, ast.FunctionDef)):
                owner[n] = names

    def emit(n, names):
        if isinstance(n, ast.Name) and n.id in names:
            return emit(names[n.id], names)
        if isinstance(n, ast.Dict):
            return "{" + ", ".join(json.dumps(k.value) + ": " + emit(v, names) for k, v in zip(n.keys, n.values)
                                   if isinstance(k, ast.Constant) and isinstance(k.value, str)) + "}"
        if isinstance(n, (ast.List, ast.Tuple)):
            return "[" + ", ".join(emit(e, names) for e in n.elts) + "]"
        try:
            return json.dumps(ast.literal_eval(n))
        except Exception:
            return "${" + "".join(c for c in ast.unparse(n) if c.isalnum() or c in "._")[:40] + "}"

    # A dict assigned to a name that another dict uses as a value is read there, not on its own.
    used = {v.id for n in ast.walk(tree) if isinstance(n, ast.Dict) for v in n.values if isinstance(v, ast.Name)}
    inlined = {d for scope in owner.values() for name, d in scope.items() if name in used}
    dicts = [n for n in ast.walk(tree) if isinstance(n, ast.Dict) and n not in inlined
             and any(isinstance(k, ast.Constant) and k.value in KEYS for k in n.keys)]
    return [emit(d, owner[d]) for d in dicts]


def accelerate_equivalents(path):
    import yaml
    c = yaml.safe_load(open(path, encoding="utf-8"))
    ds = (c or {}).get("deepspeed_config") or {}
    if c.get("distributed_type") != "DEEPSPEED" or ds.get("deepspeed_config_file"):
        return []
    opt, par = str(ds.get("offload_optimizer_device", "none")), str(ds.get("offload_param_device", "none"))
    cfg = {"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto",
           "gradient_accumulation_steps": int(ds.get("gradient_accumulation_steps", 1)),
           "zero_optimization": {"stage": int(ds.get("zero_stage", 2)), "offload_optimizer": {"device": opt},
                                 "offload_param": {"device": par},
                                 "stage3_gather_16bit_weights_on_model_save": bool(ds.get("zero3_save_16bit_model", False))}}
    for section, device in (("offload_optimizer", opt), ("offload_param", par)):
        if device == "nvme":
            cfg["zero_optimization"][section]["nvme_path"] = ds.get(section + "_nvme_path")
    if ds.get("gradient_clipping") not in (None, "none", 0):
        cfg["gradient_clipping"] = float(ds["gradient_clipping"])
    if c.get("mixed_precision") in ("fp16", "bf16"):
        cfg[c["mixed_precision"]] = {"enabled": True}
    return [json.dumps(cfg, indent=2)]


def findings(dsls, path, extra=()):
    r = subprocess.run([dsls, "check", "--isolated", "--format", "json", "--no-progress", "--min-severity", "hint",
                        "--deepspeed-version", RELEASE, *extra, path], capture_output=True, text=True)
    doc = json.loads(r.stdout or "{}")
    return collections.Counter((x["code"], x["severity"]) for f in doc.get("files", []) for x in f["findings"]
                               if x["code"] != "config-template")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dsls", required=True)
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    if not shutil.which("bash"):
        print("bash not found"); return 77
    try:
        import yaml  # noqa: F401
    except ImportError:
        print("PyYAML not installed"); return 77
    files = args.files or sorted(
        p for d in ("shell", "python", "accelerate") for p in glob.glob(os.path.join(ROOT, "tests", "fixtures", d, "*", "*"))
        if "near_miss" not in p and not p.endswith(".md"))
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            ext = os.path.splitext(path)[1]
            if ext in (".yaml", ".yml"):
                equivalents, extra = accelerate_equivalents(path), ["--launcher", "accelerate"]
            elif ext == ".py":
                equivalents, extra = python_equivalents(path), []
            else:
                equivalents, extra = shell_equivalents(path), []
            want = collections.Counter()
            for i, text in enumerate(equivalents):
                folder = os.path.join(tmp, str(i))
                os.makedirs(folder, exist_ok=True)
                with open(os.path.join(folder, "ds_config.json"), "w") as f:
                    f.write(text)
                want += findings(args.dsls, os.path.join(folder, "ds_config.json"), extra)
            if ext in (".yaml", ".yml"):
                # Accelerate writes stage3_gather_16bit_weights_on_model_save whatever the YAML says.
                want -= collections.Counter({("ignored-at-stage", "hint"): 1})
            got = findings(args.dsls, path)
            same = got == want
            failures += not same
            print(f"{'same' if same else 'DIFFERENT'}: {os.path.relpath(path, ROOT)}: {len(equivalents)} config(s), "
                  f"host {sorted(got.elements())}" + ("" if same else f", JSON {sorted(want.elements())}"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
