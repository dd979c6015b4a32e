#!/usr/bin/env bash
# grappi's MCP server (issue 59): a database with every kind of data the tools read (STRING's
# human proteins and the Alzheimer network export, the NSCLC export's functional annotations,
# three BioRED abstracts' co-occurrence graph), then two independent clients: raw JSON-RPC over
# the stdio pipe (raw_client.py, Python) and the official MCP TypeScript SDK's client over stdio
# and over streamable HTTP (sdk_client.mjs, Node.js; skipped with a message when Node.js or the
# SDK is missing). Needs: GRAPPI, DATA, DBDIR (h.db and y.db of the cli_setup fixtures), python3.
set -euo pipefail
: "${GRAPPI:?}" "${DATA:?}" "${DBDIR:?}"
here=$(cd "$(dirname "$0")" && pwd)
schemas="$here/../../docs/schemas"
T=$(mktemp -d "${TMPDIR:-/tmp}/grappi_mcp.XXXXXX")
trap 'rm -rf "$T"' EXIT
cp "$DBDIR/h.db" "$T/mcp.db"
"$GRAPPI" import --db "$T/mcp.db" --annotations "$DATA/export_v12_nsclc/string_functional_annotations.tsv.gz" > /dev/null
"$GRAPPI" cooc build --db "$T/mcp.db" --corpus "$here/../data/literature/BioRED.Test.first3.PubTator" --quiet
python3 "$here/raw_client.py" "$GRAPPI" "$T/mcp.db" "$schemas" "$here/calls.json"
command -v node > /dev/null || { echo "SKIP: Node.js is not installed (the SDK client tests)"; exit 77; }
skipped=0
for mode in stdio http; do
  rc=0
  node "$here/sdk_client.mjs" "$mode" "$GRAPPI" "$T/mcp.db" "$DBDIR/y.db" "$schemas" "$here/calls.json" || rc=$?
  if [ "$rc" -eq 77 ]; then skipped=1; elif [ "$rc" -ne 0 ]; then echo "FAIL: the SDK client over $mode"; exit 1; fi
done
[ "$skipped" -eq 0 ] || exit 77
echo "mcp: ok"
