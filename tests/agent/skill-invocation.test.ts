import { describe, expect, it } from 'vitest';
import { invocationMessage, invokedSkill } from '../../src/agent/builtin/skill-invocation.js';

describe('invocationMessage', () => {
  const loaded = {
    success: true,
    name: 'release',
    content: '---\nname: release\n---\nTag it.\n',
    path: 'devops/release/SKILL.md',
    skill_dir: '/h/skills/devops/release',
    linked_files: { scripts: ['scripts/publish.sh'], references: ['references/api.md'] },
  };

  it('builds Hermes’ layout: activation note, content, directory, supporting files, instruction last', () => {
    const text = invocationMessage(loaded, '  ship it ')!;
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      '[IMPORTANT: The user has invoked the "release" skill, indicating they want you to follow its instructions. The full skill content is loaded below.]',
    );
    expect(lines.slice(1, 6)).toEqual(['', '---', 'name: release', '---', 'Tag it.']);
    expect(text).toContain('\n\n[Skill directory: /h/skills/devops/release]\n');
    expect(text).toContain('[This skill has supporting files (paths relative to the skill directory above):]\n- scripts/publish.sh\n- references/api.md');
    expect(text).toContain('skill_view(name="devops/release", file_path="<path>")');
    expect(lines.at(-1)).toBe('The user has provided the following instruction alongside the skill invocation: ship it');
  });

  it('leaves the instruction out of a bare invocation and gives null for a skill that did not load', () => {
    expect(invocationMessage({ ...loaded, linked_files: null }, '')).not.toMatch(/following instruction|supporting files/);
    expect(invocationMessage({ success: false }, 'x')).toBeNull();
  });

  it('reads the marker only from user messages', () => {
    expect(invokedSkill({ role: 'user', content: 'x', skill: 'release' })).toBe('release');
    expect(invokedSkill({ role: 'assistant', content: 'x', skill: 'release' })).toBeNull();
    expect(invokedSkill({ role: 'user', content: 'x', skill: '  ' })).toBeNull();
  });
});
