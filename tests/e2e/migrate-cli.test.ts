import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { track, trackedEnv } from '../helpers/processes.js';
import { incumbentSession, writeIncumbentStateDir } from '../fixtures/incumbent-state.js';
import { testDatabase } from '../helpers/postgres.js';
import { connectPostgres } from '../../src/adapters/storage/postgres/pg-client.js';
import { PgSessionStore } from '../../src/adapters/storage/postgres/pg-session-store.js';
import { PgRunJournal } from '../../src/adapters/storage/postgres/pg-run-journal.js';
import { FsSessionStore } from '../../src/adapters/storage/fs/fs-session-store.js';
import { FsRunJournal } from '../../src/adapters/storage/fs/fs-run-journal.js';
import { storedRunEvent } from '../../src/runs/events.js';
import { canonicalJson } from '../../src/entry/migrate-copy.js';
import { FsAuthStore } from '../../src/adapters/storage/fs/fs-auth-store.js';
import { FsPushStore } from '../../src/adapters/storage/fs/fs-push-store.js';
import { PgAuthStore } from '../../src/adapters/storage/postgres/pg-auth-store.js';
import { PgPushStore } from '../../src/adapters/storage/postgres/pg-push-store.js';

const root = new URL('../..', import.meta.url).pathname;

/** Runs the built CLI (dist/migrate.js, what `npm run migrate` runs) to its end. */
function migrate(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'dist', 'migrate.js'), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...trackedEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    track(child, 'dist/migrate.js');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run migrate (the built CLI)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hermes-migrate-cli-'));
    await writeIncumbentStateDir(join(dir, 'hermes', 'webui'), { withIndex: true });
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('--help says what it does and exits 0', async () => {
    const { code, stdout } = await migrate(['--help'], {});
    expect(code).toBe(0);
    expect(stdout).toMatch(/--from fs --to postgres/);
    expect(stdout).toMatch(/Safe to run again/);
  });

  it('refuses other directions, unknown flags and a missing database URL with a usage error', async () => {
    const home = { HOME: dir, HERMES_HOME: join(dir, 'hermes') };
    const wrong = await migrate(['--from', 'postgres', '--to', 'fs'], home);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/Only --from fs --to postgres is supported/);
    expect((await migrate(['--bogus'], home)).code).toBe(2);
    const noUrl = await migrate(['--from', 'fs', '--to', 'postgres'], home);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/HERMES_WEBUI_DATABASE_URL: is required/);
  });

  it('fails with exit code 1 and says why when the database cannot be reached, or the state dir is missing', async () => {
    const unreachable = await migrate(['--from', 'fs', '--to', 'postgres'], {
      HOME: dir,
      HERMES_HOME: join(dir, 'hermes'),
      HERMES_WEBUI_DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/none',
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toMatch(/into postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/none/);
    expect(unreachable.stderr).toMatch(/Migration failed: .*ECONNREFUSED/);
    const missing = await migrate(['--from', 'fs', '--to', 'postgres'], {
      HOME: dir,
      HERMES_WEBUI_STATE_DIR: join(dir, 'nowhere'),
      HERMES_WEBUI_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No state dir at .*nowhere/);
  });

  it('copies the incumbent state dir into a real database: every session byte-equal, the journals whole; a re-run copies nothing', async () => {
    const db = await testDatabase();
    const sql = connectPostgres(db.url, { max: 2 });
    const stateDir = join(dir, 'hermes', 'webui');
    const clock = { now: () => Date.now() / 1000 };
    try {
      // A second session beside the incumbent's, archived, with a journal and a checkpoint.
      const fsSessions = new FsSessionStore({ stateDir, clock });
      await fsSessions.init();
      const extra = { ...incumbentSession, session_id: 'f0e1d2c3b4a5', title: 'Archivado — ñ', archived: true, pinned: false, updated_at: 1780000900.5 };
      await fsSessions.create(extra as never);
      await fsSessions.dispose();
      const w = new FsRunJournal(stateDir).open(extra.session_id, 'stream_cli');
      w.append({ seq: 1, event: 'token', data: { text: 'hola' }, at: 1780000901.25 });
      w.append(storedRunEvent(2, 'stream_end', { session_id: extra.session_id }, 1780000902));
      await w.checkpoint({ seq: 2, step: null });
      await w.close();

      // The state dir's own keys: signed-in browsers and push subscriptions depend on them.
      const signing = await new FsAuthStore(stateDir).key('signing');
      const vapid = await new FsPushStore(stateDir).vapidKeys();
      const env = { HOME: dir, HERMES_HOME: join(dir, 'hermes'), HERMES_WEBUI_DATABASE_URL: db.url };
      const first = await migrate(['--from', 'fs', '--to', 'postgres'], env);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/^sessions: 2 copied, 0 already there$/m);
      expect(first.stdout).toMatch(/^run journals: 1 copied/m);
      expect(first.stdout).toMatch(/^auth keys and sign-in sessions: [2-9]\d* copied/m);
      expect(first.stdout).toMatch(/^push keys and subscriptions: 1 copied/m);
      expect(await new PgAuthStore(sql).key('signing')).toEqual(signing);
      expect(await new PgPushStore(sql).vapidKeys()).toEqual(vapid);
      expect(first.stdout).toMatch(/^Done in [\d.]+ s: 2 sessions copied/m);

      const source = new FsSessionStore({ stateDir, clock });
      await source.init();
      const target = new PgSessionStore(sql, clock);
      await target.init();
      // Every field and every message, byte for byte (Postgres gives the keys in its own order).
      for (const id of [incumbentSession.session_id, extra.session_id]) {
        expect(canonicalJson(await target.get(id))).toBe(canonicalJson(await source.get(id)));
      }
      expect((await target.list({ includeArchived: true })).total).toBe(2);
      expect(await new PgRunJournal(sql).read('stream_cli')).toEqual(await new FsRunJournal(stateDir).read('stream_cli'));

      const again = await migrate(['--from', 'fs', '--to', 'postgres'], env);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/^sessions: 0 copied, 2 already there$/m);
      expect(again.stdout).toMatch(/^run journals: 0 copied, 1 already there$/m);
      expect(again.stdout).toMatch(/0 sessions copied, 2 already there, 0 kept as newer in Postgres; 0 items copied in all\./);
      expect(canonicalJson(await target.get(extra.session_id))).toBe(canonicalJson(await source.get(extra.session_id)));
      await Promise.all([source.dispose(), target.dispose()]);
    } finally {
      await sql.end();
      await db.drop();
    }
  });
});
