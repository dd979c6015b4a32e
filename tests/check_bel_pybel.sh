#!/usr/bin/env bash
# The BEL grappi writes is a standalone BEL 2.1 document that PyBEL (Debian's python3-pybel)
# reads with no warning and no network: `grappi export --format bel` of PyBEL's own test
# scripts after a round trip through the database, of the CBN network (BEL JSON graph) beside
# the human proteins, and `grappi extract --bel` on the BioInfer sample. PyBEL must find the
# statements grappi counted. Skipped (ctest SKIP, exit 77) with a message when no python3 has
# pybel.
set -euo pipefail
: "${GRAPPI:?path to the grappi binary}" "${DATA:?path to data/}" "${LIT:?path to tests/data/literature}"
. "$(dirname "$0")/python_with.sh"
python_with pybel python3-pybel
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# (pybel_thorough.bel's line 62 chains two relations, A -> B -> C: imported as A -> B and B -> C,
# both exported; PyBEL itself keeps only A -> B)
"$GRAPPI" import --db "$T/scripts.db" "$DATA/bel/pybel_test_bel.bel" "$DATA/bel/pybel_thorough.bel" > /dev/null 2>&1
"$GRAPPI" export --db "$T/scripts.db" --format bel -o "$T/scripts.bel" 2> "$T/scripts.err"
"$GRAPPI" import --db "$T/cbn.db" "$DATA/9606.protein.info.v12.0.txt.gz" \
  --bel "$DATA/bel/cbn_cytotoxic_t-cell_signaling-2.0-hs.bel.jgf.json.gz" > /dev/null
"$GRAPPI" export --db "$T/cbn.db" --format bel -o "$T/cbn.bel" 2> "$T/cbn.err"
"$GRAPPI" import --db "$T/x.db" "$DATA/4932.protein.info.v12.0.txt.gz" "$DATA/4932.protein.aliases.v12.0.txt.gz" > /dev/null
"$GRAPPI" extract --db "$T/x.db" --corpus "$LIT/BioInfer-test.first6.xml" --taxon 4932 --include-flagged \
  --bel "$T/extracted.bel" > /dev/null
grep -q "^surf(p(HGNC:EGFR)) increases p(HGNC:MIA, frag(\"?_\*\"))" "$T/scripts.bel" ||
  fail "the chain's second link is not in the export"
# A script's definitions are its own: the round trip through grappi writes them again.
grep -q "^DEFINE NAMESPACE HGNC AS PATTERN" "$T/scripts.bel" || fail "no HGNC definition in the export"
grep -q "^SET DOCUMENT ContactInfo" "$T/scripts.bel" || fail "no ContactInfo in the export"

"$PY" - "$T" <<'PY'
import logging, os, re, sys
import pybel

t = sys.argv[1]
# Any warning PyBEL logs (a namespace it would download, metadata it misses) is a failure.
logged = []
class Keep(logging.Handler):
    def emit(self, record):
        if record.levelno >= logging.WARNING:
            logged.append(record.getMessage())
logging.getLogger().addHandler(Keep())

def statements(path):
    # grappi's count: the lines that are statements (not comments, SET, UNSET or DEFINE).
    n = 0
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith(("#", "SET ", "UNSET ", "DEFINE ")):
            n += 1
    return n

for name in ("scripts", "cbn", "extracted"):
    path = os.path.join(t, name + ".bel")
    logged.clear()
    g = pybel.from_bel_script(path)
    if g.warnings:
        for w in g.warnings[:5]:
            print(name, "warning:", w, file=sys.stderr)
        sys.exit("%s.bel: PyBEL found %d warning(s)" % (name, len(g.warnings)))
    if logged:
        sys.exit("%s.bel: PyBEL logged: %s" % (name, logged[:3]))
    n = statements(path)
    if n == 0 or g.number_of_nodes() == 0:
        sys.exit("%s.bel: nothing read (%d statement lines, %d nodes)" % (name, n, g.number_of_nodes()))
    for k in ("name", "version", "description", "authors", "contact"):
        if not g.document.get(k):
            sys.exit("%s.bel: the document section lacks %s" % (name, k))
    print("%s: %d statement lines, PyBEL %d nodes %d edges, no warning" % (name, n, g.number_of_nodes(), g.number_of_edges()))
PY
