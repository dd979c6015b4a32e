#!/usr/bin/env python3
"""Times two grappi builds on the same PCST instances, alternating them run by run, so that a
slow or noisy host affects both alike.

Usage: bench/pcst_side_by_side.py OLD_GRAPPI NEW_GRAPPI INSTANCE_DIR NAME[,NAME...] [RUNS] [PRUNING]
Prints a Markdown row per instance: median solve ms of each, their ratio and both objectives.
"""
import json
import os
import statistics
import subprocess
import sys

old_bin, new_bin, idir, names = sys.argv[1:5]
runs = int(sys.argv[5]) if len(sys.argv) > 5 else 5
pruning = sys.argv[6] if len(sys.argv) > 6 else "gw"


def solve(binary, path):
    out = subprocess.run([binary, "pcst", "--instance", path, "--pruning", pruning, "--json"],
                         capture_output=True, text=True, check=True).stdout
    d = json.loads(out)
    return d["solve_seconds"] * 1000, d["objective"]


for name in names.split(","):
    path = next((os.path.join(idir, name + ext) for ext in (".txt.gz", ".txt")
                 if os.path.exists(os.path.join(idir, name + ext))), None)
    if path is None:
        sys.exit(f"no instance {name} in {idir}")
    times = {"old": [], "new": []}
    objective = {}
    for _ in range(runs):
        for key, binary in (("old", old_bin), ("new", new_bin)):
            ms, obj = solve(binary, path)
            times[key].append(ms)
            objective[key] = obj
    mo, mn = statistics.median(times["old"]), statistics.median(times["new"])
    print(f"| {name} | {mo:.1f} | {mn:.1f} | {mn / mo:.2f} | {objective['old']:.6g} | {objective['new']:.6g} |",
          flush=True)
