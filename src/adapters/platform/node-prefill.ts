import { spawn } from 'node:child_process';
import type { PrefillIo, PrefillScriptResult } from '../../ports/prefill.js';
import { readTextIfExists } from '../storage/fs/atomic-file.js';

/**
 * The prefill file and script on this machine. The script runs without a shell, in its own
 * process group so a timeout kills whatever it started too; its output is read only up to the
 * limit (past it the process is killed), so neither a slow nor a chatty script holds a turn.
 */
export class NodePrefillIo implements PrefillIo {
  constructor(private readonly env: Record<string, string | undefined>) {}

  readText(path: string): Promise<string | null> {
    return readTextIfExists(path);
  }

  runScript(argv: string[], limits: { timeoutMs: number; maxOutputBytes: number }): Promise<PrefillScriptResult> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let stderr = '';
      let failure: string | null = null;
      let settled = false;
      const finish = (result: PrefillScriptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const child = spawn(argv[0]!, argv.slice(1), { env: this.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const killGroup = () => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      };
      const timer = setTimeout(() => {
        failure = 'prefill script timed out';
        killGroup();
      }, limits.timeoutMs);
      child.stdout.on('data', (chunk: Buffer) => {
        if (failure) return;
        size += chunk.length;
        if (size > limits.maxOutputBytes) {
          failure = `prefill script output exceeded ${limits.maxOutputBytes} bytes`;
          killGroup();
          return;
        }
        chunks.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < 4096) stderr += chunk.toString('utf8');
      });
      child.on('error', (err) => finish({ ok: false, error: err.message }));
      // 'close' waits for the pipes, which a grandchild holding them would keep open: the group kill above ends it too.
      child.on('close', (code, signal) => {
        if (failure) return finish({ ok: false, error: failure });
        const stdout = Buffer.concat(chunks).toString('utf8');
        if (code !== 0) return finish({ ok: false, error: stderr.trim() || stdout.trim() || `prefill script exited ${code ?? signal}` });
        finish({ ok: true, stdout });
      });
    });
  }
}
