#!/usr/bin/env bash
# Installs grappi from BUILD_DIR into a temporary prefix and builds examples/consumer against it
# twice: with CMake's find_package(grappi) and with pkg-config. Usage: tools/check_install.sh BUILD_DIR
set -euo pipefail
BUILD=${1:?build dir}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=$(mktemp -d)
trap 'rm -rf "$PREFIX"' EXIT
cmake --install "$BUILD" --prefix "$PREFIX" > /dev/null
cmake -S "$ROOT/examples/consumer" -B "$PREFIX/consumer-build" -DCMAKE_PREFIX_PATH="$PREFIX" > /dev/null
cmake --build "$PREFIX/consumer-build" > /dev/null
LD_LIBRARY_PATH="$PREFIX/lib:$PREFIX/lib64:${LD_LIBRARY_PATH:-}" "$PREFIX/consumer-build/consumer_c"
LD_LIBRARY_PATH="$PREFIX/lib:$PREFIX/lib64:${LD_LIBRARY_PATH:-}" "$PREFIX/consumer-build/consumer_cpp"
PCDIR=$(dirname "$(find "$PREFIX" -name grappi.pc | head -1)")
if grep -q "BUILD_SHARED_LIBS:BOOL=OFF" "$BUILD/CMakeCache.txt"; then static=--static; else static=; fi
# shellcheck disable=SC2046
cc -std=c99 -o "$PREFIX/consumer_pc" "$ROOT/examples/consumer/main.c" $(PKG_CONFIG_PATH="$PCDIR" pkg-config $static --cflags --libs grappi)
LD_LIBRARY_PATH="$PREFIX/lib:$PREFIX/lib64:${LD_LIBRARY_PATH:-}" "$PREFIX/consumer_pc"
# The Conan recipe's test_package, built the same way (without Conan, against the prefix).
cmake -S "$ROOT/packaging/conan/test_package" -B "$PREFIX/test_package-build" -DCMAKE_PREFIX_PATH="$PREFIX" > /dev/null
cmake --build "$PREFIX/test_package-build" > /dev/null
LD_LIBRARY_PATH="$PREFIX/lib:$PREFIX/lib64:${LD_LIBRARY_PATH:-}" "$PREFIX/test_package-build/test_package"
LD_LIBRARY_PATH="$PREFIX/lib:$PREFIX/lib64:${LD_LIBRARY_PATH:-}" "$PREFIX/test_package-build/test_package_c"
echo "install check passed (find_package, pkg-config, the Conan test_package)"
