#!/usr/bin/env python3
"""No function of the library, the C layer or the command line is longer than LIMIT lines.

Usage: check_function_length.py SOURCE_DIR [LIMIT]   (LIMIT: 200)

A definition opens at column 0 (the house style: namespaces are not indented) with a signature
whose line (or one of the next few lines) ends in '{', and closes at the next line that is a
lone '}' at column 0; lambdas and nested blocks inside it count towards it.
"""
import glob
import os
import re
import sys

root = sys.argv[1]
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 200
paths = sorted(set(glob.glob(os.path.join(root, "src", "**", "*.cpp"), recursive=True) +
                   glob.glob(os.path.join(root, "capi", "*.cpp")) +
                   glob.glob(os.path.join(root, "tools", "cli", "*.cpp"))))
not_functions = ("namespace", "struct", "class", "enum", "extern", "union", "template", "static_assert", "#")
opening = re.compile(r"^[A-Za-z_~].*\)\s*(const)?\s*(noexcept)?\s*(override)?\s*(->\s*[\w:<>, ]+)?\s*\{\s*$")
continued = re.compile(r"^[A-Za-z_~].*[(,]\s*$")
long_ones, functions = [], 0
for path in paths:
    lines = open(path, encoding="utf-8").read().split("\n")
    start = None
    for i, line in enumerate(lines):
        if start is None:
            if line.startswith(not_functions):
                continue
            if opening.match(line):
                start = i
            elif continued.match(line):
                for j in range(i + 1, min(i + 8, len(lines))):
                    if lines[j].rstrip().endswith(";"):
                        break
                    if lines[j].rstrip().endswith("{"):
                        start = i
                        break
        elif line == "}":
            functions += 1
            if i - start + 1 > limit:
                long_ones.append(f"{os.path.relpath(path, root)}:{start + 1}: {i - start + 1} lines: {lines[start].strip()[:80]}")
            start = None
if functions < 500:
    sys.exit(f"found only {functions} functions: the scan no longer matches the code's layout")
if long_ones:
    print(f"functions over {limit} lines (split them along their stages):")
    print("\n".join(long_ones))
    sys.exit(1)
print(f"{functions} functions, none over {limit} lines")
