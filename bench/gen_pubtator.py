#!/usr/bin/env python3
"""Writes a PubTator-format corpus of any size for the co-occurrence benchmarks: each abstract
names 4 to 16 concepts drawn from a Zipf-like law over a vocabulary of genes, diseases,
chemicals and species (as annotated corpora are: a few concepts in many abstracts, most in
few), with offsets that match the text and some of PubTator's conventions (a '-1' id, a
composite id) so the readers' rules run too. One file, or (--per-file N) a directory of files of
N abstracts each, as a corpus split for a distributed build; the same abstracts either way.

    python3 bench/gen_pubtator.py DOCUMENTS OUT.PubTator [--concepts 50000] [--seed 1]
    python3 bench/gen_pubtator.py DOCUMENTS OUT_DIR --per-file 50000

Standard library only (bench/distributed_cooc.py and the Python tests import write_corpus).
"""
import argparse
import os
import random

TYPES = [("Gene", "", 0.40), ("Disease", "MESH:D", 0.25), ("Chemical", "MESH:C", 0.25), ("Species", "", 0.10)]


def abstracts(count, concepts=50000, seed=1):
    """The corpus's abstracts in PubTator's format, one text per abstract, in order."""
    rng = random.Random(seed)
    # The vocabulary: concept k has weight 1 / (k + 10) (Zipf-like, exponent 1).
    vocab = []
    for k in range(concepts):
        r = rng.random()
        acc = 0.0
        for name, prefix, share in TYPES:
            acc += share
            if r <= acc:
                break
        ident = str(10000 + k) if name in ("Gene", "Species") else prefix + "%06d" % k
        vocab.append((name, ident, "%s%d" % (name.lower()[:4], k)))
    weights = [1.0 / (k + 10) for k in range(concepts)]
    cum = []
    total = 0.0
    for w in weights:
        total += w
        cum.append(total)
    for d in range(count):
        pmid = 10000000 + d
        picks = rng.choices(range(concepts), cum_weights=cum, k=rng.randint(4, 16))
        title = "Study %d of %s and %s" % (d, vocab[picks[0]][2], vocab[picks[1]][2])
        words = []
        for p in picks[2:]:
            words.append(vocab[p][2])
        abstract = "We report that " + " with ".join(words) + " was observed."
        lines = ["%d|t|%s\n%d|a|%s\n" % (pmid, title, pmid, abstract)]
        text = title + " " + abstract
        pos = 0
        for p in picks:
            mention = vocab[p][2]
            start = text.index(mention, pos)
            pos = start + len(mention)
            ident = vocab[p][1]
            if rng.random() < 0.01:
                ident = "-1"  # PubTator's 'no normalised id'
            elif rng.random() < 0.01 and vocab[p][0] == "Disease":
                ident += "|" + vocab[(p + 1) % concepts][1].replace("MESH:C", "MESH:D")  # a composite
            lines.append("%d\t%d\t%d\t%s\t%s\t%s\n" % (pmid, start, pos, mention, vocab[p][0], ident))
        lines.append("\n")
        yield "".join(lines)


def write_corpus(out, count, per_file, concepts=50000, seed=1):
    """Writes the abstracts into files of per_file abstracts in the directory out
    (corpus-00000.pubtator, ...); returns their paths in order."""
    os.makedirs(out, exist_ok=True)
    paths, f = [], None
    for i, text in enumerate(abstracts(count, concepts, seed)):
        if i % per_file == 0:
            if f:
                f.close()
            paths.append(os.path.join(out, "corpus-%05d.pubtator" % (i // per_file)))
            f = open(paths[-1], "w", encoding="utf-8")
        f.write(text)
    if f:
        f.close()
    return paths


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("documents", type=int)
    ap.add_argument("out")
    ap.add_argument("--concepts", type=int, default=50000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-file", type=int, default=0, help="write a directory of files of this many abstracts")
    a = ap.parse_args()
    if a.per_file:
        for path in write_corpus(a.out, a.documents, a.per_file, a.concepts, a.seed):
            print(path)
        return
    with open(a.out, "w", encoding="utf-8") as f:
        for text in abstracts(a.documents, a.concepts, a.seed):
            f.write(text)


if __name__ == "__main__":
    main()
