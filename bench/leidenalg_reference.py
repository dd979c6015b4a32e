#!/usr/bin/env python3
"""python3-leidenalg on a STRING physical links file, as one process for farm-bench to time beside
`grappi cluster --method leiden`: read the file, keep the edges at or above the threshold (the
score / 1000 as the weight), build python3-igraph's graph, run leidenalg's Leiden
(RBConfigurationVertexPartition at the resolution, until stable) from RUNS seeds and print the best
partition's modularity as igraph computes it.

    python3 bench/leidenalg_reference.py data/4932.protein.physical.links.v12.0.txt.gz 700 10 42
"""
import gzip
import sys

import igraph
import leidenalg


def main():
    path, threshold, runs, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    resolution = float(sys.argv[5]) if len(sys.argv) > 5 else 1.0
    edges, weights, index = [], [], {}
    with (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8") as f:
        f.readline()
        for line in f:
            a, b, s = line.split()
            if int(s) >= threshold and a < b:
                edges.append((index.setdefault(a, len(index)), index.setdefault(b, len(index))))
                weights.append(int(s) / 1000)
    g = igraph.Graph(n=len(index), edges=edges)
    g.es["weight"] = weights
    best = max((leidenalg.find_partition(g, leidenalg.RBConfigurationVertexPartition, weights="weight",
                                         n_iterations=-1, seed=s, resolution_parameter=resolution)
                for s in range(seed, seed + runs)), key=lambda p: p.quality())
    print(f"{g.modularity(best.membership, weights='weight'):.6f}")


if __name__ == "__main__":
    main()
