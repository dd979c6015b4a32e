#!/usr/bin/env python3
"""Splits a question set of bench/make_qa_questions.py by template (the graph reader's
evaluation: the test questions are about kinds of annotation the reader never trained on).

    python3 bench/qa_template_split.py qa_all.jsonl --train go_process,go_function:750 \
        --valid kegg:300 --test reactome:300 --out qa_split

writes qa_split.train.jsonl, qa_split.valid.jsonl and qa_split.test.jsonl: from each named
template, a seeded sample of at most N questions (all of them without ":N").

With --baseline INTERACTIONS (a STRING export's string_interactions.tsv), it also prints the
structural baseline on the test set: the asked protein's partners ordered by combined score
(it ignores the annotation and knows that the answers are partners).
"""
import argparse
import csv
import json
import random
import sys


def parse(spec):
    out = []
    for part in spec.split(","):
        name, _, n = part.partition(":")
        out.append((name, int(n) if n else None))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("questions")
    ap.add_argument("--train", required=True)
    ap.add_argument("--valid", required=True)
    ap.add_argument("--test", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--baseline")
    a = ap.parse_args()
    by_template = {}
    for line in open(a.questions):
        q = json.loads(line)
        by_template.setdefault(q["template"], []).append(q)
    rng = random.Random(a.seed)
    sets = {}
    for part in ("train", "valid", "test"):
        chosen = []
        for name, n in parse(getattr(a, part)):
            pool = list(by_template.get(name, []))
            if not pool:
                sys.exit(f"no questions of template {name!r}")
            rng.shuffle(pool)
            chosen += pool[:n] if n else pool
        sets[part] = chosen
        with open(f"{a.out}.{part}.jsonl", "w") as f:
            for q in chosen:
                f.write(json.dumps(q) + "\n")
        print(f"{part}: {len(chosen)} questions", file=sys.stderr)
    if a.baseline:
        score = {}
        with open(a.baseline, newline="") as f:
            for row in csv.reader(f, delimiter="\t"):
                if not row or row[0].startswith("#"):
                    continue
                s = float(row[-1])
                for x, y in ((row[0], row[1]), (row[1], row[0])):
                    score.setdefault(x, {})[y] = max(s, score.get(x, {}).get(y, 0))
        mrr = h1 = h5 = h10 = rec = 0.0
        test = sets["test"]
        for q in test:
            ranked = sorted(score.get(q["protein"], {}).items(), key=lambda kv: -kv[1])
            names = [n for n, _ in ranked]
            ranks = [names.index(g) + 1 for g in q["answers"] if g in names]
            first = min(ranks) if ranks else 0
            mrr += 1 / first if first else 0
            h1 += first == 1
            h5 += 0 < first <= 5
            h10 += 0 < first <= 10
            rec += sum(r <= 10 for r in ranks) / len(q["answers"])
        n = len(test)
        print(json.dumps({"baseline": "partners by combined score", "questions": n, "mrr": mrr / n, "hits_at_1": h1 / n,
                          "hits_at_5": h5 / n, "hits_at_10": h10 / n, "recall_at_10": rec / n}))


if __name__ == "__main__":
    main()
