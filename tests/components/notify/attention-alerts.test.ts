import { LitElement } from 'lit';
import { cleanup, expect, fixture } from '../helpers.js';
import { TurnAlerts, type AlertOutputs, type Attention } from '../../../components/chat/turn-alerts.js';
import { approvalPayload, clarifyPayload, taskPayload } from '../../../components/chat/attention-notify.js';
import { UiStore } from '../../../components/state/ui-store.js';
import type { ChatStore } from '../../../components/state/chat-store.js';
import type { Settings } from '../../../components/api/client.js';
import { emit } from '../../../components/events.js';
import { notificationTag, parsePushPayload } from '../../../src/shared/push-payload.js';

class FakeChat extends EventTarget {
  status = 'idle';
  sessionId: string | null = 's1';
  messages: Array<Record<string, unknown>> = [];
  error: string | null = null;
  approval: Record<string, unknown> | null = null;
  clarify: Record<string, unknown> | null = null;
  set(patch: Partial<FakeChat>): void {
    Object.assign(this, patch);
    this.dispatchEvent(new Event('change'));
  }
}

class AttentionHost extends LitElement {
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
customElements.define('test-attention-host', AttentionHost);

const APPROVAL = { approval_id: 'ap1', command: 'rm -rf build', description: 'recursive delete', pattern_keys: ['rm'], choices: ['once', 'deny'] };

function setup(settings: Partial<Settings>, hidden = true) {
  const told: Array<{ what: Attention; bot: string }> = [];
  let opener: ((sid: string | null) => void) | undefined;
  const outputs: AlertOutputs = {
    chime: () => {},
    notify: () => {},
    hidden: () => hidden,
    attention: (what, bot, open) => {
      told.push({ what, bot });
      opener = open;
    },
  };
  const ui = new UiStore();
  ui.settings = { theme: 'dark', send_key: 'enter', show_thinking: true, font_size: 'default', default_workspace: '', bot_name: 'Ada', ...settings };
  return { told, outputs, ui, chat: new FakeChat(), open: (sid: string | null) => opener?.(sid) };
}

const changed = (reason: string, session_id?: string) =>
  emit(window, 'hermes-sessions-changed', { type: 'sessions_changed', reason: reason as never, ...(session_id ? { session_id } : {}) });

describe('notifications for what waits or finishes out of sight', () => {
  afterEach(cleanup);

  it('tells once about the open chat’s approval, then its question', async () => {
    const s = setup({ notifications_enabled: true });
    await fixture('test-attention-host', s);
    s.chat.set({ status: 'running', approval: APPROVAL });
    s.chat.set({ messages: [{ role: 'user', content: 'x' }] });
    s.chat.set({ approval: null, clarify: { clarify_id: 'c1', question: 'Which?', choices_offered: [] } });
    expect(s.told.map((t) => [t.what.kind, t.bot])).to.deep.equal([
      ['pending', 'Ada'],
      ['pending', 'Ada'],
    ]);
    expect((s.told[0]!.what as { approval: unknown }).approval).to.deep.equal(APPROVAL);
    expect((s.told[1]!.what as { clarify: { clarify_id: string } }).clarify.clarify_id).to.equal('c1');
  });

  it('tells about other sessions waiting and task runs, never the open one twice, nothing in sight or with the setting off', async () => {
    const s = setup({ notifications_enabled: true });
    await fixture('test-attention-host', s);
    changed('attention_pending', 'other');
    changed('attention_pending', 's1');
    changed('session_rename', 'other');
    changed('cron_complete');
    expect(s.told.map((t) => t.what)).to.deep.equal([{ kind: 'session', sessionId: 'other' }, { kind: 'tasks' }]);
    cleanup();
    const visible = setup({ notifications_enabled: true }, false);
    await fixture('test-attention-host', visible);
    visible.chat.set({ approval: APPROVAL });
    changed('attention_pending', 'other');
    expect(visible.told).to.deep.equal([]);
    cleanup();
    const off = setup({});
    await fixture('test-attention-host', off);
    off.chat.set({ approval: APPROVAL });
    changed('cron_complete');
    expect(off.told).to.deep.equal([]);
  });

  it('opens the session a notification click asks for (the service worker’s message too)', async () => {
    const s = setup({ notifications_enabled: true });
    const host = await fixture<HTMLElement>('test-attention-host', s);
    const opened: Array<string | null> = [];
    host.addEventListener('hermes-open-session', (e) => opened.push((e as CustomEvent).detail.sessionId));
    changed('attention_pending', 'other');
    s.open('other');
    navigator.serviceWorker.dispatchEvent(new MessageEvent('message', { data: { type: 'hermes-open-session', session_id: 'from-worker' } }));
    navigator.serviceWorker.dispatchEvent(new MessageEvent('message', { data: { type: 'something-else', session_id: 'x' } }));
    expect(opened).to.deep.equal(['other', 'from-worker']);
  });

  it('builds the notifications a push for the same thing would carry (same tags, approval buttons)', () => {
    const a = approvalPayload('s1', APPROVAL, 'Ada');
    expect(a.tag).to.equal(notificationTag('approval', 's1'));
    expect(a.body).to.equal('recursive delete: rm -rf build');
    // What the page shows is exactly what the worker accepts from a push.
    expect(parsePushPayload(a)).to.deep.equal(a);
    const c = clarifyPayload('s1', { clarify_id: 'c1', question: 'Which colour?', choices_offered: [] }, 'Ada');
    expect([c.title, c.tag, c.actions]).to.deep.equal(['Ada has a question', notificationTag('clarify', 's1'), undefined]);
    const t = taskPayload({ job_id: 'j1', name: 'Inbox summary', status: 'ok', completed_at: 1, session_id: 's9' });
    expect([t.title, t.tag, t.data.url]).to.deep.equal(['Task finished: Inbox summary', notificationTag('task', 'j1'), '/session/s9']);
    expect(taskPayload({ job_id: 'j1', name: 'x', status: 'error', completed_at: 1 }).title).to.equal('Task failed: x');
  });
});
