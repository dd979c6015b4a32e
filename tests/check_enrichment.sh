#!/usr/bin/env bash
# grappi enrich and ppi-enrichment against scipy, statsmodels and networkx on the
# human demo database with GO and NCBI's gene table imported (tests/check_enrichment.py).
# Needs: GRAPPI (the CLI), DATA (the bundled data), a python3 with scipy and statsmodels.
set -euo pipefail
: "${GRAPPI:?}" "${DATA:?}"
. "$(dirname "$0")/python_with.sh"
python_with "scipy.stats, statsmodels.stats.multitest, networkx" "python3-scipy python3-statsmodels python3-networkx"
work=$(mktemp -d "${TMPDIR:-/tmp}/grappi_enrich.XXXXXX")
trap 'rm -rf "$work"' EXIT
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
