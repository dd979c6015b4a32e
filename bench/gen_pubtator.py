#!/usr/bin/env python3
"""Writes a PubTator-format corpus of any size for the co-occurrence scale benchmark: each
abstract names 4 to 16 concepts drawn from a Zipf-like law over a vocabulary of genes,
diseases, chemicals and species (as annotated corpora are: a few concepts in many abstracts,
most in few), with offsets that match the text and some of PubTator's
conventions (a '-1' id, a composite id) so the readers' rules run too.

    python3 bench/gen_pubtator.py DOCUMENTS OUT.PubTator [--concepts 50000] [--seed 1]
"""
import argparse
import random

TYPES = [("Gene", "", 0.40), ("Disease", "MESH:D", 0.25), ("Chemical", "MESH:C", 0.25), ("Species", "", 0.10)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("documents", type=int)
    ap.add_argument("out")
    ap.add_argument("--concepts", type=int, default=50000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    # The vocabulary: concept k has weight 1 / (k + 10) (Zipf-like, exponent 1).
    vocab = []
    for k in range(a.concepts):
        r = rng.random()
        acc = 0.0
        for name, prefix, share in TYPES:
            acc += share
            if r <= acc:
                break
        ident = str(10000 + k) if name in ("Gene", "Species") else prefix + "%06d" % k
        vocab.append((name, ident, "%s%d" % (name.lower()[:4], k)))
    weights = [1.0 / (k + 10) for k in range(a.concepts)]
    cum = []
    total = 0.0
    for w in weights:
        total += w
        cum.append(total)
    with open(a.out, "w", encoding="utf-8") as f:
        for d in range(a.documents):
            pmid = 10000000 + d
            picks = rng.choices(range(a.concepts), cum_weights=cum, k=rng.randint(4, 16))
            title = "Study %d of %s and %s" % (d, vocab[picks[0]][2], vocab[picks[1]][2])
            words = []
            for p in picks[2:]:
                words.append(vocab[p][2])
            abstract = "We report that " + " with ".join(words) + " was observed."
            f.write("%d|t|%s\n%d|a|%s\n" % (pmid, title, pmid, abstract))
            text = title + " " + abstract
            pos = 0
            for i, p in enumerate(picks):
                mention = vocab[p][2]
                start = text.index(mention, pos)
                pos = start + len(mention)
                ident = vocab[p][1]
                if rng.random() < 0.01:
                    ident = "-1"  # PubTator's 'no normalised id'
                elif rng.random() < 0.01 and vocab[p][0] == "Disease":
                    ident += "|" + vocab[(p + 1) % a.concepts][1].replace("MESH:C", "MESH:D")  # a composite
                f.write("%d\t%d\t%d\t%s\t%s\t%s\n" % (pmid, start, pos, mention, vocab[p][0], ident))
            f.write("\n")


if __name__ == "__main__":
    main()
