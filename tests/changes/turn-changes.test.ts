import { execFileSync } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { makeTestApp } from '../helpers/app.js';

const NO_APPROVALS = 'approvals:\n  mode: off\n';
const ORIGINAL = {
  'existing.txt': 'one\ntwo\nthree\n',
  'a.txt': 'move me\n',
  'c.txt': 'delete me\n',
  'keep.bin': '\u0000\u0001binary',
};

async function seed(workspace: string, git: boolean) {
  for (const [name, text] of Object.entries(ORIGINAL)) await writeFile(join(workspace, name), text);
  if (!git) return;
  const run = (...args: string[]) => execFileSync('git', args, { cwd: workspace, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  run('init', '-q');
  run('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'add', '-A');
  run('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'seed');
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** A turn that creates, patches, moves (in the terminal) and deletes (in the terminal). */
function enqueueEditingTurn(t: ChatHarness) {
  t.model.enqueue(
    [
      { toolCall: { id: 'w1', name: 'write_file', args: { path: 'sub/new.txt', content: 'fresh\nfile\n' } } },
      { toolCall: { id: 'p1', name: 'patch', args: { path: 'existing.txt', old_string: 'two', new_string: 'TWO\nand more' } } },
    ],
    [{ toolCall: { id: 't1', name: 'terminal', args: { command: 'mv a.txt b.txt && rm c.txt' } } }],
    [{ text: 'Done.' }],
  );
}

const EXPECTED = [
  { path: 'b.txt', action: 'moved', from: 'a.txt', additions: 0, deletions: 0 },
  { path: 'c.txt', action: 'deleted', additions: 0, deletions: 1 },
  { path: 'existing.txt', action: 'modified', additions: 2, deletions: 1 },
  { path: 'sub/new.txt', action: 'created', additions: 2, deletions: 0 },
];

for (const strategy of ['git', 'plain'] as const) {
  describe(`turn change record (${strategy} workspace)`, () => {
    let t: ChatHarness;
    afterEach(async () => t.close());

    it('records every change, emits turn_changes before done, serves diffs, undoes byte for byte, once', async () => {
      t = await makeChatApp({ extraYaml: NO_APPROVALS });
      await seed(t.workspace, strategy === 'git');
      const indexBefore = strategy === 'git' ? await readFile(join(t.workspace, '.git', 'index')) : null;
      const sid = await t.newSession();
      enqueueEditingTurn(t);
      const { stream_id } = (await t.start(sid, 'edit things')).body;
      const frames = await t.stream(stream_id);
      expect((await t.deps.changes!.store.get(sid, stream_id))?.strategy).toBe(strategy === 'git' ? 'git' : 'files');
      // The user's index is never written (the snapshots use a scratch one).
      if (indexBefore) expect(await readFile(join(t.workspace, '.git', 'index'))).toEqual(indexBefore);
      expect(frames.filter((f) => f.event === 'tool_complete').map((f) => f.data.is_error)).toEqual([false, false, false]);

      const names = frames.map((f) => f.event);
      const at = names.indexOf('turn_changes');
      expect(at).toBeGreaterThan(-1);
      expect(at).toBeLessThan(names.indexOf('done'));
      const event = frames[at]!.data;
      expect(event).toEqual({ session_id: sid, stream_id, file_changes: EXPECTED, additions: 4, deletions: 2 });

      // The final answer carries them, in the done session and in the stored transcript.
      const doneLast = frames.find((f) => f.event === 'done')!.data.session.messages.at(-1);
      expect(doneLast).toMatchObject({ role: 'assistant', content: 'Done.', file_changes: EXPECTED, _stream_id: stream_id });
      const stored = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
      expect(stored.messages.at(-1)).toMatchObject({ file_changes: EXPECTED, _stream_id: stream_id });
      expect(stored.messages.filter((m: any) => m.file_changes)).toHaveLength(1);

      const got = await t.call('GET', `/api/session/changes?session_id=${sid}&stream_id=${stream_id}`);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ session_id: sid, stream_id, file_changes: EXPECTED, additions: 4, deletions: 2, undone: false });
      const byPath = Object.fromEntries(got.body.files.map((f: any) => [f.path, f]));
      expect(byPath['existing.txt'].diff).toContain('-two\n+TWO\n+and more\n');
      expect(byPath['existing.txt'].diff).toMatch(/^--- a\/existing.txt\n\+\+\+ b\/existing.txt\n/);
      expect(byPath['sub/new.txt'].diff).toContain('--- /dev/null');
      expect(byPath['c.txt'].diff).toContain('-delete me');
      for (const f of got.body.files) expect(f).toMatchObject({ truncated: false, binary: false });

      const undo = await t.call('POST', '/api/session/changes/undo', { session_id: sid, stream_id });
      expect(undo.status).toBe(200);
      expect(undo.body).toEqual({ ok: true, session_id: sid, stream_id, restored: ['a.txt', 'c.txt', 'existing.txt', 'sub/new.txt'] });
      for (const [name, text] of Object.entries(ORIGINAL)) expect(await readFile(join(t.workspace, name), 'latin1')).toBe(text);
      expect(await exists(join(t.workspace, 'b.txt'))).toBe(false);
      expect(await exists(join(t.workspace, 'sub/new.txt'))).toBe(false);

      expect((await t.call('GET', `/api/session/changes?session_id=${sid}&stream_id=${stream_id}`)).body.undone).toBe(true);
      const again = await t.call('POST', '/api/session/changes/undo', { session_id: sid, stream_id });
      expect(again).toMatchObject({ status: 409, body: { error: 'already undone' } });
    });

    it('refuses an undo (409, the list, nothing touched) when a file changed again since the turn', async () => {
      t = await makeChatApp({ extraYaml: NO_APPROVALS });
      await seed(t.workspace, strategy === 'git');
      const sid = await t.newSession();
      enqueueEditingTurn(t);
      const { stream_id } = (await t.start(sid, 'edit things')).body;
      await t.stream(stream_id);
      await writeFile(join(t.workspace, 'existing.txt'), 'edited by hand\n');

      const undo = await t.call('POST', '/api/session/changes/undo', { session_id: sid, stream_id });
      expect(undo.status).toBe(409);
      expect(undo.body.conflicts).toEqual(['existing.txt']);
      expect(typeof undo.body.error).toBe('string');
      // Nothing was put back.
      expect(await exists(join(t.workspace, 'b.txt'))).toBe(true);
      expect(await exists(join(t.workspace, 'c.txt'))).toBe(false);
      expect(await readFile(join(t.workspace, 'sub/new.txt'), 'utf8')).toBe('fresh\nfile\n');
    });

    it('a turn that changes no file emits no turn_changes and records nothing', async () => {
      t = await makeChatApp({ extraYaml: NO_APPROVALS });
      await seed(t.workspace, strategy === 'git');
      const sid = await t.newSession();
      t.model.enqueue([{ toolCall: { id: 'r1', name: 'read_file', args: { path: 'existing.txt' } } }], [{ text: 'Read it.' }]);
      const { stream_id } = (await t.start(sid, 'read')).body;
      const frames = await t.stream(stream_id);
      expect(frames.map((f) => f.event)).not.toContain('turn_changes');
      expect(frames.find((f) => f.event === 'done')!.data.session.messages.at(-1).file_changes).toBeUndefined();
      const got = await t.call('GET', `/api/session/changes?session_id=${sid}&stream_id=${stream_id}`);
      expect(got).toMatchObject({ status: 404, body: { error: expect.any(String) } });
    });
  });
}

describe('turn change record: turns that end early', () => {
  let t: ChatHarness;
  afterEach(async () => t.close());

  it('a turn that fails after writing records the change on its error notice', async () => {
    t = await makeChatApp({ extraYaml: NO_APPROVALS });
    const sid = await t.newSession();
    t.model.enqueue([{ toolCall: { id: 'w1', name: 'write_file', args: { path: 'half.txt', content: 'written\n' } } }], {
      status: 400,
      body: { error: { message: 'bad request from the provider' } },
    });
    const { stream_id } = (await t.start(sid, 'write then fail')).body;
    const frames = await t.stream(stream_id);
    const names = frames.map((f) => f.event);
    expect(names.indexOf('turn_changes')).toBeGreaterThan(-1);
    expect(names.indexOf('turn_changes')).toBeLessThan(names.indexOf('apperror'));
    const last = frames.find((f) => f.event === 'apperror')!.data.session.messages.at(-1);
    expect(last).toMatchObject({ _error: true, _stream_id: stream_id, file_changes: [{ path: 'half.txt', action: 'created', additions: 1, deletions: 0 }] });
    expect((await t.call('POST', '/api/session/changes/undo', { session_id: sid, stream_id })).status).toBe(200);
    expect(await exists(join(t.workspace, 'half.txt'))).toBe(false);
  });

  it('a cancelled turn records what it changed before the cancel', async () => {
    t = await makeChatApp({ extraYaml: NO_APPROVALS });
    const sid = await t.newSession();
    t.model.enqueue(
      [{ toolCall: { id: 'w1', name: 'write_file', args: { path: 'kept.txt', content: 'kept\n' } } }],
      [{ text: 'Still ' }, { delayMs: 5000 }, { text: 'going' }],
    );
    const { stream_id } = (await t.start(sid, 'write then wait')).body;
    const frames = await t.stream(stream_id, {
      onFrame: async (f) => {
        if (f.event === 'token') await t.call('POST', '/api/chat/cancel', { stream_id });
      },
    });
    const names = frames.map((f) => f.event);
    expect(names).toContain('cancel');
    expect(names.indexOf('turn_changes')).toBeLessThan(names.indexOf('cancel'));
    expect(frames.find((f) => f.event === 'turn_changes')!.data.file_changes).toEqual([{ path: 'kept.txt', action: 'created', additions: 1, deletions: 0 }]);
    const stored = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(stored.messages.filter((m: any) => m._stream_id === stream_id)).toHaveLength(1);
  });
});

describe('turn change record: stores', () => {
  for (const storage of ['fs', 'postgres'] as const) {
    it(`${storage}: the record survives a restart, and undo works from the new process`, async () => {
      const t = await makeChatApp({ storage, extraYaml: NO_APPROVALS });
      try {
        await seed(t.workspace, false);
        const sid = await t.newSession();
        enqueueEditingTurn(t);
        const { stream_id } = (await t.start(sid, 'edit things')).body;
        await t.stream(stream_id);
        const second = await makeTestApp({ storage, ...(storage === 'fs' ? { dir: t.dir } : { databaseUrl: t.databaseUrl! }) });
        try {
          const got = await second.call('GET', `/api/session/changes?session_id=${sid}&stream_id=${stream_id}`);
          expect(got.status).toBe(200);
          expect(got.body.file_changes).toEqual(EXPECTED);
          const undo = await second.call('POST', '/api/session/changes/undo', { session_id: sid, stream_id });
          expect(undo.status).toBe(200);
          expect(await readFile(join(t.workspace, 'existing.txt'), 'utf8')).toBe(ORIGINAL['existing.txt']);
          expect((await second.call('GET', `/api/session/changes?session_id=${sid}&stream_id=${stream_id}`)).body.undone).toBe(true);
          // Deleting the session takes its records with it.
          expect((await second.call('POST', '/api/session/delete', { session_id: sid })).status).toBe(200);
          expect((await second.call('GET', `/api/session/changes?session_id=${sid}&stream_id=${stream_id}`)).status).toBe(404);
        } finally {
          await second.close();
        }
      } finally {
        await t.close();
      }
    });
  }
});

describe('turn change record: the API', () => {
  let t: ChatHarness;
  afterEach(async () => t.close());

  it('validates its input and refuses an undo while a turn runs in the session', async () => {
    t = await makeChatApp({ extraYaml: NO_APPROVALS });
    await seed(t.workspace, false);
    expect((await t.call('GET', '/api/session/changes?session_id=abc')).status).toBe(400);
    expect((await t.call('POST', '/api/session/changes/undo', { session_id: 'abc', stream_id: '../x' })).status).toBe(400);
    expect((await t.call('POST', '/api/session/changes/undo', { session_id: 'abc', stream_id: 'nope' })).status).toBe(404);

    const sid = await t.newSession();
    enqueueEditingTurn(t);
    const first = (await t.start(sid, 'edit things')).body.stream_id;
    await t.stream(first);
    // The next turn's model answers slowly; the undo is asked for while it runs.
    t.model.enqueue([{ delayMs: 3000 }, { text: 'Thinking…' }]);
    const second = (await t.start(sid, 'wait')).body.stream_id;
    expect(t.deps.agent.registry.activeFor(sid)).toBeTruthy();
    const refused = await t.call('POST', '/api/session/changes/undo', { session_id: sid, stream_id: first });
    expect(refused.status).toBe(409);
    expect(refused.body.conflicts).toBeUndefined();
    await t.stream(second);
    while (t.deps.agent.registry.activeFor(sid)) await new Promise((r) => setTimeout(r, 10));
    expect((await t.call('POST', '/api/session/changes/undo', { session_id: sid, stream_id: first })).status).toBe(200);
  });
});
