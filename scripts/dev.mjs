// `npm run dev`: builds what is stale, starts the server, then watches the sources. On a change
// it rebuilds the stale parts (build.mjs --if-needed: esbuild, a second or less for the server)
// and restarts the server when dist/server.js changed; a browser-side change needs only a reload.
// A failed build is reported and the running server is kept.
import { spawn } from 'node:child_process';
import { existsSync, statSync, watch } from 'node:fs';
import { join } from 'node:path';
import { root } from './build-state.mjs';

const WATCHED = ['src', 'components', 'sw', 'scripts', 'package.json'];
const SERVER = join(root, 'dist', 'server.js');
const DEBOUNCE_MS = 120;

let server = null;
let building = false;
let again = false;
let timer = null;
let stopping = false;

const mtime = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);

function runBuild() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-needed'], { cwd: root, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code === 0));
  });
}

function startServer() {
  server = spawn(process.execPath, ['--enable-source-maps', SERVER], { cwd: root, stdio: 'inherit', env: process.env });
  const child = server;
  child.on('exit', (code, signal) => {
    if (server === child) server = null;
    if (!stopping && !child.restarting) console.log(`[dev] server exited (${signal ?? code}); waiting for a change to start it again`);
  });
}

function stopServer() {
  const child = server;
  if (!child || child.exitCode !== null) return Promise.resolve();
  child.restarting = true;
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function rebuild() {
  if (building) {
    again = true;
    return;
  }
  building = true;
  do {
    again = false;
    const before = mtime(SERVER);
    const ok = await runBuild();
    if (stopping) break;
    if (!ok) {
      console.error('[dev] build failed; the server keeps running the last good build');
      continue;
    }
    if (mtime(SERVER) !== before || !server) {
      if (server) console.log('[dev] server rebuilt: restarting');
      await stopServer();
      if (!stopping) startServer();
    }
  } while (again && !stopping);
  building = false;
}

function changed(path) {
  // Editors' backup, lock and swap files are not sources.
  if (path && /(^|[/\\])\.#|~$|\.sw[px]$/.test(path)) return;
  clearTimeout(timer);
  timer = setTimeout(() => void rebuild(), DEBOUNCE_MS);
}

const watchers = WATCHED.filter((p) => existsSync(join(root, p))).map((p) =>
  watch(join(root, p), { recursive: statSync(join(root, p)).isDirectory() }, (_event, file) => changed(file)),
);

async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  clearTimeout(timer);
  for (const w of watchers) w.close();
  const child = server;
  if (child && child.exitCode === null) {
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill(signal);
    });
  }
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

console.log(`[dev] watching ${WATCHED.join(', ')}`);
await rebuild();
