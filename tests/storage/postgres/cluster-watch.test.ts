import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../../helpers/chat.js';
import { parseFrames } from '../../helpers/sse.js';
import { PushNotifier } from '../../../src/runs/push-notifier.js';
import { MemoryPushStore } from '../../../src/adapters/storage/memory/memory-push-store.js';
import type { PushSender } from '../../../src/ports/push.js';

/** The stream's whole text (frames as bytes, heartbeats dropped), read until the server ends it. */
async function rawStream(t: ChatHarness, streamId: string, headers: Record<string, string> = {}, query = ''): Promise<string> {
  const res = await t.app.request(`/api/chat/stream?stream_id=${streamId}${query}`, { headers });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  return (await readUntil(reader, null, 15_000)).replace(/: heartbeat\n\n/g, '');
}

/**
 * Reads until the text includes `marker` (then cancels the stream, unless `keepOpen`), or until the stream ends when
 * `marker` is null. Throws, with the stream cancelled, when it ends before the marker or when
 * `ms` pass: a loop on `read()` that ignored `done` spun forever once a stream ended early.
 */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, marker: string | null, ms = 5000, keepOpen = false): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`stream: no ${marker ?? 'end'} within ${ms} ms`)), ms)));
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), late]);
      if (done) {
        if (marker === null) return text;
        throw new Error(`stream ended before ${marker}: ${text}`);
      }
      text += decoder.decode(value, { stream: true });
      if (marker !== null && text.includes(marker)) {
        if (!keepOpen) await reader.cancel();
        return text;
      }
    }
  } catch (err) {
    await reader.cancel().catch(() => {});
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

const slowAnswer = [{ text: 'one ' }, { delayMs: 250 }, { text: 'two ' }, { delayMs: 250 }, { text: 'three' }];

/** Two instances (two production compositions) on one database, in one process. */
describe('two instances on one Postgres', () => {
  let a: ChatHarness;
  let b: ChatHarness;
  beforeAll(async () => {
    a = await makeChatApp({ storage: 'postgres' });
    b = await makeChatApp({ storage: 'postgres', databaseUrl: a.databaseUrl! });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a turn on A watched on B gets identical frames, and the status is right on B', async () => {
    expect(a.deps.cluster).toBeDefined();
    const sid = await a.newSession();
    a.model.enqueue(slowAnswer);
    const { stream_id } = (await a.start(sid, 'count')).body;
    const [onA, onB] = await Promise.all([
      rawStream(a, stream_id),
      (async () => {
        const status = (await b.call('GET', `/api/chat/stream/status?stream_id=${stream_id}`)).body;
        expect(status).toMatchObject({ active: true, session_id: sid, replay_available: true, journal: { terminal_state: null } });
        return rawStream(b, stream_id);
      })(),
    ]);
    expect(onB).toBe(onA);
    const events = parseFrames(onB).map((f) => f.event);
    expect(events.filter((e) => e === 'token').length).toBeGreaterThanOrEqual(3);
    expect(events.at(-1)).toBe('stream_end');
    const after = (await b.call('GET', `/api/chat/stream/status?stream_id=${stream_id}`)).body;
    expect(after).toMatchObject({ active: false, journal: { terminal_state: 'stream_end' } });
  });

  it('a watcher on B resumes with Last-Event-ID mid-turn: exactly the events after it', async () => {
    const sid = await a.newSession();
    a.model.enqueue(slowAnswer);
    const { stream_id } = (await a.start(sid, 'count again')).body;
    const whole = rawStream(a, stream_id);
    // Read on B until the first token, then drop the connection (a reload).
    const res = await b.app.request(`/api/chat/stream?stream_id=${stream_id}`);
    expect(res.status).toBe(200);
    const text = await readUntil(res.body!.getReader(), 'event: token');
    const seen = parseFrames(text).filter((f) => f.id);
    const lastId = seen.at(-1)!.id!;
    const rest = await rawStream(b, stream_id, { 'Last-Event-ID': lastId });
    const all = parseFrames(await whole).filter((f) => f.id);
    const restFrames = parseFrames(rest).filter((f) => f.id);
    expect(restFrames.map((f) => f.id)).toEqual(all.slice(all.findIndex((f) => f.id === lastId) + 1).map((f) => f.id));
    expect(restFrames.at(-1)!.event).toBe('stream_end');
    // after_seq on B, once it is over: from the journal.
    const tail = parseFrames(await rawStream(b, stream_id, {}, `&after_seq=${all.length - 2}`));
    expect(tail.map((f) => f.id)).toEqual(all.slice(-2).map((f) => f.id));
  });

  it('sidebar live events on B for a change on A, once each', async () => {
    const res = await b.app.request('/api/sessions/events');
    const reader = res.body!.getReader();
    let text: string;
    let sid: string;
    try {
      sid = await a.newSession();
      expect((await a.call('POST', '/api/session/rename', { session_id: sid, title: 'Renamed on A' })).status).toBe(200);
      text = await readUntil(reader, 'session_rename', 5000, true);
      // A moment more: a duplicate (an echo, or B's own bridge) would arrive now.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const more = await Promise.race([reader.read(), new Promise<null>((r) => (timer = setTimeout(() => r(null), 400)))]);
      clearTimeout(timer);
      if (more && !more.done) text += new TextDecoder().decode(more.value);
    } finally {
      await reader.cancel().catch(() => {});
    }
    const changes = parseFrames(text).filter((f) => f.event === 'sessions_changed');
    expect(changes.filter((f) => f.data.reason === 'session_rename')).toEqual([
      {
        id: expect.stringMatching(/:\d+$/),
        event: 'sessions_changed',
        data: { type: 'sessions_changed', reason: 'session_rename', session_id: sid, profile: 'default' },
      },
    ]);
    expect(changes.filter((f) => f.data.reason === 'session_new' && f.data.session_id === sid)).toHaveLength(1);
  });

  it('a finished turn is pushed once: by the instance that ran it, not by the one that heard it', async () => {
    const sent: string[] = [];
    const notifiers = [a, b].map((t, i) => {
      const store = new MemoryPushStore();
      void store.put({
        endpoint: `https://push.example/${i}`,
        keys: { p256dh: 'x', auth: 'y' },
        profile: 'default',
        created_at: 0,
        expiration_time: null,
        user_agent: 'test',
      });
      const sender: PushSender = {
        send: async (s) => {
          sent.push(s.endpoint);
          return { kind: 'status', status: 201 };
        },
      };
      return new PushNotifier({
        events: t.deps.events,
        push: { store, sender, endpointRefusal: async () => null },
        sessions: t.deps.sessions,
        settings: t.deps.settings,
        logger: t.deps.logger,
      });
    });
    const heardOnB: string[] = [];
    const off = b.deps.events.on((e) => void (e.type === 'turn_finished' && heardOnB.push(e.origin ?? 'local')));
    try {
      const sid = await a.newSession();
      a.model.enqueue([{ text: 'done' }]);
      const { stream_id } = (await a.start(sid, 'notify me')).body;
      await rawStream(a, stream_id);
      await expect.poll(() => heardOnB.length).toBe(1);
      await Promise.all(notifiers.map((n) => n.idle()));
      await new Promise((r) => setTimeout(r, 200));
      await Promise.all(notifiers.map((n) => n.idle()));
    } finally {
      off();
      for (const n of notifiers) n.stop();
    }
    expect(heardOnB).toEqual([a.deps.cluster!.instanceId]);
    expect(sent).toEqual(['https://push.example/0']);
  });
});
