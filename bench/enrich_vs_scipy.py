#!/usr/bin/env python3
"""The same enrichment tests in Python: for each set bench_enrich wrote (its every tested term's
k, K, n, N per category), scipy's hypergeom.sf over the terms (one vectorised call per category)
and statsmodels' multipletests (fdr_bh), timed per set apart from reading; and the values
compared with grappi's. The counting (propagation, k and K per term) is not in the Python time:
grappi's figure includes it.

    python3 bench/enrich_vs_scipy.py enrich_sets.jsonl
"""
import json
import sys
import time

import numpy as np
from scipy.stats import hypergeom
from statsmodels.stats.multitest import multipletests


def main():
    sets = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
    times, worst = [], 0.0
    for s in sets:
        by_cat = {}
        for t in s["terms"]:
            by_cat.setdefault(t["category"], []).append(t)
        arrays = {c: (np.array([t["observed"] for t in ts]), np.array([t["background"] for t in ts]),
                      ts[0]["set_size"], ts[0]["universe"]) for c, ts in by_cat.items()}
        t0 = time.perf_counter()
        results = {}
        for c, (k, K, n, N) in arrays.items():
            p = hypergeom.sf(k - 1, N, K, n)
            results[c] = (p, multipletests(p, method="fdr_bh")[1])
        times.append(time.perf_counter() - t0)
        for c, ts in by_cat.items():
            p, q = results[c]
            for t, pv, qv in zip(ts, p, q):
                for mine, theirs in ((t["p_value"], pv), (t["fdr"], qv)):
                    if mine != theirs:
                        worst = max(worst, abs(mine - theirs) / max(abs(mine), abs(theirs)))
    times.sort()
    terms = sum(len(s["terms"]) for s in sets) / len(sets)
    print("%d sets, %.0f terms a set: scipy hypergeom.sf + statsmodels multipletests median %.1f ms, worst %.1f ms a set; "
          "largest relative difference from grappi %.1e" % (len(sets), terms, 1000 * times[len(times) // 2],
                                                             1000 * times[-1], worst))


if __name__ == "__main__":
    main()
