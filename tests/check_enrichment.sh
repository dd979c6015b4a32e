#!/usr/bin/env bash
# grappi enrich and ppi-enrichment against scipy, statsmodels and networkx on the
# human demo database with GO and NCBI's gene table imported (tests/check_enrichment.py).
# Needs: GRAPPI (the CLI), DATA (the bundled data), a python3 with scipy and statsmodels.
set -euo pipefail
: "${GRAPPI:?}" "${DATA:?}"
. "$(dirname "$0")/python_with.sh"
. "$(dirname "$0")/serve_start.sh"
python_with "scipy.stats, statsmodels.stats.multitest, networkx" "python3-scipy python3-statsmodels python3-networkx"
work=$(mktemp -d "${TMPDIR:-/tmp}/grappi_enrich.XXXXXX")
PID=""
trap '[ -n "$PID" ] && kill "$PID" 2> /dev/null; rm -rf "$work"' EXIT
db="$work/go.db"
"$GRAPPI" import --db "$db" --info "$DATA/9606.protein.info.v12.0.txt.gz" > /dev/null
"$GRAPPI" import --db "$db" "$DATA/export_v12_nsclc/string_interactions.tsv" \
  "$DATA/export_v12_alzheimer/string_interactions.tsv" > /dev/null
"$GRAPPI" import --db "$db" "$DATA/ontology/go-basic.GO.db_3.16.0.obo.gz" > /dev/null 2>&1
"$GRAPPI" import --db "$db" --mapping "$DATA/mapping/hs_genes.protein-coding.org.Hs.eg.db_3.16.0.tsv.gz" > /dev/null 2>&1
"$GRAPPI" import --db "$work/yeast.db" --info "$DATA/4932.protein.info.v12.0.txt.gz" \
  --physical "$DATA/4932.protein.physical.links.v12.0.txt.gz" > /dev/null
"$PY" "$(dirname "$0")/check_enrichment.py" "$GRAPPI" "$db" "$DATA/ontology/go-basic.GO.db_3.16.0.obo.gz" \
  "$DATA/export_v12_nsclc/string_interactions.tsv" "$DATA/export_v12_alzheimer/string_interactions.tsv" "$work/yeast.db"
# The JSON follows its schema (docs/schemas/enrich.schema.json) and names nodes by external id.
"$GRAPPI" enrich --db "$db" EGFR KRAS TP53 NOSUCHPROTEIN --json "$work/enrich.json" > /dev/null 2> "$work/err"
grep -q "'NOSUCHPROTEIN' left out: not found" "$work/err" || { echo "FAIL: no warning for an unknown name"; cat "$work/err"; exit 1; }
if [ -z "${GRAPPI_SANITIZED:-}" ]; then
  "$PY" "$(dirname "$0")/check_json_schema.py" "$(dirname "$0")/../docs/schemas/enrich.schema.json" "$work/enrich.json"
  "$GRAPPI" ppi-enrichment --db "$db" EGFR KRAS TP53 --json "$work/ppi.json" > /dev/null
  "$PY" "$(dirname "$0")/check_json_schema.py" "$(dirname "$0")/../docs/schemas/ppi-enrichment.schema.json" "$work/ppi.json"
fi
# A set read from another command's JSON (--from): a window's proteins.
"$GRAPPI" window --db "$db" --protein EGFR --k 10,3 --depth 2 --json > "$work/window.json"
"$GRAPPI" enrich --db "$db" --from "$work/window.json" --fdr 1 --json "$work/from.json" > /dev/null
"$PY" - "$work/window.json" "$work/from.json" << 'PY'
import json, sys
window, got = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
# (a window also walks the proteins' GO annotation edges: its GO terms are no proteins)
want = list(dict.fromkeys(n["external_id"] for n in window["nodes"] if not n["external_id"].startswith("GO:")))
assert sorted(got["proteins"]) == sorted(want), (got["proteins"], want)
assert got["terms"], "no term for the window's proteins"
print(f"enrich --from a window: its {len(want)} proteins")
PY
echo '{"nodes": []}' > "$work/none.json"
rc=0; "$GRAPPI" enrich --db "$db" --from "$work/none.json" > /dev/null 2> "$work/err" || rc=$?
[ "$rc" = 2 ] && grep -q "names no protein of the database" "$work/err" || { echo "FAIL: --from without proteins: $rc"; exit 1; }
# The web explorer answers both at once (GET /api/enrich, /api/ppi-enrichment), bad parameters with 400.
serve_start "$db" "$work/serve.txt"
"$PY" - "$PORT" "$work/enrich.json" << 'PY'
import json, sys, urllib.error, urllib.request

base = "http://127.0.0.1:%s" % sys.argv[1]

def get(path):
    try:
        with urllib.request.urlopen(base + path, timeout=60) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)

cli = json.load(open(sys.argv[2]))
status, got = get("/api/enrich?proteins=EGFR,KRAS,TP53,NOSUCHPROTEIN&fdr=0.05")
assert status == 200, (status, got)
assert got == cli, "GET /api/enrich differs from grappi enrich --json"
status, got = get("/api/enrich?proteins=EGFR,KRAS,TP53&category=Function&exclude_evidence=IEA")
assert status == 200 and {t["category"] for t in got["terms"]} <= {"Function"}, (status, got)
status, got = get("/api/ppi-enrichment?proteins=EGFR,KRAS,TP53&min_score=0.7")
assert status == 200 and got["nodes"] == 3 and "p_value" in got, (status, got)
for path, code, says in (("/api/enrich", 400, "proteins"), ("/api/enrich?proteins=EGFR&fdr=2", 400, "fdr"),
                         ("/api/enrich?proteins=EGFR&category=KEGG", 400, "unknown category"),
                         ("/api/enrich?proteins=NOSUCHPROTEIN", 404, "no name names a protein"),
                         ("/api/ppi-enrichment?proteins=EGFR&min_score=x", 400, "min_score")):
    status, got = get(path)
    assert status == code and says in got.get("error", ""), (path, status, got)
print("serve: /api/enrich equals grappi enrich --json; /api/ppi-enrichment; bad parameters refused")
PY
