#!/usr/bin/env python3
"""The genes of a paper as `grappi extract` grounds them, against a gene-annotated corpus (PubTator), beside
the exact-official-symbol baseline; and the organism a paper is about, as grappi reads it from the text,
against the organism of the corpus's own species annotations.

    python3 bench/eval_paper_genes.py --db human.db CORPUS.PubTator [...] [--grappi build/grappi] [--taxon N]

The database holds the human proteins with NCBI's gene table (grappi import --mapping): its
`mapping:entrez_gene_id` aliases give every grounded protein's Entrez id, and its official symbols are the
baseline's dictionary. The papers go to grappi as plain title and abstract, every annotation removed.

Per paper, the gold is the set of Entrez ids of its gene annotations (types Gene, GeneOrGeneProduct). A paper is
*human* when most of its gold genes are human ones (in the gene table), *other* when most are not. Figures:
- human papers: document-level F1 (micro over papers) of the human Entrez ids the paper's mentions ground to
  (statuses unique/resolved; a family or complex grounding counts as neither hit nor false positive);
- other papers: how many human genes are grounded in them (fewer is better: their genes are not human), and
  how many of those the paper's own annotations do not name (a mixed paper's "human CHMP1" is annotated so);
- the baseline on the same papers: every token written exactly as a human official symbol;
- organism: the taxon grappi chose from the text against the taxon most of the paper's species annotations
  name (papers with species annotations only).
"""
import argparse
import collections
import gzip
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

GENE_TYPES = {"Gene", "GeneOrGeneProduct"}
SPECIES_TYPES = {"Species", "OrganismTaxon"}


def read_pubtator(path):
    docs = collections.OrderedDict()
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^([^|\t]+)\|([ta])\|(.*)$", line)
            if m:
                d = docs.setdefault(m.group(1), {"t": "", "a": "", "genes": set(), "species": collections.Counter(),
                                                 "texts": collections.defaultdict(set)})
                d[m.group(2)] = m.group(3)
                continue
            parts = line.split("\t")
            if len(parts) >= 6 and parts[0] in docs:
                kind, ids = parts[4], parts[5]
                if kind in GENE_TYPES:
                    for x in re.split(r"[;,]", ids):
                        x = re.sub(r"\(Tax:\d+\)", "", x).strip()
                        if x.isdigit():
                            docs[parts[0]]["genes"].add(x)
                            docs[parts[0]]["texts"][x].add(parts[3])
                elif kind in SPECIES_TYPES:
                    for x in re.split(r"[;,]", ids):
                        x = x.split(":")[-1].strip()
                        if x.isdigit():
                            docs[parts[0]]["species"][x] += 1
    return docs


def gene_table(db):
    con = sqlite3.connect(db)
    entrez_of = collections.defaultdict(set)  # external id -> Entrez ids
    for ext, entrez in con.execute(
            "SELECT n.external_id, a.alias FROM aliases a JOIN nodes n ON n.id = a.node_id "
            "WHERE a.source = 'mapping:entrez_gene_id'"):
        entrez_of[ext].add(entrez.split(":")[-1])  # ("3175" and "ncbigene:3175" are one id)
    symbols = {}
    for sym, entrez in con.execute(
            "SELECT s.alias, e.alias FROM aliases s JOIN aliases e ON e.node_id = s.node_id "
            "WHERE s.source = 'mapping:symbol' AND e.source = 'mapping:entrez_gene_id'"):
        symbols.setdefault(sym, set()).add(entrez.split(":")[-1])
    human = set().union(*entrez_of.values()) if entrez_of else set()
    return entrez_of, symbols, human


TOKEN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?")


def baseline(text, symbols):
    out = set()
    for t in TOKEN.findall(text):
        for part in {t, *t.split("-")}:
            out |= symbols.get(part, set())
    return out


def prf(tp, fp, fn):
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True)
    ap.add_argument("corpora", nargs="+")
    ap.add_argument("--grappi", default="build/grappi")
    ap.add_argument("--taxon", type=int, default=0, help="passed to grappi extract --taxon")
    ap.add_argument("--misses", type=int, default=0, help="print this many false positives and misses")
    a = ap.parse_args()
    entrez_of, symbols, human = gene_table(a.db)
    symbol_of = {e: s for s, es in symbols.items() for e in es}
    rows = []
    for corpus in a.corpora:
        docs = read_pubtator(corpus)
        with tempfile.TemporaryDirectory() as tmp:
            plain = os.path.join(tmp, "plain.PubTator")
            with open(plain, "w", encoding="utf-8") as f:
                for pmid, d in docs.items():
                    f.write(f"{pmid}|t|{d['t']}\n{pmid}|a|{d['a']}\n\n")
            out = os.path.join(tmp, "out.json")
            cmd = [a.grappi, "extract", "--db", a.db, "--corpus", plain, "--format", "pubtator", "--json", out,
                   "--quiet", "--yes"]
            if a.taxon:
                cmd += ["--taxon", str(a.taxon)]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"grappi extract failed on {corpus}: {p.stderr.strip()}")
            with open(out, encoding="utf-8") as f:
                result = json.load(f)
        predicted = collections.defaultdict(set)
        written = collections.defaultdict(collections.Counter)  # (paper, Entrez id) -> mention texts
        family_texts = collections.defaultdict(set)  # paper -> texts grounded to a family or complex
        for par in result.get("paragraphs", []):
            for m in par.get("entities", []):
                if m.get("status") in ("unique", "resolved") and m.get("type") in ("ProteinFamily", "ProteinComplex"):
                    family_texts[par["document"]].add(m.get("text"))
                if m.get("status") in ("unique", "resolved") and m.get("type") == "Protein":
                    for e in entrez_of.get(m.get("id"), set()):
                        predicted[par["document"]].add(e)
                        written[(par["document"], e)][m.get("text")] += 1
        chosen, evidence = {}, {}
        for d in result.get("papers", []):
            chosen[d.get("document")] = (d.get("organism") or {}).get("taxon", 0)
            evidence[d.get("document")] = [(e["taxon"], e["count"], e["cues"][:3])
                                           for e in (d.get("organism") or {}).get("evidence", [])]
        counts = collections.Counter()
        fps, fns = collections.Counter(), collections.Counter()
        for pmid, d in docs.items():
            if d["species"]:
                gold_taxon = int(d["species"].most_common(1)[0][0])
                counts["organism_papers"] += 1
                counts["organism_right"] += chosen.get(pmid, 0) == gold_taxon
            if not d["genes"]:
                continue
            gold_h = d["genes"] & human
            kind = "human" if 2 * len(gold_h) >= len(d["genes"]) else "other"
            text = d["t"] + " " + d["a"]
            base = baseline(text, symbols)
            pred = predicted.get(pmid, set())
            counts[kind + "_papers"] += 1
            if a.misses and (kind == "human") != (chosen.get(pmid) == 9606):
                print(f"{kind} paper {pmid} read as {chosen.get(pmid)}: {evidence.get(pmid)}; "
                      f"{len(pred)} grounded", file=sys.stderr)
            if kind == "human":
                # (a gene the paper names only by texts grappi grounds to a family: neither hit nor miss)
                by_family = {e for e in gold_h if d["texts"][e] and d["texts"][e] <= family_texts[pmid]} - pred
                for name, s in (("grappi", pred), ("baseline", base)):
                    counts[name + "_tp"] += len(s & gold_h)
                    counts[name + "_fp"] += len(s - gold_h)
                    counts[name + "_fn"] += len(gold_h - s)
                    counts[name + "_fam_fn"] += len(gold_h - s - by_family)
                    counts[name + "_fam_tp"] += len((s & gold_h) - by_family)
                for e in pred - gold_h:
                    fps[symbol_of.get(e, e) + "<" + "|".join(written[(pmid, e)]) + ">"] += 1
                for e in gold_h - pred:
                    fns[symbol_of.get(e, e) + "<" + "|".join(sorted(d["texts"][e])) + ">"] += 1
            else:
                if a.misses and pred:
                    named = sorted(symbol_of.get(e, e) + "<" + "|".join(written[(pmid, e)]) + ">" for e in pred)
                    wrong = sorted(symbol_of.get(e, e) + "<" + "|".join(written[(pmid, e)]) + ">" for e in pred - d["genes"])
                    print(f"other paper {pmid} (species {dict(d['species'].most_common(3))}) read as "
                          f"{chosen.get(pmid)}: {evidence.get(pmid)}; human genes {named}; not annotated {wrong}",
                          file=sys.stderr)
                counts["grappi_other"] += len(pred)
                counts["baseline_other"] += len(base)
                # (of them, those the paper's own annotations do not name: a mixed paper's "human CHMP1" is right)
                counts["grappi_other_wrong"] += len(pred - d["genes"])
                counts["baseline_other_wrong"] += len(base - d["genes"])
        rows.append((os.path.basename(corpus), counts))
        if a.misses:
            print(f"{os.path.basename(corpus)}: false positives {fps.most_common(a.misses)}", file=sys.stderr)
            print(f"{os.path.basename(corpus)}: misses {fns.most_common(a.misses)}", file=sys.stderr)
    print("| corpus | human papers | grappi P / R / F1 | exact symbol P / R / F1 | grappi F1, family names aside "
          "(baseline) | other papers | human genes grounded (grappi / baseline) | of them not in the paper's annotations "
          "(grappi / baseline) | organism right |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, c in rows:
        g = prf(c["grappi_tp"], c["grappi_fp"], c["grappi_fn"])
        b = prf(c["baseline_tp"], c["baseline_fp"], c["baseline_fn"])
        org = (f"{c['organism_right']}/{c['organism_papers']}" if c["organism_papers"] else "n/a")
        gf = prf(c["grappi_fam_tp"], c["grappi_fp"], c["grappi_fam_fn"])
        bf = prf(c["baseline_fam_tp"], c["baseline_fp"], c["baseline_fam_fn"])
        print(f"| {name} | {c['human_papers']} | {g[0]:.3f} / {g[1]:.3f} / **{g[2]:.3f}** | "
              f"{b[0]:.3f} / {b[1]:.3f} / {b[2]:.3f} | {gf[2]:.3f} ({bf[2]:.3f}) | {c['other_papers']} | {c['grappi_other']} / "
              f"{c['baseline_other']} | {c['grappi_other_wrong']} / {c['baseline_other_wrong']} | {org} |")


if __name__ == "__main__":
    main()
