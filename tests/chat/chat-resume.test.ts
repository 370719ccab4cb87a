import { afterEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { readStream, seqs, type Frame } from '../helpers/sse.js';

/** A script of `n` tokens, a few milliseconds apart, so a reader can drop out mid-run. */
const slowTokens = (n: number, gapMs = 4) => Array.from({ length: n }, (_, i) => [{ text: `t${i} ` }, { delayMs: gapMs }]).flat();

/** A deterministic pseudo-random sequence, so a failure can be reproduced. */
function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('chat: resumable streams', () => {
  let t: ChatHarness;
  afterEach(async () => t?.close());

  for (const source of ['memory', 'journal'] as const) {
    it(`after the run: Last-Event-ID and after_seq at random points give exactly the missed events (${source})`, async () => {
      t = await makeChatApp({ storage: 'fs', keepFinishedMs: source === 'journal' ? 0 : 60_000 });
      const sid = await t.newSession();
      t.model.enqueue(slowTokens(30, 0));
      const { stream_id } = (await t.start(sid, 'count')).body;
      const full = await t.stream(stream_id);
      expect(seqs(full)).toEqual(full.map((_, i) => i + 1));
      await new Promise((r) => setTimeout(r, 20));
      const random = rng(7);
      for (let k = 0; k < 8; k++) {
        const cut = Math.floor(random() * full.length);
        const viaHeader = await t.stream(stream_id, { lastEventId: `${stream_id}:${cut}` });
        expect(seqs(viaHeader)).toEqual(seqs(full).slice(cut));
        expect(viaHeader.map((f) => f.data)).toEqual(full.slice(cut).map((f) => f.data));
        const viaQuery = await t.stream(stream_id, { afterSeq: cut });
        expect(seqs(viaQuery)).toEqual(seqs(full).slice(cut));
      }
      // A cursor for another stream replays everything.
      expect(seqs(await t.stream(stream_id, { lastEventId: `someoneelse:5` }))).toEqual(seqs(full));
    });
  }

  it('during the run: dropping out at random points and reconnecting loses nothing and repeats nothing', async () => {
    t = await makeChatApp();
    const sid = await t.newSession();
    t.model.enqueue(slowTokens(60, 3));
    const { stream_id } = (await t.start(sid, 'count slowly')).body;
    const reference = t.stream(stream_id);
    const random = rng(42);
    const received: Frame[] = [];
    let last = 0;
    for (let attempt = 0; attempt < 50; attempt++) {
      const take = 1 + Math.floor(random() * 12);
      let got = 0;
      const frames = await t.stream(stream_id, { ...(last ? { lastEventId: `${stream_id}:${last}` } : {}), until: () => ++got >= take });
      received.push(...frames);
      if (frames.length) last = Number(frames.at(-1)!.id!.split(':')[1]);
      if (received.at(-1)?.event === 'stream_end') break;
    }
    const all = await reference;
    expect(received.at(-1)!.event).toBe('stream_end');
    expect(seqs(received)).toEqual(seqs(all));
    expect(received.map((f) => f.data)).toEqual(all.map((f) => f.data));
  });

  it('two watchers of one run get the same events; closing one does not stop the run', async () => {
    t = await makeChatApp();
    const sid = await t.newSession();
    t.model.enqueue(slowTokens(20, 3));
    const { stream_id } = (await t.start(sid, 'share')).body;
    const quitter = await t.app.request(`/api/chat/stream?stream_id=${stream_id}`);
    const [a, b] = await Promise.all([t.stream(stream_id), t.stream(stream_id), readStream(quitter, { until: (f) => f.event === 'token' })]);
    expect(a.map((f) => [f.id, f.event, f.data])).toEqual(b.map((f) => [f.id, f.event, f.data]));
    expect(a.at(-1)!.event).toBe('stream_end');
    expect(a.filter((f) => f.event === 'token')).toHaveLength(20);
  });

  it('closing every stream does not stop the run: it finishes and is stored', async () => {
    t = await makeChatApp();
    const sid = await t.newSession();
    t.model.enqueue(slowTokens(10, 5));
    const { stream_id } = (await t.start(sid, 'alone')).body;
    await t.stream(stream_id, { until: (f) => f.event === 'token' });
    for (let i = 0; i < 100 && t.deps.agent.registry.activeFor(sid); i++) await new Promise((r) => setTimeout(r, 20));
    const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(s.messages.at(-1).content.trim()).toBe(Array.from({ length: 10 }, (_, i) => `t${i}`).join(' '));
  });
});
