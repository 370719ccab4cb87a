import { expect, cleanup, stubFetch, waitFor } from '../helpers.js';
import { ChatStore } from '../../../components/state/chat-store.js';
import type { ApiSession } from '../../../components/api/client.js';

const SID = 's1';
const idle = (): ApiSession =>
  ({ session_id: SID, title: 't', created_at: 1, updated_at: 1, message_count: 0, active_stream_id: null, messages: [] }) as unknown as ApiSession;

describe('a message sent while its conversation is still loading', () => {
  afterEach(() => cleanup());

  it('waits for the load and goes to that session, not an error or a new conversation', async () => {
    let answer!: () => void;
    const loaded = new Promise<void>((resolve) => (answer = resolve));
    let sessionGets = 0;
    const fetches = stubFetch({
      'GET /api/session': async () => {
        // The first load is slow (a slow link); later reads answer at once.
        if (sessionGets++ === 0) await loaded;
        return { session: idle() };
      },
      'POST /api/chat/start': { stream_id: 'st', session_id: SID, title: 't', pending_started_at: 2 },
      'POST /api/session/new': () => {
        throw new Error('no new conversation may be made');
      },
    });
    try {
      const chat = new ChatStore();
      void chat.open(SID);
      expect(chat.loading).to.equal(true);
      const sent = chat.send('typed before it loaded');
      answer();
      await sent;
      await waitFor(() => fetches.calls.some((c) => c.method === 'POST' && c.url.includes('/api/chat/start')));
      const start = fetches.calls.find((c) => c.url.includes('/api/chat/start'))!;
      expect(start.body).to.deep.include({ session_id: SID, message: 'typed before it loaded' });
      expect(chat.error).to.equal(null);
      expect(fetches.calls.some((c) => c.url.includes('/api/session/new'))).to.equal(false);
    } finally {
      fetches.restore();
    }
  });
});
