#!/usr/bin/env python3
"""Concurrent clients against `grappi serve`, each sending requests back to back, with latency percentiles.

    python3 bench/serve_load.py --url http://127.0.0.1:8765 --clients 32 --seconds 20 neighbors PROTEINS_FILE
    python3 bench/serve_load.py --url http://127.0.0.1:8765 --clients 4 --seconds 20 ask QUESTIONS_JSONL

neighbors: GET /api/neighbors?protein=NAME&limit=10, the names taken in turn from a file (one per line).
ask: POST /api/ask {"question"} then GET /api/jobs/ID until it is no longer running (polled every 5 ms), then
GET /api/jobs/ID/result: the latency is the whole round, as a browser sees it. The questions are the "question"
field of a JSON-lines file (bench/make_string_questions.py).

Each client keeps one HTTP/1.1 connection (reopened when the server closes it). Prints one JSON line: requests,
errors, throughput, p50/p95/p99/max in milliseconds. Standard library only.
"""
import argparse
import http.client
import json
import sys
import threading
import time
import urllib.parse


def percentile(sorted_values, p):
    if not sorted_values:
        return 0.0
    k = max(0, min(len(sorted_values) - 1, int(-(-p * len(sorted_values) // 1)) - 1))
    return sorted_values[k]


class Client:
    def __init__(self, url, token):
        u = urllib.parse.urlsplit(url)
        self.host, self.port = u.hostname, u.port or 80
        self.headers = {"Authorization": "Bearer " + token} if token else {}
        self.conn = None

    def request(self, method, path, body=None):
        for attempt in range(2):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
                headers = dict(self.headers)
                if body is not None:
                    headers["Content-Type"] = "application/json"
                self.conn.request(method, path, body=body, headers=headers)
                r = self.conn.getresponse()
                data = r.read()
                if r.getheader("Connection", "").lower() == "close":
                    self.conn.close()
                    self.conn = None
                return r.status, data
            except (http.client.HTTPException, ConnectionError, OSError):
                if self.conn:
                    self.conn.close()
                self.conn = None
                if attempt:
                    raise


def neighbors_round(c, item):
    status, _ = c.request("GET", "/api/neighbors?" + urllib.parse.urlencode({"protein": item, "limit": 10}))
    return status == 200


def ask_round(c, item):
    status, data = c.request("POST", "/api/ask", json.dumps({"question": item}))
    if status != 202 and status != 200:
        return False
    job = json.loads(data)["job"]
    while True:
        status, data = c.request("GET", "/api/jobs/" + job)
        if status != 200:
            return False
        if json.loads(data)["state"] != "running":
            break
        time.sleep(0.005)
    status, _ = c.request("GET", "/api/jobs/%s/result" % job)
    return status == 200


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", required=True)
    ap.add_argument("--token", default="")
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("kind", choices=["neighbors", "ask"])
    ap.add_argument("items", help="proteins (one per line) or questions (JSON lines)")
    a = ap.parse_args()
    with open(a.items) as f:
        items = [json.loads(l)["question"] if a.kind == "ask" else l.strip() for l in f if l.strip()]
    if not items:
        sys.exit("no items in " + a.items)
    work = neighbors_round if a.kind == "neighbors" else ask_round
    latencies, errors, lock = [], [0], threading.Lock()
    stop = time.monotonic() + a.seconds

    def run(k):
        c, i = Client(a.url, a.token), k
        mine, bad = [], 0
        while time.monotonic() < stop:
            t0 = time.monotonic()
            try:
                ok = work(c, items[i % len(items)])
            except Exception:
                ok = False
            mine.append(time.monotonic() - t0)
            bad += not ok
            i += a.clients
        with lock:
            latencies.extend(mine)
            errors[0] += bad

    threads = [threading.Thread(target=run, args=(k,)) for k in range(a.clients)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0
    latencies.sort()
    ms = lambda v: round(v * 1000, 1)
    print(json.dumps({"kind": a.kind, "clients": a.clients, "seconds": round(wall, 1), "requests": len(latencies),
                      "errors": errors[0], "per_second": round(len(latencies) / wall, 1),
                      "p50_ms": ms(percentile(latencies, 0.50)), "p95_ms": ms(percentile(latencies, 0.95)),
                      "p99_ms": ms(percentile(latencies, 0.99)), "max_ms": ms(latencies[-1] if latencies else 0)}))


if __name__ == "__main__":
    main()
