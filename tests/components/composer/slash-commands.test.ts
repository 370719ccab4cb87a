import { expect, stubFetch } from '../helpers.js';
import { COMMANDS, isCommand, parseCommand, runCommand, suggestions, type CommandContext } from '../../../components/composer/slash-commands.js';
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
      currentWorkspace: () => '/home/me',
      setWorkspace: async () => {},
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
    // Every command is offered on a bare "/" (enabled skills follow once loaded: skill-commands.test.ts).
    expect(suggestions('/', []).map((i) => i.label)).to.deep.equal(COMMANDS.map((c) => `/${c.name}`));
    expect(suggestions('/re', []).map((i) => i.label)).to.deep.equal(['/retry', '/reasoning', '/compress']);
    expect(suggestions('/o', []).map((i) => i.label)).to.deep.equal([
      '/model',
      '/undo',
      '/stop',
      '/compress',
      '/compact',
      '/yolo',
      '/reasoning',
      '/personality',
      '/workspace',
      '/prompts',
    ]);
    expect(suggestions('/model q', ['m', 'custom:lab:qwen']).map((i) => i.complete)).to.deep.equal(['/model custom:lab:qwen']);
    expect(
      suggestions('/theme ', [])
        .map((i) => i.label)
        .slice(0, 4),
    ).to.deep.equal(['dark', 'light', 'system', 'default']);
    expect(suggestions('/theme sol', []).map((i) => i.complete)).to.deep.equal(['/theme solarized']);
    expect(suggestions('/title x', [])).to.deep.equal([]);
    expect(suggestions('hello /', [])).to.deep.equal([]);
  });

  it('a /word that names no command is not run here (the composer sends it as text)', async () => {
    expect(isCommand('/nope')).to.equal(false);
    expect(isCommand('/usr/bin/env is missing')).to.equal(false);
    expect(isCommand('/retry')).to.equal(true);
    expect(isCommand('/HELP')).to.equal(true);
    expect(await runCommand(ctx, '/nope')).to.equal(false);
    expect(s.toasts).to.deep.equal([]);
  });

  it('/new opens the empty view', async () => {
    await runCommand(ctx, '/new');
    expect(state.opened).to.deep.equal([{ sessionId: null }]);
  });

  it('commands that need a session say so in the empty view', async () => {
    expect(await runCommand(ctx, '/clear')).to.equal(false);
    expect(s.toasts[0]!.message).to.equal('Start a conversation first.');
  });

  it('/retry has the server cut the last exchange, reloads, and resends it with its attachments', async () => {
    openSession(s.chat, session('s1', { messages: transcript }));
    const kept = transcript.slice(0, 2);
    fetchStub = stubFetch({
      'POST /api/session/retry': { ok: true, last_user_text: 'second', last_user_attachments: ['/a/x.txt'], removed_count: 2 },
      'GET /api/session': { session: session('s1', { messages: kept }) },
    });
    expect(await runCommand(ctx, '/retry')).to.equal(true);
    expect(fetchStub.calls[0]!.body).to.deep.equal({ session_id: 's1' });
    expect(s.chat.messages).to.have.length(2);
    expect(s.sent).to.deep.equal([{ text: 'second', options: { attachments: ['/a/x.txt'] } }]);
  });

  it('/undo has the server cut and puts the last message back into the composer', async () => {
    openSession(s.chat, session('s1', { messages: transcript }));
    const kept = transcript.slice(0, 2);
    fetchStub = stubFetch({
      'POST /api/session/undo': { ok: true, removed_count: 2, removed_preview: 'second', removed_text: 'second', removed_attachments: ['/a/x.txt'] },
      'GET /api/session': { session: session('s1', { messages: kept }) },
    });
    await runCommand(ctx, '/undo');
    expect(fetchStub.calls[0]!.body).to.deep.equal({ session_id: 's1' });
    expect(state.text).to.equal('second');
    expect(state.restored).to.deep.equal(['/a/x.txt']);
    expect(s.sent).to.have.length(0);
  });

  it('/undo with nothing to undo says so (the server answers 400)', async () => {
    openSession(s.chat, session('s1', { messages: [] }));
    fetchStub = stubFetch({
      'POST /api/session/undo': () =>
        new Response(JSON.stringify({ error: 'Nothing to undo.' }), { status: 400, headers: { 'Content-Type': 'application/json' } }),
    });
    expect(await runCommand(ctx, '/undo')).to.equal(true);
    expect(s.toasts.at(-1)!.message).to.equal('Nothing to undo.');
  });

  it('/status shows the session card in a few lines', async () => {
    openSession(s.chat, session('s1'));
    fetchStub = stubFetch({
      'GET /api/session/status': {
        session_id: 's1',
        title: 'Release plan',
        model: 'gpt-x',
        profile: 'default',
        hermes_home: '/h',
        workspace: '/w/app',
        personality: 'coach',
        message_count: 12,
        created_at: 1,
        updated_at: 2,
        agent_running: true,
        active_stream_id: 'st',
        input_tokens: 12_345,
        output_tokens: 678,
        total_tokens: 13_023,
        estimated_cost: 0.0123,
      },
    });
    expect(await runCommand(ctx, '/status')).to.equal(true);
    expect(s.toasts.at(-1)!.message.split('\n')).to.deep.equal([
      '“Release plan” · working now',
      'Model gpt-x · personality coach · profile default',
      'Workspace /w/app',
      '12 messages · 12k in / 678 out tokens · $0.0123',
    ]);
  });

  it('/personality lists config.yaml’s, sets one, and "none" clears it', async () => {
    openSession(s.chat, session('s1'));
    fetchStub = stubFetch({
      'GET /api/personalities': {
        personalities: [
          { name: 'terse', description: '' },
          { name: 'coach', description: 'A coach' },
        ],
      },
      'POST /api/personality/set': (c) => ({ ok: true, personality: c.body.name || null }),
    });
    await runCommand(ctx, '/personality');
    expect(s.toasts.at(-1)!.message).to.equal('Personalities: terse, coach');
    await runCommand(ctx, '/personality coach');
    expect(s.chat.session!.personality).to.equal('coach');
    expect(s.toasts.at(-1)!.message).to.equal('Personality set to coach.');
    await runCommand(ctx, '/personality');
    expect(s.toasts.at(-1)!.message).to.equal('Personalities: terse, coach (current)');
    await runCommand(ctx, '/personality none');
    expect(fetchStub.calls.at(-1)!.body).to.deep.equal({ session_id: 's1', name: '' });
    expect(s.toasts.at(-1)!.message).to.equal('Personality cleared.');
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
    // A skin name, as the incumbent's /theme takes; one only the incumbent draws is refused.
    await runCommand(ctx, '/theme Paper');
    expect(saved).to.deep.equal([{ theme: 'light' }, { skin: 'paper' }]);
    expect(await runCommand(ctx, '/theme neon')).to.equal(false);
    expect(s.toasts.at(-1)?.message).to.contain('okabe-ito');
    await runCommand(ctx, '/help');
    const messages = s.toasts.map((t) => t.message);
    expect(messages.some((m) => m.includes('/compress [focus]'))).to.equal(true);
    expect(messages.some((m) => m.startsWith('Commands: /new'))).to.equal(true);
  });
});
