import { LitElement, html } from 'lit';
import { cleanup, expect, fixture } from '../helpers.js';
import { TurnAnnouncer } from '../../../components/chat/turn-announcer.js';
import type { ChatStore } from '../../../components/state/chat-store.js';

class FakeChat extends EventTarget {
  status = 'idle';
  sessionId: string | null = 's1';
  messages: Array<Record<string, unknown>> = [];
  set(patch: Partial<FakeChat>): void {
    Object.assign(this, patch);
    this.dispatchEvent(new Event('change'));
  }
}

/** The region as hermes-chat-view renders it: one polite status fed by the announcer. */
class AnnouncerHost extends LitElement {
  chat?: FakeChat;
  announcer = new TurnAnnouncer(this, () => this.chat as unknown as ChatStore);
  override render() {
    return html`<div role="status" aria-live="polite" data-role="announcer">${this.announcer.text}</div>`;
  }
}
customElements.define('test-announcer-host', AnnouncerHost);

const region = (el: HTMLElement) => el.shadowRoot!.querySelector('[data-role="announcer"]')!;

/** Every text the region held, in order (what a screen reader would be handed). */
function record(el: HTMLElement): string[] {
  const seen: string[] = [];
  new MutationObserver(() => seen.push(region(el).textContent!.trim())).observe(region(el), { childList: true, characterData: true, subtree: true });
  return seen;
}

const settle = () => new Promise((r) => setTimeout(r, 50));
/** The announcer loads its words code on the first answer: wait for the region to speak. */
async function said(el: HTMLElement): Promise<string> {
  for (let i = 0; i < 100 && !region(el).textContent!.trim(); i++) await settle();
  return region(el).textContent!.trim();
}

describe('the chat’s polite live region', () => {
  afterEach(cleanup);

  it('stays silent while tokens stream, then says the finished answer once, as words', async () => {
    const chat = new FakeChat();
    const el = await fixture<AnnouncerHost>('test-announcer-host', { chat });
    const seen = record(el);
    chat.set({ status: 'running', messages: [{ role: 'user', content: 'hi' }] });
    for (const partial of ['The', 'The answer', 'The answer is **42**']) {
      chat.set({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: partial },
        ],
      });
      await el.updateComplete;
    }
    await settle();
    expect(seen).to.deep.equal([]);
    chat.set({
      status: 'idle',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'The answer is **42**.\n\n```js\nx()\n```' },
      ],
    });
    expect(await said(el)).to.equal('The answer is 42.\n\n(code block)');
    expect(seen).to.have.length(1);
  });

  it('says nothing for a cancelled turn, an error notice, or a turn of a chat the person left', async () => {
    const chat = new FakeChat();
    const el = await fixture<AnnouncerHost>('test-announcer-host', { chat });
    chat.set({ status: 'running' });
    chat.set({ status: 'idle', messages: [{ role: 'assistant', content: 'half an ans', _partial: true }] });
    chat.set({ status: 'running' });
    chat.set({ status: 'idle', messages: [{ role: 'assistant', content: 'Provider error', _error: true }] });
    chat.set({ status: 'running' });
    chat.set({ status: 'idle', sessionId: 'other', messages: [{ role: 'assistant', content: 'Another chat’s answer' }] });
    // A finished answer after them is said, so the silence above was not the loading.
    chat.set({ status: 'running' });
    chat.set({ status: 'idle', messages: [{ role: 'assistant', content: 'This one.' }] });
    expect(await said(el)).to.equal('This one.');
  });

  it('cuts a very long answer: the gist is said, the transcript holds the rest', async () => {
    const chat = new FakeChat();
    const el = await fixture<AnnouncerHost>('test-announcer-host', { chat });
    chat.set({ status: 'running' });
    chat.set({ status: 'idle', messages: [{ role: 'assistant', content: 'word '.repeat(400) }] });
    const text = await said(el);
    expect(text.length).to.equal(1001);
    expect(text.endsWith('…')).to.equal(true);
  });
});
