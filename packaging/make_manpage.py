#!/usr/bin/env python3
"""Writes the dsls(1) man page (gzip'd, reproducible) from `dsls --help` and `dsls check --help`.

Usage: make_manpage.py DSLS_BINARY OUTPUT.1.gz [EMULATOR]
(EMULATOR, e.g. qemu-aarch64-static, runs a cross-built binary.)
The help texts are the one description of the command line; this turns their layout
(a "usage:" line, "options:" blocks of "  --flag ARG   text" rows, paragraphs) into roff.
"""
import gzip
import re
import subprocess
import sys

OPTION_ROW = re.compile(r"^  (\S(?:.*?\S)?)\s{2,}(\S.*)$")
CONTINUATION = re.compile(r"^\s{8,}(\S.*)$")


def roff_text(text):
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def help_text(command, *args):
    done = subprocess.run([*command, *args, "--help"], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def section_body(lines):
    """Roff for one help text after its first line: option rows, usage rows and paragraphs."""
    out, paragraph = [], []

    def flush():
        if paragraph:
            out.extend([".PP", roff_text(" ".join(paragraph))])
            paragraph.clear()

    for line in lines:
        if not line.strip():
            flush()
            continue
        if re.match(r"^[a-z ]+:$", line):  # "usage:", "options:"
            flush()
            out.extend([".PP", f".B {roff_text(line[:-1].capitalize())}"])
            continue
        cont = CONTINUATION.match(line)
        if cont and out and not paragraph:
            out.append(roff_text(cont.group(1)))
            continue
        row = OPTION_ROW.match(line)
        if row:
            flush()
            out.extend([".TP", f".B {roff_text(row.group(1))}", roff_text(row.group(2))])
            continue
        paragraph.append(line.strip())
    flush()
    return out


def manpage(command):
    main = help_text(command)
    check = help_text(command, "check")
    title = re.match(r"^dsls (\S+): (.*)$", main[0])
    if not title:
        sys.exit(f"unexpected first line of dsls --help: {main[0]!r}")
    version, summary = title.groups()
    usage = re.match(r"^usage: (.*)$", check[0])
    if not usage:
        sys.exit(f"unexpected first line of dsls check --help: {check[0]!r}")
    lines = [
        f'.TH DSLS 1 "" "dsls {version}" "User Commands"',
        ".SH NAME", f"dsls \\- {roff_text(summary)}",
        ".SH SYNOPSIS", ".B dsls", "[\\-\\-stdio] [\\-\\-log\\-level LEVEL]", ".br",
        f".B {roff_text(usage.group(1))}",
        ".SH DESCRIPTION", *section_body(main[1:]),
        ".SH \"CHECK COMMAND\"", *section_body(check[1:]),
        ".SH \"SEE ALSO\"",
        "The rule pages in /usr/share/doc/dsls/rules, and \\fBdsls explain\\fR CODE.",
    ]
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    binary, output = sys.argv[1:3]
    command = [*sys.argv[3:], binary]
    data = manpage(command).encode()
    # mtime=0 and no file name keep the archive byte-identical between builds.
    with open(output, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                                                  compresslevel=9, mtime=0) as gz:
        gz.write(data)


if __name__ == "__main__":
    main()
