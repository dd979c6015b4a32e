#!/usr/bin/env python3
"""grappi enrich and ppi-enrichment against independent computations (issue 58).

The annotations grappi's import stored (the gene table's GO edges with their evidence codes) are
read from the database with sqlite3; GO's is_a and part_of links from the OBO file itself; the
propagation up them is a breadth-first walk written here; the p-values are scipy's
hypergeom.sf and the FDRs statsmodels' Benjamini-Hochberg (multipletests, fdr_bh). For protein
sets (the NSCLC and Alzheimer exports' proteins, random sets of 5 to 500 proteins), every
category, with and without IEA, against the annotated and the network backgrounds, grappi's
tested terms, counts, p-values and FDRs must equal these (1e-9 relative). PPI enrichment: the
network read from the database into networkx, the edges among the set, the expected count
(Pradines et al.: 1 - exp(-d_i d_j / 2M) over the set's pairs), scipy's Poisson and networkx's
average clustering.

Usage: check_enrichment.py GRAPPI DB GO_OBO_GZ NSCLC_TSV ALZHEIMER_TSV [YEAST_DB]
"""
import gzip
import json
import math
import random
import sqlite3
import subprocess
import sys
from collections import defaultdict, deque

import networkx as nx
from scipy.stats import hypergeom, poisson
from statsmodels.stats.multitest import multipletests

CATEGORIES = {"biological_process": "Process", "molecular_function": "Function", "cellular_component": "Component"}
RELATION_CATEGORY = {"go.involved_in": "Process", "go.enables": "Function", "go.located_in": "Component"}


def read_go(path):
    """Term -> namespace, and term -> parents along is_a and part_of, from the OBO file."""
    namespace, parents = {}, defaultdict(set)
    term, in_term = None, False
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("["):
                term = None
                in_term = line == "[Term]"
                continue
            if not in_term or ":" not in line:
                continue
            tag, value = line.split(":", 1)
            value = value.split("!")[0].strip()
            if tag == "id":
                term = value
            elif tag == "namespace" and term:
                namespace[term] = value
            elif tag == "is_a" and term:
                parents[term].add(value.split()[0])
            elif tag == "relationship" and term:
                kind, target = value.split()[:2]
                if kind == "part_of":
                    parents[term].add(target)
    return namespace, parents


def closure(term, parents, namespace, memo):
    """The term and its ancestors of its own namespace: breadth first."""
    if term in memo:
        return memo[term]
    seen, queue = {term}, deque([term])
    while queue:
        t = queue.popleft()
        for p in parents.get(t, ()):
            if p not in seen:
                seen.add(p)
                queue.append(p)
    own = namespace.get(term)
    memo[term] = {t for t in seen if namespace.get(t) == own}
    return memo[term]


def read_annotations(db):
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT n.external_id, n.taxon, t.external_id, r.name, e.evidence FROM edges e JOIN relations r ON r.id = e.relation "
        "JOIN nodes n ON n.id = e.source JOIN nodes t ON t.id = e.target "
        "WHERE r.name IN ('go.involved_in', 'go.enables', 'go.located_in')").fetchall()
    network = set()
    for a, b in con.execute(
            "SELECT s.external_id, t.external_id FROM edges e JOIN relations r ON r.id = e.relation JOIN nodes s ON "
            "s.id = e.source JOIN nodes t ON t.id = e.target WHERE r.name NOT LIKE 'go.%' AND r.name NOT LIKE 'obo.%'"):
        network.update((a, b))
    con.close()
    annotations = []  # (protein, taxon, term, codes)
    for protein, taxon, term, _relation, evidence in rows:
        codes = json.loads(evidence).get("evidence_codes", []) if evidence else []
        annotations.append((protein, taxon, term, [c.upper() for c in codes]))
    return annotations, network


def universe(annotations, namespace, parents, set_taxon, exclude, background, memo, kept):
    """Per category: each background protein's terms (propagated) and each term's K; kept per background."""
    key = (set_taxon, tuple(sorted(exclude)), background if isinstance(background, str) else "network")
    if key in kept:
        return kept[key]
    per = defaultdict(lambda: defaultdict(set))  # category -> protein -> terms (propagated)
    for protein, taxon, term, codes in annotations:
        if background == "annotated" and taxon != set_taxon:
            continue
        if isinstance(background, set) and protein not in background:
            continue
        if codes and all(c in exclude for c in codes):
            continue
        category = CATEGORIES.get(namespace.get(term))
        if not category:
            continue
        per[category][protein] |= closure(term, parents, namespace, memo)
    out = {}
    for category, by_protein in per.items():
        K = defaultdict(int)
        for terms in by_protein.values():
            for t in terms:
                K[t] += 1
        out[category] = (by_protein, K)
    kept[key] = out
    return out


def expected(annotations, namespace, parents, proteins, exclude, background, memo, kept):
    """Per category: N, n, and per term (K, k) over the background."""
    taxa = defaultdict(int)
    taxon_of = {p: t for p, t, _, _ in annotations}
    for p in proteins:
        if p in taxon_of:
            taxa[taxon_of[p]] += 1
    set_taxon = max(sorted(taxa), key=lambda t: taxa[t]) if taxa else 0
    out = {}
    for category, (by_protein, K) in universe(annotations, namespace, parents, set_taxon, exclude, background, memo,
                                              kept).items():
        members = [p for p in dict.fromkeys(proteins) if p in by_protein]
        k = defaultdict(int)
        for p in members:
            for t in by_protein[p]:
                k[t] += 1
        out[category] = (len(by_protein), len(members), K, k)
    return out


WORST = [0.0]  # the largest relative difference seen


def close(a, b, what):
    if a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b)):
        if a != b:
            WORST[0] = max(WORST[0], abs(a - b) / max(abs(a), abs(b)))
        return
    raise AssertionError(f"{what}: grappi {a!r}, independent {b!r}")


def check(grappi, db, proteins, exclude, background, annotations, namespace, parents, memo, network, label, kept={}):
    args = [grappi, "enrich", "--db", db, "--fdr", "1", "--json", "-", "--file", "/dev/stdin"]
    if exclude:
        args += ["--exclude-evidence", ",".join(exclude)]
    if background == "network":
        args += ["--background", "network"]
    r = subprocess.run(args, input="\n".join(proteins), capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"{label}: grappi enrich exited {r.returncode}: {r.stderr}")
    got = json.loads(r.stdout)
    bg = network if background == "network" else "annotated"
    want = expected(annotations, namespace, parents, proteins, set(exclude), bg, memo, kept)
    tested_total = 0
    for cat in got["categories"]:
        name = cat["category"]
        N, n, K, k = want[name]
        assert cat["universe"] == N, f"{label} {name}: universe {cat['universe']} != {N}"
        assert cat["set_size"] == n, f"{label} {name}: set size {cat['set_size']} != {n}"
        terms = sorted(t for t in k if k[t] > 0)
        assert cat["tested"] == len(terms), f"{label} {name}: tested {cat['tested']} != {len(terms)}"
        p = [float(x) for x in hypergeom.sf([k[t] - 1 for t in terms], N, [K[t] for t in terms], n)] if terms else []
        q = multipletests(p, method="fdr_bh")[1] if p else []
        mine = {t["term"]: t for t in got["terms"] if t["category"] == name}
        assert set(mine) == set(terms), f"{label} {name}: terms differ: {sorted(set(mine) ^ set(terms))[:5]}"
        for t, pv, qv in zip(terms, p, q):
            g = mine[t]
            assert (g["observed"], g["background"], g["universe"], g["set_size"]) == (k[t], K[t], N, n), \
                f"{label} {name} {t}: counts {(g['observed'], g['background'])} != {(k[t], K[t])}"
            close(g["p_value"], pv, f"{label} {name} {t} p-value")
            close(g["fdr"], float(qv), f"{label} {name} {t} FDR")
            close(g["strength"], math.log10(k[t] / (n * K[t] / N)), f"{label} {name} {t} strength")
        tested_total += len(terms)
    assert set(c["category"] for c in got["categories"]) == set(want), f"{label}: categories differ"
    print(f"{label}: {len(dict.fromkeys(proteins))} proteins, {tested_total} terms tested: counts, p-values and FDRs equal")


def check_ppi(grappi, db, proteins, min_score, label):
    con = sqlite3.connect(db)
    g = nx.Graph()
    for a, b in con.execute(
            "SELECT s.external_id, t.external_id FROM edges e JOIN relations r ON r.id = e.relation JOIN nodes s ON "
            "s.id = e.source JOIN nodes t ON t.id = e.target WHERE r.name NOT LIKE 'go.%' AND r.name NOT LIKE 'obo.%' "
            "AND e.score >= ? AND s.id <> t.id", (min_score,)):
        g.add_edge(a, b)
    con.close()
    members = list(dict.fromkeys(proteins))
    m = g.number_of_edges()
    deg = {p: g.degree(p) if p in g else 0 for p in members}
    lam = sum(-math.expm1(-deg[a] * deg[b] / (2 * m)) for i, a in enumerate(members) for b in members[i + 1:])
    sub = nx.Graph()
    sub.add_nodes_from(members)
    sub.add_edges_from(e for e in g.subgraph(members).edges())
    edges, pairs = sub.number_of_edges(), len(members) * (len(members) - 1) // 2
    # (from the upper tails: the difference of two CDFs near 1 would lose every digit of a small p)
    p = (poisson.sf(edges - 1, lam) - poisson.sf(pairs, lam)) / poisson.cdf(pairs, lam)
    r = subprocess.run([grappi, "ppi-enrichment", "--db", db, "--min-score", str(min_score), "--json", "-", "--file",
                        "/dev/stdin"], input="\n".join(proteins), capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"{label}: grappi ppi-enrichment exited {r.returncode}: {r.stderr}")
    got = json.loads(r.stdout)
    assert (got["nodes"], got["edges"], got["network_edges"]) == (len(members), edges, m), \
        f"{label}: {(got['nodes'], got['edges'], got['network_edges'])} != {(len(members), edges, m)}"
    close(got["expected_edges"], lam, f"{label} expected edges")
    close(got["p_value"], float(p), f"{label} p-value")
    close(got["clustering"], nx.average_clustering(sub), f"{label} clustering")
    print(f"{label}: {len(members)} proteins, {edges} edges, {lam:.1f} expected, p {got['p_value']:.2e}: equal")


def export_proteins(path):
    """The STRING ids of a STRING web export (its identifier columns)."""
    out = []
    with open(path, encoding="utf-8") as f:
        head = f.readline().lstrip("#").rstrip("\n").split("\t")
        a, b = head.index("node1_string_id"), head.index("node2_string_id")
        for line in f:
            c = line.rstrip("\n").split("\t")
            out += [c[a], c[b]]
    return list(dict.fromkeys(out))


def main():
    grappi, db, go_obo, nsclc, alzheimer = sys.argv[1:6]
    namespace, parents = read_go(go_obo)
    annotations, network = read_annotations(db)
    memo = {}
    annotated = sorted({p for p, taxon, _, _ in annotations if taxon == 9606})
    rng = random.Random(58)
    sets = [("NSCLC", export_proteins(nsclc)), ("Alzheimer", export_proteins(alzheimer))]
    for size in (5, 50, 500):
        sets.append((f"random {size}", rng.sample(annotated, size)))
    for label, proteins in sets:
        check(grappi, db, proteins, [], "annotated", annotations, namespace, parents, memo, network, label)
    for label, proteins in sets[:2] + sets[3:4]:
        check(grappi, db, proteins, ["IEA"], "annotated", annotations, namespace, parents, memo, network, label + " without IEA")
    check(grappi, db, sets[0][1], [], "network", annotations, namespace, parents, memo, network, "NSCLC against the network")
    for label, proteins in sets[:4]:
        check_ppi(grappi, db, proteins, 0.4, "PPI " + label)
    check_ppi(grappi, db, sets[0][1], 0.9, "PPI NSCLC at 0.9")
    if len(sys.argv) > 6:  # the yeast physical network: random sets of its proteins
        yeast = sys.argv[6]
        con = sqlite3.connect(yeast)
        linked = sorted(r[0] for r in con.execute(
            "SELECT DISTINCT n.external_id FROM edges e JOIN nodes n ON n.id = e.source"))
        con.close()
        for size in (20, 200):
            check_ppi(grappi, yeast, rng.sample(linked, size), 0.4, f"PPI yeast random {size}")
        check_ppi(grappi, yeast, rng.sample(linked, 200), 0.7, "PPI yeast random 200 at 0.7")
    print(f"largest relative difference of a value: {WORST[0]:.1e} (allowed 1e-9)")


if __name__ == "__main__":
    main()
