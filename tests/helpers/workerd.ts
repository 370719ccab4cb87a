import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { track, trackedEnv } from './processes.js';

const root = join(import.meta.dirname, '..', '..');

export interface RunningWorker {
  url: string;
  child: ChildProcess;
  /** Where local D1 and Durable Object storage live (pass it to a new startWorker to restart on the same state). */
  persist: string;
  output: () => string;
  /** Stops wrangler; `kill` ends it at once (SIGKILL: a crash), `keepState` leaves its storage for a restart. */
  stop(options?: { kill?: boolean; keepState?: boolean }): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/**
 * The project's Worker on real workerd: `wrangler dev` (local D1 and Durable Objects, no
 * network) with `vars`, its state in a temp directory, listening on 127.0.0.1.
 */
export async function startWorker(vars: Record<string, string>, options: { timeoutMs?: number; persist?: string; port?: number } = {}): Promise<RunningWorker> {
  const port = options.port ?? (await freePort());
  const inspector = await freePort();
  const persist = options.persist ?? (await mkdtemp(join(tmpdir(), 'hermes-workerd-')));
  const args = [
    join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js'),
    'dev',
    '--local',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspector),
    '--persist-to',
    persist,
    '--log-level',
    'warn',
    '--show-interactive-dev-session=false',
  ];
  for (const [k, v] of Object.entries(vars)) args.push('--var', `${k}:${v}`);
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...trackedEnv(), HOME: persist, WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1', WRANGLER_LOG_PATH: persist },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: stopping it also stops the workerd it starts.
    detached: true,
  });
  track(child, 'wrangler dev (and its workerd)', { group: true });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  // wrangler runs workerd as a child: a kill of the process group takes both down, also when
  // wrangler itself has already exited and left workerd behind.
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      if (child.exitCode === null) child.kill(sig);
    }
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const failure = child.exitCode !== null ? `wrangler dev exited ${child.exitCode}` : Date.now() > deadline ? 'wrangler dev did not answer' : undefined;
    if (failure) {
      signal('SIGKILL');
      if (!options.persist) await rm(persist, { recursive: true, force: true });
      throw new Error(`${failure}:\n${out}`);
    }
    const ok = await fetch(url + '/health').then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    child,
    persist,
    output: () => out,
    async stop(o = {}) {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.on('exit', r));
        signal(o.kill ? 'SIGKILL' : 'SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      }
      signal('SIGKILL');
      if (!o.keepState) await rm(persist, { recursive: true, force: true });
    },
  };
}
