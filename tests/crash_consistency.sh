#!/usr/bin/env bash
# Crash consistency (issue 23): an import of a generated STRING links file of 1.2 million lines
# is killed with SIGKILL at several points, from its first rows to its final commit. After every
# kill the database must open, pass PRAGMA integrity_check, hold either nothing of that import or
# all of it, and take the same import again.
# The same for papers (issue 40): an import --corpus of 20,000 generated abstracts killed while it
# reads and while it commits holds none or all of the documents, their passages and the full-text
# index (FTS5's own integrity check), and `grappi papers` finds them after the import again.
# Then neighbors, window and info read in loops while the links import writes.
# Needs: GRAPPI (the CLI), DATA (the bundled data), sqlite3 and python3 (tools/install-deps.sh).
set -euo pipefail
: "${GRAPPI:?}" "${DATA:?}"
for tool in sqlite3 python3 awk; do
  command -v "$tool" > /dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/grappi_crash.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

# 20,000 proteins, each linked to its next 30 (both directions, as STRING lists them):
# 600,000 edges on 1,200,000 lines.
awk 'BEGIN { n = 20000; k = 30; print "protein1 protein2 combined_score";
  for (i = 0; i < n; i++) for (d = 1; d <= k; d++) { j = (i + d) % n; s = 150 + (i * 7 + d * 13) % 850;
    printf "9606.ENSP%011d 9606.ENSP%011d %d\n", i, j, s; printf "9606.ENSP%011d 9606.ENSP%011d %d\n", j, i, s } }' > links.txt

# What the database holds before the import (a first dataset) and after a complete one.
"$GRAPPI" import --db base.db --info "$DATA/4932.protein.info.v12.0.txt.gz" \
  --physical "$DATA/4932.protein.physical.links.v12.0.txt.gz" > /dev/null
base_size=$(stat -c %s base.db)
counts() {  # nodes edges datasets
  "$GRAPPI" info --db "$1" --json |
    python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["nodes"], d["edges"], len(d["datasets"]))'
}
size() { stat -c %s "$1" 2> /dev/null || echo 0; }
before=$(counts base.db)

# The complete import, watched every 5 ms: how long it reads before its first write to the
# write-ahead log, and how large the log grows while it commits.
cp base.db full.db
"$GRAPPI" import --db full.db --links links.txt > /dev/null &
pid=$!
t0=$EPOCHREALTIME read_end="" wal_max=0
while kill -0 "$pid" 2> /dev/null; do
  w=$(size full.db-wal)
  if [ "$w" -gt 0 ] && [ -z "$read_end" ]; then read_end=$EPOCHREALTIME; fi
  [ "$w" -gt "$wal_max" ] && wal_max=$w
  sleep 0.005
done
wait "$pid"
after=$(counts full.db)
[ "$before" != "$after" ] || { echo "FAIL: the import changed nothing ($after)"; exit 1; }
[ -n "$read_end" ] || { echo "FAIL: the import's commit was not seen in its write-ahead log"; exit 1; }
reading=$(python3 -c "print($read_end - $t0)")
echo "before the import: $before; after it: $after (nodes, edges, datasets)"
echo "the import read for ${reading} s before writing to its log, which grew to $wal_max bytes"

check() {  # db label: integrity, all or nothing
  local db=$1 label=$2 ic now
  ic=$(sqlite3 "$db" "PRAGMA integrity_check;")
  [ "$ic" = "ok" ] || { echo "FAIL ($label): integrity_check says: $ic" >&2; exit 1; }
  now=$(counts "$db")
  if [ "$now" != "$before" ] && [ "$now" != "$after" ]; then
    echo "FAIL ($label): the database holds part of the import: $now (before: $before, after: $after)" >&2
    exit 1
  fi
  echo "$now"
}

# How far a process has read a file: the offset of its descriptor on it (0 when it has none
# open). Usage: read_offset PID FILE (FILE an absolute path without symbolic links).
read_offset() {
  local fd pos
  for fd in /proc/"$1"/fd/*; do
    if [ "$(readlink "$fd" 2> /dev/null)" = "$2" ]; then
      pos=$(awk '$1 == "pos:" { print $2; exit }' /proc/"$1"/fdinfo/"${fd##*/}" 2> /dev/null || true)
      echo "${pos:-0}"
      return
    fi
  done
  echo 0
}

# Kill points: early and mid-way through the reading (nothing written yet), the commit's first
# and middle frames in the log (not yet committed), and the checkpoint that copies the
# committed log into the database file.
# Runs an import into a fresh copy of base.db and kills it at a point: read:F (it has read the
# share F of FILE: the same point however loaded the machine is; a kill timed in seconds
# missed the reading when the machine was busier while the reading was timed), wal:N (its log
# has N bytes), checkpoint (the database file grows). Sets $killed.
# Usage: kill_import_at POINT DB FILE IMPORT-ARGS...
kill_import_at() {
  local point=$1 db=$2 file pid target
  file=$(realpath "$3")
  shift 3
  cp base.db "$db"
  rm -f "$db-wal" "$db-shm"
  "$GRAPPI" import --db "$db" "$@" > /dev/null 2> "$db.err" &
  pid=$!
  case $point in
    read:*) target=$(python3 -c "print(int($(size "$file") * ${point#read:}))")
      while kill -0 "$pid" 2> /dev/null && [ "$(read_offset "$pid" "$file")" -lt "$target" ]; do sleep 0.002; done ;;
    wal:*) while kill -0 "$pid" 2> /dev/null && [ "$(size "$db-wal")" -lt "${point#wal:}" ]; do sleep 0.002; done ;;
    checkpoint) while kill -0 "$pid" 2> /dev/null && [ "$(size "$db")" -le "$base_size" ]; do sleep 0.002; done ;;
  esac
  if kill -KILL "$pid" 2> /dev/null; then killed=yes; else killed="no, it had finished"; fi
  wait "$pid" 2> /dev/null || true
}
none=0 all=0
for point in read:0.03 read:0.5 wal:1 wal:$((wal_max / 2)) checkpoint; do
  kill_import_at "$point" k.db links.txt --links links.txt
  state=$(check k.db "killed at $point")
  if [ "$state" = "$before" ]; then none=$((none + 1)); held=nothing; else all=$((all + 1)); held=all; fi
  # The same import again completes (or finds the file already imported) and holds all of it.
  "$GRAPPI" import --db k.db --links links.txt > /dev/null
  [ "$(counts k.db)" = "$after" ] || { echo "FAIL: the import after the kill at $point is incomplete"; exit 1; }
  echo "killed at $point (SIGKILL sent: $killed): held $held of the import; integrity ok; the next import ok"
done
# Most kills must have landed inside the import, not after it.
[ "$none" -ge 3 ] || { echo "FAIL: only $none kill(s) interrupted the import before its commit"; exit 1; }
echo "crash consistency: $none kill(s) left nothing of the import, $all left all of it"

# Papers: 20,000 PubTator abstracts, each a title, an abstract and one annotation.
awk 'BEGIN { for (i = 0; i < 20000; i++) { p = 30000000 + i; g = sprintf("Gene%d", i % 997);
  printf "%d|t|%s regulates kinase%d signalling in cell line %d\n", p, g, i % 89, i;
  printf "%d|a|We report that %s binds Gene%d and that inhibition of kinase%d reduced proliferation in %d of 60 samples.\n",
    p, g, (i * 7) % 997, i % 89, i % 50;
  printf "%d\t0\t%d\t%s\tGene\t%d\n\n", p, length(g), g, 1000 + i % 997 } }' > corpus.txt
papers() {  # documents, passages and the passages the full-text index finds for a word of every abstract
  sqlite3 "$1" "SELECT (SELECT count(*) FROM documents) || ' ' || (SELECT count(*) FROM passages) || ' ' ||
                       (SELECT count(*) FROM passages_fts WHERE passages_fts MATCH 'proliferation');"
}
papers_before=$(papers base.db)
cp base.db pfull.db
"$GRAPPI" import --db pfull.db --corpus corpus.txt > /dev/null
papers_after=$(papers pfull.db)
[ "$papers_after" = "20000 40000 20000" ] || { echo "FAIL: the corpus import holds $papers_after (documents, passages, found)"; exit 1; }
for point in read:0.2 read:0.6 wal:1 checkpoint; do
  kill_import_at "$point" pk.db corpus.txt --corpus corpus.txt
  ic=$(sqlite3 pk.db "PRAGMA integrity_check;")
  [ "$ic" = "ok" ] || { echo "FAIL (papers killed at $point): integrity_check says: $ic"; exit 1; }
  sqlite3 pk.db "INSERT INTO passages_fts(passages_fts) VALUES('integrity-check');" ||
    { echo "FAIL (papers killed at $point): the full-text index disagrees with the passages"; exit 1; }
  now=$(papers pk.db)
  [ "$now" = "$papers_before" ] || [ "$now" = "$papers_after" ] ||
    { echo "FAIL (papers killed at $point): the database holds part of the corpus: $now"; exit 1; }
  "$GRAPPI" import --db pk.db --corpus corpus.txt > /dev/null
  [ "$(papers pk.db)" = "$papers_after" ] || { echo "FAIL: the corpus import after the kill at $point is incomplete"; exit 1; }
  "$GRAPPI" papers --db pk.db "Gene5 AND proliferation" --limit 1 --json - | grep '"pmid"' > /dev/null ||
    { echo "FAIL: grappi papers finds nothing after the kill at $point"; exit 1; }
  echo "papers killed at $point (SIGKILL sent: $killed): held $([ "$now" = "$papers_before" ] && echo nothing || echo all) of the corpus; integrity and full-text index ok; the next import ok"
done

# Readers during an import: neighbors, window and info in loops, each its own process on the
# same database, while the import writes. None may fail ("database is locked" or anything
# else), and each answer is the one before the import or the one after it.
cp base.db r.db
rm -f r.db-wal r.db-shm
read_all() {  # db suffix
  "$GRAPPI" neighbors --db "$1" CDC28 --limit 20 --json > "nb$2.json"
  "$GRAPPI" window --db "$1" --protein CDC28 --k 5,2 --depth 2 --json > "w$2.json"
  counts "$1" > "info$2.txt"
}
read_all r.db .before
read_all full.db .after  # (full.db: the same yeast data, plus the complete import)
"$GRAPPI" import --db r.db --links links.txt > /dev/null &
pid=$!
reader() {  # kind: loops until the import ends; prints the number of answers read
  local kind=$1 n=0 out="$work/$1.$BASHPID"
  while kill -0 "$pid" 2> /dev/null; do
    case $kind in
      neighbors) "$GRAPPI" neighbors --db r.db CDC28 --limit 20 --json > "$out" 2> "$out.err" ||
        { echo "FAIL: neighbors during the import: $(cat "$out.err")" >&2; return 1; }
        cmp -s "$out" nb.before.json || cmp -s "$out" nb.after.json ||
        { echo "FAIL: neighbors during the import answered neither the answer before nor after it" >&2; return 1; } ;;
      window) "$GRAPPI" window --db r.db --protein CDC28 --k 5,2 --depth 2 --json > "$out" 2> "$out.err" ||
        { echo "FAIL: window during the import: $(cat "$out.err")" >&2; return 1; }
        cmp -s "$out" w.before.json || cmp -s "$out" w.after.json ||
        { echo "FAIL: window during the import answered neither the answer before nor after it" >&2; return 1; } ;;
      info) counts r.db > "$out" 2> "$out.err" || { echo "FAIL: info during the import: $(cat "$out.err")" >&2; return 1; }
        cmp -s "$out" info.before.txt || cmp -s "$out" info.after.txt ||
        { echo "FAIL: info during the import counted $(cat "$out")" >&2; return 1; } ;;
    esac
    n=$((n + 1))
  done
  echo "$n"
}
reader neighbors > n1.txt & r1=$!
reader window > n2.txt & r2=$!
reader info > n3.txt & r3=$!
ok=yes
wait "$r1" || ok=no
wait "$r2" || ok=no
wait "$r3" || ok=no
wait "$pid" || { echo "FAIL: the import beside the readers failed"; exit 1; }
[ "$ok" = yes ] || exit 1
[ "$(counts r.db)" = "$after" ] || { echo "FAIL: the import beside the readers is incomplete"; exit 1; }
echo "readers during the import: $(cat n1.txt) neighbors, $(cat n2.txt) window and $(cat n3.txt) info answers, none failed or inconsistent"
[ "$(cat n1.txt)" -ge 2 ] && [ "$(cat n2.txt)" -ge 2 ] || { echo "FAIL: the readers did not overlap the import"; exit 1; }
