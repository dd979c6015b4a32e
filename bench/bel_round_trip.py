#!/usr/bin/python3
"""A curated BEL corpus through grappi and back, as PyBEL reads it: each source is read by PyBEL
(offline: no namespace is downloaded) and imported into a new grappi database, the database is
exported as a BEL script (`grappi export --format bel`), and PyBEL reads the export. Per source:
PyBEL's warnings (its parse warnings and what it logs at WARNING or above) for the source and for
the export, and the share of the source's nodes and edges PyBEL finds again in the export (a node
by its BEL, an edge by its two nodes' BEL and its relation; BEL 1's namespace EGID read as BEL 2's
NCBIGENE, the name grappi writes).

    /usr/bin/python3 bench/bel_round_trip.py build/grappi data/bel/pybel_test_bel.bel \\
        data/bel/pybel_thorough.bel data/bel/cbn_cytotoxic_t-cell_signaling-2.0-hs.bel.jgf.json.gz

Needs Debian's python3-pybel. A BEL script is imported with --skip-bad-lines (statements BEL 2.1
does not allow are reported and left out: PyBEL reads some of them); a CBN JSON graph (.jgf.json,
.jgf.json.gz) is read by PyBEL with pybel.from_cbn_jgif. Prints a Markdown table (BENCHMARKS.md).
"""
import gzip
import json
import logging
import os
import subprocess
import sys
import tempfile

import pybel


class Keep(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        if record.levelno >= logging.WARNING:
            self.messages.append(record.getMessage())


def read(path, keep):
    """PyBEL's graph of a source or an export, and its warnings (parse warnings and logged ones)."""
    keep.messages.clear()
    if ".jgf.json" in path:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            graph = pybel.from_cbn_jgif(json.load(f))
    else:
        graph = pybel.from_bel_script(path, no_identifier_validation=True)
    return graph, len(graph.warnings) + len(keep.messages)


def bel(node):
    # (BEL 1's Entrez Gene namespace, EGID, is BEL 2's NCBIGENE: grappi writes the BEL 2 name)
    return node.as_bel().replace("(EGID:", "(NCBIGENE:")


def contents(graph):
    nodes = {bel(n) for n in graph.nodes()}
    edges = {(bel(u), d.get("relation"), bel(v)) for u, v, d in graph.edges(data=True)}
    return nodes, edges


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    grappi, sources = sys.argv[1], sys.argv[2:]
    keep = Keep()
    logging.getLogger().addHandler(keep)
    logging.getLogger().setLevel(logging.WARNING)
    print("| source | PyBEL on the source: nodes / edges / warnings | grappi: statements imported (skipped) | "
          "PyBEL on grappi's export: nodes / edges / warnings | source nodes found again | source edges found again |")
    print("|---|---|---|---|---|---|")
    for src in sources:
        with tempfile.TemporaryDirectory() as t:
            db, out = os.path.join(t, "kb.db"), os.path.join(t, "kb.bel")
            p = subprocess.run([grappi, "import", "--db", db, "--bel", src, "--skip-bad-lines", "--json"],
                               capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"grappi import {src}: {p.stderr.strip()}")
            report = json.loads(p.stdout)
            details = {}
            skipped = 0
            for f in report.get("files", []):
                skipped += f.get("rows_skipped", 0)
                details.update(f.get("details", {}))
            p = subprocess.run([grappi, "export", "--db", db, "--format", "bel", "-o", out], capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"grappi export {src}: {p.stderr.strip()}")
            g_src, w_src = read(src, keep)
            g_out, w_out = read(out, keep)
        n_src, e_src = contents(g_src)
        n_out, e_out = contents(g_out)
        nodes = len(n_src & n_out) / len(n_src) if n_src else 1.0
        edges = len(e_src & e_out) / len(e_src) if e_src else 1.0
        print(f"| {os.path.basename(src)} | {len(n_src)} / {len(e_src)} / {w_src} | "
              f"{details.get('statements', '?')} ({skipped}) | {len(n_out)} / {len(e_out)} / {w_out} | "
              f"{nodes:.3f} ({len(n_src & n_out)}/{len(n_src)}) | {edges:.3f} ({len(e_src & e_out)}/{len(e_src)}) |")
        for kind, missing in (("node", sorted(n_src - n_out)), ("edge", sorted(map(str, e_src - e_out)))):
            for m in missing[:5]:
                print(f"  missing {kind}: {m}", file=sys.stderr)


if __name__ == "__main__":
    main()
