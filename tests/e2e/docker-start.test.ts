import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { track, trackedEnv } from '../helpers/processes.js';

/**
 * The Docker image cannot be built here (no engine), so this checks what it runs: the
 * Dockerfile's ENV and CMD, started as the container would start them.
 */
const root = join(import.meta.dirname, '..', '..');

interface ImageSpec {
  env: Record<string, string>;
  cmd: string[];
  healthcheck: string[];
  user: string;
}

async function readDockerfile(): Promise<ImageSpec> {
  const text = (await readFile(join(root, 'Dockerfile'), 'utf8')).replace(/\\\n/g, ' ');
  const final = text.slice(text.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const m of final.matchAll(/^ENV\s+(.+)$/gm))
    for (const pair of m[1]!.trim().split(/\s+/)) {
      const [k, v] = pair.split('=');
      env[k!] = v!;
    }
  const cmd = JSON.parse(/^CMD\s+(\[.*\])$/m.exec(final)![1]!) as string[];
  const healthcheck = JSON.parse(/HEALTHCHECK.*CMD\s+(\[.*\])\s*$/m.exec(final)![1]!) as string[];
  const user = /^USER\s+(\S+)/m.exec(final)![1]!;
  return { env, cmd, healthcheck, user };
}

const started: ChildProcess[] = [];
function run(cmd: string[], env: Record<string, string>) {
  const child = spawn(cmd[0] === 'node' ? process.execPath : cmd[0]!, cmd.slice(1), {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...trackedEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child, cmd.join(' '));
  started.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

describe('the Docker image start command', () => {
  let spec: ImageSpec;
  let data: string;
  beforeAll(async () => {
    spec = await readDockerfile();
    data = await mkdtemp(join(tmpdir(), 'hermes-docker-'));
  });
  afterAll(async () => {
    // A test that failed before its SIGTERM leaves the server running.
    const running = started.filter((c) => c.exitCode === null && c.signalCode === null);
    await Promise.all(running.map((c) => new Promise((r) => c.once('exit', r).kill('SIGKILL'))));
    await rm(data, { recursive: true, force: true });
  });

  it('runs as a non-root user, keeps HERMES_HOME and the state dir under /data, and listens on 0.0.0.0', () => {
    expect(spec.user).toBe('hermes');
    expect(spec.env).toMatchObject({
      HERMES_HOME: '/data/hermes',
      HERMES_WEBUI_STATE_DIR: '/data/webui',
      HERMES_WEBUI_HOST: '0.0.0.0',
      HERMES_WEBUI_PORT: '8787',
    });
    expect(spec.cmd).toEqual(['node', 'dist/server.js']);
  });

  it('builds and runs on one maintained Node LTS line that package.json admits', async () => {
    const text = await readFile(join(root, 'Dockerfile'), 'utf8');
    const bases = [...text.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]!);
    expect(bases).toHaveLength(2);
    expect(new Set(bases).size).toBe(1);
    const major = /^node:(\d+)-bookworm-slim$/.exec(bases[0]!)?.[1];
    // Even majors are the LTS lines; 22 and 24 are the ones still maintained.
    expect(['22', '24']).toContain(major);
    const engines = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).engines.node as string;
    expect(semver.intersects(`${major}.x`, engines)).toBe(true);
  });

  it('refuses to start without a password, saying how to set one', async () => {
    const env = {
      ...spec.env,
      HERMES_HOME: join(data, 'hermes'),
      HERMES_WEBUI_STATE_DIR: join(data, 'webui'),
      HERMES_WEBUI_DEFAULT_WORKSPACE: join(data, 'ws'),
      HOME: data,
    };
    const r = run(spec.cmd, env);
    expect(await r.exited).toBe(1);
    expect(r.output()).toContain('refusing to listen on 0.0.0.0 without a password');
    expect(r.output()).toContain('HERMES_WEBUI_PASSWORD');
  });

  it('with a password: serves /health (the HEALTHCHECK passes) and stops cleanly on SIGTERM', async () => {
    // Tests bind loopback only: the host is the one thing changed from the image's environment.
    const env = {
      ...spec.env,
      HERMES_WEBUI_HOST: '127.0.0.1',
      HERMES_WEBUI_PORT: '0',
      HERMES_WEBUI_PASSWORD: 'a docker password',
      HERMES_HOME: join(data, 'hermes'),
      HERMES_WEBUI_STATE_DIR: join(data, 'webui'),
      HERMES_WEBUI_DEFAULT_WORKSPACE: join(data, 'ws'),
      HOME: data,
    };
    const r = run(spec.cmd, env);
    await expect.poll(() => /listening on (http:\/\/\S+)/.exec(r.output())?.[1], { timeout: 15_000 }).toBeTruthy();
    const url = /listening on (http:\/\/\S+)/.exec(r.output())![1]!;
    const port = new URL(url).port;
    const health = run(spec.healthcheck, { HERMES_WEBUI_PORT: port });
    expect(await health.exited).toBe(0);
    expect((await fetch(url + '/api/sessions')).status).toBe(401);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    expect(r.output()).toContain('Received SIGTERM');
    // After it stopped, the healthcheck fails.
    expect(await run(spec.healthcheck, { HERMES_WEBUI_PORT: port }).exited).toBe(1);
  });
});
