#!/usr/bin/env bash
# The Python package as Python users get it (issue 42): the wheel built from the tree
# (tools/build_wheel.sh) installs offline into a fresh venv, where `import grappi` works with no
# GRAPPI_LIB, PYTHONPATH or LD_LIBRARY_PATH and reports the library's version; then, in a venv
# that also sees Debian's python3-dask and python3-distributed, the distributed builds run on a
# LocalCluster of two workers (bindings/python/tests/test_distributed.py), the wheel sent to the
# workers. A missing database is refused; results make tables and networks with Debian's pandas
# and networkx, and say how to get them in the fresh venv, which has neither. Needs BUILD (the build tree), DATA (data/), Debian's python3 with python3-venv,
# python3-build, python3-setuptools, python3-wheel, python3-dask and python3-distributed.
set -euo pipefail
: "${BUILD:?}" "${DATA:?}"
here=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "$BUILD" && pwd)
DATA=$(cd "$DATA" && pwd)
PY=/usr/bin/python3
for m in venv build setuptools wheel dask distributed; do
  "$PY" -c "import $m" 2> /dev/null || { echo "SKIP: Debian's python3 lacks the module $m (tools/install-deps.sh installs it)"; exit 77; }
done
T=$(mktemp -d "${TMPDIR:-/tmp}/grappi_wheel.XXXXXX")
trap 'rm -rf "$T"' EXIT
wheel=$("$here/tools/build_wheel.sh" "$BUILD" "$T/dist" "$PY")
clean_env=(env -u GRAPPI_LIB -u PYTHONPATH -u LD_LIBRARY_PATH -u PYTHONHOME)
# A fresh venv: the wheel alone, offline.
"$PY" -m venv "$T/fresh"
"${clean_env[@]}" "$T/fresh/bin/pip" install --no-index --no-deps --quiet "$wheel"
cd "$T"
"${clean_env[@]}" "$T/fresh/bin/python" - "$here" << 'PY'
import os, re, sys
import grappi
here = sys.argv[1]
assert grappi.__file__.startswith(os.path.realpath(sys.prefix)) or "/fresh/" in grappi.__file__, grappi.__file__
lib = os.path.join(os.path.dirname(grappi.__file__), "lib", "libgrappi_c.so")
assert os.path.isfile(lib), lib
from grappi import _about
cmake = open(os.path.join(here, "CMakeLists.txt")).read()
project = re.search(r"project\(grappi VERSION ([0-9.]+)", cmake).group(1)
assert grappi.version() == grappi.__version__ == _about.__version__ == project, (grappi.version(), grappi.__version__, project)
try:
    grappi.Graph(os.path.join(os.getcwd(), "typo.db"))
    raise AssertionError("a missing database was opened")
except grappi.Error as e:
    assert e.status == -2 and "create=True" in str(e) and not os.path.exists("typo.db"), e
with grappi.Graph(os.path.join(os.getcwd(), "w.db"), create=True) as g:
    print("fresh venv: grappi", grappi.version(), "from", grappi.__file__, "counts", g.counts())
    # (no pandas, no networkx in this venv: a clear ImportError)
    for call, module in ((grappi.Rows([{"a": 1}]).to_pandas, "pandas"), (grappi.Result({}).to_networkx, "networkx")):
        try:
            call()
            raise AssertionError(module + " is importable in a fresh venv")
        except ImportError as e:
            assert "python3-" + module in str(e) and "--system-site-packages" in str(e), e
assert "ctypes" not in dir(grappi) and "Graph" in dir(grappi)
PY
# With Dask (Debian's, through the system site packages): the distributed builds.
"$PY" -m venv --system-site-packages "$T/dask"
"${clean_env[@]}" "$T/dask/bin/pip" install --no-index --no-deps --quiet "$wheel"
# (Debian's pandas and networkx reached from the venv: tables and networks of results)
"${clean_env[@]}" "$T/dask/bin/python" - "$DATA" << 'PY'
import os, sys, tempfile
import grappi
with tempfile.TemporaryDirectory() as d, grappi.Graph(os.path.join(d, "t.db"), create=True) as g:
    g.import_file(os.path.join(sys.argv[1], "9606.protein.info.v12.0.txt.gz"), kind="info")
    g.import_file(os.path.join(sys.argv[1], "export_v12_alzheimer", "string_interactions.tsv"))
    nb = g.neighbors("MAPT", limit=5)
    table, net = nb.to_pandas(), nb.to_networkx()
    assert list(table["name"]) == [n["name"] for n in nb] and net.number_of_nodes() == 6, (table, net)
    paths = g.paths("MAPT", "APOE", k=3).to_networkx()
    assert "9606.ENSP00000340820" in paths and paths.number_of_edges() >= 3, paths
    print("venv with Debian's pandas and networkx: to_pandas, to_networkx ok")
PY
"${clean_env[@]}" GRAPPI_DISTRIBUTED_TESTS=1 GRAPPI_WHEEL="$wheel" GRAPPI_DATA="$DATA" GRAPPI_CLI="$BUILD/grappi" \
  "$T/dask/bin/python" -m unittest discover -s "$here/bindings/python/tests" -p test_distributed.py -v
