// Helpers shared by the benchmarks: start the built server, time requests, read RSS.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Starts dist/server.js; resolves once it prints its URL, with the ms that took. */
export function startServer(env, nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)) {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'dist', 'server.js')], {
    env: { PATH: process.env.PATH, HERMES_WEBUI_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1], startMs: performance.now() - started, output: () => out });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

export async function stopServer(server) {
  const done = new Promise((r) => server.child.on('exit', r));
  server.child.kill('SIGTERM');
  await done;
}

/** Resident set size of a process, in MB (Linux /proc). */
export function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One GET with node:http over a kept-alive connection, timed to the last body byte: what a
 * browser's request costs, without undici's per-chunk overhead inflating large bodies.
 */
export function timeRequest(url, headers = {}) {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk) => (bytes += chunk.length));
        res.on('end', () => {
          if (res.statusCode >= 400) reject(new Error(`${url} → ${res.statusCode}`));
          else resolve({ ms: performance.now() - t, bytes, status: res.statusCode, etag: res.headers.etag });
        });
      })
      .on('error', reject);
  });
}

export const fmt = (n) => (Math.round(n * 100) / 100).toFixed(2);

export function verdict(value, budget, lowerIsBetter = true) {
  const ok = lowerIsBetter ? value <= budget : value >= budget;
  return ok ? 'within budget' : 'OVER BUDGET';
}

/** Session `i` of a large list (the list benches): `messages` messages of some 250 characters, every 500th pinned, every 97th archived. */
export function makeSession(i, messages = 20) {
  const id = i.toString(16).padStart(12, '0');
  const t = 1_780_000_000 + i * 60;
  return {
    session_id: id,
    title: `Session ${i} about something`,
    workspace: '/home/user/work',
    model: 'openai/gpt-5',
    model_provider: 'openrouter',
    created_at: t,
    updated_at: t + messages,
    pinned: i % 500 === 0,
    archived: i % 97 === 0,
    project_id: null,
    profile: 'default',
    input_tokens: 1000 + i,
    output_tokens: 200,
    estimated_cost: 0.01,
    message_count: messages,
    messages: Array.from({ length: messages }, (_, m) => ({
      role: m % 2 ? 'assistant' : 'user',
      content: `Message ${m} of session ${i}: ` + 'lorem ipsum dolor sit amet '.repeat(8),
      timestamp: t + m,
    })),
    tool_calls: [],
  };
}
