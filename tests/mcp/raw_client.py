#!/usr/bin/env python3
"""A second, independent MCP client: raw JSON-RPC 2.0 over `grappi mcp`'s stdio pipe (no SDK), so
no one SDK's leniency hides a protocol error. Lists the tools, calls each with the arguments of
tests/mcp/calls.json, checks every answer's framing and its structured content against the tool's
schema in docs/schemas/ (python3-jsonschema), then sends what a broken client would.
Usage: raw_client.py GRAPPI DATABASE SCHEMA_DIR CALLS_JSON"""
import json, os, subprocess, sys
grappi, db, schemas, calls = sys.argv[1:5]
p = subprocess.Popen([grappi, "mcp", "--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def rpc(message, answer=True):
    p.stdin.write((message if isinstance(message, str) else json.dumps(message)) + "\n"); p.stdin.flush()
    if not answer: return None
    reply = json.loads(p.stdout.readline())
    assert reply["jsonrpc"] == "2.0" and ("result" in reply) != ("error" in reply), reply
    return reply
init = rpc({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}})
assert init["id"] == 1 and init["result"]["protocolVersion"] == "2025-06-18", init
rpc({"jsonrpc": "2.0", "method": "notifications/initialized"}, answer=False)
tools = {t["name"]: t for t in rpc({"jsonrpc": "2.0", "id": "list", "method": "tools/list"})["result"]["tools"]}
print("tools:", " ".join(tools))
try:
    import jsonschema
except ImportError:  # (under a sanitizer the scripts leave out their schema checks, as the CLI tests do)
    if not os.environ.get("GRAPPI_SANITIZED"):
        sys.exit("raw_client.py: python3-jsonschema is not installed (tools/install-deps.sh installs it)")
    jsonschema = None
for n, (name, call) in enumerate(json.load(open(calls))["valid"].items()):
    r = rpc({"jsonrpc": "2.0", "id": 100 + n, "method": "tools/call", "params": {"name": name, "arguments": call["arguments"]}})
    assert r["id"] == 100 + n and r["result"]["isError"] is False, r
    assert r["result"]["content"][0]["type"] == "text" and r["result"]["content"][0]["text"], r
    body = r["result"]["structuredContent"]
    if jsonschema:
        schema = json.load(open(os.path.join(schemas, call["schema"] + ".schema.json")))
        for item in body[call["wrap"]] if "wrap" in call else [body]:
            jsonschema.Draft202012Validator(schema).validate(item)
    print("%-14s %s" % (name, r["result"]["content"][0]["text"].split("\n")[0][:100]))
for bad, code in [("{not json", -32700), ("[1, 2]", -32600), ('{"jsonrpc": "1.0", "id": 9, "method": "ping"}', -32600),
                  ('{"jsonrpc": "2.0", "id": 9, "method": "no/such"}', -32601), ('{"jsonrpc": "2.0", "id": [1], "method": "ping"}', -32600),
                  ('{"jsonrpc": "2.0", "id": 9, "method": "ping", "params": "x" }', -32602), ("x" * (1 << 21), -32600),
                  ('{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "no_such_tool"}}', -32602)]:
    r = rpc(bad)
    assert r["error"]["code"] == code, (bad[:60], r)
r = rpc({"jsonrpc": "2.0", "id": 10, "method": "ping"})
assert r == {"jsonrpc": "2.0", "id": 10, "result": {}}, r
p.stdin.close()
assert p.wait(timeout=30) == 0 and p.stdout.read() == ""
print("raw JSON-RPC client: ok")
