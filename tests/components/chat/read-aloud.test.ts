import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/chat/hermes-assistant-turn.js';
import type { HermesAssistantTurn } from '../../../components/chat/hermes-assistant-turn.js';
import type { AssistantTurn } from '../../../components/state/turns.js';
import { UiStore } from '../../../components/state/ui-store.js';
import { speakableText } from '../../../components/chat/speakable-text.js';

/**
 * "Read aloud" on an answer. The browser engine speaks through speechSynthesis (a recording
 * stand-in here: headless Chromium has no voices); a server engine posts to /api/tts and plays
 * the audio it answers in a real <audio>.
 */
const turn = (text: string): AssistantTurn => ({ kind: 'assistant', index: 0, end: 2, text, reasoning: '', tools: [], warnings: [] });

/** A speechSynthesis that keeps what it was asked to say; `finish()` ends the current utterance. */
class FakeSynthesis {
  spoken: SpeechSynthesisUtterance[] = [];
  cancels = 0;
  speak(u: SpeechSynthesisUtterance) {
    this.spoken.push(u);
  }
  cancel() {
    this.cancels++;
    const last = this.spoken.at(-1);
    last?.onerror?.({ error: 'interrupted' } as SpeechSynthesisErrorEvent);
  }
  getVoices() {
    return [];
  }
  finish() {
    this.spoken.at(-1)?.onend?.({} as SpeechSynthesisEvent);
  }
}

/** A WAV of 0.2 s of silence: something <audio> can really play. */
function silentWav(): Blob {
  const rate = 8000;
  const samples = rate / 5;
  const buf = new DataView(new ArrayBuffer(44 + samples));
  const text = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) buf.setUint8(at + i, s.charCodeAt(i));
  };
  text(0, 'RIFF');
  buf.setUint32(4, 36 + samples, true);
  text(8, 'WAVEfmt ');
  buf.setUint32(16, 16, true);
  buf.setUint16(20, 1, true);
  buf.setUint16(22, 1, true);
  buf.setUint32(24, rate, true);
  buf.setUint32(28, rate, true);
  buf.setUint16(32, 1, true);
  buf.setUint16(34, 8, true);
  text(36, 'data');
  buf.setUint32(40, samples, true);
  for (let i = 0; i < samples; i++) buf.setUint8(44 + i, 128);
  return new Blob([buf.buffer], { type: 'audio/wav' });
}

describe('read aloud', () => {
  let fake: FakeSynthesis;
  let fetchStub: ReturnType<typeof stubFetch> | null = null;
  const real = Object.getOwnPropertyDescriptor(window, 'speechSynthesis');

  beforeEach(() => {
    fake = new FakeSynthesis();
    Object.defineProperty(window, 'speechSynthesis', { configurable: true, value: fake });
  });
  afterEach(() => {
    cleanup();
    fetchStub?.restore();
    fetchStub = null;
    if (real) Object.defineProperty(window, 'speechSynthesis', real);
  });

  const mount = (text: string, settings: Record<string, unknown> = {}) => {
    const ui = new UiStore();
    ui.settings = { theme: 'dark', send_key: 'enter', show_thinking: true, font_size: 'default', default_workspace: '/', bot_name: 'Hermes', ...settings };
    return fixture<HermesAssistantTurn>('hermes-assistant-turn', { turn: turn(text), ui, sessionId: 's1' });
  };
  const button = (el: HermesAssistantTurn) => el.shadowRoot!.querySelector('[data-role="read-aloud"]') as HTMLButtonElement;

  it('speaks the answer without its markdown in the browser voice, at the set rate; click again stops', async () => {
    const el = await mount('## Result\n\nThe **build** passed, see [the log](https://ci/1).', { tts_rate: 1.5, tts_pitch: 0.8 });
    expect(button(el).getAttribute('aria-label')).to.equal('Read aloud');
    button(el).click();
    await waitFor(() => fake.spoken.length === 1);
    expect(fake.spoken[0]!.text).to.equal('Result\n\nThe build passed, see the log.');
    expect(fake.spoken[0]!.rate).to.equal(1.5);
    expect(fake.spoken[0]!.pitch).to.be.closeTo(0.8, 0.001);
    await waitFor(() => button(el).getAttribute('aria-pressed') === 'true');
    expect(button(el).getAttribute('aria-label')).to.equal('Stop reading');
    button(el).click();
    await waitFor(() => button(el).getAttribute('aria-pressed') === 'false');
    expect(fake.cancels).to.be.greaterThan(0);
  });

  it('goes back to "Read aloud" when the voice finishes', async () => {
    const el = await mount('Short answer.');
    button(el).click();
    await waitFor(() => button(el).getAttribute('aria-pressed') === 'true');
    fake.finish();
    await waitFor(() => button(el).getAttribute('aria-pressed') === 'false');
    expect(el.shadowRoot!.querySelector('[data-role="read-aloud-error"]')).to.equal(null);
  });

  it('a server engine posts {text, engine, voice} to /api/tts and plays the audio it answers', async () => {
    let played = 0;
    fetchStub = stubFetch({ 'POST /api/tts': () => new Response(silentWav(), { status: 200, headers: { 'content-type': 'audio/wav' } }) });
    const el = await mount('Say `this` aloud.', { tts_engine: 'openai', tts_voice: 'nova' });
    const realPlay = HTMLMediaElement.prototype.play;
    // Counted on the way to the real play().
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      played++;
      return realPlay.call(this);
    };
    try {
      button(el).click();
      await waitFor(() => fetchStub!.calls.some((c) => c.url.endsWith('/api/tts')));
      const call = fetchStub.calls.find((c) => c.url.endsWith('/api/tts'))!;
      expect(call.body).to.deep.equal({ text: 'Say this aloud.', engine: 'openai', voice: 'nova' });
      await waitFor(() => played === 1);
      expect(fake.spoken).to.have.length(0);
    } finally {
      HTMLMediaElement.prototype.play = realPlay;
    }
  });

  it("shows the server's refusal quietly under the answer", async () => {
    fetchStub = stubFetch({ 'POST /api/tts': () => new Response(JSON.stringify({ error: 'OpenAI API key not configured' }), { status: 503 }) });
    const el = await mount('Hello.', { tts_engine: 'openai' });
    button(el).click();
    await waitFor(() => !!el.shadowRoot!.querySelector('[data-role="read-aloud-error"]'));
    expect(el.shadowRoot!.querySelector('[data-role="read-aloud-error"]')!.textContent).to.equal('OpenAI API key not configured');
    expect(button(el).getAttribute('aria-pressed')).to.equal('false');
  });

  it('speakableText drops code blocks, tables and marks', () => {
    expect(speakableText('Run:\n\n```sh\nnpm test\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- *one*\n- two')).to.equal(
      'Run:\n\n(code block)\n\n(table)\n\none\ntwo',
    );
  });
});
