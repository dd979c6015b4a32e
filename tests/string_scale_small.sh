#!/usr/bin/env bash
# bench/string_scale.sh on the bundled yeast network (176,304 links instead of 6.86 million), every
# section once: the scale benchmark's paths stay runnable (import beside sqlite3, embed, the single
# commands, eval qa, serve under concurrent clients). Nothing about time is asserted; every section
# must print its figures, and the served requests must all succeed.
# Needs: BUILD (the build tree), DATA (the bundled data), sqlite3, python3 and GNU time.
set -euo pipefail
: "${BUILD:?}" "${DATA:?}"
for tool in sqlite3 python3 /usr/bin/time; do
  command -v "$tool" > /dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
for tool in grappi bench/serve_load bench/bench_graph; do
  [ -x "$BUILD/$tool" ] || { echo "SKIP: $BUILD/$tool is not built"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/grappi_scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/net"
zcat "$DATA/4932.protein.physical.links.v12.0.txt.gz" > "$work/net/links.txt"
zcat "$DATA/4932.protein.info.v12.0.txt.gz" > "$work/net/info.txt"
here=$(cd "$(dirname "$0")" && pwd)
LINKS="$work/net/links.txt" INFO="$work/net/info.txt" P1=CDC28 P2=CLN2 P3=CLB2 LOAD_SECONDS=2 \
  bash "$here/../bench/string_scale.sh" "$BUILD" "$work" 1 > "$work/out.txt" 2> "$work/err.txt" ||
  { cat "$work/out.txt" "$work/err.txt"; echo "FAIL: bench/string_scale.sh exited non-zero"; exit 1; }
cat "$work/out.txt"
for want in "^run 1: sqlite3 .import" "^embed: " "^neighbors CDC28: " "^window CDC28" "^paths CDC28 -> CLN2" \
            "^ask 'What does CDC28 interact with\?'" "^ask 'What connects CLN2 and CLB2\?'" "^explore CDC28 offline" \
            "^explore CDC28, a model's plan: dry run: [0-9]+ model calls" "^eval qa .*ask per question p50" \
            "^ask from the command line: [0-9]+ questions, p50 [0-9.]+ s" \
            "^serve, 32 clients, neighbors: .*\"errors\":0" "^serve, 4 clients, ask: .*\"errors\":0" "^serve peak RSS: [0-9]+ MB"; do
  grep -Eq "$want" "$work/out.txt" || { echo "FAIL: no line matching '$want'"; exit 1; }
done
# (every request served: at least one of each kind)
grep -E '^serve, 32 clients' "$work/out.txt" | grep -Eq '"requests":[1-9]' || { echo "FAIL: no neighbors request served"; exit 1; }
grep -E '^serve, 4 clients' "$work/out.txt" | grep -Eq '"requests":[1-9]' || { echo "FAIL: no question served"; exit 1; }
echo "string_scale on the yeast network: every section ran"
