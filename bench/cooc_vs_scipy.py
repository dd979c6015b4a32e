#!/usr/bin/env python3
"""The reference's co-occurrence construction (HGCR: a boolean document-term matrix D in scipy's
sparse CSR form, DᵀD with the diagonal zeroed, each edge's PMIDs), timed on a PubTator file,
apart from reading it; the figures to compare with bench_cooc on the same file.

    python3 bench/cooc_vs_scipy.py CORPUS.PubTator [--repeat 5]
"""
import sys
import time

import numpy as np
import scipy.sparse as sp


def read(path):
    docs = {}
    for line in open(path, encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        if len(f) >= 6:
            for cid in f[5].split(";"):
                if cid and cid != "-":
                    docs.setdefault(f[0], set()).add((f[4], cid))
    return docs


def build(docs):
    pmids = sorted(docs)
    index = {}
    rows, cols = [], []
    for r, pmid in enumerate(pmids):
        for c in docs[pmid]:
            rows.append(r)
            cols.append(index.setdefault(c, len(index)))
    d = sp.csr_matrix((np.ones(len(rows), dtype=np.int32), (rows, cols)), shape=(len(pmids), len(index)), dtype=np.int32)
    co = (d.T @ d).tocoo()
    dc = d.tocsc()
    edges = []
    for a, b, n in zip(co.row, co.col, co.data):
        if a < b:  # (the diagonal and the lower triangle left out)
            docs_a = dc.indices[dc.indptr[a]:dc.indptr[a + 1]]
            docs_b = dc.indices[dc.indptr[b]:dc.indptr[b + 1]]
            edges.append((a, b, int(n), [pmids[i] for i in np.intersect1d(docs_a, docs_b)]))
    return index, edges


def main():
    path = sys.argv[1]
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 5
    t0 = time.perf_counter()
    docs = read(path)
    t_read = time.perf_counter() - t0
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        index, edges = build(docs)
        times.append(time.perf_counter() - t0)
    times.sort()
    print("documents %d, concepts %d, edges %d" % (len(docs), len(index), len(edges)))
    print("read %.3f s; build (median of %d) %.4f s (min %.4f)" % (t_read, repeat, times[len(times) // 2], times[0]))


if __name__ == "__main__":
    main()
