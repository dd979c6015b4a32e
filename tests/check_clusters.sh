#!/usr/bin/env bash
# grappi cluster against Debian's mcl and python3-leidenalg on STRING's networks, its JSON against
# docs/schemas/cluster.schema.json, and GET /api/cluster against the command line
# (tests/check_clusters.py). Needs: GRAPPI (the CLI), DATA (the bundled data), mcl, and a python3
# with igraph, leidenalg and jsonschema.
set -euo pipefail
: "${GRAPPI:?}" "${DATA:?}"
. "$(dirname "$0")/python_with.sh"
. "$(dirname "$0")/serve_start.sh"
python_with "igraph, leidenalg, jsonschema" "python3-igraph python3-leidenalg python3-jsonschema"
command -v mcl > /dev/null || { echo "SKIP: mcl is not installed (Debian's mcl)"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/grappi_clusters.XXXXXX")
PID=""
trap '[ -n "$PID" ] && kill "$PID" 2> /dev/null; rm -rf "$work"' EXIT
"$GRAPPI" import --db "$work/yeast.db" --info "$DATA/4932.protein.info.v12.0.txt.gz" \
  --physical "$DATA/4932.protein.physical.links.v12.0.txt.gz" > /dev/null
db="$work/nsclc.db"
"$GRAPPI" import --db "$db" --info "$DATA/9606.protein.info.v12.0.txt.gz" > /dev/null
"$GRAPPI" import --db "$db" "$DATA/export_v12_nsclc/string_interactions.tsv" \
  "$DATA/export_v12_alzheimer/string_interactions.tsv" > /dev/null
"$GRAPPI" import --db "$db" --annotations "$DATA/export_v12_nsclc/string_functional_annotations.tsv.gz" > /dev/null
"$PY" "$(dirname "$0")/check_clusters.py" "$GRAPPI" "$work" "$DATA/export_v12_nsclc/string_interactions.tsv" \
  "$DATA/export_v12_alzheimer/string_interactions.tsv" "$work/yeast.db" \
  "$DATA/4932.protein.physical.links.v12.0.txt.gz" "$db"
# The JSON follows its schema, hierarchical levels included; the TSV has a row per member.
"$GRAPPI" cluster --db "$db" --method leiden --max-cluster-size 10 --json "$work/c.json" --tsv "$work/c.tsv" > /dev/null
"$PY" "$(dirname "$0")/check_json_schema.py" "$(dirname "$0")/../docs/schemas/cluster.schema.json" "$work/c.json"
"$PY" - "$work/c.json" "$work/c.tsv" << 'PY'
import json, sys
j = json.load(open(sys.argv[1]))
rows = open(sys.argv[2]).read().splitlines()
assert rows[0] == "cluster\tlevel\tparent\tsize\tmember\tname", rows[0]
assert len(rows) - 1 == sum(c["size"] for c in j["clusters"]), (len(rows), j["levels"])
assert j["levels"] > 1 and any(c["children"] for c in j["clusters"]), j["levels"]
print(f"cluster --max-cluster-size 10: {j['levels']} levels, {len(j['clusters'])} clusters; TSV a row per member")
PY
# CX2 for Cytoscape: a node attribute of its cluster, each top-level cluster its colour, the edges at the threshold;
# grappi reads it back whole.
"$GRAPPI" cluster --db "$db" --method leiden --max-cluster-size 10 --json "$work/cx.json" --cx2 "$work/c.cx2" > /dev/null
"$GRAPPI" import --db "$work/cx2.db" --cx2 "$work/c.cx2" > /dev/null
"$PY" - "$work/cx.json" "$work/c.cx2" << 'PY'
import json, sys
j, cx = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
aspects = {next(iter(a)): next(iter(a.values())) for a in cx}
nodes, edges = aspects["nodes"], aspects["edges"]
assert len(nodes) == j["nodes"] and len(edges) == j["edges"], (len(nodes), j["nodes"], len(edges), j["edges"])
top = {m: c["id"] for c in j["clusters"] if c["level"] == 0 for m in c["members"]}
for n in nodes:
    assert n["v"]["cluster"] == top[n["v"]["represents"]], n
    assert n["v"]["cluster_levels"][0] == n["v"]["cluster"], n
colours = {b["v"]["NODE_BACKGROUND_COLOR"] for b in aspects["nodeBypasses"]}
assert len(colours) == min(12, len(set(top.values()))) + (1 if len(set(top.values())) > 12 else 0), colours
assert aspects["networkAttributes"][0]["cluster_terms"], "no terms in the CX2"
print(f"cluster --cx2: {len(nodes)} nodes coloured by {len(colours)} clusters, {len(edges)} edges")
PY
[ "$("$GRAPPI" info --db "$work/cx2.db" --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["edges"])')" -gt 0 ] \
  || { echo "FAIL: the CX2 did not import"; exit 1; }
# A set read from another command's JSON, and the text table.
"$GRAPPI" window --db "$db" --protein EGFR --k 10,3 --depth 2 --json > "$work/window.json"
"$GRAPPI" cluster --db "$db" --from "$work/window.json" > "$work/table.txt"
grep -q "^mcl: .* clusters of .* proteins" "$work/table.txt" || { echo "FAIL: table: $(cat "$work/table.txt")"; exit 1; }
# ask answers the main modules of a network named by its file, in the modules form, by its schema.
"$GRAPPI" embed --db "$db" > /dev/null
"$GRAPPI" ask --db "$db" "What are the main modules of the NSCLC network?" --json "$work/ask.json" > /dev/null
"$PY" "$(dirname "$0")/check_json_schema.py" "$(dirname "$0")/../docs/schemas/ask.schema.json" "$work/ask.json"
"$PY" - "$work/ask.json" << 'PY'
import json, sys
a = json.load(open(sys.argv[1]))["answer"]
assert a["form"] == "modules" and len(a["value"]) >= 2, a
assert "export_v12_nsclc" in a["text"] and a["value"][0]["terms"], a["text"]
print("ask: " + a["text"][:160] + " ...")
PY
# Community reports: built and stored (extractive summaries), shown, read by ask for the whole network's modules;
# stale once the graph changes; removed.
"$GRAPPI" communities build --db "$db" --json "$work/cm.json" > "$work/cm.txt"
grep -q "^'default': .* report(s) of .* leiden communities" "$work/cm.txt" || { echo "FAIL: communities build: $(cat "$work/cm.txt")"; exit 1; }
"$GRAPPI" communities show --db "$db" --json "$work/cm2.json" > /dev/null
"$PY" "$(dirname "$0")/check_json_schema.py" "$(dirname "$0")/../docs/schemas/communities.schema.json" "$work/cm.json" "$work/cm2.json"
[ "$("$GRAPPI" communities list --db "$db")" = "default" ] || { echo "FAIL: communities list"; exit 1; }
"$GRAPPI" ask --db "$db" "What are the main modules of the network?" --json "$work/ask_cm.json" > /dev/null
"$PY" "$(dirname "$0")/check_json_schema.py" "$(dirname "$0")/../docs/schemas/ask.schema.json" "$work/ask_cm.json"
"$PY" - "$work/cm.json" "$work/cm2.json" "$work/ask_cm.json" << 'PY'
import json, sys
built, shown, asked = (json.load(open(f)) for f in sys.argv[1:4])
assert built["reports"] == shown["reports"] and not shown["stale"], "communities show differs from build"
assert len(built["reports"]) >= 2 and any(r["terms"] for r in built["reports"]), "no report with terms"
for r in built["reports"]:
    assert r["summary_status"] == "extractive" and r["summary"].startswith("Extractive summary (not a language model)"), r
    assert all(t["term"] in r["summary"] for t in r["terms"][:3]), r["summary"]
a = asked["answer"]
assert a["form"] == "modules" and "stored community reports 'default'" in a["looked_up"], a["looked_up"]
assert [m["summary"]["community"] for m in a["value"]] == [r["id"] for r in built["reports"] if r["level"] == 0][:10], a["value"]
assert [m["members"] for m in a["value"]] == [r["members"] for r in built["reports"] if r["level"] == 0][:10]
print(f"communities: {len(built['reports'])} reports stored; ask reads them: " + a["text"][:120] + " ...")
PY
"$GRAPPI" communities remove --db "$db" default > /dev/null
if "$GRAPPI" communities show --db "$db" > "$work/none.txt" 2>&1; then echo "FAIL: show of a removed set"; exit 1; fi
grep -q "no set named 'default' is stored" "$work/none.txt" || { echo "FAIL: $(cat "$work/none.txt")"; exit 1; }
"$GRAPPI" communities build --db "$db" --name web --quiet --json "$work/cm_web.json"
# The web explorer: GET /api/cluster equals grappi cluster --json; bad parameters are 400s.
"$GRAPPI" cluster --db "$db" EGFR KRAS TP53 PIK3CA AKT1 BRAF NOSUCHPROTEIN --method leiden --json "$work/set.json" \
  > /dev/null 2> "$work/err"
grep -q "'NOSUCHPROTEIN' left out" "$work/err" || { echo "FAIL: no warning for an unknown name: $(cat "$work/err")"; exit 1; }
serve_start "$db" "$work/serve.txt"
"$PY" - "$PORT" "$work/set.json" "$work/cm_web.json" << 'PY'
import json, sys, urllib.error, urllib.request

base = "http://127.0.0.1:%s" % sys.argv[1]

def get(path):
    try:
        with urllib.request.urlopen(base + path, timeout=60) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)

status, got = get("/api/cluster?proteins=EGFR,KRAS,TP53,PIK3CA,AKT1,BRAF,NOSUCHPROTEIN&method=leiden")
assert status == 200, (status, got)
assert got == json.load(open(sys.argv[2])), "GET /api/cluster differs from grappi cluster --json"
status, got = get("/api/cluster?min_score=0.7")
assert status == 200 and got["nodes"] > 0 and got["clusters"], (status, got)
for path, says in (("/api/cluster?method=kmeans", "unknown method"), ("/api/cluster?inflation=1", "inflation"),
                   ("/api/cluster?runs=50", "runs"), ("/api/cluster?min_score=0.99999", "no edge")):
    status, got = get(path)
    assert status == 400 and says in got.get("error", ""), (path, status, got)
status, got = get("/api/communities?name=web")
assert status == 200 and got == json.load(open(sys.argv[3])), "GET /api/communities differs from communities build --json"
status, got = get("/api/communities")
assert status == 404 and "no community reports named 'default'" in got.get("error", ""), (status, got)
print("serve: /api/cluster equals grappi cluster --json; bad parameters refused; /api/communities the stored set")
PY
