import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { NodeHermesFiles } from '../../src/adapters/platform/node-hermes-files.js';
import { linkedFiles, skillContentError } from '../../src/domain/skill-rules.js';
import { readSkillsConfig, setSkillEnabled } from '../../src/domain/skills-config.js';
import { SCAN_FRESH_MS, forgetSkills, scanSkills } from '../../src/routes/skills-catalog.js';
import { ConfigSyntaxError } from '../../src/agent/config-edit.js';

describe('skills config.yaml edits', () => {
  it('adds to skills.disabled keeping comments, and leaves a file without it alone when enabling', () => {
    const text = '# top\nmodel:\n  default: m # keep\nskills:\n  disabled:\n    - a # first\n';
    const off = setSkillEnabled(text, 'b', false);
    expect(off).toBe('# top\nmodel:\n  default: m # keep\nskills:\n  disabled:\n    - a # first\n    - b\n');
    expect(setSkillEnabled(off, 'b', true)).toBe(text);
    expect(setSkillEnabled(off, 'b', false)).toBe(off);
    expect(setSkillEnabled('model: x\n', 'a', true)).toBe('model: x\n');
    expect(parseYaml(setSkillEnabled(null, 'a', false))).toEqual({ skills: { disabled: ['a'] } });
    // A JSON-string list (hermes config set) becomes a YAML list with every name kept.
    expect(parseYaml(setSkillEnabled('skills:\n  disabled: \'["a", "b"]\'\n', 'c', false)).skills.disabled).toEqual(['a', 'b', 'c']);
    expect(() => setSkillEnabled('skills: [\n', 'a', false)).toThrow(ConfigSyntaxError);
  });

  it("resolves external_dirs as Hermes does: ~, $VAR, relative to the home, never the home's own skills", () => {
    const cfg = readSkillsConfig('skills:\n  external_dirs: [~/team, $SHARED/skills, extra, /abs/x/, skills]\n', {
      root: '/h',
      homeDir: '/u',
      env: { SHARED: '/srv' },
    });
    expect(cfg.externalDirs).toEqual(['/u/team', '/srv/skills', '/h/extra', '/abs/x']);
    expect(readSkillsConfig('skills: [\n', { root: '/h', homeDir: '/u', env: {} })).toEqual({ disabled: new Set(), externalDirs: [] });
  });
});

describe('skill format rules', () => {
  it('accepts what Hermes accepts', () => {
    expect(skillContentError('---\nname: a\ndescription: b\n---\nbody\n')).toBeNull();
    expect(skillContentError('\uFEFF---\nname: a\ndescription: b\n---\nbody\n')).toBeNull();
    expect(skillContentError(`---\nname: a\ndescription: ${'x'.repeat(1025)}\n---\nbody\n`)).toMatch(/exceeds 1024/);
    expect(skillContentError('---\n- a\n---\nbody\n')).toMatch(/mapping/);
    expect(skillContentError('---\nname: a\ndescription: b\nbody\n')).toMatch(/not closed/);
  });

  it('lists linked files by the incumbent rules', () => {
    expect(
      linkedFiles([
        'SKILL.md',
        'references/a.md',
        'references/deep/b.md',
        'references/c.txt',
        'templates/t/x.yaml',
        'templates/y.bin',
        'assets/i/p.png',
        'scripts/s.py',
        'scripts/lib/z.py',
        'other/o.md',
      ]),
    ).toEqual({ references: ['references/a.md'], templates: ['templates/t/x.yaml'], assets: ['assets/i/p.png'], scripts: ['scripts/s.py'] });
  });
});

describe('skills scan', () => {
  let home: string;
  const files = new NodeHermesFiles();
  const config = { disabled: new Set<string>(), externalDirs: [] };
  const add = async (name: string) => {
    await mkdir(join(home, 'skills', name), { recursive: true });
    await writeFile(join(home, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: d\n---\nbody\n`);
  };
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'hermes-skills-scan-'));
    forgetSkills(files);
  });
  afterEach(async () => {
    forgetSkills(files);
    await rm(home, { recursive: true, force: true });
  });

  it('answers from the last scan, refreshes it in the background once stale, and forgets it on demand', async () => {
    await add('one');
    const at = (now: number) => scanSkills(files, { root: home, config, platform: 'linux', now }).then((s) => s.map((x) => x.name));
    expect(await at(0)).toEqual(['one']);
    await add('two');
    expect(await at(SCAN_FRESH_MS / 2)).toEqual(['one']);
    // Stale: this answer is still the old scan; the next one has the new skill.
    expect(await at(SCAN_FRESH_MS + 1)).toEqual(['one']);
    await expect.poll(() => at(SCAN_FRESH_MS + 2), { timeout: 10_000 }).toEqual(['one', 'two']);
    await add('three');
    forgetSkills(files);
    expect(await at(SCAN_FRESH_MS + 3)).toEqual(['one', 'three', 'two']);
  });

  it('follows a symlink loop without hanging and reads an edited SKILL.md again', async () => {
    await add('one');
    const { symlink } = await import('node:fs/promises');
    await symlink(join(home, 'skills'), join(home, 'skills', 'one', 'loop'));
    const first = await scanSkills(files, { root: home, config, platform: 'linux', now: 0 });
    expect(first.map((s) => s.name)).toEqual(['one']);
    await writeFile(join(home, 'skills', 'one', 'SKILL.md'), '---\nname: one\ndescription: changed a lot\n---\nbody\n');
    forgetSkills(files);
    expect((await scanSkills(files, { root: home, config, platform: 'linux', now: 0 }))[0]!.description).toBe('changed a lot');
  });
});
