import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { descendants, killTree } from '../../scripts/test-tools/processes.mjs';
import { track, trackedEnv } from './processes.js';

const root = join(import.meta.dirname, '..', '..');

export interface RunningServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

function spawnServer(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [join(root, 'dist', 'server.js')], {
    env: { PATH: process.env.PATH ?? '', ...trackedEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child, 'dist/server.js');
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Ends the server and whatever it started that outlived it (a command still running when it was killed). */
async function stopServer(child: ChildProcess, exited: Promise<number | null>, signal: NodeJS.Signals): Promise<number | null> {
  const started = child.pid ? descendants(child.pid) : [];
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  const code = await exited;
  for (const pid of started) killTree(pid, false);
  return code;
}

/** The environment that puts a server's storage in Postgres, on `databaseUrl` (e.g. testDatabase().url). */
export function postgresEnv(databaseUrl: string): Record<string, string> {
  return { HERMES_WEBUI_STORAGE: 'postgres', HERMES_WEBUI_DATABASE_URL: databaseUrl };
}

/**
 * Starts the built server (dist/server.js, what `npm start` runs) on a free port with the given
 * environment, and waits for its "listening on" line. A server that does not get there is killed.
 * `databaseUrl`: its storage is that Postgres database (several servers may share one; each
 * still wants its own HERMES_WEBUI_STATE_DIR in `env`).
 */
export async function startServer(env: Record<string, string>, options: { timeoutMs?: number; databaseUrl?: string } = {}): Promise<RunningServer> {
  const storage = options.databaseUrl ? postgresEnv(options.databaseUrl) : {};
  const { child, output, exited } = spawnServer({ HERMES_WEBUI_PORT: '0', ...storage, ...env });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output()}`)), options.timeoutMs ?? 15_000);
      const check = () => {
        const m = /listening on (http:\/\/\S+)/.exec(output());
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      };
      child.stdout!.on('data', check);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code} before listening:\n${output()}`));
      });
    });
    return { url, child, output, exited, stop: (signal = 'SIGTERM') => stopServer(child, exited, signal) };
  } catch (err) {
    await stopServer(child, exited, 'SIGKILL');
    throw err;
  }
}

/** Runs the server expecting it to exit on its own (bad configuration); returns code and output. */
export async function runServerToExit(env: Record<string, string>, options: { timeoutMs?: number } = {}): Promise<{ code: number | null; output: string }> {
  const { child, output, exited } = spawnServer(env);
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
  try {
    const code = await exited;
    if (child.signalCode === 'SIGKILL') throw new Error(`server did not exit on its own:\n${output()}`);
    return { code, output: output() };
  } finally {
    clearTimeout(timer);
  }
}
