#!/usr/bin/env python3
"""grappi's k shortest simple paths side by side with networkx's shortest_simple_paths, on the
same graph in the same process run, for several node pairs, by hops and by weight
(-log(score)), at several maximum lengths. Checks that both find paths of the same weights.

Usage (Debian's python3 with python3-networkx; the grappi Python bindings on PYTHONPATH):
  GRAPPI_LIB=build/libgrappi_c.so PYTHONPATH=bindings/python /usr/bin/python3 \\
      bench/paths_vs_networkx.py DB [PAIRS] [K] [MAXLEN,MAXLEN...] [--all-shortest]
--all-shortest compares every shortest path instead (HGCR's candidates: grappi's
all_shortest_paths against networkx's all_shortest_paths, the same set of node sequences, at
most K of them, the direct edge followed), by hops.
DB is a grappi database (e.g. the yeast physical network of data/). Times are per query, after
one warm-up query of each (grappi's snapshot and networkx's graph built once); the table gives
the median of 3 runs (one run when it takes more than 2 s). networkx has no length limit: its
paths are taken in order and those longer than the limit skipped until k are found, which is
what "the k shortest with at most L edges" means. By hops the enumeration stops at the first path longer than the limit (none after
it can be shorter); by weight it gives up after NX_CAP paths (the row says so), since with
fewer than k short paths networkx would enumerate every simple path of the graph."""
import itertools
import math
import random
import sqlite3
import statistics
import sys
import time

import networkx as nx

import grappi

every_shortest = "--all-shortest" in sys.argv
args = [a for a in sys.argv[1:] if a != "--all-shortest"]
db = args[0]
pairs_wanted = int(args[1]) if len(args) > 1 else 10
k = int(args[2]) if len(args) > 2 else 10
max_lens = [int(x) for x in (args[3] if len(args) > 3 else "4,30").split(",")]

con = sqlite3.connect(db)
names = dict(con.execute("SELECT id, external_id FROM nodes"))
G = nx.Graph()
for s, t, score in con.execute("SELECT source, target, score FROM edges"):
    if s == t:
        continue
    w = -math.log(max(float(score), 1e-12))
    # several relations between one pair: the best score, as grappi uses
    if not G.has_edge(s, t) or G[s][t]["w"] > w:
        G.add_edge(s, t, w=w, score=score)
con.close()

rng = random.Random(7)
nodes = sorted(max(nx.connected_components(G), key=len))
by_name = {v: k for k, v in names.items()}
pairs = []
if "4932.YDR090C" in by_name and "4932.YKR096W" in by_name:
    pairs.append((by_name["4932.YDR090C"], by_name["4932.YKR096W"]))  # the pair the issue timed
while len(pairs) < pairs_wanted:
    a, b = rng.sample(nodes, 2)
    if nx.shortest_path_length(G, a, b) >= 2:
        pairs.append((a, b))


NX_CAP = 100


def nx_paths(a, b, weighted, max_len):
    gen = nx.shortest_simple_paths(G, a, b, weight="w" if weighted else None)
    out = []
    for seen, p in enumerate(gen):
        if len(p) - 1 > max_len and not weighted:
            break
        if seen >= NX_CAP:
            return None
        if len(p) - 1 <= max_len:
            out.append(sum(G[p[i]][p[i + 1]]["w"] for i in range(len(p) - 1)) if weighted else len(p) - 1)
            if len(out) == k:
                break
    return out


def timed(fn):
    """The median of 3 runs (1 when a run takes more than 2 s)."""
    times, result = [], None
    for _ in range(3):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
        if times[-1] > 2:
            break
    return statistics.median(times), result


def nx_every(a, b, max_len):
    """networkx's every shortest path (by hops), at most k, as node-id tuples; none beyond max_len."""
    out = []
    for p in nx.all_shortest_paths(G, a, b):
        if len(p) - 1 > max_len:
            break
        out.append(tuple(p))
        if len(out) == k:
            break
    return out


if every_shortest:
    with grappi.Graph(db) as g:
        g.paths(pairs[0][0], pairs[0][1], max_length=4, k=1, all_shortest=True)  # warm-up
        nx_every(pairs[0][0], pairs[0][1], 4)
        print("| pair | max length | paths | grappi ms | networkx ms | networkx / grappi | same paths |")
        print("|---|---|---|---|---|---|---|")
        worst = math.inf
        for a, b in pairs:
            for max_len in max_lens:
                tg, pg = timed(lambda: g.paths(a, b, max_length=max_len, k=k, all_shortest=True))
                tn, pn = timed(lambda: nx_every(a, b, max_len))
                got = sorted(tuple(p["node_ids"]) for p in pg)
                # (at most k each, possibly different ones when there are more: compared when all fit)
                same = got == sorted(pn) if len(pn) < k else len(got) == len(pn) == k
                worst = min(worst, tn / tg)
                print("| %s - %s | %d | %d | %.2f | %.2f | %.1f | %s |" % (names[a], names[b], max_len, len(pg), tg * 1e3,
                                                                      tn * 1e3, tn / tg, "yes" if same else "NO"), flush=True)
        print("\nsmallest networkx / grappi ratio: %.1f" % worst)
    sys.exit(0)

with grappi.Graph(db) as g:
    g.paths(pairs[0][0], pairs[0][1], max_length=4, k=1)  # warm-up: snapshot and retriever
    nx_paths(pairs[0][0], pairs[0][1], False, 4)
    print("| pair | mode | max length | grappi ms | networkx ms | networkx / grappi | same weights |")
    print("|---|---|---|---|---|---|---|")
    worst = math.inf
    for a, b in pairs:
        for weighted in (False, True):
            for max_len in max_lens:
                tg, pg = timed(lambda: g.paths(a, b, max_length=max_len, k=k, weighted=weighted))
                tn, wn = timed(lambda: nx_paths(a, b, weighted, max_len))
                wg = [p["weight"] for p in pg]
                if wn is None:
                    print("| %s - %s | %s | %d | %.2f | > %.0f | - | networkx gave up after %d paths |" % (
                        names[a], names[b], "weight" if weighted else "hops", max_len, tg * 1e3, tn * 1e3, NX_CAP), flush=True)
                    continue
                same = len(wg) == len(wn) and all(abs(x - y) < 1e-6 * max(1.0, abs(y)) for x, y in zip(wg, wn))
                worst = min(worst, tn / tg)
                print("| %s - %s | %s | %d | %.2f | %.2f | %.1f | %s |" % (names[a], names[b], "weight" if weighted else "hops",
                                                                           max_len, tg * 1e3, tn * 1e3, tn / tg,
                                                                           "yes" if same else "NO (%s vs %s)" % (wg, wn)), flush=True)
    print("\nsmallest networkx / grappi ratio: %.1f" % worst)
