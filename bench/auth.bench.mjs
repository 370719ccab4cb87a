// Password login's costs: a sign-in (PBKDF2-SHA256, 600,000 iterations), a refused attempt
// once rate-limited, and what checking the session cookie adds to an ordinary API request.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, percentile, startServer, stopServer, timeRequest } from './lib.mjs';

const REQUESTS = 1000;
const home = mkdtempSync(join(tmpdir(), 'hermes-bench-auth-'));

async function post(url, body, headers = {}) {
  const t = performance.now();
  const res = await fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', ...headers } });
  await res.arrayBuffer();
  return { ms: performance.now() - t, status: res.status, cookie: res.headers.get('set-cookie') };
}

async function timeGets(url, headers) {
  for (let i = 0; i < 50; i++) await timeRequest(url, headers);
  const times = [];
  for (let i = 0; i < REQUESTS; i++) times.push((await timeRequest(url, headers)).ms);
  return times.sort((a, b) => a - b);
}

try {
  const open = await startServer({ HOME: home, HERMES_WEBUI_STATE_DIR: join(home, 'open') });
  const plain = await timeGets(`${open.url}/api/settings`);
  await stopServer(open);

  const locked = await startServer({ HOME: home, HERMES_WEBUI_STATE_DIR: join(home, 'locked'), HERMES_WEBUI_PASSWORD: 'bench password' });
  const logins = [];
  let cookie = '';
  for (let i = 0; i < 10; i++) {
    const r = await post(`${locked.url}/api/auth/login`, { password: 'bench password' });
    if (r.status !== 200) throw new Error(`login ${r.status}`);
    logins.push(r.ms);
    cookie = r.cookie.split(';')[0];
  }
  logins.sort((a, b) => a - b);
  const signedIn = await timeGets(`${locked.url}/api/settings`, { Cookie: cookie });

  // Five wrong passwords from this address, then the sixth attempt is refused before hashing.
  for (let i = 0; i < 5; i++) await post(`${locked.url}/api/auth/login`, { password: `wrong ${i}` });
  const refused = [];
  for (let i = 0; i < 20; i++) {
    const r = await post(`${locked.url}/api/auth/login`, { password: 'wrong again' });
    if (r.status !== 429) throw new Error(`expected 429, got ${r.status}`);
    refused.push(r.ms);
  }
  refused.sort((a, b) => a - b);
  await stopServer(locked);

  console.log(`sign-in (PBKDF2-SHA256 600k, Web Crypto): p50 ${fmt(percentile(logins, 50))} ms, max ${fmt(logins.at(-1))} ms (10 sign-ins)`);
  console.log(`rate-limited attempt (429, no hashing): p50 ${fmt(percentile(refused, 50))} ms`);
  console.log(`GET /api/settings, no password: p50 ${fmt(percentile(plain, 50))} ms, p95 ${fmt(percentile(plain, 95))} ms`);
  console.log(`GET /api/settings, signed in (cookie HMAC + session lookup): p50 ${fmt(percentile(signedIn, 50))} ms, p95 ${fmt(percentile(signedIn, 95))} ms`);
  console.log(`cookie check adds: p50 ${fmt(percentile(signedIn, 50) - percentile(plain, 50))} ms`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
