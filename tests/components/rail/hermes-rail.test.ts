import { cleanup, expect, fixture, nextFrame } from '../helpers.js';
import type { HermesRail } from '../../../components/rail/hermes-rail.js';
import { railMemory } from '../../../components/rail/rail-entries.js';
import '../../../components/rail/hermes-rail.js';

const ORDER = ['chat', 'tasks', 'skills', 'memory', 'todos', 'insights', 'profiles', 'logs', 'settings'];

const items = (rail: HermesRail) => [...rail.renderRoot.querySelectorAll<HTMLButtonElement>('[data-role="rail-item"]')];
const item = (rail: HermesRail, name: string) => rail.renderRoot.querySelector<HTMLButtonElement>(`[data-role="rail-item"][data-panel="${name}"]`)!;
const focused = (rail: HermesRail) => (rail.renderRoot as ShadowRoot).activeElement as HTMLElement | null;

function press(target: HTMLElement, key: string) {
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true, cancelable: true }));
}

/** Every hermes-rail-select the element fires, in order. */
function selections(rail: HermesRail): string[] {
  const seen: string[] = [];
  rail.addEventListener('hermes-rail-select', (e) => seen.push(e.detail.name));
  return seen;
}

describe('hermes-rail', () => {
  afterEach(() => {
    cleanup();
    sessionStorage.clear();
  });

  it('lists the nine entries in the issue’s order, each with its hook, an icon, an accessible name and a tooltip', async () => {
    const rail = await fixture<HermesRail>('hermes-rail');
    const list = rail.renderRoot.querySelector('[data-role="rail"]')!;
    expect(list.getAttribute('role')).to.equal('toolbar');
    expect(items(rail).map((b) => b.dataset.panel)).to.deep.equal(ORDER);
    for (const b of items(rail)) {
      expect(b.querySelector('svg'), b.dataset.panel).to.exist;
      expect(b.getAttribute('aria-label')).to.match(/^[A-Z][a-z]+$/);
      expect(b.title).to.equal(b.getAttribute('aria-label'));
    }
    expect(item(rail, 'memory').getAttribute('aria-label')).to.equal('Memory');
  });

  it('marks only the active entry aria-current="page" and moves the mark with `active`', async () => {
    const rail = await fixture<HermesRail>('hermes-rail', { active: 'skills' });
    expect(
      items(rail)
        .filter((b) => b.getAttribute('aria-current') === 'page')
        .map((b) => b.dataset.panel),
    ).to.deep.equal(['skills']);
    rail.active = 'logs';
    await rail.updateComplete;
    expect(
      items(rail)
        .filter((b) => b.hasAttribute('aria-current'))
        .map((b) => b.dataset.panel),
    ).to.deep.equal(['logs']);
  });

  it('is one tab stop (the active entry) with Up/Down/Home/End moving focus, wrapping at the ends', async () => {
    const rail = await fixture<HermesRail>('hermes-rail', { active: 'memory' });
    expect(
      items(rail)
        .filter((b) => b.tabIndex === 0)
        .map((b) => b.dataset.panel),
    ).to.deep.equal(['memory']);
    item(rail, 'memory').focus();
    press(item(rail, 'memory'), 'ArrowDown');
    await rail.updateComplete;
    expect(focused(rail)?.dataset.panel).to.equal('todos');
    expect(
      items(rail)
        .filter((b) => b.tabIndex === 0)
        .map((b) => b.dataset.panel),
    ).to.deep.equal(['todos']);
    press(focused(rail)!, 'ArrowUp');
    await rail.updateComplete;
    press(focused(rail)!, 'ArrowUp');
    await rail.updateComplete;
    expect(focused(rail)?.dataset.panel).to.equal('skills');
    press(focused(rail)!, 'End');
    await rail.updateComplete;
    expect(focused(rail)?.dataset.panel).to.equal('settings');
    press(focused(rail)!, 'ArrowDown');
    await rail.updateComplete;
    expect(focused(rail)?.dataset.panel).to.equal('chat');
    press(focused(rail)!, 'ArrowUp');
    await rail.updateComplete;
    expect(focused(rail)?.dataset.panel).to.equal('settings');
    press(focused(rail)!, 'Home');
    await rail.updateComplete;
    expect(focused(rail)?.dataset.panel).to.equal('chat');
  });

  it('says which entry was chosen, by click and by Enter or Space on the focused entry', async () => {
    const rail = await fixture<HermesRail>('hermes-rail');
    const seen = selections(rail);
    item(rail, 'insights').click();
    // Enter and Space on a focused button are the browser's click; a real key press is in the e2e test.
    item(rail, 'settings').click();
    expect(seen).to.deep.equal(['insights', 'settings']);
  });

  it('as a phone sheet: the same entries with their names, focus on the current one, Escape and the scrim ask to close', async () => {
    const rail = await fixture<HermesRail>('hermes-rail', { variant: 'sheet', active: 'profiles' });
    await nextFrame(1);
    expect(items(rail).map((b) => b.dataset.panel)).to.deep.equal(ORDER);
    expect(items(rail).map((b) => b.textContent?.trim())).to.deep.equal([
      'Chat',
      'Tasks',
      'Skills',
      'Memory',
      'Todos',
      'Insights',
      'Profiles',
      'Logs',
      'Settings',
    ]);
    expect(rail.renderRoot.querySelector('[role="dialog"] [data-role="rail"]')).to.exist;
    expect(focused(rail)?.dataset.panel).to.equal('profiles');
    // A grid of three columns: Down goes a row down, Right to the next entry.
    press(item(rail, 'profiles'), 'ArrowUp');
    await rail.updateComplete;
    expect(focused(rail)?.dataset.panel).to.equal('memory');
    press(focused(rail)!, 'ArrowRight');
    await rail.updateComplete;
    expect(focused(rail)?.dataset.panel).to.equal('todos');
    press(focused(rail)!, 'ArrowDown');
    await rail.updateComplete;
    expect(focused(rail)?.dataset.panel).to.equal('logs');
    let closes = 0;
    rail.addEventListener('hermes-rail-close', () => closes++);
    press(item(rail, 'profiles'), 'Escape');
    rail.renderRoot.querySelector<HTMLElement>('.scrim')!.click();
    expect(closes).to.equal(2);
  });
});

describe('rail memory', () => {
  afterEach(() => sessionStorage.clear());

  it('remembers the last panel and the last chat path, and refuses anything else', () => {
    expect(railMemory.lastPanel('skills')).to.equal('skills');
    railMemory.setLastPanel('logs');
    expect(railMemory.lastPanel('skills')).to.equal('logs');
    sessionStorage.setItem('hermes:rail:last-panel', 'nonsense');
    expect(railMemory.lastPanel('skills')).to.equal('skills');

    expect(railMemory.lastChat()).to.equal('/');
    railMemory.setLastChat('/session/abc123');
    expect(railMemory.lastChat()).to.equal('/session/abc123');
    railMemory.setLastChat('https://elsewhere.example/');
    expect(railMemory.lastChat()).to.equal('/');
  });
});
