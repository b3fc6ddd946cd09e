"""Each benchmark script owns one "## ..." section of docs/benchmarks.md and rewrites only it."""
import os


def write_section(doc_path, title, section):
    """Replaces the section headed `title` in the report, or adds it before "## Reproducing"."""
    text = open(doc_path, encoding="utf-8").read() if os.path.exists(doc_path) else "# Benchmarks\n\n"
    start = text.find(title + "\n")
    if start >= 0:
        end = text.find("\n## ", start + len(title))
        text = text[:start] + section + (text[end + 1:] if end >= 0 else "")
    else:
        at = text.find("## Reproducing")
        text = text[:at] + section + "\n" + text[at:] if at >= 0 else text.rstrip("\n") + "\n\n" + section
    with open(doc_path, "w", encoding="utf-8") as f:
        f.write(text)
