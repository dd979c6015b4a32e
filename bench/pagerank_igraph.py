#!/usr/bin/python3
"""PageRank with python3-igraph (Debian package) on a STRING links file, for comparison with
grappi's bench_retrieval. Times only the pagerank calls, the graph already loaded.
Usage: /usr/bin/python3 bench/pagerank_igraph.py LINKS_FILE [SEED_NAME]"""
import sys, time
import igraph

path = sys.argv[1]
ids, edges, weights = {}, [], []
with open(path) as f:
    next(f)
    for line in f:
        a, b, s = line.split()
        if a < b:  # each link is listed twice
            ia = ids.setdefault(a, len(ids))
            ib = ids.setdefault(b, len(ids))
            edges.append((ia, ib))
            weights.append(int(s) / 1000.0)
g = igraph.Graph(n=len(ids), edges=edges, directed=False)
g.es["weight"] = weights
hub = max(range(g.vcount()), key=g.degree)
for name, kw in (("global", {}), ("personalised", {"reset_vertices": [hub]})):
    times = []
    for _ in range(3):
        t = time.perf_counter()
        if kw:
            g.personalized_pagerank(weights="weight", damping=0.85, **kw)
        else:
            g.pagerank(weights="weight", damping=0.85)
        times.append(time.perf_counter() - t)
    times.sort()
    print(f"igraph {igraph.__version__} {name} PageRank: median {times[1]*1000:.0f} ms ({g.vcount()} nodes, {g.ecount()} edges)")
