import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resumeAfter } from '../../src/runs/sse.js';
import { Run, type RunWatcher } from '../../src/runs/run.js';
import { storedRunEvent } from '../../src/runs/events.js';
import { RunRegistry } from '../../src/runs/registry.js';
import { MemoryRunJournal } from '../../src/runs/journal.js';
import { InteractionHub } from '../../src/runs/interactions.js';
import { FsRunJournal } from '../../src/adapters/storage/fs/fs-run-journal.js';
import { Channel } from '../../src/agent/channel.js';
import { Conflict, NotFound } from '../../src/ports/errors.js';

const now = () => Date.now() / 1000;
const decoder = new TextDecoder();

function recorder(): RunWatcher & { text: () => string; closed: boolean } {
  const chunks: Uint8Array[] = [];
  const w = {
    closed: false,
    send: (b: Uint8Array) => void chunks.push(b),
    close: () => void (w.closed = true),
    text: () => chunks.map((c) => decoder.decode(c)).join(''),
  };
  return w;
}

describe('resume cursors', () => {
  it('reads after_seq first, then a Last-Event-ID for this stream', () => {
    expect(resumeAfter('s1', 10, '4', 's1:7')).toBe(4);
    expect(resumeAfter('s1', 10, undefined, 's1:7')).toBe(7);
    expect(resumeAfter('s1', 10, undefined, undefined)).toBe(0);
  });

  it('replays from the start for a foreign, malformed or future cursor', () => {
    expect(resumeAfter('s1', 10, undefined, 'other:7')).toBe(0);
    expect(resumeAfter('s1', 10, undefined, 's1:x')).toBe(0);
    expect(resumeAfter('s1', 10, undefined, 's1:11')).toBe(0);
    expect(resumeAfter('s1', 10, 'abc', undefined)).toBe(0);
    expect(resumeAfter('s1', 10, '99', undefined)).toBe(0);
    expect(resumeAfter('s1', 10, '10', undefined)).toBe(10);
  });
});

describe('Run', () => {
  it('numbers events from 1, frames them with id/event/data, and journals each', async () => {
    const journal = new MemoryRunJournal();
    const run = new Run('abc', 'sess', now(), journal.open('sess', 'abc'), now);
    const w = recorder();
    run.watch(w, 0);
    run.emit('token', { text: 'hé' });
    run.emit('stream_end', { session_id: 'sess' });
    expect(w.text()).toBe('id: abc:1\nevent: token\ndata: {"text":"hé"}\n\nid: abc:2\nevent: stream_end\ndata: {"session_id":"sess"}\n\n');
    expect(w.closed).toBe(true);
    expect((await journal.read('abc'))!.events.map((e) => [e.seq, e.event])).toEqual([
      [1, 'token'],
      [2, 'stream_end'],
    ]);
    expect(() => run.emit('token', { text: 'late' })).toThrow(/closed/);
  });

  it('a watcher joining late gets exactly the events after its cursor, then live ones', () => {
    const run = new Run('r', 's', now(), new MemoryRunJournal().open('s', 'r'), now);
    for (let i = 1; i <= 5; i++) run.emit('token', { text: String(i) });
    const late = recorder();
    run.watch(late, 3);
    run.emit('token', { text: '6' });
    const ids = [...late.text().matchAll(/id: r:(\d+)/g)].map((m) => Number(m[1]));
    expect(ids).toEqual([4, 5, 6]);
  });

  it('detaching a watcher leaves the run and other watchers alone', () => {
    const run = new Run('r', 's', now(), new MemoryRunJournal().open('s', 'r'), now);
    const a = recorder();
    const b = recorder();
    const detachA = run.watch(a, 0);
    run.watch(b, 0);
    run.emit('token', { text: '1' });
    detachA();
    run.emit('token', { text: '2' });
    expect(a.text()).toContain('r:1');
    expect(a.text()).not.toContain('r:2');
    expect(b.text()).toContain('r:2');
    expect(run.status).toBe('running');
  });
});

describe('Run with deferred sends', () => {
  /** A journal that records what was committed, and when, next to what the watcher received. */
  function setup() {
    const log: string[] = [];
    let appended = 0;
    const journal = {
      append: () => void appended++,
      commit: () => void log.push(`commit ${appended}`),
      checkpoint: async () => {},
      flush: async () => {},
      close: async () => {},
    };
    const queue: Array<() => void> = [];
    const run = new Run(
      'r1',
      's1',
      0,
      journal,
      () => 0,
      (send) => void queue.push(send),
    );
    const tick = () => {
      for (const send of queue.splice(0)) send();
    };
    const watcher = (name: string) => {
      const w = recorder();
      const send = w.send;
      w.send = (b) => {
        log.push(`${name} ${decoder.decode(b).match(/^id: /gm)?.length ?? 0}`);
        send(b);
      };
      return w;
    };
    return { run, tick, log, watcher };
  }

  it("sends a turn's frames together, after the journal has them", () => {
    const { run, tick, log, watcher } = setup();
    const a = watcher('a');
    run.watch(a, 0);
    run.emit('token', { text: 'one ' });
    run.emit('token', { text: 'two ' });
    run.emit('token', { text: 'three' });
    expect(log).toEqual([]);
    tick();
    expect(log).toEqual(['commit 3', 'a 3']);
    expect(a.text()).toContain('id: r1:3');
  });

  it('a watcher attached before the send gets every frame once, the others first', () => {
    const { run, tick, log, watcher } = setup();
    const a = watcher('a');
    run.watch(a, 0);
    run.emit('token', { text: 'x' });
    const b = watcher('b');
    run.watch(b, 0);
    tick();
    // b's attach commits what was pending once, and both are sent it; the later tick has nothing left.
    expect(log).toEqual(['commit 1', 'a 1', 'b 1']);
    expect(a.text().match(/^id: /gm)).toHaveLength(1);
    expect(b.text().match(/^id: /gm)).toHaveLength(1);
  });

  it('a closing event is sent at once, with what was pending, and closes the watchers', () => {
    const { run, log, watcher } = setup();
    const a = watcher('a');
    run.watch(a, 0);
    run.emit('token', { text: 'x' });
    run.emit('stream_end', { session_id: 's1' });
    expect(log).toEqual(['commit 2', 'a 2']);
    expect(a.closed).toBe(true);
  });
});

describe('RunRegistry', () => {
  it('allows one active run per session and frees the session when the run ends', async () => {
    const reg = new RunRegistry({ journal: new MemoryRunJournal(), now, heartbeatMs: 10 });
    const run = reg.begin('s1', 'a');
    expect(() => reg.begin('s1', 'b')).toThrow(Conflict);
    try {
      reg.begin('s1', 'b');
    } catch (err) {
      expect((err as Conflict).extra).toEqual({ active_stream_id: 'a' });
    }
    reg.begin('s2', 'c');
    expect(reg.activeFor('s1')).toBe(run);
    run.emit('stream_end', { session_id: 's1' });
    await reg.end(run, 'completed');
    expect(reg.activeFor('s1')).toBeUndefined();
    expect(reg.get('a')).toBe(run);
    expect(reg.begin('s1', 'd').streamId).toBe('d');
  });

  it('interrupt() closes a run whose turn did not stop: apperror before done, stream_end after, and whenIdle waits for the end', async () => {
    const reg = new RunRegistry({ journal: new MemoryRunJournal(), now });
    const early = reg.begin('s1', 'r1');
    const late = reg.begin('s2', 'r2');
    late.emit('done', {
      session: { session_id: 's2', title: 'Untitled', created_at: 1, updated_at: 1, messages: [], message_count: 0 },
      usage: { input_tokens: 0, output_tokens: 0, estimated_cost: null },
    } as never);
    const w = recorder();
    early.watch(w, 0);
    reg.interrupt(early);
    reg.interrupt(late);
    reg.interrupt(late);
    expect(early.events.map((e) => [e.event, e.event === 'apperror' ? e.data.type : null])).toEqual([['apperror', 'interrupted']]);
    expect(late.events.map((e) => e.event)).toEqual(['done', 'stream_end']);
    expect(w.closed).toBe(true);
    expect(await reg.whenIdle(50)).toBe(false);
    await reg.end(early, 'errored');
    await reg.end(late, 'completed');
    expect(await reg.whenIdle(50)).toBe(true);
  });

  it('sends heartbeats to watchers of active runs', async () => {
    const reg = new RunRegistry({ journal: new MemoryRunJournal(), now, heartbeatMs: 20 });
    const run = reg.begin('s', 'r');
    const w = recorder();
    run.watch(w, 0);
    await new Promise((r) => setTimeout(r, 70));
    expect(w.text()).toMatch(/^(: heartbeat\n\n)+$/);
    reg.abortAll('done');
    run.emit('cancel', { message: 'Cancelled by user', type: 'cancelled', status: 'cancelled', session_id: 's' });
    await reg.end(run, 'cancelled');
  });
});

describe('InteractionHub', () => {
  let hub: InteractionHub;
  beforeEach(() => {
    hub = new InteractionHub(now);
  });
  const request = {
    command: 'rm -rf build',
    description: 'recursive delete',
    pattern_key: 'recursive_delete',
    pattern_keys: ['recursive_delete'],
    tool: 'terminal',
  };

  it('queues approvals per session in order and answers by id or head', async () => {
    const signal = new AbortController().signal;
    const a = hub.requestApproval('s', 'run', request, 10_000, signal);
    const b = hub.requestApproval('s', 'run', { ...request, command: 'rm -rf dist' }, 10_000, signal);
    expect(hub.pendingApproval('s')).toMatchObject({ pending: { command: 'rm -rf build', choices: ['once', 'session', 'always', 'deny'] }, pending_count: 2 });
    hub.respondApproval('s', 'deny', b.pending.approval_id);
    expect(await b.answer).toBe('deny');
    hub.respondApproval('s', 'once');
    expect(await a.answer).toBe('once');
    expect(hub.pendingApproval('s')).toEqual({ pending: null, pending_count: 0 });
    expect(() => hub.respondApproval('s', 'once')).toThrow(NotFound);
  });

  it('remembers session and always grants for the session only', async () => {
    const x = hub.requestApproval('s', 'run', request, 10_000, new AbortController().signal);
    hub.respondApproval('s', 'session');
    await x.answer;
    expect([...hub.sessionApproved('s')]).toEqual(['recursive_delete']);
    expect([...hub.sessionApproved('other')]).toEqual([]);
  });

  it('times out to timeout (never consent), and an abort rejects and removes the request', async () => {
    const timed = hub.requestApproval('s', 'run', request, 20, new AbortController().signal);
    expect(await timed.answer).toBe('timeout');
    const ctrl = new AbortController();
    const aborted = hub.requestApproval('s', 'run', request, 10_000, ctrl.signal);
    ctrl.abort(new Error('stop'));
    await expect(aborted.answer).rejects.toThrow('stop');
    expect(hub.pendingApproval('s').pending_count).toBe(0);
  });

  it('yolo releases waiting approvals once and is per session', async () => {
    const w = hub.requestApproval('s', 'run', request, 10_000, new AbortController().signal);
    hub.setYolo('s', true);
    expect(await w.answer).toBe('once');
    expect(hub.isYolo('s')).toBe(true);
    expect(hub.isYolo('t')).toBe(false);
    hub.setYolo('s', false);
    expect(hub.isYolo('s')).toBe(false);
  });

  it('clarify: answer, timeout to null, stale answer is a 409', async () => {
    const q = hub.requestClarify('s', 'Which one?', ['a', 'b'], 10_000, new AbortController().signal);
    expect(hub.pendingClarify('s')).toMatchObject({ question: 'Which one?', choices_offered: ['a', 'b'], kind: 'clarify', timeout_seconds: 10 });
    hub.respondClarify('s', 'b', q.pending.clarify_id);
    expect(await q.answer).toBe('b');
    expect(() => hub.respondClarify('s', 'late', q.pending.clarify_id)).toThrow(Conflict);
    const t = hub.requestClarify('s', 'Still there?', [], 20, new AbortController().signal);
    expect(await t.answer).toBeNull();
  });
});

describe('Channel', () => {
  it('delivers pushed items in order, then the end', async () => {
    const ch = new Channel<number>();
    setTimeout(() => {
      ch.push(1);
      ch.push(2);
      ch.end();
    }, 5);
    const got: number[] = [];
    for await (const n of ch) got.push(n);
    expect(got).toEqual([1, 2]);
  });

  it('delivers items queued before a failure, then throws it', async () => {
    const ch = new Channel<number>();
    ch.push(1);
    ch.fail(new Error('boom'));
    const got: number[] = [];
    await expect(
      (async () => {
        for await (const n of ch) got.push(n);
      })(),
    ).rejects.toThrow('boom');
    expect(got).toEqual([1]);
  });
});

describe('FsRunJournal', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hermes-journal-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('writes the incumbent line format under sessions/_run_journal/<sid>/<stream>.jsonl and reads it back', async () => {
    const j = new FsRunJournal(dir);
    const w = j.open('abc123', 'stream1');
    w.append({ seq: 1, event: 'token', data: { text: 'hi' }, at: 1 });
    w.append({ seq: 2, event: 'stream_end', data: { session_id: 'abc123' }, at: 2 });
    await w.close();
    const lines = (await readFile(join(dir, 'sessions', '_run_journal', 'abc123', 'stream1.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({
      version: 1,
      event_id: 'stream1:1',
      seq: 1,
      run_id: 'stream1',
      session_id: 'abc123',
      event: 'token',
      created_at: 1,
      terminal: false,
      payload: { text: 'hi' },
    });
    expect(lines[1].terminal).toBe(true);
    // Found by stream id alone, as after a restart.
    const read = await new FsRunJournal(dir).read('stream1');
    expect(read).toEqual({
      sessionId: 'abc123',
      events: [
        { seq: 1, event: 'token', data: { text: 'hi' }, at: 1 },
        { seq: 2, event: 'stream_end', data: { session_id: 'abc123' }, at: 2 },
      ],
      checkpoint: null,
    });
  });

  it('a line cut short by a crash is skipped, keeping what came before', async () => {
    const j = new FsRunJournal(dir);
    const w = j.open('s', 'r');
    w.append({ seq: 1, event: 'token', data: { text: 'a' }, at: 1 });
    await w.close();
    await appendFile(join(dir, 'sessions', '_run_journal', 's', 'r.jsonl'), '{"seq": 2, "event": "tok');
    expect((await j.read('r', 's'))!.events.map((e) => e.seq)).toEqual([1]);
  });

  it('a watched event is written to the file before its frame is handed to any watcher', async () => {
    const j = new FsRunJournal(dir);
    const run = new Run('r1', 's1', now(), j.open('s1', 'r1'), now);
    const file = join(dir, 'sessions', '_run_journal', 's1', 'r1.jsonl');
    const onDisk: number[][] = [];
    // What a kill -9 right after the send would leave: the file's lines at that moment.
    const seqsOnDisk = () =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).seq as number);
    run.emit('token', { text: 'unwatched' });
    run.watch({ send: () => void onDisk.push(seqsOnDisk()), close: () => {} }, 0);
    for (let i = 0; i < 5; i++) run.emit('token', { text: String(i) });
    expect(onDisk).toEqual([[1], [1, 2], [1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6]]);
    await run.finish('completed');
  });

  it('a closing line appended after a cut one is read, and unclosed() lists the journals without a closing event', async () => {
    const j = new FsRunJournal(dir);
    const open = j.open('s', 'open');
    open.append({ seq: 1, event: 'token', data: { text: 'a' }, at: 1 });
    await open.close();
    const closed = j.open('s', 'closed');
    closed.append(storedRunEvent(1, 'done', {}, 1));
    closed.append(storedRunEvent(2, 'stream_end', {}, 2));
    await closed.close();
    const torn = j.open('t', 'torn');
    torn.append({ seq: 1, event: 'token', data: { text: 'a' }, at: 1 });
    await torn.close();
    await appendFile(join(dir, 'sessions', '_run_journal', 't', 'torn.jsonl'), '{"seq": 2, "event": "tok');
    // The incumbent marks its closing lines with `terminal`.
    await writeFile(
      join(dir, 'sessions', '_run_journal', 's', 'incumbent.jsonl'),
      JSON.stringify({ seq: 1, event: 'done', terminal: true, payload: {} }) + '\n',
    );
    const list = async () => (await j.unclosed()).map((r) => `${r.sessionId}/${r.streamId}`).sort();
    expect(await list()).toEqual(['s/open', 't/torn']);
    const again = j.open('t', 'torn');
    again.append(storedRunEvent(2, 'apperror', { type: 'interrupted' }, 3));
    await again.close();
    expect((await j.read('torn', 't'))!.events.map((e) => [e.seq, e.event])).toEqual([
      [1, 'token'],
      [2, 'apperror'],
    ]);
    expect(await list()).toEqual(['s/open']);
  });

  it('refuses unsafe ids and reads unknown streams as null', async () => {
    const j = new FsRunJournal(dir);
    expect(() => j.open('../x', 'r')).toThrow();
    expect(await j.read('nope')).toBeNull();
    expect(await j.read('../../etc', 's')).toBeNull();
    await writeFile(join(dir, 'x'), '');
  });
});
