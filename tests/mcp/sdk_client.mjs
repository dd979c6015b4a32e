// grappi's MCP server driven by the official MCP TypeScript SDK's client (@modelcontextprotocol/sdk,
// pinned in web/package-lock.json), over stdio (`grappi mcp`) or streamable HTTP (`grappi serve`'s
// /mcp, with a token): lists the tools and resources, calls each tool with valid arguments (the
// SDK validates the structured content against the tool's output schema; this test validates it
// again against docs/schemas/ with Ajv's draft 2020-12) and with invalid ones (a tool error naming
// the argument), calls an unknown tool, and cancels a long explore on the yeast network: the
// server must say it stopped within 1 s of the notification (5 s under a sanitizer). Over HTTP
// also: no token, a bad session, bad JSON and an oversized body get errors, never a crash.
//   node sdk_client.mjs stdio|http GRAPPI DATABASE YEAST_DATABASE SCHEMA_DIR CALLS_JSON
// Exit 77 (ctest: skipped) when the SDK is not installed (tools/install-deps.sh runs npm ci in web/).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [mode, grappi, db, yeast, schemaDir, callsPath] = process.argv.slice(2);
if (!callsPath) {
  console.error('usage: node sdk_client.mjs stdio|http GRAPPI DATABASE YEAST_DATABASE SCHEMA_DIR CALLS_JSON');
  process.exit(2);
}
const require = createRequire(path.join(here, '..', '..', 'web', 'package.json'));
let sdk;
try {
  sdk = {
    Client: require('@modelcontextprotocol/sdk/client/index.js').Client,
    Stdio: require('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport,
    Http: require('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport,
    Ajv2020: require('ajv/dist/2020').default,
  };
} catch (e) {
  console.log(`SKIP: the MCP SDK is not installed in web/node_modules (bash tools/install-deps.sh): ${e.message}`);
  process.exit(77);
}
const sanitized = !!process.env.GRAPPI_SANITIZED;
const calls = JSON.parse(fs.readFileSync(callsPath, 'utf8'));
const ajv = new sdk.Ajv2020({ strict: false, allErrors: true });
function check(cond, what) {
  if (!cond) throw new Error(`FAIL: ${what}`);
}

const servers = [];
process.on('exit', () => servers.forEach((p) => p.kill('SIGKILL')));

// A client connected to grappi over the transport asked for; `log` collects the server's stderr.
async function connect(database) {
  const log = { text: '' };
  const client = new sdk.Client({ name: 'grappi-sdk-test', version: '1.0.0' });
  let transport;
  if (mode === 'stdio') {
    transport = new sdk.Stdio({ command: grappi, args: ['mcp', '--db', database], stderr: 'pipe' });
    transport.stderr.on('data', (d) => (log.text += d));
  } else {
    const token = 'sdk-test-token';
    const server = spawn(grappi, ['serve', '--db', database, '--port', '0', '--token', token], { stdio: ['ignore', 'pipe', 'pipe'] });
    servers.push(server);
    let out = '';
    server.stdout.on('data', (d) => (out += d));
    server.stderr.on('data', (d) => (log.text += d));
    for (let i = 0; i < 300 && !/listening on/.test(out); i++) await new Promise((r) => setTimeout(r, 100));
    const port = (out.match(/127\.0\.0\.1:(\d+)/) || [])[1];
    check(port, `serve did not start: ${out} ${log.text}`);
    log.url = `http://127.0.0.1:${port}/mcp`;
    log.token = token;
    transport = new sdk.Http(new URL(log.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  }
  await client.connect(transport);
  return { client, transport, log };
}

const { client, log } = await connect(db);
const version = client.getServerVersion();
check(version.name === 'grappi', `server name ${JSON.stringify(version)}`);
const { tools } = await client.listTools();
const names = tools.map((t) => t.name);
console.log(`${mode}: ${names.length} tools: ${names.join(' ')}`);
check(JSON.stringify(names.slice().sort()) === JSON.stringify(Object.keys(calls.valid).sort()), `tools ${names}`);
for (const t of tools) {
  check(t.description.length > 80 && t.inputSchema.type === 'object' && t.outputSchema.type === 'object', `tool ${t.name} described`);
  check(t.annotations.readOnlyHint === true, `${t.name} read-only`);
}

for (const [name, call] of Object.entries(calls.valid)) {
  const progress = [];
  const r = await client.callTool({ name, arguments: call.arguments }, undefined, { onprogress: (p) => progress.push(p), timeout: 120000 });
  check(!r.isError, `${name} failed: ${JSON.stringify(r.content)}`);
  check(r.content[0].type === 'text' && r.content[0].text.length > 0, `${name}: text content`);
  const validate = ajv.compile(JSON.parse(fs.readFileSync(path.join(schemaDir, `${call.schema}.schema.json`), 'utf8')));
  for (const item of call.wrap ? r.structuredContent[call.wrap] : [r.structuredContent])
    check(validate(item), `${name}: not as ${call.schema}.schema.json says: ${ajv.errorsText(validate.errors)}`);
  if (name === 'explore' || name === 'ask') check(progress.length > 0, `${name}: no progress notification`);
  console.log(`  ${name.padEnd(14)} ${r.content[0].text.split('\n')[0].slice(0, 90)}${progress.length ? ` (${progress.length} progress notes)` : ''}`);
}
for (const [name, call] of Object.entries(calls.invalid)) {
  const r = await client.callTool({ name, arguments: call.arguments });
  check(r.isError === true && r.content[0].text.includes(call.says), `${name} with ${JSON.stringify(call.arguments)}: ${JSON.stringify(r)}`);
}
let unknown = null;
try {
  await client.callTool({ name: 'no_such_tool', arguments: {} });
} catch (e) {
  unknown = e;
}
check(unknown && unknown.code === -32602, `an unknown tool: ${unknown}`);
const { resources } = await client.listResources();
check(resources.some((r) => r.uri === 'grappi://database') && resources.some((r) => r.uri === 'grappi://schemas/explore.schema.json'), 'resources');
const summary = JSON.parse((await client.readResource({ uri: 'grappi://database' })).contents[0].text);
check(summary.nodes > 19000 && summary.writable === false, `the database summary ${JSON.stringify(summary).slice(0, 200)}`);
let missing = null;
try {
  await client.readResource({ uri: 'grappi://nothing' });
} catch (e) {
  missing = e;
}
check(missing && missing.code === -32002, `an unknown resource: ${missing}`);

if (mode === 'http') {
  // The transport's rules, with plain requests: a token, a session, JSON, at most 64 KiB.
  const post = (body, headers = {}) =>
    fetch(log.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${log.token}`, ...headers },
      body,
    });
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  check((await post(ping, { Authorization: 'Bearer wrong' })).status === 401, 'a wrong token is refused');
  check((await post(ping)).status === 400, 'a request without a session is refused');
  check((await post(ping, { 'Mcp-Session-Id': 'f'.repeat(32) })).status === 404, 'an unknown session is 404');
  const init = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
  const session = init.headers.get('mcp-session-id');
  check(init.status === 200 && /^[0-9a-f]{32}$/.test(session), `initialize over plain HTTP: ${init.status} ${session}`);
  const bad = await post('{"jsonrpc": "2.0", "id": 2, "method": ', { 'Mcp-Session-Id': session });
  check(bad.status === 200 && (await bad.json()).error.code === -32700, 'bad JSON: a parse error');
  const big = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping', params: { pad: 'x'.repeat(70000) } }), { 'Mcp-Session-Id': session });
  check(big.status === 413 && (await big.json()).error.code === -32600, 'a body over 64 KiB');
  const other = await post(ping, { 'Mcp-Session-Id': session, Origin: 'http://evil.example' });
  check(other.status === 403, 'another origin is refused');
  check((await fetch(log.url, { headers: { Authorization: `Bearer ${log.token}` } })).status === 405, 'GET /mcp: 405');
  const end = await fetch(log.url, { method: 'DELETE', headers: { Authorization: `Bearer ${log.token}`, 'Mcp-Session-Id': session } });
  check(end.status === 200 && (await post(ping, { 'Mcp-Session-Id': session })).status === 404, 'a deleted session has ended');
}
await client.close();

// Cancellation: a long explore on the yeast network (a window of thousands of proteins and
// millions of candidate paths), aborted once its search for candidate paths reports progress (a
// fixed second was too early on a loaded machine, before the search had begun).
const y = await connect(yeast);
const controller = new AbortController();
let notes = 0;
let progressed = () => {};
const firstNote = new Promise((resolve) => { progressed = resolve; });
const started = Date.now();
const big = { protein: 'CDC28', query: 'cell cycle kinase', k: [300, 300], depth: 2, max_len: 12, max_paths: 100000 };
const pending = y.client.callTool({ name: 'explore', arguments: big }, undefined, {
  signal: controller.signal,
  timeout: 600000,
  onprogress: () => { if (++notes === 1) progressed(); },
});
await Promise.race([firstNote, new Promise((r) => setTimeout(r, sanitized ? 5000 : 60000))]);
controller.abort('the test cancels');  // (in the search for candidate paths)
let aborted = false;
try {
  await pending;
} catch (e) {
  aborted = true;
}
check(aborted, 'explore was not cancelled');
check(sanitized || notes > 0, 'no progress during the search for candidate paths');
let said = null;
for (let i = 0; i < 150 && !said; i++) {
  said = y.log.text.match(/cancelled; stopped ([0-9.]+) s after the notification/);
  if (!said) await new Promise((r) => setTimeout(r, 100));
}
check(said, `the server did not say the call stopped: ${y.log.text}`);
const after = Number(said[1]);
console.log(`  explore cancelled after ${((Date.now() - started) / 1000).toFixed(1)} s, ${notes} progress notes; stopped ${after} s after the notification`);
check(after <= (sanitized ? 5 : 1), `stopped ${after} s after the notification`);
const r = await y.client.callTool({ name: 'resolve', arguments: { name: 'CDC28' } });
check(!r.isError, 'the server answers after a cancel');
await y.client.close();
console.log(`${mode}: ok`);
process.exit(0);
