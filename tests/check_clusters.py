#!/usr/bin/env python3
"""grappi cluster against the reference implementations (issue 58), on STRING's networks:

- MCL: the NSCLC and Alzheimer exports and yeast's physical network at 0.700 clustered by
  `grappi cluster --method mcl` and by Debian's `mcl FILE --abc -I 2.0` (the same edges, the
  score as the weight): adjusted Rand index >= 0.95;
- Leiden: yeast's physical network at 0.700 by `grappi cluster --method leiden` (5 runs from seed
  42, 10 from seed 1) and by python3-leidenalg (RBConfigurationVertexPartition, until stable, the
  best of the same seeds): grappi's modularity as igraph computes it (Graph.modularity) equals
  the one grappi reports (1e-9) and is at least leidenalg's (BENCHMARKS.md has more seed sets);
- each cluster's terms are those `grappi enrich` finds for its members (the lowest FDRs).

    check_clusters.py GRAPPI WORKDIR NSCLC_EXPORT ALZHEIMER_EXPORT YEAST_DB PHYSICAL_LINKS ANNOTATED_DB
"""
import gzip
import json
import os
import subprocess
import sys
from math import comb

import igraph
import leidenalg


def ari(a, b):
    nodes = sorted(set(a) & set(b))
    assert nodes and len(nodes) == len(a) == len(b), (len(nodes), len(a), len(b))
    table, rows, cols = {}, {}, {}
    for n in nodes:
        table[(a[n], b[n])] = table.get((a[n], b[n]), 0) + 1
        rows[a[n]] = rows.get(a[n], 0) + 1
        cols[b[n]] = cols.get(b[n], 0) + 1
    index = sum(comb(v, 2) for v in table.values())
    sa, sb = sum(comb(v, 2) for v in rows.values()), sum(comb(v, 2) for v in cols.values())
    expected = sa * sb / comb(len(nodes), 2)
    top = (sa + sb) / 2
    return 1.0 if top == expected else (index - expected) / (top - expected)


def grappi_json(grappi, args):
    r = subprocess.run([grappi, "cluster"] + args + ["--json", "-"], capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"grappi cluster {args} exited {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)


def top_partition(j):
    return {m: c["id"] for c in j["clusters"] if c["level"] == 0 for m in c["members"]}


def mcl_partition(abc, work):
    out = os.path.join(work, "out.mcl")
    subprocess.run(["mcl", abc, "--abc", "-I", "2.0", "-o", out], check=True, capture_output=True)
    return {n: k for k, line in enumerate(open(out, encoding="utf-8")) for n in line.split()}


def export_abc(export, abc):
    with open(export, encoding="utf-8") as f, open(abc, "w", encoding="utf-8") as out:
        head = f.readline().lstrip("#").rstrip("\n").split("\t")
        i, j, s = head.index("node1_string_id"), head.index("node2_string_id"), head.index("combined_score")
        for line in f:
            x = line.rstrip("\n").split("\t")
            out.write(f"{x[i]}\t{x[j]}\t{x[s]}\n")


def physical_edges(path, threshold):
    edges = {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        f.readline()
        for line in f:
            a, b, s = line.split()
            if int(s) >= threshold and a < b:
                edges[(a, b)] = int(s) / 1000
    return edges


def main():
    grappi, work, nsclc, alzheimer, yeast_db, physical, annotated_db = sys.argv[1:8]
    # MCL on the two exports, each in a database of its own.
    for export in (nsclc, alzheimer):
        db, abc = os.path.join(work, "export.db"), os.path.join(work, "export.abc")
        if os.path.exists(db):
            os.unlink(db)
        subprocess.run([grappi, "import", "--db", db, "--export", export], check=True, capture_output=True)
        export_abc(export, abc)
        ours = top_partition(grappi_json(grappi, ["--db", db, "--min-score", "0", "--terms", "0"]))
        value = ari(ours, mcl_partition(abc, work))
        assert value >= 0.95, f"{export}: adjusted Rand {value:.3f} against mcl"
        print(f"MCL on {os.path.basename(os.path.dirname(export))}: adjusted Rand {value:.3f} against mcl")
    # Yeast's physical network at 0.700: MCL and Leiden.
    edges = physical_edges(physical, 700)
    abc = os.path.join(work, "yeast.abc")
    with open(abc, "w", encoding="utf-8") as out:
        for (a, b), w in edges.items():
            out.write(f"{a}\t{b}\t{w}\n")
    ours = top_partition(grappi_json(grappi, ["--db", yeast_db, "--min-score", "0.7", "--terms", "0"]))
    value = ari(ours, mcl_partition(abc, work))
    assert value >= 0.95, f"yeast: adjusted Rand {value:.3f} against mcl"
    print(f"MCL on yeast's physical network at 0.700: adjusted Rand {value:.3f} against mcl")
    index = {}
    pairs = [(index.setdefault(a, len(index)), index.setdefault(b, len(index))) for a, b in edges]
    g = igraph.Graph(n=len(index), edges=pairs)
    g.es["weight"] = list(edges.values())
    names = sorted(index, key=index.get)
    for first, runs in ((42, 5), (1, 10)):
        j = grappi_json(grappi, ["--db", yeast_db, "--method", "leiden", "--min-score", "0.7", "--runs", str(runs),
                                 "--seed", str(first), "--terms", "0"])
        ours = top_partition(j)
        assert set(ours) == set(index), "grappi's Leiden clustered other nodes than the network's"
        q_ours = g.modularity([ours[n] for n in names], weights="weight")
        assert abs(q_ours - j["modularity"]) <= 1e-9, (q_ours, j["modularity"])
        q_theirs = max(g.modularity(leidenalg.find_partition(g, leidenalg.RBConfigurationVertexPartition,
                                                             weights="weight", n_iterations=-1, seed=s).membership,
                                    weights="weight")
                       for s in range(first, first + runs))
        assert q_ours >= q_theirs - 1e-9, f"Leiden modularity {q_ours:.7f} below leidenalg's {q_theirs:.7f}"
        print(f"Leiden on yeast at 0.700, {runs} runs from seed {first}: modularity {q_ours:.7f} (igraph's reading; "
              f"grappi's own {j['modularity']:.7f}), leidenalg's best of the same seeds {q_theirs:.7f}")
    # Each cluster's terms are enrich's for its members.
    j = grappi_json(grappi, ["--db", annotated_db, "--method", "leiden", "--terms", "2", "--fdr", "0.05"])
    checked = 0
    for c in j["clusters"]:
        if not c["terms"]:
            continue
        r = subprocess.run([grappi, "enrich", "--db", annotated_db, "--fdr", "0.05", "--json", "-"] + c["members"],
                           capture_output=True, text=True, check=True)
        terms = sorted(json.loads(r.stdout)["terms"], key=lambda t: (t["fdr"], t["p_value"], t["term"]))[:2]
        assert [t["term"] for t in terms] == [t["term"] for t in c["terms"]], (c["id"], terms, c["terms"])
        assert [t["fdr"] for t in terms] == [t["fdr"] for t in c["terms"]]
        checked += 1
    assert checked >= 2, f"only {checked} clusters with enriched terms"
    print(f"cluster terms equal grappi enrich on the members ({checked} clusters)")


if __name__ == "__main__":
    main()
