import { cleanup, expect, fixture, stubFetch, waitFor } from '../helpers.js';
import '../../../components/panels/memory/hermes-memory-panel.js';
import type { HermesMemoryPanel } from '../../../components/panels/memory/hermes-memory-panel.js';
import type { MemorySnapshot } from '../../../components/api/memory.js';
import { STATE_SAVED_EVENT } from '../../../components/state/run-handlers.js';

const LIMIT = 35;

/** What the server would answer for these files (entries are the `§` blocks, used their length). */
function snapshot(files: { memory: string; user: string; soul: string }, over: Partial<MemorySnapshot> = {}): MemorySnapshot {
  const entries = (t: string) => t.split('\n§\n').filter(Boolean);
  const info = (t: string, limit: number) => ({ enabled: true, writable: true, hint: null, entries: entries(t), used: t.length, limit });
  return {
    ...files,
    memory_path: '/h/memories/MEMORY.md',
    user_path: '/h/memories/USER.md',
    soul_path: '/h/SOUL.md',
    memory_mtime: 1,
    user_mtime: 1,
    soul_mtime: 1,
    profile: 'default',
    redacted: true,
    sections: { memory: info(files.memory, LIMIT), user: info(files.user, 1375), soul: { enabled: true, writable: true, hint: null } },
    ...over,
  };
}

const store = (el: HermesMemoryPanel, section: string) => el.shadowRoot!.querySelector(`hermes-memory-store[section="${section}"]`)!.shadowRoot!;
const entries = (root: ShadowRoot) => [...root.querySelectorAll<HTMLElement>('[data-role="memory-entry"] .text')].map((e) => e.textContent);
const type = (input: HTMLTextAreaElement, value: string) => {
  input.value = value;
  input.dispatchEvent(new Event('input'));
};

describe('hermes-memory-panel', () => {
  let files: { memory: string; user: string; soul: string };
  let stub: ReturnType<typeof stubFetch>;
  let conflict = false;
  beforeEach(() => {
    sessionStorage.clear();
    conflict = false;
    files = { memory: 'Uses pnpm\n§\nTests with vitest', user: 'Name: Ada', soul: 'Be calm.' };
    stub = stubFetch({
      'GET /api/memory': () => snapshot(files),
      'POST /api/memory/write': (c) => {
        const section = c.body.section as 'memory' | 'user' | 'soul';
        if (conflict)
          return new Response(JSON.stringify({ error: 'MEMORY.md changed elsewhere since it was loaded — reload to see it', mtime: 2 }), { status: 409 });
        if (section === 'memory' && c.body.content.length > LIMIT)
          return new Response(JSON.stringify({ error: 'over', section, used: c.body.content.length, limit: LIMIT }), { status: 422 });
        files[section] = c.body.content;
        return { ok: true, section, path: '/x', ...snapshot(files) };
      },
    });
  });
  afterEach(() => {
    cleanup();
    stub.restore();
  });

  const mount = async () => {
    const el = await fixture<HermesMemoryPanel>('hermes-memory-panel');
    await waitFor(() => entries(store(el, 'memory')).length === 2);
    return el;
  };
  const writes = () => stub.calls.filter((c) => c.method === 'POST').map((c) => c.body);

  it('shows each store as its entries with a usage gauge, and SOUL.md as one text', async () => {
    const el = await mount();
    expect(el.shadowRoot!.querySelector('[data-role="panel"]')!.getAttribute('data-panel')).to.equal('memory');
    expect(entries(store(el, 'memory'))).to.deep.equal(['Uses pnpm', 'Tests with vitest']);
    expect(entries(store(el, 'user'))).to.deep.equal(['Name: Ada']);
    const gauge = store(el, 'memory').querySelector<HTMLElement>('[data-role="memory-usage"]')!;
    expect(gauge.dataset.used).to.equal(String(files.memory.length));
    expect(gauge.dataset.limit).to.equal(String(LIMIT));
    // 29 of 35 characters: near the limit.
    expect(gauge.dataset.state).to.equal('warn');
    expect(el.shadowRoot!.querySelector<HTMLTextAreaElement>('[data-role="soul-input"]')!.value).to.equal('Be calm.');
  });

  it('edits, removes and adds entries, saving the whole file in Hermes format with the mtime read', async () => {
    const el = await mount();
    const root = store(el, 'memory');
    root.querySelector<HTMLButtonElement>('[data-role="memory-entry"][data-index="0"] [data-role="memory-entry-edit"]')!.click();
    await waitFor(() => root.querySelector('[data-role="memory-entry-input"]') !== null);
    type(root.querySelector<HTMLTextAreaElement>('[data-role="memory-entry-input"]')!, 'Uses bun');
    root.querySelector<HTMLButtonElement>('[data-role="memory-entry-save"]')!.click();
    await waitFor(() => entries(root)[0] === 'Uses bun');
    expect(writes()[0]).to.deep.equal({ section: 'memory', content: 'Uses bun\n§\nTests with vitest', mtime: 1 });

    root.querySelector<HTMLButtonElement>('[data-role="memory-entry"][data-index="1"] [data-role="memory-entry-remove"]')!.click();
    await waitFor(() => entries(root).length === 1);
    expect(files.memory).to.equal('Uses bun');

    type(root.querySelector<HTMLTextAreaElement>('[data-role="memory-add-input"]')!, 'Likes tea');
    await waitFor(() => !root.querySelector<HTMLButtonElement>('[data-role="memory-add"]')!.disabled);
    root.querySelector<HTMLButtonElement>('[data-role="memory-add"]')!.click();
    await waitFor(() => entries(root).length === 2);
    expect(files.memory).to.equal('Uses bun\n§\nLikes tea');
    expect(root.querySelector<HTMLTextAreaElement>('[data-role="memory-add-input"]')!.value).to.equal('');
  });

  it('a save over the limit shows the figures and keeps the typed entry', async () => {
    const el = await mount();
    const root = store(el, 'memory');
    const input = root.querySelector<HTMLTextAreaElement>('[data-role="memory-add-input"]')!;
    type(input, 'A much longer fact');
    await waitFor(() => root.querySelector<HTMLElement>('[data-role="memory-usage"]')!.dataset.state === 'over');
    root.querySelector<HTMLButtonElement>('[data-role="memory-add"]')!.click();
    await waitFor(() => root.querySelector('[data-role="memory-error"]') !== null);
    expect(root.querySelector('[data-role="memory-error"]')!.textContent).to.match(/Not saved: 50 \/ 35 characters, over the limit/);
    expect(input.value).to.equal('A much longer fact');
    expect(files.memory).to.equal('Uses pnpm\n§\nTests with vitest');
  });

  it('409: says it changed elsewhere, keeps the draft, and Reload fetches the file again', async () => {
    const el = await mount();
    const root = store(el, 'memory');
    conflict = true;
    type(root.querySelector<HTMLTextAreaElement>('[data-role="memory-add-input"]')!, 'Mine');
    await waitFor(() => !root.querySelector<HTMLButtonElement>('[data-role="memory-add"]')!.disabled);
    root.querySelector<HTMLButtonElement>('[data-role="memory-add"]')!.click();
    await waitFor(() => root.querySelector('[data-role="memory-reload"]') !== null);
    expect(
      root
        .querySelector('[data-role="memory-error"]')!
        .textContent!.trim()
        .replace(/\s*Reload$/, ''),
    ).to.match(/^MEMORY\.md changed elsewhere — reload\. Your text is kept\.$/);
    conflict = false;
    files.memory = 'Theirs';
    root.querySelector<HTMLButtonElement>('[data-role="memory-reload"]')!.click();
    await waitFor(() => entries(root)[0] === 'Theirs');
    expect(root.querySelector<HTMLTextAreaElement>('[data-role="memory-add-input"]')!.value).to.equal('Mine');
  });

  it('saves SOUL.md and reloads when the agent saved memory (state_saved)', async () => {
    const el = await mount();
    const soul = el.shadowRoot!.querySelector<HTMLTextAreaElement>('[data-role="soul-input"]')!;
    type(soul, 'Be brief.');
    await waitFor(() => !el.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="soul-save"]')!.disabled);
    el.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="soul-save"]')!.click();
    await waitFor(() => files.soul === 'Be brief.');
    expect(writes().at(-1)).to.deep.equal({ section: 'soul', content: 'Be brief.', mtime: 1 });

    files.user = 'Name: Ada\n§\nWorks nights';
    window.dispatchEvent(new CustomEvent(STATE_SAVED_EVENT, { detail: { session_id: 's', kind: 'memory', action: 'saved' } }));
    await waitFor(() => entries(store(el, 'user')).length === 2);
  });

  it('says when a store is turned off, and why a file cannot be written', async () => {
    stub.restore();
    stub = stubFetch({
      'GET /api/memory': () => {
        const s = snapshot(files);
        s.sections.user = { enabled: false, writable: false, hint: null, entries: [], used: 0, limit: 1375 };
        s.sections.memory = { ...s.sections.memory, writable: false, hint: 'MEMORY.md is not writable: /h/memories/MEMORY.md.' };
        return s;
      },
    });
    const el = await mount();
    expect(store(el, 'user').querySelector('[data-role="memory-disabled"]')!.textContent).to.match(/memory\.user_profile_enabled: false/);
    expect(store(el, 'memory').querySelector('[data-role="memory-hint"]')!.textContent).to.match(/not writable/);
    expect(store(el, 'memory').querySelector<HTMLButtonElement>('[data-role="memory-entry-edit"]')!.disabled).to.equal(true);
  });
});
