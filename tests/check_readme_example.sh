#!/usr/bin/env bash
# The C++ quick start of docs/embedding.md must be examples/quickstart.cpp, which CI compiles and runs.
set -euo pipefail
ROOT=${1:?source dir}
block=$(awk '/^```cpp$/{inside=1; n++; next} /^```$/{inside=0} inside && n==1' "$ROOT/docs/embedding.md")
example=$(sed -n '/^#include <grappi\/grappi.hpp>/,$p' "$ROOT/examples/quickstart.cpp")
if [ "$block" != "$example" ]; then
  echo "docs/embedding.md's first C++ block differs from examples/quickstart.cpp:" >&2
  diff <(echo "$block") <(echo "$example") >&2 || true
  exit 1
fi
echo "docs/embedding.md's example matches examples/quickstart.cpp"
