#!/usr/bin/env bash
# grappi serve under hostile clients (issue 40, items 1-5): a chunked body is refused before it is
# read (no Content-Length, no limit in cpp-httplib 0.11); slow clients that trickle headers do not
# starve a normal request, and one that takes longer than --read-seconds over a request (headers
# or body) is closed; a job asking for too much work is refused with a 400; a cancelled job,
# and one past --job-seconds, stops within seconds; SIGTERM with a job running exits at once;
# every response carries a Content-Security-Policy; a machine that cannot start the workers is an
# error before "listening". And the literature task over stored papers: a hypothesize job runs to
# its result, its options honoured, a bad one refused.
# Needs: GRAPPI (the CLI), DBDIR (the yeast database of the cli_setup-yeast fixture), python3.
set -euo pipefail
: "${GRAPPI:?}" "${DBDIR:?}"
command -v python3 > /dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
Y="$DBDIR/y.db"
T=$(mktemp -d "${TMPDIR:-/tmp}/grappi_serve.XXXXXX")
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2> /dev/null; rm -rf "$T"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$T/serve.txt" ] && tail -5 "$T/serve.txt"; exit 1; }

start_serve() {  # extra serve arguments
  # (the last server's log goes first: the background job truncates it only once it runs, and a
  # look before that read the old "listening on" and then an emptied file)
  rm -f "$T/serve.txt"
  "$GRAPPI" serve --db "${SERVE_DB:-$Y}" --port 0 "$@" > "$T/serve.txt" 2>&1 &
  PID=$!
  for _ in $(seq 200); do grep -qs "listening on" "$T/serve.txt" && break; sleep 0.1; done
  PORT=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$T/serve.txt")
  [ -n "$PORT" ] || fail "serve did not start: $(cat "$T/serve.txt")"
}
stop_serve() {
  kill -TERM "$PID"
  wait "$PID" || true
  PID=""
}

cat > "$T/client.py" << 'PY'
import http.client, json, os, socket, sys, threading, time

port = int(sys.argv[1])
what = sys.argv[2]
host = "127.0.0.1:%d" % port

def request(method, path, body=None, timeout=10):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Host": host}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    c.request(method, path, body=data, headers=headers)
    r = c.getresponse()
    out = r.status, dict(r.getheaders()), r.read()
    c.close()
    return out

def job_state(job, until, every=0.2):
    while time.time() < until:
        status, _, body = request("GET", "/api/jobs/" + job)
        j = json.loads(body)
        if j["state"] != "running":
            return j
        time.sleep(every)
    return None

LONG = {"protein": "CDC28", "query": "cell cycle kinase", "k": "100", "depth": 1, "max_len": 8, "max_paths": 100000}
# A window of 4,000 proteins and 160,000 edges (seconds of JSON in its result) and a search of
# millions of paths: a cancel must still be seen within a second, whatever the stage.
BIG = {"protein": "CDC28", "query": "cell cycle kinase", "k": "300,300", "depth": 2, "max_len": 12, "max_paths": 100000}
SANITIZED = bool(os.environ.get("GRAPPI_SANITIZED"))

if what == "chunked":
    # Headers, then 256 chunks of 1 KiB (each under the 64 KiB limit cpp-httplib checks per
    # chunk; 256 KiB in all) and no last chunk: the answer must come while the body is open.
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(("POST /api/explore HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
               "Transfer-Encoding: chunked\r\n\r\n" % host).encode())
    try:
        for _ in range(256):
            s.sendall(b"400\r\n" + b" " * 1024 + b"\r\n")
    except OSError:
        pass  # (the server answered and closed)
    s.settimeout(5)
    # The headers and the body may come in separate segments: read until the server closes (it
    # answers "Connection: close") or the body has come.
    answer = ""
    try:
        while "Transfer-Encoding is refused" not in answer:
            part = s.recv(4096)
            if not part:
                break
            answer += part.decode(errors="replace")
    except socket.timeout:
        if not answer:
            sys.exit("no answer while the chunked body was still open (the server reads it whole)")
    except OSError:
        pass  # (a reset after the answer)
    assert answer.startswith("HTTP/1.1 411"), answer[:200]
    assert "Content-Length" in answer and "Transfer-Encoding is refused" in answer, answer
    status, _, _ = request("GET", "/api/info")
    assert status == 200, status
elif what == "slow":
    # 40 clients each sending a header line every second hold connections open; a normal
    # request is still answered at once.
    stop = threading.Event()
    def trickle():
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            s.sendall(b"GET /api/info HTTP/1.1\r\n")
            while not stop.is_set():
                s.sendall(b"X-Slow: 1\r\n")
                time.sleep(1)
        except OSError:
            pass
    threads = [threading.Thread(target=trickle, daemon=True) for _ in range(40)]
    for t in threads:
        t.start()
    time.sleep(2.5)
    t0 = time.time()
    # (a starved request would wait for as long as the trickles go on: they stop only after it)
    status, headers, body = request("GET", "/api/info", timeout=10)
    took = time.time() - t0
    stop.set()
    assert status == 200, status
    assert took < (5 if SANITIZED else 2), "a normal request waited %.1f s behind slow clients" % took
elif what == "limits":
    status, _, body = request("POST", "/api/explore", {"protein": "CDC28", "query": "q", "k": "1000,1000", "depth": 6,
                                                        "windows": "1-100"})
    assert status == 400 and b"more than 100000" in body, (status, body)
    status, _, body = request("POST", "/api/explore", {"protein": "CDC28", "query": "q", "max_paths": 1000000})
    assert status == 400 and b"max_paths" in body, (status, body)
    # Every response has a Content-Security-Policy, HTML pages and JSON alike.
    for path in ("/", "/api/info", "/api/jobs/0123"):
        _, headers, _ = request("GET", path)
        assert "default-src 'none'" in headers.get("Content-Security-Policy", ""), (path, headers)
elif what == "pipelined":
    # Three requests in one packet: the first answered with Connection: close, then the
    # connection closed at once (not held open with the others lost unanswered).
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(("GET /api/info HTTP/1.1\r\nHost: %s\r\n\r\n" % host).encode() * 3)
    t0, data = time.time(), b""
    while True:
        d = s.recv(65536)
        if not d:
            break
        data += d
    took = time.time() - t0
    assert data.count(b"HTTP/1.1 ") == 1 and data.startswith(b"HTTP/1.1 200"), data[:300]
    assert b"\r\nConnection: close\r\n" in data, data[:600]
    assert took < (4 if SANITIZED else 1.5), "the connection stayed open %.1f s after its answer" % took
elif what == "cancel":
    # Cancelled in the windows (0.2 s), in the path search (1 s) and later (2.5 s): the job's state
    # says so within a second (5 s under the sanitizers), and its partial result is there.
    for delay in (0.2, 1.0, 2.5):
        status, _, body = request("POST", "/api/explore", BIG)
        assert status == 202, (status, body)
        job = json.loads(body)["job"]
        time.sleep(delay)
        t0 = time.time()
        status, _, _ = request("POST", "/api/jobs/%s/cancel" % job, {})
        assert status == 200, status
        j = job_state(job, time.time() + 15, 0.05)
        took = time.time() - t0
        assert j is not None, "the cancelled job still runs after 15 s"
        assert j["state"] == "cancelled", j
        print("cancelled %.1f s after the start in %.2f s" % (delay, took))
        assert took < (5.0 if SANITIZED else 1.0), "cancelled %.1f s after the start, the job stopped %.2f s later" % (delay, took)
        if delay < 1:  # (the result of a small window: the others' take seconds to write)
            status, _, body = request("GET", "/api/jobs/%s/result" % job, timeout=60)
            assert status == 200 and json.loads(body)["partial"] is True, (status, body[:200])
elif what == "timeout":
    status, _, body = request("POST", "/api/explore", LONG)
    assert status == 202, (status, body)
    j = job_state(json.loads(body)["job"], time.time() + 15)
    assert j is not None, "the job ran past --job-seconds by 13 s"
    assert j["state"] == "cancelled" and "time limit" in j.get("error", ""), j
elif what == "deadline":
    # (serve --read-seconds 3) A client sending its headers, or a POST's body, a little at a time
    # is closed once it has taken 3 s over one request; a normal client, keep-alive pauses
    # included, is not.
    def trickle(first, each):
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(first)
        t0 = time.time()
        try:
            while time.time() - t0 < 15:
                s.sendall(each)
                s.settimeout(0.5)
                try:
                    if s.recv(100) == b"":
                        return time.time() - t0
                except socket.timeout:
                    pass
        except OSError:
            return time.time() - t0
        return None
    took = trickle(b"GET /api/info HTTP/1.1\r\n", b"X-Slow: 1\r\n")
    assert took is not None and 2.5 < took < 6, "trickled headers: %r" % took
    took = trickle(("POST /api/ask HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
                    "Content-Length: 1000\r\n\r\n" % host).encode(), b"x")
    assert took is not None and 2.5 < took < 6, "trickled body: %r" % took
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for _ in range(3):
        c.request("GET", "/api/info", headers={"Host": host})
        r = c.getresponse()
        r.read()
        assert r.status == 200, r.status
        time.sleep(1)
elif what == "hypothesize":
    def run(body):
        status, _, out = request("POST", "/api/hypothesize", body)
        assert status == 202, (status, out)
        job = json.loads(out)["job"]
        j = job_state(job, time.time() + 30)
        assert j and j["state"] == "done", j
        status, _, out = request("GET", "/api/jobs/%s/result" % job)
        assert status == 200, status
        return json.loads(out)
    pair = {"source": "NCBIGene:6331", "target": "MESH:D008133", "max_len": 3, "paths": 20}
    shortest = run(pair)
    assert shortest["stop_reason"] == "converged" and len(shortest["paths"]) > 1, shortest["stop_reason"]
    assert {len(p["edges"]) for p in shortest["paths"]} >= {1, 2}, [p["names"] for p in shortest["paths"]]
    # one round of every shortest path: the direct edge alone
    every = run(dict(pair, shortest_rounds=1))
    assert [len(p["edges"]) for p in every["paths"]] == [1], [p["names"] for p in every["paths"]]
    status, _, out = request("POST", "/api/hypothesize", dict(pair, shortest_rounds=9))
    assert status == 400 and b"shortest_rounds" in out, (status, out)
elif what == "smuggling":
    # Framing a proxy may read otherwise (RFC 9112): 400 and the connection closed, before any body is read.
    for extra in ["Content-Length: 2\r\nContent-Length: 5\r\n", "Content-Length: 2, 5\r\n", "Content-Length: +2\r\n",
                  "Content-Length: 2\r\nTransfer-Encoding : chunked\r\n"]:
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(("POST /api/explore HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n%s\r\n{}"
                   % (host, extra)).encode())
        answer = b""
        try:
            while b"\r\n\r\n" not in answer:
                part = s.recv(4096)
                if not part:
                    break
                answer += part
        except OSError:
            pass
        s.close()
        assert answer.startswith(b"HTTP/1.1 400"), (extra, answer[:300])
    status, _, _ = request("GET", "/api/info")
    assert status == 200, status
elif what == "model-down":
    # A model that answers nothing (a refused connection): the job fails with the reason, as the command line exits 1.
    status, _, body = request("POST", "/api/explore", {"protein": "CDC28", "query": "cell cycle", "k": "5", "depth": 1,
                                                        "max_len": 2, "top": 2})
    assert status == 202, (status, body)
    j = job_state(json.loads(body)["job"], time.time() + 60)
    assert j and j["state"] == "failed" and "every model request failed" in j.get("error", ""), j
elif what == "start-long":
    status, _, body = request("POST", "/api/explore", LONG)
    assert status == 202, (status, body)
PY
client() { python3 "$T/client.py" "$PORT" "$1" || fail "$1"; }

start_serve
client chunked
client smuggling
client slow
client limits
client pipelined
# Peak memory through the attacks (not under the sanitizers, whose shadow memory counts too).
if [ -z "${GRAPPI_SANITIZED:-}" ] && [ -r "/proc/$PID/status" ]; then
  peak=$(awk '/^VmHWM:/ { print $2 }' "/proc/$PID/status")
  echo "serve peak memory through the attacks: ${peak} kB"
  [ "${peak:-0}" -lt 400000 ] || fail "serve peaked at ${peak} kB under the attacks"
fi
# SIGTERM with a job running: the server stops within a few seconds.
client start-long
sleep 1
t0=$(date +%s)
stop_serve
[ $(($(date +%s) - t0)) -le 5 ] || fail "SIGTERM with a job running took $(($(date +%s) - t0)) s"
grep -q "stopped" "$T/serve.txt" || fail "serve did not say it stopped"
# Cancels (after the peak and the SIGTERM: the cancelled jobs are big ones, whose results take
# seconds to free under the sanitizers' leak check at exit).
start_serve
client cancel
stop_serve

start_serve --job-seconds 2 --read-seconds 3
client timeout
client deadline
stop_serve

# The literature task over stored papers (a co-occurrence graph of three BioRED abstracts).
"$GRAPPI" cooc build --db "$T/lit.db" --corpus "$(dirname "$0")/data/literature/BioRED.Test.first3.PubTator" --quiet
SERVE_DB="$T/lit.db" start_serve
client hypothesize
stop_serve

# A model server that is down: jobs fail with the reason.
start_serve --llm openai --model m --base-url "http://127.0.0.1:1/v1"
client model-down
stop_serve
# A blank token protects nothing: refused before listening.
rc=0
"$GRAPPI" serve --db "$Y" --port 0 --host 0.0.0.0 --token ' ' > "$T/blank.txt" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "token is blank" "$T/blank.txt" && ! grep -q "listening" "$T/blank.txt" ||
  fail "serve with a blank token exited $rc: $(cat "$T/blank.txt")"
# Workers that cannot be started (thread stacks over a virtual-memory limit; not under the
# sanitizers, whose shadow memory needs terabytes of address space): an error, not "listening".
if [ -z "${GRAPPI_SANITIZED:-}" ]; then
  rc=0
  (ulimit -v 600000; exec "$GRAPPI" serve --db "$Y" --port 0 --threads 1024) > "$T/threads.txt" 2>&1 || rc=$?
  [ "$rc" -eq 1 ] && grep -q "cannot start 1024 worker threads" "$T/threads.txt" && ! grep -q "listening" "$T/threads.txt" ||
    fail "serve without threads exited $rc: $(cat "$T/threads.txt")"
fi
echo "ok"
