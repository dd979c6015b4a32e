#!/usr/bin/env bash
# GraphML written by `grappi export` opens in networkx and igraph (Debian's python3-networkx and
# python3-igraph) with every node, edge and attribute; skipped (ctest SKIP, exit 77) with a
# message when neither is installed.
set -euo pipefail
: "${GRAPPI:?path to the grappi binary}" "${DATA:?path to data/}"
. "$(dirname "$0")/python_with.sh"
python_with networkx "python3-networkx python3-igraph"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$GRAPPI" import --db "$T/kb.db" "$DATA/4932.protein.info.v12.0.txt.gz" "$DATA/4932.protein.aliases.v12.0.txt.gz" \
  "$DATA/4932.protein.physical.links.v12.0.txt.gz" "$DATA/intact/intact_sample.mitab27.tsv.gz" "$DATA/ontology/psi-mi.obo" \
  > /dev/null 2>&1
# The whole database: undirected STRING and IntAct edges beside PSI-MI's directed is_a edges.
"$GRAPPI" export --db "$T/kb.db" --format graphml -o "$T/all.graphml" 2> "$T/err"
"$GRAPPI" export --db "$T/kb.db" --format jsonl -o "$T/all.jsonl" 2>> "$T/err"
"$GRAPPI" export --db "$T/kb.db" --format graphml --khop CDC28 --hops 1 --min-score 0.9 -o "$T/cdc28.graphml" 2> "$T/err"
"$GRAPPI" export --db "$T/kb.db" --format jsonl --khop CDC28 --hops 1 --min-score 0.9 -o "$T/cdc28.jsonl" 2>> "$T/err"
"$GRAPPI" export --db "$T/kb.db" --format graphml --relation mitab.physical_association -o "$T/mitab.graphml" 2>> "$T/err"
"$GRAPPI" export --db "$T/kb.db" --format jsonl --relation mitab.physical_association -o "$T/mitab.jsonl" 2>> "$T/err"
"$PY" - "$T" <<'PY'
import json, sys, networkx as nx
t = sys.argv[1]
for name in ("cdc28", "mitab", "all"):
    lines = [json.loads(l) for l in open(f"{t}/{name}.jsonl")]
    nodes = {l["id"]: l for l in lines if l.get("type") == "node"}
    edges = [l for l in lines if l.get("type") == "edge"]
    g = nx.read_graphml(f"{t}/{name}.graphml")
    assert g.number_of_nodes() == len(nodes), (name, g.number_of_nodes(), len(nodes))
    assert g.number_of_edges() == len(edges), (name, g.number_of_edges(), len(edges))
    for n, d in g.nodes(data=True):
        assert d["name"] == nodes[n]["name"] and d["label"] == nodes[n]["label"], (n, d)
        assert d.get("annotation", "") == nodes[n]["annotation"] and d["taxon"] == nodes[n]["taxon"], n
    for e in edges:
        data = g.get_edge_data(e["source"], e["target"])
        data = list(data.values()) if isinstance(g, nx.MultiGraph) else [data]
        assert any(x["relation"] == e["relation"] and x["score"] == e["score"] and x["directed"] == e["directed"]
                   for x in data), e
    assert len(nodes) > 10, name
    if name == "all":
        assert any(e["directed"] for e in edges) and not all(e["directed"] for e in edges), "all: a mixed graph"
print("networkx: ok")
try:
    import igraph
except ImportError:
    print("igraph: not installed, not checked")
    sys.exit(0)
for name in ("cdc28", "mitab", "all"):
    lines = [json.loads(l) for l in open(f"{t}/{name}.jsonl")]
    g = igraph.Graph.Read_GraphML(f"{t}/{name}.graphml")
    assert g.vcount() == sum(1 for l in lines if l.get("type") == "node"), name
    assert g.ecount() == sum(1 for l in lines if l.get("type") == "edge"), name
    assert set(g.vs["external_id"]) == {l["id"] for l in lines if l.get("type") == "node"}
    assert all(0 <= s <= 1 for s in g.es["score"])
print("igraph: ok")
PY
