#!/usr/bin/env bash
# Replays every fuzz target's seed corpus and regression files through its body (no libFuzzer):
# the normal test suite's guard that no input that once crashed crashes again.
#   replay_all.sh REPLAY_PROGRAM FUZZ_DIR
set -euo pipefail
replay=$1
dir=$2
mapfile -t targets < <("$replay" --list)
[ ${#targets[@]} -gt 0 ] || { echo "no fuzz targets listed" >&2; exit 1; }
for t in "${targets[@]}"; do
  [ -d "$dir/corpus/$t" ] || { echo "fuzz target $t has no seed corpus ($dir/corpus/$t)" >&2; exit 1; }
  inputs=("$dir/corpus/$t")
  [ -d "$dir/regressions/$t" ] && inputs+=("$dir/regressions/$t")
  "$replay" "$t" "${inputs[@]}"
done
