import { expect, cleanup, fixture, stubFetch, waitFor } from '../helpers.js';
import { ContextProvider } from '@lit/context';
import { ChatStore } from '../../../components/state/chat-store.js';
import { chatContext, uiContext } from '../../../components/state/contexts.js';
import { UiStore } from '../../../components/state/ui-store.js';
import { emptyAssistantTurn } from '../../../components/state/turns.js';
import { PAGE_SIZE, mergeWindow } from '../../../components/state/transcript-pages.js';
import { markdownStats, renderMarkdown } from '../../../components/render/markdown.js';
import { BlockSplitter, splitBlocks } from '../../../components/render/markdown-blocks.js';
import type { ApiSession, Message } from '../../../components/api/client.js';
import type { HermesTranscript } from '../../../components/chat/hermes-transcript.js';
import type { HermesMarkdown } from '../../../components/chat/hermes-markdown.js';
import '../../../components/chat/hermes-transcript.js';
import '../../../components/chat/hermes-markdown.js';

const TOTAL = 5000;

/** Stored messages [from, to) of a TOTAL-message transcript: user at even indexes, assistant at odd. */
function stored(from: number, to: number): Message[] {
  const out: Message[] = [];
  for (let i = from; i < to; i++)
    out.push(i % 2 === 0 ? { role: 'user', content: `question ${i}` } : { role: 'assistant', content: `answer **${i}**\n\nmore of ${i}` });
  return out;
}

/** GET /api/session answering msg_limit / msg_before windows of the TOTAL-message transcript. */
function pagedSession(call: { url: string }, total = TOTAL): { session: ApiSession } {
  const u = new URL(call.url, location.href);
  const end = Math.min(Number(u.searchParams.get('msg_before') ?? total), total);
  const limit = u.searchParams.get('msg_limit');
  const start = limit === null ? 0 : Math.max(0, end - Number(limit));
  return {
    session: {
      session_id: 's1',
      title: 't',
      created_at: 1,
      updated_at: 1,
      message_count: total,
      messages: stored(start, end),
      _messages_offset: start,
    } as ApiSession,
  };
}

let wrapper: HTMLElement | null = null;

async function mountTranscript(chat: ChatStore, ui?: UiStore): Promise<HermesTranscript> {
  wrapper = document.createElement('div');
  wrapper.style.cssText = 'display:flex;flex-direction:column;height:600px;width:900px';
  new ContextProvider(wrapper, { context: chatContext, initialValue: chat });
  if (ui) new ContextProvider(wrapper, { context: uiContext, initialValue: ui });
  const el = document.createElement('hermes-transcript');
  el.style.cssText = 'flex:1;min-height:0';
  wrapper.append(el);
  document.body.append(wrapper);
  await el.updateComplete;
  await new Promise((r) => setTimeout(r, 30));
  return el;
}

/**
 * Streaming renders once per animation frame, and a page running in the background (the runner
 * runs two at once) gets none: frames come from a 16 ms timer while these tests run.
 */
function timerFrames(): () => void {
  const raf = window.requestAnimationFrame;
  const caf = window.cancelAnimationFrame;
  window.requestAnimationFrame = (cb) => setTimeout(() => cb(performance.now()), 16) as unknown as number;
  window.cancelAnimationFrame = (id) => clearTimeout(id);
  return () => {
    window.requestAnimationFrame = raf;
    window.cancelAnimationFrame = caf;
  };
}

const markdownOf = (turn: Element) => turn.shadowRoot!.querySelector<HermesMarkdown>('hermes-markdown')!;
const tick = () => new Promise((r) => setTimeout(r, 20));

describe('markdown blocks', () => {
  let restoreFrames: () => void = () => {};
  beforeEach(() => (restoreFrames = timerFrames()));
  afterEach(() => {
    restoreFrames();
    cleanup();
  });

  const SAMPLES = [
    '# Title\n\nA paragraph with **bold**.\n\nAnother one.\n',
    '- a\n- b\n\n- loose c\n\nAfter the list.\n\n1. one\n2. two\n\n3. three\n',
    'Code:\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter the code.\n',
    '> quoted\n\n> again\n\nplain\n\n    indented code\n\n    more code\n\nend',
    '| a | b |\n|---|---|\n| 1 | 2 |\n\nText under the table.\n\nSetext\n===\n',
    '- item\n\n  continued in the item\n\nTail.',
  ];
  const norm = (html: string) => html.replace(/>\s+</g, '><').trim();

  for (const sample of SAMPLES) {
    it(`renders ${JSON.stringify(sample.slice(0, 24))}… block by block exactly as a whole`, () => {
      const blocks = splitBlocks(sample);
      expect(blocks.join('')).to.equal(sample);
      expect(norm(blocks.map((b) => renderMarkdown(b).html).join(''))).to.equal(norm(renderMarkdown(sample).html));
    });
  }

  it('splits paragraphs, but never inside a fence, display math or a text with link definitions', () => {
    expect(splitBlocks('one\n\ntwo\n\nthree').length).to.equal(3);
    expect(splitBlocks('```\na\n\nb\n```\n').length).to.equal(1);
    expect(splitBlocks('$$\na\n\nb\n$$\n\nafter').length).to.equal(2);
    expect(splitBlocks('see [x]\n\n[x]: https://example.com\n').length).to.equal(1);
  });

  it('keeps the blocks it found while the text only grows', () => {
    const s = new BlockSplitter();
    // The last line may still grow into a list item: it starts a block only once it is whole.
    expect(s.split('alpha\n\nbeta')).to.deep.equal(['alpha\n\nbeta']);
    expect(s.split('alpha\n\nbeta gamma\n\ndelta')).to.deep.equal(['alpha\n\n', 'beta gamma\n\ndelta']);
    expect(s.split('alpha\n\nbeta gamma\n\ndelta', true)).to.deep.equal(['alpha\n\n', 'beta gamma\n\n', 'delta']);
  });

  it('re-parses only the growing last block of a streaming answer', async () => {
    let text = 'Intro paragraph.\n\n';
    const el = await fixture<HermesMarkdown>('hermes-markdown', { text, streaming: true });
    const counts: number[] = [];
    for (let i = 0; i < 30; i++) {
      text += i % 5 === 4 ? `word${i}.\n\n` : `word${i} `;
      const before = markdownStats.parses;
      el.text = text;
      await el.updateComplete;
      // Past the per-frame limit: each step is parsed at once.
      await new Promise((r) => requestAnimationFrame(r));
      counts.push(markdownStats.parses - before);
    }
    // One block per step at most (two when a block was just closed: it is cached once, the new tail parsed).
    expect(Math.max(...counts)).to.be.at.most(2);
    expect(el.shadowRoot!.querySelector('.prose')!.textContent).to.contain('word29');
    expect(el.shadowRoot!.querySelectorAll('.prose p').length).to.equal(7);
  });
});

describe('long transcripts', () => {
  let restoreFrames: () => void = () => {};
  beforeEach(() => (restoreFrames = timerFrames()));
  afterEach(() => {
    restoreFrames();
    wrapper?.remove();
    wrapper = null;
    cleanup();
  });

  it('does not re-render or re-parse settled messages while the live turn grows, nor when it settles', async () => {
    const messages = stored(0, 20);
    const chat = new ChatStore();
    chat.session = {
      session_id: 's1',
      title: 't',
      created_at: 1,
      updated_at: 1,
      message_count: 21,
      messages: [...messages, { role: 'user', content: 'go on' }],
    } as ApiSession;
    chat.messages = chat.session.messages;
    chat.live = { ...emptyAssistantTurn(21), text: '' };
    chat.status = 'running';
    const el = await mountTranscript(chat);
    const settled = [...el.shadowRoot!.querySelectorAll('hermes-assistant-turn:not([data-live])')];
    expect(settled.length).to.equal(10);
    const updates = new Map<Element, number>();
    for (const turn of settled) {
      updates.set(turn, 0);
      const own = (turn as unknown as { update: (c: unknown) => void }).update.bind(turn);
      (turn as unknown as { update: (c: unknown) => void }).update = (c) => {
        updates.set(turn, updates.get(turn)! + 1);
        own(c);
      };
    }
    const parses = settled.map((t) => markdownOf(t).parseCount);
    for (let i = 0; i < 40; i++) {
      chat.live.text += i % 8 === 7 ? `piece ${i}.\n\n` : `piece ${i} `;
      chat.changed();
      await el.updateComplete;
      await tick();
    }
    const live = el.shadowRoot!.querySelector('hermes-assistant-turn[data-live]')!;
    expect(markdownOf(live).shadowRoot!.textContent).to.contain('piece 39');
    expect(
      [...updates.values()].every((n) => n === 0),
      'settled turns updated',
    ).to.equal(true);
    expect(settled.map((t) => markdownOf(t).parseCount)).to.deep.equal(parses);

    // Settling: the server's copy (new objects, same content) keeps every settled turn as it was.
    const final = [...stored(0, 20).map((m) => ({ ...m })), { role: 'user', content: 'go on' }, { role: 'assistant', content: chat.live.text }] as Message[];
    const fetches = stubFetch({ 'GET /api/session': { session: { ...chat.session, message_count: 22, messages: final } } });
    try {
      chat.live = null;
      chat.status = 'idle';
      await chat.reload();
      await el.updateComplete;
      await tick();
    } finally {
      fetches.restore();
    }
    expect(
      [...updates.values()].every((n) => n === 0),
      'settled turns updated on settle',
    ).to.equal(true);
    expect(settled.every((t) => t.isConnected)).to.equal(true);
    expect(settled.map((t) => markdownOf(t).parseCount)).to.deep.equal(parses);
  });

  it('follows a growing answer at the bottom while turns above replace their size estimates', async () => {
    const chat = new ChatStore();
    chat.session = {
      session_id: 's1',
      title: 't',
      created_at: 1,
      updated_at: 1,
      message_count: 21,
      messages: [...stored(0, 20), { role: 'user', content: 'go on' }],
    } as ApiSession;
    chat.messages = chat.session.messages;
    chat.live = { ...emptyAssistantTurn(21), text: 'start' };
    chat.status = 'running';
    const ui = new UiStore();
    ui.settings = { auto_scroll_follow: true } as UiStore['settings'];
    const el = await mountTranscript(chat, ui);
    const s = el.shadowRoot!.querySelector<HTMLElement>('.scroller')!;
    for (let i = 0; i < 30; i++) chat.live.text += `\n\nparagraph ${i} of the answer`;
    chat.changed();
    await el.updateComplete;
    await new Promise((r) => setTimeout(r, 300));
    expect(s.scrollHeight - s.scrollTop - s.clientHeight).to.be.below(2);
    expect(markdownOf(el.shadowRoot!.querySelector('hermes-assistant-turn[data-live]')!).shadowRoot!.textContent).to.contain('paragraph 29');
  });

  it('opens at the last page and fetches earlier pages; fork and edit use stored indexes', async () => {
    const fetches = stubFetch({
      'GET /api/session': (call) => pagedSession(call),
      'POST /api/session/branch': { session_id: 'forked', title: 'f' },
      'GET /api/sessions': { sessions: [], total: 0, archived_count: 0 },
      'POST /api/session/truncate': { session: pagedSession({ url: '/api/session?msg_limit=1' }, TOTAL - 2).session },
      'POST /api/chat/start': { stream_id: 'st', session_id: 's1', title: 't', pending_started_at: 1 },
    });
    try {
      const chat = new ChatStore();
      await chat.open('s1');
      const first = new URL(fetches.calls[0]!.url, location.href);
      expect(first.searchParams.get('msg_limit')).to.equal(String(PAGE_SIZE));
      expect(chat.messages.length).to.equal(PAGE_SIZE);
      expect(chat.messageOffset).to.equal(TOTAL - PAGE_SIZE);
      expect(chat.hasEarlier).to.equal(true);

      expect(await chat.loadEarlier()).to.equal(PAGE_SIZE);
      const second = new URL(fetches.calls.at(-1)!.url, location.href);
      expect(second.searchParams.get('msg_before')).to.equal(String(TOTAL - PAGE_SIZE));
      expect(chat.messageOffset).to.equal(TOTAL - 2 * PAGE_SIZE);
      expect(chat.messages[0]!.content).to.equal(`question ${TOTAL - 2 * PAGE_SIZE}`);

      const el = await mountTranscript(chat);
      // Fork from the first rendered assistant turn: keep_count is its end in the stored transcript.
      const turn = el.shadowRoot!.querySelector<HTMLElement>('hermes-assistant-turn')!;
      const index = Number(turn.dataset.index);
      expect(index).to.be.greaterThan(TOTAL - 2 * PAGE_SIZE);
      turn.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="fork"]')!.click();
      await waitFor(() => fetches.calls.some((c) => c.url.includes('/api/session/branch')));
      expect(fetches.calls.find((c) => c.url.includes('/api/session/branch'))!.body).to.deep.equal({ session_id: 's1', keep_count: index + 1 });

      // Edit the last user message (stored index TOTAL - 2): the cut is there, not at its position in the page.
      const users = el.shadowRoot!.querySelectorAll<HTMLElement>('hermes-user-message');
      const lastUser = users[users.length - 1]!;
      expect(lastUser.dataset.index).to.equal(String(TOTAL - 2));
      lastUser.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="edit-message"]')!.click();
      await (lastUser as unknown as { updateComplete: Promise<unknown> }).updateComplete;
      lastUser.shadowRoot!.querySelector('textarea')!.value = 'a better question';
      lastUser.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="save-edit"]')!.click();
      await waitFor(() => fetches.calls.some((c) => c.url.includes('/api/chat/start')));
      expect(fetches.calls.find((c) => c.url.includes('/api/session/truncate'))!.body).to.deep.equal({ session_id: 's1', keep_count: TOTAL - 2 });
      // The pages loaded before the cut are still there.
      expect(chat.messageOffset).to.equal(TOTAL - 2 * PAGE_SIZE);
    } finally {
      fetches.restore();
    }
  });

  it('reveals a message in an unloaded page: loads the pages up to it and renders it', async () => {
    const fetches = stubFetch({
      'GET /api/session': (call) => pagedSession(call),
      'GET /api/session/find': { indexes: [42], count: 1, message_count: TOTAL },
    });
    try {
      const chat = new ChatStore();
      await chat.open('s1');
      const el = await mountTranscript(chat);
      expect(await chat.revealMatch('question 42')).to.equal(true);
      expect(chat.messageOffset).to.be.at.most(42);
      await el.updateComplete;
      await tick();
      const target = el.shadowRoot!.querySelector<HTMLElement>('[data-index="42"]')!;
      expect(target.hasAttribute('data-revealed')).to.equal(true);
      const box = el.shadowRoot!.querySelector('.scroller')!.getBoundingClientRect();
      const r = target.getBoundingClientRect();
      expect(r.top).to.be.at.least(box.top - 1);
      expect(r.top).to.be.below(box.bottom);
      // Bounded: far fewer turns rendered than loaded.
      expect(el.shadowRoot!.querySelectorAll('.turn').length).to.be.at.most(120);
      // Every request was a page (ten big steps at most, never the whole transcript).
      const pages = fetches.calls.filter((c) => new URL(c.url, location.href).pathname === '/api/session');
      expect(pages.every((c) => new URL(c.url, location.href).searchParams.has('msg_limit'))).to.equal(true);
      expect(pages.length, pages.map((c) => c.url).join(' ')).to.be.at.most(12);
    } finally {
      fetches.restore();
    }
  });

  it('merges what the server sends with the pages loaded, reusing unchanged messages', () => {
    const loaded = { offset: 4800, messages: stored(4800, 5000) };
    // `done` carries the whole transcript: the loaded range stays, objects kept.
    const whole = mergeWindow(loaded, { offset: 0, messages: stored(0, 5002) }, 5002);
    expect(whole.offset).to.equal(4800);
    expect(whole.messages.length).to.equal(202);
    expect(whole.messages[0]).to.equal(loaded.messages[0]);
    // A last page after an append joins the earlier pages.
    const tail = mergeWindow(loaded, { offset: 4902, messages: stored(4902, 5002) }, 5002);
    expect(tail.offset).to.equal(4800);
    expect(tail.messages.length).to.equal(202);
    // A cut far above the loaded range: only the new last page.
    const cut = mergeWindow(loaded, { offset: 0, messages: stored(0, 10) }, 10);
    expect(cut).to.deep.include({ offset: 0 });
    expect(cut.messages.length).to.equal(10);
  });
});
