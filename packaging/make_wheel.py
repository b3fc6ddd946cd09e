#!/usr/bin/env python3
"""Writes a Python wheel that installs the static dsls binary as a script (the way ruff ships).

Usage: make_wheel.py --binary DSLS --version V --arch x86_64|aarch64 --readme README.md OUTDIR
A wheel is a zip with a .dist-info folder (PEP 427, PEP 491); files under <name>.data/scripts/
are installed into the environment's bin/ with the executable bit. The binary is static, so the
oldest manylinux tag any pip accepts for the architecture is honest (manylinux_2_17).
"""
import argparse
import base64
import hashlib
import os
import re
import sys
import zipfile

NAME = "dsls"
SUMMARY = "DeepSpeed language server and linter for ds_config files and training logs"
# Fixed timestamps keep the wheel byte-identical between builds (zip needs a date >= 1980).
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode()


def metadata(version, readme):
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\n"
        f"Version: {version}\n"
        f"Summary: {SUMMARY}\n"
        "License: Apache-2.0\n"
        "Requires-Python: >=3.7\n"
        "Classifier: License :: OSI Approved :: Apache Software License\n"
        "Classifier: Environment :: Console\n"
        "Classifier: Operating System :: POSIX :: Linux\n"
        "Classifier: Programming Language :: C++\n"
        "Classifier: Topic :: Software Development :: Quality Assurance\n"
        "Description-Content-Type: text/markdown\n"
        "\n" + readme
    )


def wheel_file(tag):
    return ("Wheel-Version: 1.0\n"
            "Generator: dsls packaging/make_wheel.py\n"
            "Root-Is-Purelib: false\n"
            f"Tag: {tag}\n")


def add(archive, records, name, data, mode=0o644):
    info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
    info.external_attr = (0o100000 | mode) << 16  # a regular file with these permissions
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)
    records.append(f"{name},{record_hash(data)},{len(data)}")


def build(args):
    if not re.fullmatch(r"\d+\.\d+\.\d+", args.version):
        sys.exit(f"make_wheel: version {args.version!r} is not MAJOR.MINOR.PATCH")
    with open(args.binary, "rb") as f:
        binary = f.read()
    if binary[:4] != b"\x7fELF":
        sys.exit(f"make_wheel: {args.binary} is not an ELF executable")
    with open(args.readme, encoding="utf-8") as f:
        readme = f.read()
    with open(args.license, "rb") as f:
        license_text = f.read()
    tag = f"py3-none-manylinux_2_17_{args.arch}"
    dist_info = f"{NAME}-{args.version}.dist-info"
    path = os.path.join(args.outdir, f"{NAME}-{args.version}-{tag}.whl")
    os.makedirs(args.outdir, exist_ok=True)
    records = []
    with zipfile.ZipFile(path, "w") as archive:
        add(archive, records, f"{NAME}-{args.version}.data/scripts/{NAME}", binary, 0o755)
        add(archive, records, f"{dist_info}/METADATA", metadata(args.version, readme).encode())
        add(archive, records, f"{dist_info}/WHEEL", wheel_file(tag).encode())
        add(archive, records, f"{dist_info}/LICENSE", license_text)
        records.append(f"{dist_info}/RECORD,,")
        add_record = zipfile.ZipInfo(f"{dist_info}/RECORD", date_time=ZIP_DATE)
        add_record.external_attr = (0o100000 | 0o644) << 16
        archive.writestr(add_record, "\n".join(records) + "\n")
    print(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--arch", required=True, choices=["x86_64", "aarch64"])
    parser.add_argument("--readme", required=True)
    parser.add_argument("--license", required=True)
    parser.add_argument("outdir")
    build(parser.parse_args())


if __name__ == "__main__":
    main()
