import { spawn } from 'node:child_process';
import type { SpawnedProcess, SpawnRequest } from '../../agent/tools/types.js';

export const KILL_GRACE_MS = 2000;
/** After the shell exits, how long to wait for output from children still holding the pipes. */
export const DRAIN_MS = 250;

/** The group only: once its leader is gone its pid may belong to someone else. */
function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  try {
    if (pid) process.kill(-pid, signal);
  } catch {
    /* the group is gone */
  }
}

/** A background command (`terminal` background:true): the shell in its own process group, stdin open. */
export function spawnBackground(shell: string, env: Record<string, string>, req: SpawnRequest): SpawnedProcess {
  // Its own process group, so a kill reaches whatever it started; stdin stays open for write/submit.
  const child = spawn(shell, ['-c', req.command], { cwd: req.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  const decoders = [new TextDecoder(), new TextDecoder()];
  child.stdout.on('data', (b: Uint8Array) => req.onOutput(decoders[0]!.decode(b, { stream: true })));
  child.stderr.on('data', (b: Uint8Array) => req.onOutput(decoders[1]!.decode(b, { stream: true })));
  child.stdin.on('error', () => {}); // EPIPE after the process closed its stdin
  let exited = false;
  let resolveExit!: () => void;
  const exitedP = new Promise<void>((resolve) => (resolveExit = resolve));
  let settled = false;
  const finish = (code: number | null, signal: NodeJS.Signals | null) => {
    if (settled) return;
    settled = true;
    for (const d of decoders) {
      const tail = d.decode();
      if (tail) req.onOutput(tail);
    }
    for (const s of [child.stdin, child.stdout, child.stderr]) s.destroy();
    req.onExit(code, signal);
    resolveExit();
  };
  child.on('error', (err) => {
    req.onOutput(`Failed to start: ${err.message}\n`);
    finish(127, null);
  });
  child.on('close', (code, signal) => finish(code, signal));
  child.on('exit', (code, signal) => {
    exited = true;
    setTimeout(() => finish(code, signal), DRAIN_MS);
  });
  return {
    pid: child.pid ?? -1,
    write: (data) => (!settled && child.stdin.writable ? (child.stdin.write(data), true) : false),
    closeStdin: () => child.stdin.end(),
    kill: async () => {
      // The whole group, also after the shell exited: children it left behind belong to it.
      signalGroup(child.pid, 'SIGTERM');
      const hard = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
      await exitedP;
      clearTimeout(hard);
      // Stragglers that ignored SIGTERM go now rather than after the grace.
      if (exited) signalGroup(child.pid, 'SIGKILL');
    },
  };
}
