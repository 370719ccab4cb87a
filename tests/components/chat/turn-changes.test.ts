import { expect, cleanup, fixture, stubFetch, waitFor } from '../helpers.js';
import { ContextProvider } from '@lit/context';
import { ChatStore } from '../../../components/state/chat-store.js';
import { chatContext } from '../../../components/state/contexts.js';
import { groupTurns, type AssistantTurn, type TurnChangesView } from '../../../components/state/turns.js';
import type { Message } from '../../../components/api/client.js';
import type { SessionChanges } from '../../../components/api/session-changes.js';
import type { HermesAssistantTurn } from '../../../components/chat/hermes-assistant-turn.js';
import type { HermesTurnChanges } from '../../../components/chat/hermes-turn-changes.js';
import type { HermesDiffView } from '../../../components/diff/hermes-diff-view.js';
import type { RunEventPayloads } from '../../../src/shared/run-events.js';
import type { FileChange } from '../../../src/shared/file-changes.js';
import '../../../components/chat/hermes-transcript.js';
import '../../../components/chat/hermes-assistant-turn.js';
import '../../../components/chat/hermes-turn-changes.js';
import { PlayedEventSource } from './played-event-source.js';

const SID = 's1';
const STREAM = 'st-1';
const readme: FileChange = { path: 'README.md', action: 'modified', additions: 40, deletions: 7 };
const created: FileChange = { path: 'src/new.ts', action: 'created', additions: 2, deletions: 0 };
const moved: FileChange = { path: 'docs/b.md', action: 'moved', from: 'docs/a.md', additions: 0, deletions: 0 };
const logo: FileChange = { path: 'logo.png', action: 'deleted', additions: 0, deletions: 0 };
const view = (files: FileChange[]): TurnChangesView => ({
  streamId: STREAM,
  files,
  additions: files.reduce((n, f) => n + f.additions, 0),
  deletions: files.reduce((n, f) => n + f.deletions, 0),
});
const readmeDiff = '--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,2 @@\n-old line\n+new line\n same\n';
const record = (over: Partial<SessionChanges> = {}): SessionChanges => {
  const files = [readme, created, moved, logo];
  return {
    session_id: SID,
    stream_id: STREAM,
    file_changes: files,
    additions: 42,
    deletions: 7,
    undone: false,
    files: [
      { ...readme, diff: readmeDiff, truncated: true, binary: false },
      { ...created, diff: '--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,2 @@\n+a\n+b\n', truncated: false, binary: false },
      { ...moved, diff: '', truncated: false, binary: false },
      { ...logo, diff: '', truncated: false, binary: true },
    ],
    ...over,
  };
};

const root = (el: HermesTurnChanges) => el.shadowRoot!;
const part = (el: HermesTurnChanges, role: string) => root(el).querySelector<HTMLElement>(`[data-role="${role}"]`);
const label = (el: HermesTurnChanges) => part(el, 'turn-changes-label')!.textContent!.trim();
const fileRow = (el: HermesTurnChanges, path: string) => root(el).querySelector<HTMLElement>(`[data-role="turn-change-file"][data-path="${path}"]`)!;
const click = async (el: HermesTurnChanges, target: HTMLElement | null) => {
  target!.click();
  await el.updateComplete;
};
const mount = (files: FileChange[] = [readme, created, moved, logo]) =>
  fixture<HermesTurnChanges>('hermes-turn-changes', { changes: view(files), sessionId: SID });
const opened = async (files?: FileChange[]) => {
  const el = await mount(files);
  await click(el, part(el, 'turn-changes-toggle'));
  return el;
};

describe('hermes-turn-changes', () => {
  let fetches: ReturnType<typeof stubFetch> | null = null;
  afterEach(() => {
    cleanup();
    fetches?.restore();
    fetches = null;
  });

  it('says how many files changed and by how much, "1 file" singular; closed, it asks the server nothing', async () => {
    fetches = stubFetch({});
    const many = await mount();
    expect(part(many, 'turn-changes')).to.not.equal(null);
    expect(label(many)).to.equal('Changed 4 files (+42 −7)');
    const one = await mount([created]);
    expect(label(one)).to.equal('Changed 1 file (+2 −0)');
    expect(part(one, 'turn-change-files')).to.equal(null);
    expect(part(one, 'turn-changes-toggle')!.getAttribute('aria-expanded')).to.equal('false');
    expect(fetches.calls).to.have.length(0);
    // No files, no row.
    const none = await mount([]);
    expect(part(none, 'turn-changes')).to.equal(null);
  });

  it('opening lists the files with their action and counts, a move as from → to', async () => {
    fetches = stubFetch({ 'GET /api/session/changes': record() });
    const el = await opened();
    expect(part(el, 'turn-changes-toggle')!.getAttribute('aria-expanded')).to.equal('true');
    const rows = [...root(el).querySelectorAll<HTMLElement>('[data-role="turn-change-file"]')];
    expect(rows.map((r) => r.dataset.path)).to.deep.equal(['README.md', 'src/new.ts', 'docs/b.md', 'logo.png']);
    expect(rows.map((r) => r.dataset.action)).to.deep.equal(['modified', 'created', 'moved', 'deleted']);
    const text = (r: HTMLElement) => r.textContent!.replace(/\s+/g, ' ').trim();
    expect(text(rows[0]!)).to.equal('README.md modified +40 −7');
    expect(text(rows[2]!)).to.equal('docs/a.md → docs/b.md moved +0 −0');
    // The record is asked for once, with the turn's run.
    await waitFor(() => fetches!.calls.length === 1);
    const url = new URL(fetches.calls[0]!.url, location.href);
    expect(url.pathname).to.equal('/api/session/changes');
    expect(url.searchParams.get('session_id')).to.equal(SID);
    expect(url.searchParams.get('stream_id')).to.equal(STREAM);
  });

  it('a file expands to its diff, drawn by hermes-diff-view; the record is fetched once however often files open', async () => {
    fetches = stubFetch({ 'GET /api/session/changes': record() });
    const el = await opened();
    const button = (path: string) => fileRow(el, path).querySelector<HTMLButtonElement>('button.file')!;
    await click(el, button('README.md'));
    await waitFor(() => !!fileRow(el, 'README.md').querySelector('hermes-diff-view'));
    const diff = fileRow(el, 'README.md').querySelector<HermesDiffView>('hermes-diff-view')!;
    expect(diff.diff).to.equal(readmeDiff);
    await diff.updateComplete;
    const kinds = [...diff.shadowRoot!.querySelectorAll<HTMLElement>('.line')].map((l) => l.dataset.kind);
    expect(kinds).to.deep.equal(['hunk', 'del', 'add', 'context']);
    expect(button('README.md').getAttribute('aria-expanded')).to.equal('true');
    // Truncated and binary are said in words.
    expect(fileRow(el, 'README.md').querySelector('[data-role="turn-change-truncated"]')!.textContent).to.contain('cut short');
    await click(el, button('logo.png'));
    expect(fileRow(el, 'logo.png').querySelector('[data-role="turn-change-binary"]')!.textContent).to.contain('Binary file');
    expect(fileRow(el, 'logo.png').querySelector('hermes-diff-view')).to.equal(null);
    // Collapse, reopen the list, expand again: still the one request.
    await click(el, button('README.md'));
    expect(fileRow(el, 'README.md').querySelector('hermes-diff-view')).to.equal(null);
    await click(el, part(el, 'turn-changes-toggle'));
    await click(el, part(el, 'turn-changes-toggle'));
    await click(el, button('src/new.ts'));
    expect(fileRow(el, 'src/new.ts').querySelector<HermesDiffView>('hermes-diff-view')!.diff).to.contain('+++ b/src/new.ts');
    expect(fetches.calls.filter((c) => c.method === 'GET')).to.have.length(1);
  });

  it('a record that cannot be loaded is said inline, with no undo; opening again asks again', async () => {
    let n = 0;
    fetches = stubFetch({
      'GET /api/session/changes': () => (n++ ? record() : new Response(JSON.stringify({ error: 'no change record for that turn' }), { status: 404 })),
    });
    const el = await opened([readme]);
    await waitFor(() => !!part(el, 'turn-changes-error'));
    expect(part(el, 'turn-changes-error')!.textContent).to.contain('no change record for that turn');
    expect(part(el, 'turn-undo')).to.equal(null);
    await click(el, part(el, 'turn-changes-toggle'));
    await click(el, part(el, 'turn-changes-toggle'));
    await waitFor(() => !!part(el, 'turn-undo'));
    expect(part(el, 'turn-changes-error')).to.equal(null);
  });

  it('undo asks inline first; Keep leaves everything; yes POSTs the turn and the row says "Changes undone"', async () => {
    const announced: Array<{ sessionId: string }> = [];
    const onChanged = (e: WindowEventMap['hermes-workspace-changed']) => announced.push(e.detail);
    window.addEventListener('hermes-workspace-changed', onChanged);
    try {
      fetches = stubFetch({
        'GET /api/session/changes': record(),
        'POST /api/session/changes/undo': { ok: true, session_id: SID, stream_id: STREAM, restored: ['README.md', 'src/new.ts', 'docs/b.md', 'logo.png'] },
      });
      const el = await opened();
      await waitFor(() => !!part(el, 'turn-undo'));
      expect(part(el, 'turn-undo')!.textContent).to.contain("Undo this turn's changes");
      await click(el, part(el, 'turn-undo'));
      expect(part(el, 'turn-undo-confirm')!.textContent).to.contain('these 4 files');
      expect(part(el, 'turn-undo')).to.equal(null);
      await click(el, part(el, 'turn-undo-no'));
      expect(part(el, 'turn-undo-confirm')).to.equal(null);
      expect(fetches.calls.filter((c) => c.method === 'POST')).to.have.length(0);

      await click(el, part(el, 'turn-undo'));
      await click(el, part(el, 'turn-undo-yes'));
      await waitFor(() => !!part(el, 'turn-undone'));
      const post = fetches.calls.find((c) => c.method === 'POST')!;
      expect(new URL(post.url, location.href).pathname).to.equal('/api/session/changes/undo');
      expect(post.body).to.deep.equal({ session_id: SID, stream_id: STREAM });
      expect(part(el, 'turn-changes')!.dataset.undone).to.equal('true');
      expect(part(el, 'turn-undone')!.textContent).to.equal('Changes undone');
      expect(part(el, 'turn-undo')).to.equal(null);
      expect(part(el, 'turn-undo-confirm')).to.equal(null);
      // The workspace tree is told to look again.
      expect(announced).to.deep.equal([{ sessionId: SID }]);
    } finally {
      window.removeEventListener('hermes-workspace-changed', onChanged);
    }
  });

  it('a 409 with conflicts lists the files that changed since, and the undo stays offered', async () => {
    fetches = stubFetch({
      'GET /api/session/changes': record(),
      'POST /api/session/changes/undo': new Response(JSON.stringify({ error: 'files changed since this turn', conflicts: ['README.md', 'src/new.ts'] }), {
        status: 409,
      }),
    });
    const el = await opened();
    await waitFor(() => !!part(el, 'turn-undo'));
    await click(el, part(el, 'turn-undo'));
    await click(el, part(el, 'turn-undo-yes'));
    await waitFor(() => !!part(el, 'turn-undo-conflicts'));
    const notice = part(el, 'turn-undo-conflicts')!;
    expect(notice.textContent!.replace(/\s+/g, ' ')).to.contain('Not undone: these files changed since:');
    expect([...notice.querySelectorAll('li')].map((li) => li.textContent)).to.deep.equal(['README.md', 'src/new.ts']);
    expect(part(el, 'turn-undone')).to.equal(null);
    expect(part(el, 'turn-undo')).to.not.equal(null);
  });

  it('another refusal (a turn running) is shown inline as the server said it', async () => {
    fetches = stubFetch({
      'GET /api/session/changes': record(),
      'POST /api/session/changes/undo': new Response(JSON.stringify({ error: 'a turn is running in this session' }), { status: 409 }),
    });
    const el = await opened([readme]);
    await waitFor(() => !!part(el, 'turn-undo'));
    await click(el, part(el, 'turn-undo'));
    expect(part(el, 'turn-undo-confirm')!.textContent).to.contain('this file');
    await click(el, part(el, 'turn-undo-yes'));
    await waitFor(() => !!part(el, 'turn-undo-error'));
    expect(part(el, 'turn-undo-error')!.textContent).to.equal('a turn is running in this session');
    expect(part(el, 'turn-undo-conflicts')).to.equal(null);
    expect(part(el, 'turn-undone')).to.equal(null);
  });

  it('a turn undone before (GET says undone) shows "Changes undone" and no undo button when reopened', async () => {
    fetches = stubFetch({ 'GET /api/session/changes': record({ undone: true }) });
    const el = await opened();
    await waitFor(() => !!part(el, 'turn-undone'));
    expect(part(el, 'turn-undo')).to.equal(null);
    // The diffs can still be read.
    await click(el, fileRow(el, 'README.md').querySelector<HTMLButtonElement>('button.file'));
    expect(fileRow(el, 'README.md').querySelector('hermes-diff-view')).to.not.equal(null);
  });

  it('while a turn runs the undo waits (disabled)', async () => {
    fetches = stubFetch({ 'GET /api/session/changes': record() });
    const el = await opened();
    el.busy = true;
    await waitFor(() => !!part(el, 'turn-undo'));
    expect((part(el, 'turn-undo') as HTMLButtonElement).disabled).to.equal(true);
  });
});

describe('"Changed N files" in the assistant turn', () => {
  afterEach(cleanup);
  const changesIn = (turnEl: Element) => turnEl.shadowRoot!.querySelector<HermesTurnChanges>('hermes-turn-changes');

  it('reload: groupTurns takes file_changes and _stream_id from the stored answer, and the turn draws the row under its activity', async () => {
    const messages: Message[] = [
      { role: 'user', content: 'write it' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'write_file', arguments: '{"path":"src/new.ts"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"ok":true}' },
      { role: 'assistant', content: 'Written.', file_changes: [created, readme], _stream_id: STREAM },
    ];
    const turn = groupTurns(messages)[1] as AssistantTurn;
    expect(turn.changes).to.deep.equal({ streamId: STREAM, files: [created, readme], additions: 42, deletions: 7 });
    const el = await fixture<HermesAssistantTurn>('hermes-assistant-turn', { turn, sessionId: SID });
    await waitFor(() => !!changesIn(el)?.shadowRoot?.querySelector('[data-role="turn-changes"]'));
    const changes = changesIn(el)!;
    expect(changes.sessionId).to.equal(SID);
    expect(label(changes)).to.equal('Changed 2 files (+42 −7)');
    // Directly under the activity row, before the answer.
    const order = [...el.shadowRoot!.querySelectorAll('hermes-activity, hermes-turn-changes, hermes-markdown')].map((n) => n.localName);
    expect(order).to.deep.equal(['hermes-activity', 'hermes-turn-changes', 'hermes-markdown']);
    // A turn without a record has no row.
    const plain = groupTurns([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Hello.' },
    ])[1] as AssistantTurn;
    const other = await fixture<HermesAssistantTurn>('hermes-assistant-turn', { turn: plain, sessionId: SID });
    expect(changesIn(other)).to.equal(null);
  });

  describe('live (RunStream → chat store → transcript)', () => {
    const original = window.EventSource;
    let wrapper: HTMLElement | null = null;
    beforeEach(() => {
      (window as unknown as { EventSource: unknown }).EventSource = PlayedEventSource;
    });
    afterEach(() => {
      window.EventSource = original;
      wrapper?.remove();
      wrapper = null;
    });

    it('a played turn_changes event draws the row on the live turn; done keeps it on the stored answer', async () => {
      const user: Message = { role: 'user', content: 'write it', timestamp: 100 };
      const running = {
        session_id: SID,
        title: 't',
        created_at: 1,
        updated_at: 1,
        message_count: 1,
        active_stream_id: STREAM,
        pending_started_at: 100,
        messages: [user],
      };
      const fetches = stubFetch({ 'GET /api/session': { session: running } });
      const announced: Array<{ sessionId: string }> = [];
      const onChanged = (e: WindowEventMap['hermes-workspace-changed']) => announced.push(e.detail);
      window.addEventListener('hermes-workspace-changed', onChanged);
      try {
        const chat = new ChatStore();
        wrapper = document.createElement('div');
        new ContextProvider(wrapper, { context: chatContext, initialValue: chat });
        const el = document.createElement('hermes-transcript');
        wrapper.append(el);
        document.body.append(wrapper);
        await chat.open(SID);
        const source = PlayedEventSource.last!;
        source.play('tool', { name: 'write_file', preview: 'src/new.ts', args: { path: 'src/new.ts' }, tool_call_id: 'c1' } as RunEventPayloads['tool']);
        source.play('token', { text: 'Written.' });
        source.play('turn_changes', { session_id: SID, stream_id: STREAM, file_changes: [created], additions: 2, deletions: 0 });
        chat.dispatchEvent(new Event('change'));
        const liveTurn = () => el.shadowRoot!.querySelector('hermes-assistant-turn[data-live="true"]');
        await waitFor(() => !!changesIn(liveTurn()!)?.shadowRoot?.querySelector('[data-role="turn-changes"]'));
        const live = changesIn(liveTurn()!)!;
        expect(label(live)).to.equal('Changed 1 file (+2 −0)');
        expect(live.busy).to.equal(true);
        // The file tree is told at once (it shows the new file without a refresh).
        expect(announced).to.deep.equal([{ sessionId: SID }]);

        const done = {
          ...running,
          active_stream_id: null,
          message_count: 2,
          messages: [user, { role: 'assistant', content: 'Written.', file_changes: [created], _stream_id: STREAM, timestamp: 101 }],
        };
        source.play('done', {
          session: done as unknown as RunEventPayloads['done']['session'],
          usage: { input_tokens: 1, output_tokens: 1, estimated_cost: null },
        });
        await waitFor(() => chat.status === 'idle' && !liveTurn());
        const settled = el.shadowRoot!.querySelector<HermesAssistantTurn>('hermes-assistant-turn')!;
        await waitFor(() => !!changesIn(settled)?.shadowRoot?.querySelector('[data-role="turn-changes"]'));
        expect(label(changesIn(settled)!)).to.equal('Changed 1 file (+2 −0)');
        expect(changesIn(settled)!.changes!.streamId).to.equal(STREAM);
      } finally {
        window.removeEventListener('hermes-workspace-changed', onChanged);
        fetches.restore();
      }
    });
  });
});
