#!/usr/bin/env python3
"""Checks that src/ is layered: every #include of a grappi header (src/ or include/grappi/) goes
to the includer's own folder or to a folder of a lower layer (tools/src_layout.py), the agents'
folders include none of each other, and src/ holds only folders. Arrows still running up are
listed in src_layout.KNOWN_UPWARD with their reason; any other arrow up fails, and so does a
listed one that no longer occurs.

Usage: check_layers.py [ROOT]   (exit 1 with every violation named, file and line)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import src_layout  # noqa: E402

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
src = os.path.join(root, "src")
rank = {}
for i, layer in enumerate(src_layout.LAYERS):
    for folder in layer:
        rank[folder] = i

problems = []
loose = [f for f in os.listdir(src) if not os.path.isdir(os.path.join(src, f))]
if loose:
    problems.append("src/ holds files outside its folders: " + ", ".join(sorted(loose)))


def folder_of(rel_dir):
    """The layout folder a directory under src/ belongs to (agents/x, or the top folder)."""
    parts = rel_dir.split("/")
    key = "/".join(parts[:2]) if parts[0] == "agents" else parts[0]
    return key if key in rank else None


include = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
seen_known = set()
files = 0
arrows = 0


def judge(rel, number, target, here, there):
    """Records an include of `target` (folder `there`) by `rel` (folder `here`) at line `number`:
    a problem when it runs up a layer or across agents and is not a listed known arrow."""
    global arrows
    if there == here:
        return
    arrows += 1
    up = rank[there] > rank[here]
    if not (up or rank[there] == rank[here]):
        return
    key = (rel, there.split("/")[0])
    if key in src_layout.KNOWN_UPWARD:
        seen_known.add(key)
        return
    problems.append('%s:%d: includes "%s" of %s, %s %s' %
                    (rel, number, target, there, "a layer above" if up else "a sibling of", here))

for dirpath, _, names in os.walk(src):
    rel_dir = os.path.relpath(dirpath, src)
    if rel_dir == ".":
        continue
    here = folder_of(rel_dir)
    if here is None and not any(n.endswith((".cpp", ".hpp", ".h")) for n in names):
        continue  # (a folder of folders: src/agents)
    if here is None:
        problems.append("src/%s: a folder tools/src_layout.py does not place in a layer" % rel_dir)
        continue
    for name in sorted(names):
        if not name.endswith((".cpp", ".hpp", ".h")):
            continue
        files += 1
        rel = "%s/%s" % (rel_dir, name)
        with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = include.match(line)
                if not m:
                    continue
                target = m.group(1)
                if target.startswith("grappi/"):
                    there = src_layout.PUBLIC.get(target[len("grappi/"):])
                    if there is None:
                        continue  # (the umbrella header and generated ones)
                else:
                    there = folder_of(os.path.dirname(target)) if "/" in target else None
                    if there is None:
                        problems.append("src/%s:%d: includes \"%s\", not a path under src/ (folder/name)" %
                                        (rel, number, target))
                        continue
                judge("src/" + rel, number, target, here, there)
# The public headers follow the same rule, each placed by the folder that implements it.
inc_dir = os.path.join(root, "include", "grappi")
for name in sorted(os.listdir(inc_dir)):
    here = src_layout.PUBLIC.get(name)
    if here is None:
        continue  # (the umbrella header grappi.hpp, the C header grappi.h)
    files += 1
    rel = "include/grappi/" + name
    with open(os.path.join(inc_dir, name), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = include.match(line)
            if not m or not m.group(1).startswith("grappi/"):
                continue
            there = src_layout.PUBLIC.get(m.group(1)[len("grappi/"):])
            if there is not None:
                judge(rel, number, m.group(1), here, there)
for key, why in src_layout.KNOWN_UPWARD.items():
    if key not in seen_known:
        problems.append("tools/src_layout.py lists %s -> %s (%s), which no longer occurs: remove it" %
                        (key[0], key[1], why))
for p in problems:
    print(p)
print("%d files, %d includes across folders, %d known arrows up (tools/src_layout.py), %d problem(s)" %
      (files, arrows, len(seen_known), len(problems)))
sys.exit(1 if problems else 0)
