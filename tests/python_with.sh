# Sourced by the tests that read grappi's output with a Debian Python module: sets PY to the
# first python3 (Debian's first: a pyenv python3 on PATH lacks Debian's modules) that imports
# the module, else skips the test (ctest SKIP, exit 77) naming the packages to install.
#   python_with MODULE "PACKAGES"
python_with() {
  PY=""
  for p in /usr/bin/python3 python3; do
    if command -v "$p" > /dev/null && "$p" -c "import $1" 2> /dev/null; then PY=$p; return 0; fi
  done
  echo "SKIPPED: no python3 with $1 (apt-get install $2)"
  exit 77
}
