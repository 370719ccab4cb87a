import { expect, fixture, cleanup, nextFrame, waitFor } from '../helpers.js';
import type { HermesSessionList } from '../../../components/sidebar/hermes-session-list.js';
import '../../../components/sidebar/hermes-session-list.js';
import { ago, row } from './setup.js';

const rowsOf = (list: HermesSessionList) => [...list.shadowRoot!.querySelectorAll<HTMLElement>('[data-role="session-row"]')];
const rowById = (list: HermesSessionList, id: string) => list.shadowRoot!.querySelector<HTMLElement>(`[data-session-id="${id}"]`)!;
const viewport = (list: HermesSessionList) => list.shadowRoot!.querySelector<HTMLElement>('.viewport')!;
/** Where focus really is, through shadow roots. */
function deepActive(): Element | null {
  let a = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

/** 10,000 sessions, one every minute, all older than a week (so one "Older" header first). */
const MANY = Array.from({ length: 10_000 }, (_, i) => row(`s${i}`, { title: `Session ${i}`, updated_at: ago(10) - i * 60 }));

async function mount(rows = MANY, props: Partial<HermesSessionList> = {}) {
  const list = await fixture<HermesSessionList>('hermes-session-list', { rows, ...props });
  list.style.height = '400px';
  list.style.width = '272px';
  await nextFrame();
  await list.updateComplete;
  return list;
}

describe('hermes-session-list', () => {
  afterEach(cleanup);

  it('keeps the DOM bounded with 10,000 sessions', async () => {
    const list = await mount();
    const h = list.rowHeight;
    expect(viewport(list).scrollHeight).to.equal((MANY.length + 1) * h);
    // 400px of rows plus overscan on each side, not 10,000.
    expect(rowsOf(list).length).to.be.below(40);
    expect(rowsOf(list)[0]!.dataset.sessionId).to.equal('s0');
  });

  it('shows the right rows after scrolling, and stays bounded', async () => {
    const list = await mount();
    const h = list.rowHeight;
    const vp = viewport(list);
    // Item 5001 is session 5000 (item 0 is the "Older" header).
    // The scroll event itself is dispatched here: a background test page may get it late.
    const scrollTo = (y: number) => {
      vp.scrollTop = y;
      vp.dispatchEvent(new Event('scroll'));
    };
    scrollTo(5001 * h);
    await waitFor(() => rowsOf(list).some((r) => r.dataset.sessionId === 's5000'));
    await list.updateComplete;
    const top = vp.getBoundingClientRect().top;
    const first = rowsOf(list).find((r) => Math.abs(r.getBoundingClientRect().top - top) < 1);
    expect(first?.dataset.sessionId).to.equal('s5000');
    expect(rowsOf(list).length).to.be.below(40);
    expect(rowsOf(list).some((r) => r.dataset.sessionId === 's0')).to.equal(false);

    scrollTo(vp.scrollHeight);
    await waitFor(() => rowsOf(list).some((r) => r.dataset.sessionId === 's9999'));
    expect(rowsOf(list).length).to.be.below(40);
  });

  it('renders bucket headers as rows of the same height', async () => {
    const list = await mount([row('a', { pinned: true }), row('b'), row('c', { updated_at: ago(30) })]);
    const headers = [...list.shadowRoot!.querySelectorAll<HTMLElement>('[data-role="bucket-header"]')];
    expect(headers.map((h) => h.textContent)).to.deep.equal(['Pinned', 'Today', 'Older']);
    expect(headers[0]!.getBoundingClientRect().height).to.equal(rowsOf(list)[0]!.getBoundingClientRect().height);
  });

  it('shows a spinner for a running session and a dot for one that waits on the user', async () => {
    const list = await mount([row('run', { active_stream_id: 'st1' }), row('ask', { attention: true, active_stream_id: 'st2' }), row('idle')]);
    const [run, ask, idle] = ['run', 'ask', 'idle'].map((id) => rowById(list, id).shadowRoot!);
    expect(run!.querySelector('[data-role="row-spinner"]')).to.exist;
    expect(run!.querySelector('[data-role="attention-dot"]')).to.not.exist;
    expect(ask!.querySelector('[data-role="attention-dot"]')).to.exist;
    expect(idle!.querySelector('[data-role="row-spinner"]')).to.not.exist;
    expect(idle!.querySelector('[data-role="attention-dot"]')).to.not.exist;
  });

  it('highlights the open session', async () => {
    const list = await mount([row('a'), row('b')], { activeId: 'b' });
    const [a, b] = [rowById(list, 'a'), rowById(list, 'b')];
    expect(b!.hasAttribute('active')).to.equal(true);
    expect(a!.hasAttribute('active')).to.equal(false);
    expect(b!.shadowRoot!.querySelector('a')!.getAttribute('aria-current')).to.equal('page');
  });

  it('moves focus with the arrow keys (skipping headers), End/Home, and opens with Enter', async () => {
    const list = await mount();
    let opened: string | null = null;
    list.addEventListener('hermes-open-session', (e) => (opened = e.detail.sessionId));
    await list.focusSession('s0');
    expect(deepActive()?.closest('a')?.getAttribute('href')).to.equal('/session/s0');
    const press = (key: string) => deepActive()!.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true }));
    press('ArrowDown');
    await waitFor(() => deepActive()?.getAttribute('href') === '/session/s1');
    press('ArrowDown');
    await waitFor(() => deepActive()?.getAttribute('href') === '/session/s2');
    press('ArrowUp');
    await waitFor(() => deepActive()?.getAttribute('href') === '/session/s1');
    press('End');
    await waitFor(() => deepActive()?.getAttribute('href') === '/session/s9999');
    // The focused row is really on screen, not just in the DOM.
    const vp = viewport(list).getBoundingClientRect();
    const r = deepActive()!.getBoundingClientRect();
    expect(r.top).to.be.at.least(vp.top - 1);
    expect(r.bottom).to.be.at.most(vp.bottom + 1);
    press('Home');
    await waitFor(() => deepActive()?.getAttribute('href') === '/session/s0');
    (deepActive() as HTMLElement).click();
    expect(opened).to.equal('s0');
  });

  it('steps over bucket headers', async () => {
    const list = await mount([row('pin', { pinned: true, updated_at: ago(0.1) }), row('today', { updated_at: ago(0) })]);
    await list.focusSession('pin');
    deepActive()!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true, composed: true }));
    await waitFor(() => deepActive()?.getAttribute('href') === '/session/today');
  });

  it('keeps a single row in the tab order', async () => {
    const list = await mount([row('a'), row('b'), row('c')], { activeId: 'b' });
    const tabbable = rowsOf(list).filter((r) => r.shadowRoot!.querySelector('a')!.tabIndex === 0);
    expect(tabbable.map((r) => r.dataset.sessionId)).to.deep.equal(['b']);
  });

  it('shows the match preview while searching, with the query marked', async () => {
    const list = await mount([row('a', { title: 'Deploy', match_preview: 'the ingress returns 504 on upload' })], { query: 'upload' });
    const preview = rowsOf(list)[0]!.shadowRoot!.querySelector('[data-role="match-preview"]')!;
    expect(preview.textContent).to.contain('upload');
    expect(preview.querySelector('mark')!.textContent).to.equal('upload');
  });

  it('a content hit in a compression snapshot opens that record (inspection); a title hit resolves as usual', async () => {
    const list = await mount(
      [
        row('snap', { title: 'Deploy', match_preview: 'the ingress returns 504 on upload', pre_compression_snapshot: true }),
        row('t', { title: 'upload notes', match_preview: 'upload notes' }),
      ],
      { query: 'upload' },
    );
    const asked: Array<Record<string, unknown>> = [];
    list.addEventListener('hermes-open-session', (e) => asked.push({ ...(e as CustomEvent).detail }));
    for (const id of ['snap', 't']) rowById(list, id).shadowRoot!.querySelector<HTMLElement>('a.link')!.click();
    expect(asked).to.deep.equal([{ sessionId: 'snap', find: 'upload', inspect: true }, { sessionId: 't' }]);
  });
});
