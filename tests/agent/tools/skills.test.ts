import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSystemPrompt } from '../../../src/agent/builtin/system-prompt.js';
import { knowledgeContext, skillsPromptBlock } from '../../../src/agent/builtin/knowledge.js';
import { parseAgentConfig } from '../../../src/agent/config.js';
import { skillsListTool, skillViewTool } from '../../../src/agent/tools/skills.js';
import { parseFrontmatter } from '../../../src/agent/tools/skills-scan.js';
import type { ModelProvider } from '../../../src/agent/providers/types.js';
import { fakeContext, parse, sandbox, type Sandbox } from './helpers.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

const write = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const skills = () => join(box.hermesHome, 'skills');

/** A Hermes skills tree: categories, a top-level skill, linked files, platform and condition gates. */
function seed() {
  write(
    join(skills(), 'devops/deploy-k8s/SKILL.md'),
    [
      '---',
      'name: deploy-k8s',
      'description: Roll out a service to Kubernetes with kubectl and verify the rollout before calling it done',
      'metadata:',
      '  hermes:',
      '    tags: [kubernetes, deploy]',
      '    related_skills: [docker-build]',
      '---',
      '# Deploy to Kubernetes',
      '',
      'Run scripts/check.sh from ${HERMES_SKILL_DIR} first.',
    ].join('\n'),
  );
  write(join(skills(), 'devops/deploy-k8s/references/api.md'), '# kubectl reference');
  write(join(skills(), 'devops/deploy-k8s/references/nested/deep.md'), 'not listed: references are not recursive');
  write(join(skills(), 'devops/deploy-k8s/templates/svc/service.yaml'), 'kind: Service');
  write(join(skills(), 'devops/deploy-k8s/scripts/check.sh'), '#!/bin/sh\nkubectl get pods');
  write(join(skills(), 'devops/deploy-k8s/assets/logo.bin'), Buffer.from([0xff, 0xfe, 0x00, 0x01]).toString('latin1'));
  // An archived package under a support dir is data, never a skill of its own.
  write(join(skills(), 'devops/deploy-k8s/references/old/SKILL.md'), '---\nname: stale-copy\ndescription: archived\n---\n');
  write(join(skills(), 'devops/DESCRIPTION.md'), '---\ndescription: Shipping and operating services\n---\n');
  write(join(skills(), 'devops/docker-build/SKILL.md'), '---\nname: docker-build\ndescription: "Build images"\n---\nBody');
  write(join(skills(), 'research/arxiv/SKILL.md'), '---\nname: arxiv\n---\n# arXiv\n\nSearch and summarise arXiv papers.\n');
  write(join(skills(), 'mac-only/SKILL.md'), '---\nname: mac-only\ndescription: macOS things\nplatforms: [macos]\n---\n');
  write(join(skills(), 'solo/SKILL.md'), '---\nname: solo\ndescription: A skill at the top level\n---\n');
  write(
    join(skills(), 'research/web-fallback/SKILL.md'),
    '---\nname: web-fallback\ndescription: Browse without web tools\nmetadata:\n  hermes:\n    fallback_for_toolsets: [terminal]\n---\n',
  );
  write(join(skills(), 'research/secret-plan/SKILL.md'), '---\nname: secret-plan\ndescription: Turned off\n---\n');
  write(join(skills(), 'node_modules/pkg/SKILL.md'), '---\nname: from-deps\n---\n');
}

function context(yaml = 'skills:\n  disabled: [secret-plan]\n') {
  const config = parseAgentConfig({ configYaml: yaml, dotenv: null, env: {} });
  const fake = fakeContext(box);
  fake.ctx.knowledge = knowledgeContext({
    config,
    hermesHome: box.hermesHome,
    host: fake.ctx.host,
    main: { provider: {} as ModelProvider, model: 'm' },
    sessions: null,
    agentSessions: null,
    platform: 'linux',
  });
  return fake.ctx;
}

describe('skills_list', () => {
  it('lists name, description and category sorted by category, without disabled, other-platform, support-dir or dependency skills', async () => {
    seed();
    const r = parse(await skillsListTool.run({}, context()));
    expect(r.success).toBe(true);
    expect(r.skills).toEqual([
      { name: 'solo', description: 'A skill at the top level', category: null },
      { name: 'deploy-k8s', description: 'Roll out a service to Kubernetes with kubectl and verify the rollout before calling it done', category: 'devops' },
      { name: 'docker-build', description: 'Build images', category: 'devops' },
      // No description in the frontmatter: the first body line that is not a heading.
      { name: 'arxiv', description: 'Search and summarise arXiv papers.', category: 'research' },
      { name: 'web-fallback', description: 'Browse without web tools', category: 'research' },
    ]);
    expect(r.categories).toEqual(['devops', 'research']);
    expect(r.count).toBe(5);
    const devops = parse(await skillsListTool.run({ category: 'devops' }, context()));
    expect(devops.skills.map((s: any) => s.name)).toEqual(['deploy-k8s', 'docker-build']);
  });

  it('says so when there are no skills, and reads skills.external_dirs after the local tree (local wins a name)', async () => {
    expect(parse(await skillsListTool.run({}, context()))).toMatchObject({ success: true, skills: [], categories: [] });
    write(join(skills(), 'a/shared/SKILL.md'), '---\nname: shared\ndescription: local copy\n---\n');
    const ext = join(box.root, 'team-skills');
    write(join(ext, 'team/shared/SKILL.md'), '---\nname: shared\ndescription: team copy\n---\n');
    write(join(ext, 'team/review/SKILL.md'), '---\nname: review\ndescription: Team code review\n---\n');
    // Symlinked skill directories are followed, as Hermes' os.walk(followlinks=True).
    write(join(box.root, 'elsewhere/linked/SKILL.md'), '---\nname: linked\ndescription: via a symlink\n---\n');
    symlinkSync(join(box.root, 'elsewhere/linked'), join(skills(), 'a/linked'));
    const r = parse(await skillsListTool.run({}, context(`skills:\n  external_dirs: ["${ext}"]\n`)));
    expect(r.skills.map((s: any) => [s.name, s.description])).toEqual([
      ['linked', 'via a symlink'],
      ['shared', 'local copy'],
      ['review', 'Team code review'],
    ]);
  });

  it('reads skills.disabled written as a JSON string, as `hermes config set` stores lists', async () => {
    seed();
    const r = parse(await skillsListTool.run({}, context(`skills:\n  disabled: '["arxiv", "solo"]'\n`)));
    expect(r.skills.map((s: any) => s.name)).toEqual(['deploy-k8s', 'docker-build', 'secret-plan', 'web-fallback']);
  });
});

describe('skill_view', () => {
  it('returns SKILL.md with tags, related skills, the relative path and linked files by kind', async () => {
    seed();
    const r = parse(await skillViewTool.run({ name: 'deploy-k8s' }, context()));
    expect(r).toMatchObject({
      success: true,
      name: 'deploy-k8s',
      tags: ['kubernetes', 'deploy'],
      related_skills: ['docker-build'],
      path: 'devops/deploy-k8s/SKILL.md',
      skill_dir: join(skills(), 'devops/deploy-k8s'),
      linked_files: {
        references: ['references/api.md'],
        templates: ['templates/svc/service.yaml'],
        assets: ['assets/logo.bin'],
        scripts: ['scripts/check.sh'],
      },
    });
    // ${HERMES_SKILL_DIR} is rendered, as Hermes' template vars do by default.
    expect(r.content).toContain(`Run scripts/check.sh from ${join(skills(), 'devops/deploy-k8s')} first.`);
    expect(r.usage_hint).toMatch(/file_path/);
    // The categorized path names the same skill.
    expect(parse(await skillViewTool.run({ name: 'devops/deploy-k8s' }, context())).name).toBe('deploy-k8s');
  });

  it('serves a linked file, lists what exists when the file is missing, and refuses paths out of the skill', async () => {
    seed();
    const ctx = context();
    expect(parse(await skillViewTool.run({ name: 'deploy-k8s', file_path: 'references/api.md' }, ctx))).toEqual({
      success: true,
      name: 'deploy-k8s',
      file: 'references/api.md',
      content: '# kubectl reference',
      file_type: '.md',
    });
    const missing = parse(await skillViewTool.run({ name: 'deploy-k8s', file_path: 'references/nope.md' }, ctx));
    expect(missing.success).toBe(false);
    expect(missing.error).toBe("File 'references/nope.md' not found in skill 'deploy-k8s'.");
    expect(missing.available_files.references).toContain('references/api.md');
    expect(missing.available_files.scripts).toEqual(['scripts/check.sh']);
    const traversal = parse(await skillViewTool.run({ name: 'deploy-k8s', file_path: '../docker-build/SKILL.md' }, ctx));
    expect(traversal).toMatchObject({ success: false, error: "Path traversal ('..') is not allowed." });
    const binary = parse(await skillViewTool.run({ name: 'deploy-k8s', file_path: 'assets/logo.bin' }, ctx));
    expect(binary).toMatchObject({ success: true, is_binary: true });
  });

  it('refuses unknown, disabled, other-platform and escaping names with what to do instead', async () => {
    seed();
    const ctx = context();
    const unknown = parse(await skillViewTool.run({ name: 'nope' }, ctx));
    expect(unknown).toMatchObject({ success: false, error: "Skill 'nope' not found." });
    expect(unknown.available_skills).toEqual(['solo', 'deploy-k8s', 'docker-build', 'arxiv', 'web-fallback']);
    expect(parse(await skillViewTool.run({ name: 'secret-plan' }, ctx)).error).toMatch(/^Skill 'secret-plan' is disabled/);
    expect(parse(await skillViewTool.run({ name: 'mac-only' }, ctx))).toMatchObject({ success: false, readiness_status: 'unsupported' });
    expect(parse(await skillViewTool.run({ name: '../../etc' }, ctx)).error).toBe("Skill name cannot contain '..' path traversal components.");
    expect(parse(await skillViewTool.run({ name: '/etc/passwd' }, ctx)).error).toBe('Skill name must be a relative path within the skills directory.');
  });

  it('refuses to guess between two skills of one name', async () => {
    write(join(skills(), 'a/dup/SKILL.md'), '---\nname: dup\n---\n');
    write(join(skills(), 'b/dup/SKILL.md'), '---\nname: dup\n---\n');
    const r = parse(await skillViewTool.run({ name: 'dup' }, context()));
    expect(r.success).toBe(false);
    expect(r.error).toMatch(/^Ambiguous skill name 'dup': 2 skills match/);
    expect(r.matches).toHaveLength(2);
    expect(parse(await skillViewTool.run({ name: 'a/dup' }, context())).success).toBe(true);
  });
});

describe('the skills index in the system prompt', () => {
  it("lists visible skills by category in Hermes' layout, only when a skills tool is offered", async () => {
    seed();
    const ctx = context();
    const tools = ['terminal', 'read_file', 'skills_list', 'skill_view'];
    const block = await skillsPromptBlock({ host: ctx.host, knowledge: ctx.knowledge!, hermesHome: box.hermesHome, toolNames: tools });
    const index = block.slice(block.indexOf('<available_skills>'), block.indexOf('</available_skills>') + '</available_skills>'.length);
    expect(index).toBe(
      [
        '<available_skills>',
        '  devops: Shipping and operating services',
        '    - deploy-k8s: Roll out a service to Kubernetes with kubectl and verify ...',
        '    - docker-build: Build images',
        '  research:',
        '    - arxiv',
        '  solo:',
        '    - solo: A skill at the top level',
        '</available_skills>',
      ].join('\n'),
    );
    // web-fallback is a fallback for the terminal toolset, which is offered; it stays in skills_list only.
    expect(block.startsWith('## Skills\n')).toBe(true);
    expect(block).toContain('skill_view(name)');
    expect(await skillsPromptBlock({ host: ctx.host, knowledge: ctx.knowledge!, hermesHome: box.hermesHome, toolNames: ['terminal'] })).toBe('');

    const prompt = await buildSystemPrompt({
      host: ctx.host,
      hermesHome: box.hermesHome,
      workspace: box.workspace,
      model: 'm',
      provider: 'p',
      now: new Date(0),
      toolNames: tools,
      skillsIndex: block,
    });
    expect(prompt).toContain(index);
    expect(prompt.indexOf('## Skills')).toBeLessThan(prompt.indexOf('Conversation started:'));
  });

  it('parses frontmatter with a BOM and falls back to key: value lines for broken YAML', () => {
    expect(parseFrontmatter('\uFEFF---\nname: x\n---\nbody').frontmatter).toEqual({ name: 'x' });
    expect(parseFrontmatter('---\nname: x\ndescription: a: b: [\n---\nbody').frontmatter).toEqual({ name: 'x', description: 'a: b: [' });
    expect(parseFrontmatter('no frontmatter').frontmatter).toEqual({});
  });
});
