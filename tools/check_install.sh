#!/usr/bin/env bash
# Checks an installed grappi from the outside, as a user's project sees it. Usage:
#   tools/check_install.sh PREFIX [static]
# PREFIX holds `cmake --install` output. Builds and runs, against PREFIX only (never the build
# tree): examples/consumer with CMake's find_package(grappi); the C example with pkg-config and
# with plain -I/-L/-l flags (linked with --fatal-warnings, so a library that needs another one
# the linker cannot find fails here); the Conan recipe's test_package; and the installed
# command-line program, which must find its library by itself.
set -euo pipefail
PREFIX=$(cd "${1:?prefix}" && pwd)
STATIC=${2:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
LIBDIR=$(dirname "$(find "$PREFIX" -name 'libgrappi_c.*' | head -1)")
run() {  # runs a program with the prefix's library directory as the only extra search path
  env -u LD_LIBRARY_PATH LD_LIBRARY_PATH="$LIBDIR" "$@"
}

cmake -S "$ROOT/examples/consumer" -B "$WORK/consumer" -DCMAKE_PREFIX_PATH="$PREFIX" > /dev/null
cmake --build "$WORK/consumer" > /dev/null
"$WORK/consumer/consumer_c"      # CMake gives the programs a run path to the prefix
"$WORK/consumer/consumer_cpp"

PCDIR=$(dirname "$(find "$PREFIX" -name grappi.pc | head -1)")
pc() { PKG_CONFIG_PATH="$PCDIR" pkg-config ${STATIC:+--static} "$@" grappi; }
# shellcheck disable=SC2046
cc -std=c99 -Wl,--fatal-warnings -o "$WORK/consumer_pc" "$ROOT/examples/consumer/main.c" $(pc --cflags --libs)
run "$WORK/consumer_pc"
if [ -z "$STATIC" ]; then
  # Without pkg-config: the one C library is all a C program names.
  cc -std=c99 -Wl,--fatal-warnings -I"$PREFIX/include" -o "$WORK/consumer_plain" "$ROOT/examples/consumer/main.c" \
     -L"$LIBDIR" -lgrappi_c
  run "$WORK/consumer_plain"
  needed=$(readelf -d "$LIBDIR/libgrappi_c.so" | grep NEEDED | grep -o '\[.*\]' | tr -d '[]' | tr '\n' ' ')
  case " $needed" in *" libgrappi."*) echo "libgrappi_c.so needs libgrappi: $needed" >&2; exit 1 ;; esac
fi

cmake -S "$ROOT/packaging/conan/test_package" -B "$WORK/test_package" -DCMAKE_PREFIX_PATH="$PREFIX" > /dev/null
cmake --build "$WORK/test_package" > /dev/null
"$WORK/test_package/test_package"
"$WORK/test_package/test_package_c"

if [ -x "$PREFIX/bin/grappi" ]; then
  env -u LD_LIBRARY_PATH "$PREFIX/bin/grappi" --version
fi
echo "install check passed: find_package, pkg-config${STATIC:+ --static}${STATIC:-, plain -lgrappi_c}, the Conan test_package, the installed grappi program"
