#!/usr/bin/python3
"""BEL statements: grappi's validator against pybel's parser, side by side in one run.

Usage (Debian's python3 with the python3-pybel package):
    /usr/bin/python3 bench/bel_vs_pybel.py build/grappi [--repeat 20] [--out DIR]

Statements: every statement line of data/bel/*.bel, every distinct bel_statement and edge label
of the CBN JSON graph, and the bel_expression of every edge of the two LLM-extracted CX2 files
in data/cx2/. For each statement it records whether pybel accepts it (BELParser with
skip_validation=True: grammar only, since the namespace files pybel would download are not
available offline) and whether grappi accepts it (`grappi bel validate --json`, once with its
namespace table and once with --allow-unknown-namespaces, the mode comparable to pybel's), and
prints every disagreement. Speed: statements per second of pybel's parseString and of
`grappi bel validate` over the same statements repeated --repeat times (one process, so its
start-up is amortised), on the same machine in the same run.
"""
import argparse
import collections
import glob
import gzip
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")


def bel_script_statements(path):
    out, pending = [], ""
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if pending:
            line = pending + line
            pending = ""
        if line.endswith("\\"):
            pending = line[:-1]
            continue
        s = line.strip()
        if not s or s.startswith("#") or s.startswith(("SET ", "UNSET ", "DEFINE ")):
            continue
        out.append((os.path.basename(path), s))
    return out


def cbn_statements(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        graph = json.load(f)["graph"]
    seen, out = set(), []
    for e in graph["edges"]:
        texts = [e["label"]] + [ev["bel_statement"] for ev in e.get("metadata", {}).get("evidences", [])]
        for t in texts:
            if t not in seen:
                seen.add(t)
                out.append(("cbn", t))
    return out


def cx2_statements(path):
    doc = json.load(open(path, encoding="utf-8"))
    out = []
    for aspect in doc:
        for e in aspect.get("edges", []):
            b = e.get("v", {}).get("bel_expression")
            if b:
                out.append((os.path.basename(path), b))
    return out


def pybel_parser():
    from pybel import BELGraph
    from pybel.parser import BELParser

    parser = BELParser(BELGraph(), skip_validation=True)
    parser.control_parser.citation_db = "pubmed"
    parser.control_parser.citation_db_id = "1"
    parser.control_parser.evidence = "benchmark"
    return parser


def pybel_accepts(parser, statement):
    try:
        parser.parseString(statement)
        return True, ""
    except Exception as e:  # pybel raises ParseException and its own warnings classes
        return False, "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:160])


def grappi_results(grappi, statements, allow_unknown):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        for _, s in statements:
            f.write(s.replace("\n", " ") + "\n")
        name = f.name
    cmd = [grappi, "bel", "validate", "--json", name] + (["--allow-unknown-namespaces"] if allow_unknown else [])
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False).stdout
    os.unlink(name)
    results = json.loads(out)["results"]
    assert len(results) == len(statements), (len(results), len(statements))
    return [(r["valid"], "; ".join("%s: %s" % (p["code"], p["message"]) for p in r["problems"] if p["severity"] == "error"),
             [p["code"] for p in r["problems"] if p["severity"] == "error"]) for r in results]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("grappi")
    ap.add_argument("--repeat", type=int, default=20, help="pybel's passes over the statements")
    ap.add_argument("--grappi-repeat", type=int, default=500, help="grappi's passes (it needs more to be timed)")
    args = ap.parse_args()
    logging.disable(logging.CRITICAL)  # pybel logs every deprecated form it meets
    warnings.simplefilter("ignore")

    statements = []
    for p in sorted(glob.glob(os.path.join(DATA, "bel", "*.bel"))):
        statements += bel_script_statements(p)
    statements += cbn_statements(os.path.join(DATA, "bel", "cbn_cytotoxic_t-cell_signaling-2.0-hs.bel.jgf.json.gz"))
    for p in sorted(glob.glob(os.path.join(DATA, "cx2", "llm_kg_*.cx2"))):
        statements += cx2_statements(p)
    print("statements: %d (%s)" % (len(statements), dict(collections.Counter(src for src, _ in statements))))

    parser = pybel_parser()
    py = [pybel_accepts(parser, s) for _, s in statements]
    strict = grappi_results(args.grappi, statements, False)
    lenient = grappi_results(args.grappi, statements, True)

    by_source = collections.defaultdict(lambda: collections.Counter())
    for (src, _), p, g, gl in zip(statements, py, strict, lenient):
        c = by_source[src]
        c["n"] += 1
        c["pybel"] += p[0]
        c["grappi"] += g[0]
        c["grappi_lenient"] += gl[0]
        c["agree_lenient"] += p[0] == gl[0]
    print("\n| source | statements | pybel accepts | grappi accepts | grappi accepts (unknown namespaces allowed) | same verdict as pybel (lenient) |")
    print("|---|---|---|---|---|---|")
    for src, c in by_source.items():
        print("| %s | %d | %d | %d | %d | %d |" % (src, c["n"], c["pybel"], c["grappi"], c["grappi_lenient"], c["agree_lenient"]))

    print("\nDisagreements (grappi with unknown namespaces allowed vs pybel):")
    for (src, s), p, gl in zip(statements, py, lenient):
        if p[0] != gl[0]:
            print("- [%s] `%s`\n  pybel: %s\n  grappi: %s" % (src, s, "accepts" if p[0] else p[1],
                                                            "accepts" if gl[0] else gl[1]))
    print("\nStrict grappi errors pybel accepts, by code:")
    codes = collections.Counter()
    for p, g in zip(py, strict):
        if p[0] and not g[0]:
            for code in set(g[2]):
                codes[code] += 1
    for code, n in codes.most_common():
        print("  %s: %d" % (code, n))

    # Speed: the same statements, repeated.
    texts = [s.replace("\n", " ") for _, s in statements] * args.repeat
    parser = pybel_parser()
    t0 = time.perf_counter()
    for s in texts:
        pybel_accepts(parser, s)
    t_py = time.perf_counter() - t0
    many = [s.replace("\n", " ") for _, s in statements] * args.grappi_repeat
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write("\n".join(many) + "\n")
        name = f.name
    t0 = time.perf_counter()
    subprocess.run([args.grappi, "bel", "validate", "--quiet", "--allow-unknown-namespaces", name],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    t_g = time.perf_counter() - t0
    os.unlink(name)
    py_rate, g_rate = len(texts) / t_py, len(many) / t_g
    print("\nspeed: pybel %.0f statements/s (%d statements in %.2f s), grappi %.0f statements/s (%d statements "
          "in %.2f s, one process), ratio %.0fx" % (py_rate, len(texts), t_py, g_rate, len(many), t_g, g_rate / py_rate))


if __name__ == "__main__":
    sys.exit(main())
