import { expect } from '../helpers.js';
import { MessageQueue, queueKey, type QueuedMessage } from '../../../components/state/message-queue.js';

const texts = (q: MessageQueue, sid = 's1') => q.list(sid).map((m) => m.text);
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A session on a pretend server: one turn at a time; a started turn makes the session busy. */
function server() {
  const state = { running: false, sent: [] as string[] };
  return Object.assign(state, {
    drain: (q: MessageQueue, sid = 's1') =>
      q.drainOne(sid, {
        idle: async () => {
          await delay(5);
          return !state.running;
        },
        send: async (m: QueuedMessage) => {
          await delay(20);
          if (state.running) throw new Error('409: a turn is running');
          state.running = true;
          state.sent.push(m.text);
        },
      }),
  });
}

// sessionStorage: this page's own (localStorage is shared with the test files running beside).
describe('MessageQueue (the busy composer’s per-session queue)', () => {
  beforeEach(() => sessionStorage.clear());

  it('persists in the incumbent’s key and shape, and a new page (a reload) reads it back', () => {
    const q = new MessageQueue(sessionStorage);
    q.add('s1', { text: 'first', model: 'm1' });
    q.add('s1', { text: 'second', files: ['/ws/a.png'] });
    q.add('s2', { text: 'elsewhere' });
    const stored = JSON.parse(sessionStorage.getItem(queueKey('s1'))!);
    expect(queueKey('s1')).to.equal('hermes-queue-s1');
    expect(stored.map((e: Record<string, unknown>) => Object.keys(e).sort())).to.deep.equal([
      ['_queued_at', 'files', 'model', 'profile', 'text'],
      ['_queued_at', 'files', 'model', 'profile', 'text'],
    ]);
    expect(stored[0]).to.include({ text: 'first', model: 'm1', profile: 'default' });
    expect(stored[1].files).to.deep.equal(['/ws/a.png']);
    const reloaded = new MessageQueue(sessionStorage);
    expect(texts(reloaded)).to.deep.equal(['first', 'second']);
    expect(texts(reloaded, 's2')).to.deep.equal(['elsewhere']);
    // Stamps are identities: unique within a session even when added in the same millisecond.
    expect(new Set(reloaded.list('s1').map((m) => m._queued_at)).size).to.equal(2);
  });

  it('reads what the incumbent wrote (File objects serialise to {}; unstamped entries get a stamp)', () => {
    sessionStorage.setItem(
      'hermes-queue-s1',
      JSON.stringify([{ text: 'from python', files: [{}, { path: '/ws/b.txt' }], model: 'x', _queued_at: 5 }, { message: 'old field' }, { text: '' }, 7]),
    );
    const q = new MessageQueue(sessionStorage);
    expect(q.list('s1')).to.deep.equal([
      { text: 'from python', files: ['/ws/b.txt'], model: 'x', profile: 'default', _queued_at: 5 },
      { text: 'old field', files: [], model: '', profile: 'default', _queued_at: 0 },
    ]);
    sessionStorage.setItem('hermes-queue-s1', 'not json');
    expect(q.list('s1')).to.deep.equal([]);
  });

  it('edits, removes and reorders; an emptied queue removes its key; each write fires change', () => {
    const q = new MessageQueue(sessionStorage);
    let changes = 0;
    q.addEventListener('change', () => changes++);
    const [a, b, c] = ['a', 'b', 'c'].map((text) => q.add('s1', { text }));
    q.move('s1', c!._queued_at, 0);
    expect(texts(q)).to.deep.equal(['c', 'a', 'b']);
    q.move('s1', c!._queued_at, 99);
    expect(texts(q)).to.deep.equal(['a', 'b', 'c']);
    q.edit('s1', b!._queued_at, 'b, reworded');
    expect(texts(q)).to.deep.equal(['a', 'b, reworded', 'c']);
    q.edit('s1', a!._queued_at, '   ');
    expect(texts(q)).to.deep.equal(['b, reworded', 'c']);
    q.remove('s1', b!._queued_at);
    q.remove('s1', c!._queued_at);
    expect(sessionStorage.getItem('hermes-queue-s1')).to.equal(null);
    expect(changes).to.equal(9);
    // An interrupt's message goes first.
    q.add('s1', { text: 'later' });
    q.add('s1', { text: 'now' }, 'front');
    expect(texts(q)).to.deep.equal(['now', 'later']);
  });

  it('drains in order, one entry per idle session, each exactly once; a failed send goes back in front', async () => {
    const q = new MessageQueue(sessionStorage);
    for (const text of ['one', 'two', 'three']) q.add('s1', { text });
    const srv = server();
    expect(await srv.drain(q)).to.equal('sent');
    // The turn runs: nothing more leaves the queue until it ends.
    expect(await srv.drain(q)).to.equal('busy');
    expect(texts(q)).to.deep.equal(['two', 'three']);
    srv.running = false;
    expect(await srv.drain(q)).to.equal('sent');
    srv.running = false;
    const failing = await q.drainOne('s1', { idle: async () => true, send: async () => Promise.reject(new Error('offline')) });
    expect(failing).to.equal('failed');
    expect(texts(q)).to.deep.equal(['three']);
    expect(await srv.drain(q)).to.equal('sent');
    srv.running = false;
    expect(await srv.drain(q)).to.equal('empty');
    expect(srv.sent).to.deep.equal(['one', 'two', 'three']);
  });

  for (const [name, locks] of [
    ['Web Locks', undefined],
    ['the storage claim (no Web Locks)', null],
  ] as const) {
    it(`two tabs draining at once send each entry once (${name})`, async () => {
      const tabA = new MessageQueue(sessionStorage, locks === null ? { locks: null } : {});
      const tabB = new MessageQueue(sessionStorage, locks === null ? { locks: null } : {});
      tabA.add('s1', { text: 'first' });
      tabA.add('s1', { text: 'second' });
      const srv = server();
      for (let turn = 0; turn < 3; turn++) {
        // Both tabs see the turn end together and race for the next entry.
        const results = await Promise.all([srv.drain(tabA), srv.drain(tabB)]);
        expect(results.filter((r) => r === 'sent').length, `turn ${turn}: ${results}`).to.equal(turn < 2 ? 1 : 0);
        srv.running = false;
      }
      expect(srv.sent).to.deep.equal(['first', 'second']);
      expect(sessionStorage.getItem('hermes-queue-s1')).to.equal(null);
      expect(sessionStorage.getItem('hermes-queue-claim-s1')).to.equal(null);
    });
  }
});
