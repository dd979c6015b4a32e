#!/usr/bin/env python3
"""Times grappi and a locally built reference solver on the same PCST instances, alternating
them run by run (a slow or noisy host affects both alike): the issue's "half the reference's time
on the same machine" measured directly instead of against the figures in reference_pcst_fast.jsonl.

Usage: bench/pcst_vs_reference.py GRAPPI REF_CMD DIR[,DIR...] NAME[,NAME...] [RUNS] [PRUNING[,PRUNING...]] [FLAGS]

REF_CMD is a command template with {instance} and {pruning}; one run of it must solve the instance
once (unrooted, one cluster) and print one JSON object with "objective" and "median_s" (its solve
time in seconds: building the solver, running it and freeing it, input already in memory) - for
example pcst_fast (github.com/fraenkel-lab/pcst_fast, MIT) built as a C++ program with -O3, as in
BENCHMARKS.md. FLAGS are more options for `grappi pcst` in one argument (e.g. "--fast-order";
the default is pcst_fast's own event order). Prints a Markdown row per instance and pruning: median ms of each, the ratio
grappi / reference, both objectives (of the last run).
"""
import json
import os
import shlex
import statistics
import subprocess
import sys

grappi, ref_cmd, dirs, names = sys.argv[1:5]
runs = int(sys.argv[5]) if len(sys.argv) > 5 else 5
prunings = (sys.argv[6] if len(sys.argv) > 6 else "gw").split(",")
flags = shlex.split(sys.argv[7]) if len(sys.argv) > 7 else []


def find(name):
    for d in dirs.split(","):
        for ext in (".txt.gz", ".txt"):
            p = os.path.join(d, name + ext)
            if os.path.exists(p):
                return p
    sys.exit(f"no instance {name} in {dirs}")


def run_grappi(path, pruning):
    out = subprocess.run([grappi, "pcst", "--instance", path, "--pruning", pruning, "--json"] + flags,
                         capture_output=True, text=True, check=True).stdout
    d = json.loads(out)
    return d["solve_seconds"], d["objective"]


def run_ref(path, pruning):
    cmd = ref_cmd.format(instance=shlex.quote(path), pruning=shlex.quote(pruning))
    out = subprocess.run(cmd, shell=True, capture_output=True, text=True, check=True).stdout
    d = json.loads(out)
    return d["median_s"], d["objective"]


print("| instance | pruning | grappi ms | reference ms (same machine) | ratio | grappi objective | reference objective |")
print("|---|---|---|---|---|---|---|")
for name in names.split(","):
    path = find(name)
    for pruning in prunings:
        g, r = [], []
        for _ in range(runs):
            t, go = run_grappi(path, pruning)
            g.append(t)
            t, ro = run_ref(path, pruning)
            r.append(t)
        gm, rm = statistics.median(g), statistics.median(r)
        print(f"| {name} | {pruning} | {gm * 1e3:.1f} | {rm * 1e3:.1f} | {gm / rm:.2f} | {go:.6g} | {ro:.6g} |", flush=True)
