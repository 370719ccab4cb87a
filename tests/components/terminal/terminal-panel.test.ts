import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/terminal/hermes-terminal-panel.js';
import type { HermesTerminalPanel } from '../../../components/terminal/hermes-terminal-panel.js';

/** Stands in for EventSource: the test plays the terminal's frames. */
class FakeSource extends EventTarget {
  static last: FakeSource | null = null;
  closed = false;
  constructor(readonly url: string) {
    super();
    FakeSource.last = this;
  }
  close() {
    this.closed = true;
  }
  play(event: string, data: unknown) {
    this.dispatchEvent(new MessageEvent(event, { data: JSON.stringify(data) }));
  }
}

const started = (body: { rows: number; cols: number }) => ({
  ok: true,
  session_id: 's1',
  workspace: '/w',
  running: true,
  rows: body.rows,
  cols: body.cols,
  engine: 'node-pty',
});
const q = <T extends Element = HTMLElement>(el: HermesTerminalPanel, sel: string) => el.shadowRoot!.querySelector<T>(sel) as T;

describe('hermes-terminal-panel', () => {
  let fetch: ReturnType<typeof stubFetch>;
  const original = window.EventSource;
  beforeEach(() => {
    (window as { EventSource: unknown }).EventSource = FakeSource;
    FakeSource.last = null;
  });
  afterEach(() => {
    window.EventSource = original;
    fetch.restore();
    cleanup();
  });

  it('starts the shell at the size it fits, and draws its output', async () => {
    fetch = stubFetch({ 'POST /api/terminal/start': (c) => started(c.body) });
    const el = await fixture<HermesTerminalPanel>('hermes-terminal-panel', { sessionId: 's1' });
    await waitFor(() => !!FakeSource.last);
    expect(q(el, '[data-role="terminal-panel"]')).to.exist;
    const start = fetch.calls.find((c) => c.url === '/api/terminal/start')!;
    expect(start.body.session_id).to.equal('s1');
    expect(start.body.rows).to.be.greaterThan(4);
    expect(start.body.cols).to.be.greaterThan(20);
    expect(FakeSource.last!.url).to.equal('/api/terminal/output?session_id=s1');
    FakeSource.last!.play('output', { text: 'hello from the \x1b[32mshell\x1b[0m\r\n$ ' });
    await waitFor(() => el.visibleText().includes('hello from the shell'));
    // xterm's stylesheet came with the panel: its helper textarea is out of sight.
    const helper = q(el, '.xterm-helper-textarea');
    expect(getComputedStyle(helper).position).to.equal('absolute');
    expect(getComputedStyle(helper).opacity).to.equal('0');
    // The theme comes from the tokens: the screen's background is the code background.
    expect(q(el, '[data-status]').getAttribute('data-status')).to.equal('running');
  });

  it('says how the shell ended, and restarts it on request', async () => {
    fetch = stubFetch({ 'POST /api/terminal/start': (c) => started(c.body) });
    const el = await fixture<HermesTerminalPanel>('hermes-terminal-panel', { sessionId: 's1' });
    await waitFor(() => !!FakeSource.last);
    const first = FakeSource.last!;
    first.play('terminal_closed', { exit_code: 3 });
    await waitFor(() => q(el, '[data-status]').getAttribute('data-status') === 'closed');
    expect(first.closed).to.equal(true);
    expect(q(el, '.message').textContent).to.contain('exited with code 3');
    q<HTMLButtonElement>(el, '[data-action="restart"]').click();
    await waitFor(() => FakeSource.last !== first);
    expect(fetch.calls.filter((c) => c.url === '/api/terminal/start').at(-1)!.body.restart).to.equal(true);
    await waitFor(() => q(el, '[data-status]').getAttribute('data-status') === 'running');
  });

  it('shows a start failure, and the stream error', async () => {
    fetch = stubFetch({ 'POST /api/terminal/start': () => new Response(JSON.stringify({ error: 'The embedded terminal needs a machine' }), { status: 501 }) });
    const el = await fixture<HermesTerminalPanel>('hermes-terminal-panel', { sessionId: 's1' });
    await waitFor(() => q(el, '[data-status]').getAttribute('data-status') === 'error');
    expect(q(el, '.message').textContent).to.contain('needs a machine');
  });

  it('follows its container: a taller panel posts the new size', async () => {
    fetch = stubFetch({ 'POST /api/terminal/start': (c) => started(c.body), 'POST /api/terminal/resize': { ok: true } });
    const el = await fixture<HermesTerminalPanel>('hermes-terminal-panel', { sessionId: 's1' });
    await waitFor(() => q(el, '[data-status]').getAttribute('data-status') === 'running');
    const rows = fetch.calls.find((c) => c.url === '/api/terminal/start')!.body.rows as number;
    q(el, '.screen').style.height = '420px';
    await waitFor(() => fetch.calls.some((c) => c.url === '/api/terminal/resize'));
    const resize = fetch.calls.find((c) => c.url === '/api/terminal/resize')!;
    expect(resize.body.rows).to.be.greaterThan(rows);
  });

  it('close ends the shell and tells the owner', async () => {
    fetch = stubFetch({ 'POST /api/terminal/start': (c) => started(c.body), 'POST /api/terminal/close': { ok: true, closed: true } });
    const el = await fixture<HermesTerminalPanel>('hermes-terminal-panel', { sessionId: 's1' });
    await waitFor(() => !!FakeSource.last);
    let told = false;
    el.addEventListener('hermes-terminal-close', () => (told = true));
    q<HTMLButtonElement>(el, '[data-action="close"]').click();
    await waitFor(() => told);
    expect(fetch.calls.some((c) => c.url === '/api/terminal/close' && c.body.session_id === 's1')).to.equal(true);
    expect(FakeSource.last!.closed).to.equal(true);
  });

  it('takes its colours from the tokens, and follows a theme switch', async () => {
    fetch = stubFetch({ 'POST /api/terminal/start': (c) => started(c.body) });
    const root = document.documentElement;
    const before = root.dataset.theme;
    root.style.setProperty('--hermes-code-bg', 'rgb(10, 20, 30)');
    root.style.setProperty('--hermes-fg', 'rgb(1, 2, 3)');
    try {
      const el = await fixture<HermesTerminalPanel>('hermes-terminal-panel', { sessionId: 's1' });
      await waitFor(() => !!q(el, '.xterm-rows'));
      expect(getComputedStyle(q(el, '.xterm-viewport')).backgroundColor).to.equal('rgb(10, 20, 30)');
      await waitFor(() => getComputedStyle(q(el, '.xterm-rows')).color === 'rgb(1, 2, 3)');
      root.style.setProperty('--hermes-code-bg', 'rgb(200, 190, 180)');
      root.style.setProperty('--hermes-fg', 'rgb(4, 5, 6)');
      root.dataset.theme = 'light';
      await waitFor(() => getComputedStyle(q(el, '.xterm-rows')).color === 'rgb(4, 5, 6)');
      expect(getComputedStyle(q(el, '.xterm-viewport')).backgroundColor).to.equal('rgb(200, 190, 180)');
    } finally {
      root.style.removeProperty('--hermes-code-bg');
      root.style.removeProperty('--hermes-fg');
      if (before === undefined) delete root.dataset.theme;
      else root.dataset.theme = before;
    }
  });

  it('collapses to its header', async () => {
    fetch = stubFetch({ 'POST /api/terminal/start': (c) => started(c.body) });
    const el = await fixture<HermesTerminalPanel>('hermes-terminal-panel', { sessionId: 's1' });
    q<HTMLButtonElement>(el, '[data-action="collapse"]').click();
    await el.updateComplete;
    expect(getComputedStyle(q(el, '.screen')).display).to.equal('none');
    expect(q(el, '[data-action="collapse"]').getAttribute('aria-expanded')).to.equal('false');
  });
});
