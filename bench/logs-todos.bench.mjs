// The Logs and Todos panels. Budgets (issue 16): each panel's lazy chunk ≤ 15 KB brotli (what
// opening it fetches beyond the shell). Also measured: GET /api/logs?tail=1000 on a 1 GB
// agent.log (sparse: only its last lines hold text), warm — the route reads the last 4 MB,
// never the whole file.
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { fmt, percentile, root, startServer, stopServer, timeRequest, verdict } from './lib.mjs';

const assets = join(root, 'public', 'assets');
const chunks = join(assets, 'chunks');
const staticImports = (file) => [...readFileSync(file, 'utf8').matchAll(/from"\.\/(?:chunks\/)?([^"]+\.js)"/g)].map((m) => join(chunks, m[1]));

/** Every file a module pulls in statically, itself included. */
function closure(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const dep of staticImports(file)) closure(dep, seen);
  return seen;
}

const main = readdirSync(assets).find((f) => /^main-.*\.js$/.test(f));
const shell = closure(join(assets, main));
const br = (file) => brotliCompressSync(readFileSync(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
for (const name of ['logs', 'todos']) {
  const chunk = readdirSync(chunks).find((f) => f.startsWith(`hermes-${name}-panel-`) && f.endsWith('.js'));
  const extra = [...closure(join(chunks, chunk))].filter((f) => !shell.has(f));
  const kb = extra.reduce((sum, f) => sum + br(f), 0) / 1024;
  console.log(`${name} panel: lazy chunk + what the shell lacks (${extra.length} files): ${fmt(kb)} KB brotli — ${verdict(kb, 15)}`);
}

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-logs-'));
const hermesHome = join(home, '.hermes');
mkdirSync(join(hermesHome, 'logs'), { recursive: true });
const GB = 1024 ** 3;
const tail =
  Array.from({ length: 20_000 }, (_, i) => `2026-03-01 10:00:00,000 INFO run_agent: line ${i} of the tail, with some ordinary text after it`).join('\n') + '\n';
const fd = openSync(join(hermesHome, 'logs', 'agent.log'), 'w');
// A sparse 1 GB file: the disk holds only the last lines.
writeSync(fd, tail, GB - Buffer.byteLength(tail));
closeSync(fd);

const server = await startServer({ HOME: home, HERMES_HOME: hermesHome, HERMES_WEBUI_STATE_DIR: join(home, 'state') });
try {
  const url = `${server.url}/api/logs?file=agent&tail=1000`;
  for (let i = 0; i < 5; i++) await timeRequest(url);
  const times = [];
  for (let i = 0; i < 30; i++) times.push((await timeRequest(url)).ms);
  times.sort((a, b) => a - b);
  console.log(`GET /api/logs?tail=1000 on a 1 GB agent.log ×30 (warm): p50 ${fmt(percentile(times, 50))} ms, p95 ${fmt(percentile(times, 95))} ms`);
} finally {
  await stopServer(server);
  rmSync(home, { recursive: true, force: true });
}
