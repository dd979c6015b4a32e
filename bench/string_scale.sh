#!/usr/bin/env bash
# Human-scale import benchmark, side by side with the sqlite3 shell's plain .import.
# Usage: bench/string_scale.sh [BUILD_DIR] [WORK_DIR] [RUNS]
#   Generates a STRING v12 human-sized network with ../shared/tools/gen_string_like.py (13.7M
#   link lines; real human protein.info identifiers and annotations) unless WORK_DIR has it,
#   then for each run: sqlite3 .import without and with an index, and grappi import
#   (ids resolved, both directions merged, indexes built), with wall time, peak RSS and size.
set -euo pipefail
BUILD=${1:-build}
WORK=${2:-/tmp/grappi-scale}
RUNS=${3:-3}
GEN=${GEN:-$(dirname "$0")/../../shared/tools/gen_string_like.py}
INFO_REAL=${INFO_REAL:-$(dirname "$0")/../data/9606.protein.info.v12.0.txt.gz}
mkdir -p "$WORK"
LINKS="$WORK/net/9606.protein.links.v12.0.txt"
INFO="$WORK/net/9606.protein.info.v12.0.txt"
if [ ! -f "$LINKS" ]; then
  python3 "$GEN" --out "$WORK/net" --info "$INFO_REAL" > "$WORK/gen.log" 2>&1
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem/{print $2}') GiB"
echo "links file: $(wc -l < "$LINKS") lines, $(du -mL "$LINKS" | cut -f1) MB"
t() { /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1; }
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
