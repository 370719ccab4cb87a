import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processIdentity, reapMarked, reapRecorded, recordChild, REGISTRY_ENV, RUN_ENV } from '../../scripts/test-tools/processes.mjs';

// Real processes: a node that idles until killed, and one that starts such a child and prints its pid.
const IDLE = 'setInterval(() => {}, 1000)';
const PARENT = `const c = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(IDLE)}], { stdio: 'ignore' }); console.log(c.pid); ${IDLE}`;

const started: ChildProcess[] = [];
const dirs: string[] = [];
function idle(code = IDLE, options: { detached?: boolean; env?: Record<string, string> } = {}): ChildProcess {
  const child = spawn(process.execPath, ['-e', code], {
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: options.detached ?? false,
    env: { PATH: process.env.PATH ?? '', ...options.env },
  });
  started.push(child);
  return child;
}
function registry(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-registry-test-'));
  dirs.push(dir);
  return { dir, env: { [REGISTRY_ENV]: dir } };
}
const up = (child: ChildProcess) => new Promise<void>((resolve) => child.once('spawn', () => resolve()));
const firstLine = (child: ChildProcess) => new Promise<number>((resolve) => child.stdout!.once('data', (d) => resolve(Number(String(d).trim()))));
const gone = (pid: number) => expect.poll(() => processIdentity(pid), { timeout: 5000 }).toBeNull();

afterEach(async () => {
  // This file's own children are stopped whatever an assertion did.
  for (const c of started.splice(0)) {
    if (c.exitCode === null && c.signalCode === null && c.pid) {
      // The group first (a detached parent's child is in it), then the child itself.
      for (const target of [-c.pid, c.pid]) {
        try {
          process.kill(target, 'SIGKILL');
        } catch {
          /* not a group leader, or gone */
        }
      }
    }
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the child-process registry', () => {
  it('reports a recorded child left running, kills it and forgets it', async () => {
    const { dir, env } = registry();
    const child = idle();
    await up(child);
    recordChild(child, 'an idle node, started by this test', { env });
    const exited = new Promise((r) => child.once('exit', (_code, signal) => r(signal)));
    expect(reapRecorded(dir)).toEqual([{ pid: child.pid, label: 'an idle node, started by this test' }]);
    expect(await exited).toBe('SIGKILL');
    expect(readdirSync(dir)).toEqual([]);
    expect(reapRecorded(dir)).toEqual([]);
  });

  it('says nothing about a child that was stopped, and checks only the owner asked for', async () => {
    const { dir, env } = registry();
    const stopped = idle();
    await up(stopped);
    recordChild(stopped, 'stopped', { env });
    await new Promise((r) => stopped.once('exit', r).kill('SIGTERM'));
    const running = idle();
    await up(running);
    recordChild(running, 'running', { env });
    expect(reapRecorded(dir, { owner: process.pid + 1 })).toEqual([]);
    expect(processIdentity(running.pid!)).not.toBeNull();
    expect(reapRecorded(dir, { owner: process.pid }).map((s) => s.label)).toEqual(['running']);
  });

  it('kills what a survivor started: its process group, and on Linux its descendants', async () => {
    const { dir, env } = registry();
    const leader = idle(PARENT, { detached: true });
    const grandchild = await firstLine(leader);
    recordChild(leader, 'a group leader', { group: true, env });
    expect(processIdentity(grandchild)).not.toBeNull();
    expect(reapRecorded(dir).map((s) => s.pid)).toEqual([leader.pid]);
    await gone(grandchild);
    await gone(leader.pid!);
  });

  it('leaves a pid alone once another process has it (the start time differs)', async () => {
    const { dir } = registry();
    const other = idle();
    await up(other);
    writeFileSync(
      join(dir, `${other.pid}.json`),
      JSON.stringify({ pid: other.pid, start: 'another process', group: false, label: 'long gone', owner: process.pid }),
    );
    expect(reapRecorded(dir)).toEqual([]);
    expect(processIdentity(other.pid!)).not.toBeNull();
  });
});

describe('the run marker', () => {
  it('finds a process of this run nobody recorded (an orphan), kills it, and ignores others', async () => {
    const marker = randomUUID();
    const orphan = idle(IDLE, { detached: true, env: { [RUN_ENV]: marker } });
    const stranger = idle(IDLE, { env: { [RUN_ENV]: randomUUID() } });
    await Promise.all([up(orphan), up(stranger)]);
    const survivors = await reapMarked(marker, { graceMs: 0 });
    expect(survivors.map((s) => s.pid)).toEqual([orphan.pid]);
    expect(survivors[0]!.label).toContain('setInterval');
    await gone(orphan.pid!);
    expect(processIdentity(stranger.pid!)).not.toBeNull();
  });

  it('waits out a process that exits on its own within the grace period', async () => {
    const marker = randomUUID();
    const brief = idle('setTimeout(() => {}, 300)', { env: { [RUN_ENV]: marker } });
    await up(brief);
    expect(await reapMarked(marker, { graceMs: 5000 })).toEqual([]);
  });
});
