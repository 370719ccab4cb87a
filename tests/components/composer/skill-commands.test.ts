import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/composer/hermes-composer.js';
import type { HermesComposer } from '../../../components/composer/hermes-composer.js';
import { COMMANDS, runCommand, suggestions, type CommandContext } from '../../../components/composer/slash-commands.js';
import { skillCommands, skillSlug } from '../../../components/composer/skill-commands.js';
import { CATALOG, makeStores, openSession, session, type Stores } from './setup.js';

// The incumbent's GET /api/skills shape: a disabled skill is listed with `disabled: true`.
const SKILLS = {
  skills: [
    { name: 'deploy-k8s', description: 'Roll out to Kubernetes', category: 'devops', disabled: false },
    { name: 'arxiv', description: 'Search papers', category: 'research', disabled: false },
    { name: 'Git Helper', description: 'Git chores', category: null, disabled: false },
    { name: 'secret-plan', description: 'Turned off', category: 'research', disabled: true },
    // Named like a built-in command: loadable by /use only.
    { name: 'new', description: 'Shadowed by /new', category: null, disabled: false },
  ],
};

const $ = <T extends Element = HTMLElement>(root: Element, sel: string) => root.shadowRoot!.querySelector(sel) as T | null;

describe('skill commands', () => {
  let s: Stores;
  let fetchStub: ReturnType<typeof stubFetch>;

  beforeEach(async () => {
    fetchStub = stubFetch({
      'GET /api/skills': SKILLS,
      'GET /api/models': CATALOG,
      'GET /api/workspaces': { workspaces: [], last: '/home/me' },
    });
    s = makeStores();
    await skillCommands.load(true);
  });
  afterEach(() => {
    cleanup();
    skillCommands.setForced(null);
    skillCommands.showCard(null);
    fetchStub.restore();
  });

  const ctx = (): CommandContext => ({
    chat: s.chat,
    ui: s.ui,
    sessions: s.sessions,
    host: document.createElement('div'),
    models: [],
    currentModel: () => null,
    setModel: async () => {},
    currentWorkspace: () => '/home/me',
    setWorkspace: async () => {},
    setText: () => {},
    restoreAttachments: () => {},
  });

  it('slugs skill names as Hermes does', () => {
    expect(skillSlug('Git Helper')).to.equal('git-helper');
    expect(skillSlug('a+b//c--d')).to.equal('abc-d');
    expect(skillSlug('git_helper')).to.equal('git_helper');
  });

  it('"/" lists the built-in commands, then every enabled skill not named like one', () => {
    const labels = suggestions('/', []).map((i) => i.label);
    expect(labels).to.deep.equal([...COMMANDS.map((c) => `/${c.name}`), '/deploy-k8s', '/arxiv', '/git-helper']);
    expect(COMMANDS.map((c) => c.name)).to.include.members(['skills', 'use']);
    expect(suggestions('/dep', []).map((i) => [i.label, i.complete, i.runnable])).to.deep.equal([['/deploy-k8s', '/deploy-k8s ', true]]);
    expect(suggestions('/use ', []).map((i) => i.complete)).to.deep.equal(['/use deploy-k8s', '/use arxiv', '/use Git Helper', '/use new']);
    expect(suggestions('/use ar', []).map((i) => i.complete)).to.deep.equal(['/use arxiv']);
  });

  it('/skills [query] shows a card of matching enabled skills; choosing one makes it the /use chip', async () => {
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    await runCommand(ctx(), '/skills paper');
    const bar = $(el, 'hermes-skill-bar')!;
    await waitFor(() => $(bar, '[data-role="skills-card"]'));
    const rows = () => [...bar.shadowRoot!.querySelectorAll<HTMLElement>('[data-role="skills-card-row"]')];
    expect(rows().map((r) => r.dataset.skill)).to.deep.equal(['arxiv']);
    await runCommand(ctx(), '/skills');
    await waitFor(() => rows().length === 4);
    expect(rows().map((r) => r.dataset.skill)).to.deep.equal(['deploy-k8s', 'arxiv', 'Git Helper', 'new']);
    rows()[0]!.click();
    await waitFor(() => $(bar, '[data-role="skill-chip"]'));
    expect($(bar, '[data-role="skills-card"]')).to.equal(null);
    expect($(bar, '[data-role="skill-chip"]')!.dataset.skill).to.equal('deploy-k8s');
  });

  it('/use <skill> sets the chip, the next message carries it once, and the chip can be removed', async () => {
    openSession(s.chat, session('s1'));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    await runCommand(ctx(), '/use ARXIV');
    const bar = $(el, 'hermes-skill-bar')!;
    await waitFor(() => $(bar, '[data-role="skill-chip"]'));
    el.text = 'find attention papers';
    await el.send();
    expect(s.sent).to.deep.equal([{ text: 'find attention papers', options: { attachments: [], skill: 'arxiv' } }]);
    await waitFor(() => !$(bar, '[data-role="skill-chip"]'));
    el.text = 'and now plain';
    await el.send();
    expect(s.sent[1]).to.deep.equal({ text: 'and now plain', options: { attachments: [] } });

    await runCommand(ctx(), '/use deploy-k8s');
    await waitFor(() => $(bar, '[data-role="skill-chip"]'));
    $(bar, '[data-role="skill-chip-remove"]')!.click();
    await waitFor(() => !$(bar, '[data-role="skill-chip"]'));
    expect(skillCommands.forced).to.equal(null);

    await runCommand(ctx(), '/use nothing-here');
    await runCommand(ctx(), '/use');
    expect(s.toasts.map((t) => t.message)).to.deep.equal([
      'No skill named “nothing-here”. Use /skills to see the available skills.',
      'Usage: /use <skill-name> — the agent follows that skill for your next message.',
    ]);
  });

  it('/<skill-name> sends the rest with that skill; built-in names, disabled skills and other /words stay text', async () => {
    openSession(s.chat, session('s1'));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    for (const text of ['/deploy-k8s roll out api', '/git_helper', '/secret-plan go', '/usr/bin is missing']) {
      el.text = text;
      await el.send();
    }
    expect(s.sent).to.deep.equal([
      { text: 'roll out api', options: { attachments: [], skill: 'deploy-k8s' } },
      { text: '', options: { attachments: [], skill: 'Git Helper' } },
      { text: '/secret-plan go', options: { attachments: [] } },
      { text: '/usr/bin is missing', options: { attachments: [] } },
    ]);
  });
});
