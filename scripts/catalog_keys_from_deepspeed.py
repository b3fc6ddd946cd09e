#!/usr/bin/env python3
"""Generates the ds_config keys of every DeepSpeed release from v0.8.0 to the newest tag, read
from DeepSpeed's source with git (no checkout, no import): the fields and aliases of the pydantic
config models (DeepSpeedConfigModel subclasses, nested through their annotations) under the
section each is read from, and the keys the get_* readers take from the config dict
(get_scalar_param(d, KEY, ...), d.get(KEY, ...), d[KEY] with d the config or one of its sections).
Writes tests/fixtures/catalog/deepspeed_keys.json: for every key, the releases it is read in.

    python3 scripts/catalog_keys_from_deepspeed.py [--git-dir DIR] [--out FILE]
"""
import argparse
import ast
import json
import re
import subprocess
import sys
from pathlib import Path

DEFAULT_GIT_DIR = "/work/.mirror/deepspeedai+DeepSpeed/repo"
FIRST = (0, 8, 0)

# The section each top-level config model is read from (DeepSpeedConfig._initialize_params).
MODEL_SECTIONS = {
    "DeepSpeedZeroConfig": "zero_optimization",
    "DeepSpeedFP16Config": "fp16",
    "DeepSpeedBF16Config": "bf16",
    "CommsLoggerConfig": "comms_logger",
    "CompileConfig": "compile",
    "TensorBoardConfig": "tensorboard",
    "WandbConfig": "wandb",
    "CSVConfig": "csv_monitor",
    "CometConfig": "comet",
    "HybridEngineConfig": "hybrid_engine",
    "TPTrainingConfig": "tensor_parallel",
}

# Files whose readers take the config dict (or, by the name given here, one of its sections)
# in a variable of this name.
READER_FILES = {
    "deepspeed/runtime/config.py": {"param_dict": ""},
    "deepspeed/runtime/activation_checkpointing/config.py": {"param_dict": ""},
    "deepspeed/runtime/swap_tensor/aio_config.py": {"param_dict": ""},
    "deepspeed/profiling/config.py": {"param_dict": ""},
    "deepspeed/elasticity/config.py": {"param_dict": "elasticity"},
    "deepspeed/nebula/config.py": {"param_dict": ""},
}
# Readers whose dict argument is a section, not the whole config.
FUNCTION_ROOTS = {
    "get_sparse_attention_mode": {"param_dict": "sparse_attention"},
    "get_sparse_attention_type": {"param_dict": "sparse_attention"},
}
# Model fields a JSON file cannot set: Python objects (a process group, an mpu, a tuple) that code
# fills in, and fields marked Field(exclude=True) as set during execution.
NON_JSON_ANNOTATION = re.compile(r"^(Optional\[)?(object|tuple)\]?$")

KEY_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True).stdout


def tags(git_dir):
    out = []
    for t in git(git_dir, "tag").split():
        m = re.fullmatch(r"v(\d+)\.(\d+)\.(\d+)", t)
        if m and tuple(map(int, m.groups())) >= FIRST:
            out.append((tuple(map(int, m.groups())), t))
    return [t for _, t in sorted(out)]


def python_files(git_dir, tag):
    """path -> blob id of the Python files that can hold config models, readers or key names."""
    out = {}
    for line in git(git_dir, "ls-tree", "-r", tag, "--", "deepspeed").splitlines():
        meta, path = line.split("\t", 1)
        if path.endswith(".py") and "/inference/" not in path and "/ops/" not in path:
            out[path] = meta.split()[2]
    return out


_TREES = {}  # blob id -> parsed module (most files do not change between releases)


def parse_blobs(git_dir, blobs):
    missing = [b for b in blobs if b not in _TREES]
    if missing:
        proc = subprocess.run(["git", "--git-dir", git_dir, "cat-file", "--batch"], input=("\n".join(missing) + "\n").encode(),
                              capture_output=True, check=True, text=False)
        data, pos = proc.stdout, 0
        for blob in missing:
            header_end = data.index(b"\n", pos)
            size = int(data[pos:header_end].split()[2])
            body = data[header_end + 1:header_end + 1 + size]
            pos = header_end + 1 + size + 1
            try:
                _TREES[blob] = ast.parse(body.decode("utf-8", "replace"))
            except SyntaxError:
                _TREES[blob] = None
    return {b: _TREES[b] for b in blobs}


_CACHE = {}  # (function, blob id) -> result


def cached(fn, blob, tree):
    key = (fn.__name__, blob)
    if key not in _CACHE:
        _CACHE[key] = fn(tree)
    return _CACHE[key]


def module_constants(tree):
    consts = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id.isupper():
                    consts.setdefault(target.id, node.value.value)
    return consts


def module_classes(tree):
    """class name -> (base names, [(field, alias or None, annotation source)])."""
    classes = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        bases = [b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases]
        fields = []
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                alias, internal = None, False
                if isinstance(item.value, ast.Call) and getattr(item.value.func, "id", "") == "Field":
                    for kw in item.value.keywords:
                        if kw.arg == "alias" and isinstance(kw.value, ast.Constant):
                            alias = kw.value.value
                        if kw.arg == "exclude" and isinstance(kw.value, ast.Constant) and kw.value.value is True:
                            internal = True
                annotation = ast.unparse(item.annotation)
                if not internal and not NON_JSON_ANNOTATION.match(annotation):
                    fields.append((item.target.id, alias, annotation))
        classes.setdefault(node.name, (bases, fields))
    return classes


def config_models(per_module):
    """class name -> fields, for the DeepSpeedConfigModel subclasses of all modules."""
    classes = {}
    for module in per_module:
        for name, value in module.items():
            classes.setdefault(name, value)

    def is_model(name, seen=()):
        if name == "DeepSpeedConfigModel":
            return True
        return name in classes and name not in seen and any(is_model(b, seen + (name,)) for b in classes[name][0])

    return {n: f for n, (_, f) in classes.items() if n != "DeepSpeedConfigModel" and is_model(n)}


def model_keys(models, name, prefix, out, depth=0):
    for field, alias, annotation in models.get(name, []):
        if field.startswith("_"):
            continue
        for key in filter(None, (field, alias)):
            out.add(f"{prefix}.{key}")
        nested = [m for m in models if re.search(rf"\b{m}\b", annotation)]
        for m in nested:
            if depth < 4:
                model_keys(models, m, f"{prefix}.{alias or field}", out, depth + 1)


def key_of(node, consts):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return consts.get(node.id)
    return None


def section_of(node, vars_, consts):
    """The dotted section a dict expression stands for, or None."""
    if isinstance(node, ast.Name):
        return vars_.get(node.id)
    if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "copy" and node.args:
        return section_of(node.args[0], vars_, consts)
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "copy" and node.args:
        return section_of(node.args[0], vars_, consts)
    if isinstance(node, ast.Subscript):
        base, key = section_of(node.value, vars_, consts), key_of(node.slice, consts)
    elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "get" and node.args:
        base, key = section_of(node.func.value, vars_, consts), key_of(node.args[0], consts)
    else:
        return None
    if base is None or key is None:
        return None
    return f"{base}.{key}" if base else key


def reader_keys(tree, roots, consts, out):
    # The module-wide pass leaves out the readers whose dict is a section (they get their own pass).
    module = ast.Module(body=[n for n in tree.body
                              if not (isinstance(n, ast.FunctionDef) and n.name in FUNCTION_ROOTS)],
                        type_ignores=[])
    for func in [module] + [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        if not isinstance(func, (ast.FunctionDef, ast.Module)):
            continue
        vars_ = dict(FUNCTION_ROOTS.get(func.name, roots)) if isinstance(func, ast.FunctionDef) else dict(roots)
        for node in ast.walk(func):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                s = section_of(node.value, vars_, consts)
                if s is not None:
                    vars_[node.targets[0].id] = s
        for node in ast.walk(func):
            key = None
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "get_scalar_param" and len(node.args) >= 2:
                base, key = section_of(node.args[0], vars_, consts), key_of(node.args[1], consts)
            elif isinstance(node, (ast.Subscript, ast.Call)):
                s = section_of(node, vars_, consts)
                base, key = (s.rsplit(".", 1)[0] if "." in s else "", s.rsplit(".", 1)[-1]) if s else (None, None)
            else:
                continue
            if base is not None and key:
                out.add(f"{base}.{key}" if base else key)


def keys_at(git_dir, tag):
    files = python_files(git_dir, tag)
    parsed = parse_blobs(git_dir, list(files.values()))
    trees = {f: parsed[b] for f, b in files.items() if parsed[b] is not None}
    consts = {}
    # deepspeed/runtime/constants.py first: it names the top-level keys the readers use.
    for f, b in sorted(files.items(), key=lambda fb: fb[0] != "deepspeed/runtime/constants.py"):
        if parsed[b] is not None:
            for k, v in cached(module_constants, b, parsed[b]).items():
                consts.setdefault(k, v)
    models = config_models(cached(module_classes, b, parsed[b]) for f, b in files.items() if parsed[b] is not None)
    keys = set()
    for model, section in MODEL_SECTIONS.items():
        if model in models:
            keys.add(section)
            model_keys(models, model, section, keys)
    for path, roots in READER_FILES.items():
        if path in trees:
            # A name defined in the reader's own module wins over one of the same name elsewhere.
            local = dict(consts, **cached(module_constants, files[path], trees[path]))
            reader_keys(trees[path], roots, local, keys)
    return {k for k in keys if KEY_PATH.fullmatch(k)}


def ranges(present, all_tags):
    """[[first, last], ...] runs of consecutive tags in `present`."""
    runs, start, prev = [], None, None
    for t in all_tags:
        if t in present:
            start = start or t
            prev = t
        elif start:
            runs.append([start[1:], prev[1:]])
            start = None
    if start:
        runs.append([start[1:], prev[1:]])
    return runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--git-dir", default=DEFAULT_GIT_DIR)
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent /
                                             "tests/fixtures/catalog/deepspeed_keys.json"))
    args = parser.parse_args()
    all_tags = tags(args.git_dir)
    per_tag = {}
    for t in all_tags:
        per_tag[t] = keys_at(args.git_dir, t)
        print(f"{t}: {len(per_tag[t])} keys", file=sys.stderr)
    every = sorted(set().union(*per_tag.values()))
    data = {
        "about": "ds_config keys read by each DeepSpeed release (generated by scripts/catalog_keys_from_deepspeed.py)",
        "releases": [t[1:] for t in all_tags],
        "keys": {k: ranges({t for t in all_tags if k in per_tag[t]}, all_tags) for k in every},
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(data, f, indent=1, sort_keys=False)
        f.write("\n")


if __name__ == "__main__":
    main()
