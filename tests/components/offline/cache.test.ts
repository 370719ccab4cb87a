import { createStore } from 'idb-keyval';
import { expect } from '../helpers.js';
import { BATCH_MS, MAX_TRANSCRIPTS, OfflineCache, SCHEMA_VERSION, idbBackend, type KvBackend } from '../../../components/offline/cache.js';
import type { ApiSession } from '../../../components/api/client.js';

/** An in-memory backend that counts transactions and can refuse writes like a full disk. */
class StubKv implements KvBackend {
  data = new Map<string, unknown>();
  setManyCalls = 0;
  /** Returns true to throw QuotaExceededError for this setMany. */
  full: (entries: Array<[string, unknown]>) => boolean = () => false;
  async get<T>(k: string) {
    return this.data.get(k) as T | undefined;
  }
  async getMany<T>(ks: string[]) {
    return ks.map((k) => this.data.get(k) as T | undefined);
  }
  async setMany(entries: Array<[string, unknown]>) {
    this.setManyCalls++;
    if (this.full(entries)) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    for (const [k, v] of entries) this.data.set(k, v);
  }
  async delMany(ks: string[]) {
    for (const k of ks) this.data.delete(k);
  }
  async keys() {
    return [...this.data.keys()];
  }
  async clear() {
    this.data.clear();
  }
}

const session = (id: string, text = 'hi'): ApiSession =>
  ({
    session_id: id,
    title: id,
    created_at: 1,
    updated_at: 1,
    pinned: false,
    archived: false,
    project_id: null,
    message_count: 1,
    messages: [{ role: 'user', content: text, timestamp: 1 }],
  }) as unknown as ApiSession;
const transcripts = (kv: StubKv) => [...kv.data.keys()].filter((k) => k.startsWith('hermes:transcript:'));

describe('offline cache', () => {
  it('keeps at most 30 transcripts, evicting the least recently opened', async () => {
    const kv = new StubKv();
    const cache = new OfflineCache(kv);
    for (let i = 0; i < MAX_TRANSCRIPTS; i++) await cache.saveTranscript(session(`s${i}`));
    await cache.saveTranscript(session('s0')); // opened again: now the most recent
    for (let i = MAX_TRANSCRIPTS; i < MAX_TRANSCRIPTS + 3; i++) await cache.saveTranscript(session(`s${i}`));
    await cache.flush();
    expect(transcripts(kv)).to.have.length(MAX_TRANSCRIPTS);
    const lru = await cache.cachedSessions();
    expect(lru).to.have.length(MAX_TRANSCRIPTS);
    expect(lru.at(-1)).to.equal(`s${MAX_TRANSCRIPTS + 2}`);
    expect(await cache.transcript('s0')).to.not.equal(undefined);
    for (const gone of ['s1', 's2', 's3']) expect(await cache.transcript(gone)).to.equal(undefined);
    expect((await cache.transcript('s4'))?.session_id).to.equal('s4');
  });

  it('coalesces writes within the batch window into one setMany, and reads see pending writes', async () => {
    const kv = new StubKv();
    const cache = new OfflineCache(kv);
    await cache.ready();
    const before = kv.setManyCalls;
    cache.saveRows([]);
    cache.saveDraft('a', 'one');
    cache.saveDraft('a', 'two');
    cache.setDisclosure('a:3', true);
    await cache.saveTranscript(session('a'));
    expect(await cache.draft('a')).to.equal('two');
    expect(kv.setManyCalls).to.equal(before);
    await new Promise((r) => setTimeout(r, BATCH_MS + 50));
    expect(kv.setManyCalls).to.equal(before + 1);
    expect(kv.data.get('hermes:draft:a')).to.equal('two');
    expect(kv.data.get('hermes:disclosure:a:3')).to.equal(true);
    cache.saveDraft('a', '');
    await cache.flush();
    expect(kv.data.has('hermes:draft:a')).to.equal(false);
  });

  it('on QuotaExceededError evicts the oldest transcripts and retries instead of failing', async () => {
    const kv = new StubKv();
    const cache = new OfflineCache(kv);
    for (let i = 0; i < 8; i++) await cache.saveTranscript(session(`q${i}`));
    await cache.flush();
    // From now on the "disk" holds at most 5 transcripts.
    kv.full = (entries) => new Set([...transcripts(kv), ...entries.map(([k]) => k).filter((k) => k.startsWith('hermes:transcript:'))]).size > 5;
    await cache.saveTranscript(session('new', 'the newest'));
    cache.saveDraft(null, 'kept');
    await cache.flush();
    expect((await cache.transcript('new'))?.messages[0]?.content).to.equal('the newest');
    expect(kv.data.get('hermes:draft:new')).to.equal('kept');
    expect(transcripts(kv).length).to.be.at.most(5);
    expect(await cache.transcript('q0')).to.equal(undefined);
    expect(await cache.transcript('q7')).to.not.equal(undefined);
    expect((await cache.cachedSessions()).at(-1)).to.equal('new');
  });

  it('wipes everything stored under another schema version', async () => {
    const kv = new StubKv();
    kv.data.set('hermes:schema', SCHEMA_VERSION - 1);
    kv.data.set('hermes:rows', [{ session_id: 'old' }]);
    const cache = new OfflineCache(kv);
    expect(await cache.rows()).to.equal(undefined);
    expect(kv.data.get('hermes:schema')).to.equal(SCHEMA_VERSION);
  });

  it('keeps the outbox in order, written at once, across instances; wipe() forgets all', async () => {
    const kv = new StubKv();
    const cache = new OfflineCache(kv);
    const a = await cache.enqueue({ sessionId: 's', text: 'first' });
    await cache.enqueue({ sessionId: 's', text: 'second' });
    const reopened = new OfflineCache(kv);
    expect((await reopened.outbox()).map((i) => i.text)).to.deep.equal(['first', 'second']);
    await reopened.dequeue(a.id);
    expect((await new OfflineCache(kv).outbox()).map((i) => i.text)).to.deep.equal(['second']);
    await reopened.saveTranscript(session('s'));
    await reopened.wipe();
    expect(await reopened.outbox()).to.deep.equal([]);
    expect(await reopened.transcript('s')).to.equal(undefined);
    expect([...kv.data.keys()]).to.deep.equal(['hermes:schema']);
  });

  it('works against a real IndexedDB database', async () => {
    // A database of its own: other test files running beside this one use (and wipe) "hermes".
    const make = () => createStore('hermes-cache-test', 'kv');
    const cache = new OfflineCache(idbBackend(make));
    await cache.saveTranscript(session('idb-1', 'stored for real'));
    await cache.flush();
    const fresh = new OfflineCache(idbBackend(make));
    expect((await fresh.transcript('idb-1'))?.messages[0]?.content).to.equal('stored for real');
  });
});
