// MCP tool-call overhead of our layer (src/agent/mcp + src/adapters/mcp). Each call goes
// through the tool the model sees (manager lookup, reconnect check, timeout, signal, result
// formatting); the SDK's own callTool inside it is timed too, and "our side" is the call minus
// that SDK call, per call (so machine load on the stdio round trip does not count). For context,
// a raw SDK Client on its own connection to the same fixture server is timed alternately.
// Budget: our side ≤ 5 ms per call at p50 and p99.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, percentile, root, verdict } from './lib.mjs';

const BUDGET_MS = 5;
const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 1000);
const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-mcp-'));
const logger = { info() {}, error() {} };
let connections;
let raw;
try {
  const lib = join(dir, 'mcp.cjs');
  const server = join(dir, 'mcp-server.cjs');
  await build({ entryPoints: [join(root, 'bench/mcp-entry.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: lib, logLevel: 'error' });
  await build({
    entryPoints: [join(root, 'tests/fixtures/mcp-stdio-entry.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: server,
    logLevel: 'error',
    external: ['esbuild'],
  });
  const m = createRequire(import.meta.url)(lib);

  connections = new m.McpConnections({ connector: new m.NodeMcpConnector(logger), logger });
  const config = m.readServer('bench', { command: process.execPath, args: [server] });
  const [live] = await connections.ensure('/bench/home', [config]);
  const tool = m.serverTools(config, live.conn, { connections, home: '/bench/home' }).find((t) => t.spec.name === 'mcp__bench__echo');
  const ctx = { signal: new AbortController().signal };

  raw = new m.Client({ name: 'bench-raw', version: '1' }, { capabilities: {} });
  await raw.connect(new m.StdioClientTransport({ command: process.execPath, args: [server], env: m.getDefaultEnvironment(), stderr: 'ignore' }));

  // Times the SDK call inside our connection (the adapter's private client).
  const inner = live.conn.client;
  const sdkCall = inner.callTool.bind(inner);
  let innerMs = 0;
  inner.callTool = async (...a) => {
    const t = performance.now();
    try {
      return await sdkCall(...a);
    } finally {
      innerMs = performance.now() - t;
    }
  };

  const args = { text: 'x'.repeat(200) };
  const viaUs = [];
  const viaSdk = [];
  const ourSide = [];
  for (let i = 0; i < CALLS + 50; i++) {
    let t = performance.now();
    const ours = await tool.run(args, ctx);
    const oursMs = performance.now() - t;
    t = performance.now();
    const direct = await raw.callTool({ name: 'echo', arguments: args });
    const sdkMs = performance.now() - t;
    if (i === 0 && (!ours.includes('echo: x') || direct.content[0].text.indexOf('echo: x') < 0))
      throw new Error(`unexpected answers: ${ours} / ${JSON.stringify(direct)}`);
    // The first 50 warm both paths up.
    if (i >= 50) {
      viaUs.push(oursMs);
      viaSdk.push(sdkMs);
      ourSide.push(oursMs - innerMs);
    }
  }
  for (const list of [viaUs, viaSdk, ourSide]) list.sort((a, b) => a - b);
  const p = (list, q) => percentile(list, q);
  console.log(`raw SDK callTool (stdio):        p50 ${fmt(p(viaSdk, 50))} ms, p99 ${fmt(p(viaSdk, 99))} ms  (${CALLS} calls)`);
  console.log(`through our layer (stdio):       p50 ${fmt(p(viaUs, 50))} ms, p99 ${fmt(p(viaUs, 99))} ms`);
  const d50 = p(ourSide, 50);
  const d99 = p(ourSide, 99);
  console.log(`our side (call minus its SDK call): p50 ${fmt(d50)} ms, p99 ${fmt(d99)} ms — budget ${BUDGET_MS} ms: ${verdict(Math.max(d50, d99), BUDGET_MS)}`);
  if (Math.max(d50, d99) > BUDGET_MS) process.exitCode = 1;
} finally {
  await raw?.close().catch(() => {});
  await connections?.shutdown();
  rmSync(dir, { recursive: true, force: true });
}
