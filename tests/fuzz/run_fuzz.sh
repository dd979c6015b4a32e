#!/usr/bin/env bash
# Runs every libFuzzer target of a GRAPPI_FUZZ=ON build for a bounded time (CI's fuzz stage).
#   run_fuzz.sh BUILD_DIR [SECONDS_PER_TARGET=20] [PARALLEL=2]
# Each target starts from a copy of its seed corpus with its format's dictionary; a crash, a
# leak, a sanitizer report, a timeout (10 s for one input) or an out-of-memory (2 GiB) fails the
# run, and the input that did it is left in fuzz-findings/TARGET/ (add it to regressions/TARGET/
# once fixed: the normal test suite replays it).
set -euo pipefail
build=$1
seconds=${2:-20}
parallel=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
out="$PWD/fuzz-findings"
rm -rf "$out" && mkdir -p "$out"
dict_of() {
  case "$1" in
    import_obo) echo obo ;;
    import_bel | bel_script) echo bel ;;
    import_cx2 | import_jsonl | documents_bioc_json | documents_jsonl | qa_questions | cooc_partial | embed_vectors | extraction_part | community_set | mcp_message | model_*) echo json ;;
    documents_bioc_xml | documents_ppi_xml) echo xml ;;
    documents_pubtator) echo pubtator ;;
    question_analysis) echo question ;;
    import_* | review_file) echo tsv ;;
    *) echo "" ;;
  esac
}
run_one() {
  local t=$1 bin="$build/tests/fuzz_$1" work="$out/$1"
  mkdir -p "$work/corpus"
  cp -r "$here/corpus/$t/." "$work/corpus/"
  [ -d "$here/regressions/$t" ] && cp -r "$here/regressions/$t/." "$work/corpus/"
  local dict args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1
                   -artifact_prefix="$work/")
  dict=$(dict_of "$t")
  [ -n "$dict" ] && args+=(-dict="$here/dict/$dict.dict")
  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
     "$bin" "${args[@]}" "$work/corpus" > "$work/log" 2>&1; then
    echo "$t: $(grep -m1 -o 'stat::number_of_executed_units: [0-9]*' "$work/log" | awk '{print $2}') runs, no finding"
  else
    echo "$t: FAILED (log and input in $work)"; tail -40 "$work/log"; return 1
  fi
}
export -f run_one dict_of
export build seconds here out
mapfile -t targets < <(cd "$build/tests" && ls fuzz_* | sed 's/^fuzz_//')
[ ${#targets[@]} -gt 0 ] || { echo "no fuzz targets in $build/tests" >&2; exit 1; }
printf '%s\n' "${targets[@]}" | xargs -P "$parallel" -I{} bash -c 'run_one {}'
