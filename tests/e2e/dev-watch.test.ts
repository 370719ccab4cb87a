import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run dev` (scripts/dev.mjs) in a copy of the tree, so its rebuilds never touch the dist/
 * other tests run: a change to a server source rebuilds and restarts the server, a change that
 * does not compile keeps the last good server running.
 */
const root = join(import.meta.dirname, '..', '..');

describe('npm run dev', () => {
  let dir: string;
  let dev: ChildProcess | undefined;
  let out = '';
  const listening = () => [...out.matchAll(/listening on (http:\/\/\S+)/g)].map((m) => m[1]!);
  const health = (url: string) =>
    fetch(`${url}/health`).then(
      (r) => r.status,
      () => 0,
    );

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hermes-dev-'));
    // Built output keeps its times, so the first build only redoes what is stale in the tree itself.
    for (const p of ['package.json', 'src', 'components', 'sw', 'scripts', 'dist', 'public'])
      cpSync(join(root, p), join(dir, p), { recursive: true, preserveTimestamps: true });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  });

  afterAll(async () => {
    if (dev && dev.exitCode === null && dev.signalCode === null) {
      const exited = new Promise((r) => dev!.once('exit', r));
      dev.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      // The whole group: dev.mjs and the server it started, should it not have stopped them.
      if (dev.exitCode === null && dev.signalCode === null) process.kill(-dev.pid!, 'SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts the server, restarts it after a server change, and keeps it through a failed build', async () => {
    const home = join(dir, 'home');
    dev = spawn(process.execPath, [join(dir, 'scripts', 'dev.mjs')], {
      cwd: dir,
      detached: true,
      env: { PATH: process.env.PATH ?? '', HOME: home, HERMES_HOME: join(home, '.hermes'), HERMES_WEBUI_PORT: '0', HERMES_WEBUI_HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    dev.stdout!.on('data', (d) => (out += d));
    dev.stderr!.on('data', (d) => (out += d));

    await expect.poll(() => listening().length, { timeout: 20_000 }).toBe(1);
    const first = listening()[0]!;
    expect(await health(first)).toBe(200);
    const serverBuilds = () => out.split('built dist/server.js').length - 1;
    const buildsAtStart = serverBuilds();

    const app = join(dir, 'src', 'app.ts');
    const source = readFileSync(app, 'utf8');
    writeFileSync(app, `${source}\n// touched by the dev-watch test\n`);
    await expect.poll(() => listening().length, { timeout: 20_000 }).toBe(2);
    expect(serverBuilds()).toBe(buildsAtStart + 1);
    expect(out).toContain('[dev] server rebuilt: restarting');
    const second = listening()[1]!;
    expect(await health(second)).toBe(200);
    expect(await health(first)).toBe(0);

    writeFileSync(app, `${source}\nexport const broken = ;\n`);
    await expect.poll(() => out.includes('[dev] build failed'), { timeout: 20_000 }).toBe(true);
    expect(listening()).toHaveLength(2);
    expect(await health(second)).toBe(200);

    const exited = new Promise<number | null>((r) => dev!.once('exit', (code) => r(code)));
    dev.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await health(second)).toBe(0);
  }, 90_000);
});
