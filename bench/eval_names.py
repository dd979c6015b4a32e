#!/usr/bin/env python3
"""Names as people write them, linked by each part of grappi that reads names: `grappi resolve`, the question
reader (`grappi eval qa`'s linked entities, one question per name) and the extraction tagger (`grappi extract`,
one sentence per name). A name is right when it links to the gold entity: a gene symbol (the node whose
preferred name it is), or for a family a FamPlex id (FPLX:ID, or one of ID|ID; a member of the family counts
apart as "a member").

    python3 bench/eval_names.py --db human.db bench/names/human_names.tsv bench/names/families.tsv [--grappi build/grappi]

The lists are TSV: the name as written, the gold (a symbol, or FamPlex ids joined by "|"). bench/names/ holds
two lists written once, before they were measured (BENCHMARKS.md, "Names as people write them").
Prints a Markdown table and, per name, what each part linked.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def read_list(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                name, gold = line.split("\t")
                out.append((name, gold.split("|")))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True)
    ap.add_argument("lists", nargs="+")
    ap.add_argument("--grappi", default="build/grappi")
    a = ap.parse_args()
    names = []
    for path in a.lists:
        names += [(os.path.basename(path), n, g) for n, g in read_list(path)]

    def right(entity, gold):
        # (entity: {"name", "external_id"}) a symbol, or a FamPlex family
        ext = entity.get("external_id") or ""
        return entity.get("name") in gold or any(ext == "FPLX:" + g for g in gold)

    resolved = {}
    for _, n, _ in names:
        p = subprocess.run([a.grappi, "resolve", "--db", a.db, n, "--json"], capture_output=True, text=True)
        try:
            j = json.loads(p.stdout)
        except json.JSONDecodeError:
            resolved[n] = None
            continue
        c = j.get("candidates") or []
        resolved[n] = ({"name": c[0].get("name"), "external_id": c[0].get("external_id")}
                       if j.get("status") == "found" and c else None)
    with tempfile.TemporaryDirectory() as tmp:
        qs = os.path.join(tmp, "q.jsonl")
        with open(qs, "w", encoding="utf-8") as f:
            for i, (_, n, g) in enumerate(names):
                f.write(json.dumps({"id": f"n{i}", "question": f"Which proteins interact with {n}?",
                                    "answers": g, "entities": [n]}) + "\n")
        rows = os.path.join(tmp, "rows.jsonl")
        subprocess.run([a.grappi, "eval", "qa", "--db", a.db, "--questions", qs, "--per-question", rows],
                       check=True, capture_output=True)
        asked = {}
        with open(rows, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                e = r.get("question_entities") or []
                i = int(r["id"][1:])
                asked[names[i][1]] = ({"name": e[0].get("name"), "external_id": e[0].get("id")} if e else None)
        docs = os.path.join(tmp, "d.jsonl")
        with open(docs, "w", encoding="utf-8") as f:
            for i, (_, n, _) in enumerate(names):
                f.write(json.dumps({"pmid": str(100000 + i), "title": "",
                                    "text": f"Here we show that {n} is required for the response of these cells."}) + "\n")
        out = os.path.join(tmp, "x.json")
        subprocess.run([a.grappi, "extract", "--db", a.db, "--corpus", docs, "--format", "jsonl", "--json", out,
                        "--quiet"], check=True, capture_output=True)
        with open(out, encoding="utf-8") as f:
            x = json.load(f)
        tagged = {}
        for p in x["paragraphs"]:
            i = int(p["pmid"]) - 100000
            ents = [e for e in p.get("entities", []) if e.get("node")]
            tagged[names[i][1]] = ({"name": ents[0].get("name"), "external_id": ents[0].get("id")} if ents else None)

    def show(e):
        return "-" if not e else f"{e['name']} ({e['external_id']})"

    print("| list | name | gold | resolve | ask | extract |")
    print("|---|---|---|---|---|---|")
    per = {}
    for lst, n, g in names:
        rs, ak, ex = resolved.get(n), asked.get(n), tagged.get(n)
        ok = [bool(e) and right(e, g) for e in (rs, ak, ex)]
        same = len({show(e) for e in (rs, ak, ex)}) == 1
        t = per.setdefault(lst, [0, 0, 0, 0, 0])
        t[0] += 1
        for k in range(3):
            t[k + 1] += ok[k]
        t[4] += same
        print(f"| {lst} | {n} | {'/'.join(g)} | {show(rs)}{'' if ok[0] else ' ✗'} | {show(ak)}{'' if ok[1] else ' ✗'} | "
              f"{show(ex)}{'' if ok[2] else ' ✗'} |")
    print()
    print("| list | names | right: resolve | right: ask | right: extract | the same entity in all three |")
    print("|---|---|---|---|---|---|")
    for lst, t in per.items():
        print(f"| {lst} | {t[0]} | {t[1]} | {t[2]} | {t[3]} | {t[4]} |")


if __name__ == "__main__":
    main()
