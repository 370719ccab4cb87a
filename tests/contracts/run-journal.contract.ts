import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storedRunEvent, type RunEvent } from '../../src/runs/events.js';
import type { RunJournal, TurnCheckpoint } from '../../src/runs/journal.js';

export interface RunJournalHarness {
  journal: RunJournal;
  /** A second journal over the same data, as another process (or after a restart) sees it. */
  reopen: () => Promise<RunJournal>;
  /**
   * The process dies without closing its writers (the pool ended, the files left as they are),
   * then a fresh journal over the same data.
   */
  crash: () => Promise<RunJournal>;
  cleanup: () => Promise<void>;
}

let counter = 0;
/** Ids both the fs journal (safe characters) and every other medium accept. */
const ids = () => {
  counter += 1;
  return { sid: `sess${counter}${Date.now().toString(36)}`, stream: `stream_${counter}_${Math.random().toString(36).slice(2, 8)}` };
};
const token = (seq: number, text = `t${seq}`): RunEvent => ({ seq, event: 'token', data: { text }, at: 1_780_000_000.25 + seq });
const end = (seq: number): RunEvent => storedRunEvent(seq, 'stream_end', { session_id: 's' }, 1_780_000_100 + seq);
const seqs = (events: RunEvent[] | undefined) => events?.map((e) => e.seq);

/**
 * The behaviour every RunJournal must have (memory, fs, Postgres; the Durable Object's is
 * tested in workerd). Each adapter's file calls this with a factory and adds its own checks.
 */
export function describeRunJournalContract(name: string, make: () => Promise<RunJournalHarness>) {
  describe(`RunJournal contract: ${name}`, () => {
    let h: RunJournalHarness;
    beforeEach(async () => {
      h = await make();
    });
    afterEach(async () => {
      await h.cleanup();
    });

    it('reads back every event in seq order, payloads exactly as written (key order, unicode, fractions)', async () => {
      const { sid, stream } = ids();
      const w = h.journal.open(sid, stream);
      const odd = storedRunEvent(2, 'tool', { name: 'read_file', preview: 'añadir — 日本 "quoted"\n', z: 1, a: [1.5, null, { b: true }] }, 1_780_000_000.125);
      w.append(token(1));
      w.append(odd, JSON.stringify(odd.data));
      for (let i = 3; i <= 40; i++) w.append(token(i));
      w.append(end(41));
      await w.close();
      const read = await (await h.reopen()).read(stream, sid);
      expect(read?.sessionId).toBe(sid);
      expect(seqs(read?.events)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
      expect(read?.events[1]).toEqual(odd);
      expect(Object.keys(read!.events[1]!.data)).toEqual(['name', 'preview', 'z', 'a']);
      expect(read?.events[0]).toEqual(token(1));
      // Found by stream id alone (a replay after a restart knows only the stream).
      expect(seqs((await h.journal.read(stream))?.events)).toHaveLength(41);
    });

    it('reads unknown streams, or a stream under another session, as null', async () => {
      const { sid, stream } = ids();
      expect(await h.journal.read('no_such_stream')).toBeNull();
      const w = h.journal.open(sid, stream);
      w.append(token(1));
      await w.close();
      expect(await h.journal.read(stream, 'othersession1')).toBeNull();
      expect(await h.journal.read(stream, sid)).not.toBeNull();
    });

    it('what commit() handed over is there for another reader once it settles; the rest follows within the batch window', async () => {
      const { sid, stream } = ids();
      const w = h.journal.open(sid, stream);
      w.append(token(1));
      w.append(token(2));
      await w.commit();
      const other = await h.reopen();
      expect(seqs((await other.read(stream, sid))?.events)).toEqual([1, 2]);
      // Never committed: written anyway, a little later (the batch window is ~200 ms).
      w.append(token(3));
      await expect.poll(async () => seqs((await other.read(stream, sid))?.events), { timeout: 3000, interval: 50 }).toEqual([1, 2, 3]);
      await w.close();
    });

    it('a closing event is written without waiting for the batch window', async () => {
      const { sid, stream } = ids();
      const w = h.journal.open(sid, stream);
      w.append(token(1));
      w.append(end(2));
      // Whatever the medium has in flight for it (a database round trip) and nothing more.
      await w.commit();
      expect(seqs((await (await h.reopen()).read(stream, sid))?.events)).toEqual([1, 2]);
      await w.close();
    });

    it('a checkpoint is durable once it resolves and the latest one wins', async () => {
      const { sid, stream } = ids();
      const w = h.journal.open(sid, stream);
      w.append(token(1));
      const step: TurnCheckpoint = {
        seq: 1,
        step: {
          assistant: {
            role: 'assistant',
            content: '',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'terminal', arguments: '{"cmd":"ls"}' } }],
            timestamp: 1.5,
          },
          results: [{ role: 'tool', tool_call_id: 'call_1', name: 'terminal', content: 'a\nb — ñ', timestamp: 2.25 }],
        },
      };
      await w.checkpoint(step);
      expect((await (await h.reopen()).read(stream, sid))?.checkpoint).toEqual(step);
      w.append(token(2));
      await w.checkpoint({ seq: 2, step: null });
      const read = await (await h.reopen()).read(stream, sid);
      expect(read?.checkpoint).toEqual({ seq: 2, step: null });
      expect(seqs(read?.events)).toEqual([1, 2]);
      await w.close();
    });

    it('unclosed() lists the journals whose last event is not a closing one', async () => {
      const open = ids();
      const done = ids();
      const wo = h.journal.open(open.sid, open.stream);
      wo.append(token(1));
      await wo.close();
      const wd = h.journal.open(done.sid, done.stream);
      wd.append(token(1));
      wd.append(end(2));
      await wd.close();
      const listed = async () => (await (await h.reopen()).unclosed()).map((r) => `${r.sessionId}/${r.streamId}`);
      expect(await listed()).toContain(`${open.sid}/${open.stream}`);
      expect(await listed()).not.toContain(`${done.sid}/${done.stream}`);
      // Closed by a later writer (a recovery's closing event): no longer listed.
      const again = h.journal.open(open.sid, open.stream);
      again.append(storedRunEvent(2, 'apperror', { type: 'interrupted', message: 'The server restarted' }, 9));
      await again.close();
      expect(await listed()).not.toContain(`${open.sid}/${open.stream}`);
    });

    it('a stream reopened after it closed appends after its last seq (a resumed turn keeps its numbering)', async () => {
      const { sid, stream } = ids();
      const w = h.journal.open(sid, stream);
      w.append(token(1));
      w.append(token(2));
      await w.close();
      const restarted = await h.reopen();
      const prior = (await restarted.read(stream, sid))!.events;
      const resumed = restarted.open(sid, stream);
      resumed.append(storedRunEvent(prior.length + 1, 'resumed', { session_id: sid, attempt: 1, message: 'resumed', partial: '', interrupted_tools: [] }, 10));
      resumed.append(token(prior.length + 2));
      resumed.append(end(prior.length + 3));
      await resumed.close();
      const read = await (await h.reopen()).read(stream, sid);
      expect(read?.events.map((e) => [e.seq, e.event])).toEqual([
        [1, 'token'],
        [2, 'token'],
        [3, 'resumed'],
        [4, 'token'],
        [5, 'stream_end'],
      ]);
    });

    it('readAfter() gives only the events past a seq, in order (when the medium has it)', async () => {
      const { sid, stream } = ids();
      const w = h.journal.open(sid, stream);
      for (let i = 1; i <= 6; i++) w.append(token(i));
      await w.close();
      const reader = await h.reopen();
      if (!reader.readAfter) {
        expect(reader.readAfter).toBeUndefined();
        return;
      }
      expect(seqs(await reader.readAfter(stream, 4))).toEqual([5, 6]);
      expect(await reader.readAfter(stream, 6)).toEqual([]);
      expect(await reader.readAfter('no_such_stream', 0)).toEqual([]);
      expect((await reader.readAfter(stream, 0))[0]).toEqual(token(1));
    });

    it('deleteSession() removes that session’s journals and no other', async () => {
      const a = ids();
      const b = ids();
      for (const [x, stream] of [
        [a, a.stream],
        [a, `${a.stream}_2`],
        [b, b.stream],
      ] as const) {
        const w = h.journal.open(x.sid, stream);
        w.append(token(1));
        await w.checkpoint({ seq: 1, step: null });
        await w.close();
      }
      await h.journal.deleteSession(a.sid);
      const reader = await h.reopen();
      expect(await reader.read(a.stream)).toBeNull();
      expect(await reader.read(`${a.stream}_2`, a.sid)).toBeNull();
      expect(seqs((await reader.read(b.stream, b.sid))?.events)).toEqual([1]);
      const open = (await reader.unclosed()).map((r) => r.sessionId);
      expect(open).not.toContain(a.sid);
      expect(open).toContain(b.sid);
    });

    it('a process that dies without closing its writer loses nothing that was committed', async () => {
      const { sid, stream } = ids();
      const w = h.journal.open(sid, stream);
      for (let i = 1; i <= 3; i++) w.append(token(i));
      await w.commit();
      await w.checkpoint({ seq: 3, step: null });
      w.append(token(4));
      const after = await h.crash();
      const read = await after.read(stream, sid);
      // 4 was never committed: it may or may not have made it, but 1..3 and the checkpoint did.
      expect(seqs(read?.events)?.slice(0, 3)).toEqual([1, 2, 3]);
      expect(read?.checkpoint).toEqual({ seq: 3, step: null });
      expect((await after.unclosed()).map((r) => r.streamId)).toContain(stream);
      await w.close();
    });
  });
}
