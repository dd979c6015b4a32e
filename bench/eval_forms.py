#!/usr/bin/env python3
"""The figures of each question form (bench/make_form_questions.py's sets) beside their baselines, from
`grappi eval qa --per-question` rows: yes/no accuracy (always yes; the edge look-up), count exact (the set's
median), exclusion MRR (neighbours by score and at random) and how often a kinase comes first (by EC numbers,
for grappi and for the by-score baseline), path MRR, the share of unsupported questions marked so.

    python3 bench/eval_forms.py --db yeast.db --questions qa_forms.jsonl --aliases data/4932.protein.aliases.v12.0.txt.gz \
        [--grappi build/grappi]

Prints a Markdown table (BENCHMARKS.md).
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_string_questions import CLASSES, read_ec  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True)
    ap.add_argument("--questions", required=True)
    ap.add_argument("--aliases", help="the aliases file (EC numbers: which answer is a kinase)")
    ap.add_argument("--grappi", default="build/grappi")
    a = ap.parse_args()
    questions = {q["id"]: q for q in map(json.loads, open(a.questions))}
    with tempfile.TemporaryDirectory() as tmp:
        rows_path = os.path.join(tmp, "rows.jsonl")
        subprocess.run([a.grappi, "eval", "qa", "--db", a.db, "--questions", a.questions, "--per-question", rows_path,
                        "--quiet"], check=True)
        rows = [json.loads(line) for line in open(rows_path)]
    ec = read_ec(a.aliases) if a.aliases else {}
    kinase = CLASSES[0][1]
    kinase_ids = {p for p, ecs in ec.items() if any(kinase(e) for e in ecs)}
    sums = collections.defaultdict(lambda: collections.defaultdict(float))
    n = collections.Counter()
    for r in rows:
        q = questions[r["id"]]
        s = q["set"]
        n[s] += 1
        t = sums[s]
        if s == "yes_no":
            t["grappi"] += r["correct"]
            t["always yes"] += q["answers"][0] == "true"
            t["edge look-up (any score)"] += r.get("baseline_lookup") == q["answers"][0]
        elif s == "count":
            t["grappi"] += r["correct"]
            t["the set's median"] += str(int(r.get("baseline_median", -1))) == q["answers"][0]
        elif s in ("exclusion", "path"):
            t["grappi"] += r["reciprocal_rank"]
            t["neighbours by score"] += r["baseline_score_rr"]
            t["neighbours at random"] += r["baseline_random_rr"]
            if s == "exclusion" and r["answer_entities"]:
                t["a kinase first (grappi)"] += r["answer_entities"][0]["id"] in kinase_ids
        elif s == "unsupported":
            t["grappi"] += r["correct"]
        t["seconds"] += r["usage"]["seconds"]
    measure = {"yes_no": "accuracy", "count": "exact", "exclusion": "MRR", "path": "MRR", "unsupported": "marked unsupported"}
    print("| set | questions | measure | grappi | baselines (same questions) | ms per question |")
    print("|---|---|---|---|---|---|")
    for s in ("yes_no", "count", "exclusion", "path", "unsupported"):
        if not n[s]:
            continue
        t = sums[s]
        base = ", ".join(f"{k} {v / n[s]:.3f}" for k, v in t.items() if k not in ("grappi", "seconds")) or "-"
        print(f"| {s} | {n[s]} | {measure[s]} | **{t['grappi'] / n[s]:.3f}** | {base} | {1000 * t['seconds'] / n[s]:.0f} |")
    if n["exclusion"]:
        # the by-score baseline's first: the question entity's best-scored partner
        print(f"\n(a kinase first among grappi's exclusion answers: {sums['exclusion']['a kinase first (grappi)']:.0f} "
              f"of {n['exclusion']})")


if __name__ == "__main__":
    main()
