#!/usr/bin/env bash
# Builds the grappi wheel: the Python package (bindings/python) with the C library of a build
# tree inside it (grappi/lib/libgrappi_c.so), offline, with Debian's python3-build,
# python3-setuptools and python3-wheel (setuptools' build backend, no isolated environment).
#   tools/build_wheel.sh BUILD_DIR OUT_DIR [PYTHON]
# prints the wheel's path. The package is staged in a temporary directory, so that the source
# tree gets no build/ or egg-info.
set -euo pipefail
build=$(cd "${1:?build directory}" && pwd)
mkdir -p "${2:?output directory}"
out=$(cd "$2" && pwd)
python=${3:-/usr/bin/python3}
here=$(cd "$(dirname "$0")/.." && pwd)
lib="$build/libgrappi_c.so"
[ -f "$lib" ] || { echo "build_wheel: no $lib (a shared build of grappi_c)" >&2; exit 1; }
stage=$(mktemp -d "${TMPDIR:-/tmp}/grappi_wheel.XXXXXX")
trap 'rm -rf "$stage"' EXIT
cp -r "$here/bindings/python/grappi" "$here/bindings/python/pyproject.toml" "$here/bindings/python/setup.py" \
      "$here/bindings/python/README.md" "$stage/"
cp "$here/LICENSE" "$stage/"
rm -rf "$stage/grappi/__pycache__"
mkdir -p "$stage/grappi/lib"
cp -L "$lib" "$stage/grappi/lib/libgrappi_c.so"
# (debug sections out: the wheel carries the code only)
strip --strip-debug "$stage/grappi/lib/libgrappi_c.so" 2> /dev/null || true
"$python" -m build --wheel --no-isolation --outdir "$out" "$stage" > "$stage.log" 2>&1 ||
  { cat "$stage.log" >&2; rm -f "$stage.log"; exit 1; }
rm -f "$stage.log"
version=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$here/bindings/python/grappi/_about.py")
ls "$out"/grappi-"$version"-py3-none-*.whl
