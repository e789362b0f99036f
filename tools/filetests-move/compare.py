#!/usr/bin/env python3
"""Checks the fixture move of `move.py`: every fixture and every expected output is what it
was at BASE.

Usage: python3 tools/filetests-move/compare.py BASE   (BASE: the commit before the move)

* every snapshot of BASE's `fixtures/*/snapshots` exists at its new path, and its contents
  (the text after insta's metadata header) are byte for byte the same; only the metadata
  header (which test file wrote it, the description) may differ;
* no snapshot was added or lost;
* every fixture's text is BASE's text with the `#!test` line in front and the old
  directive spellings (`# env:` ...) rewritten as `#!env` ..., and nothing else.

Prints one line per group and exits 1 on any difference.
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from move import OLD_DIRECTIVES  # noqa: E402


def new_path(old):
    """Where `move.py` put the file `old` (a path of BASE), or None if it stays."""
    rules = [
        ("fixtures/bounds/boxes/", "filetests/bounds/"),
        ("fixtures/bounds/exprs.txt", "filetests/bounds/exprs.txt"),
        ("fixtures/bounds/snapshots/", "filetests/bounds/snapshots/"),
        ("fixtures/bounds_exact/", "filetests/bounds_exact/"),
    ] + [(f"fixtures/{d}/", f"filetests/{d}/") for d in
         ["ir", "parse_errors", "profiling", "profiling_levels", "tracing"]]
    for prefix, target in rules:
        if old == prefix or (prefix.endswith("/") and old.startswith(prefix)):
            path = target + old[len(prefix):] if prefix.endswith("/") else target
            m = re.fullmatch(r"(filetests/profiling/snapshots/)fixtures@(.*)\.stmt\.snap", path)
            return m.group(1) + m.group(2) + ".snap" if m else path
    return None


def snapshot_contents(data):
    lines = data.split(b"\n")
    assert lines[0] == b"---", "a snapshot starts with insta's metadata header"
    end = lines.index(b"---", 1)
    return b"\n".join(lines[end + 1:])


def expected_fixture(old):
    lines = old.split(b"\n")
    out = []
    in_header = True
    for line in lines:
        if in_header and not line.startswith(b"#"):
            in_header = False
        if in_header:
            for key in OLD_DIRECTIVES:
                prefix = b"# " + key.encode() + b":"
                if line.startswith(prefix):
                    line = b"#!" + key.encode() + b" " + line[len(prefix):].strip()
        out.append(line)
    return out


def main():
    base = sys.argv[1]
    files = subprocess.run(["git", "ls-tree", "-r", "--name-only", base], check=True,
                           capture_output=True, text=True).stdout.split()
    groups = {}
    failures = []
    moved_snaps = set()
    for old in files:
        new = new_path(old)
        if new is None:
            continue
        old_data = subprocess.run(["git", "show", f"{base}:{old}"], check=True, capture_output=True).stdout
        if not os.path.exists(new):
            failures.append(f"{old}: missing at {new}")
            continue
        with open(new, "rb") as f:
            new_data = f.read()
        group = new.split("/")[1]
        kind = "snapshots" if "/snapshots/" in new else "fixtures"
        counts = groups.setdefault(group, {"fixtures": 0, "snapshots": 0})
        counts[kind] += 1
        if kind == "snapshots":
            moved_snaps.add(new)
            if snapshot_contents(old_data) != snapshot_contents(new_data):
                failures.append(f"{old} -> {new}: the expected output differs")
        elif old.endswith(".md"):
            if old_data != new_data:
                failures.append(f"{old} -> {new}: differs")
        else:
            new_lines = new_data.split(b"\n")
            if not new_lines[0].startswith(b"#!test "):
                failures.append(f"{new}: no `#!test` line first")
            elif new_lines[1:] != expected_fixture(old_data):
                failures.append(f"{old} -> {new}: the text differs beyond the header rewrite")
    for root, _, names in os.walk("filetests"):
        for n in names:
            p = os.path.join(root, n)
            if "/snapshots/" in p + "/" and p.endswith(".snap") and p not in moved_snaps:
                failures.append(f"{p}: a snapshot that BASE did not have")
    for group, counts in sorted(groups.items()):
        print(f"{group:18} {counts['fixtures']:3} fixture files, {counts['snapshots']:3} snapshots: same")
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("every moved expected output is byte for byte BASE's")


if __name__ == "__main__":
    main()
