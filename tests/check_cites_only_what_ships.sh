#!/usr/bin/env bash
# What a user of the repository reads - public headers, sources, the C layer, bindings, tools,
# README and docs/ - cites papers, repositories and the repository's own files, never the
# development workspace beside it (../shared, its ALGORITHMS.md or STYLE.md). BENCHMARKS.md and
# bench/ are for developers and may.
#   check_cites_only_what_ships.sh SOURCE_DIR
set -euo pipefail
cd "$1"
found=$(grep -rnE '\.\./shared|ALGORITHMS\.md|STYLE\.md' include src capi bindings tools docs README.md examples 2>/dev/null |
  grep -v '^tools/check_layers.py' || true)
if [ -n "$found" ]; then
  echo "FAIL: references outside the repository:"
  echo "$found"
  exit 1
fi
echo "no reference outside the repository"
