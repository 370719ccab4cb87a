import { spawn } from 'node:child_process';
import type { GitCommand, GitResult, GitRunner } from '../../ports/git.js';

const DEFAULT_MAX_OUTPUT = 8 * 1024 * 1024;

/**
 * Variables that would point git somewhere else or run a program for it: set in the server's
 * environment (or a CI's) they must not reach a workspace command.
 */
const SCRUBBED =
  /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|NAMESPACE|COMMON_DIR|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|CONFIG.*|EXEC_PATH|EDITOR|SEQUENCE_EDITOR|PAGER|ASKPASS|SSH|SSH_COMMAND|SSH_VARIANT|PROXY_COMMAND|EXTERNAL_DIFF|TRACE.*|REPLACE_REF_BASE|SHALLOW_FILE|TEMPLATE_DIR|HTTP_.*|CURL_.*)$/;
const ALSO_SCRUBBED = new Set(['SSH_ASKPASS', 'EDITOR', 'VISUAL', 'PAGER', 'LESS', 'DISPLAY', 'SSH_AUTH_SOCK']);

/** The environment every git call gets: the server's, minus redirections and helpers, plus no-prompt switches. */
export function gitEnv(source: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) {
    if (v === undefined || SCRUBBED.test(k) || ALSO_SCRUBBED.has(k)) continue;
    if (/_API_KEY$/i.test(k)) continue;
    env[k] = v;
  }
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
    SSH_ASKPASS: 'true',
    // BatchMode: ssh fails instead of asking for a passphrase or a host key.
    GIT_SSH_COMMAND: 'ssh -oBatchMode=yes',
    GIT_PAGER: 'cat',
    GIT_EDITOR: 'true',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
  };
}

/** Config passed on every call: no pager, no colour, no fsmonitor or hooks-driven surprises for read commands. */
const BASE_ARGS = ['-c', 'core.quotepath=off', '-c', 'color.ui=false', '-c', 'core.pager=cat', '-c', 'core.fsmonitor=false', '-c', 'credential.helper='];

export class NodeGitRunner implements GitRunner {
  private readonly env: Record<string, string>;
  private probe: Promise<boolean> | null = null;

  constructor(
    source: NodeJS.ProcessEnv = process.env,
    private readonly binary = 'git',
  ) {
    this.env = gitEnv(source);
  }

  available(): Promise<boolean> {
    this.probe ??= this.run({ args: ['--version'], cwd: process.cwd(), timeoutMs: 5000 }).then(
      (r) => r.code === 0,
      () => false,
    );
    return this.probe;
  }

  run(command: GitCommand): Promise<GitResult> {
    const max = command.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
    return new Promise((resolve) => {
      const child = spawn(this.binary, [...BASE_ARGS, ...command.args], {
        cwd: command.cwd,
        env: { ...this.env, ...command.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group, so a timeout also ends what git started (a hook, ssh, an alias).
        detached: true,
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let outBytes = 0;
      let errBytes = 0;
      let truncated = false;
      let timedOut = false;
      const kill = () => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          try {
            child.kill('SIGKILL');
          } catch {
            /* already gone */
          }
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, command.timeoutMs);
      const onAbort = () => kill();
      command.signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (chunk: Buffer) => {
        if (outBytes >= max) {
          truncated = true;
          return;
        }
        const room = max - outBytes;
        if (chunk.length > room) {
          truncated = true;
          chunk = chunk.subarray(0, room);
        }
        out.push(chunk);
        outBytes += chunk.length;
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (errBytes < 64 * 1024) err.push(chunk);
        errBytes += chunk.length;
      });
      child.stdin.on('error', () => {
        /* git exited before reading its input: the exit code says why */
      });
      if (command.input !== undefined) child.stdin.end(command.input);
      else child.stdin.end();
      const finish = (code: number | null) => {
        clearTimeout(timer);
        command.signal?.removeEventListener('abort', onAbort);
        const all = Buffer.concat(out);
        resolve({
          code,
          stdout: all.toString('utf8'),
          ...(command.bytes ? { bytes: new Uint8Array(all.buffer, all.byteOffset, all.byteLength) } : {}),
          stderr: Buffer.concat(err).toString('utf8'),
          timedOut,
          truncated,
        });
      };
      child.on('error', (e) => {
        err.push(Buffer.from(String(e.message)));
        finish(null);
      });
      child.on('close', (code) => finish(timedOut || command.signal?.aborted ? null : code));
    });
  }
}
