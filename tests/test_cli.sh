#!/usr/bin/env bash
# End-to-end tests of the grappi command line on the bundled data, in parts that ctest runs as
# separate tests (tests/CMakeLists.txt): two set-up parts import the yeast network and the
# human demo data once into $DBDIR, the other parts use those databases (copying them first
# when they change them).
#   test_cli.sh setup-yeast | setup-human | yeast | retrieval | pcst | explore | explore-http | suggestions | exit-codes | ontology | mitab | bel | cx2 | ground | extract | hypothesize | ask | reader | bombs
set -euo pipefail
: "${GRAPPI:?path to the grappi binary}" "${DATA:?path to data/}" "${DBDIR:?directory of the shared databases}"
PART=${1:?part}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL ($PART): $*" >&2; exit 1; }
HERE=$(cd "$(dirname "$0")" && pwd)
Y="$DBDIR/y.db"
H="$DBDIR/h.db"
# The report view embedded in an HTML report (--html), as JSON on standard output.
view_of() {
  python3 - "$1" <<'PY'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
assert page.startswith("<!DOCTYPE html>"), page[:40]
m = re.search(r'<script type="application/json" id="grappi-view">(.*?)</script>', page, re.S)
print(json.dumps(json.loads(m.group(1))))
PY
}
# JSON outputs against their schema in docs/schemas/ (NAME.schema.json; --each: every element of
# an array). GRAPPI_SCHEMA_SAMPLES=DIR keeps the files there instead (tools/json_schema_draft.py).
schema_check() {
  local name=$1
  shift
  # (under a sanitizer the outputs' shapes are not checked again: the Release tree checks them, and
  # each check is a second of Python that runs no grappi code)
  [ -z "${GRAPPI_SANITIZED:-}" ] || return 0
  if [ -n "${GRAPPI_SCHEMA_SAMPLES:-}" ]; then  # (drafting: keep the samples, check nothing)
    for f in "$@"; do [ "$f" = --each ] || cp "$f" "$GRAPPI_SCHEMA_SAMPLES/$name.$PART.$(basename "$f")"; done
    return 0
  fi
  python3 "$HERE/check_json_schema.py" "$HERE/../docs/schemas/$name.schema.json" "$@" > /dev/null ||
    fail "$name output does not follow docs/schemas/$name.schema.json"
}
# The exit status of a command expected to fail (its stderr in $T/err).
status_of() { set +e; "$@" > /dev/null 2> "$T/err"; local rc=$?; set -e; echo "$rc"; }

case $PART in
setup-yeast)
mkdir -p "$DBDIR"
rm -f "$Y" "$Y"-* "$Y".*
"$GRAPPI" import --db "$Y" --info "$DATA/4932.protein.info.v12.0.txt.gz" \
  --aliases "$DATA/4932.protein.aliases.v12.0.txt.gz" --physical "$DATA/4932.protein.physical.links.v12.0.txt.gz" \
  --json > "$T/import.json"
python3 - "$T/import.json" <<'PY'
import json, sys
files = json.load(open(sys.argv[1]))["files"]
assert [f["format"] for f in files] == ["info", "aliases", "physical"], files
info, aliases, physical = files
assert info["lines"] == 6600 and info["nodes_created"] == 6600, info
assert aliases["aliases_created"] == 287378 and aliases["nodes_created"] == 0, aliases
assert physical["edges_created"] == 176303 and physical["nodes_created"] == 0, physical
assert all(not f["already_imported"] and f["rows_skipped"] == 0 for f in files)
PY
;;

setup-human)
mkdir -p "$DBDIR"
rm -f "$H" "$H"-* "$H".*
"$GRAPPI" import --db "$H" --info "$DATA/9606.protein.info.v12.0.txt.gz" \
  --export "$DATA/export_v12_alzheimer/string_interactions.tsv" > /dev/null
"$GRAPPI" embed --db "$H" | grep -q "embedded 19699" || fail "embed"
"$GRAPPI" embed --db "$H" | grep -q "embedded 0, unchanged 19699" || fail "re-embed must be incremental"
;;

yeast)  # changes the database: a private copy
cp "$Y" "$T/y.db"
# Embedding in parts: the same vectors and neighbor ranking as one grappi embed.
cp "$Y" "$T/one.db"
cp "$Y" "$T/parts.db"
"$GRAPPI" embed --db "$T/one.db" --embedder hashing > /dev/null
"$GRAPPI" embed-parts plan --db "$T/parts.db" --embedder hashing --embedder-file "$T/e.bin" | grep -q ": 6600 text(s) to embed" \
  || fail "embed-parts plan"
for i in 0 1 2; do
  "$GRAPPI" embed-parts part --db "$T/parts.db" --embedder-file "$T/e.bin" --part $i --parts 3 --out "$T/v$i" | grep -q ": 2200 of 6600" \
    || fail "embed-parts part $i"
done
"$GRAPPI" embed-parts merge --db "$T/parts.db" --embedder-file "$T/e.bin" "$T/v0" "$T/v1" "$T/v2" > "$T/merge.txt"
grep -q "embedded 6600 (6600 from 3 part file(s), 0 here)" "$T/merge.txt" || fail "embed-parts merge: $(cat "$T/merge.txt")"
cmp -s "$T/one.db.knn" "$T/parts.db.knn" || fail "the parts' neighbor ranking differs from one embed's"
[ "$(sqlite3 "$T/one.db" 'SELECT hex(vector) FROM embeddings ORDER BY node_id' | sha256sum)" = \
  "$(sqlite3 "$T/parts.db" 'SELECT hex(vector) FROM embeddings ORDER BY node_id' | sha256sum)" ] || fail "the parts' vectors differ"
rc=$(status_of "$GRAPPI" embed-parts part --db "$T/parts.db" --embedder-file "$T/e.bin" --part 3 --parts 3 --out "$T/v3")
[ "$rc" -eq 2 ] || fail "part 3 of 3 exited $rc"
rc=$(status_of "$GRAPPI" embed-parts merge --db "$T/parts.db" --embedder-file "$T/v0" "$T/v1")
[ "$rc" -eq 1 ] && grep -q "not such a file" "$T/err" || fail "vectors as the embedder exited $rc: $(cat "$T/err")"
rm -f "$T/one.db"* "$T/parts.db"*
"$GRAPPI" info --db "$T/y.db" --json > "$T/info.json"
python3 - "$T/info.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["nodes"] == 6600, j["nodes"]
assert j["edges"] == 176303
assert j["edges_by_relation"] == {"string.physical": 176303}
assert [d["format"] for d in j["datasets"]] == ["info", "aliases", "physical"]
assert all(len(d["sha256"]) == 64 for d in j["datasets"])
PY
schema_check info "$T/info.json"
"$GRAPPI" neighbors --db "$T/y.db" cdc28 --min-score 900 --limit 3 --json > "$T/nb.json"
python3 - "$T/nb.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["protein"]["name"] == "CDC28"
assert len(j["neighbors"]) == 3
s = [n["score"] for n in j["neighbors"]]
assert s == sorted(s, reverse=True) and min(s) >= 0.9
PY
schema_check neighbors "$T/nb.json"
"$GRAPPI" resolve --db "$T/y.db" p00546 | grep -q CDC28 || fail "resolve alias"
set +e
"$GRAPPI" resolve --db "$T/y.db" CDC29 2> "$T/err"; rc=$?
set -e
[ "$rc" -ne 0 ] || fail "unknown name must fail"
grep -q "did you mean" "$T/err" || fail "suggestions"
[ "$(wc -l < "$T/err")" -eq 1 ] || fail "one-line error"
# Bad input: non-zero exit, one line naming file and line, database unchanged.
printf 'protein1 protein2 combined_score\n4932.YBR160W 4932.YPR120C x\n' > "$T/bad.txt"
before=$("$GRAPPI" info --db "$T/y.db" --json | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["edges"], len(j["datasets"]))')
set +e
"$GRAPPI" import --db "$T/y.db" --links "$T/bad.txt" 2> "$T/err"; rc=$?
set -e
[ "$rc" -ne 0 ] || fail "bad import must fail"
grep -q "bad.txt:2:" "$T/err" || fail "error names file and line"
after=$("$GRAPPI" info --db "$T/y.db" --json | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["edges"], len(j["datasets"]))')
[ "$before" = "$after" ] || fail "database changed by a failed import"
"$GRAPPI" import --db "$T/y.db" --physical "$DATA/4932.protein.physical.links.v12.0.txt.gz" --json | grep -q '"already_imported": true' || fail "re-import"
"$GRAPPI" remove-dataset --db "$T/y.db" 3 > /dev/null
"$GRAPPI" info --db "$T/y.db" --json | python3 -c 'import json,sys; j=json.load(sys.stdin); assert j["edges"] == 0, j'
;;

retrieval)
"$GRAPPI" search --db "$H" "microtubule-associated protein tau" --k 20 --json | tee "$T/search.json" | python3 -c '
import json, sys
hits = json.load(sys.stdin)
assert len(hits) == 20 and "MAPT" in [h["name"] for h in hits], hits'
schema_check search --each "$T/search.json"
"$GRAPPI" window --db "$H" --protein MAPT --k 5,2 --depth 2 --json > "$T/w.json"
python3 - "$T/w.json" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))
names = [n["name"] for n in w["nodes"]]
assert names[0] == "MAPT" and w["nodes"][0]["parent"] is None and w["nodes"][0]["depth"] == 0
assert len([n for n in w["nodes"] if n["depth"] == 1]) == 5
for n in w["nodes"][1:]:
    assert n["parent"] in names and isinstance(n["id"], int)
for e in w["edges"]:
    assert e["source"] in names and e["target"] in names and 0 <= e["score"] <= 1 and e["relation"] == "string.combined"
PY
schema_check window "$T/w.json"
"$GRAPPI" window --db "$H" --protein MAPT --window 1-3 --k 5,2 --json | tee "$T/ws.json" | python3 -c '
import json, sys
ws = json.load(sys.stdin)
assert [w["window"] for w in ws] == [1, 2, 3]
firsts = [set(n["name"] for n in w["nodes"] if n["depth"] == 1) for w in ws]
assert not (firsts[0] & firsts[1]) and not (firsts[1] & firsts[2])'
schema_check window --each "$T/ws.json"
"$GRAPPI" paths --db "$H" --from MAPT --to APOE --max-len 3 --k 5 --json | tee "$T/paths.json" | python3 -c '
import json, sys
ps = json.load(sys.stdin)
assert 1 <= len(ps) <= 5
for p in ps:
    assert p["proteins"][0] == "MAPT" and p["proteins"][-1] == "APOE" and p["length"] == len(p["proteins"]) - 1 <= 3
assert [p["length"] for p in ps] == sorted(p["length"] for p in ps)'
schema_check paths --each "$T/paths.json"
# Every shortest path (HGCR's candidates): one length, each path once, the same set as Yen's of that length.
"$GRAPPI" paths --db "$H" --from MAPT --to APOE --max-len 3 --k 1000 --all-shortest --skip-direct --json > "$T/every.json"
"$GRAPPI" paths --db "$H" --from MAPT --to APOE --max-len 3 --k 1000 --json > "$T/yen.json"
python3 - "$T/every.json" "$T/yen.json" <<'EOF_PY'
import json, sys
every, yen = (json.load(open(f)) for f in sys.argv[1:3])
lengths = {p["length"] for p in every}
assert len(lengths) == 1 and 2 <= min(lengths), lengths
(n,) = lengths
assert sorted(map(tuple, (p["proteins"] for p in every))) == sorted(tuple(p["proteins"]) for p in yen if p["length"] == n)
EOF_PY
schema_check paths --each "$T/every.json"
"$GRAPPI" pagerank --db "$H" --seed MAPT --top 5 --json | tee "$T/pr.json" | python3 -c '
import json, sys
pr = json.load(sys.stdin)
assert pr[0]["name"] == "MAPT" and len(pr) == 5
assert [p["score"] for p in pr] == sorted((p["score"] for p in pr), reverse=True)'
schema_check pagerank --each "$T/pr.json"
"$GRAPPI" khop --db "$H" --question "amyloid beta precursor protein" --seeds 3 --hops 1 --json | tee "$T/khop.json" | python3 -c '
import json, sys
k = json.load(sys.stdin)
assert len(k["seeds"]) == 3 and len(k["nodes"]) >= 3'
schema_check khop "$T/khop.json"
"$GRAPPI" khop --db "$H" --question "amyloid beta precursor protein" --seeds 3 --csv | head -1 | grep -q "^node_id,node_attr$" || fail "csv"
# retrieve: question -> compact subgraph by PCST.
"$GRAPPI" retrieve --db "$H" --question "tau phosphorylation kinase" --json | tee "$T/retrieve.json" | python3 -c '
import json, sys
r = json.load(sys.stdin)
names = {n["name"] for n in r["nodes"]}
assert len(r["seeds"]) == 10 and r["nodes"] and r["objective"] >= 0
adj = {n: set() for n in names}
for e in r["edges"]:
    assert e["source"] in names and e["target"] in names
    adj[e["source"]].add(e["target"]); adj[e["target"]].add(e["source"])
seen, todo = set(), [next(iter(names))]
while todo:
    n = todo.pop()
    if n not in seen:
        seen.add(n); todo.extend(adj[n])
assert seen == names, r  # connected
assert any(e["score"] == 0.999 for e in r["edges"])  # scores as imported'
schema_check retrieve "$T/retrieve.json"
"$GRAPPI" retrieve --db "$H" --question "tau phosphorylation kinase" --mode prize --pruning strong --csv --html "$T/r.html" > "$T/r.csv"
view_of "$T/r.html" | python3 -c '
import json, sys
v = json.load(sys.stdin)
assert v["kind"] == "retrieve" and v["nodes"] and len(v["items"]) == len(v["nodes"]), v.keys()
prizes = [i["score"] for i in v["items"]]
assert prizes == sorted(prizes, reverse=True) and any(n["role"] == "seed" for n in v["nodes"])'

head -1 "$T/r.csv" | grep -q "^node_id,node_attr$" && grep -q "^src,edge_attr,dst$" "$T/r.csv" || fail "retrieve csv"

# retrieve in the fast event order: still one connected subgraph.
"$GRAPPI" retrieve --db "$H" --question "tau phosphorylation kinase" --fast-order --json | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["nodes"] and len(r["edges"]) >= len(r["nodes"]) - 1, r'
# STRING's functional annotations (a copy: the import writes): detected by their header, every
# category enrich can test, and no walk follows them.
cp "$H" "$T/fa.db"
"$GRAPPI" import --db "$T/fa.db" "$DATA/export_v12_nsclc/string_functional_annotations.tsv.gz" --json > "$T/fa.json"
python3 - "$T/fa.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["files"][0]
assert f["format"] == "annotations" and f["lines"] == 47118 and f["rows_skipped"] == 0, f
d = f["details"]
assert d["annotations"] == 47118 and d["proteins_unmatched"] == 0 and d["category:KEGG"] == 2939, d
PY
"$GRAPPI" enrich --db "$T/fa.db" EGFR KRAS BRAF MAP2K1 MAPK1 RAF1 --category kegg,reactome --fdr 1 --json "$T/fe.json" > /dev/null
python3 - "$T/fe.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert [c["category"] for c in r["categories"]] == ["KEGG", "Reactome"], r["categories"]
assert r["categories"][0]["universe"] == 68, r["categories"]  # (the export's proteins)
assert r["terms"][0]["term"] == "kegg:hsa04810" and r["terms"][0]["observed"] == 6, r["terms"][0]
PY
schema_check enrich "$T/fe.json"
"$GRAPPI" window --db "$T/fa.db" --protein EGFR --k 10,2 --depth 2 --json | python3 -c '
import json, sys
w = json.load(sys.stdin)
assert all(n["external_id"].startswith("9606.") for n in w["nodes"]), [n["external_id"] for n in w["nodes"]]'
;;

pcst)
# pcst: a bundled benchmark instance (gzip), both event orders, --improve; the JSON names scripts use.
P="$HERE/data/pcst/er_m1e3_dense.txt.gz"
for args in "--pruning gw --fast-order" "--pruning gw" "--pruning strong --reference-order --improve"; do
  "$GRAPPI" pcst --instance "$P" $args --json
done > "$T/pcst.jsonl"
python3 - "$T/pcst.jsonl" <<'PY'
import json, sys
fast, ref, imp = [json.loads(l) for l in open(sys.argv[1])]
for r in (fast, ref, imp):
    assert set(r) >= {"objective", "net_worth", "nodes", "edges", "solve_seconds"}, r.keys()
    assert len(r["nodes"]) == r["num_nodes"] and r["nodes"] == sorted(r["nodes"])
assert (fast["reference_order"], ref["reference_order"]) == (False, True)
assert (fast["event_order"], ref["event_order"], imp["event_order"]) == ("fast", "reference", "reference")
assert ref["objective"] == 5205, ref["objective"]      # pcst_fast's figure for this instance (gw): the default
assert fast["objective"] == 5197, fast["objective"]    # the fast order's tree
assert imp["objective_before_improve"] == 4704        # pcst_fast's strong figure
assert imp["objective"] <= 4704 and imp["improve"] and imp["optimal"] is False  # (333 prized nodes: no proof)
assert imp["objective"] >= 4661                      # the instance's proven optimum
PY
# One tree over 8 prized nodes (G-Retriever's question graph): solved exactly, and said so.
"$GRAPPI" pcst --instance "$HERE/data/pcst/kg_m1e3_gr.txt.gz" --pruning strong --improve > "$T/pcst-exact.txt"
grep -q "^objective 5.5$" "$T/pcst-exact.txt" && grep -q "optimal: proven" "$T/pcst-exact.txt" \
  || fail "pcst --improve on kg_m1e3_gr: $(cat "$T/pcst-exact.txt")"
"$GRAPPI" pcst --instance "$P" --fast-order --reference-order 2> /dev/null && fail "pcst accepted both orders"
"$GRAPPI" pcst --instance "$P" --pruning best 2> "$T/err" && fail "pcst accepted an unknown pruning"
grep -q "unknown pruning" "$T/err" || fail "pcst error message"
;;

explore)
# explore: the main job, extractive (offline) and over HTTP against a loopback server.
"$GRAPPI" explore --db "$H" --protein MAPT --query "inhibit tau phosphorylation" --k 10,2 --top 5 \
  --json "$T/ex.json" --report "$T/ex.md" --cx2 "$T/ex.cx2" > "$T/ex.txt" 2> "$T/ex.err"
grep -q "extractive" "$T/ex.txt" || fail "explore summary"
schema_check explore "$T/ex.json"
grep -q "^# grappi explore: MAPT" "$T/ex.md" || fail "explore report"
python3 - "$T/ex.json" "$T/ex.cx2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["query"] == "inhibit tau phosphorylation" and j["root"]["name"] == "MAPT"
assert len(j["paths"]) == 5
for i, p in enumerate(j["paths"]):
    assert p["rank"] == i + 1 and p["proteins"][0] == "MAPT" and 0 <= p["relevance_score"] <= 100
    assert p["explanation"].startswith("Extractive summary")
    assert len(p["edges"]) == len(p["proteins"]) - 1
    for e in p["edges"]:
        assert {"source", "target", "score", "explanation"} <= set(e)
u = j["usage"]
for k in ["model_calls", "cache_hits", "prompt_tokens", "completion_tokens", "paths_explained", "edges_explained"]:
    assert k in u, k
assert u["edges_explained"] == u["distinct_edges"] and u["paths_explained"] == u["selected_paths"]
# (the default budget of 300 requests: the best candidates by the prior whose paths and edges fit, a note saying so)
assert u["paths_explained"] + u["distinct_edges"] <= 300 and u["selected_paths"] < u["candidate_paths"]
assert any(n.startswith("explained the best %d of %d candidate paths" % (u["selected_paths"], u["candidate_paths"]))
           for n in j["notes"]), j["notes"]
cx = json.load(open(sys.argv[2]))
assert cx[0]["CXVersion"] == "2.0" and "status" in cx[-1]
PY
# --json to a disk that fills (a 40 KiB file-size limit, SIGXFSZ ignored; the JSON is larger):
# exit 1, and the file that was there stays as it was, with no part file left.
echo '{"previous": true}' > "$T/kept.json"
rc=$(status_of bash -c 'trap "" XFSZ; ulimit -f 40; exec "$0" explore --db "$1" --protein MAPT --query "inhibit tau phosphorylation" --k 10,2 --top 5 --json "$2" --quiet' \
  "$GRAPPI" "$H" "$T/kept.json")
[ "$rc" -eq 1 ] && grep -q "cannot write '$T/kept.json'" "$T/err" && [ "$(cat "$T/kept.json")" = '{"previous": true}' ] \
  && ! compgen -G "$T/kept.json.part*" > /dev/null || fail "--json to a full disk exited $rc: $(cat "$T/err"); left: $(ls "$T"/kept.json* 2>&1)"
"$GRAPPI" explore --db "$H" --protein MAPT --query "inhibit tau phosphorylation" --k 10,2 --dry-run 2> "$T/dry.err" > /dev/null
grep -q "^dry run: 0 model calls (the extractive model is not a language model" "$T/dry.err" || fail "extractive dry run line"
printf 'Edge {{source}} {{colour}}\n' > "$T/bad.tpl"
set +e
"$GRAPPI" explore --db "$H" --protein MAPT --query q --edge-template "$T/bad.tpl" 2> "$T/err"; rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "colour" "$T/err" || fail "bad template must fail with exit 2"
set +e
"$GRAPPI" explore --db "$H" --protein MAPT --query q --llm openai 2> "$T/err"; rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q -- "--model" "$T/err" || fail "openai without --model"
# A server URL that cannot be asked is a bad argument before any work, its password never shown.
for url in "file:///etc/passwd" "http://user:hunter2@local host/v1"; do
  rc=$(status_of "$GRAPPI" explore --db "$H" --protein MAPT --query q --llm openai --model m --base-url "$url")
  [ "$rc" -eq 2 ] && grep -q "server URL" "$T/err" && ! grep -q hunter2 "$T/err" || fail "--base-url $url: $rc $(cat "$T/err")"
done
;;

explore-http)  # writes the response cache: a private copy
cp "$H" "$T/h.db"
H="$T/h.db"
# A loopback OpenAI-compatible server counting requests.
cat > "$T/server.py" <<'PY'
import http.server, json, sys, threading
count = {"n": 0}
lock = threading.Lock()
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with lock:
            count["n"] += 1
            open(sys.argv[1], "w").write(str(count["n"]))
        text = body["messages"][-1]["content"]
        if "Pathway (" in text:
            content = json.dumps({"explanation": "served", "relevance_score": 60 + text.count("->")})
        else:
            content = "edge served"
        out = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                          "finish_reason": "stop"}], "usage": {"prompt_tokens": 11, "completion_tokens": 3}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(srv.server_address[1], flush=True)
srv.serve_forever()
PY
python3 "$T/server.py" "$T/count" > "$T/port" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq 50); do [ -s "$T/port" ] && break; sleep 0.1; done
PORT=$(cat "$T/port")
# More than 500 model calls are refused unless --yes or --max-calls (nothing sent): every candidate explained
# (--explain-budget 0); the default budget (300 requests) needs no --yes.
rc=$(status_of "$GRAPPI" explore --db "$H" --protein MAPT --query "inhibit tau phosphorylation" --k 5,2 --max-len 3 \
  --explain-budget 0 --llm openai --base-url "http://127.0.0.1:$PORT/v1" --model test)
[ "$rc" -eq 2 ] && grep -q "this run would make [0-9]* model calls" "$T/err" && [ ! -e "$T/count" ] \
  || fail "a run of more than 500 calls without --yes exited $rc: $(cat "$T/err")"
"$GRAPPI" explore --db "$H" --protein MAPT --query "inhibit tau phosphorylation" --k 5,2 --max-len 3 \
  --llm openai --base-url "http://127.0.0.1:$PORT/v1" --model test --json "$T/h1.json" --quiet 2> /dev/null
schema_check explore "$T/h1.json"
python3 - "$T/h1.json" "$T/count" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
u = j["usage"]
n = int(open(sys.argv[2]).read())
assert u["model_calls"] == n == u["distinct_edges"] + u["selected_paths"], (u, n)
assert u["prompt_tokens"] == 11 * n and j["paths"][0]["explanation"] == "served"
assert j["paths"][0]["relevance_score"] >= j["paths"][-1]["relevance_score"]
PY
before=$(cat "$T/count")
"$GRAPPI" explore --db "$H" --protein MAPT --query "tau phosphorylation kinase" --k 5,2 --max-len 3 --dry-run \
  --llm openai --base-url "http://127.0.0.1:$PORT/v1" --model test 2> "$T/dry.err" > /dev/null
grep -q "^dry run: [1-9][0-9]* model calls, about [0-9]* prompt tokens" "$T/dry.err" || fail "dry run line: $(cat "$T/dry.err")"
[ "$(cat "$T/count")" = "$before" ] || fail "a dry run must make no HTTP calls"
"$GRAPPI" explore --db "$H" --protein MAPT --query "inhibit tau phosphorylation" --k 5,2 --max-len 3 \
  --llm openai --base-url "http://127.0.0.1:$PORT/v1" --model test --json - 2> /dev/null | python3 -c '
import json, sys
u = json.load(sys.stdin)["usage"]
assert u["model_calls"] == 0 and u["cache_hits"] > 0, u'
[ "$(cat "$T/count")" = "$before" ] || fail "second run must make no HTTP calls"
"$GRAPPI" explore --db "$H" --protein MAPT --query "inhibit tau phosphorylation" --k 5,2 --max-len 3 --no-cache \
  --llm openai --base-url "http://127.0.0.1:$PORT/v1" --model test --max-calls 3 --json - 2> "$T/err" | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["partial"] is True and j["usage"]["model_calls"] == 3, j["usage"]'
grep -q "partial result" "$T/err" || fail "partial result must be reported"
# The model server down: every request fails, the run fails (exit 1) and says why.
kill $SERVER; wait $SERVER 2> /dev/null || true
trap 'rm -rf "$T"' EXIT
rc=$(status_of "$GRAPPI" explore --db "$H" --protein MAPT --query "inhibit tau phosphorylation" --k 5,2 --max-len 3 \
  --no-cache --llm openai --base-url "http://127.0.0.1:$PORT/v1" --model test --retries 0 --explain-top 3)
[ "$rc" -eq 1 ] && grep -q "every model request failed" "$T/err" || fail "explore with the server down exited $rc: $(cat "$T/err")"
;;

suggestions)  # every command: an unknown option or command word named, with the nearest known ones, exit 2
python3 "$HERE/check_cli_suggestions.py" "$GRAPPI" > "$T/suggestions.txt" || fail "suggestions: $(cat "$T/suggestions.txt")"
# A command of one protein takes it positionally or after --protein: the same output.
for cmd in "neighbors --limit 5" "window --k 5,2" "explore --query growth --top 3 --windows 1 --k 5,2"; do
  # shellcheck disable=SC2086
  "$GRAPPI" $cmd --db "$Y" CDC28 > "$T/positional.txt" || fail "$cmd with the protein positionally"
  # shellcheck disable=SC2086
  "$GRAPPI" $cmd --db "$Y" --protein CDC28 > "$T/flag.txt" || fail "$cmd with --protein"
  cmp -s "$T/positional.txt" "$T/flag.txt" || fail "$cmd: positionally and with --protein differ"
  grep -q CDC28 "$T/flag.txt" || fail "$cmd: no CDC28 in $(head -3 "$T/flag.txt")"
done
;;
exit-codes)  # 0 success; 2 a bad argument or a name that does not resolve; 1 a failure of the work
# serve: a port another grappi serve listens on is refused (exit 1), never shared between them.
"$GRAPPI" serve --db "$Y" --port 0 > "$T/serve1.txt" 2>&1 &
S1=$!
for _ in $(seq 100); do grep -q "listening on" "$T/serve1.txt" && break; sleep 0.1; done
PORT=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$T/serve1.txt")
[ -n "$PORT" ] || fail "serve did not start: $(cat "$T/serve1.txt")"
rc=$(status_of timeout 20 "$GRAPPI" serve --db "$Y" --port "$PORT")
kill -INT "$S1"; wait "$S1" || true
[ "$rc" -eq 1 ] && grep -q "cannot listen on 127.0.0.1:$PORT" "$T/err" || fail "a second serve on port $PORT exited $rc: $(cat "$T/err")"
# Writers wait for each other (the busy timeout, the write lock taken first): three imports at once into a new
# file, then three at once into the existing one; every one exits 0 and nothing is lost.
for round in new existing; do
  files=(4932.protein.info.v12.0.txt.gz export_v12_nsclc/string_interactions.tsv export_v12_alzheimer/string_interactions.tsv)
  [ "$round" = existing ] && files=(bel/pybel_test_bel.bel cx2/glypican2.cx2 cx2/small_network_with_styles.cx2)
  pids=()
  for f in "${files[@]}"; do
    "$GRAPPI" import --db "$T/writers.db" "$DATA/$f" > "$T/writer-$round-${#pids[@]}.txt" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || fail "writer $i ($round file) failed: $(cat "$T/writer-$round-$i.txt")"
  done
done
"$GRAPPI" info --db "$T/writers.db" --json | python3 -c 'import json, sys; j = json.load(sys.stdin); assert len(j["datasets"]) == 6 and j["nodes"] > 6000, j' \
  || fail "the writers' database"
[ "$(status_of "$GRAPPI" --help)" -eq 0 ] || fail "--help"
[ "$(status_of "$GRAPPI" --version)" -eq 0 ] || fail "--version"
for args in "neighbors --db $Y NO_SUCH_PROTEIN" "paths --db $Y --from CDC28 --to NO_SUCH_PROTEIN" \
            "window --db $Y --protein NO_SUCH_PROTEIN" "pagerank --db $Y --seed NO_SUCH_PROTEIN" \
            "explore --db $Y --protein NO_SUCH_PROTEIN --query q" "resolve --db $Y NO_SUCH_PROTEIN" \
            "resolve --db $Y NO_SUCH_PROTEIN --json"; do
  # shellcheck disable=SC2086
  rc=$(status_of "$GRAPPI" $args)
  [ "$rc" -eq 2 ] || fail "unresolved name: $args exited $rc"
  grep -q "NO_SUCH_PROTEIN" "$T/err" || [ "${args%--json}" != "$args" ] || fail "the message names the name: $args"
done
for args in "neighbors --db $Y" "neighbors --db $Y CDC28 --limit many" "window --db $Y --protein CDC28 --bogus" \
            "nosuchcommand" "window --db $Y --protein CDC28 --window 0" "explore --db $Y --protein CDC28 --query q --k 0" \
            "import --db $T/new.db" "neighbors --db $T/missing.db CDC28"; do
  # shellcheck disable=SC2086
  rc=$(status_of "$GRAPPI" $args)
  [ "$rc" -eq 2 ] || fail "bad argument: $args exited $rc"
  [ "$(wc -l < "$T/err")" -ge 1 ] || fail "no message: $args"
done
[ ! -e "$T/missing.db" ] || fail "a command other than import created a database"
# Bad input is named, never accepted silently: each case, its exit status and a word of its message.
while IFS='|' read -r args word; do
  # shellcheck disable=SC2086
  rc=$(status_of "$GRAPPI" $args)
  [ "$rc" -eq 2 ] || fail "$args exited $rc"
  grep -q -- "$word" "$T/err" || fail "$args: the message lacks '$word': $(cat "$T/err")"
done <<EOF_CASES
neighbors --db $Y CDC28 --relation string.phsyical|string.physical
neighbors --db $Y CDC28 --min-score 1.5|whole number
neighbors --db $Y CDC28 --min-score 1001|0-1000
window --db $Y --protein CDC28 --window 0|--window
paths --db $Y --from CDC28 --to CLB2 --k 0|k must be
paths --db $Y --from CDC28 --to CLB2 --max-len 0|maximum length
paths --db $Y --from CDC28 --to CLB2 --all-shortest --weighted|by hops
search --db $H the|no usable terms
explore --db $Y --protein CDC28 --query q --diversity 2|--diversity
explore --db $Y --protein CDC28 --query q --diversity 0.2 --no-diversity|excludes
paths --db $Y --from CDC28 --to CLB2 --k -1|not negative
paths --db $Y --from CDC28 --to CLB2 --k 20000|k must be 1 to 10000
khop --db $H --question kinase --hops -1|not negative
retrieve --db $H --question kinase --hops -1 --node-budget 0|not negative
explore --db $Y --protein CDC28 --query q --max-paths -1|not negative
explore --db $Y --protein CDC28 --query q --max-len 100|max_length must be 1 to 12
window --db $H --protein MAPT --query kinase --query-weight nan|finite
neighbors --db $Y CDC28 --min-score nan|finite
pagerank --db $Y --damping inf|finite
EOF_CASES
# A file read whole is capped once decompressed (GRAPPI_MAX_FILE_BYTES; 1 GiB by default): 10 MB
# of CX2 in a gzip file of a few KB stops at the cap, before it fills the memory.
{ echo "["; head -c 10000000 /dev/zero | tr '\0' ' ' | fold -w 100; echo "]"; } | gzip > "$T/bomb.cx2.gz"
rc=$(status_of env GRAPPI_MAX_FILE_BYTES=1000000 "$GRAPPI" import --db "$T/bomb.db" --cx2 "$T/bomb.cx2.gz")
[ "$rc" -eq 2 ] && grep -q "more than 1000000 bytes once decompressed.*GRAPPI_MAX_FILE_BYTES" "$T/err" ||
  fail "a CX2 file over the cap: exit $rc: $(cat "$T/err")"
[ ! -e "$T/bomb.db" ] || fail "the refused import left a database"
# BEL is read line by line, whatever the cap: the same 10 MB as BEL lines is refused at its first
# line (not a statement), the cap never reached.
head -c 10000000 /dev/zero | tr '\0' 'a' | fold -w 100 | gzip > "$T/bomb.bel.gz"
rc=$(status_of env GRAPPI_MAX_FILE_BYTES=1000000 "$GRAPPI" import --db "$T/bomb.db" --bel "$T/bomb.bel.gz")
[ "$rc" -eq 1 ] && grep -q "bomb.bel.gz:1:" "$T/err" && ! grep -q "once decompressed" "$T/err" ||
  fail "a BEL file of 10 MB of non-statements: exit $rc: $(cat "$T/err")"
[ ! -e "$T/bomb.db" ] || fail "the refused import left a database"
rc=$(status_of env GRAPPI_MAX_FILE_BYTES=1000000 "$GRAPPI" import --db "$T/bomb.db" --cx2 "$DATA/cx2/glypican2.cx2")
[ "$rc" -eq 0 ] || fail "a CX2 file under the cap: exit $rc: $(cat "$T/err")"
# A k-hop expansion stops when nothing new is reached, however many hops are asked.
timeout 60 "$GRAPPI" khop --db "$H" --question "tau kinase" --hops 100000000 > /dev/null || fail "khop --hops 1e8 did not finish"
# Reading commands open the database read-only: a read-only file reads, and a writer holding the
# lock does not keep them waiting.
mkdir "$T/ro" && cp "$Y" "$T/ro/y.db" && chmod 444 "$T/ro/y.db" && chmod 555 "$T/ro"
"$GRAPPI" neighbors --db "$T/ro/y.db" CDC28 --limit 2 > /dev/null 2> "$T/err" || fail "a read-only database: $(cat "$T/err")"
"$GRAPPI" info --db "$T/ro/y.db" --json > /dev/null || fail "info on a read-only database"
chmod 755 "$T/ro"
cp "$Y" "$T/locked.db"
python3 - "$GRAPPI" "$T/locked.db" <<'PY'
import sqlite3, subprocess, sys, time
c = sqlite3.connect(sys.argv[2], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
c.execute("UPDATE meta SET value = value WHERE key = 'generation'")
for args in (["info", "--json"], ["neighbors", "CDC28", "--limit", "3"], ["paths", "--from", "CDC28", "--to", "CLB2", "--k", "2"]):
    t = time.time()
    r = subprocess.run([sys.argv[1], args[0], "--db", sys.argv[2]] + args[1:], capture_output=True, text=True)
    assert r.returncode == 0 and time.time() - t < 10, (args, r.returncode, r.stderr[:200], time.time() - t)
c.execute("ROLLBACK")
PY
# Output that cannot be written is a failure, not a silent success.
if [ -w /dev/full ]; then
  for args in "neighbors --db $Y CDC28" "neighbors --db $Y CDC28 --json" "info --db $Y --json"; do
    set +e
    # shellcheck disable=SC2086
    "$GRAPPI" $args > /dev/full 2> "$T/err"
    rc=$?
    set -e
    [ "$rc" -eq 1 ] && grep -q "cannot write" "$T/err" || fail "$args to /dev/full exited $rc: $(cat "$T/err")"
  done
fi
# --min-score: 1 is 1.0 and 700 is 0.7.
"$GRAPPI" neighbors --db "$Y" CDC28 --min-score 1 | grep -q "^CDC28 (4932.YBR160W): 0 neighbor(s) shown" || fail "--min-score 1 means 1.0"
[ "$("$GRAPPI" neighbors --db "$Y" CDC28 --min-score 700 --json)" = "$("$GRAPPI" neighbors --db "$Y" CDC28 --min-score 0.7 --json)" ] ||
  fail "--min-score 700 and 0.7 differ"
# Empty results say why: a window past the root's neighbors, a protein without edges.
"$GRAPPI" window --db "$Y" --protein CDC28 --window 40 > /dev/null 2> "$T/err"
grep -q "window 40: CDC28 has [0-9]* neighbors; window 40 starts at rank 1171 (k = 30), so it holds CDC28 alone" "$T/err" ||
  fail "window note: $(cat "$T/err")"
# Q0010 has no physical interaction in STRING v12 (one of 675 yeast proteins without one).
"$GRAPPI" explore --db "$Y" --protein Q0010 --query "cell cycle" --json "$T/lonely.json" --quiet 2> "$T/err"
grep -q "note: window 1: Q0010 has no neighbors" "$T/err" || fail "explore note: $(cat "$T/err")"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["paths"] == [] and any("no neighbors" in n for n in j["notes"]), j["notes"]' "$T/lonely.json"
# A file name that is not UTF-8 is stored as given and written as valid JSON (U+FFFD) by every output.
BADNAME="$T/intact-$(printf '\377\376').mitab27.tsv.gz"
cp "$DATA/intact/intact_sample.mitab27.tsv.gz" "$BADNAME"
"$GRAPPI" import --db "$T/u.db" "$BADNAME" --json > "$T/u-import.json" 2> "$T/err" || fail "import of a non-UTF-8 name: $(cat "$T/err")"
"$GRAPPI" info --db "$T/u.db" --json > "$T/u-info.json" || fail "info --json on it"
python3 - "$T/u-import.json" "$T/u-info.json" <<'PY'
import json, sys
for p in sys.argv[1:]:
    text = open(p, encoding="utf-8").read()  # valid UTF-8, or this raises
    assert "\ufffd" in json.dumps(json.loads(text), ensure_ascii=False), p
PY
# A name holding a terminal escape sequence is shown, not obeyed, in a table.
printf 'a\tb\n\033[31mRED\033[0m\tPLAIN\n' > "$T/esc.tsv"
"$GRAPPI" import --db "$T/esc.db" --edges "$T/esc.tsv" > /dev/null
"$GRAPPI" neighbors --db "$T/esc.db" PLAIN > "$T/esc.txt"
grep -q "RED" "$T/esc.txt" && ! grep -q "$(printf '\033')" "$T/esc.txt" || fail "an escape sequence reached the terminal: $(cat -v "$T/esc.txt")"
printf 'not a database, just text\n' > "$T/text.db"
rc=$(status_of "$GRAPPI" info --db "$T/text.db")
[ "$rc" -eq 2 ] && grep -q "it looks like text beginning .not a database, just text." "$T/err" || fail "a file that is not a database exited $rc: $(cat "$T/err")"
# Resource limits (docs/cli.md "Limits"): a window of depth 100 stops where nothing new is reached
# (the same window as depth 40: its deepest node is at depth 8); a single line of 100 MB (a
# gzip of 100 KB) is refused at 16 MiB naming its line, the database unchanged.
"$GRAPPI" window --db "$Y" --protein CDC28 --k 5 --depth 100 --json > "$T/w100.json" || fail "a window of depth 100"
"$GRAPPI" window --db "$Y" --protein CDC28 --k 5 --depth 40 --json > "$T/w40.json"
python3 - "$T/w100.json" "$T/w40.json" <<'PY' || fail "the window of depth 100"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a == b, "depth 100 and depth 40 differ"
assert 1000 < len(a["nodes"]) and max(n["depth"] for n in a["nodes"]) < 40, max(n["depth"] for n in a["nodes"])
PY
python3 -c 'import gzip, sys; gzip.open(sys.argv[1], "wb").write(b"protein1 protein2 combined_score\n4932.YBR160W 4932.YPR120C " + b"9" * (100 << 20) + b"\n")' "$T/longline.txt.gz"
cp "$Y" "$T/ll.db"
before_ll=$("$GRAPPI" info --db "$T/ll.db" --json)
rc=$(status_of "$GRAPPI" import --db "$T/ll.db" --links "$T/longline.txt.gz")
[ "$rc" -eq 1 ] || fail "a 100 MB line exited $rc"
grep -q "longline.txt.gz:2: line longer than 16 MiB" "$T/err" || fail "a 100 MB line: $(cat "$T/err")"
[ "$("$GRAPPI" info --db "$T/ll.db" --json)" = "$before_ll" ] || fail "a refused 100 MB line changed the database"
;;

ontology)  # its own database: PSI-MI and the GO slim, detected from their headers
O="$T/o.db"
"$GRAPPI" import --db "$O" "$DATA/ontology/psi-mi.obo" --obo "$DATA/ontology/goslim_generic.obo" --json > "$T/import.json"
python3 - "$T/import.json" <<'PY'
import json, sys
files = json.load(open(sys.argv[1]))["files"]
assert [f["format"] for f in files] == ["obo", "obo"], files
go, mi = files  # named formats before detected ones
assert mi["details"]["terms"] == 1652 and mi["details"]["obsolete_terms"] == 178, mi
assert go["details"]["terms"] == 141 and go["details"]["typedefs"] == 11, go
PY
"$GRAPPI" ontology --db "$O" --root MI:0190 --json > "$T/sub.json"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); d=j["descendants"]; assert len(d)==145 and max(t["distance"] for t in d)==9, len(d)' "$T/sub.json"
"$GRAPPI" ontology --db "$O" "direct interaction" --ancestors | grep -Eq "^MI:0915 +physical association +1 *$" || fail "ancestors"
"$GRAPPI" ontology --db "$O" MI:0407 --root MI:0190 | grep -q "depth under MI:0190: 4" || fail "depth"
"$GRAPPI" ontology --db "$O" MI:0407 --lca MI:0403 --json |
  python3 -c 'import json,sys; j=json.load(sys.stdin); assert [t["external_id"] for t in j["lowest_common_ancestors"]]==["MI:0190"] and j["distance"]==5, j'
"$GRAPPI" ontology --db "$O" GO:0000228 --parents --relation obo.is_a --relation obo.part_of | grep -q "GO:0005634" || fail "part_of parent"
for args in "ontology --db $O MI:99999" "ontology --db $O MI:0407 --relation obo.part-of" "ontology --db $O MI:0407 --parents --children" "ontology --db $O --ancestors"; do
  # shellcheck disable=SC2086
  rc=$(status_of "$GRAPPI" $args)
  [ "$rc" -eq 2 ] || fail "$args exited $rc"
done
printf 'format-version: 1.2\n\n[Term]\nid: T:1\ndef: "unterminated\n' > "$T/bad.obo"
rc=$(status_of "$GRAPPI" import --db "$O" "$T/bad.obo")
[ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || fail "bad OBO exited $rc"
grep -q "bad.obo:5: unterminated quoted text" "$T/err" || fail "bad OBO message: $(cat "$T/err")"
;;

ground)  # PSI-MI grounding with the offline model on BioInfer abstracts and a yeast sentence
G="$T/g.db"
LIT="$HERE/data/literature"
"$GRAPPI" import --db "$G" --info "$DATA/4932.protein.info.v12.0.txt.gz" --obo "$DATA/ontology/psi-mi.obo" > /dev/null
out=$("$GRAPPI" ground --db "$G" --text "$LIT/BioInfer.d403.PMID11418599.txt" --pair TESK2,cofilin --strategy stuff)
echo "$out" | grep -q "^TESK2 - cofilin (stuff): MI:0217 phosphorylation reaction, score" || fail "ground: $out"
# A protein neither in the database nor in the text (a typo) stops the run with suggestions.
rc=$(status_of "$GRAPPI" ground --db "$G" --text "$LIT/BioInfer.d403.PMID11418599.txt" --pair TESK22,cofilin --strategy stuff)
[ "$rc" -eq 2 ] && grep -q "'TESK22' is neither a protein of the database nor written in" "$T/err" && grep -q "did you mean" "$T/err" \
  || fail "ground with a misspelt protein exited $rc: $(cat "$T/err")"
echo "$out" | grep -q "not a language model" || fail "the offline model must say so: $out"
echo "$out" | grep -q "quote: Like TESK1, TESK2 phosphorylated cofilin" || fail "quote: $out"
printf 'We show that Cdc28 phosphorylates Sic1 in vitro.\n\nSic1 binds Cdc28 directly in a two-hybrid assay.\n' > "$T/yeast.txt"
"$GRAPPI" ground --db "$G" --text "$T/yeast.txt" --pair CDC28,SIC1 --strategy all > "$T/all.txt"
for s in bfs dfs dynamic pagerank random rag stuff; do grep -q "^$s " "$T/all.txt" || fail "no $s row: $(cat "$T/all.txt")"; done
# With a language model, seven strategies could take more than 500 calls: refused before any
# (the port answers nothing), unless --yes or --max-calls; --dry-run shows the bound.
rc=$(status_of "$GRAPPI" ground --db "$G" --text "$T/yeast.txt" --pair CDC28,SIC1 --strategy all \
  --llm openai --base-url "http://127.0.0.1:9/v1" --model test)
[ "$rc" -eq 2 ] && grep -q "ground: this run could make 7[0-9][0-9] model calls (1 pair(s) x 7 strateg" "$T/err" \
  || fail "ground over 500 calls without --yes exited $rc: $(cat "$T/err")"
"$GRAPPI" ground --db "$G" --text "$T/yeast.txt" --pair CDC28,SIC1 --strategy all --dry-run \
  --llm openai --base-url "http://127.0.0.1:9/v1" --model test | grep -q "^dry run: at most 7[0-9][0-9] model calls" \
  || fail "ground's dry run does not show the bound"
"$GRAPPI" ground --db "$G" --text "$T/yeast.txt" --pair CDC28,SIC1 --strategy bfs --batch 4 --json - --html "$T/one.html" > "$T/one.json"
schema_check ground "$T/one.json"
view_of "$T/one.html" > "$T/one.view"
python3 - "$T/one.json" "$T/one.view" <<'PY'
import json, sys
r, v = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert v["kind"] == "ground" and len(v["items"]) == len(r["trace"]["visits"]), (len(v["items"]), len(r["trace"]["visits"]))
chosen = [n for n in v["nodes"] if n["role"] == "answer"]
assert len(chosen) == 1 and chosen[0]["external_id"] == r["term"]["id"], chosen
assert [n["role"] for n in v["nodes"] if n["external_id"] == "MI:0190"] == ["root"]
assert v["edges"] and all(e["relation"].startswith("obo.") for e in v["edges"]), v["edges"][:2]
assert v["sections"][0]["entries"] and all(e["status"] == "supported" for e in v["sections"][0]["entries"])
PY
# Strategies side by side in one report: one item per strategy, as given, each one's term an answer.
"$GRAPPI" ground --db "$G" --text "$T/yeast.txt" --pair CDC28,SIC1 --strategy stuff,bfs,pagerank --json "$T/three.json" \
  --html "$T/three.html" > "$T/three.txt"
view_of "$T/three.html" > "$T/three.view"
python3 - "$T/three.json" "$T/three.view" <<'PY'
import json, sys
r, v = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert [x["strategy"] for x in r] == ["stuff", "bfs", "pagerank"], [x["strategy"] for x in r]
assert v["kind"] == "ground" and [i["title"].split(":")[0] for i in v["items"]] == ["stuff", "bfs", "pagerank"], v["items"]
answers = {n["external_id"] for n in v["nodes"] if n["role"] == "answer"}
assert answers == {x["term"]["id"] for x in r}, (answers, [x["term"]["id"] for x in r])
for item, x in zip(v["items"], r):
    assert item["title"] == x["strategy"] + ": " + x["term"]["id"] + " " + x["term"]["name"], item["title"]
    assert item["score"] == x["score"] and item["nodes"][0] == [n["id"] for n in v["nodes"] if n["external_id"] == x["term"]["id"]][0]
visited = {t["id"] for x in r for t in x["trace"]["visits"]}
assert visited <= {n["external_id"] for n in v["nodes"]}, visited
assert "3 strategies side by side" in v["subtitle"] and v["provenance"]["strategies"] == ["stuff", "bfs", "pagerank"], v["subtitle"]
PY
grep -q "^stuff " "$T/three.txt" && grep -q "^pagerank " "$T/three.txt" || fail "three strategies' table: $(cat "$T/three.txt")"
rc=$(status_of "$GRAPPI" ground --db "$G" --text "$T/yeast.txt" --pair CDC28,SIC1 --strategy bfs,stuff,bfs)
[ "$rc" -eq 2 ] && grep -q "names bfs twice" "$T/err" || fail "a strategy twice: rc $rc $(cat "$T/err")"
rc=$(status_of "$GRAPPI" ground --db "$G" --text "$T/yeast.txt" --pair CDC28,SIC1 --strategy bfs,walk)
[ "$rc" -eq 2 ] && grep -q "unknown grounding strategy 'walk'" "$T/err" || fail "an unknown strategy: rc $rc $(cat "$T/err")"
printf 'CDC28\tSIC1\nSIC1\tCDC28\n' > "$T/two_pairs.tsv"
rc=$(status_of "$GRAPPI" ground --db "$G" --text "$T/yeast.txt" --pairs "$T/two_pairs.tsv" --html "$T/two.html")
[ "$rc" -eq 2 ] && grep -q "give one --pair" "$T/err" || fail "--html with many pairs: rc $rc $(cat "$T/err")"
python3 - "$T/one.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["strategy"] == "bfs" and r["root"] == "MI:0190" and r["candidates"] == 146, r
assert r["term"]["id"].startswith("MI:") and r["offline"] is True, r
assert "CDC28" in r["names_a"] and r["trace"]["visits"][0]["id"] == "MI:0190", r["trace"]
assert all(q["in_text"] for q in r["quotes"]) and len(r["quotes"]) == 2, r["quotes"]
assert r["usage"]["model_calls"] == 0 and r["usage"]["summary"]["local_answers"] == 1, r["usage"]
PY
# FILE<TAB>A<TAB>B lines: a relative FILE is read beside the pairs file.
mkdir "$T/papers" && cp "$LIT/BioInfer.d403.PMID11418599.txt" "$LIT/BioInfer.d499.PMID10613909.txt" "$T/papers/"
printf 'BioInfer.d403.PMID11418599.txt\tTESK2\tcofilin\n# a comment\nBioInfer.d499.PMID10613909.txt\tcofilin\tactin\n' > "$T/papers/pairs.tsv"
"$GRAPPI" ground --db "$G" --pairs "$T/papers/pairs.tsv" --concurrency 2 --json "$T/pairs.json" --quiet
schema_check ground --each "$T/pairs.json"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert [r["protein_b"] for r in j]==["cofilin","actin"] and all(r["term"] for r in j), j' "$T/pairs.json"
"$GRAPPI" ground --db "$G" --text "$T/yeast.txt" --pair CDC28,SIC1 --dry-run | grep -q "dry run: at most 148 model calls" || fail "dry run"
rc=$(status_of "$GRAPPI" ground --db "$G" --text "$T/yeast.txt" --pair CDC28)
[ "$rc" -eq 2 ] && grep -q "a pair is two proteins separated by a comma" "$T/err" || fail "one protein exited $rc: $(cat "$T/err")"
rc=$(status_of "$GRAPPI" ground --db "$G" --text "$T/yeast.txt" --pair CDC28,SIC1 --root MI:9999)
[ "$rc" -eq 2 ] && grep -q "the root 'MI:9999' is not in the database" "$T/err" || fail "unknown root exited $rc: $(cat "$T/err")"
rc=$(status_of "$GRAPPI" ground --db "$G" --text "$T/missing.txt" --pair CDC28,SIC1)
[ "$rc" -eq 1 ] && grep -q "cannot read the text file" "$T/err" || fail "missing text exited $rc"
# The evaluation against IntAct-style rows: the offline model finds the curated type.
printf 'uniprotkb:Q96S53\tuniprotkb:P23528\t-\t-\tuniprotkb:TESK2(gene name)\tuniprotkb:cofilin(gene name)\tpsi-mi:"MI:0424"(protein kinase assay)\t-\tpubmed:11418599\ttaxid:9606\ttaxid:9606\tpsi-mi:"MI:0217"(phosphorylation reaction)\tpsi-mi:"MI:0469"(IntAct)\tintact:EBI-1\tintact-miscore:0.56\n' > "$T/gold.mitab"
"$GRAPPI" eval grounding --db "$G" --gold "$T/gold.mitab" --texts "$LIT" --strategy stuff --json "$T/eval.json" > "$T/eval.txt"
schema_check eval-grounding "$T/eval.json"
grep -q "gold: 1 pairs in papers (0 rows without a PubMed id or type), 1 with a text, 0 without" "$T/eval.txt" || fail "eval: $(cat "$T/eval.txt")"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); f=j["figures"][0]; assert f["strategy"]=="stuff" and f["exact"]==1 and j["cases"][0]["predicted"]=="MI:0217", j' "$T/eval.json"
"$GRAPPI" eval grounding --db "$G" --gold "$T/gold.mitab" --texts "$LIT" --strategy dynamic --judge extractive > "$T/judged.txt"
grep -q "overlap more/same/less" "$T/judged.txt" && grep -q "no judgement of which term is right" "$T/judged.txt" \
  || fail "judged eval: $(cat "$T/judged.txt")"
grep -q "^most frequent term" "$T/eval.txt" || fail "eval: the baseline row: $(cat "$T/eval.txt")"
rc=$(status_of "$GRAPPI" eval grounding --db "$G" --gold "$T/gold.mitab" --texts "$LIT/BioRED.Test.first3.PubTator")
[ "$rc" -eq 1 ] && grep -q "none of the 1 gold case(s) has a text" "$T/err" || fail "eval with no text for any pair exited $rc: $(cat "$T/err")"
rc=$(status_of "$GRAPPI" eval grounding --db "$G" --gold "$T/gold.mitab" --texts "$T/nowhere")
[ "$rc" -eq 1 ] && grep -q "is neither a directory nor a file" "$T/err" || fail "eval without texts exited $rc"
# A corpus file: one of its documents by PubMed id; without --document, the choice is asked for.
out=$("$GRAPPI" ground --db "$G" --text "$LIT/BioRED.Test.first3.PubTator" --document 15485686 --pair SCN5A,LQTS --strategy stuff)
echo "$out" | grep -q "^SCN5A - LQTS (stuff): MI:" || fail "ground in a PubTator document: $out"
rc=$(status_of "$GRAPPI" ground --db "$G" --text "$LIT/BioRED.Test.first3.BioC.xml" --pair SCN5A,LQTS)
[ "$rc" -eq 2 ] && grep -q "holds 3 documents; choose one with --document ID" "$T/err" || fail "several documents exited $rc: $(cat "$T/err")"
printf 'only-one-field\n' > "$T/badpairs.tsv"
rc=$(status_of "$GRAPPI" ground --db "$G" --pairs "$T/badpairs.tsv")
[ "$rc" -eq 2 ] && grep -q "badpairs.tsv:1: expected" "$T/err" || fail "bad pairs file exited $rc: $(cat "$T/err")"
;;

extract)  # BEL extraction with the offline rule table on BioInfer sentences, into a copy of the yeast network
E="$T/e.db"
cp "$Y" "$E"
LIT="$HERE/data/literature"
"$GRAPPI" extract --db "$E" --corpus "$LIT/BioInfer-test.first6.xml" --json "$T/x.json" --bel "$T/x.bel" --cx2 "$T/x.cx2" \
  --html "$T/x.html" > "$T/x.txt"
view_of "$T/x.html" > "$T/x.view"
schema_check extract "$T/x.json"
python3 - "$T/x.json" "$T/x.view" <<'PY'
import json, sys
j, v = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
statements = [s for p in j["paragraphs"] for s in p["statements"]]
assert v["kind"] == "extract" and len(v["items"]) == len(statements), (len(v["items"]), len(statements))
assert sum(1 for i in v["items"] if i["status"] == "ok") == j["counts"]["valid"]
assert all(i["edges"] or i["nodes"] for i in v["items"] if i["status"] == "ok"), "a valid statement is drawn"
assert any(i["edges"] for i in v["items"])
assert any(n["role"] == "entity" for n in v["nodes"]) and v["offline_note"]
assert len(v["sections"][0]["entries"]) == len(j["paragraphs"])
PY
grep -q "^6 document(s), 8 paragraph(s)" "$T/x.txt" || fail "extract summary: $(cat "$T/x.txt")"
grep -q "rule-based extraction, not a language model" "$T/x.txt" || fail "offline note: $(cat "$T/x.txt")"
python3 - "$T/x.json" "$T/x.cx2" "$T/x.bel" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["offline"] and "not a language model" in j["note"], j.keys()
valid = [s["canonical"] for p in j["paragraphs"] for s in p["statements"] if s["status"] == "valid"]
assert "complex(p(SGD:ACT1), p(SGD:COF1))" in valid, valid
assert j["counts"]["valid"] == len(valid) and j["counts"]["rejected"] == 0, j["counts"]
p38 = [p for p in j["paragraphs"] if p["pmid"] == "6509022"][0]
cof = [e for e in p38["entities"] if e["text"] == "cofilin"][0]
assert cof["id"] == "4932.YLL050C" and cof["bel"] == "p(SGD:COF1)" and cof["source"] == "both", cof
cx = json.load(open(sys.argv[2]))
aspects = {k: v for a in cx for k, v in a.items()}
assert aspects["networkAttributes"][0]["reference"].startswith("PMID:"), aspects["networkAttributes"]
names = {n["v"]["name"] for n in aspects["nodes"]}
assert {"p(SGD:ACT1)", "p(SGD:COF1)"} <= names and not any(n.startswith("complex(") for n in names), names
bound = [e for e in aspects["edges"] if e["v"]["interaction"] == "complex"]
assert any(e["v"]["bel_expression"] == "complex(p(SGD:ACT1), p(SGD:COF1))" for e in bound), bound
bel = open(sys.argv[3]).read()
assert 'SET Citation = {"PubMed", "BioInfer.d38", "6509022"}' in bel, bel[:500]
PY
"$GRAPPI" bel validate "$T/x.bel" --quiet > /dev/null || fail "the BEL script does not validate"
# Import, then remove again.
"$GRAPPI" extract --db "$E" --corpus "$LIT/BioInfer-test.first6.xml" --import --bel "$T/imported.bel" > "$T/imp.txt"
grep -q "imported as dataset 4 from $T/imported.bel" "$T/imp.txt" || fail "import: $(cat "$T/imp.txt")"
grep -q "papers of $LIT/BioInfer-test.first6.xml: dataset 5, 6 document(s) stored" "$T/imp.txt" || fail "papers: $(cat "$T/imp.txt")"
"$GRAPPI" info --db "$E" --json | python3 -c 'import json,sys; j=json.load(sys.stdin); r=j["edges_by_relation"]; assert r.get("bel.represents", 0) > 0 and r.get("bel.increases", 0) > 0, r'
"$GRAPPI" extract --db "$E" --corpus "$LIT/BioInfer-test.first6.xml" --import --bel "$T/imported.bel" | grep -q "(already imported)" ||
  fail "a second import of the same statements must add nothing"
"$GRAPPI" remove-dataset --db "$E" 4 > /dev/null
"$GRAPPI" remove-dataset --db "$E" 5 > /dev/null
"$GRAPPI" info --db "$E" --json | python3 -c 'import json,sys; j=json.load(sys.stdin); assert j["edges_by_relation"] == {"string.physical": 176303}, j["edges_by_relation"]'
# In parts: each file's extraction written by --partial, merged by --from-parts into the
# extraction of both files (the same JSON and BEL script as one run over them).
"$GRAPPI" extract --db "$E" --corpus "$LIT/BioInfer-test.first6.xml" --corpus "$LIT/BioRED.Test.first3.PubTator" \
  --json "$T/one.json" --bel "$T/one.bel" --quiet
"$GRAPPI" extract --db "$E" --corpus "$LIT/BioInfer-test.first6.xml" --partial "$T/x1.part" --quiet
"$GRAPPI" extract --db "$E" --corpus "$LIT/BioRED.Test.first3.PubTator" --partial "$T/x2.part" > "$T/part.txt"
grep -q "written to $T/x2.part" "$T/part.txt" || fail "extract --partial: $(cat "$T/part.txt")"
"$GRAPPI" extract --db "$E" --from-parts "$T/x1.part" --from-parts "$T/x2.part" --json "$T/two.json" --bel "$T/two.bel" --quiet
schema_check extract "$T/two.json"
cmp -s "$T/one.bel" "$T/two.bel" || fail "the merged parts' BEL script differs from one run's"
python3 - "$T/one.json" "$T/two.json" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for j in (a, b):
    j["usage"].pop("seconds")
assert a == b, [k for k in a if a[k] != b[k]]
PY
rc=$(status_of "$GRAPPI" extract --db "$E" --from-parts "$T/one.bel")
[ "$rc" -eq 1 ] && grep -q "not an extraction part" "$T/err" || fail "a BEL script as a part exited $rc: $(cat "$T/err")"
rc=$(status_of "$GRAPPI" extract --db "$E" --from-parts "$T/x1.part" --corpus "$LIT/BioInfer-test.first6.xml")
[ "$rc" -eq 2 ] || fail "--from-parts with papers exited $rc"
# A dry run plans one request and one repair turn per paragraph and sends nothing.
"$GRAPPI" extract --db "$E" --corpus "$LIT/BioInfer-test.first6.xml" --dry-run | grep -q "^dry run: 8 paragraph(s); at most 16 model calls" ||
  fail "dry run"
# The evaluation against the corpus's gold pairs, and the audit of textToKnowledgeGraph's BEL.
"$GRAPPI" eval extraction --db "$E" --corpus "$LIT/BioInfer-test.first6.xml" --reference "$DATA/cx2/llm_kg_pmid24360018_sirt1_parp1.cx2" \
  --json "$T/ev.json" > "$T/ev.txt"
schema_check eval-extraction "$T/ev.json"
grep -q "^valid statements (the default output) " "$T/ev.txt" && grep -q "^baseline: every co-occurring pair " "$T/ev.txt" ||
  fail "eval: $(cat "$T/ev.txt")"
python3 - "$T/ev.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
p = j["pairs"]
assert p["gold_pairs"] == 17 and p["true_positives"] > 0 and 0 < p["f1"] <= 1, p
for k in ("pairs", "valid_pairs", "cooccurrence_baseline", "grounded_cooccurrence_baseline"):
    assert set(p[k]) == {"predicted_pairs", "true_positives", "precision", "recall", "f1"}, p[k]
assert p["grounded_cooccurrence_baseline"]["predicted_pairs"] <= p["cooccurrence_baseline"]["predicted_pairs"], p
assert p["valid_pairs"]["predicted_pairs"] <= p["pairs"]["predicted_pairs"], p
assert p["cooccurrence_baseline"]["recall"] >= p["pairs"]["recall"], p
(a,) = j["references"]
assert a["statements"] > 0 and a["rejected"] > 0 and sum(a["errors"].values()) == a["rejected"], a
PY
rc=$(status_of "$GRAPPI" extract --db "$E")
[ "$rc" -eq 2 ] && grep -q "give the papers with --text, --bioc or --corpus" "$T/err" || fail "no input exited $rc: $(cat "$T/err")"
rc=$(status_of "$GRAPPI" extract --db "$E" --text "$T/missing.txt")
[ "$rc" -eq 1 ] && grep -q "cannot read" "$T/err" || fail "missing input exited $rc: $(cat "$T/err")"
rc=$(status_of "$GRAPPI" extract --db "$E" --corpus "$LIT/BioInfer-test.first6.xml" --llm openai)
[ "$rc" -eq 2 ] && grep -q "needs --model" "$T/err" || fail "openai without a model exited $rc"
# A curator's review file: written, one decision changed, the accepted statements imported.
"$GRAPPI" extract --db "$E" --corpus "$LIT/BioInfer-test.first6.xml" --taxon 4932 --review "$T/review.tsv" > /dev/null
head -2 "$T/review.tsv" | tail -1 | grep -q "^decision	status	statement	evidence	citation	paragraph	flags	checks$" ||
  fail "review header: $(head -2 "$T/review.tsv")"
grep -q "^accept	valid	complex(p(SGD:ACT1), p(SGD:COF1))	" "$T/review.tsv" || fail "review rows: $(cat "$T/review.tsv")"
sed 's/^accept	valid	complex(p(SGD:ACT1), p(SGD:COF1))	/reject	valid	complex(p(SGD:ACT1), p(SGD:COF1))	/' "$T/review.tsv" > "$T/edited.tsv"
"$GRAPPI" extract --db "$E" --apply-review "$T/edited.tsv" > "$T/applied.txt"
grep -q "^imported the accepted statements of .*edited.tsv as dataset" "$T/applied.txt" || fail "apply-review: $(cat "$T/applied.txt")"
[ -s "$T/edited.tsv.accepted.bel" ] && ! grep -q "^complex(p(SGD:ACT1), p(SGD:COF1))" "$T/edited.tsv.accepted.bel" ||
  fail "the rejected statement was written"
rc=$(status_of "$GRAPPI" extract --db "$E" --apply-review "$T/edited.tsv" --corpus "$LIT/BioInfer-test.first6.xml")
[ "$rc" -eq 2 ] && grep -q "give no papers with it" "$T/err" || fail "apply-review with papers exited $rc"
printf 'decision\tstatus\n' > "$T/bad-review.tsv"
rc=$(status_of "$GRAPPI" extract --db "$E" --apply-review "$T/bad-review.tsv")
[ "$rc" -eq 1 ] && grep -q "bad-review.tsv:1: expected the review header" "$T/err" || fail "bad review exited $rc: $(cat "$T/err")"
rc=$(status_of "$GRAPPI" eval extraction)
[ "$rc" -eq 2 ] || fail "eval extraction without input exited $rc"
;;

hypothesize)  # a co-occurrence graph from BioRED's slice, then a hypothesis with the offline model
C="$T/c.db"
LIT="$HERE/data/literature"
"$GRAPPI" import --db "$C" --info "$DATA/9606.protein.info.v12.0.txt.gz" > /dev/null
printf '#string_protein_id\talias\tsource\n9606.ENSP00000328968\t6331\tEnsembl_EntrezGene\n' > "$T/aliases.tsv"
"$GRAPPI" import --db "$C" --aliases "$T/aliases.tsv" > /dev/null
"$GRAPPI" cooc build --db "$C" --corpus "$LIT/BioRED.Test.first3.PubTator" --json "$T/cooc.json" > "$T/cooc.txt"
schema_check cooc-build "$T/cooc.json"
grep -q "^3 document(s), 3 unit(s) with a concept" "$T/cooc.txt" || fail "cooc: $(cat "$T/cooc.txt")"
grep -q "imported as dataset 4" "$T/cooc.txt" || fail "cooc import: $(cat "$T/cooc.txt")"
grep -q "papers of .*: dataset 3, 3 document(s) stored" "$T/cooc.txt" || fail "cooc papers: $(cat "$T/cooc.txt")"
python3 - "$T/cooc.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["relation"] == "cooc.document" and j["documents"] == 3 and j["edges"] > 100, j
assert j["import"]["edges_created"] == j["edges"], j["import"]
PY
"$GRAPPI" cooc build --db "$C" --corpus "$LIT/BioRED.Test.first3.PubTator" | grep -q "(already imported)" || fail "a second build must import nothing"
# The database alone holds the graph; --keep-dataset also writes its JSON lines file, which imports alike.
ls "$C".cooc-*.jsonl > /dev/null 2>&1 && fail "cooc build wrote a dataset file without --keep-dataset"
"$GRAPPI" cooc build --db "$C" --corpus "$LIT/BioRED.Test.first3.PubTator" --keep-dataset --no-papers > "$T/keep.txt"
grep -q "(already imported)" "$T/keep.txt" || fail "cooc build --keep-dataset: $(cat "$T/keep.txt")"
ls "$C".cooc-*.jsonl > /dev/null 2>&1 || fail "cooc build --keep-dataset wrote no file"
"$GRAPPI" import --db "$T/kept.db" "$C".cooc-*.jsonl > /dev/null
"$GRAPPI" edges --db "$T/kept.db" 9606.ENSP00000328968 MESH:D008133 --json > "$T/kept.json"
"$GRAPPI" edges --db "$C" 9606.ENSP00000328968 MESH:D008133 --json > "$T/held.json"
python3 - "$T/kept.json" "$T/held.json" <<'PY'
import json, sys
kept, held = (json.load(open(f)) for f in sys.argv[1:])
edges = lambda j: j if isinstance(j, list) else j.get("edges", j)
k, h = edges(kept), edges(held)
assert len(k) == 1 and len(h) == 1, (k, h)
for key in ("evidence", "pmids", "score"):
    assert k[0][key] == h[0][key], (key, k[0], h[0])
PY
"$GRAPPI" edges --db "$C" SCN5A MESH:D008133 | grep -q "cooc.document" || fail "the SCN5A - LQTS edge"
"$GRAPPI" hypothesize --db "$C" --source SCN5A --target MESH:D008133 --corpus "$LIT/BioRED.Test.first3.PubTator" \
  --max-len 2 --json "$T/h.json" --report "$T/h.md" --html "$T/h.html" > "$T/h.txt"
view_of "$T/h.html" > "$T/h.view"
schema_check hypothesize "$T/h.json"
python3 - "$T/h.json" "$T/h.view" <<'PY'
import json, sys
j, v = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert v["kind"] == "hypothesize" and len(v["items"]) == len(j["paths"]), (len(v["items"]), len(j["paths"]))
assert sorted(n["label"] for n in v["nodes"] if n["role"] == "root") == sorted(["SCN5A", j["target"]["name"]])
assert [e["status"] for e in v["sections"][0]["entries"]] == [s["status"] for s in j["explanation"]]
PY
grep -q "stop: converged" "$T/h.txt" || fail "hypothesize: $(cat "$T/h.txt")"
grep -q "not generated by a language model" "$T/h.txt" || fail "offline note"
grep -q "^# How may SCN5A and LQTS be related?" "$T/h.md" || fail "report: $(head -3 "$T/h.md")"
python3 - "$T/h.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["source"]["name"] == "SCN5A" and j["paths"] and all(len(p["edges"]) <= 2 for p in j["paths"]), j["paths"][:2]
# (nodes by their stable ids too: the annotations' concept ids, not the row ids)
assert j["source"]["external_id"] and j["source"]["external_id"] != str(j["source"]["id"]), j["source"]
assert all(len(p["external_ids"]) == len(p["nodes"]) and all(p["external_ids"]) for p in j["paths"]), j["paths"][:1]
assert j["paths"][0]["external_ids"][0] == j["source"]["external_id"], j["paths"][0]
assert j["final_round"] == 0 and j["explanation"], j
assert all(s["status"] in ("quoted", "co-mentioned") for s in j["explanation"]), j["explanation"]
assert any(s["status"] == "quoted" for s in j["explanation"]), j["explanation"]
PY
# The papers the database holds: searched by words, the context without --corpus.
"$GRAPPI" papers --db "$C" '"long QT syndrome"' > "$T/papers.txt" || fail "papers: $(cat "$T/papers.txt")"
"$GRAPPI" papers --db "$C" '"long QT syndrome"' --json "$T/papers.json" > /dev/null
schema_check papers --each "$T/papers.json"
grep -q "15485686" "$T/papers.txt" || fail "papers: $(cat "$T/papers.txt")"
"$GRAPPI" papers --db "$C" --json - qwertyuiop | python3 -c 'import json,sys; assert json.load(sys.stdin) == []' \
  || fail "papers: no hit is an empty array"
rc=$(status_of "$GRAPPI" papers --db "$C" '"unclosed')
[ "$rc" -eq 2 ] || fail "a malformed full-text query exited $rc"
rc=$(status_of "$GRAPPI" papers --db "$T/none.db" "long QT")
[ "$rc" -ne 0 ] && [ ! -e "$T/none.db" ] || fail "papers on a missing database exited $rc or created it"
"$GRAPPI" hypothesize --db "$C" --source SCN5A --target MESH:D008133 --max-len 2 --json "$T/h2.json" > "$T/h2.txt" \
  || fail "hypothesize from the stored papers: $(cat "$T/h2.txt")"
schema_check hypothesize "$T/h2.json"
python3 - "$T/h.json" "$T/h2.json" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert b["rounds"][0]["context"] == a["rounds"][0]["context"] and b["explanation"] == a["explanation"], (a["rounds"], b["rounds"])
PY
grep -q "^paths scored by the prior" "$T/h2.txt" || fail "the default score: $(cat "$T/h2.txt")"
# --weights: the association weights, each path's score its NPMI blend.
"$GRAPPI" hypothesize --db "$C" --source SCN5A --target MESH:D008133 --max-len 2 --weights --json "$T/h3.json" > "$T/h3.txt" \
  || fail "hypothesize --weights: $(cat "$T/h3.txt")"
grep -q "^paths scored by the association weights (NPMI)" "$T/h3.txt" || fail "--weights: $(cat "$T/h3.txt")"
schema_check hypothesize "$T/h3.json"
python3 - "$T/h3.json" <<'PY'
import json, sys
for p in json.load(open(sys.argv[1]))["paths"]:
    assert abs(p["score"] - (0.5 * p["mean_weight"] + 0.5 * p["min_weight"])) < 1e-9, p
PY
# A literature-only knowledge base: cooc build and import --corpus create a missing database.
"$GRAPPI" cooc build --db "$T/lit.db" --corpus "$LIT/BioRED.Test.first3.BioC.xml" > "$T/lit.txt" || fail "cooc build on a new database: $(cat "$T/lit.txt")"
"$GRAPPI" papers --db "$T/lit.db" SCN5A | grep -q 15485686 || fail "papers of the new database"
"$GRAPPI" import --db "$T/lit2.db" --corpus "$LIT/BioRED.Test.first3.PubTator" > "$T/lit2.txt" || fail "import --corpus: $(cat "$T/lit2.txt")"
"$GRAPPI" papers --db "$T/lit2.db" tetrodotoxin | grep -q 15485686 || fail "papers after import --corpus"
printf '1|t|A title\n1|a|An abstract.\n1\t0\t1\tA\n' > "$T/bad.PubTator"
rc=$(status_of "$GRAPPI" import --db "$T/lit2.db" --corpus "$T/bad.PubTator")
[ "$rc" -eq 1 ] && grep -q "bad.PubTator:3" "$T/err" || fail "a malformed PubTator line exited $rc: $(cat "$T/err")"
# A failed import or build into a new path leaves no database behind (read commands would open
# it as an empty one); into an existing database it leaves that database as it was.
rc=$(status_of "$GRAPPI" import --db "$T/new.db" --corpus "$T/bad.PubTator")
[ "$rc" -eq 1 ] && [ ! -e "$T/new.db" ] && [ ! -e "$T/new.db-wal" ] || fail "a failed import left $(ls "$T"/new.db* 2>&1)"
rc=$(status_of "$GRAPPI" cooc build --db "$T/new2.db" --corpus "$T/bad.PubTator")
[ "$rc" -eq 1 ] && [ ! -e "$T/new2.db" ] || fail "a failed cooc build left $(ls "$T"/new2.db* 2>&1)"
"$GRAPPI" papers --db "$T/lit2.db" tetrodotoxin | grep -q 15485686 || fail "lit2.db after a failed import into it"
rc=$(status_of "$GRAPPI" hypothesize --db "$C" --source SCN5A --target NoSuchConcept)
[ "$rc" -eq 2 ] || fail "an unknown target exited $rc"
# Not papers: a STRING links file given as a corpus is refused naming what it looks like, and no
# database is created for it.
rc=$(status_of "$GRAPPI" cooc build --db "$T/links.db" --corpus "$DATA/4932.protein.physical.links.v12.0.txt.gz")
[ "$rc" -eq 2 ] && grep -q "this looks like a STRING links file, not papers" "$T/err" && [ ! -e "$T/links.db" ] \
  || fail "cooc build on a STRING links file exited $rc: $(cat "$T/err")"
rc=$(status_of "$GRAPPI" cooc build --db "$C" --corpus "$T/missing.txt")
[ "$rc" -eq 1 ] || fail "a missing corpus exited $rc"
rc=$(status_of "$GRAPPI" cooc build --db "$C" --corpus "$LIT/BioRED.Test.first3.PubTator" --titles some)
[ "$rc" -eq 2 ] || fail "a bad --titles exited $rc"
"$GRAPPI" cooc build --db "$C" --corpus "$LIT/BioRED.Test.first3.PubTator" --sentence --no-import | grep -q "(cooc.sentence)" \
  || fail "--sentence builds the sentence graph"
# In parts: the slice's documents counted into two partial-count files, merged: the graph built
# above, already imported.
awk -v out="$T/half" '/^[0-9]+\|t\|/ { n++ } { print > (out (n <= 1 ? 1 : 2) ".PubTator") }' "$LIT/BioRED.Test.first3.PubTator"
"$GRAPPI" cooc build --db "$C" --corpus "$T/half1.PubTator" --partial "$T/p1.cooc" | grep -q "^1 document(s) counted" \
  || fail "cooc build --partial"
"$GRAPPI" cooc build --db "$C" --corpus "$T/half2.PubTator" --partial "$T/p2.cooc" --quiet
"$GRAPPI" cooc merge --db "$C" "$T/p1.cooc" "$T/p2.cooc" --json "$T/merge.json" > "$T/merge.txt"
schema_check cooc-build "$T/merge.json"
grep -q "(already imported)" "$T/merge.txt" || fail "cooc merge: $(cat "$T/merge.txt")"
python3 - "$T/cooc.json" "$T/merge.json" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert [p["documents"] for p in b["partials"]] == [1, 2], b["partials"]
assert all(p["provenance"]["corpus"][0]["path"].endswith(".PubTator") for p in b["partials"]), b["partials"]
for k in ("documents", "units", "concepts", "edges", "top_edges"):
    assert a[k] == b[k], k
PY
# In parts without a database yet: the parts count as a new database would (annotation ids), the
# merge creates it, and the graph is the one cooc build gives a new database.
"$GRAPPI" cooc build --db "$T/none.db" --corpus "$T/half1.PubTator" --partial "$T/n1.cooc" | grep -q "no database at" \
  || fail "cooc build --partial without a database"
[ ! -e "$T/none.db" ] || fail "cooc build --partial created a database"
"$GRAPPI" cooc build --db "$T/none.db" --corpus "$T/half2.PubTator" --partial "$T/n2.cooc" --quiet
"$GRAPPI" cooc merge --db "$T/none.db" "$T/n1.cooc" "$T/n2.cooc" --json "$T/nmerge.json" --quiet
"$GRAPPI" cooc build --db "$T/fresh.db" --corpus "$LIT/BioRED.Test.first3.PubTator" --no-papers --json "$T/fresh.json" --quiet
python3 - "$T/fresh.json" "$T/nmerge.json" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert all(p["provenance"]["database"] is None for p in b["partials"]), b["partials"]
for k in ("documents", "units", "concepts", "edges", "top_edges"):
    assert a[k] == b[k], k
assert b["import"]["edges_created"] == a["import"]["edges_created"] > 0, (a["import"], b["import"])
PY
rc=$(status_of "$GRAPPI" cooc merge --db "$C" "$T/half1.PubTator")
[ "$rc" -eq 1 ] && grep -q "not a partial-count file" "$T/err" || fail "a corpus as partial counts exited $rc: $(cat "$T/err")"
"$GRAPPI" cooc build --db "$C" --corpus "$T/half1.PubTator" --partial "$T/s1.cooc" --sentence --quiet
rc=$(status_of "$GRAPPI" cooc merge --db "$C" "$T/p1.cooc" "$T/s1.cooc")
[ "$rc" -eq 2 ] && grep -q "other options" "$T/err" || fail "parts of other options exited $rc: $(cat "$T/err")"
rc=$(status_of "$GRAPPI" cooc build --db "$C" --corpus "$LIT/BioRED.Test.first3.PubTator" --sentence --scope document)
[ "$rc" -eq 2 ] || fail "--sentence with --scope exited $rc"
rc=$(status_of "$GRAPPI" hypothesize --db "$C" --source SCN5A --target MESH:D008133 --embed-weight 0.5)
[ "$rc" -eq 2 ] || fail "an embedding weight without embeddings exited $rc"
# The temporal evaluation on a JSON lines corpus: KRAS and MYC first linked in 2011 (through BRAF).
python3 - "$T/temporal.jsonl" <<'PY'
import json, sys
ids = {"KRAS": "3845", "MYC": "4609", "BRAF": "673", "EGFR": "1956", "RAF1": "5894", "MAPK1": "5594"}
rows = [(1, 2001, "KRAS BRAF"), (2, 2002, "BRAF MYC"), (3, 2003, "KRAS EGFR"), (4, 2004, "EGFR MYC"), (5, 2005, "KRAS RAF1"),
        (6, 2006, "RAF1 MAPK1"), (7, 2007, "MAPK1 MYC"), (8, 2008, "BRAF EGFR"), (9, 2011, "KRAS BRAF MYC"), (10, 2012, "EGFR RAF1")]
with open(sys.argv[1], "w") as f:
    for pmid, year, names in rows:
        text = " and ".join(names.split()) + " interact."
        f.write(json.dumps({"pmid": pmid, "year": year, "title": "", "text": text,
                            "concepts": [{"id": ids[n], "type": "Gene", "text": n} for n in names.split()]}) + "\n")
PY
"$GRAPPI" eval hypotheses --corpus "$T/temporal.jsonl" --as-of 2010 --explain 1 --json "$T/evh.json" --per-pair "$T/evh.jsonl" \
  > "$T/evh.txt" || fail "eval hypotheses: $(cat "$T/evh.txt")"
grep -q "^split: year at 2010 (8 document(s) before, 2 after)" "$T/evh.txt" || fail "eval hypotheses: $(cat "$T/evh.txt")"
grep -q "ROC AUC, micro" "$T/evh.txt" || fail "the AUC table: $(cat "$T/evh.txt")"
schema_check eval-hypotheses "$T/evh.json"
schema_check eval-hypotheses-pair --each "$T/evh.jsonl"
python3 - "$T/evh.json" "$T/evh.jsonl" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["split"]["kind"] == "year" and j["pairs"]["evaluated"] == 2 and j["paths"]["positive"] == 1, j
assert 0 <= j["auc_micro"] <= 1 and j["top_share"] == 0.5 and j["explanations"]["pairs"] == 1, j
pairs = [json.loads(l) for l in open(sys.argv[2])]
km = [p for p in pairs if p["source"]["name"] == "KRAS" and p["target"]["name"] == "MYC"]
assert len(pairs) == 2 and km and km[0]["later"] == ["9"], pairs
assert [p["names"] for p in km[0]["top_paths"] if p["positive"]] == [["KRAS", "BRAF", "MYC"]], km[0]["top_paths"]
# grappi's figures minus each baseline's, each with its interval over resamples of the pairs.
d = j["differences"]
assert d["resamples"] == 1000 and d["unit"] == "pair" and d["level"] == 0.95, d
for name, b in j["baselines"].items():
    m = d["versus"][name]["auc_micro"]
    assert abs(m["difference"] - (j["auc_micro"] - b["auc_micro"])) < 1e-12, (name, m, b)
    assert m["low"] <= m["difference"] + 1e-12 and m["difference"] <= m["high"] + 1e-12 and m["resamples"] > 0, (name, m)
PY
grep -q "^grappi minus it, micro " "$T/evh.txt" || fail "the differences' rows: $(cat "$T/evh.txt")"
"$GRAPPI" eval hypotheses --corpus "$T/temporal.jsonl" --as-of 2010 --explain 0 --bootstrap 0 --json - --quiet > "$T/evb.json"
python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))["differences"]["versus"]["random"]["auc_micro"]; assert m["low"] is None and m["resamples"] == 0, m' "$T/evb.json"
# The corpus's own split (--after: a train file before a dev file); a document on both sides is left out.
head -n 8 "$T/temporal.jsonl" > "$T/train.jsonl"
{ tail -n 2 "$T/temporal.jsonl"; head -n 1 "$T/temporal.jsonl"; } > "$T/dev.jsonl"
"$GRAPPI" eval hypotheses --corpus "$T/train.jsonl" --after "$T/dev.jsonl" --explain 0 --json "$T/eva.json" > "$T/eva.txt" \
  || fail "eval hypotheses --after: $(cat "$T/eva.txt")"
grep -q "^split: given at document 9 (PMID 9) (8 document(s) before, 2 after" "$T/eva.txt" || fail "--after: $(cat "$T/eva.txt")"
schema_check eval-hypotheses "$T/eva.json"
python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); assert j["split"]["kind"] == "given" and j["split"]["left_out"] == 1 and j["paths"]["positive"] == 1, j["split"]' "$T/eva.json"
rc=$(status_of "$GRAPPI" eval hypotheses --corpus "$T/train.jsonl" --after "$T/dev.jsonl" --splits 0.5,0.8)
[ "$rc" -eq 2 ] || fail "--after with --splits exited $rc"
# HGCR's candidates: every shortest path (through BRAF, through EGFR), then without those the longer one.
"$GRAPPI" eval hypotheses --corpus "$T/temporal.jsonl" --as-of 2010 --explain 0 --shortest-rounds 2 --json "$T/evr.json" \
  --per-pair "$T/evr.jsonl" > "$T/evr.txt" || fail "eval hypotheses --shortest-rounds: $(cat "$T/evr.txt")"
grep -q "^candidate paths: 2 round(s) of every shortest path" "$T/evr.txt" || fail "the candidates line: $(cat "$T/evr.txt")"
schema_check eval-hypotheses "$T/evr.json"
python3 - "$T/evr.json" "$T/evr.jsonl" <<'PY'
import json, sys
assert json.load(open(sys.argv[1]))["paths"]["shortest_rounds"] == 2
km = [p for p in map(json.loads, open(sys.argv[2])) if p["source"]["name"] == "KRAS" and p["target"]["name"] == "MYC"]
assert sorted(p["names"] for p in km[0]["top_paths"]) == [["KRAS", "BRAF", "MYC"], ["KRAS", "EGFR", "MYC"],
                                                         ["KRAS", "RAF1", "MAPK1", "MYC"]], km
PY
# Several splits: each split's evaluation, and the means of grappi's and the baselines' figures.
"$GRAPPI" eval hypotheses --corpus "$T/temporal.jsonl" --splits 0.6,0.8 --explain 0 --json "$T/evs.json" > "$T/evs.txt" \
  || fail "eval hypotheses --splits: $(cat "$T/evs.txt")"
grep -q "^mean " "$T/evs.txt" && grep -q "^0.600 " "$T/evs.txt" || fail "the splits table: $(cat "$T/evs.txt")"
grep -q "^grappi minus shorter first at each split, 95% intervals over 1000 resamples" "$T/evs.txt" \
  || fail "the splits' differences: $(cat "$T/evs.txt")"
schema_check eval-hypotheses-splits "$T/evs.json"
python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1]))["splits"], open(sys.argv[2], "w"))' "$T/evs.json" "$T/evs-runs.json"
schema_check eval-hypotheses --each "$T/evs-runs.json"
python3 - "$T/evs.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
runs = j["splits"]
assert [r["split_share"] for r in runs] == [0.6, 0.8] and runs[0]["split"]["before"] < runs[1]["split"]["before"], runs
for name, key in (("grappi", None), ("shorter_first", "shorter_first")):
    got = [r["auc_micro"] if key is None else r["baselines"][key]["auc_micro"] for r in runs]
    got = [x for x in got if x is not None]
    m = j["means"][name]
    assert m["splits_micro"] == len(got) and (not got or abs(m["auc_micro"] - sum(got) / len(got)) < 1e-12), (name, m, got)
PY
rc=$(status_of "$GRAPPI" eval hypotheses --corpus "$T/temporal.jsonl" --splits 0.6,0.8 --per-pair "$T/x.jsonl")
[ "$rc" -eq 2 ] && grep -q "per-pair is for one split" "$T/err" || fail "--splits with --per-pair exited $rc: $(cat "$T/err")"
rc=$(status_of "$GRAPPI" eval hypotheses --corpus "$T/temporal.jsonl" --shortest-rounds 1000)
[ "$rc" -eq 2 ] && grep -q "shortest_rounds must be 0 to 100" "$T/err" || fail "--shortest-rounds 1000 exited $rc: $(cat "$T/err")"
rc=$(status_of "$GRAPPI" eval hypotheses --corpus "$T/temporal.jsonl" --split 1.5)
[ "$rc" -eq 2 ] || fail "a split outside (0, 1) exited $rc"
rc=$(status_of "$GRAPPI" eval hypotheses --corpus "$T/temporal.jsonl" --as-of 1990)
[ "$rc" -eq 2 ] || fail "a split with nothing before it exited $rc"
# A trained path ranker on a generated corpus with a planted pattern (test_hypothesis.cpp's):
# gene pairs joined through chemicals and diseases, later papers naming each pair with its
# chemicals.
python3 - "$T/planted.jsonl" <<'PY'
import json, random, sys
rng = random.Random(7)
docs = []
def doc(year, concepts):
    docs.append({"pmid": len(docs) + 1, "year": year, "text": " and ".join("c" + c for c, _ in concepts) + ".",
                 "concepts": [{"id": c, "type": t, "text": "c" + c} for c, t in concepts]})
pairs = [(str(1000 + i), str(2000 + i), ["D0%d" % (10000 + x) for x in rng.sample(range(40), 3)],
          ["D0%d" % (20000 + x) for x in rng.sample(range(40), 3)]) for i in range(80)]
for s, t, chem, dis in pairs:
    for c in chem: doc(2000, [(s, "Gene"), (c, "Chemical")]); doc(2001, [(c, "Chemical"), (t, "Gene")])
    for d in dis: doc(2002, [(s, "Gene"), (d, "Disease")]); doc(2003, [(d, "Disease"), (t, "Gene")])
for i, (s, t, chem, dis) in enumerate(pairs):
    doc(2008 + i % 2 if i < 40 else 2011, [(s, "Gene"), (t, "Gene")] + [(c, "Chemical") for c in chem])
with open(sys.argv[1], "w") as f:
    for d in docs: f.write(json.dumps(d) + "\n")
PY
head -n 1920 "$T/planted.jsonl" > "$T/planted.before.jsonl"; sed -n '1921,1960p' "$T/planted.jsonl" >> "$T/planted.before.jsonl"
"$GRAPPI" train-ranker --db "$T/rank.db" --corpus "$T/planted.before.jsonl" --min-positives 20 --json "$T/rank.json" \
  > "$T/rank.txt" || fail "train-ranker: $(cat "$T/rank.txt")"
grep -q "^path ranker 'paths' stored" "$T/rank.txt" || fail "train-ranker: $(cat "$T/rank.txt")"
schema_check train-ranker "$T/rank.json"
python3 - "$T/rank.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
w = j["weights"]
assert j["name"] == "paths" and j["training"]["pairs"] > 0, j
# The pattern: chemical intermediates up, disease intermediates down.
assert w["type_chemical"] > w["type_disease"], w
PY
"$GRAPPI" eval hypotheses --db "$T/rank.db" --ranker paths --corpus "$T/planted.jsonl" --as-of 2010 --explain 0 --json "$T/rk.json" \
  > "$T/rk.txt" || fail "eval with the stored ranker: $(cat "$T/rk.txt")"
grep -q "the stored path ranker 'paths'" "$T/rk.txt" || fail "eval with the stored ranker: $(cat "$T/rk.txt")"
schema_check eval-hypotheses "$T/rk.json"
python3 - "$T/rk.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
b = j["baselines"]
for name in ("shorter_first", "document_frequency", "random"):
    assert j["auc_micro"] >= b[name]["auc_micro"] + 0.02 and j["auc_macro"] >= b[name]["auc_macro"] + 0.02, (name, j["auc_micro"], j["auc_macro"], b)
PY
rc=$(status_of "$GRAPPI" eval hypotheses --db "$T/rank.db" --ranker nope --corpus "$T/planted.jsonl" --as-of 2010)
[ "$rc" -eq 2 ] && grep -q "no path ranker named 'nope'" "$T/err" || fail "an unknown ranker exited $rc: $(cat "$T/err")"
# Too few positives: refused, and no database created.
rc=$(status_of "$GRAPPI" train-ranker --db "$T/rank2.db" --corpus "$T/temporal.jsonl")
[ "$rc" -eq 2 ] && grep -q "fewer than the 100 needed" "$T/err" && [ ! -e "$T/rank2.db" ] \
  || fail "train-ranker on too few positives exited $rc: $(cat "$T/err")"
;;

ask)  # grounded answers and their evaluation on the human demo database (read only)
"$GRAPPI" ask --db "$H" "Which kinases phosphorylate MAPT?" --json "$T/a.json" --report "$T/a.md" --cx2 "$T/a.cx2" \
  > "$T/a.txt" || fail "ask: $(cat "$T/a.txt")"
grep -q "not generated by a language model" "$T/a.txt" || fail "the offline note: $(cat "$T/a.txt")"
grep -q "^# Which kinases phosphorylate MAPT?" "$T/a.md" || fail "report: $(head -3 "$T/a.md")"
schema_check ask "$T/a.json"
python3 - "$T/a.json" "$T/a.cx2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["status"] == "ok" and j["offline"], j["status"]
assert [(e["name"], e["text"], e["offset"]) for e in j["question_entities"]] == [("MAPT", "MAPT", 28)], j["question_entities"]
assert j["intent"]["intent"] == "class" and j["intent"]["topic"] == "kinases", j["intent"]
assert j["answer_entities"] and all({"name", "id", "score"} <= set(e) for e in j["answer_entities"]), j["answer_entities"][:2]
assert all(e["name"] != "MAPT" for e in j["answer_entities"])
# The README's example: MAPT's kinases in the Alzheimer export come first.
top5 = [e["name"] for e in j["answer_entities"][:5]]
assert "GSK3B" in top5 and "CDK5" in top5, top5
# The offline model's sentences are extractive (supported by construction), never "supported".
assert j["sentences"] and all(s["status"] == "extractive" and s["citations"] for s in j["sentences"]), j["sentences"]
cx2 = json.load(open(sys.argv[2]))
assert any("nodes" in aspect for aspect in cx2), cx2[:2]
PY
"$GRAPPI" ask --db "$H" --question "Which kinases phosphorylate MAPT?" --context csv --max-context-tokens 50 --json - \
  > "$T/csv.json"
python3 - "$T/csv.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["context"]["format"] == "csv" and j["context"]["trimmed_nodes"] > 0, j["context"]
PY
"$GRAPPI" ask --db "$H" "Which kinases phosphorylate MAPT?" --dry-run | grep -q "^dry run: at most 0 model call" || fail "dry run"
# Stored papers in the context: a copy of the database with two abstracts, cited as P0, P1.
cp "$H" "$T/hp.db"
printf '%s\n' '{"pmid": "9001", "year": 2001, "title": "Tau kinases", "text": "GSK3B phosphorylates MAPT at Ser396."}' \
  '{"pmid": "9002", "title": "Hormones", "text": "Insulin lowers blood glucose."}' > "$T/papers.jsonl"
"$GRAPPI" import --db "$T/hp.db" --corpus "$T/papers.jsonl" > /dev/null || fail "import --corpus into the human copy"
"$GRAPPI" ask --db "$T/hp.db" "Which kinases phosphorylate MAPT?" --json "$T/ap.json" > "$T/ap.txt" || fail "ask with papers"
grep -q 'PMID:9001 reports: "GSK3B phosphorylates MAPT at Ser396." \[P0\]' "$T/ap.txt" || fail "the quote: $(cat "$T/ap.txt")"
"$GRAPPI" ask --db "$T/hp.db" "Which kinases phosphorylate MAPT?" --papers 0 --json "$T/ap0.json" > /dev/null
schema_check ask "$T/ap.json" "$T/ap0.json"
python3 - "$T/ap.json" "$T/ap0.json" <<'PY'
import json, sys
j, none = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert [p["pmid"] for p in j["context"]["papers"]] == ["9001"], j["context"]["papers"]
assert any(c["kind"] == "paper" and c["status"] == "supported" for s in j["sentences"] for c in s["citations"]), j["sentences"]
assert none["context"]["papers"] == [], none["context"]
PY
rc=$(status_of "$GRAPPI" ask --db "$H")
[ "$rc" -eq 2 ] || fail "ask without a question exited $rc"
# A protein the database lacks: exit 2 with suggestions, not five sentences about other proteins.
rc=$(status_of "$GRAPPI" ask --db "$H" "Which proteins interact with APPP?")
[ "$rc" -eq 2 ] && grep -q "'APPP' looks like a name but names nothing; did you mean .*APP" "$T/err" ||
  fail "ask about APPP exited $rc: $(cat "$T/err")"
rc=$(status_of "$GRAPPI" ask --db "$H" "tau?" --relation-weight string.combined)
[ "$rc" -eq 2 ] && grep -q "RELATION=WEIGHT" "$T/err" || fail "a bad --relation-weight exited $rc: $(cat "$T/err")"
# The evaluation: MAPT's partners in the Alzheimer export, and five of KG-RAG's true/false statements.
printf '%s\n' '{"question": "Which kinases phosphorylate MAPT?", "answers": ["GSK3B", "CDK5"]}' \
  '{"id": "app", "question": "Which proteins cleave APP?", "answers": ["BACE1", "PSEN1", "ADAM10"]}' > "$T/q.jsonl"
"$GRAPPI" eval qa --db "$H" --questions "$T/q.jsonl" --k 5 --json "$T/qa.json" --per-question "$T/qa.jsonl" > "$T/qa.txt" \
  || fail "eval qa: $(cat "$T/qa.txt")"
grep -q "^MRR" "$T/qa.txt" && grep -q "baseline: neighbours, random" "$T/qa.txt" || fail "eval qa table: $(cat "$T/qa.txt")"
head -6 "$HERE/data/qa/kg_rag_true_false_questions.csv" > "$T/tf.csv"
"$GRAPPI" eval qa --db "$H" --questions "$T/tf.csv" --json "$T/tf.json" --quiet
schema_check eval-qa "$T/qa.json" "$T/tf.json"
schema_check eval-qa-question --each "$T/qa.jsonl"
python3 - "$T/qa.json" "$T/qa.jsonl" "$T/tf.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for k in ("mrr", "hits_at_1", "hits_at_5", "hits_at_10", "recall_at_k"):
    assert 0 <= s[k] <= 1, (k, s)
assert s["questions"] == 2 and s["k"] == 5 and s["errors"] == 0, s
rows = [json.loads(l) for l in open(sys.argv[2])]
assert [r["id"] for r in rows] == ["1", "app"] and all(r["answer_entities"] for r in rows), rows
assert rows[0]["question"] == "Which kinases phosphorylate MAPT?" and "name" in rows[0]["answer_entities"][0]
# Every row says what the question was found to ask and whether the gold was retrieved.
assert [e["name"] for e in rows[0]["question_entities"]] == ["MAPT"] and rows[0]["intent"] == "class", rows[0]
assert rows[0]["retrieved"] and rows[0]["reciprocal_rank"] == 1.0, rows[0]
assert all({"baseline_random_rr", "baseline_score_rr", "gold_retrieved", "intent"} <= set(r) for r in rows), rows
for name in ("neighbours_random", "neighbours_by_score"):
    assert 0 <= s["baselines"][name]["mrr"] <= 1, s["baselines"]
assert 0 <= s["retrieval_recall"] <= 1 and "class" in s["by_intent"], s
tf = json.load(open(sys.argv[3]))
assert tf["questions"] == 5 and tf["choice_questions"] == 5 and 0 <= tf["accuracy"] <= 1, tf
PY
printf 'not,a,question,file\n1,2,3,4\n' > "$T/bad.csv"
rc=$(status_of "$GRAPPI" eval qa --db "$H" --questions "$T/bad.csv")
[ "$rc" -eq 1 ] && grep -q "bad.csv:1: not a KG-RAG question file" "$T/err" || fail "a bad question file exited $rc: $(cat "$T/err")"
;;

reader)  # the graph reader, trained on a copy of the human demo database
R="$T/r.db"
cp "$H" "$R"
printf '%s\n' '{"question": "Which kinases phosphorylate MAPT?", "answers": ["GSK3B", "CDK5"]}' \
  '{"question": "Which proteins cleave APP?", "answers": ["BACE1", "PSEN1", "ADAM10"]}' \
  '{"question": "Which proteins interact with PSEN1?", "answers": ["APP", "NCSTN", "APH1A", "PSENEN"]}' \
  '{"question": "Which proteins interact with BACE1?", "answers": ["APP", "GGA1", "RTN3"]}' > "$T/train.jsonl"
"$GRAPPI" train-reader --db "$R" --train "$T/train.jsonl" --scope base --epochs 3 --hidden 8 --heads 2 \
  --json "$T/tr.json" > "$T/tr.txt" || fail "train-reader: $(cat "$T/tr.txt")"
grep -q "^epoch 1: train loss" "$T/tr.txt" && grep -q "^reader 'gat' stored" "$T/tr.txt" || fail "train-reader: $(cat "$T/tr.txt")"
schema_check train-reader "$T/tr.json"
"$GRAPPI" train-reader --db "$R" --list --json "$T/list.json" > "$T/list.txt"
grep -q "^gat " "$T/list.txt" || fail "train-reader --list: $(cat "$T/list.txt")"
"$GRAPPI" ask --db "$R" "Which proteins interact with APP?" --reader gat --json "$T/a.json" > "$T/a.txt" \
  || fail "ask --reader gat: $(cat "$T/a.txt")"
grep -q "reader" "$T/a.txt" || fail "ask --reader gat table: $(cat "$T/a.txt")"
"$GRAPPI" eval qa --db "$R" --questions "$T/train.jsonl" --reader gat --json "$T/qa.json" --quiet
schema_check ask "$T/a.json"
schema_check eval-qa "$T/qa.json"
python3 - "$T/tr.json" "$T/list.json" "$T/a.json" "$T/qa.json" <<'PY'
import json, sys
tr, listed, a, qa = (json.load(open(p)) for p in sys.argv[1:])
assert len(tr["epochs"]) == 3 and tr["train_questions"] == 4 and len(tr["fingerprint"]) == 64, tr
assert tr["train_examples"] + tr["valid_examples"] + tr["skipped"] == 4, tr
assert [r["name"] for r in listed] == ["gat"] and listed[0]["info"]["scope"] == "base", listed
assert a["reader"] == "gat" and a["reader_model"] == {"name": "gat", "scope": "base"}, a.get("reader_model")
scores = [e["reader_score"] for e in a["answer_entities"]]
assert scores and scores == sorted(scores, reverse=True), scores
assert qa["reader"] == "gat" and qa["questions"] == 4 and qa["errors"] == 0, qa
PY
rc=$(status_of "$GRAPPI" ask --db "$R" "Which proteins interact with APP?" --reader gat --reader-name nope)
[ "$rc" -eq 2 ] && grep -q "no graph reader named 'nope'" "$T/err" || fail "an unknown reader exited $rc: $(cat "$T/err")"
rc=$(status_of "$GRAPPI" train-reader --db "$R" --train "$T/train.jsonl" --hidden 6 --heads 4)
[ "$rc" -eq 2 ] && grep -q "multiple of heads" "$T/err" || fail "--hidden 6 --heads 4 exited $rc: $(cat "$T/err")"
rc=$(status_of "$GRAPPI" train-reader --db "$R")
[ "$rc" -eq 2 ] && grep -q "give the training questions" "$T/err" || fail "no --train exited $rc: $(cat "$T/err")"
printf '%s\n' '{"question": "Which proteins interact with APP?", "answers": ["no such protein"]}' > "$T/none.jsonl"
rc=$(status_of "$GRAPPI" train-reader --db "$R" --train "$T/none.jsonl" --name other)
[ "$rc" -eq 2 ] && grep -q "none of the 1 training questions" "$T/err" || fail "no answer in a subgraph exited $rc: $(cat "$T/err")"
[ "$("$GRAPPI" train-reader --db "$R" --list --json - | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 1 ] \
  || fail "a failed training stored a reader"
;;

mitab)  # IntAct beside the yeast network (a copy of it)
M="$T/m.db"
cp "$Y" "$M"
"$GRAPPI" import --db "$M" "$DATA/intact/intact_sample.mitab27.tsv.gz" --json > "$T/import.json"
python3 - "$T/import.json" <<'PY'
import json, sys
(f,) = json.load(open(sys.argv[1]))["files"]
d = f["details"]
assert f["format"] == "mitab" and f["lines"] == 823, f
assert d["interactions"] == 823 and d["interactors"] == 377 and d["interactors_joined"] == 59, d
assert d["ambiguous_joins"] == 1 and d["interactors_created"] == 318 and d["mitab_version"] == 27, d
PY
"$GRAPPI" import --db "$T/alone.db" --mitab "$DATA/intact/intact_sample.mitab27.tsv.gz" > /dev/null 2> "$T/alone.err"
grep -q "377 interactor(s) matched no stored protein" "$T/alone.err" || fail "created interactors not reported: $(cat "$T/alone.err")"
"$GRAPPI" resolve --db "$M" uniprotkb:P40460 | grep -q "^NDC80	4932.YIL144W" || fail "namespaced resolve"
"$GRAPPI" edges --db "$M" uniprotkb:P40460 uniprotkb:P40460 > "$T/edges.txt"
grep -q "^mitab.physical_association  score 0.370" "$T/edges.txt" || fail "edge: $(cat "$T/edges.txt")"
[ "$(grep -c "intact:EBI-.*PMID 11087867  type physical association (MI:0915)  method two hybrid (MI:0018)" "$T/edges.txt")" -eq 4 ] ||
  fail "records: $(cat "$T/edges.txt")"
"$GRAPPI" edges --db "$M" uniprotkb:P40460 uniprotkb:P40460 --json |
  python3 -c 'import json,sys; (e,)=json.load(sys.stdin); r=e["records"]; assert len(r)==4 and r[0]["raw"].startswith("uniprotkb:P40460\t") and e["pmids"]==[11087867], e'
"$GRAPPI" info --db "$M" | grep -Eq "^mitab.physical_association +[0-9]+" || fail "info relations"
"$GRAPPI" edges --db "$M" CDC28 CLN2 | grep -q "^string.physical  score 0.998" || fail "STRING edge"
# An edge list by names, with its score column and a relation, beside MITAB and STRING.
"$GRAPPI" import --db "$M" --edges "$DATA/export_v12_alzheimer/string_interactions.tsv" --source-column node1 \
  --target-column node2 --score-column combined_score --relation alz.web --json |
  python3 -c 'import json,sys; (f,)=json.load(sys.stdin)["files"]; assert f["format"]=="edges" and f["lines"]==240 and f["edges_created"]==120 and f["details"]["header"]==1, f'
rc=$(status_of "$GRAPPI" import --db "$M" --edges "$DATA/export_v12_alzheimer/string_interactions.tsv" --score-column 1)
[ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || fail "bad score column exited $rc"
rc=$(status_of "$GRAPPI" import --db "$M" --edges "$DATA/export_v12_alzheimer/string_interactions.tsv" --separator pipe)
[ "$rc" -eq 2 ] || fail "bad separator exited $rc"
# Export and re-import: the same graph, the same bytes.
"$GRAPPI" export --db "$M" -o "$T/m.jsonl" 2> "$T/export.err"
grep -q "evidence record(s) as jsonl to $T/m.jsonl" "$T/export.err" || fail "export report: $(cat "$T/export.err")"
"$GRAPPI" import --db "$T/copy.db" "$T/m.jsonl" > /dev/null
"$GRAPPI" export --db "$T/copy.db" -o "$T/copy.jsonl" 2> /dev/null
cmp -s "$T/m.jsonl" "$T/copy.jsonl" || fail "jsonl round trip differs"
"$GRAPPI" export --db "$M" --format tsv --khop CDC28 --hops 1 --min-score 950 | head -1 |
  grep -q "^source	target	source_name	target_name	relation	score	directed	pmids$" || fail "tsv header"
rc=$(status_of "$GRAPPI" export --db "$M" --format cx3)
[ "$rc" -eq 2 ] || fail "unknown export format exited $rc"
rc=$(status_of "$GRAPPI" export --db "$M" --relation string.nope -o "$T/x.jsonl")
[ "$rc" -eq 2 ] || fail "unknown relation exited $rc"
[ ! -e "$T/x.jsonl" ] && ! compgen -G "$T/x.jsonl.part*" > /dev/null || fail "a failed export left a file"
printf '#ID(s) interactor A\tID(s) interactor B\nuniprotkb:P1\tuniprotkb:P2\n' > "$T/bad.tsv"
rc=$(status_of "$GRAPPI" import --db "$M" --mitab "$T/bad.tsv")
[ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || fail "bad MITAB exited $rc"
grep -q "bad.tsv:2: expected 15 (MITAB 2.5), 36 (2.6) or 42 (2.7) tab-separated columns, found 2" "$T/err" ||
  fail "bad MITAB message: $(cat "$T/err")"
;;

bel)  # BEL validation: scripts, statements, JSON, canonical forms, exit codes
"$GRAPPI" bel validate "$DATA/bel/pybel_test_bel.bel" > "$T/ok.txt" || fail "valid script exited non-zero"
grep -q "pybel_test_bel.bel: 5 statements, 5 valid, 0 with errors; 0 errors, 0 warnings" "$T/ok.txt" || fail "summary: $(cat "$T/ok.txt")"
"$GRAPPI" bel validate "$DATA/bel/pybel_thorough.bel" > "$T/thorough.txt" || fail "thorough.bel exited non-zero"
grep -q "pybel_thorough.bel:62:44: warning: two relations in one statement: read as statements of their own" "$T/thorough.txt" || fail "chain line: $(cat "$T/thorough.txt")"
grep -q "pybel_thorough.bel: 55 statements, 55 valid, 0 with errors; 0 errors, .*; 1 line(s) chaining relations" "$T/thorough.txt" ||
  fail "thorough summary: $(tail -1 "$T/thorough.txt")"
printf 'p(HGNC:AKT1) -> p(HGNC:MTOR) -> q(HGNC:X)\n' > "$T/chain.bel"
rc=$(status_of "$GRAPPI" bel validate --quiet "$T/chain.bel")
[ "$rc" -eq 1 ] || fail "a script with an error exited $rc"
"$GRAPPI" bel validate --quiet "$T/chain.bel" > "$T/chain.txt" || true
grep -q "chain.bel:1:33: error: unknown function .q." "$T/chain.txt" || fail "error in the second link: $(cat "$T/chain.txt")"
[ "$(grep -c warning: "$T/chain.txt")" -eq 0 ] || fail "--quiet printed warnings"
out=$("$GRAPPI" bel validate --canonical -e 'kin(p(HGNC:AKT1)) -> complex(p(HGNC:JUN), p(HGNC:FOS))' 2> /dev/null)
[ "$out" = "act(p(HGNC:AKT1), ma(kin)) increases complex(p(HGNC:FOS), p(HGNC:JUN))" ] || fail "canonical: $out"
out=$(echo 'p(HGNC:AKT1) => p(HGNC:MTOR)' | "$GRAPPI" bel validate --canonical --long - 2> /dev/null)
[ "$out" = "proteinAbundance(HGNC:AKT1) directlyIncreases proteinAbundance(HGNC:MTOR)" ] || fail "long form: $out"
rc=$(status_of "$GRAPPI" bel validate -e 'a(HGNC:AKT1) -> p(HGNC:EGFR)')
[ "$rc" -eq 1 ] || fail "invalid statement exited $rc"
"$GRAPPI" bel validate --json -e 'a(HGNC:AKT1) -> p(HGNC:EGFR)' > "$T/bad.json" || true
python3 - "$T/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["statements"] == 1 and d["valid_statements"] == 0 and d["errors"] == 1, d
(p,) = d["problems"]
assert p["code"] == "namespace_kind" and p["line"] == 1 and p["column"] == 3, p
assert "p(HGNC:AKT1)" in p["message"], p
PY
"$GRAPPI" import --db "$T/bel.db" --bel "$DATA/bel/cbn_cytotoxic_t-cell_signaling-2.0-hs.bel.jgf.json.gz" \
  "$DATA/bel/pybel_test_bel.bel" --json > "$T/import.json"
python3 - "$T/import.json" <<'PY'
import json, sys
files = json.load(open(sys.argv[1]))["files"]
assert [f["format"] for f in files] == ["bel", "jgf"], files
d = files[1]["details"]
assert d["jgf_nodes"] == 55 and d["jgf_edges"] == 56 and d["jgf_evidences"] == 435, d
PY
"$GRAPPI" edges --db "$T/bel.db" 'kin(p(HGNC:FYN))' 'kin(p(HGNC:LCK))' > "$T/bel_edges.txt"
grep -q "Fyn plays an essential role by positive regulation of Lck activity." "$T/bel_edges.txt" ||
  fail "BEL evidence: $(cat "$T/bel_edges.txt")"
# The BEL statements out as a BEL script and back into a second database: the same evidence.
"$GRAPPI" export --db "$T/bel.db" --format bel -o "$T/out.bel" 2> "$T/export.txt"
grep -q "exported .* BEL statement(s) of .* edge(s) as bel" "$T/export.txt" || fail "BEL export: $(cat "$T/export.txt")"
"$GRAPPI" import --db "$T/bel2.db" "$T/out.bel" > /dev/null
"$GRAPPI" edges --db "$T/bel2.db" 'kin(p(HGNC:FYN))' 'kin(p(HGNC:LCK))' > "$T/bel2_edges.txt"
grep -q "Fyn plays an essential role by positive regulation of Lck activity." "$T/bel2_edges.txt" ||
  fail "BEL evidence after the round trip: $(cat "$T/bel2_edges.txt")"
printf 'SET Citation = {"PubMed", "1"}\np(HGNC:A) -> p(HGNC:B\n' > "$T/bad.bel"
rc=$(status_of "$GRAPPI" import --db "$T/bel.db" "$T/bad.bel")
[ "$rc" -eq 1 ] || fail "bad BEL exited $rc"
grep -q "bad.bel:2: missing ')'" "$T/err" || fail "bad BEL message: $(cat "$T/err")"
# With a knowledge base, entities take the identifiers it holds (the GO slim's terms).
"$GRAPPI" import --db "$T/go.db" --obo "$DATA/ontology/goslim_generic.obo" > /dev/null
out=$("$GRAPPI" bel validate --db "$T/go.db" --canonical -e 'p(HGNC:AKT1) -> bp(GOBP:autophagy)' -e 'p(HGNC:AKT1) -> bp(GO:0006914)' 2> /dev/null)
[ "$out" = "p(HGNC:AKT1) increases bp(GO:0006914 ! autophagy)
p(HGNC:AKT1) increases bp(GO:0006914 ! autophagy)" ] || fail "canonical with --db: $out"
rc=$(status_of "$GRAPPI" bel validate --db "$T/nowhere.db" -e 'p(HGNC:AKT1)')
[ "$rc" -ne 0 ] && [ ! -e "$T/nowhere.db" ] || fail "bel validate --db of a missing database exited $rc"
rc=$(status_of "$GRAPPI" bel validate "$T/missing.bel")
[ "$rc" -eq 1 ] || fail "missing file exited $rc"
rc=$(status_of "$GRAPPI" bel validate)
[ "$rc" -eq 2 ] || fail "no input exited $rc"
;;

cx2)  # CX2 in and out: a textToKnowledgeGraph network as BEL, an export that re-imports
"$GRAPPI" import --db "$T/c.db" --info "$DATA/9606.protein.info.v12.0.txt.gz" \
  --cx2 "$DATA/cx2/llm_kg_pmid24360018_sirt1_parp1.cx2" "$DATA/cx2/glypican2.cx2" --skip-bad-lines --json > "$T/import.json"
python3 - "$T/import.json" <<'PY'
import json, sys
files = json.load(open(sys.argv[1]))["files"]
assert [f["format"] for f in files] == ["info", "cx2", "cx2"], files
bel, ndex = files[1], files[2]
assert bel["details"]["cx_edges"] == 122 and bel["details"]["statements"] + bel["rows_skipped"] >= 122, bel
assert bel["details"]["groundings"] > 0, bel
assert ndex["details"]["nodes_joined"] == 2 and ndex["edges_created"] == 1, ndex
PY
"$GRAPPI" export --db "$T/c.db" --format cx2 -o "$T/c.cx2" 2> "$T/export.txt"
grep -q "as cx2 to" "$T/export.txt" || fail "export report: $(cat "$T/export.txt")"
"$GRAPPI" import --db "$T/d.db" "$T/c.cx2" > /dev/null
"$GRAPPI" export --db "$T/c.db" -o "$T/c.jsonl" 2> /dev/null
"$GRAPPI" export --db "$T/d.db" -o "$T/d.jsonl" 2> /dev/null
cmp -s "$T/c.jsonl" "$T/d.jsonl" || fail "the CX2 export did not re-import to the same graph"
printf '[{"CXVersion":"2.0"},{"nodes":[{"id":1},{"id":1}]},{"status":[{"success":true}]}]' > "$T/bad.cx2"
rc=$(status_of "$GRAPPI" import --db "$T/d.db" --cx2 "$T/bad.cx2")
[ "$rc" -eq 1 ] || fail "bad CX2 exited $rc"
grep -q "bad.cx2:2: node 2 (id 1): duplicate node id 1" "$T/err" || fail "bad CX2 message: $(cat "$T/err")"
;;

bombs)  # memory bounds under an address-space limit (label heavy: the Release stage only)
# A BEL gzip bomb: 1.2 GB of 1 MB SET Evidence lines, then one statement, imported under a 2 GB
# address-space limit. BEL is read line by line: memory is bounded by a line, not the file.
python3 - "$T/big.bel.gz" << 'PY'
import gzip, sys
line = b'SET Evidence = "' + b"e" * (1 << 20) + b'"\n'
with gzip.open(sys.argv[1], "wb", compresslevel=1) as f:
    f.write(b'SET Citation = {"PubMed", "12345"}\n')
    for _ in range(1200):
        f.write(line)
    f.write(b"p(HGNC:AKT1) increases p(HGNC:MTOR)\n")
PY
limited() { bash -c 'ulimit -v "$0"; exec "$@"' "$@"; }
rc=$(status_of limited 2097152 "$GRAPPI" import --db "$T/big.db" --bel "$T/big.bel.gz")
[ "$rc" -eq 0 ] || fail "the BEL bomb under 2 GB: exit $rc: $(cat "$T/err")"
"$GRAPPI" info --db "$T/big.db" --json | python3 -c 'import json, sys; j = json.load(sys.stdin); assert j["edges"] == 1, j' ||
  fail "the BEL bomb's one statement"
# An allocation failure is one line saying what was being done, exit 1, the database as it was:
# 600 MB of CX2 (read whole) under a 1 GB limit.
{ echo "["; head -c 600000000 /dev/zero | tr '\0' ' ' | fold -w 1000; echo "]"; } | gzip -1 > "$T/big.cx2.gz"
rc=$(status_of limited 1048576 "$GRAPPI" import --db "$T/big.db" --cx2 "$T/big.cx2.gz")
[ "$rc" -eq 1 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -q "^grappi: out of memory while importing .*big.cx2.gz" "$T/err" ||
  fail "out of memory: exit $rc: $(cat "$T/err")"
"$GRAPPI" info --db "$T/big.db" --json | python3 -c 'import json, sys; j = json.load(sys.stdin); assert j["edges"] == 1 and len(j["datasets"]) == 1, j' ||
  fail "the database after the failed import"
;;

*)
fail "unknown part"
;;
esac
echo "cli $PART: all checks passed"
