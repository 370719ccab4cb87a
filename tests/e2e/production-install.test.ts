import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A production install: the sources with a fresh build beside them, `npm ci --omit=dev` (no
 * esbuild, no TypeScript), then `npm start`. The prestart freshness check must not need a
 * devDependency, and the server must need nothing but dependencies.
 */
const root = join(import.meta.dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// The machine's own npm cache, so the install is served from it where it can be.
const npmCache = execFileSync(npm, ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();

/** Whether anything answers /health at `url`. */
const answers = (url: string) =>
  fetch(`${url}/health`).then(
    () => true,
    () => false,
  );

function run(args: string[], cwd: string, env: Record<string, string>) {
  // Its own process group: npm start runs a shell that runs node; all of them are stopped at the end.
  const child = spawn(npm, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return; // the group is already gone
    }
    const timeout = new Promise((r) => setTimeout(r, 10_000, 'timeout'));
    if ((await Promise.race([exited, timeout])) === 'timeout') process.kill(-child.pid!, 'SIGKILL');
  };
  return { child, output: () => out, exited, stop };
}

describe('a production install (npm ci --omit=dev) starts with npm start', () => {
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hermes-prod-'));
    // What a deployment has: the checkout and its build, with their times kept (a fresh build stays fresh).
    for (const p of ['package.json', 'package-lock.json', 'scripts', 'src', 'components', 'sw', 'dist', 'public']) {
      cpSync(join(root, p), join(dir, p), { recursive: true, preserveTimestamps: true });
    }
    const home = join(dir, 'home');
    env = { PATH: process.env.PATH ?? '', HOME: home, npm_config_cache: npmCache, npm_config_update_notifier: 'false' };
    const install = run(['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], dir, env);
    const code = await install.exited;
    if (code !== 0) throw new Error(`npm ci failed (${code}):\n${install.output()}`);
  }, 240_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('installs the dependencies only', () => {
    expect(existsSync(join(dir, 'node_modules', 'hono', 'package.json'))).toBe(true);
    expect(existsSync(join(dir, 'node_modules', 'zod', 'package.json'))).toBe(true);
    for (const dev of ['esbuild', 'typescript', 'vitest', '@biomejs/biome']) expect(existsSync(join(dir, 'node_modules', dev)), dev).toBe(false);
  });

  it('npm start checks the build without esbuild, serves /health and the app, and stops on SIGTERM', async () => {
    const home = join(dir, 'home');
    const server = run(['start'], dir, { ...env, HERMES_HOME: join(home, '.hermes'), HERMES_WEBUI_PORT: '0', HERMES_WEBUI_HOST: '127.0.0.1' });
    let url = '';
    try {
      await expect.poll(() => /listening on (http:\/\/\S+)/.exec(server.output())?.[1], { timeout: 30_000 }).toBeTruthy();
      url = /listening on (http:\/\/\S+)/.exec(server.output())![1]!;
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<script type="module" src="/assets/main-');
      expect(server.output()).not.toContain('built dist/server.js');
    } finally {
      await server.stop();
    }
    // The whole process group is gone with it: nothing answers any more.
    await expect.poll(() => answers(url), { timeout: 10_000 }).toBe(false);
  }, 60_000);

  it('with a source newer than the build, npm start refuses and says what to install', async () => {
    const app = join(dir, 'src', 'app.ts');
    const later = new Date(Date.now() + 60_000);
    utimesSync(app, later, later);
    const start = run(['start'], dir, { ...env, HERMES_WEBUI_PORT: '0', HERMES_WEBUI_HOST: '127.0.0.1' });
    try {
      expect(await start.exited).not.toBe(0);
      expect(start.output()).toContain('The build is out of date (server) and esbuild, a devDependency, is not installed.');
      expect(start.output()).toContain('npm install && npm run build');
      expect(start.output()).not.toContain('listening on');
    } finally {
      await start.stop();
    }
  }, 60_000);
});
