import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import type { PtyHost, PtyProcess, PtySpawnOptions } from '../../ports/pty.js';
import { commandEnv } from './node-tool-host.js';

type NodePty = typeof import('node-pty');

/** What a shell typed into by a person has no use for: provider keys (commandEnv), the server's own secrets. */
function terminalEnv(source: NodeJS.ProcessEnv): Record<string, string> {
  const env = commandEnv(source);
  for (const k of Object.keys(env)) {
    if (/PASSWORD|SECRET|DATABASE_URL/i.test(k)) delete env[k];
  }
  delete env.HERMES_WEBUI;
  return { ...env, TERM: 'xterm-256color', COLORTERM: 'truecolor', HERMES_WEBUI_TERMINAL: '1' };
}

function userShell(source: NodeJS.ProcessEnv): string {
  const wanted = source.SHELL;
  if (wanted && existsSync(wanted)) return wanted;
  return existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal); // the shell leads its own group: whatever it started goes too
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/** HUP (a terminal hanging up), then KILL for whatever ignored it. */
function hangUp(pid: number, exited: () => boolean): void {
  killGroup(pid, 'SIGHUP');
  const t = setTimeout(() => {
    if (!exited()) killGroup(pid, 'SIGKILL');
  }, 1500);
  t.unref();
}

/**
 * Shells on a pseudo-terminal. node-pty when it loads (a native module: it may not build
 * everywhere); otherwise `script -qfec <shell> /dev/null` (util-linux), which makes the pty
 * itself — the window size is then only what the shell saw at start (COLUMNS/LINES).
 */
export class NodePtyHost implements PtyHost {
  private readonly env: Record<string, string>;
  private readonly shell: string;
  private readonly engine: Promise<NodePty | null>;

  constructor(options: { source?: NodeJS.ProcessEnv; extraEnv?: Record<string, string>; engine?: 'auto' | 'script' } = {}) {
    const source = options.source ?? process.env;
    this.env = { ...terminalEnv(source), ...options.extraEnv };
    this.shell = userShell(source);
    this.engine = options.engine === 'script' ? Promise.resolve(null) : loadNodePty();
  }

  async kind(): Promise<'node-pty' | 'script'> {
    return (await this.engine) ? 'node-pty' : 'script';
  }

  async spawn(o: PtySpawnOptions): Promise<PtyProcess> {
    const pty = await this.engine;
    const shell = o.shell ?? this.shell;
    const env = { ...this.env, ...o.env, PWD: o.cwd };
    if (pty) return spawnNodePty(pty, shell, o, env);
    const proc = spawnScript(shell, o, env);
    await proc.started;
    return proc;
  }
}

async function loadNodePty(): Promise<NodePty | null> {
  try {
    const mod = (await import('node-pty')) as Partial<NodePty> & { default?: NodePty };
    return typeof mod.spawn === 'function' ? (mod as NodePty) : (mod.default ?? null);
  } catch {
    return null;
  }
}

function spawnNodePty(pty: NodePty, shell: string, o: PtySpawnOptions, env: Record<string, string>): PtyProcess {
  const term = pty.spawn(shell, [], { name: 'xterm-256color', cols: o.cols, rows: o.rows, cwd: o.cwd, env, encoding: 'utf8' });
  let exited = false;
  const exits: Array<(code: number | null, signal: number | null) => void> = [];
  term.onExit(({ exitCode, signal }) => {
    exited = true;
    for (const fn of exits) fn(signal ? null : exitCode, signal || null);
  });
  return {
    pid: term.pid,
    onData: (fn) => void term.onData(fn),
    onExit: (fn) => void exits.push(fn),
    write: (data) => {
      if (!exited) term.write(data);
    },
    resize: (rows, cols) => {
      if (!exited) term.resize(cols, rows);
    },
    kill: () => {
      if (!exited) hangUp(term.pid, () => exited);
    },
  };
}

function spawnScript(shell: string, o: PtySpawnOptions, env: Record<string, string>): PtyProcess & { started: Promise<void> } {
  // -q quiet, -f flush each write, -e the shell's exit code, -c the command; no typescript file.
  const child = spawn('script', ['-qfec', shell, '/dev/null'], {
    cwd: o.cwd,
    env: { ...env, COLUMNS: String(o.cols), LINES: String(o.rows) },
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let exited = false;
  const exits: Array<(code: number | null, signal: number | null) => void> = [];
  const decoder = new TextDecoder();
  const datas: Array<(text: string) => void> = [];
  const emit = (b: Uint8Array) => {
    const text = decoder.decode(b, { stream: true });
    if (text) for (const fn of datas) fn(text);
  };
  child.stdout.on('data', emit);
  child.stderr.on('data', emit);
  child.stdin.on('error', () => {});
  // No `script` on this machine (or no such folder): the start fails rather than a silent exit.
  const started = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  started.catch(() => {});
  child.on('close', (code, signal) => {
    exited = true;
    const signo = signal ? (constants.signals[signal] ?? null) : null;
    for (const fn of exits) fn(signal ? null : code, signo);
  });
  return {
    started,
    pid: child.pid ?? 0,
    onData: (fn) => void datas.push(fn),
    onExit: (fn) => void exits.push(fn),
    write: (data) => {
      if (!exited) child.stdin.write(data);
    },
    // The pty belongs to `script`; nothing outside can set its size. Best effort: nothing.
    resize: () => {},
    kill: () => {
      if (!exited && child.pid) hangUp(child.pid, () => exited);
    },
  };
}
