import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, open, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import type { FileTail, HermesFiles } from '../../src/ports/hermes-home.js';

const KEY = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH';

/** Hermes' line format (hermes_logging.py): `asctime levelname[ [session]] name: message`. */
const hermesLine = (i: number, level = 'INFO') => `2026-03-01 10:00:${String(i % 60).padStart(2, '0')},123 ${level} run_agent: step ${i}`;

async function writeLog(home: string, name: string, lines: string[]) {
  await mkdir(join(home, 'logs'), { recursive: true });
  await writeFile(join(home, 'logs', name), lines.map((l) => `${l}\n`).join(''));
}

describe('GET /api/logs', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it("answers the incumbent's shape for agent, errors and gateway, defaulting to agent and 200 lines", async () => {
    await writeLog(
      t.hermesHome,
      'agent.log',
      Array.from({ length: 300 }, (_, i) => hermesLine(i)),
    );
    await writeLog(t.hermesHome, 'errors.log', [hermesLine(1, 'ERROR'), 'Traceback (most recent call last):']);
    await writeLog(t.hermesHome, 'gateway.log', [`2026-03-01 10:00:00,001 INFO gateway.run: connected`]);
    const r = await t.call('GET', '/api/logs');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['file', 'hint', 'lines', 'mtime', 'tail', 'total_bytes', 'truncated']);
    expect(r.body).toMatchObject({ file: 'agent', tail: 200, truncated: false, hint: '' });
    expect(r.body.lines).toHaveLength(200);
    expect(r.body.lines.at(-1)).toBe(hermesLine(299));
    expect(r.body.lines[0]).toBe(hermesLine(100));
    expect(r.body.mtime).toBeGreaterThan(0);
    expect(r.body.total_bytes).toBe(Buffer.byteLength(Array.from({ length: 300 }, (_, i) => `${hermesLine(i)}\n`).join('')));
    const errors = await t.call('GET', '/api/logs?file=ERRORS');
    expect(errors.body).toMatchObject({ file: 'errors', lines: [hermesLine(1, 'ERROR'), 'Traceback (most recent call last):'] });
    const gateway = await t.call('GET', '/api/logs?file=gateway&tail=100');
    expect(gateway.body).toMatchObject({ file: 'gateway', tail: 100, lines: ['2026-03-01 10:00:00,001 INFO gateway.run: connected'] });
  });

  it('takes 100, 200, 500 and 1000 lines; any other tail falls back to 200 as the incumbent does', async () => {
    await writeLog(
      t.hermesHome,
      'agent.log',
      Array.from({ length: 1500 }, (_, i) => hermesLine(i)),
    );
    for (const tail of [100, 200, 500, 1000]) {
      const r = await t.call('GET', `/api/logs?file=agent&tail=${tail}`);
      expect(r.body.tail).toBe(tail);
      expect(r.body.lines).toHaveLength(tail);
      expect(r.body.lines.at(-1)).toBe(hermesLine(1499));
    }
    for (const tail of ['50', '5000', 'abc', '-1', '']) {
      const r = await t.call('GET', `/api/logs?tail=${tail}`);
      expect(r.status).toBe(200);
      expect([r.body.tail, r.body.lines.length]).toEqual([200, 200]);
    }
  });

  it('refuses a file outside the list with 400, and a logs symlink leading out', async () => {
    for (const file of ['secrets', '../config.yaml', 'agent.log', '..%2F.env']) {
      const r = await t.call('GET', `/api/logs?file=${file}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/Unknown log file/);
    }
    await mkdir(join(t.hermesHome, 'logs'), { recursive: true });
    await writeFile(join(t.hermesHome, '.env'), `OPENAI_API_KEY=${KEY}\n`);
    await symlink(join(t.hermesHome, '.env'), join(t.hermesHome, 'logs', 'agent.log'));
    const r = await t.call('GET', '/api/logs?file=agent');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'Invalid log file' });
  });

  it("splits lines as Python's splitlines does (CRLF, CR, form feed), counting from the end", async () => {
    await mkdir(join(t.hermesHome, 'logs'), { recursive: true });
    const lines = Array.from({ length: 150 }, (_, i) => hermesLine(i));
    await writeFile(
      join(t.hermesHome, 'logs', 'agent.log'),
      `${lines.slice(0, 140).join('\r\n')}\r\n${lines.slice(140, 145).join('\r')}\r${lines.slice(145).join('\f')}\r\n`,
    );
    const r = await t.call('GET', '/api/logs?tail=100');
    expect(r.body.lines).toEqual(lines.slice(50));
    await writeFile(join(t.hermesHome, 'logs', 'agent.log'), 'x\r\ny\n');
    expect((await t.call('GET', '/api/logs?tail=100')).body.lines).toEqual(['x', 'y']);
  });

  it('answers an empty list with a hint (English, and its code and values for the web app) when the file does not exist yet', async () => {
    const r = await t.call('GET', '/api/logs?file=gateway');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      file: 'gateway',
      tail: 200,
      lines: [],
      truncated: false,
      total_bytes: 0,
      mtime: null,
      hint: 'Log file for gateway not found yet.',
      hint_code: 'log_file_missing',
      hint_args: { file: 'gateway' },
    });
  });

  it('reads the end of a 10 MB file without reading it whole', async () => {
    const path = join(t.hermesHome, 'logs', 'agent.log');
    await mkdir(join(t.hermesHome, 'logs'), { recursive: true });
    const handle = await open(path, 'w');
    const block = `${Array.from({ length: 1000 }, (_, i) => hermesLine(i)).join('\n')}\n`;
    let size = 0;
    while (size < 10 * 1024 * 1024) size += (await handle.write(block)).bytesWritten;
    await handle.write('2026-03-01 11:00:00,000 WARNING run_agent: the last line\n');
    await handle.close();
    // Count what the route asks the port for.
    const files = t.deps.homes.defaultHome.files as HermesFiles;
    const reads: { maxBytes: number; got: FileTail | null }[] = [];
    const original = files.readTail.bind(files);
    files.readTail = async (p, maxBytes) => {
      const got = await original(p, maxBytes);
      reads.push({ maxBytes, got });
      return got;
    };
    try {
      const r = await t.call('GET', '/api/logs?tail=1000');
      expect(r.body.truncated).toBe(true);
      expect(r.body.total_bytes).toBeGreaterThan(10 * 1024 * 1024);
      expect(r.body.lines).toHaveLength(1000);
      expect(r.body.lines.at(-1)).toBe('2026-03-01 11:00:00,000 WARNING run_agent: the last line');
      // No line cut at the start of the window: each is a whole Hermes line.
      expect(r.body.lines.every((l: string) => /^2026-03-01 1\d:00:\d\d,\d{3} (INFO|WARNING) run_agent: /.test(l))).toBe(true);
      expect(reads).toHaveLength(1);
      expect(reads[0]!.maxBytes).toBeLessThanOrEqual(4 * 1024 * 1024);
      expect(reads[0]!.got!.bytesRead).toBeLessThanOrEqual(4 * 1024 * 1024);
    } finally {
      files.readTail = original;
    }
  });

  it('masks a key in a Hermes log line on the way out', async () => {
    await writeLog(t.hermesHome, 'agent.log', [`2026-03-01 10:00:00,000 DEBUG tools.terminal: export ANTHROPIC_API_KEY=${KEY}`, hermesLine(2)]);
    const r = await t.call('GET', '/api/logs');
    expect(JSON.stringify(r.body)).not.toContain(KEY);
    expect(r.body.lines[0]).toMatch(/^2026-03-01 10:00:00,000 DEBUG tools\.terminal: export ANTHROPIC_API_KEY=.*\*\*\*/);
    expect(r.body.lines[1]).toBe(hermesLine(2));
  });

  it("reads the logs of the profile the browser's hermes_profile cookie names", async () => {
    const work = join(t.hermesHome, 'profiles', 'work');
    await writeLog(t.hermesHome, 'agent.log', ['2026-03-01 10:00:00,000 INFO run_agent: default profile']);
    await writeLog(work, 'agent.log', ['2026-03-01 10:00:00,000 INFO run_agent: work profile']);
    const mine = await t.call('GET', '/api/logs', undefined, { Cookie: 'hermes_profile=work' });
    expect(mine.body.lines).toEqual(['2026-03-01 10:00:00,000 INFO run_agent: work profile']);
    const plain = await t.call('GET', '/api/logs');
    expect(plain.body.lines).toEqual(['2026-03-01 10:00:00,000 INFO run_agent: default profile']);
    // A profile with no logs yet is empty, not the default's.
    await mkdir(join(t.hermesHome, 'profiles', 'fresh'), { recursive: true });
    const fresh = await t.call('GET', '/api/logs', undefined, { Cookie: 'hermes_profile=fresh' });
    expect(fresh.body).toMatchObject({ lines: [], hint: 'Log file for agent not found yet.' });
  });

  it("file=webui is this server's JSON lines, the request just made included, secrets masked", async () => {
    t.deps.logger.info({ msg: 'probe', detail: `key ${KEY}` });
    await t.call('GET', '/api/health');
    const r = await t.call('GET', '/api/logs?file=webui');
    expect(r.status).toBe(200);
    expect(r.body.file).toBe('webui');
    const records = r.body.lines.map((l: string) => JSON.parse(l));
    const probe = records.find((x: { msg: string }) => x.msg === 'probe');
    expect(probe).toMatchObject({ level: 'info', detail: expect.stringContaining('***') });
    expect(Date.parse(probe.ts)).toBeGreaterThan(0);
    expect(r.body.lines.join('\n')).not.toContain(KEY);
    expect(records.some((x: { path?: string }) => x.path === '/api/health')).toBe(true);
  });
});

describe('GET /api/logs where there are no log files (Workers)', () => {
  it('answers every file empty, with a note, and the Workers home has no tail to read', async () => {
    const { DocumentHermesHomes } = await import('../../src/adapters/workers/document-hermes-homes.js');
    const homes = new DocumentHermesHomes('/hermes', {} as never, () => ({ read: async () => null, write: async () => {} }));
    expect(await homes.defaultHome.files.readTail('/hermes/logs/agent.log', 1024)).toBeNull();
    const t = await makeTestApp();
    try {
      const { createApp } = await import('../../src/app.js');
      const app = createApp({ ...t.deps, serverLog: undefined, options: { ...t.deps.options, features: { files: false, uploads: false, terminal: false } } });
      for (const [file, hint, hint_code] of [
        ['agent', "Hermes' log files are not kept on this deployment.", 'hermes_logs_not_kept'],
        ['webui', 'This deployment keeps no server log file.', 'server_log_not_kept'],
      ]) {
        const body = await (await app.request(`/api/logs?file=${file}`)).json();
        expect(body).toEqual({ file, tail: 200, lines: [], truncated: false, total_bytes: 0, mtime: null, hint, hint_code, hint_args: {} });
      }
      expect((await app.request('/api/logs?file=nope')).status).toBe(400);
    } finally {
      await t.close();
    }
  });
});
