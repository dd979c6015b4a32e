#!/usr/bin/env bash
# A full disk (issue 23): an import that runs out of space fails with a clear message and leaves
# the database exactly as it was (the same SQL dump, integrity_check ok); with space again, the
# same import succeeds; the same for papers (import --corpus: documents, passages and the full-text
# index; issue 40). Two ways to run out: a 16 MiB tmpfs (where this process may mount one: as
# root with CAP_SYS_ADMIN; skipped with a message elsewhere) and a file-size limit (ulimit -f,
# SIGXFSZ ignored: writes past it fail with EFBIG), which works everywhere.
# Needs: GRAPPI (the CLI), DATA (the bundled data), sqlite3 and python3 (tools/install-deps.sh).
set -euo pipefail
: "${GRAPPI:?}" "${DATA:?}"
for tool in sqlite3 python3 awk sha256sum; do
  command -v "$tool" > /dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/grappi_full.XXXXXX")
mounted=""
cleanup() {
  [ -n "$mounted" ] && umount "$mounted" 2> /dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"

# 600,000 edges on 1,200,000 lines: a database of about 30 MB.
awk 'BEGIN { n = 20000; k = 30; print "protein1 protein2 combined_score";
  for (i = 0; i < n; i++) for (d = 1; d <= k; d++) { j = (i + d) % n; s = 150 + (i * 7 + d * 13) % 850;
    printf "9606.ENSP%011d 9606.ENSP%011d %d\n", i, j, s; printf "9606.ENSP%011d 9606.ENSP%011d %d\n", j, i, s } }' > links.txt
"$GRAPPI" import --db base.db --info "$DATA/4932.protein.info.v12.0.txt.gz" > /dev/null
dump() { sqlite3 "$1" .dump | sha256sum | cut -d' ' -f1; }
counts() {
  "$GRAPPI" info --db "$1" --json |
    python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["nodes"], d["edges"], len(d["datasets"]))'
}
before_dump=$(dump base.db)
before=$(counts base.db)

# Runs the import into $1 with the limit already in place; checks the failure and the database.
refused() {  # db label expected-words [import-args...; default --links links.txt]
  local db=$1 label=$2 words=$3 rc=0
  shift 3
  [ $# -gt 0 ] || set -- --links links.txt
  "$GRAPPI" import --db "$db" "$@" > out.txt 2> err.txt || rc=$?
  [ "$rc" -ne 0 ] || { echo "FAIL ($label): the import succeeded"; exit 1; }
  grep -Eqi "$words" err.txt || { echo "FAIL ($label): the message does not say why:"; cat err.txt; exit 1; }
  grep -q "$db" err.txt || { echo "FAIL ($label): the message does not name the database:"; cat err.txt; exit 1; }
  echo "$label: refused with: $(cat err.txt)"
}
unchanged() {  # db label
  local ic
  ic=$(sqlite3 "$1" "PRAGMA integrity_check;")
  [ "$ic" = "ok" ] || { echo "FAIL ($2): integrity_check says: $ic"; exit 1; }
  [ "$(dump "$1")" = "$before_dump" ] || { echo "FAIL ($2): the database changed"; exit 1; }
  [ "$(counts "$1")" = "$before" ] || { echo "FAIL ($2): the counts changed"; exit 1; }
}

# 1. A file-size limit of 8 MiB for the import's process (the database would grow to ~30 MB).
cp base.db limit.db
(
  trap '' XFSZ
  ulimit -f 8192
  refused limit.db "file-size limit" "disk I/O error \\(File too large\\)"
)
unchanged limit.db "file-size limit"
"$GRAPPI" import --db limit.db --links links.txt > /dev/null
after=$(counts limit.db)
[ "$after" != "$before" ] || { echo "FAIL: the import without the limit changed nothing"; exit 1; }
echo "file-size limit: database unchanged; without the limit the same import holds $after (nodes, edges, datasets)"

# 1b. Papers under the same limit: 20,000 generated PubTator abstracts (about 10 MB stored).
awk 'BEGIN { for (i = 0; i < 20000; i++) { p = 30000000 + i; g = sprintf("Gene%d", i % 997);
  printf "%d|t|%s regulates kinase%d signalling in cell line %d\n", p, g, i % 89, i;
  printf "%d|a|We report that %s binds Gene%d and that inhibition of kinase%d reduced proliferation.\n",
    p, g, (i * 7) % 997, i % 89;
  printf "%d\t0\t%d\t%s\tGene\t%d\n\n", p, length(g), g, 1000 + i % 997 } }' > corpus.txt
cp base.db papers.db
(
  trap '' XFSZ
  ulimit -f 8192
  refused papers.db "papers, file-size limit" "File too large" --corpus corpus.txt
)
unchanged papers.db "papers, file-size limit"
"$GRAPPI" import --db papers.db --corpus corpus.txt > /dev/null
held=$(sqlite3 papers.db "SELECT count(*) FROM documents; SELECT count(*) FROM passages_fts WHERE passages_fts MATCH 'proliferation';" | tr '\n' ' ')
[ "$held" = "20000 20000 " ] || { echo "FAIL: the corpus import without the limit holds $held (documents, found)"; exit 1; }
echo "papers, file-size limit: database unchanged; without the limit the same import holds 20000 papers, all found"

# 2. A real full file system, where one can be mounted here.
mkdir small
if mount -t tmpfs -o size=16m tmpfs small 2> /dev/null; then
  mounted="$work/small"
  cp base.db small/full.db
  refused small/full.db "full tmpfs" "database or disk is full"
  unchanged small/full.db "full tmpfs"
  # Space again: the database moves to a roomier place and takes the same import.
  cp small/full.db roomy.db
  [ ! -e small/full.db-wal ] || cp small/full.db-wal roomy.db-wal
  "$GRAPPI" import --db roomy.db --links links.txt > /dev/null
  [ "$(counts roomy.db)" = "$after" ] || { echo "FAIL: the import after the full disk is incomplete"; exit 1; }
  echo "full tmpfs: database unchanged; elsewhere the same import holds $after"
else
  echo "note: cannot mount a tmpfs here (not root, or no CAP_SYS_ADMIN): only the file-size limit was tested"
fi
