#!/usr/bin/env bash
# Checks the dynamic export list of a shared library. Usage:
#   check_exports.sh c   libgrappi_c.so   -> only grappi_* functions (the C API)
#   check_exports.sh cxx libgrappi.so     -> only the public C++ API: grappi:: names (no
#                                            grappi::detail, no private Impl/State/Data classes)
#                                            and their type information and vtables
set -euo pipefail
kind=$1 lib=$2
case $kind in
  c)
    bad=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^grappi_' | grep -v '^$' || true) ;;
  cxx)
    bad=$(nm -D --defined-only -C "$lib" | cut -d' ' -f3- |
          grep -Ev '^((typeinfo|typeinfo name|vtable|non-virtual thunk to|virtual thunk to) (for )?)?grappi::' || true)
    bad+=$(nm -D --defined-only -C "$lib" | cut -d' ' -f3- |
           grep -E 'grappi::detail|::(Impl|State|Data|Hnsw)::|nlohmann|hnswlib|Eigen|sqlite' || true) ;;
  *) echo "usage: $0 c|cxx LIBRARY" >&2; exit 2 ;;
esac
count=$(nm -D --defined-only "$lib" | wc -l)
if [ -n "$bad" ]; then
  echo "$lib exports symbols outside its API:"
  echo "$bad" | head -20
  exit 1
fi
echo "$lib: $count exported symbols, all of the $kind API"
