#!/usr/bin/env bash
# The README's first command: installs the Debian packages, builds grappi, imports the bundled
# demo data (human protein info + the STRING v12 Alzheimer and NSCLC exports) and runs the
# main job (grappi explore) on MAPT with the offline extractive model.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
DB=build/demo.db
rm -f "$DB" "$DB-wal" "$DB-shm"
./build/grappi import --db "$DB" --info data/9606.protein.info.v12.0.txt.gz \
  --export data/export_v12_alzheimer/string_interactions.tsv \
  --export data/export_v12_nsclc/string_interactions.tsv
./build/grappi info --db "$DB"
./build/grappi embed --db "$DB"
echo
# The main job: ranked, explained PPI paths from MAPT toward a therapeutic impact, with the
# offline extractive model (use --llm openai --base-url URL --model M for a real LLM).
./build/grappi explore --db "$DB" --protein MAPT --query "inhibit tau phosphorylation" \
  --windows 1 --k 30,4 --depth 2 --max-len 4 --top 10 \
  --json build/demo-explore.json --report build/demo-explore.md --cx2 build/demo-explore.cx2 \
  --html build/demo-explore.html
echo
echo "wrote build/demo-explore.json, build/demo-explore.md, build/demo-explore.cx2 (open in Cytoscape) and"
echo "build/demo-explore.html (open in a browser); grappi serve --db $DB starts the web explorer"
