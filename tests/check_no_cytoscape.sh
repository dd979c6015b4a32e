#!/usr/bin/env bash
# The library configures without npm's cytoscape.js (only the reports' drawing needs it): a
# warning says so, and the embedded web assets are generated and compile without it.
#   check_no_cytoscape.sh SOURCE_DIR
set -euo pipefail
src=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cmake -S "$src" -B "$d" -DGRAPPI_CYTOSCAPE_JS=/nonexistent/cytoscape.min.js -DGRAPPI_BUILD_TESTS=OFF \
  -DGRAPPI_BUILD_TOOLS=OFF -DGRAPPI_BUILD_EXAMPLES=OFF > "$d/log" 2>&1 || { cat "$d/log"; fail "configure"; }
grep -q "built without their network drawing" "$d/log" || fail "no warning: $(cat "$d/log")"
cmake --build "$d" --target grappi_html_assets > /dev/null
grep -q 'name == "report.js"' "$d/html_assets.cpp" || fail "report.js not embedded"
! grep -q 'name == "cytoscape.js"' "$d/html_assets.cpp" || fail "cytoscape.js embedded"
# The generated file is the only source that differs (no source tests for cytoscape.js at
# compile time): it compiles, so the library builds.
"${CXX:-c++}" -std=c++17 -fsyntax-only "$d/html_assets.cpp" || fail "the generated assets do not compile"
echo "configured, generated and compiled the web assets without cytoscape.js"
