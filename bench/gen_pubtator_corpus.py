#!/usr/bin/env python3
"""Writes a PubTator-like corpus of any size: abstracts with gene, disease, chemical and species
mentions (PubTator's types and id conventions: NCBI Gene ids, MeSH ids without their prefix,
"-1" for a mention without an id, composite ids "D1|D2"), concept frequencies following a Zipf
law as in PubMed, split into files of --per-file abstracts (PubTator's format has no year).

    bench/gen_pubtator_corpus.py --abstracts 1000000 --per-file 50000 --out /tmp/corpus [--gzip]

Deterministic for a seed. Standard library only (the benchmark and the Python tests use it).
"""
import argparse
import gzip
import os
import random

VERBS = ["regulates", "binds", "is associated with", "inhibits", "activates", "was measured with",
         "correlates with", "is expressed in", "protects against", "increases the risk of"]
FILLER = ["in patients", "in a cohort study", "in mice", "in vitro", "after treatment", "in tumour samples",
          "during development", "under stress", "in two independent cohorts", "at baseline"]


class Vocabulary:
    """Concepts of each type, drawn with Zipf weights."""

    def __init__(self, rng, genes=20000, diseases=5000, chemicals=8000):
        self.kinds = []
        gene_ids = rng.sample(range(1, 120000), genes)
        self._add("Gene", [(str(i), "GENE%d" % i) for i in gene_ids], rng)
        self._add("Disease", [("D%06d" % i, "disease %d" % i) for i in rng.sample(range(1, 999999), diseases)], rng)
        self._add("Chemical", [("C%06d" % i, "compound %d" % i) for i in rng.sample(range(1, 999999), chemicals)], rng)
        self._add("Species", [("9606", "patients"), ("10090", "mice"), ("10116", "rats"), ("4932", "yeast")], rng)

    def _add(self, kind, concepts, rng):
        weights = [1.0 / (rank + 1) ** 1.07 for rank in range(len(concepts))]
        cumulative, total = [], 0.0
        for w in weights:
            total += w
            cumulative.append(total)
        self.kinds.append((kind, concepts, cumulative))

    def draw(self, rng, kind_index):
        kind, concepts, cumulative = self.kinds[kind_index]
        return kind, concepts[rng.choices(range(len(concepts)), cum_weights=cumulative)[0]]


def abstract(rng, vocab, pmid):
    """One document in PubTator's format (title, abstract, mentions), as text."""
    n_concepts = rng.randint(2, 8)
    picks = []
    for _ in range(n_concepts):
        k = rng.choices(range(4), weights=[0.45, 0.25, 0.25, 0.05])[0]
        picks.append(vocab.draw(rng, k))
    mentions = []  # (start, end, text, type, id)

    def sentence(offset, a, b):
        (ka, (ida, namea)), (kb, (idb, nameb)) = a, b
        text = "%s %s %s %s." % (namea, rng.choice(VERBS), nameb, rng.choice(FILLER))
        mentions.append((offset, offset + len(namea), namea, ka, ida))
        at = text.index(nameb, len(namea))
        mentions.append((offset + at, offset + at + len(nameb), nameb, kb, idb))
        return text

    title = sentence(0, picks[0], picks[1 % len(picks)])
    body, offset = [], len(title) + 1
    for _ in range(rng.randint(3, 7)):
        s = sentence(offset, rng.choice(picks), rng.choice(picks))
        body.append(s)
        offset += len(s) + 1
    text = " ".join(body)
    lines = ["%d|t|%s" % (pmid, title), "%d|a|%s" % (pmid, text)]
    for start, end, name, kind, cid in mentions:
        r = rng.random()
        if r < 0.02:
            cid = "-1"  # (PubTator: no normalised id)
        elif r < 0.03 and kind in ("Disease", "Chemical"):
            cid = cid + "|" + vocab.draw(rng, 1 if kind == "Disease" else 2)[1][0]  # (a composite mention)
        lines.append("%d\t%d\t%d\t%s\t%s\t%s" % (pmid, start, end, name, kind, cid))
    return "\n".join(lines) + "\n\n"


def write_corpus(out, abstracts, per_file, seed=1, compress=False, first_pmid=30000000):
    """Writes the corpus's files into `out`; returns their paths in order."""
    rng = random.Random(seed)
    vocab = Vocabulary(rng)
    os.makedirs(out, exist_ok=True)
    paths = []
    pmid = first_pmid
    for part in range(0, abstracts, per_file):
        name = os.path.join(out, "corpus-%05d.pubtator%s" % (part // per_file, ".gz" if compress else ""))
        opener = gzip.open if compress else open
        with opener(name, "wt", encoding="utf-8") as f:
            for _ in range(min(per_file, abstracts - part)):
                f.write(abstract(rng, vocab, pmid))
                pmid += 1
        paths.append(name)
    return paths


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--abstracts", type=int, required=True)
    p.add_argument("--per-file", type=int, default=50000)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--gzip", action="store_true")
    a = p.parse_args()
    for path in write_corpus(a.out, a.abstracts, a.per_file, a.seed, a.gzip):
        print(path)


if __name__ == "__main__":
    main()
