import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeHermesStateDb } from '../../../src/adapters/platform/node-hermes-state-db.js';
import { FsSessionStore } from '../../../src/adapters/storage/fs/fs-session-store.js';
import { knowledgeContext } from '../../../src/agent/builtin/knowledge.js';
import { parseAgentConfig } from '../../../src/agent/config.js';
import type { ModelProvider } from '../../../src/agent/providers/types.js';
import { sessionSearchTool } from '../../../src/agent/tools/session-search.js';
import { sampleSession, testClock } from '../../contracts/session-store.contract.js';
import { type FixtureSession, sampleSessions, writeStateDb } from '../../fixtures/hermes-state-db.js';
import { fakeContext, parse, sandbox, type Sandbox } from './helpers.js';

const logger = { info() {}, warn() {}, error() {}, debug() {} } as never;

/** Hermes' v23 index: external content over content/tool_name/tool_calls, rebuilt from messages. */
function addFtsIndex(path: string) {
  const db = new Database(path);
  try {
    db.exec(
      "CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content='messages', content_rowid='id'); INSERT INTO messages_fts(messages_fts) VALUES('rebuild');",
    );
  } finally {
    db.close();
  }
}

const now = 1_780_000_000;
function hermesSessions(): FixtureSession[] {
  return [
    ...sampleSessions(now),
    {
      id: '20260727_120000_e44444',
      source: 'cli',
      title: 'Postgres tuning',
      started_at: now - 9000,
      messages: [
        { role: 'user', content: 'The postgres vacuum runs forever on the orders table', timestamp: now - 9000 },
        { role: 'assistant', content: 'Raise autovacuum_vacuum_cost_limit and check for long transactions.', timestamp: now - 8990 },
        { role: 'tool', content: 'vacuum verbose output: orders', tool_name: 'terminal', timestamp: now - 8980 },
        // Rewound (active = 0): never recalled.
        { role: 'user', content: 'vacuum rewound message', timestamp: now - 8970, active: 0 },
      ],
    },
  ];
}

let box: Sandbox;
let store: FsSessionStore;
let stateDb: NodeHermesStateDb;
beforeEach(async () => {
  box = sandbox();
  store = new FsSessionStore({ stateDir: join(box.root, 'state'), clock: testClock });
  await store.init();
  stateDb = new NodeHermesStateDb(join(box.hermesHome, 'state.db'), logger);
});
afterEach(async () => {
  await store.dispose();
  box.cleanup();
});

const msg = (role: string, content: string, timestamp: number) => ({ role, content, timestamp });

async function seedOurs() {
  const deploy = sampleSession({
    title: 'Deploy pipeline',
    messages: [
      msg('user', 'Why does the deploy to staging fail?', now - 500),
      msg('assistant', 'The staging deploy lacks the DATABASE_URL secret.', now - 490),
      msg('user', 'Add it and redeploy', now - 480),
      msg('assistant', 'Done, the deploy is green now.', now - 470),
    ],
  });
  const other = sampleSession({ title: 'Groceries', messages: [msg('user', 'milk, eggs, postgres? no: bread', now - 100)] });
  const current = sampleSession({ title: 'This one', messages: [msg('user', 'deploy staging again please', now)] });
  for (const s of [deploy, other, current]) await store.create(s);
  return { deploy, other, current };
}

function context(currentId: string, opts: { sessions?: boolean; agent?: boolean } = {}) {
  const fake = fakeContext(box);
  fake.ctx.sessionId = currentId;
  fake.ctx.knowledge = knowledgeContext({
    config: parseAgentConfig({ configYaml: null, dotenv: null, env: {} }),
    hermesHome: box.hermesHome,
    host: fake.ctx.host,
    main: { provider: {} as ModelProvider, model: 'm' },
    sessions: opts.sessions === false ? null : store,
    agentSessions: opts.agent === false ? null : stateDb,
    platform: 'linux',
  });
  return fake.ctx;
}

const run = async (args: Record<string, unknown>, ctx: ReturnType<typeof context>) => parse(await sessionSearchTool.run(args, ctx));

describe("session_search over this server's sessions", () => {
  it('finds the session whose messages hold every word, leaves out the asking session, and gives the top hit full context', async () => {
    const { deploy, current } = await seedOurs();
    const r = await run({ query: 'staging deploy' }, context(current.session_id, { agent: false }));
    expect(r.success).toBe(true);
    expect(r.count).toBe(1);
    const [hit] = r.results;
    expect(hit).toMatchObject({ session_id: deploy.session_id, title: 'Deploy pipeline', source: 'webui', detail: 'full', match_message_id: 0 });
    expect(hit.snippet).toBe('Why does the >>>deploy<<< to >>>staging<<< fail?');
    expect(hit.messages.map((m: any) => m.id)).toEqual([0, 1, 2, 3]);
    expect(hit.messages_before).toBe(0);
    expect(hit.messages_after).toBe(3);
    expect(hit.bookend_start.map((m: any) => m.content)).toEqual([
      'Why does the deploy to staging fail?',
      'The staging deploy lacks the DATABASE_URL secret.',
      'Add it and redeploy',
    ]);
    // Words are AND-ed; OR widens; NOT narrows.
    expect((await run({ query: 'staging bread' }, context(current.session_id, { agent: false }))).count).toBe(0);
    expect((await run({ query: 'staging OR bread' }, context(current.session_id, { agent: false }))).count).toBe(2);
    // Whole words, as FTS5 matches them: "redeploy" is not "deploy", but deploy* reaches it.
    expect((await run({ query: 'deploy NOT staging' }, context(current.session_id, { agent: false }))).results[0].match_message_id).toBe(3);
    expect((await run({ query: 'redeploy' }, context(current.session_id, { agent: false }))).results[0].match_message_id).toBe(2);
    expect((await run({ query: '"deploy is green"' }, context(current.session_id, { agent: false }))).results[0].match_message_id).toBe(3);
  });

  it('finds a rare combination of common words past the first candidates', async () => {
    const old = sampleSession({ title: 'Old', messages: [msg('user', 'staging deploy broke once', now - 9000)] });
    await store.create(old);
    // Newer sessions that all hold the longest word but not the other one.
    for (let i = 0; i < 40; i++) await store.create(sampleSession({ title: `Noise ${i}`, messages: [msg('user', `staging note ${i}`, now - i)] }));
    const r = await run({ query: 'staging deploy' }, context('someone-else', { agent: false }));
    expect(r.results.map((x: any) => x.session_id)).toEqual([old.session_id]);
  });

  it('reads one session, scrolls around a message, and browses recent sessions', async () => {
    const { deploy, current } = await seedOurs();
    const ctx = context(current.session_id, { agent: false });
    const read = await run({ session_id: deploy.session_id }, ctx);
    expect(read).toMatchObject({ success: true, title: 'Deploy pipeline', message_count: 4 });
    expect(read.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const scroll = await run({ session_id: deploy.session_id, around_message_id: 2, window: 1 }, ctx);
    expect(scroll.messages.map((m: any) => m.id)).toEqual([1, 2, 3]);
    expect([scroll.messages_before, scroll.messages_after]).toEqual([1, 1]);
    const browse = await run({}, ctx);
    expect(browse.mode).toBe('browse');
    expect(browse.sessions.map((s: any) => s.title)).toEqual(['Groceries', 'Deploy pipeline']);
    expect((await run({ session_id: 'nope' }, ctx)).error).toBe("Session 'nope' not found");
  });
});

describe("session_search over Hermes' state.db", () => {
  it('uses the FTS5 index (bm25, snippet marks, role filter) and leaves out subagent/tool runs and rewound messages', async () => {
    const path = join(box.hermesHome, 'state.db');
    writeStateDb(path, hermesSessions());
    addFtsIndex(path);
    const ctx = context('web-1', { sessions: false });
    const r = await run({ query: 'vacuum' }, ctx);
    expect(r.results.map((x: any) => [x.session_id, x.source, x.title])).toEqual([['20260727_120000_e44444', 'cli', 'Postgres tuning']]);
    expect(r.results[0].snippet).toContain('>>>vacuum<<<');
    expect(r.results[0].messages.map((m: any) => m.content)).not.toContain('vacuum rewound message');
    // Tool output is searched only when asked for.
    const tools = await run({ query: 'verbose', role_filter: 'tool' }, ctx);
    expect(tools.results[0].snippet).toContain('>>>verbose<<<');
    expect((await run({ query: 'verbose' }, ctx)).count).toBe(0);
    expect((await run({ query: 'research' }, ctx)).count).toBe(0);
    // FTS5 syntax: a phrase, a prefix; and a query FTS5 cannot parse is retried word by word.
    expect((await run({ query: '"calendar today"' }, ctx)).results[0].session_id).toBe('20260727_160000_b11111');
    expect((await run({ query: 'calend*' }, ctx)).count).toBe(1);
    expect((await run({ query: 'set -eu"' }, ctx)).results[0].session_id).toBe('20260727_135519_a55c71');
    // Scroll by state.db message id.
    const anchor = r.results[0].match_message_id;
    const scroll = await run({ session_id: '20260727_120000_e44444', around_message_id: anchor, window: 1 }, ctx);
    expect(scroll.messages.map((m: any) => m.id)).toContain(anchor);
  });

  it('falls back to LIKE when the database has no FTS index, and merges both stores', async () => {
    writeStateDb(join(box.hermesHome, 'state.db'), hermesSessions());
    const { current } = await seedOurs();
    const ctx = context(current.session_id);
    const r = await run({ query: 'postgres', limit: 5, detail: 'full' }, ctx);
    expect(r.results.map((x: any) => x.source).sort()).toEqual(['cli', 'webui']);
    expect(r.results.every((x: any) => x.detail === 'full')).toBe(true);
    const cli = r.results.find((x: any) => x.source === 'cli');
    expect(cli.snippet).toContain('>>>postgres<<<');
    // Browse lists both, newest first.
    const browse = await run({ limit: 10 }, ctx);
    expect(browse.sessions.map((s: any) => s.source)).toEqual(['telegram', 'cli', 'cli', 'webui', 'webui']);
    // Read a Hermes session by id.
    expect((await run({ session_id: '20260727_120000_e44444' }, ctx)).messages[0].content).toMatch(/^The postgres vacuum/);
  });

  it('answers with an error when neither store is there', async () => {
    expect(await run({ query: 'x' }, context('s', { sessions: false, agent: false }))).toEqual({
      success: false,
      error: 'Session search is not available on this server',
    });
  });
});
