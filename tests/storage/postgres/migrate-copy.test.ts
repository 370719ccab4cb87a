import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config.js';
import { composeNodeStorage, type NodeStorage } from '../../../src/entry/node-storage.js';
import { copyStorage, type CopyReport } from '../../../src/entry/migrate-copy.js';
import { NodeHermesHomes } from '../../../src/adapters/platform/node-hermes-homes.js';
import { connectPostgres, type Sql } from '../../../src/adapters/storage/postgres/pg-client.js';
import { applyMigrations } from '../../../src/adapters/storage/postgres/pg-migrations.js';
import { PgRunJournal } from '../../../src/adapters/storage/postgres/pg-run-journal.js';
import { storedRunEvent } from '../../../src/runs/events.js';
import { incumbentSession, writeIncumbentStateDir } from '../../fixtures/incumbent-state.js';
import { testDatabase } from '../../helpers/postgres.js';

const quiet = { info: () => {}, error: () => {} };
const clock = { now: () => Date.now() / 1000 };
const copiedOf = (report: CopyReport) => Object.values(report).reduce((n, t) => n + t.copied, 0);

/**
 * The import's copying through the ports, in process: the incumbent-format state dir into a
 * target whose run journal is Postgres (the other Postgres stores are other parts' work; the
 * built CLI against a whole Postgres target is tests/e2e/migrate-cli.test.ts).
 */
describe('copyStorage: an incumbent state dir into another storage', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let sql: Sql;
  let root: string;
  let from: NodeStorage;
  let to: NodeStorage;
  let homes: NodeHermesHomes;

  beforeAll(async () => {
    db = await testDatabase();
    sql = connectPostgres(db.url, { max: 2 });
    await applyMigrations(sql);
    root = await mkdtemp(join(tmpdir(), 'hermes-migrate-copy-'));
    const hermesHome = join(root, 'hermes');
    const stateDir = join(hermesHome, 'webui');
    await writeIncumbentStateDir(stateDir, { withIndex: true });
    await mkdir(join(hermesHome, 'profiles', 'work'), { recursive: true });
    const config = parseConfig({ HERMES_HOME: hermesHome }, { home: root });
    from = await composeNodeStorage(config, { logger: quiet, clock, instanceId: 'src' });
    await from.sessions.init();
    homes = new NodeHermesHomes(hermesHome, {});
    // What a running server adds beside the incumbent's files.
    await from.workspacesFor(await homes.get('work')).save([{ path: '/srv/work', name: 'Work' }]);
    await from.auth.putSession('token-1', 1_900_000_000);
    await from.embedTokens.put({
      id: 'emb1',
      origin: 'https://example.org',
      session_id: null,
      secret_hash: 'h',
      created_at: 1,
      expires_at: 2,
      revoked_at: null,
    });
    await from.shares.put({
      token: 'Share_Token-0123456789ab',
      source_session_id: incumbentSession.session_id,
      profile: 'default',
      title: 'Shared',
      messages: [{ role: 'user', content: 'hi' }],
      message_count: 1,
      created_at: 1,
      updated_at: 1,
      revoked_at: null,
    });
    const w = from.journal.open(incumbentSession.session_id, 'stream_a');
    w.append({ seq: 1, event: 'token', data: { text: 'añadir' }, at: 1780000001.5 });
    w.append(storedRunEvent(2, 'stream_end', { session_id: incumbentSession.session_id }, 1780000002));
    await w.checkpoint({ seq: 2, step: null });
    await w.close();
    to = { ...(await composeNodeStorage({ ...config, storage: 'memory' }, { logger: quiet, clock, instanceId: 'dst' })), journal: new PgRunJournal(sql) };
    await to.sessions.init();
  });
  afterAll(async () => {
    await from?.sessions.dispose();
    await sql?.end();
    await db?.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('copies every session byte-equal, the state around it and the journals; a second run copies nothing', async () => {
    const lines: string[] = [];
    const first = await copyStorage(from, to, { homes, log: (l) => lines.push(l) });
    expect(first.sessions).toMatchObject({ copied: 1, failed: 0 });
    const original = await from.sessions.get(incumbentSession.session_id);
    expect(JSON.stringify(await to.sessions.get(incumbentSession.session_id))).toBe(JSON.stringify(original));
    expect((await to.sessions.get(incumbentSession.session_id))?.updated_at).toBe(incumbentSession.updated_at);
    expect(await to.settings.read()).toEqual(await from.settings.read());
    expect(await to.projects.list()).toEqual(await from.projects.list());
    expect(await to.workspaces.list()).toEqual(await from.workspaces.list());
    expect(await to.workspaces.getLast()).toBe('/home/user/projects/site');
    expect(await to.workspacesFor(await homes.get('work')).list()).toEqual([{ path: '/srv/work', name: 'Work' }]);
    expect(await to.auth.sessionExpiry('token-1')).toBe(1_900_000_000);
    expect(await to.embedTokens.get('emb1')).toEqual(await from.embedTokens.get('emb1'));
    expect(await to.shares.get('Share_Token-0123456789ab')).toEqual(await from.shares.get('Share_Token-0123456789ab'));
    expect((await to.shares.forSession(incumbentSession.session_id))?.token).toBe('Share_Token-0123456789ab');
    expect(await to.journal.read('stream_a')).toEqual(await from.journal.read('stream_a'));
    expect(lines.some((l) => l.startsWith('sessions: 1 copied'))).toBe(true);

    const again = await copyStorage(from, to, { homes });
    expect(copiedOf(again)).toBe(0);
    expect(again.sessions).toMatchObject({ copied: 0, unchanged: 1, failed: 0 });
    expect(again['run journals']).toMatchObject({ copied: 0, unchanged: 1 });
    expect(await to.workspaces.list()).toEqual(await from.workspaces.list());
  });

  it('a session changed in the target since is kept; one changed in the source since is copied again', async () => {
    const id = incumbentSession.session_id;
    await to.sessions.update(id, { title: 'Renamed after the import' });
    expect((await copyStorage(from, to, { homes })).sessions).toMatchObject({ copied: 0, keptNewer: 1 });
    expect((await to.sessions.get(id))?.title).toBe('Renamed after the import');

    await new Promise((r) => setTimeout(r, 20));
    await from.sessions.update(id, { title: 'Renamed in the state dir, later' });
    expect((await copyStorage(from, to, { homes })).sessions).toMatchObject({ copied: 1, keptNewer: 0 });
    expect(JSON.stringify(await to.sessions.get(id))).toBe(JSON.stringify(await from.sessions.get(id)));
  });
});
