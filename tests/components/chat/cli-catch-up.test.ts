import { expect, stubFetch, waitFor } from '../helpers.js';
import { ChatStore } from '../../../components/state/chat-store.js';

/** An imported Hermes conversation (is_cli_session) that Hermes' CLI went on with after the import. */
const base = { title: 'Refactor', created_at: 1, updated_at: 1, active_stream_id: null, is_cli_session: true };
const turn = (n: number) => [
  { role: 'user', content: `question ${n}`, timestamp: n },
  { role: 'assistant', content: `answer ${n}`, timestamp: n },
];

describe('opening an imported Hermes conversation catches up with Hermes', () => {
  let fetch: ReturnType<typeof stubFetch>;
  afterEach(() => fetch.restore());

  /** cli1 is an imported Hermes conversation; any other id is a session of our own. */
  function serve(opts: { refreshed: boolean }) {
    let messages = turn(1);
    fetch = stubFetch({
      'GET /api/session': (call) => {
        const id = new URL(call.url, location.href).searchParams.get('session_id');
        return { session: { ...base, is_cli_session: id === 'cli1', session_id: id, messages, message_count: messages.length } };
      },
      // The server appends what state.db has beyond ours and answers the stored session.
      'POST /api/session/import_cli': () => {
        if (opts.refreshed) messages = [...turn(1), ...turn(2)];
        return { imported: false, session: { ...base, session_id: 'cli1', messages, message_count: messages.length } };
      },
    });
  }
  const imports = () => fetch.calls.filter((c) => c.url.endsWith('/api/session/import_cli')).length;

  it('shows the messages Hermes added since the import', async () => {
    serve({ refreshed: true });
    const chat = new ChatStore();
    await chat.open('cli1');
    await waitFor(() => chat.messages.length === 4);
    expect(chat.messages.map((m) => m.content)).to.deep.equal(['question 1', 'answer 1', 'question 2', 'answer 2']);
    expect(imports()).to.equal(1);
  });

  it('keeps the shown copy when Hermes added nothing', async () => {
    serve({ refreshed: false });
    const chat = new ChatStore();
    await chat.open('cli1');
    await waitFor(() => imports() === 1);
    expect(chat.messages.map((m) => m.content)).to.deep.equal(['question 1', 'answer 1']);
  });

  it('a session of our own is not sent to import_cli', async () => {
    serve({ refreshed: true });
    const chat = new ChatStore();
    await chat.open('web1');
    await chat.open('cli1');
    await waitFor(() => imports() === 1);
    // Only the imported one asked: web1 (opened first) never did.
    expect(fetch.calls.filter((c) => c.url.endsWith('/api/session/import_cli')).map((c) => c.body.session_id)).to.deep.equal(['cli1']);
  });
});
