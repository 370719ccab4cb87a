import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/panels/skills/hermes-skills-panel.js';
import type { HermesSkillsPanel } from '../../../components/panels/skills/hermes-skills-panel.js';
import { composeSkill, splitSkill } from '../../../components/panels/skills/skill-text.js';

const all = (el: Element, sel: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(sel)];
const one = <T extends HTMLElement = HTMLElement>(el: Element, sel: string) => el.shadowRoot!.querySelector<T>(sel)!;
const names = (el: Element) => all(el, '[data-role="skill-row"]').map((r) => r.dataset.skill);

const row = (name: string, category: string | null, extra: Record<string, unknown> = {}) => ({
  name,
  description: `About ${name}`,
  category,
  disabled: false,
  enabled: true,
  path: `${category ? `${category}/` : ''}${name}/SKILL.md`,
  source: 'local',
  read_only: false,
  tags: [],
  linked_files: {},
  ...extra,
});

describe('hermes-skills-panel', () => {
  let fetchStub: ReturnType<typeof stubFetch>;
  beforeEach(() => {
    sessionStorage.removeItem('hermes:panel:skills');
    fetchStub = stubFetch({
      'GET /api/skills': {
        skills: [row('notes', null), row('deploy', 'devops'), row('legacy', 'devops', { disabled: true, enabled: false })],
        categories: ['devops'],
      },
      'GET /api/skills/usage': { usage: { deploy: { use_count: 2, view_count: 1, patch_count: 0 } } },
      'GET /api/skills/content': (c) => {
        const name = new URL(c.url, location.href).searchParams.get('name');
        const file = new URL(c.url, location.href).searchParams.get('file');
        if (file) return { content: 'echo hi', path: file };
        return { ...row(name!, 'devops'), content: '---\nname: deploy\ndescription: d\n---\n# Deploy\n', linked_files: { scripts: ['scripts/go.sh'] } };
      },
      'POST /api/skills/toggle': (c) => ({ ok: true, name: c.body.name, enabled: c.body.enabled }),
    });
  });
  afterEach(() => {
    cleanup();
    fetchStub.restore();
  });

  it('groups by category with (general) first, shows usage and the disabled switch', async () => {
    const el = await fixture<HermesSkillsPanel>('hermes-skills-panel');
    await waitFor(() => names(el).length === 3);
    expect(all(el, '[data-role="skill-category"]').map((c) => c.dataset.category)).to.deep.equal(['(general)', 'devops']);
    expect(names(el)).to.deep.equal(['notes', 'deploy', 'legacy']);
    expect(one(el, '[data-skill="deploy"] [data-role="skill-usage"]').textContent).to.equal('3 uses');
    expect(one<HTMLInputElement>(el, '[data-skill="legacy"] [data-role="skill-toggle"]').checked).to.equal(false);
  });

  it('searches, keeps the search in panel state, and toggles without opening the skill', async () => {
    const el = await fixture<HermesSkillsPanel>('hermes-skills-panel');
    await waitFor(() => names(el).length === 3);
    const search = one<HTMLInputElement>(el, '[data-role="skill-search"]');
    search.value = 'dep';
    search.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect(names(el)).to.deep.equal(['deploy']);
    expect(JSON.parse(sessionStorage.getItem('hermes:panel:skills')!).search).to.equal('dep');
    const toggle = one<HTMLInputElement>(el, '[data-skill="deploy"] [data-role="skill-toggle"]');
    toggle.click();
    await waitFor(() => fetchStub.calls.some((c) => c.method === 'POST'));
    expect(fetchStub.calls.find((c) => c.method === 'POST')!.body).to.deep.equal({ name: 'deploy', enabled: false });
    expect(fetchStub.calls.some((c) => c.url.startsWith('/api/skills/content'))).to.equal(false);
  });

  it('opens a skill and one of its linked files, and restores both from panel state', async () => {
    const el = await fixture<HermesSkillsPanel>('hermes-skills-panel');
    await waitFor(() => names(el).length === 3);
    one(el, '[data-skill="deploy"]').click();
    await waitFor(() => !!el.shadowRoot!.querySelector('[data-role="skill-detail"][data-skill="deploy"]'));
    one(el, '[data-role="skill-file"][data-file="scripts/go.sh"]').click();
    await waitFor(() => one(el, '[data-role="skill-file-view"] pre')?.textContent === 'echo hi');
    cleanup();
    const again = await fixture<HermesSkillsPanel>('hermes-skills-panel');
    await waitFor(() => one(again, '[data-role="skill-file-view"]')?.dataset.file === 'scripts/go.sh');
  });

  it('composes a SKILL.md Hermes accepts, quoting what YAML would misread', () => {
    const text = composeSkill({ name: 'lint-fix', description: 'Fix: lint #1', body: 'Run it.' });
    expect(text).to.equal('---\nname: lint-fix\ndescription: "Fix: lint #1"\n---\n\nRun it.\n');
    expect(splitSkill(text)).to.deep.equal({ frontmatter: 'name: lint-fix\ndescription: "Fix: lint #1"', body: '\nRun it.\n' });
    expect(composeSkill({ name: 'a', description: 'yes', body: 'b' })).to.contain('description: "yes"');
  });
});
