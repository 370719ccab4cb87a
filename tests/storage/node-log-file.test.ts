import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeLogFile, teeLogger } from '../../src/adapters/platform/node-log-file.js';
import { NodeHermesFiles } from '../../src/adapters/platform/node-hermes-files.js';
import { redactingLogger } from '../../src/http/redacting-logger.js';
import { gracefulShutdown } from '../../src/entry/node-shutdown.js';

const KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';
const fixed = () => new Date('2026-03-01T10:00:00.000Z');

describe('NodeLogFile', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hermes-log-'));
    path = join(dir, 'webui.log');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes one JSON line per record (time, level, message, fields), batched until the next turn', async () => {
    const log = new NodeLogFile(path, { maxBytes: 1 << 20, keep: 3 }, fixed);
    log.info({ msg: 'request', method: 'GET', status: 200 });
    log.error({ msg: 'boom', error: 'line one\nline two' });
    log.info({ level: 'warning', msg: 'slow' });
    // Nothing is written synchronously: the caller never waits on the disk.
    expect(await readFile(path, 'utf8').catch(() => null)).toBeNull();
    await log.flush();
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { ts: '2026-03-01T10:00:00.000Z', level: 'info', msg: 'request', method: 'GET', status: 200 },
      { ts: '2026-03-01T10:00:00.000Z', level: 'error', msg: 'boom', error: 'line one\nline two' },
      { ts: '2026-03-01T10:00:00.000Z', level: 'warning', msg: 'slow' },
    ]);
  });

  it('rotates by size, keeping the configured number of old files', async () => {
    const log = new NodeLogFile(path, { maxBytes: 400, keep: 2 }, fixed);
    for (let i = 0; i < 40; i++) {
      log.info({ msg: `line ${i}` });
      // One batch per turn: let each go on its own, as requests spread over time would.
      await log.flush();
    }
    const names = (await readdir(dir)).sort();
    expect(names).toEqual(['webui.log', 'webui.log.1', 'webui.log.2']);
    for (const name of names) expect((await readFile(join(dir, name))).length).toBeLessThanOrEqual(400);
    const newest = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).msg);
    expect(newest.at(-1)).toBe('line 39');
    const older = (await readFile(join(dir, 'webui.log.1'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).msg);
    // .1 ends right where the current file begins.
    expect(Number(older.at(-1)!.split(' ')[1]) + 1).toBe(Number(newest[0]!.split(' ')[1]));
  });

  it('continues an existing file and rotates it once it is full (keep 0: starts it afresh)', async () => {
    await writeFile(path, `${'x'.repeat(390)}\n`);
    const log = new NodeLogFile(path, { maxBytes: 400, keep: 0 }, fixed);
    log.info({ msg: 'after restart' });
    await log.flush();
    expect(await readdir(dir)).toEqual(['webui.log']);
    expect(JSON.parse(await readFile(path, 'utf8')).msg).toBe('after restart');
  });

  it('behind redactingLogger, the file gets masked lines while stdout keeps its own logger', async () => {
    const log = new NodeLogFile(path, { maxBytes: 1 << 20, keep: 1 }, fixed);
    const stdout: Record<string, unknown>[] = [];
    const logger = teeLogger({ info: (r) => stdout.push(r), error: (r) => stdout.push(r) }, redactingLogger(log));
    logger.error({ msg: 'provider said no', error: `401 for key ${KEY}`, nested: { authorization: `Bearer ${KEY}` } });
    await log.flush();
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toMatchObject({ level: 'error', msg: 'provider said no', error: expect.stringContaining('***') });
    expect(stdout).toHaveLength(1);
  });

  it('readTail writes what is queued first, and reads only the end through the same reader the Hermes files use', async () => {
    const log = new NodeLogFile(path, { maxBytes: 1 << 20, keep: 1 }, fixed);
    for (let i = 0; i < 100; i++) log.info({ msg: `n${i}` });
    const tail = await log.readTail(200);
    expect(tail!.size).toBeGreaterThan(200);
    expect(tail!.bytesRead).toBe(200);
    expect(tail!.text.trim().split('\n').at(-1)).toContain('"msg":"n99"');
    expect(await new NodeHermesFiles().readTail(join(dir, 'missing.log'), 100)).toBeNull();
    expect(await new NodeHermesFiles().readTail(dir, 100)).toBeNull();
  });

  it('loses no line on a normal shutdown: the stop flushes the file before exiting', async () => {
    const log = new NodeLogFile(path, { maxBytes: 1 << 20, keep: 1 }, fixed);
    let exited: number | null = null;
    const stop = gracefulShutdown({
      server: { close: (cb: () => void) => cb() } as never,
      registry: { abortAll: () => {}, whenIdle: async () => true, active: [] } as never,
      sessions: { dispose: async () => {} },
      logFile: log,
      logger: log,
      out: () => {},
      exit: (code) => {
        exited = code;
      },
      deadlineMs: 2000,
    });
    for (let i = 0; i < 500; i++) log.info({ msg: `last words ${i}` });
    await stop('SIGTERM');
    expect(exited).toBe(0);
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(500);
    expect(JSON.parse(lines.at(-1)!).msg).toBe('last words 499');
  });
});
