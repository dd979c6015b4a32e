#!/usr/bin/env bash
# Reading leaves nothing behind and works anywhere (issue 40, item 9): a read leaves no -wal or
# -shm file beside the database; a read-only database in a folder the reader cannot write is
# read, whether the file is in rollback-journal or WAL mode; a file that is not a database is
# refused naming what it looks like, with no SQL in the message.
# Needs: GRAPPI (the CLI), DATA (the bundled data). The read-only folder part runs as an
# unprivileged user: as root through setpriv (util-linux) as nobody, else as the caller.
set -euo pipefail
: "${GRAPPI:?}" "${DATA:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/grappi_ro.XXXXXX")
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
chmod 755 "$work"
fail() { echo "FAIL: $*"; exit 1; }

"$GRAPPI" import --db "$work/kb.db" --info "$DATA/4932.protein.info.v12.0.txt.gz" \
  --physical "$DATA/4932.protein.physical.links.v12.0.txt.gz" > /dev/null
[ ! -e "$work/kb.db-wal" ] && [ ! -e "$work/kb.db-shm" ] || fail "an import left -wal/-shm files: $(ls "$work")"
"$GRAPPI" neighbors --db "$work/kb.db" CDC28 --limit 3 > "$work/before.txt"
grep -q CLB5 "$work/before.txt" || fail "no neighbours read: $(cat "$work/before.txt")"
"$GRAPPI" info --db "$work/kb.db" > /dev/null
leftover=$(cd "$work" && ls kb.db-* 2> /dev/null || true)
[ -z "$leftover" ] || fail "reads left $leftover beside the database"

# The same database in a folder the reader cannot write: in rollback mode (bytes 18 and 19 of
# the header 1), and in WAL mode as grappi leaves it (2; no -wal file).
mkdir "$work/ro"
cp "$work/kb.db" "$work/ro/rollback.db"
cp "$work/kb.db" "$work/ro/wal.db"
printf '\001\001' | dd of="$work/ro/rollback.db" bs=1 seek=18 conv=notrunc status=none
printf '\002\002' | dd of="$work/ro/wal.db" bs=1 seek=18 conv=notrunc status=none
chmod 444 "$work/ro/"*.db
chmod 555 "$work/ro"
as_reader=()
if [ "$(id -u)" = 0 ]; then
  command -v setpriv > /dev/null || { echo "SKIP: running as root without setpriv"; exit 77; }
  # nobody reads the CLI and its libraries from a copy (the build tree may not be readable)
  mkdir "$work/bin"
  cp "$GRAPPI" "$work/bin/"
  for lib in "$(dirname "$GRAPPI")"/libgrappi*.so*; do [ -e "$lib" ] && cp -P "$lib" "$work/bin/"; done
  chmod -R a+rX "$work/bin"
  as_reader=(setpriv --reuid=65534 --regid=65534 --clear-groups env LD_LIBRARY_PATH="$work/bin")
  reader_cli="$work/bin/$(basename "$GRAPPI")"
else
  reader_cli=$GRAPPI
fi
for db in rollback wal; do
  "${as_reader[@]}" "$reader_cli" neighbors --db "$work/ro/$db.db" CDC28 --limit 3 > "$work/$db.txt" 2>&1 ||
    fail "$db mode in a read-only folder: $(cat "$work/$db.txt")"
  cmp -s "$work/before.txt" "$work/$db.txt" || fail "$db mode: another answer: $(cat "$work/$db.txt")"
done
[ "$(ls "$work/ro")" = "$(printf 'rollback.db\nwal.db')" ] || fail "files appeared: $(ls "$work/ro")"

# Not a database: what it looks like, exit 2, no SQL.
rc=0
"$GRAPPI" info --db "$DATA/4932.protein.info.v12.0.txt.gz" > /dev/null 2> "$work/err.txt" || rc=$?
[ "$rc" = 2 ] || fail "a gzip file as --db: exit $rc"
grep -q "not a grappi database.*gzip-compressed" "$work/err.txt" || fail "$(cat "$work/err.txt")"
printf 'protein1 protein2 combined_score\n' > "$work/links.txt"
rc=0
"$GRAPPI" neighbors --db "$work/links.txt" CDC28 > /dev/null 2> "$work/err.txt" || rc=$?
[ "$rc" = 2 ] || fail "a text file as --db: exit $rc"
grep -q "text beginning 'protein1 protein2" "$work/err.txt" || fail "$(cat "$work/err.txt")"
! grep -Eqi "pragma|select |\(in:" "$work/err.txt" || fail "SQL in the message: $(cat "$work/err.txt")"
echo "ok"
