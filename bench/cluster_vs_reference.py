#!/usr/bin/env python3
"""grappi cluster beside the reference implementations, on the same networks.

MCL: each STRING export (string_interactions.tsv) imported into a database of its own and
clustered by `grappi cluster --method mcl --min-score 0` (every edge of the export), and with
--physical the physical network at the threshold too; the same edges given to Debian's mcl (`mcl FILE --abc -I 2.0`, the combined score as the weight, its
defaults otherwise); the two partitions compared by the adjusted Rand index, each run timed as a
whole process.

Leiden: a STRING physical links file at a score threshold (yeast's complete physical network at
700 by default), clustered by `grappi cluster --method leiden --runs R` on a database holding it,
and by python3-leidenalg (ModularityVertexPartition, the score / 1000 as the weight, until stable,
the best of the same R seeds) on python3-igraph's graph of the same edges; each partition's
modularity computed by igraph's own `Graph.modularity`, and the times (grappi: the whole process,
opening the database included; leidenalg: reading the file, building the graph and the runs).

    python3 bench/cluster_vs_reference.py build/grappi \\
        --export data/export_v12_nsclc/string_interactions.tsv \\
        --export data/export_v12_alzheimer/string_interactions.tsv \\
        --physical data/4932.protein.physical.links.v12.0.txt.gz --info data/4932.protein.info.v12.0.txt.gz
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from math import comb


def ari(a, b):
    """Adjusted Rand index of two partitions (dicts node -> cluster) over their common nodes."""
    nodes = sorted(set(a) & set(b))
    table, rows, cols = {}, {}, {}
    for n in nodes:
        key = (a[n], b[n])
        table[key] = table.get(key, 0) + 1
        rows[a[n]] = rows.get(a[n], 0) + 1
        cols[b[n]] = cols.get(b[n], 0) + 1
    index = sum(comb(v, 2) for v in table.values())
    sa, sb, total = sum(comb(v, 2) for v in rows.values()), sum(comb(v, 2) for v in cols.values()), comb(len(nodes), 2)
    expected = sa * sb / total if total else 0
    top = (sa + sb) / 2
    return 1.0 if top == expected else (index - expected) / (top - expected)


def timed(cmd, **kw):
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)
    return out, time.perf_counter() - t0


def grappi_partition(grappi, db, args):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        _, seconds = timed([grappi, "cluster", "--db", db, "--terms", "0", "--json", path] + args)
        j = json.load(open(path, encoding="utf-8"))
    finally:
        os.unlink(path)
    part = {m: c["id"] for c in j["clusters"] if c["level"] == 0 for m in c["members"]}
    return part, j, seconds


def mcl_side(grappi, export, work, inflation):
    db, abc = os.path.join(work, "net.db"), os.path.join(work, "net.abc")
    if os.path.exists(db):
        os.unlink(db)
    subprocess.run([grappi, "import", "--db", db, "--export", export], check=True, capture_output=True)
    with open(export, encoding="utf-8") as f, open(abc, "w", encoding="utf-8") as out:
        head = f.readline().lstrip("#").rstrip("\n").split("\t")
        i, j, s = head.index("node1_string_id"), head.index("node2_string_id"), head.index("combined_score")
        for line in f:
            x = line.rstrip("\n").split("\t")
            out.write(f"{x[i]}\t{x[j]}\t{x[s]}\n")
    ours, j_ours, t_ours = grappi_partition(grappi, db, ["--method", "mcl", "--min-score", "0", "--inflation", str(inflation)])
    out_file = os.path.join(work, "out.mcl")
    _, t_mcl = timed(["mcl", abc, "--abc", "-I", str(inflation), "-o", out_file])
    theirs = {}
    for k, line in enumerate(open(out_file, encoding="utf-8")):
        for n in line.split():
            theirs[n] = k
    n_theirs = len(set(theirs.values()))
    print(f"| {os.path.basename(os.path.dirname(export))} | {len(ours)} / {j_ours['edges']} | "
          f"{sum(1 for c in j_ours['clusters'] if c['level'] == 0)} | {n_theirs} | **{ari(ours, theirs):.3f}** | "
          f"{t_ours * 1000:.0f} ms | {t_mcl * 1000:.0f} ms |")


def mcl_physical(grappi, physical, info, work, threshold, inflation):
    db, abc = os.path.join(work, "phys.db"), os.path.join(work, "phys.abc")
    if not os.path.exists(db):
        subprocess.run([grappi, "import", "--db", db, "--info", info, "--physical", physical], check=True, capture_output=True)
    opener = gzip.open if physical.endswith(".gz") else open
    with opener(physical, "rt", encoding="utf-8") as f, open(abc, "w", encoding="utf-8") as out:
        f.readline()
        for line in f:
            a, b, s = line.split()
            if int(s) >= threshold and a < b:
                out.write(f"{a}\t{b}\t{int(s) / 1000}\n")
    ours, j_ours, t_ours = grappi_partition(grappi, db, ["--method", "mcl", "--min-score", str(threshold / 1000),
                                                          "--inflation", str(inflation)])
    out_file = os.path.join(work, "out.mcl")
    _, t_mcl = timed(["mcl", abc, "--abc", "-I", str(inflation), "-o", out_file])
    theirs = {n: k for k, line in enumerate(open(out_file, encoding="utf-8")) for n in line.split()}
    print(f"| {os.path.basename(physical)} at {threshold} | {len(ours)} / {j_ours['edges']} | "
          f"{sum(1 for c in j_ours['clusters'] if c['level'] == 0)} | {len(set(theirs.values()))} | "
          f"**{ari(ours, theirs):.3f}** | {t_ours * 1000:.0f} ms | {t_mcl * 1000:.0f} ms |")


def leiden_side(grappi, physical, info, work, threshold, runs, resolution, seed):
    import igraph
    import leidenalg
    db = os.path.join(work, "phys.db")
    if not os.path.exists(db):
        subprocess.run([grappi, "import", "--db", db, "--info", info, "--physical", physical], check=True, capture_output=True)
    ours, j_ours, t_ours = grappi_partition(grappi, db, ["--method", "leiden", "--min-score", str(threshold / 1000),
                                                          "--runs", str(runs), "--resolution", str(resolution),
                                                          "--seed", str(seed)])
    t0 = time.perf_counter()
    edges, weights, index = [], [], {}
    opener = gzip.open if physical.endswith(".gz") else open
    with opener(physical, "rt", encoding="utf-8") as f:
        f.readline()
        for line in f:
            a, b, s = line.split()
            s = int(s)
            if s < threshold or a >= b:
                continue
            edges.append((index.setdefault(a, len(index)), index.setdefault(b, len(index))))
            weights.append(s / 1000)
    g = igraph.Graph(n=len(index), edges=edges)
    g.es["weight"] = weights
    best = None
    for s in range(seed, seed + runs):
        p = leidenalg.find_partition(g, leidenalg.RBConfigurationVertexPartition, weights="weight", n_iterations=-1,
                                     seed=s, resolution_parameter=resolution)
        if best is None or p.quality() > best.quality():
            best = p
    t_leiden = time.perf_counter() - t0
    names = [None] * len(index)
    for n, k in index.items():
        names[k] = n
    q_theirs = g.modularity(best.membership, weights="weight")
    q_ours = g.modularity([ours[n] for n in names], weights="weight")
    print(f"| {os.path.basename(physical)} at {threshold} | {g.vcount()} / {g.ecount()} | {runs} from {seed} | "
          f"{q_ours:.5f} ({j_ours['modularity']:.5f} by grappi) | {q_theirs:.5f} | "
          f"{sum(1 for c in j_ours['clusters'] if c['level'] == 0)} / {len(set(best.membership))} | "
          f"{t_ours:.2f} s | {t_leiden:.2f} s |")
    return q_ours, q_theirs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("grappi")
    ap.add_argument("--export", action="append", default=[])
    ap.add_argument("--inflation", type=float, default=2.0)
    ap.add_argument("--physical")
    ap.add_argument("--info")
    ap.add_argument("--threshold", type=int, default=700)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--resolution", type=float, default=1.0)
    ap.add_argument("--seed", type=int, action="append", help="first seed of the runs (repeatable; default 42)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        if a.export:
            print("| network | nodes / edges | grappi clusters | mcl clusters | adjusted Rand | grappi | mcl |")
            print("|---|---|---|---|---|---|---|")
            for e in a.export:
                mcl_side(a.grappi, e, work, a.inflation)
            if a.physical:
                mcl_physical(a.grappi, a.physical, a.info, work, a.threshold, a.inflation)
        if a.physical:
            print("\n| network | nodes / edges | runs | grappi modularity (igraph's reading) | leidenalg modularity | "
                  "clusters grappi / leidenalg | grappi (process) | leidenalg (read, build, runs) |")
            print("|---|---|---|---|---|---|---|---|")
            for seed in a.seed or [42]:
                leiden_side(a.grappi, a.physical, a.info, work, a.threshold, a.runs, a.resolution, seed)


if __name__ == "__main__":
    sys.exit(main())
