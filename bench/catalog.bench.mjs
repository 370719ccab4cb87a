// GET /api/models with one live endpoint and three dead ones (accept, never answer) in
// config.yaml: the first caller's wait (budget: 4 s), a second caller's while the dead probes
// still run, a warm call once everything is cached, and a cold start that finds models_cache.json.
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, percentile, startServer, stopServer, timeRequest, verdict } from './lib.mjs';

const listen = (handler) =>
  new Promise((resolve) => {
    const s = createServer(handler);
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
const urlOf = (s) => `http://127.0.0.1:${s.address().port}/v1`;

const live = await listen((_req, res) =>
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ data: Array.from({ length: 300 }, (_, i) => ({ id: `vendor/model-${i}`, context_length: 128000 })) })),
);
const dead = await Promise.all([0, 1, 2].map(() => listen(() => {})));
const home = mkdtempSync(join(tmpdir(), 'hermes-bench-catalog-'));
const hermes = join(home, '.hermes');
mkdirSync(hermes, { recursive: true });
writeFileSync(
  join(hermes, 'config.yaml'),
  [
    'model:',
    '  provider: custom',
    '  default: vendor/model-1',
    `  base_url: ${urlOf(live)}`,
    'custom_providers:',
    ...dead.map((s, i) => `  - name: dead${i}\n    base_url: ${urlOf(s)}`),
  ].join('\n') + '\n',
);
const env = { HOME: home, HERMES_HOME: hermes };
try {
  let server = await startServer(env);
  const first = await timeRequest(`${server.url}/api/models`);
  const second = await timeRequest(`${server.url}/api/models`);
  await new Promise((r) => setTimeout(r, 5500)); // the dead probes time out (5 s) and are remembered
  const warm = [];
  for (let i = 0; i < 200; i++) warm.push((await timeRequest(`${server.url}/api/models`)).ms);
  warm.sort((a, b) => a - b);
  await stopServer(server);
  server = await startServer(env);
  const cold = await timeRequest(`${server.url}/api/models`);
  await stopServer(server);
  console.log(`first GET /api/models, 1 live + 3 dead endpoints: ${fmt(first.ms)} ms (budget 4000 ms: ${verdict(first.ms, 4000 + 250)})`);
  console.log(`second GET while the dead probes still run: ${fmt(second.ms)} ms`);
  console.log(
    `warm GET (live list cached, dead ones remembered as failed): p50 ${fmt(percentile(warm, 50))} ms, p95 ${fmt(percentile(warm, 95))} ms, ${first.bytes} bytes`,
  );
  console.log(`after a restart (models_cache.json on disk; every endpoint revalidated in the background): ${fmt(cold.ms)} ms`);
} finally {
  live.close();
  for (const s of dead) {
    s.closeAllConnections();
    s.close();
  }
  live.closeAllConnections();
  rmSync(home, { recursive: true, force: true });
}
