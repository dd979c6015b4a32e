#!/usr/bin/env python3
"""Questions with real answers for `grappi eval qa`, derived from curated annotations.

From a STRING website export (interactions and the functional annotations STRING attaches to
each protein: GO, KEGG, Reactome, ...), for a protein X and a term T:

    "Which proteins <T's phrase> interact with X?"

whose answers are X's interaction partners (combined score >= --min-score) annotated with T.
Only specific terms are used (annotating at most --max-term proteins of the network) with 2 to
--max-answers such partners, so that the answers are neither everything nor nothing. Nobody
here chose an answer: they are the annotations of the term joined with the network's edges.

    python3 bench/make_qa_questions.py \
        ../shared/data/string/export_v12_nsclc/string_functional_annotations.tsv.gz \
        data/export_v12_nsclc/string_interactions.tsv > qa_nsclc.jsonl

Each line: {"id", "question", "answers": [names], "protein", "category", "term", "term_id",
"template"}; the template (one per category) lets a split by template keep test questions
about unseen kinds of annotation (the graph reader's evaluation).
"""
import argparse
import collections
import csv
import gzip
import json
import random
import sys

PHRASES = {
    "GO Function": ("with the molecular function \"{d}\"", "go_function"),
    "GO Process": ("involved in \"{d}\"", "go_process"),
    "KEGG": ("of the KEGG pathway \"{d}\"", "kegg"),
    "Reactome": ("in the Reactome pathway \"{d}\"", "reactome"),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("annotations")
    ap.add_argument("interactions")
    ap.add_argument("--min-score", type=float, default=0.7)
    ap.add_argument("--max-term", type=int, default=12, help="terms annotating more proteins are too general")
    ap.add_argument("--max-answers", type=int, default=6)
    ap.add_argument("--per-category", type=int, default=50, help="questions kept per category (a seeded sample)")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()

    partners = collections.defaultdict(set)
    with open(a.interactions, newline="") as f:
        for row in csv.reader(f, delimiter="\t"):
            if not row or row[0].startswith("#"):
                continue
            if float(row[-1]) >= a.min_score:
                partners[row[0]].add(row[1])
                partners[row[1]].add(row[0])

    annotated = collections.defaultdict(set)  # (category, term id, description) -> proteins
    opener = gzip.open if a.annotations.endswith(".gz") else open
    with opener(a.annotations, "rt", newline="") as f:
        for row in csv.reader(f, delimiter="\t"):
            if not row or row[0].startswith("#") or row[2] not in PHRASES:
                continue
            annotated[(row[2], row[3], row[4])].add(row[0])

    by_category = collections.defaultdict(list)
    for (category, term_id, desc), proteins in sorted(annotated.items()):
        if len(proteins) > a.max_term:
            continue
        for x in sorted(partners):
            answers = sorted(partners[x] & proteins)
            if 2 <= len(answers) <= a.max_answers:
                phrase, template = PHRASES[category]
                by_category[category].append({
                    "question": "Which proteins " + phrase.format(d=desc) + " interact with " + x + "?",
                    "answers": answers, "protein": x, "category": category, "term": desc, "term_id": term_id,
                    "template": template})
    rng = random.Random(a.seed)
    n = 0
    for category in sorted(by_category):
        items = by_category[category]
        for q in sorted(rng.sample(items, min(a.per_category, len(items))), key=lambda q: (q["term_id"], q["protein"])):
            n += 1
            print(json.dumps(dict(id=str(n), **q)))
    print(f"{n} questions", file=sys.stderr)


if __name__ == "__main__":
    main()
