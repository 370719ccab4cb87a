import { expect, cleanup, fixture, nextFrame, stubFetch, waitFor } from '../helpers.js';
import '../../../components/panels/logs/hermes-logs-panel.js';
import type { HermesLogsPanel } from '../../../components/panels/logs/hermes-logs-panel.js';
import { classify } from '../../../components/panels/logs/log-levels.js';
import { applyLanguage, loadMessages } from '../../../components/i18n/localization.js';
import { logHintText } from '../../../components/panels/logs/log-hints.js';
import { LOG_HINTS, type LogHintCode } from '../../../src/shared/server-texts.js';
import { logHint } from '../../../src/shared/server-texts-en.js';

const AGENT = [
  '2026-03-01 10:00:00,001 DEBUG run_agent: tokens counted',
  '2026-03-01 10:00:01,002 INFO [s1] run_agent: turn started',
  '2026-03-01 10:00:02,003 WARNING tools.terminal: slow command',
  '2026-03-01 10:00:03,004 ERROR run_agent: provider failed',
  'Traceback (most recent call last):',
  '  File "run_agent.py", line 1, in <module>',
  '2026-03-01 10:00:04,005 INFO run_agent: retrying',
];

const answer = (file: string, tail: number, lines: string[]) => ({ file, tail, lines, truncated: false, total_bytes: 1234, mtime: 1, hint: '' });
const shadow = (el: HTMLElement) => el.shadowRoot!;
const lines = (el: HTMLElement) => [...shadow(el).querySelectorAll<HTMLElement>('[data-role="log-line"]')];
const select = (el: HTMLElement, role: string, value: string) => {
  const s = shadow(el).querySelector<HTMLSelectElement>(`[data-role="${role}"]`)!;
  s.value = value;
  s.dispatchEvent(new Event('change'));
};

describe('hermes-logs-panel', () => {
  let fetch: ReturnType<typeof stubFetch>;
  let served: Record<string, string[]>;
  beforeEach(() => {
    sessionStorage.clear();
    served = {
      agent: AGENT,
      errors: ['2026-03-01 10:00:03,004 ERROR run_agent: provider failed'],
      gateway: [],
      webui: ['{"ts":"2026-03-01T10:00:00Z","level":"error","msg":"boom"}', '{"ts":"2026-03-01T10:00:01Z","msg":"request","status":200}'],
    };
    fetch = stubFetch({
      'GET /api/logs': (call) => {
        const u = new URL(call.url, location.href);
        const file = u.searchParams.get('file')!;
        const tail = Number(u.searchParams.get('tail'));
        const got = served[file]!;
        return got.length
          ? answer(file, tail, got.slice(-tail))
          : {
              ...answer(file, tail, []),
              total_bytes: 0,
              mtime: null,
              hint: `Log file for ${file} not found yet.`,
              // The code and values beside the English; `errors` plays a server newer than this build.
              ...(file === 'errors' ? { hint_code: 'log_file_gone_to_sea', hint_args: { file } } : { hint_code: 'log_file_missing', hint_args: { file } }),
            };
      },
    });
  });
  afterEach(async () => {
    fetch.restore();
    cleanup();
    await applyLanguage('en');
    localStorage.removeItem('hermes:language');
  });

  it("every log hint code: the server's English word for word, and German in German", async () => {
    await loadMessages('panels');
    const codes = Object.keys(LOG_HINTS) as LogHintCode[];
    const args = (c: LogHintCode) => Object.fromEntries(LOG_HINTS[c].map((n) => [n, `<${n}>`]));
    const shown = (c: LogHintCode) => logHintText({ hint: 'fallback', hint_code: c, hint_args: args(c) });
    for (const c of codes) expect(shown(c), c).to.equal(logHint(c, args(c) as never).text);
    await applyLanguage('de');
    for (const c of codes) expect(shown(c), c).to.not.be.oneOf([logHint(c, args(c) as never).text, 'fallback']);
  });

  it("says why a log is empty in the reader's language; a code it does not know in the server's English", async () => {
    await loadMessages('panels');
    await applyLanguage('de');
    served.errors = [];
    const el = await fixture<HermesLogsPanel>('hermes-logs-panel');
    select(el, 'log-file', 'gateway');
    const hint = () => shadow(el).querySelector('[data-role="log-hint"]')?.textContent?.trim();
    await waitFor(() => hint() === 'Logdatei für gateway noch nicht gefunden.');
    select(el, 'log-file', 'errors');
    await waitFor(() => hint() === 'Log file for errors not found yet.');
  });

  it('reads levels from Hermes lines and our JSON lines; a traceback keeps the level of its record', () => {
    expect(classify(AGENT).map((l) => l.level)).to.deep.equal(['debug', 'info', 'warning', 'error', 'error', 'error', 'info']);
    expect(classify(served.webui!).map((l) => l.level)).to.deep.equal(['error', 'info']);
    expect(classify(['plain text before any record', '2026-03-01 10:00:00,000 CRITICAL x: y']).map((l) => l.level)).to.deep.equal(['info', 'critical']);
  });

  it('shows the agent log by default, each line with its level, and filters by level', async () => {
    const el = await fixture<HermesLogsPanel>('hermes-logs-panel');
    await waitFor(() => lines(el).length === AGENT.length);
    expect(shadow(el).querySelector('[data-role="panel"]')!.getAttribute('data-panel')).to.equal('logs');
    expect(fetch.calls[0]!.url).to.contain('file=agent').and.contain('tail=200');
    expect(lines(el).map((l) => l.dataset.level)).to.deep.equal(['debug', 'info', 'warning', 'error', 'error', 'error', 'info']);
    select(el, 'log-level', 'warning');
    await el.updateComplete;
    expect(lines(el).map((l) => l.textContent)).to.deep.equal(AGENT.slice(2, 6));
    select(el, 'log-level', 'error');
    await el.updateComplete;
    expect(lines(el)).to.have.length(3);
    // Filtering asks nothing of the server.
    expect(fetch.calls).to.have.length(1);
  });

  it('switches file and tail length, says when a file does not exist yet, and remembers the choices', async () => {
    const el = await fixture<HermesLogsPanel>('hermes-logs-panel');
    await waitFor(() => lines(el).length > 0);
    select(el, 'log-file', 'gateway');
    await waitFor(() => !!shadow(el).querySelector('[data-role="log-hint"]'));
    expect(shadow(el).querySelector('[data-role="log-hint"]')!.textContent).to.equal('Log file for gateway not found yet.');
    expect(lines(el)).to.have.length(0);
    select(el, 'log-file', 'webui');
    select(el, 'log-tail', '500');
    await waitFor(() => lines(el).length === 2);
    expect(fetch.calls.at(-1)!.url).to.contain('file=webui').and.contain('tail=500');
    expect(lines(el).map((l) => l.dataset.level)).to.deep.equal(['error', 'info']);
    cleanup();
    // A panel opened again (or after a reload) comes back as it was left.
    const again = await fixture<HermesLogsPanel>('hermes-logs-panel');
    await waitFor(() => lines(again).length === 2);
    expect(fetch.calls.at(-1)!.url).to.contain('file=webui').and.contain('tail=500');
    expect(shadow(again).querySelector<HTMLSelectElement>('[data-role="log-tail"]')!.value).to.equal('500');
  });

  it('wraps long lines on request and copies the visible lines', async () => {
    const el = await fixture<HermesLogsPanel>('hermes-logs-panel');
    await waitFor(() => lines(el).length > 0);
    const box = shadow(el).querySelector<HTMLElement>('.lines')!;
    expect(box.hasAttribute('data-wrap')).to.equal(false);
    expect(getComputedStyle(lines(el)[0]!).whiteSpace).to.equal('pre');
    shadow(el).querySelector<HTMLInputElement>('[data-role="log-wrap"]')!.click();
    await el.updateComplete;
    expect(box.hasAttribute('data-wrap')).to.equal(true);
    expect(getComputedStyle(lines(el)[0]!).whiteSpace).to.equal('pre-wrap');

    let copied: string | null = null;
    const original = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (t: string) => void (copied = t) } });
    try {
      select(el, 'log-level', 'error');
      await el.updateComplete;
      shadow(el).querySelector<HTMLButtonElement>('[data-role="log-copy"]')!.click();
      await waitFor(() => copied !== null);
      expect(copied).to.equal(AGENT.slice(3, 6).join('\n'));
      await waitFor(() => shadow(el).querySelector('[data-role="log-copy"]')!.textContent === 'Copied');
    } finally {
      delete (navigator as unknown as Record<string, unknown>).clipboard;
      if (original) Object.defineProperty(Navigator.prototype, 'clipboard', original);
    }
  });

  it('auto-refresh asks again while the tab is visible, pauses while it is hidden, and catches up on return', async () => {
    const el = await fixture<HermesLogsPanel>('hermes-logs-panel', { refreshMs: 60 });
    await waitFor(() => lines(el).length === AGENT.length);
    await new Promise((r) => setTimeout(r, 200));
    // Off by default: one request only.
    expect(fetch.calls).to.have.length(1);
    shadow(el).querySelector<HTMLInputElement>('[data-role="log-auto"]')!.click();
    served.agent = [...AGENT, '2026-03-01 10:00:05,000 INFO run_agent: appended meanwhile'];
    await waitFor(() => lines(el).length === AGENT.length + 1);
    const visibility = Object.getOwnPropertyDescriptor(Document.prototype, 'visibilityState')!;
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    try {
      document.dispatchEvent(new Event('visibilitychange'));
      const before = fetch.calls.length;
      await new Promise((r) => setTimeout(r, 250));
      expect(fetch.calls.length).to.equal(before);
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      document.dispatchEvent(new Event('visibilitychange'));
      await waitFor(() => fetch.calls.length > before);
    } finally {
      delete (document as unknown as Record<string, unknown>).visibilityState;
      Object.defineProperty(Document.prototype, 'visibilityState', visibility);
    }
    cleanup();
    // Gone from the page: no more requests.
    const after = fetch.calls.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(fetch.calls.length).to.equal(after);
  });

  it('follows the bottom as lines arrive, unless the reader scrolled up', async () => {
    served.agent = Array.from({ length: 300 }, (_, i) => `2026-03-01 10:00:00,000 INFO run_agent: line ${i}`);
    const el = await fixture<HermesLogsPanel>('hermes-logs-panel');
    el.style.height = '300px';
    await waitFor(() => lines(el).length === 200);
    await nextFrame();
    const body = shadow(el).querySelector<HTMLElement>('.panel-body')!;
    const atEnd = () => body.scrollHeight - body.scrollTop - body.clientHeight <= 24;
    await waitFor(() => atEnd());
    served.agent.push('2026-03-01 10:00:00,000 INFO run_agent: one more');
    await el.refresh();
    await el.updateComplete;
    expect(atEnd()).to.equal(true);
    expect(lines(el).at(-1)!.textContent).to.contain('one more');
    body.scrollTop = 0;
    body.dispatchEvent(new Event('scroll'));
    served.agent.push('2026-03-01 10:00:00,000 INFO run_agent: and another');
    await el.refresh();
    await el.updateComplete;
    expect(body.scrollTop).to.equal(0);
  });
});
