import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionStore } from '../../src/ports/session-store.js';
import { VersionConflict, NotFound, Conflict } from '../../src/ports/errors.js';
import { SessionSchema, type Session } from '../../src/shared/session.js';
import { newSessionId } from '../../src/domain/session-rows.js';

export interface ContractHarness {
  store: SessionStore;
  /** A second store over the same backing data, as after a restart (omit when not persistent). */
  reopen?: () => Promise<SessionStore>;
  /** Writes garbage where session `id` is stored (omit when the backend cannot hold garbage). */
  corrupt?: (id: string, text: string) => Promise<void>;
  cleanup: () => Promise<void>;
}

let tick = 1_700_000_000;
/** A controllable clock: every read moves time forward a little, like real time. */
export const testClock = { now: () => (tick += 1) };

export function sampleSession(overrides: Partial<Session> = {}): Session {
  const now = testClock.now();
  return {
    session_id: newSessionId(),
    title: 'Untitled',
    workspace: '/tmp/ws',
    model: 'test/model',
    model_provider: null,
    created_at: now,
    updated_at: now,
    pinned: false,
    archived: false,
    project_id: null,
    messages: [],
    tool_calls: [],
    ...overrides,
  };
}

const msg = (i: number, role = 'user') => ({ role, content: `message ${i}`, timestamp: 1_700_000_000 + i });

/**
 * The behaviour every SessionStore adapter must have. Each adapter's test file calls this with
 * a factory; adapter-specific checks (files on disk, SQL) live beside it. `persistent`: the
 * harness gives `reopen` and `corrupt`, and the cases that need them are registered (a
 * non-persistent store has no such cases at all, rather than skipped ones).
 */
export function describeSessionStoreContract(name: string, make: () => Promise<ContractHarness>, options: { persistent?: boolean } = {}) {
  describe(`SessionStore contract: ${name}`, () => {
    let h: ContractHarness;
    let store: SessionStore;
    beforeEach(async () => {
      h = await make();
      store = h.store;
    });
    afterEach(async () => {
      await h.cleanup();
    });

    it('creates and reads back a session, valid against the shared schema', async () => {
      const s = sampleSession({ title: 'Hello', messages: [msg(1)] });
      await store.create(s);
      const got = await store.get(s.session_id);
      expect(got).toMatchObject({ session_id: s.session_id, title: 'Hello', workspace: '/tmp/ws', model: 'test/model' });
      expect(got!.messages).toEqual([msg(1)]);
      expect(SessionSchema.safeParse(got).success).toBe(true);
    });

    it('returns null for an unknown id and refuses a duplicate id', async () => {
      expect(await store.get('000000000000')).toBeNull();
      const s = sampleSession();
      await store.create(s);
      await expect(store.create(sampleSession({ session_id: s.session_id }))).rejects.toBeInstanceOf(Conflict);
    });

    it('keeps unknown keys and unicode through a rewrite', async () => {
      const s = sampleSession({ title: 'naïve 日本語 🚀', future_field: { nested: [1, 2] }, messages: [{ role: 'user', content: 'ü', _custom: true }] });
      await store.create(s);
      await store.update(s.session_id, { title: 'renamed ✓' });
      const got = await store.get(s.session_id);
      expect(got!.future_field).toEqual({ nested: [1, 2] });
      expect(got!.messages[0]).toEqual({ role: 'user', content: 'ü', _custom: true });
      expect(got!.title).toBe('renamed ✓');
    });

    it('lists newest updated_at first, ties by id, without transcripts', async () => {
      const a = sampleSession({ updated_at: 100 });
      const b = sampleSession({ updated_at: 300 });
      const c = sampleSession({ updated_at: 200, messages: [msg(1), msg(2, 'assistant')] });
      for (const s of [a, b, c]) await store.create(s);
      const page = await store.list();
      expect(page.rows.map((r) => r.session_id)).toEqual([b.session_id, c.session_id, a.session_id]);
      expect(page.total).toBe(3);
      const rowC = page.rows[1]!;
      expect(rowC.message_count).toBe(2);
      expect(rowC.user_message_count).toBe(1);
      expect(rowC).not.toHaveProperty('messages');
    });

    it('an update moves a session to the top', async () => {
      const a = sampleSession({ updated_at: 100 });
      const b = sampleSession({ updated_at: 200 });
      await store.create(a);
      await store.create(b);
      await store.update(a.session_id, { title: 'touched' });
      expect((await store.list()).rows[0]!.session_id).toBe(a.session_id);
    });

    it('pages through the list with limit and offset, covering every row once', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 25; i++) {
        const s = sampleSession({ updated_at: 1000 + i });
        ids.add(s.session_id);
        await store.create(s);
      }
      const seen: string[] = [];
      for (let offset = 0; offset < 30; offset += 10) {
        const page = await store.list({ limit: 10, offset });
        expect(page.total).toBe(25);
        seen.push(...page.rows.map((r) => r.session_id));
      }
      expect(seen).toHaveLength(25);
      expect(new Set(seen)).toEqual(ids);
      expect((await store.list({ limit: 0 })).rows).toEqual([]);
    });

    it('hides archived sessions unless asked, and counts them', async () => {
      const a = sampleSession();
      const b = sampleSession();
      await store.create(a);
      await store.create(b);
      await store.update(b.session_id, { archived: true });
      const visible = await store.list();
      expect(visible.rows.map((r) => r.session_id)).toEqual([a.session_id]);
      expect(visible.archivedCount).toBe(1);
      const all = await store.list({ includeArchived: true });
      expect(all.rows).toHaveLength(2);
    });

    it('update bumps updated_at strictly and checks the version', async () => {
      const s = sampleSession();
      const created = await store.create(s);
      const first = await store.update(s.session_id, { title: 'one' }, { ifUpdatedAt: created.updated_at });
      expect(first.updated_at).toBeGreaterThan(created.updated_at);
      await expect(store.update(s.session_id, { title: 'stale' }, { ifUpdatedAt: created.updated_at })).rejects.toBeInstanceOf(VersionConflict);
      expect((await store.get(s.session_id))!.title).toBe('one');
      const second = await store.update(s.session_id, { title: 'two' }, { ifUpdatedAt: first.updated_at });
      expect(second.title).toBe('two');
    });

    it('update with touch: false keeps updated_at and the list order, and still writes', async () => {
      const a = await store.create(sampleSession({ session_id: 'touchA00000' }));
      await store.create(sampleSession({ session_id: 'touchB00000' }));
      const b = await store.update('touchB00000', { title: 'newest' });
      const drafted = await store.update(a.session_id, { composer_draft: { text: 'later' } }, { touch: false });
      expect(drafted.updated_at).toBe(a.updated_at);
      expect((await store.get(a.session_id))!.composer_draft).toEqual({ text: 'later' });
      expect((await store.get(a.session_id))!.updated_at).toBe(a.updated_at);
      const ids = (await store.list()).rows.map((r) => r.session_id);
      expect(ids.indexOf(b.session_id)).toBeLessThan(ids.indexOf(a.session_id));
    });

    it('update of an unknown session is NotFound', async () => {
      await expect(store.update('abcdefabcdef', { title: 'x' })).rejects.toBeInstanceOf(NotFound);
      await expect(store.appendMessages('abcdefabcdef', [msg(1)])).rejects.toBeInstanceOf(NotFound);
    });

    it('appends messages and metadata in one step', async () => {
      const s = sampleSession();
      await store.create(s);
      const after = await store.appendMessages(s.session_id, [msg(1), msg(2, 'assistant')], { input_tokens: 12 });
      expect(after.messages).toHaveLength(2);
      expect(after.input_tokens).toBe(12);
      const row = (await store.list()).rows.find((r) => r.session_id === s.session_id)!;
      expect(row.message_count).toBe(2);
      expect(row.input_tokens).toBe(12);
    });

    it('loses nothing under concurrent appends', async () => {
      const s = sampleSession();
      await store.create(s);
      await Promise.all(Array.from({ length: 40 }, (_, i) => store.appendMessages(s.session_id, [msg(i)])));
      const got = await store.get(s.session_id);
      expect(got!.messages).toHaveLength(40);
      expect(new Set(got!.messages.map((m) => m.content)).size).toBe(40);
    });

    it('concurrent versioned updates: exactly one of several claims wins', async () => {
      const s = await store.create(sampleSession());
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, (_, i) => store.update(s.session_id, { title: `claim ${i}` }, { ifUpdatedAt: s.updated_at })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof VersionConflict)).toHaveLength(4);
    });

    it('replaces the transcript (clear, truncate)', async () => {
      const s = sampleSession({ messages: [msg(1), msg(2), msg(3)] });
      await store.create(s);
      const after = await store.replaceMessages(s.session_id, [msg(1)]);
      expect(after.messages).toEqual([msg(1)]);
      expect((await store.list()).rows[0]!.message_count).toBe(1);
    });

    it('deletes idempotently', async () => {
      const s = sampleSession();
      await store.create(s);
      expect(await store.delete(s.session_id)).toBe(true);
      expect(await store.get(s.session_id)).toBeNull();
      expect(await store.delete(s.session_id)).toBe(false);
      expect((await store.list()).total).toBe(0);
    });

    it('unassigns a project from its sessions', async () => {
      const a = sampleSession({ project_id: 'p1' });
      const b = sampleSession({ project_id: 'p2' });
      await store.create(a);
      await store.create(b);
      expect(await store.clearProject('p1')).toBe(1);
      expect((await store.get(a.session_id))!.project_id).toBeNull();
      expect((await store.get(b.session_id))!.project_id).toBe('p2');
    });

    it('searches titles, and message text when asked', async () => {
      const a = sampleSession({ title: 'Deploy the Rocket' });
      const b = sampleSession({ title: 'Other', messages: [{ role: 'user', content: 'please fix the ROCKET engine now' }] });
      await store.create(a);
      await store.create(b);
      const titleOnly = await store.search('rocket', { content: false });
      expect(titleOnly.map((h) => [h.session_id, h.match_type])).toEqual([[a.session_id, 'title']]);
      const both = await store.search('rocket', { content: true });
      expect(both.map((h) => h.match_type).sort()).toEqual(['content', 'title']);
      const hit = both.find((h) => h.session_id === b.session_id)!;
      expect(hit.match_preview).toContain('ROCKET engine');
      expect(await store.search('   ', { content: true })).toEqual([]);
    });

    if (!options.persistent) return;
    /** The harness's reopen and corrupt: a persistent harness without them is a broken harness. */
    const persistence = () => {
      if (!h.reopen || !h.corrupt) throw new Error(`the ${name} harness is marked persistent but lacks reopen or corrupt`);
      return { reopen: h.reopen, corrupt: h.corrupt };
    };

    it('persists across a reopen', async () => {
      const { reopen } = persistence();
      const s = sampleSession({ title: 'kept', messages: [msg(1)] });
      await store.create(s);
      await store.appendMessages(s.session_id, [msg(2)]);
      await store.dispose();
      const again = await reopen();
      expect((await again.get(s.session_id))!.messages).toHaveLength(2);
      expect((await again.list()).rows.map((r) => r.title)).toEqual(['kept']);
      await again.dispose();
    });

    it('reports a corrupt stored session, skips it in the list and never overwrites it', async () => {
      const { reopen, corrupt } = persistence();
      const good = sampleSession({ title: 'good' });
      const bad = sampleSession({ title: 'bad', messages: [msg(1)] });
      await store.create(good);
      await store.create(bad);
      await store.dispose();
      await corrupt(bad.session_id, '{"session_id": "truncated", "messa');
      const again = await reopen();
      const page = await again.list();
      expect(page.rows.map((r) => r.session_id)).toEqual([good.session_id]);
      const problems = await again.problems();
      expect(problems.map((p) => p.session_id)).toEqual([bad.session_id]);
      expect(problems[0]!.error).toMatch(/JSON/);
      await expect(again.get(bad.session_id)).rejects.toBeInstanceOf(Conflict);
      await expect(again.appendMessages(bad.session_id, [msg(2)])).rejects.toBeInstanceOf(Conflict);
      await expect(again.create(sampleSession({ session_id: bad.session_id }))).rejects.toBeInstanceOf(Conflict);
      await again.dispose();
    });
  });
}
