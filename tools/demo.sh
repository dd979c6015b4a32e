#!/usr/bin/env bash
# The README's first command: installs the Debian packages, builds grappi, imports the bundled
# demo data (human protein info + the STRING v12 Alzheimer and NSCLC exports) and runs the
# main job on MAPT.
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
./build/grappi window --db "$DB" --protein MAPT --k 10,2 --depth 2
echo
./build/grappi paths --db "$DB" --from MAPT --to APOE --max-len 3 --k 5
