#!/usr/bin/env bash
# Installs the Debian 12 packages grappi builds and tests with, and its C++ benchmarks, and the
# npm packages of web/ (cytoscape.js and the fcose layout, embedded in the HTML reports; playwright-core, which drives
# Chromium in the browser tests) with `npm ci` from web/package-lock.json. Needs root (or sudo). python3-pybel reads the BEL exports in the tests (tests/check_bel_pybel.sh) and in bench/bel_vs_pybel.py; python3-scipy and python3-statsmodels check the functional enrichment (tests/check_enrichment.py) and bench/cooc_vs_scipy.py; libigraph-dev gives the Leiden clustering (grappi cluster); mcl and python3-leidenalg are the references it is checked against (tests/check_clusters.sh, bench/cluster_vs_reference.py); python3-jsonschema validates the JSON outputs against docs/schemas/ in the tests; python3-venv, -build, -setuptools and -wheel build and install the wheel, python3-dask and python3-distributed run the distributed builds and python3-pandas and python3-networkx make the results' tables and networks there (tests/check_wheel.sh). time (GNU time) measures the scale benchmark's commands (bench/string_scale.sh, tests/string_scale_small.sh).
set -euo pipefail
PKGS=(build-essential cmake pkg-config ca-certificates binutils python3
      libsqlite3-dev libeigen3-dev libhnswlib-dev nlohmann-json3-dev doctest-dev
      zlib1g-dev libssl-dev libcurl4-openssl-dev libxml2-dev libcli11-dev libbenchmark-dev libcpp-httplib-dev libigraph-dev sqlite3 doxygen mcl time
      python3-networkx python3-pandas python3-igraph python3-leidenalg python3-pybel python3-jsonschema python3-scipy python3-statsmodels
      python3-venv python3-build python3-setuptools python3-wheel python3-dask python3-distributed)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
command -v npm > /dev/null || missing+=(nodejs npm)
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
# web/node_modules from the lock file (again only when the lock is newer than the last install).
cd "$(dirname "$0")/../web"
if [ ! -f node_modules/cytoscape/dist/cytoscape.min.js ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
