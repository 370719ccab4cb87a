import { cleanup, expect, fixture, stubFetch, waitFor } from '../helpers.js';
import { ContextProvider } from '@lit/context';
import '../../../components/chat/hermes-assistant-turn.js';
import '../../../components/chat/hermes-transcript.js';
import type { HermesAssistantTurn } from '../../../components/chat/hermes-assistant-turn.js';
import { groupTurns, type AssistantTurn } from '../../../components/state/turns.js';
import { ChatStore } from '../../../components/state/chat-store.js';
import { chatContext } from '../../../components/state/contexts.js';
import type { ApiSession } from '../../../components/api/client.js';
import { applyLanguage } from '../../../components/i18n/localization.js';
import { PlayedEventSource } from './played-event-source.js';
import { failureHintText } from '../../../components/chat/failure-hints.js';
import { FAILURE_HINTS, type FailureHintCode } from '../../../src/shared/server-texts.js';
import { failureHint } from '../../../src/shared/server-texts-en.js';

const ENGLISH = 'openrouter is rate-limiting requests; retry after 20 s (Retry-After).';
const GERMAN = 'openrouter begrenzt die Anfragen; erneut versuchen nach 20 s (Retry-After).';

/** A failed turn as the server stores it (a reload reads this): the English in the content, the code and values beside it. */
const failed = (extra: Record<string, unknown>) => [
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: `openrouter answered HTTP 429: Rate limit reached\n\n${ENGLISH}`, _error: true, error_type: 'rate_limit', ...extra },
];

async function mount(messages: Record<string, unknown>[]) {
  const turn = groupTurns(messages as never).find((t): t is AssistantTurn => t.kind === 'assistant')!;
  return fixture<HermesAssistantTurn>('hermes-assistant-turn', { turn, sessionId: 's1' });
}
const hint = (el: HTMLElement) => el.shadowRoot!.querySelector('.error-hint')?.textContent?.trim() ?? null;

describe("a failed turn's hint in the reader's language", () => {
  afterEach(async () => {
    cleanup();
    await applyLanguage('en');
    localStorage.removeItem('hermes:language');
  });

  it('a stored failure with a code: English, then German after a switch, the provider and the wait kept as values', async () => {
    const el = await mount(failed({ hint_code: 'provider_rate_limit_retry', hint_args: { provider: 'openrouter', wait: '20 s' } }));
    expect(hint(el)).to.equal(ENGLISH);
    // The server's own message stays as it sent it; only the hint has a code.
    expect(el.shadowRoot!.querySelector('.error-message')!.textContent!.trim()).to.equal('openrouter answered HTTP 429: Rate limit reached');
    await applyLanguage('de');
    await waitFor(() => hint(el) === GERMAN);
    await applyLanguage('en');
    await waitFor(() => hint(el) === ENGLISH);
  });

  it("a code this build does not know, or one missing a value, shows the server's English", async () => {
    await applyLanguage('de');
    const unknown = await mount(failed({ hint_code: 'provider_from_the_future', hint_args: { provider: 'openrouter' } }));
    expect(hint(unknown)).to.equal(ENGLISH);
    const missing = await mount(failed({ hint_code: 'provider_rate_limit_retry', hint_args: { provider: 'openrouter' } }));
    expect(hint(missing)).to.equal(ENGLISH);
    const none = await mount(failed({}));
    expect(hint(none)).to.equal(ENGLISH);
    // The same German page translates a known code (so the ones above fell back, not the page).
    const known = await mount(failed({ hint_code: 'provider_rate_limit_retry', hint_args: { provider: 'openrouter', wait: '20 s' } }));
    expect(hint(known)).to.equal(GERMAN);
  });

  it("every code the server can send: the English is the server's word for word, the German is German with the same values", async () => {
    const codes = Object.keys(FAILURE_HINTS) as FailureHintCode[];
    const sample = (c: FailureHintCode) => Object.fromEntries(FAILURE_HINTS[c].map((n) => [n, `<${n}>`]));
    const server = (c: FailureHintCode) => failureHint(c, sample(c) as never);
    const shown = (c: FailureHintCode) => failureHintText({ hint: 'fallback', hintCode: c, hintArgs: sample(c) });
    for (const c of codes) expect(shown(c), c).to.equal(server(c).text);
    await applyLanguage('de');
    for (const c of codes) {
      const text = shown(c)!;
      expect(text, c).to.not.equal(server(c).text);
      expect(text, c).to.not.equal('fallback');
      for (const value of server(c).text.match(/<\w+>/g) ?? []) expect(text, `${c} ${value}`).to.contain(value);
    }
  });

  describe('live, from the apperror event', () => {
    const original = window.EventSource;
    let wrapper: HTMLElement | null = null;
    let restore = () => {};
    beforeEach(() => {
      (window as unknown as { EventSource: unknown }).EventSource = PlayedEventSource;
    });
    afterEach(() => {
      window.EventSource = original;
      wrapper?.remove();
      wrapper = null;
      restore();
    });

    it('an apperror with hint_code shows the German hint in the live turn', async () => {
      await applyLanguage('de');
      const session = {
        session_id: 's1',
        title: 't',
        created_at: 1,
        updated_at: 1,
        message_count: 1,
        active_stream_id: 'st',
        pending_started_at: 100,
        messages: [{ role: 'user', content: 'hi', timestamp: 100 }],
      } as ApiSession;
      restore = stubFetch({ 'GET /api/session': { session } }).restore;
      const chat = new ChatStore();
      wrapper = document.createElement('div');
      new ContextProvider(wrapper, { context: chatContext, initialValue: chat });
      const el = document.createElement('hermes-transcript');
      wrapper.append(el);
      document.body.append(wrapper);
      await chat.open('s1');
      PlayedEventSource.last!.play('apperror', {
        message: 'Hermes Agent answered HTTP 429 to POST /v1/runs',
        type: 'rate_limit',
        hint: 'Hermes is already running as many turns as it allows (gateway.api_server.max_concurrent_runs in its config.yaml); retry after 5 s.',
        hint_code: 'gateway_busy_retry',
        hint_args: { wait: '5 s' },
        session_id: 's1',
      });
      const turnHint = () => {
        const turn = [...el.shadowRoot!.querySelectorAll('hermes-assistant-turn')].at(-1);
        return turn ? hint(turn as HTMLElement) : null;
      };
      await waitFor(
        () =>
          turnHint() ===
          'Hermes führt bereits so viele Durchläufe aus, wie es zulässt (gateway.api_server.max_concurrent_runs in seiner config.yaml); erneut versuchen nach 5 s.',
      );
      expect(chat.live?.error).to.deep.include({ hintCode: 'gateway_busy_retry' });
    });
  });
});
