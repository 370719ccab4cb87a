import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/composer/hermes-composer.js';
import type { HermesComposer } from '../../../components/composer/hermes-composer.js';
import type { HermesDictationButton } from '../../../components/composer/hermes-dictation-button.js';
import { offlineCache } from '../../../components/offline/cache.js';
import { CATALOG, makeStores, openSession, session, type Stores } from './setup.js';

/**
 * The composer's mic. Headless Chromium has no microphone and no speech service, so the browser
 * parts are stand-ins here (a SpeechRecognition, a MediaRecorder and getUserMedia); the server's
 * side, /api/transcribe against a real provider, is tests/compat/voice.test.ts and the e2e.
 */

/** A SpeechRecognition that the test speaks into. */
class FakeRecognition {
  static all: FakeRecognition[] = [];
  lang = '';
  continuous = false;
  interimResults = true;
  onresult: ((e: unknown) => void) | null = null;
  onerror: ((e: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  started = false;
  stopped = false;
  constructor() {
    FakeRecognition.all.push(this);
  }
  start() {
    this.started = true;
  }
  stop() {
    this.stopped = true;
    this.onend?.();
  }
  abort() {
    this.onend?.();
  }
  say(text: string) {
    this.onresult?.({ resultIndex: 0, results: [Object.assign([{ transcript: text }], { isFinal: true })] });
  }
}

/** A MediaRecorder whose recording is a few fixed bytes. */
class FakeRecorder {
  static all: FakeRecorder[] = [];
  static isTypeSupported = (type: string) => type === 'audio/webm;codecs=opus';
  state: 'inactive' | 'recording' = 'inactive';
  mimeType: string;
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  constructor(_stream: MediaStream, options?: { mimeType?: string }) {
    this.mimeType = options?.mimeType ?? '';
    FakeRecorder.all.push(this);
  }
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3])], { type: this.mimeType }) });
    this.onstop?.();
  }
}

const w = window as unknown as Record<string, unknown>;
const saved = { SpeechRecognition: w.SpeechRecognition, webkitSpeechRecognition: w.webkitSpeechRecognition, MediaRecorder: w.MediaRecorder };
const $ = <T extends Element = HTMLElement>(root: ParentNode | null | undefined, sel: string) => root?.querySelector(sel) as T | null;

describe('composer dictation', () => {
  let s: Stores;
  let fetchStub: ReturnType<typeof stubFetch>;
  let micAsks = 0;
  const realGetUserMedia = navigator.mediaDevices?.getUserMedia;

  const useRecognition = (on: boolean) => {
    w.SpeechRecognition = on ? FakeRecognition : undefined;
    w.webkitSpeechRecognition = undefined;
  };
  const stub = (capability: unknown, transcript = 'from the server') =>
    stubFetch({
      'GET /api/models': CATALOG,
      'GET /api/workspaces': { workspaces: [], last: '/home/me' },
      'GET /api/transcribe/capability': capability,
      'POST /api/transcribe': () => ({ ok: true, transcript }),
    });

  beforeEach(async () => {
    localStorage.clear();
    // Drafts live in IndexedDB too: each test starts with an empty composer.
    offlineCache.saveDraft('s1', '');
    await offlineCache.flush();
    FakeRecognition.all = [];
    FakeRecorder.all = [];
    micAsks = 0;
    w.MediaRecorder = FakeRecorder;
    Object.defineProperty(navigator.mediaDevices, 'getUserMedia', {
      configurable: true,
      value: async () => {
        micAsks++;
        return new MediaStream();
      },
    });
    s = makeStores();
  });
  afterEach(() => {
    cleanup();
    fetchStub?.restore();
    Object.assign(w, saved);
    Object.defineProperty(navigator.mediaDevices, 'getUserMedia', { configurable: true, value: realGetUserMedia });
  });

  const mount = async () => {
    openSession(s.chat, session('s1'));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    // The mic's element loads after the composer (a lazy chunk).
    await customElements.whenDefined('hermes-dictation-button');
    await button(el).updateComplete;
    return el;
  };
  const button = (el: HermesComposer) => $<HermesDictationButton>(el.shadowRoot, 'hermes-dictation-button')!;
  const mic = (el: HermesComposer) => $<HTMLButtonElement>(button(el).shadowRoot, '[data-role="dictate"]')!;
  const status = (el: HermesComposer) => $(button(el).shadowRoot, '[data-role="dictation-state"]')?.textContent?.trim() ?? '';
  const error = (el: HermesComposer) => $(button(el).shadowRoot, '[data-role="dictation-error"]')?.textContent?.trim() ?? '';
  const input = (el: HermesComposer) => $<HTMLTextAreaElement>(el.shadowRoot, '[data-role="composer-input"]')!;

  it('speech recognition puts each phrase at the caret; Esc stops listening', async () => {
    useRecognition(true);
    fetchStub = stub({ ok: true, available: false, provider: 'none' });
    const el = await mount();
    input(el).value = 'Hello world';
    input(el).dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    await el.updateComplete;
    input(el).setSelectionRange(5, 5);
    mic(el).click();
    await waitFor(() => FakeRecognition.all[0]?.started === true);
    await waitFor(() => status(el) === 'Listening…');
    expect(mic(el).getAttribute('aria-pressed')).to.equal('true');
    FakeRecognition.all[0]!.say('there');
    await el.updateComplete;
    expect(input(el).value).to.equal('Hello there world');
    await waitFor(() => input(el).selectionStart === 'Hello there'.length);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(FakeRecognition.all[0]!.stopped).to.equal(true);
    await waitFor(() => status(el) === '');
    expect(mic(el).getAttribute('aria-pressed')).to.equal('false');
    // The browser did the work: the server was not asked.
    expect(fetchStub.calls.some((c) => c.url.includes('/api/transcribe'))).to.equal(false);
  });

  it('without speech recognition it records, posts the audio to /api/transcribe and inserts the transcript', async () => {
    useRecognition(false);
    fetchStub = stub({ ok: true, available: true, provider: 'openai' }, 'dictated by the server');
    const el = await mount();
    mic(el).click();
    await waitFor(() => FakeRecorder.all[0]?.state === 'recording');
    await waitFor(() => status(el) === 'Recording…');
    expect(micAsks).to.equal(1);
    mic(el).click();
    await waitFor(() => input(el).value === 'dictated by the server');
    const post = fetchStub.calls.find((c) => c.method === 'POST' && c.url.includes('/api/transcribe'))!;
    const file = (post.body as FormData).get('file') as File;
    expect(file.name).to.match(/^dictation-\d+\.webm$/);
    expect(file.size).to.equal(4);
    await waitFor(() => status(el) === '');
  });

  it('says why quietly, beside the mic, when the server cannot transcribe; the microphone is not opened', async () => {
    useRecognition(false);
    fetchStub = stub({ ok: true, available: false, provider: 'none', reason: 'Speech-to-text is not configured on this server.' });
    const el = await mount();
    mic(el).click();
    await waitFor(() => error(el) !== '');
    expect(error(el)).to.equal('Speech-to-text is not configured on this server.');
    expect(micAsks).to.equal(0);
    expect(s.toasts).to.have.length(0);
    expect(mic(el).getAttribute('aria-pressed')).to.equal('false');
  });

  // Last: the hand-over is remembered for the page (the module's state).
  it('a recogniser without its service (network) hands over to the recorder', async () => {
    useRecognition(true);
    fetchStub = stub({ ok: true, available: true, provider: 'groq' }, 'recorded instead');
    const el = await mount();
    mic(el).click();
    await waitFor(() => FakeRecognition.all[0]?.started === true);
    FakeRecognition.all[0]!.onerror?.({ error: 'network' });
    await waitFor(() => FakeRecorder.all[0]?.state === 'recording');
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await waitFor(() => input(el).value === 'recorded instead');
  });
});
