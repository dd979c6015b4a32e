#!/usr/bin/env python3
"""The README's examples, run as a newcomer would after `bash tools/demo.sh`.

Usage: check_readme_examples.py SOURCE_DIR GRAPPI

In a scratch directory laid out like a clone (data/ and tests/ of SOURCE_DIR, build/grappi the
program given), builds build/demo.db as tools/demo.sh does, then runs every ```sh block of the
README after the set-up one, in order. Each path an example names under data/ or tests/ must
exist in the clone; the lines of the ```text block that follows an example must be in what it
printed (blanks compared as one; "..." stands for text left out). `grappi serve` runs for a
few seconds on a free port.
"""
import os
import re
import subprocess
import sys
import tempfile

src, grappi = sys.argv[1], os.path.abspath(sys.argv[2])
readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()

# The blocks in order: (language, text).
blocks = re.findall(r"^```(\w*)\n(.*?)^```$", readme, re.S | re.M)
examples = []  # (commands, expected lines)
seen_setup = False
for i, (lang, text) in enumerate(blocks):
    if lang != "sh":
        continue
    if not seen_setup:  # the set-up block: tools/demo.sh and the test command
        seen_setup = True
        assert "tools/demo.sh" in text and "ctest --test-dir build" in text, text
        continue
    expected = blocks[i + 1][1] if i + 1 < len(blocks) and blocks[i + 1][0] == "text" else ""
    examples.append((text, expected))
assert len(examples) >= 6, f"expected an example per job, found {len(examples)}"

failures = []
for commands, _ in examples:
    for path in re.findall(r"(?<![\w/.])((?:data|tests)/[\w./-]+)", commands):
        if not os.path.exists(os.path.join(src, path)):
            failures.append(f"the README names {path}, which a clone does not have")


def squeeze(s):
    return " ".join(s.split())


def printed(expected_line, output_lines):
    parts = [squeeze(p) for p in expected_line.split("...") if squeeze(p)]
    for line in output_lines:
        at = 0
        for p in parts:
            at = line.find(p, at)
            if at < 0:
                break
            at += len(p)
        else:
            return True
    return False


with tempfile.TemporaryDirectory() as work:
    os.symlink(os.path.join(src, "data"), os.path.join(work, "data"))
    os.symlink(os.path.join(src, "tests"), os.path.join(work, "tests"))
    os.mkdir(os.path.join(work, "build"))
    os.symlink(grappi, os.path.join(work, "build", "grappi"))

    def run(script):
        r = subprocess.run(["bash", "-c", "set -euo pipefail\n" + script], cwd=work, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        return r.returncode, r.stdout

    # tools/demo.sh's database.
    code, out = run("build/grappi import --db build/demo.db --info data/9606.protein.info.v12.0.txt.gz "
                    "--export data/export_v12_alzheimer/string_interactions.tsv "
                    "--export data/export_v12_nsclc/string_interactions.tsv > /dev/null\n"
                    "build/grappi embed --db build/demo.db > /dev/null")
    if code:
        sys.exit("the demo database could not be built:\n" + out)
    for commands, expected in examples:
        # (the web explorer runs until stopped: a few seconds on a free port)
        script = re.sub(r"^build/grappi serve (.*?)--port \d+([^#\n]*)(#.*)?$",
                        r"timeout -s INT 3 build/grappi serve \1--port 0\2 || test $? -eq 124", commands, flags=re.M)
        code, out = run(script)
        if code not in (0,):
            failures.append(f"exit {code}:\n{commands}\n{out}")
            continue
        lines = [squeeze(l) for l in out.splitlines()]
        for want in expected.splitlines():
            if want.strip() and not printed(want, lines):
                failures.append(f"not printed: {want!r}\nby:\n{commands}\nwhich printed:\n{out}")
        if "grappi serve" in commands and "listening on http://127.0.0.1:" not in out:
            failures.append(f"grappi serve did not listen:\n{out}")

if failures:
    print("\n\n".join(failures))
    sys.exit(1)
print(f"{len(examples)} README examples ran and printed what the README shows")
