#!/usr/bin/env python3
"""Moves the hand-written fixtures of `fixtures/` into the one fixture harness `filetests/`.

Usage: python3 tools/filetests-move/move.py   (from the repository root, on a clean tree)

What it does, and nothing else:

* `git mv` every fixture directory to `filetests/` (see MOVES), snapshots included;
* inserts `#!test <name>` as the first line of every fixture, naming the test that runs it
  (the old drivers knew it from the directory they read; `checker_*` tracing fixtures run
  the hierarchy checker, the others the tracing pass);
* rewrites the old header directives into the harness's one spelling `#!name value`:
  `# env: X` -> `#!env X`, `# variants: X` -> `#!variants X`, `# funcs: X` -> `#!funcs X`,
  `# images: X` -> `#!images X`, `# scope: X` -> `#!scope X` (the tracing fixtures already
  wrote `#!env`, `#!box`, `#!options`);
* renames the profiling snapshots from insta's glob names (`fixtures@NAME.stmt.snap`) to the
  harness's (`NAME.snap`).

Descriptions, bodies and snapshot contents are left byte for byte as they are;
`tools/filetests-move/compare.py` checks that after the move.
"""

import os
import re
import subprocess
import sys

# (old path, new path, how to pick the test of a fixture file there)
MOVES = [
    ("fixtures/ir", "filetests/ir", lambda name: "parse"),
    ("fixtures/parse_errors", "filetests/parse_errors", lambda name: "parse-error"),
    ("fixtures/profiling", "filetests/profiling", lambda name: "profile"),
    ("fixtures/profiling_levels", "filetests/profiling_levels", lambda name: "profile-levels"),
    (
        "fixtures/tracing",
        "filetests/tracing",
        lambda name: "trace-check" if name.startswith("checker_") else "trace",
    ),
    ("fixtures/bounds/boxes", "filetests/bounds", lambda name: "boxes"),
    ("fixtures/bounds/exprs.txt", "filetests/bounds/exprs.txt", lambda name: "bounds-of-expr"),
    ("fixtures/bounds/snapshots", "filetests/bounds/snapshots", None),
    ("fixtures/bounds_exact", "filetests/bounds_exact", lambda name: "simplify"),
]

# Old directive spellings (a `#` comment line starting so) and the harness's.
OLD_DIRECTIVES = ["env", "variants", "funcs", "images", "scope"]


def git(*args):
    subprocess.run(["git", *args], check=True)


def move(old, new):
    os.makedirs(os.path.dirname(new), exist_ok=True)
    if os.path.isdir(old) and os.path.isdir(new):
        # Merge a directory into an existing one, file by file.
        for entry in sorted(os.listdir(old)):
            move(os.path.join(old, entry), os.path.join(new, entry))
    else:
        git("mv", old, new)


def rewrite_header(path, test):
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    if lines[0].startswith(b"#!test"):
        sys.exit(f"{path}: already has a `#!test` line; run the script on the old layout only")
    out = [b"#!test " + test.encode()]
    in_header = True
    for line in lines:
        if in_header and not line.startswith(b"#"):
            in_header = False
        if in_header:
            for key in OLD_DIRECTIVES:
                prefix = b"# " + key.encode() + b":"
                if line.startswith(prefix):
                    line = b"#!" + key.encode() + b" " + line[len(prefix):].strip()
                    break
        out.append(line)
    with open(path, "wb") as f:
        f.write(b"\n".join(out))


def main():
    if subprocess.run(["git", "diff", "--quiet", "HEAD"]).returncode != 0:
        sys.exit("the tree has uncommitted changes: commit or stash them first")
    for old, new, pick in MOVES:
        move(old, new)
        if pick is None:
            continue
        files = [new] if os.path.isfile(new) else [
            os.path.join(new, n) for n in sorted(os.listdir(new)) if os.path.isfile(os.path.join(new, n))
        ]
        for path in files:
            name = os.path.basename(path)
            if name.endswith(".md"):
                continue
            rewrite_header(path, pick(name))
    snaps = "filetests/profiling/snapshots"
    for name in sorted(os.listdir(snaps)):
        m = re.fullmatch(r"fixtures@(.*)\.stmt\.snap", name)
        if m:
            git("mv", os.path.join(snaps, name), os.path.join(snaps, m.group(1) + ".snap"))
    for old in ["fixtures/bounds/boxes", "fixtures/bounds_exact"]:
        if os.path.isdir(old) and not os.listdir(old):
            os.rmdir(old)
    git("add", "filetests")


if __name__ == "__main__":
    main()
