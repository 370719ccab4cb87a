import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/composer/hermes-composer.js';
// The chips load at idle in the app; here they are defined before the first test looks at them.
import '../../../components/composer/hermes-queue-chips.js';
import type { HermesComposer } from '../../../components/composer/hermes-composer.js';
import { MessageQueue } from '../../../components/state/message-queue.js';
import { offlineCache } from '../../../components/offline/cache.js';
import type { SteerResult } from '../../../components/api/chat-controls.js';
import { runCommand } from '../../../components/composer/slash-commands.js';
import { CATALOG, makeStores, openSession, session, setStatus, type Stores } from './setup.js';

const $ = <T extends Element = HTMLElement>(root: Element, sel: string) => root.shadowRoot!.querySelector(sel) as T | null;
const input = (el: HermesComposer) => $<HTMLTextAreaElement>(el, '[data-role="composer-input"]')!;
const chipsOf = (el: HermesComposer) => $(el, 'hermes-queue-chips');
const chips = (el: HermesComposer) => [...(chipsOf(el)?.shadowRoot?.querySelectorAll<HTMLElement>('[data-role="queued-message"]') ?? [])];
const chipTexts = (el: HermesComposer) => chips(el).map((c) => c.querySelector('[data-role="queued-edit"]')?.textContent?.trim());
// This page's own storage: localStorage is shared with the test files running beside this one.
const messageQueue = new MessageQueue(sessionStorage);
const queued = () => messageQueue.list('s1').map((m) => m.text);

async function type(el: HermesComposer, text: string) {
  const ta = input(el);
  ta.value = text;
  ta.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  await el.updateComplete;
}

async function enter(el: HermesComposer) {
  input(el).dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true }));
  await el.updateComplete;
  await new Promise((r) => setTimeout(r, 0));
}

describe('hermes-composer while a turn runs (busy input)', () => {
  let s: Stores;
  let fetchStub: ReturnType<typeof stubFetch>;
  /** Whether the pretend server has a turn running in s1 (what the drain's idle check reads). */
  let serverBusy: boolean;
  let steers: string[];

  beforeEach(async () => {
    sessionStorage.clear();
    offlineCache.saveDraft('s1', '');
    await offlineCache.flush();
    serverBusy = false;
    steers = [];
    fetchStub = stubFetch({
      'GET /api/models': CATALOG,
      'GET /api/workspaces': { workspaces: [], last: '/home/me' },
      'GET /api/session': () => ({ session: session('s1', { active_stream_id: serverBusy ? 'r1' : null }) }),
    });
    s = makeStores();
    // A send starts a turn: the store runs until the test ends it.
    s.chat.send = async (text, options = {}) => {
      s.sent.push({ text, options });
      serverBusy = true;
      setStatus(s.chat, 'running');
    };
  });
  afterEach(() => {
    cleanup();
    fetchStub.restore();
    sessionStorage.clear();
  });

  const mount = async (settings: Record<string, unknown> = {}) => {
    Object.assign(s.ui.settings!, settings);
    openSession(s.chat, session('s1'));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions, messageQueue });
    setStatus(s.chat, 'running');
    serverBusy = true;
    await el.updateComplete;
    return el;
  };
  const endTurn = async (el: HermesComposer) => {
    serverBusy = false;
    setStatus(s.chat, 'idle');
    await el.updateComplete;
  };
  const steerWith = (answer: SteerResult | Error) => {
    s.chat.steer = async (text) => {
      steers.push(text);
      if (answer instanceof Error) throw answer;
      return answer;
    };
  };

  it('keeps Stop beside Send, and the placeholder says what Send will do in each mode', async () => {
    const el = await mount();
    expect($(el, '[data-role="stop"]')).to.exist;
    expect($(el, '[data-role="send-busy"]')).to.exist;
    expect($(el, 'hermes-send-mode')!.shadowRoot!.querySelector('[data-role="send-mode"]')).to.exist;
    expect(input(el).placeholder).to.equal('Hermes is working… Send steers this turn');
    s.ui.settings = { ...s.ui.settings!, default_message_mode: 'queue' };
    el.requestUpdate();
    await el.updateComplete;
    expect(input(el).placeholder).to.equal('Hermes is working… Send queues for after this turn');
    s.ui.settings = { ...s.ui.settings!, default_message_mode: 'interrupt' };
    el.requestUpdate();
    await el.updateComplete;
    expect(input(el).placeholder).to.equal('Hermes is working… Send stops this turn and sends');
  });

  it('steer (the default): an accepted steer clears the input; nothing is queued', async () => {
    steerWith({ accepted: true, stream_id: 'r1' });
    const el = await mount();
    await type(el, 'also check the tests');
    await enter(el);
    await waitFor(() => steers.length === 1);
    expect(steers).to.deep.equal(['also check the tests']);
    expect(input(el).value).to.equal('');
    expect(queued()).to.deep.equal([]);
    expect(s.sent).to.have.length(0);
  });

  it('steer refused (gateway): the message is queued and a quiet toast says why', async () => {
    steerWith({ accepted: false, fallback: 'gateway_steer_queued', stream_id: 'r1' });
    const el = await mount();
    await type(el, 'after this');
    await enter(el);
    await waitFor(() => queued().length === 1);
    expect(queued()).to.deep.equal(['after this']);
    expect(s.toasts.at(-1)).to.deep.equal({ message: 'Hermes Agent cannot take messages mid-turn: queued for after this turn.', kind: 'info' });
    expect(chipTexts(el)).to.deep.equal(['after this']);
  });

  it('steer refused because the turn just ended: sent as a normal message', async () => {
    const el = await mount();
    s.chat.steer = async (text) => {
      steers.push(text);
      // The run's end arrives while the steer is on its way.
      serverBusy = false;
      setStatus(s.chat, 'idle');
      return { accepted: false, fallback: 'not_running', stream_id: null };
    };
    await type(el, 'late words');
    await enter(el);
    await waitFor(() => s.sent.length === 1);
    expect(s.sent[0]!.text).to.equal('late words');
    expect(queued()).to.deep.equal([]);
  });

  it('a steer that fails keeps the text in the input', async () => {
    steerWith(new Error('Network down'));
    const el = await mount();
    await type(el, 'keep me');
    await enter(el);
    await waitFor(() => s.toasts.some((t) => t.kind === 'error'));
    expect(input(el).value).to.equal('keep me');
    expect(queued()).to.deep.equal([]);
  });

  it('the send menu switches the mode for one message; the queue drains after the turn, in order, once', async () => {
    steerWith({ accepted: true });
    const el = await mount();
    const menu = $(el, 'hermes-send-mode')!;
    for (const text of ['first queued', 'second queued']) {
      menu.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="send-mode"]')!.click();
      await (menu as unknown as HermesComposer).updateComplete;
      menu.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="send-mode-option"][data-mode="queue"]')!.click();
      await el.updateComplete;
      expect(input(el).placeholder).to.contain('queues');
      await type(el, text);
      await enter(el);
      // Back to the setting (steer) for the next message.
      expect(input(el).placeholder).to.contain('steers');
    }
    expect(queued()).to.deep.equal(['first queued', 'second queued']);
    expect(steers).to.deep.equal([]);
    await endTurn(el);
    await waitFor(() => s.sent.length === 1);
    expect(s.sent.map((x) => x.text)).to.deep.equal(['first queued']);
    expect(queued()).to.deep.equal(['second queued']);
    await endTurn(el);
    await waitFor(() => s.sent.length === 2);
    await endTurn(el);
    await new Promise((r) => setTimeout(r, 100));
    expect(s.sent.map((x) => x.text)).to.deep.equal(['first queued', 'second queued']);
    expect(sessionStorage.getItem('hermes-queue-s1')).to.equal(null);
  });

  it('interrupt: the message goes first in the queue, the turn is cancelled, and it is sent once stopped', async () => {
    const el = await mount({ default_message_mode: 'interrupt' });
    messageQueue.add('s1', { text: 'waiting already' });
    await type(el, 'stop and do this');
    await enter(el);
    await waitFor(() => s.cancelled === 1);
    expect(queued()).to.deep.equal(['stop and do this', 'waiting already']);
    await endTurn(el);
    await waitFor(() => s.sent.length === 1);
    expect(s.sent[0]!.text).to.equal('stop and do this');
  });

  it('/queue and /interrupt while running; idle, they send normally', async () => {
    const el = await mount();
    await type(el, '/queue later please');
    await enter(el);
    await waitFor(() => queued().length === 1);
    await type(el, '/interrupt right now');
    await enter(el);
    await waitFor(() => s.cancelled === 1);
    expect(queued()).to.deep.equal(['right now', 'later please']);
    expect(input(el).value).to.equal('');
    messageQueue.clear('s1');
    await endTurn(el);
    await type(el, '/queue nothing runs');
    await enter(el);
    await waitFor(() => s.sent.length === 1);
    expect(s.sent[0]!.text).to.equal('nothing runs');
    expect(queued()).to.deep.equal([]);
  });

  it('chips: edit (Enter saves, Escape cancels), reorder with the buttons, remove', async () => {
    const el = await mount({ default_message_mode: 'queue' });
    for (const text of ['alpha', 'beta', 'gamma']) {
      await type(el, text);
      await enter(el);
    }
    await el.updateComplete;
    const host = chipsOf(el)!;
    const update = async () => {
      await el.updateComplete;
      await (host as unknown as HermesComposer).updateComplete;
    };
    await update();
    expect(chipTexts(el)).to.deep.equal(['alpha', 'beta', 'gamma']);
    chips(el)[2]!.querySelector<HTMLButtonElement>('[data-role="queued-up"]')!.click();
    await update();
    expect(chipTexts(el)).to.deep.equal(['alpha', 'gamma', 'beta']);
    expect(queued()).to.deep.equal(['alpha', 'gamma', 'beta']);
    expect(chips(el)[0]!.querySelector<HTMLButtonElement>('[data-role="queued-up"]')!.disabled).to.equal(true);
    chips(el)[0]!.querySelector<HTMLButtonElement>('[data-role="queued-down"]')!.click();
    await update();
    expect(queued()).to.deep.equal(['gamma', 'alpha', 'beta']);

    chips(el)[1]!.querySelector<HTMLButtonElement>('[data-role="queued-edit"]')!.click();
    await update();
    const field = host.shadowRoot!.querySelector<HTMLTextAreaElement>('[data-role="queued-edit-input"]')!;
    expect(host.shadowRoot!.activeElement).to.equal(field);
    field.value = 'alpha, reworded';
    field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    await update();
    expect(queued()).to.deep.equal(['gamma', 'alpha, reworded', 'beta']);
    chips(el)[0]!.querySelector<HTMLButtonElement>('[data-role="queued-edit"]')!.click();
    await update();
    const again = host.shadowRoot!.querySelector<HTMLTextAreaElement>('[data-role="queued-edit-input"]')!;
    again.value = 'discarded';
    again.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    await update();
    expect(queued()).to.deep.equal(['gamma', 'alpha, reworded', 'beta']);

    chips(el)[2]!.querySelector<HTMLButtonElement>('[data-role="queued-remove"]')!.click();
    await update();
    expect(chipTexts(el)).to.deep.equal(['gamma', 'alpha, reworded']);
  });

  it('chips reorder by dragging', async () => {
    const el = await mount({ default_message_mode: 'queue' });
    for (const text of ['one', 'two', 'three']) messageQueue.add('s1', { text });
    await el.updateComplete;
    const host = chipsOf(el)!;
    await (host as unknown as HermesComposer).updateComplete;
    const data = new DataTransfer();
    chips(el)[2]!.dispatchEvent(new DragEvent('dragstart', { dataTransfer: data, bubbles: true }));
    const over = new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true });
    chips(el)[0]!.dispatchEvent(over);
    expect(over.defaultPrevented).to.equal(true);
    chips(el)[0]!.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    await el.updateComplete;
    expect(queued()).to.deep.equal(['three', 'one', 'two']);
  });

  it('a queue left from before a reload drains once the session is idle; not while another tab runs a turn', async () => {
    messageQueue.add('s1', { text: 'from before the reload' });
    openSession(s.chat, session('s1'));
    // Another tab has started a turn here: the server says busy, so nothing is sent.
    serverBusy = true;
    let reloads = 0;
    s.chat.reload = async () => void reloads++;
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions, messageQueue });
    await waitFor(() => reloads === 1);
    expect(s.sent).to.have.length(0);
    expect(chipTexts(el)).to.deep.equal(['from before the reload']);
    // That turn ends (this tab followed it): the entry goes now.
    setStatus(s.chat, 'running');
    await el.updateComplete;
    await endTurn(el);
    await waitFor(() => s.sent.length === 1, 2000);
    expect(s.sent[0]!.text).to.equal('from before the reload');
  });
});

describe('/queue and /interrupt without a message', () => {
  it('say what is missing and send nothing', async () => {
    const s = makeStores();
    const calls: unknown[] = [];
    const ctx = {
      chat: s.chat,
      ui: s.ui,
      sessions: s.sessions,
      host: document.createElement('div'),
      models: [],
      currentModel: () => null,
      setModel: async () => {},
      setText: () => {},
      restoreAttachments: () => {},
      sendAs: async (...args: unknown[]) => void calls.push(args),
    };
    expect(await runCommand(ctx, '/queue')).to.equal(false);
    expect(await runCommand(ctx, '/interrupt   ')).to.equal(false);
    expect(s.toasts.map((t) => t.message)).to.deep.equal(['Type the message after /queue.', 'Type the message after /interrupt.']);
    expect(calls).to.deep.equal([]);
    expect(await runCommand(ctx, '/queue go on')).to.equal(true);
    expect(calls).to.deep.equal([['queue', 'go on']]);
  });
});
