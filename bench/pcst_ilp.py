#!/usr/bin/env python3
"""Small PCST instances solved exactly by an integer program (GLPK's glpsol, Debian's glpk-utils;
used as a program, not linked), beside `grappi pcst --improve` on the same instances: the known
optima the improvement phase is measured against, from a solver that shares nothing with grappi.

Usage: bench/pcst_ilp.py BUILD_DIR [--count N] [--seed S] [--work DIR]

The model (unrooted, one tree): a node y_v, an edge x_e, an arc from an artificial root z_v to at
most one node, and a single-commodity flow f from the root that delivers one unit to every
selected node through selected edges only; edges = nodes - root arcs. Minimise the prizes of the
nodes left out plus the costs of the edges taken in (the Goemans-Williamson objective grappi
reports). Instances: random connected graphs of 10-28 nodes, 1.5-3 edges per node, integer costs
1-20, a third of the nodes without a prize, the others 1-30 (seeded: the same every run)."""
import json
import os
import random
import re
import statistics
import subprocess
import sys


def instance(rng):
    n = rng.randint(10, 28)
    edges = set()
    for v in range(1, n):  # (a random tree first: connected)
        u = rng.randrange(v)
        edges.add((u, v))
    want = int(n * rng.uniform(1.5, 3.0))
    while len(edges) < want:
        a, b = rng.randrange(n), rng.randrange(n)
        if a != b:
            edges.add((min(a, b), max(a, b)))
    edges = sorted(edges)
    costs = [rng.randint(1, 20) for _ in edges]
    prizes = [0 if rng.random() < 1 / 3 else rng.randint(1, 30) for _ in range(n)]
    return prizes, edges, costs


def write_instance(path, prizes, edges, costs):
    with open(path, "w") as f:
        f.write("# pcst-instance v1 (bench/pcst_ilp.py)\n%d %d\n" % (len(prizes), len(edges)))
        for p in prizes:
            f.write("%d\n" % p)
        for (u, v), c in zip(edges, costs):
            f.write("%d %d %d\n" % (u, v, c))


def write_model(path, prizes, edges, costs):
    n = len(prizes)
    big = n
    lines = ["Minimize", " obj: " + " + ".join("%d x%d" % (c, i) for i, c in enumerate(costs)) +
             "".join(" - %d y%d" % (p, v) for v, p in enumerate(prizes) if p)]
    lines.append("Subject To")
    lines.append(" oneroot: " + " + ".join("z%d" % v for v in range(n)) + " <= 1")
    # edges = nodes - root arcs (a tree, with the flow's connectivity)
    lines.append(" tree: " + " + ".join("x%d" % i for i in range(len(edges))) + " - " +
                 " - ".join("y%d" % v for v in range(n)) + " + " + " + ".join("z%d" % v for v in range(n)) + " = 0")
    inflow = {v: ["r%d" % v] for v in range(n)}
    outflow = {v: [] for v in range(n)}
    for i, (u, v) in enumerate(edges):
        inflow[v].append("f%d_%d" % (u, v))
        outflow[u].append("f%d_%d" % (u, v))
        inflow[u].append("f%d_%d" % (v, u))
        outflow[v].append("f%d_%d" % (v, u))
        lines.append(" cap%da: f%d_%d - %d x%d <= 0" % (i, u, v, big, i))
        lines.append(" cap%db: f%d_%d - %d x%d <= 0" % (i, v, u, big, i))
        lines.append(" eu%d: x%d - y%d <= 0" % (i, i, u))
        lines.append(" ev%d: x%d - y%d <= 0" % (i, i, v))
    for v in range(n):
        lines.append(" rcap%d: r%d - %d z%d <= 0" % (v, v, big, v))
        lines.append(" zy%d: z%d - y%d <= 0" % (v, v, v))
        lines.append(" flow%d: " % v + " + ".join(inflow[v]) + ("".join(" - " + a for a in outflow[v])) + " - y%d = 0" % v)
    lines.append("Binary")
    lines.append(" " + " ".join(["x%d" % i for i in range(len(edges))] + ["y%d" % v for v in range(n)] +
                               ["z%d" % v for v in range(n)]))
    lines.append("End")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def ilp_optimum(model, out):
    subprocess.run(["glpsol", "--lp", model, "-o", out, "--tmlim", "60"], check=True, capture_output=True)
    text = open(out).read()
    if "INTEGER OPTIMAL" not in text:
        return None  # (not proven within the time limit: the instance is left out, and counted)
    return float(re.search(r"Objective:\s+obj = (-?[\d.e+-]+)", text).group(1))


def main():
    build = sys.argv[1]
    count = int(sys.argv[sys.argv.index("--count") + 1]) if "--count" in sys.argv else 40
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 60
    work = sys.argv[sys.argv.index("--work") + 1] if "--work" in sys.argv else "/tmp/pcst_ilp"
    os.makedirs(work, exist_ok=True)
    rng = random.Random(seed)
    rows, unproven = [], 0
    for k in range(count):
        prizes, edges, costs = instance(rng)
        base = os.path.join(work, "ilp%03d" % k)
        write_instance(base + ".txt", prizes, edges, costs)
        write_model(base + ".lp", prizes, edges, costs)
        proven = ilp_optimum(base + ".lp", base + ".sol")
        if proven is None:
            unproven += 1
            continue
        optimum = sum(prizes) + proven
        got = {}
        for label, extra in (("strong", []), ("improve", ["--improve"])):
            out = subprocess.run([os.path.join(build, "grappi"), "pcst", "--instance", base + ".txt", "--pruning", "strong",
                                  "--json"] + extra, check=True, capture_output=True, text=True).stdout
            got[label] = json.loads(out)["objective"]
        if got["improve"] < optimum - 1e-6:
            raise RuntimeError("grappi below the integer program's optimum on %s: %s < %s" % (base, got["improve"], optimum))
        rows.append((k, len(prizes), len(edges), optimum, got["strong"], got["improve"]))
    gap = lambda x, o: (x - o) / o * 100 if o else 0.0
    print("| instance | nodes | edges | optimum (glpsol) | strong pruning (gap) | --improve (gap) |")
    print("|---|---|---|---|---|---|")
    for k, n, m, o, s, i in rows:
        print("| ilp%03d | %d | %d | %g | %g (%.2f%%) | %g (%.2f%%) |" % (k, n, m, o, s, gap(s, o), i, gap(i, o)))
    gs = [gap(s, o) for _, _, _, o, s, _ in rows]
    gi = [gap(i, o) for _, _, _, o, _, i in rows]
    print("| **median / worst / optimal** | | | | %.2f%% / %.2f%% / %d of %d | %.2f%% / %.2f%% / %d of %d |" % (
        statistics.median(gs), max(gs), sum(1 for g in gs if g < 1e-9), len(gs),
        statistics.median(gi), max(gi), sum(1 for g in gi if g < 1e-9), len(gi)))
    print("\n%d instance(s) of %d left out: glpsol proved no optimum within 60 s" % (unproven, count))


if __name__ == "__main__":
    main()
