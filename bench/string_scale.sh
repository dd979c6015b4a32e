#!/usr/bin/env bash
# Human-scale benchmark: STRING v12 human's size (19,622 proteins, 6.86M links), every path a user takes.
# Usage: bench/string_scale.sh [BUILD_DIR] [WORK_DIR] [RUNS] [SECTIONS]
#   Generates a STRING v12 human-sized network with gen_string_like.py (GEN: the generator of the
#   project's shared tools; 13.7M link lines; real human protein.info identifiers and annotations)
#   unless WORK_DIR has it, then
#   import:  per run, sqlite3 .import without and with an index, and grappi import (ids resolved,
#            both directions merged, indexes built), with wall time, peak RSS and size;
#   embed:   grappi embed (vectors and the neighbour ranking);
#   queries: per run, wall time and peak RSS of single commands (the database opened each time:
#            neighbors, window, paths, ask, explore offline, explore's model plan by --dry-run);
#   qa:      75 questions generated from the network (bench/make_string_questions.py), eval qa's own
#            p50/p95 of ask in-process, and p50/p95 of ask from the command line over 25 of them;
#   serve:   grappi serve under 32 clients sending neighbors requests back to back for 20 s, then 4
#            clients asking questions (bench/serve/serve_load.cpp), latency percentiles and the server's peak RSS.
#   SECTIONS: a comma list of those (default all). Only timings are printed: nothing is asserted.
# Another network: LINKS and INFO (plain text, STRING's formats), P1, P2, P3 three of its proteins' names (TP53,
# BRCA1, RAD51), LOAD_SECONDS the serve clients' time (20): the test suite runs it so on the yeast network.
set -euo pipefail
BUILD=${1:-build}
WORK=${2:-/tmp/grappi-scale}
RUNS=${3:-3}
SECTIONS=${4:-import,embed,queries,qa,serve}
want() { [[ ",$SECTIONS," == *",$1,"* ]]; }
HERE=$(cd "$(dirname "$0")" && pwd)
GEN=${GEN:-$(dirname "$0")/../../shared/tools/gen_string_like.py}
INFO_REAL=${INFO_REAL:-$(dirname "$0")/../data/9606.protein.info.v12.0.txt.gz}
mkdir -p "$WORK"
LINKS=${LINKS:-$WORK/net/9606.protein.links.v12.0.txt}
INFO=${INFO:-$WORK/net/9606.protein.info.v12.0.txt}
P1=${P1:-TP53}
P2=${P2:-BRCA1}
P3=${P3:-RAD51}
LOAD_SECONDS=${LOAD_SECONDS:-20}
if [ ! -f "$LINKS" ]; then
  python3 "$GEN" --out "$WORK/net" --info "$INFO_REAL" > "$WORK/gen.log" 2>&1
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(awk '/MemTotal/ { printf "%d", $2 / 1048576 }' /proc/meminfo) GiB"
echo "links file: $(wc -l < "$LINKS") lines, $(du -mL "$LINKS" | cut -f1) MB"
t() { /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1; }
if want import; then
for r in $(seq "$RUNS"); do
  rm -f "$WORK"/s.db* "$WORK"/g.db*
  read -r s_wall s_rss < <(t sqlite3 "$WORK/s.db" ".separator ' '" ".import $LINKS links")
  rm -f "$WORK"/s.db*
  read -r si_wall si_rss < <(t sqlite3 "$WORK/s.db" ".separator ' '" ".import $LINKS links" "CREATE INDEX i ON links(protein1, protein2)")
  read -r g_wall g_rss < <(t "$BUILD/grappi" import --db "$WORK/g.db" --info "$INFO" --links "$LINKS")
  size=$(du -m "$WORK/g.db" | cut -f1)
  echo "run $r: sqlite3 .import ${s_wall}s (${s_rss} KB) | sqlite3 .import+index ${si_wall}s | grappi import ${g_wall}s, peak RSS $((g_rss / 1024)) MB, db ${size} MB, ratio grappi/sqlite3 $(python3 -c "print(round($g_wall/$s_wall, 2))")"
done
"$BUILD/bench/bench_graph" --db "$WORK/g.db" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
fi
G="$BUILD/grappi"
DB="$WORK/g.db"
[ -f "$DB" ] || "$G" import --db "$DB" --info "$INFO" --links "$LINKS" > /dev/null
if want embed; then
  read -r e_wall e_rss < <(t "$G" embed --db "$DB")
  echo "embed: ${e_wall}s, peak RSS $((e_rss / 1024)) MB"
fi
[ -f "$DB.knn" ] || "$G" embed --db "$DB" > /dev/null
if want queries; then
  # (the snapshot, name dictionary and vector files written once, as a first use after a change writes them)
  "$G" neighbors --db "$DB" "$P1" --limit 1 > /dev/null
  "$G" ask --db "$DB" "What does $P1 interact with?" > /dev/null
  q() {  # name, then the command: RUNS timings
    local name=$1 out=""
    shift
    for _ in $(seq "$RUNS"); do
      read -r w m < <(t "$@")
      out="$out ${w}s/$((m / 1024))MB"
    done
    echo "$name:$out"
  }
  q "neighbors $P1" "$G" neighbors --db "$DB" "$P1" --limit 10
  q "window $P1 (k 30,4)" "$G" window --db "$DB" --protein "$P1"
  q "paths $P1 -> $P2 (k 10, <= 4 edges)" "$G" paths --db "$DB" --from "$P1" --to "$P2"
  q "ask 'What does $P1 interact with?'" "$G" ask --db "$DB" "What does $P1 interact with?"
  q "ask 'What connects $P2 and $P3?'" "$G" ask --db "$DB" "What connects $P2 and $P3?"
  q "explore $P1 offline" "$G" explore --db "$DB" --protein "$P1" --query "inhibit tumour growth"
  echo "explore $P1, a model's plan: $("$G" explore --db "$DB" --protein "$P1" --query "inhibit tumour growth" \
    --llm openai --model plan --dry-run 2>&1 | grep '^dry run')"
fi
[ -f "$WORK/qa.jsonl" ] || python3 "$HERE/make_string_questions.py" "$LINKS" "$INFO" --per-intent 25 \
  --intents partners,connects,topic > "$WORK/qa.jsonl" 2> /dev/null
if want qa; then
  for _ in $(seq "$RUNS"); do
    echo "eval qa (75 questions): $("$G" eval qa --db "$DB" --questions "$WORK/qa.jsonl" | grep 'question(s) in')"
  done
  # ask from the command line, a whole process per question: every third question (25 of the 75), each
  # timed from its start to its exit; the first one after a change writes the files beside the database.
  "$G" ask --db "$DB" "$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["question"])' "$WORK/qa.jsonl")" > /dev/null
  echo "ask from the command line: $(python3 - "$G" "$DB" "$WORK/qa.jsonl" <<'PY'
import json, statistics, subprocess, sys, time
grappi, db, path = sys.argv[1:4]
questions = [json.loads(line)["question"] for line in open(path)][::3]
seconds = []
for q in questions:
    t0 = time.perf_counter()
    rc = subprocess.run([grappi, "ask", "--db", db, q], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    seconds.append(time.perf_counter() - t0)
    if rc != 0:
        sys.exit("ask exited %d on %r" % (rc, q))
seconds.sort()
print("%d questions, p50 %.3f s, p95 %.3f s" % (len(seconds), statistics.median(seconds),
                                                 seconds[max(0, -(-95 * len(seconds) // 100) - 1)]))
PY
)"
fi
if want serve; then
  awk -F"\t" 'NR > 1 && NR <= 2001 { print $2 }' "$INFO" > "$WORK/proteins.txt"
  "$G" serve --db "$DB" --port 0 --max-jobs 4 > "$WORK/serve.out" 2>&1 &
  SERVE=$!
  for _ in $(seq 100); do grep -qo 'http://[0-9.:]*' "$WORK/serve.out" && break; sleep 0.1; done
  URL=$(grep -o 'http://[0-9.:]*' "$WORK/serve.out" | head -1)
  # (the C++ client, bench/serve/serve_load.cpp)
  [ -n "$URL" ] || { echo "serve did not start: $(cat "$WORK/serve.out")" >&2; kill "$SERVE"; exit 1; }
  echo "serve, 32 clients, neighbors: $("$BUILD/bench/serve_load" "$URL" 32 "$LOAD_SECONDS" neighbors "$WORK/proteins.txt")"
  echo "serve, 4 clients, ask: $("$BUILD/bench/serve_load" "$URL" 4 "$LOAD_SECONDS" ask "$WORK/qa.jsonl")"
  echo "serve peak RSS: $(awk '/VmHWM/ { print int($2 / 1024) }' "/proc/$SERVE/status") MB"
  kill -INT "$SERVE"
  wait "$SERVE" 2> /dev/null || true
fi
