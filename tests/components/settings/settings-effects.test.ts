import { LitElement } from 'lit';
import { cleanup, expect, fixture, waitFor } from '../helpers.js';
import '../../../components/chat/hermes-user-message.js';
import '../../../components/chat/hermes-activity.js';
import '../../../components/sidebar/hermes-session-row.js';
import '../../../components/sidebar/hermes-session-list.js';
import '../../../components/app/hermes-update-prompt.js';
import type { HermesUserMessage } from '../../../components/chat/hermes-user-message.js';
import type { HermesActivity } from '../../../components/chat/hermes-activity.js';
import type { HermesSessionRow } from '../../../components/sidebar/hermes-session-row.js';
import type { HermesSessionList } from '../../../components/sidebar/hermes-session-list.js';
import type { HermesUpdatePrompt } from '../../../components/app/hermes-update-prompt.js';
import { rowMeta } from '../../../components/sidebar/hermes-session-row.js';
import { TurnAlerts, answerPreview, type AlertOutputs } from '../../../components/chat/turn-alerts.js';
import { userJumpTarget } from '../../../components/chat/user-jumps.js';
import { UpdateStore } from '../../../components/offline/sw-register.js';
import { UiStore } from '../../../components/state/ui-store.js';
import type { ChatStore } from '../../../components/state/chat-store.js';
import type { Settings } from '../../../components/api/client.js';
import { groupTurns, type AssistantTurn, type UserTurn } from '../../../components/state/turns.js';

function uiWith(settings: Partial<Settings>): UiStore {
  const ui = new UiStore();
  ui.settings = { theme: 'dark', send_key: 'enter', show_thinking: true, font_size: 'default', default_workspace: '', bot_name: 'Hermes', ...settings };
  return ui;
}

/** Changes settings the way a save does: the stores' subscribers re-render. */
function change(ui: UiStore, patch: Partial<Settings>): void {
  ui.settings = { ...ui.settings!, ...patch };
  ui.dispatchEvent(new Event('change'));
}

afterEach(cleanup);

describe('render_user_markdown', () => {
  const turn = groupTurns([{ role: 'user', content: 'Use **bold** and `code`' }])[0] as UserTurn;

  it('shows the message as typed when off, formatted when on, and follows the setting live', async () => {
    const ui = uiWith({});
    const el = await fixture<HermesUserMessage>('hermes-user-message', { turn, ui });
    const bubble = () => el.shadowRoot!.querySelector<HTMLElement>('.bubble')!;
    expect(bubble().dataset.format).to.equal('plain');
    expect(bubble().textContent).to.contain('**bold**');
    change(ui, { render_user_markdown: true });
    await el.updateComplete;
    expect(bubble().dataset.format).to.equal('markdown');
    const md = bubble().querySelector('hermes-markdown')!;
    await waitFor(() => !!md.shadowRoot?.querySelector('strong'));
    expect(md.shadowRoot!.querySelector('strong')!.textContent).to.equal('bold');
    expect(md.shadowRoot!.querySelector('code')!.textContent).to.equal('code');
  });
});

describe('sidebar_density', () => {
  const row = {
    session_id: 's1',
    title: 'Plan',
    message_count: 12,
    model: 'anthropic/claude-sonnet-4.6',
    session_source: 'telegram',
    pinned: false,
    archived: false,
  } as never;

  it('a detailed row carries a second line with messages, model and source; a compact one does not', async () => {
    expect(rowMeta(row)).to.equal('12 messages · claude-sonnet-4.6 · telegram');
    const compact = await fixture<HermesSessionRow>('hermes-session-row', { row });
    expect(compact.shadowRoot!.querySelector('[data-role="session-meta"]')).to.equal(null);
    const detailed = await fixture<HermesSessionRow>('hermes-session-row', { row, detailed: true });
    expect(detailed.shadowRoot!.querySelector('[data-role="session-meta"]')!.textContent).to.equal('12 messages · claude-sonnet-4.6 · telegram');
  });

  it('the list makes detailed rows taller', async () => {
    const list = await fixture<HermesSessionList>('hermes-session-list');
    const compact = list.rowHeight;
    list.density = 'detailed';
    expect(list.rowHeight).to.be.greaterThan(compact);
  });
});

describe('worklog_details_expanded_default', () => {
  const turn = groupTurns([
    { role: 'user', content: 'go' },
    { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'x' },
    { role: 'assistant', content: 'Done.' },
  ]).find((t): t is AssistantTurn => t.kind === 'assistant')!;

  it('opens the activity row by default only with the setting on', async () => {
    const closed = await fixture<HermesActivity>('hermes-activity', { turn, sessionId: 'wl-off', ui: uiWith({}) });
    expect(closed.shadowRoot!.querySelector('[data-role="activity"]')!.getAttribute('data-open')).to.equal('false');
    const open = await fixture<HermesActivity>('hermes-activity', { turn, sessionId: 'wl-on', ui: uiWith({ worklog_details_expanded_default: true }) });
    expect(open.shadowRoot!.querySelector('[data-role="activity"]')!.getAttribute('data-open')).to.equal('true');
  });
});

describe('check_for_updates', () => {
  it('shows the update notice when a new build waits, and nothing (and no checking) with the setting off', async () => {
    const store = new UpdateStore();
    store.setWaiting({} as ServiceWorker);
    const ui = uiWith({});
    const el = await fixture<HermesUpdatePrompt>('hermes-update-prompt', { store, ui });
    expect(el.shadowRoot!.querySelector('[data-role="update-prompt"]')).to.not.equal(null);
    expect(store.checking).to.equal(true);
    change(ui, { check_for_updates: false });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[data-role="update-prompt"]')).to.equal(null);
    expect(store.checking).to.equal(false);
  });
});

/** A chat store's surface the alerts watch: status, session, messages, error. */
class FakeChat extends EventTarget {
  status = 'idle';
  sessionId: string | null = 's1';
  messages: Array<Record<string, unknown>> = [{ role: 'user', content: 'hi' }];
  error: string | null = null;
  set(patch: Partial<FakeChat>): void {
    Object.assign(this, patch);
    this.dispatchEvent(new Event('change'));
  }
}

class AlertsHost extends LitElement {
  chat?: FakeChat;
  ui?: UiStore;
  outputs!: AlertOutputs;
  alerts?: TurnAlerts;
  override connectedCallback(): void {
    this.alerts ??= new TurnAlerts(
      this,
      () => this.chat as unknown as ChatStore,
      () => this.ui,
      this.outputs,
    );
    super.connectedCallback();
  }
}
customElements.define('test-alerts-host', AlertsHost);

describe('sound_enabled and notifications_enabled', () => {
  function setup(settings: Partial<Settings>, hidden = false) {
    const log: string[] = [];
    const outputs: AlertOutputs = { chime: () => log.push('chime'), notify: (title, body) => log.push(`notify ${title} | ${body}`), hidden: () => hidden };
    return { log, outputs, ui: uiWith(settings), chat: new FakeChat() };
  }
  const finish = (chat: FakeChat, last: Record<string, unknown>) => {
    chat.set({ status: 'running' });
    chat.set({ status: 'idle', messages: [...chat.messages, last] });
  };

  it('chimes when an answer completes, not for a cancel, an error, or with the setting off', async () => {
    const on = setup({ sound_enabled: true });
    await fixture('test-alerts-host', on);
    finish(on.chat, { role: 'assistant', content: 'Done.' });
    expect(on.log).to.deep.equal(['chime']);
    finish(on.chat, { role: 'assistant', content: 'Half', _partial: true });
    on.chat.set({ status: 'running' });
    on.chat.set({ status: 'idle', error: 'provider down' });
    expect(on.log).to.deep.equal(['chime']);
    const off = setup({});
    await fixture('test-alerts-host', off);
    finish(off.chat, { role: 'assistant', content: 'Done.' });
    expect(off.log).to.deep.equal([]);
  });

  it('notifies only when the page is out of sight, with the answer’s first words', async () => {
    const seen = setup({ notifications_enabled: true, bot_name: 'Ada' });
    await fixture('test-alerts-host', seen);
    finish(seen.chat, { role: 'assistant', content: 'Done.' });
    expect(seen.log).to.deep.equal([]);
    const away = setup({ notifications_enabled: true, bot_name: 'Ada' }, true);
    await fixture('test-alerts-host', away);
    finish(away.chat, { role: 'assistant', content: `The plan:\n\n${'x'.repeat(200)}` });
    expect(away.log).to.have.length(1);
    expect(away.log[0]).to.match(/^notify Ada: response complete \| The plan: x+…$/);
    expect(answerPreview([{ role: 'assistant', content: 'a'.repeat(150) }] as never)).to.have.length(101);
  });
});

describe('session_jump_buttons', () => {
  it('finds the previous and next user message from the top of the view', async () => {
    const scroller = document.createElement('div');
    scroller.style.cssText = 'height: 200px; overflow-y: auto; position: relative';
    const msgs = [0, 1, 2, 3].map((i) => {
      const m = document.createElement('div');
      m.style.height = '300px';
      m.textContent = `m${i}`;
      scroller.append(m);
      return m;
    });
    document.body.append(scroller);
    try {
      scroller.scrollTop = 450; // in the middle of m1
      expect(userJumpTarget(scroller, msgs, 'prev')?.textContent).to.equal('m1');
      expect(userJumpTarget(scroller, msgs, 'next')?.textContent).to.equal('m2');
      scroller.scrollTop = 600; // m2 at the top
      expect(userJumpTarget(scroller, msgs, 'prev')?.textContent).to.equal('m1');
      expect(userJumpTarget(scroller, msgs, 'next')?.textContent).to.equal('m3');
      scroller.scrollTop = 0;
      expect(userJumpTarget(scroller, msgs, 'prev')).to.equal(null);
    } finally {
      scroller.remove();
    }
  });
});
