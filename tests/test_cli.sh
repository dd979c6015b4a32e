#!/usr/bin/env bash
# End-to-end test of the grappi command line on the bundled data.
set -euo pipefail
: "${GRAPPI:?path to the grappi binary}" "${DATA:?path to data/}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$GRAPPI" import --db "$T/y.db" --info "$DATA/4932.protein.info.v12.0.txt.gz" \
  --aliases "$DATA/4932.protein.aliases.v12.0.txt.gz" --physical "$DATA/4932.protein.physical.links.v12.0.txt.gz" > "$T/out"
grep -q "physical" "$T/out" || fail "import table"
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
"$GRAPPI" neighbors --db "$T/y.db" cdc28 --min-score 900 --limit 3 --json > "$T/nb.json"
python3 - "$T/nb.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["protein"]["name"] == "CDC28"
assert len(j["neighbors"]) == 3
s = [n["score"] for n in j["neighbors"]]
assert s == sorted(s, reverse=True) and min(s) >= 0.9
PY
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
echo "cli: all checks passed"
