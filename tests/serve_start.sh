# Sourced by the tests that talk to grappi serve. serve_start DB LOG starts it read-only on a free port in the
# background, sets PID (for the caller's trap) and PORT, and fails the test when it does not start.
serve_start() {
  rm -f "$2"  # (not an earlier server's "listening on": the background job truncates LOG only once it runs)
  "$GRAPPI" serve --db "$1" --port 0 > "$2" 2>&1 &
  PID=$!
  for _ in $(seq 200); do grep -qs "listening on" "$2" && break; sleep 0.1; done
  PORT=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$2")
  [ -n "$PORT" ] || { echo "FAIL: serve did not start: $(cat "$2")"; exit 1; }
}
