#!/usr/bin/env python3
"""Prints the sorted, distinct finding codes of a `dsls check --format json` report."""
import json
import sys

report = json.load(open(sys.argv[1]))
print(" ".join(sorted({f["code"] for file in report["files"] for f in file["findings"]})))
