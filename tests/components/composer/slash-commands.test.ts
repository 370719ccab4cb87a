import { expect, stubFetch } from '../helpers.js';
import { parseCommand, runCommand, suggestions, type CommandContext } from '../../../components/composer/slash-commands.js';
import type { Message } from '../../../components/api/client.js';
import { makeStores, openSession, session, type Stores } from './setup.js';

describe('slash commands', () => {
  let s: Stores;
  let fetchStub: ReturnType<typeof stubFetch> | undefined;
  let ctx: CommandContext;
  let state: { text: string; model: string | null; restored: string[]; opened: unknown[] };

  beforeEach(() => {
    s = makeStores();
    state = { text: '', model: null, restored: [], opened: [] };
    const host = document.createElement('div');
    ctx = {
      chat: s.chat,
      ui: s.ui,
      sessions: s.sessions,
      host,
      models: ['m'],
      currentModel: () => state.model,
      setModel: async (id) => void (state.model = id),
      setText: (t) => void (state.text = t),
      restoreAttachments: (p) => void state.restored.push(...p),
    };
    host.addEventListener('hermes-open-session', (e) => state.opened.push(e.detail));
  });
  afterEach(() => fetchStub?.restore());

  const transcript: Message[] = [
    { role: 'user', content: 'first' },
    { role: 'assistant', content: 'one' },
    { role: 'user', content: 'second\n\n[Attached files: /a/x.txt]', attachments: [{ path: '/a/x.txt' }] },
    { role: 'assistant', content: 'two' },
  ];

  it('parses "/name args"', () => {
    expect(parseCommand('/title  My chat ')).to.deep.equal({ name: 'title', arg: 'My chat' });
    expect(parseCommand('/NEW')).to.deep.equal({ name: 'new', arg: '' });
    expect(parseCommand('hello')).to.equal(null);
  });

  it('suggests commands by prefix, then by substring, and arguments for /model and /theme', () => {
    expect(suggestions('/', []).length).to.equal(15);
    expect(suggestions('/re', []).map((i) => i.label)).to.deep.equal(['/retry', '/reasoning', '/compress']);
    expect(suggestions('/o', []).map((i) => i.label)).to.deep.equal(['/model', '/undo', '/stop', '/compress', '/compact', '/yolo', '/reasoning']);
    expect(suggestions('/model q', ['m', 'custom:lab:qwen']).map((i) => i.complete)).to.deep.equal(['/model custom:lab:qwen']);
    expect(suggestions('/theme ', []).map((i) => i.label)).to.deep.equal(['dark', 'light', 'system']);
    expect(suggestions('/title x', [])).to.deep.equal([]);
    expect(suggestions('hello /', [])).to.deep.equal([]);
  });

  it('an unknown command is a toast error', async () => {
    expect(await runCommand(ctx, '/nope')).to.equal(false);
    expect(s.toasts).to.deep.equal([{ message: 'Unknown command /nope. Type /help for the list.', kind: 'error' }]);
  });

  it('/new opens the empty view', async () => {
    await runCommand(ctx, '/new');
    expect(state.opened).to.deep.equal([{ sessionId: null }]);
  });

  it('commands that need a session say so in the empty view', async () => {
    expect(await runCommand(ctx, '/clear')).to.equal(false);
    expect(s.toasts[0]!.message).to.equal('Start a conversation first.');
  });

  it('/retry truncates before the last user message, reloads, and resends it with its attachments', async () => {
    openSession(s.chat, session('s1', { messages: transcript }));
    const kept = transcript.slice(0, 2);
    fetchStub = stubFetch({
      'POST /api/session/truncate': { ok: true, session: session('s1', { messages: kept }) },
      'GET /api/session': { session: session('s1', { messages: kept }) },
    });
    expect(await runCommand(ctx, '/retry')).to.equal(true);
    expect(fetchStub.calls[0]!.body).to.deep.equal({ session_id: 's1', keep_count: 2 });
    expect(s.chat.messages).to.have.length(2);
    expect(s.sent).to.deep.equal([{ text: 'second', options: { attachments: ['/a/x.txt'] } }]);
  });

  it('/undo truncates and puts the last message back into the composer', async () => {
    openSession(s.chat, session('s1', { messages: transcript }));
    const kept = transcript.slice(0, 2);
    fetchStub = stubFetch({
      'POST /api/session/truncate': { ok: true, session: session('s1', { messages: kept }) },
      'GET /api/session': { session: session('s1', { messages: kept }) },
    });
    await runCommand(ctx, '/undo');
    expect(state.text).to.equal('second');
    expect(state.restored).to.deep.equal(['/a/x.txt']);
    expect(s.sent).to.have.length(0);
  });

  it('/retry and /undo wait for an idle chat', async () => {
    openSession(s.chat, session('s1', { messages: transcript }));
    s.chat.status = 'running';
    expect(await runCommand(ctx, '/undo')).to.equal(false);
    expect(s.toasts[0]!.message).to.contain('Wait for the current reply');
  });

  it('/clear clears, reloads and reports', async () => {
    openSession(s.chat, session('s1', { messages: transcript }));
    fetchStub = stubFetch({
      'POST /api/session/clear': { ok: true, session: { session_id: 's1', title: 'Untitled', message_count: 0 } },
      'GET /api/session': { session: session('s1') },
    });
    await runCommand(ctx, '/clear');
    expect(fetchStub.calls.map((c) => `${c.method} ${new URL(c.url, location.href).pathname}`)).to.deep.equal(['POST /api/session/clear', 'GET /api/session']);
    expect(s.chat.messages).to.deep.equal([]);
  });

  it('/title renames the session', async () => {
    openSession(s.chat, session('s1'));
    fetchStub = stubFetch({ 'POST /api/session/rename': (c) => ({ session: { session_id: 's1', title: c.body.title } }) });
    await runCommand(ctx, '/title Release plan');
    expect(fetchStub.calls[0]!.body).to.deep.equal({ session_id: 's1', title: 'Release plan' });
    expect(s.chat.session!.title).to.equal('Release plan');
  });

  it("/yolo toggles from the server's current state and says which", async () => {
    openSession(s.chat, session('s1'));
    fetchStub = stubFetch({
      'GET /api/session/yolo': { session_id: 's1', yolo_enabled: false },
      'POST /api/session/yolo': (c) => ({ session_id: 's1', yolo_enabled: c.body.enabled }),
    });
    await runCommand(ctx, '/yolo');
    expect(fetchStub.calls[1]!.body).to.deep.equal({ session_id: 's1', enabled: true });
    expect(s.toasts[0]!.message).to.match(/^YOLO on/);
  });

  it('/branch forks and opens the fork', async () => {
    openSession(s.chat, session('s1'));
    fetchStub = stubFetch({ 'POST /api/session/branch': { session_id: 'f1', title: 'Chat s1 (fork)' } });
    await runCommand(ctx, '/branch');
    expect(state.opened).to.deep.equal([{ sessionId: 'f1' }]);
  });

  it('/compress [focus] starts the job, polls it to the end and reloads; /compact takes no focus; failures toast', async () => {
    openSession(s.chat, session('s1', { messages: transcript }));
    let polls = 0;
    fetchStub = stubFetch({
      'POST /api/session/compress/start': { ok: true, status: 'running', session_id: 's1' },
      'GET /api/session/compress/status': () =>
        ++polls < 2
          ? { ok: true, status: 'running', session_id: 's1' }
          : { ok: true, status: 'done', session_id: 's1', summary: { headline: 'Compressed: 2 earlier messages summarised' } },
      'GET /api/session': { session: session('s1', { messages: transcript, compression_anchor_visible_idx: 2 }) },
    });
    expect(suggestions('/compress', []).find((i) => i.label === '/compress')?.runnable).to.equal(true);
    expect(await runCommand(ctx, '/compress the schema')).to.equal(true);
    expect(fetchStub.calls.find((c) => c.method === 'POST')?.body).to.deep.equal({ session_id: 's1', focus_topic: 'the schema' });
    expect(polls).to.equal(2);
    expect(s.chat.session?.compression_anchor_visible_idx).to.equal(2);
    expect(s.toasts.map((t) => t.message)).to.include('Compressed: 2 earlier messages summarised');
    fetchStub.restore();
    fetchStub = stubFetch({
      'POST /api/session/compress/start': new Response(JSON.stringify({ error: 'Not enough conversation to compress (need at least 4 messages).' }), {
        status: 400,
      }),
    });
    expect(await runCommand(ctx, '/compact')).to.equal(false);
    expect(fetchStub.calls[0]?.body).to.deep.equal({ session_id: 's1' });
    expect(s.toasts.at(-1)?.message).to.match(/at least 4 messages/);
  });

  it('/model sets the model; /theme checks its argument; /help explains', async () => {
    await runCommand(ctx, '/model custom:lab:big');
    expect(state.model).to.equal('custom:lab:big');
    const saved: unknown[] = [];
    s.ui.save = async (p) => void saved.push(p);
    await runCommand(ctx, '/theme LIGHT');
    expect(saved).to.deep.equal([{ theme: 'light' }]);
    expect(await runCommand(ctx, '/theme neon')).to.equal(false);
    await runCommand(ctx, '/help');
    const messages = s.toasts.map((t) => t.message);
    expect(messages.some((m) => m.includes('/compress [focus]'))).to.equal(true);
    expect(messages.some((m) => m.startsWith('Commands: /new'))).to.equal(true);
  });
});
